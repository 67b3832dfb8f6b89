// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"
#include "core/device/device_spec.h"
#include "core/measure/profile_session.h"
#include "core/session/analysis_request.h"

#include <QDialog>
#include <QString>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

class QSpinBox;

namespace rooftop::gui {

class MeasuringFields;

/// What the profile and tune dialogs start from: the open model, the board and the analysis's batch and
/// precision.
struct ProfileDialogDefaults {
    QString modelPath;
    QString deviceId;
    QString deviceName; ///< shown; empty: the id
    int64_t batch = 1;
    QString precision = QStringLiteral("fp32");
    QString trtexecPath; ///< findTrtexec(); empty: none, and the simulated board is the default runner
    std::map<std::string, int64_t> dims;   ///< the toolbar's bound symbolic dims: the workload measured
    Phase phase = Phase::Inference;        ///< the toolbar's Run: inferences, or training steps
    Optimizer optimizer = Optimizer::Adam; ///< a training step's update
    std::optional<DeviceSpec> device;      ///< the analysed board, to count the modes a set names; empty: not
    double fastestLatencyMs = 0.0; ///< the fastest stock mode's predicted latency (0: none), tune's hint
    RuntimeSelection runtime;      ///< the analysis's runtime: a learned predictor starts from its roofline
};

/// Device → Profile this model…: asks for the runner, modes, batches, precisions, repeats and the runs file,
/// says how many runs that is and about how long, and builds the ProfileRequest; it runs nothing. A field
/// that does not read keeps the dialog open with a message over it.
class ProfileDialog : public QDialog {
    Q_OBJECT
public:
    explicit ProfileDialog(const ProfileDialogDefaults& defaults, QWidget* parent = nullptr);

    /// The request the fields describe; throws InputError for a malformed batch list or an empty field.
    ProfileRequest request() const;

    /// Selects a runner by its --runner spelling ("trtexec", "sim", "command:CMD").
    void setRunner(const QString& spec);
    /// Sets the mode set by its --modes spelling ("current", "stock", "sample:8", a ;-separated list).
    void setModes(const QString& modes);
    /// Sets the runs file.
    void setRunsPath(const QString& path);
    /// Sets the runs per configuration.
    void setRepeat(int repeat);
    /// The fields shared with the tune dialog.
    MeasuringFields* fields() const { return fields_; }

    /// Closes with Accepted when the fields make a request (and remembers them); otherwise shows why in a
    /// message box parented to this dialog and stays open.
    void accept() override;

    /// The runs file a measurement of `modelPath` writes by default (defaultRunsPath, as the CLI's).
    static QString defaultRunsFile(const QString& modelPath);
    /// The row that names the workload's dims ("sequence=128"), for the profile and tune dialogs.
    static QString dimsText(const std::map<std::string, int64_t>& dims);
    /// The row that names what each run runs ("inference", "training step with adam: forward, backward and
    /// the update").
    static QString runText(Phase phase, Optimizer optimizer);

private:
    void updateEstimate();

    ProfileDialogDefaults defaults_;
    MeasuringFields* fields_ = nullptr;
    QSpinBox* repeat_ = nullptr;
};

/// Shows a field's problem in a window-modal message box over `dialog` (never behind it), deleted on close.
void showFieldProblem(QWidget* dialog, const QString& title, const QString& message);

} // namespace rooftop::gui
