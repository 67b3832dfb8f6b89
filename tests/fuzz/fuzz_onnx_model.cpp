// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the ONNX path end to end: protobuf parse, validation, dim binding, shape inference, counting.
#include "core/cost/workload.h"
#include "core/graph/checked_math.h"
#include "core/common/errors.h"
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        rooftop::AnalysisSettings settings;
        rooftop::Graph graph = rooftop::graphFromModel(rooftop::parseModelBytes(data, size, "fuzz input"),
                                                       settings.dims, "fuzz input");
        rooftop::analyzeGraph(graph, settings);
        settings.traffic = rooftop::TrafficView::Fused;
        settings.precision = rooftop::Precision::INT8;
        rooftop::analyzeGraph(graph, settings);
    } catch (const rooftop::InputError&) {
    } catch (const rooftop::CountOverflow&) {
    }
    return 0;
}
