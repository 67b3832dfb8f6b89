// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace rooftop::gui {

/// What the command line asks of the window.
struct GuiOptions {
    std::vector<std::string> modelPaths; ///< one window per model (the desktop launcher passes %F)
    std::string deviceId;
    std::string view;  ///< "time", "energy" or "modes"; empty: the last one used
    std::string theme; ///< "light" or "dark"; empty: the saved choice
};

/// Parses `[MODEL.onnx...] [--device ID] [--view V] [--theme T]`; throws InputError naming the bad argument.
GuiOptions parseGuiOptions(const std::vector<std::string>& args);

/// Shows the main window and runs the event loop (a QApplication must exist); returns the exit code.
int runGui(const GuiOptions& options);

} // namespace rooftop::gui
