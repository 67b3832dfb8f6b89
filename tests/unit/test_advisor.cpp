// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor's decision logic on hand-built candidates: Pareto front and choice against brute force,
// infeasible instances, savings, explanations and the nvpmodel text.
#include "core/advisor/advisor.h"
#include "core/advisor/explanation.h"
#include "core/advisor/nvpmodel_guide.h"
#include "core/common/errors.h"
#include "core/report/recommendation_writers.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace rooftop;
using rooftop::test::orinLikeDevice;

namespace {

Candidate candidate(const std::string& name, double latency, double batchJoules, int64_t batch = 1,
                    double watts = -1.0) {
    Candidate c;
    c.profile.mode.name = name;
    c.batch = batch;
    c.summary.latencySeconds = latency;
    c.summary.energyJoules = batchJoules;
    c.summary.averageWatts = watts >= 0 ? watts : (latency > 0 ? batchJoules / latency : 0.0);
    return c;
}

/// Random candidate sets with many ties and exact duplicates.
std::vector<Candidate> randomCandidates(std::mt19937_64& rng, size_t n) {
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    const int64_t batches[] = {1, 2, 4, 8};
    std::vector<Candidate> out;
    for (size_t i = 0; i < n; ++i) {
        if (!out.empty() && uniform(rng) < 0.1) { // exact duplicate of an earlier candidate
            out.push_back(out[size_t(rng() % out.size())]);
            continue;
        }
        const bool coarse = uniform(rng) < 0.5; // small grids make equal latencies and energies common
        const double latency = coarse ? double(1 + rng() % 6) * 1e-3 : 1e-3 + 20e-3 * uniform(rng);
        const int64_t batch = batches[rng() % 4];
        const double perInference = coarse ? double(1 + rng() % 6) * 1e-2 : 1e-2 + 0.1 * uniform(rng);
        out.push_back(candidate("m" + std::to_string(i), latency, perInference * double(batch), batch));
    }
    return out;
}

std::vector<size_t> bruteForceFront(const std::vector<Candidate>& cs) {
    std::vector<size_t> front;
    for (size_t i = 0; i < cs.size(); ++i) {
        bool dominated = false;
        for (size_t j = 0; j < cs.size() && !dominated; ++j) {
            const double li = cs[i].summary.latencySeconds, lj = cs[j].summary.latencySeconds;
            const double ei = cs[i].energyPerInference(), ej = cs[j].energyPerInference();
            dominated = lj <= li && ej <= ei && (lj < li || ej < ei);
        }
        if (!dominated) front.push_back(i);
    }
    return front;
}

/// Independent statement of the advisor's rules.
struct Oracle {
    static bool feasible(const Candidate& c, const Constraints& k, double fastest) {
        if (k.latencySloSeconds && c.summary.latencySeconds > *k.latencySloSeconds) return false;
        if (k.powerCapWatts && c.summary.averageWatts > *k.powerCapWatts) return false;
        if (k.maxSlowdownPercent && c.summary.latencySeconds > fastest * (1 + *k.maxSlowdownPercent / 100))
            return false;
        return true;
    }
    static std::pair<double, double> key(const Candidate& c, Objective o) {
        const double b = double(c.batch);
        if (o == Objective::Energy) return {c.summary.energyJoules / b, c.summary.latencySeconds};
        if (o == Objective::Latency) return {c.summary.latencySeconds, c.summary.energyJoules / b};
        return {-(b / c.summary.energyJoules), -(b / c.summary.latencySeconds)};
    }
    static std::optional<size_t> best(const std::vector<Candidate>& cs, const Constraints& k, Objective o) {
        double fastest = std::numeric_limits<double>::infinity();
        for (const auto& c : cs)
            fastest = std::min(fastest, c.summary.latencySeconds);
        std::optional<size_t> best;
        for (size_t i = 0; i < cs.size(); ++i) {
            if (!feasible(cs[i], k, fastest)) continue;
            if (!best || key(cs[i], o) < key(cs[*best], o)) best = i;
        }
        return best;
    }
};

Constraints randomConstraints(std::mt19937_64& rng, const std::vector<Candidate>& cs) {
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    Constraints k;
    const auto& pick = cs[size_t(rng() % cs.size())];
    if (uniform(rng) < 0.6) // often exactly a candidate's latency: the boundary counts as feasible
        k.latencySloSeconds = uniform(rng) < 0.5 ? pick.summary.latencySeconds : 1e-3 + 20e-3 * uniform(rng);
    if (uniform(rng) < 0.6)
        k.powerCapWatts = uniform(rng) < 0.5 ? cs[size_t(rng() % cs.size())].summary.averageWatts
                                             : 200.0 * uniform(rng) + 0.1;
    if (uniform(rng) < 0.4) k.maxSlowdownPercent = uniform(rng) < 0.2 ? 0.0 : 300.0 * uniform(rng);
    return k;
}

PowerMode customMode(int cores, int64_t cpuKhz, int64_t gpuHz, int64_t emcHz) {
    PowerMode m;
    m.name = "c" + std::to_string(cores) + "-cpu" + std::to_string(cpuKhz / 1000) + "-gpu" +
             std::to_string(gpuHz / 1000000) + "-emc" + std::to_string(emcHz / 1000000);
    m.onlineCores = cores;
    m.cpuKhz = cpuKhz;
    m.gpuHz = gpuHz;
    m.emcHz = emcHz;
    return m;
}

ModelPrediction predictionWithBounds(int memory, int compute, int overhead, double secondsEach) {
    ModelPrediction p;
    for (auto [bound, n] :
         {std::pair{Bound::Memory, memory}, {Bound::Compute, compute}, {Bound::Overhead, overhead}})
        for (int i = 0; i < n; ++i) {
            LayerPrediction layer;
            layer.seconds = secondsEach;
            layer.bound = bound;
            p.layers.push_back(layer);
        }
    return p;
}

} // namespace

