// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace rooftop::cli {

/// Exit codes shared by every subcommand.
/// 3: a measuring command made runs and every one of them failed (their reasons are in the runs file).
enum ExitCode { ExitOk = 0, ExitBadInput = 1, ExitUnavailable = 2, ExitRunsFailed = 3 };

/// `rooftop analyze MODEL [options]`: per-layer work and traffic as a table, CSV or JSON.
int runAnalyze(const std::vector<std::string>& args);

/// `rooftop devices`: the device catalog.
int runDevices(const std::vector<std::string>& args);

/// `rooftop modes --device ID [--grid]`: stock modes or the custom grid with derived ceilings.
int runModes(const std::vector<std::string>& args);

/// `rooftop roofline MODEL --device ID [...]`: per-layer and total time, energy and bound per mode.
int runRoofline(const std::vector<std::string>& args);

/// `rooftop recommend MODEL --device ID [...]`: the power mode to use, with the Pareto front and reasons.
int runRecommend(const std::vector<std::string>& args);

/// `rooftop calibrate MODEL --device ID --runs RUNS.csv [...]`: a runtime fitted to measured latencies.
int runCalibrate(const std::vector<std::string>& args);

/// `rooftop bench [--modes ...] [--out FILE] [--quick]`: measures the GPU per power mode into a profile.
int runBench(const std::vector<std::string>& args);

/// `rooftop profile MODEL --device ID --runner R [...]`: runs the model per power mode into a runs file.
int runProfile(const std::vector<std::string>& args);

/// `rooftop report MODEL --device ID -o FILE.html|FILE.pdf [...]`: the full report, headless (needs a
/// QApplication).
int runReport(const std::vector<std::string>& args);

/// `rooftop learn MODEL --device ID --runs RUNS.csv [...]`: a time and power predictor learned from runs.
int runLearn(const std::vector<std::string>& args);

/// `rooftop tune MODEL --device ID --latency-slo MS [...]`: the best measured configuration in a few runs.
int runTune(const std::vector<std::string>& args);
/// `rooftop compare MODEL --device ID --trtexec-profile F | --ort-profile F | --ncu F`: measured layers
/// against the roofline's predictions.
int runCompare(const std::vector<std::string>& args);

/// `rooftop plan --inference A --training B --device ID --arrival P --latency-slo MS [...]`: the mode and
/// inference batch that let training run beside inference with the most throughput within the budgets.
int runPlan(const std::vector<std::string>& args);

/// `rooftop llm MODEL --device ID --prompt P --generate G [...]`: prefill and decode of a decoder with a KV
/// cache, its memory, and TTFT, TPOT, tokens/s and tokens/J per power mode.
int runLlm(const std::vector<std::string>& args);

/// `rooftop recommend MODEL --llm [...]`: the batch and power mode for a decoder under TPOT, TTFT and power
/// limits.
int runRecommendLlm(const std::vector<std::string>& args);

/// Writes text to the file named by `path` (replaced at once; a device or FIFO written to), or to stdout when
/// path is empty or "-"; throws InputError for a folder or a file the command's arguments also name.
void writeOutput(const std::string& path, const std::string& text);

/// The arguments of the command running, for writeOutput's check that -o names no input.
void rememberCommandArguments(const std::vector<std::string>& args);

} // namespace rooftop::cli
