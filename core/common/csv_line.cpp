// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/common/csv_line.h"

namespace rooftop {

bool splitCsvLine(const std::string& line, std::vector<std::string>& fields, std::string* why) {
    fields.clear();
    std::string field;
    size_t i = 0;
    while (true) {
        field.clear();
        if (i < line.size() && line[i] == '"') {
            ++i;
            while (true) {
                if (i >= line.size()) {
                    *why = "field " + std::to_string(fields.size() + 1) + ": unterminated quote";
                    return false;
                }
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += line[i++];
            }
            if (i < line.size() && line[i] != ',') {
                *why = "field " + std::to_string(fields.size() + 1) + ": text after a closing quote";
                return false;
            }
        } else {
            while (i < line.size() && line[i] != ',') {
                if (line[i] == '"') {
                    *why =
                        "field " + std::to_string(fields.size() + 1) + ": a quote inside an unquoted field";
                    return false;
                }
                field += line[i++];
            }
        }
        fields.push_back(field);
        if (i >= line.size()) return true;
        ++i; // the comma
    }
}

} // namespace rooftop
