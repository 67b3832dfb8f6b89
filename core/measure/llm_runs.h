// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/llm/llm_calibration.h"
#include "core/measure/runs_file.h"

#include <string>
#include <vector>

namespace rooftop {

/// True for a row of an LLM generation (rooftop profile --llm).
bool isLlmRun(const RunRow& row);

/// The ok LLM runs of a runs file at `*precision` as calibration tests: each a prefill of its prompt (TTFT)
/// and its decode steps after it (generate x TPOT), at its batch, in its mode. As-model takes the one
/// precision the runs have and sets it. Throws InputError for a malformed file, runs of another model, runs
/// of several precisions when none is given, or no ok LLM run.
std::vector<LlmBenchTest> llmTestsOfRuns(const std::string& runsPath, const std::string& modelPath,
                                         Precision* precision);

/// The ok LLM runs at `precision` that measured power, as whole generations with their average power.
std::vector<LlmGenerationPower> llmPowersOfRuns(const std::string& runsPath, Precision precision);

/// `rooftop calibrate MODEL --llm --runs RUNS.csv`: the request's decoder fitted per phase to the LLM runs of
/// `runsPath` (beside any benchmark files the request has), its power model to their measured power; throws
/// InputError.
LlmCalibrationResult runLlmRunsCalibration(LlmCalibrationRequest request, const std::string& runsPath);

} // namespace rooftop
