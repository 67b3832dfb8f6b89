// SPDX-License-Identifier: GPL-3.0-or-later
// The fake Jetson of the kill tests, as a process on the tree ROOFTOP_SYSFS_ROOT names:
//   fake_jetson_tool set-stock-mode ID | set-clocks ... | release-clocks   the helper (SimulatedHelper)
//   fake_jetson_tool mode                         the mode in force and its clocks, one line
//   fake_jetson_tool check-runs RUNS.csv REPEAT   reads the runs file and its layers file; prints
//                                                 "ok=N keys=K max=M", exit 1 when a file does not read
// ROOFTOP_MODE_HELPER names it, and a pkexec that only runs its arguments goes first on PATH. As the real
// helper, it changes one mode at a time (HelperLock on run/rooftop-mode-helper.lock in the tree);
// ROOFTOP_FAKE_HELPER_DELAY_MS makes it a slow nvpmodel that holds the lock that long before it changes.
#include "core/measure/layers_file.h"
#include "core/measure/runs_file.h"
#include "core/platform/helper_lock.h"
#include "core/platform/mode_switcher.h"
#include "support/simulated_helper.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

using namespace rooftop;

namespace {

int printMode(const SysfsRoot& root) {
    test::SimulatedHelper helper(root);
    JetsonModeSwitcher switcher(root, helper);
    const auto id = switcher.currentStockId();
    const ObservedClocks clocks = switcher.observe();
    std::cout << "stock=" << (id ? std::to_string(*id) : "?") << " gpu_max=" << clocks.gpuMaxHz
              << " gpu_min=" << clocks.gpuMinHz << " cpu_max=" << clocks.cpuMaxKhz
              << " cpu_min=" << clocks.cpuMinKhz << " cores=" << clocks.onlineCores << "\n";
    return 0;
}

int checkRuns(const std::string& path, int repeat) {
    const std::vector<RunRow> rows = readRunsFile(path);
    readLayersFile(layersPathFor(path));
    const std::map<std::string, int> counts = okRunCounts(rows);
    int ok = 0;
    int most = 0;
    for (const auto& [key, count] : counts) {
        ok += count;
        most = std::max(most, count);
    }
    std::cout << "ok=" << ok << " keys=" << counts.size() << " max=" << most << "\n";
    return most > repeat ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    const SysfsRoot root = SysfsRoot::fromEnvironment();
    try {
        if (!args.empty() && args[0] == "mode") return printMode(root);
        if (args.size() == 3 && args[0] == "check-runs") return checkRuns(args[1], std::stoi(args[2]));
        ::mkdir(root.path("run").c_str(), 0755);
        const HelperLock lock(root.path("run/rooftop-mode-helper.lock"), true);
        if (!lock.held()) throw std::runtime_error(lock.error());
        if (const char* delay = std::getenv("ROOFTOP_FAKE_HELPER_DELAY_MS"))
            std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(delay)));
        test::SimulatedHelper helper(root);
        std::string output;
        const int code = helper.run(args, &output);
        std::cout << output;
        return code;
    } catch (const std::exception& error) {
        std::cout << error.what() << "\n";
        return 1;
    }
}
