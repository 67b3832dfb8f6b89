// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/tune/tune_session.h"
#include "gui/profile_dialog.h"

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
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QWidget;

namespace rooftop::gui {

class TuneConvergencePlot;

/// Device → Tune this model…: asks for the tune in a TuneDialog, runs it (runTuneSession) off the GUI
/// thread, shows each run as it lands with the best-so-far energy against runs, cancels with the power mode
/// restored (the search restores it; Cancel waits for that), and applies the result to the advisor.
class TuneModelFlow : public QObject {
    Q_OBJECT
public:
    /// What a tune runs on: runTuneSession by default, a stand-in in tests.
    using Session =
        std::function<TuneReport(const TuneRequest&, const TuneProgressCallback&, const std::atomic<bool>*)>;

    explicit TuneModelFlow(QWidget* window);
    TuneModelFlow(QWidget* window, Session session);
    /// Cancels a running tune and waits until it has restored the power mode.
    ~TuneModelFlow() override;

    /// The menu action (enabled while a model is open and no tune runs).
    QAction* action() const { return action_; }
    /// Records whether a model is open (the action needs one).
    void setModelOpen(bool open);
    /// Shows the dialog (starting from the advisor's question) and starts the tune it describes.
    void tune(const ProfileDialogDefaults& defaults, const Constraints& limits, Objective objective);
    /// Starts a tune with its progress window; false (with a message) while one runs.
    bool start(const TuneRequest& request);
    /// True from start() until the result (or failure) has been delivered.
    bool running() const { return running_; }
    /// Asks the running tune to stop; it restores the power mode and delivers what it measured.
    void cancel();
    /// Cancels and blocks until the tune has ended (the power mode restored).
    void stopAndWait();
    /// The last tune's result, when one finished.
    const std::optional<TuneReport>& lastReport() const { return report_; }
    /// The progress window (null before the first tune).
    QDialog* progressWindow() const { return window_; }
    /// The best-so-far plot of the progress window (null before the first tune).
    TuneConvergencePlot* plot() const { return plot_; }
    /// Asks for the last result to be applied to the advisor (applied()); nothing without a recommendation.
    void apply();

signals:
    /// One more sample landed (`samples` so far).
    void sampleLanded(int samples);
    /// The tune ended (finished or cancelled); lastReport() has it.
    void finished();
    /// Apply the last result to the advisor: its question, the recommended mode and batch and its runs file
    /// (lastReport() has them).
    void applied();
    /// A line for the status bar.
    void statusMessage(const QString& text);
    /// The tune was refused or failed.
    void failed(const QString& title, const QString& message);

private:
    /// Widens the window, up to the screen's width, until the result table's lines fit.
    void widenToTheTable();
    void buildWindow();
    void landed(const QString& line, const QString& progress, double bestEnergyMj, int samples);
    void done(const TuneReport& report);

    QWidget* parent_;
    Session session_;
    QThreadPool pool_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    bool running_ = false;
    bool modelOpen_ = false;
    std::optional<TuneReport> report_;
    QAction* action_ = nullptr;
    QPointer<QDialog> window_;
    QLabel* status_ = nullptr;
    QListWidget* runs_ = nullptr;
    TuneConvergencePlot* plot_ = nullptr;
    QPlainTextEdit* result_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QPushButton* applyButton_ = nullptr;
};

} // namespace rooftop::gui
