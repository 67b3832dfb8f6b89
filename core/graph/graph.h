// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/node.h"
#include "core/graph/tensor.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace rooftop {

/// Facts about the model file shown next to the counts.
struct ModelInfo {
    std::string path;                          ///< the model file as it was given
    std::string graphName;                     ///< the ONNX graph's name
    std::string producer;                      ///< producer name and version of the file ("pytorch 2.1.0")
    int64_t irVersion = 0;                     ///< ONNX IR version of the file
    std::map<std::string, int64_t> opsets;     ///< domain ("ai.onnx" for the default) -> version
    bool hasExternalData = false;              ///< some initializers keep their data in external files
    bool externalDataPresent = false;          ///< every external data file was found next to the model
    std::vector<std::string> assumedDims;      ///< symbolic dims no option bound, set to 1 ("seq=1")
    std::vector<std::string> assumedBatchDims; ///< of assumedDims, those that are dim 0 of an input (a batch)
    std::optional<int64_t>
        batchFromDims; ///< a batch a named dim binding gave (--dim batch=4 without --batch)
    std::vector<std::string> batchSymbolsFromDims; ///< with batchFromDims: the bound symbols that gave it

    /// The assumed dims other than a batch ("sequence=1"): a batch of 1 is what a batch option left at 1
    /// means, a sequence of 1 is another workload.
    std::vector<std::string> assumedShapeDims() const;
    std::vector<std::string> notes; ///< anything that made the counts approximate
};

/// A model ready for counting: tensors with shapes, nodes in topological order.
struct Graph {
    ModelInfo info;                                   ///< facts about the model file
    std::vector<Tensor> tensors;                      ///< every tensor; Node::inputs / outputs index it
    std::vector<Node> nodes;                          ///< topological order
    std::vector<int> inputs;                          ///< graph inputs that are not initializers
    std::vector<int> outputs;                         ///< graph outputs (tensor indices)
    std::unordered_map<std::string, int> tensorIndex; ///< tensor name -> index in tensors

    /// Index of the tensor with this name, or -1.
    int findTensor(const std::string& name) const;
    /// The tensor at index, or nullptr for -1 (an omitted optional input).
    const Tensor* tensor(int index) const {
        return index < 0 ? nullptr : &tensors[static_cast<size_t>(index)];
    }
    /// Adds a tensor (or returns the existing one with that name) and returns its index.
    int addTensor(const std::string& name);
};

} // namespace rooftop
