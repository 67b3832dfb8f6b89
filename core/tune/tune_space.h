// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/device/power_mode.h"
#include "core/learn/config_features.h"
#include "core/learn/learn_points.h"
#include "core/measure/run_config.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rooftop {

/// One configuration a tune may measure: a power mode, a batch size and a precision (inference).
struct TuneConfig {
    PowerMode mode;                        ///< the mode it runs in
    int64_t batch = 1;                     ///< samples per batch
    Precision precision = Precision::FP32; ///< the precision it runs at
};

/// The configurations of a tune with Rooftop's roofline prediction of each (the surrogate's prior).
struct TuneSpace {
    std::vector<TuneConfig> configs;      ///< modes x batches x precisions, then the baseline if outside
    std::vector<ConfigFeatures> features; ///< the roofline prediction and its parts, per config
    size_t candidates = 0;                ///< configs[0, candidates) are searched; the rest only measured
    size_t baseline = 0;                  ///< index of the fastest stock mode at the first batch/precision
    /// Rooftop's predicted latency of config i (one batch), seconds.
    double predictedLatencySeconds(size_t i) const { return features[i].time[0]; }
    /// Rooftop's predicted average power of config i, watts.
    double predictedWatts(size_t i) const { return features[i].power[0]; }
};

/// The runs-file key of a configuration at the workload's dims, phase and optimizer (runKey).
std::string tuneKey(const TuneConfig& config, const std::map<std::string, int64_t>& dims,
                    Phase phase = Phase::Inference, Optimizer optimizer = Optimizer::Adam,
                    const LlmRun& llm = {});

/// Builds the space: every mode x batch x precision (mode-major), then the baseline (the board's fastest
/// stock mode at the first batch and precision) when it is not among them, each with the features of
/// Rooftop's prediction under `runtime`. Throws InputError for an empty mode, batch or precision list.
TuneSpace buildTuneSpace(const DeviceSpec& device, const RuntimeProfile& runtime,
                         const std::vector<PowerMode>& modes, const std::vector<int64_t>& batches,
                         const std::vector<Precision>& precisions, const WorkloadLookup& workload);

} // namespace rooftop
