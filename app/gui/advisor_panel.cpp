// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/advisor_panel.h"

#include "core/device/provenance.h"
#include "models/recommendation_text.h"
#include "models/unit_format.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSlider>
#include <QTextBrowser>
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
    objective_->addItem(tr("Least energy per inference"), int(Objective::Energy));
    objective_->addItem(tr("Least latency"), int(Objective::Latency));
    objective_->addItem(tr("Most inferences per joule"), int(Objective::Efficiency));
    form->addRow(tr("Latency SLO"), latencySlo_);
    form->addRow(tr("Power cap"), powerCap_);
    form->addRow(tr("Objective"), objective_);
    layout->addWidget(question);

    answer_ = new QTextBrowser(this);
    answer_->setOpenLinks(false);
    answer_->setMinimumHeight(150);
    layout->addWidget(answer_, 2);
    block_ = new QPlainTextEdit(this);
    block_->setReadOnly(true);
    block_->setFont(QFont(QStringLiteral("monospace")));
    block_->setPlaceholderText(tr("nvpmodel commands for the recommended mode"));
    block_->setMinimumHeight(90);
    layout->addWidget(block_, 1);
    auto* copy = new QPushButton(tr("Copy nvpmodel commands"), this);
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(block_->toPlainText()); });
    layout->addWidget(copy);

    auto* whatIf = new QGroupBox(tr("What if (custom clocks)"), this);
    auto* whatIfForm = new QFormLayout(whatIf);
    whatIfEnabled_ = new QCheckBox(tr("Show a custom mode"), whatIf);
    gpuSlider_ = new QSlider(Qt::Horizontal, whatIf);
    emcSlider_ = new QSlider(Qt::Horizontal, whatIf);
    gpuLabel_ = new QLabel(whatIf);
    emcLabel_ = new QLabel(whatIf);
    for (QSlider* slider : {gpuSlider_, emcSlider_}) {
        slider->setTracking(true);
        slider->setPageStep(1);
        slider->setEnabled(false);
    }
    whatIfForm->addRow(whatIfEnabled_);
    whatIfForm->addRow(tr("GPU"), gpuSlider_);
    whatIfForm->addRow(QString(), gpuLabel_);
    whatIfForm->addRow(tr("EMC"), emcSlider_);
    whatIfForm->addRow(QString(), emcLabel_);
    layout->addWidget(whatIf);

    connect(latencySlo_, &QDoubleSpinBox::valueChanged, this, &AdvisorPanel::questionChanged);
    connect(powerCap_, &QDoubleSpinBox::valueChanged, this, &AdvisorPanel::questionChanged);
    connect(objective_, &QComboBox::currentIndexChanged, this, &AdvisorPanel::questionChanged);
    connect(whatIfEnabled_, &QCheckBox::toggled, this, [this](bool on) {
        gpuSlider_->setEnabled(on);
        emcSlider_->setEnabled(on);
        emit whatIfChanged();
    });
    for (QSlider* slider : {gpuSlider_, emcSlider_})
        connect(slider, &QSlider::valueChanged, this, [this] {
            updateWhatIfLabels();
            if (whatIfEnabled_->isChecked()) emit whatIfChanged();
        });
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

Objective AdvisorPanel::objective() const { return static_cast<Objective>(objective_->currentData().toInt()); }

void AdvisorPanel::showRecommendation(const DeviceSpec& device, const Recommendation& recommendation,
                                      const std::string& error) {
    if (!error.empty()) {
        answer_->setPlainText(QString::fromStdString(error));
        block_->clear();
        return;
    }
    QString html = QStringLiteral("<p>%1</p><div>%2</div>")
                       .arg(tr("On %1:").arg(QString::fromStdString(device.name).toHtmlEscaped()),
                            models::recommendationHeadline(recommendation, QStringLiteral("font-size:large")));
    html += QStringLiteral("<p>%1</p>")
                .arg(QString::fromStdString(recommendation.explanation).toHtmlEscaped().replace('\n', QStringLiteral("<br>")));
    answer_->setHtml(html);
    block_->setPlainText(QString::fromStdString(recommendation.nvpmodelBlock));
}

void AdvisorPanel::setDevice(const DeviceSpec& device) {
    const bool sameLadders = device_.id == device.id;
    device_ = device;
    if (sameLadders) return;
    const QSignalBlocker blockGpu(gpuSlider_), blockEmc(emcSlider_);
    gpuSlider_->setRange(0, std::max(0, int(device.gpuLadderHz.size()) - 1));
    emcSlider_->setRange(0, std::max(0, int(device.emcLadderHz.size()) - 1));
    gpuSlider_->setValue(gpuSlider_->maximum());
    emcSlider_->setValue(emcSlider_->maximum());
    updateWhatIfLabels();
}

std::optional<PowerMode> AdvisorPanel::whatIfMode() const {
    if (!whatIfEnabled_->isChecked() || device_.gpuLadderHz.empty() || device_.emcLadderHz.empty()) return std::nullopt;
    return customPowerMode(device_, device_.cpuCores, device_.maxCpuKhz(), device_.gpuLadderHz[size_t(gpuSlider_->value())],
                           device_.emcLadderHz[size_t(emcSlider_->value())]);
}

void AdvisorPanel::setWhatIf(bool enabled, int64_t gpuHz, int64_t emcHz) {
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

QString AdvisorPanel::nvpmodelBlock() const { return block_->toPlainText(); }

QString AdvisorPanel::explanationText() const { return answer_->toPlainText(); }

void AdvisorPanel::updateWhatIfLabels() {
    auto label = [](const std::vector<int64_t>& ladder, int step) {
        if (ladder.empty()) return QObject::tr("no ladder in the catalog");
        return QObject::tr("%1 MHz (step %2 of %3)").arg(double(ladder[size_t(step)]) / 1e6, 0, 'f', 0).arg(step + 1).arg(ladder.size());
    };
    gpuLabel_->setText(label(device_.gpuLadderHz, gpuSlider_->value()));
    emcLabel_->setText(label(device_.emcLadderHz, emcSlider_->value()));
}

} // namespace rooftop::gui
