// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

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
    class Jobs;
    std::unique_ptr<Jobs> jobs_;
};

} // namespace rooftop::gui
