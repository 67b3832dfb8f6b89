// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/roofline/prediction.h"

#include <QWidget>
#include <vector>

class QComboBox;
class QPoint;
class QLabel;
class QLineEdit;
class QTableView;

namespace rooftop::models {
class LayerFilterProxyModel;
class LayerTableModel;
} // namespace rooftop::models

namespace rooftop::gui {

class FrozenColumnView;
class PathElideDelegate;

/// The layer table with its name and op filters and the totals line under it.
class LayerPanel : public QWidget {
    Q_OBJECT
public:
    explicit LayerPanel(QWidget* parent = nullptr);

    /// Shows a counted model; a new model also refills the op filter (keeping the chosen op when present).
    void showWorkload(const Workload& workload, bool newModel);
    /// Shows the numbers of a prediction (null: none) in the table and the totals line.
    void showPrediction(const ModelPrediction* prediction);
    /// Selects and scrolls to the row of a layer, without emitting layerChosen.
    void selectLayer(int nodeIndex);
    /// Shows an imported profile's measured columns beside the time (hidden while none is imported).
    void arrangeMeasuredColumns();
    /// Orders the columns as LayerTableModel::displayOrder() and hides those the user hid (remembered).
    void arrangeColumns();
    /// Shows or hides a column (not the name) and remembers the choice.
    void setColumnShown(int column, bool shown);
    /// The shown columns from left to right (logical indices), for tests.
    std::vector<int> visualColumns() const;
    /// Puts the keyboard focus in the name filter (Ctrl+F).
    void focusFilter();
    /// Sizes the columns to their contents: a number column to its cells (its header at least its first word,
    /// a measured column's five letters, elided beyond them: the tooltip has it whole), the op at most 80 px
    /// (64 beside measured columns); the name column takes the room the columns up to the bound leave in the
    /// view, between 110 px and its contents (at most 360 px), and follows the panel's width until the user
    /// sizes it.
    void fitColumns();
    /// The width fitColumns gives a column other than the name.
    int contentsWidth(int column) const;
    /// The text the name column shows for a row of the view at the column's width.
    QString shownName(int viewRow) const;
    /// Where the bound column ends, in viewport pixels (for tests: within the viewport's width means that
    /// name, op, time, share and bound are seen without scrolling).
    int boundColumnRightEdge() const;
    /// The panel width at which the columns up to the bound are in view with the name at its narrowest.
    int widthShowingBound() const;

    QTableView* view() const;
    QLineEdit* nameFilter() const { return nameFilter_; }
    models::LayerTableModel* model() const { return model_; }
    models::LayerFilterProxyModel* proxy() const { return proxy_; }

signals:
    /// The user selected the row of a layer (its node index).
    void layerChosen(int nodeIndex);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    static constexpr int kMinNameWidth = 110;
    static constexpr int kMaxNameWidth = 360;

    /// The header's context menu: a check box per column.
    void chooseColumns(const QPoint& globalPos);
    /// Sizes the name column to the room the columns up to the bound leave (see fitColumns).
    void fitNameColumn();
    /// The widths of the shown columns other than the name, up to the bound.
    int widthUpToBoundBesideName() const;

    QLineEdit* nameFilter_ = nullptr;
    QComboBox* opFilter_ = nullptr;
    FrozenColumnView* view_ = nullptr;
    PathElideDelegate* names_ = nullptr;
    QLabel* totals_ = nullptr;
    models::LayerTableModel* model_ = nullptr;
    models::LayerFilterProxyModel* proxy_ = nullptr;
    int nameContentsWidth_ = 0;  ///< the name column's width for its contents, capped; 0 before fitColumns
    int fittedNameWidth_ = -1;   ///< the width fitNameColumn gave it, -1 before
    bool selecting_ = false;     ///< set while selectLayer moves the row, so it does not echo back
    bool measuredShown_ = false; ///< whether the measured columns were shown at the last arrangeColumns
};

} // namespace rooftop::gui
