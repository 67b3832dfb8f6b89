// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/runtime_option.h"

namespace rooftop::cli {

bool RuntimeChoice::isRuntimeOption(const std::string& option) {
    return option == "--runtime" || option == "--runtime-file";
}

bool RuntimeChoice::take(const std::string& option, const std::string& value) {
    if (option == "--runtime") {
        name = value;
        nameGiven = true;
    } else if (option == "--runtime-file") {
        file = value;
    } else {
        return false;
    }
    return true;
}

RuntimeProfile RuntimeChoice::resolve() const {
    if (!file.empty()) return loadRuntimeFromFile(file, nameGiven ? name : std::string());
    return findRuntime(name);
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
