// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// One measured layer, kernel or node of a profile: its time per inference and what the tool says about it.
struct MeasuredLayer {
    std::string name;                   ///< the tool's name: a TensorRT layer, an ONNX Runtime node, a kernel
    double ms = 0.0;                    ///< measured time of one inference
    std::string type;                   ///< TensorRT LayerType, ONNX Runtime op_name; empty when unknown
    std::vector<std::string> onnxNodes; ///< ONNX node names the tool itself gives (Metadata, ORT node names)
    bool reformat = false;   ///< a layer TensorRT inserted (layer info: LayerType or Origin Reformat)
    double flops = -1.0;     ///< the tool's own FLOP count (Nsight Compute); negative when none
    double dramBytes = -1.0; ///< the tool's own DRAM bytes (Nsight Compute); negative when none
    std::vector<std::vector<int64_t>>
        outputDims; ///< each output's dimensions (trtexec layer info); -1: dynamic
};

/// A measured per-layer profile: which tool wrote it, from which file, its layers in execution order.
struct MeasuredLayers {
    std::string source;                ///< "trtexec", "onnxruntime" or "ncu"
    std::string file;                  ///< the file the times come from
    std::vector<MeasuredLayer> layers; ///< in execution order
    std::optional<double> inferenceMs; ///< median GPU time per inference (trtexec --exportTimes), when given
};

} // namespace rooftop
