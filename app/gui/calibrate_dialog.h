// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/calibration_session.h"
#include "gui/profile_dialog.h"

#include <QDialog>
#include <string>

class QLineEdit;

namespace rooftop::gui {

/// What the calibrate page starts: the calibration, and the runtime file it writes.
struct CalibratePageRequest {
    CalibrationRequest calibration;
    std::string runtimePath;
};

/// Device → Calibrate the runtime to runs…: asks for the model's runs file, the calibrated runtime's name and
/// the runtime file to write; the runtime to start from and the workload are the window's. It runs nothing.
/// A field that does not read keeps the dialog open with a message over it.
class CalibrateDialog : public QDialog {
    Q_OBJECT
public:
    /// `defaults`: the open model, board, dims, phase and runtime (as for the profile dialog).
    explicit CalibrateDialog(const ProfileDialogDefaults& defaults, QWidget* parent = nullptr);

    /// The request the fields describe; throws InputError for a missing runs file or no runtime file.
    CalibratePageRequest request() const;
    /// Sets the runs file (and the runtime file beside it).
    void setRunsPath(const QString& path);
    /// Sets the runtime file written.
    void setRuntimePath(const QString& path);

    /// Closes with Accepted when the fields make a request (and remembers the runs file); otherwise shows
    /// why in a message box parented to this dialog and stays open.
    void accept() override;

    /// The runtime file a calibration of `runsPath` writes by default: beside it, "MODEL-runtime.json".
    static QString defaultRuntimeFile(const QString& runsPath);

private:
    ProfileDialogDefaults defaults_;
    QLineEdit* runs_ = nullptr;
    QLineEdit* name_ = nullptr;
    QLineEdit* runtime_ = nullptr;
};

} // namespace rooftop::gui
