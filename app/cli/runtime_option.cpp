// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/runtime_option.h"

namespace rooftop::cli {

bool isRuntimeOption(const std::string& option) {
    return option == "--runtime" || option == "--runtime-file";
}

bool takeRuntimeOption(const std::string& option, const std::string& value, RuntimeSelection& selection) {
    if (option == "--runtime") {
        selection.name = value;
        selection.nameGiven = true;
    } else if (option == "--runtime-file") {
        selection.file = value;
    } else {
        return false;
    }
    return true;
}

const char* runtimeOptionsHelp() {
    return "  --runtime NAME            tensorrt (default), onnxruntime-cuda, pytorch-eager or ideal: its\n"
           "                            dispatch cost and kernel efficiencies (ideal = datasheet roofs)\n"
           "  --runtime-file FILE       a runtime from a file (rooftop calibrate -o writes one; its numbers "
           "are\n"
           "                            then \"fitted\"); with --runtime, the runtime of that name in the "
           "file\n";
}

} // namespace rooftop::cli
