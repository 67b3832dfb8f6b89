// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QVariant>

namespace rooftop::models {

/// How a table cell looks: labels flush left and numbers flush right, an emphasised or a greyed-out row.
struct CellStyle {
    bool label = false;  ///< flush left (names, provenance), else flush right (numbers)
    bool italic = false; ///< e.g. a layer no cost rule counts
    bool bold = false;   ///< e.g. the recommended mode
    bool greyed = false; ///< e.g. an unsupported layer, an infeasible mode
};

/// The Qt::TextAlignmentRole, Qt::FontRole or Qt::ForegroundRole data of a cell in `style`; empty otherwise.
QVariant cellStyleData(const CellStyle& style, int role);

} // namespace rooftop::models
