// SPDX-License-Identifier: GPL-3.0-or-later
// The cost of a decode step is affine in its context for the graphs exporters write (attention is linear in
// the cached tokens, everything else constant), so three counted steps give every other one exactly. The
// check is exact integer arithmetic on every layer's every column; a graph that fails it is summed from more
// points.
#include "core/llm/decode_series.h"

#include "core/common/errors.h"
#include "core/common/wide_integer.h"
#include "core/graph/checked_math.h"

#include <algorithm>
#include <cmath>

namespace rooftop {
namespace {

using Wide = WideInteger;

// The columns of a layer that interpolation carries.
std::vector<int64_t> columnsOf(const LlmPassCount& pass, size_t l) {
    const LayerCount& layer = pass.workload.layers[l];
    return {layer.macs,       layer.flops,       layer.sfuOps,         layer.weightBytes,
            layer.inputBytes, layer.outputBytes, pass.kv.readBytes[l], pass.kv.writeBytes[l]};
}

void setColumns(LlmPassCount& pass, size_t l, const std::vector<int64_t>& v) {
    LayerCount& layer = pass.workload.layers[l];
    layer.macs = v[0];
    layer.flops = v[1];
    layer.sfuOps = v[2];
    layer.weightBytes = v[3];
    layer.inputBytes = v[4];
    layer.outputBytes = v[5];
    pass.kv.readBytes[l] = v[6];
    pass.kv.writeBytes[l] = v[7];
}

bool sameLayers(const LlmPassCount& a, const LlmPassCount& b) {
    if (a.workload.layers.size() != b.workload.layers.size()) return false;
    for (size_t l = 0; l < a.workload.layers.size(); ++l)
        if (a.workload.layers[l].nodeIndex != b.workload.layers[l].nodeIndex) return false;
    return true;
}

// f(m) on the line through (a, fa) and (b, fb), exactly.
bool onLine(int64_t a, int64_t fa, int64_t b, int64_t fb, int64_t m, int64_t fm) {
    return Wide(fm - fa) * Wide(b - a) == Wide(fb - fa) * Wide(m - a);
}

bool affineThrough(const LlmPassCount& a, const LlmPassCount& m, const LlmPassCount& b) {
    if (!sameLayers(a, m) || !sameLayers(a, b)) return false;
    const int64_t ca = a.pass.context(), cm = m.pass.context(), cb = b.pass.context();
    for (size_t l = 0; l < a.workload.layers.size(); ++l) {
        const auto va = columnsOf(a, l), vm = columnsOf(m, l), vb = columnsOf(b, l);
        for (size_t k = 0; k < va.size(); ++k)
            if (!onLine(ca, va[k], cb, vb[k], cm, vm[k])) return false;
    }
    return true;
}

void resumTotals(LlmPassCount& pass) {
    sumLayersIntoTotals(pass.workload);
    pass.kv.read = pass.kv.write = 0;
    for (size_t l = 0; l < pass.workload.layers.size(); ++l) {
        pass.kv.read = checkedAdd(pass.kv.read, pass.kv.readBytes[l]);
        pass.kv.write = checkedAdd(pass.kv.write, pass.kv.writeBytes[l]);
    }
}

// The step at `context` on the line through a and b; nothing when a value is not a whole number there.
std::optional<LlmPassCount> interpolate(const LlmPassCount& a, const LlmPassCount& b, int64_t context) {
    LlmPassCount out = a;
    out.pass.past = context - 1;
    const int64_t ca = a.pass.context(), cb = b.pass.context();
    if (ca == cb) return context == ca ? std::optional<LlmPassCount>(a) : std::nullopt;
    for (size_t l = 0; l < a.workload.layers.size(); ++l) {
        const auto va = columnsOf(a, l), vb = columnsOf(b, l);
        std::vector<int64_t> v(va.size());
        for (size_t k = 0; k < va.size(); ++k) {
            const Wide scaled = Wide(vb[k] - va[k]) * Wide(context - ca);
            if (scaled % Wide(cb - ca) != 0) return std::nullopt;
            v[k] = static_cast<int64_t>(Wide(va[k]) + scaled / Wide(cb - ca));
        }
        setColumns(out, l, v);
    }
    resumTotals(out);
    return out;
}

int64_t wideToInt(Wide value) {
    if (value > Wide(INT64_MAX) || value < Wide(INT64_MIN)) throw CountOverflow("count overflows 64 bits");
    return static_cast<int64_t>(value);
}

} // namespace

LlmCounts countsOf(const LlmPassCount& pass) {
    const WorkloadTotals& t = pass.workload.totals;
    return {t.macs, t.flops, t.sfuOps, t.bytes(), t.weightBytes, pass.kv.read, pass.kv.write};
}

std::vector<int64_t> sampleContexts(int64_t firstContext, int64_t lastContext, int points) {
    std::vector<int64_t> contexts;
    const int64_t steps = lastContext - firstContext + 1;
    if (steps <= points || points < 2) {
        for (int64_t c = firstContext; c <= lastContext; ++c)
            contexts.push_back(c);
        return contexts;
    }
    for (int i = 0; i < points; ++i) {
        const int64_t c = firstContext + static_cast<int64_t>(Wide(steps - 1) * i / (points - 1));
        if (contexts.empty() || contexts.back() != c) contexts.push_back(c);
    }
    return contexts;
}

double sumOverSteps(const std::vector<int64_t>& contexts, const std::vector<double>& values) {
    if (contexts.empty()) return 0.0;
    double sum = (values.front() + values.back()) / 2.0;
    if (contexts.size() == 1) return values.front();
    for (size_t i = 0; i + 1 < contexts.size(); ++i)
        sum += (values[i] + values[i + 1]) / 2.0 * static_cast<double>(contexts[i + 1] - contexts[i]);
    return sum;
}

DecodeSeries countDecodeSeries(const LlmCounter& counter, int64_t batch, int64_t firstContext,
                               int64_t lastContext, int fallbackPoints) {
    DecodeSeries series;
    series.firstContext = firstContext;
    series.lastContext = lastContext;
    const auto step = [&](int64_t context) { return counter.count({batch, 1, context - 1}); };
    series.points.push_back(step(firstContext));
    if (lastContext > firstContext) series.points.push_back(step(lastContext));
    if (lastContext - firstContext >= 2) {
        const int64_t middle = firstContext + (lastContext - firstContext) / 2;
        LlmPassCount m = step(middle);
        series.affine = affineThrough(series.points.front(), m, series.points.back());
        series.points.insert(series.points.begin() + 1, std::move(m));
    }
    if (!series.affine) {
        series.points.clear();
        for (int64_t c : sampleContexts(firstContext, lastContext, fallbackPoints))
            series.points.push_back(step(c));
    }

    const int64_t steps = series.steps();
    std::vector<int64_t> contexts;
    std::vector<LlmCounts> counts;
    for (const LlmPassCount& p : series.points) {
        contexts.push_back(p.pass.context());
        counts.push_back(countsOf(p));
    }
    const auto field = [&](int64_t LlmCounts::*member) -> int64_t {
        if (series.affine) // G (f(first) + f(last)) / 2, a whole number for an affine f on whole steps
            return wideToInt(Wide(steps) * (Wide(counts.front().*member) + Wide(counts.back().*member)) / 2);
        std::vector<double> values;
        for (const LlmCounts& c : counts)
            values.push_back(static_cast<double>(c.*member));
        return static_cast<int64_t>(std::llround(sumOverSteps(contexts, values)));
    };
    series.sum = {field(&LlmCounts::macs),        field(&LlmCounts::flops),
                  field(&LlmCounts::sfuOps),      field(&LlmCounts::bytes),
                  field(&LlmCounts::weightBytes), field(&LlmCounts::kvReadBytes),
                  field(&LlmCounts::kvWriteBytes)};
    return series;
}

LlmPassCount decodeStepAt(const LlmCounter& counter, const DecodeSeries& series, int64_t batch,
                          int64_t context) {
    for (const LlmPassCount& p : series.points)
        if (p.pass.context() == context && p.pass.batch == batch) return p;
    if (series.affine && batch == series.points.front().pass.batch && context >= series.firstContext &&
        context <= series.lastContext)
        if (auto exact = interpolate(series.points.front(), series.points.back(), context)) return *exact;
    return counter.count({batch, 1, context - 1});
}

} // namespace rooftop
