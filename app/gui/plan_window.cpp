// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/plan_window.h"

#include "core/common/text_format.h"
#include "gui/background_job.h"
#include "gui/list_fields.h"
#include "plots/timeline_plot.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace rooftop::gui {

namespace {

// A path under the working folder is shown relative to it (shorter, and what a user typed).
QString shownPath(const QString& path) {
    const QString relative = QDir::current().relativeFilePath(path);
    return relative.startsWith("..") ? path : relative;
}

QWidget* withBrowse(QLineEdit* edit, const QString& title, const QString& filter, QWidget* parent) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    auto* browse = new QPushButton(QObject::tr("Browse…"), row);
    layout->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, row, [edit, title, filter, parent] {
        const QString path = QFileDialog::getOpenFileName(parent, title, edit->text(), filter);
        if (!path.isEmpty()) edit->setText(shownPath(path));
    });
    return row;
}

QString number(double v, int decimals) {
    return QString::number(v, 'f', decimals);
}

} // namespace

PlanWindow::PlanWindow(QWidget* parent, Session session)
    : QDialog(parent), session_(std::move(session)), cancel_(std::make_shared<std::atomic<bool>>(false)) {
    setWindowTitle(tr("Plan training beside inference"));
    pool_.setMaxThreadCount(1);
    auto* form = new QFormLayout;
    inference_ = new QLineEdit(this);
    training_ = new QLineEdit(this);
    device_ = new QLineEdit(QStringLiteral("agx-orin-64gb"), this);
    form->addRow(tr("Inference model"),
                 withBrowse(inference_, tr("Inference model"), tr("ONNX (*.onnx)"), this));
    form->addRow(tr("Training model"),
                 withBrowse(training_, tr("Training model"), tr("ONNX (*.onnx)"), this));
    form->addRow(tr("Board"), device_);

    auto* arrivalRow = new QWidget(this);
    auto* arrivalLayout = new QHBoxLayout(arrivalRow);
    arrivalLayout->setContentsMargins(0, 0, 0, 0);
    arrival_ = new QComboBox(arrivalRow);
    arrival_->addItems({"poisson", "uniform", "bursty", "trace"});
    rate_ = new QDoubleSpinBox(arrivalRow);
    rate_->setRange(0.01, 100000);
    rate_->setValue(30);
    rate_->setSuffix(tr(" req/s"));
    trace_ = new QLineEdit(arrivalRow);
    trace_->setPlaceholderText(tr("trace CSV (arrival times in s)"));
    arrivalLayout->addWidget(arrival_);
    arrivalLayout->addWidget(rate_);
    arrivalLayout->addWidget(withBrowse(trace_, tr("Arrival trace"), tr("CSV (*.csv *.txt)"), arrivalRow), 1);
    form->addRow(tr("Requests arrive"), arrivalRow);

    slo_ = new QDoubleSpinBox(this);
    slo_->setRange(0.01, 1e6);
    slo_->setValue(100);
    slo_->setSuffix(tr(" ms"));
    cap_ = new QDoubleSpinBox(this);
    cap_->setRange(0, 10000);
    cap_->setSpecialValueText(tr("no cap"));
    cap_->setSuffix(tr(" W"));
    violation_ = new QDoubleSpinBox(this);
    violation_->setRange(0, 100);
    violation_->setValue(1.0);
    violation_->setSuffix(tr(" % late or dropped at most"));
    form->addRow(tr("Latency SLO"), slo_);
    form->addRow(tr("Average power cap"), cap_);
    form->addRow(tr("SLO violations"), violation_);
    batches_ = new QLineEdit(QStringLiteral("1,2,4,8,16"), this);
    trainingBatch_ = new QSpinBox(this);
    trainingBatch_->setRange(1, 4096);
    trainingBatch_->setValue(16);
    form->addRow(tr("Inference batch sizes"), batches_);
    form->addRow(tr("Training minibatch"), trainingBatch_);
    modes_ = new QComboBox(this);
    modes_->addItems({"grid", "stock", "all"});
    strategy_ = new QComboBox(this);
    strategy_->addItem(tr("exhaustive over Rooftop's prediction (runs nothing)"), "exhaustive");
    strategy_->addItem(tr("GMD: profile ~15 modes through the runner"), "gmd");
    strategy_->addItem(tr("ALS: profile 50–150 modes, the Pareto front"), "als");
    runner_ = new QLineEdit(QStringLiteral("sim"), this);
    runner_->setToolTip(tr("sim (a simulated board) or command:CMD; GMD and ALS only"));
    form->addRow(tr("Modes"), modes_);
    form->addRow(tr("Strategy"), strategy_);
    form->addRow(tr("Runner"), runner_);
    plan_ = new QPushButton(tr("&Plan"), this);
    plan_->setDefault(true);
    form->addRow(QString(), plan_);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    form->addRow(status_);

    auto* formWidget = new QWidget(this);
    formWidget->setLayout(form);
    summary_ = new QLabel(tr("Give the two models, how requests arrive and the budgets, then Plan."), this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    timeline_ = new plots::TimelinePlot(this);
    policies_ = new QTableWidget(0, 6, this);
    policies_->setHorizontalHeaderLabels({tr("Arrivals"), tr("No training"), tr("Greedy"), tr("Adaptive"),
                                          tr("Greedy minibatches/s"), tr("Adaptive minibatches/s")});
    policies_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    policies_->verticalHeader()->setVisible(false);
    policies_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    policies_->setToolTip(tr("SLO violations at the plan's configuration by scheduling policy (simulated)"));

    auto* results = new QWidget(this);
    auto* resultLayout = new QVBoxLayout(results);
    resultLayout->setContentsMargins(0, 0, 0, 0);
    resultLayout->addWidget(summary_);
    resultLayout->addWidget(timeline_, 1);
    policiesTitle_ =
        new QLabel(tr("SLO violations by scheduling policy at this configuration (simulated)"), this);
    resultLayout->addWidget(policiesTitle_);
    resultLayout->addWidget(policies_, 0);
    auto* splitter = new QSplitter(this);
    splitter->addWidget(formWidget);
    splitter->addWidget(results);
    splitter->setStretchFactor(1, 1);
    timeline_->setVisible(false); // until there is a plan: the summary says what to do
    policies_->setVisible(false);
    policiesTitle_->setVisible(false);
    policies_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    policies_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);
    resize(1200, 720);

    connect(plan_, &QPushButton::clicked, this, &PlanWindow::start);
    connect(arrival_, &QComboBox::currentTextChanged, this, &PlanWindow::updateFields);
    connect(strategy_, &QComboBox::currentIndexChanged, this, &PlanWindow::updateFields);
    updateFields();
}

