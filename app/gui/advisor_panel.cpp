// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/advisor_panel.h"

#include "core/advisor/explanation.h"
#include "core/advisor/nvpmodel_guide.h"
#include "core/device/provenance.h"
#include "gui/nvpmodel_steps.h"
#include "gui/theme.h"
#include "gui/unbroken_words.h"
#include "models/recommendation_text.h"
#include "models/unit_format.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSlider>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace rooftop::gui {

namespace {

int nearestStep(const std::vector<int64_t>& ladder, int64_t value) {
    int best = 0;
    for (size_t i = 0; i < ladder.size(); ++i)
        if (std::llabs(ladder[i] - value) < std::llabs(ladder[size_t(best)] - value)) best = int(i);
    return best;
}

} // namespace

namespace {

QToolButton* foldButton(const QString& text, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setCheckable(true);
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    button->setArrowType(Qt::RightArrow);
    button->setAutoRaise(true);
    QObject::connect(button, &QToolButton::toggled, button,
                     [button](bool on) { button->setArrowType(on ? Qt::DownArrow : Qt::RightArrow); });
    return button;
}

QFont monospace() {
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
}

} // namespace

AdvisorPanel::AdvisorPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* question = new QGroupBox(tr("Question"), this);
    auto* form = new QFormLayout(question);
    latencySlo_ = new QDoubleSpinBox(question);
    latencySlo_->setRange(0, 100000);
    latencySlo_->setDecimals(2);
    latencySlo_->setSuffix(tr(" ms"));
    latencySlo_->setSpecialValueText(tr("no limit"));
    latencySlo_->setToolTip(tr("Latency limit per batch (0: none)"));
    powerCap_ = new QDoubleSpinBox(question);
    powerCap_->setRange(0, 2000);
    powerCap_->setDecimals(1);
    powerCap_->setSuffix(tr(" W"));
    powerCap_->setSpecialValueText(tr("no limit"));
    powerCap_->setToolTip(tr("Average power limit (0: none)"));
    objective_ = new QComboBox(question);
    // short names that fit the dock (a combo box clips, it does not elide); the whole in each tooltip
    objective_->addItem(tr("Least energy"), int(Objective::Energy));
    objective_->addItem(tr("Least latency"), int(Objective::Latency));
    objective_->addItem(tr("Most per joule"), int(Objective::Efficiency));
    nameObjectives();
    // the fields may shrink below their longest value when the dock is made narrow; their size hints (and
    // so the dock's first width) stay whole
    objective_->setMinimumWidth(
        objective_->fontMetrics().horizontalAdvance(QStringLiteral("Most per joule")) + 40);
    for (QDoubleSpinBox* box : {latencySlo_, powerCap_})
        box->setMinimumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("0000.00 ms")) + 40);
    form->addRow(tr("Latency SLO"), latencySlo_);
    form->addRow(tr("Power cap"), powerCap_);
    form->addRow(tr("Objective"), objective_);
    layout->addWidget(question);

    card_ = new QLabel(this);
    card_->setObjectName(QStringLiteral("ResultsCard"));
    card_->setTextFormat(Qt::RichText);
    card_->setWordWrap(true);
    card_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    card_->setFrameShape(QFrame::StyledPanel);
    card_->setMargin(6);
    card_->setText(tr("Open a model to get a recommendation."));
    layout->addWidget(card_);
    tuned_ = new QLabel(this);
    tuned_->setObjectName(QStringLiteral("TunedAnswer"));
    tuned_->setTextFormat(Qt::RichText);
    tuned_->setWordWrap(true);
    tuned_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tuned_->hide();
    layout->addWidget(tuned_);

    gridHintBox_ = new QWidget(this);
    auto* hintLayout = new QVBoxLayout(gridHintBox_);
    hintLayout->setContentsMargins(0, 0, 0, 0);
    gridHint_ = new QLabel(gridHintBox_);
    gridHint_->setObjectName(QStringLiteral("GridHint"));
    gridHint_->setWordWrap(true);
    gridHint_->setTextFormat(Qt::RichText);
    adviseOverGrid_ = new QPushButton(tr("Advise over stock + grid"), gridHintBox_);
    hintLayout->addWidget(gridHint_);
    hintLayout->addWidget(adviseOverGrid_, 0, Qt::AlignLeft);
    gridHintBox_->hide();
    layout->addWidget(gridHintBox_);
    connect(adviseOverGrid_, &QPushButton::clicked, this, &AdvisorPanel::adviseOverGridRequested);
    precisionHints_ = new QWidget(this);
    precisionHints_->setObjectName(QStringLiteral("PrecisionHints"));
    new QVBoxLayout(precisionHints_);
    precisionHints_->layout()->setContentsMargins(0, 0, 0, 0);
    precisionHints_->hide();
    layout->addWidget(precisionHints_);

    whyToggle_ = foldButton(tr("Why this mode"), this);
    layout->addWidget(whyToggle_);
    explanation_ = new QTextBrowser(this);
    explanation_->setOpenLinks(false);
    explanation_->setMinimumHeight(140);
    explanation_->hide();
    layout->addWidget(explanation_, 2);
    connect(whyToggle_, &QToolButton::toggled, explanation_, &QWidget::setVisible);

    steps_ = new NvpmodelSteps(this);
    layout->addWidget(steps_);
    blockToggle_ = foldButton(tr("Full instructions"), this);
    layout->addWidget(blockToggle_);
    block_ = new QPlainTextEdit(this);
    block_->setReadOnly(true);
    block_->setFont(monospace());
    block_->setLineWrapMode(QPlainTextEdit::NoWrap); // a command broken over two lines is not a command
    block_->setPlaceholderText(tr("nvpmodel commands for the recommended mode"));
    block_->setMinimumHeight(120);
    block_->hide();
    layout->addWidget(block_, 1);
    connect(blockToggle_, &QToolButton::toggled, block_, &QWidget::setVisible);

    auto* whatIf = new QGroupBox(tr("What if (custom clocks)"), this);
    auto* whatIfForm = new QFormLayout(whatIf);
    whatIfEnabled_ = new QCheckBox(tr("Show a custom mode"), whatIf);
    gpuSlider_ = new QSlider(Qt::Horizontal, whatIf);
    emcSlider_ = new QSlider(Qt::Horizontal, whatIf);
    gpuLabel_ = new QLabel(whatIf);
    emcLabel_ = new QLabel(whatIf);
    cpuLabel_ = new QLabel(whatIf);
    cpuLabel_->setObjectName(QStringLiteral("WhatIfCpu"));
    for (QSlider* slider : {gpuSlider_, emcSlider_}) {
        slider->setTracking(true);
        slider->setPageStep(1);
    }
    whatIfResult_ = new QLabel(whatIf);
    whatIfResult_->setObjectName(QStringLiteral("WhatIfResult"));
    whatIfResult_->setWordWrap(true);
    whatIfResult_->setTextFormat(Qt::RichText);
    whatIfForm->addRow(whatIfEnabled_);
    whatIfForm->addRow(tr("GPU"), gpuSlider_);
    whatIfForm->addRow(QString(), gpuLabel_);
    whatIfForm->addRow(tr("EMC"), emcSlider_);
    whatIfForm->addRow(QString(), emcLabel_);
    whatIfForm->addRow(tr("CPU"), cpuLabel_);
    whatIfForm->addRow(whatIfResult_);
    layout->addWidget(whatIf);
    layout->addStretch(1);
    // off, the sliders, their clocks and their row names are greyed: they try nothing until switched on
    const auto activateWhatIf = [whatIfForm, this](bool on) {
        for (QWidget* field :
             std::initializer_list<QWidget*>{gpuSlider_, emcSlider_, gpuLabel_, emcLabel_, cpuLabel_}) {
            field->setEnabled(on);
            if (QWidget* name = whatIfForm->labelForField(field)) name->setEnabled(on);
        }
    };
    activateWhatIf(false);

    connect(latencySlo_, &QDoubleSpinBox::valueChanged, this, &AdvisorPanel::questionChanged);
    connect(powerCap_, &QDoubleSpinBox::valueChanged, this, &AdvisorPanel::questionChanged);
    connect(objective_, &QComboBox::currentIndexChanged, this, &AdvisorPanel::questionChanged);
    connect(objective_, &QComboBox::currentIndexChanged, this, &AdvisorPanel::nameObjectives);
    connect(whatIfEnabled_, &QCheckBox::toggled, this, [this, activateWhatIf](bool on) {
        activateWhatIf(on);
        emit whatIfChanged();
    });
    for (QSlider* slider : {gpuSlider_, emcSlider_})
        connect(slider, &QSlider::valueChanged, this, [this] {
            updateWhatIfLabels();
            if (whatIfEnabled_->isChecked()) emit whatIfChanged();
        });
    showWhatIfOutcome(nullptr);
}

