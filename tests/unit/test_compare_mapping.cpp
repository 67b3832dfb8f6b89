// SPDX-License-Identifier: GPL-3.0-or-later
// TensorRT, ONNX Runtime and Nsight Compute layers mapped to ONNX nodes, one test per naming pattern
// (measured-formats.md 1.4): " + " fusions with folded constants, " || " merges, nested PWN(...),
// {ForeignNode[first...last]} ranges in topological order, reformats and inserted layers as overhead,
// " [profile N]", Metadata over names, kernels by order; on resnet18.onnx's real node names (TensorRT 8.6 and
// 10.x) and a model with old Conv_0 names. Then the comparison: per-layer sums of the roofline's node
// predictions, error, achieved FLOP/s and intensity, bound, totals with unmapped time, worst first.
#include "core/compare/comparison.h"
#include "core/compare/node_mapping.h"
#include "core/compare/trtexec_import.h"
#include "core/compare/trtexec_layer_info.h"
#include "core/cost/workload.h"
#include "core/measure/trtexec_layer_profile.h"
#include "support/compare_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace rooftop;

namespace {

using Strings = std::vector<std::string>;

/// A workload of nodes with these names and kinds, in this order.
Workload workloadOf(const std::vector<std::pair<std::string, OpKind>>& nodes) {
    Workload workload;
    for (const auto& [name, kind] : nodes) {
        LayerCount layer;
        layer.name = name;
        layer.kind = kind;
        workload.layers.push_back(layer);
    }
    return workload;
}

const Workload& oldNames() {
    static const Workload workload = workloadOf({{"Conv_0", OpKind::Matrix},
                                                 {"Relu_1", OpKind::Pointwise},
                                                 {"MaxPool_2", OpKind::Vector},
                                                 {"Conv_3", OpKind::Matrix},
                                                 {"Add_4", OpKind::Pointwise},
                                                 {"Relu_5", OpKind::Pointwise},
                                                 {"GlobalAveragePool_6", OpKind::Vector},
                                                 {"Flatten_7", OpKind::Alias},
                                                 {"Gemm_8", OpKind::Matrix}});
    return workload;
}

LayerMapping mapName(const std::string& name, const Strings& metadata = {}, bool reformat = false) {
    MeasuredLayer layer;
    layer.name = name;
    layer.onnxNodes = metadata;
    layer.reformat = reformat;
    return mapTensorRtLayer(layer, NodeIndex(oldNames()));
}

std::vector<int> nodesOf(const std::string& name) {
    const LayerMapping mapping = mapName(name);
    return mapping.kind == MappingKind::Nodes ? mapping.nodes : std::vector<int>{-1};
}

MeasuredLayers trtexecLayers(const std::vector<std::pair<std::string, double>>& layers,
                             const std::string& info = "") {
    const std::vector<LayerTime> times = parseTrtexecLayerProfile(test::trtexecProfileJson(layers), "p.json");
    return joinTrtexecLayers(
        times, info.empty() ? std::vector<EngineLayerInfo>{} : parseTrtexecLayerInfo(info, "g"), "p.json");
}

int count(const std::vector<LayerMapping>& mappings, MappingKind kind) {
    return static_cast<int>(std::count_if(mappings.begin(), mappings.end(),
                                          [&](const LayerMapping& m) { return m.kind == kind; }));
}

int coveredNodes(const std::vector<LayerMapping>& mappings, size_t nodes) {
    std::vector<bool> covered(nodes, false);
    for (const LayerMapping& m : mappings)
        for (int node : m.nodes)
            covered[static_cast<size_t>(node)] = true;
    return static_cast<int>(std::count(covered.begin(), covered.end(), true));
}

} // namespace

