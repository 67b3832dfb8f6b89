// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_session.h"

#include <QToolBar>
#include <vector>

class QComboBox;
class QLineEdit;
class QMenu;
class QSpinBox;
class QToolButton;

namespace rooftop::gui {

class DimsPopup;

/// One entry of "Points for": a mode whose layer points and table numbers the window can show.
struct ShownModeChoice {
    QString key;   ///< "stock:NAME", "custom:NAME" (a custom mode of the analysis) or "whatif"
    QString label; ///< what the box shows
};

/// The analysis toolbar: board, precision, batch, phase, traffic model, runtime and symbolic dims (the
/// request's inputs); its second bar, modeBar(), the mode set and which stock modes the plots overlay and
/// whose points they show (the view's inputs). Two bars, so that a narrow screen puts them on two rows.
class AnalysisToolbar : public QToolBar {
    Q_OBJECT
public:
    /// The largest batch the toolbar offers.
    static constexpr int kMaxBatch = 4096;

    explicit AnalysisToolbar(QWidget* parent = nullptr);

    /// Lists these boards, keeping the selected one when it is among them.
    void setBoards(const std::vector<DeviceSpec>& boards);
    /// Selects a board without emitting requestInputsChanged; false when there is no such board.
    bool selectBoard(const QString& deviceId);
    /// The selected board's id; empty while there are no boards.
    QString boardId() const;
    /// Offers the runtimes of a runtime file (rooftop calibrate -o, rooftop compare --calibrate-classes -o)
    /// and selects its first; the reason when the file cannot be read, else empty.
    QString addRuntimeFile(const QString& path);
    /// Writes the toolbar's inputs (board, counting settings, dims, runtime, mode set) into a request.
    void fillRequest(AnalysisRequest& request) const;
    /// The dims as typed ("sequence=128, past=0"), without asking again.
    void setDimsText(const QString& text);
    QString dimsText() const;
    /// Puts the focus in the dims editor with this text, the first value selected; while the Dims field is
    /// folded behind the toolbar's » (or the toolbar is hidden), a popup under `anchor` holds the editor.
    void editDims(const QString& text, QWidget* anchor = nullptr);
    /// The popup editDims opened (null before one was needed).
    DimsPopup* dimsPopup() const { return dimsPopup_; }
    /// Why the dims text is not "NAME=VALUE, ..." (empty when it is).
    static QString dimsError(const QString& text);

    /// The bar with the mode set, the overlaid roofs and "Points for".
    QToolBar* modeBar() const { return modeBar_; }

    /// Offers the stock modes of an analysis as overlays (all on).
    void showStockModes(const AnalysisResult& result);
    /// Fills "Points for" with these choices and selects the one with key `selected`, without emitting
    /// shownModesChanged.
    void setShownModeChoices(const std::vector<ShownModeChoice>& choices, const QString& selected);
    /// Selects the choice with this key (false when none), without emitting shownModesChanged.
    bool selectShownMode(const QString& key);
    /// The key of the choice in "Points for" (empty when none).
    QString shownModeKey() const;
    /// Indices into AnalysisResult::stockPredictions whose roofs are overlaid.
    std::vector<int> overlaidStockModes() const;

    QComboBox* boardBox() const { return boardBox_; }
    QComboBox* precisionBox() const { return precisionBox_; }
    QComboBox* modeSetBox() const { return modeSetBox_; }
    QComboBox* activeModeBox() const { return activeModeBox_; }
    QComboBox* runtimeBox() const { return runtimeBox_; }
    QComboBox* phaseBox() const { return phaseBox_; }
    QLineEdit* dimsEdit() const { return dimsEdit_; }
    QSpinBox* batchBox() const { return batchBox_; }

signals:
    /// An input of the analysis request changed: the window asks again.
    void requestInputsChanged();
    /// The user finished editing the dims (valid ones): the window remembers them and asks again.
    void dimsEdited(const QString& text);
    /// The overlaid roofs or the mode whose points show changed: the window redraws.
    void shownModesChanged();

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    /// The Dims field shrinks (down to a short "sequence=1", or the dims it holds) before the toolbar folds
    /// anything behind its ».
    void fitDimsField();
    /// The Dims field's width that shows `text` whole beside its clear button.
    int dimsWidthFor(const QString& text) const;
    /// Takes the Dims field's text when it reads: remembered, and the window asks again.
    void commitDims();
    /// Offers "custom grid" only on a board with a grid, falling back to stock modes where it was chosen.
    void updateModeSetChoices();

    QComboBox* boardBox_ = nullptr;
    QComboBox* precisionBox_ = nullptr;
    QComboBox* phaseBox_ = nullptr; ///< inference, or a training step with its optimizer
    QSpinBox* batchBox_ = nullptr;
    QComboBox* trafficBox_ = nullptr;
    QComboBox* runtimeBox_ = nullptr;
    QLineEdit* dimsEdit_ = nullptr;
    int dimsPreferredWidth_ = 0; ///< room for "sequence=128, past=0"
    int dimsLeastWidth_ = 0;     ///< room for "sequence=1": below it the field folds
    DimsPopup* dimsPopup_ = nullptr;
    QString appliedDims_; ///< the dims the last request had
    QToolBar* modeBar_ = nullptr;
    QToolButton* overlayButton_ = nullptr;
    QMenu* overlayMenu_ = nullptr;
    QComboBox* activeModeBox_ = nullptr;
    QComboBox* modeSetBox_ = nullptr;
};

} // namespace rooftop::gui
