// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/graph/node.h"

namespace rooftop {

int64_t Node::attributeInt(const std::string& key, int64_t fallback) const {
    auto it = attributes.find(key);
    return it == attributes.end() ? fallback : it->second.i;
}

double Node::attributeFloat(const std::string& key, double fallback) const {
    auto it = attributes.find(key);
    return it == attributes.end() ? fallback : it->second.f;
}

std::string Node::attributeString(const std::string& key, const std::string& fallback) const {
    auto it = attributes.find(key);
    return it == attributes.end() ? fallback : it->second.s;
}

std::vector<int64_t> Node::attributeInts(const std::string& key) const {
    auto it = attributes.find(key);
    return it == attributes.end() ? std::vector<int64_t>{} : it->second.ints;
}

} // namespace rooftop
