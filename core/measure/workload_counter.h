// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"
#include "core/cost/workload.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

namespace rooftop {

/// One model counted for what a measuring session runs or predicts, at the session's dims: each batch,
/// precision and phase counted once however many steps (the prior, the simulated board, the plan) ask.
class WorkloadCounter {
public:
    /// `dims`: the model's symbolic dims the user bound (batch apart); `optimizer`: a training step's.
    WorkloadCounter(std::string modelPath, std::map<std::string, int64_t> dims,
                    Optimizer optimizer = Optimizer::Adam);
    /// The model counted at this batch, precision ("fp32", "fp16", "int8") and phase ("inference",
    /// "training"); throws InputError as analyzeModelFile does, or for an unknown precision or phase.
    const Workload& count(int64_t batch, const std::string& precision,
                          const std::string& phase = "inference");
    /// The model file (absolute).
    const std::string& modelPath() const { return modelPath_; }
    /// The bound dims every count uses.
    const std::map<std::string, int64_t>& dims() const { return dims_; }
    /// How many times a model was counted rather than reused.
    size_t counts() const;

private:
    std::string modelPath_;
    std::map<std::string, int64_t> dims_;
    Optimizer optimizer_;
    mutable std::mutex mutex_;
    std::map<std::tuple<int64_t, std::string, std::string>, std::unique_ptr<Workload>> counted_;
};

} // namespace rooftop
