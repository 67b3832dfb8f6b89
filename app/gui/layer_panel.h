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
    /// Sizes the columns to their contents (the name column at most 200 px, the op 80 px).
    void fitColumns();

    QTableView* view() const;
    QLineEdit* nameFilter() const { return nameFilter_; }
    models::LayerTableModel* model() const { return model_; }
    models::LayerFilterProxyModel* proxy() const { return proxy_; }

signals:
    /// The user selected the row of a layer (its node index).
    void layerChosen(int nodeIndex);

private:
    /// The header's context menu: a check box per column.
    void chooseColumns(const QPoint& globalPos);

    QLineEdit* nameFilter_ = nullptr;
    QComboBox* opFilter_ = nullptr;
    FrozenColumnView* view_ = nullptr;
    QLabel* totals_ = nullptr;
    models::LayerTableModel* model_ = nullptr;
    models::LayerFilterProxyModel* proxy_ = nullptr;
    bool selecting_ = false; ///< set while selectLayer moves the row, so it does not echo back
};

} // namespace rooftop::gui
