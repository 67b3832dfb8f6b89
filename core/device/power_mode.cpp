// SPDX-License-Identifier: GPL-3.0-or-later
// Power modes: the stock nvpmodel modes of a board, its custom-mode grid, and custom modes from the ladders.
#include "core/device/power_mode.h"

#include "core/common/decimal_text.h"
#include "core/common/errors.h"
#include "core/common/text_format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

namespace rooftop {

namespace {

std::string ladderRange(const std::vector<int64_t>& ladder) {
    if (ladder.empty()) return "empty";
    return std::to_string(ladder.front()) + " ... " + std::to_string(ladder.back());
}

void requireOnLadder(const DeviceSpec& device, const char* what, int64_t value, const char* unit,
                     const std::vector<int64_t>& ladder) {
    if (std::binary_search(ladder.begin(), ladder.end(), value)) return;
    throw InputError(std::string(what) + " " + std::to_string(value) + " " + unit + " is not in " +
                     device.id + "'s " + what + " ladder (" + ladderRange(ladder) + ")");
}

/// Clock in MHz without trailing zeros: 1728000 kHz -> "1728", 1300500000 Hz -> "1300.5", 665600000 ->
/// "665.6".
std::string trim(const std::string& text) {
    size_t begin = 0, end = text.size();
    while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])))
        ++begin;
    while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])))
        --end;
    return text.substr(begin, end - begin);
}

// The ladder value whose MHz text (value / perMhz) is `text`, or 0.
int64_t ladderValueNamed(const std::vector<int64_t>& ladder, const std::string& text, double perMhz) {
    for (int64_t value : ladder)
        if (trimmedFixed(static_cast<double>(value) / perMhz, 3) == text) return value;
    return 0;
}

// A canonical custom-mode name "c<cores>-cpu<MHz>-gpu<MHz>-emc<MHz>" as a mode of the device, or false.
bool customModeFromName(const DeviceSpec& device, const std::string& name, PowerMode& mode) {
    const size_t cpu = name.find("-cpu"), gpu = name.find("-gpu"), emc = name.find("-emc");
    if (name.size() < 2 || name[0] != 'c' || cpu == std::string::npos || gpu == std::string::npos ||
        emc == std::string::npos || !(cpu < gpu && gpu < emc))
        return false;
    const std::string coresText = name.substr(1, cpu - 1);
    if (coresText.empty() || coresText.size() > 6 ||
        !std::all_of(coresText.begin(), coresText.end(), [](unsigned char c) { return std::isdigit(c); }))
        return false;
    const int64_t cpuKhz = ladderValueNamed(device.cpuLadderKhz, name.substr(cpu + 4, gpu - cpu - 4), 1e3);
    const int64_t gpuHz = ladderValueNamed(device.gpuLadderHz, name.substr(gpu + 4, emc - gpu - 4), 1e6);
    const int64_t emcHz = ladderValueNamed(device.emcLadderHz, name.substr(emc + 4), 1e6);
    if (cpuKhz == 0 || gpuHz == 0 || emcHz == 0)
        throw InputError("custom mode '" + name + "': a clock is not on " + device.id +
                         "'s ladders (rooftop modes --device " + device.id + " --grid lists valid names)");
    mode = customPowerMode(device, std::stoi(coresText), cpuKhz, gpuHz, emcHz);
    return true;
}

} // namespace

PowerMode powerModeFrom(const DeviceSpec& device, const StockMode& stock) {
    (void)device;
    PowerMode mode;
    mode.name = stock.name;
    mode.stock = true;
    mode.stockId = stock.id;
    mode.onlineCores = stock.onlineCores;
    mode.cpuKhz = stock.cpuMaxKhz;
    mode.gpuHz = stock.gpuMaxHz;
    mode.emcHz = stock.emcMaxHz;
    mode.activeTpcs = stock.activeTpcs;
    mode.budgetWatts = stock.budgetWatts;
    return mode;
}

std::vector<PowerMode> stockPowerModes(const DeviceSpec& device) {
    std::vector<const StockMode*> ordered;
    for (const auto& stock : device.stockModes)
        ordered.push_back(&stock);
    std::sort(ordered.begin(), ordered.end(),
              [](const StockMode* a, const StockMode* b) { return a->id < b->id; });
    std::vector<PowerMode> modes;
    modes.reserve(ordered.size());
    for (const StockMode* stock : ordered)
        modes.push_back(powerModeFrom(device, *stock));
    return modes;
}

