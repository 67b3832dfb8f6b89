// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/plan/plan_rendering.h"
#include "models/item_roles.h"

#include <QAbstractTableModel>

namespace rooftop::models {

/// One table of a plan (renderPlan: the policy comparison, the best candidates) as an item model: the cells'
/// texts, their numbers as SortRole, the provenance and basis of the numbers in tooltips, the plan's row bold
/// and the rows that miss the budgets greyed.
class PlanTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// An empty table.
    explicit PlanTableModel(QObject* parent = nullptr);

    /// Replaces the table (a model reset).
    void setTable(PlanTable table);
    /// The table shown.
    const PlanTable& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString toolTip(int row, int column) const;

    PlanTable m_table;
};

} // namespace rooftop::models
