// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"
#include "core/cost/workload.h"
#include "core/session/workload_cache.h"

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace rooftop {

/// One model at the session's dims, counted through a WorkloadCache for what a measuring session runs or
/// predicts: each batch, precision and phase counted once however many steps (the prior, the simulated board,
/// the plan) ask, and kept for the session (references stay valid).
class WorkloadCounter {
public:
    /// `dims`: the model's symbolic dims the user bound (batch apart); `optimizer`: a training step's.
    WorkloadCounter(const std::string& modelPath, std::map<std::string, int64_t> dims,
                    Optimizer optimizer = Optimizer::Adam);
    /// The model counted at this batch, precision (not as-model) and phase; throws InputError as
    /// analyzeModelFile does, or for as-model.
    const Workload& count(int64_t batch, Precision precision, Phase phase = Phase::Inference);
    /// The model file (absolute).
    const std::string& modelPath() const { return modelPath_; }
    /// The bound dims every count uses.
    const std::map<std::string, int64_t>& dims() const { return dims_; }
    /// The options that bound the dims and the batch, for messages ("--training-dim", "--training-batch").
    void nameOptions(std::string dimOption, std::string batchOption) {
        dimOption_ = std::move(dimOption);
        batchOption_ = std::move(batchOption);
    }

private:
    std::string modelPath_;
    std::map<std::string, int64_t> dims_;
    Optimizer optimizer_;
    std::string dimOption_ = "--dim", batchOption_ = "--batch";
    WorkloadCache cache_{std::numeric_limits<size_t>::max()}; ///< nothing evicted: the session holds them all
    std::mutex mutex_;
    std::map<const Workload*, std::shared_ptr<const Workload>>
        held_; ///< what count() handed out references to
};

/// A measuring command's batch sizes and the dims it runs them at.
struct RunBatches {
    std::vector<int64_t> batches;        ///< batch sizes to run
    std::map<std::string, int64_t> dims; ///< the dims given, less a batch symbol that became the batch
};

/// The batch sizes a measuring command runs: `given`, or when none were given the value `dims` gave the
/// model's batch symbol (`--dim batch=4` runs batch 4, as analyze and recommend answer at it: the symbol
/// leaves the dims, so the runs are the same as --batch 4's), else 1.
RunBatches batchesToRun(const std::string& modelPath, const std::map<std::string, int64_t>& dims,
                        const std::vector<int64_t>& given);

} // namespace rooftop
