// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/label_placement.h"

#include <QLineF>
#include <algorithm>
#include <numeric>

namespace rooftop::plots {

namespace {

/// Whether two boxes share more than an edge.
bool overlap(const QRectF& a, const QRectF& b) {
    return a.left() < b.right() && b.left() < a.right() && a.top() < b.bottom() && b.top() < a.bottom();
}

bool inside(const QRectF& box, const QRectF& bounds) {
    return box.left() >= bounds.left() && box.right() <= bounds.right() && box.top() >= bounds.top() &&
           box.bottom() <= bounds.bottom();
}

bool segmentCrosses(const QPointF& a, const QPointF& b, const QRectF& box) {
    if (std::max(a.x(), b.x()) < box.left() || std::min(a.x(), b.x()) > box.right() ||
        std::max(a.y(), b.y()) < box.top() || std::min(a.y(), b.y()) > box.bottom())
        return false;
    if (box.contains(a) || box.contains(b)) return true;
    const QLineF segment(a, b);
    const QLineF edges[] = {{box.topLeft(), box.topRight()},
                            {box.topRight(), box.bottomRight()},
                            {box.bottomRight(), box.bottomLeft()},
                            {box.bottomLeft(), box.topLeft()}};
    return std::any_of(std::begin(edges), std::end(edges), [&](const QLineF& edge) {
        return segment.intersects(edge, nullptr) == QLineF::BoundedIntersection;
    });
}

} // namespace

bool crosses(const Polyline& line, const QRectF& box) {
    if (line.size() == 1) return box.contains(line.front());
    for (size_t i = 1; i < line.size(); ++i)
        if (segmentCrosses(line[i - 1], line[i], box)) return true;
    return false;
}

std::vector<PlacedLabel> placeLabels(const std::vector<LabelCandidates>& labels, const QRectF& bounds,
                                     const std::vector<QRectF>& obstacles, const std::vector<QRectF>& markers,
                                     const std::vector<Polyline>& lines) {
    std::vector<size_t> order(labels.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return labels[a].priority > labels[b].priority; });
    std::vector<PlacedLabel> placed(labels.size());
    std::vector<QRectF> taken = obstacles;
    for (size_t index : order) {
        const std::vector<QRectF>& boxes = labels[index].boxes;
        long fewestCovered = -1;
        for (size_t choice = 0; choice < boxes.size() && fewestCovered != 0; ++choice) {
            const QRectF& box = boxes[choice];
            if (box.isEmpty() || !inside(box, bounds)) continue;
            if (std::any_of(taken.begin(), taken.end(),
                            [&](const QRectF& other) { return overlap(box, other); }))
                continue;
            // A line through a text makes it hard to read, a marker under one is still in its hover text;
            // lines often coincide (the roofs of modes with one memory clock share their slope), so a text
            // crossing any costs as three markers, however many it crosses.
            const QRectF& ink = choice < labels[index].inks.size() ? labels[index].inks[choice] : box;
            const QRectF stroke = ink.adjusted(0, -1.5, 0, 1.5); // roofs are drawn up to 3.2 px wide
            const bool struck = std::any_of(lines.begin(), lines.end(),
                                            [&](const Polyline& line) { return crosses(line, stroke); });
            if (struck && labels[index].keepOffLines) continue;
            const long markersUnder = std::count_if(
                markers.begin(), markers.end(), [&](const QRectF& marker) { return overlap(ink, marker); });
            const long covered = markersUnder + (struck ? 3 : 0);
            if (fewestCovered >= 0 && covered >= fewestCovered) continue;
            fewestCovered = covered;
            placed[index] = {int(choice), box, struck, int(markersUnder)};
        }
        if (placed[index].choice >= 0) taken.push_back(placed[index].box);
    }
    return placed;
}

} // namespace rooftop::plots