Constraints AdvisorPanel::constraints() const {
    Constraints constraints;
    if (latencySlo_->value() > 0) constraints.latencySloSeconds = latencySlo_->value() / 1e3;
    if (powerCap_->value() > 0) constraints.powerCapWatts = powerCap_->value();
    return constraints;
}

void AdvisorPanel::setQuestion(const Constraints& limits, Objective objective) {
    latencySlo_->setValue(limits.latencySloSeconds.value_or(0.0) * 1e3);
    powerCap_->setValue(limits.powerCapWatts.value_or(0.0));
    objective_->setCurrentIndex(objective_->findData(static_cast<int>(objective)));
    emit questionChanged();
}

Objective AdvisorPanel::objective() const {
    return static_cast<Objective>(objective_->currentData().toInt());
}

void AdvisorPanel::showCardRows(const QList<QPair<QString, QString>>& rows) {
    QString html = QStringLiteral("<table cellspacing=0 cellpadding=2>");
    for (const auto& [key, value] : rows) // a number and its unit on one line, however narrow the dock
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(key, unbrokenUnits(value));
    card_->setText(html + QStringLiteral("</table>"));
}

void AdvisorPanel::showGuide(const NvpmodelGuide& guide) {
    block_->setPlainText(
        guide.steps.empty() && guide.intro.empty() ? QString() : QString::fromStdString(guideText(guide)));
    steps_->showGuide(guide);
}

