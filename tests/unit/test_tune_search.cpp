// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop tune's search judged on the other physics (tests/support/other_physics_board.h), never on
// Rooftop's own prediction: over the AGX Orin 64GB grid x batch {1,2,4,8,16} (21,840 configurations), the
// truth is the noise-free physics evaluated everywhere. Also its mechanics: resume, never twice, the budget,
// an infeasible answer, the mode restored when the runner fails.
#include "core/common/errors.h"
#include "core/device/mode_set.h"
#include "core/measure/runs_file.h"
#include "core/platform/mode_switcher.h"
#include "core/tune/slo_suggestion.h"
#include "core/tune/tune_search.h"
#include "support/device_fixtures.h"
#include "support/other_physics_board.h"
#include "support/simulated_helper.h"
#include "support/test_registry.h"
#include "support/test_support.h"
#include "support/tune_truth_space.h"

#include <QFile>
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

using ModelSpace = test::TuneTruthSpace;

ModelSpace makeSpace(const std::string& model, const std::vector<PowerMode>& modes) {
    return test::makeTuneTruthSpace(model, modes, batches);
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
    o.batchProbe = !qEnvironmentVariableIsSet("TUNE_NO_PROBE"); // to compare the initial designs
    return o;
}

/// A small space for the mechanics: the stock modes and 20 grid modes x batch {1,2,4,8,16} of resnet50.
const ModelSpace& smallSpace() {
    static const ModelSpace m = [] {
        const DeviceSpec& device = test::shippedAgxOrin();
        std::vector<PowerMode> modes = modesFor(device, "stock");
        for (const PowerMode& mode : modesFor(device, "sample:20", std::nullopt, 3))
            modes.push_back(mode);
        return makeSpace("resnet50", modes);
    }();
    return m;
}

