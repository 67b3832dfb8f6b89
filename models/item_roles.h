// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Qt>

namespace rooftop::models {

/// Roles every rooftop item model answers besides the standard ones.
enum ItemRole {
    /// Cell data: the raw value (qlonglong counts, double seconds/joules/watts, bool flags, QString names),
    /// for sorting and for machine-readable export; invalid when the cell has no value.
    SortRole = Qt::UserRole,
    /// Horizontal header data: the column name with the unit of its SortRole value, e.g. "Time (s)".
    ExportHeaderRole = Qt::UserRole + 1,
};

} // namespace rooftop::models
