// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/profile_session.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>

namespace rooftop::gui {

/// Runs Device → Profile this model… (runProfileSession) off the GUI thread on a pool of its own: one sweep
/// at a time, cancellable, with progress. The sweep restores the power mode itself when it stops; stopping
/// or destroying the controller waits for that.
class ProfileController : public QObject {
    Q_OBJECT
public:
    /// What a sweep runs on: runProfileSession by default, a stand-in in tests.
    using Session = std::function<ProfileOutcome(const ProfileRequest&, const ProfileProgressCallback&,
                                                 const std::atomic<bool>*)>;

    explicit ProfileController(QObject* parent = nullptr);
    explicit ProfileController(Session session, QObject* parent = nullptr);
    /// Cancels a running sweep and waits until it has restored the power mode.
    ~ProfileController() override;

    /// Starts a sweep; false (and nothing started) while one runs.
    bool start(const ProfileRequest& request);
    /// Asks the running sweep to stop (its current run is stopped too); no effect when none runs.
    void cancel();
    /// Cancels and blocks until the sweep has ended (the power mode restored).
    void stopAndWait();
    /// True from start() until the outcome has been delivered.
    bool running() const { return running_; }

    /// "mode 2/4 MODE_30W, batch 1 fp32: ok 3.2 ms, about 1:05 left": one line for a progress dialog.
    static QString describe(const ProfileProgress& step);

signals:
    /// The sweep advanced: a one-line description and the fraction done (0..1).
    void progress(const QString& text, double fraction);
    /// The sweep ended (outcome.cancelled when it was stopped); its rows are in outcome.outPath.
    void finished(const rooftop::ProfileOutcome& outcome);
    /// The request was refused (InputError) or this machine cannot run it (UnavailableError); one line.
    void failed(const QString& message);

private:
    Session session_;
    QThreadPool pool_;
    std::shared_ptr<std::atomic<bool>> cancel_; ///< of the running sweep; null when none
    bool running_ = false;
};

} // namespace rooftop::gui
