// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/llm_window.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/device/power_mode.h"
#include "core/device/provenance.h"
#include "core/llm/llm_writers.h"
#include "core/report/prediction_bounds.h"
#include "gui/background_job.h"
#include "gui/board_catalog.h"
#include "gui/list_fields.h"
#include "gui/memory_bar.h"
#include "plots/llm_context_plot.h"
#include "plots/llm_efficiency_plot.h"
#include "plots/roofline_plot.h"
#include "report/llm_scene.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace rooftop::gui {

namespace {

QSpinBox* tokens(QWidget* parent, int value, const QString& tip) {
    auto* box = new QSpinBox(parent);
    box->setRange(1, 1 << 20);
    box->setValue(value);
    box->setSuffix(QObject::tr(" tokens"));
    box->setToolTip(tip);
    return box;
}

/// The index of an option's mode answer within its batch's result, and that result.
std::pair<const LlmResult*, size_t> whereIs(const LlmAdvice& advice, const LlmOption& option) {
    for (const LlmResult& result : advice.results)
        if (!result.modes.empty() && option.answer >= &result.modes.front() &&
            option.answer <= &result.modes.back())
            return {&result, size_t(option.answer - &result.modes.front())};
    return {nullptr, 0};
}

} // namespace

LlmWindow::LlmWindow(QWidget* parent, Session session) : QDialog(parent), session_(std::move(session)) {
    setWindowTitle(tr("LLM view"));
    setObjectName(QStringLiteral("llmWindow"));
    if (!session_)
        session_ = [](const LlmPageRequest& r) {
            return adviseLlm(r.request, r.batches, r.limits, r.objective);
        };
    pool_.setMaxThreadCount(1);
    auto* form = new QFormLayout;
    modelLabel_ = new QLabel(tr("no decoder"), this);
    modelLabel_->setWordWrap(true);
    board_ = new QComboBox(this);
    board_->setObjectName(QStringLiteral("board"));
    prompt_ = tokens(this, 128, tr("P: the prompt's tokens, prefilled in one pass (time to first token)"));
    generate_ = tokens(this, 128, tr("G: tokens generated, one decode step each while the KV cache grows"));
    contextBox_ = tokens(this, 256, tr("The context of the decode step drawn on the roofline"));
    batches_ = new QLineEdit(QStringLiteral("1,2,4"), this);
    batches_->setToolTip(tr("Sequences decoded at once; each batch that fits in memory is weighed"));
    tpotSlo_ = new QDoubleSpinBox(this);
    tpotSlo_->setRange(0, 1e6);
    tpotSlo_->setSpecialValueText(tr("no limit"));
    tpotSlo_->setSuffix(tr(" ms"));
    tpotSlo_->setToolTip(tr("Time per output token a configuration must meet by its upper bound at 90 %"));
    objective_ = new QComboBox(this);
    objective_->addItem(tr("least energy per token"), int(LlmObjective::EnergyPerToken));
    objective_->addItem(tr("most tokens per second"), int(LlmObjective::TokensPerSecond));
    modes_ = new QComboBox(this);
    modes_->addItem(tr("stock modes"), QStringLiteral("stock"));
    modes_->addItem(tr("stock and custom grid modes"), QStringLiteral("all"));
    form->addRow(tr("Decoder"), modelLabel_);
    form->addRow(tr("Board"), board_);
    form->addRow(tr("Prompt"), prompt_);
    form->addRow(tr("Generate"), generate_);
    form->addRow(tr("Batches"), batches_);
    form->addRow(tr("Roofline at context"), contextBox_);
    form->addRow(tr("TPOT limit"), tpotSlo_);
    form->addRow(tr("Pick"), objective_);
    form->addRow(tr("Modes"), modes_);
    run_ = new QPushButton(tr("&Analyse"), this);
    run_->setDefault(true);
    form->addRow(QString(), run_);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    form->addRow(status_);
    auto* formWidget = new QWidget(this);
    formWidget->setLayout(form);

    summary_ = new QLabel(tr("Give the prompt, the generation and the batches, then Analyse."), this);
    summary_->setObjectName(QStringLiteral("llmSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    memory_ = new MemoryBar(this);
    roofline_ = new plots::RooflinePlot(plots::RooflineKind::Time, this);
    context_ = new plots::LlmContextPlot(this);
    efficiency_ = new plots::LlmEfficiencyPlot(this);
    table_ = new QTableWidget(this);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tabs_ = new QTabWidget(this);
    tabs_->addTab(efficiency_, tr("Tokens per joule"));
    tabs_->addTab(context_, tr("TPOT against context"));
    tabs_->addTab(roofline_, tr("Decode step on the roofline"));
    // the table under a line that says what its brackets are (its tooltip gives their basis)
    auto* tablePage = new QWidget(this);
    auto* tableLayout = new QVBoxLayout(tablePage);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableCaption_ = new QLabel(tablePage);
    tableCaption_->setObjectName(QStringLiteral("llmTableCaption"));
    tableCaption_->setWordWrap(true);
    tableLayout->addWidget(tableCaption_);
    tableLayout->addWidget(table_, 1);
    tabs_->addTab(tablePage, tr("Modes"));

    auto* results = new QWidget(this);
    auto* resultLayout = new QVBoxLayout(results);
    resultLayout->setContentsMargins(0, 0, 0, 0);
    resultLayout->addWidget(summary_);
    resultLayout->addWidget(memory_);
    resultLayout->addWidget(tabs_, 1);
    auto* splitter = new QSplitter(this);
    splitter->addWidget(formWidget);
    splitter->addWidget(results);
    splitter->setStretchFactor(1, 1);
    memory_->setVisible(false);
    tabs_->setVisible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);
    const QRect available = screen()->availableGeometry();
    resize(std::clamp(available.width() * 15 / 16, 640, 1500),
           std::clamp(available.height() * 9 / 10, 480, 900));
    splitter->setSizes({360, width() - 360});

    connect(run_, &QPushButton::clicked, this, &LlmWindow::analyse);
    connect(board_, &QComboBox::activated, this, [this] { wantedBoard_.clear(); });
    // the drawn decode step follows the generation's last context unless the user moved it
    connect(prompt_, &QSpinBox::valueChanged, this,
            [this] { contextBox_->setValue(prompt_->value() + generate_->value()); });
    connect(generate_, &QSpinBox::valueChanged, this,
            [this] { contextBox_->setValue(prompt_->value() + generate_->value()); });
    BoardCatalog::instance().whenLoaded(this, [this](const BoardCatalogContents& contents) {
        if (contents.boards) setBoards(*contents.boards);
    });
}

LlmWindow::~LlmWindow() {
    pool_.waitForDone();
}

void LlmWindow::setModel(const QString& modelPath, const QString& deviceId) {
    model_ = modelPath;
    modelLabel_->setText(QFileInfo(modelPath).fileName());
    modelLabel_->setToolTip(modelPath);
    const int index = board_->findData(deviceId);
    if (index >= 0) {
        board_->setCurrentIndex(index);
        wantedBoard_.clear();
    } else {
        wantedBoard_ = deviceId;
    }
}

void LlmWindow::setBoards(const std::vector<DeviceSpec>& boards) {
    const QString keep = wantedBoard_.isEmpty() ? board_->currentData().toString() : wantedBoard_;
    if (fillBoardCombo(board_, boards, keep)) wantedBoard_.clear();
    if (pending_ && board_->count() > 0) {
        pending_ = false;
        analyse();
    }
}

LlmPageRequest LlmWindow::request() const {
    LlmPageRequest r;
    if (model_.isEmpty()) throw InputError("open a decoder first (File → Open model…)");
    r.request.modelPath = model_.toStdString();
    r.request.prompt = prompt_->value();
    r.request.generate = generate_->value();
    const int64_t largest = r.request.prompt + r.request.generate;
    if (contextBox_->value() > largest)
        throw InputError("the roofline's context must be at most the prompt and the generation (" +
                         std::to_string(largest) + " tokens)");
    r.request.contexts = {contextBox_->value()};
    r.request.sweepFrom = std::min<int64_t>(16, largest - 1);
    r.request.sweepTo = largest;
    r.request.sweepPoints = 32;
    if (r.request.sweepFrom < 1) r.request.sweepFrom = r.request.sweepTo = 0; // a context of 1: no sweep
    r.request.deviceId =
        (board_->currentIndex() < 0 ? wantedBoard_ : board_->currentData().toString()).toStdString();
    r.request.modes = modes_->currentData().toString().toStdString();
    r.batches = batchSizesField(tr("Batches"), batches_->text());
    if (tpotSlo_->value() > 0) r.limits.tpotSeconds = tpotSlo_->value() * 1e-3;
    r.objective = LlmObjective(objective_->currentData().toInt());
    return r;
}

bool LlmWindow::analyse() {
    if (running_) {
        status_->setText(tr("An analysis is running."));
        return false;
    }
    if (board_->count() == 0) { // the catalog is loading: analysed when it lists the boards
        pending_ = true;
        status_->setText(tr("Waiting for the board catalog…"));
        return false;
    }
    LlmPageRequest r;
    try {
        r = request();
    } catch (const std::exception& error) {
        showError(firstLine(error.what()));
        return false;
    }
    running_ = true;
    run_->setEnabled(false);
    status_->setText(tr("Analysing…"));
    Session session = session_;
    runJob<LlmWindow>(
        pool_, this,
        [session, r]() -> JobReport<LlmWindow> {
            try {
                auto advice = std::make_shared<const LlmAdvice>(session(r));
                return [advice](LlmWindow* w) { w->showAdvice(advice); };
            } catch (const std::exception& error) {
                const QString message = firstLine(error.what());
                return [message](LlmWindow* w) { w->showError(message); };
            }
        },
        [](LlmWindow* w) {
            w->running_ = false;
            w->run_->setEnabled(true);
        });
    return true;
}

void LlmWindow::showError(const QString& message) {
    status_->setText(tr("No answer: %1").arg(message));
    emit finished();
}

QString LlmWindow::summaryText() const {
    return summary_->text();
}

void LlmWindow::showAdvice(std::shared_ptr<const LlmAdvice> advice) {
    advice_ = std::move(advice);
    const LlmRecommendation& r = advice_->recommendation;
    const std::optional<size_t> shown = r.pick ? r.pick : r.closest;
    const LlmOption& option = r.options[shown ? *shown : (r.baseline ? *r.baseline : 0)];
    const auto [result, mode] = whereIs(*advice_, option);
    if (!result) return showError(tr("the advice names no mode"));
    const LlmModeAnswer& a = *option.answer;
    const QString name = QString::fromStdString(readableModeName(a.profile.mode));
    QString text = "<b>" + QString::fromStdString(llmRecommendationHeadline(r)).toHtmlEscaped() + "</b>";
    if (r.pick)
        for (const std::string& reason : r.reasons)
            text += "<br>" + QString::fromStdString(reason).toHtmlEscaped();
    text += "<br>" + tr("Memory at batch %1 and context %2: %3 of %4 usable (weights, KV cache, activations)")
                         .arg(option.batch)
                         .arg(result->request.prompt + result->request.generate)
                         .arg(QString::fromStdString(gibText(result->memory.totalBytes)))
                         .arg(QString::fromStdString(gibText(result->memory.usableBytes())));
    if (!advice_->tooBig.empty()) {
        QStringList left;
        for (const std::string& batch : advice_->tooBig)
            left << QString::fromStdString(batch);
        text += "<br>" + tr("Left out, too large for memory: batch %1").arg(left.join(", "));
    }
    summary_->setText(text);
    memory_->setMemory(result->memory);
    roofline_->setScene(report::buildLlmDecodeScene(*result, mode));
    roofline_->setTitle(tr("Decode step at context %1 in %2, batch %3 (%4)")
                            .arg(result->request.contexts.empty() ? 0 : result->request.contexts.front())
                            .arg(name)
                            .arg(option.batch)
                            .arg(QString::fromStdString(llmProvenanceText(a))));
    context_->setSweep(*result, mode);
    efficiency_->setAdvice(*advice_);
    fillTable(*result);
    tabs_->setTabText(tabs_->indexOf(table_->parentWidget()), tr("Modes at batch %1").arg(option.batch));
    memory_->setVisible(true);
    tabs_->setVisible(true);
    status_->setText(tr("%1 configurations weighed").arg(r.options.size()));
    emit finished();
}

void LlmWindow::fillTable(const LlmResult& result) {
    const QStringList headers = {tr("mode"),         tr("TTFT ms"),       tr("TPOT ms"),
                                 tr("decode tok/s"), tr("prefill tok/s"), tr("tok/J"),
                                 tr("decode W"),     tr("decode bound"),  tr("provenance")};
    std::vector<const LlmModeAnswer*> rows;
    for (const LlmModeAnswer& a : result.modes)
        if (a.profile.mode.stock || result.modes.size() <= 64) rows.push_back(&a);
    table_->clear();
    table_->setColumnCount(int(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    table_->setToolTip(
        QString::fromStdString(boundsLegendText(result.spreadBasis, result.request.confidence)));
    tableCaption_->setText(tr("Predicted at batch %1; [low–high]: each bound holds at %2 % (the table's "
                              "tooltip says what they rest on)")
                               .arg(result.request.batch)
                               .arg(result.request.confidence * 100, 0, 'g', 3));
    table_->setRowCount(int(rows.size()));
    for (int i = 0; i < int(rows.size()); ++i) {
        const LlmModeAnswer& a = *rows[size_t(i)];
        const auto bounded = [&](double value, double spread, double scale, int digits) {
            // the digits kept ("1.560" beside "0.6974"), whole numbers beyond them ("734132", not
            // "7.341e+05")
            return QString::fromStdString(withBounds(significant(value * scale, digits), value, spread, scale,
                                                     result.request.confidence));
        };
        const QStringList cells = {QString::fromStdString(readableModeName(a.profile.mode)),
                                   bounded(a.ttftSeconds, result.ttftSpread, 1e3, 4),
                                   bounded(a.tpotSeconds, a.decodeSpread.latency, 1e3, 4),
                                   bounded(a.decodeTokensPerSecond, a.decodeSpread.latency, 1.0, 4),
                                   bounded(a.prefillTokensPerSecond, result.ttftSpread, 1.0, 4),
                                   bounded(a.tokensPerJoule, a.decodeSpread.energy, 1.0, 3),
                                   bounded(a.decodeWatts, a.decodeSpread.power, 1.0, 3),
                                   QString::fromUtf8(passBoundName(a.decodeBound)),
                                   QString::fromStdString(llmProvenanceText(a))};
        for (int c = 0; c < cells.size(); ++c)
            table_->setItem(i, c, new QTableWidgetItem(cells[c]));
    }
}

} // namespace rooftop::gui
