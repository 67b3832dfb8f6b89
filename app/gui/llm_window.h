// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/llm/llm_advisor.h"

#include <QDialog>
#include <QThreadPool>
#include <functional>
#include <memory>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace rooftop::plots {
class LlmContextPlot;
class LlmEfficiencyPlot;
class RooflinePlot;
} // namespace rooftop::plots

namespace rooftop::gui {

class MemoryBar;

/// What the LLM page asks: a decoder, a prompt and a generation at some batches, on a board's modes, with a
/// TPOT limit and an objective.
struct LlmPageRequest {
    LlmRequest request; ///< the batch is each of `batches` in turn
    std::vector<int64_t> batches = {1, 2, 4};
    LlmLimits limits;
    LlmObjective objective = LlmObjective::EnergyPerToken;
};

/// The LLM view of a decoder (View → LLM view…, and on opening one): prompt, generation, batches, the context
/// whose decode step the roofline shows, a TPOT limit and the objective; then the pick and why, the memory
/// footprint against the board's, the decode step's layers on the time roofline, TPOT against context per
/// mode, and tokens per joule against tokens per second with the pick.
class LlmWindow : public QDialog {
    Q_OBJECT
public:
    /// What the page runs on: adviseLlm by default.
    using Session = std::function<LlmAdvice(const LlmPageRequest&)>;
    explicit LlmWindow(QWidget* parent = nullptr, Session session = {});
    ~LlmWindow() override;

    /// The decoder and the board to start from.
    void setModel(const QString& modelPath, const QString& deviceId);
    /// The boards to choose from.
    void setBoards(const std::vector<DeviceSpec>& boards);
    /// The request the form describes; throws InputError for a bad field.
    LlmPageRequest request() const;
    /// Runs the analysis the form describes in the background; false (with the reason shown) while one runs.
    bool analyse();
    /// True from analyse() until the answer (or failure) is shown.
    bool running() const { return running_; }
    /// The last advice, when one finished.
    const LlmAdvice* advice() const { return advice_.get(); }
    QString summaryText() const;
    plots::RooflinePlot* roofline() const { return roofline_; }
    plots::LlmContextPlot* contextPlot() const { return context_; }
    plots::LlmEfficiencyPlot* efficiencyPlot() const { return efficiency_; }
    MemoryBar* memoryBar() const { return memory_; }
    QTableWidget* modeTable() const { return table_; }

signals:
    /// An analysis finished (or failed).
    void finished();

private:
    void showAdvice(std::shared_ptr<const LlmAdvice> advice);
    void showError(const QString& message);
    void fillTable(const LlmResult& result);

    Session session_;
    QThreadPool pool_;
    bool running_ = false;
    bool pending_ = false; ///< analyse() was asked before the catalog listed the boards
    QString model_, wantedBoard_;
    std::shared_ptr<const LlmAdvice> advice_;
    QLabel* modelLabel_ = nullptr;
    QComboBox* board_ = nullptr;
    QSpinBox *prompt_ = nullptr, *generate_ = nullptr, *contextBox_ = nullptr;
    QLineEdit* batches_ = nullptr;
    QDoubleSpinBox* tpotSlo_ = nullptr;
    QComboBox *objective_ = nullptr, *modes_ = nullptr;
    QPushButton* run_ = nullptr;
    QLabel *status_ = nullptr, *summary_ = nullptr;
    MemoryBar* memory_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    plots::RooflinePlot* roofline_ = nullptr;
    plots::LlmContextPlot* context_ = nullptr;
    plots::LlmEfficiencyPlot* efficiency_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* tableCaption_ = nullptr; ///< what the table's brackets are
};

} // namespace rooftop::gui
