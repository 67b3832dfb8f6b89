// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop llm's speed targets: a 32-layer, 8 B-parameter export (Llama-3.1-8B's shape, onnxruntime-genai
// style, int4) analysed for prefill and a decode step in process, and TPOT at 64 contexts in all 4,368
// AGX Orin grid modes.
#include "core/llm/decode_series.h"
#include "core/llm/llm_pass.h"
#include "core/llm/mode_sweep.h"
#include "core/session/analysis_session.h"
#include "support/llm_fixtures.h"

#include <QTemporaryDir>
#include <benchmark/benchmark.h>

namespace {

using namespace rooftop;

const std::string& llama8b() {
    static QTemporaryDir dir;
    static const std::string path = [] {
        const std::string p = dir.filePath("llama8b.onnx").toStdString();
        test::writeModel(test::makeLlmDecoder(test::llama31_8b(), test::LlmExport::GenAi), p);
        return p;
    }();
    return path;
}

AnalysisSettings fused() {
    AnalysisSettings settings;
    settings.traffic = TrafficView::Fused;
    return settings;
}

void prefillAndDecode(benchmark::State& state) {
    for (auto _ : state) {
        const LlmCounter counter(llama8b(), fused());
        benchmark::DoNotOptimize(counter.count({1, 512, 0}));
        benchmark::DoNotOptimize(counter.count({1, 1, 1023}));
    }
}
BENCHMARK(prefillAndDecode)->Unit(benchmark::kMillisecond);

void contextSweepOverTheGrid(benchmark::State& state) {
    const LlmCounter counter(llama8b(), fused());
    const DecodeSeries series = countDecodeSeries(counter, 1, 128, 8192);
    AnalysisRequest board;
    board.deviceId = "agx-orin-64gb";
    board.modes = "grid";
    const std::vector<ModeProfile> profiles = runAnalysis(board).modeProfiles;
    const std::vector<int64_t> contexts = sampleContexts(128, 8192, 64);
    for (auto _ : state)
        for (int64_t c : contexts)
            benchmark::DoNotOptimize(
                sweepCompact(compactForSweep(decodeStepAt(counter, series, 1, c).workload), profiles));
    state.counters["modes"] = double(profiles.size());
    state.counters["contexts"] = double(contexts.size());
}
BENCHMARK(contextSweepOverTheGrid)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
