// SPDX-License-Identifier: GPL-3.0-or-later
// Load + analyze time of every sample network, and the memory a model with gigabytes of external weights
// costs to load (it must not depend on the size of those weights).
#include "core/cost/workload.h"
#include "core/onnx/model_graph.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <onnx/onnx_pb.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::string samplePath(const std::string& name) {
    return std::string(ROOFTOP_BENCH_MODELS_DIR) + "/" + name + ".onnx";
}

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

std::string benchFolder() {
    const std::filesystem::path folder =
        std::filesystem::temp_directory_path() / ("rooftop-bench-" + std::to_string(getpid()));
    std::filesystem::create_directories(folder);
    return folder.string();
}

// A model whose weights (gigabytes declared) live in a sparse external file next to it.
std::string writeHugeExternalModel(int64_t gibibytes) {
    const std::string folder = benchFolder();
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

// Loads and analyzes the file on every iteration; returns the most the resident set grew in one.
long timeLoads(benchmark::State& state, const std::string& path) {
    long growth = 0;
    for (auto _ : state) {
        const long before = residentKiB();
        rooftop::Workload workload = rooftop::analyzeModelFile(path, {});
        growth = std::max(growth, residentKiB() - before);
        benchmark::DoNotOptimize(workload.totals.weightBytes);
    }
    return growth;
}

void BM_LoadHugeExternalWeights(benchmark::State& state) {
    const std::string path = writeHugeExternalModel(state.range(0));
    const long growth = timeLoads(state, path);
    state.counters["external_GiB"] = double(state.range(0));
    state.counters["rss_growth_KiB"] = double(growth);
    std::remove(path.c_str());
}

std::string writeModel(const onnx::ModelProto& model, const std::string& name) {
    const std::string path = benchFolder() + "/" + name;
    std::ofstream out(path, std::ios::binary);
    model.SerializeToOstream(&out);
    return path;
}

onnx::ModelProto emptyModel(const std::string& name) {
    onnx::ModelProto model;
    model.set_ir_version(8);
    model.add_opset_import()->set_version(17);
    model.mutable_graph()->set_name(name);
    return model;
}

void addInput(onnx::GraphProto& graph, const std::string& name, const std::vector<int64_t>& dims) {
    auto* input = graph.add_input();
    input->set_name(name);
    auto* type = input->mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims)
        type->mutable_shape()->add_dim()->set_dim_value(d);
}

onnx::NodeProto& addNode(onnx::GraphProto& graph, const std::string& op, std::vector<std::string> inputs,
                         const std::string& output) {
    auto* node = graph.add_node();
    node->set_op_type(op);
    node->set_name(output);
    for (auto& in : inputs)
        node->add_input(in);
    node->add_output(output);
    return *node;
}

void addInt64Constant(onnx::GraphProto& graph, const std::string& name, const std::vector<int64_t>& values) {
    auto* t = graph.add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values)
        t->add_int64_data(v);
}

// A chain of 16 square MatMuls whose float weights (megabytes in all) are embedded in the file.
std::string writeEmbeddedWeightModel(int64_t megabytes) {
    onnx::ModelProto model = emptyModel("embedded");
    auto& graph = *model.mutable_graph();
    const int layers = 16;
    const auto side = static_cast<int64_t>(std::sqrt(double(megabytes << 20) / layers / 4.0));
    addInput(graph, "x", {1, side});
    std::string previous = "x";
    for (int i = 0; i < layers; ++i) {
        auto* w = graph.add_initializer();
        w->set_name("w" + std::to_string(i));
        w->set_data_type(onnx::TensorProto::FLOAT);
        w->add_dims(side);
        w->add_dims(side);
        w->mutable_raw_data()->assign(static_cast<size_t>(side * side * 4), '\1');
        const std::string out = "y" + std::to_string(i);
        addNode(graph, "MatMul", {previous, w->name()}, out);
        previous = out;
    }
    graph.add_output()->set_name(previous);
    return writeModel(model, "embedded-" + std::to_string(megabytes) + "mb.onnx");
}

void BM_LoadEmbeddedWeights(benchmark::State& state) {
    const std::string path = writeEmbeddedWeightModel(state.range(0));
    const long growth = timeLoads(state, path);
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    state.counters["file_MB"] = double(file.tellg()) / 1e6;
    state.counters["rss_growth_KiB"] = double(growth);
    std::remove(path.c_str());
}

