// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/learn_dialog.h"

#include "core/common/errors.h"
#include "gui/measuring_dialog_layout.h"
#include "gui/path_text.h"

#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>

namespace rooftop::gui {

namespace {

const QString kGroup = QStringLiteral("learnDialog");

} // namespace

LearnDialog::LearnDialog(const ProfileDialogDefaults& defaults, QWidget* parent)
    : QDialog(parent), defaults_(defaults) {
    setWindowTitle(tr("Learn a predictor"));
    setObjectName(QStringLiteral("LearnDialog"));
    auto* form = new QFormLayout;
    form->addRow(tr("Workload"), new QLabel(workloadText(defaults_), this));
    runs_ = addPathRow(form, this, tr("Runs file"), tr("Runs files (*.csv);;All files (*)"), false,
                       [this](const QString& path) { predictor_->setText(defaultPredictorFile(path)); });
    runs_->setToolTip(tr("The runs of this model on this board: Device → Profile this model… or Tune this "
                         "model… writes them; batches and precisions come from the file"));
    referenceModel_ =
        addPathRow(form, this, tr("Reference model"), tr("ONNX models (*.onnx);;All files (*)"), false);
    referenceModel_->setPlaceholderText(tr("optional: another model profiled in many modes"));
    referenceRuns_ =
        addPathRow(form, this, tr("Reference runs"), tr("Runs files (*.csv);;All files (*)"), false);
    referenceRuns_->setPlaceholderText(tr("its runs file: pre-train on them, adapt to this model's few"));
    predictor_ = addPathRow(form, this, tr("Predictor file"), tr("Predictors (*.json);;All files (*)"), true);
    runs_->setObjectName(QStringLiteral("runsFile"));
    referenceModel_->setObjectName(QStringLiteral("referenceModel"));
    referenceRuns_->setObjectName(QStringLiteral("referenceRuns"));
    predictor_->setObjectName(QStringLiteral("predictorFile"));
    predictor_->setToolTip(tr("Where the predictor is written (rooftop learn -o); the advisor can use it"));

    setRunsPath(runsFileToStartFrom(kGroup, defaults_.modelPath));
    const QSettings settings;
    setReference(settings.value(kGroup + QStringLiteral("/referenceModel")).toString(),
                 settings.value(kGroup + QStringLiteral("/referenceRuns")).toString());
    connect(runs_, &QLineEdit::textEdited, this,
            [this](const QString& path) { predictor_->setText(defaultPredictorFile(path)); });

    QLabel* runsHint = addRunsHint(runs_);
    layOutMeasuringDialog(
        this, defaults_, form,
        tr("the time and power of every mode and batch, learned from a few runs on top of Rooftop's "
           "roofline (docs/learn.md)"),
        tr("Learn"), runsHint);
}

QString LearnDialog::defaultPredictorFile(const QString& runsPath) {
    return besideRunsFile(runsPath, QStringLiteral("-predictor.json"));
}

void LearnDialog::setRunsPath(const QString& path) {
    runs_->setText(path);
    predictor_->setText(defaultPredictorFile(path));
}

void LearnDialog::setReference(const QString& modelPath, const QString& runsPath) {
    referenceModel_->setText(modelPath);
    referenceRuns_->setText(runsPath);
}

void LearnDialog::setPredictorPath(const QString& path) {
    predictor_->setText(path);
}

LearnPageRequest LearnDialog::request() const {
    LearnPageRequest page;
    LearnRequest& learn = page.learn;
    learn.modelPath = defaults_.modelPath.toStdString();
    learn.deviceId = defaults_.deviceId.toStdString();
    learn.runtime = defaults_.runtime;
    learn.settings.dims.named = defaults_.dims;
    learn.settings.phase = defaults_.phase;
    learn.settings.optimizer = defaults_.optimizer;
    learn.runsPath = existingFileOf(runs_, tr("Runs file"));
    const bool referenceModel = !referenceModel_->text().trimmed().isEmpty(),
               referenceRuns = !referenceRuns_->text().trimmed().isEmpty();
    if (referenceModel != referenceRuns)
        throw InputError(
            tr("Reference: give both the reference model and its runs file, or neither").toStdString());
    if (referenceModel) {
        learn.referenceModelPath = existingFileOf(referenceModel_, tr("Reference model"));
        learn.referenceRunsPath = existingFileOf(referenceRuns_, tr("Reference runs"));
    }
    const QString predictor = pathAsTyped(predictor_->text().trimmed());
    if (predictor.isEmpty()) throw InputError(tr("Predictor file: give a file to write").toStdString());
    if (QFileInfo(predictor).absoluteFilePath() ==
        QFileInfo(QString::fromStdString(learn.runsPath)).absoluteFilePath())
        throw InputError(tr("Predictor file: it would overwrite the runs file").toStdString());
    page.predictorPath = predictor.toStdString();
    return page;
}

void LearnDialog::accept() {
    try {
        (void)request();
    } catch (const InputError& error) {
        return showFieldProblem(this, windowTitle(), QString::fromUtf8(error.what()));
    }
    QSettings settings;
    settings.setValue(kGroup + QStringLiteral("/runsFile/") + defaults_.modelPath, runs_->text().trimmed());
    settings.setValue(kGroup + QStringLiteral("/referenceModel"), referenceModel_->text().trimmed());
    settings.setValue(kGroup + QStringLiteral("/referenceRuns"), referenceRuns_->text().trimmed());
    QDialog::accept();
}

} // namespace rooftop::gui
