// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/layer_table_model.h"

#include "models/cell_style.h"

#include "core/device/provenance.h"
#include "models/unit_format.h"

#include <QColor>
#include <QFont>
#include <QStringList>

namespace rooftop::models {
namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString joined(const std::vector<std::string>& shapes) {
    QStringList parts;
    for (const auto& s : shapes)
        parts << qs(s);
    return parts.join(QStringLiteral(", "));
}

const char* const headerNames[] = {"Name",    "Op",     "Kind",         "MACs",      "FLOPs",
                                   "Weights", "Inputs", "Outputs",      "Intensity", "Time",
                                   "Energy",  "Bound",  "Share of time"};
const char* const exportNames[] = {"Name",
                                   "Op",
                                   "Kind",
                                   "MACs",
                                   "FLOPs",
                                   "Weights (B)",
                                   "Inputs (B)",
                                   "Outputs (B)",
                                   "Intensity (FLOP/B)",
                                   "Time (s)",
                                   "Energy (J)",
                                   "Bound",
                                   "Share of time (%)"};
const char* const headerTips[] = {
    "Node name (ONNX, or op_index when the node has none)",
    "ONNX operator type",
    "Hardware work class of the operator",
    "Multiply-accumulates (all repeats)",
    "Floating-point operations: 2 x MACs + other arithmetic + special functions",
    "Weight bytes read",
    "Input activation bytes read",
    "Output activation bytes written",
    "Arithmetic intensity: FLOPs per byte moved",
    "",
    "",
    "",
    ""};

} // namespace

LayerTableModel::LayerTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void LayerTableModel::setWorkload(const Workload& workload) {
    beginResetModel();
    m_workload = workload;
    m_prediction.reset();
    m_rowOfNode.clear();
    for (int row = 0; row < int(m_workload.layers.size()); ++row)
        m_rowOfNode.insert(m_workload.layers[size_t(row)].nodeIndex, row);
    endResetModel();
}

void LayerTableModel::setPrediction(const ModelPrediction* prediction) {
    const bool aligned = prediction && prediction->layers.size() == m_workload.layers.size();
    if (!aligned && !m_prediction) return;
    if (aligned)
        m_prediction = *prediction;
    else
        m_prediction.reset();
    if (rowCount() > 0) emit dataChanged(index(0, Time), index(rowCount() - 1, TimeShare));
    emit headerDataChanged(Qt::Horizontal, Time, TimeShare);
}

const LayerCount* LayerTableModel::layerAt(int row) const {
    return row >= 0 && row < int(m_workload.layers.size()) ? &m_workload.layers[size_t(row)] : nullptr;
}

const LayerPrediction* LayerTableModel::layerPredictionAt(int row) const {
    return m_prediction && layerAt(row) ? &m_prediction->layers[size_t(row)] : nullptr;
}

int LayerTableModel::rowOfNode(int nodeIndex) const {
    return m_rowOfNode.value(nodeIndex, -1);
}

bool LayerTableModel::isPredictedColumn(int column) {
    return column >= Time && column <= TimeShare;
}

QString LayerTableModel::totalsText() const {
    const WorkloadTotals& t = m_workload.totals;
    QString text =
        QStringLiteral("%1 layers · %2 · %3 · %4 moved")
            .arg(m_workload.layers.size())
            .arg(formatSi(double(t.macs), QStringLiteral("MAC")),
                 formatSi(double(t.flops), QStringLiteral("FLOP")), formatBytes(double(t.bytes())));
    if (m_prediction)
        text += QStringLiteral(" · latency %1 · energy %2 (%3, %4)")
                    .arg(formatSeconds(m_prediction->latencySeconds),
                         formatSi(m_prediction->energyJoules, QStringLiteral("J")),
                         qs(m_prediction->profile.mode.name),
                         QString::fromUtf8(provenanceName(m_prediction->provenance)));
    return text;
}

int LayerTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_workload.layers.size());
}

int LayerTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double LayerTableModel::timeShare(const LayerPrediction& predicted) const {
    return m_prediction->latencySeconds > 0 ? 100.0 * predicted.seconds / m_prediction->latencySeconds : 0.0;
}

QVariant LayerTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const LayerCount& layer = m_workload.layers[size_t(index.row())];
    const LayerPrediction* predicted = layerPredictionAt(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayData(layer, predicted, column);
    case SortRole:
        return sortData(layer, predicted, column);
    case Qt::ToolTipRole:
        return toolTip(layer, predicted, column);
    case Qt::TextAlignmentRole:
    case Qt::FontRole:
    case Qt::ForegroundRole:
        return cellStyleData({column <= Kind || column == Bound, !layer.supported, false, !layer.supported}, role);
    default:
        return {};
    }
}

