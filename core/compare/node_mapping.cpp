// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/compare/node_mapping.h"

#include "core/common/text_format.h"
#include "core/roofline/prediction.h"

#include <algorithm>
#include <cctype>

namespace rooftop {

namespace {

std::string trim(const std::string& text) {
    const size_t begin = text.find_first_not_of(' ');
    if (begin == std::string::npos) return "";
    return text.substr(begin, text.find_last_not_of(' ') - begin + 1);
}

bool allDigits(const std::string& text, size_t from, size_t to) {
    if (from >= to) return false;
    for (size_t i = from; i < to; ++i)
        if (text[i] < '0' || text[i] > '9') return false;
    return true;
}

/// The name without a trailing " [profile N]" (engines with several optimization profiles).
std::string stripProfileSuffix(const std::string& name) {
    const std::string marker = " [profile ";
    const size_t at = name.rfind(marker);
    if (at == std::string::npos || name.back() != ']' ||
        !allDigits(name, at + marker.size(), name.size() - 1))
        return name;
    return name.substr(0, at);
}

/// Splits at the separators that lie outside (), [] and {}.
std::vector<std::string> splitTopLevel(const std::string& text, const std::vector<std::string>& separators) {
    std::vector<std::string> parts;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '(' || c == '[' || c == '{') ++depth;
        if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
        if (depth != 0) continue;
        for (const std::string& separator : separators)
            if (text.compare(i, separator.size(), separator) == 0) {
                parts.push_back(text.substr(start, i - start));
                start = i + separator.size();
                i = start - 1;
                break;
            }
    }
    parts.push_back(text.substr(start));
    return parts;
}

void collectTokens(const std::string& text, bool insidePwn, std::vector<std::string>& tokens, int level) {
    const std::string part = trim(text);
    if (part.empty()) return;
    if (level < 64 && startsWith(part, "PWN(") && endsWith(part, ")")) {
        for (const std::string& inner : splitTopLevel(part.substr(4, part.size() - 5), {",", "+"}))
            collectTokens(inner, true, tokens, level + 1);
        return;
    }
    const std::vector<std::string> pieces =
        insidePwn ? splitTopLevel(part, {",", "+"}) : splitTopLevel(part, {" || ", " + "});
    if (pieces.size() > 1 && level < 64) {
        for (const std::string& piece : pieces)
            collectTokens(piece, insidePwn, tokens, level + 1);
        return;
    }
    tokens.push_back(part);
}

/// The node a token inserted by TensorRT or its ONNX parser belongs to (reshape_before_X, reshape_after_X,
/// X_copy_input, X_copy_output, "X copy", X_clone_N); empty when it is none of those.
std::string insertedFor(const std::string& token) {
    for (const char* prefix : {"reshape_before_", "reshape_after_"})
        if (startsWith(token, prefix) && token.size() > std::string(prefix).size())
            return token.substr(std::string(prefix).size());
    for (const char* suffix : {"_copy_input", "_copy_output", " copy"})
        if (endsWith(token, suffix) && token.size() > std::string(suffix).size())
            return token.substr(0, token.size() - std::string(suffix).size());
    const size_t clone = token.rfind("_clone_");
    if (clone != std::string::npos && clone > 0 && allDigits(token, clone + 7, token.size()))
        return token.substr(0, clone);
    return "";
}

void finish(LayerMapping& mapping) {
    std::sort(mapping.nodes.begin(), mapping.nodes.end());
    mapping.nodes.erase(std::unique(mapping.nodes.begin(), mapping.nodes.end()), mapping.nodes.end());
    if (!mapping.nodes.empty()) mapping.kind = MappingKind::Nodes;
}

/// Maps a layer name by its tokens; `overhead` is set when a token is one TensorRT inserted.
LayerMapping mapByName(const std::string& name, const NodeIndex& nodes) {
    LayerMapping mapping;
    const std::string base = stripProfileSuffix(name);
    if (startsWith(base, "Reformatting CopyNode") || startsWith(base, "Reformatted ")) {
        mapping.kind = MappingKind::Overhead;
        return mapping;
    }
    if (nodes.find(base) >= 0) { // a node whose own name has " + " or a comma in it
        mapping.nodes = {nodes.find(base)};
        finish(mapping);
        return mapping;
    }
    bool overhead = false;
    for (const std::string& token : tensorRtNameTokens(base)) {
        const int node = nodes.find(token);
        if (node >= 0) {
            mapping.nodes.push_back(node);
            continue;
        }
        const size_t open = token.find("{ForeignNode[");
        const size_t close = token.rfind("]}");
        if (open != std::string::npos && close != std::string::npos && close > open + 13) {
            const std::string range = token.substr(open + 13, close - open - 13);
            const size_t dots = range.find("...");
            const int first = nodes.find(dots == std::string::npos ? range : range.substr(0, dots));
            const int last = nodes.find(dots == std::string::npos ? range : range.substr(dots + 3));
            if (first >= 0 && last >= 0)
                for (int i = std::min(first, last); i <= std::max(first, last); ++i)
                    mapping.nodes.push_back(i);
            continue;
        }
        if (startsWith(token, "ONNXTRT_castHelper_")) {
            overhead = true;
            continue;
        }
        const std::string owner = insertedFor(token);
        if (!owner.empty() && nodes.find(owner) >= 0) overhead = true;
        // anything else is a folded constant or initializer (onnx::Mul_4104, ONNXTRT_Broadcast_644): ignored
    }
    finish(mapping);
    if (mapping.kind == MappingKind::Unmapped && overhead) mapping.kind = MappingKind::Overhead;
    return mapping;
}

} // namespace

