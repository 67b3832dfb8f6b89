// SPDX-License-Identifier: GPL-3.0-or-later
// Ceilings and power model of one power mode, derived from the catalog (docs/design.md).
//
// Ceilings (provenance datasheet: exact arithmetic on vendor figures):
//   active SMs      = SMs x active TPCs / TPCs
//   FP32 CUDA core  = 2 x active SMs x CUDA cores per SM x f_gpu            (an FMA is 2 FLOPs)
//   FP16 CUDA core  = FP32 x fp16CudaCoreRate                                (half2: 2 on Ampere)
//   tensor FP16     = active SMs x dense FP16 FLOPs per SM per clock x f_gpu
//   tensor INT8     = active SMs x dense INT8 ops per SM per clock x f_gpu
//   bandwidth       = f_emc x 2 x bus bytes                                  (the EMC rate is half the MT/s)
//   tensor FP8/FP4  = active SMs x dense FP8/FP4 FLOPs per SM per clock x f_gpu   (Blackwell; else 0)
// Without tensor cores the tensor classes fall back to the FP16 CUDA-core peak (an INT8 tensor rate of 0 with
// tensor cores falls back to the tensor FP16 peak); the basis says so. FP8 and FP4 never fall back: a GPU
// without them (Orin) has a zero peak whose basis names the board, and predictions refuse such layers.
// The runtime then multiplies: peaks x computeEfficiency, bandwidth x bandwidthEfficiency. A factor other
// than 1 turns the provenance into an estimate and the basis names the runtime. The dispatch overhead per
// layer is the runtime's, scaled by 1 / CPU clock (dispatchSeconds); always an estimate.
//
// Power model (provenance estimate; the catalog's energy basis names the published figures):
//   pi0        = max(0, idle - cpuCoreWatts x cpuCores) + cpuCoreWatts x online cores x f_cpu / f_cpu,max
//   eps_flop   = pJ/FLOP x 1e-12 x (0.6 + 0.4 f_gpu / f_gpu,max)^2
//   eps_byte   = pJ/B    x 1e-12 x (0.6 + 0.4 f_emc / f_emc,max)^2
// The squared factor is a DVFS-style voltage scaling: dynamic energy per operation goes with V^2 and V drops
// roughly linearly with the clock to ~60 % of its top value at the bottom of the ladder.
#include "core/device/ceilings.h"

#include "core/common/text_format.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

