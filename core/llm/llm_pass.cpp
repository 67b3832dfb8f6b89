// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/llm/llm_pass.h"

#include "core/common/errors.h"
#include "core/cost/traffic.h"
#include "core/graph/checked_math.h"
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"

namespace rooftop {
namespace {

// The merged decoder's branch as a constant: inlineConstantIfs then keeps only the branch the phase takes.
void fixUseCacheBranch(onnx::ModelProto& model, const std::string& name, bool useCache) {
    auto* inputs = model.mutable_graph()->mutable_input();
    for (int i = 0; i < inputs->size(); ++i)
        if (inputs->Get(i).name() == name) {
            inputs->DeleteSubrange(i, 1);
            break;
        }
    onnx::TensorProto* constant = model.mutable_graph()->add_initializer();
    constant->set_name(name);
    constant->set_data_type(onnx::TensorProto::BOOL);
    constant->add_dims(1);
    constant->add_int32_data(useCache ? 1 : 0);
}

int64_t weightBytesOf(const Graph& graph, Precision precision) {
    int64_t total = 0;
    for (const Tensor& tensor : graph.tensors)
        if (tensor.isWeight() && !isMetadataTensor(tensor) && tensor.shapeKnown)
            total = checkedAdd(total, tensorBytes(tensor, precision));
    return total;
}

} // namespace

LlmPass meanDecodeStep(int64_t batch, int64_t prompt, int64_t generate) {
    return {batch, 1, prompt + (generate - 1) / 2};
}

AnalysisSettings runtimeLlmSettings(Precision precision, const std::map<std::string, int64_t>& dims) {
    AnalysisSettings settings;
    settings.precision = precision;
    settings.traffic = TrafficView::Fused;
    settings.dims.named = dims;
    return settings;
}

bool isLlmDecoder(const std::string& path) {
    try {
        const onnx::ModelProto model = loadModelFile(path);
        recognizeDecoder(model, DimBindings{}, path);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

LlmCounter::LlmCounter(const std::string& path, const AnalysisSettings& settings)
    : path_(path), settings_(settings), model_(loadModelFile(path)),
      signature_(recognizeDecoder(model_, settings.dims, path)) {
    kvBytesPerToken_ = 0;
    for (size_t i = 0; i < signature_.caches.size() * 2; ++i)
        kvBytesPerToken_ =
            checkedAdd(kvBytesPerToken_, precisionBytes(checkedMul(signature_.kvHeads, signature_.headDim),
                                                        signature_.kvType, settings_.precision));
    // The weights as one decode step at context 2 holds them (the graph without the prefill branch).
    onnx::ModelProto copy = model_;
    if (!signature_.useCacheInput.empty()) fixUseCacheBranch(copy, signature_.useCacheInput, true);
    DimBindings dims = settings_.dims;
    dims.named[signature_.roles.batch] = 1;
    dims.named[signature_.roles.sequence] = 1;
    dims.named[signature_.roles.past] = 1;
    if (!signature_.roles.total.empty()) dims.named[signature_.roles.total] = 2;
    weightBytes_ = weightBytesOf(graphFromModel(std::move(copy), dims, path_), settings_.precision);
}

LlmPassCount LlmCounter::count(const LlmPass& pass) const {
    if (pass.batch < 1 || pass.sequence < 1 || pass.past < 0)
        throw InputError(path_ +
                         ": a pass needs a batch and new tokens of at least 1 and a past of at least 0");
    onnx::ModelProto copy = model_;
    if (!signature_.useCacheInput.empty()) fixUseCacheBranch(copy, signature_.useCacheInput, pass.past > 0);
    DimBindings dims = settings_.dims;
    dims.named[signature_.roles.batch] = pass.batch;
    dims.named[signature_.roles.sequence] = pass.sequence;
    dims.named[signature_.roles.past] = pass.past;
    if (!signature_.roles.total.empty()) dims.named[signature_.roles.total] = pass.context();
    const Graph graph = graphFromModel(std::move(copy), dims, path_);
    LlmPassCount counted;
    counted.pass = pass;
    try {
        counted.workload = analyzeGraph(graph, settings_);
    } catch (const CountOverflow&) {
        throw InputError(path_ + ": counts overflow 64 bits (absurd prompt, context or batch)");
    }
    counted.kv = applyKvTraffic(counted.workload, graph, signature_);
    return counted;
}

} // namespace rooftop
