// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/layer_panel.h"

#include "gui/frozen_column_view.h"
#include "gui/path_elide_delegate.h"
#include "models/layer_filter_proxy_model.h"
#include "models/layer_table_model.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QScrollBar>
#include <QSettings>
#include <QStyle>
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
    view_ = new FrozenColumnView(this);
    view_->setObjectName(QStringLiteral("LayerTable"));
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setAlternatingRowColors(true);
    view_->setTextElideMode(Qt::ElideMiddle);
    view_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view_->setWordWrap(false);
    view_->setModelAndFrozenColumn(proxy_, models::LayerTableModel::Name);
    names_ = new PathElideDelegate(this); // ViT's names differ in one segment in the middle
    view_->setItemDelegateForColumn(models::LayerTableModel::Name, names_);
    view_->frozenView()->setItemDelegateForColumn(models::LayerTableModel::Name, names_);
    view_->horizontalHeader()->setTextElideMode(Qt::ElideRight); // a number's header beyond its first word
    view_->setSortingEnabled(true);
    view_->sortByColumn(models::LayerTableModel::Time, Qt::DescendingOrder); // what costs most first
    for (QHeaderView* header : {view_->horizontalHeader(), view_->frozenView()->horizontalHeader()}) {
        header->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(header, &QWidget::customContextMenuRequested, this,
                [this, header](const QPoint& at) { chooseColumns(header->mapToGlobal(at)); });
    }
    // a model reset (a new workload) forgets moved and hidden sections
    connect(proxy_, &QAbstractItemModel::modelReset, this, &LayerPanel::arrangeColumns);
    arrangeColumns();
    view_->viewport()->installEventFilter(this);
    layout->addWidget(view_, 1);
    totals_ = new QLabel(this);
    totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    totals_->setWordWrap(true);
    layout->addWidget(totals_);

    auto* find = new QAction(tr("Find layer"), this);
    find->setShortcut(QKeySequence::Find);
    find->setShortcutContext(Qt::WindowShortcut);
    connect(find, &QAction::triggered, this, &LayerPanel::focusFilter);
    addAction(find);
    nameFilter_->setToolTip(
        tr("Filter layers by name (%1)").arg(find->shortcut().toString(QKeySequence::NativeText)));

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
    QStringList names;
    for (int row = 0; row < model_->rowCount(); ++row)
        names << model_->index(row, models::LayerTableModel::Name).data().toString();
    names_->setNames(names);
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

QTableView* LayerPanel::view() const {
    return view_;
}

void LayerPanel::focusFilter() {
    nameFilter_->setFocus(Qt::ShortcutFocusReason);
    nameFilter_->selectAll();
}

std::vector<int> LayerPanel::visualColumns() const {
    std::vector<int> columns;
    const QHeaderView* header = view_->horizontalHeader();
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (!view_->isColumnHidden(logical)) columns.push_back(logical);
    }
    return columns;
}

namespace {

const QString kHiddenColumnsKey = QStringLiteral("layerTable/hiddenColumns");

QList<int> hiddenColumnsSetting() {
    QList<int> hidden;
    for (const QVariant& column : QSettings().value(kHiddenColumnsKey).toList())
        hidden.push_back(column.toInt());
    return hidden;
}

} // namespace

void LayerPanel::arrangeColumns() {
    using models::LayerTableModel;
    QHeaderView* header = view_->horizontalHeader();
    const std::vector<int> order = LayerTableModel::displayOrder();
    for (int visual = 0; visual < int(order.size()); ++visual)
        header->moveSection(header->visualIndex(order[size_t(visual)]), visual);
    const bool measured = model_->comparison() != nullptr;
    const QList<int> hidden = hiddenColumnsSetting();
    for (int column = 0; column < LayerTableModel::ColumnCount; ++column) {
        const bool off = LayerTableModel::isMeasuredColumn(column)
                             ? !measured
                             : column != LayerTableModel::Name && hidden.contains(column);
        view_->setColumnHidden(column, off);
    }
    const bool appeared = measured && !measuredShown_;
    measuredShown_ = measured;
    const int sorted = view_->horizontalHeader()->sortIndicatorSection();
    if (!measured) {
        if (LayerTableModel::isMeasuredColumn(sorted))
            view_->sortByColumn(LayerTableModel::Time, Qt::DescendingOrder);
        return;
    }
    // a profile loaded: the layers the roofline misses most first (by |error|)
    if (appeared) view_->sortByColumn(LayerTableModel::LayerError, Qt::DescendingOrder);
    fitColumns();
    view_->horizontalScrollBar()->setValue(0);
}

void LayerPanel::arrangeMeasuredColumns() {
    arrangeColumns();
}

void LayerPanel::setColumnShown(int column, bool shown) {
    if (column == models::LayerTableModel::Name) return; // the frozen column names the rows
    view_->setColumnHidden(column, !shown);
    QVariantList hidden;
    for (int c = 0; c < models::LayerTableModel::ColumnCount; ++c)
        if (!models::LayerTableModel::isMeasuredColumn(c) && view_->isColumnHidden(c)) hidden.push_back(c);
    QSettings().setValue(kHiddenColumnsKey, hidden);
}

