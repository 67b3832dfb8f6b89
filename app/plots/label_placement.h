// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointF>
#include <QRectF>
#include <vector>

namespace rooftop::plots {

/// A label to place: the boxes (pixels) it may take, best first, and how much it matters.
struct LabelCandidates {
    int priority = 0;          ///< higher is placed first; among equals, the earlier label
    std::vector<QRectF> boxes; ///< where the label may go, best first
    /// The drawn text within each box (the box less its padding), what must keep off markers and lines;
    /// empty: the boxes themselves.
    std::vector<QRectF> inks;
    /// Left out rather than drawn through a line when every free box crosses one (a roof's own label that
    /// another roof would strike; its text is in the roof's hover text).
    bool keepOffLines = false;
};

/// Where a label went: the index of the box it took, -1 when none was free (its text is left to a tooltip).
struct PlacedLabel {
    int choice = -1;
    QRectF box;             ///< the box taken; empty when none
    bool struck = false;    ///< a line crosses its text: every free box crossed one (draw it over a backing)
    int coveredMarkers = 0; ///< markers under its text: every free box covered one (draw it over a backing)
};

/// A line drawn over the axes (a roof), in pixels: the points it joins, in order.
using Polyline = std::vector<QPointF>;

/// The one label-placement pass of every plot. Labels are taken in priority order; each takes, of its boxes
/// that lie inside `bounds` (the axis rect) and intersect neither a box taken before it nor an obstacle, the
/// one that covers the fewest `markers` (the plot's data points; crossing any of `lines` counts as
/// three; a line is taken as 3 px wide, as roofs are drawn), the earlier among equals; a label with no such
/// box, or one that keeps off lines whose every free box crosses one, is left out. The result is parallel to
/// `labels`, and the boxes taken never intersect one another or an obstacle and lie inside `bounds`; a label
/// covers a marker or crosses a line only when each of its free boxes does.
std::vector<PlacedLabel> placeLabels(const std::vector<LabelCandidates>& labels, const QRectF& bounds,
                                     const std::vector<QRectF>& obstacles = {},
                                     const std::vector<QRectF>& markers = {},
                                     const std::vector<Polyline>& lines = {});

/// Whether a polyline passes through a box (touching its edge counts).
bool crosses(const Polyline& line, const QRectF& box);

} // namespace rooftop::plots
