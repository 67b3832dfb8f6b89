// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/test_support.h"

#include "core/common/errors.h"
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"
#include "support/device_fixtures.h"

#include <stdexcept>

namespace rooftop::test {

Workload analyzeText(const std::string& text, const AnalysisSettings& settings) {
    return analyzeGraph(graphFromModel(parseModelText(text), settings.dims, "textual model"), settings);
}

std::string samplePath(const std::string& name) {
    return std::string(ROOFTOP_TEST_MODELS_DIR) + "/" + name + ".onnx";
}

AnalysisSettings atBatch(int64_t batch) {
    AnalysisSettings settings;
    settings.dims.batch = batch;
    return settings;
}

Workload analyzeSample(const std::string& name, const AnalysisSettings& settings) {
    return analyzeModelFile(samplePath(name), settings);
}

const LayerCount& layerNamed(const Workload& workload, const std::string& name) {
    for (const auto& layer : workload.layers)
        if (layer.name == name) return layer;
    throw std::runtime_error("no layer named " + name);
}

const Workload& resnet18Workload() {
    static const Workload workload = analyzeSample("resnet18");
    return workload;
}

const ModelPrediction& resnet18MaxnPrediction() {
    static const ModelPrediction prediction = [] {
        const DeviceSpec& device = shippedAgxOrin();
        return predict(resnet18Workload(),
                       deriveModeProfile(device, stockPowerModes(device).front(), findRuntime("tensorrt")));
    }();
    return prediction;
}

QString errorOf(const std::function<void()>& run) {
    try {
        run();
    } catch (const InputError& error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

} // namespace rooftop::test
