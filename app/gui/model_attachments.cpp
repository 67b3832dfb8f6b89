// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/model_attachments.h"

#include "core/common/errors.h"
#include "core/compare/profile_kind.h"
#include "core/device/measured_profile.h"
#include "core/learn/predictor_file.h"
#include "core/measure/model_runs.h"
#include "gui/analysis_toolbar.h"
#include "gui/background_job.h"
#include "gui/layer_profile_dialog.h"
#include "gui/layer_profile_import.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>

namespace rooftop::gui {

ModelAttachments::ModelAttachments(AnalysisToolbar& toolbar, BoardChooser chooseBoard, QWidget* window)
    : QObject(window), toolbar_(toolbar), chooseBoard_(std::move(chooseBoard)), window_(window) {
    layerImport_ = new LayerProfileImport(window);
    connect(layerImport_, &LayerProfileImport::failed, this,
            [this](const QString& title, const QString& why) {
                layerProfile_.reset(); // a bad file is not retried on the next analysis
                emit failed(title, why);
            });
    connect(layerImport_, &LayerProfileImport::statusMessage, this, &ModelAttachments::statusMessage);
    connect(layerImport_, &LayerProfileImport::changed, this, [this] {
        if (!layerImport_->request()) layerProfile_.reset(); // File → Clear measured layer profile
        emit layerProfileChanged();
    });
    connect(layerImport_->importAction(), &QAction::triggered, this, &ModelAttachments::chooseLayerProfile);
}

void ModelAttachments::setModel(const QString& path) {
    if (path != modelPath_) clearLayerProfile(); // a measured layer profile is of one model
    modelPath_ = path;
    layerImport_->setModelOpen(!path.isEmpty());
}

void ModelAttachments::fillRequest(AnalysisRequest& request) const {
    request.modelPath = modelPath_.toStdString();
    const QString board = toolbar_.boardId();
    if (!profilePath_.isEmpty() && profileDevice_ == board)
        request.profilePath =
            profilePath_.toStdString(); // a profile is of one board: others use derived ceilings
    if (!predictorPath_.isEmpty() && predictorModel_ == modelPath_ && predictorDevice_ == board)
        request.predictorPath = predictorPath_.toStdString(); // a predictor is of one model on one board
}

void ModelAttachments::useProfile(const QString& path, const QString& deviceId) {
    profilePath_ = path;
    profileDevice_ = deviceId;
    emit changed();
}

void ModelAttachments::useDerivedCeilings() {
    profilePath_.clear();
    emit changed();
}

void ModelAttachments::modelAnalysed() {
    if (runsModel_ == modelPath_) return; // a runs file is of one model
    runsModel_.clear();
    emit runsChanged({}, {});
}

void ModelAttachments::chooseMeasuredProfile() {
    const QString path = QFileDialog::getOpenFileName(window_, tr("Load measured profile"), QString(),
                                                      tr("Rooftop profiles (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    QString deviceId;
    try {
        deviceId = QString::fromStdString(loadMeasuredProfile(path.toStdString()).deviceId);
    } catch (const std::exception& error) {
        return emit failed(tr("Load measured profile"), QString::fromUtf8(error.what()));
    }
    toolbar_.selectBoard(deviceId); // the profile's board
    useProfile(path, deviceId);
}

void ModelAttachments::chooseFileOfTheModel(const QString& title, const QString& filter,
                                            QString (ModelAttachments::*load)(const QString&)) {
    if (modelPath_.isEmpty()) return emit failed(title, tr("Open the model it is of first."));
    const QString path =
        QFileDialog::getOpenFileName(window_, title, QFileInfo(modelPath_).absolutePath(), filter);
    if (path.isEmpty()) return;
    const QString why = (this->*load)(path);
    if (!why.isEmpty()) return emit failed(title, why);
    emit modesViewWanted();
}

void ModelAttachments::chooseRunsFile() {
    chooseFileOfTheModel(tr("Open runs file"), tr("Runs files (*.csv);;All files (*)"),
                         &ModelAttachments::loadRunsFile);
}

QString ModelAttachments::loadRunsFile(const QString& path) {
    std::vector<RunRow> rows;
    try {
        rows = readModelRuns(path.toStdString(), modelPath_.toStdString());
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    runsModel_ = modelPath_;
    emit runsChanged(rows, QFileInfo(path).fileName());
    return {};
}

void ModelAttachments::chooseRuntimeFile() {
    const QString title = tr("Load runtime file");
    const QString path = QFileDialog::getOpenFileName(
        window_, title, modelPath_.isEmpty() ? QString() : QFileInfo(modelPath_).absolutePath(),
        tr("Rooftop runtime files (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    const QString why = useRuntimeFile(path);
    if (!why.isEmpty()) emit failed(title, why);
}

QString ModelAttachments::useRuntimeFile(const QString& path) {
    return toolbar_.addRuntimeFile(path);
}

void ModelAttachments::choosePredictorFile() {
    chooseFileOfTheModel(tr("Load predictor"), tr("Rooftop predictors (*.json);;All files (*)"),
                         &ModelAttachments::loadPredictorFile);
}

QString ModelAttachments::loadPredictorFile(const QString& path) {
    if (modelPath_.isEmpty()) return tr("Open the model the predictor was learned for first.");
    QString board;
    Predictor predictor;
    try {
        predictor = loadPredictor(path.toStdString());
        // its board and model here; its dims at each analysis (runAnalysis), as the toolbar's may change
        checkPredictorFits(predictor, path.toStdString(), predictor.board, modelPath_.toStdString());
        board = QString::fromStdString(predictor.board);
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    if (!chooseBoard_(board))
        return tr("%1: the predictor's board %2 is not in the catalog").arg(path, board);
    predictorPath_ = path;
    predictorModel_ = modelPath_;
    predictorDevice_ = board;
    if (runsModel_ != modelPath_) showPredictorRuns(predictor, QFileInfo(path).fileName());
    emit changed();
    return {};
}

void ModelAttachments::showPredictorRuns(const Predictor& predictor, const QString& source) {
    std::vector<RunRow> rows = predictorRunRows(predictor);
    if (rows.empty()) return;
    runsModel_ = modelPath_;
    emit runsChanged(rows, tr("%1, its runs").arg(source));
}

void ModelAttachments::dropPredictor() {
    if (predictorPath_.isEmpty()) return;
    predictorPath_.clear();
    emit changed();
}

void ModelAttachments::chooseLayerProfile() {
    const QString title = tr("Import measured layer profile");
    if (modelPath_.isEmpty()) return emit failed(title, tr("Open the model the profile is of first."));
    const QString path = QFileDialog::getOpenFileName(
        window_, title, QFileInfo(modelPath_).absolutePath(),
        tr("Layer profiles (*.json *.csv);;trtexec --exportProfile or ONNX Runtime profile (*.json);;"
           "Nsight Compute CSV (*.csv);;All files (*)"));
    if (path.isEmpty()) return;
    ProfileKindGuess guess;
    try {
        guess = guessProfileKind(path.toStdString());
    } catch (const std::exception& error) {
        return emit failed(title, firstLine(error.what()));
    }
    if (guess.layerInfo)
        return emit failed(title,
                           tr("%1 is a trtexec --exportLayerInfo file: choose the --exportProfile file "
                              "and give this one as its layer info.")
                               .arg(QFileInfo(path).fileName()));
    LayerProfileDialog dialog(path, guess, modeChoices_, window_);
    if (dialog.exec() != QDialog::Accepted) return;
    const QString why =
        importLayerProfile(path, dialog.layerInfoPath(), dialog.source(), dialog.measuredMode());
    if (!why.isEmpty()) emit failed(title, why);
}

QString ModelAttachments::importLayerProfile(const QString& path, const QString& layerInfoPath,
                                             std::optional<ProfileSource> source,
                                             const QString& measuredMode) {
    if (modelPath_.isEmpty()) return tr("Open the model the profile is of first.");
    if (!source) {
        ProfileKindGuess guess;
        try {
            guess = guessProfileKind(path.toStdString());
        } catch (const std::exception& error) {
            return firstLine(error.what());
        }
        if (guess.layerInfo)
            return tr("%1 is a trtexec --exportLayerInfo file, not a profile")
                .arg(QFileInfo(path).fileName());
        if (!guess.source)
            return tr("%1: cannot tell which tool wrote it (trtexec --exportProfile, ONNX Runtime profile or "
                      "Nsight Compute CSV)")
                .arg(QFileInfo(path).fileName());
        source = guess.source;
    }
    if (!layerInfoPath.isEmpty() && *source != ProfileSource::Trtexec)
        return tr("a layer info file goes with a trtexec profile only");
    CompareRequest files;
    files.source = *source;
    files.profilePath = path.toStdString();
    files.layerInfoPath = layerInfoPath.toStdString();
    files.mode = measuredMode.toStdString(); // empty: not known, the mode the points are shown for
    layerImport_->clear();
    layerProfile_ = files;
    emit layerProfileChanged(); // the window syncs it now, or once the model's analysis has finished
    if (!measuredMode.isEmpty()) emit measuredModeChosen(measuredMode);
    return {};
}

void ModelAttachments::setMeasuredMode(const QString& name) {
    if (!layerProfile_ || name == measuredMode()) return;
    layerProfile_->mode = name.toStdString();
    emit layerProfileChanged();
    if (!name.isEmpty()) emit measuredModeChosen(name);
}

QString ModelAttachments::measuredMode() const {
    return layerProfile_ ? QString::fromStdString(layerProfile_->mode) : QString();
}

void ModelAttachments::clearLayerProfile() {
    layerProfile_.reset();
    layerImport_->clear();
}

void ModelAttachments::syncLayerProfile(const AnalysisResult& result, const report::SceneChoice& shown) {
    // until the open model's analysis has finished, the result is of the model before
    if (!layerProfile_ || result.request.modelPath != modelPath_.toStdString()) return;
    const ModelPrediction* prediction = report::activePrediction(result, shown);
    if (!prediction) return;
    CompareRequest wanted = *layerProfile_;
    wanted.analysis = result.request;
    const PowerMode& mode = prediction->profile.mode;
    // a stock name, or a custom mode's canonical name: resolvePowerMode reads both
    if (wanted.mode.empty()) wanted.mode = mode.name;
    const std::optional<CompareRequest>& current = layerImport_->request();
    if (current && comparisonKey(*current) == comparisonKey(wanted)) return;
    layerImport_->start(wanted);
}

} // namespace rooftop::gui
