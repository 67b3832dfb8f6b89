// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/plan_space.h"

#include "core/common/errors.h"
#include "core/device/ceilings.h"
#include "core/roofline/prediction.h"

#include <algorithm>

namespace rooftop {

namespace {

template <typename T> int indexIn(const std::vector<T>& ladder, T value) {
    const auto found = std::find(ladder.begin(), ladder.end(), value);
    return found == ladder.end() ? -1 : static_cast<int>(found - ladder.begin());
}

} // namespace

ScheduleCosts scheduleCosts(const PlanSpace& space, const PlanModeCosts& costs, size_t batchIndex) {
    ScheduleCosts c;
    c.inferenceBatch = space.inferenceBatches.at(batchIndex);
    c.inferenceSeconds = costs.inferenceSeconds.at(batchIndex);
    c.inferenceWatts = costs.inferenceWatts.at(batchIndex);
    c.trainingSeconds = costs.trainingSeconds;
    c.trainingWatts = costs.trainingWatts;
    c.idleWatts = costs.idleWatts;
    return c;
}

PlanSpace buildPlanSpace(const DeviceSpec& device, const RuntimeProfile& runtime,
                         const std::vector<PowerMode>& modes, const std::vector<int64_t>& inferenceBatches,
                         int64_t trainingBatch, Precision precision, const PlanWorkloadLookup& inference,
                         const Workload& training, const Predictor* predictor,
                         const Predictor* trainingPredictor) {
    if (modes.empty()) throw InputError("plan: no power mode to plan over");
    if (inferenceBatches.empty()) throw InputError("plan: no inference batch size");
    PlanSpace space;
    space.inferenceBatches = inferenceBatches;
    space.trainingBatch = trainingBatch;
    space.precision = precision;
    std::vector<ModeProfile> profiles;
    profiles.reserve(modes.size());
    for (const PowerMode& mode : modes)
        profiles.push_back(deriveModeProfile(device, mode, runtime));
    space.modes.resize(modes.size());
    // A stream costed by a predictor that learned power is predicted; the prior's costs are estimates.
    const auto provenanceOf = [](const Predictor* p) {
        return std::string(p && p->provenance() == Provenance::Predicted ? "predicted" : "estimate");
    };
    const std::string inferenceProvenance = provenanceOf(predictor);
    const std::string trainingProvenance = provenanceOf(trainingPredictor);
    for (size_t m = 0; m < modes.size(); ++m) {
        space.modes[m].mode = modes[m];
        const SourcedValue& idle = profiles[m].power.constantPower;
        space.modes[m].idleWatts = idle.value;
        space.modes[m].idleProvenance = provenanceName(idle.provenance);
        space.modes[m].idleBasis = idle.basis;
        space.modes[m].provenance = inferenceProvenance;
        if (trainingProvenance != inferenceProvenance) space.modes[m].trainingProvenance = trainingProvenance;
    }
    for (int64_t batch : inferenceBatches) {
        const Workload& counted = inference(batch);
        const std::vector<ModeSummary> summaries =
            predictor ? predictModes(*predictor, device, counted, precision, profiles)
                      : sweepModes(counted, profiles);
        for (size_t m = 0; m < modes.size(); ++m) {
            space.modes[m].inferenceSeconds.push_back(summaries[m].latencySeconds);
            space.modes[m].inferenceWatts.push_back(summaries[m].averageWatts);
        }
    }
    const std::vector<ModeSummary> steps =
        trainingPredictor ? predictModes(*trainingPredictor, device, training, precision, profiles)
                          : sweepModes(training, profiles);
    for (size_t m = 0; m < modes.size(); ++m) {
        space.modes[m].trainingSeconds = steps[m].latencySeconds;
        space.modes[m].trainingWatts = steps[m].averageWatts;
    }
    const std::string roofline = "Rooftop's roofline (" + runtime.name + ")";
    space.basis = predictor || trainingPredictor
                      ? "inference: " + (predictor ? predictor->basis() : roofline) +
                            "; training: " + (trainingPredictor ? trainingPredictor->basis() : roofline)
                      : "Rooftop's roofline (" + runtime.name + " runtime), no run";

    const CustomGrid& grid = device.grid;
    space.gridSize = {static_cast<int>(grid.cores.size()), static_cast<int>(grid.cpuKhz.size()),
                      static_cast<int>(grid.gpuHz.size()), static_cast<int>(grid.emcHz.size())};
    for (const PowerMode& mode : modes) {
        std::array<int, 4> at{-1, -1, -1, -1};
        if (!mode.stock) {
            at = {indexIn(grid.cores, mode.onlineCores), indexIn(grid.cpuKhz, mode.cpuKhz),
                  indexIn(grid.gpuHz, mode.gpuHz), indexIn(grid.emcHz, mode.emcHz)};
            if (std::find(at.begin(), at.end(), -1) != at.end()) at = {-1, -1, -1, -1};
        }
        space.gridIndex.push_back(at);
    }
    return space;
}

} // namespace rooftop
