// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/profile_dialog.h"

#include "core/common/errors.h"
#include "core/measure/runs_file.h"
#include "core/onnx/dim_text.h"
#include "gui/list_fields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace rooftop::gui {

namespace {

const QString kTrtexec = QStringLiteral("trtexec");
const QString kSimulated = QStringLiteral("sim");
const QString kCommand = QStringLiteral("command");

} // namespace

ProfileDialog::ProfileDialog(const ProfileDialogDefaults& defaults, QWidget* parent)
    : QDialog(parent), defaults_(defaults) {
    setWindowTitle(tr("Profile this model"));
    setObjectName(QStringLiteral("ProfileDialog"));
    auto* form = new QFormLayout;

    runner_ = new QComboBox(this);
    if (!defaults_.trtexecPath.isEmpty())
        runner_->addItem(tr("trtexec (%1)").arg(defaults_.trtexecPath), kTrtexec);
    runner_->addItem(tr("simulated board (not a measurement of this machine)"), kSimulated);
    runner_->addItem(tr("command…"), kCommand);
    if (defaults_.trtexecPath.isEmpty()) runner_->addItem(tr("trtexec (none found)"), kTrtexec);
    runner_->setToolTip(tr("What runs the model: TensorRT's trtexec, a command printing a JSON line, or a "
                           "simulator for demos and tests (docs/profile.md)"));
    command_ = new QLineEdit(this);
    command_->setPlaceholderText(tr("a command printing {\"latency_ms\": …} as its last line"));
    form->addRow(tr("Runner"), runner_);
    form->addRow(tr("Command"), command_);
    connect(runner_, &QComboBox::currentIndexChanged, this, &ProfileDialog::runnerChanged);

    modes_ = new QComboBox(this);
    modes_->setEditable(true);
    modes_->addItems({QStringLiteral("current"), QStringLiteral("stock"), QStringLiteral("grid"),
                      QStringLiteral("all"), QStringLiteral("sample:8")});
    modes_->setToolTip(tr("current, stock, grid, all, sample:N or a ;-separated list of modes"));
    form->addRow(tr("Modes"), modes_);

    batches_ = new QLineEdit(QString::number(defaults_.batch), this);
    batches_->setToolTip(tr("Batch sizes, comma-separated"));
    form->addRow(tr("Batch sizes"), batches_);
    precisions_ = new QLineEdit(defaults_.precision, this);
    precisions_->setToolTip(tr("fp32, fp16, int8; comma-separated"));
    form->addRow(tr("Precisions"), precisions_);
    repeat_ = new QSpinBox(this);
    repeat_->setRange(1, 1000);
    form->addRow(tr("Runs per configuration"), repeat_);
    noSwitch_ =
        new QCheckBox(tr("Do not switch modes (the command switches, or only labels its runs)"), this);
    form->addRow(QString(), noSwitch_);

    auto* dims = new QLabel(dimsText(defaults_.dims), this);
    dims->setToolTip(
        tr("The symbolic dims bound in the toolbar: every run is at them, and each row records them"));
    form->addRow(tr("Dims"), dims);

    runsPath_ = new QLineEdit(defaultRunsFile(defaults_.modelPath), this);
    runsPath_->setToolTip(tr("Rows are appended; configurations it already has are not run again"));
    auto* browseButton = new QPushButton(tr("Browse…"), this);
    connect(browseButton, &QPushButton::clicked, this, &ProfileDialog::browse);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(runsPath_, 1);
    pathRow->addWidget(browseButton);
    form->addRow(tr("Runs file"), pathRow);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Profile"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    auto* model =
        new QLabel(tr("<b>%1</b> on %2")
                       .arg(QFileInfo(defaults_.modelPath).fileName(),
                            defaults_.deviceName.isEmpty() ? defaults_.deviceId : defaults_.deviceName),
                   this);
    layout->addWidget(model);
    layout->addLayout(form);
    layout->addWidget(buttons);
    runnerChanged();
    resize(560, sizeHint().height());
}

QString ProfileDialog::defaultRunsFile(const QString& modelPath) {
    return QString::fromStdString(defaultRunsPath(modelPath.toStdString()));
}

QString ProfileDialog::dimsText(const std::map<std::string, int64_t>& dims) {
    return QString::fromStdString(describeNamedDims(dims));
}

void ProfileDialog::setRunner(const QString& spec) {
    const QString kind = spec.startsWith(QLatin1String("command:")) ? kCommand
                         : spec.startsWith(QLatin1String("sim"))    ? kSimulated
                                                                    : kTrtexec;
    runner_->setCurrentIndex(runner_->findData(kind));
    if (kind == kCommand) command_->setText(spec.mid(int(qstrlen("command:"))));
}

void ProfileDialog::setModes(const QString& modes) {
    modes_->setCurrentText(modes);
}

void ProfileDialog::setRunsPath(const QString& path) {
    runsPath_->setText(path);
}

void ProfileDialog::setRepeat(int repeat) {
    repeat_->setValue(repeat);
}

void ProfileDialog::runnerChanged() {
    const QString kind = runner_->currentData().toString();
    command_->setEnabled(kind == kCommand);
    noSwitch_->setEnabled(kind != kSimulated); // the simulated board never switches
}

void ProfileDialog::browse() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Runs file"), runsPath_->text(),
                                                      tr("Runs files (*.csv);;All files (*)"), nullptr,
                                                      QFileDialog::DontConfirmOverwrite); // it is appended to
    if (!path.isEmpty()) runsPath_->setText(path);
}

ProfileRequest ProfileDialog::request() const {
    ProfileRequest request;
    request.modelPath = defaults_.modelPath.toStdString();
    request.deviceId = defaults_.deviceId.toStdString();
    const QString kind = runner_->currentData().toString();
    if (kind == kCommand) {
        if (command_->text().trimmed().isEmpty())
            throw InputError(tr("Command: give the command to run").toStdString());
        request.runner = QStringLiteral("command:%1").arg(command_->text().trimmed()).toStdString();
    } else {
        request.runner = kind.toStdString();
    }
    request.noSwitch = kind == kSimulated || noSwitch_->isChecked();
    request.modes = modes_->currentText().trimmed().toStdString();
    request.batches = batchSizesField(tr("Batch sizes"), batches_->text());
    request.precisions = precisionsField(tr("Precisions"), precisions_->text());
    request.dims = defaults_.dims;
    request.repeat = repeat_->value();
    if (runsPath_->text().trimmed().isEmpty()) throw InputError(tr("Runs file: give a file").toStdString());
    request.outPath = runsPath_->text().trimmed().toStdString();
    return request;
}

} // namespace rooftop::gui
