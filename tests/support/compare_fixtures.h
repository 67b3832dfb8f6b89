// SPDX-License-Identifier: GPL-3.0-or-later
// Measured-profile fixtures for rooftop compare, written from the formats (measured-formats.md 1-3), not
// copied: trtexec profiles of resnet18.onnx in TensorRT 8.6 and 10.x naming, a model with old-exporter node
// names (Conv_0), its profile, and an ONNX Runtime CUDA profile.
#pragma once

#include "core/compare/class_calibration.h"

#include <QString>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rooftop::test {

/// A trtexec --exportProfile JSON of these (name, averageMs) layers (count 100, medianMs = averageMs).
std::string trtexecProfileJson(const std::vector<std::pair<std::string, double>>& layers);

/// resnet18.onnx as TensorRT 8.6 fuses it: Conv + Relu, Conv + Add + Relu, the downsample Convs alone,
/// "/Flatten + reshape_before_/fc/Gemm", reshape_after and a reformat as overhead; layer i takes (i+1)/100
/// ms.
std::vector<std::pair<std::string, double>> resnet18Trt86Layers();

/// resnet18.onnx as TensorRT 10.x with Myelin: a reformat, two kgen kernels that only the layer info's
/// Metadata maps (conv1 + relu; maxpool), one {ForeignNode[/layer1/layer1.0/conv1/Conv.../fc/Gemm]} with a
/// " [profile 1]" twin, and an unnamed layer nothing maps.
std::vector<std::pair<std::string, double>> resnet18Trt10Layers();

/// The --exportLayerInfo (detailed, Metadata with raw \x1E / \x1F) of resnet18Trt10Layers().
std::string resnet18Trt10LayerInfo();

/// A small textual model whose nodes get old-exporter names OpType_index: Conv_0, Relu_1, MaxPool_2,
/// Conv_3, Add_4, Relu_5, GlobalAveragePool_6, Flatten_7, Gemm_8.
bool writeOldNamesModel(const QString& path);

/// The TensorRT 8.6 profile of writeOldNamesModel's model: Conv_0 + Relu_1, MaxPool_2, a folded constant
/// in Conv_3 + onnx::Add_12 + Add_4 + Relu_5, GlobalAveragePool_6, Flatten_7 copy (overhead), Gemm_8 and a
/// reformat (overhead).
std::vector<std::pair<std::string, double>> oldNamesTrt86Layers();

/// An ONNX Runtime CUDA profile of resnet18.onnx, two runs: every node a _kernel_time event of 100 us host
/// time and, for nodes other than /Flatten, a Kernel event of (i+1) us naming it; one node ORT made up
/// ("fused_Gemm_99") that the model lacks.
std::string resnet18OrtProfile();

/// rooftop compare --calibrate-classes of a bundled sample at `batch` in `mode` on the AGX Orin 64GB, from a
/// trtexec profile of `layers` and an --exportTimes JSON written as STEM-profile.json and STEM-times.json.
ClassCalibration calibrateSampleProfile(const QString& stem, const std::string& model, int64_t batch,
                                        const std::string& mode,
                                        const std::vector<std::pair<std::string, double>>& layers,
                                        const std::string& timesJson);

/// Writes text to a file; false when it cannot.
bool writeText(const QString& path, const std::string& text);

} // namespace rooftop::test
