// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <functional>
#include <utility>

namespace rooftop::gui {

/// What a background job hands back: called on its owner's thread, with the owner.
template <class Owner> using JobReport = std::function<void(Owner*)>;

/// The first line of an error's text: messages boxes and status lines show one.
inline QString firstLine(const char* text) {
    return QString::fromUtf8(text).section(QLatin1Char('\n'), 0, 0);
}

/// Calls `call` later on `target`'s thread (from any thread).
template <class Call> void postTo(QObject* target, Call call) {
    QMetaObject::invokeMethod(target, std::move(call), Qt::QueuedConnection);
}

/// Runs `work` on `pool`, then on `owner`'s thread `finish(owner)` and the report `work` returned. The owner
/// waits for `pool` before it goes, so the reports never outlive it.
template <class Owner>
void runJob(QThreadPool& pool, Owner* owner, std::function<JobReport<Owner>()> work,
            JobReport<Owner> finish) {
    QPointer<Owner> self(owner);
    pool.start([self, work = std::move(work), finish = std::move(finish)] {
        const JobReport<Owner> report = work();
        postTo(self.data(), [self, finish, report] {
            finish(self.data());
            report(self.data());
        });
    });
}

} // namespace rooftop::gui
