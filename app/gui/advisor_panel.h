// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"
#include "core/device/device_spec.h"
#include "core/device/power_mode.h"
#include "core/session/analysis_session.h"

#include <QWidget>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSlider;
class QTextBrowser;
class QToolButton;
class QVBoxLayout;

namespace rooftop {
struct NvpmodelGuide;
}

namespace rooftop::gui {

class NvpmodelSteps;

/// The advisor's question (latency SLO, power cap, objective); its answer as a results card (mode, latency,
/// energy, saving, each with its provenance), a hint when custom clocks would save more, the explanation
/// folded below and the nvpmodel commands, each with a copy button; what-if sliders for the GPU and EMC
/// clocks of a custom mode with that mode's numbers next to them.
class AdvisorPanel : public QWidget {
    Q_OBJECT
public:
    explicit AdvisorPanel(QWidget* parent = nullptr);

    /// The limits as entered (0 in a box means "no limit").
    Constraints constraints() const;
    /// The chosen objective.
    Objective objective() const;
    /// Sets the limits and objective (an unset limit: 0, no limit); the window then asks again.
    void setQuestion(const Constraints& limits, Objective objective);
    /// Shows the advisor's answer of an analysis (its recommendation, grid hint or error).
    void showRecommendation(const AnalysisResult& result);
    /// What a tune measured, under the card (empty: none): its answer is a measurement, the card a
    /// prediction.
    void showTunedAnswer(const QString& html);
    /// Sets the ladders of the what-if sliders from a board (keeps them off).
    void setDevice(const DeviceSpec& device);
    /// The what-if mode when the sliders are on, else nothing.
    std::optional<PowerMode> whatIfMode() const;
    /// Turns the what-if mode on (enabled) and moves the sliders to the ladder steps nearest to these clocks,
    /// the CPU at all the board's cores and its highest clock; or off.
    void setWhatIf(bool enabled, int64_t gpuHz = 0, int64_t emcHz = 0);
    /// Turns the what-if mode on as this custom mode: the sliders at its GPU and EMC clocks, its cores and
    /// CPU clock kept while they move (a mode picked from the grid or applied from a tune).
    void setWhatIfMode(const PowerMode& mode);
    /// Turns the what-if mode on or off where the sliders are.
    void setWhatIfEnabled(bool enabled);
    /// Shows the what-if mode's numbers next to the sliders (nullptr: none).
    void showWhatIfOutcome(const WhatIfOutcome* outcome);
    /// Says why the what-if mode has no prediction (a predictor's number that is not usable there).
    void showWhatIfError(const QString& why);
    /// The nvpmodel block shown (empty when none).
    QString nvpmodelBlock() const;
    /// The explanation shown, as plain text.
    QString explanationText() const;
    /// The results card as plain text (for tests).
    QString cardText() const;
    /// The "custom clocks would save" hint (empty when hidden).
    QString gridHintText() const;
    /// The precision hints shown, as plain text, one per line (empty when none).
    QString precisionHintText() const;
    /// The what-if numbers next to the sliders.
    QString whatIfText() const;
    /// The commands offered one by one with a copy button.
    QStringList commands() const;
    /// The nvpmodel steps (headings, commands, the block and the script).
    NvpmodelSteps* nvpmodelSteps() const { return steps_; }

signals:
    /// The limits or objective changed: the window asks the advisor again.
    void questionChanged();
    /// The what-if mode changed (moved, switched on or off).
    void whatIfChanged();
    /// "Advise over stock + grid" was clicked in the custom-clocks hint.
    void adviseOverGridRequested();
    /// "Use FP16" (or INT8) was clicked in a precision hint: `precision` as the toolbar names it.
    void precisionRequested(const QString& precision);

private:
    void updateWhatIfLabels();
    void setWhatIfClocks(bool enabled, int64_t gpuHz, int64_t emcHz);
    void showGuide(const NvpmodelGuide& guide);
    void showCardRows(const QList<QPair<QString, QString>>& rows);
    void showPrecisionHints(const AnalysisResult& result);

    QDoubleSpinBox* latencySlo_ = nullptr;
    QDoubleSpinBox* powerCap_ = nullptr;
    QComboBox* objective_ = nullptr;
    QLabel* card_ = nullptr;
    QLabel* tuned_ = nullptr; ///< what an applied tune measured
    QLabel* gridHint_ = nullptr;
    QPushButton* adviseOverGrid_ = nullptr;
    QWidget* gridHintBox_ = nullptr;
    QWidget* precisionHints_ = nullptr; ///< one hint and its button per better precision; empty when none
    QToolButton* whyToggle_ = nullptr;
    QTextBrowser* explanation_ = nullptr;
    NvpmodelSteps* steps_ = nullptr;
    QToolButton* blockToggle_ = nullptr;
    QPlainTextEdit* block_ = nullptr;
    QCheckBox* whatIfEnabled_ = nullptr;
    bool training_ = false;   ///< the shown result is a training step's: per minibatch and per sample
    double confidence_ = 0.5; ///< the limits are met by the predictions' upper bounds at this confidence
    /// The objectives' whole names (per inference or per sample) in their tooltips.
    void nameObjectives();
    QSlider* gpuSlider_ = nullptr;
    QSlider* emcSlider_ = nullptr;
    QLabel* gpuLabel_ = nullptr;
    QLabel* emcLabel_ = nullptr;
    QLabel* cpuLabel_ = nullptr;
    int whatIfCores_ = 0;      ///< the what-if mode's online cores; 0: all the board's
    int64_t whatIfCpuKhz_ = 0; ///< its CPU clock; 0: the board's highest
    QLabel* whatIfResult_ = nullptr;
    DeviceSpec device_;
};

} // namespace rooftop::gui
