// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/profile_session.h"

#include <QDialog>
#include <QString>
#include <cstdint>
#include <map>
#include <string>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace rooftop::gui {

/// What the profile dialog starts from: the open model, the board and the analysis's batch and precision.
struct ProfileDialogDefaults {
    QString modelPath;
    QString deviceId;
    QString deviceName; ///< shown; empty: the id
    int64_t batch = 1;
    QString precision = QStringLiteral("fp32");
    QString trtexecPath; ///< findTrtexec(); empty: none, and the simulated board is the default runner
    std::map<std::string, int64_t> dims; ///< the toolbar's bound symbolic dims: the workload measured
};

/// Device → Profile this model…: asks for the runner, modes, batches, precisions, repeats and the runs file,
/// and builds the ProfileRequest; it runs nothing.
class ProfileDialog : public QDialog {
    Q_OBJECT
public:
    explicit ProfileDialog(const ProfileDialogDefaults& defaults, QWidget* parent = nullptr);

    /// The request the fields describe; throws InputError for a malformed batch list or an empty field.
    ProfileRequest request() const;

    /// Selects a runner by its --runner spelling ("trtexec", "sim", "command:CMD").
    void setRunner(const QString& spec);
    /// Sets the mode set ("current", "stock", "sample:8", a ;-separated list).
    void setModes(const QString& modes);
    /// Sets the runs file.
    void setRunsPath(const QString& path);
    /// Sets the runs per configuration.
    void setRepeat(int repeat);

    /// The runs file a measurement of `modelPath` writes by default (defaultRunsPath, as the CLI's).
    static QString defaultRunsFile(const QString& modelPath);
    /// The row that names the workload's dims ("sequence=128"), for the profile and tune dialogs.
    static QString dimsText(const std::map<std::string, int64_t>& dims);

private:
    void runnerChanged();
    void browse();

    ProfileDialogDefaults defaults_;
    QComboBox* runner_ = nullptr;
    QLineEdit* command_ = nullptr;
    QComboBox* modes_ = nullptr;
    QLineEdit* batches_ = nullptr;
    QLineEdit* precisions_ = nullptr;
    QSpinBox* repeat_ = nullptr;
    QCheckBox* noSwitch_ = nullptr;
    QLineEdit* runsPath_ = nullptr;
};

} // namespace rooftop::gui
