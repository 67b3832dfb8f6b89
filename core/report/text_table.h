// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace rooftop {

/// A table as text cells, its header row first.
struct TextTable {
    std::string title;                          ///< the line printed above the table
    std::vector<std::vector<std::string>> rows; ///< empty: no table
};

/// Columns padded to their widest cell, two spaces apart; columns flagged in rightAligned flush right.
std::string formatTable(const std::vector<std::vector<std::string>>& rows,
                        const std::vector<bool>& rightAligned, const std::string& indent = "");

/// The same with the first `leftColumns` columns flush left (labels) and the rest flush right (numbers).
std::string formatTable(const std::vector<std::vector<std::string>>& rows, size_t leftColumns,
                        const std::string& indent);

} // namespace rooftop
