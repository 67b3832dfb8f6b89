// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/device/mode_set.h"

#include "core/common/errors.h"
#include "core/common/splitmix.h"
#include "core/device/measured_profile.h"

#include <algorithm>
#include <sstream>

namespace rooftop {

namespace {

PowerMode currentMode(const DeviceSpec& device, std::optional<int> currentStockId) {
    if (device.discrete && !device.stockModes.empty())
        return powerModeFrom(device, device.stockModes.front());
    if (!currentStockId)
        throw UnavailableError(
            "cannot read the nvpmodel mode in force (off a Jetson there is none); name the "
            "modes instead: --modes stock, grid, all or a mode's name");
    const StockMode* stock = device.stockMode(*currentStockId);
    if (!stock)
        throw UnavailableError("the mode in force (" + std::to_string(*currentStockId) +
                               ") is not a stock mode of " + device.id);
    return powerModeFrom(device, *stock);
}

void addUnique(std::vector<PowerMode>& modes, PowerMode mode) {
    const bool seen = std::any_of(modes.begin(), modes.end(), [&](const PowerMode& m) {
        return m.name == mode.name && m.stock == mode.stock;
    });
    if (!seen) modes.push_back(std::move(mode));
}

/// "sample:N": N grid modes drawn without replacement (a partial Fisher-Yates shuffle), kept in grid order.
std::vector<PowerMode> sampleGrid(const DeviceSpec& device, const std::string& count, uint64_t seed) {
    std::vector<PowerMode> grid = gridPowerModes(device);
    if (grid.empty())
        throw InputError(device.id + " has no custom-clock grid to sample; use the stock modes");
    const bool digits =
        !count.empty() && count.size() <= 9 && count.find_first_not_of("0123456789") == std::string::npos;
    const long long n = digits ? std::stoll(count) : 0;
    if (n < 1 || n > static_cast<long long>(grid.size()))
        throw InputError("sample:N needs N from 1 to " + std::to_string(grid.size()) + " (the grid of " +
                         device.id + "), got '" + count + "'");
    std::vector<size_t> order(grid.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    SplitMix64 random(seed);
    for (size_t i = 0; i < static_cast<size_t>(n); ++i)
        std::swap(order[i], order[i + random.below(order.size() - i)]);
    order.resize(static_cast<size_t>(n));
    std::sort(order.begin(), order.end());
    std::vector<PowerMode> modes;
    for (size_t index : order)
        modes.push_back(grid[index]);
    return modes;
}

} // namespace

bool namesModeSet(const std::string& spec) {
    return spec == "current" || spec == "stock" || spec == "grid" || spec == "all" ||
           spec.rfind("sample:", 0) == 0;
}

const char* modeSetSyntax() {
    return "current | stock | grid | all | sample:N | LIST";
}

std::vector<PowerMode> modesFor(const DeviceSpec& device, const std::string& spec,
                                std::optional<int> currentStockId, uint64_t seed) {
    std::vector<PowerMode> modes;
    if (spec == "current") {
        modes.push_back(currentMode(device, currentStockId));
    } else if (spec == "stock") {
        modes = stockPowerModes(device);
    } else if (spec == "grid") {
        modes = gridPowerModes(device);
        if (modes.empty()) throw InputError(device.id + " has no custom-clock grid; use the stock modes");
    } else if (spec == "all") {
        modes = stockPowerModes(device);
        const size_t stockCount = modes.size();
        for (PowerMode& mode : gridPowerModes(device)) {
            // a grid mode with a stock mode's clocks, cores and TPCs is that mode: listed once, by its name
            const auto end = modes.begin() + static_cast<std::ptrdiff_t>(stockCount);
            if (std::none_of(modes.begin(), end,
                             [&](const PowerMode& s) { return sameOperatingPoint(s, mode); }))
                addUnique(modes, std::move(mode));
        }
    } else if (spec.rfind("sample:", 0) == 0) {
        modes = sampleGrid(device, spec.substr(7), seed);
    } else {
        std::istringstream in(spec);
        std::string item;
        while (std::getline(in, item, ';'))
            if (const size_t first = item.find_first_not_of(" \t"); first != std::string::npos) {
                // a set named in a list (roofline --mode MAXN --modes stock) adds its modes
                const std::string name = item.substr(first, item.find_last_not_of(" \t") - first + 1);
                if (namesModeSet(name)) {
                    for (PowerMode& mode : modesFor(device, name, currentStockId, seed))
                        addUnique(modes, std::move(mode));
                    continue;
                }
                try {
                    addUnique(modes, resolvePowerMode(device, item));
                } catch (const InputError& error) {
                    throw InputError(std::string(error.what()) +
                                     "; a mode set is current, stock, grid, all, sample:N or a " +
                                     "';'-separated list of modes");
                }
            }
        if (modes.empty())
            throw InputError("the mode set is empty; give " + std::string(modeSetSyntax()) +
                             " (a LIST is ';'-separated)");
    }
    if (modes.empty()) throw InputError(device.id + " has no power modes to choose from");
    return modes;
}

size_t nameStockOperatingPoints(const DeviceSpec& device, std::vector<PowerMode*> modes) {
    size_t renamed = 0;
    for (const PowerMode& stock : stockPowerModes(device)) {
        const bool listed = std::any_of(modes.begin(), modes.end(), [&](const PowerMode* m) {
            return m->stock && m->stockId == stock.stockId;
        });
        if (listed) continue;
        for (PowerMode* mode : modes)
            if (!mode->stock && sameOperatingPoint(*mode, stock)) {
                *mode = stock;
                ++renamed;
                break;
            }
    }
    return renamed;
}

} // namespace rooftop
