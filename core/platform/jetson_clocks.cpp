// SPDX-License-Identifier: GPL-3.0-or-later
// Clock files of Jetson boards, JetPack 4 to 7 (reference: jetson.md §3.2-§3.5; Thor and JetPack 7:
// thor.md, Sysfs and telemetry).
#include "core/platform/jetson_clocks.h"

#include <sstream>

namespace rooftop {

namespace {

const char* const fixedGpuDevfreq[] = {
    "sys/class/devfreq/gpu-gpc-0",                                  // Thor, JetPack 7 (GPC clock domain)
    "sys/devices/platform/bus@0/17000000.gpu/devfreq/17000000.gpu", // Orin, JetPack 6
    "sys/devices/platform/17000000.gpu/devfreq_dev",                // Orin, JetPack 6 (nvpmodel KNEXT)
    "sys/devices/17000000.ga10b/devfreq/17000000.ga10b",            // Orin, JetPack 5
    "sys/devices/17000000.gv11b/devfreq/17000000.gv11b",            // Xavier
    "sys/devices/gpu.0/devfreq/17000000.gv11b",
    "sys/devices/17000000.gp10b/devfreq/17000000.gp10b", // TX2
    "sys/devices/gpu.0/devfreq/17000000.gp10b",
    "sys/devices/57000000.gpu/devfreq/57000000.gpu", // Nano
    "sys/devices/gpu.0/devfreq/57000000.gpu",
};

const char* const gpuDeviceFolders[] = {"sys/devices/platform/gpu.0", "sys/devices/gpu.0",
                                        "sys/devices/platform/bus@0/17000000.gpu"};

} // namespace

int countCpuList(const std::string& text) {
    std::istringstream in(text);
    std::string range;
    int count = 0;
    while (std::getline(in, range, ',')) {
        const auto dash = range.find('-');
        const auto first = parseStrictInteger(range.substr(0, dash));
        const auto last = dash == std::string::npos ? first : parseStrictInteger(range.substr(dash + 1));
        if (!first || !last || *last < *first || *last > 4095) return 0;
        count += static_cast<int>(*last - *first + 1);
    }
    return count;
}

std::vector<std::string> gpuDevfreqCandidates(const SysfsRoot& root) {
    std::vector<std::string> out(std::begin(fixedGpuDevfreq), std::end(fixedGpuDevfreq));
    for (const auto& name : root.list("sys/class/devfreq")) {
        const std::string folder = "sys/class/devfreq/" + name;
        const std::string node = root.read(folder + "/device/of_node/name").value_or("");
        if (node == "ga10b" || node == "gv11b" || node == "gp10b" || node == "gpu" || node == "gb10b")
            out.push_back(folder);
    }
    return out;
}

ClockPaths findClockPaths(const SysfsRoot& root) {
    ClockPaths paths;
    for (const auto& candidate : gpuDevfreqCandidates(root))
        if (root.exists(candidate + "/available_frequencies")) {
            paths.gpuDevfreq = candidate;
            break;
        }
    for (const char* folder : gpuDeviceFolders)
        if (root.exists(std::string(folder) + "/load")) {
            paths.gpuDevice = folder;
            break;
        }
    paths.emcReadable = root.exists(paths.emcClock + "/rate");
    if (root.exists("sys/class/devfreq/bwmgr/cur_freq")) paths.emcDevfreq = "sys/class/devfreq/bwmgr";
    for (const char* cap : {"sys/kernel/nvpmodel_clk_cap/emc", "sys/kernel/nvpmodel_emc_cap/emc_iso_cap"})
        if (root.exists(cap)) {
            paths.emcCap = cap;
            break;
        }
    while (paths.cpuCount < 4096 &&
           root.exists("sys/devices/system/cpu/cpu" + std::to_string(paths.cpuCount) + "/cpufreq"))
        ++paths.cpuCount;
    return paths;
}

ClockLadders readClockLadders(const SysfsRoot& root, const ClockPaths& paths) {
    ClockLadders ladders;
    ladders.cpuKhz =
        root.readIntegerList("sys/devices/system/cpu/cpu0/cpufreq/scaling_available_frequencies");
    if (!paths.gpuDevfreq.empty())
        ladders.gpuHz = root.readIntegerList(paths.gpuDevfreq + "/available_frequencies");
    ladders.emcHz = root.readIntegerList("sys/kernel/debug/bpmp/debug/emc/possible_rates");
    if (ladders.emcHz.empty() && !paths.emcDevfreq.empty())
        ladders.emcHz = root.readIntegerList(paths.emcDevfreq + "/available_frequencies");
    return ladders;
}

ObservedClocks readObservedClocks(const SysfsRoot& root, const ClockPaths& paths) {
    ObservedClocks clocks;
    const std::string cpufreq = "sys/devices/system/cpu/cpu0/cpufreq/";
    clocks.cpuKhz = root.readInteger(cpufreq + "scaling_cur_freq").value_or(0);
    clocks.cpuMaxKhz = root.readInteger(cpufreq + "scaling_max_freq").value_or(0);
    clocks.cpuMinKhz = root.readInteger(cpufreq + "scaling_min_freq").value_or(0);
    if (!paths.gpuDevfreq.empty()) {
        clocks.gpuHz = root.readInteger(paths.gpuDevfreq + "/cur_freq").value_or(0);
        clocks.gpuMaxHz = root.readInteger(paths.gpuDevfreq + "/max_freq").value_or(0);
        clocks.gpuMinHz = root.readInteger(paths.gpuDevfreq + "/min_freq").value_or(0);
    }
    clocks.emcHz = root.readInteger(paths.emcClock + "/rate").value_or(0);
    if (clocks.emcHz == 0 && !paths.emcDevfreq.empty())
        clocks.emcHz = root.readInteger(paths.emcDevfreq + "/cur_freq").value_or(0);
    clocks.onlineCores = countCpuList(root.read("sys/devices/system/cpu/online").value_or(""));
    if (!paths.gpuDevice.empty()) {
        const auto mask = root.readInteger(paths.gpuDevice + "/tpc_pg_mask");
        clocks.tpcPgMask = mask && *mask <= 0xffff ? static_cast<int>(*mask) : -1;
    }
    return clocks;
}

std::string clockFilesProblem(const SysfsRoot& root, const ClockPaths& paths) {
    if (paths.gpuDevfreq.empty()) {
        // name the folder that is there without its files (Thor's gpu-gpc-0 on a broken image), else say none
        for (const auto& candidate : gpuDevfreqCandidates(root))
            if (root.exists(candidate))
                return "the GPU clock folder /" + candidate + " has no available_frequencies";
        return "no GPU clock folder (devfreq) found";
    }
    for (const char* file : {"/max_freq", "/min_freq", "/cur_freq"})
        if (!root.readInteger(paths.gpuDevfreq + file))
            return "/" + paths.gpuDevfreq + file + " is missing or unreadable";
    if (root.readIntegerList(paths.gpuDevfreq + "/available_frequencies").empty())
        return "/" + paths.gpuDevfreq + "/available_frequencies is not a list of clocks";
    if (paths.cpuCount == 0) return "no CPU has cpufreq (sys/devices/system/cpu/cpu0/cpufreq)";
    const std::string cpufreq = "sys/devices/system/cpu/cpu0/cpufreq/";
    if (root.readIntegerList(cpufreq + "scaling_available_frequencies").empty())
        return "/" + cpufreq + "scaling_available_frequencies is missing or not a list of clocks";
    for (const char* file : {"scaling_max_freq", "scaling_min_freq"})
        if (!root.readInteger(cpufreq + file)) return "/" + cpufreq + file + " is missing or unreadable";
    if (!paths.emcDevfreq.empty() && !paths.emcReadable)
        for (const char* file : {"/max_freq", "/min_freq"})
            if (!root.readInteger(paths.emcDevfreq + file))
                return "/" + paths.emcDevfreq + file + " is missing or unreadable";
    return {};
}

} // namespace rooftop
