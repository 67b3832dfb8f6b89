// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/device/device_spec.h"
#include "core/roofline/prediction.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// Columns of the time model: Rooftop's roofline latency, its compute and memory parts, the max of the two,
/// and three host terms (per dispatching layer, per inference, per sample) scaled by f_cpu,max / f_cpu.
constexpr int timeFeatureCount = 7;
/// Columns of the power model: Rooftop's average watts, a constant, CPU cores x V^2 f, GPU and EMC V^2 f
/// alone and weighted by how busy the roofline says each is.
constexpr int powerFeatureCount = 7;
/// Inputs of the residual model: cores and CPU clock shares, GPU and EMC clock positions (ClockScale), log2
/// batch / 6, precision code.
constexpr int positionCount = 6;

/// Where the GPU and EMC clocks sit in a configuration's position. Log (the learner's): 1 + log2(clock / max)
/// / 4, at least 0, so that the lowest steps (a sixteenth of the highest) stand as far apart as their
/// kernels' times do; Linear (tune's surrogates, which learn from few runs near their picks): clock / max.
enum class ClockScale { Linear, Log };
/// The scale of the learner's positions: its fit, its predictions, its run coverage and its file.
constexpr ClockScale learnerClockScale = ClockScale::Log;

/// The names of the time model's feature columns, as the predictor file lists them.
const std::array<const char*, timeFeatureCount>& timeFeatureNames();
/// The names of the power model's feature columns, as the predictor file lists them.
const std::array<const char*, powerFeatureCount>& powerFeatureNames();
/// The names of the position columns (on the learner's clock scale), as the predictor file lists them.
const std::array<const char*, positionCount>& positionNames();

/// What a configuration looks like to the learner: the roofline prediction and its parts.
struct ConfigFeatures {
    std::array<double, timeFeatureCount> time{}; ///< the time model's columns (timeFeatureNames)
    std::array<double, powerFeatureCount>
        power{}; ///< read at the roofline's latency; powerFeaturesAt reads them at another
    std::array<double, positionCount> position{}; ///< the residual model's inputs (positionNames)
    double staticWatts = 0.0;                     ///< the roofline's constant power
    double dynamicJoules = 0.0;                   ///< the roofline's energy above it
};

/// A model counted at one batch size and precision, reduced to what the features need.
struct WorkloadAggregate {
    int64_t batch = 1;                             ///< samples per batch
    Precision precision = Precision::FP32;         ///< the precision it is counted at
    std::array<double, computeClassCount> flops{}; ///< FLOPs per compute class
    double bytes = 0.0;                            ///< DRAM bytes over all layers
    double dispatchCount = 0.0;                    ///< layers that launch a kernel
};

/// The aggregate of a counted workload (its batch from the settings).
WorkloadAggregate aggregateWorkload(const Workload& workload, Precision precision);

/// 0 for fp32, 1 for fp16, 2 for int8; throws InputError for as-model.
int precisionCode(Precision precision);

/// The roofline summaries the features rest on: sweepModes over the profiles' bare roofs (no kernel sizes or
/// floors, every operator class at 1). The learner fits what the runs show from physical terms; the prior's
/// guesses of where a runtime loses time (its class estimates, kernel sizes) would shift the features by
/// guesses the runs then have to unlearn.
std::vector<ModeSummary> featureSummaries(const Workload& workload, std::vector<ModeProfile> profiles);

/// Features of one workload in each mode (`summaries` from featureSummaries over the same profiles), its
/// GPU and EMC clocks placed on `scale`.
std::vector<ConfigFeatures> configFeatures(const DeviceSpec& device, const WorkloadAggregate& workload,
                                           const std::vector<ModeProfile>& profiles,
                                           const std::vector<ModeSummary>& summaries, ClockScale scale);

/// The power features read at `latencySeconds` (a run's measured latency, or the learned one) instead of the
/// roofline's: Rooftop's average power (static plus dynamic energy over it) and the busy shares of the GPU
/// and the memory (compute / latency, memory / latency).
std::array<double, powerFeatureCount> powerFeaturesAt(const ConfigFeatures& f, double latencySeconds);

/// The power features a measured power is read against: powerFeaturesAt(f, latencySeconds), except for a
/// decoder's generations (`generation`), whose power averages the prefill with the decode steps the latency
/// is of: the roofline's (f.power).
std::array<double, powerFeatureCount> powerFeaturesFor(const ConfigFeatures& f, double latencySeconds,
                                                       bool generation);

} // namespace rooftop
