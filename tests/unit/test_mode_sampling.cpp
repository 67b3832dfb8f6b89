// SPDX-License-Identifier: GPL-3.0-or-later
// The sample:N mode set: N distinct grid modes, in grid order, drawn by SplitMix64 from the seed — the same
// modes for the same seed on every platform (pinned against the reference SplitMix64 sequence), others for
// another seed, every grid mode reachable; bad N and boards without a grid fail with one line.
#include "core/common/errors.h"
#include "core/common/splitmix.h"
#include "core/device/catalog.h"
#include "core/device/mode_set.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"

#include <QtTest>
#include <set>

using namespace rooftop;
using rooftop::test::shippedAgxOrin;
using rooftop::test::shippedCatalog;

namespace {

std::vector<std::string> names(const std::vector<PowerMode>& modes) {
    std::vector<std::string> out;
    for (const PowerMode& m : modes)
        out.push_back(m.name);
    return out;
}

size_t gridIndex(const std::vector<PowerMode>& grid, const PowerMode& mode) {
    for (size_t i = 0; i < grid.size(); ++i)
        if (grid[i].name == mode.name) return i;
    return grid.size();
}

} // namespace

class ModeSampling : public QObject {
    Q_OBJECT
private slots:
    void splitMixMatchesTheReferenceSequence() {
        // the published SplitMix64 outputs for seed 0 (Vigna's splitmix64.c)
        SplitMix64 random(0);
        QCOMPARE(random.next(), uint64_t(0xe220a8397b1dcdafULL));
        QCOMPARE(random.next(), uint64_t(0x6e789e6aa1b965f4ULL));
        QCOMPARE(random.next(), uint64_t(0x06c45d188009454fULL));
        SplitMix64 bounded(7);
        for (int i = 0; i < 1000; ++i)
            QVERIFY(bounded.below(13) < 13);
        const double u = bounded.uniform();
        QVERIFY(u >= 0.0 && u < 1.0);
    }

    void sampleIsDistinctGridModesInGridOrder() {
        const std::vector<PowerMode> grid = modesFor(shippedAgxOrin(), "grid");
        const std::vector<PowerMode> sample = modesFor(shippedAgxOrin(), "sample:25", std::nullopt, 0);
        QCOMPARE(sample.size(), size_t(25));
        std::set<std::string> seen;
        size_t previous = 0;
        for (size_t i = 0; i < sample.size(); ++i) {
            QVERIFY(!sample[i].stock);
            const size_t index = gridIndex(grid, sample[i]);
            QVERIFY2(index < grid.size(), sample[i].name.c_str());
            if (i > 0) QVERIFY(index > previous);
            previous = index;
            seen.insert(sample[i].name);
        }
        QCOMPARE(seen.size(), size_t(25));
    }

    void sameSeedSameModesOtherSeedOthers() {
        const auto a = names(modesFor(shippedAgxOrin(), "sample:10", std::nullopt, 42));
        QCOMPARE(names(modesFor(shippedAgxOrin(), "sample:10", std::nullopt, 42)), a);
        QVERIFY(names(modesFor(shippedAgxOrin(), "sample:10", std::nullopt, 43)) != a);
        QCOMPARE(names(modesFor(shippedAgxOrin(), "sample:10")),
                 names(modesFor(shippedAgxOrin(), "sample:10", std::nullopt, 0)));
    }

    void sampleIsPinnedAcrossPlatforms() {
        // the draw is SplitMix64 + multiply-shift + a partial Fisher-Yates: no library distribution, so this
        // list is the same everywhere; it changes only when the grid of the catalog entry changes
        const std::vector<PowerMode> grid = modesFor(shippedAgxOrin(), "grid");
        std::vector<size_t> order(grid.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        SplitMix64 random(5);
        for (size_t i = 0; i < 3; ++i)
            std::swap(order[i], order[i + random.below(order.size() - i)]);
        std::vector<size_t> expected(order.begin(), order.begin() + 3);
        std::sort(expected.begin(), expected.end());
        const auto sample = modesFor(shippedAgxOrin(), "sample:3", std::nullopt, 5);
        QCOMPARE(sample.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i)
            QCOMPARE(sample[i].name, grid[expected[i]].name);
    }

    void wholeGridIsAPermutationBack() {
        const std::vector<PowerMode> grid = modesFor(shippedAgxOrin(), "grid");
        const auto all = modesFor(shippedAgxOrin(), "sample:" + std::to_string(grid.size()), std::nullopt, 9);
        QCOMPARE(names(all), names(grid));
    }

    void drawsCoverTheGridEvenly() {
        // 100 seeds x 100 modes: about 90 % of the grid is reached, and each half gets its share
        const std::vector<PowerMode> grid = modesFor(shippedAgxOrin(), "grid");
        std::set<std::string> drawn;
        size_t lowerHalf = 0, total = 0;
        for (uint64_t seed = 0; seed < 100; ++seed)
            for (const PowerMode& mode : modesFor(shippedAgxOrin(), "sample:100", std::nullopt, seed)) {
                drawn.insert(mode.name);
                lowerHalf += gridIndex(grid, mode) < grid.size() / 2 ? 1 : 0;
                ++total;
            }
        QVERIFY2(drawn.size() > grid.size() * 85 / 100, qPrintable(QString::number(drawn.size())));
        QVERIFY2(std::abs(double(lowerHalf) / double(total) - 0.5) < 0.03,
                 qPrintable(QString::number(lowerHalf)));
    }

    void badSamplesFail() {
        const size_t gridSize = modesFor(shippedAgxOrin(), "grid").size();
        for (const std::string& spec :
             {std::string("sample:0"), std::string("sample:"), std::string("sample:x"),
              std::string("sample:-3"), std::string("sample:2.5"), "sample:" + std::to_string(gridSize + 1),
              std::string("sample:99999999999999999999")})
            QVERIFY_EXCEPTION_THROWN(modesFor(shippedAgxOrin(), spec), InputError);
        for (const DeviceSpec& device : shippedCatalog())
            if (device.grid.gpuHz.empty()) {
                QVERIFY_EXCEPTION_THROWN(modesFor(device, "sample:1"), InputError);
                return;
            }
    }
};

ROOFTOP_TEST_CLASS(ModeSampling)
#include "test_mode_sampling.moc"
