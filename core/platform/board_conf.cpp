// SPDX-License-Identifier: GPL-3.0-or-later
// The board's own nvpmodel.conf and clock ladders over the catalog's (thor.md: Thor's mode caps and ladders
// are not public; jetson.md section 1.4: vendor and point-release confs add modes). The catalog's stock modes
// are what NVIDIA's conf said when the entry was written; on the board, the conf in force is the truth.
#include "core/platform/board_conf.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/device/catalog.h"

#include <algorithm>
#include <cstdlib>

namespace rooftop {

namespace {

std::optional<int64_t> capOf(const NvpmodelMode& mode, const std::string& param) {
    if (param.empty()) return std::nullopt;
    if (auto value = mode.integer(param, "MAX_FREQ")) return value;
    return mode.integer(param, "MAX_FREQ_KNEXT");
}

std::string modeLabel(const NvpmodelMode& mode) {
    return "mode " + std::to_string(mode.id) + (mode.name.empty() ? "" : " (" + mode.name + ")");
}

/// The nearest ladder step to each value, ascending and without duplicates.
std::vector<int64_t> snapped(const std::vector<int64_t>& values, const std::vector<int64_t>& ladder) {
    std::vector<int64_t> out;
    for (int64_t v : values) {
        int64_t best = ladder.front();
        for (int64_t step : ladder)
            if (std::llabs(step - v) < std::llabs(best - v)) best = step;
        out.push_back(best);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool hasStepOutside(const std::vector<int64_t>& board, const std::vector<int64_t>& catalog) {
    return std::any_of(board.begin(), board.end(),
                       [&](int64_t v) { return !std::binary_search(catalog.begin(), catalog.end(), v); });
}

} // namespace

std::vector<StockMode> stockModesFromConf(const DeviceSpec& device, const NvpmodelConf& conf) {
    if (conf.modes.empty()) throw InputError("nvpmodel.conf defines no POWER_MODEL");
    const std::string cpuParam = conf.cpuClockParam();
    const std::string gpuParam = conf.gpuClockParam();
    const std::string emcParam = conf.emcClockParam();
    std::vector<StockMode> modes;
    for (const NvpmodelMode& m : conf.modes) {
        const std::string where = "nvpmodel.conf " + modeLabel(m) + ": ";
        StockMode s;
        s.id = m.id;
        s.name = m.name.empty() ? "MODE_" + std::to_string(m.id) : m.name;
        s.onlineCores = m.onlineCores() > 0 ? m.onlineCores() : device.cpuCores;
        if (s.onlineCores > device.cpuCores)
            throw InputError(where + std::to_string(s.onlineCores) + " cores online, but " + device.name +
                             " has " + std::to_string(device.cpuCores) +
                             ": this conf is not the board's; nothing switched");
        s.confCpuMaxKhz = capOf(m, cpuParam).value_or(-1);
        s.confGpuMaxHz = capOf(m, gpuParam).value_or(-1);
        s.confEmcMaxHz = capOf(m, emcParam).value_or(-1);
        auto resolve = [&](int64_t cap, const std::vector<int64_t>& ladder, const char* what,
                           const char* unit, double toHz) {
            std::string why;
            const auto value = resolveNvpmodelCap(cap, ladder, &why);
            if (!value) {
                std::string reason = why;
                if (!ladder.empty() && cap > 0)
                    reason = cap > ladder.back()
                                 ? "above the top of the board's " + std::string(what) + " ladder (" +
                                       mhz(static_cast<double>(ladder.back()) * toHz) + " MHz)"
                                 : "below the bottom of the board's " + std::string(what) + " ladder (" +
                                       mhz(static_cast<double>(ladder.front()) * toHz) + " MHz)";
                throw InputError(where + what + " MAX_FREQ " + std::to_string(cap) + " " + unit + " is " +
                                 reason + ": the board cannot run this mode; nothing switched");
            }
            return *value;
        };
        s.cpuMaxKhz = resolve(s.confCpuMaxKhz, device.cpuLadderKhz, "CPU", "kHz", 1e3);
        s.gpuMaxHz = resolve(s.confGpuMaxHz, device.gpuLadderHz, "GPU", "Hz", 1.0);
        s.emcMaxHz = resolve(s.confEmcMaxHz, device.emcLadderHz, "EMC", "Hz", 1.0);
        if (device.tpcMaskBits > 0) {
            const int mask = m.tpcPgMask();
            s.tpcPgMask = mask >= 0 ? mask : 0;
            s.activeTpcs = activeTpcsOfMask(s.tpcPgMask, device.tpcMaskBits, device.units.tpcCount);
            if (s.activeTpcs == 0)
                throw InputError(where + "TPC_PG_MASK " + std::to_string(mask) +
                                 " gates every TPC; nothing switched");
        } else {
            s.activeTpcs = device.units.tpcCount;
        }
        s.budgetWatts = modeBudgetWatts(s.name, device.maxModuleWatts);
        modes.push_back(s);
    }
    std::sort(modes.begin(), modes.end(), [](const StockMode& a, const StockMode& b) { return a.id < b.id; });
    return modes;
}

BoardRefinement deviceForBoard(const DeviceSpec& catalogEntry, const SysfsRoot& root) {
    BoardRefinement out{catalogEntry, {}};
    DeviceSpec& d = out.device;
    if (d.discrete) return out;
    if (d.laddersEstimated) {
        const ClockLadders board = readClockLadders(root, findClockPaths(root));
        auto adopt = [&](const std::vector<int64_t>& ladder, std::vector<int64_t>& mine,
                         std::vector<int64_t>& grid, const char* what, double toHz) {
            if (ladder.empty() || !hasStepOutside(ladder, mine)) return;
            mine = ladder;
            grid = snapped(grid, ladder);
            out.notes.push_back(std::string(what) + " ladder from sysfs (" + std::to_string(ladder.size()) +
                                " steps, " + mhz(static_cast<double>(ladder.front()) * toHz) + "-" +
                                mhz(static_cast<double>(ladder.back()) * toHz) +
                                " MHz) replaces the catalog's estimate");
        };
        adopt(board.cpuKhz, d.cpuLadderKhz, d.grid.cpuKhz, "CPU", 1e3);
        adopt(board.gpuHz, d.gpuLadderHz, d.grid.gpuHz, "GPU", 1.0);
        adopt(board.emcHz, d.emcLadderHz, d.grid.emcHz, "EMC", 1.0);
    }
    const auto text = root.read("etc/nvpmodel.conf");
    if (!text) return out;
    NvpmodelConf conf;
    try {
        conf = parseNvpmodelConf(*text);
    } catch (const InputError& error) {
        throw InputError(std::string("this board's /etc/") + error.what() + "; nothing switched");
    }
    try {
        d.stockModes = stockModesFromConf(d, conf);
    } catch (const InputError& error) {
        throw InputError(std::string("this board's /etc/") + error.what());
    }
    d.defaultModeId = conf.mode(conf.defaultId) ? conf.defaultId : d.stockModes.front().id;
    d.sources["stock_modes"] = "this board's /etc/nvpmodel.conf (" + std::to_string(d.stockModes.size()) +
                               " modes), read at run time; the catalog's list is replaced";
    out.notes.push_back("stock modes from /etc/nvpmodel.conf: " + std::to_string(d.stockModes.size()) +
                        " modes");
    return out;
}

} // namespace rooftop
