// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/workload_cache.h"

#include <QFileInfo>
#include <QString>

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
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        for (auto it = entries_.begin(); it != entries_.end(); ++it) {
            if (it->first != key) continue;
            entries_.splice(entries_.begin(), entries_, it);
            return entries_.front().second;
        }
    }
    // counted outside the lock: a slow model does not block lookups of others
    auto workload = std::make_shared<const Workload>(analyzeModelFile(path, settings));
    const std::lock_guard<std::mutex> lock(mutex_);
    ++misses_;
    entries_.emplace_front(key, workload);
    while (entries_.size() > capacity_)
        entries_.pop_back();
    return workload;
}

size_t WorkloadCache::misses() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return misses_;
}

} // namespace rooftop