PlanWindow::~PlanWindow() {
    cancel_->store(true);
    pool_.waitForDone();
}

void PlanWindow::updateFields() {
    const bool trace = arrival_->currentText() == "trace";
    rate_->setEnabled(!trace);
    trace_->setEnabled(trace);
    runner_->setEnabled(strategy_->currentData().toString() != "exhaustive");
}

void PlanWindow::setDefaults(const QString& inferenceModel, const QString& deviceId, double sloMs,
                             double powerCapW) {
    if (!inferenceModel.isEmpty()) inference_->setText(shownPath(inferenceModel));
    if (training_->text().isEmpty()) training_->setText(shownPath(inferenceModel));
    if (!deviceId.isEmpty()) device_->setText(deviceId);
    if (sloMs > 0) slo_->setValue(sloMs);
    cap_->setValue(powerCapW > 0 ? powerCapW : 0.0);
}

PlanRequest PlanWindow::request() const {
    PlanRequest r;
    r.inferenceModel = inference_->text().trimmed().toStdString();
    r.trainingModel = training_->text().trimmed().toStdString();
    r.deviceId = device_->text().trimmed().toStdString();
    const QString kind = arrival_->currentText();
    r.arrival = kind == "trace"
                    ? "trace:" + trace_->text().trimmed().toStdString()
                    : kind.toStdString() + ":" + QString::number(rate_->value(), 'g', 10).toStdString();
    r.latencySloMs = slo_->value();
    if (cap_->value() > 0) r.powerCapWatts = cap_->value();
    r.maxViolationPct = violation_->value();
    r.inferenceBatches = batchSizesField(tr("Inference batch sizes"), batches_->text());
    r.trainingBatch = trainingBatch_->value();
    r.modes = modes_->currentText().toStdString();
    parsePlanStrategy(strategy_->currentData().toString().toStdString(), r.strategy);
    if (r.strategy != PlanStrategy::Exhaustive) r.runner = runner_->text().trimmed().toStdString();
    r.durationSeconds = 0;
    return r;
}

bool PlanWindow::start() {
    if (running_) {
        status_->setText(tr("A plan is running."));
        return false;
    }
    PlanRequest r;
    try {
        r = request();
    } catch (const std::exception& error) {
        showError(firstLine(error.what()));
        return false;
    }
    running_ = true;
    plan_->setEnabled(false);
    status_->setText(tr("Planning…"));
    cancel_->store(false);
    Session session = session_;
    std::shared_ptr<std::atomic<bool>> cancel = cancel_;
    QPointer<PlanWindow> self(this);
    runJob<PlanWindow>(
        pool_, this,
        [session, r, cancel, self]() -> JobReport<PlanWindow> {
            try {
                PlanReport report = session(
                    r,
                    [self](const std::string& stage, int) {
                        const QString text = QString::fromStdString(stage);
                        postTo(self.data(), [self, text] {
                            if (self) self->status_->setText(text);
                        });
                    },
                    cancel.get());
                return [report](PlanWindow* w) { w->showReport(report); };
            } catch (const std::exception& error) {
                const QString message = firstLine(error.what());
                return [message](PlanWindow* w) { w->showError(message); };
            }
        },
        [](PlanWindow* w) {
            w->running_ = false;
            w->plan_->setEnabled(true);
        });
    return true;
}

