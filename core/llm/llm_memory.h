// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/device/device_spec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// What a generation holds in memory against what the board has (Jetson's memory is shared with the OS).
struct LlmMemory {
    int64_t weightBytes = 0;
    int64_t kvBytesPerToken = 0; ///< one token of one sequence, every layer's keys and values
    int64_t kvBytes = 0;         ///< at the largest context, for the whole batch
    int64_t activationBytes = 0; ///< the largest layer's inputs and outputs in prefill (an estimate)
    int64_t totalBytes = 0;
    int64_t boardBytes = 0;    ///< the board's memory (datasheet)
    int64_t reservedBytes = 0; ///< left to the OS and the runtime (an estimate the user can replace)
    bool fits = false;
    int64_t largestContext = 0;      ///< the largest context that fits at the batch (0: not even context 1)
    bool contextByPositions = false; ///< largestContext is the model's position table, not the memory
    int64_t largestBatch = 0;        ///< the largest batch that fits at the context
    /// Usable memory: board minus reserve (never below 0).
    int64_t usableBytes() const { return boardBytes > reservedBytes ? boardBytes - reservedBytes : 0; }
};

/// The largest layer's inputs and outputs in a pass: the activations a runtime holds at once (an estimate).
int64_t largestActivationBytes(const std::vector<LayerCount>& layers);

/// The footprint of `batch` sequences of `context` tokens; reserveGiB is left to the OS and the runtime. The
/// largest context is at most `maxPositions`, the model's position table, when it has one.
LlmMemory llmMemory(int64_t weightBytes, int64_t kvBytesPerToken, int64_t activationBytes, int64_t batch,
                    int64_t context, const DeviceSpec& device, double reserveGiB,
                    std::optional<int64_t> maxPositions = std::nullopt);

} // namespace rooftop
