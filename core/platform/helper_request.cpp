// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/helper_request.h"

#include "core/common/errors.h"
#include "core/platform/nvpmodel_conf.h"

#include <algorithm>
#include <set>

namespace rooftop {

namespace {

std::string shown(const std::string& text) {
    std::string out;
    for (char c : text.substr(0, 32))
        out += (c >= 0x20 && c < 0x7f) ? c : '?';
    return out;
}

int64_t number(const std::string& option, const std::string& text) {
    const bool digitsOnly =
        !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    const auto value = digitsOnly ? parseStrictInteger(text) : std::nullopt;
    if (!value) throw InputError("helper: " + option + " needs a decimal number, got '" + shown(text) + "'");
    return *value;
}

void requireIn(const std::string& what, int64_t value, const std::vector<int64_t>& ladder) {
    if (std::find(ladder.begin(), ladder.end(), value) == ladder.end())
        throw InputError("helper: " + what + " " + std::to_string(value) + " is not in the board's ladder");
}

} // namespace

HelperRequest parseHelperRequest(const std::vector<std::string>& args, const HelperLimits& limits) {
    if (args.empty()) throw InputError("helper: expected set-stock-mode, set-clocks or release-clocks");
    HelperRequest request;
    if (args[0] == "set-stock-mode") {
        if (args.size() != 2) throw InputError("helper: usage: set-stock-mode ID");
        const int64_t id = number("set-stock-mode", args[1]);
        if (std::find(limits.stockIds.begin(), limits.stockIds.end(), id) == limits.stockIds.end())
            throw InputError("helper: mode " + std::to_string(id) + " is not in nvpmodel.conf");
        request.action = HelperRequest::Action::SetStockMode;
        request.stockId = static_cast<int>(id);
        return request;
    }
    if (args[0] == "release-clocks") {
        if (args.size() != 1) throw InputError("helper: release-clocks takes no arguments");
        request.action = HelperRequest::Action::ReleaseClocks;
        return request;
    }
    if (args[0] != "set-clocks") throw InputError("helper: unknown action '" + shown(args[0]) + "'");
    request.action = HelperRequest::Action::SetClocks;
    std::set<std::string> seen;
    for (size_t i = 1; i < args.size(); i += 2) {
        const std::string& option = args[i];
        if (option != "--gpu" && option != "--emc" && option != "--cpu" && option != "--cores")
            throw InputError("helper: unknown option '" + shown(option) + "'");
        if (!seen.insert(option).second) throw InputError("helper: " + option + " given twice");
        if (i + 1 >= args.size()) throw InputError("helper: " + option + " needs a value");
        const int64_t value = number(option, args[i + 1]);
        if (option == "--gpu") requireIn("GPU clock (Hz)", request.gpuHz = value, limits.gpuHz);
        if (option == "--emc") requireIn("EMC clock (Hz)", request.emcHz = value, limits.emcHz);
        if (option == "--cpu") requireIn("CPU clock (kHz)", request.cpuKhz = value, limits.cpuKhz);
        if (option == "--cores") {
            if (value < 1 || value > limits.cpuCount)
                throw InputError("helper: --cores must be 1.." + std::to_string(limits.cpuCount));
            request.cores = static_cast<int>(value);
        }
    }
    if (!seen.count("--gpu") || !seen.count("--cpu") || !seen.count("--cores"))
        throw InputError("helper: set-clocks needs --gpu, --cpu and --cores");
    return request;
}

std::vector<std::string> helperArguments(const HelperRequest& request) {
    switch (request.action) {
    case HelperRequest::Action::SetStockMode:
        return {"set-stock-mode", std::to_string(request.stockId)};
    case HelperRequest::Action::ReleaseClocks:
        return {"release-clocks"};
    case HelperRequest::Action::SetClocks:
        break;
    }
    std::vector<std::string> args = {"set-clocks",
                                     "--gpu",
                                     std::to_string(request.gpuHz),
                                     "--cpu",
                                     std::to_string(request.cpuKhz),
                                     "--cores",
                                     std::to_string(request.cores)};
    if (request.emcHz > 0) {
        args.push_back("--emc");
        args.push_back(std::to_string(request.emcHz));
    }
    return args;
}

namespace {

// min/max pair of one clock: raising writes max first, lowering min first.
void pin(std::vector<SysfsWrite>& out, const std::string& minPath, const std::string& maxPath, int64_t value,
         int64_t currentMax) {
    const std::string text = std::to_string(value);
    if (value >= currentMax) {
        out.push_back({maxPath, text});
        out.push_back({minPath, text});
    } else {
        out.push_back({minPath, text});
        out.push_back({maxPath, text});
    }
}

} // namespace

std::vector<SysfsWrite> planClockWrites(const HelperRequest& request, const ClockPaths& paths,
                                        const ObservedClocks& current, const HelperLimits& limits) {
    std::vector<SysfsWrite> out;
    const std::string cpu = "sys/devices/system/cpu/cpu";
    if (request.action == HelperRequest::Action::SetClocks) {
        for (int i = 1; i < limits.cpuCount; ++i)
            out.push_back({cpu + std::to_string(i) + "/online", i < request.cores ? "1" : "0"});
        for (int i = 0; i < request.cores; ++i)
            pin(out, cpu + std::to_string(i) + "/cpufreq/scaling_min_freq",
                cpu + std::to_string(i) + "/cpufreq/scaling_max_freq", request.cpuKhz, current.cpuMaxKhz);
        if (!paths.gpuDevfreq.empty())
            pin(out, paths.gpuDevfreq + "/min_freq", paths.gpuDevfreq + "/max_freq", request.gpuHz,
                current.gpuMaxHz);
        if (request.emcHz > 0 && paths.emcReadable) {
            out.push_back({paths.emcClock + "/mrq_rate_locked", "1"});
            out.push_back({paths.emcClock + "/rate", std::to_string(request.emcHz)});
        } else if (request.emcHz > 0 && !paths.emcDevfreq.empty()) { // Thor: EMC through bwmgr's devfreq
            // the current rate stands in for the current max: either order then keeps min <= max
            pin(out, paths.emcDevfreq + "/min_freq", paths.emcDevfreq + "/max_freq", request.emcHz,
                current.emcHz);
        }
    } else if (request.action == HelperRequest::Action::ReleaseClocks) {
        // bring every core back first (a custom mode may have taken some offline), then unpin each one:
        // min to the ladder bottom, max to the ladder top
        for (int i = 1; i < limits.cpuCount; ++i)
            out.push_back({cpu + std::to_string(i) + "/online", "1"});
        if (!limits.cpuKhz.empty())
            for (int i = 0; i < limits.cpuCount; ++i) {
                out.push_back({cpu + std::to_string(i) + "/cpufreq/scaling_min_freq",
                               std::to_string(limits.cpuKhz.front())});
                out.push_back({cpu + std::to_string(i) + "/cpufreq/scaling_max_freq",
                               std::to_string(limits.cpuKhz.back())});
            }
        if (!paths.gpuDevfreq.empty() && !limits.gpuHz.empty())
            out.push_back({paths.gpuDevfreq + "/min_freq", std::to_string(limits.gpuHz.front())});
        if (paths.emcReadable) {
            out.push_back({paths.emcClock + "/mrq_rate_locked", "0"});
        } else if (!paths.emcDevfreq.empty() && !limits.emcHz.empty()) { // bwmgr: back to its whole range
            out.push_back({paths.emcDevfreq + "/max_freq", std::to_string(limits.emcHz.back())});
            out.push_back({paths.emcDevfreq + "/min_freq", std::to_string(limits.emcHz.front())});
        }
    }
    return out;
}

HelperLimits readHelperLimits(const SysfsRoot& root, const ClockPaths& paths) {
    HelperLimits limits;
    const ClockLadders ladders = readClockLadders(root, paths);
    limits.cpuKhz = ladders.cpuKhz;
    limits.gpuHz = ladders.gpuHz;
    limits.emcHz = ladders.emcHz;
    if (limits.emcHz.empty())
        if (const auto top = root.readInteger(paths.emcClock + "/max_rate")) limits.emcHz = {*top};
    if (limits.emcHz.empty() && !paths.emcDevfreq.empty())
        if (const auto top = root.readInteger(paths.emcDevfreq + "/max_freq")) limits.emcHz = {*top};
    limits.cpuCount = paths.cpuCount;
    if (const auto text = root.read("etc/nvpmodel.conf")) {
        try {
            for (const auto& mode : parseNvpmodelConf(*text).modes)
                limits.stockIds.push_back(mode.id);
        } catch (const InputError&) {
            // an unreadable conf allows no stock mode
        }
    }
    return limits;
}

} // namespace rooftop
