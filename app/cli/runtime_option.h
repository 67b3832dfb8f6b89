// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/session/analysis_request.h"

#include <string>

namespace rooftop::cli {

/// True when `option` is --runtime or --runtime-file (it then takes a value).
bool isRuntimeOption(const std::string& option);

/// Records --runtime NAME or --runtime-file FILE in the selection; false for any other option.
bool takeRuntimeOption(const std::string& option, const std::string& value, RuntimeSelection& selection);

/// Usage lines for --runtime and --runtime-file.
const char* runtimeOptionsHelp();

} // namespace rooftop::cli