std::vector<PowerMode> gridPowerModes(const DeviceSpec& device) {
    const CustomGrid& g = device.grid;
    std::vector<PowerMode> modes;
    modes.reserve(g.size());
    for (int cores : g.cores)
        for (int64_t cpu : g.cpuKhz)
            for (int64_t gpu : g.gpuHz)
                for (int64_t emc : g.emcHz) {
                    PowerMode mode;
                    mode.name = customModeName(cores, cpu, gpu, emc);
                    mode.onlineCores = cores;
                    mode.cpuKhz = cpu;
                    mode.gpuHz = gpu;
                    mode.emcHz = emc;
                    mode.activeTpcs = device.units.tpcCount;
                    modes.push_back(std::move(mode));
                }
    return modes;
}

PowerMode customPowerMode(const DeviceSpec& device, int cores, int64_t cpuKhz, int64_t gpuHz, int64_t emcHz) {
    if (cores < 1 || cores > device.cpuCores)
        throw InputError(std::to_string(cores) + " online cores is out of range for " + device.id +
                         " (1 ... " + std::to_string(device.cpuCores) + ")");
    requireOnLadder(device, "CPU", cpuKhz, "kHz", device.cpuLadderKhz);
    requireOnLadder(device, "GPU", gpuHz, "Hz", device.gpuLadderHz);
    requireOnLadder(device, "EMC", emcHz, "Hz", device.emcLadderHz);
    PowerMode mode;
    mode.name = customModeName(cores, cpuKhz, gpuHz, emcHz);
    mode.onlineCores = cores;
    mode.cpuKhz = cpuKhz;
    mode.gpuHz = gpuHz;
    mode.emcHz = emcHz;
    mode.activeTpcs = device.units.tpcCount;
    return mode;
}

namespace {

/// Values from this up cannot be MHz (100 GHz): older files wrote CPU clocks in kHz and GPU and EMC clocks in
/// Hz.
constexpr double kLegacyClockFrom = 100000.0;

/// A clock of a custom spec in the ladder's unit (kHz: perMhz 1e3, Hz: 1e6), and how it was read.
struct SpecClock {
    int64_t value = 0;
    std::string read; ///< "612 MHz", or "612000000 Hz (612 MHz)" for the legacy unit
};

SpecClock specClock(double number, double perMhz, const char* legacyUnit) {
    SpecClock clock;
    if (number >= kLegacyClockFrom) {
        clock.value = std::llround(number);
        clock.read =
            trimmedFixed(number, 0) + " " + legacyUnit + " (" + trimmedFixed(number / perMhz, 3) + " MHz)";
    } else {
        clock.value = std::llround(number * perMhz);
        clock.read = trimmedFixed(number, 3) + " MHz";
    }
    return clock;
}

std::string ladderMhz(const std::vector<int64_t>& ladder, double perMhz) {
    if (ladder.empty()) return "empty";
    return trimmedFixed(double(ladder.front()) / perMhz, 3) + " ... " +
           trimmedFixed(double(ladder.back()) / perMhz, 3) + " MHz";
}

} // namespace

PowerMode parseCustomMode(const DeviceSpec& device, const std::string& text) {
    static const char* const keys[] = {"cores", "cpu", "gpu", "emc"};
    const std::string usage = "expected cores=N,cpu=MHZ,gpu=MHZ,emc=MHZ";
    std::map<std::string, double> values;
    const std::vector<std::string> items = splitCommaList(text);
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string item = trim(items[i]);
        if (item.empty()) {
            if (i + 1 == items.size()) break; // a trailing comma
            throw InputError("custom mode '" + text + "': empty item; " + usage);
        }
        const size_t eq = item.find('=');
        if (eq == std::string::npos)
            throw InputError("custom mode '" + text + "': '" + item + "' has no '='; " + usage);
        std::string key = trim(item.substr(0, eq));
        std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
        std::string value = trim(item.substr(eq + 1));
        if (std::none_of(std::begin(keys), std::end(keys), [&](const char* k) { return key == k; }))
            throw InputError("custom mode '" + text + "': unknown key '" + key + "'; " + usage);
        if (values.count(key)) throw InputError("custom mode '" + text + "': " + key + " given twice");
        const bool cores = key == "cores";
        if (!cores && value.size() > 3) { // "612MHz" says the one unit there is
            std::string unit = value.substr(value.size() - 3);
            std::transform(unit.begin(), unit.end(), unit.begin(),
                           [](unsigned char c) { return std::tolower(c); });
            if (unit == "mhz") value = trim(value.substr(0, value.size() - 3));
        }
        const std::optional<double> read = readDecimal(value);
        const double number = read.value_or(0.0);
        if (!read || number <= 0 || (cores && number != std::floor(number)))
            throw InputError("custom mode '" + text + "': " + key +
                             (cores ? " must be a positive integer" : " must be a positive number of MHz") +
                             ", got '" + value + "'");
        values[key] = number;
    }
    for (const char* key : keys)
        if (!values.count(key))
            throw InputError("custom mode '" + text + "': missing " + key + "=; " + usage);
    if (values["cores"] > 1000000) throw InputError("custom mode '" + text + "': cores out of range");
    const SpecClock cpu = specClock(values["cpu"], 1e3, "kHz");
    const SpecClock gpu = specClock(values["gpu"], 1e6, "Hz");
    const SpecClock emc = specClock(values["emc"], 1e6, "Hz");
    const auto onLadder = [&](const char* what, const SpecClock& clock, const std::vector<int64_t>& ladder,
                              double perMhz) {
        if (std::binary_search(ladder.begin(), ladder.end(), clock.value)) return;
        throw InputError("custom mode '" + text + "': " + what + " " + clock.read + " is not on " +
                         device.id + "'s " + what + " ladder (" + ladderMhz(ladder, perMhz) +
                         "); clocks in a custom mode are in MHz, as in its name (cpu=1728,gpu=612,emc=3199)");
    };
    onLadder("CPU", cpu, device.cpuLadderKhz, 1e3);
    onLadder("GPU", gpu, device.gpuLadderHz, 1e6);
    onLadder("EMC", emc, device.emcLadderHz, 1e6);
    return customPowerMode(device, static_cast<int>(values["cores"]), cpu.value, gpu.value, emc.value);
}

