// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/layer_panel.h"

#include "models/layer_filter_proxy_model.h"
#include "models/layer_table_model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace rooftop::gui {

LayerPanel::LayerPanel(QWidget* parent) : QWidget(parent) {
    model_ = new models::LayerTableModel(this);
    proxy_ = new models::LayerFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* filterRow = new QHBoxLayout;
    nameFilter_ = new QLineEdit(this);
    nameFilter_->setPlaceholderText(tr("Filter layers by name"));
    nameFilter_->setClearButtonEnabled(true);
    opFilter_ = new QComboBox(this);
    opFilter_->addItem(tr("all ops"), QString());
    filterRow->addWidget(nameFilter_, 1);
    filterRow->addWidget(opFilter_);
    layout->addLayout(filterRow);
    view_ = new QTableView(this);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(-1, Qt::AscendingOrder); // graph order until the user sorts
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view_->setWordWrap(false);
    // a model reset (a new workload) forgets moved and hidden sections
    connect(proxy_, &QAbstractItemModel::modelReset, this, &LayerPanel::arrangeMeasuredColumns);
    arrangeMeasuredColumns();
    layout->addWidget(view_, 1);
    totals_ = new QLabel(this);
    totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    totals_->setWordWrap(true);
    layout->addWidget(totals_);

    connect(nameFilter_, &QLineEdit::textChanged, proxy_, &models::LayerFilterProxyModel::setNameFilter);
    connect(opFilter_, &QComboBox::currentIndexChanged, this,
            [this] { proxy_->setOpFilter(opFilter_->currentData().toString()); });
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (selecting_ || !current.isValid()) return;
                const LayerCount* layer = model_->layerAt(proxy_->sourceRow(current.row()));
                emit layerChosen(layer ? layer->nodeIndex : -1);
            });
}

void LayerPanel::showWorkload(const Workload& workload, bool newModel) {
    model_->setWorkload(workload);
    if (!newModel) return;
    const QSignalBlocker block(opFilter_);
    const QString keep = opFilter_->currentData().toString();
    opFilter_->clear();
    opFilter_->addItem(tr("all ops"), QString());
    for (const QString& op : proxy_->opTypes())
        opFilter_->addItem(op, op);
    opFilter_->setCurrentIndex(std::max(0, opFilter_->findData(keep)));
    proxy_->setOpFilter(opFilter_->currentData().toString());
}

void LayerPanel::showPrediction(const ModelPrediction* prediction) {
    model_->setPrediction(prediction);
    totals_->setText(model_->totalsText());
}

void LayerPanel::selectLayer(int nodeIndex) {
    const int sourceRow = model_->rowOfNode(nodeIndex);
    if (sourceRow < 0) return;
    const QModelIndex proxyIndex = proxy_->mapFromSource(model_->index(sourceRow, 0));
    if (!proxyIndex.isValid()) return;
    selecting_ = true;
    view_->selectionModel()->setCurrentIndex(proxyIndex,
                                             QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view_->scrollTo(proxyIndex);
    selecting_ = false;
}

void LayerPanel::arrangeMeasuredColumns() {
    using models::LayerTableModel;
    QHeaderView* header = view_->horizontalHeader();
    const bool shown = model_->comparison() != nullptr;
    int visual = 1; // right after the name: measured next to what it is of
    for (int column :
         {LayerTableModel::MeasuredTime, LayerTableModel::LayerPredicted, LayerTableModel::LayerError}) {
        header->moveSection(header->visualIndex(column), visual++);
        view_->setColumnHidden(column, !shown);
    }
    if (!shown) return;
    fitColumns();
    view_->horizontalScrollBar()->setValue(0);
}

void LayerPanel::fitColumns() {
    view_->resizeColumnsToContents();
    view_->setColumnWidth(0, std::min(view_->columnWidth(0), 240));
    // "in FIRST-NODE" rows would make the measured column as wide as the names; their tooltip has it all
    const int measured = models::LayerTableModel::MeasuredTime;
    view_->setColumnWidth(measured, std::min(view_->columnWidth(measured), 110));
}

} // namespace rooftop::gui
