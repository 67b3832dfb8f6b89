// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/roofline/prediction.h"

#include <QString>
#include <functional>
#include <string>

namespace rooftop::test {

/// Counts a model written in ONNX's textual syntax.
Workload analyzeText(const std::string& text, const AnalysisSettings& settings = {});

/// Default analysis settings with the batch bound to `batch`.
AnalysisSettings atBatch(int64_t batch);

/// Counts a bundled sample network (resources/models/NAME.onnx).
Workload analyzeSample(const std::string& name, const AnalysisSettings& settings = {});

/// The layer with this node name; fails the test (QFAIL-style exception) when absent.
const LayerCount& layerNamed(const Workload& workload, const std::string& name);

/// Absolute path of a bundled sample network.
std::string samplePath(const std::string& name);

/// ResNet-18 (the bundled sample) counted with default settings, once per process.
const Workload& resnet18Workload();

/// resnet18Workload() predicted on the shipped AGX Orin 64GB in its first stock mode (MAXN) under TensorRT.
const ModelPrediction& resnet18MaxnPrediction();

/// The message of the InputError that `run` throws; empty when it throws none.
QString errorOf(const std::function<void()>& run);

} // namespace rooftop::test
