// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/power_mode.h"
#include "core/llm/llama_bench.h"
#include "core/roofline/calibration.h"
#include "core/session/analysis_request.h"

#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// Whose benchmark output a file is.
enum class LlmBenchFormat { LlamaBench, Mlc };

/// A benchmark file (llama.cpp's llama-bench or MLC's) and the power mode it was measured in.
struct LlamaBenchInput {
    std::string path;
    std::string mode;
    LlmBenchFormat format = LlmBenchFormat::LlamaBench;
};

/// One test read from elsewhere (an LLM run of a runs file), with the mode it ran in.
struct LlmBenchTest {
    LlamaBenchRecord record;
    std::string mode;
    std::string file; ///< where it was read, for the table
};

/// A whole generation whose average power was measured (an LLM run of a runs file).
struct LlmGenerationPower {
    std::string mode;
    int64_t batch = 1, prompt = 1, generate = 1;
    double seconds = 0; ///< the generation: TTFT + generate x TPOT
    double watts = 0;   ///< its average power
};

/// `rooftop calibrate MODEL --llama-bench FILE --mode MODE ...`: a decoder's runtime fitted per phase.
struct LlmCalibrationRequest {
    std::string modelPath;
    AnalysisSettings settings; ///< traffic fused unless the user says otherwise
    std::string deviceId;
    RuntimeSelection runtime; ///< the runtime to start from
    std::vector<LlamaBenchInput> files;
    std::vector<LlmBenchTest> tests;             ///< tests beside the files' (each names its mode)
    std::vector<LlmGenerationPower> generations; ///< measured powers: the power model's multipliers
    std::string name;                            ///< base name of the fitted runtimes; empty: <runtime>-llm
    bool simulated = false; ///< the tests and generations are the simulated board's, not measurements
};

/// One llama-bench test, measured and predicted per pass (prefill: the prompt; decode: the mean step).
struct LlmCalibratedRecord {
    LlamaBenchRecord record;
    std::string file;
    PowerMode mode;
    double measuredSeconds = 0;
    double startSeconds = 0;      ///< with the starting runtime
    double calibratedSeconds = 0; ///< with the phase's fitted runtime (the start when the phase had no test)
};

/// Prefill and decode fitted apart: a runtime each (named <name>-prefill and <name>-decode).
struct LlmCalibrationResult {
    LlmCalibrationRequest request;
    DeviceSpec device;
    RuntimeProfile start;
    std::optional<RuntimeCalibration> prefill; ///< none: no prefill test
    std::optional<RuntimeCalibration> decode;  ///< none: no decode test
    std::vector<LlmCalibratedRecord> records;
    int mixedSkipped = 0;
    PowerCalibration power; ///< from the request's generations (both phases share it)
    std::vector<std::string>
        warnings; ///< what a phase's fit implies that no board can do (efficiencyWarnings)
    /// The runtimes to write: both phases (a phase without tests keeps the starting runtime, renamed).
    std::vector<RuntimeProfile> runtimes() const;
};

/// Reads every file, resolves its mode, counts each test's pass, and fits the starting runtime to the prefill
/// tests and to the decode tests separately (calibrateRuntime); throws InputError.
LlmCalibrationResult runLlmCalibration(const LlmCalibrationRequest& request);

/// The fit per phase, each test's measured, starting and fitted time, what stayed an estimate.
std::string llmCalibrationTable(const LlmCalibrationResult& result, const std::string& outputPath);

} // namespace rooftop
