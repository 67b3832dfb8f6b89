// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rooftop::gui {

/// What the command line asks of the window.
struct GuiOptions {
    std::vector<std::string> modelPaths; ///< one window per model (the desktop launcher passes %F)
    std::string deviceId;
    std::string view;          ///< "time", "energy", "modes" or "ops"; empty: the last one used
    std::string theme;         ///< "light" or "dark"; empty: the saved choice
    std::string runsPath;      ///< a runs file of the (first) model, shown as measured points
    std::string predictorPath; ///< a predictor of the (first) model (File → Load predictor…)
    std::string layerProfilePath; ///< a measured layer profile of the (first) model (File → Import measured…)
    std::string layerInfoPath; ///< the trtexec --exportLayerInfo that goes with it
    std::string measuredMode;  ///< the stock mode the layer profile was measured in (empty: not known)
    std::string runtimePath;   ///< a runtime file (rooftop calibrate / compare --calibrate-classes -o)
    std::string modeSet; ///< "stock", "grid" or "all": the modes the advisor chooses among; empty: stock
    std::optional<double> latencySloMs;  ///< the advisor's latency limit per batch
    std::optional<double> powerCapWatts; ///< the advisor's power limit
    std::string objective;         ///< the advisor's objective (energy, latency, efficiency); empty: as saved
    std::vector<std::string> dims; ///< --dim NAME=VALUE for the (first) model's symbolic dims
    std::optional<int> batch;      ///< the toolbar's batch
    std::string
        run; ///< the toolbar's Run: "inference" or a training step's optimizer ("adam"); empty: as saved
};

/// Parses `[MODEL.onnx...] [--device ID] [--view V] [--theme T] [--dim NAME=VALUE]... [--runs F]
/// [--predictor F] [--layer-profile F [--layer-info F]] [--modes stock|grid|all] [--latency-slo MS]
/// [--power-cap W] [--objective O] [--batch N] [--phase inference|training [--optimizer O]]`; throws
/// InputError naming the bad argument.
GuiOptions parseGuiOptions(const std::vector<std::string>& args);

/// Shows the main window and runs the event loop (a QApplication must exist); returns the exit code.
int runGui(const GuiOptions& options);

} // namespace rooftop::gui
