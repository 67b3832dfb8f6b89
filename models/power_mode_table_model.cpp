// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/power_mode_table_model.h"

#include "core/device/power_mode.h"
#include "core/report/prediction_bounds.h"
#include "models/cell_style.h"
#include "models/unit_format.h"

#include <QColor>
#include <QFont>
#include <iterator>

namespace rooftop::models {
namespace {

/// "2.54 ms ≤ 2.64 ms": a predicted number and its upper bound (the number alone without a spread).
QString withUpperBound(const QString& value, const QString& high) {
    return value == high ? value : value + QStringLiteral(" ≤ ") + high;
}

const char* const headerNames[] = {
    "Mode",           "Batch",       "GPU clock",        "EMC clock",        "CPU cores",
    "CPU clock",      "Latency",     "Measured latency", "Energy/inference", "Avg power",
    "Measured power", "Measured by", "Inferences/J",     "Provenance",       "Pareto",
    "Feasible"};
const char* const exportNames[] = {"Mode",
                                   "Batch",
                                   "GPU clock (Hz)",
                                   "EMC clock (Hz)",
                                   "CPU cores",
                                   "CPU clock (Hz)",
                                   "Latency (s)",
                                   "Measured latency (s)",
                                   "Energy/inference (J)",
                                   "Avg power (W)",
                                   "Measured power (W)",
                                   "Measured by",
                                   "Inferences/J",
                                   "Provenance",
                                   "Pareto",
                                   "Feasible"};
// the JSON export's names (docs/json.md) and the factors from the SortRole units (s, J, Hz) to theirs
const char* const exportKeys[] = {"mode",
                                  "batch",
                                  "gpu_hz",
                                  "emc_hz",
                                  "cores",
                                  "cpu_khz",
                                  "latency_ms",
                                  "measured_latency_ms",
                                  "energy_mj",
                                  "power_w",
                                  "measured_power_w",
                                  "measured_by",
                                  "inferences_per_j",
                                  "provenance",
                                  "pareto",
                                  "feasible"};
const double exportScales[] = {1, 1, 1, 1, 1, 1e-3, 1e3, 1e3, 1e3, 1, 1, 1, 1, 1, 1, 1};
static_assert(std::size(exportKeys) == PowerModeTableModel::ColumnCount &&
              std::size(exportScales) == PowerModeTableModel::ColumnCount);
const char* const headerTips[] = {
    "Power mode: stock (nvpmodel) or custom clocks GPU · EMC · cores × CPU MHz (c<cores>-cpu-gpu-emc)",
    "Inferences per batch",
    "GPU clock of the mode",
    "Memory (EMC) clock of the mode",
    "Online CPU cores",
    "CPU clock of the mode",
    "Predicted latency of one batch (see Provenance); ≤ its bound at 90 %, from the prediction's own error",
    "Measured latency of one batch: the median of the runs file's ok runs (see Measured by)",
    "Predicted energy of one inference (see Provenance); ≤ its bound at 90 %",
    "Predicted average power: energy / latency (see Provenance); ≤ its bound at 90 %",
    "Measured average power: the median of the runs file's ok runs (empty when the runner measures none)",
    "Where the measured numbers come from: measured by a runner, or a simulated board (not a measurement)",
    "Inferences per joule: 1 / energy per inference",
    "Weakest provenance of the ceilings and power coefficients the prediction uses",
    "On the Pareto front of latency and energy per inference",
    "Meets the latency and power limits"};

static_assert(std::size(headerNames) == PowerModeTableModel::ColumnCount);
static_assert(std::size(exportNames) == PowerModeTableModel::ColumnCount);
static_assert(std::size(headerTips) == PowerModeTableModel::ColumnCount);

QString yesNo(bool value) {
    return value ? QStringLiteral("yes") : QStringLiteral("no");
}

} // namespace

PowerModeTableModel::PowerModeTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void PowerModeTableModel::setRows(std::vector<ModeRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

const ModeRow* PowerModeTableModel::rowAt(int row) const {
    return row >= 0 && row < int(m_rows.size()) ? &m_rows[size_t(row)] : nullptr;
}

int PowerModeTableModel::recommendedRow() const {
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].recommended) return int(i);
    return -1;
}

int PowerModeTableModel::rowOfMode(const QString& name, int64_t batch) const {
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].name == name && (batch <= 0 || m_rows[i].batch == batch)) return int(i);
    return -1;
}

int PowerModeTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PowerModeTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PowerModeTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const ModeRow& row = m_rows[size_t(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayData(row, column);
    case SortRole:
        return sortData(row, column);
    case Qt::ToolTipRole:
        return toolTip(row);
    case Qt::TextAlignmentRole:
    case Qt::FontRole:
    case Qt::ForegroundRole:
        return cellStyleData({column == Mode || column == ProvenanceColumn || column == MeasuredBy, false,
                              row.recommended, !row.feasible},
                             role);
    default:
        return {};
    }
}