class Advisor : public QObject {
    Q_OBJECT
private slots:
    void paretoFrontEqualsBruteForce() {
        std::mt19937_64 rng(20250917);
        for (int set = 0; set < 200; ++set) {
            const size_t n = set == 0 ? 1 : set == 1 ? 300 : 1 + size_t(rng() % 300);
            const auto cs = randomCandidates(rng, n);
            auto front = paretoFront(cs);
            // Sorted by latency, then energy.
            for (size_t i = 1; i < front.size(); ++i) {
                const auto& a = cs[front[i - 1]];
                const auto& b = cs[front[i]];
                QVERIFY(a.summary.latencySeconds <= b.summary.latencySeconds);
                if (a.summary.latencySeconds == b.summary.latencySeconds)
                    QVERIFY(a.energyPerInference() <= b.energyPerInference());
            }
            std::sort(front.begin(), front.end());
            QCOMPARE(front, bruteForceFront(cs));
        }
    }

    void paretoFrontEdgeCases() {
        QVERIFY(paretoFront({}).empty());
        // Identical points are all kept; a point with equal latency and higher energy is not.
        std::vector<Candidate> cs{candidate("a", 1.0, 2.0),       candidate("b", 1.0, 2.0),
                                  candidate("c", 1.0, 3.0),       candidate("d", 2.0, 2.0),
                                  candidate("e", 2.0, 1.0),       candidate("nan", std::nan(""), 0.5),
                                  candidate("inf", 0.5, HUGE_VAL)};
        QCOMPARE(paretoFront(cs), (std::vector<size_t>{0, 1, 4}));
        // Energy per inference, not per batch: 8 J at batch 8 beats 2 J at batch 1.
        std::vector<Candidate> batches{candidate("b1", 1.0, 2.0, 1), candidate("b8", 1.0, 8.0, 8)};
        QCOMPARE(paretoFront(batches), (std::vector<size_t>{1}));
    }

    // A training front trades time per step against average power, not energy: a slow, low-power mode that
    // spends more energy per sample is on it, and one as fast as another but drawing more is not.
    void aTrainingFrontTradesTimeAgainstPower() {
        std::vector<Candidate> cs{candidate("fast", 1.0, 40.0, 16), candidate("slow-frugal", 4.0, 48.0, 16),
                                  candidate("mid", 2.0, 30.0, 16), candidate("mid-hot", 2.0, 50.0, 16)};
        // watts: fast 40, slow-frugal 12, mid 15, mid-hot 25; energy per sample: 2.5, 3, 1.875, 3.125
        QCOMPARE(paretoFront(cs, FrontAxes::LatencyPower), (std::vector<size_t>{0, 2, 1}));
        QCOMPARE(paretoFront(cs, FrontAxes::LatencyEnergy), (std::vector<size_t>{0, 2}));
    }

    void choiceEqualsExhaustiveSearch() {
        std::mt19937_64 rng(7);
        int feasibleInstances = 0, infeasibleInstances = 0;
        for (int instance = 0; instance < 400; ++instance) {
            const auto cs = randomCandidates(rng, 1 + size_t(rng() % 120));
            const Constraints k = randomConstraints(rng, cs);
            for (Objective o : {Objective::Energy, Objective::Latency, Objective::Efficiency}) {
                const Recommendation r = decide(cs, cs.front(), k, o);
                const auto expected = Oracle::best(cs, k, o);
                QCOMPARE(r.recommended.has_value(), expected.has_value());
                if (expected) {
                    QCOMPARE(*r.recommended, *expected);
                    QVERIFY(r.closest.empty());
                    ++feasibleInstances;
                } else {
                    QCOMPARE(r.closest.size(), std::min(closestCount, cs.size()));
                    ++infeasibleInstances;
                }
                double fastest = std::numeric_limits<double>::infinity();
                for (const auto& c : cs)
                    fastest = std::min(fastest, c.summary.latencySeconds);
                auto front = paretoFront(cs);
                for (size_t i = 0; i < cs.size(); ++i) {
                    QCOMPARE(r.candidates[i].feasible, Oracle::feasible(cs[i], k, fastest));
                    QCOMPARE(r.candidates[i].pareto, std::find(front.begin(), front.end(), i) != front.end());
                }
            }
        }
        QVERIFY(feasibleInstances > 100);
        QVERIFY(infeasibleInstances > 100);
    }

    void unconstrainedPicksTheObjectiveOptimum() {
        std::vector<Candidate> cs{candidate("fast", 1e-3, 0.03), candidate("frugal", 4e-3, 0.01),
                                  candidate("middle", 2e-3, 0.02), candidate("batched", 6e-3, 0.032, 4)};
        QCOMPARE(*decide(cs, cs[0], {}, Objective::Latency).recommended, size_t(0));
        QCOMPARE(*decide(cs, cs[0], {}, Objective::Energy).recommended, size_t(3)); // 8 mJ per inference
        QCOMPARE(*decide(cs, cs[0], {}, Objective::Efficiency).recommended,
                 size_t(3)); // 125 inferences per J
        Constraints slo;
        slo.latencySloSeconds = 2.5e-3;
        QCOMPARE(*decide(cs, cs[0], slo, Objective::Energy).recommended, size_t(2));
        Constraints slowdown;
        slowdown.maxSlowdownPercent = 100.0; // latency <= 2 ms, the boundary included
        QCOMPARE(*decide(cs, cs[0], slowdown, Objective::Energy).recommended, size_t(2));
        Constraints cap;
        cap.powerCapWatts = 5.0; // fast: 30 W, frugal: 2.5 W, middle: 10 W, batched: 21.3 W
        QCOMPARE(*decide(cs, cs[0], cap, Objective::Latency).recommended, size_t(1));
    }

