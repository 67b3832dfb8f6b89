// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop plan's searches judged on the other physics (tests/support/other_physics_board.h), never on
// Rooftop's own prediction: the truth is the noise-free physics of both workloads in all 4,368 modes of the
// AGX Orin 64GB grid, simulated on the same arrival streams; the searches see only noisy runs. Fulcrum's
// claims are the targets: within 7 % of the exhaustive optimum's training throughput, budgets met in at least
// 97 % of seeded simulations, GMD profiling at most 15 modes, ALS 50-150.
#include "core/common/errors.h"
#include "core/device/ceilings.h"
#include "core/device/mode_set.h"
#include "core/learn/learn_points.h"
#include "core/learn/predictor_file.h"
#include "core/plan/plan_margins.h"
#include "core/plan/plan_profiler.h"
#include "core/plan/plan_rendering.h"
#include "core/plan/plan_search.h"
#include "core/plan/plan_session.h"
#include "core/platform/mode_switcher.h"
#include "core/platform/restore_journal.h"
#include "support/device_fixtures.h"
#include "support/other_physics_board.h"
#include "support/simulated_helper.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QTest>
#include <cmath>
#include <cstdio>
#include <map>

using namespace rooftop;

namespace {

const std::vector<int64_t> batches = {1, 2, 4, 8, 16};
constexpr int64_t trainingBatch = 16;

struct Models {
    std::map<int64_t, Workload> inference;
    Workload training;
};

const Models& models() {
    static const Models m = [] {
        Models out;
        for (int64_t b : batches) {
            AnalysisSettings s;
            s.dims.batch = b;
            out.inference.emplace(b, test::analyzeSample("mobilenet_v2", s));
        }
        AnalysisSettings t;
        t.phase = Phase::Training;
        t.optimizer = Optimizer::Adam;
        t.dims.batch = trainingBatch;
        out.training = test::analyzeSample("resnet18", t);
        return out;
    }();
    return m;
}

const PlanSpace& priorSpace() {
    static const PlanSpace space = buildPlanSpace(
        test::shippedAgxOrin(), findRuntime("tensorrt"), gridPowerModes(test::shippedAgxOrin()), batches,
        trainingBatch, Precision::FP32, [](int64_t b) -> const Workload& { return models().inference.at(b); },
        models().training, nullptr);
    return space;
}

// The prior's space as a plan that measures its workloads searches it: the idle power at its upper bound at
// 90 %.
const PlanSpace& measuredPlanSpace() {
    static const PlanSpace space =
        withIdleMargin(priorSpace(), planMargins(nullptr, 0.9, nullptr, batches, trainingBatch));
    return space;
}

// The prior's space with every cost replaced by the other physics' noise-free answer, idle power included.
const PlanSpace& truthSpace() {
    static const PlanSpace space = [] {
        PlanSpace t = priorSpace();
        const DeviceSpec& device = test::shippedAgxOrin();
        for (PlanModeCosts& c : t.modes) {
            for (size_t b = 0; b < batches.size(); ++b) {
                const test::OtherPhysicsTruth truth =
                    test::otherPhysicsTruth(device, models().inference.at(batches[b]), c.mode);
                c.inferenceSeconds[b] = truth.seconds;
                c.inferenceWatts[b] = truth.watts;
            }
            const test::OtherPhysicsTruth step = test::otherPhysicsTruth(device, models().training, c.mode);
            c.trainingSeconds = step.seconds;
            c.trainingWatts = step.watts;
            c.idleWatts = test::otherPhysicsIdleWatts(device, c.mode);
            c.provenance = "truth";
            if (getenv("PLAN_DEBUG"))
                std::printf("idle %s: truth %.2f W, prior %.2f W\n", c.mode.name.c_str(), c.idleWatts,
                            priorSpace().modes[&c - t.modes.data()].idleWatts);
        }
        return t;
    }();
    return space;
}

// The other physics for both workloads, with 2 % run noise seeded by `seed`.
struct PhysicsBoards {
    test::OtherPhysicsBoard inference, training;
    explicit PhysicsBoards(uint64_t seed)
        : inference(test::shippedAgxOrin(), inferenceCounts(), seed),
          training(test::shippedAgxOrin(), {{{trainingBatch, Precision::FP32}, models().training}},
                   seed + 7) {}
    static test::OtherPhysicsBoard::Counts inferenceCounts() {
        test::OtherPhysicsBoard::Counts c;
        for (int64_t b : batches)
            c.emplace(std::make_pair(b, Precision::FP32), models().inference.at(b));
        return c;
    }
};

PlanSimulation simulation(double rate, int streams, int first, int checkStreams = 0) {
    ArrivalSpec a;
    a.kind = ArrivalSpec::Kind::Poisson;
    a.rate = rate;
    PlanSimulation sim;
    sim.rate = rate;
    sim.options.durationSeconds = 20.0;
    sim.options.seed = 11 + static_cast<uint64_t>(first);
    for (int i = 0; i < streams; ++i)
        sim.arrivals.push_back(planArrivals(a, 20.0, 3, first + i));
    for (int i = 0; i < checkStreams; ++i) // the search's own check, on streams apart from the judge's
        sim.checkArrivals.push_back(planArrivals(a, 20.0, 3, 2000 + i));
    return sim;
}

struct Scenario {
    const char* name;
    double rate;
    double sloMs;
    double capFraction; // of the unconstrained truth optimum's average power; 0: no cap
};

struct Judged {
    double throughput = 0; ///< true minibatches/s of the plan
    bool feasible = false; ///< within the budgets on the truth's planning streams
    double metPct = 0;     ///< of 100 fresh streams, simulated with the truth, within the budgets
    double watts = 0;      ///< the true average power on the planning streams (the worst of them)
};

Judged judge(const PlanCandidate& plan, const PlanBudgets& budgets, double rate) {
    Judged j;
    const PlanSpace& truth = truthSpace();
    const ConfigResult r = evaluateConfig(truth, truth.modes[plan.mode], plan.result.batchIndex, budgets,
                                          simulation(rate, 3, 0));
    j.throughput = r.stats.minibatchesPerSecond;
    j.feasible = r.feasible;
    j.watts = r.worstWatts;
    const PlanSimulation fresh = simulation(rate, 100, 500);
    int met = 0;
    ScheduleOptions o = fresh.options;
    o.sloSeconds = budgets.sloSeconds;
    const ScheduleCosts c = scheduleCosts(truth, truth.modes[plan.mode], plan.result.batchIndex);
    for (size_t i = 0; i < fresh.arrivals.size(); ++i) {
        o.seed = 1000 + i;
        const ScheduleStats s = simulateSchedule(fresh.arrivals[i], c, o);
        if (s.violationPct <= budgets.maxViolationPct &&
            (!budgets.powerCapWatts || s.averageWatts <= *budgets.powerCapWatts))
            ++met;
    }
    j.metPct = met;
    return j;
}

/// A predictor of the inference model from 20 grid modes run on the other physics, the batches cycled.
Predictor inferencePredictor(const std::vector<int64_t>& runBatches) {
    const DeviceSpec& device = test::shippedAgxOrin();
    std::vector<MeasuredRun> runs;
    size_t i = 0;
    for (const PowerMode& mode : modesFor(device, "sample:20", std::nullopt, 9)) {
        MeasuredRun run;
        run.mode = mode;
        run.batch = runBatches[i++ % runBatches.size()];
        const RunResult r = test::otherPhysics(device, models().inference.at(run.batch), mode, 13);
        run.latencySeconds = r.latencyMs * 1e-3;
        run.watts = *r.powerW;
        runs.push_back(run);
    }
    return learnPredictor(
        learnPoints(device, findRuntime("tensorrt"), runs,
                    [](int64_t b, Precision) -> const Workload& { return models().inference.at(b); }));
}

} // namespace

