// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/plan_window.h"

#include "core/common/text_format.h"
#include "core/measure/trtexec_runner.h"
#include "core/plan/plan_rendering.h"
#include "gui/background_job.h"
#include "gui/board_catalog.h"
#include "gui/list_fields.h"
#include "gui/path_text.h"
#include "gui/theme.h"
#include "gui/unbroken_words.h"
#include "models/plan_table_model.h"
#include "plots/timeline_plot.h"

#include <QApplication>
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
#include <QScreen>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace rooftop::gui {

namespace {

QWidget* withBrowse(QLineEdit* edit, const QString& title, const QString& filter, QWidget* parent) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    auto* browse = new QPushButton(QObject::tr("Browse…"), row);
    layout->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, row, [edit, title, filter, parent] {
        const QString path = QFileDialog::getOpenFileName(parent, title, edit->text(), filter);
        if (!path.isEmpty()) edit->setText(pathFromWorkingFolder(path));
    });
    return row;
}

} // namespace

PlanWindow::PlanWindow(QWidget* parent, Session session)
    : QDialog(parent), session_(std::move(session)), cancel_(std::make_shared<std::atomic<bool>>(false)) {
    setWindowTitle(tr("Plan training beside inference"));
    pool_.setMaxThreadCount(1);
    auto* form = new QFormLayout;
    inference_ = new QLineEdit(this);
    training_ = new QLineEdit(this);
    inference_->setObjectName(QStringLiteral("inferenceModel"));
    training_->setObjectName(QStringLiteral("trainingModel"));
    board_ = new QComboBox(this);
    board_->setObjectName(QStringLiteral("board"));
    board_->setToolTip(tr("A board of the catalog (the window's board when the page opens)"));
    form->addRow(tr("Inference model"),
                 withBrowse(inference_, tr("Inference model"), tr("ONNX (*.onnx)"), this));
    form->addRow(tr("Training model"),
                 withBrowse(training_, tr("Training model"), tr("ONNX (*.onnx)"), this));
    form->addRow(tr("Board"), board_);

    auto* arrivalRow = new QWidget(this);
    auto* arrivalLayout = new QHBoxLayout(arrivalRow);
    arrivalLayout->setContentsMargins(0, 0, 0, 0);
    arrival_ = new QComboBox(arrivalRow);
    arrival_->addItems({"poisson", "uniform", "bursty", "trace"});
    rate_ = new QDoubleSpinBox(arrivalRow);
    rate_->setRange(0.01, 100000);
    rate_->setValue(30);
    rate_->setSuffix(tr(" req/s"));
    trace_ = new QLineEdit(this);
    trace_->setPlaceholderText(tr("CSV of arrival times in s"));
    arrivalLayout->addWidget(arrival_);
    arrivalLayout->addWidget(rate_, 1);
    form->addRow(tr("Requests arrive"), arrivalRow);
    form->addRow(tr("Arrival trace"), withBrowse(trace_, tr("Arrival trace"), tr("CSV (*.csv *.txt)"), this));

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
    strategy_->setObjectName(QStringLiteral("strategy"));
    strategy_->addItem(tr("exhaustive over Rooftop's prediction (runs nothing)"), "exhaustive");
    strategy_->addItem(tr("GMD: profile ~15 modes through the runner"), "gmd");
    strategy_->addItem(tr("ALS: profile 50–150 modes, the Pareto front"), "als");
    runner_ = new QComboBox(this);
    runner_->setObjectName(QStringLiteral("runner"));
    runner_->setEditable(true); // a command:CMD or trtexec:PATH is typed
    runner_->setToolTip(tr("What GMD and ALS run each profiled mode on: trtexec, the simulated board, or a "
                           "typed trtexec:PATH or command:CMD"));
    // with a runner on this machine, measure by default, as rooftop plan does with --runner: a plan on
    // estimated costs keeps its budgets only within their error
    if (const std::string trtexec = findTrtexec(); !trtexec.empty()) {
        runner_->addItem(tr("trtexec (%1)").arg(QString::fromStdString(trtexec)),
                         QStringLiteral("trtexec:") + QString::fromStdString(trtexec));
        strategy_->setCurrentIndex(strategy_->findData(QStringLiteral("gmd")));
    }
    runner_->addItem(tr("simulated board (not a measurement of this machine)"), QStringLiteral("sim"));
    form->addRow(tr("Modes"), modes_);
    form->addRow(tr("Strategy"), strategy_);
    form->addRow(tr("Runner"), runner_);
    plan_ = new QPushButton(tr("&Plan"), this);
    plan_->setDefault(true);
    form->addRow(QString(), plan_);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    form->addRow(status_);

    // the form, and under it the plan's summary in the room the form leaves; the timeline and the tables
    // beside them
    auto* formWidget = new QWidget(this);
    auto* formColumn = new QVBoxLayout(formWidget);
    formColumn->setContentsMargins(0, 0, 0, 0);
    formColumn->addLayout(form);
    summary_ = new QLabel(tr("Give the two models, how requests arrive and the budgets, then Plan."), this);
    summary_->setObjectName(QStringLiteral("planSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    timeline_ = new plots::TimelinePlot(this);

    // the renderer's tables, each a model in a view with its title and the provenance of its numbers
    tables_ = new QTabWidget(this);
    const auto addTable = [this](QTableView*& view, models::PlanTableModel*& model, QLabel*& title,
                                 const QString& tab) {
        auto* page = new QWidget(tables_);
        auto* pageLayout = new QVBoxLayout(page);
        pageLayout->setContentsMargins(4, 4, 4, 4);
        title = new QLabel(page);
        title->setWordWrap(true);
        model = new models::PlanTableModel(this);
        view = new QTableView(page);
        view->setModel(model);
        view->setSortingEnabled(false);
        view->setSelectionBehavior(QAbstractItemView::SelectRows);
        view->setEditTriggers(QAbstractItemView::NoEditTriggers);
        view->setWordWrap(false);
        view->verticalHeader()->setVisible(false);
        view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
        view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
        pageLayout->addWidget(title);
        pageLayout->addWidget(view, 1);
        tables_->addTab(page, tab);
    };
    addTable(policies_, policyModel_, policiesTitle_, tr("Scheduling policies"));
    addTable(candidates_, candidateModel_, candidatesTitle_, tr("Best candidates"));
    policies_->setObjectName(QStringLiteral("policyTable"));
    candidates_->setObjectName(QStringLiteral("candidateTable"));
    candidates_->horizontalHeader()->setStretchLastSection(true); // the reason a candidate misses the budgets

    auto* results = new QWidget(this);
    auto* resultLayout = new QVBoxLayout(results);
    resultLayout->setContentsMargins(0, 0, 0, 0);
    // a word-wrapped rich-text label under-reports its height beside stretching plots: in a scroll area its
    // notes scroll instead of being cut off mid-line
    auto* summaryArea = new QScrollArea(formWidget);
    summaryArea->setWidget(summary_);
    summaryArea->setWidgetResizable(true);
    summaryArea->setFrameShape(QFrame::NoFrame);
    summaryArea->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);
    formColumn->addWidget(summaryArea, 1);
    resultLayout->addWidget(timeline_, 3);
    resultLayout->addWidget(tables_, 2);
    auto* splitter = new QSplitter(this);
    splitter->addWidget(formWidget);
    splitter->addWidget(results);
    splitter->setStretchFactor(1, 1);
    timeline_->setVisible(false); // until there is a plan: the summary says what to do
    tables_->setVisible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);
    // 1200 x 720 on a 1280 x 800 screen, up to 1500 x 900 on a larger one
    const QRect available = screen()->availableGeometry();
    resize(std::clamp(available.width() * 15 / 16, 640, 1500),
           std::clamp(available.height() * 9 / 10, 480, 900));
    const int formWidth =
        std::max(470, width() * 2 / 5); // the summary under the form reads in lines, not words
    splitter->setSizes({formWidth, width() - formWidth});

    connect(plan_, &QPushButton::clicked, this, &PlanWindow::start);
    connect(arrival_, &QComboBox::currentTextChanged, this, &PlanWindow::updateFields);
    connect(board_, &QComboBox::activated, this, [this] { wantedBoard_.clear(); }); // the user's choice
    connect(strategy_, &QComboBox::currentIndexChanged, this, &PlanWindow::updateFields);
    updateFields();
    BoardCatalog::instance().whenLoaded(this, [this](const BoardCatalogContents& contents) {
        if (contents.boards) setBoards(*contents.boards);
    });
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
    if (!inferenceModel.isEmpty()) inference_->setText(pathFromWorkingFolder(inferenceModel));
    if (training_->text().isEmpty()) training_->setText(pathFromWorkingFolder(inferenceModel));
    if (!deviceId.isEmpty()) {
        const int index = board_->findData(deviceId);
        if (index >= 0) {
            board_->setCurrentIndex(index);
            wantedBoard_.clear();
        } else {
            wantedBoard_ = deviceId; // chosen when the catalog lists it
        }
    }
    if (sloMs > 0) slo_->setValue(sloMs);
    cap_->setValue(powerCapW > 0 ? powerCapW : 0.0);
}

