// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/tune/tune_session.h"
#include "gui/profile_dialog.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace rooftop::gui {

class MeasuringFields;

/// Device → Tune this model…: asks for the runner, the limits, the objective, the space, the budget, the
/// search and the runs file, says how many runs that is and about how long, and builds the TuneRequest; it
/// runs nothing. A field that does not read keeps the dialog open with a message over it.
class TuneDialog : public QDialog {
    Q_OBJECT
public:
    /// `defaults`: the open model, board, batch and precision (as for the profile dialog); `limits` and
    /// `objective`: the advisor's question. Without an SLO there, the last one given here, else 1.5 × the
    /// fastest stock mode's predicted latency (defaults.fastestLatencyMs), else none (to be given).
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
    /// The fields shared with the profile dialog.
    MeasuringFields* fields() const { return fields_; }

    /// Closes with Accepted when the fields make a request (and remembers them); otherwise shows why in a
    /// message box parented to this dialog and stays open.
    void accept() override;

private:
    void updateEstimate();
    void save() const;

    ProfileDialogDefaults defaults_;
    MeasuringFields* fields_ = nullptr;
    QDoubleSpinBox* slo_ = nullptr;
    QDoubleSpinBox* cap_ = nullptr;
    QComboBox* objective_ = nullptr;
    QSpinBox* budget_ = nullptr;
    QComboBox* search_ = nullptr;
    QSpinBox* seed_ = nullptr;
};

} // namespace rooftop::gui
