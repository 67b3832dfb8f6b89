// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSortFilterProxyModel>
#include <QStringList>

namespace rooftop::models {

/// Filters a LayerTableModel by op type and name substring; sorts by SortRole (raw numbers), the error of a
/// measured layer by its size (|predicted − measured|), rows without one last in either order.
class LayerFilterProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    /// A proxy sorting by SortRole, with no filter.
    explicit LayerFilterProxyModel(QObject* parent = nullptr);

    /// Keeps only layers whose op type equals `op` exactly; "" keeps all.
    void setOpFilter(const QString& op);
    /// The op type filter ("" = all).
    QString opFilter() const { return m_op; }
    /// Keeps only layers whose name contains `text`, case-insensitive; "" keeps all.
    void setNameFilter(const QString& text);
    /// The name filter ("" = all).
    QString nameFilter() const { return m_name; }
    /// The distinct op types of the source model, sorted.
    QStringList opTypes() const;
    /// The source row of a proxy row, -1 when out of range.
    int sourceRow(int proxyRow) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QString m_op;
    QString m_name;
};

} // namespace rooftop::models
