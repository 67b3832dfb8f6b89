// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/report/calibration_writers.h"

#include <QWidget>

class QLabel;
class QTabWidget;
class QTableWidget;

namespace rooftop::gui {

/// The calibration report as a person reads it: the fit in words, each run's latency and power in a table.
class CalibrationView : public QWidget {
    Q_OBJECT

public:
    explicit CalibrationView(QWidget* parent = nullptr);
    /// Shows a report (calibrationReportParts).
    void showReport(const CalibrationReportParts& parts);
    /// Empties the view.
    void clear();
    /// Everything shown, as plain text (the fit, the tables' cells), for tests and copying.
    QString text() const;

private:
    QLabel* fit_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QTableWidget* runs_ = nullptr;
    QTableWidget* power_ = nullptr;
    QLabel* powerNotes_ = nullptr;
    QLabel* footer_ = nullptr;
};

} // namespace rooftop::gui
