// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/ceilings.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// One energy sample: a kernel run with its work, traffic, time and integrated energy.
struct EnergySample {
    std::string kernel;
    double flops = 0.0;
    double bytes = 0.0;
    double seconds = 0.0;
    double joules = 0.0;
};

/// One measured mode of a profile (rooftop bench output, schema "rooftop-profile/1").
struct MeasuredMode {
    PowerMode mode;                     ///< requested clocks
    int64_t observedGpuHz = 0;          ///< clocks read back during the run
    int64_t observedEmcHz = 0;
    int64_t observedCpuKhz = 0;
    std::array<double, computeClassCount> peakFlops{}; ///< 0 when not measured
    double bandwidth = 0.0;             ///< best of the DRAM patterns, bytes/s
    double readBandwidth = 0.0, writeBandwidth = 0.0, copyBandwidth = 0.0, triadBandwidth = 0.0;
    double dispatchSeconds = 0.0;       ///< empty-kernel launch time
    std::optional<PowerModel> power;    ///< fitted, when power could be sampled
    std::vector<EnergySample> samples;
    /// Informative: 100 x measured / datasheet per quantity ("fp32_flops", ..., "bandwidth"); see
    /// fillPercentOfTheoretical. Not used by predictions.
    std::map<std::string, double> percentOfTheoretical;
};

/// A measured profile of one board: what rooftop bench writes and the rooflines and advisor read.
struct MeasuredProfile {
    std::string deviceId;
    std::string boardModel, l4tRelease, driverVersion, cudaVersion, created;
    std::vector<MeasuredMode> modes;
};

/// Reads a profile file; throws InputError naming the file and the field at fault.
MeasuredProfile loadMeasuredProfile(const std::string& path);

/// Writes a profile atomically (temporary file + rename); throws InputError when it cannot.
void saveMeasuredProfile(const MeasuredProfile& profile, const std::string& path);

/// The profile as "rooftop-profile/1" JSON text (docs/profile-format.md).
std::string measuredProfileToJson(const MeasuredProfile& profile);

/// Parses "rooftop-profile/1" JSON text; `source` names the file in error messages. Throws InputError.
MeasuredProfile measuredProfileFromJson(const std::string& text, const std::string& source);

/// Same operating point: online cores, CPU, GPU and EMC clocks and active TPCs (names are not compared).
bool sameOperatingPoint(const PowerMode& a, const PowerMode& b);

/// The measured mode at the same operating point as `mode`, or nullptr.
const MeasuredMode* findMeasuredMode(const MeasuredProfile& profile, const PowerMode& mode);

/// Sets mode.percentOfTheoretical from the datasheet ceilings of the device (runtime efficiencies of 1).
void fillPercentOfTheoretical(MeasuredMode& mode, const DeviceSpec& device);

} // namespace rooftop
