// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/llm/decode_series.h"
#include "core/llm/llm_memory.h"
#include "core/llm/llm_pass.h"
#include "core/roofline/prediction.h"
#include "core/session/analysis_request.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// How a decoder is counted unless asked otherwise: fused traffic (LLM runtimes fuse a decoder's elementwise
/// ops, so their intermediates stay on chip), every other setting as a model's.
AnalysisSettings llmDefaultSettings();

/// One question about a decoder: a prompt of P tokens, G generated, B sequences, on a board's modes.
struct LlmRequest {
    std::string modelPath;
    AnalysisSettings settings = llmDefaultSettings(); ///< dims holds the user's other --dim values
    int64_t prompt = 128;                             ///< P
    int64_t generate = 128;                           ///< G: decode steps at contexts P + 1 ... P + G
    int64_t batch = 1;                                ///< B concurrent sequences
    std::vector<int64_t> contexts; ///< decode steps to report; empty: the first and the last
    int64_t sweepFrom = 0;         ///< context sweep (TPOT against context); 0: none
    int64_t sweepTo = 0;
    int sweepPoints = 64;
    std::string deviceId;
    RuntimeSelection runtime;
    std::string profilePath;
    std::string
        predictorPath; ///< a predictor of decode steps (rooftop learn --llm): TPOT and its power per mode
    std::string modes = "stock";
    std::optional<int> currentStockId;
    std::optional<double> reserveGiB; ///< memory left to the OS and the runtime; memoryReserveGiB when unset
    double confidence = 0.9;          ///< of the intervals
};

/// The two phases in one mode.
struct LlmModeAnswer {
    ModeProfile profile;
    double ttftSeconds = 0;      ///< the prefill of B x P tokens
    double tpotSeconds = 0;      ///< the mean decode step over the G steps
    double tpotFirstSeconds = 0; ///< the first step (context P + 1)
    double tpotLastSeconds = 0;  ///< the last step (context P + G)
    double prefillTokensPerSecond = 0;
    double decodeTokensPerSecond = 0; ///< B / TPOT
    double energyPerTokenJoules = 0;  ///< decode energy per output token
    double tokensPerJoule = 0;
    double decodeWatts = 0;
    double prefillWatts = 0;
    double endToEndSeconds = 0; ///< prefill + the G steps
    double endToEndJoules = 0;
    Bound prefillBound = Bound::Compute;
    Bound decodeBound = Bound::Memory;
    Provenance provenance = Provenance::Estimate;        ///< the weaker of the two phases'
    Provenance prefillProvenance = Provenance::Estimate; ///< TTFT's (the roofline's, or a calibration's)
    Provenance decodeProvenance = Provenance::Estimate;  ///< TPOT's, its power and energy (a predictor's)
    std::vector<double> sweepTpotSeconds;                ///< per LlmResult::sweepContexts
    /// How far TPOT, the decode's power and energy may be off in this mode: LlmResult::spread, widened to a
    /// predictor's own spread here (larger far from its runs).
    PredictionSpread decodeSpread;
    bool extrapolated = false; ///< a predictor's mode outside the clocks, batches or precisions it learned
};

/// What runLlmAnalysis found.
struct LlmResult {
    LlmRequest request;
    LlmSignature signature;
    LlmPassCount prefill;
    DecodeSeries generation;               ///< the G decode steps, counted and summed
    std::vector<LlmPassCount> decodeSteps; ///< at request.contexts, or the first and last step
    LlmMemory memory;
    DeviceSpec device;
    RuntimeProfile runtime;           ///< decode's (and prefill's, unless a runtimes file has one per phase)
    RuntimeProfile prefillRuntime;    ///< prefill's
    std::vector<LlmModeAnswer> modes; ///< one per mode of request.modes; empty without a board
    PredictionSpread spread;          ///< how far the per-mode numbers may be off (TPOT: spread.latency)
    double ttftSpread = 0;            ///< how far TTFT may be off (the prefill's own; 1 sigma of its log)
    double prefillPowerSpread = 0;    ///< how far the prefill's power may be off (the roofline's, as TTFT)
    std::string spreadBasis;
    std::string predictionBasis; ///< what the per-mode numbers rest on: the decode's and the prefill's
    std::vector<int64_t> sweepContexts;
    std::vector<std::string> assumptions; ///< what was assumed (dims, roles, the memory reserve)
    bool extrapolated = false;            ///< a predictor's decode steps beyond its runs' batches or contexts
};

/// The provenance as a reader needs it: one name, or "TPOT predicted, TTFT estimate" when the phases differ.
std::string llmProvenanceText(const LlmModeAnswer& answer);

/// The roof that bounds a pass as LLM users name it: "bandwidth", "compute" or "overhead".
const char* passBoundName(Bound bound);

/// Counts prefill and decode, sizes memory, and predicts both phases in every mode; throws InputError (a
/// prompt beyond the position table, a bad option) and UnavailableError like runAnalysis.
LlmResult runLlmAnalysis(const LlmRequest& request);

} // namespace rooftop
