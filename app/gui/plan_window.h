// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/plan/plan_session.h"

#include <QDialog>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QTabWidget;

namespace rooftop::models {
class PlanTableModel;
}

namespace rooftop::plots {
class TimelinePlot;
}

namespace rooftop::gui {

/// Device → Plan training beside inference… (the Concurrent page): the two models, a board of the catalog,
/// the arrival process and the budgets become a PlanRequest; runPlanSession runs off the GUI thread; the
/// window shows the plan as renderPlan lays it out for the text writer too (its figures with their
/// provenance), one simulated second of its schedule, and the policy comparison and best candidates as table
/// models.
class PlanWindow : public QDialog {
    Q_OBJECT
public:
    /// What a plan runs on: runPlanSession by default, a stand-in in tests.
    using Session =
        std::function<PlanReport(const PlanRequest&, const PlanProgressCallback&, const std::atomic<bool>*)>;

    explicit PlanWindow(QWidget* parent = nullptr, Session session = &runPlanSession);
    /// Cancels a running plan and waits until it has restored the power mode.
    ~PlanWindow() override;

    /// Fills the form: the open model as the inference model, the board, the advisor's SLO and cap. A board
    /// the catalog does not list (yet) is chosen once setBoards lists it.
    void setDefaults(const QString& inferenceModel, const QString& deviceId, double sloMs, double powerCapW);
    /// The window's symbolic dims of the inference model (its toolbar's): the plan counts and runs it at
    /// them.
    void setInferenceDims(const std::map<std::string, int64_t>& dims);
    /// The boards to choose from (the window's catalog, which the page also takes itself once it has loaded);
    /// the chosen board stays when it is among them.
    void setBoards(const std::vector<DeviceSpec>& boards);
    /// The id of the chosen board (the one asked for while the catalog is loading).
    QString boardId() const;
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
    /// One simulated second of the plan's schedule.
    plots::TimelinePlot* timeline() const { return timeline_; }
    /// SLO violations by scheduling policy at the plan's configuration.
    QTableView* policyTable() const { return policies_; }
    /// The best candidates, best first.
    QTableView* candidateTable() const { return candidates_; }

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
    QComboBox* board_ = nullptr;
    QString wantedBoard_; ///< asked for by setDefaults while the catalog does not list it
    std::map<std::string, int64_t>
        inferenceDims_; ///< setInferenceDims: the window's dims of the inference model
    QString dimsModel_; ///< the inference model those dims are of
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
    QComboBox* runner_ = nullptr;
    QPushButton* plan_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* status_ = nullptr;
    plots::TimelinePlot* timeline_ = nullptr;
    QTabWidget* tables_ = nullptr;
    QTableView* policies_ = nullptr;
    QTableView* candidates_ = nullptr;
    QLabel* policiesTitle_ = nullptr;
    QLabel* candidatesTitle_ = nullptr;
    models::PlanTableModel* policyModel_ = nullptr;
    models::PlanTableModel* candidateModel_ = nullptr;
};

} // namespace rooftop::gui
