// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/llm/llm_session.h"
#include "core/roofline/prediction_spread.h"

#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// What an LLM pick optimises.
enum class LlmObjective { EnergyPerToken, TokensPerSecond };

/// "energy-per-token" or "tokens-per-second".
const char* llmObjectiveName(LlmObjective objective);
/// Parses llmObjectiveName's names; nothing when unknown.
std::optional<LlmObjective> parseLlmObjective(const std::string& text);

/// Limits an LLM configuration must meet, each by its upper bound at `confidence`.
struct LlmLimits {
    std::optional<double> tpotSeconds; ///< time per output token (the mean step)
    std::optional<double> ttftSeconds; ///< time to first token (the prefill)
    std::optional<double> powerWatts;  ///< the larger of prefill's and decode's average power
    double confidence = 0.9;
};

/// One (batch, mode) weighed against the limits.
struct LlmOption {
    int64_t batch = 1;
    const LlmModeAnswer* answer = nullptr;
    double tpotHigh = 0; ///< upper bounds at the confidence
    double ttftHigh = 0;
    double powerHigh = 0;
    double powerLow = 0; ///< with powerHigh: the larger phase power's interval, each phase at its own error
    std::vector<std::string> breaks; ///< the limits it breaks, in words ("TPOT 41.2 ms > 40 ms")
    double worstRatio = 0;           ///< the largest bound / limit (1 or below: meets them all)
};

/// The advisor's answer over every batch and mode of the results.
struct LlmRecommendation {
    LlmObjective objective = LlmObjective::EnergyPerToken;
    LlmLimits limits;
    std::vector<LlmOption> options;   ///< every (batch, mode)
    std::optional<size_t> pick;       ///< into options: the best that meets every limit
    std::optional<size_t> closest;    ///< into options: without a pick, the one that breaks the limits least
    std::optional<size_t> baseline;   ///< into options: the fastest stock mode at the first batch
    std::vector<std::size_t> front;   ///< the Pareto front of tokens/s against tokens/J, fastest first
    std::vector<std::string> reasons; ///< why the pick: what binds, what it saves against the baseline
    /// Into options: others that meet every limit and lie within the pick's own 1-sigma error on the
    /// objective (the predictions cannot rank them), best first.
    std::vector<size_t> closeCalls;
    double closeCallSpread = 0; ///< the pick's 1-sigma spread the close calls lie within
};

/// Weighs every (batch, mode) of `results` (one LlmResult per batch, same model, board and modes); throws
/// InputError when a limit is not positive or there is no mode.
LlmRecommendation recommendLlm(const std::vector<LlmResult>& results, const LlmLimits& limits,
                               LlmObjective objective);

/// The decoder analysed at each batch that fits in memory, and the advisor's answer over them. Not copyable:
/// the recommendation's options point into the results.
struct LlmAdvice {
    std::vector<LlmResult> results;
    LlmRecommendation recommendation;
    std::vector<std::string> tooBig; ///< batches left out for memory: "4 (70.2 GiB)"
    LlmAdvice() = default;
    LlmAdvice(LlmAdvice&&) = default;
    LlmAdvice& operator=(LlmAdvice&&) = default;
    LlmAdvice(const LlmAdvice&) = delete;
    LlmAdvice& operator=(const LlmAdvice&) = delete;
};

/// `request` analysed at each of `batches` (runLlmAnalysis), those that fit weighed by recommendLlm; throws
/// InputError as they do, and when no batch fits.
LlmAdvice adviseLlm(LlmRequest request, const std::vector<int64_t>& batches, const LlmLimits& limits,
                    LlmObjective objective);

/// An option's bounds at the limits' confidence: its tokens per second (from its batch's time spread) and its
/// tokens per joule (from the energy spread).
struct LlmOptionBounds {
    Interval tokensPerSecond, tokensPerJoule;
};

/// The bounds of option `index` of an advice's recommendation.
LlmOptionBounds llmOptionBounds(const LlmAdvice& advice, size_t index);

/// The answer in one line: "Use MODE_15W at batch 4", with --mode for a custom mode, or "No batch and mode
/// meets the limits at 90 %. Closest: ..., which breaks them least: ..."; the reasons follow it.
std::string llmRecommendationHeadline(const LlmRecommendation& recommendation);

/// The pick (or the closest), its reasons, and the front as a table.
std::string llmRecommendationTable(const std::vector<LlmResult>& results,
                                   const LlmRecommendation& recommendation);
/// rooftop-llm-recommend/5: the question, baseline, options on the front, recommended or closest, reasons.
std::string llmRecommendationJson(const std::vector<LlmResult>& results,
                                  const LlmRecommendation& recommendation);

} // namespace rooftop