class TestPlanSearch : public QObject {
    Q_OBJECT

private slots:
    void searchesComeCloseToTheTrueOptimum() {
        const Scenario scenarios[] = {{"30 req/s, SLO 100 ms", 30, 100, 0},
                                      {"30 req/s, SLO 100 ms, cap 60 %", 30, 100, 0.6},
                                      {"60 req/s, SLO 150 ms, cap 75 %", 60, 150, 0.75}};
        int plans = 0, within = 0;
        double ratioSum = 0;
        std::printf("\n%-34s %-10s %9s %8s %9s %8s %7s %8s\n", "scenario", "strategy", "profiled", "true/opt",
                    "feasible", "met %", "seed", "cap %");
        for (const Scenario& sc : scenarios) {
            PlanBudgets budgets;
            budgets.sloSeconds = sc.sloMs / 1e3;
            const PlanSimulation sim = simulation(sc.rate, 3, 0, 100);
            PlanSearchOptions exhaustive;
            if (sc.capFraction > 0) {
                const PlanOutcome free = runPlanSearch(truthSpace(), budgets, sim, exhaustive, nullptr);
                QVERIFY(free.plan);
                budgets.powerCapWatts = sc.capFraction * free.candidates[*free.plan].result.worstWatts;
            }
            const PlanOutcome optimum = runPlanSearch(truthSpace(), budgets, sim, exhaustive, nullptr);
            QVERIFY2(optimum.plan, sc.name);
            const double best = optimum.candidates[*optimum.plan].result.stats.minibatchesPerSecond;
            QVERIFY(best > 0);

            const PlanOutcome prior = runPlanSearch(priorSpace(), budgets, sim, exhaustive, nullptr);
            if (prior.plan) {
                const Judged p = judge(prior.candidates[*prior.plan], budgets, sc.rate);
                std::printf("%-34s %-10s %9d %8.3f %9s %8.0f %7s\n", sc.name, "prior", 0, p.throughput / best,
                            p.feasible ? "yes" : "NO", p.metPct, "-");
            }
            for (PlanStrategy strategy : {PlanStrategy::Gmd, PlanStrategy::Als})
                for (uint64_t seed : {1, 2}) {
                    PhysicsBoards boards(seed);
                    PlanProfilerEnvironment env;
                    env.inference = &boards.inference;
                    env.training = &boards.training;
                    env.settleSeconds = 0;
                    // as plan's session: the runs measure the workloads, idle power stays an estimate
                    const PlanSpace& space = measuredPlanSpace();
                    RunnerModeProfiler profiler(test::shippedAgxOrin(), space, env);
                    PlanSearchOptions options;
                    options.strategy = strategy;
                    options.seed = seed;
                    const PlanOutcome out = runPlanSearch(space, budgets, sim, options, &profiler);
                    QVERIFY2(out.plan, sc.name);
                    const Judged j = judge(out.candidates[*out.plan], budgets, sc.rate);
                    std::printf("%-34s %-10s %9d %8.3f %9s %8.0f %7d %+8.1f\n", sc.name,
                                planStrategyName(strategy), out.profiledModes, j.throughput / best,
                                j.feasible ? "yes" : "NO", j.metPct, static_cast<int>(seed),
                                budgets.powerCapWatts ? 100 * (j.watts / *budgets.powerCapWatts - 1) : 0.0);
                    if (getenv("PLAN_DEBUG")) {
                        const PlanCandidate& c = out.candidates[*out.plan];
                        const PlanCandidate& o = optimum.candidates[*optimum.plan];
                        std::printf(
                            "  plan %s b%lld measured %.3f /s %.2f W; optimum %s b%lld %.3f /s %.2f W cap "
                            "%.2f\n",
                            space.modes[c.mode].mode.name.c_str(), (long long)batches[c.result.batchIndex],
                            c.result.stats.minibatchesPerSecond, c.result.worstWatts,
                            space.modes[o.mode].mode.name.c_str(), (long long)batches[o.result.batchIndex],
                            o.result.stats.minibatchesPerSecond, o.result.worstWatts,
                            budgets.powerCapWatts ? *budgets.powerCapWatts : 0.0);
                    }
                    ++plans;
                    ratioSum += j.throughput / best;
                    if (j.throughput >= 0.93 * best) ++within;
                    QVERIFY2(j.metPct >= 97, sc.name);
                    // the true idle power is not Rooftop's: the cap holds only if its estimate carries a
                    // margin
                    if (budgets.powerCapWatts) QVERIFY2(j.watts <= *budgets.powerCapWatts, sc.name);
                    if (strategy == PlanStrategy::Gmd) QVERIFY(out.profiledModes <= 15);
                    if (strategy == PlanStrategy::Als) {
                        QVERIFY(out.profiledModes >= 50);
                        QVERIFY(out.profiledModes <= 150);
                        QVERIFY(!out.pareto.empty());
                    }
                    QCOMPARE(profiler.runs(), out.profiledModes * static_cast<int>(batches.size() + 1));
                }
        }
        std::printf("within 7 %% of the true optimum: %d of %d plans; on average %.3f of it\n", within, plans,
                    ratioSum / plans);
        // Fulcrum's claim is an average: within 7 % of the optimum on average, budgets met in over 97 % (each
        // plan's budgets are checked above). Plan by plan, a few percent of run noise moves a schedule's
        // throughput across batch thresholds (docs/plan.md gives the count)
        QVERIFY(ratioSum / plans >= 0.93);
    }

