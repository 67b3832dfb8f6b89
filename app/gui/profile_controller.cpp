// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/profile_controller.h"

#include "gui/background_job.h"

#include <QPointer>
#include <cmath>
#include <exception>

namespace rooftop::gui {

namespace {

QString eta(double seconds) {
    if (seconds < 0) return QObject::tr("time left unknown");
    const long whole = std::lround(seconds);
    return QObject::tr("about %1:%2 left").arg(whole / 60).arg(whole % 60, 2, 10, QLatin1Char('0'));
}

} // namespace

ProfileController::ProfileController(QObject* parent) : ProfileController(&runProfileSession, parent) {}

ProfileController::ProfileController(Session session, QObject* parent)
    : QObject(parent), session_(std::move(session)) {
    qRegisterMetaType<rooftop::ProfileOutcome>();
    pool_.setMaxThreadCount(1);
}

ProfileController::~ProfileController() {
    stopAndWait();
}

QString ProfileController::describe(const ProfileProgress& step) {
    return tr("mode %1/%2 %3, %4, %5")
        .arg(step.modeIndex + 1)
        .arg(step.modeCount)
        .arg(QString::fromStdString(step.modeName), QString::fromStdString(step.phase), eta(step.etaSeconds));
}

void ProfileController::cancel() {
    if (cancel_) cancel_->store(true);
}

void ProfileController::stopAndWait() {
    cancel();
    pool_.waitForDone();
}

bool ProfileController::start(const ProfileRequest& request) {
    if (running_) return false;
    running_ = true;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    cancel_ = cancel;
    QPointer<ProfileController> self(this); // stays set: the destructor waits for the job
    auto work = [self, session = session_, request, cancel]() -> JobReport<ProfileController> {
        auto onProgress = [self](const ProfileProgress& step) {
            const QString text = describe(step);
            const double fraction = step.fraction;
            postTo(self.data(), [self, text, fraction] { emit self->progress(text, fraction); });
        };
        try {
            const ProfileOutcome outcome = session(request, onProgress, cancel.get());
            return [outcome](ProfileController* controller) { emit controller->finished(outcome); };
        } catch (const std::exception& error) { // InputError, UnavailableError: one line each
            const QString message = firstLine(error.what());
            return [message](ProfileController* controller) { emit controller->failed(message); };
        }
    };
    runJob<ProfileController>(pool_, this, work, [](ProfileController* controller) {
        controller->running_ = false;
        controller->cancel_.reset();
    });
    return true;
}

} // namespace rooftop::gui
