// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/device/device_spec.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/learn/predictor.h"
#include "core/plan/concurrent_schedule.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rooftop {

/// Both workloads' times and powers in one power mode.
struct PlanModeCosts {
    PowerMode mode;
    std::vector<double> inferenceSeconds; ///< one batch, per PlanSpace::inferenceBatches entry
    std::vector<double> inferenceWatts;   ///< per PlanSpace::inferenceBatches entry
    double trainingSeconds = 0;           ///< one minibatch of PlanSpace::trainingBatch
    double trainingWatts = 0;
    double idleWatts = 0;                    ///< Rooftop's constant power of the mode
    std::string idleProvenance = "estimate"; ///< the constant power's provenance (provenanceName)
    std::string idleBasis;                   ///< and its basis
    std::string provenance = "predicted";    ///< "predicted", "estimate", "measured" or "simulated"
    /// The training step's provenance when it differs from the inference's (each stream has its own predictor
    /// or rests on the prior); empty: provenance.
    std::string trainingProvenance;
};

/// The modes a plan chooses among, with Rooftop's prediction of each (the search's prior).
struct PlanSpace {
    std::vector<int64_t> inferenceBatches;
    int64_t trainingBatch = 1;
    Precision precision = Precision::FP32;
    std::vector<PlanModeCosts> modes;
    std::vector<std::array<int, 4>>
        gridIndex;                 ///< per mode: its cores, CPU, GPU and EMC ladder index; -1: stock
    std::array<int, 4> gridSize{}; ///< ladder lengths of the grid (0 without one)
    std::string basis;             ///< where the prior's numbers come from
};

/// The schedule costs of one mode at the inference batch of index `batchIndex`.
ScheduleCosts scheduleCosts(const PlanSpace& space, const PlanModeCosts& costs, size_t batchIndex);

/// A counted workload by batch size.
using PlanWorkloadLookup = std::function<const Workload&(int64_t batch)>;

/// Predicts every mode: the inference model at each batch size (through `predictor` when given, else the
/// roofline under `runtime`) and the training step (through `trainingPredictor` when given, else the
/// roofline), each mode's idle power from its power model. Throws InputError for no mode or batch.
PlanSpace buildPlanSpace(const DeviceSpec& device, const RuntimeProfile& runtime,
                         const std::vector<PowerMode>& modes, const std::vector<int64_t>& inferenceBatches,
                         int64_t trainingBatch, Precision precision, const PlanWorkloadLookup& inference,
                         const Workload& training, const Predictor* predictor,
                         const Predictor* trainingPredictor = nullptr);

} // namespace rooftop