// Swin-like blocks (window partition by shape arithmetic, attention, MLP) repeated to about 3,000 nodes.
std::string writeSwinLikeModel(int blocks) {
    onnx::ModelProto model = emptyModel("swin_like");
    auto& graph = *model.mutable_graph();
    const int64_t tokens = 64, channels = 96, heads = 3;
    addInput(graph, "x", {1, tokens, channels});
    addInt64Constant(graph, "i0", {0});
    addInt64Constant(graph, "i1", {1});
    addInt64Constant(graph, "i2", {2});
    addInt64Constant(graph, "heads", {heads});
    addInt64Constant(graph, "minus1", {-1});
    std::string x = "x";
    for (int b = 0; b < blocks; ++b) {
        const std::string p = "b" + std::to_string(b) + "/";
        for (const char* w : {"q", "k", "v", "o", "fc1", "fc2"}) {
            auto* t = graph.add_initializer();
            t->set_name(p + w);
            t->set_data_type(onnx::TensorProto::FLOAT);
            const bool up = std::string(w) == "fc1", down = std::string(w) == "fc2";
            t->add_dims(down ? channels * 4 : channels);
            t->add_dims(up ? channels * 4 : channels);
        }
        // shape arithmetic: [batch, tokens, heads, channels / heads] from Shape of the input
        addNode(graph, "Shape", {x}, p + "shape");
        addNode(graph, "Gather", {p + "shape", "i0"}, p + "batch");
        addNode(graph, "Gather", {p + "shape", "i1"}, p + "tokens");
        addNode(graph, "Gather", {p + "shape", "i2"}, p + "channels");
        addNode(graph, "Div", {p + "channels", "heads"}, p + "head_dim");
        addNode(graph, "Concat", {p + "batch", p + "tokens", "heads", p + "head_dim"}, p + "split_shape")
            .add_attribute()
            ->set_name("axis");
        addNode(graph, "Concat", {p + "batch", p + "tokens", "minus1"}, p + "merge_shape")
            .add_attribute()
            ->set_name("axis");
        std::string qkv[3];
        for (int i = 0; i < 3; ++i) {
            const std::string w = i == 0 ? "q" : i == 1 ? "k" : "v";
            addNode(graph, "MatMul", {x, p + w}, p + w + "_proj");
            addNode(graph, "Reshape", {p + w + "_proj", p + "split_shape"}, p + w + "_heads");
            auto& perm = addNode(graph, "Transpose", {p + w + "_heads"}, p + w + "_t");
            auto* attr = perm.add_attribute();
            attr->set_name("perm");
            attr->set_type(onnx::AttributeProto::INTS);
            for (int64_t d : i == 1 ? std::vector<int64_t>{0, 2, 3, 1} : std::vector<int64_t>{0, 2, 1, 3})
                attr->add_ints(d);
            qkv[i] = p + w + "_t";
        }
        addNode(graph, "MatMul", {qkv[0], qkv[1]}, p + "scores");
        addNode(graph, "Softmax", {p + "scores"}, p + "attn");
        addNode(graph, "MatMul", {p + "attn", qkv[2]}, p + "context");
        auto& back = addNode(graph, "Transpose", {p + "context"}, p + "context_t");
        auto* perm = back.add_attribute();
        perm->set_name("perm");
        perm->set_type(onnx::AttributeProto::INTS);
        for (int64_t d : {0, 2, 1, 3})
            perm->add_ints(d);
        addNode(graph, "Reshape", {p + "context_t", p + "merge_shape"}, p + "merged");
        addNode(graph, "MatMul", {p + "merged", p + "o"}, p + "attn_out");
        addNode(graph, "Add", {x, p + "attn_out"}, p + "residual");
        addNode(graph, "MatMul", {p + "residual", p + "fc1"}, p + "hidden");
        addNode(graph, "Relu", {p + "hidden"}, p + "act");
        addNode(graph, "MatMul", {p + "act", p + "fc2"}, p + "mlp");
        addNode(graph, "Add", {p + "residual", p + "mlp"}, p + "out");
        x = p + "out";
    }
    for (auto& node : *graph.mutable_node())
        for (auto& attr : *node.mutable_attribute())
            if (attr.name() == "axis") attr.set_type(onnx::AttributeProto::INT); // Concat along axis 0
    graph.add_output()->set_name(x);
    return writeModel(model, "swin_like.onnx");
}

void BM_SwinLikeGraph(benchmark::State& state) {
    const std::string path = writeSwinLikeModel(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        rooftop::Workload workload = rooftop::analyzeModelFile(path, {});
        benchmark::DoNotOptimize(workload.totals.macs);
    }
    const rooftop::Workload workload = rooftop::analyzeModelFile(path, {});
    state.counters["nodes"] = double(workload.layers.size());
    state.counters["GMACs"] = double(workload.totals.macs) / 1e9;
    std::remove(path.c_str());
}

} // namespace

BENCHMARK_CAPTURE(loadAndAnalyze, resnet18, std::string("resnet18"), rooftop::AnalysisSettings{})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, resnet50, std::string("resnet50"), rooftop::AnalysisSettings{})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, mobilenet_v2, std::string("mobilenet_v2"), rooftop::AnalysisSettings{})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, mobilenet_v3_large, std::string("mobilenet_v3_large"),
                  rooftop::AnalysisSettings{})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, efficientnet_b0, std::string("efficientnet_b0"),
                  rooftop::AnalysisSettings{})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, vit_b_16, std::string("vit_b_16"), rooftop::AnalysisSettings{})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, bert_base, std::string("bert_base"),
                  [] {
                      rooftop::AnalysisSettings s;
                      s.dims.named["sequence"] = 128;
                      return s;
                  }())
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(loadAndAnalyze, lstm, std::string("lstm"), rooftop::AnalysisSettings{})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadEmbeddedWeights)->Arg(20)->Arg(500)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_SwinLikeGraph)->Arg(110)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadHugeExternalWeights)->Arg(1)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
