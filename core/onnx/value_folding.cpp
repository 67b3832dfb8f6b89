// SPDX-License-Identifier: GPL-3.0-or-later
// Folds the small integer computations exporters write to build Reshape targets at run time, which ONNX
// 1.12's data propagation gives up on (Div, Cast, Range, Where, ...). Values stay tiny (maxFoldedElements).
#include "core/onnx/value_folding.h"

#include "core/graph/checked_math.h"
#include "core/onnx/tensor_values.h"
#include "core/onnx/value_folding_common.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace rooftop {
namespace folding {

int64_t countOf(const Dims& dims) {
    const int64_t n = shapes::elementCount(dims);
    if (n > maxFoldedElements) throw CountOverflow("too large to fold");
    return n;
}

std::optional<Value> valueOf(const Graph& graph, const Node& node, size_t i) {
    const Tensor* t = shapes::knownInput(graph, node, i);
    if (!t) return std::nullopt;
    const int64_t n = shapes::elementCount(t->dims);
    if (t->intValues && static_cast<int64_t>(t->intValues->size()) == n) {
        if (!isFloatingPoint(t->type)) return Value{t->dims, false, *t->intValues, {}};
        // ONNX's data propagation records a Cast-to-float of a shape as integers.
        return Value{t->dims, true, {}, std::vector<double>(t->intValues->begin(), t->intValues->end())};
    }
    if (t->floatValues && static_cast<int64_t>(t->floatValues->size()) == n)
        return Value{t->dims, true, {}, *t->floatValues};
    return std::nullopt;
}

DataType typeOf(const Graph& graph, const Node& node, size_t i) {
    const Tensor* t = shapes::input(graph, node, i);
    return t ? t->type : DataType::Undefined;
}

Value pick(const Value& v, Dims dims, const std::vector<size_t>& indices) {
    Value out{std::move(dims), v.isFloat, {}, {}};
    for (size_t i : indices) {
        if (v.isFloat) {
            out.reals.push_back(v.reals[i]);
        } else {
            out.ints.push_back(v.ints[i]);
        }
    }
    return out;
}

std::vector<size_t> broadcastIndices(const Dims& in, const Dims& out) {
    const size_t n = static_cast<size_t>(countOf(out));
    const size_t offset = out.size() - in.size();
    std::vector<size_t> strides(out.size(), 0);
    size_t stride = 1;
    for (size_t d = in.size(); d-- > 0;) {
        strides[d + offset] = in[d] == 1 ? 0 : stride;
        stride *= static_cast<size_t>(in[d]);
    }
    std::vector<size_t> indices(n);
    for (size_t i = 0; i < n; ++i) {
        size_t rest = i, at = 0;
        for (size_t d = out.size(); d-- > 0;) {
            const size_t dim = static_cast<size_t>(out[d]);
            at += (rest % dim) * strides[d];
            rest /= dim;
        }
        indices[i] = at;
    }
    return indices;
}

std::vector<size_t> stridesOf(const Dims& dims) {
    std::vector<size_t> strides(dims.size(), 1);
    for (size_t d = dims.size(); d-- > 1;)
        strides[d - 1] = strides[d] * static_cast<size_t>(dims[d]);
    return strides;
}

namespace {

Value withDims(Value v, Dims dims) {
    v.dims = std::move(dims);
    return v;
}

std::optional<Folded> shapeFold(const Graph& graph, const Node& node) {
    const Tensor* x = shapes::knownInput(graph, node, 0);
    if (!x) return std::nullopt;
    const int64_t rank = static_cast<int64_t>(x->dims.size());
    auto clampIndex = [rank](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + rank : i, 0, rank); };
    const int64_t start = clampIndex(node.attributeInt("start", 0));
    const int64_t end = std::max(start, clampIndex(node.attributeInt("end", rank)));
    Dims dims(x->dims.begin() + start, x->dims.begin() + end);
    return Folded{{{end - start}, false, dims, {}}, DataType::Int64};
}

std::optional<Folded> sizeFold(const Graph& graph, const Node& node) {
    const Tensor* x = shapes::knownInput(graph, node, 0);
    if (!x) return std::nullopt;
    return Folded{{{}, false, {shapes::elementCount(x->dims)}, {}}, DataType::Int64};
}

std::optional<Folded> identityFold(const Graph& graph, const Node& node) {
    auto v = valueOf(graph, node, 0);
    if (!v) return std::nullopt;
    return Folded{*v, typeOf(graph, node, 0)};
}

bool castInteger(double x, DataType to, int64_t& out) {
    if (!std::isfinite(x)) return false;
    const double t = std::trunc(x);
    double lo = -9.2e18, hi = 9.2e18;
    switch (to) {
    case DataType::Int8:
        lo = -128;
        hi = 127;
        break;
    case DataType::UInt8:
        lo = 0;
        hi = 255;
        break;
    case DataType::Int16:
        lo = -32768;
        hi = 32767;
        break;
    case DataType::UInt16:
        lo = 0;
        hi = 65535;
        break;
    case DataType::Int32:
        lo = -2147483648.0;
        hi = 2147483647.0;
        break;
    case DataType::UInt32:
        lo = 0;
        hi = 4294967295.0;
        break;
    case DataType::UInt64:
        lo = 0;
        break;
    default:
        break;
    }
    if (t < lo || t > hi) return false;
    out = static_cast<int64_t>(t);
    return true;
}

std::optional<Folded> castFold(const Graph& graph, const Node& node) {
    auto v = valueOf(graph, node, 0);
    if (!v) return std::nullopt;
    const DataType to = node.opType == "CastLike"
                            ? typeOf(graph, node, 1)
                            : dataTypeFromOnnx(static_cast<int>(node.attributeInt("to", 0)));
    Value out{v->dims, isFloatingPoint(to), {}, {}};
    for (size_t i = 0; i < v->size(); ++i) {
        if (out.isFloat) {
            const double x = v->real(i);
            if (!std::isfinite(x) || std::fabs(x) > 3.0e38) return std::nullopt;
            out.reals.push_back(to == DataType::Float64 ? x : static_cast<double>(static_cast<float>(x)));
        } else if (to == DataType::Bool) {
            out.ints.push_back(v->real(i) != 0 ? 1 : 0);
        } else if (!v->isFloat && (to == DataType::Int64 || to == DataType::UInt64)) {
            out.ints.push_back(v->ints[i]); // exact, beyond double precision
        } else {
            int64_t x = 0;
            if (to == DataType::Undefined || to == DataType::String || !castInteger(v->real(i), to, x))
                return std::nullopt;
            out.ints.push_back(x);
        }
    }
    return Folded{out, to};
}

bool unaryInt(const std::string& op, int64_t x, int64_t& out) {
    if (op == "Neg" || (op == "Abs" && x < 0)) return x != INT64_MIN && ((out = -x), true);
    if (op == "Abs" || op == "Floor" || op == "Ceil") return (out = x), true;
    if (op == "Not") return (out = x == 0 ? 1 : 0), true;
    if (op == "Sign") return (out = (x > 0) - (x < 0)), true;
    return false;
}

bool unaryReal(const std::string& op, double x, double& out) {
    using Fn = double (*)(double);
    static const std::map<std::string, Fn> fns = {
        {"Neg", [](double v) { return -v; }},
        {"Abs", [](double v) { return std::fabs(v); }},
        {"Floor", [](double v) { return std::floor(v); }},
        {"Ceil", [](double v) { return std::ceil(v); }},
        {"Sqrt", [](double v) { return std::sqrt(v); }},
        {"Sign", [](double v) { return double((v > 0) - (v < 0)); }},
        {"Reciprocal", [](double v) { return 1.0 / v; }},
    };
    auto fn = fns.find(op);
    return fn != fns.end() && ((out = fn->second(x)), true);
}

std::optional<Folded> unaryFold(const Graph& graph, const Node& node) {
    auto v = valueOf(graph, node, 0);
    if (!v) return std::nullopt;
    Value out{v->dims, v->isFloat, {}, {}};
    for (size_t i = 0; i < v->size(); ++i) {
        if (v->isFloat) {
            double r = 0;
            if (!unaryReal(node.opType, v->reals[i], r) || !std::isfinite(r)) return std::nullopt;
            out.reals.push_back(r);
        } else {
            int64_t r = 0;
            if (!unaryInt(node.opType, v->ints[i], r)) return std::nullopt;
            out.ints.push_back(r);
        }
    }
    return Folded{out, typeOf(graph, node, 0)};
}

bool isComparison(const std::string& op) {
    return op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" || op == "GreaterOrEqual";
}

bool binaryInt(const Node& node, int64_t a, int64_t b, int64_t& out) {
    const std::string& op = node.opType;
    if (op == "Add" || op == "Sum") return !__builtin_add_overflow(a, b, &out);
    if (op == "Sub") return !__builtin_sub_overflow(a, b, &out);
    if (op == "Mul") return !__builtin_mul_overflow(a, b, &out);
    if (op == "Div") return b != 0 && !(a == INT64_MIN && b == -1) && ((out = a / b), true);
    if (op == "Mod") {
        if (b == 0 || (a == INT64_MIN && b == -1)) return false;
        out = a % b;
        // Integer Mod takes the divisor's sign unless fmod=1 (then C's remainder).
        if (node.attributeInt("fmod", 0) == 0 && out != 0 && ((out < 0) != (b < 0))) out += b;
        return true;
    }
    if (op == "Min") return (out = std::min(a, b)), true;
    if (op == "Max") return (out = std::max(a, b)), true;
    if (op == "And") return (out = (a != 0) && (b != 0)), true;
    if (op == "Or") return (out = (a != 0) || (b != 0)), true;
    if (op == "Xor") return (out = (a != 0) != (b != 0)), true;
    if (op == "Equal") return (out = a == b), true;
    if (op == "Less") return (out = a < b), true;
    if (op == "Greater") return (out = a > b), true;
    if (op == "LessOrEqual") return (out = a <= b), true;
    if (op == "GreaterOrEqual") return (out = a >= b), true;
    return false;
}

bool binaryReal(const Node& node, double a, double b, double& out) {
    using Fn = double (*)(double, double);
    static const std::map<std::string, Fn> fns = {
        {"Add", [](double x, double y) { return x + y; }},
        {"Sum", [](double x, double y) { return x + y; }},
        {"Sub", [](double x, double y) { return x - y; }},
        {"Mul", [](double x, double y) { return x * y; }},
        {"Div", [](double x, double y) { return x / y; }},
        {"Mod", [](double x, double y) { return std::fmod(x, y); }},
        {"Pow", [](double x, double y) { return std::pow(x, y); }},
        {"Min", [](double x, double y) { return std::min(x, y); }},
        {"Max", [](double x, double y) { return std::max(x, y); }},
        {"Equal", [](double x, double y) { return double(x == y); }},
        {"Less", [](double x, double y) { return double(x < y); }},
        {"Greater", [](double x, double y) { return double(x > y); }},
        {"LessOrEqual", [](double x, double y) { return double(x <= y); }},
        {"GreaterOrEqual", [](double x, double y) { return double(x >= y); }},
    };
    auto fn = fns.find(node.opType);
    return fn != fns.end() && ((out = fn->second(a, b)), true);
}

std::optional<Value> binary(const Node& node, const Value& a, const Value& b) {
    Dims dims;
    if (a.isFloat != b.isFloat || !shapes::broadcast(a.dims, b.dims, dims)) return std::nullopt;
    const auto ia = broadcastIndices(a.dims, dims);
    const auto ib = broadcastIndices(b.dims, dims);
    const bool comparison = isComparison(node.opType);
    Value out{dims, a.isFloat && !comparison, {}, {}};
    for (size_t i = 0; i < ia.size(); ++i) {
        if (a.isFloat) {
            double r = 0;
            if (!binaryReal(node, a.reals[ia[i]], b.reals[ib[i]], r) || !std::isfinite(r))
                return std::nullopt;
            if (comparison) {
                out.ints.push_back(r != 0 ? 1 : 0);
            } else {
                out.reals.push_back(r);
            }
        } else {
            int64_t r = 0;
            if (!binaryInt(node, a.ints[ia[i]], b.ints[ib[i]], r)) return std::nullopt;
            out.ints.push_back(r);
        }
    }
    return out;
}

// Binary and variadic (Min, Max, Sum) elementwise ops with multidirectional broadcasting.
std::optional<Folded> binaryFold(const Graph& graph, const Node& node) {
    std::optional<Value> acc = valueOf(graph, node, 0);
    if (!acc || node.inputs.size() < 2) return std::nullopt;
    for (size_t i = 1; i < node.inputs.size(); ++i) {
        auto next = valueOf(graph, node, i);
        if (!next || !(acc = binary(node, *acc, *next))) return std::nullopt;
    }
    const bool logical = node.opType == "And" || node.opType == "Or" || node.opType == "Xor";
    return Folded{*acc, isComparison(node.opType) || logical ? DataType::Bool : typeOf(graph, node, 0)};
}

std::optional<Folded> whereFold(const Graph& graph, const Node& node) {
    auto c = valueOf(graph, node, 0);
    auto x = valueOf(graph, node, 1);
    auto y = valueOf(graph, node, 2);
    Dims dims;
    if (!c || !x || !y || c->isFloat || x->isFloat != y->isFloat ||
        !shapes::broadcast(c->dims, x->dims, dims) || !shapes::broadcast(dims, y->dims, dims))
        return std::nullopt;
    const auto ic = broadcastIndices(c->dims, dims);
    const auto ix = broadcastIndices(x->dims, dims);
    const auto iy = broadcastIndices(y->dims, dims);
    Value out{dims, x->isFloat, {}, {}};
    for (size_t i = 0; i < ic.size(); ++i) {
        const bool takeX = c->ints[ic[i]] != 0;
        if (x->isFloat) {
            out.reals.push_back(takeX ? x->reals[ix[i]] : y->reals[iy[i]]);
        } else {
            out.ints.push_back(takeX ? x->ints[ix[i]] : y->ints[iy[i]]);
        }
    }
    return Folded{out, typeOf(graph, node, 1)};
}

std::optional<Folded> gatherFold(const Graph& graph, const Node& node) {
    auto data = valueOf(graph, node, 0);
    auto indices = valueOf(graph, node, 1);
    int64_t axis = 0;
    if (!data || !indices || indices->isFloat || data->dims.empty() ||
        !shapes::normalizeAxis(node.attributeInt("axis", 0), static_cast<int64_t>(data->dims.size()), axis))
        return std::nullopt;
    const auto a = static_cast<size_t>(axis);
    const int64_t axisDim = data->dims[a];
    const size_t outer = static_cast<size_t>(countOf(Dims(data->dims.begin(), data->dims.begin() + axis)));
    const size_t inner = static_cast<size_t>(countOf(Dims(data->dims.begin() + axis + 1, data->dims.end())));
    Dims dims(data->dims.begin(), data->dims.begin() + axis);
    dims.insert(dims.end(), indices->dims.begin(), indices->dims.end());
    dims.insert(dims.end(), data->dims.begin() + axis + 1, data->dims.end());
    countOf(dims);
    std::vector<size_t> picks;
    for (size_t o = 0; o < outer; ++o) {
        for (int64_t index : indices->ints) {
            if (index < -axisDim || index >= axisDim) return std::nullopt;
            const size_t at = static_cast<size_t>(index < 0 ? index + axisDim : index);
            for (size_t i = 0; i < inner; ++i)
                picks.push_back((o * static_cast<size_t>(axisDim) + at) * inner + i);
        }
    }
    return Folded{pick(*data, dims, picks), typeOf(graph, node, 0)};
}

std::optional<Folded> reshapeLikeFold(const Graph& graph, const Node& node) {
    auto v = valueOf(graph, node, 0);
    if (!v) return std::nullopt;
    std::vector<InferredOutput> outputs(1);
    bool ok = false;
    if (node.opType == "Reshape") {
        ok = shapes::reshapeRule(graph, node, outputs);
    } else if (node.opType == "Flatten") {
        ok = shapes::flattenRule(graph, node, outputs);
    } else if (node.opType == "Squeeze") {
        ok = shapes::squeezeRule(graph, node, outputs);
    } else if (node.opType == "Unsqueeze") {
        ok = shapes::unsqueezeRule(graph, node, outputs);
    }
    if (!ok || !outputs[0].known) return std::nullopt;
    return Folded{withDims(*v, outputs[0].dims), typeOf(graph, node, 0)};
}

std::optional<Folded> expandFold(const Graph& graph, const Node& node) {
    auto v = valueOf(graph, node, 0);
    auto shape = shapes::inputValues(graph, node, 1);
    Dims dims;
    if (!v || !shape || !shapes::broadcast(v->dims, *shape, dims)) return std::nullopt;
    return Folded{pick(*v, dims, broadcastIndices(v->dims, dims)), typeOf(graph, node, 0)};
}

std::optional<Folded> concatFold(const Graph& graph, const Node& node) {
    std::vector<Value> parts;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
        auto v = valueOf(graph, node, i);
        if (!v || (!parts.empty() && v->isFloat != parts[0].isFloat)) return std::nullopt;
        parts.push_back(std::move(*v));
    }
    std::vector<InferredOutput> outputs(1);
    int64_t axis = 0;
    if (parts.empty() || !shapes::concatRule(graph, node, outputs) ||
        !shapes::normalizeAxis(node.attributeInt("axis", 0), static_cast<int64_t>(parts[0].dims.size()),
                               axis))
        return std::nullopt;
    const Dims& first = parts[0].dims;
    const size_t outer = static_cast<size_t>(countOf(Dims(first.begin(), first.begin() + axis)));
    Value out{outputs[0].dims, parts[0].isFloat, {}, {}};
    countOf(out.dims);
    for (size_t o = 0; o < outer; ++o) {
        for (const Value& part : parts) {
            const size_t chunk = part.size() / std::max<size_t>(outer, 1);
            if (part.isFloat) {
                out.reals.insert(out.reals.end(), part.reals.begin() + o * chunk,
                                 part.reals.begin() + (o + 1) * chunk);
            } else {
                out.ints.insert(out.ints.end(), part.ints.begin() + o * chunk,
                                part.ints.begin() + (o + 1) * chunk);
            }
        }
    }
    return Folded{out, typeOf(graph, node, 0)};
}

