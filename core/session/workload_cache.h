// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"
#include "core/cost/workload.h"

#include <cstddef>
#include <cstdint>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace rooftop {

/// Counted models keyed by (file, size, modification time, settings), so that a new board, mode or limit does
/// not parse the ONNX file again. Thread-safe: a second request for a model being counted waits for that
/// count instead of counting it again. Keeps the most recently used `capacity` workloads.
class WorkloadCache {
public:
    /// Keeps at most `capacity` counted models.
    explicit WorkloadCache(size_t capacity = 8) : capacity_(capacity) {}

    /// The model counted with these settings: from the cache, else analyzeModelFile (throws as it does).
    std::shared_ptr<const Workload> get(const std::string& path, const AnalysisSettings& settings);

    /// How many times get() counted a model rather than reusing one (for tests and diagnostics).
    size_t misses() const;

private:
    std::string keyFor(const std::string& path, const AnalysisSettings& settings) const;

    size_t capacity_;
    mutable std::mutex mutex_;
    struct Entry {
        std::string key;
        uint64_t id = 0; ///< tells a retried count's entry from a failed one's
        std::shared_future<std::shared_ptr<const Workload>> workload;
    };
    void evictBeyondCapacity();

    std::list<Entry> entries_; ///< most recent first
    uint64_t nextId_ = 0;
    size_t misses_ = 0;
};

} // namespace rooftop
