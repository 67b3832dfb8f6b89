// SPDX-License-Identifier: GPL-3.0-or-later
// DeviceSpec lookups and the generic spec of a discrete NVIDIA GPU built from its CUDA device properties.
#include "core/device/device_spec.h"

#include "core/common/errors.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <tuple>

namespace rooftop {

namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

/// Per-SM rates of a compute capability. FLOPs per SM per clock are dense (no sparsity); tensor FP16 is the
/// FP16-input rate NVIDIA quotes for the architecture (GeForce parts with FP32 accumulate may run at half).
struct ArchRates {
    const char* arch;
    int tensorCoresPerSm;
    double fp16Rate;        ///< FP16 FLOPs per FP32 FLOP on CUDA cores
    double tensorFp16;      ///< dense FP16 FLOPs / SM / clock
    double tensorInt8;      ///< dense INT8 ops / SM / clock
    double tensorFp8 = 0.0; ///< dense FP8 FLOPs / SM / clock (8.9 and later), 0 = none
    double tensorFp4 = 0.0; ///< dense FP4 FLOPs / SM / clock (Blackwell), 0 = none
};

ArchRates archRates(int major, int minor) {
    // Sources (datasheet arithmetic, peak / (SMs x boost clock)): V100 125 TFLOP/s / (80 x 1.53 GHz) = 1024;
    // T4 65 / (40 x 1.59) = 1024, INT8 130 -> 2048; A100 312 / (108 x 1.41) = 2048, INT8 624 -> 4096;
    // RTX 3090 142 / (82 x 1.695) = 1024; RTX 4090 330 / (128 x 2.52) = 1024; H100 SXM 989 / (132 x 1.83)
    // = 4096, INT8 8192; Jetson Orin (8.7) per resources/devices/agx-orin-64gb.json. Blackwell: estimates.
    // FP8 is twice the FP16 rate from Ada (8.9) on and FP4 twice FP8 on Blackwell (RTX 5090: FP8 838 / FP4
    // 1676 dense over 170 x 2.41 GHz = 2048 / 4096; Jetson AGX Thor, 11.0, per
    // resources/devices/agx-thor-t5000.json).
    if (major == 7 && minor < 5) return {"Volta", 8, 2.0, 1024, minor == 2 ? 2048.0 : 0.0};
    if (major == 7) return {"Turing", 8, 2.0, 1024, 2048};
    if (major == 8 && minor == 0) return {"Ampere", 4, 4.0, 2048, 4096};
    if (major == 8 && minor == 7) return {"Ampere", 4, 2.0, 2048, 4096};
    if (major == 8 && minor == 9) return {"Ada", 4, 1.0, 1024, 2048, 2048};
    if (major == 8) return {"Ampere", 4, 1.0, 1024, 2048};
    if (major == 9) return {"Hopper", 4, 2.0, 4096, 8192, 8192};
    if (major == 10) return {"Blackwell", 4, 2.0, 8192, 16384, 16384, 32768};
    if (major == 11) return {"Blackwell", 4, 1.0, 8192, 16384, 16384, 32768};
    if (major >= 12) return {"Blackwell", 4, 1.0, 1024, 2048, 2048, 4096};
    if (major == 6) return {"Pascal", 0, minor == 1 ? 1.0 / 64.0 : 2.0, 0, 0};
    if (major == 5) return {"Maxwell", 0, minor == 3 ? 2.0 : 1.0, 0, 0};
    return {"Kepler", 0, 1.0, 0, 0};
}

std::string slug(const std::string& name) {
    std::string out;
    for (unsigned char c : name) {
        if (std::isalnum(c))
            out += static_cast<char>(std::tolower(c));
        else if (!out.empty() && out.back() != '-')
            out += '-';
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out.empty() ? "gpu" : out;
}

std::string number(double value) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
    return buffer;
}

} // namespace

double memoryReserveGiB(const DeviceSpec& device) {
    return device.discrete ? 0.5 : defaultMemoryReserveGiB;
}

const char* memoryReserveFor(const DeviceSpec& device) {
    return device.discrete ? "the CUDA context and the runtime" : "the OS and the runtime";
}