void AdvisorPanel::nameObjectives() {
    const QString energy = training_ ? tr("Least energy per sample") : tr("Least energy per inference");
    const QString rate = training_ ? tr("Most samples per joule") : tr("Most inferences per joule");
    objective_->setItemData(0, energy, Qt::ToolTipRole);
    objective_->setItemData(1, training_ ? tr("Least time per minibatch") : tr("Least latency per batch"),
                            Qt::ToolTipRole);
    objective_->setItemData(2, rate, Qt::ToolTipRole);
    objective_->setToolTip(objective_->itemData(objective_->currentIndex(), Qt::ToolTipRole).toString());
}

void AdvisorPanel::showRecommendation(const AnalysisResult& result) {
    const Recommendation& recommendation = result.recommendation;
    training_ = result.request.settings.phase == Phase::Training;
    confidence_ = recommendation.confidence;
    nameObjectives();
    gridHintBox_->hide();
    card_->setToolTip({});
    showPrecisionHints({});
    if (!result.advisorError.empty()) {
        card_->setText(QString::fromStdString(result.advisorError).toHtmlEscaped());
        explanation_->clear();
        showGuide({});
        return;
    }
    const QString board = QString::fromStdString(result.device.name).toHtmlEscaped();
    if (!recommendation.recommended) {
        card_->setText(QStringLiteral("<p>%1</p>%2")
                           .arg(tr("On %1:").arg(board), models::recommendationHeadline(recommendation)));
    } else {
        const Candidate& chosen = recommendation.candidates[*recommendation.recommended];
        const QString provenance = QStringLiteral("<span style='color:%1'>%2</span>")
                                       .arg(secondaryTextCss(palette()), models::predictedFrom(chosen));
        const PowerMode& mode = chosen.profile.mode;
        const QString modeText =
            mode.stock
                ? QStringLiteral("<span style='font-size:large'><b>%1</b></span>")
                      .arg(QString::fromStdString(mode.name).toHtmlEscaped())
                : QStringLiteral("<b>%1</b><br><span style='color:%2'>%3</span>")
                      .arg(QString::fromStdString(readableModeName(mode)).toHtmlEscaped(),
                           secondaryTextCss(palette()), QString::fromStdString(mode.name).toHtmlEscaped());
        QList<QPair<QString, QString>> rows{
            {tr("Mode"), modeText + tr(" on %1").arg(board)},
            {tr("Latency"),
             tr("%1 %4 of %2 · %3")
                 .arg(models::boundedSeconds(chosen, recommendation.confidence).toHtmlEscaped())
                 .arg(chosen.batch)
                 .arg(provenance, models::perBatchWords(recommendation.training))},
            {tr("Energy"), tr("%1 %4 · %2 average · %3")
                               .arg(models::boundedJoules(chosen, recommendation.confidence).toHtmlEscaped(),
                                    models::boundedWatts(chosen, recommendation.confidence).toHtmlEscaped(),
                                    provenance, models::perItemWords(recommendation.training))},
            {tr("Saving"),
             tr("%1 · %2").arg(
                 models::energyComparedTo(
                     recommendation.savingPercent,
                     QString::fromStdString(recommendation.baseline.profile.mode.name).toHtmlEscaped()),
                 provenance)}};
        // the card's line in brief; what the bounds rest on, whole, in its tooltip
        const QString confidence = models::confidenceHtml(recommendation, true).trimmed();
        card_->setToolTip(QString::fromStdString(confidenceSentence(recommendation)));
        if (!confidence.isEmpty())
            rows.append({tr("Confidence"), QStringLiteral("<span style='color:%1'>%2</span>")
                                               .arg(secondaryTextCss(palette()), confidence)});
        const QString closeCall = models::closeCallHtml(recommendation, result.request.objective);
        if (!closeCall.isEmpty()) rows.append({tr("Close call"), closeCall});
        showCardRows(rows);
    }
    if (result.gridHint) {
        gridHint_->setText(models::gridHintHtml(*result.gridHint, recommendation));
        gridHintBox_->show();
    }
    showPrecisionHints(result);
    QString html = QStringLiteral("<p>%1</p>")
                       .arg(QString::fromStdString(recommendation.explanation)
                                .toHtmlEscaped()
                                .replace('\n', QStringLiteral("<br>")));
    explanation_->setHtml(html);
    showGuide(recommendation.recommended
                  ? nvpmodelGuide(result.device,
                                  recommendation.candidates[*recommendation.recommended].profile.mode)
                  : NvpmodelGuide{});
}

