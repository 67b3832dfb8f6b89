// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rooftop {

/// One nvpmodel stock mode as the board's nvpmodel.conf defines it, with "-1 / no cap" resolved to the
/// ladder maximum.
struct StockMode {
    int id = 0;
    std::string name;
    int onlineCores = 0;
    int64_t cpuMaxKhz = 0;
    int64_t gpuMaxHz = 0;
    int64_t emcMaxHz = 0;
    int activeTpcs = 0;
    double budgetWatts = 0.0; ///< the power budget the mode's name states (0 when it states none)
};

/// The custom-mode grid: every combination is one candidate mode (4,368 on AGX Orin).
struct CustomGrid {
    std::vector<int> cores;
    std::vector<int64_t> cpuKhz;
    std::vector<int64_t> gpuHz;
    std::vector<int64_t> emcHz;
};

/// GPU execution resources.
struct ComputeUnits {
    int smCount = 0;
    int tpcCount = 0;
    int cudaCoresPerSm = 0;
    int tensorCoresPerSm = 0;
    double fp16CudaCoreRate = 1.0;             ///< FP16 FLOPs per FP32 FLOP on CUDA cores (half2)
    double tensorFp16FlopsPerSmPerClock = 0.0; ///< dense FP16 -> FP32 accumulate; 0 without tensor cores
    double tensorInt8OpsPerSmPerClock = 0.0;   ///< dense INT8
};

/// One INA3221 channel (or iio rail) of the board.
struct PowerRail {
    std::string label;  ///< in*_label / rail_name_* text (VDD_GPU_SOC, VDD_IN, POM_5V_IN, ...)
    std::string sensor; ///< i2c address of the monitor ("1-0040")
    int channel = 0;    ///< 1-based hwmon channel
};

/// The published or assumed figures behind estimated power models; see resources/devices/README.md.
struct EnergyBasis {
    double idleWatts = 0.0;          ///< module power with the GPU idle, all cores online at max CPU clock
    double cpuCoreWatts = 0.0;       ///< extra constant power per online CPU core at max CPU clock
    double picojoulesPerFlop = 0.0;  ///< FP32 CUDA-core FLOP at the top GPU clock
    double picojoulesPerByte = 0.0;  ///< DRAM byte (LPDDR, controller and PHY) at the top EMC clock
    double tensorFlopEnergyRatio = 0.25; ///< energy of a tensor-core FLOP relative to an FP32 CUDA-core FLOP
    std::string basis;               ///< where these numbers come from
};

/// Everything Rooftop knows about one board, loaded from resources/devices/<id>.json.
struct DeviceSpec {
    std::string id;
    std::string name;
    std::string soc;
    std::string gpuArch;
    std::string computeCapability;
    std::vector<std::string> modules;      ///< module part numbers (p3701-0000, ...)
    std::vector<std::string> modelStrings; ///< /proc/device-tree/model texts that identify it
    ComputeUnits units;
    int memoryBusBits = 0;
    std::string memoryType;
    double memoryGiB = 0.0;
    int cpuCores = 0;
    std::string cpuName;
    std::vector<int64_t> cpuLadderKhz; ///< ascending
    std::vector<int64_t> gpuLadderHz;  ///< ascending
    std::vector<int64_t> emcLadderHz;  ///< ascending, lockable rates only
    CustomGrid grid;
    std::vector<StockMode> stockModes;
    int defaultModeId = 0;
    std::vector<PowerRail> rails;
    std::string totalRail;            ///< rail that measures the whole module, empty when rails must be summed
    double maxModuleWatts = 0.0;
    EnergyBasis energy;
    bool discrete = false;            ///< a desktop/server GPU found through CUDA, not a Jetson
    std::map<std::string, std::string> sources; ///< field -> where its value comes from
    std::string sourceFile;

    /// The stock mode with this id, or nullptr.
    const StockMode* stockMode(int modeId) const;
    /// The stock mode with this name (case-insensitive), or nullptr.
    const StockMode* stockModeNamed(const std::string& modeName) const;
    /// The fastest stock mode (highest GPU clock x TPCs, then EMC, then CPU): the baseline for savings.
    const StockMode& fastestStockMode() const;
};

} // namespace rooftop
