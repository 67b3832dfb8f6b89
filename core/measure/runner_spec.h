// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace rooftop {

/// A --runner value, parsed.
struct RunnerSpec {
    /// Which runner the spec names.
    enum class Kind {
        None,      ///< no runner given
        Simulator, ///< sim, simulator, simulator:SEED: the simulated board
        Command,   ///< command:CMD: a shell command per run (CommandRunner)
        Trtexec    ///< trtexec, trtexec:PATH: TensorRT's trtexec (TrtexecRunner)
    };
    Kind kind = Kind::None; ///< which runner
    uint64_t seed = 0;      ///< simulator:SEED
    std::string command;    ///< command:CMD; trtexec:PATH (empty: findTrtexec)
};

/// The provenance of a run's numbers by the runner's name: "simulated" for the simulated board ("sim:..."),
/// "measured" otherwise.
std::string runProvenance(const std::string& runnerName);

/// The runner words, for help texts.
const char* runnerSyntax();

/// Parses "" (none given), "sim", "simulator", "simulator:SEED", "command:CMD", "trtexec" or "trtexec:PATH";
/// throws InputError for anything else (an unknown runner, a bad seed, an empty command or path).
RunnerSpec parseRunnerSpec(const std::string& text);

} // namespace rooftop