    // A plan on estimated costs (the prior, or a 20-run predictor of the inference model) meets the cap with
    // their upper bounds at 90 %: the true average power stays within the cap + 2 % in every case.
    void estimatedPlansKeepTheCap() {
        const DeviceSpec& device = test::shippedAgxOrin();
        const Predictor predictor = inferencePredictor(batches);
        const PlanSpace predicted = buildPlanSpace(
            device, findRuntime("tensorrt"), gridPowerModes(device), batches, trainingBatch, Precision::FP32,
            [](int64_t b) -> const Workload& { return models().inference.at(b); }, models().training,
            &predictor);
        struct Case {
            double rate, sloMs, capFraction;
        };
        const Case cases[] = {{30, 100, 0.5}, {30, 100, 0.6},  {30, 100, 0.75}, {30, 100, 0.9},
                              {60, 150, 0.6}, {60, 150, 0.75}, {60, 150, 0.9}};
        int planned = 0, kept = 0, advised = 0;
        double worst = -1.0;      // the largest true excess over the cap
        double freshKept = 100.0; // the least share of fresh streams a plan truly kept the budgets in
        for (const Case& c : cases)
            for (const PlanSpace* space : {&priorSpace(), &predicted}) {
                PlanBudgets budgets;
                budgets.sloSeconds = c.sloMs / 1e3;
                const PlanSimulation sim = simulation(c.rate, 3, 0, 100);
                const PlanOutcome free = runPlanSearch(truthSpace(), budgets, sim, {}, nullptr);
                QVERIFY(free.plan);
                budgets.powerCapWatts = c.capFraction * free.candidates[*free.plan].result.worstWatts;
                PlanReport report;
                report.space = *space;
                report.budgets = budgets;
                report.margins = planMargins(space == &predicted ? &predictor : nullptr, 0.9, nullptr,
                                             space->inferenceBatches, space->trainingBatch);
                planOnEstimates(report, sim, {});
                advised += !report.advice.empty();
                if (!report.outcome.plan) {
                    std::printf("%s, %.0f req/s, cap %.0f %%: no plan with the margin\n",
                                space == &predicted ? "predictor" : "prior", c.rate, 100 * c.capFraction);
                    continue;
                }
                ++planned;
                const PlanCandidate& plan = report.outcome.candidates[*report.outcome.plan];
                const ConfigResult truth = evaluateConfig(truthSpace(), truthSpace().modes[plan.mode],
                                                          plan.result.batchIndex, budgets, sim);
                const double over = truth.worstWatts / *budgets.powerCapWatts - 1.0;
                worst = std::max(worst, over);
                kept += over <= 0.02;
                // and on 100 streams neither the search nor its check saw, with the true costs
                const Judged j = judge(plan, budgets, c.rate);
                freshKept = std::min(freshKept, j.metPct);
                QVERIFY(report.atEstimates);
                std::printf(
                    "%s, %.0f req/s, cap %.1f W (%.0f %%): estimated %.2f W, bound %.2f W, true %.2f W "
                    "(%+.1f %%), budgets truly kept in %.0f %% of fresh streams%s\n",
                    space == &predicted ? "predictor" : "prior", c.rate, *budgets.powerCapWatts,
                    100 * c.capFraction, report.atEstimates->worstWatts, plan.result.worstWatts,
                    truth.worstWatts, 100 * over, j.metPct,
                    report.advice.empty() ? "" : ", advice to measure");
            }
        std::printf(
            "plans on estimates: %d of %d planned, %d within the cap + 2 %% (worst %+.1f %%), %d advise "
            "measuring\n",
            planned, int(2 * sizeof cases / sizeof *cases), kept, 100 * worst, advised);
        QVERIFY(planned > 0);
        QCOMPARE(kept, planned);
        QVERIFY2(freshKept >= keptShareRequired, qPrintable(QString::number(freshKept)));
    }

