// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/measuring_pages.h"

#include "core/measure/runner_spec.h"
#include "core/measure/trtexec_runner.h"
#include "core/session/shown_mode.h"
#include "gui/advisor_panel.h"
#include "gui/analysis_toolbar.h"
#include "gui/calibrate_model_flow.h"
#include "gui/learn_model_flow.h"
#include "gui/measure_device_flow.h"
#include "gui/model_attachments.h"
#include "gui/plan_window.h"
#include "gui/profile_model_flow.h"
#include "gui/tune_model_flow.h"

#include <QAction>
#include <QComboBox>
#include <QFileInfo>
#include <QMenu>
#include <QSpinBox>
#include <algorithm>

namespace rooftop::gui {

MeasuringPages::MeasuringPages(AnalysisToolbar& toolbar, AdvisorPanel& advisor, ModelAttachments& attachments,
                               QWidget* window)
    : QObject(window), toolbar_(toolbar), advisor_(advisor), attachments_(attachments), window_(window) {
    measurement_ = new MeasureDeviceFlow(window);
    connect(measurement_, &MeasureDeviceFlow::failed, this, &MeasuringPages::failed);
    connect(measurement_, &MeasureDeviceFlow::statusMessage, this, &MeasuringPages::statusMessage);
    connect(measurement_, &MeasureDeviceFlow::profileMeasured, &attachments_, &ModelAttachments::useProfile);
    profiling_ = new ProfileModelFlow(window);
    connect(profiling_, &ProfileModelFlow::failed, this, &MeasuringPages::failed);
    connect(profiling_, &ProfileModelFlow::statusMessage, this, &MeasuringPages::statusMessage);
    connect(profiling_, &ProfileModelFlow::runsWritten, this, [this](const QString& path) {
        const QString why = attachments_.loadRunsFile(path);
        if (!why.isEmpty()) return emit failed(tr("Open runs file"), why);
        emit modesViewWanted();
    });
    tuning_ = new TuneModelFlow(window);
    connect(tuning_, &TuneModelFlow::failed, this, &MeasuringPages::failed);
    connect(tuning_, &TuneModelFlow::statusMessage, this, &MeasuringPages::statusMessage);
    connect(tuning_, &TuneModelFlow::applied, this, &MeasuringPages::applyTune);
    learning_ = new LearnModelFlow(window);
    connect(learning_, &LearnModelFlow::failed, this, &MeasuringPages::failed);
    connect(learning_, &LearnModelFlow::statusMessage, this, &MeasuringPages::statusMessage);
    connect(learning_, &LearnModelFlow::useRequested, this, [this](const QString& path) {
        const QString why = attachments_.loadPredictorFile(path);
        if (!why.isEmpty()) return emit failed(tr("Load predictor"), why);
        emit modesViewWanted();
    });
    calibrating_ = new CalibrateModelFlow(window);
    connect(calibrating_, &CalibrateModelFlow::failed, this, &MeasuringPages::failed);
    connect(calibrating_, &CalibrateModelFlow::statusMessage, this, &MeasuringPages::statusMessage);
    connect(calibrating_, &CalibrateModelFlow::useRequested, this, [this](const QString& path) {
        const QString why = attachments_.useRuntimeFile(path);
        if (!why.isEmpty()) emit failed(tr("Open runtime file"), why);
    });
}

void MeasuringPages::addActions(QMenu* device) {
    device->addAction(measurement_->action());
    connect(measurement_->action(), &QAction::triggered, this,
            [this] { measurement_->measure(toolbar_.boardId()); });
    device->addAction(profiling_->action());
    connect(profiling_->action(), &QAction::triggered, this, &MeasuringPages::profileModel);
    device->addAction(tuning_->action());
    connect(tuning_->action(), &QAction::triggered, this, &MeasuringPages::tuneModel);
    device->addAction(learning_->action());
    connect(learning_->action(), &QAction::triggered, this, &MeasuringPages::learnPredictor);
    device->addAction(calibrating_->action());
    connect(calibrating_->action(), &QAction::triggered, this, &MeasuringPages::openCalibrateDialog);
    device->addAction(tr("P&lan training beside inference…"), this, &MeasuringPages::planTraining);
}

void MeasuringPages::setModelOpen(bool open) {
    advisor_.showTunedAnswer({}); // a tune's answer is of the model it ran
    setMeasurable(open);
}

void MeasuringPages::setMeasurable(bool measurable) {
    profiling_->setModelOpen(measurable);
    tuning_->setModelOpen(measurable);
    learning_->setModelOpen(measurable);
    calibrating_->setModelOpen(measurable);
}

namespace {

/// The workload the window shows the model at: the analysis's, else the toolbar's.
AnalysisSettings shownWorkloadSettings(const AnalysisToolbar& toolbar, const AnalysisResult* result) {
    if (result) return result->request.settings;
    AnalysisRequest request;
    toolbar.fillRequest(request); // dims it cannot read are left unbound, as the analysis would
    return request.settings;
}

ProfileDialogDefaults defaultsFor(const QString& model, const AnalysisToolbar& toolbar,
                                  const AnalysisResult* result) {
    ProfileDialogDefaults defaults;
    defaults.modelPath = model;
    defaults.deviceId = toolbar.boardId();
    defaults.deviceName = toolbar.boardBox()->currentText();
    defaults.batch = std::max(1, toolbar.batchBox()->value());
    if (result && result->request.settings.precision != Precision::AsModel)
        defaults.precision = QString::fromStdString(precisionName(result->request.settings.precision));
    defaults.trtexecPath = QString::fromStdString(findTrtexec());
    const AnalysisSettings settings = shownWorkloadSettings(toolbar, result);
    defaults.dims = settings.dims.named;
    defaults.phase = settings.phase;
    defaults.optimizer = settings.optimizer;
    if (result) defaults.runtime = result->request.runtime;
    if (result && result->device.id == defaults.deviceId.toStdString()) {
        defaults.device = result->device;
        defaults.fastestLatencyMs = leastStockLatencyMs(*result);
    }
    return defaults;
}

} // namespace

ProfileDialogDefaults MeasuringPages::measuringDefaults() const {
    return defaultsFor(attachments_.modelPath(), toolbar_, result_.get());
}

void MeasuringPages::profileModel() {
    if (attachments_.modelPath().isEmpty()) return;
    profiling_->profile(measuringDefaults());
}

void MeasuringPages::tuneModel() {
    if (attachments_.modelPath().isEmpty()) return;
    tuning_->tune(measuringDefaults(), advisor_.constraints(), advisor_.objective());
}

void MeasuringPages::learnPredictor() {
    if (attachments_.modelPath().isEmpty()) return;
    learning_->learn(measuringDefaults());
}

void MeasuringPages::openCalibrateDialog() {
    if (attachments_.modelPath().isEmpty()) return;
    calibrating_->calibrate(measuringDefaults());
}

void MeasuringPages::planTraining() {
    auto* plan = window_->findChild<PlanWindow*>();
    if (!plan) plan = new PlanWindow(window_);
    const Constraints limits = advisor_.constraints();
    plan->setDefaults(attachments_.modelPath(), toolbar_.boardId(),
                      limits.latencySloSeconds ? 1e3 * *limits.latencySloSeconds : 0.0,
                      limits.powerCapWatts ? *limits.powerCapWatts : 0.0);
    plan->setInferenceDims(shownWorkloadSettings(toolbar_, result_.get()).dims.named);
    plan->show();
    plan->raise();
}

void MeasuringPages::applyTune() {
    const std::optional<TuneReport>& report = tuning_->lastReport();
    if (!report || !report->outcome.recommended) return;
    const TuneConfig& best =
        report->space.configs[report->outcome.samples[*report->outcome.recommended].config];
    const PowerMode& mode = best.mode;
    const int64_t batch = best.batch;
    const QString runsPath = QString::fromStdString(report->options.runsPath);
    const Constraints& limits = report->options.limits;
    const Objective objective = report->options.objective;
    toolbar_.batchBox()->setValue(int(batch));
    if (mode.stock)
        advisor_.setWhatIf(false); // an earlier what-if would hide the stock answer
    else
        advisor_.setWhatIfMode(mode); // its cores and CPU clock too, not the board's maximum
    advisor_.setQuestion(limits, objective);
    const TuneSample& sample = report->outcome.samples[*report->outcome.recommended];
    const QString provenance = QString::fromStdString(runProvenance(report->runner));
    // the card predicts from the roofline at the limits' confidence, so it may find no mode where runs did
    advisor_.showTunedAnswer(
        tr("<b>Tuned</b>: %1 at batch %2, %3: %4 ms per batch, %5 mJ per %11, %6 W (%7, the mean of %8 "
           "run(s))%9. The card above is a prediction, its bounds the roofline's own error: learn a "
           "predictor "
           "from %10 (Device → Learn a predictor from runs…) to predict with the runs' accuracy.")
            .arg(QString::fromStdString(readableModeName(mode)).toHtmlEscaped())
            .arg(batch)
            .arg(QString::fromStdString(precisionName(best.precision)))
            .arg(sample.latencyMs, 0, 'g', 4)
            .arg(sample.energyMj, 0, 'g', 4)
            .arg(sample.powerW, 0, 'g', 3)
            .arg(provenance)
            .arg(sample.measurements)
            .arg(report->outcome.caveat.empty()
                     ? tr(", within the limits")
                     : QStringLiteral("; ") + QString::fromStdString(report->outcome.caveat).toHtmlEscaped())
            .arg(QFileInfo(runsPath).fileName().toHtmlEscaped())
            .arg(QString::fromStdString(energyItem(report->options))));
    const QString why = attachments_.loadRunsFile(runsPath);
    if (!why.isEmpty()) return emit failed(tr("Open runs file"), why);
    emit modesViewWanted();
    emit statusMessage(tr("Applied the tune: %1 at batch %2, %3 (%4)")
                           .arg(QString::fromStdString(readableModeName(mode)))
                           .arg(batch)
                           .arg(QString::fromStdString(precisionName(best.precision)),
                                QString::fromStdString(runProvenance(report->runner))));
}

void MeasuringPages::stopAll() {
    if (measurement_->running()) {
        // The sweep restores the board's original mode when it stops: wait for that (and only that) first.
        emit statusMessage(tr("Stopping the measurement and restoring the power mode…"));
        measurement_->stopAndWait();
    }
    if (profiling_->running()) {
        emit statusMessage(tr("Stopping the profile and restoring the power mode…"));
        profiling_->stopAndWait();
    }
    if (tuning_->running()) {
        emit statusMessage(tr("Stopping the tune and restoring the power mode…"));
        tuning_->stopAndWait();
    }
}

} // namespace rooftop::gui
