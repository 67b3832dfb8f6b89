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
    int id = 0;            ///< nvpmodel mode id
    std::string name;      ///< nvpmodel mode name (MAXN, MODE_30W, ...)
    int onlineCores = 0;   ///< CPU cores the mode keeps online
    int64_t cpuMaxKhz = 0; ///< resolved cap: a ladder value ("no cap" = the ladder maximum)
    int64_t gpuMaxHz = 0;  ///< resolved GPU cap, Hz: a ladder value ("no cap" = the ladder maximum)
    int64_t emcMaxHz = 0;  ///< resolved EMC cap, Hz: a ladder value ("no cap" = the ladder maximum)
    int activeTpcs = 0;    ///< TPCs the mode leaves powered (every TPC when the board has no TPC gating)
    double budgetWatts =
        0.0; ///< the power budget the mode's name states (0 when it states none; MAXN: module max)
    int64_t confCpuMaxKhz = 0; ///< the caps exactly as nvpmodel.conf writes them (-1 / 0 = no cap)
    int64_t confGpuMaxHz = 0;  ///< GPU cap, Hz, as nvpmodel.conf writes it (-1 / 0 = no cap)
    int64_t confEmcMaxHz = 0;  ///< EMC cap, Hz, as nvpmodel.conf writes it (-1 / 0 = no cap)
    int tpcPgMask = -1;        ///< TPC_PG_MASK of the mode (-1 when the board has no TPC gating)
    bool capsEstimated =
        false; ///< no public source gives the caps (Thor's 120W/90W/70W): the ceilings derived
               ///< from them are estimates; a board's own nvpmodel.conf replaces them
};

/// The custom-mode grid: every combination is one candidate mode (4,368 on AGX Orin).
struct CustomGrid {
    std::vector<int> cores;      ///< online-core counts, ascending
    std::vector<int64_t> cpuKhz; ///< CPU clocks, kHz: ascending ladder values
    std::vector<int64_t> gpuHz;  ///< GPU clocks, Hz: ascending ladder values
    std::vector<int64_t> emcHz;  ///< EMC clocks, Hz: ascending ladder values
    std::string basis;           ///< why these values (resources/devices/README.md)

    /// Number of combinations.
    size_t size() const { return cores.size() * cpuKhz.size() * gpuHz.size() * emcHz.size(); }
};

/// GPU execution resources.
struct ComputeUnits {
    int smCount = 0;               ///< streaming multiprocessors with every TPC on
    int tpcCount = 0;              ///< TPCs of the GPU (= smCount on a discrete GPU: no TPC gating)
    int cudaCoresPerSm = 0;        ///< FP32 lanes per SM
    int tensorCoresPerSm = 0;      ///< 0 = no tensor cores
    double fp16CudaCoreRate = 1.0; ///< FP16 FLOPs per FP32 FLOP on CUDA cores (half2)
    double tensorFp16FlopsPerSmPerClock = 0.0; ///< dense FP16 -> FP32 accumulate; 0 without tensor cores
    double tensorInt8OpsPerSmPerClock = 0.0;   ///< dense INT8
    double tensorFp8FlopsPerSmPerClock = 0.0;  ///< dense FP8 (E4M3/E5M2); 0 = no FP8 tensor cores (Orin)
    double tensorFp4FlopsPerSmPerClock = 0.0;  ///< dense FP4 (NVFP4 E2M1, block-scaled); 0 = none
    double tensorTf32FlopsPerSmPerClock = 0.0; ///< dense TF32 (shown, not a counting precision); 0 = unknown
    double tensorSparsity = 1.0; ///< factor of 2:4 structured sparsity on the tensor peaks (2 on Ampere and
                                 ///< later when the vendor quotes sparse figures; 1 = none quoted)
};

/// One INA3221 channel (or iio rail) of the board.
struct PowerRail {
    std::string label;  ///< in*_label / rail_name_* text (VDD_GPU_SOC, VDD_IN, POM_5V_IN, ...)
    std::string sensor; ///< i2c address of the monitor ("1-0040")
    int channel = 0;    ///< 1-based hwmon channel
};

/// The published or assumed figures behind estimated power models; see resources/devices/README.md.
struct EnergyBasis {
    double idleWatts = 0.0;         ///< module power with the GPU idle, all cores online at max CPU clock
    double cpuCoreWatts = 0.0;      ///< extra constant power per online CPU core at max CPU clock
    double picojoulesPerFlop = 0.0; ///< FP32 CUDA-core FLOP at the top GPU clock
    double picojoulesPerByte = 0.0; ///< DRAM byte (LPDDR, controller and PHY) at the top EMC clock
    double tensorFlopEnergyRatio = 0.25; ///< energy of a tensor-core FLOP relative to an FP32 CUDA-core FLOP
    std::string basis;                   ///< where these numbers come from (one-line summary)
    std::map<std::string, std::string> fieldBasis; ///< per number: "idle_watts" -> its basis, ...
};

