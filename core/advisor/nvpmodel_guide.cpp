// SPDX-License-Identifier: GPL-3.0-or-later
// How to put a Jetson in a recommended mode and back, step by step (reference/jetson.md section 2.1).
#include "core/advisor/nvpmodel_guide.h"

#include "core/common/text_format.h"
#include "core/device/power_mode.h"

#include <algorithm>
#include <sstream>

namespace rooftop {

namespace {

std::string paramRange(const std::vector<CpuCluster>& clusters) {
    if (clusters.empty()) return {};
    if (clusters.size() == 1) return clusters.front().param;
    return clusters.front().param + " .. " + clusters.back().param;
}

const GuideCommand kQuery{"nvpmodel -q", "note the current mode, to go back to it"};
const GuideCommand kBackUp{"sudo cp /etc/nvpmodel.conf /etc/nvpmodel.conf.bak", "back up the configuration"};
const GuideCommand kRestoreConf{"sudo cp /etc/nvpmodel.conf.bak /etc/nvpmodel.conf",
                                "removes the custom mode"};
const GuideCommand kShowClocks{"sudo jetson_clocks --show", "check the CPU, GPU and EMC clocks"};
const GuideCommand kRestoreClocks{"sudo jetson_clocks --restore", "if you ran jetson_clocks"};

GuideCommand defaultMode(const DeviceSpec& device) {
    return {"sudo nvpmodel -m " + std::to_string(device.defaultModeId),
            "the board's default, or the id nvpmodel -q printed"};
}

GuideCommand listsMode(const PowerMode& mode) {
    return {"sudo nvpmodel -p --verbose | grep " + customModeConfName(mode), "nvpmodel lists the new mode"};
}

void thorCustomGuide(const DeviceSpec& device, const PowerMode& mode, NvpmodelGuide& guide) {
    const int id = customModeId(device);
    const bool emcTop = !device.emcLadderHz.empty() && mode.emcHz >= device.emcLadderHz.back();
    std::ostringstream intro;
    intro << "Custom mode " << readableModeName(mode) << " (" << mode.name << ")"
          << " is not a stock nvpmodel mode. Jetson AGX Thor's nvpmodel.conf PARAM names are not public, so "
             "Rooftop writes no block for it: in /etc/nvpmodel.conf copy the POWER_MODEL block of a stock "
             "mode, give it ID "
          << id << " (or another free id) and NAME=" << customModeConfName(mode) << ", and set:\n"
          << "- CPU_ONLINE: cores 0-" << std::max(0, mode.onlineCores - 1) << " to 1, the others to 0\n"
          << "- the CPU clock param (the one that writes cpu0's scaling_max_freq): MIN_FREQ and MAX_FREQ "
          << mode.cpuKhz << " (kHz)\n"
          << "- GPU (gpu-gpc-0): MIN_FREQ and MAX_FREQ " << mode.gpuHz << " (Hz)\n"
          << "- EMC: MAX_FREQ "
          << (emcTop ? std::string("-1 (no cap)") : std::to_string(mode.emcHz) + " (Hz)") << '\n'
          << "- GPU_POWER_GATING: as the copied block (a different GPU_PG_MASK needs a reboot)\n";
    guide.intro = intro.str();
    guide.steps = {{"Back up", {}, {kQuery, kBackUp}},
                   {"Add the mode", "edit /etc/nvpmodel.conf as above, then", {listsMode(mode)}},
                   {"Switch", {}, {{"sudo nvpmodel -m " + std::to_string(id), "switch to it"}, kShowClocks}},
                   {"Undo", "to go back", {defaultMode(device), kRestoreConf}}};
}

void customGuide(const DeviceSpec& device, const PowerMode& mode, NvpmodelGuide& guide) {
    const int id = customModeId(device);
    const auto clusters = cpuClusters(device);
    std::ostringstream intro;
    intro << "Custom mode " << readableModeName(mode) << " (" << mode.name << ")"
          << " is not a stock nvpmodel mode: add it to /etc/nvpmodel.conf as mode " << id << ".\n"
          << "Check the PARAM names against your /etc/nvpmodel.conf (this board's " << device.soc
          << " file should use " << paramRange(clusters) << ", GPU and EMC) and use another ID if " << id
          << " is taken.\n"
          << "CPU and GPU clocks are pinned (MIN_FREQ = MAX_FREQ)"
          << (!device.emcLadderHz.empty() && mode.emcHz >= device.emcLadderHz.back()
                  ? "; EMC MAX_FREQ 0 means no cap (the top of the memory ladder cannot be written as a cap)"
                  : "; EMC MAX_FREQ caps the memory clock")
          << ".\n";
    guide.intro = intro.str();
    guide.block = powerModelBlock(device, mode, id);
    guide.blockFile = "rooftop_mode.conf";
    guide.steps = {
        {"Back up", {}, {kQuery, kBackUp}},
        {"Add the mode",
         "save the block as " + guide.blockFile +
             " (or paste it after the last POWER_MODEL, before < PM_CONFIG DEFAULT=... >)",
         {{"sudo tee -a /etc/nvpmodel.conf < " + guide.blockFile, "append the block"}, listsMode(mode)}},
        {"Switch",
         {},
         {{"sudo nvpmodel -m " + std::to_string(id), "may ask to reboot (YES) when TPC gating changes"},
          {"sudo jetson_clocks --store && sudo jetson_clocks", "optional: disable DVFS at these clocks",
           true},
          kShowClocks}},
        {"Undo", "to go back", {kRestoreClocks, defaultMode(device), kRestoreConf}}};
}

} // namespace

NvpmodelGuide nvpmodelGuide(const DeviceSpec& device, const PowerMode& mode) {
    NvpmodelGuide guide;
    if (device.discrete || (cpuClusters(device).empty() && !thorSoc(device))) {
        guide.intro = device.name +
                      " is not driven by nvpmodel: set the clocks with the vendor's tools (GPU " +
                      mhz(double(mode.gpuHz)) + " MHz, memory " + mhz(double(mode.emcHz)) + " MHz).\n";
        return guide;
    }
    if (!mode.stock) // custom clocks that are a stock mode's caps: that mode, no new one to add
        for (const StockMode& stock : device.stockModes) {
            const PowerMode same = powerModeFrom(device, stock);
            if (same.onlineCores == mode.onlineCores && same.cpuKhz == mode.cpuKhz &&
                same.gpuHz == mode.gpuHz && same.emcHz == mode.emcHz && same.activeTpcs == mode.activeTpcs) {
                NvpmodelGuide stockGuide = nvpmodelGuide(device, same);
                stockGuide.intro = mode.name + " has the clocks of stock mode " + same.name +
                                   ", nvpmodel mode " + std::to_string(same.stockId) + ".\n";
                return stockGuide;
            }
        }
    if (mode.stock) {
        guide.intro = "Stock mode " + mode.name + " is nvpmodel mode " + std::to_string(mode.stockId) + ".\n";
        guide.steps = {{"Back up", {}, {kQuery}},
                       {"Switch",
                        {},
                        {{"sudo nvpmodel -m " + std::to_string(mode.stockId),
                          "may ask to reboot (YES) when TPC gating changes"},
                         {"sudo jetson_clocks --store && sudo jetson_clocks",
                          "optional: lock the clocks at the mode's maxima", true}}},
                       {"Undo", "to go back", {kRestoreClocks, defaultMode(device)}}};
        if (mode.stockId == device.defaultModeId) // switching back to it would repeat the switch
            guide.steps.back() = {"Undo",
                                  "to go back: this mode is the board's default; to another mode, sudo "
                                  "nvpmodel -m with the id nvpmodel -q printed",
                                  {kRestoreClocks}};
        return guide;
    }
    if (thorSoc(device))
        thorCustomGuide(device, mode, guide);
    else
        customGuide(device, mode, guide);
    return guide;
}

std::string guideText(const NvpmodelGuide& guide) {
    std::ostringstream out;
    out << guide.intro;
    if (!guide.block.empty())
        out << "\nSave this block as " << guide.blockFile << ":\n\n" << guide.block << '\n';
    for (size_t i = 0; i < guide.steps.size(); ++i) {
        const GuideStep& step = guide.steps[i];
        out << i + 1 << ". " << step.title << (step.note.empty() ? "" : ": " + step.note) << '\n';
        for (const GuideCommand& c : step.commands) {
            out << "  " << c.command;
            if (!c.comment.empty())
                out << std::string(c.command.size() < 52 ? 52 - c.command.size() : 1, ' ') << "# "
                    << c.comment;
            out << '\n';
        }
    }
    return out.str();
}

std::string guideScript(const NvpmodelGuide& guide) {
    std::ostringstream out;
    out << "#!/bin/sh\n# Written by Rooftop: read it before running it.\nset -e\n";
    if (!guide.block.empty()) out << "\ncat > " << guide.blockFile << " <<'EOF'\n" << guide.block << "EOF\n";
    for (size_t i = 0; i < guide.steps.size(); ++i) {
        const GuideStep& step = guide.steps[i];
        const bool undo = i + 1 == guide.steps.size() && guide.steps.size() > 1;
        out << "\n# " << i + 1 << ". " << step.title << (step.note.empty() ? "" : ": " + step.note)
            << (undo ? " (not run: the commands to go back later)" : "") << '\n';
        for (const GuideCommand& c : step.commands)
            out << (undo || c.optional ? "# " : "") << c.command
                << (c.comment.empty() ? "" : "  # " + c.comment) << '\n';
    }
    return out.str();
}

std::string nvpmodelInstructions(const DeviceSpec& device, const PowerMode& mode) {
    return guideText(nvpmodelGuide(device, mode));
}

} // namespace rooftop
