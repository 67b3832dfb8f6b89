// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/workload.h"
#include "core/roofline/prediction.h"

#include <QAbstractItemModel>
#include <QByteArray>
#include <QRectF>
#include <QString>
#include <QStringList>
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

/// `text` with the first occurrence of `marker` replaced by `value` (a model template's slot filled).
std::string replaceFirst(std::string text, const std::string& marker, const std::string& value);

/// Whether one of the workload's notes contains `text`.
bool hasNote(const Workload& workload, const std::string& text);

/// The first layer whose operator is `op`; nullptr when there is none.
const LayerCount* firstLayerWithOp(const Workload& workload, const std::string& op);

/// ResNet-18's first convolution: 64 x 112 x 112 outputs x (3 x 7 x 7) MACs.
constexpr qlonglong resnet18Conv1Macs = 118013952;

/// Writes `bytes` to `path`, replacing it; false when it cannot.
bool writeBytes(const QString& path, const QByteArray& bytes);

/// The model's horizontal header texts, column by column.
QStringList columnHeaders(const QAbstractItemModel& model);

/// Dimension i of a shape written "1x16x112x112"; -1 when it has fewer.
long long shapeTextDim(const std::string& shape, int i);

/// Whether two rectangles share an interior point (touching edges do not overlap).
bool rectsOverlap(const QRectF& a, const QRectF& b);

} // namespace rooftop::test