NodeIndex::NodeIndex(const Workload& workload) {
    names_.reserve(workload.layers.size());
    for (const LayerCount& layer : workload.layers) {
        byName_.emplace(layer.name, static_cast<int>(names_.size())); // the first of a repeated name
        names_.push_back(layer.name);
    }
}

int NodeIndex::find(const std::string& name) const {
    if (name.empty()) return -1;
    const auto found = byName_.find(name);
    return found == byName_.end() ? -1 : found->second;
}

std::vector<std::string> tensorRtNameTokens(const std::string& name) {
    std::vector<std::string> tokens;
    collectTokens(stripProfileSuffix(name), false, tokens, 0);
    return tokens;
}

LayerMapping mapNamedLayer(const MeasuredLayer& layer, const NodeIndex& nodes) {
    LayerMapping mapping;
    const std::string fusedPrefix =
        "fused "; // ONNX Runtime's Conv/Gemm + activation fusions: "fused " + name
    for (const std::string& name : layer.onnxNodes) {
        const std::string stripped = stripProfileSuffix(name);
        int node = nodes.find(stripped);
        if (node < 0 && startsWith(stripped, fusedPrefix))
            node = nodes.find(stripped.substr(fusedPrefix.size()));
        if (node >= 0) mapping.nodes.push_back(node);
    }
    finish(mapping);
    return mapping;
}

LayerMapping mapTensorRtLayer(const MeasuredLayer& layer, const NodeIndex& nodes) {
    if (!layer.onnxNodes.empty()) {
        LayerMapping mapping = mapNamedLayer(layer, nodes);
        if (mapping.kind == MappingKind::Nodes) return mapping;
    }
    LayerMapping mapping = mapByName(layer.name, nodes);
    if (mapping.kind != MappingKind::Nodes && layer.reformat) mapping.kind = MappingKind::Overhead;
    return mapping;
}

std::vector<LayerMapping> mapKernels(const std::vector<MeasuredLayer>& kernels, const Workload& workload,
                                     const NodeIndex& nodes) {
    std::vector<LayerMapping> mappings;
    mappings.reserve(kernels.size());
    std::vector<size_t> byOrder; // kernels no name maps
    for (size_t i = 0; i < kernels.size(); ++i) {
        LayerMapping mapping = mapTensorRtLayer(kernels[i], nodes);
        if (mapping.kind != MappingKind::Nodes) byOrder.push_back(i);
        mappings.push_back(std::move(mapping));
    }
    std::vector<int> launching;
    for (size_t i = 0; i < workload.layers.size(); ++i)
        if (dispatchesKernel(workload.layers[i])) launching.push_back(static_cast<int>(i));
    if (launching.empty() || byOrder.empty() || byOrder.size() % launching.size() != 0) return mappings;
    const size_t passes = byOrder.size() / launching.size();
    // Several passes repeat the same kernels in the same order; a count that only happens to be a multiple
    // (one pass with two kernels on some nodes) is no pass structure, and halving its times would be wrong.
    for (size_t k = launching.size(); k < byOrder.size(); ++k)
        if (kernels[byOrder[k]].name != kernels[byOrder[k % launching.size()]].name) return mappings;
    for (size_t k = 0; k < byOrder.size(); ++k) {
        LayerMapping& mapping = mappings[byOrder[k]];
        mapping.kind = MappingKind::Nodes;
        mapping.nodes = {launching[k % launching.size()]};
        mapping.share = 1.0 / static_cast<double>(passes);
    }
    return mappings;
}

namespace {

// "/a/b/Conv" (torch.onnx since 1.13) or "Conv_12" (older exporters, onnx-simplifier); not a tensor name
// ("/a/b/Conv_output_0", which TensorRT names some copies after).
bool looksLikeNodeName(const std::string& token) {
    if (token.size() > 1 && token[0] == '/') {
        const size_t output = token.rfind("_output_");
        return output == std::string::npos || !allDigits(token, output + 8, token.size());
    }
    const size_t underscore = token.rfind('_');
    if (underscore == std::string::npos || underscore == 0 || token[0] < 'A' || token[0] > 'Z') return false;
    for (size_t i = 0; i < underscore; ++i)
        if (!std::isalpha(static_cast<unsigned char>(token[i]))) return false;
    return allDigits(token, underscore + 1, token.size());
}

} // namespace

bool namesAbsentNodes(const MeasuredLayer& layer, const LayerMapping& mapping) {
    if (mapping.kind != MappingKind::Unmapped) return false;
    for (const std::string& node : layer.onnxNodes)
        if (looksLikeNodeName(node)) return true;
    for (const std::string& token : tensorRtNameTokens(layer.name))
        if (looksLikeNodeName(token)) return true;
    return false;
}

std::vector<LayerMapping> mapProfile(const MeasuredLayers& profile, const Workload& workload) {
    const NodeIndex nodes(workload);
    if (profile.source == "ncu") return mapKernels(profile.layers, workload, nodes);
    std::vector<LayerMapping> mappings;
    mappings.reserve(profile.layers.size());
    for (const MeasuredLayer& layer : profile.layers)
        mappings.push_back(profile.source == "onnxruntime" ? mapNamedLayer(layer, nodes)
                                                           : mapTensorRtLayer(layer, nodes));
    return mappings;
}

} // namespace rooftop