QVariant LayerTableModel::displayData(const LayerCount& layer, const LayerPrediction* predicted,
                                      int column) const {
    switch (column) {
    case Name:
        return qs(layer.name);
    case Op:
        return qs(layer.op);
    case Kind:
        return QString::fromUtf8(opKindName(layer.kind));
    case Macs:
        return formatSi(double(layer.macs), QStringLiteral("MAC"));
    case Flops:
        return formatSi(double(layer.flops), QStringLiteral("FLOP"));
    case WeightBytes:
        return formatBytes(double(layer.weightBytes));
    case InputBytes:
        return formatBytes(double(layer.inputBytes));
    case OutputBytes:
        return formatBytes(double(layer.outputBytes));
    case Intensity:
        return QString::number(layer.intensity(), 'f', 2);
    }
    if (!predicted) return {};
    switch (column) {
    case Time:
        return formatSeconds(predicted->seconds);
    case Energy:
        return formatSi(predicted->joules, QStringLiteral("J"));
    case Bound:
        return QString::fromUtf8(boundName(predicted->bound));
    case TimeShare:
        return QString::number(timeShare(*predicted), 'f', 1);
    }
    return {};
}

QVariant LayerTableModel::sortData(const LayerCount& layer, const LayerPrediction* predicted,
                                   int column) const {
    switch (column) {
    case Name:
    case Op:
    case Kind:
        return displayData(layer, predicted, column);
    case Macs:
        return qlonglong(layer.macs);
    case Flops:
        return qlonglong(layer.flops);
    case WeightBytes:
        return qlonglong(layer.weightBytes);
    case InputBytes:
        return qlonglong(layer.inputBytes);
    case OutputBytes:
        return qlonglong(layer.outputBytes);
    case Intensity:
        return layer.intensity();
    }
    if (!predicted) return {};
    switch (column) {
    case Time:
        return predicted->seconds;
    case Energy:
        return predicted->joules;
    case Bound:
        return QString::fromUtf8(boundName(predicted->bound));
    case TimeShare:
        return timeShare(*predicted);
    }
    return {};
}

QString LayerTableModel::toolTip(const LayerCount& layer, const LayerPrediction* predicted,
                                 int column) const {
    QStringList lines;
    switch (column) {
    case Macs:
        lines << QStringLiteral("%1 MACs").arg(formatExactCount(layer.macs));
        break;
    case Flops:
        lines << QStringLiteral("%1 FLOPs (%2 special-function ops)")
                     .arg(formatExactCount(layer.flops), formatExactCount(layer.sfuOps));
        break;
    case WeightBytes:
        lines << QStringLiteral("%1 bytes of weights").arg(formatExactCount(layer.weightBytes));
        break;
    case InputBytes:
        lines << QStringLiteral("%1 bytes read; inputs %2")
                     .arg(formatExactCount(layer.inputBytes), joined(layer.inputShapes));
        break;
    case OutputBytes:
        lines << QStringLiteral("%1 bytes written; outputs %2")
                     .arg(formatExactCount(layer.outputBytes), joined(layer.outputShapes));
        break;
    case Intensity:
        lines << QStringLiteral("%1 FLOPs / %2 bytes")
                     .arg(formatExactCount(layer.flops), formatExactCount(layer.bytes()));
        break;
    case Time:
    case Energy:
    case Bound:
    case TimeShare:
        if (predicted)
            lines << QStringLiteral("%1 bound on %2; %3 of dispatch overhead; %4")
                         .arg(QString::fromUtf8(boundName(predicted->bound)),
                              QString::fromUtf8(computeClassName(predicted->computeClass)),
                              formatSeconds(predicted->dispatchSeconds), predictedHeaderToolTip());
        break;
    default:
        lines << QStringLiteral("%1 (%2%3)")
                     .arg(qs(layer.name), qs(layer.op),
                          layer.domain.empty() ? QString() : QStringLiteral(", ") + qs(layer.domain));
        lines << QStringLiteral("inputs: %1").arg(joined(layer.inputShapes));
        lines << QStringLiteral("outputs: %1").arg(joined(layer.outputShapes));
        if (layer.repeat > 1) lines << QStringLiteral("repeated %1 times").arg(layer.repeat);
        if (layer.fused) lines << QStringLiteral("fused: intermediates stay on chip");
        break;
    }
    if (!layer.supported)
        lines << QStringLiteral(
                     "unsupported: no cost rule for %1; counted as 0 FLOPs with its input and output bytes")
                     .arg(qs(layer.op));
    if (!layer.note.empty()) lines << qs(layer.note);
    return lines.join(QLatin1Char('\n'));
}

QString LayerTableModel::predictedHeaderToolTip() const {
    if (!m_prediction) return QStringLiteral("predicted; no power mode selected");
    return QStringLiteral("predicted (%1) for %2 at batch %3")
        .arg(QString::fromUtf8(provenanceName(m_prediction->provenance)), qs(m_prediction->profile.mode.name))
        .arg(m_prediction->batch);
}

QVariant LayerTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (role) {
    case Qt::DisplayRole:
        return QString::fromUtf8(headerNames[section]);
    case ExportHeaderRole:
        return QString::fromUtf8(exportNames[section]);
    case Qt::ToolTipRole:
        return isPredictedColumn(section) ? predictedHeaderToolTip() : QString::fromUtf8(headerTips[section]);
    case Qt::TextAlignmentRole:
        return section <= Kind || section == Bound ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                                   : int(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

} // namespace rooftop::models
