// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/learn_dialog.h"

#include "core/common/errors.h"
#include "gui/path_text.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace rooftop::gui {

namespace {

const QString kGroup = QStringLiteral("learnDialog");

/// The runs file last used for `model`: by this dialog, else by the profile or tune dialog.
QString rememberedRunsFile(const QString& model) {
    const QSettings settings;
    for (const QString& group : {kGroup, QStringLiteral("profileDialog"), QStringLiteral("tuneDialog")})
        if (const QString path = settings.value(group + QStringLiteral("/runsFile/") + model).toString();
            !path.isEmpty())
            return path;
    return {};
}

std::string existingFile(const QLineEdit* field, const QString& what) {
    const QString path = pathAsTyped(field->text().trimmed());
    if (path.isEmpty()) throw InputError(QObject::tr("%1: give a file").arg(what).toStdString());
    if (!QFileInfo(path).isFile())
        throw InputError(QObject::tr("%1: %2 does not exist").arg(what, path).toStdString());
    return path.toStdString();
}

} // namespace

LearnDialog::LearnDialog(const ProfileDialogDefaults& defaults, QWidget* parent)
    : QDialog(parent), defaults_(defaults) {
    setWindowTitle(tr("Learn a predictor"));
    setObjectName(QStringLiteral("LearnDialog"));
    auto* form = new QFormLayout;
    QString workload = ProfileDialog::runText(defaults_.phase, defaults_.optimizer);
    if (!defaults_.dims.empty()) workload += QStringLiteral(", ") + ProfileDialog::dimsText(defaults_.dims);
    form->addRow(tr("Workload"), new QLabel(workload, this));
    runs_ = pathRow(form, tr("Runs file"), tr("Runs files (*.csv);;All files (*)"), false);
    runs_->setToolTip(tr("The runs of this model on this board: Device → Profile this model… or Tune this "
                         "model… writes them; batches and precisions come from the file"));
    referenceModel_ = pathRow(form, tr("Reference model"), tr("ONNX models (*.onnx);;All files (*)"), false);
    referenceModel_->setPlaceholderText(tr("optional: another model profiled in many modes"));
    referenceRuns_ = pathRow(form, tr("Reference runs"), tr("Runs files (*.csv);;All files (*)"), false);
    referenceRuns_->setPlaceholderText(tr("its runs file: pre-train on them, adapt to this model's few"));
    predictor_ = pathRow(form, tr("Predictor file"), tr("Predictors (*.json);;All files (*)"), true);
    runs_->setObjectName(QStringLiteral("runsFile"));
    referenceModel_->setObjectName(QStringLiteral("referenceModel"));
    referenceRuns_->setObjectName(QStringLiteral("referenceRuns"));
    predictor_->setObjectName(QStringLiteral("predictorFile"));
    predictor_->setToolTip(tr("Where the predictor is written (rooftop learn -o); the advisor can use it"));

    const QString remembered = rememberedRunsFile(defaults_.modelPath);
    setRunsPath(remembered.isEmpty() ? pathAsShown(ProfileDialog::defaultRunsFile(defaults_.modelPath))
                                     : remembered);
    const QSettings settings;
    setReference(settings.value(kGroup + QStringLiteral("/referenceModel")).toString(),
                 settings.value(kGroup + QStringLiteral("/referenceRuns")).toString());
    connect(runs_, &QLineEdit::textEdited, this,
            [this](const QString& path) { predictor_->setText(defaultPredictorFile(path)); });

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Learn"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    auto* header = new QLabel(
        tr("<b>%1</b> on %2: the time and power of every mode and batch, learned from a few runs on top of "
           "Rooftop's roofline (docs/learn.md)")
            .arg(
                QFileInfo(defaults_.modelPath).fileName().toHtmlEscaped(),
                (defaults_.deviceName.isEmpty() ? defaults_.deviceId : defaults_.deviceName).toHtmlEscaped()),
        this);
    header->setWordWrap(true);
    layout->addWidget(header);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(640, sizeHint().height());
}

QLineEdit* LearnDialog::pathRow(QFormLayout* form, const QString& label, const QString& filter, bool save) {
    auto* field = new QLineEdit(this);
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this, field, label, filter, save] {
        const QString start = pathAsTyped(field->text().trimmed());
        const QString path = save ? QFileDialog::getSaveFileName(this, label, start, filter)
                                  : QFileDialog::getOpenFileName(this, label, start, filter);
        if (path.isEmpty()) return;
        field->setText(pathAsShown(path));
        if (field == runs_) predictor_->setText(defaultPredictorFile(field->text()));
    });
    auto* row = new QHBoxLayout;
    row->addWidget(field, 1);
    row->addWidget(browse);
    form->addRow(label, row);
    return field;
}

QString LearnDialog::defaultPredictorFile(const QString& runsPath) {
    if (runsPath.trimmed().isEmpty()) return {};
    const QFileInfo runs(runsPath.trimmed());
    QString stem = runs.completeBaseName();
    if (stem.endsWith(QStringLiteral("-runs"))) stem.chop(5);
    return runs.dir().filePath(stem + QStringLiteral("-predictor.json"));
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
    learn.runsPath = existingFile(runs_, tr("Runs file"));
    const bool referenceModel = !referenceModel_->text().trimmed().isEmpty(),
               referenceRuns = !referenceRuns_->text().trimmed().isEmpty();
    if (referenceModel != referenceRuns)
        throw InputError(
            tr("Reference: give both the reference model and its runs file, or neither").toStdString());
    if (referenceModel) {
        learn.referenceModelPath = existingFile(referenceModel_, tr("Reference model"));
        learn.referenceRunsPath = existingFile(referenceRuns_, tr("Reference runs"));
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