class CompareMapping : public QObject {
    Q_OBJECT
private slots:
    void tokens() {
        QCOMPARE(tensorRtNameTokens("A + B + C"), (Strings{"A", "B", "C"}));
        QCOMPARE(tensorRtNameTokens("k/MatMul + k/Add || q/MatMul + q/Add"),
                 (Strings{"k/MatMul", "k/Add", "q/MatMul", "q/Add"}));
        QCOMPARE(tensorRtNameTokens("PWN(PWN(/Sub), PWN(/Div))"), (Strings{"/Sub", "/Div"}));
        QCOMPARE(tensorRtNameTokens("PWN(a + b, PWN(c, PWN(d)))"), (Strings{"a", "b", "c", "d"}));
        QCOMPARE(tensorRtNameTokens("X + Y [profile 2]"), (Strings{"X", "Y"}));
        QCOMPARE(tensorRtNameTokens("{ForeignNode[/a/Conv.../b/Add]}"),
                 (Strings{"{ForeignNode[/a/Conv.../b/Add]}"}));
        QCOMPARE(tensorRtNameTokens("(Unnamed Layer* 5) [Shuffle]"),
                 (Strings{"(Unnamed Layer* 5) [Shuffle]"}));
    }

    void verticalFusionIgnoresFoldedConstants() {
        QCOMPARE(nodesOf("Conv_0 + Relu_1"), (std::vector<int>{0, 1}));
        QCOMPARE(nodesOf("Conv_3 + onnx::Add_12 + ONNXTRT_Broadcast_644 + Add_4 + Relu_5"),
                 (std::vector<int>{3, 4, 5}));
    }

    void horizontalMergeAndPointwise() {
        QCOMPARE(nodesOf("Conv_0 + Relu_1 || Conv_3"), (std::vector<int>{0, 1, 3}));
        QCOMPARE(nodesOf("PWN(PWN(Add_4), Relu_5)"), (std::vector<int>{4, 5}));
        QCOMPARE(nodesOf("Conv_3 + PWN(Add_4 + Relu_5)"), (std::vector<int>{3, 4, 5}));
    }

    void foreignNodeRange() {
        QCOMPARE(nodesOf("{ForeignNode[MaxPool_2...Gemm_8]}"), (std::vector<int>{2, 3, 4, 5, 6, 7, 8}));
        QCOMPARE(nodesOf("{ForeignNode[Relu_5...Relu_1]}"),
                 (std::vector<int>{1, 2, 3, 4, 5})); // either order
        QCOMPARE(nodesOf("{ForeignNode[Add_4]}"), (std::vector<int>{4}));
        QVERIFY(mapName("{ForeignNode[Nope...Gemm_8]}").kind == MappingKind::Unmapped);
    }

    void profileSuffixStripped() {
        QCOMPARE(nodesOf("Conv_0 + Relu_1 [profile 1]"), (std::vector<int>{0, 1}));
        QCOMPARE(nodesOf("{ForeignNode[Conv_0...MaxPool_2]} [profile 3]"), (std::vector<int>{0, 1, 2}));
    }

    void overheadLayers() {
        for (const char* name :
             {"Reformatting CopyNode for Input Tensor 0 to Conv_0 + Relu_1",
              "Reformatting CopyNode for Output Tensor 0 to Gemm_8 [profile 1]", "reshape_before_Gemm_8",
              "reshape_after_Gemm_8", "Gemm_8_copy_input", "Gemm_8_copy_output", "Flatten_7 copy",
              "Conv_0_clone_2", "ONNXTRT_castHelper_3"}) {
            const LayerMapping mapping = mapName(name);
            QVERIFY2(mapping.kind == MappingKind::Overhead, name);
            QVERIFY(mapping.nodes.empty());
        }
        // an inserted token beside a node: the layer is the node's
        QCOMPARE(nodesOf("Flatten_7 + reshape_before_Gemm_8"), (std::vector<int>{7}));
        // a layer the layer info calls Reformat, whatever its name
        QVERIFY(mapName("some reformat", {}, true).kind == MappingKind::Overhead);
        // inserted for a node the model lacks, or an unnamed layer: unmapped
        QVERIFY(mapName("reshape_before_Nope").kind == MappingKind::Unmapped);
        QVERIFY(mapName("(Unnamed Layer* 5) [Shuffle]").kind == MappingKind::Unmapped);
        QVERIFY(mapName("__myl_AddRelu_myl0_1").kind == MappingKind::Unmapped);
    }

