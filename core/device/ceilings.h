// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/device/power_mode.h"
#include "core/device/provenance.h"
#include "core/device/runtime_profile.h"

#include <array>
#include <string>
#include <vector>

namespace rooftop {

/// The hardware that executes a layer's arithmetic. TensorFp8 and TensorFp4 (NVFP4) exist on Blackwell
/// (Jetson Thor); a board without them has a zero peak there, and a model that needs them is not predicted.
enum class ComputeClass {
    Fp32CudaCore = 0, ///< FP32 on CUDA cores
    Fp16CudaCore = 1, ///< FP16 on CUDA cores (half2; also 8- and 4-bit floats element-wise)
    TensorFp16 = 2,   ///< FP16/BF16 matrix work on tensor cores
    TensorInt8 = 3,   ///< INT8 matrix work on tensor cores
    TensorFp8 = 4,    ///< FP8 (E4M3) matrix work on tensor cores (Blackwell)
    TensorFp4 = 5     ///< FP4 (NVFP4) matrix work on tensor cores (Blackwell)
};
/// Number of ComputeClass values.
constexpr int computeClassCount = 6;

/// Short name ("fp32", "fp16", "tensor-fp16", "tensor-int8", "tensor-fp8", "tensor-fp4").
const char* computeClassName(ComputeClass computeClass);

/// True for the tensor-core classes.
bool isTensorClass(ComputeClass computeClass);

/// Energy of one operation of a tensor class relative to a dense FP16 tensor FLOP: 1 for FP16 and INT8,
/// 1/2 for FP8, 1/4 for FP4 (the same tensor cores deliver 2x / 4x the operations in the same power: an
/// estimate, replaced by rooftop bench where it measures the class). 1 for the CUDA-core classes.
double tensorOpEnergyScale(ComputeClass computeClass);

/// One tensor precision's peak at a mode's clock: dense and (2:4 structured) sparse.
struct TensorPeak {
    const char* precision = ""; ///< "fp4", "fp8", "fp16", "tf32", "int8"
    double denseFlops = 0.0;    ///< FLOP/s (ops/s for int8); 0 = the GPU has no such tensor path
    double sparseFlops = 0.0;   ///< denseFlops x the catalog's sparsity factor (0 when no sparse figure)
};

/// The tensor peaks of every precision the catalog gives, at a mode's GPU clock and active SMs, from the
/// datasheet rates (no runtime efficiency): FP4, FP8, FP16/BF16, TF32, INT8.
std::vector<TensorPeak> tensorPeaks(const DeviceSpec& device, const PowerMode& mode);

/// A runtime's per-operator-class efficiencies as one mode uses them: a layer's roofline term is divided by
/// its class's factor.
struct ClassEfficiencies {
    ClassFactors factor = unitClassFactors(); ///< per operator class: what its roofline term is divided by
    std::array<bool, operatorClassCount> fitted{}; ///< the classes a profile fitted (the others keep 1)
    Provenance provenance =
        Provenance::Estimate;        ///< of the fitted factors: fitted when the runtime is calibrated
    std::string basis;               ///< the profile they were fitted from
    double checkedSpread = 0.0;      ///< the runtime's latency spread where it was fitted (0: unknown)
    double checkedPowerSpread = 0.0; ///< its fitted power's spread (0: unknown, the prior's)
    int64_t checkedBatchLow = 0, checkedBatchHigh = 0; ///< the batch sizes the fit covered (0: none)
    bool onSimulator = false; ///< fitted to the simulated board's runs, not to measurements
};

/// The runtime's class efficiencies (fitted provenance when it is calibrated, else estimate).
ClassEfficiencies classEfficiencies(const RuntimeProfile& runtime);

/// What one mode delivers: a peak per compute class, DRAM bandwidth and per-layer dispatch overhead.
struct Ceilings {
    std::array<SourcedValue, computeClassCount> peakFlops; ///< FLOP/s (ops/s for int8)
    SourcedValue bandwidth;                                ///< bytes/s
    SourcedValue dispatchOverhead;                         ///< seconds per layer
    SourcedValue inferenceOverhead;                        ///< seconds per inference (one batch), host side
    ClassEfficiencies classEfficiency;                     ///< per operator class, 1 unless fitted
    /// SMs a kernel's blocks spread over (the kernel-size model, core/roofline/kernel_size.h); 0: no model.
    double kernelSms = 0.0;
    double kernelTailScale = 1.0; ///< the runtime's share of the wave-tail penalty (tailScaledBusyFraction)
    SourcedValue minimumKernel;   ///< seconds a dispatched kernel takes however small (0: no floor)