    void infeasibleReportsClosest() {
        std::vector<Candidate> cs{candidate("a", 10e-3, 0.10), candidate("b", 5e-3, 0.20),
                                  candidate("c", 20e-3, 0.05), candidate("d", 7e-3, 0.15),
                                  candidate("e", 6e-3, 0.30),  candidate("f", 30e-3, 0.01),
                                  candidate("g", 5e-3, 0.25)};
        Constraints k;
        k.latencySloSeconds = 1e-6; // 0.001 ms: impossible, not malformed
        const Recommendation r = decide(cs, cs[0], k, Objective::Energy);
        QVERIFY(!r.recommended);
        QCOMPARE(r.savingPercent, 0.0);
        // Least violation first: the two 5 ms candidates (the frugal one first), then 6, 7, 10 ms.
        QCOMPARE(r.closest, (std::vector<size_t>{1, 6, 4, 3, 0}));
        for (const auto& c : r.candidates)
            QVERIFY(!c.feasible);

        // Random instances: every listed candidate violates no more than every unlisted one.
        std::mt19937_64 rng(99);
        for (int instance = 0; instance < 200; ++instance) {
            const auto rs = randomCandidates(rng, 1 + size_t(rng() % 60));
            Constraints impossible;
            impossible.latencySloSeconds = 1e-4 * std::uniform_real_distribution<double>(0.1, 1.0)(rng);
            if (rng() % 2) impossible.powerCapWatts = 0.05;
            const Recommendation ri = decide(rs, rs[0], impossible, Objective::Energy);
            QVERIFY(!ri.recommended);
            QCOMPARE(ri.closest.size(), std::min(closestCount, rs.size()));
            const double fastest = fastestLatency(rs);
            double worstListed = 0;
            for (size_t i : ri.closest)
                worstListed = std::max(worstListed, constraintViolation(rs[i], impossible, fastest));
            for (size_t i = 0; i < rs.size(); ++i)
                if (std::find(ri.closest.begin(), ri.closest.end(), i) == ri.closest.end())
                    QVERIFY(constraintViolation(rs[i], impossible, fastest) >= worstListed);
        }
    }

    void violationIsNormalised() {
        const Candidate c = candidate("x", 30e-3, 0.6, 1, 20.0);
        Constraints k;
        k.latencySloSeconds = 20e-3; // 50% over
        k.powerCapWatts = 16.0;      // 25% over
        k.maxSlowdownPercent = 50.0; // fastest 10 ms -> limit 15 ms: 100% over
        QCOMPARE(constraintViolation(c, k, 10e-3), 0.5 + 0.25 + 1.0);
        QCOMPARE(constraintViolation(c, {}, 10e-3), 0.0);
        QVERIFY(std::isinf(constraintViolation(candidate("nan", std::nan(""), 1.0), k, 10e-3)));
    }

    void savingPercentArithmetic() {
        const Candidate base = candidate("MAXN", 10e-3, 0.010, 1); // 10 mJ per inference
        const Candidate chosen = candidate("x", 30e-3, 0.032, 4);  // 8 mJ per inference
        QCOMPARE(savingPercent(chosen, base), 20.0);
        QCOMPARE(savingPercent(base, base), 0.0);
        QCOMPARE(savingPercent(candidate("y", 10e-3, 0.0125), base), -25.0);
        QCOMPARE(savingPercent(chosen, candidate("zero", 1e-3, 0.0)), 0.0);
        std::vector<Candidate> cs{chosen, candidate("z", 5e-3, 0.012)};
        const Recommendation r = decide(cs, base, {}, Objective::Energy);
        QCOMPARE(*r.recommended, size_t(0));
        QCOMPARE(r.savingPercent, 20.0);
        QVERIFY(r.baseline.feasible);
    }

    void malformedConstraintsAreRejected() {
        const auto rejects = [](Constraints k) {
            try {
                validateConstraints(k);
            } catch (const InputError&) {
                return true;
            }
            return false;
        };
        Constraints k;
        QVERIFY(!rejects(k));
        k.latencySloSeconds = -1e-3;
        QVERIFY(rejects(k));
        k.latencySloSeconds = 0.0;
        QVERIFY(rejects(k));
        k.latencySloSeconds = std::nan("");
        QVERIFY(rejects(k));
        k.latencySloSeconds = 1e-6;
        QVERIFY(!rejects(k));
        k.powerCapWatts = -5.0;
        QVERIFY(rejects(k));
        k.powerCapWatts = 5.0;
        k.maxSlowdownPercent = -1.0;
        QVERIFY(rejects(k));
        k.maxSlowdownPercent = 0.0;
        QVERIFY(!rejects(k));
        k.maxSlowdownPercent = HUGE_VAL;
        QVERIFY(rejects(k));
    }

    void objectiveNames() {
        for (Objective o : {Objective::Energy, Objective::Latency, Objective::Efficiency}) {
            const std::optional<Objective> parsed = parseObjective(objectiveName(o));
            QVERIFY(parsed);
            QCOMPARE(int(*parsed), int(o));
        }
        QVERIFY(!parseObjective("power"));
        QVERIFY(!parseObjective("Energy"));
    }

    void provenanceIsTheWeakestInput() {
        ModeProfile p;
        for (auto& peak : p.ceilings.peakFlops)
            peak = {1e12, Provenance::Measured, ""};
        p.ceilings.bandwidth = {1e11, Provenance::Measured, ""};
        p.ceilings.dispatchOverhead = {1e-5, Provenance::Measured, ""};
        p.power.constantPower = {5, Provenance::Fitted, ""};
        p.power.energyPerFlop = {1e-12, Provenance::Fitted, ""};
        p.power.energyPerByte = {1e-10, Provenance::Fitted, ""};
        QCOMPARE(int(profileProvenance(p)), int(Provenance::Fitted));
        p.ceilings.peakFlops[3] = {0.0, Provenance::Estimate,
                                   ""}; // an unmeasured class without a value is ignored
        QCOMPARE(int(profileProvenance(p)), int(Provenance::Fitted));
        p.ceilings.dispatchOverhead.provenance = Provenance::Estimate;
        QCOMPARE(int(profileProvenance(p)), int(Provenance::Estimate));
    }

