// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// One power rail of a tegrastats line: "VDD_IN 4541mW/4541mW" (JetPack 5/6), "VDD_IN 1383/1383" (4) or
/// "VIN 124486mW/36487mW/124486mW" (JetPack 7: instant / average / maximum).
struct TegrastatsRail {
    std::string label;                     ///< the rail's name ("VDD_IN", "VIN")
    int64_t milliwatts = 0;                ///< instant
    int64_t averageMilliwatts = 0;         ///< tegrastats' running average
    std::optional<int64_t> peakMilliwatts; ///< JetPack 7's third field, the maximum so far
};

/// What Rooftop reads from a tegrastats line (jetson.md §2.4, thor.md; fields are matched by pattern, not
/// position).
struct TegrastatsLine {
    std::vector<TegrastatsRail> rails; ///< in line order, "NC" skipped
    std::optional<int> gpuLoadPercent; ///< GR3D_FREQ x% (JetPack 7 on Thor prints none: NVML has it)
    std::optional<int64_t> gpuMhz;     ///< GR3D_FREQ x%@MHZ (root only), or the highest GPC clock of @[...]
    std::vector<std::optional<int64_t>> gpcMhz; ///< GR3D_FREQ [x%]@[f,f,f] per GPC (Orin JetPack 6.4+, Thor:
                                                ///< three); an "off" or unreadable GPC is nothing
};

/// Parses one tegrastats output line; unknown fields are ignored, so junk gives an empty result. Never
/// throws; lines longer than 64 KiB are ignored.
TegrastatsLine parseTegrastatsLine(const std::string& line);

} // namespace rooftop
