// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/runner_spec.h"

#include "core/common/errors.h"
#include "core/common/runner_name.h"

namespace rooftop {

std::string runProvenance(const std::string& runnerName) {
    return isSimulatedRunner(runnerName) ? "simulated" : "measured";
}

const char* runnerSyntax() {
    return "trtexec | trtexec:PATH | command:CMD | sim | simulator:SEED";
}

RunnerSpec parseRunnerSpec(const std::string& text) {
    RunnerSpec spec;
    if (text.empty()) return spec;
    if (text == "sim" || text == "simulator") {
        spec.kind = RunnerSpec::Kind::Simulator;
    } else if (text.rfind("simulator:", 0) == 0 || text.rfind("sim:", 0) == 0) {
        const std::string seed = text.substr(text.find(':') + 1);
        if (seed.empty() || seed.size() > 19 || seed.find_first_not_of("0123456789") != std::string::npos)
            throw InputError("--runner " + text + ": the seed must be a non-negative integer");
        spec.kind = RunnerSpec::Kind::Simulator;
        spec.seed = std::stoull(seed);
    } else if (text.rfind("command:", 0) == 0) {
        spec.kind = RunnerSpec::Kind::Command;
        spec.command = text.substr(8);
        if (spec.command.find_first_not_of(" \t") == std::string::npos)
            throw InputError("--runner command: needs a command after the colon");
    } else if (text == "trtexec") {
        spec.kind = RunnerSpec::Kind::Trtexec;
    } else if (text.rfind("trtexec:", 0) == 0) {
        spec.kind = RunnerSpec::Kind::Trtexec;
        spec.command = text.substr(8);
        if (spec.command.empty()) throw InputError("--runner trtexec: needs a path after the colon");
    } else {
        throw InputError("unknown runner '" + text + "'; use " + runnerSyntax());
    }
    return spec;
}

} // namespace rooftop
