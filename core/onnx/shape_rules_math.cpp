// SPDX-License-Identifier: GPL-3.0-or-later
// Shape rules of arithmetic operators: elementwise, matrix products, reductions, windows, resizing.
#include "core/graph/checked_math.h"
#include "core/onnx/shape_rules_common.h"

#include <algorithm>
#include <cmath>

namespace rooftop::shapes {
namespace {

// Broadcast shape of every present input; false while one is unknown.
bool broadcastInputs(const Graph& graph, const Node& node, Dims& out) {
    bool any = false;
    Dims result;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
        if (!hasInput(node, i)) continue;
        const Tensor* t = knownInput(graph, node, i);
        if (!t || !broadcast(result, t->dims, result)) return false;
        any = true;
    }
    out = std::move(result);
    return any;
}

// One spatial output dim; `total` is the padded input minus the effective window.
int64_t windowOutput(int64_t total, int64_t stride, bool ceilMode) {
    return (ceilMode ? (total + stride - 1) / stride : total / stride) + 1;
}

} // namespace

bool sameAsFirstInput(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    return x && setOutput(outputs, 0, x->type, x->dims);
}

bool castRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    if (!x) return false;
    DataType type = DataType::Undefined;
    if (node.opType == "CastLike") {
        const Tensor* like = input(graph, node, 1);
        if (!like || like->type == DataType::Undefined) return false;
        type = like->type;
    } else {
        type = dataTypeFromOnnx(static_cast<int>(node.attributeInt("to", 0)));
    }
    return setOutput(outputs, 0, type, x->dims);
}

bool boolSameShape(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    return x && setOutput(outputs, 0, DataType::Bool, x->dims);
}

bool dropoutRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    return x && setOutput(outputs, 0, x->type, x->dims) && setOutput(outputs, 1, DataType::Bool, x->dims);
}

bool broadcastRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    Dims out;
    const Tensor* first = input(graph, node, 0);
    return first && broadcastInputs(graph, node, out) && setOutput(outputs, 0, first->type, out);
}

bool compareRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    Dims out;
    return broadcastInputs(graph, node, out) && setOutput(outputs, 0, DataType::Bool, out);
}

bool whereRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    Dims out;
    const Tensor* x = input(graph, node, 1);
    return x && broadcastInputs(graph, node, out) && setOutput(outputs, 0, x->type, out);
}

bool matMulDims(const Dims& a, const Dims& b, Dims& out) {
    if (a.empty() || b.empty()) return false;
    const Dims a2 = a.size() == 1 ? Dims{1, a[0]} : a;
    const Dims b2 = b.size() == 1 ? Dims{b[0], 1} : b;
    if (a2.back() != b2[b2.size() - 2]) return false;
    Dims batch;
    if (!broadcast(Dims(a2.begin(), a2.end() - 2), Dims(b2.begin(), b2.end() - 2), batch)) return false;
    if (a.size() > 1) batch.push_back(a2[a2.size() - 2]);
    if (b.size() > 1) batch.push_back(b2.back());
    out = std::move(batch);
    return true;
}

bool matMulRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* a = knownInput(graph, node, 0);
    const Tensor* b = knownInput(graph, node, 1);
    Dims out;
    if (!a || !b || !matMulDims(a->dims, b->dims, out)) return false;
    return setOutput(outputs, 0, node.opType == "MatMulInteger" ? DataType::Int32 : a->type, out);
}

bool gemmRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* a = knownInput(graph, node, 0);
    const Tensor* b = knownInput(graph, node, 1);
    if (!a || !b || a->dims.size() != 2 || b->dims.size() != 2) return false;
    const bool ta = node.attributeInt("transA", 0) != 0;
    const bool tb = node.attributeInt("transB", 0) != 0;
    const int64_t m = a->dims[ta ? 1 : 0];
    const int64_t k = a->dims[ta ? 0 : 1];
    if (b->dims[tb ? 1 : 0] != k) return false;
    return setOutput(outputs, 0, a->type, {m, b->dims[tb ? 0 : 1]});
}

