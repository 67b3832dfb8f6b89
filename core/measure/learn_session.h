// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"
#include "core/learn/predictor.h"
#include "core/measure/run_config.h"
#include "core/session/analysis_request.h"

#include <functional>
#include <string>
#include <vector>

namespace rooftop {

/// What `rooftop learn` asks for: a model and its runs file, optionally a reference model and its runs.
struct LearnRequest {
    std::string modelPath;                             ///< the ONNX model the runs are of
    std::string runsPath;                              ///< a `rooftop profile` runs file of the model
    std::string referenceModelPath, referenceRunsPath; ///< both or neither
    std::string deviceId;                              ///< catalog id of the board the runs were made on
    std::string
        referenceDeviceId;     ///< the board the reference ran on; empty: deviceId (a transfer across boards)
    RuntimeSelection runtime;  ///< the runtime whose roofline features the predictor learns from
    AnalysisSettings settings; ///< batch and precision of each run come from the runs file
    LlmRun
        llm; ///< learn --llm: a decoder's LLM runs of this generation, their TPOT per mode (mean decode step)
    /// told each stage as it starts; may be empty; what it throws ends the learning (a page's Cancel)
    std::function<void(const std::string& stage)> progress;
};

/// A learned predictor and what was left out on the way.
struct LearnOutcome {
    Predictor predictor;            ///< learned from the runs, stamped with board, model name and model hash
    std::vector<std::string> notes; ///< runs skipped and why ("RUNS: 12 training-phase runs skipped ...")
};

/// Reads the runs (ok inference rows), counts the model once per batch and precision they use, and learns a
/// predictor (pre-trained on the reference when given), stamped with board, model name and model hash.
/// Throws InputError naming the runs file (and line) for bad or too few runs.
LearnOutcome runLearning(const LearnRequest& request);

} // namespace rooftop
