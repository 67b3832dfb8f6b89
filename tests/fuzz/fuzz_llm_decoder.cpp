// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the LLM path: a decoder's recognition (KV cache names and layouts, dim roles, position table), one
// decode step bound and counted, and the KV cache's traffic in the fused and per-node views.
#include "core/common/errors.h"
#include "core/cost/workload.h"
#include "core/graph/checked_math.h"
#include "core/llm/kv_traffic.h"
#include "core/llm/llm_signature.h"
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const onnx::ModelProto model = rooftop::parseModelBytes(data, size, "fuzz input");
        const rooftop::LlmSignature signature = rooftop::recognizeDecoder(model, {}, "fuzz input");
        rooftop::AnalysisSettings settings;
        settings.dims.named[signature.roles.batch] = 2;
        settings.dims.named[signature.roles.sequence] = 1;
        settings.dims.named[signature.roles.past] = 5;
        if (!signature.roles.total.empty()) settings.dims.named[signature.roles.total] = 6;
        const rooftop::Graph graph = rooftop::graphFromModel(model, settings.dims, "fuzz input");
        for (const rooftop::TrafficView view : {rooftop::TrafficView::Fused, rooftop::TrafficView::PerNode}) {
            settings.traffic = view;
            rooftop::Workload workload = rooftop::analyzeGraph(graph, settings);
            rooftop::applyKvTraffic(workload, graph, signature);
        }
    } catch (const rooftop::InputError&) {
    } catch (const rooftop::CountOverflow&) {
    }
    return 0;
}