std::optional<Folded> sliceFold(const Graph& graph, const Node& node) {
    auto v = valueOf(graph, node, 0);
    Dims starts, ends, axes, steps;
    std::vector<shapes::SliceRange> ranges;
    if (!v || !shapes::sliceParameters(graph, node, starts, ends, axes, steps) ||
        !shapes::sliceRanges(v->dims, starts, ends, axes, steps, ranges))
        return std::nullopt;
    Dims dims;
    for (const auto& r : ranges)
        dims.push_back(r.count);
    const size_t n = static_cast<size_t>(countOf(dims));
    std::vector<size_t> picks(n);
    for (size_t i = 0; i < n; ++i) {
        size_t rest = i, at = 0, stride = 1;
        for (size_t d = dims.size(); d-- > 0;) {
            const size_t c = rest % static_cast<size_t>(dims[d]);
            rest /= static_cast<size_t>(dims[d]);
            at += static_cast<size_t>(ranges[d].start + static_cast<int64_t>(c) * ranges[d].step) * stride;
            stride *= static_cast<size_t>(v->dims[d]);
        }
        picks[i] = at;
    }
    return Folded{pick(*v, dims, picks), typeOf(graph, node, 0)};
}

std::optional<Folded> constantOfShapeFold(const Graph& graph, const Node& node) {
    auto shape = shapes::inputValues(graph, node, 0);
    if (!shape) return std::nullopt;
    const size_t n = static_cast<size_t>(countOf(*shape));
    auto attr = node.attributes.find("value");
    if (attr == node.attributes.end())
        return Folded{{*shape, true, {}, std::vector<double>(n, 0.0)}, DataType::Float32};
    const DataType type = dataTypeFromOnnx(attr->second.tensorType);
    if (!isFloatingPoint(type) && attr->second.ints.size() == 1)
        return Folded{{*shape, false, std::vector<int64_t>(n, attr->second.ints[0]), {}}, type};
    if (isFloatingPoint(type) && attr->second.floats.size() == 1)
        return Folded{{*shape, true, {}, std::vector<double>(n, attr->second.floats[0])}, type};
    return std::nullopt;
}

