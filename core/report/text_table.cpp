// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/text_table.h"

#include "core/common/text_format.h"

#include <algorithm>

namespace rooftop {

std::string formatTable(const std::vector<std::vector<std::string>>& rows,
                        const std::vector<bool>& rightAligned, const std::string& indent) {
    std::vector<size_t> widths;
    for (const auto& row : rows)
        for (size_t c = 0; c < row.size(); ++c) {
            if (widths.size() <= c) widths.push_back(0);
            widths[c] = std::max(widths[c], displayWidth(row[c]));
        }
    std::string out;
    for (const auto& row : rows) {
        std::string line = indent;
        for (size_t c = 0; c < row.size(); ++c) {
            const std::string pad(widths[c] - displayWidth(row[c]), ' ');
            const bool right = c < rightAligned.size() && rightAligned[c];
            line += (c ? "  " : "") + (right ? pad + row[c] : row[c] + (c + 1 < row.size() ? pad : ""));
        }
        out += line + "\n";
    }
    return out;
}

std::string formatTable(const std::vector<std::vector<std::string>>& rows, size_t leftColumns,
                        const std::string& indent) {
    size_t columns = 0;
    for (const auto& row : rows)
        columns = std::max(columns, row.size());
    std::vector<bool> rightAligned(columns, true);
    for (size_t c = 0; c < std::min(leftColumns, columns); ++c)
        rightAligned[c] = false;
    return formatTable(rows, rightAligned, indent);
}

} // namespace rooftop