    void nvpmodelBlockForCustomOrinMode() {
        const DeviceSpec d = orinLikeDevice();
        const PowerMode m = customMode(8, 1728000, 612000000, 3199000000);
        QCOMPARE(QString::fromStdString(powerModelBlock(d, m, customModeId(d))),
                 QStringLiteral("< POWER_MODEL ID=4 NAME=rooftop_c8_cpu1728_gpu612_emc3199 >\n"
                                "CPU_ONLINE CORE_0 1\n"
                                "CPU_ONLINE CORE_1 1\n"
                                "CPU_ONLINE CORE_2 1\n"
                                "CPU_ONLINE CORE_3 1\n"
                                "CPU_ONLINE CORE_4 1\n"
                                "CPU_ONLINE CORE_5 1\n"
                                "CPU_ONLINE CORE_6 1\n"
                                "CPU_ONLINE CORE_7 1\n"
                                "CPU_ONLINE CORE_8 0\n"
                                "CPU_ONLINE CORE_9 0\n"
                                "CPU_ONLINE CORE_10 0\n"
                                "CPU_ONLINE CORE_11 0\n"
                                "TPC_POWER_GATING TPC_PG_MASK 0\n"
                                "GPU_POWER_CONTROL_ENABLE GPU_PWR_CNTL_EN on\n"
                                "CPU_A78_0 MIN_FREQ 1728000\n"
                                "CPU_A78_0 MAX_FREQ 1728000\n"
                                "CPU_A78_1 MIN_FREQ 1728000\n"
                                "CPU_A78_1 MAX_FREQ 1728000\n"
                                "GPU MIN_FREQ 612000000\n"
                                "GPU MAX_FREQ 612000000\n"
                                "GPU_POWER_CONTROL_DISABLE GPU_PWR_CNTL_DIS auto\n"
                                "EMC MAX_FREQ 0\n"));

        // Below the ladder top the EMC cap is written in Hz; 2 cores keep one cluster online.
        const std::string small = powerModelBlock(d, customMode(2, 729600, 306000000, 2133000000), 4);
        QVERIFY(small.find("EMC MAX_FREQ 2133000000\n") != std::string::npos);
        QVERIFY(small.find("CPU_A78_0 MAX_FREQ 729600\n") != std::string::npos);
        QVERIFY(small.find("CPU_A78_1") == std::string::npos);
        QVERIFY(small.find("CPU_ONLINE CORE_2 0\n") != std::string::npos);

        const std::string text = nvpmodelInstructions(d, m);
        for (const char* expected :
             {"Check the PARAM names against your /etc/nvpmodel.conf",
              "sudo cp /etc/nvpmodel.conf /etc/nvpmodel.conf.bak", "sudo tee -a /etc/nvpmodel.conf",
              "sudo nvpmodel -m 4", "sudo jetson_clocks", "sudo nvpmodel -m 2 ",
              "< POWER_MODEL ID=4 NAME=rooftop_c8_cpu1728_gpu612_emc3199 >"})
            QVERIFY2(text.find(expected) != std::string::npos, expected);
    }

    // The guide reads as steps: back up, add the mode (its block saved to a file), switch, undo; as a script
    // the block is written by a here-document, optional and way-back commands are comments.
    void instructionsAreStepsAndAScript() {
        const DeviceSpec d = orinLikeDevice();
        const NvpmodelGuide guide = nvpmodelGuide(d, customMode(8, 1728000, 612000000, 3199000000));
        std::vector<std::string> titles;
        for (const GuideStep& step : guide.steps)
            titles.push_back(step.title);
        QCOMPARE(titles, (std::vector<std::string>{"Back up", "Add the mode", "Switch", "Undo"}));
        QVERIFY(guide.block.rfind("< POWER_MODEL ID=4", 0) == 0);
        QCOMPARE(guide.steps[1].commands.front().command,
                 std::string("sudo tee -a /etc/nvpmodel.conf < rooftop_mode.conf"));
        const std::string text = guideText(guide);
        QVERIFY2(text.find("\n1. Back up\n  nvpmodel -q") != std::string::npos, text.c_str());
        QVERIFY2(text.find("\n4. Undo: to go back\n") != std::string::npos, text.c_str());
        const std::string script = guideScript(guide);
        QVERIFY2(script.rfind("#!/bin/sh\n", 0) == 0, script.c_str());
        QVERIFY2(script.find("cat > rooftop_mode.conf <<'EOF'\n< POWER_MODEL ID=4") != std::string::npos,
                 script.c_str());
        QVERIFY2(script.find("\nsudo nvpmodel -m 4  # ") != std::string::npos, script.c_str());
        QVERIFY2(script.find("\n# sudo jetson_clocks --store && sudo jetson_clocks") != std::string::npos,
                 script.c_str());
        QVERIFY2(script.find("\n# sudo cp /etc/nvpmodel.conf.bak /etc/nvpmodel.conf") != std::string::npos,
                 script.c_str());

        PowerMode stock;
        stock.name = "MODE_30W";
        stock.stock = true;
        stock.stockId = 2;
        const NvpmodelGuide stockGuide = nvpmodelGuide(d, stock);
        QVERIFY(stockGuide.block.empty());
        QCOMPARE(stockGuide.steps.size(), size_t(3)); // back up, switch, undo
        // the board's default mode: its undo does not repeat the switch
        QCOMPARE(d.defaultModeId, 2);
        const std::string steps = guideText(stockGuide);
        QVERIFY2(steps.find("sudo nvpmodel -m 2") == steps.rfind("sudo nvpmodel -m 2"), steps.c_str());
        QVERIFY2(steps.find("this mode is the board's default") != std::string::npos, steps.c_str());
        stock.stockId = 0; // MAXN: back to the default, 2
        stock.name = "MAXN";
        const std::string maxn = guideText(nvpmodelGuide(d, stock));
        QVERIFY2(maxn.find("sudo nvpmodel -m 0") != std::string::npos &&
                     maxn.find("sudo nvpmodel -m 2") != std::string::npos,
                 maxn.c_str());
    }