    void metadataBeforeNames() {
        QCOMPARE(mapName("(Unnamed Layer* 5) [Shuffle]", {"Flatten_7"}).nodes, (std::vector<int>{7}));
        QCOMPARE(mapName("__myl_AddRelu_myl0_1", {"Add_4", "Relu_5"}).nodes, (std::vector<int>{4, 5}));
        QCOMPARE(mapName("Conv_0", {"Relu_1"}).nodes, (std::vector<int>{1}));
        // Metadata naming no node of this model: the name still maps
        QCOMPARE(mapName("Conv_0", {"Other_9"}).nodes, (std::vector<int>{0}));
    }

    void onnxRuntimeNames() {
        const NodeIndex nodes(oldNames());
        MeasuredLayer layer;
        layer.onnxNodes = {"Gemm_8"};
        QCOMPARE(mapNamedLayer(layer, nodes).nodes, (std::vector<int>{8}));
        layer.onnxNodes = {"Conv_0_nchwc"}; // a node ONNX Runtime's optimizer made
        QVERIFY(mapNamedLayer(layer, nodes).kind == MappingKind::Unmapped);
        layer.onnxNodes = {"fused Conv_3"}; // ORT's conv_activation_fusion: "fused " + the conv's name
        QCOMPARE(mapNamedLayer(layer, nodes).nodes, (std::vector<int>{3}));
    }

    void kernelsByOrder() {
        // launching nodes: Conv_0, MaxPool_2, Conv_3, GlobalAveragePool_6, Gemm_8 and the unfused pointwise
        // ones
        const Workload& w = oldNames();
        std::vector<int> launching;
        for (size_t i = 0; i < w.layers.size(); ++i)
            if (w.layers[i].kind != OpKind::Alias) launching.push_back(int(i));
        QCOMPARE(int(launching.size()), 8);
        std::vector<MeasuredLayer> kernels(16); // two passes: the second repeats the first's kernels
        for (size_t i = 0; i < kernels.size(); ++i)
            kernels[i].name = "kernel_" + std::to_string(i % 8);
        const std::vector<LayerMapping> two = mapKernels(kernels, w, NodeIndex(w));
        QCOMPARE(two.size(), size_t(16));
        for (size_t i = 0; i < two.size(); ++i) {
            QVERIFY(two[i].kind == MappingKind::Nodes);
            QCOMPARE(two[i].nodes, std::vector<int>{launching[i % 8]});
            QCOMPARE(two[i].share, 0.5);
        }
        // one pass in which some nodes launched two kernels: 16 is a multiple of 8 but no pass repeats
        for (size_t i = 0; i < kernels.size(); ++i)
            kernels[i].name = "kernel_" + std::to_string(i);
        QCOMPARE(count(mapKernels(kernels, w, NodeIndex(w)), MappingKind::Unmapped), 16);
        kernels.resize(7); // not a whole number of passes: nothing by order
        QCOMPARE(count(mapKernels(kernels, w, NodeIndex(w)), MappingKind::Unmapped), 7);
        // a kernel whose name maps takes its node; the others fill in by order
        std::vector<MeasuredLayer> named(9);
        named[3].name = "Flatten_7";
        const std::vector<LayerMapping> mixed = mapKernels(named, w, NodeIndex(w));
        QCOMPARE(mixed[3].nodes, std::vector<int>{7});
        QCOMPARE(mixed[4].nodes, std::vector<int>{launching[3]});
        QCOMPARE(mixed[3].share, 1.0);
    }

    void resnet18TensorRt86() {
        const Workload workload = analyzeModelFile(test::samplePath("resnet18"), {});
        QCOMPARE(int(workload.layers.size()), 49);
        const MeasuredLayers layers = trtexecLayers(test::resnet18Trt86Layers());
        const std::vector<LayerMapping> mappings = mapProfile(layers, workload);
        QCOMPARE(int(mappings.size()), 26);
        QCOMPARE(count(mappings, MappingKind::Nodes), 24);
        QCOMPARE(count(mappings, MappingKind::Overhead), 2); // the input reformat, reshape_after_/fc/Gemm
        QCOMPARE(count(mappings, MappingKind::Unmapped), 0);
        QCOMPARE(coveredNodes(mappings, workload.layers.size()), 49);
        QCOMPARE(int(mappings[1].nodes.size()), 2); // /conv1/Conv + /relu/Relu
        QCOMPARE(int(mappings[4].nodes.size()), 3); // conv2 + Add + relu_1 of layer1.0
    }

