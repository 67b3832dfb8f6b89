// SPDX-License-Identifier: GPL-3.0-or-later
// Where a predictor's runs lie and how its spread widens away from them (core/learn/run_coverage.h).
#include "core/learn/run_coverage.h"
#include "support/test_registry.h"

#include <QTest>
#include <cmath>

using namespace rooftop;

namespace {

Position at(double x, double y = 0.0) {
    Position p{};
    p[0] = x;
    p[1] = y;
    return p;
}

} // namespace

class TestRunCoverage : public QObject {
    Q_OBJECT

private slots:
    // Four runs on a line 0.1 apart in two folds (0, 1, 0, 1): each held-out run's nearest run of the other
    // fold lies 0.1 away, so the held-out distance is 0.1; the factor is 1/2 at a run, 1 at 0.1, 2.05 at 0.3
    // away.
    void factorGrowsWithTheDistanceToTheNearestRun() {
        const RunCoverage c = runCoverage({at(0.0), at(0.1), at(0.2), at(0.3)}, {0, 1, 0, 1});
        QCOMPARE(c.positions.size(), size_t(4));
        QVERIFY(std::abs(c.heldOutDistance - 0.1) < 1e-12);
        const Position run = at(0.2), heldOut = at(0.2, 0.1), far = at(0.6);
        QVERIFY(std::abs(c.spreadFactor(run.data()) - 0.5) < 1e-12);
        QVERIFY(std::abs(c.spreadFactor(heldOut.data()) - 1.0) < 1e-12);
        QVERIFY(std::abs(c.nearest(far.data()) - 0.3) < 1e-12);
        QVERIFY(std::abs(c.spreadFactor(far.data()) - std::sqrt(0.25 + 0.75 * 9.0)) < 1e-12);
    }

    // Repeats of one configuration: their held-out twins lie at distance 0, which must not make the rest of
    // the space look infinitely far; the distinct positions are kept once.
    void repeatsKeepAFloorAndCollapse() {
        const RunCoverage c = runCoverage({at(0.5), at(0.5), at(0.5), at(0.5)}, {0, 1, 0, 1});
        QCOMPARE(c.heldOutDistance, minimumHeldOutDistance);
        QCOMPARE(c.positions.size(), size_t(1));
        const Position near = at(0.55);
        QVERIFY(std::abs(c.spreadFactor(near.data()) - 1.0) < 1e-12);
    }

    // Unknown coverage (a file from before it, one fold, or more distinct runs than kept) leaves the
    // factor 1.
    void unknownCoverageLeavesTheSpread() {
        const Position p = at(0.3);
        QCOMPARE(RunCoverage{}.spreadFactor(p.data()), 1.0);
        const RunCoverage oneFold = runCoverage({at(0.0), at(0.1)}, {0, 0});
        QCOMPARE(oneFold.spreadFactor(p.data()), 1.0);
        std::vector<Position> many;
        std::vector<int> fold;
        for (size_t i = 0; i <= coveragePositionLimit; ++i) {
            many.push_back(at(double(i) * 1e-3));
            fold.push_back(int(i % 5));
        }
        const RunCoverage dense = runCoverage(many, fold);
        QVERIFY(dense.positions.empty());
        QCOMPARE(dense.spreadFactor(p.data()), 1.0);
    }
};

ROOFTOP_TEST_CLASS(TestRunCoverage)
#include "test_run_coverage.moc"
