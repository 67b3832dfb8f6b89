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

std::string paramRange(const std::vector<CpuCluster>& clusters) {
    if (clusters.empty()) return {};
    if (clusters.size() == 1) return clusters.front().param;
    return clusters.front().param + " .. " + clusters.back().param;
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

std::string nvpmodelInstructions(const DeviceSpec& device, const PowerMode& mode) {
    std::ostringstream out;
    const auto command = [&out](const std::string& text, const std::string& comment = {}) {
        out << "  " << text;
        if (!comment.empty())
            out << std::string(text.size() < 52 ? 52 - text.size() : 1, ' ') << "# " << comment;
        out << '\n';
    };
    const std::string defaultId = std::to_string(device.defaultModeId);
    const bool thor = lower(device.soc).find("tegra264") != std::string::npos;
    if (device.discrete || (cpuClusters(device).empty() && !thor)) {
        out << device.name << " is not driven by nvpmodel: set the clocks with the vendor's tools "
            << "(GPU " << mhz(mode.gpuHz) << " MHz, memory " << mhz(mode.emcHz) << " MHz).\n";
        return out.str();
    }
    if (mode.stock) {
        out << "Stock mode " << mode.name << " is nvpmodel mode " << mode.stockId << ":\n";
        command("nvpmodel -q", "note the current mode, to go back to it");
        command("sudo nvpmodel -m " + std::to_string(mode.stockId),
                "may ask to reboot (YES) when TPC gating changes");
        command("sudo jetson_clocks --store && sudo jetson_clocks",
                "optional: lock the clocks at the mode's maxima");
        out << "To go back:\n";
        command("sudo jetson_clocks --restore", "if you ran jetson_clocks");
        command("sudo nvpmodel -m " + defaultId, "the board's default, or the id nvpmodel -q printed");
        return out.str();
    }
    const int id = customModeId(device);
    const std::string ids = std::to_string(id);
    if (lower(device.soc).find("tegra264") != std::string::npos) {
        // Jetson AGX Thor: its nvpmodel.conf's PARAM names are not public (thor.md), so no block is guessed
        const bool emcTop = !device.emcLadderHz.empty() && mode.emcHz >= device.emcLadderHz.back();
        out << "Custom mode " << mode.name
            << " is not a stock nvpmodel mode. Jetson AGX Thor's nvpmodel.conf PARAM "
            << "names are not public, so Rooftop writes no block for it: in /etc/nvpmodel.conf copy the "
               "POWER_MODEL "
            << "block of a stock mode, give it ID " << id
            << " (or another free id) and NAME=" << customModeConfName(mode) << ", and set:\n"
            << "- CPU_ONLINE: cores 0-" << std::max(0, mode.onlineCores - 1) << " to 1, the others to 0\n"
            << "- the CPU clock param (the one that writes cpu0's scaling_max_freq): MIN_FREQ and MAX_FREQ "
            << mode.cpuKhz << " (kHz)\n"
            << "- GPU (gpu-gpc-0): MIN_FREQ and MAX_FREQ " << mode.gpuHz << " (Hz)\n"
            << "- EMC: MAX_FREQ "
            << (emcTop ? std::string("-1 (no cap)") : std::to_string(mode.emcHz) + " (Hz)") << '\n'
            << "- GPU_POWER_GATING: as the copied block (a different GPU_PG_MASK needs a reboot)\n";
        command("nvpmodel -q", "note the current mode, to go back to it");
        command("sudo cp /etc/nvpmodel.conf /etc/nvpmodel.conf.bak", "back up the configuration");
        command("sudo nvpmodel -p --verbose | grep " + customModeConfName(mode),
                "nvpmodel lists the new mode");
        command("sudo nvpmodel -m " + ids, "switch to it");
        command("sudo jetson_clocks --show", "check the CPU, GPU and EMC clocks");
        out << "To go back:\n";
        command("sudo nvpmodel -m " + defaultId, "the board's default, or the id nvpmodel -q printed");
        command("sudo cp /etc/nvpmodel.conf.bak /etc/nvpmodel.conf", "removes the custom mode");
        return out.str();
    }
    const auto clusters = cpuClusters(device);
    out << "Custom mode " << mode.name
        << " is not a stock nvpmodel mode: add it to /etc/nvpmodel.conf as mode " << id << ".\n"
        << "Check the PARAM names against your /etc/nvpmodel.conf (this board's " << device.soc
        << " file should use " << paramRange(clusters) << ", GPU and EMC) and use another ID if " << id
        << " is taken.\n"
        << "CPU and GPU clocks are pinned (MIN_FREQ = MAX_FREQ)"
        << (!device.emcLadderHz.empty() && mode.emcHz >= device.emcLadderHz.back()
                ? "; EMC MAX_FREQ 0 means no cap (the top of the memory ladder cannot be written as a cap)"
                : "; EMC MAX_FREQ caps the memory clock")
        << ".\n\n"
        << "Save this block as rooftop_mode.conf:\n\n"
        << powerModelBlock(device, mode, id) << '\n'
        << "Then apply it (or paste the block after the last POWER_MODEL, before < PM_CONFIG DEFAULT=... "
           ">):\n";
    command("nvpmodel -q", "note the current mode, to go back to it");
    command("sudo cp /etc/nvpmodel.conf /etc/nvpmodel.conf.bak", "back up the configuration");
    command("sudo tee -a /etc/nvpmodel.conf < rooftop_mode.conf", "append the block");
    command("sudo nvpmodel -p --verbose | grep " + customModeConfName(mode), "nvpmodel lists the new mode");
    command("sudo nvpmodel -m " + ids, "may ask to reboot (YES) when TPC gating changes");
    command("sudo jetson_clocks --store && sudo jetson_clocks", "optional: disable DVFS at these clocks");
    command("sudo jetson_clocks --show", "check the CPU, GPU and EMC clocks");
    out << "To go back:\n";
    command("sudo jetson_clocks --restore", "if you ran jetson_clocks");
    command("sudo nvpmodel -m " + defaultId, "the board's default, or the id nvpmodel -q printed");
    command("sudo cp /etc/nvpmodel.conf.bak /etc/nvpmodel.conf", "removes the custom mode");
    return out.str();
}

std::vector<std::string> instructionCommands(const std::string& instructions) {
    std::vector<std::string> commands;
    std::istringstream in(instructions);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("  ", 0) != 0) continue; // commands are indented; prose and the block are not
        std::string command = line.substr(2);
        if (const size_t comment = command.find(" # "); comment != std::string::npos) command.resize(comment);
        while (!command.empty() && command.back() == ' ')
            command.pop_back();
        if (!command.empty()) commands.push_back(command);
    }
    return commands;
}

} // namespace rooftop
