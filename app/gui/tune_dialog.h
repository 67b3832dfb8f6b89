// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/tune/tune_session.h"
#include "gui/profile_dialog.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;
class QCheckBox;

namespace rooftop::gui {

/// Device → Tune this model…: asks for the runner, the limits, the objective, the space, the budget, the
/// search and the runs file, and builds the TuneRequest; it runs nothing.
class TuneDialog : public QDialog {
    Q_OBJECT
public:
    /// `defaults`: the open model, board, batch and precision (as for the profile dialog); `slo`, `cap` and
    /// `objective`: the advisor's question.
    TuneDialog(const ProfileDialogDefaults& defaults, const Constraints& limits, Objective objective,
               QWidget* parent = nullptr);

    /// The request the fields describe; throws InputError for a malformed field (no SLO, a bad batch list).
    TuneRequest request() const;
    /// Selects a runner by its --runner spelling ("trtexec", "sim", "command:CMD").
    void setRunner(const QString& spec);
    /// Sets the budget.
    void setBudget(int budget);
    /// Sets the runs file.
    void setRunsPath(const QString& path);

private:
    ProfileDialogDefaults defaults_;
    QComboBox* runner_ = nullptr;
    QLineEdit* command_ = nullptr;
    QCheckBox* noSwitch_ = nullptr;
    QDoubleSpinBox* slo_ = nullptr;
    QDoubleSpinBox* cap_ = nullptr;
    QComboBox* objective_ = nullptr;
    QComboBox* modes_ = nullptr;
    QLineEdit* batches_ = nullptr;
    QLineEdit* precisions_ = nullptr;
    QSpinBox* budget_ = nullptr;
    QComboBox* search_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QLineEdit* runsPath_ = nullptr;
};

} // namespace rooftop::gui
