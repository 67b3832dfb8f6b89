// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/tune_dialog.h"

#include "core/common/errors.h"
#include "core/tune/slo_suggestion.h"
#include "gui/measuring_fields.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

namespace rooftop::gui {

namespace {

const QString kGroup = QStringLiteral("tuneDialog");

QString key(const char* name) {
    return kGroup + QLatin1Char('/') + QLatin1String(name);
}

} // namespace

TuneDialog::TuneDialog(const ProfileDialogDefaults& defaults, const Constraints& limits, Objective objective,
                       QWidget* parent)
    : QDialog(parent), defaults_(defaults) {
    setWindowTitle(tr("Tune this model"));
    setObjectName(QStringLiteral("TuneDialog"));
    const QSettings settings;
    auto* form = new QFormLayout;
    fields_ = new MeasuringFields(defaults_, kGroup, this);
    fields_->addRunnerRows(form);

    slo_ = new QDoubleSpinBox(this);
    slo_->setObjectName(QStringLiteral("Slo"));
    slo_->setRange(0.0, 1e6);
    slo_->setDecimals(3);
    slo_->setSuffix(tr(" ms"));
    slo_->setSpecialValueText(tr("none (give one)"));
    const double hint = suggestedLatencySloMs(defaults_.fastestLatencyMs);
    slo_->setValue(limits.latencySloSeconds ? *limits.latencySloSeconds * 1e3
                                            : settings.value(key("sloMs"), hint).toDouble());
    slo_->setToolTip(
        hint > 0 ? tr("Latency limit of one batch (required); the fastest stock mode is predicted at %1 ms")
                       .arg(defaults_.fastestLatencyMs, 0, 'g', 3)
                 : tr("Latency limit of one batch (required)"));
    form->addRow(tr("Latency limit (SLO)"), slo_);
    cap_ = new QDoubleSpinBox(this);
    cap_->setRange(0.0, 1e4);
    cap_->setDecimals(1);
    cap_->setSuffix(tr(" W"));
    cap_->setSpecialValueText(tr("none"));
    cap_->setValue(limits.powerCapWatts ? *limits.powerCapWatts
                                        : settings.value(key("capW"), 0.0).toDouble());
    cap_->setToolTip(tr("Average power limit over a run; none: no limit"));
    form->addRow(tr("Power cap"), cap_);
    objective_ = new QComboBox(this);
    const bool training = defaults_.phase == Phase::Training;
    objective_->addItem(training ? tr("Least energy per sample") : tr("Least energy per inference"),
                        int(Objective::Energy));
    objective_->addItem(tr("Least latency"), int(Objective::Latency));
    objective_->addItem(training ? tr("Most samples per joule") : tr("Most inferences per joule"),
                        int(Objective::Efficiency));
    objective_->setCurrentIndex(objective_->findData(int(objective)));
    form->addRow(tr("Objective"), objective_);

    fields_->addWorkloadRows(form, QStringLiteral("grid"));
    budget_ = new QSpinBox(this);
    budget_->setRange(1, 100000);
    budget_->setSuffix(tr(" runs"));
    budget_->setValue(settings.value(key("budget"), 15).toInt());
    budget_->setToolTip(tr("At most this many runs: this tune's, the baseline's and its resumed ones (a "
                           "profile's rows in the same runs file cost nothing)"));
    form->addRow(tr("Budget"), budget_);
    search_ = new QComboBox(this);
    search_->addItem(tr("Bayesian optimisation, fewest runs (cbo)"), int(TuneMethod::Cbo));
    search_->addItem(tr("Random configurations (random)"), int(TuneMethod::Random));
    search_->addItem(tr("Every configuration in turn (exhaustive)"), int(TuneMethod::Exhaustive));
    search_->setToolTip(
        tr("cbo: constrained Bayesian optimisation over Rooftop's prediction (docs/tune.md)"));
    search_->setCurrentIndex(std::max(0, search_->findData(settings.value(key("search"), 0).toInt())));
    form->addRow(tr("Search"), search_);
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 1 << 30);
    seed_->setValue(settings.value(key("seed"), 0).toInt());
    seed_->setToolTip(tr("Seed of the random search and of drawn modes: the same seed, the same runs"));
    form->addRow(tr("Random seed"), seed_);
    fields_->addRunsFileRow(form);
    form->addRow(tr("Runs"), fields_->estimateLabel());
    connect(fields_, &MeasuringFields::changed, this, &TuneDialog::updateEstimate);
    connect(budget_, &QSpinBox::valueChanged, this, &TuneDialog::updateEstimate);

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
    updateEstimate();
    resize(620, sizeHint().height());
}

void TuneDialog::setRunner(const QString& spec) {
    fields_->setRunner(spec);
}

void TuneDialog::setBudget(int budget) {
    budget_->setValue(budget);
}

void TuneDialog::setRunsPath(const QString& path) {
    fields_->setRunsPath(path);
}

void TuneDialog::updateEstimate() {
    fields_->showEstimate(1, budget_->value());
}

void TuneDialog::accept() {
    try {
        (void)request();
    } catch (const InputError& error) {
        return showFieldProblem(this, windowTitle(), QString::fromUtf8(error.what()));
    }
    save();
    QDialog::accept();
}

void TuneDialog::save() const {
    fields_->save();
    QSettings settings;
    settings.setValue(key("sloMs"), slo_->value());
    settings.setValue(key("capW"), cap_->value());
    settings.setValue(key("budget"), budget_->value());
    settings.setValue(key("search"), search_->currentData().toInt());
    settings.setValue(key("seed"), seed_->value());
}

TuneRequest TuneDialog::request() const {
    TuneRequest r;
    r.modelPath = defaults_.modelPath.toStdString();
    r.deviceId = defaults_.deviceId.toStdString();
    r.runner = fields_->runner();
    r.noSwitch = fields_->noSwitch();
    if (!(slo_->value() > 0))
        throw InputError(tr("Latency limit (SLO): give the most time one batch may take, in milliseconds "
                            "(more than 0 ms); the tune looks for the least energy within it")
                             .toStdString());
    r.options.limits.latencySloSeconds = slo_->value() / 1e3;
    if (cap_->value() > 0) r.options.limits.powerCapWatts = cap_->value();
    r.options.objective = Objective(objective_->currentData().toInt());
    r.modes = fields_->modes();
    r.dims = defaults_.dims;
    r.options.phase = defaults_.phase;
    r.options.optimizer = defaults_.optimizer;
    r.batches = fields_->batches();
    r.precisions = fields_->precisions();
    r.options.budget = budget_->value();
    r.options.method = TuneMethod(search_->currentData().toInt());
    r.options.seed = uint64_t(seed_->value());
    r.options.runsPath = fields_->runsPath();
    return r;
}

} // namespace rooftop::gui
