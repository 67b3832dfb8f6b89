// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rooftop {

/// One ONNX attribute value, reduced to what cost and shape rules read.
struct AttributeValue {
    int64_t i = 0;              ///< value of an INT attribute
    double f = 0.0;             ///< value of a FLOAT attribute
    std::string s;              ///< value of a STRING attribute (raw bytes)
    std::vector<int64_t> ints;  ///< values of an INTS attribute, or a tensor attribute's small integer values
    std::vector<double> floats; ///< values of a FLOATS attribute, or a tensor attribute's small float values
    int tensorType = 0;         ///< ONNX data_type of a tensor attribute (its small values go to ints/floats)
};

/// One operator instance of the graph.
struct Node {
    std::string name;                                 ///< node name in the model ("" when it has none)
    std::string opType;                               ///< ONNX operator type (Conv, MatMul, ...)
    std::string domain;                               ///< "" or "ai.onnx" for the default domain
    int opsetVersion = 0;                             ///< the model's opset for this node's domain
    std::vector<int> inputs;                          ///< tensor indices; -1 for an omitted optional input
    std::vector<int> outputs;                         ///< tensor indices; -1 for an omitted optional output
    std::map<std::string, AttributeValue> attributes; ///< the node's attributes by name
    int64_t repeat = 1;                               ///< times executed (unrolled Loop bodies)
    std::string note;                                 ///< why counting of this node is approximate, if it is

    /// True when the node sets this attribute.
    bool hasAttribute(const std::string& key) const { return attributes.count(key) != 0; }
    /// The INT attribute's value, or `fallback` when the node does not set it.
    int64_t attributeInt(const std::string& key, int64_t fallback) const;
    /// The FLOAT attribute's value, or `fallback` when the node does not set it.
    double attributeFloat(const std::string& key, double fallback) const;
    /// The STRING attribute's value, or `fallback` when the node does not set it.
    std::string attributeString(const std::string& key, const std::string& fallback) const;
    /// The INTS attribute's values; empty when the node does not set it.
    std::vector<int64_t> attributeInts(const std::string& key) const;
    /// Domain as reported to users: "ai.onnx" for the default domain.
    std::string displayDomain() const { return domain.empty() ? "ai.onnx" : domain; }
    /// True when the node belongs to the default ONNX domain.
    bool isDefaultDomain() const { return domain.empty() || domain == "ai.onnx"; }
};

} // namespace rooftop
