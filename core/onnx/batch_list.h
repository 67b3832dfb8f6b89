// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rooftop {

/// Parses one batch size: a whole number from 1 to 2^40 (DimBindings::maxDimValue), an optional sign and
/// spaces around it allowed. `what` names the input in the InputError ("--batch", "Batch sizes"); `whole` is
/// the list the item came from, quoted beside it when it differs.
int64_t parseBatchSize(const std::string& item, const std::string& what, const std::string& whole = {});

/// Parses a comma-separated list of batch sizes ("1,4,16", "1, 4"): each item as parseBatchSize, in the
/// order given, a repeated size dropped (the first kept). An empty list or an empty item ("1,,2", "4,") is
/// an InputError naming `what`, as is any bad size.
std::vector<int64_t> parseBatchList(const std::string& text, const std::string& what);

} // namespace rooftop
