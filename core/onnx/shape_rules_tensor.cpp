// SPDX-License-Identifier: GPL-3.0-or-later
// Shape rules of data-movement operators: reshapes, slices, gathers, concatenation, padding.
#include "core/graph/checked_math.h"
#include "core/onnx/shape_rules_common.h"

#include <algorithm>
#include <cmath>

namespace rooftop::shapes {

bool reshapeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    std::optional<Dims> shape = node.opsetVersion > 0 && node.opsetVersion < 5
                                    ? std::optional<Dims>(node.attributeInts("shape"))
                                    : inputValues(graph, node, 1);
    Dims out;
    if (!x || !shape || !reshapeDims(x->dims, *shape, node.attributeInt("allowzero", 0) != 0, out))
        return false;
    return setOutput(outputs, 0, x->type, out);
}

bool flattenRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    if (!x) return false;
    const int64_t rank = static_cast<int64_t>(x->dims.size());
    int64_t axis = node.attributeInt("axis", 1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis > rank) return false;
    const auto split = x->dims.begin() + axis;
    return setOutput(outputs, 0, x->type,
                     {elementCount(Dims(x->dims.begin(), split)), elementCount(Dims(split, x->dims.end()))});
}

bool expandRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    auto shape = inputValues(graph, node, 1);
    Dims out;
    if (!x || !shape || !broadcast(x->dims, *shape, out)) return false;
    return setOutput(outputs, 0, x->type, out);
}

bool tileRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    auto repeats = inputValues(graph, node, 1);
    if (!x || !repeats || repeats->size() != x->dims.size()) return false;
    Dims out = x->dims;
    for (size_t i = 0; i < out.size(); ++i) {
        if ((*repeats)[i] < 0) return false;
        out[i] = checkedMul(out[i], (*repeats)[i]);
    }
    return setOutput(outputs, 0, x->type, out);
}

bool constantOfShapeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    auto shape = inputValues(graph, node, 0);
    if (!shape) return false;
    DataType type = DataType::Float32;
    auto value = node.attributes.find("value");
    if (value != node.attributes.end() && value->second.tensorType != 0)
        type = dataTypeFromOnnx(static_cast<int>(value->second.tensorType));
    return setOutput(outputs, 0, type, *shape);
}

// Range's element count needs its scalar inputs' values, integer or float.
bool rangeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* start = input(graph, node, 0);
    if (!start) return false;
    double v[3] = {0, 0, 0};
    for (size_t i = 0; i < 3; ++i) {
        const Tensor* t = input(graph, node, i);
        if (t && t->intValues && t->intValues->size() == 1) {
            v[i] = static_cast<double>(t->intValues->front());
        } else if (t && t->floatValues && t->floatValues->size() == 1) {
            v[i] = t->floatValues->front();
        } else {
            return false;
        }
    }
    if (v[2] == 0) return false;
    const double count = std::max(0.0, std::ceil((v[1] - v[0]) / v[2]));
    if (!(count < 9.0e18)) return false;
    return setOutput(outputs, 0, start->type, {static_cast<int64_t>(count)});
}

bool sliceRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    Dims starts, ends, axes, steps;
    std::vector<SliceRange> ranges;
    if (!x || !sliceParameters(graph, node, starts, ends, axes, steps) ||
        !sliceRanges(x->dims, starts, ends, axes, steps, ranges))
        return false;
    Dims out;
    for (const SliceRange& r : ranges)
        out.push_back(r.count);
    return setOutput(outputs, 0, x->type, out);
}

bool squeezeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    auto axes = axesOf(graph, node);
    Dims out;
    if (!x || !axes || !squeezeDims(x->dims, *axes, out)) return false;
    return setOutput(outputs, 0, x->type, out);
}

bool unsqueezeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    auto axes = axesOf(graph, node);
    Dims out;
    if (!x || !axes || !unsqueezeDims(x->dims, *axes, out)) return false;
    return setOutput(outputs, 0, x->type, out);
}

bool concatRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* first = knownInput(graph, node, 0);
    if (!first || !node.hasAttribute("axis")) return false;
    const int64_t rank = static_cast<int64_t>(first->dims.size());
    int64_t axis = 0;
    if (!normalizeAxis(node.attributeInt("axis", 0), rank, axis)) return false;
    Dims out = first->dims;
    out[static_cast<size_t>(axis)] = 0;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
        const Tensor* t = knownInput(graph, node, i);
        if (!t || t->dims.size() != out.size()) return false;
        for (size_t d = 0; d < out.size(); ++d)
            if (static_cast<int64_t>(d) != axis && t->dims[d] != out[d]) return false;
        out[static_cast<size_t>(axis)] =
            checkedAdd(out[static_cast<size_t>(axis)], t->dims[static_cast<size_t>(axis)]);
    }
    return setOutput(outputs, 0, first->type, out);
}

bool gatherRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* data = knownInput(graph, node, 0);
    const Tensor* indices = knownInput(graph, node, 1);
    int64_t axis = 0;
    if (!data || !indices || data->dims.empty() ||
        !normalizeAxis(node.attributeInt("axis", 0), static_cast<int64_t>(data->dims.size()), axis))
        return false;
    Dims out(data->dims.begin(), data->dims.begin() + axis);
    out.insert(out.end(), indices->dims.begin(), indices->dims.end());
    out.insert(out.end(), data->dims.begin() + axis + 1, data->dims.end());
    return setOutput(outputs, 0, data->type, out);
}