void LayerPanel::chooseColumns(const QPoint& globalPos) {
    QMenu menu(this);
    menu.setToolTipsVisible(true);
    for (int column : models::LayerTableModel::displayOrder()) {
        if (column == models::LayerTableModel::Name) continue;
        if (models::LayerTableModel::isMeasuredColumn(column) && !model_->comparison()) continue;
        QAction* action = menu.addAction(proxy_->headerData(column, Qt::Horizontal).toString());
        action->setCheckable(true);
        action->setChecked(!view_->isColumnHidden(column));
        connect(action, &QAction::toggled, this, [this, column](bool on) { setColumnShown(column, on); });
    }
    menu.exec(globalPos);
}

void LayerPanel::fitColumns() {
    using models::LayerTableModel;
    view_->resizeColumnToContents(LayerTableModel::Name);
    for (int column = 0; column < LayerTableModel::ColumnCount; ++column)
        if (column != LayerTableModel::Name && !view_->isColumnHidden(column))
            view_->setColumnWidth(column, contentsWidth(column));
    // the op (elided at the right) stays narrow, narrower beside the measured columns
    const int opWidthAtMost = model_->comparison() ? 64 : 80;
    view_->setColumnWidth(LayerTableModel::Op,
                          std::min(view_->columnWidth(LayerTableModel::Op), opWidthAtMost));
    nameContentsWidth_ = std::min(view_->columnWidth(LayerTableModel::Name), kMaxNameWidth);
    fittedNameWidth_ = -1;
    fitNameColumn();
}

int LayerPanel::contentsWidth(int column) const {
    using models::LayerTableModel;
    const QStyle* style = view_->style();
    const int cellMargin = 2 * (style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view_) + 1) + 4;
    const QFontMetrics cells(view_->font());
    int widest = 0;
    const int rows = std::min(proxy_->rowCount(), 2000);
    for (int row = 0; row < rows; ++row) {
        const QString text = proxy_->index(row, column).data().toString();
        // "in FIRST-NODE" (a node inside a measured layer) would make the measured column as wide as the
        // names: its tooltip has it all
        if (column == LayerTableModel::MeasuredTime && text.startsWith(QStringLiteral("in "))) continue;
        widest = std::max(widest, cells.horizontalAdvance(text));
    }
    // the header shows at least its first word ("Intensity (FLOP/B)": "Intensity…"), a measured column's
    // only its first five letters ("Predicted (layer)": "Predi…", "Error (%, predicted − measured)":
    // "Error…"), and the sort mark; its tooltip has it whole
    const QHeaderView* header = view_->horizontalHeader();
    const QString title = proxy_->headerData(column, Qt::Horizontal).toString();
    QString start = title.section(QLatin1Char(' '), 0, 0);
    constexpr int kLeastLetters = 5;
    if (LayerTableModel::isMeasuredColumn(column) && start.size() > kLeastLetters)
        start = start.left(kLeastLetters);
    if (start != title) start += QStringLiteral("\u2026");
    const int headerMargin = style->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    const int mark = style->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header);
    const int least = QFontMetrics(header->font()).horizontalAdvance(start) + 3 * headerMargin + mark +
                      6; // slack: a highlighted section draws bold
    return std::max(widest + cellMargin, least);
}

QString LayerPanel::shownName(int viewRow) const {
    const QModelIndex index = proxy_->index(viewRow, models::LayerTableModel::Name);
    QStyleOptionViewItem cell;
    cell.initFrom(view_);
    cell.widget = view_;
    cell.rect = QRect(0, 0, view_->columnWidth(models::LayerTableModel::Name) - (view_->showGrid() ? 1 : 0),
                      view_->verticalHeader()->defaultSectionSize());
    return names_->paintedName(cell, index);
}

void LayerPanel::fitNameColumn() {
    using models::LayerTableModel;
    if (nameContentsWidth_ <= 0) return; // before fitColumns
    const int current = view_->columnWidth(LayerTableModel::Name);
    if (fittedNameWidth_ >= 0 && current != fittedNameWidth_) return; // the user sized it
    // The name gives way (it is elided in the middle) so that the columns up to the bound are in view
    // without scrolling; the counts come after them.
    const int room = view_->viewport()->width() - widthUpToBoundBesideName();
    fittedNameWidth_ = std::clamp(room, std::min(kMinNameWidth, nameContentsWidth_), nameContentsWidth_);
    if (fittedNameWidth_ != current) view_->setColumnWidth(LayerTableModel::Name, fittedNameWidth_);
}

bool LayerPanel::eventFilter(QObject* watched, QEvent* event) {
    // a splitter or window resize: the name follows until the user sizes it
    if (watched == view_->viewport() && event->type() == QEvent::Resize) fitNameColumn();
    return QWidget::eventFilter(watched, event);
}

int LayerPanel::boundColumnRightEdge() const {
    const int bound = models::LayerTableModel::Bound;
    return view_->columnViewportPosition(bound) + view_->columnWidth(bound);
}

int LayerPanel::widthUpToBoundBesideName() const {
    using models::LayerTableModel;
    int others = 0;
    const QHeaderView* header = view_->horizontalHeader();
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (logical == LayerTableModel::Name || view_->isColumnHidden(logical)) continue;
        others += view_->columnWidth(logical);
        if (logical == LayerTableModel::Bound) break;
    }
    return others;
}

int LayerPanel::widthShowingBound() const {
    const int name = std::min(kMinNameWidth, std::max(nameContentsWidth_, 0));
    return width() - view_->viewport()->width() + name + widthUpToBoundBesideName();
}

} // namespace rooftop::gui