std::optional<Folded> rangeFold(const Graph& graph, const Node& node) {
    auto start = valueOf(graph, node, 0);
    auto limit = valueOf(graph, node, 1);
    auto delta = valueOf(graph, node, 2);
    if (!start || !limit || !delta || start->size() != 1 || limit->size() != 1 || delta->size() != 1 ||
        start->isFloat != delta->isFloat)
        return std::nullopt;
    std::vector<InferredOutput> outputs(1);
    if (!shapes::rangeRule(graph, node, outputs)) return std::nullopt;
    const int64_t n = countOf(outputs[0].dims);
    Value out{{n}, start->isFloat, {}, {}};
    for (int64_t i = 0; i < n; ++i) {
        if (start->isFloat) {
            out.reals.push_back(start->reals[0] + static_cast<double>(i) * delta->reals[0]);
        } else {
            out.ints.push_back(checkedAdd(start->ints[0], checkedMul(i, delta->ints[0])));
        }
    }
    return Folded{out, typeOf(graph, node, 0)};
}

// ReduceSum/Prod/Min/Max of a 1-D value (the product or sum of a shape).
std::optional<Folded> reduceFold(const Graph& graph, const Node& node) {
    auto v = valueOf(graph, node, 0);
    auto axes = shapes::axesOf(graph, node);
    if (!v || v->isFloat || v->dims.size() != 1 || !axes || axes->size() > 1) return std::nullopt;
    if (axes->empty() && node.attributeInt("noop_with_empty_axes", 0) != 0)
        return Folded{*v, typeOf(graph, node, 0)};
    if (axes->size() == 1 && (*axes)[0] != 0 && (*axes)[0] != -1) return std::nullopt;
    if (v->ints.empty() && (node.opType == "ReduceMin" || node.opType == "ReduceMax")) return std::nullopt;
    int64_t acc = node.opType == "ReduceProd" ? 1 : node.opType == "ReduceSum" ? 0 : v->ints[0];
    for (int64_t x : v->ints) {
        if (node.opType == "ReduceProd") {
            acc = checkedMul(acc, x);
        } else if (node.opType == "ReduceSum") {
            if (__builtin_add_overflow(acc, x, &acc)) return std::nullopt;
        } else {
            acc = node.opType == "ReduceMin" ? std::min(acc, x) : std::max(acc, x);
        }
    }
    const Dims dims = node.attributeInt("keepdims", 1) != 0 ? Dims{1} : Dims{};
    return Folded{{dims, false, {acc}, {}}, typeOf(graph, node, 0)};
}

