// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/plan/plan_session.h"

#include <QDialog>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace rooftop::plots {
class TimelinePlot;
}

namespace rooftop::gui {

/// Device → Plan training beside inference… (the Concurrent page): the two models, the arrival process and
/// the budgets become a PlanRequest; runPlanSession runs off the GUI thread; the window shows the plan with
/// the provenance of its figures, one simulated second of its schedule, and the policy comparison.
class PlanWindow : public QDialog {
    Q_OBJECT
public:
    /// What a plan runs on: runPlanSession by default, a stand-in in tests.
    using Session =
        std::function<PlanReport(const PlanRequest&, const PlanProgressCallback&, const std::atomic<bool>*)>;

    explicit PlanWindow(QWidget* parent = nullptr, Session session = &runPlanSession);
    /// Cancels a running plan and waits until it has restored the power mode.
    ~PlanWindow() override;

    /// Fills the form: the open model as the inference model, the board, the advisor's SLO and cap.
    void setDefaults(const QString& inferenceModel, const QString& deviceId, double sloMs, double powerCapW);
    /// The request the form describes.
    PlanRequest request() const;
    /// Starts the plan the form describes; false (with the reason shown) while one runs.
    bool start();
    /// True from start() until the result (or failure) is shown.
    bool running() const { return running_; }
    /// The last plan, when one finished.
    const std::optional<PlanReport>& lastReport() const { return report_; }
    /// The summary text shown (the plan, or why there is none).
    QString summaryText() const;
    plots::TimelinePlot* timeline() const { return timeline_; }
    QTableWidget* policyTable() const { return policies_; }

signals:
    /// A plan finished (or failed).
    void finished();

private:
    void showReport(const PlanReport& report);
    void showError(const QString& message);
    void updateFields();

    Session session_;
    QThreadPool pool_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    bool running_ = false;
    std::optional<PlanReport> report_;

    QLineEdit* inference_ = nullptr;
    QLineEdit* training_ = nullptr;
    QLineEdit* device_ = nullptr;
    QComboBox* arrival_ = nullptr;
    QDoubleSpinBox* rate_ = nullptr;
    QLineEdit* trace_ = nullptr;
    QDoubleSpinBox* slo_ = nullptr;
    QDoubleSpinBox* cap_ = nullptr;
    QDoubleSpinBox* violation_ = nullptr;
    QLineEdit* batches_ = nullptr;
    QSpinBox* trainingBatch_ = nullptr;
    QComboBox* strategy_ = nullptr;
    QComboBox* modes_ = nullptr;
    QLineEdit* runner_ = nullptr;
    QPushButton* plan_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* status_ = nullptr;
    plots::TimelinePlot* timeline_ = nullptr;
    QTableWidget* policies_ = nullptr;
    QLabel* policiesTitle_ = nullptr;
};

} // namespace rooftop::gui
