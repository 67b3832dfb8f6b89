// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/plan_table_model.h"

#include "models/cell_style.h"

namespace rooftop::models {

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

PlanTableModel::PlanTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanTableModel::setTable(PlanTable table) {
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

int PlanTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_table.rows.size());
}

int PlanTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_table.columns.size());
}

QString PlanTableModel::toolTip(int row, int column) const {
    const PlanColumn& c = m_table.columns[static_cast<size_t>(column)];
    const PlanCell& cell = m_table.rows[static_cast<size_t>(row)][static_cast<size_t>(column)];
    QString tip = cell.value && !c.setting
                      ? tr("%1: %2 (%3: %4)")
                            .arg(text(c.name), text(cell.text), text(m_table.provenance), text(m_table.basis))
                      : text(cell.text);
    const size_t r = static_cast<size_t>(row);
    if (r < m_table.rowNotes.size() && !m_table.rowNotes[r].empty())
        tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) + text(m_table.rowNotes[r]);
    return tip;
}

QVariant PlanTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const size_t r = static_cast<size_t>(index.row());
    const PlanCell& cell = m_table.rows[r][static_cast<size_t>(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return text(cell.text);
    case SortRole:
        return cell.value ? QVariant(*cell.value) : QVariant(text(cell.text));
    case Qt::ToolTipRole:
        return toolTip(index.row(), index.column());
    default: {
        CellStyle style;
        style.label = m_table.columns[static_cast<size_t>(index.column())].label;
        style.bold = index.row() == m_table.emphasisedRow;
        style.greyed = r < m_table.greyedRows.size() && m_table.greyedRows[r];
        return cellStyleData(style, role);
    }
    }
}

QVariant PlanTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
    const PlanColumn& c = m_table.columns[static_cast<size_t>(section)];
    switch (role) {
    case Qt::DisplayRole:
        return text(c.name);
    case ExportHeaderRole:
        return c.unit.empty() || c.name.find(c.unit) != std::string::npos
                   ? text(c.name)
                   : tr("%1 (%2)").arg(text(c.name), text(c.unit));
    case Qt::ToolTipRole:
        return c.label || c.setting ? text(c.tip) : tr("%1 (%2)").arg(text(c.tip), text(m_table.provenance));
    case Qt::TextAlignmentRole:
        return int((c.label ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    default:
        return {};
    }
}

} // namespace rooftop::models