QVariant PowerModeTableModel::displayData(const ModeRow& row, int column) const {
    const PowerMode& mode = row.profile.mode;
    switch (column) {
    case Mode:
        return QString::fromStdString(readableModeName(mode)); // exports keep the canonical name (SortRole)
    case Batch:
        return QString::number(row.batch);
    case GpuClock:
        return formatMegahertz(double(mode.gpuHz));
    case EmcClock:
        return formatMegahertz(double(mode.emcHz));
    case CpuCores:
        return QString::number(mode.onlineCores);
    case CpuClock:
        return formatMegahertz(double(mode.cpuKhz) * 1e3);
    case Latency:
        return withUpperBound(
            formatSeconds(row.latencySeconds),
            formatSeconds(upperBound(row.latencySeconds, row.spread.latency, tableBoundsConfidence)));
    case EnergyPerInference:
        return withUpperBound(
            formatSi(row.energyPerInferenceJoules, QStringLiteral("J")),
            formatSi(upperBound(row.energyPerInferenceJoules, row.spread.energy, tableBoundsConfidence),
                     QStringLiteral("J")));
    case AveragePower:
        return withUpperBound(formatSi(row.averageWatts, QStringLiteral("W")),
                              formatSi(upperBound(row.averageWatts, row.spread.power, tableBoundsConfidence),
                                       QStringLiteral("W")));
    case MeasuredLatency:
        return row.measured ? formatSeconds(row.measured->latencyMs / 1e3) : QString();
    case MeasuredPower:
        return row.measured && row.measured->powerW ? formatSi(*row.measured->powerW, QStringLiteral("W"))
                                                    : QString();
    case MeasuredBy:
        return row.measured ? measuredProvenance(*row.measured) : QString();
    case InferencesPerJoule:
        return QString::number(row.inferencesPerJoule(), 'f', 1);
    case ProvenanceColumn:
        return QString::fromUtf8(provenanceName(row.provenance));
    case Pareto:
        return yesNo(row.pareto);
    case Feasible:
        return yesNo(row.feasible);
    }
    return {};
}

QVariant PowerModeTableModel::sortData(const ModeRow& row, int column) const {
    const PowerMode& mode = row.profile.mode;
    switch (column) {
    case Mode:
        return row.name;
    case Batch:
        return qlonglong(row.batch);
    case GpuClock:
        return qlonglong(mode.gpuHz);
    case EmcClock:
        return qlonglong(mode.emcHz);
    case CpuCores:
        return mode.onlineCores;
    case CpuClock:
        return qlonglong(mode.cpuKhz) * 1000;
    case Latency:
        return row.latencySeconds;
    case EnergyPerInference:
        return row.energyPerInferenceJoules;
    case AveragePower:
        return row.averageWatts;
    case MeasuredLatency:
        return row.measured ? row.measured->latencyMs / 1e3 : QVariant();
    case MeasuredPower:
        return row.measured && row.measured->powerW ? *row.measured->powerW : QVariant();
    case MeasuredBy:
        return row.measured ? measuredProvenance(*row.measured) : QString();
    case InferencesPerJoule:
        return row.inferencesPerJoule();
    case ProvenanceColumn:
        return QString::fromUtf8(provenanceName(row.provenance));
    case Pareto:
        return row.pareto;
    case Feasible:
        return row.feasible;
    }
    return {};
}

QString PowerModeTableModel::toolTip(const ModeRow& row) const {
    const PowerMode& mode = row.profile.mode;
    QString text =
        QStringLiteral("%1%2: %3 cores at %4 kHz, GPU %5 Hz, EMC %6 Hz")
            .arg(row.name, mode.stock ? QStringLiteral(" (stock mode %1)").arg(mode.stockId) : QString(),
                 QString::number(mode.onlineCores), formatExactCount(mode.cpuKhz),
                 formatExactCount(mode.gpuHz), formatExactCount(mode.emcHz));
    text += QStringLiteral("\npredicted (%1) at batch %2")
                .arg(QString::fromUtf8(provenanceName(row.provenance)))
                .arg(row.batch);
    if (row.spread.latency > 0)
        text += QStringLiteral("\n≤: the bound at %1 (1 sigma: time %2 %, power %3 %, energy %4 %)")
                    .arg(QString::fromStdString(confidenceText(tableBoundsConfidence)))
                    .arg(100 * row.spread.latency, 0, 'f', 1)
                    .arg(100 * row.spread.power, 0, 'f', 1)
                    .arg(100 * row.spread.energy, 0, 'f', 1);
    if (row.measured) {
        text += QStringLiteral("\n%1: latency %2")
                    .arg(measuredProvenance(*row.measured), formatSeconds(row.measured->latencyMs / 1e3));
        if (row.measured->powerW)
            text += QStringLiteral(", power %1").arg(formatSi(*row.measured->powerW, QStringLiteral("W")));
    }
    if (row.recommended) text += QStringLiteral("\nrecommended");
    if (!row.feasible) text += QStringLiteral("\ndoes not meet the limits");
    return text;
}

QVariant PowerModeTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    // runs that all came from the simulated board are never headed "measured"
    bool anyRun = false, allSimulated = true;
    for (const ModeRow& row : m_rows)
        if (row.measured) {
            anyRun = true;
            allSimulated = allSimulated && row.measured->simulated;
        }
    const bool simulatedRuns =
        anyRun && allSimulated && (section == MeasuredLatency || section == MeasuredPower);
    const auto named = [&](const char* name) {
        QString text = QString::fromUtf8(name);
        if (m_training) // the energies are of one sample of a training step
            text.replace(QStringLiteral("inference"), QStringLiteral("sample"))
                .replace(QStringLiteral("Inferences"), QStringLiteral("Samples"));
        return simulatedRuns ? text.replace(QStringLiteral("Measured"), QStringLiteral("Simulated")) : text;
    };
    switch (role) {
    case Qt::DisplayRole:
        return named(headerNames[section]);
    case ExportHeaderRole:
        return named(exportNames[section]);
    case ExportKeyRole:
        return QString::fromUtf8(exportKeys[section]);
    case ExportScaleRole:
        return exportScales[section];
    case Qt::ToolTipRole:
        return named(headerTips[section]);
    case Qt::TextAlignmentRole:
        return section == Mode || section == ProvenanceColumn || section == MeasuredBy
                   ? int(Qt::AlignLeft | Qt::AlignVCenter)
                   : int(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

} // namespace rooftop::models
