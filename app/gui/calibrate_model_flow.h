// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/calibrate_dialog.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <functional>
#include <optional>

class QAction;
class QDialog;
class QLabel;
class QPushButton;
class QWidget;

namespace rooftop::gui {

class CalibrationView;

/// Device → Calibrate the runtime to runs…: asks in a CalibrateDialog, calibrates (runCalibration) off the
/// GUI thread, writes the runtime file, shows the fit as `rooftop calibrate` prints it (each run predicted by
/// the starting and the calibrated runtime), and hands the file to the window on request.
class CalibrateModelFlow : public QObject {
    Q_OBJECT
public:
    /// What a calibration runs on: runCalibration by default, a stand-in in tests.
    using Session = std::function<CalibrationResult(const CalibrationRequest&)>;

    explicit CalibrateModelFlow(QWidget* window);
    CalibrateModelFlow(QWidget* window, Session session);
    /// Waits for a running calibration (it takes seconds and cannot be stopped).
    ~CalibrateModelFlow() override;

    /// The menu action (enabled while a model is open and nothing is being calibrated).
    QAction* action() const { return action_; }
    /// Records whether a model is open (the action needs one).
    void setModelOpen(bool open);
    /// Shows the dialog for this model, board, runtime and workload and calibrates what it describes.
    void calibrate(const ProfileDialogDefaults& defaults);
    /// Calibrates with the result window shown; false (with a message) while a calibration runs.
    bool start(const CalibratePageRequest& request);
    /// True from start() until the result (or failure) has been shown.
    bool running() const { return running_; }
    /// The last calibration, when one was fitted and written.
    const std::optional<CalibrationResult>& lastResult() const { return result_; }
    /// The file the last calibrated runtime was written to.
    const QString& runtimePath() const { return runtimePath_; }
    /// The result window (null before the first calibration).
    QDialog* resultWindow() const { return window_; }
    /// Hands the last runtime file to the window (useRequested()); nothing without one.
    void use();

signals:
    /// The calibration ended: lastResult() has it, or failed() was emitted.
    void finished();
    /// Offer this runtime file's runtime and analyse with it.
    void useRequested(const QString& runtimePath);
    /// A line for the status bar.
    void statusMessage(const QString& text);
    /// The calibration was refused or failed.
    void failed(const QString& title, const QString& message);

private:
    void buildWindow();
    void done(const CalibrationResult& result, const QString& runtimePath);

    QWidget* parent_;
    Session session_;
    QThreadPool pool_;
    bool running_ = false;
    bool modelOpen_ = false;
    std::optional<CalibrationResult> result_;
    QString runtimePath_;
    QAction* action_ = nullptr;
    QPointer<QDialog> window_;
    QLabel* status_ = nullptr;
    CalibrationView* report_ = nullptr;
    QPushButton* useButton_ = nullptr;
};

} // namespace rooftop::gui