// Split: the parts along `axis` (default 0) by the `split` input (opset 13+) or attribute, else into equal
// parts (the last one smaller when they do not divide, as opset 18's num_outputs has it).
std::optional<std::vector<Folded>> splitFold(const Graph& graph, const Node& node) {
    auto v = valueOf(graph, node, 0);
    int64_t axis = 0;
    if (!v || v->dims.empty() ||
        !shapes::normalizeAxis(node.attributeInt("axis", 0), static_cast<int64_t>(v->dims.size()), axis))
        return std::nullopt;
    const auto a = static_cast<size_t>(axis);
    const int64_t length = v->dims[a];
    const auto parts = static_cast<int64_t>(node.outputs.size());
    std::vector<int64_t> sizes;
    if (node.inputs.size() > 1 && node.inputs[1] >= 0) {
        auto given = valueOf(graph, node, 1);
        if (!given || given->isFloat) return std::nullopt;
        sizes = given->ints;
    } else if (!node.attributeInts("split").empty()) {
        sizes = node.attributeInts("split");
    } else {
        const int64_t chunk = parts > 0 ? (length + parts - 1) / parts : 0;
        for (int64_t k = 0; k < parts; ++k)
            sizes.push_back(std::max<int64_t>(0, std::min(chunk, length - k * chunk)));
    }
    int64_t total = 0;
    for (int64_t size : sizes)
        if (size < 0 || __builtin_add_overflow(total, size, &total)) return std::nullopt;
    if (static_cast<int64_t>(sizes.size()) != parts || total != length) return std::nullopt;

    const size_t outer = static_cast<size_t>(countOf(Dims(v->dims.begin(), v->dims.begin() + axis)));
    const size_t inner = static_cast<size_t>(countOf(Dims(v->dims.begin() + axis + 1, v->dims.end())));
    std::vector<Folded> out;
    int64_t offset = 0;
    for (int64_t size : sizes) {
        Dims dims = v->dims;
        dims[a] = size;
        std::vector<size_t> picks;
        for (size_t o = 0; o < outer; ++o)
            for (int64_t at = offset; at < offset + size; ++at)
                for (size_t i = 0; i < inner; ++i)
                    picks.push_back((o * static_cast<size_t>(length) + static_cast<size_t>(at)) * inner + i);
        out.push_back(Folded{pick(*v, dims, picks), typeOf(graph, node, 0)});
        offset += size;
    }
    return out;
}

