// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/workload_cache.h"

#include <QFileInfo>
#include <QString>
#include <chrono>
#include <optional>

namespace rooftop {

std::string WorkloadCache::keyFor(const std::string& path, const AnalysisSettings& settings) const {
    const QFileInfo file(QString::fromStdString(path));
    std::string key = file.absoluteFilePath().toStdString() + '\n' + std::to_string(file.size()) + '\n' +
                      std::to_string(file.lastModified().toMSecsSinceEpoch()) + '\n' +
                      std::to_string(settings.dims.batch.value_or(0)) + '\n' +
                      std::to_string(static_cast<int>(settings.precision)) + '\n' +
                      std::to_string(static_cast<int>(settings.convention)) + '\n' +
                      std::to_string(static_cast<int>(settings.traffic)) + '\n' +
                      std::to_string(static_cast<int>(settings.phase)) + '\n' +
                      std::to_string(static_cast<int>(settings.optimizer)) + '\n' +
                      std::to_string(settings.samples);
    for (const auto& [name, value] : settings.dims.named)
        key += '\n' + name + '=' + std::to_string(value);
    return key;
}

std::shared_ptr<const Workload> WorkloadCache::get(const std::string& path,
                                                   const AnalysisSettings& settings) {
    const std::string key = keyFor(path, settings);
    std::promise<std::shared_ptr<const Workload>> promise;
    std::optional<std::shared_future<std::shared_ptr<const Workload>>> pending;
    uint64_t id = 0;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        for (auto it = entries_.begin(); it != entries_.end(); ++it) {
            if (it->key != key) continue;
            entries_.splice(entries_.begin(), entries_, it);
            pending = entries_.front().workload;
            break;
        }
        if (!pending) {
            ++misses_;
            id = ++nextId_;
            entries_.push_front({key, id, promise.get_future().share()});
            evictBeyondCapacity();
        }
    }
    if (pending) return pending->get(); // waits while another request counts it; rethrows its error
    // counted outside the lock: a slow model does not block lookups of others
    try {
        auto workload = std::make_shared<const Workload>(analyzeModelFile(path, settings));
        promise.set_value(workload);
        return workload;
    } catch (...) {
        promise.set_exception(std::current_exception());
        const std::lock_guard<std::mutex> lock(mutex_);
        entries_.remove_if([&](const Entry& entry) { return entry.id == id; }); // a later request retries
        throw;
    }
}

void WorkloadCache::evictBeyondCapacity() {
    // The least recently used counted entries go; entries still being counted stay (others wait on them).
    for (auto it = entries_.end(); entries_.size() > capacity_ && it != entries_.begin();) {
        --it;
        const bool counted = it->workload.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
        if (counted) it = entries_.erase(it);
    }
}

size_t WorkloadCache::misses() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return misses_;
}

} // namespace rooftop