void AdvisorPanel::setDevice(const DeviceSpec& device) {
    const bool sameLadders = device_.id == device.id;
    device_ = device;
    if (sameLadders) return;
    whatIfCores_ = 0;
    whatIfCpuKhz_ = 0;
    const QSignalBlocker blockGpu(gpuSlider_), blockEmc(emcSlider_);
    gpuSlider_->setRange(0, std::max(0, int(device.gpuLadderHz.size()) - 1));
    emcSlider_->setRange(0, std::max(0, int(device.emcLadderHz.size()) - 1));
    gpuSlider_->setValue(gpuSlider_->maximum());
    emcSlider_->setValue(emcSlider_->maximum());
    updateWhatIfLabels();
}

std::optional<PowerMode> AdvisorPanel::whatIfMode() const {
    if (!whatIfEnabled_->isChecked() || device_.gpuLadderHz.empty() || device_.emcLadderHz.empty())
        return std::nullopt;
    return customPowerMode(device_, whatIfCores_ > 0 ? whatIfCores_ : device_.cpuCores,
                           whatIfCpuKhz_ > 0 ? whatIfCpuKhz_ : device_.maxCpuKhz(),
                           device_.gpuLadderHz[size_t(gpuSlider_->value())],
                           device_.emcLadderHz[size_t(emcSlider_->value())]);
}

