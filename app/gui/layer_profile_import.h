// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/compare_session.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <functional>
#include <memory>
#include <optional>

class QAction;
class QWidget;

namespace rooftop::gui {

/// File → Import measured layer profile…: runs `rooftop compare` (runComparison) off the GUI thread for a
/// request the window builds, and keeps the latest comparison. A newer request supersedes a running one: only
/// the latest request's comparison (or error) is delivered.
class LayerProfileImport : public QObject {
    Q_OBJECT
public:
    /// What an import runs: runComparison by default, a stand-in in tests.
    using Session = std::function<Comparison(const CompareRequest&)>;

    explicit LayerProfileImport(QWidget* window, Session session = &runComparison);
    /// Waits for a running comparison (its result is dropped).
    ~LayerProfileImport() override;

    QAction* importAction() const { return importAction_; }
    QAction* clearAction() const { return clearAction_; }
    /// Records whether a model is open (importing needs one).
    void setModelOpen(bool open);

    /// Compares the request's profile with the request's analysis; the comparison or the error comes later.
    void start(const CompareRequest& request);
    /// Drops the comparison (and any running one); emits changed() when something was shown.
    void clear();
    /// The latest request (running or shown), none after clear().
    const std::optional<CompareRequest>& request() const { return request_; }
    /// The comparison shown, nullptr when none (or while the first one runs).
    const Comparison* comparison() const { return comparison_.get(); }
    /// The comparison shown, shared; null when none.
    std::shared_ptr<const Comparison> sharedComparison() const { return comparison_; }
    /// True while the latest request's comparison runs.
    bool running() const { return running_; }
    /// Blocks until every started comparison has ended; for tests and shutdown.
    void waitForIdle();

signals:
    /// The comparison shown changed (a new one, or none).
    void changed();
    /// A line for the status bar.
    void statusMessage(const QString& text);
    /// The latest request failed (a bad file, a profile of another model); message is one line.
    void failed(const QString& title, const QString& message);

private:
    void delivered(int generation, std::shared_ptr<const Comparison> comparison, const QString& error);

    Session session_;
    QThreadPool pool_;
    QAction* importAction_ = nullptr;
    QAction* clearAction_ = nullptr;
    std::optional<CompareRequest> request_;
    std::shared_ptr<const Comparison> comparison_;
    int generation_ = 0;
    bool running_ = false;
};

/// The analysis inputs a comparison depends on (model, board, runtime, counting settings, mode), as one
/// text: two requests with the same key give the same comparison.
std::string comparisonKey(const CompareRequest& request);

} // namespace rooftop::gui
