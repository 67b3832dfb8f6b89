// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/nvpmodel_block.h"

#include <string>
#include <vector>

namespace rooftop {

/// One shell command of the nvpmodel guide with what it is for.
struct GuideCommand {
    std::string command;   ///< "sudo nvpmodel -m 4"
    std::string comment;   ///< "may ask to reboot (YES) when TPC gating changes"
    bool optional = false; ///< left out of the script, as a comment (jetson_clocks)
};

/// A step of the guide: "Back up", "Add the mode", "Switch", "Undo".
struct GuideStep {
    std::string title;                  ///< one of the names above
    std::string note;                   ///< a line under the title; may be empty
    std::vector<GuideCommand> commands; ///< in the order they run
};

/// How to put the board in a mode and back, as steps a person follows (the window) and as text (the CLI).
struct NvpmodelGuide {
    std::string intro;            ///< what the mode is and what to check first
    std::string block;            ///< a custom mode's POWER_MODEL block; empty for a stock mode and on Thor
    std::string blockFile;        ///< the file the commands read the block from ("rooftop_mode.conf")
    std::vector<GuideStep> steps; ///< in order, the way back last; empty for a board nvpmodel does not drive
};

/// The guide for `mode` on `device`: a stock mode is switched to by id; a custom mode's block is added to
/// /etc/nvpmodel.conf after a backup, then switched to (Thor: the block is written by hand, its PARAM names
/// not being public); every guide ends with the way back. A board nvpmodel does not drive gets only an intro.
NvpmodelGuide nvpmodelGuide(const DeviceSpec& device, const PowerMode& mode);

/// The guide as text: the intro, the block, then each step numbered with its commands indented and
/// commented (one command a line, each to copy alone).
std::string guideText(const NvpmodelGuide& guide);

/// The guide as a POSIX shell script: the block written to its file, then the commands of every step but the
/// last in order (optional ones commented out), and the way back as comments.
std::string guideScript(const NvpmodelGuide& guide);

/// guideText(nvpmodelGuide(device, mode)): what to run to apply a mode and to go back.
std::string nvpmodelInstructions(const DeviceSpec& device, const PowerMode& mode);

} // namespace rooftop
