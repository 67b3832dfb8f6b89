// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"
#include "gui/profile_dialog.h"

#include <QObject>
#include <memory>

class QMenu;
class QWidget;

namespace rooftop::gui {

class AdvisorPanel;
class AnalysisToolbar;
class CalibrateModelFlow;
class LearnModelFlow;
class MeasureDeviceFlow;
class ModelAttachments;
class ProfileModelFlow;
class TuneModelFlow;

/// The Device menu's measuring pages: measure this device, profile and tune the open model, learn a
/// predictor or calibrate the runtime from its runs, plan training beside inference. Starts them with the
/// window's model, board, batch, precision and limits, and brings their results back (a profile, a runs file,
/// a tune's recommendation, a predictor).
class MeasuringPages : public QObject {
    Q_OBJECT
public:
    MeasuringPages(AnalysisToolbar& toolbar, AdvisorPanel& advisor, ModelAttachments& attachments,
                   QWidget* window);

    /// Adds the pages' actions to the Device menu.
    void addActions(QMenu* device);
    /// The latest analysis (its precision is the pages' default).
    void setResult(std::shared_ptr<const AnalysisResult> result) { result_ = std::move(result); }
    /// Records whether a model is open (profiling and tuning need one).
    void setModelOpen(bool open);
    /// Enables profiling and tuning or not: an analysis that failed leaves nothing to measure.
    void setMeasurable(bool measurable);
    /// Stops the running measurements, each restoring the power mode, before the window closes.
    void stopAll();

    MeasureDeviceFlow* measurement() const { return measurement_; }
    ProfileModelFlow* profiling() const { return profiling_; }
    TuneModelFlow* tuning() const { return tuning_; }
    LearnModelFlow* learning() const { return learning_; }
    CalibrateModelFlow* calibrating() const { return calibrating_; }
    /// What the profile and tune dialogs start from: the open model, the board, batch, precision and the dims
    /// the window shows the model at (the workload measured).
    ProfileDialogDefaults measuringDefaults() const;

signals:
    /// A line for the status bar.
    void statusMessage(const QString& text);
    /// A page failed or its result was refused.
    void failed(const QString& title, const QString& message);
    /// Measured points arrived: the power modes view shows them.
    void modesViewWanted();

private:
    void profileModel();
    void tuneModel();
    void learnPredictor();
    void openCalibrateDialog();
    void planTraining();
    /// The tune's recommendation becomes the window's: its batch, its mode (all four settings of a custom
    /// one), its limits and its runs.
    void applyTune();

    AnalysisToolbar& toolbar_;
    AdvisorPanel& advisor_;
    ModelAttachments& attachments_;
    QWidget* window_;
    std::shared_ptr<const AnalysisResult> result_;
    MeasureDeviceFlow* measurement_ = nullptr;
    ProfileModelFlow* profiling_ = nullptr;
    TuneModelFlow* tuning_ = nullptr;
    LearnModelFlow* learning_ = nullptr;
    CalibrateModelFlow* calibrating_ = nullptr;
};

} // namespace rooftop::gui
