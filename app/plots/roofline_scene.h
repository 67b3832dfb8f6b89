// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/device/ceilings.h"
#include "core/roofline/prediction.h"

#include <QColor>
#include <QString>
#include <QStringList>
#include <vector>

namespace rooftop::plots {

/// Which roofline a plot draws.
enum class RooflineKind { Time, Energy };

/// One mode's roofs on a plot.
struct ModeRoofs {
    QString name;
    ModeProfile profile;
    QColor color;
    bool whatIf = false; ///< a custom mode from the what-if sliders (drawn dashed-bold)
    /// What the roof labels call a custom mode, whose clocks are in the legend: "what-if", or "recommended"
    /// for the advisor's custom answer.
    QString roofTag = QStringLiteral("what-if");
};

/// One layer's point: where the active mode puts it.
struct LayerMarker {
    int nodeIndex = -1;
    QString name;
    QString op;
    double intensity = 0.0;      ///< FLOP/B
    double flopsPerSecond = 0.0; ///< achieved, t0 included
    double flopsPerJoule = 0.0;
    double seconds = 0.0;
    double joules = 0.0;
    double shareOfTime = 0.0; ///< 0..1 of the model's latency
    QString bound;
    double flops = 0.0;
    bool nearFree = false; ///< next to no FLOPs and time (shape arithmetic): far below every roof
};

/// One measured layer of an imported profile: where the measurement puts it and where the roofline
/// predicts the ONNX nodes it covers.
struct MeasuredLayerMarker {
    QString name;            ///< the tool's layer name
    QStringList nodes;       ///< the ONNX nodes it covers
    int firstNodeIndex = -1; ///< node index of the first covered node (the layer table's row), -1 if unknown
    double intensity = 0.0;  ///< FLOP/B (the comparison's: Rooftop's counts, or the tool's own)
    double achievedFlopsPerSecond = 0.0;  ///< FLOPs / measured time
    double predictedIntensity = 0.0;      ///< FLOP/B of the covered nodes (Rooftop's counts)
    double predictedFlopsPerSecond = 0.0; ///< their FLOPs / their predicted time
    double measuredMs = 0.0;
    double predictedMs = 0.0;
    double errorPct = 0.0;
    bool toolCounts = false; ///< the measured point uses the tool's FLOPs and bytes (Nsight Compute)
    QString bound;
};

/// An imported measured layer profile as drawn on the time roofline (it measured time, not energy).
struct MeasuredOverlay {
    QString label;                           ///< the legend's "measured layers"
    QString provenance;                      ///< "measured, trtexec --exportProfile FILE"
    QString predictedProvenance;             ///< "estimate, the roofline in mode MAXN on agx-orin-64gb"
    std::vector<MeasuredLayerMarker> layers; ///< the layers that can sit on a log-log plot
    int skipped = 0; ///< measured layers without FLOPs, bytes, nodes or time: not drawn
};

/// Everything a roofline plot shows.
struct RooflineScene {
    std::vector<ModeRoofs> modes;
    std::vector<ComputeClass> classes; ///< the compute classes to draw a roof for
    std::vector<LayerMarker> layers;   ///< points of the active mode
    QString activeMode;                ///< the mode the points belong to
    QString provenance;                ///< of the active mode's prediction
    bool hasModelPoint = false;
    LayerMarker model;        ///< the whole model as one point
    MeasuredOverlay measured; ///< an imported measured profile (no layers: none)
    QStringList opTypes; ///< the model's op types, which share out the colours (empty: those of `layers`)
};

/// A layer is near-free when it has fewer than this fraction of the model's FLOPs and of its time.
inline constexpr double kNearFreeFlopsShare = 1e-5;
inline constexpr double kNearFreeTimeShare = 1e-2;

/// Layer markers for a prediction (layers with no FLOPs or no bytes cannot sit on a log-log plot: skipped).
std::vector<LayerMarker> layerMarkers(const Workload& workload, const ModelPrediction& prediction);

/// The whole model as one point (total FLOPs / total bytes, total FLOPs / latency, total FLOPs / energy).
LayerMarker modelMarker(const Workload& workload, const ModelPrediction& prediction);

/// The op types of a workload's layers, each once, in the order of their first layer.
QStringList opTypesOf(const Workload& workload);

/// The compute classes a workload uses in a mode (FP32 CUDA cores always, others when layers run on them).
std::vector<ComputeClass> classesUsed(const Workload& workload);

} // namespace rooftop::plots
