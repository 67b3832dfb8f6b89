// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"
#include "core/device/power_mode.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rooftop {

/// A language model's generation that a run measures (rooftop profile --llm): for each of the batch's
/// sequences a prefill of `prompt` tokens, then `generate` decode steps. Prompt 0: not an LLM run.
struct LlmRun {
    int64_t prompt = 0;   ///< prompt tokens each sequence prefills (0: not an LLM run)
    int64_t generate = 0; ///< decode steps after the prefill (tokens generated per sequence)
    /// True for an LLM run.
    bool active() const { return prompt > 0; }
    /// Same prompt and generation.
    bool operator==(const LlmRun& other) const {
        return prompt == other.prompt && generate == other.generate;
    }
    /// Another prompt or generation.
    bool operator!=(const LlmRun& other) const { return !(*this == other); }
};

/// What an LLM run measured per phase.
struct LlmMetrics {
    double ttftMs = 0.0; ///< time to first token: the prefill of the batch's prompts
    double tpotMs = 0.0; ///< time per output token: the mean decode step of the generation
};

/// One configuration a profile runs the model at.
struct RunConfig {
    PowerMode mode;                        ///< the power mode the run is made in
    int64_t batch = 1;                     ///< samples per inference batch
    Precision precision = Precision::FP32; ///< one of runPrecisions()
    Phase phase = Phase::Inference;        ///< an inference or a training step
    std::map<std::string, int64_t> dims;   ///< the model's symbolic dims bound (batch apart); empty: its own
    Optimizer optimizer = Optimizer::Adam; ///< a training step's update (unused for inference)
    LlmRun llm{};                          ///< the generation of an LLM run; inactive otherwise
    /// Runs of this configuration the runs file already holds (a resume's next repeat): the simulated board
    /// draws each repeat's noise apart.
    int repeat = 0;
};

/// One layer of a run's per-layer profile (trtexec --exportProfile): times of one inference.
struct LayerTime {
    std::string name;       ///< the TensorRT layer's name (line breaks replaced by spaces)
    double averageMs = 0.0; ///< mean time of the layer per inference, ms
    double medianMs = 0.0;  ///< the average when the profile has no median (before TensorRT 8.4)
    double percent = 0.0;   ///< share of all layers' time
};

/// What one run measured: latency per batch and, when the runner knows them, power or energy; or a failure.
struct RunResult {
    bool ok = false;               ///< the run succeeded (false: see failure)
    double latencyMs = 0.0;        ///< median latency of one batch
    std::optional<double> p99Ms;   ///< 99th percentile; none when the runner gives none
    std::optional<double> powerW;  ///< average power while running
    std::optional<double> energyJ; ///< energy of one batch
    std::string failure;           ///< one line, when !ok
    std::vector<LayerTime> layers; ///< per-layer profile, when the runner has one
    std::string note;              ///< one line on something missing that did not fail the run
    std::optional<LlmMetrics> llm; ///< an LLM run's phases (latencyMs is then the whole generation)

    /// A failed run with its reason.
    static RunResult failed(std::string reason) {
        RunResult r;
        r.failure = std::move(reason);
        return r;
    }
};

/// The run precisions of a comma-separated list ("fp32,fp16"); throws InputError naming `what` for an empty
/// list or item, or a name that is not a run precision.
std::vector<Precision> parseRunPrecisionList(const std::string& text, const std::string& what);

/// The environment a run's process gets: ROOFTOP_MODEL, ROOFTOP_BATCH, ROOFTOP_DIMS (namedDimsText:
/// "sequence=128", empty for the model's own), ROOFTOP_PRECISION, ROOFTOP_PHASE, ROOFTOP_OPTIMIZER (sgd,
/// momentum or adam for a training step, empty for inference), ROOFTOP_MODE, ROOFTOP_CORES, ROOFTOP_CPU_KHZ,
/// ROOFTOP_GPU_HZ and ROOFTOP_EMC_HZ; for an LLM run ROOFTOP_PROMPT, ROOFTOP_GENERATE and ROOFTOP_CONTEXT
/// (prompt + generate: the largest context), empty otherwise.
std::vector<std::pair<std::string, std::string>> runEnvironment(const RunConfig& config,
                                                                const std::string& modelPath);

} // namespace rooftop
