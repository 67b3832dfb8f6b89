// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/model_runner.h"

#include "core/common/errors.h"
#include "core/measure/command_runner.h"
#include "core/measure/simulated_board.h"
#include "core/measure/trtexec_runner.h"

#include <map>

namespace rooftop {

RunnerSpec withDefaultRunner(RunnerSpec spec, const std::string& command) {
    if (spec.kind == RunnerSpec::Kind::None ||
        (spec.kind == RunnerSpec::Kind::Trtexec && spec.command.empty())) {
        const std::string trtexec = findTrtexec();
        if (trtexec.empty())
            throw UnavailableError(command +
                                   ": no runner here (no trtexec found); give --runner command:CMD, "
                                   "trtexec:PATH or sim; nothing was run or changed");
        spec.kind = RunnerSpec::Kind::Trtexec;
        spec.command = trtexec;
    }
    return spec;
}

std::unique_ptr<Runner> makeModelRunner(const RunnerSpec& spec, const DeviceSpec& device,
                                        WorkloadCounter& counter, const std::vector<Precision>& precisions,
                                        double runTimeoutSeconds) {
    const std::string& modelPath = counter.modelPath();
    if (spec.kind == RunnerSpec::Kind::Simulator) {
        std::map<Precision, Workload> atBatchOne;
        for (Precision precision : precisions)
            atBatchOne.emplace(precision, counter.count(1, precision));
        return std::make_unique<SimulatedBoardRunner>(device, std::move(atBatchOne), spec.seed,
                                                      counter.dims());
    }
    if (spec.kind == RunnerSpec::Kind::Trtexec)
        return std::make_unique<TrtexecRunner>(spec.command, modelPath, runTimeoutSeconds);
    return std::make_unique<CommandRunner>(spec.command, modelPath, runTimeoutSeconds);
}

} // namespace rooftop
