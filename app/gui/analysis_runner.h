// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

namespace rooftop::gui {

/// Runs analyses off the GUI thread. A new request supersedes the running one: the stale job stops at its
/// next stage and its result is dropped, so only the latest request ever reaches the window.
class AnalysisRunner : public QObject {
    Q_OBJECT
public:
    explicit AnalysisRunner(QObject* parent = nullptr);
    ~AnalysisRunner() override;

    /// Starts an analysis; returns its generation number.
    int start(const AnalysisRequest& request);
    /// True while the latest request has not finished.
    bool busy() const { return busy_; }
    /// Blocks until the running job (if any) ends; for tests and shutdown.
    void waitForIdle();
    /// Resolves boards in this already loaded catalog rather than reading it for every request.
    void setCatalog(std::shared_ptr<const std::vector<DeviceSpec>> catalog) { catalog_ = std::move(catalog); }
    /// How many times a request had to count its model (not found in the workload cache); for tests.
    size_t countedModels() const;

signals:
    /// A stage of the latest request began.
    void progress(const QString& stage);
    /// The latest request finished.
    void finished(std::shared_ptr<const rooftop::AnalysisResult> result);
    /// The latest request failed; message is one line.
    void failed(const QString& message);

private:
    std::shared_ptr<std::atomic<int>> latest_ = std::make_shared<std::atomic<int>>(0);
    bool busy_ = false;
    std::shared_ptr<const std::vector<DeviceSpec>> catalog_;
    class Jobs;
    std::unique_ptr<Jobs> jobs_;
};

} // namespace rooftop::gui
