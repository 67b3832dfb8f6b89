// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/device/power_mode.h"

#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// One CPU clock parameter of nvpmodel.conf and the cores it governs.
struct CpuCluster {
    std::string param;      ///< "CPU_A78_0", "CPU_DENVER_1", "CPU_A57"
    std::vector<int> cores; ///< core indices in the cluster
};

/// The CPU clock parameters of the board's nvpmodel.conf, from the SoC and core count: tegra234 CPU_A78_k
/// (4 cores each: 3 on AGX Orin 64GB, 2 on Orin NX/Nano), tegra194 CPU_DENVER_k (2 cores each), tegra210
/// CPU_A57, tegra186 CPU_A57 + CPU_DENVER. Empty for a board nvpmodel does not drive.
std::vector<CpuCluster> cpuClusters(const DeviceSpec& device);

/// The TPC_PG_MASK that keeps every TPC of the module powered: the mask of a stock mode with all TPCs active
/// when the catalog has one, else the TPC slots the module lacks gated from the top of the field (0 on AGX
/// Orin 64GB; 128 on AGX Orin 32GB, 240 on Orin NX/Nano 8GB, 252 on Orin Nano 4GB).
int allTpcsOnMask(const DeviceSpec& device);

/// True for Jetson AGX Thor (tegra264), whose nvpmodel.conf PARAM names are not public: no block is guessed.
bool thorSoc(const DeviceSpec& device);

/// The id a custom mode gets in nvpmodel.conf: one above the highest stock id.
int customModeId(const DeviceSpec& device);

/// "rooftop_" + the mode name with every character outside [A-Za-z0-9_] replaced by '_'.
std::string customModeConfName(const PowerMode& mode);

/// The `< POWER_MODEL ID=id NAME=rooftop_... >` block of a custom mode in nvpmodel.conf syntax: CPU_ONLINE
/// CORE_i 1/0, TPC_PG_MASK, CPU cluster MIN_FREQ = MAX_FREQ = the CPU clock (kHz) for each online cluster,
/// GPU MIN_FREQ = MAX_FREQ (Hz), EMC MAX_FREQ (Hz; 0 = no cap when the clock is the top of the ladder).
/// Throws InputError when the board has no nvpmodel CPU layout.
std::string powerModelBlock(const DeviceSpec& device, const PowerMode& mode, int id);

} // namespace rooftop