// Reduce*: axes from input 1 (ReduceSum 13+, the others 18+) or the attribute; empty axes reduce all
// unless noop_with_empty_axes.
bool reduceRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    auto axes = axesOf(graph, node);
    if (!x || !axes) return false;
    const bool keep = node.attributeInt("keepdims", 1) != 0;
    if (axes->empty() && node.attributeInt("noop_with_empty_axes", 0) != 0)
        return setOutput(outputs, 0, x->type, x->dims);
    Dims sorted;
    if (!normalizeAxes(*axes, static_cast<int64_t>(x->dims.size()), sorted)) return false;
    Dims out;
    for (size_t i = 0; i < x->dims.size(); ++i) {
        const bool reduced = sorted.empty() || std::binary_search(sorted.begin(), sorted.end(), int64_t(i));
        if (!reduced) {
            out.push_back(x->dims[i]);
        } else if (keep) {
            out.push_back(1);
        }
    }
    return setOutput(outputs, 0, x->type, out);
}

bool argReduceRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    int64_t axis = 0;
    if (!x || !normalizeAxis(node.attributeInt("axis", 0), static_cast<int64_t>(x->dims.size()), axis))
        return false;
    Dims out = x->dims;
    if (node.attributeInt("keepdims", 1) != 0) {
        out[static_cast<size_t>(axis)] = 1;
    } else {
        out.erase(out.begin() + axis);
    }
    return setOutput(outputs, 0, DataType::Int64, out);
}

bool topKRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    int64_t axis = 0;
    if (!x || !normalizeAxis(node.attributeInt("axis", -1), static_cast<int64_t>(x->dims.size()), axis))
        return false;
    int64_t k = node.attributeInt("k", -1);
    if (hasInput(node, 1)) {
        auto given = inputValues(graph, node, 1);
        if (!given || given->size() != 1) return false;
        k = given->front();
    }
    if (k < 0 || k > x->dims[static_cast<size_t>(axis)]) return false;
    Dims out = x->dims;
    out[static_cast<size_t>(axis)] = k;
    return setOutput(outputs, 0, x->type, out) && setOutput(outputs, 1, DataType::Int64, out);
}

bool windowedDims(const Node& node, const Dims& in, const Dims& kernel, int64_t channels, bool ceilMode,
                  Dims& out) {
    if (in.size() < 3 || kernel.size() != in.size() - 2) return false;
    const size_t n = kernel.size();
    Dims strides = node.attributeInts("strides");
    Dims dilations = node.attributeInts("dilations");
    Dims pads = node.attributeInts("pads");
    if (strides.empty()) strides.assign(n, 1);
    if (dilations.empty()) dilations.assign(n, 1);
    if (pads.empty()) pads.assign(2 * n, 0);
    if (strides.size() != n || dilations.size() != n || pads.size() != 2 * n) return false;
    const std::string autoPad = node.attributeString("auto_pad", "NOTSET");
    Dims result = {in[0], channels};
    for (size_t i = 0; i < n; ++i) {
        const int64_t size = in[i + 2];
        const int64_t stride = strides[i];
        if (stride <= 0 || dilations[i] <= 0 || kernel[i] <= 0) return false;
        const int64_t window = checkedAdd(checkedMul(kernel[i] - 1, dilations[i]), 1);
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            result.push_back(size / stride + (size % stride ? 1 : 0));
        } else if (autoPad == "VALID") {
            if (size < window) return false;
            result.push_back(windowOutput(size - window, stride, ceilMode));
        } else {
            const int64_t padded = checkedAdd(checkedAdd(size, pads[i]), pads[i + n]);
            if (padded < window || pads[i] < 0 || pads[i + n] < 0) return false;
            int64_t o = windowOutput(padded - window, stride, ceilMode);
            // A ceil-mode window that would start inside the end padding is dropped (as runtimes do).
            if (ceilMode && (o - 1) * stride >= size + pads[i]) --o;
            result.push_back(o);
        }
    }
    out = std::move(result);
    return true;
}

