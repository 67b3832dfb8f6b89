// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compare/trtexec_import.h"

#include <unordered_map>

namespace rooftop {

namespace {

void applyInfo(MeasuredLayer& layer, const EngineLayerInfo& info) {
    layer.type = info.type;
    layer.onnxNodes = info.onnxNodes;
    layer.reformat = info.reformat;
    layer.outputDims = info.outputDims;
}

} // namespace

MeasuredLayers joinTrtexecLayers(const std::vector<LayerTime>& profile,
                                 const std::vector<EngineLayerInfo>& info, const std::string& file) {
    MeasuredLayers result;
    result.source = "trtexec";
    result.file = file;
    result.layers.reserve(profile.size());
    for (const LayerTime& time : profile) {
        MeasuredLayer layer;
        layer.name = time.name;
        layer.ms = time.averageMs;
        result.layers.push_back(std::move(layer));
    }
    if (info.empty()) return result;

    // name -> the positions of the info layers of that name, in order
    std::unordered_map<std::string, std::vector<size_t>> byName;
    for (size_t i = 0; i < info.size(); ++i)
        byName[info[i].name].push_back(i);
    std::unordered_map<std::string, size_t> seen;
    size_t matched = 0;
    for (MeasuredLayer& layer : result.layers) {
        const auto found = byName.find(layer.name);
        if (found == byName.end()) continue;
        size_t& k = seen[layer.name];
        if (k < found->second.size()) {
            applyInfo(layer, info[found->second[k]]);
            ++matched;
        }
        ++k;
    }
    if (matched == 0 && info.size() == result.layers.size())
        for (size_t i = 0; i < info.size(); ++i)
            applyInfo(result.layers[i], info[i]);
    return result;
}

} // namespace rooftop
