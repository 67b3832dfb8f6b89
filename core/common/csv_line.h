// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace rooftop {

/// Splits one CSV line into fields (RFC 4180 quotes, "" inside a quoted field, as csvField writes them);
/// false with *why on a bad quote. Every CSV Rooftop reads goes through it.
bool splitCsvLine(const std::string& line, std::vector<std::string>& fields, std::string* why);

} // namespace rooftop
