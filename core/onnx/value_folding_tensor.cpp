// SPDX-License-Identifier: GPL-3.0-or-later
// Value folding of the data-movement and scan operators exporters apply to small integer tensors: torch's
// F.pad reverses its pads with Reshape, Slice and Transpose; its index assignments become ScatterND;
// attention masks come from Trilu, NonZero and GatherND.
#include "core/graph/checked_math.h"
#include "core/onnx/value_folding_common.h"

#include <algorithm>
#include <cmath>

namespace rooftop::folding {
namespace {

// Coordinates of linear index i in dims (row-major).
Dims coordinates(size_t i, const Dims& dims) {
    Dims c(dims.size());
    for (size_t d = dims.size(); d-- > 0;) {
        c[d] = static_cast<int64_t>(i % static_cast<size_t>(dims[d]));
        i /= static_cast<size_t>(dims[d]);
    }
    return c;
}

// Index in [-dim, dim) mapped to [0, dim); false when out of range.
bool normalizeIndex(int64_t index, int64_t dim, int64_t& out) {
    if (index < -dim || index >= dim) return false;
    out = index < 0 ? index + dim : index;
    return true;
}

// Position in [0, dim) that Pad's edge, reflect or wrap mode reads for src outside it; false when none.
bool padSource(const std::string& mode, int64_t src, int64_t dim, int64_t& out) {
    if (dim <= 0) return false;
    if (mode == "edge") {
        out = std::clamp<int64_t>(src, 0, dim - 1);
    } else if (mode == "wrap") {
        out = ((src % dim) + dim) % dim;
    } else if (mode == "reflect") {
        if (dim == 1) {
            out = 0;
            return true;
        }
        const int64_t period = 2 * (dim - 1);
        const int64_t m = ((src % period) + period) % period;
        out = m < dim ? m : period - m;
    } else {
        return false;
    }
    return true;
}

// Pad's constant: the `value` attribute before opset 11, else the optional input 2; 0 by default.
bool padConstant(const Graph& graph, const Node& node, const Value& data, bool legacy, Value& out) {
    out = Value{{}, data.isFloat, {}, {}};
    double constant = 0.0;
    if (legacy) {
        constant = node.attributeFloat("value", 0.0);
    } else if (shapes::hasInput(node, 2)) {
        auto given = valueOf(graph, node, 2);
        if (!given || given->size() != 1 || given->isFloat != data.isFloat) return false;
        out = *given;
        return true;
    }
    if (data.isFloat) {
        out.reals = {constant};
    } else {
        if (constant != std::trunc(constant) || std::fabs(constant) > 9.0e18) return false;
        out.ints = {static_cast<int64_t>(constant)};
    }
    return true;
}

bool combine(const std::string& reduction, int64_t a, int64_t b, int64_t& out) {
    if (reduction == "none") return (out = b), true;
    if (reduction == "add") return !__builtin_add_overflow(a, b, &out);
    if (reduction == "mul") return !__builtin_mul_overflow(a, b, &out);
    if (reduction == "max") return (out = std::max(a, b)), true;
    if (reduction == "min") return (out = std::min(a, b)), true;
    return false;
}

bool combine(const std::string& reduction, double a, double b, double& out) {
    if (reduction == "none")
        out = b;
    else if (reduction == "add")
        out = a + b;
    else if (reduction == "mul")
        out = a * b;
    else if (reduction == "max")
        out = std::max(a, b);
    else if (reduction == "min")
        out = std::min(a, b);
    else
        return false;
    return std::isfinite(out);
}

} // namespace

std::optional<Folded> transposeFold(const Graph& graph, const Node& node) {
    auto v = valueOf(graph, node, 0);
    if (!v) return std::nullopt;
    const auto rank = static_cast<int64_t>(v->dims.size());
    Dims perm = node.attributeInts("perm");
    if (perm.empty())
        for (int64_t i = rank; i-- > 0;)
            perm.push_back(i);
    Dims sorted;
    if (static_cast<int64_t>(perm.size()) != rank || !shapes::normalizeAxes(perm, rank, sorted))
        return std::nullopt;
    for (int64_t& p : perm)
        if (p < 0) p += rank;
    Dims dims;
    for (int64_t p : perm)
        dims.push_back(v->dims[static_cast<size_t>(p)]);
    const auto strides = stridesOf(v->dims);
    std::vector<size_t> picks(static_cast<size_t>(countOf(dims)));
    for (size_t i = 0; i < picks.size(); ++i) {
        const Dims c = coordinates(i, dims);
        for (size_t d = 0; d < c.size(); ++d)
            picks[i] += static_cast<size_t>(c[d]) * strides[static_cast<size_t>(perm[d])];
    }
    return Folded{pick(*v, dims, picks), typeOf(graph, node, 0)};
}

// Pad in constant (default), edge, reflect or wrap mode; negative pads crop. Pads and the constant are
// attributes before opset 11, inputs after; opset 18's axes input limits the pads to those axes.
std::optional<Folded> padFold(const Graph& graph, const Node& node) {
    auto v = valueOf(graph, node, 0);
    if (!v) return std::nullopt;
    const auto rank = static_cast<int64_t>(v->dims.size());
    const bool legacy = node.opsetVersion > 0 && node.opsetVersion < 11;
    const std::optional<Dims> pads =
        legacy ? std::optional<Dims>(node.attributeInts("pads")) : shapes::inputValues(graph, node, 1);
    if (!pads) return std::nullopt;
    Dims axes;
    if (!legacy && shapes::hasInput(node, 3)) {
        auto given = shapes::inputValues(graph, node, 3);
        Dims distinct;
        if (!given || !shapes::normalizeAxes(*given, rank, distinct) || distinct.size() != given->size())
            return std::nullopt;
        for (int64_t a : *given)
            axes.push_back(a < 0 ? a + rank : a);
    } else {
        for (int64_t a = 0; a < rank; ++a)
            axes.push_back(a);
    }
    const size_t n = axes.size();
    if (pads->size() != 2 * n) return std::nullopt;
    Dims begin(v->dims.size(), 0), dims = v->dims;
    for (size_t i = 0; i < n; ++i) {
        const auto a = static_cast<size_t>(axes[i]);
        begin[a] = (*pads)[i];
        dims[a] = checkedAdd(checkedAdd(dims[a], (*pads)[i]), (*pads)[i + n]);
        if (dims[a] < 0) return std::nullopt;
    }
    const std::string mode = node.attributeString("mode", "constant");
    Value constant;
    if (mode == "constant" && !padConstant(graph, node, *v, legacy, constant)) return std::nullopt;
    const auto strides = stridesOf(v->dims);
    Value out{dims, v->isFloat, {}, {}};
    const auto count = static_cast<size_t>(countOf(dims));
    for (size_t i = 0; i < count; ++i) {
        const Dims c = coordinates(i, dims);
        bool outside = false;
        size_t at = 0;
        for (size_t d = 0; d < c.size(); ++d) {
            int64_t src = 0;
            if (__builtin_sub_overflow(c[d], begin[d], &src)) return std::nullopt;
            if (src < 0 || src >= v->dims[d]) {
                if (mode == "constant") {
                    outside = true;
                    break;
                }
                if (!padSource(mode, src, v->dims[d], src)) return std::nullopt;
            }
            at += static_cast<size_t>(src) * strides[d];
        }
        const Value& from = outside ? constant : *v;
        const size_t index = outside ? 0 : at;
        if (v->isFloat) {
            out.reals.push_back(from.reals[index]);
        } else {
            out.ints.push_back(from.ints[index]);
        }
    }
    return Folded{out, typeOf(graph, node, 0)};
}

std::optional<Folded> tileFold(const Graph& graph, const Node& node) {
    auto v = valueOf(graph, node, 0);
    auto repeats = shapes::inputValues(graph, node, 1);
    if (!v || !repeats || repeats->size() != v->dims.size() ||
        (node.opsetVersion > 0 && node.opsetVersion < 6))
        return std::nullopt;
    Dims dims = v->dims;
    for (size_t d = 0; d < dims.size(); ++d) {
        if ((*repeats)[d] < 0) return std::nullopt;
        dims[d] = checkedMul(dims[d], (*repeats)[d]);
    }
    const auto strides = stridesOf(v->dims);
    std::vector<size_t> picks(static_cast<size_t>(countOf(dims)));
    for (size_t i = 0; i < picks.size(); ++i) {
        const Dims c = coordinates(i, dims);
        for (size_t d = 0; d < c.size(); ++d)
            picks[i] += static_cast<size_t>(c[d] % v->dims[d]) * strides[d];
    }
    return Folded{pick(*v, dims, picks), typeOf(graph, node, 0)};
}

// ScatterND with reduction none (default), add, mul (opset 16), max or min (opset 18); negative indices
// count from the end.
std::optional<Folded> scatterNDFold(const Graph& graph, const Node& node) {
    auto data = valueOf(graph, node, 0);
    auto indices = valueOf(graph, node, 1);
    auto updates = valueOf(graph, node, 2);
    if (!data || !indices || !updates || indices->isFloat || data->isFloat != updates->isFloat ||
        indices->dims.empty())
        return std::nullopt;
    const int64_t k = indices->dims.back();
    if (k < 1 || k > static_cast<int64_t>(data->dims.size())) return std::nullopt;
    Dims expected(indices->dims.begin(), indices->dims.end() - 1);
    expected.insert(expected.end(), data->dims.begin() + k, data->dims.end());
    if (updates->dims != expected) return std::nullopt;
    const std::string reduction = node.attributeString("reduction", "none");
    const auto kk = static_cast<size_t>(k);
    const auto slice = static_cast<size_t>(countOf(Dims(data->dims.begin() + k, data->dims.end())));
    const size_t tuples = indices->ints.size() / kk;
    const auto strides = stridesOf(data->dims);
    Value out = *data;
    for (size_t t = 0; t < tuples; ++t) {
        size_t offset = 0;
        for (size_t j = 0; j < kk; ++j) {
            int64_t index = 0;
            if (!normalizeIndex(indices->ints[t * kk + j], data->dims[j], index)) return std::nullopt;
            offset += static_cast<size_t>(index) * strides[j];
        }
        for (size_t s = 0; s < slice; ++s) {
            const size_t at = offset + s, from = t * slice + s;
            const bool ok = out.isFloat
                                ? combine(reduction, out.reals[at], updates->reals[from], out.reals[at])
                                : combine(reduction, out.ints[at], updates->ints[from], out.ints[at]);
            if (!ok) return std::nullopt;
        }
    }
    return Folded{out, typeOf(graph, node, 0)};
}

std::optional<Folded> gatherElementsFold(const Graph& graph, const Node& node) {
    auto data = valueOf(graph, node, 0);
    auto indices = valueOf(graph, node, 1);
    int64_t axis = 0;
    if (!data || !indices || indices->isFloat || data->dims.empty() ||
        indices->dims.size() != data->dims.size() ||
        !shapes::normalizeAxis(node.attributeInt("axis", 0), static_cast<int64_t>(data->dims.size()), axis))
        return std::nullopt;
    const auto a = static_cast<size_t>(axis);
    for (size_t d = 0; d < data->dims.size(); ++d)
        if (d != a && indices->dims[d] > data->dims[d]) return std::nullopt;
    const auto strides = stridesOf(data->dims);
    std::vector<size_t> picks(indices->ints.size());
    for (size_t i = 0; i < picks.size(); ++i) {
        Dims c = coordinates(i, indices->dims);
        if (!normalizeIndex(indices->ints[i], data->dims[a], c[a])) return std::nullopt;
        for (size_t d = 0; d < c.size(); ++d)
            picks[i] += static_cast<size_t>(c[d]) * strides[d];
    }
    return Folded{pick(*data, indices->dims, picks), typeOf(graph, node, 0)};
}

// CumSum along the scalar axis input, with the exclusive and reverse attributes (both 0 by default).
std::optional<Folded> cumSumFold(const Graph& graph, const Node& node) {
    auto x = valueOf(graph, node, 0);
    auto axisValue = valueOf(graph, node, 1);
    int64_t axis = 0;
    if (!x || !axisValue || axisValue->isFloat || axisValue->size() != 1 || x->dims.empty() ||
        !shapes::normalizeAxis(axisValue->ints[0], static_cast<int64_t>(x->dims.size()), axis))
        return std::nullopt;
    const bool exclusive = node.attributeInt("exclusive", 0) != 0;
    const bool reverse = node.attributeInt("reverse", 0) != 0;
    const auto a = static_cast<size_t>(axis);
    const auto length = static_cast<size_t>(x->dims[a]);
    const size_t inner = stridesOf(x->dims)[a];
    const size_t outer = length * inner == 0 ? 0 : x->size() / (length * inner);
    Value out = *x;
    for (size_t o = 0; o < outer; ++o) {
        for (size_t in = 0; in < inner; ++in) {
            int64_t intSum = 0;
            double realSum = 0.0;
            for (size_t j = 0; j < length; ++j) {
                const size_t at = (o * length + (reverse ? length - 1 - j : j)) * inner + in;
                if (x->isFloat) {
                    const double before = realSum;
                    realSum += x->reals[at];
                    if (!std::isfinite(realSum)) return std::nullopt;
                    out.reals[at] = exclusive ? before : realSum;
                } else {
                    const int64_t before = intSum;
                    if (__builtin_add_overflow(intSum, x->ints[at], &intSum)) return std::nullopt;
                    out.ints[at] = exclusive ? before : intSum;
                }
            }
        }
    }
    return Folded{out, typeOf(graph, node, 0)};
}

// GatherND with batch_dims (default 0): each index tuple of the last indices axis picks a slice of data.
std::optional<Folded> gatherNDFold(const Graph& graph, const Node& node) {
    auto data = valueOf(graph, node, 0);
    auto indices = valueOf(graph, node, 1);
    if (!data || !indices || indices->isFloat || indices->dims.empty() || data->dims.empty())
        return std::nullopt;
    const int64_t b = node.attributeInt("batch_dims", 0);
    const int64_t q = static_cast<int64_t>(indices->dims.size()), r = static_cast<int64_t>(data->dims.size());
    const int64_t k = indices->dims.back();
    if (b < 0 || b >= std::min(q, r) || k < 1 || b + k > r) return std::nullopt;
    for (int64_t d = 0; d < b; ++d)
        if (indices->dims[static_cast<size_t>(d)] != data->dims[static_cast<size_t>(d)]) return std::nullopt;
    Dims out(indices->dims.begin(), indices->dims.end() - 1);
    out.insert(out.end(), data->dims.begin() + b + k, data->dims.end());
    const auto slice = static_cast<size_t>(countOf(Dims(data->dims.begin() + b + k, data->dims.end())));
    const auto batches = static_cast<size_t>(countOf(Dims(data->dims.begin(), data->dims.begin() + b)));
    const auto perBatchData = static_cast<size_t>(countOf(Dims(data->dims.begin() + b, data->dims.end())));
    const auto kk = static_cast<size_t>(k);
    const size_t tuples = indices->ints.size() / kk;
    const size_t tuplesPerBatch = batches ? tuples / batches : 0;
    const auto strides = stridesOf(Dims(data->dims.begin() + b, data->dims.end()));
    std::vector<size_t> picks;
    picks.reserve(tuples * slice);
    for (size_t t = 0; t < tuples; ++t) {
        size_t offset = (tuplesPerBatch ? t / tuplesPerBatch : 0) * perBatchData;
        for (size_t j = 0; j < kk; ++j) {
            int64_t index = 0;
            if (!normalizeIndex(indices->ints[t * kk + j], data->dims[static_cast<size_t>(b) + j], index))
                return std::nullopt;
            offset += static_cast<size_t>(index) * strides[j];
        }
        for (size_t e = 0; e < slice; ++e)
            picks.push_back(offset + e);
    }
    return Folded{pick(*data, out, picks), typeOf(graph, node, 0)};
}

// Trilu: keeps the upper (upper = 1, the default) or lower triangle of the last two axes, shifted by the
// optional scalar k (default 0); the rest is zero.
std::optional<Folded> triluFold(const Graph& graph, const Node& node) {
    auto x = valueOf(graph, node, 0);
    if (!x || x->dims.size() < 2) return std::nullopt;
    int64_t k = 0;
    if (node.inputs.size() > 1 && node.inputs[1] >= 0) {
        auto kValue = valueOf(graph, node, 1);
        if (!kValue || kValue->isFloat || kValue->size() != 1) return std::nullopt;
        k = kValue->ints[0];
    }
    const bool upper = node.attributeInt("upper", 1) != 0;
    const int64_t rows = x->dims[x->dims.size() - 2], cols = x->dims.back();
    Value out = *x;
    for (size_t i = 0; i < out.size(); ++i) {
        const int64_t col = static_cast<int64_t>(i) % cols;
        const int64_t row = (static_cast<int64_t>(i) / cols) % rows;
        const bool keep = upper ? col - row >= k : col - row <= k;
        if (keep) continue;
        if (out.isFloat)
            out.reals[i] = 0.0;
        else
            out.ints[i] = 0;
    }
    return Folded{out, typeOf(graph, node, 0)};
}

// NonZero: the coordinates of the non-zero elements, one row per axis (int64 [rank, count]).
std::optional<Folded> nonZeroFold(const Graph& graph, const Node& node) {
    auto x = valueOf(graph, node, 0);
    if (!x) return std::nullopt;
    const size_t rank = std::max<size_t>(1, x->dims.size());
    const Dims dims = x->dims.empty() ? Dims{1} : x->dims;
    std::vector<Dims> found;
    for (size_t i = 0; i < x->size(); ++i)
        if (x->real(i) != 0.0) found.push_back(coordinates(i, dims));
    Value out;
    out.dims = {static_cast<int64_t>(rank), static_cast<int64_t>(found.size())};
    out.ints.resize(rank * found.size());
    for (size_t n = 0; n < found.size(); ++n)
        for (size_t d = 0; d < rank; ++d)
            out.ints[d * found.size() + n] = found[n][d];
    return Folded{out, DataType::Int64};
}

} // namespace rooftop::folding
