// SPDX-License-Identifier: GPL-3.0-or-later
// The one label-placement pass of the plots (plots/label_placement.h) on its own: boxes in, accepted boxes
// out.
#include "plots/label_placement.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>
#include <random>

using namespace rooftop::plots;
using rooftop::test::rectsOverlap;

namespace {

// A label of `priority` that may take `boxes`, its text filling each.
LabelCandidates candidate(int priority, std::vector<QRectF> boxes) {
    LabelCandidates label;
    label.priority = priority;
    label.boxes = std::move(boxes);
    return label;
}

} // namespace

class TestLabelPlacement : public QObject {
    Q_OBJECT
private slots:
    void aLabelTakesItsFirstFreeBox() {
        const QRectF bounds(0, 0, 400, 300);
        // two labels wanting the same place: the first keeps it, the second takes its next box
        const std::vector<PlacedLabel> placed =
            placeLabels({candidate(0, {QRectF(10, 10, 100, 20), QRectF(10, 40, 100, 20)}),
                         candidate(0, {QRectF(50, 15, 100, 20), QRectF(50, 70, 100, 20)})},
                        bounds);
        QCOMPARE(placed.size(), size_t(2));
        QCOMPARE(placed[0].choice, 0);
        QCOMPARE(placed[1].choice, 1);
        QCOMPARE(placed[1].box, QRectF(50, 70, 100, 20));
    }

    void theHigherPriorityGoesFirst() {
        const QRectF bounds(0, 0, 400, 300);
        // a stack count listed first yields to the bold label of the recommended roof
        const std::vector<PlacedLabel> placed = placeLabels(
            {candidate(1, {QRectF(10, 10, 40, 15)}), candidate(10, {QRectF(0, 5, 200, 15)})}, bounds);
        QCOMPARE(placed[1].choice, 0);
        QCOMPARE(placed[0].choice, -1); // left to its tooltip
        QVERIFY(placed[0].box.isEmpty());
    }

    void boxesOutsideTheAxesOrOverAnObstacleAreNotTaken() {
        const QRectF bounds(0, 0, 400, 300);
        const std::vector<PlacedLabel> placed =
            placeLabels({candidate(0, {QRectF(-20, 10, 100, 20), QRectF(380, 10, 100, 20),
                                       QRectF(10, 10, 100, 20), QRectF(10, 100, 100, 20)})},
                        bounds, {QRectF(0, 0, 50, 50)});
        QCOMPARE(placed[0].choice, 3); // cut at the axis, past the right edge, over the obstacle: no
        // boxes that only touch do not collide
        const std::vector<PlacedLabel> touching = placeLabels(
            {candidate(0, {QRectF(0, 0, 50, 20)}), candidate(0, {QRectF(50, 0, 50, 20)})}, bounds);
        QCOMPARE(touching[1].choice, 0);
    }

    void labelsStepAsideFromMarkersWhenTheyCan() {
        const QRectF bounds(0, 0, 400, 300);
        const std::vector<QRectF> markers = {QRectF(20, 12, 8, 8), QRectF(60, 44, 8, 8),
                                             QRectF(200, 44, 8, 8), QRectF(160, 20, 8, 8)};
        const std::vector<PlacedLabel> placed = placeLabels(
            {candidate(5, {QRectF(10, 10, 100, 20), QRectF(10, 40, 100, 20), QRectF(10, 70, 100, 20)}),
             // every box over a marker: shown all the same, over the fewest
             candidate(0, {QRectF(150, 10, 100, 60), QRectF(190, 40, 30, 20)})},
            bounds, {}, markers);
        QCOMPARE(placed[0].choice, 2); // the first two cover a point each
        QCOMPARE(placed[1].choice, 1); // one point rather than two
        QCOMPARE(placed[1].box, QRectF(190, 40, 30, 20));
        QCOMPARE(placed[0].coveredMarkers, 0);
        QCOMPARE(placed[1].coveredMarkers, 1); // said, so that the plot draws it over a veil
        // without markers: the first free box, as before
        QCOMPARE(
            placeLabels({candidate(5, {QRectF(10, 10, 100, 20), QRectF(10, 40, 100, 20)})}, bounds)[0].choice,
            0);
        // a marker never hides a label: a label with one box over a marker keeps it
        QCOMPARE(placeLabels({candidate(0, {QRectF(10, 10, 100, 20)})}, bounds, {}, markers)[0].choice, 0);
    }

