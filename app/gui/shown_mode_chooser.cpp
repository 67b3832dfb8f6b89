// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/shown_mode_chooser.h"

#include "core/device/power_mode.h"
#include "core/session/shown_mode.h"
#include "gui/advisor_panel.h"
#include "gui/analysis_toolbar.h"
#include "models/selection_state.h"

#include <QComboBox>
#include <algorithm>

namespace rooftop::gui {

namespace {

const QString kWhatIfKey = QStringLiteral("whatif");

QString stockKey(const std::string& name) {
    return QStringLiteral("stock:") + QString::fromStdString(name);
}

QString customKey(const std::string& name) {
    return QStringLiteral("custom:") + QString::fromStdString(name);
}

QString modeKey(const PowerMode& mode) {
    return mode.stock ? stockKey(mode.name) : customKey(mode.name);
}

} // namespace

ShownModeChooser::ShownModeChooser(AnalysisToolbar& toolbar, AdvisorPanel& advisor,
                                   models::SelectionState& selection, QObject* parent)
    : QObject(parent), toolbar_(toolbar), advisor_(advisor), selection_(selection) {
    connect(&toolbar_, &AnalysisToolbar::shownModesChanged, this, &ShownModeChooser::shownModeChosen);
    connect(&advisor_, &AdvisorPanel::whatIfChanged, this, &ShownModeChooser::whatIfChanged);
}

void ShownModeChooser::showResult(std::shared_ptr<const AnalysisResult> result, bool newBoard) {
    result_ = std::move(result);
    showModeChoices(newBoard);
    selection_.setCurrentMode(shownStockMode());
    updateWhatIfPrediction();
}

void ShownModeChooser::showModeChoices(bool newBoard) {
    std::vector<ShownModeChoice> choices;
    const Recommendation& recommendation = result_->recommendation;
    const PowerMode* recommended = recommendation.recommended
                                       ? &recommendation.candidates[*recommendation.recommended].profile.mode
                                       : nullptr;
    for (const ModelPrediction& prediction : result_->stockPredictions)
        choices.push_back(
            {stockKey(prediction.profile.mode.name), QString::fromStdString(prediction.profile.mode.name)});
    customPredictions_.clear();
    auto addCustom = [&](const PowerMode& mode, const QString& why) {
        if (mode.stock || customPredictions_.count(mode.name)) return;
        const auto found =
            std::find_if(result_->predictions.begin(), result_->predictions.end(),
                         [&](const ModelPrediction& p) { return p.profile.mode.name == mode.name; });
        customPredictions_.emplace(
            mode.name, found != result_->predictions.end() ? *found : predictMode(*result_, mode));
        choices.push_back(
            {customKey(mode.name), tr("%1 (%2)").arg(QString::fromStdString(readableModeName(mode)), why)});
    };
    if (recommended) addCustom(*recommended, tr("recommended"));
    if (result_->gridHint) addCustom(result_->gridHint->best.profile.mode, tr("custom clocks"));
    choices.push_back({kWhatIfKey, tr("what-if clocks (sliders)")});

    const PowerMode* shownFirst = defaultShownMode(*result_); // the recommended mode, else the fastest
    const QString recommendedKey = shownFirst ? modeKey(*shownFirst) : QString();
    QString selected = toolbar_.shownModeKey();
    const bool known = std::any_of(choices.begin(), choices.end(),
                                   [&](const ShownModeChoice& choice) { return choice.key == selected; });
    if (newBoard || recommendedKey != recommendedKey_ || !known) selected = recommendedKey;
    if (advisor_.whatIfMode()) selected = kWhatIfKey;
    recommendedKey_ = recommendedKey;
    toolbar_.setShownModeChoices(choices, selected);
    // the recommended stock mode reads as such in the list, its name unchanged
    QComboBox* box = toolbar_.activeModeBox();
    if (recommended && recommended->stock)
        if (const int index = box->findData(recommendedKey); index >= 0) {
            QFont bold = box->font();
            bold.setBold(true);
            box->setItemData(index, bold, Qt::FontRole);
            box->setItemData(index, tr("The recommended mode"), Qt::ToolTipRole);
        }
}

int ShownModeChooser::shownStockMode() const {
    if (!result_) return 0;
    const QString key = toolbar_.shownModeKey();
    for (size_t i = 0; i < result_->stockPredictions.size(); ++i)
        if (key == stockKey(result_->stockPredictions[i].profile.mode.name)) return int(i);
    return fastestStockPrediction(*result_); // a custom or what-if mode is drawn beside the fastest's points
}

void ShownModeChooser::shownModeChosen() {
    const bool whatIf = toolbar_.shownModeKey() == kWhatIfKey;
    if (whatIf != advisor_.whatIfMode().has_value()) {
        advisor_.setWhatIfEnabled(whatIf); // whatIfChanged() redraws
        return;
    }
    selection_.setCurrentMode(shownStockMode());
    emit changed();
}

void ShownModeChooser::whatIfChanged() {
    updateWhatIfPrediction();
    if (advisor_.whatIfMode())
        toolbar_.selectShownMode(kWhatIfKey);
    else if (toolbar_.shownModeKey() == kWhatIfKey)
        toolbar_.selectShownMode(recommendedKey_);
    selection_.setCurrentMode(shownStockMode());
    emit changed();
}

void ShownModeChooser::chooseMode(const PowerMode& mode) {
    const QString key = modeKey(mode);
    if (toolbar_.activeModeBox()->findData(key) >= 0) {
        advisor_.setWhatIf(false);
        toolbar_.selectShownMode(key);
        shownModeChosen();
    } else {
        advisor_.setWhatIfMode(mode); // a grid mode: its cores and CPU clock too, not the board's maximum
    }
}

void ShownModeChooser::updateWhatIfPrediction() {
    whatIfPrediction_.reset();
    if (!result_) return advisor_.showWhatIfOutcome(nullptr);
    const std::optional<PowerMode> mode = advisor_.whatIfMode();
    if (!mode) return advisor_.showWhatIfOutcome(nullptr);
    try {
        const WhatIfOutcome outcome = weighWhatIf(*result_, *mode);
        whatIfPrediction_ = outcome.prediction;
        advisor_.showWhatIfOutcome(&outcome);
    } catch (const std::exception& error) { // a slider reaches modes the analysis never checked
        whatIfPrediction_.reset();
        advisor_.showWhatIfError(QString::fromUtf8(error.what()));
    }
}

report::SceneChoice ShownModeChooser::sceneChoice() const {
    report::SceneChoice choice;
    choice.overlaidStockModes = toolbar_.overlaidStockModes();
    choice.activeStockMode = shownStockMode();
    choice.whatIf = whatIfPrediction_;
    const QString key = toolbar_.shownModeKey();
    if (!choice.whatIf && key.startsWith(QStringLiteral("custom:"))) {
        const auto found = customPredictions_.find(key.mid(7).toStdString());
        if (found != customPredictions_.end()) {
            choice.whatIf = found->second;
            choice.whatIfRecommended = key == recommendedKey_; // the advisor's own answer, not a what-if
        }
    }
    return choice;
}

} // namespace rooftop::gui
