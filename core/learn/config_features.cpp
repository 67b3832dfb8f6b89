// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/learn/config_features.h"

#include "core/common/errors.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

const std::array<const char*, timeFeatureCount>& timeFeatureNames() {
    static const std::array<const char*, timeFeatureCount> names = {"roofline_s",
                                                                    "compute_s",
                                                                    "memory_s",
                                                                    "max_compute_memory_s",
                                                                    "dispatches_x_cpu_ratio_us",
                                                                    "cpu_ratio_100us",
                                                                    "batch_x_cpu_ratio_100us"};
    return names;
}

const std::array<const char*, powerFeatureCount>& powerFeatureNames() {
    static const std::array<const char*, powerFeatureCount> names = {
        "roofline_w", "constant_w",           "cores_x_cpu_v2f", "gpu_v2f", "gpu_v2f_x_compute_busy",
        "emc_v2f",    "emc_v2f_x_memory_busy"};
    return names;
}

const std::array<const char*, positionCount>& positionNames() {
    static const std::array<const char*, positionCount> names = {"cores_share",       "cpu_share",
                                                                 "gpu_log_position",  "emc_log_position",
                                                                 "log2_batch_over_6", "precision_code"};
    return names;
}

int precisionCode(Precision precision) {
    const auto& precisions = runPrecisions();
    const auto found = std::find(precisions.begin(), precisions.end(), precision);
    if (found == precisions.end())
        throw InputError("precision must be " + runPrecisionChoices() + ", got '" + precisionName(precision) +
                         "'");
    return static_cast<int>(found - precisions.begin());
}

WorkloadAggregate aggregateWorkload(const Workload& workload, Precision precision) {
    WorkloadAggregate a;
    a.batch = workload.settings.dims.batch.value_or(1);
    a.precision = precision;
    precisionCode(precision);
    for (const LayerCount& layer : workload.layers) {
        a.flops[static_cast<size_t>(computeClassOf(layer))] += static_cast<double>(layer.flops);
        a.bytes += static_cast<double>(layer.bytes());
        if (dispatchesKernel(layer)) a.dispatchCount += 1.0;
    }
    return a;
}

namespace {

double share(double value, double maximum) {
    return value > 0 && maximum > 0 ? std::min(1.0, value / maximum) : 1.0;
}

double position(double clockShare, ClockScale scale) {
    return scale == ClockScale::Log ? std::max(0.0, 1.0 + std::log2(clockShare) / 4.0) : clockShare;
}

} // namespace

std::vector<ModeSummary> featureSummaries(const Workload& workload, std::vector<ModeProfile> profiles) {
    for (ModeProfile& profile : profiles) {
        profile.ceilings.kernelSms = 0.0;
        profile.ceilings.minimumKernel.value = 0.0;
        profile.ceilings.classEfficiency.factor = unitClassFactors();
    }
    return sweepModes(workload, profiles);
}

std::vector<ConfigFeatures> configFeatures(const DeviceSpec& device, const WorkloadAggregate& workload,
                                           const std::vector<ModeProfile>& profiles,
                                           const std::vector<ModeSummary>& summaries, ClockScale scale) {
    std::vector<ConfigFeatures> out(profiles.size());
    const double batch = static_cast<double>(std::max<int64_t>(1, workload.batch));
    const double maxCores = std::max(1, device.cpuCores);
    const double code = 3.0 * precisionCode(workload.precision); // far apart: precisions barely correlate
    for (size_t i = 0; i < profiles.size(); ++i) {
        const ModeProfile& p = profiles[i];
        const PowerMode& mode = p.mode;
        double compute = 0.0;
        for (int c = 0; c < computeClassCount; ++c) {
            const double peak = p.ceilings.peakFlops[static_cast<size_t>(c)].value;
            if (workload.flops[static_cast<size_t>(c)] > 0 && peak > 0)
                compute += workload.flops[static_cast<size_t>(c)] / peak;
        }
        const double bandwidth = p.ceilings.bandwidth.value;
        const double memory = bandwidth > 0 ? workload.bytes / bandwidth : 0.0;
        const double cpuShare = share(double(mode.cpuKhz), double(device.maxCpuKhz()));
        const double gpuShare = share(double(mode.gpuHz), double(device.maxGpuHz()));
        const double emcShare = share(double(mode.emcHz), double(device.maxEmcHz()));
        const double cpuRatio = 1.0 / cpuShare;
        const double latency = summaries[i].latencySeconds;

        ConfigFeatures& f = out[i];
        f.time = {latency,
                  compute,
                  memory,
                  std::max(compute, memory),
                  workload.dispatchCount * cpuRatio * 1e-6,
                  cpuRatio * 1e-4,
                  batch * cpuRatio * 1e-4};
        const double gpu = gpuShare * dvfsEnergyScale(double(mode.gpuHz), double(device.maxGpuHz()));
        const double emc = emcShare * dvfsEnergyScale(double(mode.emcHz), double(device.maxEmcHz()));
        const double cpu =
            mode.onlineCores * cpuShare * dvfsEnergyScale(double(mode.cpuKhz), double(device.maxCpuKhz()));
        const double computeBusy = latency > 0 ? std::min(1.0, compute / latency) : 0.0;
        const double memoryBusy = latency > 0 ? std::min(1.0, memory / latency) : 0.0;
        f.power = {summaries[i].averageWatts, 1.0, cpu, gpu, gpu * computeBusy, emc, emc * memoryBusy};
        f.staticWatts = p.power.constantPower.value;
        f.dynamicJoules = summaries[i].energyJoules - f.staticWatts * latency;
        f.position = {mode.onlineCores / maxCores, cpuShare,
                      position(gpuShare, scale),   position(emcShare, scale),
                      std::log2(batch) / 6.0,      code};
    }
    return out;
}

std::array<double, powerFeatureCount> powerFeaturesAt(const ConfigFeatures& f, double latencySeconds) {
    std::array<double, powerFeatureCount> power = f.power;
    const double compute = f.time[1], memory = f.time[2]; // the roofline's compute and memory parts
    if (latencySeconds > 0 && f.dynamicJoules > 0)
        power[0] = f.staticWatts + f.dynamicJoules / latencySeconds;
    power[4] = power[3] * (latencySeconds > 0 ? std::min(1.0, compute / latencySeconds) : 0.0);
    power[6] = power[5] * (latencySeconds > 0 ? std::min(1.0, memory / latencySeconds) : 0.0);
    return power;
}

std::array<double, powerFeatureCount> powerFeaturesFor(const ConfigFeatures& f, double latencySeconds,
                                                       bool generation) {
    return generation ? f.power : powerFeaturesAt(f, latencySeconds);
}

} // namespace rooftop
