// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rooftop {

/// One ONNX attribute value, reduced to what cost and shape rules read.
struct AttributeValue {
    int64_t i = 0;
    double f = 0.0;
    std::string s;
    std::vector<int64_t> ints;
    std::vector<double> floats;
    int tensorType = 0; ///< ONNX data_type of a tensor attribute (its small values go to ints/floats)
};

/// One operator instance of the graph.
struct Node {
    std::string name;
    std::string opType;
    std::string domain;               ///< "" or "ai.onnx" for the default domain
    int opsetVersion = 0;             ///< the model's opset for this node's domain
    std::vector<int> inputs;          ///< tensor indices; -1 for an omitted optional input
    std::vector<int> outputs;         ///< tensor indices; -1 for an omitted optional output
    std::map<std::string, AttributeValue> attributes;
    int64_t repeat = 1;               ///< times executed (unrolled Loop bodies)
    std::string note;                 ///< why counting of this node is approximate, if it is

    bool hasAttribute(const std::string& key) const { return attributes.count(key) != 0; }
    int64_t attributeInt(const std::string& key, int64_t fallback) const;
    double attributeFloat(const std::string& key, double fallback) const;
    std::string attributeString(const std::string& key, const std::string& fallback) const;
    std::vector<int64_t> attributeInts(const std::string& key) const;
    /// Domain as reported to users: "ai.onnx" for the default domain.
    std::string displayDomain() const { return domain.empty() ? "ai.onnx" : domain; }
    /// True when the node belongs to the default ONNX domain.
    bool isDefaultDomain() const { return domain.empty() || domain == "ai.onnx"; }
};

} // namespace rooftop
