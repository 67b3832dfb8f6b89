// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/workload_counter.h"

#include "core/common/errors.h"

#include <QFileInfo>

namespace rooftop {

WorkloadCounter::WorkloadCounter(std::string modelPath, std::map<std::string, int64_t> dims,
                                 Optimizer optimizer)
    : modelPath_(QFileInfo(QString::fromStdString(modelPath)).absoluteFilePath().toStdString()),
      dims_(std::move(dims)), optimizer_(optimizer) {}

const Workload& WorkloadCounter::count(int64_t batch, const std::string& precision,
                                       const std::string& phase) {
    const std::lock_guard<std::mutex> lock(mutex_);
    auto key = std::make_tuple(batch, precision, phase);
    const auto found = counted_.find(key);
    if (found != counted_.end()) return *found->second;
    AnalysisSettings settings;
    if (!parsePrecision(precision, settings.precision) || settings.precision == Precision::AsModel)
        throw InputError("unknown precision '" + precision + "' (fp32, fp16 or int8)");
    if (!parsePhase(phase, settings.phase))
        throw InputError("unknown phase '" + phase + "' (inference or training)");
    settings.optimizer = optimizer_;
    settings.dims.batch = batch;
    settings.dims.named = dims_;
    auto workload = std::make_unique<Workload>(analyzeModelFile(modelPath_, settings));
    return *counted_.emplace(std::move(key), std::move(workload)).first->second;
}

size_t WorkloadCounter::counts() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return counted_.size();
}

} // namespace rooftop
