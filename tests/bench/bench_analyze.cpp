// SPDX-License-Identifier: GPL-3.0-or-later
// Load + analyze time of every sample network, and the memory a model with gigabytes of external weights
// costs to load (it must not depend on the size of those weights).
#include "core/cost/workload.h"
#include "core/onnx/model_graph.h"

#include <benchmark/benchmark.h>
#include <onnx/onnx_pb.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

std::string samplePath(const std::string& name) { return std::string(ROOFTOP_BENCH_MODELS_DIR) + "/" + name + ".onnx"; }

// Resident set size now, in KiB (from /proc/self/statm).
long residentKiB() {
    long pages = 0, resident = 0;
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

void loadAndAnalyze(benchmark::State& state, const std::string& name, rooftop::AnalysisSettings settings) {
    const std::string path = samplePath(name);
    for (auto _ : state) {
        rooftop::Workload workload = rooftop::analyzeModelFile(path, settings);
        benchmark::DoNotOptimize(workload.totals.flops);
    }
    state.counters["layers"] = double(rooftop::analyzeModelFile(path, settings).layers.size());
}

// A model whose weights (gigabytes declared) live in a sparse external file next to it.
std::string writeHugeExternalModel(int64_t gibibytes) {
    const std::string folder = "/tmp/rooftop-bench-" + std::to_string(getpid());
    std::system(("mkdir -p " + folder).c_str());
    const std::string data = folder + "/huge.bin";
    if (FILE* f = std::fopen(data.c_str(), "w")) std::fclose(f);
    if (truncate(data.c_str(), gibibytes << 30) != 0) return {};
    onnx::ModelProto model;
    model.set_ir_version(8);
    model.add_opset_import()->set_version(17);
    auto* graph = model.mutable_graph();
    graph->set_name("huge");
    const int64_t rows = (gibibytes << 30) / 4 / 4096;
    auto* input = graph->add_input();
    input->set_name("x");
    auto* type = input->mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::FLOAT);
    type->mutable_shape()->add_dim()->set_dim_value(1);
    type->mutable_shape()->add_dim()->set_dim_value(rows);
    auto* weight = graph->add_initializer();
    weight->set_name("w");
    weight->set_data_type(onnx::TensorProto::FLOAT);
    weight->add_dims(rows);
    weight->add_dims(4096);
    weight->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* location = weight->add_external_data();
    location->set_key("location");
    location->set_value("huge.bin");
    auto* node = graph->add_node();
    node->set_op_type("MatMul");
    node->add_input("x");
    node->add_input("w");
    node->add_output("y");
    graph->add_output()->set_name("y");
    const std::string path = folder + "/huge.onnx";
    std::ofstream out(path, std::ios::binary);
    model.SerializeToOstream(&out);
    return path;
}

void BM_LoadHugeExternalWeights(benchmark::State& state) {
    const std::string path = writeHugeExternalModel(state.range(0));
    long growth = 0;
    for (auto _ : state) {
        const long before = residentKiB();
        rooftop::Workload workload = rooftop::analyzeModelFile(path, {});
        growth = std::max(growth, residentKiB() - before);
        benchmark::DoNotOptimize(workload.totals.weightBytes);
    }
    state.counters["external_GiB"] = double(state.range(0));
    state.counters["rss_growth_KiB"] = double(growth);
    std::remove(path.c_str());
}

} // namespace

BENCHMARK_CAPTURE(loadAndAnalyze, resnet18, std::string("resnet18"), rooftop::AnalysisSettings{})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, resnet50, std::string("resnet50"), rooftop::AnalysisSettings{})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, mobilenet_v2, std::string("mobilenet_v2"), rooftop::AnalysisSettings{})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, mobilenet_v3_large, std::string("mobilenet_v3_large"), rooftop::AnalysisSettings{})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, efficientnet_b0, std::string("efficientnet_b0"), rooftop::AnalysisSettings{})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, vit_b_16, std::string("vit_b_16"), rooftop::AnalysisSettings{})->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, bert_base, std::string("bert_base"), [] {
    rooftop::AnalysisSettings s;
    s.dims.named["sequence"] = 128;
    return s;
}())->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, lstm, std::string("lstm"), rooftop::AnalysisSettings{})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadHugeExternalWeights)->Arg(1)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
