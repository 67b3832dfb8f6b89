// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/model_runner.h"

#include "core/common/errors.h"
#include "core/llm/llm_pass.h"
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

namespace {

/// A decoder's passes counted as the runtimes run them (the KV cache appended in place), one counter per
/// precision; throws InputError for a model that is no decoder.
SimulatedBoardRunner::LlmPassCounts decoderPassCounts(const std::string& modelPath,
                                                      const std::map<std::string, int64_t>& dims,
                                                      const std::vector<Precision>& precisions) {
    auto counters = std::make_shared<std::map<Precision, std::shared_ptr<const LlmCounter>>>();
    for (Precision precision : precisions)
        counters->emplace(precision,
                          std::make_shared<const LlmCounter>(modelPath, runtimeLlmSettings(precision, dims)));
    return [counters](const SimulatedBoardRunner::LlmPassShape& shape, Precision precision) {
        const auto found = counters->find(precision);
        if (found == counters->end()) throw InputError("no decoder counts for " + precisionName(precision));
        return found->second->count(LlmPass{shape.batch, shape.sequence, shape.past}).workload.totals;
    };
}

} // namespace

std::unique_ptr<Runner> makeModelRunner(const RunnerSpec& spec, const DeviceSpec& device,
                                        WorkloadCounter& counter, const std::vector<Precision>& precisions,
                                        double runTimeoutSeconds, bool llm) {
    const std::string& modelPath = counter.modelPath();
    if (spec.kind == RunnerSpec::Kind::Simulator) {
        std::map<Precision, Workload> atBatchOne;
        SimulatedBoardRunner::LlmPassCounts passes;
        if (llm)
            passes = decoderPassCounts(modelPath, counter.dims(), precisions);
        else
            for (Precision precision : precisions)
                atBatchOne.emplace(precision, counter.count(1, precision));
        return std::make_unique<SimulatedBoardRunner>(device, std::move(atBatchOne), spec.seed,
                                                      counter.dims(), std::move(passes));
    }
    if (spec.kind == RunnerSpec::Kind::Trtexec)
        return std::make_unique<TrtexecRunner>(spec.command, modelPath, runTimeoutSeconds);
    return std::make_unique<CommandRunner>(spec.command, modelPath, runTimeoutSeconds);
}

} // namespace rooftop