int64_t DeviceSpec::usableMemoryBytes(double reserveGiB) const {
    const double gib = double(int64_t{1} << 30);
    const double usable = (memoryGiB - std::max(0.0, reserveGiB)) * gib;
    if (!(memoryGiB > 0) || !(usable > 0)) return 0;
    return usable < 9e18 ? static_cast<int64_t>(std::llround(usable)) : std::numeric_limits<int64_t>::max();
}

const StockMode* DeviceSpec::stockMode(int modeId) const {
    for (const auto& mode : stockModes)
        if (mode.id == modeId) return &mode;
    return nullptr;
}

const StockMode* DeviceSpec::stockModeNamed(const std::string& modeName) const {
    const std::string wanted = lower(modeName);
    for (const auto& mode : stockModes)
        if (lower(mode.name) == wanted) return &mode;
    return nullptr;
}

const StockMode& DeviceSpec::fastestStockMode() const {
    if (stockModes.empty()) throw InputError(id + ": the device has no stock power modes");
    const auto key = [](const StockMode& m) {
        return std::make_tuple(static_cast<double>(m.gpuMaxHz) * m.activeTpcs, m.emcMaxHz,
                               static_cast<double>(m.cpuMaxKhz) * m.onlineCores, -m.id);
    };
    return *std::max_element(stockModes.begin(), stockModes.end(),
                             [&](const StockMode& a, const StockMode& b) { return key(a) < key(b); });
}

int cudaCoresPerSm(int major, int minor) {
    switch (major) {
    case 3:
        return 192;
    case 5:
        return 128;
    case 6:
        return minor == 0 ? 64 : 128;
    case 7:
        return 64;
    case 8:
        return minor == 0 ? 64 : 128;
    default:
        return major >= 9 ? 128 : 0;
    }
}

