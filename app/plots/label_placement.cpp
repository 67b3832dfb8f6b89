// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/label_placement.h"

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

} // namespace

std::vector<PlacedLabel> placeLabels(const std::vector<LabelCandidates>& labels, const QRectF& bounds,
                                     const std::vector<QRectF>& obstacles,
                                     const std::vector<QRectF>& markers) {
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
            const long covered = std::count_if(markers.begin(), markers.end(),
                                               [&](const QRectF& marker) { return overlap(box, marker); });
            if (fewestCovered >= 0 && covered >= fewestCovered) continue;
            fewestCovered = covered;
            placed[index] = {int(choice), box};
        }
        if (placed[index].choice >= 0) taken.push_back(placed[index].box);
    }
    return placed;
}

} // namespace rooftop::plots
