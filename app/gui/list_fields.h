// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/data_type.h"

#include <QString>
#include <cstdint>
#include <string>
#include <vector>

namespace rooftop::gui {

/// The batch sizes of a comma-separated field (parseBatchList); throws InputError naming the field for none
/// or a bad one.
std::vector<int64_t> batchSizesField(const QString& field, const QString& text);

/// The run precisions of a comma-separated field (any case); throws InputError naming the field for none or
/// an unknown name.
std::vector<Precision> precisionsField(const QString& field, const QString& text);

} // namespace rooftop::gui