void PlanWindow::showError(const QString& message) {
    status_->setText(tr("Not planned: %1").arg(message));
    emit finished();
}

QString PlanWindow::summaryText() const {
    return summary_->text();
}

void PlanWindow::showReport(const PlanReport& r) {
    report_ = r;
    const QString strategy = QString::fromLatin1(planStrategyName(r.request.strategy));
    QString text;
    if (!r.outcome.plan) {
        text = tr("<b>No configuration meets the budgets.</b> %1 of %2 modes tried (%3).")
                   .arg(r.outcome.profiledModes)
                   .arg(r.space.modes.size())
                   .arg(QString::fromStdString(r.outcome.stopReason));
    } else {
        const PlanCandidate& c = r.outcome.candidates[*r.outcome.plan];
        const PowerMode& mode = r.space.modes[c.mode].mode;
        const ScheduleStats& s = c.result.stats;
        const size_t b = c.result.batchIndex;
        const QString costs = QString::fromStdString(c.costs.provenance);
        text =
            tr("<b>Plan: %1</b> (%2 cores @ %3 MHz, GPU %4 MHz, EMC %5 MHz), inference batch %6, training "
               "minibatch %7<br>"
               "Training <b>%8 minibatches/s</b> · SLO violations <b>%9 %</b> (%10 late, %11 dropped of %12) "
               "· "
               "p50 %13 ms, p99 %14 ms · average power <b>%15 W</b> — simulated (%16)<br>"
               "Costs: inference %17 ms at %18 W, training step %19 ms at %20 W (%21); idle %22 W "
               "(estimate)<br>"
               "Kept the budgets in %23 % of %24 fresh simulated streams · strategy %25, %26 modes profiled")
                .arg(QString::fromStdString(mode.name))
                .arg(mode.onlineCores)
                .arg(QString::fromStdString(mhz(mode.cpuKhz * 1e3)))
                .arg(QString::fromStdString(mhz(static_cast<double>(mode.gpuHz))))
                .arg(QString::fromStdString(mhz(static_cast<double>(mode.emcHz))))
                .arg(r.space.inferenceBatches[b])
                .arg(r.space.trainingBatch)
                .arg(number(s.minibatchesPerSecond, 2))
                .arg(number(s.violationPct, 2))
                .arg(s.late)
                .arg(s.dropped)
                .arg(s.requests)
                .arg(number(s.p50Ms, 1))
                .arg(number(s.p99Ms, 1))
                .arg(number(s.averageWatts, 1))
                .arg(tr("%1 streams of %2 s")
                         .arg(r.request.planningStreams)
                         .arg(r.simulatedSeconds, 0, 'g', 4))
                .arg(number(1e3 * c.costs.inferenceSeconds[b], 2))
                .arg(number(c.costs.inferenceWatts[b], 1))
                .arg(number(1e3 * c.costs.trainingSeconds, 1))
                .arg(number(c.costs.trainingWatts, 1))
                .arg(costs)
                .arg(number(c.costs.idleWatts, 1))
                .arg(number(r.budgetMetPct, 0))
                .arg(r.checkStreams)
                .arg(strategy)
                .arg(r.outcome.profiledModes);
    }
    summary_->setText(text);
    timeline_->setVisible(true);
    policies_->setVisible(true);
    policiesTitle_->setVisible(true);
    const double from = r.timeline.empty() ? 0.0 : (r.simulatedSeconds >= 2.0 ? 1.0 : 0.0);
    timeline_->setTimeline(r.timeline, from, std::min(1.0, r.simulatedSeconds),
                           QString::fromStdString(describeArrivals(r.arrival)));
    policies_->setRowCount(static_cast<int>(r.policies.size()));
    for (int i = 0; i < static_cast<int>(r.policies.size()); ++i) {
        const PolicyComparison& p = r.policies[static_cast<size_t>(i)];
        const QStringList cells = {
            QString::fromStdString(p.arrival),       number(p.inferenceOnlyPct, 2) + " %",
            number(p.greedyPct, 2) + " %",           number(p.adaptivePct, 2) + " %",
            number(p.greedyMinibatchesPerSecond, 2), number(p.adaptiveMinibatchesPerSecond, 2)};
        for (int c = 0; c < cells.size(); ++c)
            policies_->setItem(i, c, new QTableWidgetItem(cells[c]));
    }
    status_->setText(r.outcome.cancelled ? tr("Cancelled; the original mode was restored.") : tr("Planned."));
    emit finished();
}

} // namespace rooftop::gui
