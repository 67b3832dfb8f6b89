// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/profile_dialog.h"

#include "core/common/errors.h"
#include "core/measure/runs_file.h"
#include "core/onnx/dim_text.h"
#include "gui/measuring_fields.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace rooftop::gui {

namespace {

const QString kGroup = QStringLiteral("profileDialog");

} // namespace

void showFieldProblem(QWidget* dialog, const QString& title, const QString& message) {
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, dialog);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->open();
}

ProfileDialog::ProfileDialog(const ProfileDialogDefaults& defaults, QWidget* parent)
    : QDialog(parent), defaults_(defaults) {
    setWindowTitle(tr("Profile this model"));
    setObjectName(QStringLiteral("ProfileDialog"));
    auto* form = new QFormLayout;
    fields_ = new MeasuringFields(defaults_, kGroup, this);
    fields_->addRunnerRows(form);
    fields_->addWorkloadRows(form, QStringLiteral("current"));
    repeat_ = new QSpinBox(this);
    repeat_->setRange(1, 1000);
    repeat_->setSuffix(tr(" × each"));
    repeat_->setToolTip(tr("How many times each mode, batch and precision is run"));
    repeat_->setValue(QSettings().value(kGroup + QStringLiteral("/repeat"), 1).toInt());
    form->addRow(tr("Runs per configuration"), repeat_);
    fields_->addRunsFileRow(form);
    form->addRow(tr("Runs"), fields_->estimateLabel());
    connect(fields_, &MeasuringFields::changed, this, &ProfileDialog::updateEstimate);
    connect(repeat_, &QSpinBox::valueChanged, this, &ProfileDialog::updateEstimate);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Profile"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(
        new QLabel(tr("<b>%1</b> on %2")
                       .arg(QFileInfo(defaults_.modelPath).fileName(),
                            defaults_.deviceName.isEmpty() ? defaults_.deviceId : defaults_.deviceName),
                   this));
    layout->addLayout(form);
    layout->addWidget(buttons);
    updateEstimate();
    resize(600, sizeHint().height());
}

QString ProfileDialog::defaultRunsFile(const QString& modelPath) {
    return QString::fromStdString(defaultRunsPath(modelPath.toStdString()));
}

QString ProfileDialog::dimsText(const std::map<std::string, int64_t>& dims) {
    return QString::fromStdString(describeNamedDims(dims));
}

QString ProfileDialog::runText(Phase phase, Optimizer optimizer) {
    if (phase == Phase::Inference) return tr("inference");
    return tr("training step with %1: forward, backward and the update")
        .arg(QString::fromStdString(optimizerName(optimizer)));
}

void ProfileDialog::setRunner(const QString& spec) {
    fields_->setRunner(spec);
}

void ProfileDialog::setModes(const QString& modes) {
    fields_->setModes(modes);
}

void ProfileDialog::setRunsPath(const QString& path) {
    fields_->setRunsPath(path);
}

void ProfileDialog::setRepeat(int repeat) {
    repeat_->setValue(repeat);
}

void ProfileDialog::updateEstimate() {
    fields_->showEstimate(repeat_->value(), std::nullopt);
}

void ProfileDialog::accept() {
    try {
        (void)request();
    } catch (const InputError& error) {
        return showFieldProblem(this, windowTitle(), QString::fromUtf8(error.what()));
    }
    fields_->save();
    QSettings().setValue(kGroup + QStringLiteral("/repeat"), repeat_->value());
    QDialog::accept();
}

ProfileRequest ProfileDialog::request() const {
    ProfileRequest request;
    request.modelPath = defaults_.modelPath.toStdString();
    request.deviceId = defaults_.deviceId.toStdString();
    request.runner = fields_->runner();
    request.noSwitch = fields_->noSwitch();
    request.modes = fields_->modes();
    request.batches = fields_->batches();
    request.precisions = fields_->precisions();
    request.dims = defaults_.dims;
    request.phase = defaults_.phase;
    request.optimizer = defaults_.optimizer;
    request.repeat = repeat_->value();
    request.outPath = fields_->runsPath();
    return request;
}

} // namespace rooftop::gui
