// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/workload_counter.h"

#include "core/common/errors.h"

#include <QFileInfo>

namespace rooftop {

WorkloadCounter::WorkloadCounter(const std::string& modelPath, std::map<std::string, int64_t> dims,
                                 Optimizer optimizer)
    : modelPath_(QFileInfo(QString::fromStdString(modelPath)).absoluteFilePath().toStdString()),
      dims_(std::move(dims)), optimizer_(optimizer) {}

const Workload& WorkloadCounter::count(int64_t batch, Precision precision, Phase phase) {
    if (precision == Precision::AsModel)
        throw InputError("a measured workload needs a precision, not as-model");
    AnalysisSettings settings;
    settings.precision = precision;
    settings.phase = phase;
    settings.optimizer = optimizer_;
    settings.dims.batch = batch;
    settings.dims.named = dims_;
    settings.dims.dimOption = dimOption_;
    settings.dims.batchOption = batchOption_;
    std::shared_ptr<const Workload> workload = cache_.get(modelPath_, settings);
    const std::lock_guard<std::mutex> lock(mutex_);
    held_.emplace(workload.get(), workload);
    return *workload;
}

RunBatches batchesToRun(const std::string& modelPath, const std::map<std::string, int64_t>& dims,
                        const std::vector<int64_t>& given) {
    if (!given.empty()) return {given, dims};
    if (dims.empty()) return {{1}, dims};
    AnalysisSettings settings;
    settings.dims.named = dims;
    const Workload workload = analyzeModelFile(modelPath, settings);
    if (!workload.info.batchFromDims) return {{1}, dims};
    RunBatches run{{*workload.info.batchFromDims}, dims};
    for (const std::string& symbol : workload.info.batchSymbolsFromDims)
        run.dims.erase(symbol);
    return run;
}

} // namespace rooftop