bool gatherElementsRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* data = knownInput(graph, node, 0);
    const Tensor* indices = knownInput(graph, node, 1);
    if (!data || !indices || data->dims.size() != indices->dims.size()) return false;
    return setOutput(outputs, 0, data->type, indices->dims);
}

bool transposeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    if (!x) return false;
    const size_t rank = x->dims.size();
    Dims perm = node.attributeInts("perm");
    if (perm.empty())
        for (size_t i = 0; i < rank; ++i)
            perm.push_back(static_cast<int64_t>(rank - 1 - i));
    Dims sorted;
    if (perm.size() != rank || !normalizeAxes(perm, static_cast<int64_t>(rank), sorted)) return false;
    Dims out;
    for (int64_t p : perm)
        out.push_back(x->dims[static_cast<size_t>(p < 0 ? p + static_cast<int64_t>(rank) : p)]);
    return setOutput(outputs, 0, x->type, out);
}

// Split sizes: the `split` input (opset 13+) or attribute, else num_outputs (opset 18) or the number of
// outputs, in chunks of ceil(dim / n) with a smaller last one.
bool splitRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    int64_t axis = 0;
    if (!x || !normalizeAxis(node.attributeInt("axis", 0), static_cast<int64_t>(x->dims.size()), axis))
        return false;
    const int64_t dim = x->dims[static_cast<size_t>(axis)];
    auto sizes = listFromInputOrAttribute(graph, node, 1, "split");
    if (!sizes) return false;
    const int64_t n = static_cast<int64_t>(node.outputs.size());
    if (sizes->empty()) {
        const int64_t parts = node.attributeInt("num_outputs", n);
        if (parts <= 0 || parts != n) return false;
        const int64_t chunk = dim / parts + (dim % parts ? 1 : 0);
        for (int64_t i = 0; i < parts; ++i)
            sizes->push_back(std::max<int64_t>(0, std::min(chunk, dim - i * chunk)));
    }
    if (static_cast<int64_t>(sizes->size()) != n) return false;
    int64_t total = 0;
    for (int64_t s : *sizes) {
        if (s < 0) return false;
        total = checkedAdd(total, s);
    }
    if (total != dim) return false;
    for (size_t i = 0; i < sizes->size(); ++i) {
        Dims out = x->dims;
        out[static_cast<size_t>(axis)] = (*sizes)[i];
        if (!setOutput(outputs, i, x->type, out)) return false;
    }
    return true;
}

// Pad: pads from the attribute (before opset 11) or input 1, for all axes or those of input 3 (opset 18).
bool padRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    if (!x) return false;
    const int64_t rank = static_cast<int64_t>(x->dims.size());
    auto pads = node.opsetVersion > 0 && node.opsetVersion < 11
                    ? std::optional<Dims>(node.attributeInts("pads"))
                    : inputValues(graph, node, 1);
    if (!pads) return false;
    Dims axes;
    if (hasInput(node, 3)) {
        auto given = inputValues(graph, node, 3);
        if (!given) return false;
        for (int64_t a : *given) {
            int64_t axis = 0;
            if (!normalizeAxis(a, rank, axis)) return false;
            axes.push_back(axis);
        }
    } else {
        for (int64_t i = 0; i < rank; ++i)
            axes.push_back(i);
    }
    const size_t n = axes.size();
    if (pads->size() != 2 * n) return false;
    Dims out = x->dims;
    for (size_t i = 0; i < n; ++i) {
        int64_t& d = out[static_cast<size_t>(axes[i])];
        d = checkedAdd(checkedAdd(d, (*pads)[i]), (*pads)[i + n]);
        if (d < 0) return false;
    }
    return setOutput(outputs, 0, x->type, out);
}

bool shapeOpRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    if (!x) return false;
    const int64_t rank = static_cast<int64_t>(x->dims.size());
    auto clampIndex = [rank](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + rank : i, 0, rank); };
    const int64_t start = clampIndex(node.attributeInt("start", 0));
    const int64_t end = clampIndex(node.attributeInt("end", rank));
    return setOutput(outputs, 0, DataType::Int64, {std::max<int64_t>(0, end - start)});
}

bool sizeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    if (!knownInput(graph, node, 0)) return false;
    return setOutput(outputs, 0, DataType::Int64, {});
}

bool depthSpaceRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    const int64_t b = node.attributeInt("blocksize", 0);
    if (!x || x->dims.size() != 4 || b <= 0) return false;
    Dims out = x->dims;
    const int64_t bb = checkedMul(b, b);
    if (node.opType == "DepthToSpace") {
        if (out[1] % bb != 0) return false;
        out = {out[0], out[1] / bb, checkedMul(out[2], b), checkedMul(out[3], b)};
    } else {
        if (out[2] % b != 0 || out[3] % b != 0) return false;
        out = {out[0], checkedMul(out[1], bb), out[2] / b, out[3] / b};
    }
    return setOutput(outputs, 0, x->type, out);
}

} // namespace rooftop::shapes
