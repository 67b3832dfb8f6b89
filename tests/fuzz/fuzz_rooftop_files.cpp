// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the readers of Rooftop's own files that users pass around: predictors (rooftop learn -o), runs files
// (rooftop profile), layers files (<runs>.layers.csv), measured profiles (rooftop bench) and runtime files
// (rooftop calibrate, rooftop compare --calibrate-classes) and arrival traces (rooftop plan --arrival
// trace:F, then replayed through the schedule simulation). The first byte picks the reader ('R' runtimes, 'T'
// traces), the rest is the file. InputError is the only allowed way out, and what is read must hold the
// invariants the rest of Rooftop relies on.
#include "core/common/errors.h"
#include "core/device/measured_profile.h"
#include "core/device/runtime_profile.h"
#include "core/learn/predictor_file.h"
#include "core/measure/layers_file.h"
#include "core/measure/runs_file.h"
#include "core/plan/arrival_process.h"
#include "core/plan/concurrent_schedule.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace {

/// One scratch file per process, rewritten for each input.
const std::string& scratchPath() {
    static const std::string path = [] {
        std::string name = (std::filesystem::temp_directory_path() / "rooftop-fuzz-XXXXXX").string();
        const int fd = mkstemp(name.data());
        if (fd < 0) std::abort();
        close(fd);
        return name;
    }();
    return path;
}

void check(bool invariant) {
    if (!invariant) std::abort();
}

void readPredictor(const std::string& path) {
    const rooftop::Predictor p = rooftop::loadPredictor(path);
    check(p.range.minCores <= p.range.maxCores && p.range.minGpuHz <= p.range.maxGpuHz &&
          p.range.minBatch <= p.range.maxBatch);
    check(p.time.coefficients.size() == rooftop::timeFeatureCount &&
          p.power.coefficients.size() == rooftop::powerFeatureCount);
    check(p.time.residual.alpha.size() == p.time.residual.inputs.rows());
    check(p.power.residual.alpha.size() == p.power.residual.inputs.rows());
    for (const rooftop::HeldOutRun& run : p.heldOut)
        check(std::isfinite(run.measuredSeconds) && std::isfinite(run.predictedSeconds));
    (void)p.basis();
    (void)p.range.describe();
}

void readRuns(const std::string& path) {
    for (const rooftop::RunRow& row : rooftop::readRunsFile(path)) {
        check(row.line > 0 && row.batch >= 1);
        if (row.latencyMs) check(std::isfinite(*row.latencyMs));
        if (row.powerW) check(std::isfinite(*row.powerW));
    }
}

void readLayers(const std::string& path) {
    for (const rooftop::LayerRow& row : rooftop::readLayersFile(path))
        check(row.batch >= 1 && std::isfinite(row.layer.averageMs) && std::isfinite(row.layer.medianMs));
}

void readProfile(const std::string& path) {
    const rooftop::MeasuredProfile profile = rooftop::loadMeasuredProfile(path);
    (void)profile;
}

void readRuntimes(const std::string& path) {
    for (const rooftop::RuntimeProfile& r : rooftop::loadRuntimeFile(path)) {
        check(!r.name.empty() && std::isfinite(r.dispatchSecondsAtMaxCpu) && r.dispatchSecondsAtMaxCpu >= 0);
        check(r.computeEfficiency > 0 && r.bandwidthEfficiency > 0);
        for (size_t k = 0; k < r.classEfficiency.size(); ++k) {
            check(std::isfinite(r.classEfficiency[k]) && r.classEfficiency[k] > 0);
            check(!r.classFitted[k] || !r.classBasis.empty());
        }
        // what Rooftop writes of it reads back (rooftop calibrate -o, compare --calibrate-classes -o)
        FILE* back = std::fopen((path + ".back").c_str(), "wb");
        if (!back) std::abort();
        const std::string text = rooftop::runtimeJson(r);
        std::fwrite(text.data(), 1, text.size(), back);
        std::fclose(back);
        check(rooftop::loadRuntimeFile(path + ".back").front().name == r.name);
    }
}

void readTrace(const std::string& path) {
    const std::vector<double> times = rooftop::readArrivalTrace(path);
    check(!times.empty() && std::is_sorted(times.begin(), times.end()));
    for (double t : times)
        check(std::isfinite(t) && t >= 0);
    if (times.size() > 20000 || times.back() > 1e6) return; // the replay below stays quick
    rooftop::ScheduleCosts costs;
    costs.inferenceBatch = 4;
    costs.inferenceSeconds = 0.002;
    costs.trainingSeconds = 0.01;
    rooftop::ScheduleOptions options;
    options.sloSeconds = 0.02;
    options.durationSeconds = times.back() + 0.1;
    const rooftop::ScheduleStats s = rooftop::simulateSchedule(times, costs, options);
    check(s.served + s.dropped == static_cast<int64_t>(times.size()) && s.late <= s.served);
    check(s.violationPct >= 0 && s.violationPct <= 100 && std::isfinite(s.energyJoules));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    const std::string& path = scratchPath();
    FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) std::abort();
    if (size > 1 && std::fwrite(data + 1, 1, size - 1, file) != size - 1) std::abort();
    std::fclose(file);
    try {
        if (data[0] == 'R') {
            readRuntimes(path);
            return 0;
        }
        if (data[0] == 'T') {
            readTrace(path);
            return 0;
        }
        switch (data[0] % 4) {
        case 0:
            readPredictor(path);
            break;
        case 1:
            readRuns(path);
            break;
        case 2:
            readLayers(path);
            break;
        default:
            readProfile(path);
            break;
        }
    } catch (const rooftop::InputError&) {
    }
    return 0;
}
