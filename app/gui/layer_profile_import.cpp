// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/layer_profile_import.h"

#include "core/compare/compare_writers.h"
#include "gui/background_job.h"

#include <QAction>
#include <QFileInfo>
#include <QPointer>
#include <QWidget>
#include <exception>

namespace rooftop::gui {

LayerProfileImport::LayerProfileImport(QWidget* window, Session session)
    : QObject(window), session_(std::move(session)) {
    pool_.setMaxThreadCount(1);
    importAction_ = new QAction(tr("&Import measured layer profile…"), window);
    importAction_->setStatusTip(tr("Put a trtexec, ONNX Runtime or Nsight Compute per-layer profile next to "
                                   "the roofline's per-layer prediction"));
    importAction_->setEnabled(false);
    clearAction_ = new QAction(tr("C&lear measured layer profile"), window);
    clearAction_->setEnabled(false);
    connect(clearAction_, &QAction::triggered, this, &LayerProfileImport::clear);
}

LayerProfileImport::~LayerProfileImport() {
    ++generation_;
    pool_.waitForDone();
}

void LayerProfileImport::setModelOpen(bool open) {
    importAction_->setEnabled(open);
}

void LayerProfileImport::waitForIdle() {
    pool_.waitForDone();
}

void LayerProfileImport::start(const CompareRequest& request) {
    request_ = request;
    running_ = true;
    clearAction_->setEnabled(true);
    const int generation = ++generation_;
    const QString file = QFileInfo(QString::fromStdString(request.profilePath)).fileName();
    emit statusMessage(tr("Comparing %1 with the roofline…").arg(file));
    QPointer<LayerProfileImport> self(this); // stays set: the destructor waits for the job
    auto work = [session = session_, request, generation]() -> JobReport<LayerProfileImport> {
        try {
            auto comparison = std::make_shared<const Comparison>(session(request));
            return [generation, comparison](LayerProfileImport* flow) {
                flow->delivered(generation, comparison, {});
            };
        } catch (const std::exception& error) { // InputError for a bad file or another model: one line
            const QString message = firstLine(error.what());
            return
                [generation, message](LayerProfileImport* flow) { flow->delivered(generation, {}, message); };
        } catch (...) {
            const QString message = tr("the comparison stopped on an unknown error");
            return
                [generation, message](LayerProfileImport* flow) { flow->delivered(generation, {}, message); };
        }
    };
    runJob<LayerProfileImport>(pool_, this, work, [](LayerProfileImport*) {});
}

void LayerProfileImport::delivered(int generation, std::shared_ptr<const Comparison> comparison,
                                   const QString& error) {
    if (generation != generation_) return; // superseded or cleared meanwhile
    running_ = false;
    if (!comparison) {
        const bool shown = comparison_ != nullptr;
        comparison_.reset();
        request_.reset();
        clearAction_->setEnabled(false);
        emit statusMessage(tr("Import failed: %1").arg(error));
        emit failed(tr("Import measured layer profile"), error);
        if (shown) emit changed();
        return;
    }
    comparison_ = std::move(comparison);
    emit statusMessage(
        tr("Measured layers of %1 (%2): %3 layers, %4 ms of %5 ms measured on no ONNX node; predicted in %6")
            .arg(QFileInfo(QString::fromStdString(comparison_->file)).fileName(),
                 QString::fromStdString(sourceDescription(comparison_->source)))
            .arg(comparison_->layers.size())
            .arg(comparison_->unmappedMs, 0, 'g', 3)
            .arg(comparison_->measuredTotalMs, 0, 'g', 4)
            .arg(QString::fromStdString(comparison_->mode)));
    emit changed();
}

void LayerProfileImport::clear() {
    ++generation_; // a running comparison is dropped when it ends
    running_ = false;
    request_.reset();
    clearAction_->setEnabled(false);
    if (!comparison_) return;
    comparison_.reset();
    emit statusMessage(tr("Cleared the measured layer profile"));
    emit changed();
}

std::string comparisonKey(const CompareRequest& request) {
    const AnalysisRequest& a = request.analysis;
    std::string key = request.profilePath + '\n' + request.layerInfoPath + '\n' +
                      std::to_string(int(request.source)) + '\n' + a.modelPath + '\n' + a.deviceId + '\n' +
                      a.runtime.name + '\n' + a.runtime.file + '\n' + a.profilePath + '\n' +
                      precisionName(a.settings.precision) + '\n' + trafficViewName(a.settings.traffic) +
                      '\n' + conventionName(a.settings.convention) + '\n' +
                      std::to_string(a.settings.dims.batch.value_or(0)) + '\n' + request.mode + '\n' +
                      phaseName(a.settings.phase) + '\n' + optimizerName(a.settings.optimizer);
    for (const auto& [name, value] : a.settings.dims.named)
        key += '\n' + name + '=' + std::to_string(value);
    return key;
}

} // namespace rooftop::gui
