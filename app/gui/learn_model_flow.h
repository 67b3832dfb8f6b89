// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gui/learn_dialog.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QAction;
class QDialog;
class QLabel;
class QPushButton;
class QWidget;

namespace rooftop::plots {
class PredictionCheckPlot;
}

namespace rooftop::gui {

/// Device → Learn a predictor from runs…: asks in a LearnDialog, learns (runLearning) off the GUI thread
/// with its stage shown, writes the predictor file, shows its cross-validated error with each run's
/// held-out prediction against the run, and hands the file to the advisor on request.
class LearnModelFlow : public QObject {
    Q_OBJECT
public:
    /// What a learning runs on: runLearning by default, a stand-in in tests.
    using Session = std::function<LearnOutcome(const LearnRequest&)>;

    explicit LearnModelFlow(QWidget* window);
    LearnModelFlow(QWidget* window, Session session);
    /// Cancels a running learning and waits for it to stop at its next stage.
    ~LearnModelFlow() override;

    /// The menu action (enabled while a model is open and nothing is being learned).
    QAction* action() const { return action_; }
    /// Records whether a model is open (the action needs one).
    void setModelOpen(bool open);
    /// Shows the dialog for this model, board and workload and learns what it describes.
    void learn(const ProfileDialogDefaults& defaults);
    /// Learns with the result window shown; false (with a message) while a learning runs.
    bool start(const LearnPageRequest& request);
    /// True from start() until the result (or failure) has been shown.
    bool running() const { return running_; }
    /// The last predictor learned and written, when one was.
    const std::optional<LearnOutcome>& lastOutcome() const { return outcome_; }
    /// The file the last predictor was written to.
    const QString& predictorPath() const { return predictorPath_; }
    /// The result window (null before the first learning).
    QDialog* resultWindow() const { return window_; }
    plots::PredictionCheckPlot* latencyCheck() const { return latencyCheck_; }
    plots::PredictionCheckPlot* powerCheck() const { return powerCheck_; }
    /// Hands the last predictor file to the advisor (useRequested()); nothing without one.
    void use();
    /// Stops a running learning at its next stage (a cross-validation fold, the final fit); nothing is
    /// written.
    void cancel();

signals:
    /// The learning ended: lastOutcome() has the predictor, or failed() was emitted.
    void finished();
    /// Use this predictor file for the open model's numbers.
    void useRequested(const QString& predictorPath);
    /// A line for the status bar.
    void statusMessage(const QString& text);
    /// The learning was refused or failed.
    void failed(const QString& title, const QString& message);

private:
    void buildWindow();
    void done(const LearnOutcome& outcome, const QString& predictorPath);

    QWidget* parent_;
    Session session_;
    QThreadPool pool_;
    bool running_ = false;
    bool modelOpen_ = false;
    std::optional<LearnOutcome> outcome_;
    QString predictorPath_;
    QAction* action_ = nullptr;
    QPointer<QDialog> window_;
    QLabel* status_ = nullptr;
    QLabel* summary_ = nullptr;
    plots::PredictionCheckPlot* latencyCheck_ = nullptr;
    plots::PredictionCheckPlot* powerCheck_ = nullptr;
    QPushButton* useButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    std::shared_ptr<std::atomic<bool>> cancelled_; ///< the running learning's; its progress reports check it
};

} // namespace rooftop::gui
