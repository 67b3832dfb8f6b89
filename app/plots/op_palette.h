// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QHash>
#include <QString>
#include <QStringList>
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

/// The styles of the op types of one model, each with a colour no other op type of the model has (so a
/// chart of colours alone, as the time-by-op bars, tells them apart, and the colour and marker pair is
/// distinct on the roofline). An op type keeps styleForOpType()'s colour unless an op type of the model ahead
/// of it has it: first the common ops in a fixed order, then the others by name; it then takes the first free
/// colour of a longer palette. The same set of op types gives the same styles, on screen and in exports.
class OpPalette {
public:
    OpPalette() = default;
    explicit OpPalette(const QStringList& opTypes);
    /// The style of an op type of the set; styleForOpType() for any other.
    OpStyle style(const QString& opType) const;

private:
    QHash<QString, OpStyle> styles_;
};

/// A distinct colour for the n-th overlaid power mode.
QColor colorForMode(int index);

} // namespace rooftop::plots
