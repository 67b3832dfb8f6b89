// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/argument_list.h"
#include "core/cost/analysis_settings.h"

#include <string>

namespace rooftop::cli {

/// Consumes one of the analysis options shared by analyze, roofline, recommend and report
/// (--batch, --dim, --precision, --convention, --traffic); false when `option` is not one of them.
bool takeAnalysisOption(const std::string& option, ArgumentList& args, AnalysisSettings& settings);

/// Usage lines for the shared analysis options.
const char* analysisOptionsHelp();

/// Consumes --phase, --optimizer or --samples (analyze, roofline); false for any other option.
bool takePhaseOption(const std::string& option, ArgumentList& args, AnalysisSettings& settings);

/// Usage lines for --phase, --optimizer and --samples.
const char* phaseOptionsHelp();

/// Throws InputError when --samples came without --phase training and --batch, or --optimizer without
/// --phase training.
void checkPhaseOptions(const AnalysisSettings& settings, const ArgumentList& args);

} // namespace rooftop::cli