void PlanWindow::setInferenceDims(const std::map<std::string, int64_t>& dims) {
    inferenceDims_ = dims;
    dimsModel_ = inference_->text().trimmed();
}

void PlanWindow::setBoards(const std::vector<DeviceSpec>& boards) {
    const QString keep = wantedBoard_.isEmpty() ? board_->currentData().toString() : wantedBoard_;
    if (fillBoardCombo(board_, boards, keep)) wantedBoard_.clear();
}

QString PlanWindow::boardId() const {
    return board_->currentIndex() < 0 ? wantedBoard_ : board_->currentData().toString();
}

PlanRequest PlanWindow::request() const {
    PlanRequest r;
    r.inferenceModel = inference_->text().trimmed().toStdString();
    r.trainingModel = training_->text().trimmed().toStdString();
    r.deviceId = boardId().toStdString();
    // the dims belong to the window's model: a plan of another inference model is at its own dims
    if (QFileInfo(inference_->text().trimmed()).canonicalFilePath() ==
        QFileInfo(dimsModel_).canonicalFilePath())
        r.inferenceDims = inferenceDims_;
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
    r.strategy = parsePlanStrategy(strategy_->currentData().toString().toStdString()).value_or(r.strategy);
    if (r.strategy !=
        PlanStrategy::Exhaustive) { // an offered runner reads as its label, a typed one as it is
        const int offered = runner_->findText(runner_->currentText());
        r.runner = (offered >= 0 ? runner_->itemData(offered).toString() : runner_->currentText().trimmed())
                       .toStdString();
    }
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

namespace {

// One labelled line of the rendering as a row of the summary: label, value, and the provenance in grey.
QString summaryRow(const PlanLine& line) {
    const QString provenance =
        line.provenance.empty()
            ? QString()
            : QStringLiteral("(%1)").arg(QString::fromStdString(line.provenance).toHtmlEscaped());
    return QStringLiteral("<tr><td style=\"padding-right:12px\">%1</td><td>%2</td>"
                          "<td style=\"padding-left:8px; color:%3\">%4</td></tr>")
        .arg(QString::fromStdString(line.label).toHtmlEscaped(),
             unbrokenAtHyphens(QString::fromStdString(line.value).toHtmlEscaped()),
             secondaryTextCss(QApplication::palette()), provenance);
}

// The basis behind each figure, one line each: what the summary's tooltip says.
QString basisLines(const std::vector<PlanLine>& lines) {
    QStringList out;
    for (const PlanLine& line : lines)
        if (!line.basis.empty())
            out << QStringLiteral("%1: %2, %3")
                       .arg(QString::fromStdString(line.label), QString::fromStdString(line.provenance),
                            QString::fromStdString(line.basis));
    return out.join('\n');
}

// A table's title with the provenance of its numbers; the basis in the tooltip.
void setTableTitle(QLabel* label, const PlanTable& table) {
    label->setText(QStringLiteral("%1 (%2)").arg(QString::fromStdString(table.title),
                                                 QString::fromStdString(table.provenance)));
    label->setToolTip(QString::fromStdString(table.basis));
}

} // namespace

void PlanWindow::showReport(const PlanReport& r) {
    report_ = r;
    const PlanRendering v = renderPlan(r);
    QString html = QStringLiteral("<b>%1</b>")
                       .arg(unbrokenAtHyphens(QString::fromStdString(v.headline).toHtmlEscaped()));
    html += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"0\">");
    for (const PlanLine& line : v.figures)
        html += summaryRow(line);
    html += QStringLiteral("</table><table cellspacing=\"0\" cellpadding=\"0\" style=\"color:%1\">")
                .arg(secondaryTextCss(QApplication::palette()));
    for (const PlanLine& line : v.settings)
        html += summaryRow(line);
    html += QStringLiteral("</table>");
    for (const std::string& note : v.notes) // the caveats the text writer prints: profiles that failed
        html += QStringLiteral("<div>%1</div>").arg(QString::fromStdString(note).toHtmlEscaped());
    summary_->setText(html);
    summary_->setToolTip(basisLines(v.figures));
    timeline_->setVisible(true);
    tables_->setVisible(true);
    const double from = r.timeline.empty() ? 0.0 : (r.simulatedSeconds >= 2.0 ? 1.0 : 0.0);
    timeline_->setTimeline(r.timeline, from, std::min(1.0, r.simulatedSeconds),
                           QString::fromStdString(describeArrivals(r.arrival)),
                           QString::fromStdString(v.timelineConfiguration));
    policyModel_->setTable(v.policies);
    candidateModel_->setTable(v.candidates);
    // the Note column only when a candidate misses the budgets
    const bool noNotes = std::all_of(v.candidates.rowNotes.begin(), v.candidates.rowNotes.end(),
                                     [](const std::string& note) { return note.empty(); });
    candidates_->setColumnHidden(candidateModel_->columnCount() - 1, noNotes);
    setTableTitle(policiesTitle_, v.policies);
    setTableTitle(candidatesTitle_, v.candidates);
    tables_->setTabEnabled(0, !v.policies.rows.empty());
    tables_->setCurrentIndex(v.policies.rows.empty() ? 1 : 0);
    status_->setText(!r.outcome.cancelled ? (r.outcome.plan ? tr("Planned.")
                                                            : tr("No configuration meets the budgets: the "
                                                                 "note says what would admit one."))
                     : r.switching        ? tr("Cancelled; the original mode was restored.")
                                          : tr("Cancelled (no mode was switched)."));
    emit finished();
}

} // namespace rooftop::gui
