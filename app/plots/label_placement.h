// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRectF>
#include <vector>

namespace rooftop::plots {

/// A label to place: the boxes (pixels) it may take, best first, and how much it matters.
struct LabelCandidates {
    int priority = 0;          ///< higher is placed first; among equals, the earlier label
    std::vector<QRectF> boxes; ///< where the label may go, best first
};

/// Where a label went: the index of the box it took, -1 when none was free (its text is left to a tooltip).
struct PlacedLabel {
    int choice = -1;
    QRectF box; ///< the box taken; empty when none
};

/// The one label-placement pass of every plot. Labels are taken in priority order; each takes, of its boxes
/// that lie inside `bounds` (the axis rect) and intersect neither a box taken before it nor an obstacle, the
/// one over the fewest `markers` (the plot's data points), the earlier among equals; a label with no such box
/// is left out. The result is parallel to `labels`, and the boxes taken never intersect one another or an
/// obstacle and lie inside `bounds`; a label covers a marker only when each of its free boxes does.
std::vector<PlacedLabel> placeLabels(const std::vector<LabelCandidates>& labels, const QRectF& bounds,
                                     const std::vector<QRectF>& obstacles = {},
                                     const std::vector<QRectF>& markers = {});

} // namespace rooftop::plots
