// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/llm/llm_calibration.h"
#include "core/llm/llm_memory.h"
#include "core/llm/llm_pass.h"
#include "core/measure/runs_file.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rooftop {

/// True for a row of an LLM generation (rooftop profile --llm).
bool isLlmRun(const RunRow& row);

/// Before `command` (profile, tune) measures generations of `modelPath`: throws InputError when it is no
/// decoder, or when the prompt and the generation do not fit its position table.
void checkLlmWorkload(const std::string& modelPath, const std::map<std::string, int64_t>& dims,
                      Precision precision, const LlmRun& llm, const std::string& command);

/// The decode step a generation's mean TPOT is (its counts are affine in the context): `batch` sequences of
/// one new token after prompt + (generate - 1) / 2 cached, counted as the runtimes run it (fused traffic).
class LlmStepCounter {
public:
    /// Loads the decoder once per precision as asked; throws InputError for a model that is no decoder.
    LlmStepCounter(std::string modelPath, std::map<std::string, int64_t> dims, LlmRun llm);
    /// The mean decode step at `batch` and `precision` (kept: references stay valid).
    const Workload& meanStep(int64_t batch, Precision precision);
    /// The memory a generation of `batch` sequences holds at its largest context on `device` (weights, KV
    /// cache and the prefill's largest activations, against the board less the default reserve).
    LlmMemory memoryHeld(int64_t batch, Precision precision, const DeviceSpec& device);

private:
    LlmCounter& counter(Precision precision);
    std::string modelPath_;
    std::map<std::string, int64_t> dims_;
    LlmRun llm_;
    std::map<Precision, std::unique_ptr<LlmCounter>> counters_;
    std::map<std::pair<int64_t, Precision>, Workload> steps_;
};

/// The ok LLM runs (`rows` of the runs file `runsPath`) at `*precision` as calibration tests: each a prefill
/// of its prompt (TTFT) and its decode steps after it (generate x TPOT), at its batch, in its mode. As-model
/// takes the one precision the runs have and sets it. Throws InputError for a malformed file, runs of another
/// model, runs of several precisions when none is given, or no ok LLM run.
std::vector<LlmBenchTest> llmTestsOfRuns(const std::vector<RunRow>& rows, const std::string& runsPath,
                                         const std::string& modelPath, Precision* precision);

/// The ok LLM runs at `precision` that measured power, as whole generations with their average power.
std::vector<LlmGenerationPower> llmPowersOfRuns(const std::vector<RunRow>& rows, Precision precision);

/// `rooftop calibrate MODEL --llm --runs RUNS.csv`: the request's decoder fitted per phase to the LLM runs of
/// `runsPath` (beside any benchmark files the request has), its power model to their measured power; throws
/// InputError.
LlmCalibrationResult runLlmRunsCalibration(LlmCalibrationRequest request, const std::string& runsPath);

} // namespace rooftop
