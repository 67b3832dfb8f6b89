// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/operator_class.h"

#include <QJsonObject>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// Multipliers a calibration fitted for the estimated power model (E = eps_flop W + eps_byte Q + pi0 T) of
/// every mode; a coefficient the runs could not separate keeps its estimate (multiplier 1, not fitted).
struct RuntimePowerFit {
    double constantScale = 1.0; ///< x pi0
    double flopScale = 1.0;     ///< x eps_flop (every compute class)
    double byteScale = 1.0;     ///< x eps_byte
    /// Which of the three multipliers the runs fitted (the others stay 1).
    bool constantFitted = false, flopFitted = false, byteFitted = false;
    std::optional<double>
        rSquared;      ///< of the measured energies; none when the fit is exact (no degree of freedom)
    std::string basis; ///< what was fitted to what
    /// How far powers predicted with the fit may be off (log-normal spread, from its held-out runs); 0:
    /// unknown (the prior's).
    double spread = 0.0;
    std::string spreadBasis; ///< what spread rests on
};

/// The inference runtime that executes the model: its per-layer dispatch cost and how close its kernels
/// come to the roofs. An explicit, named, calibratable parameter (docs/design.md).
struct RuntimeProfile {
    std::string name; ///< "tensorrt", "onnxruntime-cuda", "pytorch-eager", or a calibrated name
    double dispatchSecondsAtMaxCpu =
        0;                            ///< per-layer launch + framework overhead at the board's top CPU clock
    double computeEfficiency = 1.0;   ///< achieved / peak FLOP/s of its kernels (0..1]
    double bandwidthEfficiency = 1.0; ///< achieved / peak DRAM bandwidth of its kernels (0..1]
    bool calibrated = false;          ///< true once tuned from a user's measurements
    std::string basis;                ///< where the numbers come from
    bool dispatchFitted = false;      ///< dispatchSecondsAtMaxCpu was fitted (else an estimate)
    double inferenceSecondsAtMaxCpu =
        0;                        ///< fixed cost per inference (host work, sync, copies) at the top CPU clock
    bool inferenceFitted = false; ///< inferenceSecondsAtMaxCpu was fitted (else an estimate)
    bool efficiencyFitted =
        false; ///< compute/bandwidth efficiencies were fitted (rooftop calibrate), else estimates
    std::optional<RuntimePowerFit>
        power; ///< fitted power multipliers (rooftop calibrate), none: the estimate
    /// The fraction of the runtime's roofs (after its uniform efficiencies) each operator class reaches,
    /// fitted from a measured layer profile (rooftop compare --calibrate-classes); 1 for a class not fitted.
    ClassFactors classEfficiency = unitClassFactors();
    std::array<bool, operatorClassCount> classFitted{}; ///< the classes a profile fitted
    std::string classBasis;                             ///< the profile the class efficiencies come from
    std::string classEstimateBasis; ///< why the classes not fitted have the factors they have (estimates)
    /// Kernels too small to fill the GPU run below the roofs (core/roofline/kernel_size.h); false: the bare
    /// roofline (the ideal runtime, a bound). The built-in runtimes and runtime files default to true.
    bool kernelSizeModel = false;
    /// The kernel floor's multiplier: a calibration scales whole kernel times, floors included (1 unless
    /// fitted).
    double kernelFloorScale = 1.0;
    /// How much of a kernel's partial last wave the runtime pays (kernel_size.h, tailScaledBusyFraction): 1
    /// the wave model's, 0 none (fitted from a layer profile, else 1).
    double kernelTailScale = 1.0;
    /// How far latencies predicted with this runtime may be off (log-normal spread); 0: unknown (the
    /// prior's).
    double latencySpread = 0.0;
    std::string latencySpreadBasis; ///< what latencySpread rests on
    /// The batch sizes the calibration's runs covered (0 and 0: none); predictions outside them extrapolate.
    int64_t calibratedBatchLow = 0, calibratedBatchHigh = 0;
    /// The precision the calibration counted its runs at ("fp16"); empty: the model's own types, or unknown.
    std::string calibratedPrecision;
    bool calibratedOnSimulator = false; ///< calibrated from the simulated board's runs, not measurements
    /// The board whose runs calibrated it ("agx-orin-64gb"); empty: not calibrated, or a file from before
    /// runtime files named it.
    std::string calibratedDevice;
};

/// Refuses a runtime calibrated on another board than `deviceId` (InputError naming `file`): a fit holds
/// for the board that was measured.
void checkRuntimeBoard(const RuntimeProfile& runtime, const std::string& file, const std::string& deviceId);

/// What a runtime was calibrated on: "calibrated on the simulated board's runs, not measurements",
/// "calibrated from runs", or empty when it was not calibrated.
std::string calibrationWords(const RuntimeProfile& runtime);

/// The built-in runtimes (resources/runtimes.json when present, else compiled-in estimates).
std::vector<RuntimeProfile> knownRuntimes();

/// Parses a runtimes file ("rooftop-runtimes/1", or one bare runtime object as `rooftop calibrate -o` writes
/// it); throws InputError naming the file and the field at fault.
std::vector<RuntimeProfile> loadRuntimeFile(const std::string& path);

/// One runtime of a runtimes file: the one named `name`, or its only one when name is empty; throws
/// InputError.
RuntimeProfile loadRuntimeFromFile(const std::string& path, const std::string& name = {});

/// {"class": efficiency} of the operator classes a profile fitted (empty when none).
QJsonObject fittedClassEfficiencyJson(const RuntimeProfile& runtime);

/// {"class": efficiency} of the classes not fitted whose estimate is not 1 (empty when none).
QJsonObject estimatedClassEfficiencyJson(const RuntimeProfile& runtime);

/// The JSON text of one runtime as one entry of resources/runtimes.json (dispatch in us, "calibrated" flag).
std::string runtimeJson(const RuntimeProfile& runtime);

/// Writes one runtime to a file that loadRuntimeFile reads back (atomically); throws InputError on failure.
void saveRuntimeFile(const std::string& path, const RuntimeProfile& runtime);

/// Writes several runtimes to one "rooftop-runtimes/1" file (atomically); throws InputError on failure.
void saveRuntimesFile(const std::string& path, const std::vector<RuntimeProfile>& runtimes);

/// The compiled-in copies of resources/runtimes.json (used when the data folder has no runtimes.json).
std::vector<RuntimeProfile> builtInRuntimes();

/// The runtime with this name; throws InputError listing the known names.
RuntimeProfile findRuntime(const std::string& name);

/// Dispatch overhead per layer at a CPU clock: scales with 1 / CPU clock (the launch path is CPU-bound).
/// t0 x maxCpuKhz / cpuKhz; t0 unchanged when either clock is not positive (unknown).
double dispatchSeconds(const RuntimeProfile& runtime, double cpuKhz, double maxCpuKhz);

/// Fixed cost per inference at a CPU clock, with the same 1 / CPU clock law as dispatchSeconds.
double inferenceSeconds(const RuntimeProfile& runtime, double cpuKhz, double maxCpuKhz);

} // namespace rooftop
