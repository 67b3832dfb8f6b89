// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the ONNX path end to end: protobuf parse, validation, dim binding, shape inference, counting. A
// model whose operators our own rules all know is inferred both ways: by them alone and through ONNX's
// inference.
#include "core/common/errors.h"
#include "core/cost/workload.h"
#include "core/graph/checked_math.h"
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"
#include "core/onnx/shape_inference.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        rooftop::AnalysisSettings settings;
        const onnx::ModelProto model = rooftop::parseModelBytes(data, size, "fuzz input");
        if (rooftop::ownRulesKnowEveryOperator(model)) {
            setenv("ROOFTOP_ONNX_INFERENCE_ALWAYS", "1", 1);
            try {
                rooftop::graphFromModel(model, settings.dims, "fuzz input");
            } catch (const rooftop::InputError&) {
            } catch (const rooftop::CountOverflow&) {
            }
            unsetenv("ROOFTOP_ONNX_INFERENCE_ALWAYS");
        }
        rooftop::Graph graph = rooftop::graphFromModel(model, settings.dims, "fuzz input");
        rooftop::analyzeGraph(graph, settings);
        settings.traffic = rooftop::TrafficView::Fused;
        settings.precision = rooftop::Precision::INT8;
        rooftop::analyzeGraph(graph, settings);
    } catch (const rooftop::InputError&) {
    } catch (const rooftop::CountOverflow&) {
    }
    return 0;
}