bool convRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    const Tensor* w = knownInput(graph, node, 1);
    if (!x || !w || x->dims.size() < 3 || w->dims.size() != x->dims.size()) return false;
    Dims kernel = node.attributeInts("kernel_shape");
    if (kernel.empty()) kernel.assign(w->dims.begin() + 2, w->dims.end());
    Dims out;
    if (!windowedDims(node, x->dims, kernel, w->dims[0], false, out)) return false;
    return setOutput(outputs, 0, node.opType == "ConvInteger" ? DataType::Int32 : x->type, out);
}

bool convTransposeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    const Tensor* w = knownInput(graph, node, 1);
    if (!x || !w || x->dims.size() < 3 || w->dims.size() != x->dims.size()) return false;
    const size_t n = x->dims.size() - 2;
    Dims kernel = node.attributeInts("kernel_shape");
    if (kernel.empty()) kernel.assign(w->dims.begin() + 2, w->dims.end());
    Dims strides = node.attributeInts("strides");
    Dims dilations = node.attributeInts("dilations");
    Dims pads = node.attributeInts("pads");
    Dims extra = node.attributeInts("output_padding");
    Dims given = node.attributeInts("output_shape");
    if (strides.empty()) strides.assign(n, 1);
    if (dilations.empty()) dilations.assign(n, 1);
    if (pads.empty()) pads.assign(2 * n, 0);
    if (extra.empty()) extra.assign(n, 0);
    if (kernel.size() != n || strides.size() != n || dilations.size() != n || pads.size() != 2 * n ||
        extra.size() != n || (!given.empty() && given.size() < n))
        return false;
    for (size_t i = 0; i < n; ++i)
        if (kernel[i] <= 0 || strides[i] <= 0 || dilations[i] <= 0 || extra[i] < 0 || pads[i] < 0 ||
            pads[i + n] < 0)
            return false;
    const std::string autoPad = node.attributeString("auto_pad", "NOTSET");
    const int64_t group = node.attributeInt("group", 1);
    if (group <= 0) return false;
    Dims out = {x->dims[0], checkedMul(w->dims[1], group)};
    for (size_t i = 0; i < n; ++i) {
        const int64_t size = x->dims[i + 2];
        if (!given.empty()) {
            out.push_back(given[given.size() - n + i]);
        } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            out.push_back(checkedMul(size, strides[i]));
        } else {
            const int64_t window = checkedAdd(checkedMul(kernel[i] - 1, dilations[i]), 1);
            int64_t o = checkedAdd(checkedMul(strides[i], size - 1), checkedAdd(extra[i], window));
            out.push_back(o - pads[i] - pads[i + n]);
        }
    }
    return setOutput(outputs, 0, x->type, out);
}

bool poolRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    Dims out;
    if (!x || x->dims.size() < 3 ||
        !windowedDims(node, x->dims, node.attributeInts("kernel_shape"), x->dims[1],
                      node.attributeInt("ceil_mode", 0) != 0, out))
        return false;
    return setOutput(outputs, 0, x->type, out) && setOutput(outputs, 1, DataType::Int64, out);
}

bool globalPoolRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    if (!x || x->dims.size() < 2) return false;
    Dims out = x->dims;
    std::fill(out.begin() + 2, out.end(), 1);
    return setOutput(outputs, 0, x->type, out);
}

