// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/layer_filter_proxy_model.h"

#include "models/item_roles.h"
#include "models/layer_table_model.h"

#include <algorithm>
#include <cmath>

namespace rooftop::models {

LayerFilterProxyModel::LayerFilterProxyModel(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void LayerFilterProxyModel::setOpFilter(const QString& op) {
    if (op == m_op) return;
    m_op = op;
    invalidateFilter();
}

void LayerFilterProxyModel::setNameFilter(const QString& text) {
    if (text == m_name) return;
    m_name = text;
    invalidateFilter();
}

QStringList LayerFilterProxyModel::opTypes() const {
    QStringList ops;
    const QAbstractItemModel* source = sourceModel();
    if (!source) return ops;
    for (int row = 0; row < source->rowCount(); ++row)
        ops << source->index(row, LayerTableModel::Op).data(Qt::DisplayRole).toString();
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    return ops;
}

int LayerFilterProxyModel::sourceRow(int proxyRow) const {
    const QModelIndex source = mapToSource(index(proxyRow, 0));
    return source.isValid() ? source.row() : -1;
}

bool LayerFilterProxyModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QAbstractItemModel* source = sourceModel();
    if (!m_op.isEmpty() &&
        source->index(sourceRow, LayerTableModel::Op, sourceParent).data(Qt::DisplayRole).toString() != m_op)
        return false;
    if (!m_name.isEmpty() && !source->index(sourceRow, LayerTableModel::Name, sourceParent)
                                  .data(Qt::DisplayRole)
                                  .toString()
                                  .contains(m_name, Qt::CaseInsensitive))
        return false;
    return true;
}

bool LayerFilterProxyModel::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    if (left.column() != LayerTableModel::LayerError) return QSortFilterProxyModel::lessThan(left, right);
    const QVariant a = left.data(SortRole), b = right.data(SortRole);
    if (a.isValid() != b.isValid()) // rows without an error go last
        return sortOrder() == Qt::DescendingOrder ? !a.isValid() : a.isValid();
    return a.isValid() && std::abs(a.toDouble()) < std::abs(b.toDouble());
}

} // namespace rooftop::models
