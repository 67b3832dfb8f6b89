// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"
#include "core/device/device_spec.h"
#include "core/device/power_mode.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QSlider;
class QTextBrowser;

namespace rooftop::gui {

/// The advisor's question (latency SLO, power cap, objective), its answer with the explanation and the
/// nvpmodel block, and what-if sliders for the GPU and EMC clocks of a custom mode.
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
    /// Shows the advisor's answer for a board.
    void showRecommendation(const DeviceSpec& device, const Recommendation& recommendation, const std::string& error);
    /// Sets the ladders of the what-if sliders from a board (keeps them off).
    void setDevice(const DeviceSpec& device);
    /// The what-if mode when the sliders are on, else nothing.
    std::optional<PowerMode> whatIfMode() const;
    /// Turns the what-if mode on and moves the sliders to the ladder steps nearest to these clocks.
    void setWhatIf(bool enabled, int64_t gpuHz = 0, int64_t emcHz = 0);
    /// The nvpmodel block shown (empty when none).
    QString nvpmodelBlock() const;
    /// The explanation shown, as plain text.
    QString explanationText() const;

signals:
    /// The limits or objective changed: the window asks the advisor again.
    void questionChanged();
    /// The what-if mode changed (moved, switched on or off).
    void whatIfChanged();

private:
    void updateWhatIfLabels();

    QDoubleSpinBox* latencySlo_ = nullptr;
    QDoubleSpinBox* powerCap_ = nullptr;
    QComboBox* objective_ = nullptr;
    QTextBrowser* answer_ = nullptr;
    QPlainTextEdit* block_ = nullptr;
    QCheckBox* whatIfEnabled_ = nullptr;
    QSlider* gpuSlider_ = nullptr;
    QSlider* emcSlider_ = nullptr;
    QLabel* gpuLabel_ = nullptr;
    QLabel* emcLabel_ = nullptr;
    DeviceSpec device_;
};

} // namespace rooftop::gui
