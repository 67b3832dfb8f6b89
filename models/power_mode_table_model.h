// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/item_roles.h"
#include "models/mode_row.h"

#include <QAbstractTableModel>
#include <vector>

namespace rooftop::models {

/// One row per power mode or advisor candidate: clocks, predicted latency, energy and power, what a runs file
/// measured for it, flags.
class PowerModeTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// The columns, in order.
    enum Column {
        Mode,
        Batch,
        GpuClock,
        EmcClock,
        CpuCores,
        CpuClock,
        Latency,
        MeasuredLatency, ///< from a runs file (see MeasuredBy); empty without one
        EnergyPerInference,
        AveragePower,
        MeasuredPower,
        MeasuredBy,
        InferencesPerJoule,
        ProvenanceColumn,
        Pareto,
        Feasible,
        ColumnCount
    };
    Q_ENUM(Column)

    /// An empty table.
    explicit PowerModeTableModel(QObject* parent = nullptr);

    /// Replaces all rows (a model reset).
    void setRows(std::vector<ModeRow> rows);
    /// Heads energy per sample (training steps) instead of per inference; set before setRows.
    void setTraining(bool training) { m_training = training; }
    /// The rows shown.
    const std::vector<ModeRow>& rows() const { return m_rows; }
    /// The row at `row`, nullptr when out of range.
    const ModeRow* rowAt(int row) const;
    /// The first row flagged recommended, -1 when none.
    int recommendedRow() const;
    /// The first row with this mode name (and batch, when batch > 0), -1 when none.
    int rowOfMode(const QString& name, int64_t batch = 0) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant displayData(const ModeRow& row, int column) const;
    QVariant sortData(const ModeRow& row, int column) const;
    QString toolTip(const ModeRow& row) const;

    bool m_training = false;
    std::vector<ModeRow> m_rows;
};

} // namespace rooftop::models
