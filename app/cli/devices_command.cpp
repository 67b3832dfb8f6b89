// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/commands.h"
#include "core/onnx/input_error.h"

namespace rooftop::cli {

int runDevices(const std::vector<std::string>& args) {
    (void)args;
    throw InputError("devices: not built yet");
}

} // namespace rooftop::cli
