// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/argument_list.h"
#include "core/llm/llm_session.h"

#include <cstdint>
#include <string>

namespace rooftop::cli {

/// The most tokens a prompt, a generation or a context may have on the command line.
constexpr int64_t mostLlmTokens = int64_t{1} << 24;

/// Consumes an option rooftop llm and recommend --llm share (--prompt, --generate, --device, --modes,
/// --reserve-gib, --confidence, --dim, --precision, --traffic, the runtime options); false for any other.
/// `command` names the command in errors.
bool takeLlmOption(const std::string& option, ArgumentList& args, LlmRequest& request,
                   const std::string& command);

} // namespace rooftop::cli
