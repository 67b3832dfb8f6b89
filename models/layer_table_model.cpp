// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/layer_table_model.h"

#include "core/compare/compare_writers.h"
#include "core/device/power_mode.h"
#include "core/device/provenance.h"
#include "core/report/prediction_bounds.h"
#include "models/cell_style.h"
#include "models/recommendation_text.h"
#include "models/unit_format.h"

#include <QColor>
#include <QFileInfo>
#include <QFont>
#include <QStringList>
#include <iterator>
#include <unordered_map>

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

const char* const headerNames[] = {"Name",
                                   "Op",
                                   "Kind",
                                   "MACs",
                                   "FLOPs",
                                   "Weights",
                                   "Inputs",
                                   "Outputs",
                                   "Intensity",
                                   "Time",
                                   "Energy",
                                   "Bound",
                                   "Share",
                                   "Measured",
                                   "Predicted (layer)",
                                   "Error (%, predicted \u2212 measured)",
                                   "% of roof"};
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
                                   "Share of time (%)",
                                   "Measured layer (ms)",
                                   "Predicted layer (ms)",
                                   "Layer error (%)",
                                   "Achieved of roof (%)"};
// the JSON export's names (docs/json.md) and the factors from the SortRole units to theirs
const char* const exportKeys[] = {"name",
                                  "op",
                                  "kind",
                                  "macs",
                                  "flops",
                                  "weight_bytes",
                                  "input_bytes",
                                  "output_bytes",
                                  "intensity",
                                  "time_ms",
                                  "energy_mj",
                                  "bound",
                                  "time_share_pct",
                                  "measured_time_ms",
                                  "predicted_time_ms",
                                  "error_pct",
                                  "roof_share_pct"};
const double exportScales[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1e3, 1e3, 1, 1, 1, 1, 1, 1};
static_assert(std::size(exportKeys) == LayerTableModel::ColumnCount &&
              std::size(exportScales) == LayerTableModel::ColumnCount);
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
    "",
    "",
    "",
    "",
    ""};
static_assert(std::size(headerNames) == LayerTableModel::ColumnCount &&
              std::size(exportNames) == LayerTableModel::ColumnCount &&
              std::size(headerTips) == LayerTableModel::ColumnCount);

} // namespace

LayerTableModel::LayerTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void LayerTableModel::setWorkload(const Workload& workload) {
    beginResetModel();
    m_workload = workload;
    m_prediction.reset();
    m_rowOfNode.clear();
    for (int row = 0; row < int(m_workload.layers.size()); ++row)
        m_rowOfNode.insert(m_workload.layers[size_t(row)].nodeIndex, row);
    indexComparison();
    endResetModel();
}

void LayerTableModel::setPrediction(const ModelPrediction* prediction) {
    const bool aligned = prediction && prediction->layers.size() == m_workload.layers.size();
    if (!aligned && !m_prediction) return;
    if (aligned)
        m_prediction = *prediction;
    else
        m_prediction.reset();
    // shares of the layers' own time, so that they add up to 100 %: the model's latency also holds the fixed
    // cost per inference, or is a predictor's
    m_layersSeconds = 0.0;
    if (m_prediction)
        for (const LayerPrediction& layer : m_prediction->layers)
            m_layersSeconds += layer.seconds;
    if (rowCount() > 0) emit dataChanged(index(0, Time), index(rowCount() - 1, TimeShare));
    emit headerDataChanged(Qt::Horizontal, Time, TimeShare);
}

void LayerTableModel::setComparison(const Comparison* comparison) {
    if (!comparison && !m_comparison) return;
    if (comparison)
        m_comparison = *comparison;
    else
        m_comparison.reset();
    indexComparison();
    if (rowCount() > 0) emit dataChanged(index(0, MeasuredTime), index(rowCount() - 1, RoofShare));
    emit headerDataChanged(Qt::Horizontal, MeasuredTime, RoofShare);
}

void LayerTableModel::indexComparison() {
    const size_t rows = m_workload.layers.size();
    m_layersStartingAt.assign(m_comparison ? rows : 0, {});
    m_insideLayerOf.assign(m_comparison ? rows : 0, -1);
    if (!m_comparison) return;
    std::unordered_map<std::string, int> rowOfName;
    for (size_t row = 0; row < rows; ++row)
        rowOfName.emplace(m_workload.layers[row].name, int(row));
    for (size_t i = 0; i < m_comparison->layers.size(); ++i) {
        const std::vector<std::string>& nodes = m_comparison->layers[i].nodes;
        for (size_t n = 0; n < nodes.size(); ++n) {
            const auto found = rowOfName.find(nodes[n]);
            if (found == rowOfName.end()) continue; // a comparison of another workload: nothing to show
            if (n == 0)
                m_layersStartingAt[size_t(found->second)].push_back(int(i));
            else if (m_insideLayerOf[size_t(found->second)] < 0)
                m_insideLayerOf[size_t(found->second)] = int(i);
        }
    }
}

