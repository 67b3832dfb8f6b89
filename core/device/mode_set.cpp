// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/device/mode_set.h"

#include "core/common/errors.h"

#include <algorithm>
#include <sstream>

namespace rooftop {

namespace {

PowerMode currentMode(const DeviceSpec& device, std::optional<int> currentStockId) {
    if (device.discrete && !device.stockModes.empty())
        return powerModeFrom(device, device.stockModes.front());
    if (!currentStockId) throw UnavailableError("cannot read the nvpmodel mode in force");
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

} // namespace

const char* modeSetSyntax() {
    return "current | stock | grid | all | LIST";
}

std::vector<PowerMode> modesFor(const DeviceSpec& device, const std::string& spec,
                                std::optional<int> currentStockId) {
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
        for (PowerMode& mode : gridPowerModes(device))
            addUnique(modes, std::move(mode));
    } else {
        std::istringstream in(spec);
        std::string item;
        while (std::getline(in, item, ';'))
            if (item.find_first_not_of(" \t") != std::string::npos) {
                try {
                    addUnique(modes, resolvePowerMode(device, item));
                } catch (const InputError& error) {
                    throw InputError(std::string(error.what()) +
                                     "; a mode set is current, stock, grid, all or a " +
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

} // namespace rooftop