    // Custom clocks that are a stock mode's caps (a grid mode with MAXN's clocks) are that stock mode: no new
    // mode to add to nvpmodel.conf (plan and tune named MAXN's clocks a custom mode 4).
    void customClocksOfAStockModeAreThatMode() {
        const DeviceSpec& d = test::shippedAgxOrin();
        PowerMode maxnClocks = powerModeFrom(d, *d.stockMode(0));
        maxnClocks.stock = false;
        maxnClocks.stockId = -1;
        maxnClocks.name = "c12-cpu2201.6-gpu1300.5-emc3199";
        const NvpmodelGuide guide = nvpmodelGuide(d, maxnClocks);
        QVERIFY(guide.block.empty());
        QCOMPARE(
            guide.intro,
            std::string(
                "c12-cpu2201.6-gpu1300.5-emc3199 has the clocks of stock mode MAXN, nvpmodel mode 0.\n"));
        maxnClocks.gpuHz = 1236750000; // one step down: a custom mode
        QVERIFY(!nvpmodelGuide(d, maxnClocks).block.empty());
    }

    void nvpmodelLayoutsPerSoc() {
        DeviceSpec nx = orinLikeDevice();
        nx.cpuCores = 8;
        nx.units.tpcCount = 4;
        const auto nxClusters = cpuClusters(nx);
        QCOMPARE(nxClusters.size(), size_t(2));
        QCOMPARE(QString::fromStdString(nxClusters[1].param), QStringLiteral("CPU_A78_1"));
        QCOMPARE(allTpcsOnMask(nx), 240);
        nx.units.tpcCount = 7;
        QCOMPARE(allTpcsOnMask(nx), 128);
        nx.units.tpcCount = 2;
        QCOMPARE(allTpcsOnMask(nx), 252);

        DeviceSpec xavier = orinLikeDevice();
        xavier.soc = "tegra194";
        xavier.cpuCores = 8;
        const auto xc = cpuClusters(xavier);
        QCOMPARE(xc.size(), size_t(4));
        QCOMPARE(QString::fromStdString(xc[3].param), QStringLiteral("CPU_DENVER_3"));
        QCOMPARE(xc[3].cores, (std::vector<int>{6, 7}));
        const std::string block = powerModelBlock(xavier, customMode(4, 1190400, 675750000, 2133000000), 9);
        QVERIFY(block.find("CPU_DENVER_1 MIN_FREQ 1190400\n") != std::string::npos);
        QVERIFY(block.find("CPU_DENVER_2") == std::string::npos);

        PowerMode stock;
        stock.name = "MODE_30W";
        stock.stock = true;
        stock.stockId = 2;
        const std::string stockText = nvpmodelInstructions(orinLikeDevice(), stock);
        QVERIFY(stockText.find("sudo nvpmodel -m 2") != std::string::npos);
        QVERIFY(stockText.find("POWER_MODEL") == std::string::npos);

        DeviceSpec discrete;
        discrete.name = "RTX";
        discrete.discrete = true;
        QVERIFY(nvpmodelInstructions(discrete, stock).find("not driven by nvpmodel") != std::string::npos);

        // Jetson AGX Thor: stock modes by id; custom modes without a guessed block (its PARAM names are not
        // public)
        const DeviceSpec& thor = test::shippedDevice("agx-thor-t5000");
        stock.name = "90W";
        const std::string thorStock = nvpmodelInstructions(thor, stock);
        QVERIFY(thorStock.find("sudo nvpmodel -m 2") != std::string::npos);
        const std::string thorCustom =
            nvpmodelInstructions(thor, customMode(8, 1651200, 945000000, 4266000000));
        QVERIFY2(thorCustom.find("PARAM names are not public") != std::string::npos, thorCustom.c_str());
        QVERIFY(thorCustom.find("< POWER_MODEL") == std::string::npos);
        QVERIFY(thorCustom.find("MIN_FREQ and MAX_FREQ 945000000") != std::string::npos);
        QVERIFY(thorCustom.find("MAX_FREQ -1 (no cap)") != std::string::npos);
        QVERIFY(thorCustom.find("sudo nvpmodel -m 4") != std::string::npos); // one above the highest stock id
        QVERIFY(thorCustom.find("not driven by nvpmodel") == std::string::npos);
    }

