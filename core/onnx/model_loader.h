// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <onnx/onnx_pb.h>

#include <string>

namespace rooftop {

/// Reads an .onnx file into a ModelProto without touching external weight files, and without the payloads of
/// embedded tensors too large for shape folding (stripTensorPayloads); throws InputError.
onnx::ModelProto loadModelFile(const std::string& path);
/// Same as loadModelFile, into `model` (which may live on an arena).
void readModelFile(const std::string& path, onnx::ModelProto& model);

/// Parses a model from bytes already in memory (the fuzz target's entry), large payloads stripped; throws
/// InputError.
onnx::ModelProto parseModelBytes(const void* data, size_t size, const std::string& sourceName);
/// Same as parseModelBytes, into `model` (which may live on an arena).
void parseModelBytesInto(const void* data, size_t size, const std::string& sourceName,
                         onnx::ModelProto& model);

/// Parses a model written in ONNX's textual syntax (onnx::OnnxParser); throws InputError.
onnx::ModelProto parseModelText(const std::string& text);

/// True when any initializer of the model stores its payload in an external file.
bool usesExternalData(const onnx::ModelProto& model);

/// True when every external data file the model names exists next to modelPath.
bool externalDataPresent(const onnx::ModelProto& model, const std::string& modelPath);

} // namespace rooftop
