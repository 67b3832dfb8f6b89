// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/run_config.h"

#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/onnx/dim_text.h"

#include <cctype>

namespace rooftop {

std::vector<Precision> parseRunPrecisionList(const std::string& text, const std::string& what) {
    std::vector<Precision> precisions;
    for (const std::string& item : splitCommaList(text)) {
        // " FP16" as a person types it in a field is fp16; "f p16" is no precision
        const size_t first = item.find_first_not_of(" \t"), last = item.find_last_not_of(" \t");
        std::string word = first == std::string::npos ? std::string() : item.substr(first, last - first + 1);
        for (char& c : word)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        const std::optional<Precision> precision = parseRunPrecision(word);
        if (!precision)
            throw InputError(what + " must be " + runPrecisionChoices() + " (comma-separated), got '" + text +
                             "'");
        precisions.push_back(*precision);
    }
    return precisions;
}

std::vector<std::pair<std::string, std::string>> runEnvironment(const RunConfig& config,
                                                                const std::string& modelPath) {
    const PowerMode& mode = config.mode;
    const bool llm = config.llm.active();
    return {{"ROOFTOP_MODEL", modelPath},
            {"ROOFTOP_BATCH", std::to_string(config.batch)},
            {"ROOFTOP_DIMS", namedDimsText(config.dims)},
            {"ROOFTOP_PRECISION", precisionName(config.precision)},
            {"ROOFTOP_PHASE", phaseName(config.phase)},
            {"ROOFTOP_OPTIMIZER", config.phase == Phase::Training ? optimizerName(config.optimizer) : ""},
            {"ROOFTOP_MODE", mode.name},
            {"ROOFTOP_CORES", std::to_string(mode.onlineCores)},
            {"ROOFTOP_CPU_KHZ", std::to_string(mode.cpuKhz)},
            {"ROOFTOP_GPU_HZ", std::to_string(mode.gpuHz)},
            {"ROOFTOP_EMC_HZ", std::to_string(mode.emcHz)},
            {"ROOFTOP_PROMPT", llm ? std::to_string(config.llm.prompt) : ""},
            {"ROOFTOP_GENERATE", llm ? std::to_string(config.llm.generate) : ""},
            {"ROOFTOP_CONTEXT", llm ? std::to_string(config.llm.prompt + config.llm.generate) : ""}};
}

} // namespace rooftop