/// Everything Rooftop knows about one board, loaded from resources/devices/<id>.json.
struct DeviceSpec {
    std::string id;      ///< catalog id = the JSON file's name without .json ("cuda:N" for a probed CUDA GPU)
    std::string name;    ///< human name
    std::string soc;     ///< SoC (tegra234, ...; "discrete" for a desktop/server GPU)
    std::string gpuArch; ///< GPU architecture text ("Ampere GA10B", ...)
    std::string computeCapability;         ///< CUDA compute capability, "MAJOR.MINOR"
    std::vector<std::string> modules;      ///< module part numbers (p3701-0000, ...)
    std::vector<std::string> modelStrings; ///< /proc/device-tree/model texts that identify it
    ComputeUnits units;                    ///< GPU execution resources with every TPC on
    int memoryBusBits = 0;                 ///< DRAM bus width, bits
    std::string memoryType;                ///< DRAM type (LPDDR5, ...; "HBM" / "GDDR" on a discrete GPU)
    double memoryGiB = 0.0;                ///< DRAM size, GiB (0 = unknown)
    int cpuCores = 0;                      ///< CPU cores of the module (a discrete GPU: the host's)
    std::string cpuName;                   ///< core type and clusters ("host CPU" on a discrete GPU)
    std::vector<int64_t> cpuLadderKhz;     ///< ascending
    std::vector<int64_t> gpuLadderHz;      ///< ascending
    std::vector<int64_t> emcLadderHz;      ///< ascending, lockable rates only
    CustomGrid grid;                       ///< the custom-mode grid
    std::vector<StockMode> stockModes;     ///< nvpmodel stock modes, ascending ids
    int defaultModeId = 0;                 ///< id of the nvpmodel default mode (PM_CONFIG DEFAULT)
    std::vector<PowerRail> rails;          ///< the board's power-monitor channels
    std::string totalRail;       ///< rail that measures the whole module, empty when rails must be summed
    double maxModuleWatts = 0.0; ///< module max power, W: MAXN's budget (0 = unknown on a discrete GPU)
    EnergyBasis energy;          ///< the figures behind the estimated power model
    bool discrete = false;       ///< a desktop/server GPU found through CUDA, not a Jetson
    std::map<std::string, std::string> sources; ///< field -> where its value comes from
    std::string sourceFile;        ///< its device JSON (a probed CUDA GPU: the CUDA driver library)
    std::string nvpmodelConf;      ///< the NVIDIA nvpmodel conf the stock modes come from (empty: none)
    int tpcMaskBits = 0;           ///< width of TPC_PG_MASK (8 on T234, 4 on T194, 0 without TPC gating)
    bool laddersEstimated = false; ///< the ladders' inner steps are estimates (Thor): on the board, the
                                   ///< ladders sysfs reports replace them (deviceForBoard)

    /// Top of the CPU ladder, kHz (0 when the ladder is empty).
    int64_t maxCpuKhz() const { return cpuLadderKhz.empty() ? 0 : cpuLadderKhz.back(); }
    /// Top of the GPU ladder, Hz (0 when the ladder is empty).
    int64_t maxGpuHz() const { return gpuLadderHz.empty() ? 0 : gpuLadderHz.back(); }
    /// Top of the EMC ladder, Hz (0 when the ladder is empty).
    int64_t maxEmcHz() const { return emcLadderHz.empty() ? 0 : emcLadderHz.back(); }
    /// CUDA cores of the whole GPU (all TPCs).
    int cudaCores() const { return units.smCount * units.cudaCoresPerSm; }
    /// Peak DRAM bandwidth at the top EMC clock, bytes/s (EMC x 2 x bus bytes).
    double peakBandwidth() const { return static_cast<double>(maxEmcHz()) * 2.0 * memoryBusBits / 8.0; }

    /// The memory a workload may use: the board's less `reserveGiB` left to the OS and the runtime (never
    /// below 0); 0 when the board's memory is unknown.
    int64_t usableMemoryBytes(double reserveGiB) const;
    /// The stock mode with this id, or nullptr.
    const StockMode* stockMode(int modeId) const;
    /// The stock mode with this name (case-insensitive), or nullptr.
    const StockMode* stockModeNamed(const std::string& modeName) const;
    /// The fastest stock mode (highest GPU clock x TPCs, then EMC, then CPU): the baseline for savings.
    const StockMode& fastestStockMode() const;
    /// The nvpmodel default mode (PM_CONFIG DEFAULT), or nullptr when the spec has none.
    const StockMode* defaultStockMode() const { return stockMode(defaultModeId); }
};

/// Memory left to the OS and the runtime unless the user says otherwise (Jetson's memory is shared with the
/// OS).
constexpr double defaultMemoryReserveGiB = 2.0;

/// What a workload may not use of the device's memory: defaultMemoryReserveGiB of a Jetson's shared memory,
/// 0.5 GiB of a discrete card's own (its CUDA context and runtime).
double memoryReserveGiB(const DeviceSpec& device);

/// What memoryReserveGiB leaves room for: "the OS and the runtime", or "the CUDA context and the runtime".
const char* memoryReserveFor(const DeviceSpec& device);

/// A generic one-mode spec for a discrete NVIDIA GPU from its CUDA device properties (cudaDeviceProp):
/// cores per SM and tensor rates from the compute capability, the clocks as one-step ladders, BW = memory
/// clock x 2 x bus bytes. clockKhz = cudaDeviceProp::clockRate, memoryClockKhz = memoryClockRate (kHz).
/// powerLimitWatts (NVML, 0 = unknown) sets the module max and the estimated energy basis; hostCpuCores and
/// hostCpuMaxKhz (0 = unknown) describe the host that launches the kernels. Throws InputError when a
/// property is not positive or the compute capability is older than 3.0.
DeviceSpec discreteDeviceFromProperties(const std::string& name, int smCount, int computeCapabilityMajor,
                                        int computeCapabilityMinor, int64_t clockKhz, int64_t memoryClockKhz,
                                        int busWidthBits, double memoryGiB = 0.0,
                                        double powerLimitWatts = 0.0, int hostCpuCores = 0,
                                        int64_t hostCpuMaxKhz = 0);

/// CUDA cores per SM of a compute capability (0 when unknown: older than 3.0).
int cudaCoresPerSm(int computeCapabilityMajor, int computeCapabilityMinor);

} // namespace rooftop