namespace rooftop {

namespace {

std::string scaled(double value, const char* unit) {
    const char* prefixes[] = {"", "k", "M", "G", "T", "P"};
    int index = 0;
    while (value >= 1000.0 && index < 5) {
        value /= 1000.0;
        ++index;
    }
    return general(value, 4) + " " + prefixes[index] + unit;
}

double ladderTop(const std::vector<int64_t>& ladder, int64_t fallback) {
    return ladder.empty() ? static_cast<double>(fallback) : static_cast<double>(ladder.back());
}

SourcedValue datasheet(double value, std::string basis) {
    return {value, Provenance::Datasheet, std::move(basis)};
}

// " (calibrated)", or what it was calibrated on when that was the simulated board
std::string calibratedWords(const RuntimeProfile& runtime) {
    return runtime.calibratedOnSimulator ? " (" + calibrationWords(runtime) + ")" : " (calibrated)";
}

void applyEfficiency(SourcedValue& v, double efficiency, const RuntimeProfile& runtime, const char* what) {
    if (efficiency == 1.0) return;
    v.value *= efficiency;
    const bool fitted = runtime.calibrated && runtime.efficiencyFitted;
    v.provenance = fitted ? Provenance::Fitted : Provenance::Estimate;
    v.basis += "; x " + general(efficiency, 4) + " " + what + " efficiency of " + runtime.name +
               (fitted ? calibratedWords(runtime) : " (estimate)");
}

} // namespace

const char* computeClassName(ComputeClass computeClass) {
    switch (computeClass) {
    case ComputeClass::Fp32CudaCore:
        return "fp32";
    case ComputeClass::Fp16CudaCore:
        return "fp16";
    case ComputeClass::TensorFp16:
        return "tensor-fp16";
    case ComputeClass::TensorInt8:
        return "tensor-int8";
    case ComputeClass::TensorFp8:
        return "tensor-fp8";
    case ComputeClass::TensorFp4:
        return "tensor-fp4";
    }
    return "fp32";
}

bool isTensorClass(ComputeClass computeClass) {
    return computeClass == ComputeClass::TensorFp16 || computeClass == ComputeClass::TensorInt8 ||
           computeClass == ComputeClass::TensorFp8 || computeClass == ComputeClass::TensorFp4;
}

double tensorOpEnergyScale(ComputeClass computeClass) {
    switch (computeClass) {
    case ComputeClass::TensorFp8:
        return 0.5;
    case ComputeClass::TensorFp4:
        return 0.25;
    default:
        return 1.0;
    }
}

std::vector<TensorPeak> tensorPeaks(const DeviceSpec& device, const PowerMode& mode) {
    const ComputeUnits& u = device.units;
    const double perClock = activeSmCount(device, mode) * static_cast<double>(mode.gpuHz);
    const double sparsity = u.tensorSparsity > 1.0 ? u.tensorSparsity : 0.0;
    std::vector<TensorPeak> out;
    for (const auto& [name, rate] : {std::pair<const char*, double>{"fp4", u.tensorFp4FlopsPerSmPerClock},
                                     {"fp8", u.tensorFp8FlopsPerSmPerClock},
                                     {"fp16", u.tensorFp16FlopsPerSmPerClock},
                                     {"tf32", u.tensorTf32FlopsPerSmPerClock},
                                     {"int8", u.tensorInt8OpsPerSmPerClock}}) {
        const double dense = u.tensorCoresPerSm > 0 ? rate * perClock : 0.0;
        out.push_back({name, dense, dense * sparsity});
    }
    return out;
}

double activeSmCount(const DeviceSpec& device, const PowerMode& mode) {
    const ComputeUnits& u = device.units;
    if (u.tpcCount <= 0 || mode.activeTpcs <= 0 || mode.activeTpcs >= u.tpcCount) return u.smCount;
    return static_cast<double>(u.smCount) * mode.activeTpcs / u.tpcCount;
}

double dvfsEnergyScale(double hz, double maxHz) {
    if (maxHz <= 0) return 1.0;
    const double ratio = std::clamp(hz / maxHz, 0.0, 1.0);
    const double v = 0.6 + 0.4 * ratio;
    return v * v;
}

PowerFeatures powerFeatures(const DeviceSpec& device, const PowerMode& mode) {
    PowerFeatures f;
    const double cpuMax = ladderTop(device.cpuLadderKhz, mode.cpuKhz);
    f.cpuLoad = mode.onlineCores * (cpuMax > 0 ? static_cast<double>(mode.cpuKhz) / cpuMax : 1.0);
    f.gpuScale = dvfsEnergyScale(static_cast<double>(mode.gpuHz), ladderTop(device.gpuLadderHz, mode.gpuHz));
    f.emcScale = dvfsEnergyScale(static_cast<double>(mode.emcHz), ladderTop(device.emcLadderHz, mode.emcHz));
    return f;
}

SourcedValue minimumKernelSeconds(double gpuHz) {
    // One DRAM round trip (~0.5-1 us on LPDDR5, microbench.md's Little's-law sizing) and ~1,000 GPU cycles to
    // launch the blocks, run a prologue and drain.
    constexpr double dramLatency = 0.75e-6, launchCycles = 1000.0;
    const double seconds = dramLatency + (gpuHz > 0 ? launchCycles / gpuHz : 0.0);
    return {seconds, Provenance::Estimate,
            "0.75 µs DRAM round trip + 1,000 GPU cycles at " + mhz(gpuHz) +
                " MHz = " + general(seconds * 1e6, 3) + " µs per kernel at least (estimate)"};
}

Ceilings deriveCeilings(const DeviceSpec& device, const PowerMode& mode, const RuntimeProfile& runtime) {
    const ComputeUnits& u = device.units;
    const double sms = activeSmCount(device, mode);
    const double gpuHz = static_cast<double>(mode.gpuHz);
    const std::string smText =
        general(sms, 6) + " SMs" +
        (u.tpcCount > 0 ? " (" + std::to_string(mode.activeTpcs > 0 ? mode.activeTpcs : u.tpcCount) + " of " +
                              std::to_string(u.tpcCount) + " TPCs)"
                        : std::string());
    Ceilings c;

    const double fp32 = 2.0 * sms * u.cudaCoresPerSm * gpuHz;
    c.peakFlops[0] =
        datasheet(fp32, "2 x " + smText + " x " + std::to_string(u.cudaCoresPerSm) + " cores/SM x " +
                            (mhz(gpuHz) + " MHz") + " = " + scaled(fp32, "FLOP/s"));

    const double fp16 = fp32 * u.fp16CudaCoreRate;
    c.peakFlops[1] = datasheet(fp16, "FP32 peak x " + general(u.fp16CudaCoreRate, 6) +
                                         " (FP16 rate of CUDA cores) = " + scaled(fp16, "FLOP/s"));

    const bool tensorCores = u.tensorCoresPerSm > 0 && u.tensorFp16FlopsPerSmPerClock > 0;
    if (tensorCores) {
        const double t16 = sms * u.tensorFp16FlopsPerSmPerClock * gpuHz;
        c.peakFlops[2] = datasheet(t16, smText + " x " + general(u.tensorFp16FlopsPerSmPerClock, 6) +
                                            " dense FP16 FLOPs/SM/clock x " + (mhz(gpuHz) + " MHz") + " = " +
                                            scaled(t16, "FLOP/s"));
        if (u.tensorInt8OpsPerSmPerClock > 0) {
            const double t8 = sms * u.tensorInt8OpsPerSmPerClock * gpuHz;
            c.peakFlops[3] = datasheet(t8, smText + " x " + general(u.tensorInt8OpsPerSmPerClock, 6) +
                                               " dense INT8 ops/SM/clock x " + (mhz(gpuHz) + " MHz") + " = " +
                                               scaled(t8, "OP/s"));
        } else {
            c.peakFlops[3] = datasheet(t16, "no INT8 tensor rate in the catalog: the tensor FP16 peak, " +
                                                scaled(t16, "OP/s"));
        }
    } else {
        c.peakFlops[2] =
            datasheet(fp16, "no tensor cores: the FP16 CUDA-core peak, " + scaled(fp16, "FLOP/s"));
        c.peakFlops[3] = datasheet(fp16, "no tensor cores: the FP16 CUDA-core peak, " + scaled(fp16, "OP/s"));
    }
    // FP8 and FP4 (NVFP4) tensor cores: Blackwell (Jetson Thor). Without them the peak is 0 and its basis
    // says why, so a model counted at that precision is refused in one line instead of predicted.
    const std::string arch = device.name + " (" + (device.gpuArch.empty() ? "GPU" : device.gpuArch) +
                             ", compute capability " + device.computeCapability + ")";
    auto lowPrecision = [&](double rate, const char* what) {
        if (tensorCores && rate > 0) {
            const double peak = sms * rate * gpuHz;
            return datasheet(peak, smText + " x " + general(rate, 6) + " dense " + what +
                                       " FLOPs/SM/clock x " + (mhz(gpuHz) + " MHz") + " = " +
                                       scaled(peak, "FLOP/s"));
        }
        return datasheet(0.0, arch + " has no " + std::string(what) + " tensor cores");
    };
    c.peakFlops[4] = lowPrecision(u.tensorFp8FlopsPerSmPerClock, "FP8");
    c.peakFlops[5] = lowPrecision(u.tensorFp4FlopsPerSmPerClock, "FP4");

    const double busBytes = device.memoryBusBits / 8.0;
    const double bw = static_cast<double>(mode.emcHz) * 2.0 * busBytes;
    c.bandwidth =
        datasheet(bw, mhz(static_cast<double>(mode.emcHz)) + " MHz EMC x 2 x " + general(busBytes, 6) +
                          " B (" + std::to_string(device.memoryBusBits) + "-bit " +
                          (device.memoryType.empty() ? std::string("DRAM") : device.memoryType) +
                          ") = " + scaled(bw, "B/s"));

    // a stock mode whose caps no public source gives (Thor's 120W, 90W, 70W): what derives from them is an
    // estimate
    if (const StockMode* stock = mode.stock ? device.stockMode(mode.stockId) : nullptr;
        stock && stock->capsEstimated) {
        const std::string why =
            "; the clock caps of " + stock->name +
            " are estimates (no public source; the board's own nvpmodel.conf replaces them)";
        for (auto& peak : c.peakFlops)
            if (peak.value > 0) {
                peak.provenance = Provenance::Estimate;
                peak.basis += why;
            }
        c.bandwidth.provenance = Provenance::Estimate;
        c.bandwidth.basis += why;
    }
    for (auto& peak : c.peakFlops)
        if (peak.value > 0) applyEfficiency(peak, runtime.computeEfficiency, runtime, "compute");
    applyEfficiency(c.bandwidth, runtime.bandwidthEfficiency, runtime, "bandwidth");

    const double cpuMax = ladderTop(device.cpuLadderKhz, mode.cpuKhz);
    const double t0 = dispatchSeconds(runtime, static_cast<double>(mode.cpuKhz), cpuMax);
    c.dispatchOverhead.value = t0;
    const bool dispatchFitted = runtime.calibrated && runtime.dispatchFitted;
    c.dispatchOverhead.provenance = dispatchFitted ? Provenance::Fitted : Provenance::Estimate;
    c.dispatchOverhead.basis = runtime.name + (dispatchFitted ? calibratedWords(runtime) + ": " : ": ") +
                               general(runtime.dispatchSecondsAtMaxCpu * 1e6, 4) + " µs per layer at " +
                               mhz(cpuMax * 1e3) + " MHz CPU, x " + mhz(cpuMax * 1e3) + " MHz / " +
                               mhz(static_cast<double>(mode.cpuKhz) * 1e3) +
                               " MHz = " + general(t0 * 1e6, 4) + " µs";

    const double fixed = inferenceSeconds(runtime, static_cast<double>(mode.cpuKhz), cpuMax);
    c.inferenceOverhead.value = fixed;
    c.inferenceOverhead.provenance =
        runtime.calibrated && runtime.inferenceFitted ? Provenance::Fitted : Provenance::Estimate;
    c.inferenceOverhead.basis =
        runtime.inferenceSecondsAtMaxCpu > 0 || runtime.inferenceFitted
            ? runtime.name + (runtime.inferenceFitted ? " (fitted): " : " (estimate): ") +
                  general(runtime.inferenceSecondsAtMaxCpu * 1e6, 4) + " µs per inference at " +
                  mhz(cpuMax * 1e3) + " MHz CPU, x " + mhz(cpuMax * 1e3) + " MHz / " +
                  mhz(static_cast<double>(mode.cpuKhz) * 1e3) + " MHz = " + general(fixed * 1e6, 4) + " µs"
            : runtime.name + ": no fixed cost per inference modelled (rooftop calibrate fits one)";
    c.classEfficiency = classEfficiencies(runtime);
    if (runtime.kernelSizeModel) {
        c.kernelSms = sms;
        c.kernelTailScale = runtime.kernelTailScale;
        c.minimumKernel = minimumKernelSeconds(gpuHz);
        if (runtime.kernelFloorScale != 1.0) {
            c.minimumKernel.value *= runtime.kernelFloorScale;
            c.minimumKernel.provenance = Provenance::Fitted;
            c.minimumKernel.basis += " x " + general(runtime.kernelFloorScale, 4) + " (" + runtime.name +
                                     "'s fitted kernel scale) = " + general(c.minimumKernel.value * 1e6, 3) +
                                     " µs";
        }
    }
    return c;
}

ClassEfficiencies classEfficiencies(const RuntimeProfile& runtime) {
    ClassEfficiencies e;
    e.factor = runtime.classEfficiency;
    e.fitted = runtime.classFitted;
    e.provenance = runtime.calibrated ? Provenance::Fitted : Provenance::Estimate;
    e.basis = runtime.classBasis;
    e.checkedSpread = runtime.latencySpread;
    if (runtime.power) e.checkedPowerSpread = runtime.power->spread;
    e.checkedBatchLow = runtime.calibratedBatchLow;
    e.checkedBatchHigh = runtime.calibratedBatchHigh;
    e.onSimulator = runtime.calibrated && runtime.calibratedOnSimulator;
    return e;
}

PowerModel estimatePowerModel(const DeviceSpec& device, const PowerMode& mode) {
    const EnergyBasis& e = device.energy;
    const PowerFeatures f = powerFeatures(device, mode);
    PowerModel p;
    const double base = std::max(0.0, e.idleWatts - e.cpuCoreWatts * device.cpuCores);
    p.constantPower.value = base + e.cpuCoreWatts * f.cpuLoad;
    p.constantPower.provenance = Provenance::Estimate;
    p.constantPower.basis = general(base, 4) + " W idle without CPU cores + " + general(e.cpuCoreWatts, 4) +
                            " W x " + std::to_string(mode.onlineCores) + " cores x " +
                            general(mode.onlineCores > 0 ? f.cpuLoad / mode.onlineCores : 0.0, 4) +
                            " CPU clock ratio = " + general(p.constantPower.value, 4) + " W";

    p.energyPerFlop.value = e.picojoulesPerFlop * 1e-12 * f.gpuScale;
    p.energyPerFlop.provenance = Provenance::Estimate;
    p.energyPerFlop.basis =
        general(e.picojoulesPerFlop, 4) +
        " pJ/FLOP at the top GPU clock x (0.6 + 0.4 f/fmax)^2 = " + general(f.gpuScale, 4) + " at " +
        mhz(static_cast<double>(mode.gpuHz)) + " MHz";

    p.energyPerByte.value = e.picojoulesPerByte * 1e-12 * f.emcScale;
    p.energyPerByte.provenance = Provenance::Estimate;
    p.energyPerByte.basis = general(e.picojoulesPerByte, 4) +
                            " pJ/B at the top EMC clock x (0.6 + 0.4 f/fmax)^2 = " + general(f.emcScale, 4) +
                            " at " + mhz(static_cast<double>(mode.emcHz)) + " MHz";
    if (!e.basis.empty()) {
        p.constantPower.basis += " (" + e.basis + ")";
        p.energyPerFlop.basis += " (" + e.basis + ")";
        p.energyPerByte.basis += " (" + e.basis + ")";
    }
    p.tensorFlopEnergyRatio = e.tensorFlopEnergyRatio;
    p.rSquared = -1.0;
    return p;
}

void applyRuntimePower(PowerModel& power, const RuntimeProfile& runtime) {
    if (!runtime.power || !runtime.calibrated) return;
    const RuntimePowerFit& fit = *runtime.power;
    auto scale = [&](SourcedValue& v, bool fitted, double factor) {
        if (!fitted || v.provenance != Provenance::Estimate) return;
        v.value *= factor;
        v.provenance = Provenance::Fitted;
        v.basis +=
            "; x " + general(factor, 4) + " fitted by calibrating " + runtime.name + " (" + fit.basis + ")";
    };
    scale(power.constantPower, fit.constantFitted, fit.constantScale);
    scale(power.energyPerFlop, fit.flopFitted, fit.flopScale);
    scale(power.energyPerByte, fit.byteFitted, fit.byteScale);
    if (fit.rSquared) power.rSquared = *fit.rSquared;
}

ModeProfile deriveModeProfile(const DeviceSpec& device, const PowerMode& mode,
                              const RuntimeProfile& runtime) {
    ModeProfile profile{mode, deriveCeilings(device, mode, runtime), estimatePowerModel(device, mode)};
    applyRuntimePower(profile.power, runtime);
    return profile;
}

} // namespace rooftop
