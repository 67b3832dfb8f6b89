// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/tune/tune_search.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rooftop {

/// What `rooftop tune` asks for.
struct TuneRequest {
    std::string modelPath;        ///< the ONNX model to tune
    std::string deviceId;         ///< the board (catalog id or cuda:N); required
    std::string runner;           ///< parseRunnerSpec; empty: trtexec when findTrtexec finds one
    bool noSwitch = false;        ///< measure every mode without switching
    std::string modes;            ///< a mode set (modesFor); empty: grid, or stock on a board without a grid
    std::vector<int64_t> batches; ///< empty: batchesToRun (the batch --dim gave the model, else 1)
    std::vector<Precision> precisions = {Precision::FP32}; ///< precisions to search; not empty
    std::map<std::string, int64_t> dims; ///< the model's symbolic dims bound (--dim), batch apart
    std::string runtime = "tensorrt";    ///< the runtime of Rooftop's prediction (the prior)
    TuneOptions options;                 ///< method, budget, seed, objective, limits, runs file
    double runTimeoutSeconds = 600;      ///< the longest one run may take (--run-timeout)
};

/// A tune's result with what it needs to be shown.
struct TuneReport {
    DeviceSpec device;       ///< the board tuned
    std::string model;       ///< the model file's name, for text
    std::string modelPath;   ///< the model file as given: JSON's `model`
    TuneSpace space;         ///< the configurations searched, with Rooftop's prediction of each
    TuneOptions options;     ///< what the tune was asked
    TuneOutcome outcome;     ///< the samples and the answer
    std::string runner;      ///< the runner's name
    bool switching = false;  ///< the search switched modes (the original one restored at its end)
    std::string powerSource; ///< Rooftop's power source, empty when the runner's numbers are used
    std::string nvpmodel;    ///< the commands to apply the recommendation (nvpmodelInstructions)
};

/// Runs a tune: checks the request (InputError before anything changes: no model, no board, no SLO, budget
/// below 1, a bad mode set, batch, precision or runs file), opens the board (BoardSession, as every measuring
/// command), counts the model per batch and precision at the request's dims (once each), builds the space
/// with Rooftop's prediction, then searches.
/// UnavailableError without a runner or when switching is impossible here.
TuneReport runTuneSession(const TuneRequest& request, const TuneProgressCallback& progress,
                          const std::atomic<bool>* cancel);

} // namespace rooftop
