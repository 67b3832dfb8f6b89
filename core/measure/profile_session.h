// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/measure/profile_sweep.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rooftop {

/// What `rooftop profile` asks for.
struct ProfileRequest {
    std::string modelPath;         ///< the ONNX model to run
    std::string deviceId;          ///< catalog id (required)
    std::string runner;            ///< parseRunnerSpec; empty: trtexec when findTrtexec finds one
    bool noSwitch = false;         ///< run every mode without switching (the command switches, or pretends)
    std::string modes = "current"; ///< a mode set (modesFor), with sample:N
    uint64_t seed = 0;             ///< for sample:N
    std::vector<int64_t> batches;  ///< empty: batchesToRun (the batch --dim gave the model, else 1)
    std::vector<Precision> precisions = {Precision::FP32}; ///< the run precisions to sweep
    Phase phase = Phase::Inference;                        ///< an inference or a training step in every run
    Optimizer optimizer = Optimizer::Adam;                 ///< a training step's update (--optimizer)
    std::map<std::string, int64_t> dims; ///< the model's symbolic dims bound (--dim), batch apart
    LlmRun llm;     ///< --llm --prompt P --generate G: a decoder's generation per run (its TTFT and TPOT)
    int repeat = 1; ///< runs per configuration (at least 1)
    double runTimeoutSeconds = 600; ///< per command run
    double settleSeconds = 2.0;     ///< after each switch
    double idleSeconds = 1.0;       ///< idle baseline per mode, when Rooftop measures power
    std::string outPath;            ///< the runs file; empty: defaultRunsPath (the user's data folder)
};

/// Runs a profile: checks the request (InputError before anything changes: a bad option, a runs file that is
/// malformed, of another model or cannot record the dims), resolves the runner (UnavailableError without
/// one), opens the board (BoardSession: switching, journal and power by its one rule) and sweeps the modes
/// at the request's workload (model, dims, batches, precisions, phase) into the runs file.
ProfileOutcome runProfileSession(const ProfileRequest& request, const ProfileProgressCallback& progress,
                                 const std::atomic<bool>* cancel);

} // namespace rooftop
