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
    std::string kernel;   ///< the window's kernel ("idle", "fp32-fma", "dram-triad", "intensity-k64", ...)
    double flops = 0.0;   ///< FLOPs of every launch in the window
    double bytes = 0.0;   ///< DRAM bytes of every launch in the window
    double seconds = 0.0; ///< the window's wall time
    double joules = 0.0;  ///< energy integrated over the window
};

/// One measured mode of a profile (rooftop bench output, schema "rooftop-profile/1").
struct MeasuredMode {
    PowerMode mode;                                    ///< requested clocks
    int64_t observedGpuHz = 0;                         ///< clocks read back during the run
    int64_t observedEmcHz = 0;                         ///< EMC clock read back, Hz (0 = not read)
    int64_t observedCpuKhz = 0;                        ///< CPU clock read back, kHz (0 = not read)
    std::array<double, computeClassCount> peakFlops{}; ///< 0 when not measured
    double bandwidth = 0.0;                            ///< best of the DRAM patterns, bytes/s
    /// Bytes/s of each DRAM pattern (0 = not measured).
    double readBandwidth = 0.0, writeBandwidth = 0.0, copyBandwidth = 0.0, triadBandwidth = 0.0;
    double dispatchSeconds = 0.0;      ///< empty-kernel launch time
    std::optional<PowerModel> power;   ///< fitted, when power could be sampled
    std::vector<EnergySample> samples; ///< the power fit's inputs: one per energy window
    /// Informative: 100 x measured / datasheet per quantity ("fp32_flops", ..., "bandwidth"); see
    /// fillPercentOfTheoretical. Not used by predictions.
    std::map<std::string, double> percentOfTheoretical;
};

/// A measured profile of one board: what rooftop bench writes and the rooflines and advisor read.
struct MeasuredProfile {
    std::string deviceId; ///< catalog id of the board (a profile is refused for another device)
    /// /proc/device-tree/model, L4T release, driver and CUDA versions, ISO 8601 time of the measurement.
    std::string boardModel, l4tRelease, driverVersion, cudaVersion, created;
    std::vector<MeasuredMode> modes; ///< one per measured power mode (possibly none)
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