    // A predictor's runs say nothing of a batch they never ran: at batch 8 from batch-1 runs the margin is
    // its cross-validated error plus 10 % a doubling (3 doublings), in the power bound and in the SLO's time
    // margin; a plan at a precision its runs did not run is refused.
    void aBatchBeyondThePredictorsRunsWidensTheMargin() {
        const Predictor predictor = inferencePredictor({1});
        QVERIFY(predictor.powerLearned);
        const PredictionSpread cv = predictor.cvSpread();
        const PlanMargins m = planMargins(&predictor, 0.9, nullptr, {1, 8}, trainingBatch);
        QCOMPARE(m.inferenceByBatch.size(), size_t(2));
        QCOMPARE(m.inferenceByBatch[0].latency, cv.latency);
        QCOMPARE(m.inferenceByBatch[0].power, cv.power);
        QVERIFY(std::abs(m.inferenceByBatch[1].latency - (cv.latency + 0.3)) < 1e-12);
        QVERIFY(std::abs(m.inferenceByBatch[1].power - (cv.power + 0.3)) < 1e-12);
        QVERIFY(std::abs(planSloFactor(m) -
                         upperBound(1.0, std::max(cv.latency + 0.3, m.training.latency), 0.9)) < 1e-12);
        QVERIFY2(m.basis.find("at batch 8, beyond its runs' batches (1") != std::string::npos,
                 m.basis.c_str());
        QVERIFY2(m.basis.find("at batch 1,") == std::string::npos, m.basis.c_str());
        PlanModeCosts costs;
        costs.inferenceWatts = {10.0, 10.0};
        const PlanModeCosts bounded = withMargin(costs, m);
        QVERIFY(std::abs(bounded.inferenceWatts[0] - upperBound(10.0, cv.power, 0.9)) < 1e-9);
        QVERIFY(std::abs(bounded.inferenceWatts[1] - upperBound(10.0, cv.power + 0.3, 0.9)) < 1e-9);
        // inside the runs' batches nothing widens
        const PlanMargins inside = planMargins(&predictor, 0.9, nullptr, {1}, trainingBatch);
        QCOMPARE(planSloFactor(inside), upperBound(1.0, std::max(cv.latency, inside.training.latency), 0.9));
        bool refused = false;
        try {
            checkPredictorPrecision(predictor, "p.json", Precision::FP16, "the plan");
        } catch (const InputError& e) {
            refused = std::string(e.what()) ==
                      "p.json: the predictor's runs ran fp32, and the plan counts at fp16 (give --precision "
                      "fp32, or learn one from runs at fp16)";
            if (!refused) qWarning("%s", e.what());
        }
        QVERIFY(refused);
        checkPredictorPrecision(predictor, "p.json", Precision::FP32, "the plan"); // its own: no error
    }

