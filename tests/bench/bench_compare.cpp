// SPDX-License-Identifier: GPL-3.0-or-later
// Importing a 5,000-layer trtexec profile with its detailed layer info (Metadata with raw \x1F separators),
// and then mapping every layer to the 10,000 ONNX nodes of a synthetic model: the target is under 50 ms.
#include "core/compare/node_mapping.h"
#include "core/compare/trtexec_import.h"
#include "core/compare/trtexec_layer_info.h"
#include "core/measure/trtexec_layer_profile.h"

#include <benchmark/benchmark.h>
#include <string>

namespace {

constexpr int layerCount = 5000;

std::string nodeName(int layer, const char* op) {
    return "/model/encoder/block" + std::to_string(layer) + "/" + op;
}

std::string layerName(int i) {
    return nodeName(i, "conv/Conv") + " + onnx::Mul_" + std::to_string(4000 + i) + " + " +
           nodeName(i, "act/Relu");
}

const std::string& profileJson() {
    static const std::string json = [] {
        std::string text = "[\n  { \"count\" : 641 }\n";
        for (int i = 0; i < layerCount; ++i)
            text += ", { \"name\" : \"" + layerName(i) +
                    "\", \"timeMs\" : 28.9723, \"averageMs\" : 0.0451986, \"medianMs\" : 0.044224, "
                    "\"percentage\" : 0.02 }\n";
        return text + "]\n";
    }();
    return json;
}

const std::string& layerInfoJson() {
    static const std::string json = [] {
        std::string text = "{\"Layers\": [\n";
        for (int i = 0; i < layerCount; ++i)
            text += std::string(i ? "," : "") + "{\"Name\": \"" + layerName(i) +
                    "\", \"LayerType\": \"CaskConvolution\", \"Inputs\": [{\"Name\": \"x\", \"Location\": "
                    "\"Device\", \"Dimensions\": [1,64,56,56], \"Format/Datatype\": \"Channel major FP16 "
                    "format\"}], "
                    "\"Outputs\": [], \"StreamId\": 0, \"Metadata\": \"[ONNX Layer: " +
                    nodeName(i, "conv/Conv") + "]\x1f[ONNX Layer: " + nodeName(i, "act/Relu") + "]\"}\n";
        return text + "], \"Bindings\": [\"input\"]}\n";
    }();
    return json;
}

const rooftop::Workload& workload() {
    static const rooftop::Workload w = [] {
        rooftop::Workload model;
        for (int i = 0; i < layerCount; ++i)
            for (const char* op : {"conv/Conv", "act/Relu"}) {
                rooftop::LayerCount layer;
                layer.name = nodeName(i, op);
                model.layers.push_back(layer);
            }
        return model;
    }();
    return w;
}

rooftop::MeasuredLayers import() {
    return rooftop::joinTrtexecLayers(rooftop::parseTrtexecLayerProfile(profileJson(), "profile.json"),
                                      rooftop::parseTrtexecLayerInfo(layerInfoJson(), "graph.json"),
                                      "profile.json");
}

void importProfileAndLayerInfo(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(import().layers.size());
    state.counters["layers"] = double(import().layers.size());
    state.counters["bytes"] = double(profileJson().size() + layerInfoJson().size());
}

void importAndMap(benchmark::State& state) {
    int64_t mapped = 0;
    for (auto _ : state) {
        const std::vector<rooftop::LayerMapping> mappings = rooftop::mapProfile(import(), workload());
        mapped = static_cast<int64_t>(mappings.size());
        benchmark::DoNotOptimize(mappings.data());
    }
    state.counters["layers"] = double(mapped);
}

void mapByNamesOnly(benchmark::State& state) {
    rooftop::MeasuredLayers layers =
        rooftop::joinTrtexecLayers(rooftop::parseTrtexecLayerProfile(profileJson(), "profile.json"), {}, "p");
    for (auto _ : state)
        benchmark::DoNotOptimize(rooftop::mapProfile(layers, workload()).size());
}

} // namespace

BENCHMARK(importProfileAndLayerInfo)->Unit(benchmark::kMillisecond);
BENCHMARK(importAndMap)->Unit(benchmark::kMillisecond);
BENCHMARK(mapByNamesOnly)->Unit(benchmark::kMillisecond);

namespace {
void profileOnly(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(rooftop::parseTrtexecLayerProfile(profileJson(), "p").size());
}
void layerInfoOnly(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(rooftop::parseTrtexecLayerInfo(layerInfoJson(), "g").size());
}
void metadataOnly(benchmark::State& state) {
    const std::string m =
        "[ONNX Layer: /model/encoder/block1/conv/Conv]\x1f[ONNX Layer: /model/encoder/block1/act/Relu]";
    for (auto _ : state)
        for (int i = 0; i < layerCount; ++i)
            benchmark::DoNotOptimize(rooftop::metadataNodeNames(m).size());
}
} // namespace
BENCHMARK(profileOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(layerInfoOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(metadataOnly)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
