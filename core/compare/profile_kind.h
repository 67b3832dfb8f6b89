// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/compare_session.h"

#include <optional>
#include <string>

namespace rooftop {

/// What the start of a measured file says it is.
struct ProfileKindGuess {
    std::optional<ProfileSource> source; ///< none when the file says nothing we know
    bool layerInfo = false; ///< a trtexec --exportLayerInfo file: not a profile, but what goes with one
};

/// Guesses a profile's kind from its first 64 KiB and its name: `.csv` or an `ID,...` header is Nsight
/// Compute; JSON with `averageMs` is trtexec --exportProfile; JSON with `traceEvents` or `"ph"` is ONNX
/// Runtime; JSON with `"Layers"` is a layer info. Reads nothing else; never throws for content (only for a
/// file it cannot read: InputError).
ProfileKindGuess guessProfileKind(const std::string& path);

} // namespace rooftop
