// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/simulated_helper.h"

#include "core/common/errors.h"
#include "core/platform/helper_request.h"
#include "core/platform/nvpmodel_conf.h"

#include <cstdlib>
#include <filesystem>

namespace rooftop::test {

namespace {

int64_t nearest(const std::vector<int64_t>& ladder, int64_t value) {
    int64_t best = ladder.front();
    for (int64_t v : ladder)
        if (std::llabs(v - value) < std::llabs(best - value)) best = v;
    return best;
}

} // namespace

BoardCopy::BoardCopy(const char* board) {
    std::filesystem::copy(std::string(ROOFTOP_TEST_FIXTURES_DIR "/jetson/") + board, dir.path().toStdString(),
                          std::filesystem::copy_options::recursive);
}

int SimulatedHelper::run(const std::vector<std::string>& args, std::string* output) {
    calls.push_back(args);
    if (failAll || (failRelease && !args.empty() && args.front() == "release-clocks")) {
        *output = "NVPM ERROR: simulated\nsecond line";
        return 3;
    }
    const ClockPaths paths = findClockPaths(root_);
    const HelperLimits limits = readHelperLimits(root_, paths);
    HelperRequest request;
    try {
        request = parseHelperRequest(args, limits);
    } catch (const InputError& error) {
        *output = error.what();
        return 1;
    }
    if (request.action == HelperRequest::Action::SetStockMode) {
        const NvpmodelConf conf = parseNvpmodelConf(*root_.read("etc/nvpmodel.conf"));
        const NvpmodelMode& mode = *conf.mode(request.stockId);
        // the params found as nvpmodel knows them: by the files they write (Thor's names are not Orin's)
        const int64_t gpu = mode.integer(conf.gpuClockParam(), "MAX_FREQ").value_or(-1);
        root_.write(paths.gpuDevfreq + "/max_freq",
                    std::to_string(gpu <= 0 ? limits.gpuHz.back() : nearest(limits.gpuHz, gpu)));
        if (!paths.emcDevfreq.empty() && !limits.emcHz.empty()) { // Thor: the EMC cap on bwmgr's devfreq
            const int64_t emc = mode.integer(conf.emcClockParam(), "MAX_FREQ").value_or(-1);
            root_.write(paths.emcDevfreq + "/max_freq",
                        std::to_string(emc <= 0 ? limits.emcHz.back() : nearest(limits.emcHz, emc)));
        }
        const int64_t cpu = mode.integer(conf.cpuClockParam(), "MAX_FREQ").value_or(-1);
        for (int i = 0; i < limits.cpuCount; ++i) {
            const std::string base = "sys/devices/system/cpu/cpu" + std::to_string(i);
            if (i > 0) root_.write(base + "/online", i < mode.onlineCores() ? "1" : "0");
            root_.write(base + "/cpufreq/scaling_max_freq",
                        std::to_string(cpu <= 0 ? limits.cpuKhz.back() : nearest(limits.cpuKhz, cpu)));
        }
        root_.write("var/lib/nvpmodel/status", "pmode:000" + std::to_string(request.stockId) + "\n");
    } else {
        for (const SysfsWrite& w : planClockWrites(request, paths, readObservedClocks(root_, paths), limits))
            if (!ignoreWrites) root_.write(w.path, w.value);
    }
    settle(paths, limits);
    return 0;
}

void SimulatedHelper::settle(const ClockPaths& paths, const HelperLimits& limits) {
    int online = 1;
    for (int i = 1; i < limits.cpuCount; ++i)
        if (root_.read("sys/devices/system/cpu/cpu" + std::to_string(i) + "/online") == std::string("1"))
            ++online;
    root_.write("sys/devices/system/cpu/online",
                online > 1 ? "0-" + std::to_string(online - 1) + "\n" : "0\n");
    const std::string cpufreq = "sys/devices/system/cpu/cpu0/cpufreq/";
    root_.write(cpufreq + "scaling_cur_freq", *root_.read(cpufreq + "scaling_max_freq"));
    root_.write(paths.gpuDevfreq + "/cur_freq", *root_.read(paths.gpuDevfreq + "/max_freq"));
    if (!paths.emcDevfreq.empty()) // bwmgr runs at its max (governor performance)
        root_.write(paths.emcDevfreq + "/cur_freq", root_.read(paths.emcDevfreq + "/max_freq").value_or("0"));
}

} // namespace rooftop::test