const std::map<std::string, FoldRule>& foldRules() {
    // clang-format off
    static const std::map<std::string, FoldRule> rules = {
        {"Shape", shapeFold},         {"Size", sizeFold},
        {"Identity", identityFold},   {"Cast", castFold},
        {"CastLike", castFold},       {"Neg", unaryFold},
        {"Abs", unaryFold},           {"Not", unaryFold},
        {"Sign", unaryFold},          {"Floor", unaryFold},
        {"Ceil", unaryFold},          {"Sqrt", unaryFold},
        {"Reciprocal", unaryFold},    {"Add", binaryFold},
        {"Sub", binaryFold},          {"Mul", binaryFold},
        {"Div", binaryFold},          {"Mod", binaryFold},
        {"Pow", binaryFold},          {"Min", binaryFold},
        {"Max", binaryFold},          {"Sum", binaryFold},
        {"And", binaryFold},          {"Or", binaryFold},
        {"Xor", binaryFold},          {"Equal", binaryFold},
        {"Less", binaryFold},         {"Greater", binaryFold},
        {"LessOrEqual", binaryFold},  {"GreaterOrEqual", binaryFold},
        {"Where", whereFold},         {"Gather", gatherFold},
        {"Reshape", reshapeLikeFold}, {"Flatten", reshapeLikeFold},
        {"Squeeze", reshapeLikeFold}, {"Unsqueeze", reshapeLikeFold},
        {"Expand", expandFold},       {"Concat", concatFold},
        {"Slice", sliceFold},         {"ConstantOfShape", constantOfShapeFold},
        {"Range", rangeFold},         {"ReduceSum", reduceFold},
        {"ReduceProd", reduceFold},   {"ReduceMin", reduceFold},
        {"ReduceMax", reduceFold},    {"Transpose", transposeFold},
        {"Pad", padFold},             {"Tile", tileFold},
        {"ScatterND", scatterNDFold}, {"GatherElements", gatherElementsFold},
        {"CumSum", cumSumFold},         {"GatherND", gatherNDFold},
        {"Trilu", triluFold},           {"NonZero", nonZeroFold},
    };
    // clang-format on
    return rules;
}