    void resnet18TensorRt10Myelin() {
        const Workload workload = analyzeModelFile(test::samplePath("resnet18"), {});
        const MeasuredLayers layers =
            trtexecLayers(test::resnet18Trt10Layers(), test::resnet18Trt10LayerInfo());
        const std::vector<LayerMapping> mappings = mapProfile(layers, workload);
        QCOMPARE(int(mappings.size()), 6);
        QVERIFY(mappings[0].kind == MappingKind::Overhead);
        QCOMPARE(int(mappings[1].nodes.size()), 2); // Metadata: /conv1/Conv, /relu/Relu
        QCOMPARE(mappings[2].nodes, std::vector<int>{2});
        QCOMPARE(int(mappings[3].nodes.size()), 46); // /layer1/layer1.0/conv1/Conv (3) ... /fc/Gemm (48)
        QCOMPARE(mappings[3].nodes.front(), 3);
        QCOMPARE(mappings[3].nodes.back(), 48);
        QCOMPARE(mappings[4].nodes, mappings[3].nodes); // its [profile 1] twin
        QVERIFY(mappings[5].kind == MappingKind::Unmapped);
        QCOMPARE(coveredNodes(mappings, workload.layers.size()), 49);
    }

    void oldNamesModelFromFile() {
        QTemporaryDir dir;
        const QString model = dir.filePath("old.onnx");
        QVERIFY(test::writeOldNamesModel(model));
        const Workload workload = analyzeModelFile(model.toStdString(), {});
        QCOMPARE(int(workload.layers.size()), 9);
        QCOMPARE(workload.layers[4].name, std::string("Add_4"));
        const std::vector<LayerMapping> mappings =
            mapProfile(trtexecLayers(test::oldNamesTrt86Layers()), workload);
        QCOMPARE(mappings[2].nodes, (std::vector<int>{3, 4, 5}));
        QCOMPARE(count(mappings, MappingKind::Overhead), 2); // Flatten_7 copy, the reformat
        QCOMPARE(coveredNodes(mappings, workload.layers.size()),
                 8); // all but Flatten_7 (its copy is overhead)
    }

