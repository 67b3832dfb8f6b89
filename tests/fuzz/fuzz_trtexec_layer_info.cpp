// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the trtexec --exportLayerInfo reader and the name mapping of its layers: InputError is the only
// allowed way out, every layer read has a name, and a mapping's nodes are valid, ascending node indices.
#include "core/common/errors.h"
#include "core/compare/node_mapping.h"
#include "core/compare/trtexec_layer_info.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    static const rooftop::Workload workload = [] {
        rooftop::Workload w;
        for (const char* name : {"/conv1/Conv", "/relu/Relu", "Conv_0", "Relu_1", "/fc/Gemm"}) {
            rooftop::LayerCount layer;
            layer.name = name;
            w.layers.push_back(layer);
        }
        return w;
    }();
    static const rooftop::NodeIndex nodes(workload);
    try {
        for (const rooftop::EngineLayerInfo& info : rooftop::parseTrtexecLayerInfo(text, "fuzz")) {
            if (info.name.empty()) std::abort();
            rooftop::MeasuredLayer layer;
            layer.name = info.name;
            layer.onnxNodes = info.onnxNodes;
            layer.reformat = info.reformat;
            const rooftop::LayerMapping mapping = rooftop::mapTensorRtLayer(layer, nodes);
            for (size_t i = 0; i < mapping.nodes.size(); ++i)
                if (mapping.nodes[i] < 0 || mapping.nodes[i] >= nodes.size() ||
                    (i > 0 && mapping.nodes[i] <= mapping.nodes[i - 1]))
                    std::abort();
        }
    } catch (const rooftop::InputError&) {
    }
    (void)rooftop::tensorRtNameTokens(text);
    (void)rooftop::metadataNodeNames(text);
    return 0;
}