bool store(Graph& graph, int index, const Folded& folded) {
    if (index < 0 || static_cast<int64_t>(folded.value.size()) > maxFoldedElements) return false;
    for (int64_t d : folded.value.dims)
        if (d < 0) return false;
    if (shapes::elementCount(folded.value.dims) != static_cast<int64_t>(folded.value.size())) return false;
    Tensor& t = graph.tensors[static_cast<size_t>(index)];
    if (t.intValues || t.floatValues) return false;
    if (t.shapeKnown && t.dims != folded.value.dims) return false;
    const DataType type = t.type != DataType::Undefined ? t.type : folded.type;
    if (type != DataType::Undefined && isFloatingPoint(type) != folded.value.isFloat) return false;
    t.type = type;
    t.dims = folded.value.dims;
    t.shapeKnown = true;
    if (folded.value.isFloat) {
        t.floatValues = folded.value.reals;
    } else {
        t.intValues = folded.value.ints;
    }
    return true;
}

} // namespace
} // namespace folding

using namespace folding;

bool foldNodeValues(Graph& graph, size_t nodeIndex) {
    if (nodeIndex >= graph.nodes.size()) return false;
    const Node& node = graph.nodes[nodeIndex];
    if (!node.isDefaultDomain() || node.repeat != 1 || !node.note.empty() || node.outputs.empty())
        return false;
    if (node.opType == "Split") {
        try {
            const std::optional<std::vector<Folded>> parts = splitFold(graph, node);
            bool stored = false;
            for (size_t k = 0; parts && k < parts->size(); ++k)
                stored = store(graph, node.outputs[k], (*parts)[k]) || stored;
            return stored;
        } catch (const std::exception&) {
            return false;
        }
    }
    auto rule = foldRules().find(node.opType);
    if (rule == foldRules().end()) return false;
    try {
        std::optional<Folded> folded = rule->second(graph, node);
        return folded && store(graph, node.outputs[0], *folded);
    } catch (const std::exception&) {
        return false; // too large or overflowing: left unfolded
    }
}

void foldIntegerValues(Graph& graph) {
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        foldNodeValues(graph, i);
}

} // namespace rooftop
