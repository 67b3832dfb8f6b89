// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/measurement_controller.h"

#include "core/common/errors.h"
#include "gui/background_job.h"

#include <QPointer>

namespace rooftop::gui {

namespace {

/// Held by the one measurement that may run in this process: two windows must not sweep one board.
std::atomic<bool> measurementClaimed{false};

QString describe(const SweepProgress& step) {
    return QObject::tr("%1 (%2 of %3): %4, about %5 s left")
        .arg(QString::fromStdString(step.modeName))
        .arg(step.modeIndex + 1)
        .arg(step.modeCount)
        .arg(QString::fromStdString(step.phase))
        .arg(step.etaSeconds < 0 ? QStringLiteral("?") : QString::number(int(step.etaSeconds)));
}

} // namespace

MeasurementController::Backend MeasurementController::benchBackend() {
    return {&benchAvailable, &runBenchSession};
}

MeasurementController::MeasurementController(QObject* parent)
    : MeasurementController(benchBackend(), parent) {}

MeasurementController::MeasurementController(Backend backend, QObject* parent)
    : QObject(parent), backend_(std::move(backend)) {
    qRegisterMetaType<rooftop::SweepOutcome>();
    pool_.setMaxThreadCount(1);
}

MeasurementController::~MeasurementController() {
    stopAndWait();
}

void MeasurementController::cancel() {
    if (cancel_) cancel_->store(true);
}

void MeasurementController::stopAndWait() {
    cancel();
    pool_.waitForDone();
}

bool MeasurementController::start(const BenchRequest& request) {
    bool expected = false;
    if (running_ || !measurementClaimed.compare_exchange_strong(expected, true)) return false;
    running_ = true;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    cancel_ = cancel;
    QPointer<MeasurementController> self(this); // stays set: the destructor waits for the job
    auto work = [self, backend = backend_, request, cancel]() -> JobReport<MeasurementController> {
        JobReport<MeasurementController> report;
        try {
            std::string whyNot;
            if (!backend.available(&whyNot)) {
                const QString reason = QString::fromStdString(whyNot);
                report = [reason](MeasurementController* controller) {
                    emit controller->unavailable(reason);
                };
            } else {
                auto onProgress = [self](const SweepProgress& step) {
                    const QString text = describe(step);
                    const double fraction = step.fraction;
                    postTo(self.data(), [self, text, fraction] { emit self->progress(text, fraction); });
                };
                const SweepOutcome outcome = backend.run(request, onProgress, cancel.get());
                report = [outcome](MeasurementController* controller) { emit controller->finished(outcome); };
            }
        } catch (const UnavailableError& error) {
            const QString reason = firstLine(error.what());
            report = [reason](MeasurementController* controller) { emit controller->unavailable(reason); };
        } catch (const std::exception& error) {
            const QString message = firstLine(error.what());
            report = [message](MeasurementController* controller) { emit controller->failed(message); };
        } catch (...) {
            const QString message = tr("the measurement stopped on an unknown error");
            report = [message](MeasurementController* controller) { emit controller->failed(message); };
        }
        measurementClaimed.store(false); // before the report: its receiver may start the next measurement
        return report;
    };
    runJob<MeasurementController>(pool_, this, work, [](MeasurementController* controller) {
        controller->running_ = false;
        controller->cancel_.reset();
    });
    return true;
}

} // namespace rooftop::gui
