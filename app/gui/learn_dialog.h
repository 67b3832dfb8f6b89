// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/learn_session.h"
#include "gui/profile_dialog.h"

#include <QDialog>
#include <string>

class QLineEdit;

namespace rooftop::gui {

/// What the learn page starts: the learning, and the file its predictor is written to.
struct LearnPageRequest {
    LearnRequest learn;
    std::string predictorPath;
};

/// Device → Learn a predictor from runs…: asks for the model's runs file (a profile's or a tune's), an
/// optional reference model with its runs to pre-train on, and the predictor file to write; the workload is
/// the window's. It runs nothing. A field that does not read keeps the dialog open with a message over it.
class LearnDialog : public QDialog {
    Q_OBJECT
public:
    /// `defaults`: the open model, board, dims, phase and runtime (as for the profile dialog).
    explicit LearnDialog(const ProfileDialogDefaults& defaults, QWidget* parent = nullptr);

    /// The request the fields describe; throws InputError for a missing file or a reference half given.
    LearnPageRequest request() const;
    /// Sets the runs file.
    void setRunsPath(const QString& path);
    /// Sets the reference model and its runs (both empty: none).
    void setReference(const QString& modelPath, const QString& runsPath);
    /// Sets the predictor file written.
    void setPredictorPath(const QString& path);

    /// Closes with Accepted when the fields make a request (and remembers them); otherwise shows why in a
    /// message box parented to this dialog and stays open.
    void accept() override;

    /// The predictor file a learning of `runsPath` writes by default: beside it, "-runs.csv" (or the
    /// extension) replaced by "-predictor.json".
    static QString defaultPredictorFile(const QString& runsPath);

private:
    ProfileDialogDefaults defaults_;
    QLineEdit* runs_ = nullptr;
    QLineEdit* referenceModel_ = nullptr;
    QLineEdit* referenceRuns_ = nullptr;
    QLineEdit* predictor_ = nullptr;
};

} // namespace rooftop::gui