std::string nearestStockModeName(const DeviceSpec& device, const std::string& text) {
    const auto lower = [](std::string word) {
        std::transform(word.begin(), word.end(), word.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        word.erase(std::remove_if(word.begin(), word.end(),
                                  [](unsigned char c) { return c == '_' || c == '-' || c == ' '; }),
                   word.end());
        return word;
    };
    const std::string wanted = lower(text);
    if (wanted.empty()) return {};
    std::string found;
    for (const StockMode& mode : device.stockModes) {
        const std::string name = lower(mode.name);
        // "50W" and "mode50w" name MODE_50W; a part that is in two names names neither
        if (name.size() >= wanted.size() &&
            name.compare(name.size() - wanted.size(), wanted.size(), wanted) == 0) {
            if (!found.empty()) return {};
            found = mode.name;
        }
    }
    return found;
}

PowerMode resolvePowerMode(const DeviceSpec& device, const std::string& text) {
    const std::string wanted = trim(text);
    if (const StockMode* named = device.stockModeNamed(wanted)) return powerModeFrom(device, *named);
    const auto isDigit = [](unsigned char c) { return std::isdigit(c) != 0; };
    const bool digits =
        !wanted.empty() && wanted.size() < 9 && std::all_of(wanted.begin(), wanted.end(), isDigit);
    if (digits)
        if (const StockMode* byId = device.stockMode(std::stoi(wanted))) return powerModeFrom(device, *byId);
    if (wanted.find('=') != std::string::npos) return parseCustomMode(device, wanted);
    PowerMode custom;
    if (customModeFromName(device, wanted, custom)) return custom;
    std::string names;
    for (const auto& m : device.stockModes)
        names += (names.empty() ? "" : ", ") + m.name;
    if (const std::string near = nearestStockModeName(device, wanted); !near.empty())
        throw InputError("unknown mode '" + wanted + "' for " + device.id + ": did you mean " + near +
                         "? (stock modes: " + names + ")");
    throw InputError("unknown mode '" + wanted + "' for " + device.id +
                     "; stock modes: " + (names.empty() ? std::string("none") : names) +
                     " (or a custom mode cores=N,cpu=MHZ,gpu=MHZ,emc=MHZ, or its name as in "
                     "c8-cpu1728-gpu612-emc3199)");
}

std::string readableModeName(const PowerMode& mode) {
    if (mode.stock) return mode.name;
    // whole MHz: a person compares clocks at a glance; the canonical name keeps the exact ones
    const auto wholeMhz = [](double hz) { return std::to_string(std::llround(hz / 1e6)); };
    const std::string dot = " \u00b7 ";
    return "GPU " + wholeMhz(double(mode.gpuHz)) + dot + "EMC " + wholeMhz(double(mode.emcHz)) + dot +
           std::to_string(mode.onlineCores) + " \u00d7 " + wholeMhz(double(mode.cpuKhz) * 1e3) + " MHz";
}

std::string namedModeText(const PowerMode& mode) {
    return mode.stock ? mode.name : readableModeName(mode) + " (" + mode.name + ")";
}

std::string customModeName(int cores, int64_t cpuKhz, int64_t gpuHz, int64_t emcHz) {
    return "c" + std::to_string(cores) + "-cpu" + trimmedFixed(cpuKhz / 1e3, 3) + "-gpu" +
           trimmedFixed(gpuHz / 1e6, 3) + "-emc" + trimmedFixed(emcHz / 1e6, 3);
}

} // namespace rooftop
