// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/argument_list.h"
#include "core/session/analysis_request.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rooftop::cli {

/// A remaining time as "12m05s" ("?" when unknown), for progress lines.
std::string durationText(double seconds);

/// Takes the one positional argument a command has (its model); throws InputError naming `command` on a
/// second.
void takeModelArgument(ArgumentList& args, const std::string& command, std::string& model);

/// Takes the value of --dim NAME=VALUE into `dims` (parseDimOption's rules) and returns them.
std::map<std::string, int64_t> takeDim(ArgumentList& args, const std::string& option,
                                       std::map<std::string, int64_t> dims);

/// Consumes --device, --profile, --runtime or --runtime-file into the request; false for any other option.
bool takeBoardOption(const std::string& option, ArgumentList& args, AnalysisRequest& request);

/// Consumes --latency-slo MS, --power-cap W and --objective O into limits and objective; false otherwise.
bool takeLimitOption(const std::string& option, ArgumentList& args, Constraints& limits,
                     Objective& objective);

/// Consumes --confidence P (0.5 to 0.999) into `confidence`; false for any other option.
bool takeConfidenceOption(const std::string& option, ArgumentList& args, double& confidence);

/// Consumes the advisor's --latency-slo MS, --power-cap W, --max-slowdown PCT, --confidence P and --objective
/// O; false otherwise.
bool takeAdvisorOption(const std::string& option, ArgumentList& args, AnalysisRequest& request);

/// What a command writes: one of its formats, to a file or standard output (empty path).
struct OutputChoice {
    std::string format = "table";
    std::string path;
};

/// Consumes --format F (one of `formats`) or -o / --output FILE; false for any other option.
bool takeOutputOption(const std::string& option, ArgumentList& args, const std::vector<std::string>& formats,
                      OutputChoice& output);

} // namespace rooftop::cli
