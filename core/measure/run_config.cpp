// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/run_config.h"

#include "core/onnx/dim_text.h"

namespace rooftop {

const std::vector<std::string>& runPrecisions() {
    static const std::vector<std::string> precisions = {"fp32", "fp16", "int8"};
    return precisions;
}

bool isRunPhase(const std::string& phase) {
    return phase == "inference" || phase == "training";
}

std::vector<std::pair<std::string, std::string>> runEnvironment(const RunConfig& config,
                                                                const std::string& modelPath) {
    const PowerMode& mode = config.mode;
    return {{"ROOFTOP_MODEL", modelPath},
            {"ROOFTOP_BATCH", std::to_string(config.batch)},
            {"ROOFTOP_DIMS", namedDimsText(config.dims)},
            {"ROOFTOP_PRECISION", config.precision},
            {"ROOFTOP_PHASE", config.phase},
            {"ROOFTOP_MODE", mode.name},
            {"ROOFTOP_CORES", std::to_string(mode.onlineCores)},
            {"ROOFTOP_CPU_KHZ", std::to_string(mode.cpuKhz)},
            {"ROOFTOP_GPU_HZ", std::to_string(mode.gpuHz)},
            {"ROOFTOP_EMC_HZ", std::to_string(mode.emcHz)}};
}

} // namespace rooftop