void AdvisorPanel::setWhatIfEnabled(bool enabled) {
    if (whatIfEnabled_->isChecked() == enabled) return;
    whatIfEnabled_->setChecked(enabled);
}

void AdvisorPanel::showWhatIfError(const QString& why) {
    whatIfResult_->setText(tr("No prediction for this mode: %1").arg(why.toHtmlEscaped()));
}

void AdvisorPanel::showWhatIfOutcome(const WhatIfOutcome* outcome) {
    if (!outcome) {
        whatIfResult_->setText(whatIfEnabled_->isChecked() ? QString()
                                                           : tr("Off: the sliders try a custom mode."));
        return;
    }
    const ModelPrediction& p = outcome->prediction;
    QStringList broken;
    if (outcome->breaches.latency) broken << tr("the latency SLO");
    if (outcome->breaches.power) broken << tr("the power cap");
    if (outcome->breaches.slowdown) broken << tr("the slowdown limit");
    if (outcome->breaches.memory) broken << tr("the board's memory");
    const QString verdict =
        broken.isEmpty() ? QStringLiteral("<span style='color:#2e7d32'>%1</span>").arg(tr("meets the limits"))
                         : QStringLiteral("<span style='color:#c62828'>%1</span>")
                               .arg(tr("breaks %1").arg(broken.join(tr(" and "))));
    // the limits are judged by the upper bounds: a prediction under the SLO may still break it at 90 %
    const QString atConfidence =
        confidence_ > 0.5 ? tr(" at %1 %").arg(QString::number(100 * confidence_, 'g', 3)) : QString();
    const bool training = training_;
    QString text = tr("%1 %7 · %2 %8 · %3 average · %4 (%5) — <b>%6</b>%9")
                       .arg(models::formatSeconds(p.latencySeconds),
                            models::formatSi(p.energyPerInference(), QStringLiteral("J")),
                            models::formatSi(p.averageWatts, QStringLiteral("W")))
                       .arg(models::energyComparedTo(outcome->savingPercent, tr("the baseline")))
                       .arg(models::predictedFrom(p.provenance), verdict, models::perBatchWords(training),
                            models::perItemWords(training), atConfidence);
    if (outcome->extrapolated)
        text += tr("<br>Outside the predictor's profiled ranges: its numbers here are extrapolated.");
    whatIfResult_->setText(text);
}

QString AdvisorPanel::cardText() const {
    QTextDocument document;
    document.setHtml(card_->text());
    return document.toPlainText();
}

void AdvisorPanel::showTunedAnswer(const QString& html) {
    tuned_->setText(html);
    tuned_->setVisible(!html.isEmpty());
}

