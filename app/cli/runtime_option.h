// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/runtime_profile.h"

#include <string>

namespace rooftop::cli {

/// What --runtime NAME and --runtime-file FILE asked for (shared by modes, roofline, recommend, calibrate).
struct RuntimeChoice {
    std::string name = "tensorrt"; ///< --runtime (the default when not given)
    bool nameGiven = false;
    std::string file; ///< --runtime-file, empty when not given

    /// Consumes --runtime or --runtime-file with its value; false for any other option.
    bool take(const std::string& option, const std::string& value);
    /// True when `option` is --runtime or --runtime-file (it then takes a value).
    static bool isRuntimeOption(const std::string& option);
    /// The runtime: from the file (the one named by --runtime, or its only one), else the built-in named one.
    RuntimeProfile resolve() const;
};

/// Usage lines for --runtime and --runtime-file.
const char* runtimeOptionsHelp();

} // namespace rooftop::cli
