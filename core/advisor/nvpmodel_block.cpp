// SPDX-License-Identifier: GPL-3.0-or-later
// nvpmodel.conf text for a recommended mode (reference/jetson.md section 2.1, papers.md section 2.2).
#include "core/advisor/nvpmodel_block.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace rooftop {
namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

std::vector<CpuCluster> evenClusters(const std::string& prefix, int cores, int perCluster) {
    std::vector<CpuCluster> clusters;
    for (int first = 0; first < cores; first += perCluster) {
        CpuCluster cluster{prefix + std::to_string(first / perCluster), {}};
        for (int core = first; core < std::min(cores, first + perCluster); ++core)
            cluster.cores.push_back(core);
        clusters.push_back(std::move(cluster));
    }
    return clusters;
}

int highestStockId(const DeviceSpec& device) {
    int highest = -1;
    for (const auto& s : device.stockModes)
        highest = std::max(highest, s.id);
    return highest;
}

} // namespace

std::vector<CpuCluster> cpuClusters(const DeviceSpec& device) {
    if (device.discrete || device.cpuCores <= 0) return {};
    const std::string soc = lower(device.soc);
    if (soc.find("tegra234") != std::string::npos || soc.find("t234") != std::string::npos)
        return evenClusters("CPU_A78_", device.cpuCores, 4);
    if (soc.find("tegra194") != std::string::npos || soc.find("t194") != std::string::npos)
        return evenClusters("CPU_DENVER_", device.cpuCores, 2);
    if (soc.find("tegra210") != std::string::npos || soc.find("t210") != std::string::npos) {
        CpuCluster a57{"CPU_A57", {}};
        for (int core = 0; core < device.cpuCores; ++core)
            a57.cores.push_back(core);
        return {a57};
    }
    if (soc.find("tegra186") != std::string::npos || soc.find("t186") != std::string::npos)
        return {CpuCluster{"CPU_A57", {0, 3, 4, 5}}, CpuCluster{"CPU_DENVER", {1, 2}}};
    return {};
}

int allTpcsOnMask(const DeviceSpec& device) {
    const int tpcs = device.units.tpcCount;
    // The board's own file knows best: the mask of a stock mode that keeps every TPC on (MAXN).
    for (const auto& s : device.stockModes)
        if (s.tpcPgMask >= 0 && tpcs > 0 && s.activeTpcs == tpcs) return s.tpcPgMask;
    // Else gate the TPC slots the module does not have, counted from the top of the field.
    const std::string soc = lower(device.soc);
    const bool t234 = soc.find("tegra234") != std::string::npos || soc.find("t234") != std::string::npos;
    const int bits = device.tpcMaskBits > 0 ? device.tpcMaskBits : t234 ? 8 : 0;
    if (bits > 0 && bits < 31 && tpcs > 0 && tpcs < bits) return ((1 << bits) - 1) & ~((1 << tpcs) - 1);
    return 0;
}

bool thorSoc(const DeviceSpec& device) {
    return lower(device.soc).find("tegra264") != std::string::npos;
}

int customModeId(const DeviceSpec& device) {
    return highestStockId(device) + 1;
}

std::string customModeConfName(const PowerMode& mode) {
    std::string name = "rooftop_";
    for (unsigned char c : mode.name)
        name += (std::isalnum(c) || c == '_') ? char(c) : '_';
    return name;
}

std::string powerModelBlock(const DeviceSpec& device, const PowerMode& mode, int id) {
    const auto clusters = cpuClusters(device);
    if (clusters.empty())
        throw InputError(device.id + ": no nvpmodel CPU layout is known for SoC '" + device.soc + "'");
    const int cores = std::max(1, mode.onlineCores > 0 ? mode.onlineCores : device.cpuCores);
    std::ostringstream out;
    out << "< POWER_MODEL ID=" << id << " NAME=" << customModeConfName(mode) << " >\n";
    for (int core = 0; core < device.cpuCores; ++core)
        out << "CPU_ONLINE CORE_" << core << ' ' << (core < cores ? 1 : 0) << '\n';
    out << "TPC_POWER_GATING TPC_PG_MASK " << allTpcsOnMask(device) << '\n';
    out << "GPU_POWER_CONTROL_ENABLE GPU_PWR_CNTL_EN on\n";
    for (const auto& cluster : clusters) {
        const bool online =
            std::any_of(cluster.cores.begin(), cluster.cores.end(), [&](int c) { return c < cores; });
        if (!online) continue;
        out << cluster.param << " MIN_FREQ " << mode.cpuKhz << '\n';
        out << cluster.param << " MAX_FREQ " << mode.cpuKhz << '\n';
    }
    out << "GPU MIN_FREQ " << mode.gpuHz << '\n';
    out << "GPU MAX_FREQ " << mode.gpuHz << '\n';
    out << "GPU_POWER_CONTROL_DISABLE GPU_PWR_CNTL_DIS auto\n";
    const bool emcTop = !device.emcLadderHz.empty() && mode.emcHz >= device.emcLadderHz.back();
    out << "EMC MAX_FREQ " << (emcTop ? int64_t{0} : mode.emcHz) << '\n';
    return out.str();
}

} // namespace rooftop
