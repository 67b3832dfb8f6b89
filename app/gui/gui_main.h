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
    std::string runsPath;      ///< a runs file of the (first) model, shown as measured points
    std::string predictorPath; ///< a predictor of the (first) model (File → Load predictor…)
    std::string layerProfilePath; ///< a measured layer profile of the (first) model (File → Import measured…)
    std::string layerInfoPath; ///< the trtexec --exportLayerInfo that goes with it
    std::string runtimePath;   ///< a runtime file (rooftop calibrate / compare --calibrate-classes -o)
    std::vector<std::string> dims; ///< --dim NAME=VALUE for the (first) model's symbolic dims
};

/// Parses `[MODEL.onnx...] [--device ID] [--view V] [--theme T] [--dim NAME=VALUE]... [--runs F]
/// [--predictor F] [--layer-profile F [--layer-info F]]`; throws
/// InputError naming the bad argument.
GuiOptions parseGuiOptions(const std::vector<std::string>& args);

/// Shows the main window and runs the event loop (a QApplication must exist); returns the exit code.
int runGui(const GuiOptions& options);

} // namespace rooftop::gui
