// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace rooftop {

/// A --runner value, parsed.
struct RunnerSpec {
    enum class Kind { None, Simulator, Command };
    Kind kind = Kind::None;
    uint64_t seed = 0;   ///< simulator:SEED
    std::string command; ///< command:CMD
};

/// The runner words, for help texts.
const char* runnerSyntax();

/// Parses "" (none), "sim", "simulator", "simulator:SEED" or "command:CMD"; throws InputError for anything
/// else (an unknown runner, a bad seed, an empty command) and UnavailableError for "trtexec", which is not
/// built in yet.
RunnerSpec parseRunnerSpec(const std::string& text);

} // namespace rooftop
