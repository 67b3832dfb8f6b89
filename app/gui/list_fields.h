// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <cstdint>
#include <string>
#include <vector>

namespace rooftop::gui {

/// The batch sizes of a comma-separated field (parseBatchList); throws InputError naming the field for none
/// or a bad one.
std::vector<int64_t> batchSizesField(const QString& field, const QString& text);

/// The precisions of a comma-separated field, lower-cased; throws InputError naming the field for none.
std::vector<std::string> precisionsField(const QString& field, const QString& text);

} // namespace rooftop::gui