    void explanationNamesBoundsLimitsAndProvenance() {
        Candidate maxn = candidate("MAXN", 10e-3, 0.30, 1);
        maxn.profile.mode = customMode(12, 2201600, 1300500000, 3199000000);
        maxn.profile.mode.name = "MAXN";
        maxn.profile.mode.stock = true;
        maxn.profile.mode.stockId = 0;
        Candidate slowGpu = candidate("", 11e-3, 0.20, 1);
        slowGpu.profile.mode = customMode(12, 2201600, 612000000, 3199000000);
        Candidate slower = candidate("", 30e-3, 0.10, 1);
        slower.profile.mode = customMode(4, 729600, 306000000, 2133000000);
        std::vector<Candidate> cs{maxn, slowGpu, slower};
        Constraints k;
        k.latencySloSeconds = 20e-3;
        Recommendation r = decide(cs, maxn, k, Objective::Energy);
        QCOMPARE(*r.recommended, size_t(1));
        const std::string text =
            explainRecommendation(r, predictionWithBounds(40, 8, 2, 1e-4),
                                  predictionWithBounds(35, 13, 2, 1e-4), k, Objective::Energy);
        for (const char* expected : {"40 of 50 layers (80% of the time) are memory-bound", "GPU clock",
                                     "612 MHz instead of 1300.5 MHz", "20.000 ms latency SLO", "33.3% saved",
                                     "predicted from datasheet-derived ceilings", "MAXN at batch 1"})
            QVERIFY2(text.find(expected) != std::string::npos,
                     (std::string(expected) + " in: " + text).c_str());

        // the one limit that rules out the one better candidate: no count repeated after it
        QVERIFY2(
            text.find("What limits it: 1 candidate uses less energy per inference but breaks the 20.000 ms "
                      "latency SLO.") != std::string::npos,
            text.c_str());
        // two limits, each ruling out part of them: their counts said
        Candidate hungry = candidate("", 12e-3, 0.15, 1, 40.0);
        hungry.profile.mode = customMode(8, 2201600, 1300500000, 3199000000);
        Constraints both = k;
        both.powerCapWatts = 30;
        const Recommendation two = decide({maxn, slowGpu, slower, hungry}, maxn, both, Objective::Energy);
        QCOMPARE(*two.recommended, size_t(1));
        const std::string counted =
            explainRecommendation(two, predictionWithBounds(40, 8, 2, 1e-4),
                                  predictionWithBounds(35, 13, 2, 1e-4), both, Objective::Energy);
        QVERIFY2(
            counted.find("2 candidates use less energy per inference but break the 20.000 ms latency SLO "
                         "(1 candidate) and the 30.0 W power cap (1 candidate).") != std::string::npos,
            counted.c_str());
        // thirds are whole percents that add up to 100 (rounded apart: 33 + 33 + 33)
        const std::string thirds =
            explainRecommendation(r, predictionWithBounds(1, 1, 1, 1e-4), predictionWithBounds(1, 1, 1, 1e-4),
                                  k, Objective::Energy);
        QVERIFY2(thirds.find(
                     "1 of 3 layers (34% of the time) are memory-bound, 1 (33%) compute-bound and 1 (33%)") !=
                     std::string::npos,
                 thirds.c_str());

        r = decide(cs, maxn, {}, Objective::Latency);
        QVERIFY(explainRecommendation(r, predictionWithBounds(1, 1, 1, 1e-4),
                                      predictionWithBounds(1, 1, 1, 1e-4), {}, Objective::Latency)
                    .find("What limits it: nothing") != std::string::npos);

        k.latencySloSeconds = 1e-6;
        r = decide(cs, maxn, k, Objective::Energy);
        const std::string infeasible = explainInfeasible(r, k);
        QVERIFY(infeasible.find("The constraints cannot be met") != std::string::npos);
        QVERIFY(infeasible.find("fastest candidate takes 10.000 ms") != std::string::npos);
        // predicted under the SLO but not with its error: the bound is what fails, and the answer says so
        std::vector<Candidate> spread = cs;
        for (Candidate& c : spread) {
            c.summary.spread.latency = 0.05;
            c.summary.spread.power = 0.05;
        }
        k.latencySloSeconds = 10.2e-3;
        k.confidence = 0.99;
        r = decide(spread, maxn, k, Objective::Energy);
        QVERIFY(!r.recommended);
        const std::string bound = explainInfeasible(r, k);
        QVERIFY2(
            bound.find("The fastest candidate is predicted at 10.000 ms, under the SLO of 10.200 ms, but its "
                       "upper bound at 99 % is 11.234 ms") != std::string::npos,
            bound.c_str());
        QVERIFY2(bound.find("takes") == std::string::npos, bound.c_str());
        k.confidence = 0.9;
        QCOMPARE(provenanceSentence(Provenance::Measured).find("measured on this board") != std::string::npos,
                 true);
        // a calibrated runtime: an estimate still (the weakest input), with what the runs fitted named
        ModeProfile calibrated;
        QVERIFY(provenanceSentence(Provenance::Estimate, &calibrated).find("an estimated power model") !=
                std::string::npos);
        calibrated.ceilings.classEfficiency.fitted[size_t(OperatorClass::DenseConv)] = true;
        calibrated.ceilings.classEfficiency.fitted[size_t(OperatorClass::Pointwise)] = true;
        calibrated.power.constantPower.provenance = Provenance::Fitted;
        const std::string fitted = provenanceSentence(Provenance::Estimate, &calibrated);
        QVERIFY2(fitted.find("fitted: the dense_conv and pointwise efficiencies, the power model)") !=
                     std::string::npos,
                 fitted.c_str());
        ModeProfile fixedCostOnly; // a calibration from runs without power: the fixed cost alone, say
        fixedCostOnly.ceilings.inferenceOverhead.provenance = Provenance::Fitted;
        QVERIFY(provenanceSentence(Provenance::Estimate, &fixedCostOnly)
                    .find("fitted: the fixed cost per inference)") != std::string::npos);
        QVERIFY(fitted.find("provenance: estimate") != std::string::npos);
        QVERIFY(fitted.find("an estimated power model") == std::string::npos);
        calibrated.ceilings.classEfficiency.onSimulator = true; // the runs were the simulated board's
        const std::string simulated = provenanceSentence(Provenance::Estimate, &calibrated);
        QVERIFY2(simulated.find("calibrated from the simulated board's runs (not measurements; fitted: the "
                                "dense_conv") != std::string::npos,
                 simulated.c_str());
        // a --profile's mode: measured there (its ceilings times the runtime's estimated efficiencies are
        // estimates, so the source is said, not read off the provenance), or predicted from its measured
        // modes
        ModeProfile benched;
        benched.mode.name = "MODE_15W";
        benched.fromBench = BenchSource::Measured;
        benched.power.constantPower.provenance = Provenance::Fitted; // the profile's power fit, no runtime's
        const std::string measured = provenanceSentence(Provenance::Estimate, &benched);
        QVERIFY2(
            measured.find("rest on ceilings and power measured in this mode by rooftop bench (--profile), "
                          "and on estimates for the rest") != std::string::npos,
            measured.c_str());
        QVERIFY2(measured.find("calibrated") == std::string::npos, measured.c_str());
        QVERIFY2(measured.find("rooftop bench --modes") == std::string::npos, measured.c_str());
        benched.fromBench = BenchSource::Predicted;
        const std::string predicted = provenanceSentence(Provenance::Estimate, &benched);
        QVERIFY2(predicted.find("predicted from the modes rooftop bench measured (--profile)") !=
                         std::string::npos &&
                     predicted.find("rooftop bench --modes MODE_15W measures its ceilings") !=
                         std::string::npos,
                 predicted.c_str());
        ModeProfile unprofiled; // no profile: the datasheet, and how to measure this mode
        unprofiled.mode.name = "MODE_15W";
        const std::string datasheet = provenanceSentence(Provenance::Estimate, &unprofiled);
        QVERIFY2(datasheet.find("datasheet-derived ceilings") != std::string::npos &&
                     datasheet.find("not measured in this mode: rooftop bench --modes MODE_15W measures its "
                                    "ceilings") != std::string::npos,
                 datasheet.c_str());
    }

