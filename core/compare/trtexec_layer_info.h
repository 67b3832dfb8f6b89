// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// One engine layer of trtexec's --exportLayerInfo JSON.
struct EngineLayerInfo {
    std::string name; ///< the layer's name in the engine
    std::string type; ///< LayerType ("CaskConvolution", "Reformat"); empty in the names-only form
    std::vector<std::string> onnxNodes; ///< the `[ONNX Layer: NAME]` entries of Metadata, in order
    bool reformat = false;              ///< LayerType, ParameterType or Origin says Reformat
    std::vector<std::vector<int64_t>>
        outputDims; ///< each output's Dimensions (detailed form); -1 where dynamic
};

/// The ONNX node names in a layer's Metadata: entries `[ONNX Layer: NAME]` separated by raw \x1E / \x1F
/// (or '+', as TREx rewrites them).
std::vector<std::string> metadataNodeNames(const std::string& metadata);

/// Reads trtexec's --exportLayerInfo JSON, both forms: `{"Layers": ["name", ...]}` (layer_names_only) and
/// `{"Layers": [{"Name", "LayerType", "Metadata", ...}, ...]}` (detailed); raw control characters inside
/// strings are accepted. Throws InputError "WHERE: trtexec layer info: ..." naming the layer and the field.
std::vector<EngineLayerInfo> parseTrtexecLayerInfo(const std::string& json, const std::string& where);

} // namespace rooftop