    void labelsKeepOffLinesWhenTheyCan() {
        const QRectF bounds(0, 0, 400, 300);
        // a roof: up a slope to a knee at (100, 50), then flat to the right edge
        const Polyline roof = {QPointF(0, 150), QPointF(100, 50), QPointF(400, 50)};
        QVERIFY(crosses(roof, QRectF(90, 40, 20, 20)));    // over the knee
        QVERIFY(crosses(roof, QRectF(200, 45, 50, 10)));   // along the flat part, no sample inside
        QVERIFY(crosses(roof, QRectF(20, 110, 30, 10)));   // across the slope between two samples
        QVERIFY(!crosses(roof, QRectF(200, 56, 100, 14))); // under the flat part
        QVERIFY(!crosses(roof, QRectF(10, 60, 40, 14)));   // above the slope
        QVERIFY(crosses(Polyline{QPointF(5, 5)}, QRectF(0, 0, 10, 10)));
        // the first box crosses the roof, the second is free: the second
        const std::vector<PlacedLabel> placed = placeLabels(
            {candidate(0, {QRectF(200, 40, 100, 14), QRectF(200, 56, 100, 14)})}, bounds, {}, {}, {roof});
        QCOMPARE(placed[0].choice, 1);
        // a line costs more than a marker: over one marker rather than across the roof
        const std::vector<QRectF> markers = {QRectF(250, 60, 8, 8)};
        QCOMPARE(placeLabels({candidate(0, {QRectF(200, 40, 100, 14), QRectF(200, 56, 100, 14)})}, bounds, {},
                             markers, {roof})[0]
                     .choice,
                 1);
        // but across it rather than over four markers, and across it when no box is free of it
        const std::vector<QRectF> four = {QRectF(210, 60, 8, 8), QRectF(230, 60, 8, 8), QRectF(250, 60, 8, 8),
                                          QRectF(270, 60, 8, 8)};
        QCOMPARE(placeLabels({candidate(0, {QRectF(200, 56, 100, 14), QRectF(200, 40, 100, 14)})}, bounds, {},
                             four, {roof})[0]
                     .choice,
                 1);
        // struck where it must be, and said so (the plot draws it over a veil); not struck when free
        const PlacedLabel struck =
            placeLabels({candidate(0, {QRectF(200, 40, 100, 14)})}, bounds, {}, {}, {roof})[0];
        QCOMPARE(struck.choice, 0);
        QVERIFY(struck.struck);
        QVERIFY(!placeLabels({candidate(0, {QRectF(200, 56, 100, 14)})}, bounds, {}, {}, {roof})[0].struck);
        QVERIFY(!placeLabels({candidate(0, {QRectF(200, 56, 100, 14)})}, bounds, {}, four, {roof})[0].struck);
        // a box whose padding alone reaches the line: its text does not cross it
        LabelCandidates padded = candidate(0, {QRectF(200, 46, 100, 20), QRectF(200, 70, 100, 20)});
        QCOMPARE(placeLabels({padded}, bounds, {}, {}, {roof})[0].choice, 1);
        padded.inks = {QRectF(200, 52, 100, 14), QRectF(200, 76, 100, 14)};
        QCOMPARE(placeLabels({padded}, bounds, {}, {}, {roof})[0].choice, 0);
        // a line is as wide as a roof's pen: a text 1 px under it is struck
        QCOMPARE(placeLabels({candidate(0, {QRectF(200, 51, 100, 14), QRectF(200, 70, 100, 14)})}, bounds, {},
                             {}, {roof})[0]
                     .choice,
                 1);
        // a label that keeps off lines is left out rather than struck (another roof's peak label)
        LabelCandidates roofLabel = candidate(0, {QRectF(200, 40, 100, 14)});
        roofLabel.keepOffLines = true;
        QCOMPARE(placeLabels({roofLabel}, bounds, {}, {}, {roof})[0].choice, -1);
        roofLabel.boxes.push_back(QRectF(200, 70, 100, 14));
        QCOMPARE(placeLabels({roofLabel}, bounds, {}, {}, {roof})[0].choice, 1);
    }

    void placedBoxesNeverIntersectAndStayInside() {
        std::mt19937 random(28);
        std::uniform_real_distribution<double> x(-50, 600), y(-50, 450), w(10, 160), h(8, 30);
        const QRectF bounds(0, 0, 560, 400);
        for (int round = 0; round < 20; ++round) {
            std::vector<LabelCandidates> labels(60);
            for (LabelCandidates& label : labels) {
                label.priority = int(random() % 5);
                for (int i = 0; i < 4; ++i)
                    label.boxes.push_back(QRectF(x(random), y(random), w(random), h(random)));
            }
            const std::vector<PlacedLabel> placed = placeLabels(labels, bounds);
            int shown = 0;
            for (size_t a = 0; a < placed.size(); ++a) {
                if (placed[a].choice < 0) continue;
                ++shown;
                QCOMPARE(placed[a].box, labels[a].boxes[size_t(placed[a].choice)]);
                QVERIFY(bounds.contains(placed[a].box));
                for (size_t b = a + 1; b < placed.size(); ++b)
                    if (placed[b].choice >= 0) QVERIFY(!rectsOverlap(placed[a].box, placed[b].box));
            }
            QVERIFY(shown > 5);
        }
    }
};

ROOFTOP_TEST_CLASS(TestLabelPlacement)
#include "test_label_placement.moc"
