// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/microbench/bench_session.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>
#include <string>

namespace rooftop::gui {

/// Runs Device → Measure this device… off the GUI thread on a pool of its own: one measurement at a time in
/// the whole process, cancellable, with progress. The bench session restores the power mode itself when it
/// stops; stopping or destroying the controller waits for that, and only for its own job.
class MeasurementController : public QObject {
    Q_OBJECT
public:
    /// What a measurement runs on: the real bench session by default, a stand-in in tests.
    struct Backend {
        std::function<bool(std::string* whyNot)> available;
        std::function<SweepOutcome(const BenchRequest&, const SweepProgressCallback&,
                                   const std::atomic<bool>*)>
            run;
    };
    /// The real backend: benchAvailable and runBenchSession.
    static Backend benchBackend();

    explicit MeasurementController(QObject* parent = nullptr);
    explicit MeasurementController(Backend backend, QObject* parent = nullptr);
    /// Cancels a running measurement and waits until it has restored the power mode.
    ~MeasurementController() override;

    /// Starts a measurement; false (and nothing started) while one runs anywhere in the process.
    bool start(const BenchRequest& request);
    /// Asks the running measurement to stop at its next kernel or mode; no effect when none runs.
    void cancel();
    /// Cancels and blocks until this controller's job has ended (the power mode restored).
    void stopAndWait();
    /// True from start() until the outcome has been delivered.
    bool running() const { return running_; }

signals:
    /// The measurement advanced: a one-line description and the fraction done (0..1).
    void progress(const QString& text, double fraction);
    /// This machine cannot measure: no result, and the reason in one line.
    void unavailable(const QString& reason);
    /// The measurement ended (outcome.cancelled when it was stopped).
    void finished(const rooftop::SweepOutcome& outcome);
    /// The measurement failed; message is one line.
    void failed(const QString& message);

private:
    Backend backend_;
    QThreadPool pool_;
    std::shared_ptr<std::atomic<bool>> cancel_; ///< of the running measurement; null when none
    bool running_ = false;
};

} // namespace rooftop::gui
