// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/calibrate_dialog.h"

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

const QString kGroup = QStringLiteral("calibrateDialog");

} // namespace

CalibrateDialog::CalibrateDialog(const ProfileDialogDefaults& defaults, QWidget* parent)
    : QDialog(parent), defaults_(defaults) {
    setWindowTitle(tr("Calibrate the runtime"));
    setObjectName(QStringLiteral("CalibrateDialog"));
    auto* form = new QFormLayout;
    form->addRow(tr("Workload"), new QLabel(workloadText(defaults_), this));
    form->addRow(tr("Starting runtime"), new QLabel(QString::fromStdString(defaults_.runtime.name), this));
    runs_ = addPathRow(form, this, tr("Runs file"), tr("Runs files (*.csv);;All files (*)"), false,
                       [this](const QString& path) { runtime_->setText(defaultRuntimeFile(path)); });
    runs_->setObjectName(QStringLiteral("runsFile"));
    runs_->setToolTip(tr("Runs of this model on this board: Device → Profile this model… writes them, or a "
                         "CSV with mode,batch,latency_ms,power_w; each run's batch comes from the file"));
    name_ = new QLineEdit(this);
    name_->setObjectName(QStringLiteral("runtimeName"));
    name_->setPlaceholderText(QString::fromStdString(defaults_.runtime.name) + QStringLiteral("-calibrated"));
    form->addRow(tr("Calibrated name"), name_);
    runtime_ = addPathRow(form, this, tr("Runtime file"), tr("Runtime files (*.json);;All files (*)"), true);
    runtime_->setObjectName(QStringLiteral("runtimeFile"));
    runtime_->setToolTip(tr("Where the calibrated runtime is written (rooftop calibrate -o)"));
    setRunsPath(runsFileToStartFrom(kGroup, defaults_.modelPath));
    connect(runs_, &QLineEdit::textEdited, this,
            [this](const QString& path) { runtime_->setText(defaultRuntimeFile(path)); });

    QLabel* runsHint = addRunsHint(runs_);
    layOutMeasuringDialog(
        this, defaults_, form,
        tr("the runtime's efficiencies, dispatch and fixed costs and its power model fitted to the runs "
           "(docs/calibration.md)"),
        tr("Calibrate"), runsHint);
}

QString CalibrateDialog::defaultRuntimeFile(const QString& runsPath) {
    return besideRunsFile(runsPath, QStringLiteral("-runtime.json"));
}

void CalibrateDialog::setRunsPath(const QString& path) {
    runs_->setText(path);
    runtime_->setText(defaultRuntimeFile(path));
}

void CalibrateDialog::setRuntimePath(const QString& path) {
    runtime_->setText(path);
}

CalibratePageRequest CalibrateDialog::request() const {
    CalibratePageRequest page;
    CalibrationRequest& calibration = page.calibration;
    calibration.modelPath =
        pathFromWorkingFolder(defaults_.modelPath).toStdString(); // as the report names it
    calibration.deviceId = defaults_.deviceId.toStdString();
    calibration.runtime = defaults_.runtime;
    calibration.settings.dims.named = defaults_.dims;
    calibration.settings.phase = defaults_.phase;
    calibration.settings.optimizer = defaults_.optimizer;
    calibration.runsPath = existingFileOf(runs_, tr("Runs file"));
    calibration.name = name_->text().trimmed().toStdString();
    const QString runtime = pathAsTyped(runtime_->text().trimmed());
    if (runtime.isEmpty()) throw InputError(tr("Runtime file: give a file to write").toStdString());
    if (QFileInfo(runtime).absoluteFilePath() ==
        QFileInfo(QString::fromStdString(calibration.runsPath)).absoluteFilePath())
        throw InputError(tr("Runtime file: it would overwrite the runs file").toStdString());
    page.runtimePath = runtime.toStdString();
    return page;
}

void CalibrateDialog::accept() {
    try {
        (void)request();
    } catch (const InputError& error) {
        return showFieldProblem(this, windowTitle(), QString::fromUtf8(error.what()));
    }
    QSettings().setValue(kGroup + QStringLiteral("/runsFile/") + defaults_.modelPath,
                         runs_->text().trimmed());
    QDialog::accept();
}

} // namespace rooftop::gui