// Resize: sizes, else floor(dim * scale), on all axes or those of the `axes` attribute (opset 18);
// keep_aspect_ratio_policy rescales sizes by one common factor.
bool resizeRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    if (!x) return false;
    const int64_t rank = static_cast<int64_t>(x->dims.size());
    const size_t scalesInput = node.opsetVersion > 0 && node.opsetVersion < 11 ? 1 : 2;
    Dims axisList = node.attributeInts("axes");
    Dims distinct;
    if (!normalizeAxes(axisList, rank, distinct)) return false;
    for (int64_t& a : axisList)
        normalizeAxis(a, rank, a);
    if (axisList.empty())
        for (int64_t i = 0; i < rank; ++i)
            axisList.push_back(i);
    Dims out = x->dims;
    const auto sizesValues = scalesInput == 2 ? inputValues(graph, node, 3) : std::nullopt;
    if (sizesValues && !sizesValues->empty()) {
        const Dims& sizes = *sizesValues;
        if (sizes.size() != axisList.size()) return false;
        const std::string policy = node.attributeString("keep_aspect_ratio_policy", "stretch");
        if (policy == "stretch") {
            for (size_t i = 0; i < sizes.size(); ++i)
                out[static_cast<size_t>(axisList[i])] = sizes[i];
            return setOutput(outputs, 0, x->type, out);
        }
        double scale = policy == "not_larger" ? 1e300 : 0.0;
        for (size_t i = 0; i < sizes.size(); ++i) {
            const double ratio =
                static_cast<double>(sizes[i]) /
                static_cast<double>(std::max<int64_t>(1, x->dims[static_cast<size_t>(axisList[i])]));
            scale = policy == "not_larger" ? std::min(scale, ratio) : std::max(scale, ratio);
        }
        for (int64_t a : axisList) {
            const double v = std::round(scale * static_cast<double>(x->dims[static_cast<size_t>(a)]));
            if (!(v >= 0 && v < 9.0e18)) return false;
            out[static_cast<size_t>(a)] = static_cast<int64_t>(v);
        }
        return setOutput(outputs, 0, x->type, out);
    }
    const Tensor* scalesTensor = input(graph, node, scalesInput);
    if (!scalesTensor || !scalesTensor->floatValues || scalesTensor->floatValues->size() != axisList.size())
        return false;
    for (size_t i = 0; i < axisList.size(); ++i) {
        const double v = std::floor(static_cast<double>(x->dims[static_cast<size_t>(axisList[i])]) *
                                    (*scalesTensor->floatValues)[i]);
        if (!(v >= 0 && v < 9.0e18)) return false;
        out[static_cast<size_t>(axisList[i])] = static_cast<int64_t>(v);
    }
    return setOutput(outputs, 0, x->type, out);
}

// RNN/GRU/LSTM: Y is (seq, directions, batch, hidden), states (directions, batch, hidden); layout=1
// puts batch first in all of them.
bool recurrentRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    const Tensor* r = knownInput(graph, node, 2);
    if (!x || x->dims.size() != 3) return false;
    int64_t hidden = node.attributeInt("hidden_size", 0);
    if (hidden <= 0 && r && r->dims.size() == 3) hidden = r->dims[2];
    if (hidden <= 0) return false;
    const int64_t directions = node.attributeString("direction", "forward") == "bidirectional" ? 2 : 1;
    const bool batchFirst = node.attributeInt("layout", 0) != 0;
    const int64_t seq = x->dims[batchFirst ? 1 : 0];
    const int64_t batch = x->dims[batchFirst ? 0 : 1];
    const Dims y = batchFirst ? Dims{batch, seq, directions, hidden} : Dims{seq, directions, batch, hidden};
    const Dims state = batchFirst ? Dims{batch, directions, hidden} : Dims{directions, batch, hidden};
    return setOutput(outputs, 0, x->type, y) && setOutput(outputs, 1, x->type, state) &&
           setOutput(outputs, 2, x->type, state);
}

// LayerNormalization: Y like X; Mean and InvStdDev keep the leading dims and 1 from `axis` on.
bool layerNormRule(const Graph& graph, const Node& node, std::vector<InferredOutput>& outputs) {
    const Tensor* x = knownInput(graph, node, 0);
    int64_t axis = 0;
    if (!x || !normalizeAxis(node.attributeInt("axis", -1), static_cast<int64_t>(x->dims.size()), axis))
        return false;
    Dims stats = x->dims;
    std::fill(stats.begin() + axis, stats.end(), 1);
    if (!setOutput(outputs, 0, x->type, x->dims)) return false;
    for (size_t i = 1; i < outputs.size(); ++i)
        if (!setOutput(outputs, i, DataType::Float32, stats)) return false;
    return true;
}

} // namespace rooftop::shapes