    // A cancelled plan on estimates says so: neither a plan nor "no configuration" rests on a search that
    // did not end.
    void aCancelledSearchSaysItDidNotEnd() {
        PlanBudgets budgets;
        budgets.sloSeconds = 0.1;
        PlanReport report;
        report.space = priorSpace();
        report.budgets = budgets;
        report.margins = planMargins(nullptr, 0.9, nullptr, report.space.inferenceBatches, trainingBatch);
        std::atomic<bool> cancel{true};
        planOnEstimates(report, simulation(30, 1, 0), {}, {}, &cancel);
        QVERIFY(report.outcome.cancelled);
        QVERIFY(!report.outcome.plan);
        QVERIFY2(report.outcome.stopReason.find("cancelled") != std::string::npos,
                 report.outcome.stopReason.c_str());
        QVERIFY(report.advice.empty());
        const PlanRendering shown = renderPlan(report, 5);
        QVERIFY2(shown.headline.rfind("Cancelled before the search ended", 0) == 0 &&
                     shown.headline.find("No configuration") == std::string::npos,
                 shown.headline.c_str());
    }

    // Switching through the fixture Jetson tree and the simulated helper: a failing run makes a failed
    // profile and the search goes on; a runner that throws ends it; either way the original mode comes back.
    void theModeIsRestoredWhenARunFails() {
        const DeviceSpec& device = test::shippedAgxOrin();
        std::vector<PowerMode> modes = stockPowerModes(device);
        const std::vector<PowerMode> grid = gridPowerModes(device);
        for (size_t i = 0; i < grid.size(); i += 997)
            modes.push_back(grid[i]);
        const PlanSpace space = buildPlanSpace(
            device, findRuntime("tensorrt"), modes, batches, trainingBatch, Precision::FP32,
            [](int64_t b) -> const Workload& { return models().inference.at(b); }, models().training,
            nullptr);
        PlanBudgets budgets;
        budgets.sloSeconds = 0.1;
        for (bool throwing : {false, true}) {
            test::BoardCopy copy("agx-orin-jp6");
            test::SimulatedHelper helper(copy.root());
            JetsonModeSwitcher switcher(copy.root(), helper);
            RestoreJournal journal(copy.dir.filePath("journal").toStdString());
            PhysicsBoards boards(3);
            bool journalled = true;
            boards.inference.hook = [&](const RunConfig&) -> std::optional<RunResult> {
                journalled = journalled && journal.pending().has_value();
                if (boards.inference.runs == 8) {
                    if (throwing) throw std::runtime_error("runner crashed");
                    return RunResult::failed("engine build failed");
                }
                return std::nullopt;
            };
            PlanProfilerEnvironment env;
            env.inference = &boards.inference;
            env.training = &boards.training;
            env.switcher = &switcher;
            env.journal = &journal;
            env.sleep = [](double) {};
            PlanSearchOptions options;
            options.strategy = PlanStrategy::Als; // its initial design profiles several modes at once
            options.maxProfiles = 4;
            bool threw = false;
            try {
                RunnerModeProfiler profiler(device, space, env);
                const PlanOutcome out =
                    runPlanSearch(space, budgets, simulation(30, 1, 0), options, &profiler);
                profiler.restore();
                QVERIFY(out.failedProfiles >=
                        1); // also a mode that needs a reboot (TPC gating) fails its switch
                QVERIFY(std::any_of(out.notes.begin(), out.notes.end(), [](const std::string& n) {
                    return n.find("engine build failed") != std::string::npos;
                }));
                QVERIFY(out.profiledModes >= 2 && out.profiledModes <= 4);
            } catch (const std::runtime_error& error) {
                threw = true;
                QCOMPARE(std::string(error.what()), std::string("runner crashed"));
            }
            QCOMPARE(threw, throwing);
            QVERIFY(journalled);
            QCOMPARE(switcher.currentStockId(), std::optional<int>(0));
            QCOMPARE(switcher.observe().gpuMaxHz, int64_t(1300500000));
            QVERIFY(!journal.pending());
        }
    }
};

ROOFTOP_TEST_CLASS(TestPlanSearch)
#include "test_plan_search.moc"
