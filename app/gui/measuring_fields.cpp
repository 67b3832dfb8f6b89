// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/measuring_fields.h"

#include "core/common/errors.h"
#include "core/measure/runs_file.h"
#include "gui/list_fields.h"
#include "gui/path_text.h"
#include "gui/profile_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <algorithm>

namespace rooftop::gui {

namespace {

const QString kTrtexec = QStringLiteral("trtexec");
const QString kSimulated = QStringLiteral("sim");
const QString kCommand = QStringLiteral("command");

/// The mode sets offered, each with words a person reads; the --modes spelling is the item's data.
QList<QPair<QString, QString>> modeSets() {
    return {{QStringLiteral("current"), QObject::tr("The mode in force (current)")},
            {QStringLiteral("stock"), QObject::tr("Every stock nvpmodel mode (stock)")},
            {QStringLiteral("grid"), QObject::tr("Every custom clock combination (grid)")},
            {QStringLiteral("all"), QObject::tr("Stock modes, then the custom grid (all)")},
            {QStringLiteral("sample:8"), QObject::tr("8 custom combinations drawn at random (sample:8)")},
            {QStringLiteral("sample:32"), QObject::tr("32 custom combinations drawn at random (sample:32)")}};
}

} // namespace

MeasuringFields::MeasuringFields(const ProfileDialogDefaults& defaults, const QString& group, QWidget* parent)
    : QObject(parent), defaults_(defaults), group_(group), parent_(parent) {
    runner_ = new QComboBox(parent);
    if (!defaults_.trtexecPath.isEmpty())
        runner_->addItem(tr("trtexec (%1)").arg(defaults_.trtexecPath), kTrtexec);
    runner_->addItem(tr("simulated board (not a measurement of this machine)"), kSimulated);
    runner_->addItem(tr("command…"), kCommand);
    if (defaults_.trtexecPath.isEmpty()) runner_->addItem(tr("trtexec (none found)"), kTrtexec);
    runner_->setToolTip(tr("What runs the model: TensorRT's trtexec, a command printing a JSON line, or a "
                           "simulator for demos and tests (docs/profile.md)"));
    command_ = new QLineEdit(parent);
    command_->setPlaceholderText(
        tr("a command printing {\"latency_ms\": …, \"power_w\": …} as its last line"));
    noSwitch_ =
        new QCheckBox(tr("Do not switch modes (the command switches, or only labels its runs)"), parent);
    modes_ = new QComboBox(parent);
    modes_->setEditable(true);
    modes_->setToolTip(tr("The power modes to run in; or type stock mode names or ids, custom modes "
                          "cores=N,cpu=MHZ,gpu=MHZ,emc=MHZ, separated by ';'"));
    batches_ = new QLineEdit(QString::number(defaults_.batch), parent);
    batches_->setObjectName(QStringLiteral("Batches"));
    batches_->setToolTip(tr("Batch sizes, comma-separated (1, 2, 4)"));
    precisions_ = new QLineEdit(defaults_.precision, parent);
    precisions_->setObjectName(QStringLiteral("Precisions"));
    precisions_->setToolTip(
        tr("fp32 (32-bit float), fp16 (16-bit float) or int8 (8-bit integer); comma-separated"));
    runsPath_ = new QLineEdit(pathAsShown(ProfileDialog::defaultRunsFile(defaults_.modelPath)), parent);
    runsPath_->setToolTip(tr("Rows are appended; configurations it already has are not run again. By default "
                             "in your data folder (%1), which the model's folder often is not")
                              .arg(pathAsShown(QString::fromStdString(defaultRunsFolder()))));
    estimate_ = new QLabel(parent);
    estimate_->setObjectName(QStringLiteral("RunEstimate"));
    estimate_->setWordWrap(true);
    estimate_->setToolTip(tr("A typical run: trtexec about 20 s, a command about 10 s, plus 3 s to settle "
                             "and measure idle power after each switch; the simulated board near nothing"));

    connect(runner_, &QComboBox::currentIndexChanged, this, &MeasuringFields::runnerChanged);
    connect(runner_, &QComboBox::currentIndexChanged, this, &MeasuringFields::changed);
    connect(noSwitch_, &QCheckBox::toggled, this, &MeasuringFields::changed);
    connect(modes_, &QComboBox::currentTextChanged, this, &MeasuringFields::changed);
    connect(batches_, &QLineEdit::textChanged, this, &MeasuringFields::changed);
    connect(precisions_, &QLineEdit::textChanged, this, &MeasuringFields::changed);
}

void MeasuringFields::addRunnerRows(QFormLayout* form) {
    form->addRow(tr("Runner"), runner_);
    form->addRow(tr("Command"), command_);
    form->addRow(QString(), noSwitch_);
}

void MeasuringFields::addWorkloadRows(QFormLayout* form, const QString& firstModeSet) {
    QList<QPair<QString, QString>> sets = modeSets();
    std::stable_partition(sets.begin(), sets.end(),
                          [&](const auto& set) { return set.first == firstModeSet; });
    for (const auto& [spec, label] : sets)
        modes_->addItem(label, spec);
    form->addRow(tr("Modes"), modes_);
    auto* dims = new QLabel(ProfileDialog::dimsText(defaults_.dims), parent_);
    dims->setToolTip(
        tr("The symbolic dims bound in the toolbar: every run is at them, and each row records them"));
    form->addRow(tr("Dims"), dims);
    auto* run = new QLabel(ProfileDialog::runText(defaults_.phase, defaults_.optimizer), parent_);
    run->setObjectName(QStringLiteral("RunKind"));
    run->setToolTip(tr("The toolbar's Run: every run is one, and each row records it (a training step's "
                       "optimizer too)"));
    form->addRow(tr("Run"), run);
    form->addRow(tr("Batch sizes"), batches_);
    form->addRow(tr("Precisions"), precisions_);
    restore();
    runnerChanged();
}

void MeasuringFields::addRunsFileRow(QFormLayout* form) {
    auto* browseButton = new QPushButton(tr("Browse…"), parent_);
    connect(browseButton, &QPushButton::clicked, this, &MeasuringFields::browse);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(runsPath_, 1);
    pathRow->addWidget(browseButton);
    form->addRow(tr("Runs file"), pathRow);
}

std::string MeasuringFields::runner() const {
    const QString kind = runner_->currentData().toString();
    if (kind != kCommand) return kind.toStdString();
    if (command_->text().trimmed().isEmpty())
        throw InputError(tr("Command: give the command to run").toStdString());
    return QStringLiteral("command:%1").arg(command_->text().trimmed()).toStdString();
}

bool MeasuringFields::noSwitch() const {
    return runner_->currentData().toString() == kSimulated || noSwitch_->isChecked();
}

std::string MeasuringFields::modes() const {
    // an offered set reads as its label; anything typed is a --modes text as it stands
    const int offered = modes_->findText(modes_->currentText());
    return (offered >= 0 ? modes_->itemData(offered).toString() : modes_->currentText().trimmed())
        .toStdString();
}

std::vector<int64_t> MeasuringFields::batches() const {
    return batchSizesField(tr("Batch sizes"), batches_->text());
}

std::vector<Precision> MeasuringFields::precisions() const {
    return precisionsField(tr("Precisions"), precisions_->text());
}

std::string MeasuringFields::runsPath() const {
    if (runsPath_->text().trimmed().isEmpty()) throw InputError(tr("Runs file: give a file").toStdString());
    return pathAsTyped(runsPath_->text().trimmed()).toStdString();
}

void MeasuringFields::setRunner(const QString& spec) {
    const QString kind = spec.startsWith(QLatin1String("command:")) ? kCommand
                         : spec.startsWith(QLatin1String("sim"))    ? kSimulated
                                                                    : kTrtexec;
    runner_->setCurrentIndex(runner_->findData(kind));
    if (kind == kCommand) command_->setText(spec.mid(int(qstrlen("command:"))));
}

void MeasuringFields::setModes(const QString& spec) {
    const int offered = modes_->findData(spec);
    if (offered >= 0)
        modes_->setCurrentIndex(offered);
    else
        modes_->setEditText(spec);
}

void MeasuringFields::setRunsPath(const QString& path) {
    runsPath_->setText(pathAsShown(path));
}

RunEstimate MeasuringFields::estimate(int repeat, std::optional<int> budget) const {
    RunEstimate e;
    e.repeat = repeat;
    e.budget = budget;
    e.batches = batches().size();
    e.precisions = precisions().size();
    const std::string spec = modes();
    if (defaults_.device)
        e.modes = modeSetSize(*defaults_.device, spec, 0, &e.why);
    else if (spec == "current")
        e.modes = 1;
    std::string runnerSpec;
    try {
        runnerSpec = runner();
    } catch (const InputError&) {
        runnerSpec = "command:"; // no command yet: a command's typical run
    }
    e.secondsPerRun = typicalRunSeconds(runnerSpec, !noSwitch() && spec != "current");
    return e;
}

void MeasuringFields::showEstimate(int repeat, std::optional<int> budget) {
    try {
        estimate_->setText(QString::fromStdString(describeRunEstimate(estimate(repeat, budget))));
    } catch (const InputError& error) { // a field that does not read yet: say which
        estimate_->setText(QString::fromUtf8(error.what()));
    }
}

void MeasuringFields::save() const {
    QSettings settings;
    settings.beginGroup(group_);
    settings.setValue(QStringLiteral("runner"), runner_->currentData().toString());
    settings.setValue(QStringLiteral("command"), command_->text());
    settings.setValue(QStringLiteral("noSwitch"), noSwitch_->isChecked());
    settings.setValue(QStringLiteral("modes"), QString::fromStdString(modes()));
    settings.setValue(QStringLiteral("batches"), batches_->text());
    settings.setValue(QStringLiteral("precisions"), precisions_->text());
    settings.setValue(QStringLiteral("runsFile/") + defaults_.modelPath, runsPath_->text());
}

void MeasuringFields::restore() {
    QSettings settings;
    settings.beginGroup(group_);
    if (const QString kind = settings.value(QStringLiteral("runner")).toString();
        runner_->findData(kind) >= 0)
        runner_->setCurrentIndex(runner_->findData(kind));
    command_->setText(settings.value(QStringLiteral("command"), command_->text()).toString());
    noSwitch_->setChecked(settings.value(QStringLiteral("noSwitch"), false).toBool());
    if (settings.contains(QStringLiteral("modes")))
        setModes(settings.value(QStringLiteral("modes")).toString());
    batches_->setText(settings.value(QStringLiteral("batches"), batches_->text()).toString());
    precisions_->setText(settings.value(QStringLiteral("precisions"), precisions_->text()).toString());
    runsPath_->setText(
        settings.value(QStringLiteral("runsFile/") + defaults_.modelPath, runsPath_->text()).toString());
}

void MeasuringFields::runnerChanged() {
    const QString kind = runner_->currentData().toString();
    command_->setEnabled(kind == kCommand);
    noSwitch_->setEnabled(kind != kSimulated); // the simulated board never switches
}

void MeasuringFields::browse() {
    const QString path =
        QFileDialog::getSaveFileName(parent_, tr("Runs file"), pathAsTyped(runsPath_->text()),
                                     tr("Runs files (*.csv);;All files (*)"), nullptr,
                                     QFileDialog::DontConfirmOverwrite); // it is appended to
    if (!path.isEmpty()) setRunsPath(path);
}

} // namespace rooftop::gui
