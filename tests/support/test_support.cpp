// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/test_support.h"

#include "core/common/errors.h"
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"
#include "support/device_fixtures.h"

#include <QFile>
#include <algorithm>
#include <cstdlib>
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

std::string replaceFirst(std::string text, const std::string& marker, const std::string& value) {
    return text.replace(text.find(marker), marker.size(), value);
}

bool hasNote(const Workload& workload, const std::string& text) {
    return std::any_of(workload.info.notes.begin(), workload.info.notes.end(),
                       [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

const LayerCount* firstLayerWithOp(const Workload& workload, const std::string& op) {
    for (const auto& layer : workload.layers)
        if (layer.op == op) return &layer;
    return nullptr;
}

bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

QStringList columnHeaders(const QAbstractItemModel& model) {
    QStringList out;
    for (int c = 0; c < model.columnCount(); ++c)
        out << model.headerData(c, Qt::Horizontal).toString();
    return out;
}

long long shapeTextDim(const std::string& shape, int i) {
    size_t at = 0;
    for (int k = 0; k < i; ++k) {
        at = shape.find('x', at);
        if (at == std::string::npos) return -1;
        ++at;
    }
    return std::atoll(shape.c_str() + at);
}

bool rectsOverlap(const QRectF& a, const QRectF& b) {
    return a.left() < b.right() && b.left() < a.right() && a.top() < b.bottom() && b.top() < a.bottom();
}

} // namespace rooftop::test
