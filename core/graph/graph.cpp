// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/graph/graph.h"

#include <algorithm>

namespace rooftop {

std::vector<std::string> ModelInfo::assumedShapeDims() const {
    std::vector<std::string> shape;
    for (const std::string& dim : assumedDims)
        if (std::find(assumedBatchDims.begin(), assumedBatchDims.end(), dim) == assumedBatchDims.end())
            shape.push_back(dim);
    return shape;
}

int Graph::findTensor(const std::string& name) const {
    auto it = tensorIndex.find(name);
    return it == tensorIndex.end() ? -1 : it->second;
}

int Graph::addTensor(const std::string& name) {
    auto it = tensorIndex.find(name);
    if (it != tensorIndex.end()) return it->second;
    int index = static_cast<int>(tensors.size());
    tensors.push_back(Tensor{});
    tensors.back().name = name;
    tensorIndex.emplace(name, index);
    return index;
}

} // namespace rooftop
