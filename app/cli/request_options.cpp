// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/request_options.h"

#include "cli/runtime_option.h"
#include "core/common/enum_names.h"
#include "core/common/errors.h"
#include "core/common/text_format.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace rooftop::cli {

namespace {

std::string alternatives(const std::vector<std::string>& words) {
    std::string text;
    for (size_t i = 0; i < words.size(); ++i)
        text += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return text;
}

} // namespace

std::string durationText(double seconds) {
    if (seconds < 0) return "?";
    char text[32];
    std::snprintf(text, sizeof text, "%dm%02ds", static_cast<int>(seconds) / 60,
                  static_cast<int>(seconds) % 60);
    return text;
}

std::map<std::string, int64_t> takeDim(ArgumentList& args, const std::string& option,
                                       std::map<std::string, int64_t> dims) {
    DimBindings bindings;
    bindings.named = std::move(dims);
    parseDimOption(args.takeValue(option), bindings, option);
    return bindings.named;
}

void takeModelArgument(ArgumentList& args, const std::string& command, std::string& model) {
    if (!model.empty())
        throw InputError(command + " takes one model, got a second: '" + args.takePositional() + "'");
    model = args.takePositional();
}

bool takeBoardOption(const std::string& option, ArgumentList& args, AnalysisRequest& request) {
    if (option == "--device") {
        request.deviceId = args.takeValue(option);
    } else if (option == "--profile") {
        request.profilePath = args.takeValue(option);
    } else if (option == "--predictor") {
        request.predictorPath = args.takeValue(option);
    } else if (isRuntimeOption(option)) {
        takeRuntimeOption(option, args.takeValue(option), request.runtime);
    } else {
        return false;
    }
    return true;
}

bool takeLimitOption(const std::string& option, ArgumentList& args, Constraints& limits,
                     Objective& objective) {
    if (option == "--latency-slo") {
        limits.latencySloSeconds =
            args.takeNumber(option, 0.0, false, "a positive number of milliseconds") / 1e3;
    } else if (option == "--power-cap") {
        limits.powerCapWatts = args.takeNumber(option, 0.0, false, "a positive number of watts");
    } else if (option == "--objective") {
        const std::string value = args.takeValue(option);
        objective = parsedOr(parseObjective(value),
                             "--objective must be energy, latency or efficiency, got '" + value + "'");
    } else {
        return false;
    }
    return true;
}

bool takeConfidenceOption(const std::string& option, ArgumentList& args, double& confidence) {
    if (option != "--confidence") return false;
    confidence = args.takeNumber(option, minConfidence, true, "a probability from 0.5 to 0.999");
    if (confidence > maxConfidence)
        throw InputError("--confidence must be a probability from 0.5 to 0.999, got " +
                         general(confidence, 6));
    return true;
}

bool takeAdvisorOption(const std::string& option, ArgumentList& args, AnalysisRequest& request) {
    if (takeLimitOption(option, args, request.constraints, request.objective) ||
        takeConfidenceOption(option, args, request.constraints.confidence))
        return true;
    if (option != "--max-slowdown") return false;
    request.constraints.maxSlowdownPercent = args.takeNumber(option, 0.0, true, "a percentage >= 0");
    return true;
}

bool takeOutputOption(const std::string& option, ArgumentList& args, const std::vector<std::string>& formats,
                      OutputChoice& output) {
    if (option == "--format") {
        output.format = args.takeValue(option);
        if (std::find(formats.begin(), formats.end(), output.format) == formats.end())
            throw InputError("--format must be " + alternatives(formats) + ", got '" + output.format + "'");
    } else if (option == "-o" || option == "--output") {
        output.path = args.takeValue(option);
    } else {
        return false;
    }
    return true;
}

} // namespace rooftop::cli
