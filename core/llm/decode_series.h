// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/llm/llm_pass.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace rooftop {

/// A pass's counts in one line: work, all bytes, and the parts of the bytes that are weights and KV cache.
struct LlmCounts {
    int64_t macs = 0;
    int64_t flops = 0;
    int64_t sfuOps = 0;
    int64_t bytes = 0;
    int64_t weightBytes = 0;
    int64_t kvReadBytes = 0;
    int64_t kvWriteBytes = 0;
};

/// The counts of one counted pass.
LlmCounts countsOf(const LlmPassCount& pass);

/// The decode steps of a generation of G tokens after a prompt of P: steps at contexts P + 1 ... P + G (a
/// step at context c has sequence 1 and past c - 1).
struct DecodeSeries {
    int64_t firstContext = 0;
    int64_t lastContext = 0;
    /// Every layer's counts are affine in the context (checked exactly at a middle step), so any step between
    /// the first and the last is interpolated exactly and the sum is exact.
    bool affine = true;
    std::vector<LlmPassCount> points; ///< counted steps, first and last included, by context
    LlmCounts sum;                    ///< the G steps summed (exact when affine, else trapezoidal)
    /// Steps: G = lastContext - firstContext + 1.
    int64_t steps() const { return lastContext - firstContext + 1; }
};

/// Counts the first, last and (G >= 3) a middle step; when the middle is not on the line through the two
/// (a sliding window, a fixed buffer), counts up to `fallbackPoints` steps evenly spaced instead.
DecodeSeries countDecodeSeries(const LlmCounter& counter, int64_t batch, int64_t firstContext,
                               int64_t lastContext, int fallbackPoints = 17);

/// The decode step at `context`: interpolated exactly when the series is affine and the context lies within
/// it, else counted.
LlmPassCount decodeStepAt(const LlmCounter& counter, const DecodeSeries& series, int64_t batch,
                          int64_t context);

/// The contexts at which to evaluate per-step times for sums: every step when G <= points, else `points`
/// evenly spaced steps, first and last included.
std::vector<int64_t> sampleContexts(int64_t firstContext, int64_t lastContext, int points);

/// The sum over every integer c in [contexts.front(), contexts.back()] of a quantity known at `contexts`,
/// linear between them (exact for a quantity affine between the samples).
double sumOverSteps(const std::vector<int64_t>& contexts, const std::vector<double>& values);

} // namespace rooftop