void AdvisorPanel::showPrecisionHints(const AnalysisResult& result) {
    for (QWidget* old : precisionHints_->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
        delete old;
    for (const PrecisionHint& hint : result.precisionHints) {
        auto* text = new QLabel(
            models::precisionHintHtml(hint, result.recommendation, result.request.settings.precision),
            precisionHints_);
        text->setWordWrap(true);
        text->setTextFormat(Qt::RichText);
        const QString name = QString::fromStdString(precisionName(hint.precision));
        auto* use = new QPushButton(tr("Use %1").arg(name.toUpper()), precisionHints_);
        use->setObjectName(QStringLiteral("UsePrecision_") + name);
        connect(use, &QPushButton::clicked, this, [this, name] { emit precisionRequested(name); });
        precisionHints_->layout()->addWidget(text);
        precisionHints_->layout()->addWidget(use);
        precisionHints_->layout()->setAlignment(use, Qt::AlignLeft);
    }
    precisionHints_->setVisible(!result.precisionHints.empty());
}

QString AdvisorPanel::precisionHintText() const {
    if (precisionHints_->isHidden()) return {};
    QStringList lines;
    for (const QLabel* label :
         precisionHints_->findChildren<QLabel*>(QString(), Qt::FindDirectChildrenOnly)) {
        QTextDocument document;
        document.setHtml(label->text());
        lines << document.toPlainText();
    }
    return lines.join(QLatin1Char('\n'));
}

QString AdvisorPanel::gridHintText() const {
    if (gridHintBox_->isHidden()) return {};
    QTextDocument document;
    document.setHtml(gridHint_->text());
    return document.toPlainText();
}

QString AdvisorPanel::whatIfText() const {
    QTextDocument document;
    document.setHtml(whatIfResult_->text());
    return document.toPlainText();
}

void AdvisorPanel::setWhatIfMode(const PowerMode& mode) {
    whatIfCores_ = 0;
    whatIfCpuKhz_ = 0;
    try { // a mode of another board keeps the CPU at this board's maximum
        customPowerMode(device_, mode.onlineCores, mode.cpuKhz, mode.gpuHz, mode.emcHz);
        whatIfCores_ = mode.onlineCores;
        whatIfCpuKhz_ = mode.cpuKhz;
    } catch (const std::exception&) {
    }
    setWhatIfClocks(true, mode.gpuHz, mode.emcHz);
}

void AdvisorPanel::setWhatIf(bool enabled, int64_t gpuHz, int64_t emcHz) {
    if (enabled) {
        whatIfCores_ = 0;
        whatIfCpuKhz_ = 0;
    }
    setWhatIfClocks(enabled, gpuHz, emcHz);
}

void AdvisorPanel::setWhatIfClocks(bool enabled, int64_t gpuHz, int64_t emcHz) {
    if (enabled) {
        const QSignalBlocker blockGpu(gpuSlider_), blockEmc(emcSlider_);
        if (!device_.gpuLadderHz.empty()) gpuSlider_->setValue(nearestStep(device_.gpuLadderHz, gpuHz));
        if (!device_.emcLadderHz.empty()) emcSlider_->setValue(nearestStep(device_.emcLadderHz, emcHz));
        updateWhatIfLabels();
    }
    if (whatIfEnabled_->isChecked() == enabled)
        emit whatIfChanged();
    else
        whatIfEnabled_->setChecked(enabled);
}

QStringList AdvisorPanel::commands() const {
    return steps_->commands();
}

QString AdvisorPanel::nvpmodelBlock() const {
    return block_->toPlainText();
}

QString AdvisorPanel::explanationText() const {
    return explanation_->toPlainText();
}

void AdvisorPanel::updateWhatIfLabels() {
    auto label = [](const std::vector<int64_t>& ladder, int step) {
        if (ladder.empty()) return QObject::tr("no ladder in the catalog");
        return QObject::tr("%1 MHz (step %2 of %3)")
            .arg(double(ladder[size_t(step)]) / 1e6, 0, 'f', 0)
            .arg(step + 1)
            .arg(ladder.size());
    };
    gpuLabel_->setText(label(device_.gpuLadderHz, gpuSlider_->value()));
    emcLabel_->setText(label(device_.emcLadderHz, emcSlider_->value()));
    cpuLabel_->setText(
        tr("%1 cores @ %2 MHz")
            .arg(whatIfCores_ > 0 ? whatIfCores_ : device_.cpuCores)
            .arg(double(whatIfCpuKhz_ > 0 ? whatIfCpuKhz_ : device_.maxCpuKhz()) / 1e3, 0, 'f', 0));
}

} // namespace rooftop::gui
