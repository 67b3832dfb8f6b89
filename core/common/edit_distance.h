// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rooftop {

/// Damerau-Levenshtein distance (adjacent transpositions count once).
std::size_t editDistance(const std::string& a, const std::string& b);

/// The one of `known` nearest to a mistyped name (case aside), within a third of its length; empty when none
/// is that near or the name is known.
std::string nearestName(const std::string& mistyped, const std::vector<std::string>& known);

} // namespace rooftop
