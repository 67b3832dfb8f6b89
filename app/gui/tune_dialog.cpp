// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/tune_dialog.h"

#include "core/common/errors.h"
#include "gui/list_fields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace rooftop::gui {

TuneDialog::TuneDialog(const ProfileDialogDefaults& defaults, const Constraints& limits, Objective objective,
                       QWidget* parent)
    : QDialog(parent), defaults_(defaults) {
    setWindowTitle(tr("Tune this model"));
    setObjectName(QStringLiteral("TuneDialog"));
    auto* form = new QFormLayout;
    runner_ = new QComboBox(this);
    if (!defaults_.trtexecPath.isEmpty())
        runner_->addItem(tr("trtexec (%1)").arg(defaults_.trtexecPath), QStringLiteral("trtexec"));
    runner_->addItem(tr("simulated board (not a measurement of this machine)"), QStringLiteral("sim"));
    runner_->addItem(tr("command…"), QStringLiteral("command"));
    command_ = new QLineEdit(this);
    command_->setPlaceholderText(
        tr("a command printing {\"latency_ms\": …, \"power_w\": …} as its last line"));
    noSwitch_ =
        new QCheckBox(tr("Do not switch modes (the command switches, or only labels its runs)"), this);
    form->addRow(tr("Runner"), runner_);
    form->addRow(tr("Command"), command_);
    form->addRow(QString(), noSwitch_);
    auto runnerChanged = [this] {
        const QString kind = runner_->currentData().toString();
        command_->setEnabled(kind == QLatin1String("command"));
        noSwitch_->setEnabled(kind != QLatin1String("sim"));
    };
    connect(runner_, &QComboBox::currentIndexChanged, this, runnerChanged);

    slo_ = new QDoubleSpinBox(this);
    slo_->setRange(0.0, 1e6);
    slo_->setDecimals(3);
    slo_->setSuffix(tr(" ms"));
    slo_->setValue(limits.latencySloSeconds.value_or(0.0) * 1e3);
    slo_->setToolTip(tr("Latency limit of one batch (required)"));
    form->addRow(tr("Latency SLO"), slo_);
    cap_ = new QDoubleSpinBox(this);
    cap_->setRange(0.0, 1e4);
    cap_->setDecimals(1);
    cap_->setSuffix(tr(" W"));
    cap_->setSpecialValueText(tr("none"));
    cap_->setValue(limits.powerCapWatts.value_or(0.0));
    form->addRow(tr("Power cap"), cap_);
    objective_ = new QComboBox(this);
    for (Objective o : {Objective::Energy, Objective::Latency, Objective::Efficiency})
        objective_->addItem(QString::fromUtf8(objectiveName(o)), int(o));
    objective_->setCurrentIndex(objective_->findData(int(objective)));
    form->addRow(tr("Objective"), objective_);

    modes_ = new QComboBox(this);
    modes_->setEditable(true);
    modes_->addItems({QStringLiteral("grid"), QStringLiteral("stock"), QStringLiteral("all"),
                      QStringLiteral("current"), QStringLiteral("sample:32")});
    modes_->setToolTip(tr("grid, stock, all, current, sample:N or a ;-separated list of modes"));
    form->addRow(tr("Modes"), modes_);
    auto* dims = new QLabel(ProfileDialog::dimsText(defaults_.dims), this);
    dims->setToolTip(tr("The symbolic dims bound in the toolbar: every run and prediction is at them"));
    form->addRow(tr("Dims"), dims);
    batches_ = new QLineEdit(QString::number(defaults_.batch), this);
    batches_->setToolTip(tr("Batch sizes to search, comma-separated"));
    form->addRow(tr("Batch sizes"), batches_);
    precisions_ = new QLineEdit(defaults_.precision, this);
    precisions_->setToolTip(tr("fp32, fp16, int8; comma-separated"));
    form->addRow(tr("Precisions"), precisions_);
    budget_ = new QSpinBox(this);
    budget_->setRange(1, 100000);
    budget_->setValue(15);
    budget_->setToolTip(tr("This tune's runs, the baseline's and its resumed ones included (a profile's rows "
                           "in the same runs file cost nothing)"));
    form->addRow(tr("Budget"), budget_);
    search_ = new QComboBox(this);
    for (TuneMethod m : {TuneMethod::Cbo, TuneMethod::Random, TuneMethod::Exhaustive})
        search_->addItem(QString::fromUtf8(tuneMethodName(m)), int(m));
    form->addRow(tr("Search"), search_);
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 1 << 30);
    form->addRow(tr("Seed (random)"), seed_);
    runsPath_ = new QLineEdit(ProfileDialog::defaultRunsFile(defaults_.modelPath), this);
    runsPath_->setToolTip(tr("Every run is appended; its configurations count as measured (resume)"));
    form->addRow(tr("Runs file"), runsPath_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Tune"));
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
    runnerChanged();
    resize(560, sizeHint().height());
}

void TuneDialog::setRunner(const QString& spec) {
    const QString kind = spec.startsWith(QLatin1String("command:")) ? QStringLiteral("command")
                         : spec.startsWith(QLatin1String("sim"))    ? QStringLiteral("sim")
                                                                    : QStringLiteral("trtexec");
    runner_->setCurrentIndex(runner_->findData(kind));
    if (kind == QLatin1String("command")) command_->setText(spec.mid(int(qstrlen("command:"))));
}

void TuneDialog::setBudget(int budget) {
    budget_->setValue(budget);
}

void TuneDialog::setRunsPath(const QString& path) {
    runsPath_->setText(path);
}

TuneRequest TuneDialog::request() const {
    TuneRequest r;
    r.modelPath = defaults_.modelPath.toStdString();
    r.deviceId = defaults_.deviceId.toStdString();
    const QString kind = runner_->currentData().toString();
    if (kind == QLatin1String("command")) {
        if (command_->text().trimmed().isEmpty())
            throw InputError(tr("Command: give the command to run").toStdString());
        r.runner = QStringLiteral("command:%1").arg(command_->text().trimmed()).toStdString();
    } else {
        r.runner = kind.toStdString();
    }
    r.noSwitch = kind == QLatin1String("sim") || noSwitch_->isChecked();
    if (!(slo_->value() > 0)) throw InputError(tr("Latency SLO: give a limit in milliseconds").toStdString());
    r.options.limits.latencySloSeconds = slo_->value() / 1e3;
    if (cap_->value() > 0) r.options.limits.powerCapWatts = cap_->value();
    r.options.objective = Objective(objective_->currentData().toInt());
    r.modes = modes_->currentText().trimmed().toStdString();
    r.dims = defaults_.dims;
    r.batches = batchSizesField(tr("Batch sizes"), batches_->text());
    r.precisions = precisionsField(tr("Precisions"), precisions_->text());
    r.options.budget = budget_->value();
    r.options.method = TuneMethod(search_->currentData().toInt());
    r.options.seed = uint64_t(seed_->value());
    if (runsPath_->text().trimmed().isEmpty()) throw InputError(tr("Runs file: give a file").toStdString());
    r.options.runsPath = runsPath_->text().trimmed().toStdString();
    return r;
}

} // namespace rooftop::gui
