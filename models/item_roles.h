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
    /// Horizontal header data: the column's JSON name in Rooftop's vocabulary (docs/json.md), e.g. "time_ms".
    ExportKeyRole = Qt::UserRole + 2,
    /// Horizontal header data: the factor from the SortRole value's unit to ExportKeyRole's (1e3 for s to
    /// ms);
    /// invalid: 1.
    ExportScaleRole = Qt::UserRole + 3,
};

} // namespace rooftop::models