    /// The peak of a compute class, FLOP/s (ops/s for int8).
    const SourcedValue& peak(ComputeClass c) const { return peakFlops[static_cast<size_t>(c)]; }
    /// Time balance point B_tau = peak / BW (FLOP per byte) for a compute class.
    double balance(ComputeClass c) const {
        return bandwidth.value > 0 ? peak(c).value / bandwidth.value : 0.0;
    }
};

/// The energy model of one mode: E = energyPerFlop * W + energyPerByte * Q + constantPower * T.
struct PowerModel {
    SourcedValue constantPower;          ///< pi0, watts
    SourcedValue energyPerFlop;          ///< epsilon_flop, joules per FP32 CUDA-core FLOP
    SourcedValue energyPerByte;          ///< epsilon_byte, joules per DRAM byte
    double tensorFlopEnergyRatio = 0.25; ///< tensor-core FLOP energy relative to energyPerFlop
    double rSquared = -1.0;              ///< goodness of fit when fitted, -1 otherwise

    /// Energy balance point B_eps = energyPerByte / energyPerFlop.
    double energyBalance() const {
        return energyPerFlop.value > 0 ? energyPerByte.value / energyPerFlop.value : 0.0;
    }
};

/// Where a mode's ceilings and power model came from when a measured profile (rooftop bench) was given.
enum class BenchSource {
    None,     ///< no profile: the datasheet and the runtime's estimates
    Measured, ///< the profile measured this mode
    Predicted ///< predicted from the modes the profile measured
};

/// Ceilings and power model of one mode, as used by rooflines and the advisor.
struct ModeProfile {
    PowerMode mode;                            ///< the operating point
    Ceilings ceilings;                         ///< what the mode delivers
    PowerModel power;                          ///< the mode's energy model
    BenchSource fromBench = BenchSource::None; ///< where ceilings and power came from (None: no profile)
};

/// The least time a dispatched kernel takes at a GPU clock: a DRAM round trip and the cycles to launch and
/// drain its blocks (an estimate).
SourcedValue minimumKernelSeconds(double gpuHz);

/// Derives ceilings from the datasheet (FP32 = 2 x active CUDA cores x GPU clock; BW = EMC x 2 x bus bytes)
/// and the runtime (dispatch overhead scaled by CPU clock; efficiencies applied and named in the basis).
Ceilings deriveCeilings(const DeviceSpec& device, const PowerMode& mode, const RuntimeProfile& runtime);

/// Estimates the power model from the catalog's energy basis, scaled to the mode's clocks and cores.
PowerModel estimatePowerModel(const DeviceSpec& device, const PowerMode& mode);

/// Multiplies the coefficients of an estimated power model by a calibrated runtime's fitted power multipliers
/// (an uncalibrated runtime's are ignored)
/// (provenance fitted for the fitted ones); coefficients that are not estimates (measured, predicted) are
/// kept.
void applyRuntimePower(PowerModel& power, const RuntimeProfile& runtime);

/// deriveCeilings + estimatePowerModel with the runtime's fitted power multipliers (applyRuntimePower).
ModeProfile deriveModeProfile(const DeviceSpec& device, const PowerMode& mode, const RuntimeProfile& runtime);

/// DVFS-style energy scale of a clock domain: (0.6 + 0.4 f / f_max)^2, 1 at the top clock. Dynamic energy
/// per operation goes with V^2 and V falls roughly linearly with f down to ~60 % of its top value.
double dvfsEnergyScale(double hz, double maxHz);

/// The clock-scaling features of a mode that the estimated power model uses, and that the prediction of
/// unmeasured modes regresses measured coefficients against.
struct PowerFeatures {
    double cpuLoad = 0.0;  ///< online cores x f_cpu / f_cpu,max
    double gpuScale = 1.0; ///< dvfsEnergyScale(f_gpu, f_gpu,max)
    double emcScale = 1.0; ///< dvfsEnergyScale(f_emc, f_emc,max)
};

/// Features of a mode on a device (ladder tops as the maxima; the mode's own clock when a ladder is empty).
PowerFeatures powerFeatures(const DeviceSpec& device, const PowerMode& mode);

/// Active SMs of a mode: SMs x active TPCs / TPCs (all SMs when the mode names no TPC count).
double activeSmCount(const DeviceSpec& device, const PowerMode& mode);

} // namespace rooftop
