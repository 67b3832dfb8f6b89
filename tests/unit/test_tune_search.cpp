// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop tune's search judged on the other physics (tests/support/other_physics_board.h), never on
// Rooftop's own prediction: over the AGX Orin 64GB grid x batch {1,2,4,8,16} (21,840 configurations), the
// truth is the noise-free physics evaluated everywhere. Also its mechanics: resume, never twice, the budget,
// an infeasible answer, the mode restored when the runner fails.
#include "core/common/errors.h"
#include "core/device/mode_set.h"
#include "core/measure/runs_file.h"
#include "core/tune/tune_search.h"
#include "support/device_fixtures.h"
#include "support/other_physics_board.h"
#include "support/simulated_helper.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

using namespace rooftop;

namespace {

const std::vector<int64_t> batches = {1, 2, 4, 8, 16};

/// A model on the grid x batches: its counts, the search space with Rooftop's prior, and the truth.
struct ModelSpace {
    test::OtherPhysicsBoard::Counts counts;
    TuneSpace space;
    std::vector<test::OtherPhysicsTruth> truth; ///< per config of the space

    double trueEnergyMj(size_t i) const {
        return truth[i].seconds * 1e3 * truth[i].watts / double(space.configs[i].batch);
    }
    /// The true least energy per inference within a latency SLO.
    double optimumMj(double sloSeconds) const {
        double best = 1e300;
        for (size_t i = 0; i < space.candidates; ++i)
            if (truth[i].seconds <= sloSeconds) best = std::min(best, trueEnergyMj(i));
        return best;
    }
    /// The noise-free latency of the fastest stock mode at batch 1.
    double maxnSeconds() const { return truth[space.baseline].seconds; }
};

ModelSpace makeSpace(const std::string& model, const std::vector<PowerMode>& modes) {
    const DeviceSpec& device = test::shippedAgxOrin();
    ModelSpace m;
    for (int64_t batch : batches) {
        AnalysisSettings settings;
        settings.dims.batch = batch;
        m.counts[{batch, "fp32"}] = test::analyzeSample(model, settings);
    }
    m.space = buildTuneSpace(device, findRuntime("tensorrt"), modes, batches, {"fp32"},
                             [&](int64_t batch, const std::string& p) -> const Workload& {
                                 return m.counts.at({batch, p});
                             });
    test::OtherPhysicsBoard board(device, m.counts, 0);
    for (const TuneConfig& c : m.space.configs)
        m.truth.push_back(board.truth(RunConfig{c.mode, c.batch, c.precision, "inference"}));
    return m;
}

const ModelSpace& gridSpace(const std::string& model) {
    static std::map<std::string, ModelSpace> spaces;
    auto found = spaces.find(model);
    if (found == spaces.end())
        found = spaces.emplace(model, makeSpace(model, gridPowerModes(test::shippedAgxOrin()))).first;
    return found->second;
}

TuneOptions optionsFor(double sloSeconds, int budget, uint64_t seed, TuneMethod method = TuneMethod::Cbo) {
    TuneOptions o;
    o.method = method;
    o.budget = budget;
    o.seed = seed;
    o.limits.latencySloSeconds = sloSeconds;
    o.settleSeconds = 0;
    return o;
}

bool throwsInputError(const std::function<void()>& call, const std::string& fragment) {
    try {
        call();
    } catch (const InputError& error) {
        const std::string what = error.what();
        if (what.find(fragment) != std::string::npos) return true;
        qWarning("unexpected message: %s", what.c_str());
    }
    return false;
}

} // namespace

class TestTuneSearch : public QObject {
    Q_OBJECT

private slots:
    void gridTimesBatchesIs21840() { QCOMPARE(gridSpace("resnet50").space.candidates, size_t(21840)); }

    // The target: budget 15, three models, SLOs of 1.5x and 4x the MAXN batch-1 latency, two seeds: the
    // recommendation within 5 % of the true least energy per inference and truly within the SLO in at least
    // 10 of the 12 runs.
    void cboFindsTheOptimumWithin15Runs() {
        int good = 0, total = 0;
        for (const std::string model : {"resnet50", "mobilenet_v3_large", "efficientnet_b0"}) {
            const ModelSpace& m = gridSpace(model);
            for (double factor : {1.5, 4.0})
                for (uint64_t seed : {1, 2}) {
                    const double slo = factor * m.maxnSeconds();
                    test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, seed);
                    TuneEnvironment env;
                    env.runner = &board;
                    const TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), m.space, env,
                                                          optionsFor(slo, 15, seed), {}, nullptr);
                    QVERIFY(out.samples.size() <= 15);
                    QCOMPARE(board.runs, out.runsMade);
                    const double optimum = m.optimumMj(slo);
                    bool within = false, feasible = false;
                    double energy = std::nan("");
                    if (out.recommended) {
                        const size_t c = out.samples[*out.recommended].config;
                        energy = m.trueEnergyMj(c);
                        within = energy <= 1.05 * optimum;
                        feasible = m.truth[c].seconds <= slo;
                    }
                    good += within && feasible ? 1 : 0;
                    ++total;
                    qInfo("%-18s SLO %.1fx (%.2f ms) seed %d: %2zu runs (%s), true energy %.3f mJ vs optimum "
                          "%.3f mJ (%+.1f %%), %s, %s",
                          model.c_str(), factor, slo * 1e3, int(seed), out.samples.size(),
                          out.stopReason.c_str(), energy, optimum, 100 * (energy / optimum - 1),
                          within ? "within 5 %" : "NOT within 5 %",
                          feasible ? "truly feasible" : "NOT truly feasible");
                }
        }
        qInfo("cbo: %d of %d runs within 5 %% and truly feasible", good, total);
        QVERIFY2(good >= 10, "fewer than 10 of 12 tunes within 5 % of the optimum and feasible");
    }
};

ROOFTOP_TEST_CLASS(TestTuneSearch)
#include "test_tune_search.moc"
