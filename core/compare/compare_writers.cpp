// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compare/compare_writers.h"

#include "core/common/text_format.h"
#include "core/report/prediction_bounds.h"
#include "core/report/text_table.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace rooftop {

namespace {

QJsonValue optionalJson(const std::optional<double>& value) {
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

// Fixed decimals, so that a column's numbers line up: 0.0377 beside 0.4859, never 0.0001111 beside 0.4859;
// a positive value too small for the decimals reads "<0.0001", not zero.
std::string columnNumber(double value, int decimals) {
    const double last = std::pow(10.0, -decimals);
    if (value > 0 && value < 0.5 * last) return "<" + fixed(last, decimals);
    return fixed(value, decimals);
}

std::string optionalColumn(const std::optional<double>& value, int decimals, double scale = 1.0) {
    return value ? columnNumber(*value / scale, decimals) : "-";
}

std::string countsBasis(const ComparedLayer& layer) {
    return layer.toolCounts ? "ncu counts" : "rooftop counts";
}

std::string measuredBasis(const Comparison& c) {
    return "measured, " + sourceDescription(c.source) + " " + c.file;
}

std::string predictedBasis(const Comparison& c) {
    return std::string(provenanceName(c.predictedProvenance)) + ", the roofline in mode " + c.mode + " on " +
           c.device;
}

std::string shortened(const std::string& text, size_t width) {
    return text.size() <= width ? text : text.substr(0, width - 3) + "...";
}

} // namespace

std::string classCalibrationTable(const ClassCalibration& k) {
    std::vector<std::vector<std::string>> rows = {
        {"Class", "Layers", "Measured ms", "Efficiency before", "Efficiency after", "Fitted"}};
    for (const ClassFit& fit : k.classes)
        rows.push_back({operatorClassName(fit.operatorClass), std::to_string(fit.layers),
                        general(fit.measuredMs, 4), general(fit.before, 4), general(fit.after, 4),
                        fit.fitted ? "yes" : "no: " + fit.note});
    const FloorFit& floor = k.floor;
    rows.push_back({"kernel floor (µs)", std::to_string(floor.layers), general(floor.measuredMs, 4),
                    general(floor.beforeUs, 4), general(floor.afterUs, 4),
                    floor.fitted ? "yes" : "no: " + floor.note});
    const TailFit& tail = k.tail;
    rows.push_back({"wave-tail penalty (scale)", std::to_string(tail.layers), "", general(tail.before, 3),
                    general(tail.after, 3), tail.fitted ? "yes" : "no: " + tail.note});
    std::string text = "Runtime " + k.runtime.name + ": " + k.runtime.classBasis + "\n";
    text +=
        "Efficiency: the fraction of the roofline (the runtime's peaks and bandwidth) the class reaches; "
        "layers: the measured layers whose predicted time the class dominates; the kernel floor: the least "
        "time per kernel in the profile's mode, and the layers it dominates; the wave-tail penalty: the "
        "share "
        "of a kernel's partial last wave the runtime pays (1 all, 0 none: its kernel choice fills it), and "
        "the "
        "layers it adds 10 % or more to.\n\n";
    text += formatTable(rows, {false, true, true, true, true, false}, "");
    text += "\nDispatch per dispatching node at the profile's CPU clock: " + general(k.dispatchBeforeUs, 4) +
            " µs -> " + general(k.dispatchAfterUs, 4) + " µs (" + (k.dispatchFitted ? "fitted" : "kept") +
            ")\n";
    text += "Fixed cost per inference at the profile's CPU clock: " + general(k.fixedMs, 4) + " ms (" +
            (k.fixedFitted ? "fitted: overhead layers and the gap to --trtexec-times" : "kept") + ")\n";
    text += "Mean |error| of the " + std::to_string(k.layersUsed) +
            " layers used: " + fixed(k.layerErrorBeforePct, 1) + " % before, " +
            fixed(k.layerErrorAfterPct, 1) + " % after\n";
    for (const std::string& note : k.notes)
        text += "Note: " + note + "\n";
    return text;
}

std::string speedWords(double measuredMs, double predictedMs) {
    if (measuredMs <= 0 || predictedMs <= 0) return "no ratio";
    const double ratio = measuredMs / predictedMs;
    if (std::fabs(ratio - 1.0) < 0.005) return "as predicted";
    return ratio > 1 ? general(ratio, 2) + "\u00d7 slower than predicted"
                     : general(1.0 / ratio, 2) + "\u00d7 faster than predicted";
}

std::string sourceDescription(const std::string& source) {
    if (source == "trtexec") return "trtexec --exportProfile";
    if (source == "onnxruntime") return "ONNX Runtime profile";
    if (source == "ncu") return "Nsight Compute CSV";
    return source;
}

std::string comparisonJson(const Comparison& c) {
    QJsonArray layers;
    for (const ComparedLayer& layer : c.layers) {
        QJsonArray nodes;
        for (const std::string& node : layer.nodes)
            nodes.append(QString::fromStdString(node));
        layers.append(QJsonObject{{"name", QString::fromStdString(layer.name)},
                                  {"nodes", nodes},
                                  {"measured_time_ms", layer.measuredMs},
                                  {"predicted_time_ms", optionalJson(layer.predictedMs)},
                                  {"error_pct", optionalJson(layer.errorPct)},
                                  {"achieved_flops", optionalJson(layer.achievedFlops)},
                                  {"intensity", optionalJson(layer.intensity)},
                                  {"roof_share_pct", optionalJson(layer.roofPct)},
                                  {"bound", QString::fromStdString(layer.bound)}});
    }
    // where each number comes from, in the vocabulary's two fields: a provenance and its basis
    const QJsonObject root{
        {"schema", "rooftop-compare/4"},
        {"measured_provenance", "measured"},
        {"measured_basis", QString::fromStdString(measuredBasis(c))},
        {"predicted_provenance", provenanceName(c.predictedProvenance)},
        {"prediction_basis", QString::fromStdString(predictedBasis(c))},
        {"bound_basis", "the roofline's, in the mode compared"},
        {"device", QString::fromStdString(c.device)},
        {"mode", QString::fromStdString(c.mode)},
        {"source", QString::fromStdString(c.source)},
        {"measured_total_ms", c.measuredTotalMs},
        {"predicted_total_ms", c.predictedTotalMs},
        {"predicted_total_ms_interval", boundsJson(c.predictedTotalMs, c.predictedSpread, 1.0)},
        {"predicted_model_ms", c.predictedModelMs},
        {"predicted_model_ms_interval", boundsJson(c.predictedModelMs, c.predictedSpread, 1.0)},
        {"confidence", tableBoundsConfidence},
        {"interval_basis", QString::fromStdString(c.predictedSpreadBasis)},
        {"unmapped_ms", c.unmappedMs},
        {"layers", layers}};
    QJsonObject full = root;
    if (c.inferenceMs) full.insert("inference_ms", *c.inferenceMs);
    full.insert("covered_nodes", c.coveredNodes);
    full.insert("model_nodes", c.modelNodes);
    full.insert("absent_node_layers", c.absentNodeLayers);
    return QJsonDocument(full).toJson(QJsonDocument::Indented).toStdString();
}

std::string comparisonCsv(const Comparison& c) {
    const std::string measured = csvField(measuredBasis(c)), predicted = csvField(predictedBasis(c));
    std::string text = "layer,nodes,measured_time_ms,predicted_time_ms,error_pct,achieved_flops,intensity,"
                       "roof_share_pct,bound,"
                       "measured_provenance,predicted_provenance,counts\n";
    auto number = [](const std::optional<double>& v) { return v ? general(*v, 9) : std::string(); };
    for (const ComparedLayer& layer : c.layers) {
        std::string nodes;
        for (const std::string& node : layer.nodes)
            nodes += (nodes.empty() ? "" : ";") + node;
        text += csvField(layer.name) + "," + csvField(nodes) + "," + general(layer.measuredMs, 9) + "," +
                number(layer.predictedMs) + "," + number(layer.errorPct) + "," + number(layer.achievedFlops) +
                "," + number(layer.intensity) + "," + number(layer.roofPct) + "," + layer.bound + "," +
                measured + "," + (layer.predictedMs ? predicted : "") + "," +
                (layer.kind == MappingKind::Nodes ? countsBasis(layer) : "") + "\n";
    }
    return text;
}

std::string comparisonTable(const Comparison& c) {
    std::vector<std::vector<std::string>> rows = {{"Layer", "Nodes", "Measured ms", "Predicted ms", "Error %",
                                                   "GFLOP/s", "FLOP/B", "% of roof", "Bound"}};
    bool toolCounts = false;
    for (const ComparedLayer& layer : c.layers) {
        toolCounts = toolCounts || layer.toolCounts;
        rows.push_back({shortened(layer.name, 60), std::to_string(layer.nodes.size()),
                        columnNumber(layer.measuredMs, 4), optionalColumn(layer.predictedMs, 4),
                        layer.errorPct ? fixed(*layer.errorPct, 1) : "-",
                        optionalColumn(layer.achievedFlops, 1, 1e9), optionalColumn(layer.intensity, 1),
                        layer.roofPct ? fixed(*layer.roofPct, 1) : "-", layer.bound});
    }
    std::string text = "Measured ms: " + measuredBasis(c) + "\nPredicted ms: " + predictedBasis(c) + "\n\n";
    text += formatTable(rows, 1, "");
    text += "\nMeasured total " + general(c.measuredTotalMs, 5) + " ms (measured), of which " +
            general(c.unmappedMs, 4) + " ms on no ONNX node (overhead, unmapped; measured)\n";
    if (c.inferenceMs)
        text += "GPU time per inference " + general(*c.inferenceMs, 5) +
                " ms (measured, trtexec --exportTimes median): " +
                (*c.inferenceMs >= c.measuredTotalMs
                     ? general(*c.inferenceMs - c.measuredTotalMs, 4) + " ms more than the layers' sum\n"
                     : general(c.measuredTotalMs - *c.inferenceMs, 4) +
                           " ms less than the layers' sum (per-layer profiling slows the engine)\n");
    text += "Predicted total " +
            withBounds(general(c.predictedTotalMs, 5) + " ms", c.predictedTotalMs, c.predictedSpread, 1.0) +
            " for the " + std::to_string(c.coveredNodes) + " ONNX nodes the profile covers (" +
            provenanceName(c.predictedProvenance) + ")\n";
    // a profile of a few of the model's nodes says nothing of the whole model's time
    const bool partial = c.modelNodes > 0 && 10 * c.coveredNodes < 9 * c.modelNodes;
    if (c.predictedModelMs > 0 && c.measuredTotalMs > 0 && partial)
        text += "Whole model: not compared, the profile covers " + std::to_string(c.coveredNodes) +
                " of its " + std::to_string(c.modelNodes) + " nodes that launch kernels\n";
    else if (c.predictedModelMs > 0 && c.measuredTotalMs > 0)
        text +=
            "Whole model: " + general(c.measuredTotalMs, 4) + " ms measured vs " +
            withBounds(general(c.predictedModelMs, 4) + " ms", c.predictedModelMs, c.predictedSpread, 1.0) +
            " predicted in " + c.mode + " (" + speedWords(c.measuredTotalMs, c.predictedModelMs) + ")\n";
    if (c.predictedSpread > 0) text += boundsLegendText(c.predictedSpreadBasis) + "\n";
    const std::vector<ComparedLayer> misses = largestMisses(c, 3);
    for (size_t i = 0; i < misses.size(); ++i)
        text += (i == 0 ? "Largest misses: " : "                ") + shortened(misses[i].name, 60) + " " +
                general(misses[i].measuredMs, 3) + " ms measured vs " + general(*misses[i].predictedMs, 3) +
                " ms predicted\n";
    text += "ONNX nodes covered: " + std::to_string(c.coveredNodes) + "; the model has " +
            std::to_string(c.modelNodes) + " that launch kernels\n";
    if (c.absentNodeLayers > 0)
        text += "Warning: " + std::to_string(c.absentNodeLayers) +
                (c.absentNodeLayers == 1 ? " layer names" : " layers name") +
                " nodes this model lacks (e.g. '" + shortened(c.firstAbsentNodeLayer, 80) +
                "'): was the profile taken of this model?\n";
    text += std::string("GFLOP/s and FLOP/B: ") +
            (toolCounts ? "Nsight Compute's own counts where it has them, else Rooftop's"
                        : "Rooftop's counts of the covered nodes") +
            " over the measured time; % of roof: of the mode's roofline at that intensity; bound: the "
            "roofline's (predicted). Worst-predicted layers first.\n";
    return text;
}

} // namespace rooftop