    void comparisonSumsSortsAndTotals() {
        Workload w = workloadOf(
            {{"A", OpKind::Matrix}, {"B", OpKind::Vector}, {"C", OpKind::Vector}, {"D", OpKind::Vector}});
        w.layers[0].flops = 4000000;
        w.layers[0].inputBytes = 1000;
        w.layers[1].flops = 2000000;
        w.layers[1].outputBytes = 3000;
        ModelPrediction prediction;
        prediction.profile.mode.name = "MAXN";
        prediction.provenance = Provenance::Estimate;
        prediction.latencySeconds = 5e-3;
        prediction.profile.ceilings.peakFlops[size_t(ComputeClass::Fp32CudaCore)].value = 1e12;
        prediction.profile.ceilings.bandwidth.value = 1e10;
        const double seconds[] = {1e-3, 2e-3, 0.5e-3, 1e-3};
        const Bound bounds[] = {Bound::Compute, Bound::Memory, Bound::Overhead, Bound::Memory};
        for (int i = 0; i < 4; ++i) {
            LayerPrediction p;
            p.seconds = seconds[i];
            p.bound = bounds[i];
            prediction.layers.push_back(p);
        }
        MeasuredLayers profile;
        profile.source = "trtexec";
        profile.file = "p.json";
        const std::vector<std::pair<std::string, double>> times = {
            {"A + B", 2.0},   {"C", 0.8},
            {"D", 1.0},       {"Reformatting CopyNode for Input Tensor 0 to C", 0.1},
            {"mystery", 0.2}, {"C + D", 0.0}};
        for (const auto& [name, ms] : times) {
            MeasuredLayer layer;
            layer.name = name;
            layer.ms = ms;
            profile.layers.push_back(layer);
        }
        const Comparison c = compareLayers(profile, mapProfile(profile, w), w, prediction);
        QCOMPARE(c.mode, std::string("MAXN"));
        QCOMPARE(c.source, std::string("trtexec"));
        QCOMPARE(c.measuredTotalMs, 4.1);
        QCOMPARE(c.unmappedMs, 0.3);
        QCOMPARE(c.predictedTotalMs, 4.5); // A + B + C + D, C and D once though two layers cover them
        QCOMPARE(c.coveredNodes, 4);
        QCOMPARE(int(c.layers.size()), 6);
        // worst-predicted first: +50 %, -37.5 %, 0 %; then the layers without an error by time
        QCOMPARE(c.layers[0].name, std::string("A + B"));
        QCOMPARE(c.layers[0].nodes, (Strings{"A", "B"}));
        QCOMPARE(*c.layers[0].predictedMs, 3.0);
        QCOMPARE(*c.layers[0].errorPct, 50.0);
        QCOMPARE(*c.layers[0].achievedFlops, 6e6 / 2e-3);
        QCOMPARE(*c.layers[0].intensity, 6e6 / 4000);
        QCOMPARE(c.layers[0].bound, std::string("memory")); // B, the slower node
        // at 1500 FLOP/B the FP32 roof is the peak, 1 TFLOP/s: 3 GFLOP/s reach 0.3 % of it
        QCOMPARE(*c.layers[0].roofPct, 0.3);
        QCOMPARE(c.predictedModelMs, 5.0);
        QCOMPARE(c.layers[1].name, std::string("C"));
        QCOMPARE(*c.layers[1].errorPct, -37.5);
        QVERIFY(!c.layers[1].achievedFlops); // no FLOPs counted
        QCOMPARE(c.layers[1].bound, std::string("overhead"));
        QCOMPARE(*c.layers[2].errorPct, 0.0);
        QCOMPARE(c.layers[3].name, std::string("mystery"));
        QCOMPARE(c.layers[3].bound, std::string("unmapped"));
        QVERIFY(!c.layers[3].predictedMs);
        QCOMPARE(c.layers[4].bound, std::string("overhead"));
        QCOMPARE(c.layers[5].name, std::string("C + D")); // measured 0: predicted, but no error
        QCOMPARE(*c.layers[5].predictedMs, 1.5);
        QVERIFY(!c.layers[5].errorPct);
        QVERIFY(!c.layers[1].roofPct); // no FLOPs, no roof
        // largest misses in milliseconds, mapped layers only: C + D 1.5, A + B 1, C 0.3 (D: 0)
        const std::vector<ComparedLayer> misses = largestMisses(c, 3);
        QCOMPARE(int(misses.size()), 3);
        QCOMPARE(misses[0].name, std::string("C + D"));
        QCOMPARE(misses[1].name, std::string("A + B"));
        QCOMPARE(misses[2].name, std::string("C"));
        QCOMPARE(int(largestMisses(c, 10).size()), 4); // "mystery" and the reformat have no prediction
    }

    void kernelPassesMergeWithToolCounts() {
        const Workload w = workloadOf({{"A", OpKind::Matrix}, {"B", OpKind::Vector}});
        ModelPrediction prediction;
        for (int i = 0; i < 2; ++i) {
            LayerPrediction p;
            p.seconds = 1e-3;
            prediction.layers.push_back(p);
        }
        MeasuredLayers profile;
        profile.source = "ncu";
        for (int pass = 0; pass < 2; ++pass)
            for (const char* name : {"gemm", "norm"}) {
                MeasuredLayer kernel;
                kernel.name = name;
                kernel.ms = pass == 0 ? 1.0 : 3.0;
                kernel.flops = std::string(name) == "gemm" ? 8e6 : -1.0;
                kernel.dramBytes = 2e3;
                profile.layers.push_back(kernel);
            }
        const Comparison c = compareLayers(profile, mapProfile(profile, w), w, prediction);
        QCOMPARE(int(c.layers.size()), 2); // the two passes of each kernel merged
        QCOMPARE(c.measuredTotalMs, 4.0);  // (1 + 3) / 2 per kernel
        const ComparedLayer& gemm = c.layers[0].name == "gemm" ? c.layers[0] : c.layers[1];
        QCOMPARE(gemm.measuredMs, 2.0);
        QVERIFY(gemm.toolCounts);
        QCOMPARE(*gemm.achievedFlops, 8e6 / 2e-3);
        QCOMPARE(*gemm.intensity, 8e6 / 2e3);
        QCOMPARE(*gemm.errorPct, -50.0);
    }
};

ROOFTOP_TEST_CLASS(CompareMapping)
#include "test_compare_mapping.moc"
