// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/analysis_runner.h"

#include "core/common/errors.h"
#include "gui/background_job.h"

#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>

namespace rooftop::gui {

class AnalysisRunner::Jobs {
public:
    Jobs() { pool.setMaxThreadCount(2); }
    QThreadPool pool;
    WorkloadCache workloads; ///< a new board, mode set or limit does not count the model again
};

AnalysisRunner::AnalysisRunner(QObject* parent) : QObject(parent), jobs_(std::make_unique<Jobs>()) {
    qRegisterMetaType<std::shared_ptr<const rooftop::AnalysisResult>>();
}

AnalysisRunner::~AnalysisRunner() {
    latest_->fetch_add(1); // every running job is now stale and stops at its next stage
    jobs_->pool.waitForDone();
}

void AnalysisRunner::waitForIdle() {
    jobs_->pool.waitForDone();
}

size_t AnalysisRunner::countedModels() const {
    return jobs_->workloads.misses();
}

int AnalysisRunner::start(const AnalysisRequest& request) {
    const int generation = latest_->fetch_add(1) + 1;
    busy_ = true;
    QPointer<AnalysisRunner> self(this);
    std::shared_ptr<std::atomic<int>> latest = latest_;
    WorkloadCache* workloads = &jobs_->workloads; // outlives the job: the destructor waits for the pool
    std::shared_ptr<const std::vector<DeviceSpec>> catalog =
        catalog_; // the job keeps the one it started with
    jobs_->pool.start([self, latest, generation, request, workloads, catalog]() {
        auto current = [&] { return latest->load() == generation; };
        auto post = [&](auto function) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, latest, generation, function]() {
                    if (!self || latest->load() != generation) return; // superseded while queued
                    function(self.data());
                },
                Qt::QueuedConnection);
        };
        try {
            auto result = std::make_shared<AnalysisResult>(runAnalysis(
                request,
                [&](const std::string& stage) {
                    if (!current()) return false;
                    const QString text = QString::fromStdString(stage);
                    post([text](AnalysisRunner* runner) { emit runner->progress(text); });
                    return true;
                },
                SessionContext{workloads, catalog.get()}));
            if (!current()) return;
            post([result](AnalysisRunner* runner) {
                runner->busy_ = false;
                emit runner->finished(result);
            });
        } catch (...) {
            QString message = QObject::tr("the analysis stopped on an unknown error");
            try {
                throw;
            } catch (const std::exception& error) {
                message = firstLine(error.what());
            } catch (...) {
            }
            post([message](AnalysisRunner* runner) {
                runner->busy_ = false;
                emit runner->failed(message);
            });
        }
    });
    return generation;
}

} // namespace rooftop::gui