DeviceSpec discreteDeviceFromProperties(const std::string& name, int smCount, int major, int minor,
                                        int64_t clockKhz, int64_t memoryClockKhz, int busWidthBits,
                                        double memoryGiB, double powerLimitWatts, int hostCpuCores,
                                        int64_t hostCpuMaxKhz) {
    const std::string label = name.empty() ? std::string("CUDA device") : name;
    if (smCount <= 0) throw InputError(label + ": SM count must be positive, got " + std::to_string(smCount));
    if (clockKhz <= 0 || memoryClockKhz <= 0)
        throw InputError(label + ": GPU and memory clocks must be positive");
    if (busWidthBits <= 0 || busWidthBits % 8 != 0)
        throw InputError(label + ": memory bus width must be a positive multiple of 8 bits, got " +
                         std::to_string(busWidthBits));
    const int coresPerSm = cudaCoresPerSm(major, minor);
    if (coresPerSm == 0)
        throw InputError(label + ": compute capability " + std::to_string(major) + "." +
                         std::to_string(minor) + " is not supported (3.0 or newer)");
    const ArchRates rates = archRates(major, minor);

    DeviceSpec spec;
    spec.id = "cuda-" + slug(label);
    spec.name = label;
    spec.soc = "discrete";
    spec.gpuArch = rates.arch;
    spec.computeCapability = std::to_string(major) + "." + std::to_string(minor);
    spec.discrete = true;
    spec.units.smCount = smCount;
    spec.units.tpcCount = smCount; // no TPC gating on discrete GPUs: one unit per SM
    spec.units.cudaCoresPerSm = coresPerSm;
    spec.units.tensorCoresPerSm = rates.tensorCoresPerSm;
    spec.units.fp16CudaCoreRate = rates.fp16Rate;
    spec.units.tensorFp16FlopsPerSmPerClock = rates.tensorFp16;
    spec.units.tensorInt8OpsPerSmPerClock = rates.tensorInt8;
    spec.units.tensorFp8FlopsPerSmPerClock = rates.tensorFp8;
    spec.units.tensorFp4FlopsPerSmPerClock = rates.tensorFp4;
    spec.memoryBusBits = busWidthBits;
    spec.memoryType = busWidthBits >= 1024 ? "HBM" : "GDDR";
    spec.memoryGiB = memoryGiB > 0 ? memoryGiB : 0.0;
    spec.cpuCores = hostCpuCores > 0 ? hostCpuCores : 1;
    spec.cpuName = "host CPU";

    // One operating point: the clocks the driver reports. CPU clock 0 = unknown (dispatch is then not
    // scaled).
    const int64_t cpuKhz = hostCpuMaxKhz > 0 ? hostCpuMaxKhz : 0;
    if (cpuKhz > 0) spec.cpuLadderKhz = {cpuKhz};
    spec.gpuLadderHz = {clockKhz * 1000};
    spec.emcLadderHz = {memoryClockKhz * 1000};
    spec.grid.cores = {spec.cpuCores};
    spec.grid.cpuKhz = spec.cpuLadderKhz;
    spec.grid.gpuHz = spec.gpuLadderHz;
    spec.grid.emcHz = spec.emcLadderHz;
    spec.grid.basis = "a discrete GPU has one operating point here: the clocks its driver reports";

    StockMode mode;
    mode.id = 0;
    mode.name = "DEFAULT";
    mode.onlineCores = spec.cpuCores;
    mode.cpuMaxKhz = mode.confCpuMaxKhz = cpuKhz;
    mode.gpuMaxHz = mode.confGpuMaxHz = clockKhz * 1000;
    mode.emcMaxHz = mode.confEmcMaxHz = memoryClockKhz * 1000;
    mode.activeTpcs = smCount;
    mode.budgetWatts = powerLimitWatts > 0 ? powerLimitWatts : 0.0;
    spec.stockModes = {mode};
    spec.defaultModeId = 0;
    spec.maxModuleWatts = powerLimitWatts > 0 ? powerLimitWatts : 0.0;

    // Estimated energy basis, only when the board power limit is known.
    const double fp32 = 2.0 * smCount * coresPerSm * clockKhz * 1e3;
    const double bandwidth = memoryClockKhz * 1e3 * 2.0 * busWidthBits / 8.0;
    const double bitPj = busWidthBits >= 1024 ? 3.9 : 7.5;
    EnergyBasis& e = spec.energy;
    e.picojoulesPerByte = bitPj * 8.0;
    e.tensorFlopEnergyRatio = 0.25;
    e.fieldBasis["pj_per_byte"] =
        "estimate: " + spec.memoryType + " ~" + number(bitPj) + " pJ/bit including controller and PHY x 8";
    e.fieldBasis["tensor_flop_energy_ratio"] =
        "estimate: a tensor-core FLOP costs ~1/4 of an FP32 CUDA-core FLOP";
    if (powerLimitWatts > 0) {
        e.idleWatts = 0.15 * powerLimitWatts;
        e.cpuCoreWatts = 0.0;
        e.picojoulesPerFlop = 0.5 * powerLimitWatts / fp32 * 1e12;
        e.fieldBasis["idle_watts"] =
            "estimate: 15 % of the " + number(powerLimitWatts) + " W board power limit";
        e.fieldBasis["cpu_core_watts"] = "0: the host CPU is not on the GPU's power rail";
        e.fieldBasis["pj_per_flop"] = "estimate: 50 % of the " + number(powerLimitWatts) +
                                      " W power limit at full FP32 load (" + number(fp32 / 1e12) +
                                      " TFLOP/s)";
        e.basis = "ESTIMATES from the board power limit and published DRAM energy per bit; rooftop bench "
                  "replaces them";
    } else {
        e.basis = "no power limit known: the energy model needs rooftop bench";
    }

    spec.sources["gpu"] = "CUDA device properties (multiProcessorCount, clockRate, major.minor) at run time";
    spec.sources["memory"] =
        "CUDA device properties (memoryClockRate, memoryBusWidth): BW = " + number(bandwidth / 1e9) +
        " GB/s = memory clock x 2 x bus bytes";
    spec.sources["gpu.tensor"] =
        std::string("per-SM rates of compute capability ") + spec.computeCapability +
        " from NVIDIA's published dense peaks divided by SMs x boost clock (estimate)";
    spec.sources["energy"] = e.basis;
    return spec;
}

} // namespace rooftop
