// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/workload_cache.h"

#include <QFileInfo>
#include <QString>
#include <optional>

namespace rooftop {

std::string WorkloadCache::keyFor(const std::string& path, const AnalysisSettings& settings) const {
    const QFileInfo file(QString::fromStdString(path));
    std::string key = file.absoluteFilePath().toStdString() + '\n' + std::to_string(file.size()) + '\n' +
                      std::to_string(file.lastModified().toMSecsSinceEpoch()) + '\n' +
                      std::to_string(settings.dims.batch.value_or(0)) + '\n' +
                      std::to_string(static_cast<int>(settings.precision)) + '\n' +
                      std::to_string(static_cast<int>(settings.convention)) + '\n' +
                      std::to_string(static_cast<int>(settings.traffic));
    for (const auto& [name, value] : settings.dims.named)
        key += '\n' + name + '=' + std::to_string(value);
    return key;
}

std::shared_ptr<const Workload> WorkloadCache::get(const std::string& path,
                                                   const AnalysisSettings& settings) {
    const std::string key = keyFor(path, settings);
    std::promise<std::shared_ptr<const Workload>> promise;
    std::optional<Entry> pending;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        for (auto it = entries_.begin(); it != entries_.end(); ++it) {
            if (it->first != key) continue;
            entries_.splice(entries_.begin(), entries_, it);
            pending = entries_.front().second;
            break;
        }
        if (!pending) {
            ++misses_;
            entries_.emplace_front(key, promise.get_future().share());
            while (entries_.size() > capacity_)
                entries_.pop_back();
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
        entries_.remove_if([&](const auto& entry) { return entry.first == key; }); // a later request retries
        throw;
    }
}

size_t WorkloadCache::misses() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return misses_;
}

} // namespace rooftop
