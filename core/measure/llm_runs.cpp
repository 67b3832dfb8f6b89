// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/llm_runs.h"

#include "core/common/errors.h"
#include "core/common/runner_name.h"

#include <algorithm>
#include <set>

namespace rooftop {

bool isLlmRun(const RunRow& row) {
    return row.llm.active();
}

void checkLlmWorkload(const std::string& modelPath, const std::map<std::string, int64_t>& dims,
                      Precision precision, const LlmRun& llm, const std::string& command) {
    const LlmCounter counter(modelPath, runtimeLlmSettings(precision, dims));
    checkContextFits(counter.signature(), llm.prompt + llm.generate, command + " --llm",
                     "shorten --prompt or --generate");
}

LlmStepCounter::LlmStepCounter(std::string modelPath, std::map<std::string, int64_t> dims, LlmRun llm)
    : modelPath_(std::move(modelPath)), dims_(std::move(dims)), llm_(llm) {}

LlmCounter& LlmStepCounter::counter(Precision precision) {
    std::unique_ptr<LlmCounter>& counter = counters_[precision];
    if (!counter) counter = std::make_unique<LlmCounter>(modelPath_, runtimeLlmSettings(precision, dims_));
    return *counter;
}

const Workload& LlmStepCounter::meanStep(int64_t batch, Precision precision) {
    const auto key = std::make_pair(batch, precision);
    if (const auto found = steps_.find(key); found != steps_.end()) return found->second;
    const LlmPass step = meanDecodeStep(batch, llm_.prompt, llm_.generate);
    return steps_.emplace(key, counter(precision).count(step).workload).first->second;
}

LlmMemory LlmStepCounter::memoryHeld(int64_t batch, Precision precision, const DeviceSpec& device) {
    LlmCounter& c = counter(precision);
    const LlmPassCount prefill = c.count({batch, llm_.prompt, 0});
    return llmMemory(c.weightBytes(), c.kvBytesPerToken(), largestActivationBytes(prefill.workload.layers),
                     batch, llm_.prompt + llm_.generate, device, memoryReserveGiB(device));
}

std::vector<LlmBenchTest> llmTestsOfRuns(const std::vector<RunRow>& rows, const std::string& runsPath,
                                         const std::string& modelPath, Precision* precision) {
    checkRunsAreOf(rows, runsPath, runsModelKey(modelPath));
    std::set<Precision> ran;
    for (const RunRow& row : rows)
        if (row.ok() && isLlmRun(row)) ran.insert(row.precision);
    if (*precision == Precision::AsModel && ran.size() > 1) {
        std::string names;
        for (Precision p : ran)
            names += (names.empty() ? "" : ", ") + precisionName(p);
        throw InputError(runsPath + ": LLM runs at " + names + "; give --precision to fit one of them");
    }
    if (*precision == Precision::AsModel && ran.size() == 1) *precision = *ran.begin();
    std::vector<LlmBenchTest> tests;
    for (const RunRow& row : rows) {
        if (!row.ok() || !isLlmRun(row) || !row.ttftMs || !row.tpotMs || row.precision != *precision)
            continue;
        LlamaBenchRecord prefill;
        prefill.prompt = row.llm.prompt;
        prefill.batch = row.batch;
        prefill.averageSeconds = *row.ttftMs * 1e-3;
        prefill.index = row.line;
        tests.push_back({prefill, row.mode, runsPath});
        LlamaBenchRecord decode;
        decode.generate = row.llm.generate;
        decode.depth = row.llm.prompt;
        decode.batch = row.batch;
        decode.averageSeconds = *row.tpotMs * 1e-3 * double(row.llm.generate);
        decode.index = row.line;
        tests.push_back({decode, row.mode, runsPath});
    }
    if (tests.empty())
        throw InputError(runsPath + ": no ok LLM run" +
                         (ran.empty() ? std::string() : " at " + precisionName(*precision)) +
                         " (rooftop profile --llm --prompt P --generate G writes them)");
    return tests;
}

std::vector<LlmGenerationPower> llmPowersOfRuns(const std::vector<RunRow>& rows, Precision precision) {
    std::vector<LlmGenerationPower> powers;
    for (const RunRow& row : rows)
        if (row.ok() && isLlmRun(row) && row.precision == precision && row.powerW && row.latencyMs)
            powers.push_back(
                {row.mode, row.batch, row.llm.prompt, row.llm.generate, *row.latencyMs * 1e-3, *row.powerW});
    return powers;
}

LlmCalibrationResult runLlmRunsCalibration(LlmCalibrationRequest request, const std::string& runsPath) {
    const std::vector<RunRow> rows = readGivenRunsFile(runsPath);
    const std::vector<LlmBenchTest> tests =
        llmTestsOfRuns(rows, runsPath, request.modelPath, &request.settings.precision);
    request.tests.insert(request.tests.end(), tests.begin(), tests.end());
    const std::vector<LlmGenerationPower> powers = llmPowersOfRuns(rows, request.settings.precision);
    request.generations.insert(request.generations.end(), powers.begin(), powers.end());
    // a simulated generation is no measurement of this board: a fit to both would be labelled neither
    int simulated = 0, measured = 0;
    for (const RunRow& row : rows)
        if (row.ok() && isLlmRun(row)) ++(isSimulatedRunner(row.runner) ? simulated : measured);
    if (simulated > 0 && (measured > 0 || !request.files.empty()))
        throw InputError(
            runsPath + ": " + std::to_string(simulated) + " generation(s) of the simulated board beside " +
            (measured > 0 ? std::to_string(measured) + " measured" : std::string("the benchmark files")) +
            ": calibrate from one or the other (the runner column says which)");
    request.simulated = request.files.empty() && measured == 0;
    return runLlmCalibration(request);
}

} // namespace rooftop