    // The predictions cannot rank candidates whose energies differ by less than their error: those are
    // named, best first, feasible only, and not at all when the numbers carry no spread.
    void closeCallsAreTheCandidatesWithinThePicksError() {
        const auto spread = [](Candidate c, double energy) {
            c.summary.spread = {0.03, 0.03, energy};
            return c;
        };
        std::vector<Candidate> cs{spread(candidate("MAXN", 1e-3, 0.0300), 0.05),
                                  spread(candidate("pick", 2e-3, 0.0200), 0.05),
                                  spread(candidate("within", 2e-3, 0.0209), 0.05),  // +4.5 %
                                  spread(candidate("nearest", 2e-3, 0.0201), 0.05), // +0.5 %
                                  spread(candidate("beyond", 2e-3, 0.0211), 0.05),  // +5.5 %
                                  spread(candidate("too slow", 9e-3, 0.0202), 0.05)};
        Constraints k;
        k.latencySloSeconds = 5e-3;
        k.confidence = 0.5;
        Recommendation r = decide(cs, cs[0], k, Objective::Energy);
        QCOMPARE(*r.recommended, size_t(1));
        QCOMPARE(r.closeCalls, (std::vector<size_t>{3, 2}));
        const std::string sentence = closeCallSentence(r, Objective::Energy);
        for (const char* expected :
             {"A close call: 2 other candidates are predicted within 5.0% of its energy per inference",
              "nearest at batch 1 (+0.5%), within at batch 1 (+4.5%)",
              "--modes 'pick;nearest;within' --batch 1) and compare their measured energy per inference."})
            QVERIFY2(sentence.find(expected) != std::string::npos, (expected + (" in: " + sentence)).c_str());
        QVERIFY(sentence.find("beyond") == std::string::npos);
        // the profile it suggests measures the same workload: a training step's optimizer and precision too
        AnalysisSettings sgdStep;
        sgdStep.phase = Phase::Training;
        sgdStep.optimizer = Optimizer::Sgd;
        sgdStep.precision = Precision::FP16;
        sgdStep.dims.named = {{"sequence", 128}};
        Recommendation trained = r;
        trained.workloadOptions = workloadOptionsText(sgdStep);
        const std::string step = closeCallSentence(trained, Objective::Energy);
        QVERIFY2(
            step.find("--batch 1 --dim sequence=128 --precision fp16 --phase training --optimizer sgd)") !=
                std::string::npos,
            step.c_str());
        Recommendation many = r; // beyond three: the search's work, not a list to profile
        many.closeCalls = {3, 2, 3, 2};
        const std::string search = closeCallSentence(many, Objective::Energy);
        QVERIFY2(search.find("and 1 more. Measuring settles it: rooftop tune (with the limit") !=
                     std::string::npos,
                 search.c_str());
        QVERIFY(search.find("--modes") == std::string::npos);
        QVERIFY(sentence.find("too slow") == std::string::npos);

        // the JSON lists them with their difference
        RecommendationQuestion question;
        question.objective = Objective::Energy;
        const QJsonObject root =
            QJsonDocument::fromJson(QByteArray::fromStdString(recommendationToJson(question, r))).object();
        QCOMPARE(root["close_call_count"].toInt(), 2);
        QCOMPARE(root["close_call_within_pct"].toDouble(), 5.0);
        const QJsonArray close = root["close_calls"].toArray();
        QCOMPARE(close.size(), 2);
        QCOMPARE(close[0].toObject()["mode"].toString(), QStringLiteral("nearest"));
        QVERIFY(std::abs(close[1].toObject()["difference_pct"].toDouble() - 4.5) < 1e-9);
        const std::string table = recommendationToTable("Dev", r, k, Objective::Energy);
        QVERIFY2(table.find("close call       nearest") != std::string::npos, table.c_str());
        QVERIFY2(table.find("\nbaseline         MAXN") != std::string::npos, table.c_str());
        // a baseline among the close calls: its row says so, and it is not repeated
        Recommendation closeBaseline = r;
        closeBaseline.baseline = r.candidates[3];
        const std::string marked = recommendationToTable("Dev", closeBaseline, k, Objective::Energy);
        QVERIFY2(marked.find("\nclose, baseline  nearest") != std::string::npos, marked.c_str());
        QVERIFY2(marked.find("close call       nearest") == std::string::npos, marked.c_str());
        QVERIFY2(marked.find("close call       within") != std::string::npos, marked.c_str());

        // measured numbers (no spread) settle it: no close call
        for (Candidate& c : cs)
            c.summary.spread = {};
        r = decide(cs, cs[0], k, Objective::Energy);
        QVERIFY(r.closeCalls.empty());
        QVERIFY(closeCallSentence(r, Objective::Energy).empty());
        // by latency, the latency's spread decides (3 %): nothing lies within 3 % of MAXN's 1 ms
        for (Candidate& c : cs)
            c.summary.spread = {0.03, 0.03, 0.05};
        r = decide(cs, cs[0], {}, Objective::Latency);
        QCOMPARE(*r.recommended, size_t(0));
        QVERIFY(r.closeCalls.empty());
        // efficiency ranks inferences per joule: its close calls are by energy per inference, without limits
        // "too slow" among them (+1 %)
        r = decide(cs, cs[0], {}, Objective::Efficiency);
        QCOMPARE(*r.recommended, size_t(1));
        QCOMPARE(r.closeCalls, (std::vector<size_t>{3, 5, 2}));
        // ... and a mode 2 % slower at batch 4 (another batch: a configuration of its own) is one, named in
        // the command though the pick's name contains its name
        Candidate near = candidate("MAX", 1.02e-3, 0.03, 4);
        near.summary.spread = {0.03, 0.03, 0.05};
        cs.push_back(near);
        cs.push_back(candidate("MAXN_SLOW", 1.2e-3, 0.03)); // 20 % slower, no spread of its own
        r = decide(cs, cs[0], {}, Objective::Latency);
        QCOMPARE(r.closeCalls, (std::vector<size_t>{6}));
        const std::string byLatency = closeCallSentence(r, Objective::Latency);
        QVERIFY2(byLatency.find("within 3.0% of its latency per batch") != std::string::npos &&
                     byLatency.find("--modes 'MAXN;MAX' --batch 1,4") != std::string::npos,
                 byLatency.c_str());
    }