std::vector<int> LayerTableModel::measuredLayersAt(int row) const {
    return row >= 0 && row < int(m_layersStartingAt.size()) ? m_layersStartingAt[size_t(row)]
                                                            : std::vector<int>{};
}

bool LayerTableModel::isMeasuredColumn(int column) {
    return column >= MeasuredTime && column <= RoofShare;
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

std::vector<int> LayerTableModel::displayOrder() {
    // the share of the roof after the bound: up to the bound the names keep their room (LayerPanel)
    return {Name,   Op,   Time, MeasuredTime, LayerPredicted, LayerError, TimeShare,   Bound,    RoofShare,
            Energy, Kind, Macs, Flops,        WeightBytes,    InputBytes, OutputBytes, Intensity};
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
    const bool trainingStep = t.forward.flops > 0 || t.backward.flops > 0;
    if (trainingStep)
        text = QStringLiteral("training step (forward %1, backward %2, update %3) · ")
                   .arg(formatSi(double(t.forward.flops), QStringLiteral("FLOP")),
                        formatSi(double(t.backward.flops), QStringLiteral("FLOP")),
                        formatSi(double(t.update.flops), QStringLiteral("FLOP"))) +
               text;
    if (m_prediction)
        text += QStringLiteral(" · %1 %2 · energy %3 (%4, %5)")
                    .arg(trainingStep ? QStringLiteral("step") : QStringLiteral("latency"))
                    .arg(boundedSeconds(m_prediction->latencySeconds, m_prediction->spread.latency,
                                        tableBoundsConfidence),
                         formatSi(m_prediction->energyJoules, QStringLiteral("J")),
                         qs(readableModeName(m_prediction->profile.mode)),
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
    return m_layersSeconds > 0 ? 100.0 * predicted.seconds / m_layersSeconds : 0.0;
}

QVariant LayerTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const LayerCount& layer = m_workload.layers[size_t(index.row())];
    const LayerPrediction* predicted = layerPredictionAt(index.row());
    const int column = index.column();
    if (isMeasuredColumn(column)) return measuredData(index.row(), column, role);
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
        return cellStyleData({column <= Kind || column == Bound, !layer.supported, false, !layer.supported},
                             role);
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
        return QStringLiteral("%1 FLOP/B").arg(layer.intensity(), 0, 'f', 2);
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
        return QStringLiteral("%1 %").arg(timeShare(*predicted), 0, 'f', 1);
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
        if (predicted && m_prediction)
            if (const std::string note = layerLimitNote(*predicted, m_prediction->profile.ceilings);
                !note.empty())
                lines << QString::fromStdString(note);
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

QVariant LayerTableModel::measuredData(int row, int column, int role) const {
    const bool label = column == MeasuredTime && measuredLayersAt(row).empty();
    if (role == Qt::TextAlignmentRole || role == Qt::FontRole || role == Qt::ForegroundRole)
        return cellStyleData({label, label, false, label}, role);
    if (!m_comparison) return {};
    const std::vector<int> starting = measuredLayersAt(row);
    const int inside = row < int(m_insideLayerOf.size()) ? m_insideLayerOf[size_t(row)] : -1;
    if (starting.empty()) {
        if (inside < 0) return {};
        const ComparedLayer& layer = m_comparison->layers[size_t(inside)];
        if (role == Qt::DisplayRole && column == MeasuredTime)
            return QStringLiteral("in %1").arg(qs(layer.nodes.front()));
        if (role == Qt::ToolTipRole)
            return QStringLiteral(
                       "Covered by the measured layer %1; its time is shown once, on its first node "
                       "%2 (not split over its %3 nodes)")
                .arg(qs(layer.name), qs(layer.nodes.front()))
                .arg(layer.nodes.size());
        return {};
    }
    double measuredMs = 0.0;
    for (int i : starting)
        measuredMs += m_comparison->layers[size_t(i)].measuredMs;
    const ComparedLayer& first = m_comparison->layers[size_t(starting.front())];
    // several measured layers on one node set (kernels of one node, profile twins): the nodes are predicted
    // once
    bool sameNodes = true;
    for (int i : starting)
        sameNodes = sameNodes && m_comparison->layers[size_t(i)].nodes == first.nodes;
    std::optional<double> predictedMs, errorPct, roofPct;
    if (sameNodes) predictedMs = first.predictedMs;
    if (starting.size() == 1) {
        errorPct = first.errorPct;
        roofPct = first.roofPct;
    }
    if (role == Qt::DisplayRole) {
        switch (column) {
        case MeasuredTime:
            return starting.size() == 1 ? formatSeconds(measuredMs / 1e3)
                                        : QStringLiteral("%1 (%2 layers)")
                                              .arg(formatSeconds(measuredMs / 1e3))
                                              .arg(starting.size());
        case LayerPredicted:
            return predictedMs ? QVariant(formatSeconds(*predictedMs / 1e3)) : QVariant();
        case LayerError:
            return errorPct ? QVariant(QString::number(*errorPct, 'f', 1)) : QVariant();
        case RoofShare:
            return roofPct ? QVariant(QString::number(*roofPct, 'f', *roofPct < 10 ? 1 : 0)) : QVariant();
        }
    }
    if (role == SortRole) {
        switch (column) {
        case MeasuredTime:
            return measuredMs;
        case LayerPredicted:
            return predictedMs ? QVariant(*predictedMs) : QVariant();
        case LayerError:
            return errorPct ? QVariant(*errorPct) : QVariant();
        case RoofShare:
            return roofPct ? QVariant(*roofPct) : QVariant();
        }
    }
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        for (int i : starting) {
            const ComparedLayer& layer = m_comparison->layers[size_t(i)];
            QStringList nodes;
            for (const std::string& node : layer.nodes)
                nodes << qs(node);
            lines << QStringLiteral("%1: measured %2; predicted %3 for its %4 node(s) %5%6")
                         .arg(qs(layer.name), formatSeconds(layer.measuredMs / 1e3),
                              layer.predictedMs ? formatSeconds(*layer.predictedMs / 1e3)
                                                : QStringLiteral("-"))
                         .arg(layer.nodes.size())
                         .arg(nodes.join(QStringLiteral(", ")),
                              layer.errorPct ? QStringLiteral("; error %1 %").arg(*layer.errorPct, 0, 'f', 1)
                                             : QString());
        }
        if (!sameNodes)
            lines << QStringLiteral(
                "These layers cover different nodes: no one predicted time to set against "
                "their sum");
        lines << measuredHeaderToolTip(column);
        return lines.join(QLatin1Char('\n'));
    }
    return {};
}

QString LayerTableModel::measuredHeaderToolTip(int column) const {
    if (!m_comparison)
        return QStringLiteral(
            "Empty until a measured layer profile is imported (File → Import measured layer "
            "profile…)");
    const QString measured = QStringLiteral("measured, %1 %2")
                                 .arg(QString::fromStdString(sourceDescription(m_comparison->source)),
                                      QFileInfo(qs(m_comparison->file)).fileName());
    const QString predicted = QStringLiteral("%1, the roofline in mode %2 on %3")
                                  .arg(QString::fromUtf8(provenanceName(m_comparison->predictedProvenance)),
                                       qs(m_comparison->mode), qs(m_comparison->device));
    const QString rule = QStringLiteral(
        "A fused layer's time is shown once, on the first ONNX node it covers; its other nodes say \"in\" "
        "that node. Nothing is split over nodes.");
    switch (column) {
    case MeasuredTime:
        return QStringLiteral("Measured time of the layer (%1). %2").arg(measured, rule);
    case LayerPredicted:
        return QStringLiteral("Predicted time of all the nodes the measured layer covers (%1). %2")
            .arg(predicted, rule);
    case RoofShare:
        return QStringLiteral(
                   "Share of the roof the layer reached: its FLOPs over the measured time (%1), against the "
                   "roofline at its intensity in mode %2 (%3). Low: the layer runs far below what the mode "
                   "allows (small kernel, unfused, poor tiling); near 100: at the roof.")
            .arg(measured, qs(m_comparison->mode),
                 QString::fromUtf8(provenanceName(m_comparison->predictedProvenance)));
    default:
        return QStringLiteral(
                   "(predicted - measured) / measured x 100 of the layer: measured %1; predicted %2")
            .arg(measured, predicted);
    }
}

QString LayerTableModel::predictedHeaderToolTip() const {
    if (!m_prediction) return QStringLiteral("predicted; no power mode selected");
    return QStringLiteral("predicted (%1) for %2 at batch %3")
        .arg(QString::fromUtf8(provenanceName(m_prediction->provenance)),
             qs(readableModeName(m_prediction->profile.mode)))
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
    case ExportKeyRole:
        return QString::fromUtf8(exportKeys[section]);
    case ExportScaleRole:
        return exportScales[section];
    case Qt::ToolTipRole:
        if (isMeasuredColumn(section)) return measuredHeaderToolTip(section);
        return isPredictedColumn(section) ? predictedHeaderToolTip() : QString::fromUtf8(headerTips[section]);
    case Qt::TextAlignmentRole:
        return section <= Kind || section == Bound ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                                   : int(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

} // namespace rooftop::models