/// The stock modes and one custom mode the AGX Orin fixture tree can switch to, x batch {1, 2}.
const ModelSpace& switchableSpace() {
    static const ModelSpace m = [] {
        const DeviceSpec& device = test::shippedAgxOrin();
        std::vector<PowerMode> modes = modesFor(device, "stock");
        modes.push_back(parseCustomMode(device, "cores=8,cpu=1728000,gpu=612000000,emc=3199000000"));
        return makeSpace("resnet50", modes);
    }();
    return m;
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
    // The SLO the window offers for a tune: 1.5x the fastest stock mode's latency, rounded up to 2
    // significant digits; nothing without a latency
    void theOfferedSloIsHalfAgainTheFastestRoundedUp() {
        QCOMPARE(suggestedLatencySloMs(3.83), 5.8);    // 5.745
        QCOMPARE(suggestedLatencySloMs(123.0), 190.0); // 184.5
        QCOMPARE(suggestedLatencySloMs(0.4), 0.6);     // 0.6 exactly: not raised a step
        QCOMPARE(suggestedLatencySloMs(0.0), 0.0);
        QCOMPARE(suggestedLatencySloMs(-1.0), 0.0);
        QCOMPARE(suggestedLatencySloMs(std::nan("")), 0.0);
    }

    void gridTimesBatchesIs21840() { QCOMPARE(gridSpace("resnet50").space.candidates, size_t(21840)); }

    // The target: budget 15, three models, SLOs of 1.5x and 4x the MAXN batch-1 latency, two seeds: the
    // recommendation within 5 % of the true least energy per inference and truly within the SLO in at least
    // 10 of the 12 runs. TUNE_SEED_OFFSET=K runs seeds K+1 and K+2 instead (other noise draws); TUNE_DEBUG=1
    // prints every sample beside the truth, and every configuration within 5 % of the optimum with its
    // margin.
    void cboFindsTheOptimumWithin15Runs() {
        int good = 0, total = 0;
        for (const std::string model : {"resnet50", "mobilenet_v3_large", "efficientnet_b0"}) {
            if (qEnvironmentVariableIsSet("TUNE_ONLY") && qgetenv("TUNE_ONLY").toStdString() != model)
                continue;
            const ModelSpace& m = gridSpace(model);
            for (double factor : {1.5, 4.0})
                for (uint64_t seed0 : {1, 2}) {
                    const uint64_t seed = seed0 + uint64_t(qEnvironmentVariableIntValue("TUNE_SEED_OFFSET"));
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
                    if (qEnvironmentVariableIsSet("TUNE_DEBUG")) {
                        size_t opt = 0;
                        double e = 1e300;
                        for (size_t i = 0; i < m.space.candidates; ++i)
                            if (m.truth[i].seconds <= slo && m.trueEnergyMj(i) < e) {
                                e = m.trueEnergyMj(i);
                                opt = i;
                            }
                        auto show = [&](const char* what, size_t i) {
                            qInfo("  %s %s b%d: true %.3f ms %.2f W %.3f mJ; prior %.3f ms %.2f W", what,
                                  m.space.configs[i].mode.name.c_str(), int(m.space.configs[i].batch),
                                  m.truth[i].seconds * 1e3, m.truth[i].watts, m.trueEnergyMj(i),
                                  m.space.predictedLatencySeconds(i) * 1e3, m.space.predictedWatts(i));
                        };
                        show("optimum", opt);
                        for (size_t i = 0; i < m.space.candidates; ++i)
                            if (m.truth[i].seconds <= slo && m.trueEnergyMj(i) < 1.05 * e) {
                                show("near", i);
                                qInfo("     %.2f %% under the SLO", 100 * (1 - m.truth[i].seconds / slo));
                            }
                        for (const TuneSample& s : out.samples) {
                            show(s.feasible ? "sample+" : "sample-", s.config);
                            qInfo("     measured %.3f ms %.3f mJ, surrogate %.3f ms %.3f mJ, score %.2g",
                                  s.latencyMs, s.energyMj, s.surrogateLatencyMs, s.surrogateEnergyMj,
                                  s.expectedImprovement);
                        }
                    }
                    good += within && feasible ? 1 : 0;
                    ++total;
                    qInfo("%-18s SLO %.1fx (%.2f ms) seed %d: %2d runs (%d repeats; %s), true energy %.3f mJ "
                          "vs optimum "
                          "%.3f mJ (%+.1f %%), %s, %s",
                          model.c_str(), factor, slo * 1e3, int(seed), out.runsMade, out.repeats,
                          out.stopReason.c_str(), energy, optimum, 100 * (energy / optimum - 1),
                          within ? "within 5 %" : "NOT within 5 %",
                          feasible ? "truly feasible" : "NOT truly feasible");
                }
        }
        qInfo("cbo: %d of %d runs within 5 %% and truly feasible", good, total);
        QVERIFY2(good >= 10, "fewer than 10 of 12 tunes within 5 % of the optimum and feasible");
    }

    // PowerTrain's question through tune: ResNet-50 training steps (minibatch 16, Adam) over the 4,368 grid
    // modes on the other physics, the fastest step under 20 W in 15 runs; judged by the true time and power.
    void aTrainingTuneFindsTheFastestStepUnderACap() {
        const DeviceSpec& device = test::shippedAgxOrin();
        AnalysisSettings settings;
        settings.dims.batch = 16;
        settings.phase = Phase::Training;
        test::OtherPhysicsBoard::Counts counts;
        counts[{16, Precision::FP32}] = test::analyzeSample("resnet50", settings);
        const TuneSpace space =
            buildTuneSpace(device, findRuntime("tensorrt"), gridPowerModes(device), {16}, {Precision::FP32},
                           [&](int64_t batch, Precision p) -> const Workload& {
                               return counts.at({batch, p});
                           });
        const double cap = 20.0;
        test::OtherPhysicsBoard board(device, counts, 3);
        std::vector<test::OtherPhysicsTruth> truth;
        size_t fastest = space.configs.size();
        for (size_t i = 0; i < space.configs.size(); ++i) {
            const TuneConfig& c = space.configs[i];
            truth.push_back(board.truth(RunConfig{c.mode, c.batch, c.precision, Phase::Training, {}}));
            if (truth[i].watts <= cap &&
                (fastest == space.configs.size() || truth[i].seconds < truth[fastest].seconds))
                fastest = i;
        }
        for (const uint64_t seed : {3, 4, 5}) {
            TuneOptions o = optionsFor(10.0, 15, seed); // a loose limit on a minibatch's time
            o.phase = Phase::Training;
            o.objective = Objective::Latency;
            o.limits.powerCapWatts = cap;
            test::OtherPhysicsBoard runs(device, counts, seed);
            TuneEnvironment env;
            env.runner = &runs;
            const TuneOutcome out = runTuneSearch(device, space, env, o, {}, nullptr);
            QVERIFY(out.recommended.has_value());
            const size_t pick = out.samples[*out.recommended].config;
            qInfo("training tune, seed %d, %d runs: pick %s truly %.1f ms at %.2f W; the truly fastest under "
                  "%.0f W: "
                  "%s %.1f ms at %.2f W",
                  int(seed), out.runsMade, space.configs[pick].mode.name.c_str(), truth[pick].seconds * 1e3,
                  truth[pick].watts, cap, space.configs[fastest].mode.name.c_str(),
                  truth[fastest].seconds * 1e3, truth[fastest].watts);
            QVERIFY(truth[pick].watts <= cap * 1.02);
            QVERIFY(truth[pick].seconds <= truth[fastest].seconds * 1.10);
        }
    }

    void neverTwiceAndTheBudgetCountsEveryRun() {
        const ModelSpace& m = smallSpace();
        QTemporaryDir dir;
        for (TuneMethod method : {TuneMethod::Cbo, TuneMethod::Random, TuneMethod::Exhaustive}) {
            test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 4);
            TuneEnvironment env;
            env.runner = &board;
            TuneOptions o = optionsFor(3 * m.maxnSeconds(), 12, 4, method);
            o.earlyStop = false;
            o.runsPath = dir.filePath(QString(tuneMethodName(method)) + ".csv").toStdString();
            const TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr);
            QCOMPARE(out.runsMade, 12);
            QCOMPARE(board.runs, 12);
            int measurements = 0; // repeats (noise near the SLO) are runs of a sample already there
            for (const TuneSample& s : out.samples)
                measurements += s.measurements;
            QCOMPARE(measurements, 12);
            QCOMPARE(int(out.samples.size()) + out.repeats, 12);
            QCOMPARE(out.samples.front().config, m.space.baseline); // the baseline is run first and counted
            QVERIFY(out.baseline.has_value());
            std::set<size_t> seen;
            for (const TuneSample& s : out.samples)
                QVERIFY2(seen.insert(s.config).second, "a configuration was measured twice");
            QCOMPARE(readRunsFile(o.runsPath).size(), size_t(12)); // every run appended
            QCOMPARE(out.stopReason, std::string("budget spent"));
            QVERIFY(out.recommended.has_value());
            for (const TuneSample& s : out.samples) // the answer is the best measured sample within the SLO
                if (s.feasible) QVERIFY(s.energyMj >= out.samples[*out.recommended].energyMj);
            QVERIFY(out.samples[*out.recommended].feasible);
            QVERIFY(out.samples[*out.recommended].latencyMs <= 3 * m.maxnSeconds() * 1e3);
        }
    }

    void exhaustiveMeasuresEverythingOnce() {
        const ModelSpace& m = smallSpace();
        test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 4);
        TuneEnvironment env;
        env.runner = &board;
        const TuneOutcome out =
            runTuneSearch(test::shippedAgxOrin(), m.space, env,
                          optionsFor(3 * m.maxnSeconds(), 1000, 0, TuneMethod::Exhaustive), {}, nullptr);
        QCOMPARE(out.samples.size(), m.space.configs.size());
        QCOMPARE(out.stopReason, std::string("every configuration measured"));
    }

    // The answer meets the limits beyond its run noise when a measured configuration does: a better one whose
    // runs sit 0.5 % under the SLO (within 2 % run noise, even after its repeats) gives way to one 10 %
    // under; alone, it is the answer and the caveat says so.
    void aPickWithinTheNoiseOfTheSloGivesWayToOneBeyondIt() {
        const ModelSpace& m = smallSpace();
        const double slo = 10e-3;
        std::vector<std::string> batchOne; // two modes of the space at batch 1
        for (const TuneConfig& c : m.space.configs)
            if (c.batch == 1 && batchOne.size() < 2 && (batchOne.empty() || batchOne.front() != c.mode.name))
                batchOne.push_back(c.mode.name);
        QCOMPARE(batchOne.size(), size_t(2));
        const std::string close = batchOne[0], clear = batchOne[1];
        auto tune = [&](bool withClear, int budget) {
            test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 4);
            board.hook = [&](const RunConfig& config) -> std::optional<RunResult> {
                RunResult r; // deterministic: the close one is cheaper, everything else breaks the SLO
                r.ok = true;
                const bool isClose = config.batch == 1 && config.mode.name == close;
                const bool isClear = withClear && config.batch == 1 && config.mode.name == clear;
                r.latencyMs = isClose ? 9.95 : isClear ? 9.0 : 20.0;
                r.p99Ms = r.latencyMs;
                r.powerW = isClose ? 10.0 : 12.0;
                return r;
            };
            TuneEnvironment env;
            env.runner = &board;
            return runTuneSearch(test::shippedAgxOrin(), m.space, env,
                                 optionsFor(slo, budget, 0, TuneMethod::Exhaustive), {}, nullptr);
        };
        const TuneOutcome both = tune(true, 1000);
        QVERIFY(both.recommended.has_value());
        const TuneSample& pick = both.samples[*both.recommended];
        QCOMPARE(m.space.configs[pick.config].mode.name, clear);
        QVERIFY(both.caveat.empty());
        const auto closeSample =
            std::find_if(both.samples.begin(), both.samples.end(), [&](const TuneSample& s) {
                return m.space.configs[s.config].mode.name == close && m.space.configs[s.config].batch == 1;
            });
        QVERIFY(closeSample != both.samples.end() && closeSample->feasible);
        QCOMPARE(closeSample->measurements, 3); // run again as near a limit, and still within its noise

        const TuneOutcome alone = tune(false, 1000);
        QVERIFY(alone.recommended.has_value());
        QCOMPARE(m.space.configs[alone.samples[*alone.recommended].config].mode.name, close);
        QVERIFY2(alone.caveat.find("less than its run noise (not at 90 % confidence)") != std::string::npos,
                 alone.caveat.c_str());
        // a budget of one run leaves no repeat: both caveats, neither overwriting the other
        const TuneOutcome unrepeated = tune(false, 1);
        QVERIFY(unrepeated.recommended.has_value());
        QCOMPARE(unrepeated.samples[*unrepeated.recommended].measurements, 1);
        QVERIFY2(
            unrepeated.caveat.find("less than its run noise (not at 90 % confidence); the budget ran out "
                                   "before the pick could be run again") != std::string::npos,
            unrepeated.caveat.c_str());
    }

    void randomSearchIsSeeded() {
        const ModelSpace& m = smallSpace();
        auto order = [&](uint64_t seed) {
            test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 1);
            TuneEnvironment env;
            env.runner = &board;
            std::vector<size_t> configs;
            for (const TuneSample& s :
                 runTuneSearch(test::shippedAgxOrin(), m.space, env,
                               optionsFor(m.maxnSeconds() * 3, 8, seed, TuneMethod::Random), {}, nullptr)
                     .samples)
                configs.push_back(s.config);
            return configs;
        };
        QCOMPARE(order(5), order(5));
        QVERIFY(order(5) != order(6));
    }

    // An interrupted tune resumed from its runs file: the file's rows count as measured (and in the budget)
    // and are not run again, and the search goes on as if never interrupted.
    void resumeFromTheRunsFile() {
        const ModelSpace& m = smallSpace();
        QTemporaryDir dir;
        const double slo = 2 * m.maxnSeconds();
        auto tune = [&](int budget, const std::string& path, int* runs) {
            test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 9);
            TuneEnvironment env;
            env.runner = &board;
            TuneOptions o = optionsFor(slo, budget, 9);
            o.earlyStop = false;
            o.runsPath = path;
            TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr);
            *runs = board.runs;
            return out;
        };
        int runs = 0;
        const std::string path = dir.filePath("runs.csv").toStdString();
        const TuneOutcome first = tune(5, path, &runs);
        QCOMPARE(runs, 5);
        const TuneOutcome resumed = tune(11, path, &runs);
        QCOMPARE(resumed.resumed, 5);
        QCOMPARE(resumed.runsMade, 6);
        QCOMPARE(runs, 6);
        QCOMPARE(readRunsFile(path).size(), size_t(11));
        const TuneOutcome whole = tune(11, dir.filePath("whole.csv").toStdString(), &runs);
        QCOMPARE(resumed.samples.size(), whole.samples.size());
        for (size_t i = 0; i < whole.samples.size(); ++i) {
            QCOMPARE(resumed.samples[i].config, whole.samples[i].config);
            QCOMPARE(resumed.samples[i].measurements, whole.samples[i].measurements);
            QCOMPARE(resumed.samples[i].resumed, i < first.samples.size());
        }
        const TuneOutcome again = tune(11, path, &runs); // everything measured already: nothing runs
        QCOMPARE(runs, 0);
        QCOMPARE(again.resumed, 11);
    }

    // Failed runs count in the budget and are not retried on resume; a file of another runner or board is
    // refused.
    void resumeCountsFailedRunsAndRefusesOtherRunnersOrBoards() {
        const ModelSpace& m = smallSpace();
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.csv").toStdString();
        auto tune = [&](uint64_t seed, int* runs) {
            test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, seed);
            board.hook = [&](const RunConfig&) -> std::optional<RunResult> {
                if (board.runs == 1 || board.runs == 3) return RunResult::failed("out of memory");
                return std::nullopt;
            };
            TuneEnvironment env;
            env.runner = &board;
            TuneOptions o = optionsFor(2 * m.maxnSeconds(), 6, 9);
            o.earlyStop = false;
            o.runsPath = path;
            const TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr);
            *runs = board.runs;
            return out;
        };
        int runs = 0;
        const TuneOutcome first = tune(9, &runs);
        QCOMPARE(runs, 6);
        QCOMPARE(int(std::count_if(first.samples.begin(), first.samples.end(),
                                   [](const TuneSample& x) { return !x.ok; })),
                 2);
        const TuneOutcome again = tune(9, &runs);
        QCOMPARE(runs, 0); // the two failed runs are spent budget too: nothing runs again
        QCOMPARE(again.resumed, 6);
        QCOMPARE(readRunsFile(path).size(), size_t(6));
        QVERIFY(
            throwsInputError([&] { tune(10, &runs); }, "a run by other-physics:9, not by other-physics:10"));

        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(file.readAll());
        file.close();
        text.replace(",1300500000,", ",930750000,"); // MAXN's GPU clock of another board
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text.toUtf8());
        file.close();
        QVERIFY(throwsInputError([&] { tune(9, &runs); }, "has other clocks or cores than on agx-orin-64gb"));
    }

    // The best configuration near the SLO is run again when noise requires it, but a repeat that fails counts
    // as an attempt: at most maxMeasurements attempts, then the search moves on.
    void aFailingRepeatIsNotRetriedForever() {
        const ModelSpace& m = smallSpace();
        test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 4);
        const PowerMode& maxn = m.space.configs[m.space.baseline].mode;
        int baselineRuns = 0;
        board.hook = [&](const RunConfig& config) -> std::optional<RunResult> {
            if (config.mode.name == maxn.name && config.batch == 1) ++baselineRuns;
            if (board.runs > 1) return RunResult::failed("device lost");
            RunResult r; // the baseline: just within the SLO below
            r.ok = true;
            r.latencyMs = 10.0;
            r.p99Ms = 10.0;
            r.powerW = 20.0;
            return r;
        };
        TuneEnvironment env;
        env.runner = &board;
        TuneOptions o = optionsFor(10.05e-3, 8, 1);
        o.earlyStop = false;
        const TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr);
        QCOMPARE(out.runsMade, 8);
        QCOMPARE(baselineRuns, o.maxMeasurements); // the first run and two failed repeats
        QCOMPARE(out.samples.size(), size_t(8 - (o.maxMeasurements - 1)));
        QVERIFY(out.recommended.has_value()); // the one measured run within the limits
    }

    // A profile's rows in the runs file are information, not budget: the tune still makes its own runs, its
    // answer is a configuration it ran itself, and a rerun resumes its own rows only.
    void othersRowsAreInformationNotBudget() {
        const ModelSpace& m = smallSpace();
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.csv").toStdString();
        const double slo = 2 * m.maxnSeconds();
        size_t optimum = 0;
        for (size_t i = 0; i < m.space.candidates; ++i)
            if (m.truth[i].seconds <= slo &&
                (m.truth[optimum].seconds > slo || m.trueEnergyMj(i) < m.trueEnergyMj(optimum)))
                optimum = i;
        int profiled = 0;
        {
            test::OtherPhysicsBoard profiler(test::shippedAgxOrin(), m.counts, 9);
            RunsFileWriter writer(path);
            for (size_t i = 0; i < m.space.candidates; ++i) {
                if (i % 5 != 0 && i != optimum) continue;
                const TuneConfig& c = m.space.configs[i];
                const RunConfig config{c.mode, c.batch, c.precision, Phase::Inference, {}};
                writer.append(runRowFrom(config, profiler.run(config, nullptr), profiler.name(), "profile"));
                ++profiled;
            }
        }
        auto tune = [&](int* runs) {
            test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 9);
            TuneEnvironment env;
            env.runner = &board;
            TuneOptions o = optionsFor(slo, 6, 9);
            o.runsPath = path;
            TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr);
            *runs = board.runs;
            return out;
        };
        int runs = 0;
        const TuneOutcome out = tune(&runs);
        QCOMPARE(out.priorRuns, profiled);
        QCOMPARE(out.resumed, 0);
        QVERIFY(out.runsMade >= 1 && out.runsMade <= 6);
        QCOMPARE(runs, out.runsMade);
        QVERIFY(out.recommended.has_value());
        const TuneSample& pick = out.samples[*out.recommended];
        QVERIFY(pick.ownRuns >= 1); // run by this tune, not taken from the profile unmeasured
        QVERIFY(m.truth[pick.config].seconds <= slo);
        QVERIFY2(m.trueEnergyMj(pick.config) <= 1.05 * m.trueEnergyMj(optimum),
                 qPrintable(QString("pick %1 mJ, optimum %2 mJ")
                                .arg(m.trueEnergyMj(pick.config))
                                .arg(m.trueEnergyMj(optimum))));
        const std::vector<RunRow> rows = readRunsFile(path);
        QCOMPARE(int(std::count_if(rows.begin(), rows.end(),
                                   [&](const RunRow& r) { return r.origin == out.origin; })),
                 out.runsMade);
        QVERIFY(out.origin.rfind("tune:", 0) == 0 && out.origin.size() == 13);

        qInfo("with %d profile rows: %d runs of its own (%s)", profiled, out.runsMade,
              out.stopReason.c_str());
        const TuneOutcome again = tune(&runs); // the same tune again: its own rows are its budget
        QCOMPARE(again.resumed, out.runsMade);
        QCOMPARE(again.priorRuns, profiled);
        QCOMPARE(runs, again.runsMade);
        QVERIFY(again.resumed + again.runsMade <= 6);
        QVERIFY(again.recommended && again.samples[*again.recommended].config == pick.config);
    }

    // A runner that never runs, or an SLO below what the board can do, ends the tune early with the reason.
    void aTuneThatCannotSucceedStopsEarly() {
        {
            const ModelSpace& m = smallSpace();
            test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 3);
            board.hook = [](const RunConfig&) -> std::optional<RunResult> {
                return RunResult::failed("trtexec: not found");
            };
            TuneEnvironment env;
            env.runner = &board;
            const TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), m.space, env,
                                                  optionsFor(2 * m.maxnSeconds(), 15, 3), {}, nullptr);
            QCOMPARE(out.runsMade, 3);
            QVERIFY2(out.stopReason.find("failed 3 times in a row") != std::string::npos &&
                         out.stopReason.find("trtexec: not found") != std::string::npos,
                     out.stopReason.c_str());
            QVERIFY(!out.recommended);
        }
        const ModelSpace& m = gridSpace("resnet50");
        const double slo = 0.5 * m.maxnSeconds();
        for (size_t i = 0; i < m.space.candidates; ++i) // the truth: nothing meets it
            QVERIFY(m.truth[i].seconds > slo);
        test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 3);
        TuneEnvironment env;
        env.runner = &board;
        const TuneOutcome out =
            runTuneSearch(test::shippedAgxOrin(), m.space, env, optionsFor(slo, 15, 3), {}, nullptr);
        qInfo("hopeless SLO: %d runs, %s", out.runsMade, out.stopReason.c_str());
        QVERIFY2(out.stopReason.find("no configuration can meet the SLO: the fastest") != std::string::npos,
                 out.stopReason.c_str());
        QCOMPARE(out.runsMade, 1);
        QVERIFY(!out.recommended && !out.closest.empty());
        // 3 % under the baseline with runs said to scatter by 10 %, the measurement alone cannot tell: cbo's
        // surrogate stops the search once no configuration is likely to meet the SLO
        test::OtherPhysicsBoard tight(test::shippedAgxOrin(), m.counts, 3);
        env.runner = &tight;
        const double nearSlo = 0.97 * m.maxnSeconds();
        for (size_t i = 0; i < m.space.candidates; ++i)
            QVERIFY(m.truth[i].seconds > nearSlo);
        TuneOptions noisy = optionsFor(nearSlo, 15, 3);
        noisy.runNoise = 0.1; // the runs' noise as stated: 20 % either side cannot tell
        const TuneOutcome surrogate = runTuneSearch(test::shippedAgxOrin(), m.space, env, noisy, {}, nullptr);
        qInfo("SLO 3 %% under the baseline: %d runs, %s", surrogate.runsMade, surrogate.stopReason.c_str());
        QVERIFY2(surrogate.stopReason.find("no configuration is expected to meet the limits") !=
                     std::string::npos,
                 surrogate.stopReason.c_str());
        QVERIFY(surrogate.runsMade <= 6);
        // random and exhaustive have no surrogate: the measured baseline (the top clocks at the smallest
        // batch) over the SLO beyond its noise ends them after one run
        for (TuneMethod method : {TuneMethod::Random, TuneMethod::Exhaustive}) {
            test::OtherPhysicsBoard other(test::shippedAgxOrin(), m.counts, 3);
            env.runner = &other;
            const TuneOutcome blind = runTuneSearch(test::shippedAgxOrin(), m.space, env,
                                                    optionsFor(slo, 15, 3, method), {}, nullptr);
            QCOMPARE(blind.runsMade, 1);
            QVERIFY2(blind.stopReason.find("no configuration can meet the SLO: the fastest") !=
                         std::string::npos,
                     blind.stopReason.c_str());
            QVERIFY(!blind.recommended);
        }
        // within the run noise of the SLO the baseline may yet meet it: no stop
        test::OtherPhysicsBoard near(test::shippedAgxOrin(), m.counts, 3);
        env.runner = &near;
        const double baseline = m.truth[m.space.baseline].seconds;
        const TuneOutcome close =
            runTuneSearch(test::shippedAgxOrin(), m.space, env,
                          optionsFor(baseline * 0.995, 4, 3, TuneMethod::Random), {}, nullptr);
        QCOMPARE(close.runsMade, 4);
    }

    void noSavingWithoutEnergy() {
        const ModelSpace& m = smallSpace();
        test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 5);
        board.hook = [&](const RunConfig& config) -> std::optional<RunResult> {
            const test::OtherPhysicsTruth truth = board.truth(config);
            RunResult r; // a runner that measures latency only
            r.ok = true;
            r.latencyMs = truth.seconds * 1e3;
            r.p99Ms = r.latencyMs;
            return r;
        };
        TuneEnvironment env;
        env.runner = &board;
        TuneOptions o = optionsFor(3 * m.maxnSeconds(), 5, 1);
        o.objective = Objective::Latency;
        const TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr);
        QVERIFY(out.recommended && out.baseline);
        QVERIFY(std::isnan(out.savingPercent)); // unknown, not 0 %
    }

    void noConfigurationMeetsTheLimits() {
        const ModelSpace& m = smallSpace();
        test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 1);
        TuneEnvironment env;
        env.runner = &board;
        TuneOptions o = optionsFor(0.1 * m.maxnSeconds(), 6, 1);
        o.limits.powerCapWatts = 1.0;
        const TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr);
        QVERIFY(!out.recommended);
        QVERIFY(!out.closest.empty());
        for (const TuneSample& s : out.samples) {
            QVERIFY(!s.feasible);
            QVERIFY2(s.reason.find("> SLO") != std::string::npos &&
                         s.reason.find("> cap 1 W") != std::string::npos,
                     s.reason.c_str());
        }
    }

    // A run just over the SLO says by how much: the reason has the digits that tell its latency from the SLO
    // ("latency 7.1 ms > SLO 7.1 ms" said nothing). The same seed gives the same first run, so the second
    // tune's SLO lies 0.001 % under it.
    void aReasonTellsTheLatencyFromTheSlo() {
        const ModelSpace& m = smallSpace();
        TuneEnvironment env;
        test::OtherPhysicsBoard first(test::shippedAgxOrin(), m.counts, 1);
        env.runner = &first;
        const TuneOutcome probe = runTuneSearch(test::shippedAgxOrin(), m.space, env,
                                                optionsFor(3 * m.maxnSeconds(), 1, 1), {}, nullptr);
        QVERIFY(!probe.samples.empty() && probe.samples.front().ok);
        const double latencyMs = probe.samples.front().latencyMs;
        test::OtherPhysicsBoard again(test::shippedAgxOrin(), m.counts, 1);
        env.runner = &again;
        const TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), m.space, env,
                                              optionsFor(latencyMs * (1 - 1e-5) * 1e-3, 1, 1), {}, nullptr);
        QVERIFY(!out.samples.empty());
        const std::string& reason = out.samples.front().reason;
        const size_t over = reason.find(" ms > SLO ");
        QVERIFY2(reason.rfind("latency ", 0) == 0 && over != std::string::npos, reason.c_str());
        const std::string measured = reason.substr(8, over - 8);
        const std::string slo = reason.substr(over + 10, reason.find(" ms", over + 10) - over - 10);
        QVERIFY2(measured != slo, reason.c_str());
    }

    // Mode switching through the fixture Jetson tree and the simulated helper: a run that fails is a row and
    // the search goes on; a runner that throws ends it, and either way the original mode is restored.
    void theModeIsRestoredWhenTheRunnerFails() {
        const ModelSpace& m = switchableSpace();
        for (bool throwing : {false, true}) {
            test::BoardCopy copy("agx-orin-jp6");
            test::SimulatedHelper helper(copy.root());
            JetsonModeSwitcher switcher(copy.root(), helper);
            RestoreJournal journal(copy.dir.filePath("journal").toStdString());
            test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 2);
            std::vector<int64_t> gpuInForce;
            bool journalled = true; // the original mode is journalled before every run
            board.hook = [&](const RunConfig& config) -> std::optional<RunResult> {
                gpuInForce.push_back(switcher.observe().gpuMaxHz);
                journalled = journalled && journal.pending().has_value();
                (void)config;
                if (board.runs == 3) {
                    if (throwing) throw std::runtime_error("runner crashed");
                    return RunResult::failed("engine build failed");
                }
                return std::nullopt;
            };
            TuneEnvironment env;
            env.runner = &board;
            env.switcher = &switcher;
            env.journal = &journal;
            TuneOptions o = optionsFor(3 * m.maxnSeconds(), 6, 2);
            o.earlyStop = false;
            o.runsPath = copy.dir.filePath("runs.csv").toStdString();
            bool threw = false;
            try {
                const TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr);
                QCOMPARE(out.samples.size(), size_t(6));
                QVERIFY(!out.samples[2].ok);
                QCOMPARE(out.samples[2].reason, std::string("failed: engine build failed"));
            } catch (const std::runtime_error& error) {
                threw = true;
                QCOMPARE(std::string(error.what()), std::string("runner crashed"));
            }
            QCOMPARE(threw, throwing);
            QVERIFY(journalled);
            QVERIFY(std::count(gpuInForce.begin(), gpuInForce.end(), int64_t(612000000)) <=
                    2); // custom: once
            QCOMPARE(readRunsFile(o.runsPath).size(), size_t(throwing ? 2 : 6));
            QCOMPARE(switcher.currentStockId(), std::optional<int>(0));
            QCOMPARE(switcher.observe().gpuMaxHz, int64_t(1300500000));
            QVERIFY(!journal.pending());
        }
    }

    void cancelStopsAndRestores() {
        const ModelSpace& m = switchableSpace();
        test::BoardCopy copy("agx-orin-jp6");
        test::SimulatedHelper helper(copy.root());
        JetsonModeSwitcher switcher(copy.root(), helper);
        RestoreJournal journal(copy.dir.filePath("journal").toStdString());
        test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 2);
        std::atomic<bool> cancel{false};
        TuneEnvironment env;
        env.runner = &board;
        env.switcher = &switcher;
        env.journal = &journal;
        const TuneOutcome out = runTuneSearch(
            test::shippedAgxOrin(), m.space, env, optionsFor(3 * m.maxnSeconds(), 8, 2),
            [&](const TuneOutcome& sofar, const TuneSpace&) {
                if (sofar.samples.size() == 3) cancel = true;
            },
            &cancel);
        QVERIFY(out.cancelled);
        QCOMPARE(out.samples.size(), size_t(3));
        QCOMPARE(switcher.currentStockId(), std::optional<int>(0));
        QVERIFY(!journal.pending());
    }

    void badInputIsRefusedBeforeAnythingRuns() {
        const ModelSpace& m = smallSpace();
        test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 1);
        TuneEnvironment env;
        env.runner = &board;
        TuneOptions o = optionsFor(m.maxnSeconds(), 0, 1);
        QVERIFY(throwsInputError([&] { runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr); },
                                 "--budget must be at least 1"));
        o.budget = 5;
        o.limits.latencySloSeconds.reset();
        QVERIFY(throwsInputError([&] { runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr); },
                                 "--latency-slo MS is required"));
        o.limits.latencySloSeconds = -1.0;
        QVERIFY(throwsInputError([&] { runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr); },
                                 "SLO"));
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.csv");
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not,a,runs,file\n");
        file.close();
        o.limits.latencySloSeconds = m.maxnSeconds();
        o.runsPath = bad.toStdString();
        QVERIFY(throwsInputError([&] { runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr); },
                                 bad.toStdString()));
        QCOMPARE(board.runs, 0);
    }

    void choosingTheNextSampleIsFast() {
        const ModelSpace& m = gridSpace("resnet50");
        test::OtherPhysicsBoard board(test::shippedAgxOrin(), m.counts, 1);
        TuneEnvironment env;
        env.runner = &board;
        TuneOptions o = optionsFor(2 * m.maxnSeconds(), 15, 1);
        o.earlyStop = false;
        const TuneOutcome out = runTuneSearch(test::shippedAgxOrin(), m.space, env, o, {}, nullptr);
        double worst = 0;
        for (const TuneSample& s : out.samples)
            worst = std::max(worst, s.chooseMs);
        qInfo("cbo over %zu configurations: slowest choice of the next sample %.1f ms", m.space.candidates,
              worst);
        QVERIFY(out.samples.back().chooseMs > 0);
    }
};

ROOFTOP_TEST_CLASS(TestTuneSearch)
#include "test_tune_search.moc"
