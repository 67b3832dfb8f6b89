// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QString>
#include <qcustomplot.h>

namespace rooftop::plots {

/// How the points of one op type are drawn: a colour and a marker shape.
struct OpStyle {
    QColor color;
    QCPScatterStyle::ScatterShape shape = QCPScatterStyle::ssDisc;
};

/// A stable style per op type (the same op type always gets the same colour and shape, on screen and in
/// exports). Ops that are easily confused (MatMul and Gemm; Add, Sub, Mul and Div) differ in both.
OpStyle styleForOpType(const QString& opType);

/// The colour of styleForOpType().
QColor colorForOpType(const QString& opType);

/// A distinct colour for the n-th overlaid power mode.
QColor colorForMode(int index);

} // namespace rooftop::plots
