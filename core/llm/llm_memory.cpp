// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/llm/llm_memory.h"

#include "core/common/text_format.h"
#include "core/graph/checked_math.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

int64_t largestActivationBytes(const std::vector<LayerCount>& layers) {
    int64_t largest = 0;
    for (const LayerCount& layer : layers)
        largest = std::max(largest, layer.inputBytes + layer.outputBytes);
    return largest;
}

LlmMemory llmMemory(int64_t weightBytes, int64_t kvBytesPerToken, int64_t activationBytes, int64_t batch,
                    int64_t context, const DeviceSpec& device, double reserveGiB,
                    std::optional<int64_t> maxPositions) {
    LlmMemory memory;
    const double gib = double(int64_t{1} << 30);
    memory.weightBytes = weightBytes;
    memory.kvBytesPerToken = kvBytesPerToken;
    memory.kvBytes = checkedMul(checkedMul(kvBytesPerToken, batch), context);
    memory.activationBytes = activationBytes;
    memory.totalBytes = checkedAdd(checkedAdd(weightBytes, memory.kvBytes), activationBytes);
    memory.boardBytes = static_cast<int64_t>(std::llround(device.memoryGiB * gib));
    memory.reservedBytes = static_cast<int64_t>(std::llround(std::max(0.0, reserveGiB) * gib));
    const int64_t usable = memory.usableBytes();
    memory.fits = memory.totalBytes <= usable;
    const int64_t room = usable - weightBytes - activationBytes;
    if (room > 0 && kvBytesPerToken > 0) {
        memory.largestContext = room / checkedMul(kvBytesPerToken, batch);
        if (maxPositions && *maxPositions < memory.largestContext) {
            memory.largestContext = *maxPositions;
            memory.contextByPositions = true;
        }
    }
    // the activations grow with the batch as the KV cache does: per sequence, its share of the batch's
    const int64_t perSequence = checkedAdd(checkedMul(kvBytesPerToken, context),
                                           batch > 0 ? activationBytes / batch : activationBytes);
    const int64_t roomForSequences = usable - weightBytes;
    if (roomForSequences > 0 && perSequence > 0) memory.largestBatch = roomForSequences / perSequence;
    return memory;
}

} // namespace rooftop
