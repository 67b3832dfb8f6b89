// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// One power rail of a tegrastats line: "VDD_IN 4541mW/4541mW" (JetPack 5/6) or "VDD_IN 1383/1383" (4).
struct TegrastatsRail {
    std::string label;
    int64_t milliwatts = 0;        ///< instant
    int64_t averageMilliwatts = 0; ///< tegrastats' running average
};

/// What Rooftop reads from a tegrastats line (jetson.md §2.4; fields are matched by pattern, not position).
struct TegrastatsLine {
    std::vector<TegrastatsRail> rails; ///< in line order, "NC" skipped
    std::optional<int> gpuLoadPercent; ///< GR3D_FREQ x%
    std::optional<int64_t> gpuMhz;     ///< GR3D_FREQ x%@MHZ (root only)
};

/// Parses one tegrastats output line; unknown fields are ignored, so junk gives an empty result. Never
/// throws; lines longer than 64 KiB are ignored.
TegrastatsLine parseTegrastatsLine(const std::string& line);

} // namespace rooftop