    // The profile options of close calls: each mode and batch once, in order (a name inside another kept)
    // The table and the prose round a bound alike, in its value's decimals: "5.0 ≤ 7.0", not "5.0 ≤ 6.96"
    // beside "5.0 W (≤ 7.0 W at 90 %)".
    void theTableRoundsABoundAsTheProseDoes() {
        Candidate frugal = candidate("frugal", 4e-3, 0.020, 1, 5.0);
        frugal.summary.spread = {0.02, 0.2575,
                                 0.03}; // power's 90 % bound: 5.0 x e^(1.2816 x 0.2575) = 6.955 W
        frugal.provenance = Provenance::Predicted;
        Constraints k;
        k.latencySloSeconds = 5e-3;
        Recommendation r = decide({frugal}, frugal, k, Objective::Energy);
        QVERIFY(r.recommended.has_value());
        QCOMPARE(boundedPower(frugal, 0.9), std::string("5.0 W (≤ 7.0 W at 90 %)"));
        const std::string table = recommendationToTable("Dev", r, k, Objective::Energy);
        QVERIFY2(table.find("5.0 ≤ 7.0") != std::string::npos, table.c_str());
        QVERIFY2(table.find("6.96") == std::string::npos, table.c_str());
    }

    // A long cell keeps its distance: batch 32 beside 911.528 ms (≤ 1622.657) read "32911.528 ms".
    void tableColumnsNeverRunTogether() {
        Candidate slow = candidate("slow", 0.911528, 32 * 0.5, 32, 17.6);
        slow.summary.spread = {0.45, 0.05, 0.45};
        slow.provenance = Provenance::Predicted;
        const Recommendation r = decide({slow}, slow, {}, Objective::Energy);
        const std::string table = recommendationToTable("Dev", r, {}, Objective::Energy);
        QVERIFY2(table.find("911.528 ms ≤ ") != std::string::npos, table.c_str());
        QVERIFY2(table.find("32  ") != std::string::npos && table.find("32911") == std::string::npos,
                 table.c_str());
    }

    void profileSelectionNamesEachModeAndBatchOnce() {
        QCOMPARE(profileSelection({{"MODE_15W_DESKTOP", 4}, {"MODE_15W", 1}, {"MODE_15W_DESKTOP", 1}}),
                 std::string("--modes 'MODE_15W_DESKTOP;MODE_15W' --batch 4,1"));
    }

    void jsonHasTheDocumentedShape() {
        std::vector<Candidate> cs{candidate("fast", 1e-3, 0.03), candidate("frugal", 4e-3, 0.01, 2)};
        Constraints k;
        k.latencySloSeconds = 5e-3;
        Recommendation r = decide(cs, cs[0], k, Objective::Energy);
        r.explanation = "why";
        r.nvpmodelBlock = "block";
        RecommendationQuestion question;
        question.deviceId = "dev";
        question.model = "m.onnx";
        question.limits = k;
        QJsonParseError error;
        QJsonObject root =
            QJsonDocument::fromJson(QByteArray::fromStdString(recommendationToJson(question, r)), &error)
                .object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(root["device"].toString(), QStringLiteral("dev"));
        QCOMPARE(root["modes"].toArray().size(), 2);
        const QJsonObject rec = root["recommended"].toObject();
        for (const char* field :
             {"mode", "cores", "cpu_khz", "gpu_hz", "emc_hz", "batch", "latency_ms", "energy_mj", "power_w",
              "feasible", "provenance", "saving_pct", "explanation", "nvpmodel"})
            QVERIFY2(rec.contains(QLatin1String(field)), field);
        QCOMPARE(rec["mode"].toString(), QStringLiteral("frugal"));
        QCOMPARE(root["schema"].toString(), QStringLiteral("rooftop-recommend/3"));
        QCOMPARE(root["model"].toString(), QStringLiteral("m.onnx"));
        QCOMPARE(root["objective"].toString(), QStringLiteral("energy"));
        QCOMPARE(root["limits"].toObject()["latency_slo_ms"].toDouble(), 5.0);
        QVERIFY(root["limits"].toObject()["power_cap_w"].isNull());
        QVERIFY(root["prediction_basis"].toString().contains("prior"));
        QVERIFY(qFuzzyCompare(rec["energy_mj"].toDouble(), 5.0));
        QVERIFY(qFuzzyCompare(rec["latency_ms"].toDouble(), 4.0));
        QCOMPARE(root["pareto"].toArray().size(), 2);
        QVERIFY(!root.contains("closest"));

        k.latencySloSeconds = 1e-6;
        r = decide(cs, cs[0], k, Objective::Energy);
        r.explanation = "The constraints cannot be met";
        root = QJsonDocument::fromJson(QByteArray::fromStdString(recommendationToJson(question, r))).object();
        QVERIFY(root["recommended"].isNull());
        QCOMPARE(root["closest"].toArray().size(), 2);
        QVERIFY(root["message"].toString().contains("cannot be met"));
        const std::string table = recommendationToTable("Dev", r, k, Objective::Energy);
        QVERIFY(table.find("The constraints cannot be met") != std::string::npos);
        QVERIFY(table.find("closest") != std::string::npos);
    }
};

ROOFTOP_TEST_CLASS(Advisor)
#include "test_advisor.moc"
