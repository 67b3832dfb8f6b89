// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/run_config.h"

namespace rooftop {

const std::vector<std::string>& runPrecisions() {
    static const std::vector<std::string> precisions = {"fp32", "fp16", "int8"};
    return precisions;
}

bool isRunPhase(const std::string& phase) {
    return phase == "inference" || phase == "training";
}

} // namespace rooftop
