// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor's confidence judged on the other physics (tests/support/other_physics_board.h), never on
// Rooftop's prediction: a 20-run predictor of each model, binding SLOs of 1.1-3x the true MAXN latency over
// the AGX Orin 64GB grid, and each pick's true latency and energy against the true optimum among truly
// feasible modes. Also the prior's own error (priorSpread) measured on the same physics.
#include "core/advisor/advisor.h"
#include "core/advisor/explanation.h"
#include "core/common/errors.h"
#include "core/device/ceilings.h"
#include "core/device/mode_set.h"
#include "core/learn/config_features.h"
#include "core/learn/learn_points.h"
#include "core/learn/predictor_file.h"
#include "core/roofline/prediction.h"
#include "support/device_fixtures.h"
#include "support/other_physics_board.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

using namespace rooftop;

namespace {

const char* const models[] = {"resnet50", "mobilenet_v3_large", "efficientnet_b0"};

class Grid {
public:
    Grid() : device_(test::shippedAgxOrin()), runtime_(findRuntime("tensorrt")) {
        modes_ = gridPowerModes(device_);
        for (const PowerMode& mode : modes_)
            profiles_.push_back(deriveModeProfile(device_, mode, runtime_));
        maxn_ = deriveModeProfile(device_, powerModeFrom(device_, device_.fastestStockMode()), runtime_);
        for (const char* model : models) {
            AnalysisSettings settings;
            settings.dims.batch = 1;
            workloads_[model] = test::analyzeSample(model, settings);
        }
    }

    const DeviceSpec& device() const { return device_; }
    const std::vector<PowerMode>& modes() const { return modes_; }
    const std::vector<ModeProfile>& profiles() const { return profiles_; }
    const ModeProfile& maxn() const { return maxn_; }
    const Workload& workload(const std::string& model) const { return workloads_.at(model); }

    /// A predictor of `model` from `count` grid modes drawn with `seed`, run on the other physics (2 %
    /// noise).
    Predictor learn(const std::string& model, int count, uint64_t seed) const {
        std::vector<MeasuredRun> runs;
        for (const PowerMode& mode :
             modesFor(device_, "sample:" + std::to_string(count), std::nullopt, seed)) {
            const RunResult r = test::otherPhysics(device_, workloads_.at(model), mode, seed * 977 + 5);
            MeasuredRun run;
            run.mode = mode;
            run.latencySeconds = r.latencyMs * 1e-3;
            run.watts = *r.powerW;
            runs.push_back(run);
        }
        const Workload& w = workloads_.at(model);
        return learnPredictor(
            learnPoints(device_, runtime_, runs, [&](int64_t, Precision) -> const Workload& { return w; }));
    }

    /// The advisor's answer over the grid at batch 1, with the predictor's numbers (or the prior's).
    Recommendation recommend(const std::string& model, const Predictor* predictor, double sloSeconds,
                             double confidence) const {
        Constraints limits;
        limits.latencySloSeconds = sloSeconds;
        limits.confidence = confidence;
        ModeSummarizer summarize;
        if (predictor) {
            summarize.summarize = [&](const BatchWorkload& w, const std::vector<ModeProfile>& profiles) {
                return predictModes(*predictor, device_, w.workload, Precision::FP32, profiles);
            };
            summarize.spreadBasis = predictor->spreadBasis();
        }
        std::vector<ModeProfile> all = profiles_;
        all.push_back(maxn_);
        return recommendMode(device_, {BatchWorkload{1, workloads_.at(model)}}, all, maxn_, limits,
                             Objective::Energy, summarize);
    }

private:
    DeviceSpec device_;
    RuntimeProfile runtime_;
    std::vector<PowerMode> modes_;
    std::vector<ModeProfile> profiles_;
    ModeProfile maxn_;
    std::map<std::string, Workload> workloads_;
};

const Grid& grid() {
    static const Grid g;
    return g;
}

/// The predictor seeds judged: eight 20-run predictors of each model.
const std::vector<uint64_t>& predictorSeeds() {
    static const std::vector<uint64_t> seeds{3, 4, 5, 6, 7, 8, 9, 10};
    return seeds;
}

/// A 20-run predictor of `model` from `seed`, learned once.
const Predictor& predictorOf(const std::string& model, uint64_t seed) {
    static std::map<std::pair<std::string, uint64_t>, Predictor> cache;
    const auto key = std::make_pair(model, seed);
    auto found = cache.find(key);
    if (found == cache.end()) found = cache.emplace(key, grid().learn(model, 20, seed)).first;
    return found->second;
}

/// How the picks of one setting fared against the truth.
struct Tally {
    int picks = 0, feasible = 0, withinFivePercent = 0, none = 0;
    double worstExcess = 0.0; ///< the largest true latency over the SLO, as a fraction
    std::vector<double>
        energyExcess; ///< each truly feasible pick's true energy over the least, as a fraction
    /// Per SLO factor: picks, and picks truly feasible and within 5 % of the true least energy.
    std::map<double, std::pair<int, int>> byFactor;
    /// Per SLO factor: the largest margin under the SLO of a mode within 5 % of the least energy (the
    /// most room a good pick can have), as a fraction.
    std::map<double, double> withinMargin;
};

/// The picks of every model, predictor seed (one, the prior's, without a predictor) and SLO of 1.1-3x the
/// true MAXN latency; `lines` gets each limit without a pick, each infeasible pick and each more than 5 %
/// above the least energy.
Tally judge(double confidence, bool withPredictor, std::vector<std::string>* lines) {
    const Grid& g = grid();
    Tally t;
    for (const char* model : models) {
        const Workload& w = g.workload(model);
        const double maxn = test::otherPhysicsTruth(g.device(), w, g.maxn().mode).seconds;
        std::vector<test::OtherPhysicsTruth> truths;
        for (const PowerMode& mode : g.modes())
            truths.push_back(test::otherPhysicsTruth(g.device(), w, mode));
        const std::vector<uint64_t> seeds = withPredictor ? predictorSeeds() : std::vector<uint64_t>{3};
        for (uint64_t seed : seeds) {
            const Predictor* predictor = withPredictor ? &predictorOf(model, seed) : nullptr;
            for (double factor : {1.1, 1.5, 2.0, 3.0}) {
                const double slo = factor * maxn;
                // the true optimum among the truly feasible modes
                double best = 1e300;
                for (const test::OtherPhysicsTruth& truth : truths)
                    if (truth.seconds <= slo) best = std::min(best, truth.seconds * truth.watts);
                for (const test::OtherPhysicsTruth& truth : truths)
                    if (truth.seconds <= slo && truth.seconds * truth.watts <= 1.05 * best)
                        t.withinMargin[factor] = std::max(t.withinMargin[factor], 1.0 - truth.seconds / slo);
                const Recommendation r = g.recommend(model, predictor, slo, confidence);
                if (!r.recommended) {
                    ++t.none;
                    if (lines)
                        lines->push_back(std::string(model) + " seed " + std::to_string(seed) + " SLO " +
                                         std::to_string(factor).substr(0, 3) + "x: no pick");
                    continue;
                }
                const PowerMode& mode = r.candidates[*r.recommended].profile.mode;
                const test::OtherPhysicsTruth truth = test::otherPhysicsTruth(g.device(), w, mode);
                ++t.picks;
                const bool feasible = truth.seconds <= slo;
                const double energy = truth.seconds * truth.watts / best - 1.0;
                t.feasible += feasible;
                t.withinFivePercent += feasible && energy <= 0.05;
                if (feasible) t.energyExcess.push_back(energy);
                ++t.byFactor[factor].first;
                t.byFactor[factor].second += feasible && energy <= 0.05;
                t.worstExcess = std::max(t.worstExcess, truth.seconds / slo - 1.0);
                if (lines && (!feasible || energy > 0.05)) {
                    char line[200];
                    std::snprintf(
                        line, sizeof line,
                        "%s seed %d SLO %.1fx: %s, true latency %+.1f %% off the SLO, energy %+.1f %%", model,
                        int(seed), factor, mode.name.c_str(), 100 * (truth.seconds / slo - 1.0),
                        100 * energy);
                    lines->push_back(line);
                }
            }
        }
    }
    return t;
}

} // namespace

class TestRecommendConfidence : public QObject {
    Q_OBJECT

private slots:
    void quantilesAreTheNormalOnes() {
        QVERIFY(std::abs(normalQuantile(0.5)) < 1e-12);
        QVERIFY(std::abs(normalQuantile(0.9) - 1.2815515655446004) < 1e-9);
        QVERIFY(std::abs(normalQuantile(0.999) - 3.090232306167813) < 1e-8);
        QVERIFY(std::abs(normalQuantile(0.01) + 2.3263478740408408) < 1e-8);
        const Interval i = intervalAt(5.0, 0.1, 0.9);
        QVERIFY(std::abs(i.high - 5.0 * std::exp(0.12815515655446004)) < 1e-9);
        QVERIFY(std::abs(i.low - 5.0 * std::exp(-0.12815515655446004)) < 1e-9);
        const Interval same = intervalAt(5.0, 0.1, 0.5);
        QCOMPARE(same.low, 5.0);
        QCOMPARE(same.high, 5.0);
    }

    // A mode 10 % under the SLO with a 10 % spread: its upper bound at 90 % (x 1.137) breaks the SLO, the
    // prediction itself (0.5) does not; the power cap the same way; the text carries the bound.
    void theUpperBoundMeetsTheLimit() {
        Candidate c;
        c.profile.mode.name = "m";
        c.summary.latencySeconds = 4.5e-3;
        c.summary.averageWatts = 9.0;
        c.summary.energyJoules = 4.5e-3 * 9.0;
        c.summary.spread = {0.1, 0.1, 0.14};
        Constraints slo;
        slo.latencySloSeconds = 5e-3;
        QVERIFY(limitBreaches(c, slo, 4.5e-3).latency);
        slo.confidence = 0.5;
        QVERIFY(!limitBreaches(c, slo, 4.5e-3).latency);
        Constraints cap;
        cap.powerCapWatts = 10.0;
        QVERIFY(limitBreaches(c, cap, 4.5e-3).power);
        cap.confidence = 0.5;
        QVERIFY(!limitBreaches(c, cap, 4.5e-3).power);
        QCOMPARE(boundedLatency(c, 0.9), std::string("4.50 ms (≤ 5.12 ms at 90 %)"));
        QCOMPARE(boundedLatency(c, 0.5), std::string("4.50 ms"));
        Constraints bad;
        bad.confidence = 0.4;
        QVERIFY_THROWS_EXCEPTION(InputError, validateConstraints(bad));
        bad.confidence = 1.0;
        QVERIFY_THROWS_EXCEPTION(InputError, validateConstraints(bad));
    }

    // The figure priorSpread() states is the prior's RMS log error on the other physics, rounded up.
    void priorSpreadIsThePriorsOwnError() {
        const Grid& g = grid();
        double time = 0, power = 0, energy = 0;
        int n = 0;
        for (const char* model : models)
            for (int64_t batch : {1, 4, 16}) {
                AnalysisSettings settings;
                settings.dims.batch = batch;
                const Workload w = test::analyzeSample(model, settings);
                const std::vector<ModeSummary> prior = sweepModes(w, g.profiles());
                for (size_t i = 0; i < g.modes().size(); i += 4) {
                    const test::OtherPhysicsTruth truth =
                        test::otherPhysicsTruth(g.device(), w, g.modes()[i]);
                    const double t = std::log(truth.seconds / prior[i].latencySeconds);
                    const double p = std::log(truth.watts / prior[i].averageWatts);
                    time += t * t;
                    power += p * p;
                    energy += (t + p) * (t + p);
                    ++n;
                }
            }
        time = std::sqrt(time / n);
        power = std::sqrt(power / n);
        energy = std::sqrt(energy / n);
        qInfo("the prior against the other physics, %d configurations: RMS log error time %.3f, power %.3f, "
              "energy %.3f",
              n, time, power, energy);
        const PredictionSpread stated = priorSpread();
        QVERIFY2(stated.latency >= time && stated.latency <= time + 0.05, "the prior's time spread is stale");
        QVERIFY2(stated.power >= power && stated.power <= power + 0.05, "the prior's power spread is stale");
        QVERIFY2(stated.energy >= energy && stated.energy <= energy + 0.05,
                 "the prior's energy spread is stale");
    }

    // A predictor's spread survives its file: the GP's factor is rebuilt on load.
    void spreadSurvivesThePredictorFile() {
        const Grid& g = grid();
        Predictor p = g.learn("resnet50", 20, 3);
        p.board = g.device().id;
        p.model = "resnet50.onnx";
        p.modelHash = modelFileHash(test::samplePath("resnet50"));
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.json").toStdString();
        savePredictor(path, p, "runs.csv");
        const Predictor loaded = loadPredictor(path);
        const std::vector<ModeProfile> some(g.profiles().begin(), g.profiles().begin() + 50);
        const auto a = predictModes(p, g.device(), g.workload("resnet50"), Precision::FP32, some);
        const auto b = predictModes(loaded, g.device(), g.workload("resnet50"), Precision::FP32, some);
        for (size_t i = 0; i < a.size(); ++i) {
            QVERIFY(a[i].spread.latency > 0);
            QVERIFY(std::abs(a[i].spread.latency - b[i].spread.latency) < 1e-6);
            QVERIFY(std::abs(a[i].spread.power - b[i].spread.power) < 1e-6);
            QVERIFY(std::abs(a[i].spread.energy - b[i].spread.energy) < 1e-6);
        }
    }

    // A predictor of batch-1 runs says nothing of batch 4's error: its intervals there widen (10 % a doubling
    // beyond the runs' batches) and hold the other physics' true latency at batch 4 as often as stated.
    void intervalsWidenBeyondTheRunsBatches() {
        const Grid& g = grid();
        const double z = normalQuantile(0.95); // two-sided 90 %
        int modes = 0, covered = 0;
        for (const char* model : models) {
            const Predictor p = g.learn(model, 20, 3);
            AnalysisSettings settings;
            settings.dims.batch = 4;
            const Workload four = test::analyzeSample(model, settings);
            std::vector<ModeProfile> some;
            for (size_t i = 0; i < g.profiles().size(); i += 97)
                some.push_back(g.profiles()[i]);
            const auto atOne = predictModes(p, g.device(), g.workload(model), Precision::FP32, some);
            const auto atFour = predictModes(p, g.device(), four, Precision::FP32, some);
            for (size_t i = 0; i < some.size(); ++i) {
                QVERIFY(atFour[i].spread.latency >= atOne[i].spread.latency + 0.2 - 1e-9);
                const double truth = test::otherPhysicsTruth(g.device(), four, some[i].mode).seconds;
                const double error = std::abs(std::log(truth / atFour[i].latencySeconds));
                covered += error <= z * atFour[i].spread.latency;
                ++modes;
            }
        }
        std::printf(
            "batch-1 predictors at batch 4: true latency within the 90 %% interval in %d of %d modes\n",
            covered, modes);
        QVERIFY2(covered >= 0.9 * modes, qPrintable(QString::number(covered)));
    }

    // The intervals hold near the runs and far from them: over the whole grid, the share of configurations
    // whose true latency and power lie inside the predictor's 90 % interval, for configurations nearer to a
    // run than cross-validation's held-out runs were and for those farther away.
    void intervalsCoverTheTruthNearAndFarFromTheRuns() {
        const Grid& g = grid();
        const double z = normalQuantile(0.95);     // a two-sided 90 % interval
        const double zUpper = normalQuantile(0.9); // the advisor's upper bound at 90 %
        int near = 0, nearCovered = 0, far = 0, farCovered = 0, farFlat = 0, latencyBelow = 0, powerBelow = 0;
        for (const char* model : models)
            for (uint64_t seed : {3, 4}) {
                const Predictor& p = predictorOf(model, seed);
                const Workload& w = g.workload(model);
                const auto predicted = predictModes(p, g.device(), w, Precision::FP32, g.profiles());
                const auto features =
                    configFeatures(g.device(), aggregateWorkload(w, Precision::FP32), g.profiles(),
                                   sweepModes(w, g.profiles()), learnerClockScale);
                const PredictionSpread cv = p.cvSpread();
                QVERIFY(p.coverage.heldOutDistance > 0);
                for (size_t i = 0; i < g.modes().size(); ++i) {
                    const test::OtherPhysicsTruth truth =
                        test::otherPhysicsTruth(g.device(), w, g.modes()[i]);
                    const double t = std::abs(std::log(predicted[i].latencySeconds / truth.seconds));
                    const double pw = std::abs(std::log(predicted[i].averageWatts / truth.watts));
                    const bool covered =
                        t <= z * predicted[i].spread.latency && pw <= z * predicted[i].spread.power;
                    latencyBelow += std::log(truth.seconds / predicted[i].latencySeconds) <=
                                    zUpper * predicted[i].spread.latency;
                    powerBelow += std::log(truth.watts / predicted[i].averageWatts) <=
                                  zUpper * predicted[i].spread.power;
                    if (p.coverage.nearest(features[i].position.data()) <= p.coverage.heldOutDistance) {
                        ++near;
                        nearCovered += covered;
                    } else {
                        ++far;
                        farCovered += covered;
                        farFlat += t <= z * cv.latency && pw <= z * cv.power;
                    }
                }
            }
        qInfo(
            "90 %% intervals of 6 predictors (20 runs) over the grid: near the runs %d of %d cover the truth "
            "(%.1f %%), farther than the held-out runs %d of %d (%.1f %%; %.1f %% with the cross-validated "
            "spread alone)",
            nearCovered, near, 100.0 * nearCovered / near, farCovered, far, 100.0 * farCovered / far,
            100.0 * farFlat / far);
        const int all = near + far;
        qInfo("upper bounds at 90 %%: the true latency lies below its bound in %.1f %% of the %d "
              "configurations, "
              "the true power in %.1f %%",
              100.0 * latencyBelow / all, all, 100.0 * powerBelow / all);
        QVERIFY2(latencyBelow >= 0.9 * all, "the latency's upper bound at 90 % holds less often than stated");
        QVERIFY2(powerBelow >= 0.9 * all, "the power's upper bound at 90 % holds less often than stated");
        QVERIFY2(nearCovered >= 0.85 * near, "the intervals near the runs are too narrow");
        QVERIFY2(farCovered >= 0.85 * far, "the intervals far from the runs are too narrow");
        QVERIFY2(farCovered > farFlat,
                 "the distance to the runs did not widen the intervals where it matters");
    }

    // The bounds are of the true value, which a run scatters about by the board's noise (2 % on the other
    // physics): the held-out errors were against runs, so the run noise the residual GP found comes off the
    // cross-validated spread. At a run the latency's spread is then below half the cross-validated error
    // (it was at least half of it, with the noise counted in both).
    void theBoundsAreOfTheTrueValueNotOfARun() {
        const Grid& g = grid();
        for (const char* model : models) {
            const Predictor& p = predictorOf(model, 3);
            const PredictionSpread noise = p.runNoise(), cv = p.cvSpread();
            qInfo(
                "%s: run noise the GP found: time %.2f %%, power %.2f %% (the board's 2 %%); cross-validated "
                "%.2f %%, %.2f %%",
                model, 100 * noise.latency, 100 * noise.power, 100 * cv.latency, 100 * cv.power);
            QVERIFY(noise.latency > 0.005 && noise.latency <= 0.04);
            QVERIFY(noise.power > 0.005 && noise.power <= 0.04);
            const Workload& w = g.workload(model);
            const HeldOutRun& run = p.heldOut.front();
            const ModeProfile profile = deriveModeProfile(g.device(), run.mode, findRuntime("tensorrt"));
            const ModeSummary atRun = predictModes(p, g.device(), w, Precision::FP32, {profile}).front();
            QVERIFY2(atRun.spread.latency < cv.latency / 2, model);
        }
    }

    // The learner's residual model places the GPU and EMC clocks on a log scale, 1 + log2(clock / max) / 4
    // (0 from a sixteenth of the highest clock down), tune's on linear shares; cores and the CPU clock are
    // shares on both.
    void theLearnerPlacesGpuAndEmcClocksOnALogScale() {
        QVERIFY(learnerClockScale == ClockScale::Log);
        DeviceSpec device = grid().device();
        const int64_t lowEmc = device.maxEmcHz() / 20; // below a sixteenth: the scale's floor
        device.emcLadderHz.insert(device.emcLadderHz.begin(), lowEmc);
        const RuntimeProfile runtime = findRuntime("tensorrt");
        const int64_t gpu = device.gpuLadderHz.front(), emc = device.emcLadderHz[1];
        const std::vector<ModeProfile> profiles{
            deriveModeProfile(device, customPowerMode(device, 2, device.cpuLadderKhz.front(), gpu, emc),
                              runtime),
            deriveModeProfile(
                device, customPowerMode(device, 4, device.maxCpuKhz(), device.maxGpuHz(), lowEmc), runtime)};
        const Workload& w = grid().workload("resnet50");
        const WorkloadAggregate aggregate = aggregateWorkload(w, Precision::FP32);
        const auto log =
            configFeatures(device, aggregate, profiles, featureSummaries(w, profiles), ClockScale::Log);
        const auto linear =
            configFeatures(device, aggregate, profiles, featureSummaries(w, profiles), ClockScale::Linear);
        const double gpuShare = double(gpu) / double(device.maxGpuHz()),
                     emcShare = double(emc) / double(device.maxEmcHz());
        QVERIFY(std::abs(log[0].position[2] - (1.0 + std::log2(gpuShare) / 4.0)) < 1e-12);
        QVERIFY(std::abs(log[0].position[3] - (1.0 + std::log2(emcShare) / 4.0)) < 1e-12);
        QVERIFY(std::abs(linear[0].position[2] - gpuShare) < 1e-12);
        QVERIFY(std::abs(linear[0].position[3] - emcShare) < 1e-12);
        QCOMPARE(log[1].position[2], 1.0);
        QCOMPARE(log[1].position[3], 0.0);
        for (size_t i = 0; i < profiles.size(); ++i)
            for (int axis : {0, 1, 4, 5})
                QCOMPARE(log[i].position[size_t(axis)], linear[i].position[size_t(axis)]);
        // the lowest EMC steps of the shipped ladder stand apart as the highest do
        const double step = 1.0 + std::log2(double(device.emcLadderHz[2]) / double(device.maxEmcHz())) / 4.0;
        QVERIFY(step - log[0].position[3] > 0.4);
    }

    // The measure: 3 models x 8 predictor seeds x SLOs of 1.1, 1.5, 2 and 3x the true MAXN latency.
    void picksAtNinetyPercentAreTrulyFeasible() {
        std::vector<std::string> lines;
        const Tally confident = judge(0.9, true, &lines);
        const Tally median = judge(0.5, true, nullptr);
        const Tally prior = judge(0.9, false, nullptr);
        for (const std::string& line : lines)
            qInfo("%s", line.c_str());
        qInfo("20-run predictor, confidence 0.9: %d of %d picks truly feasible, %d within 5 %% of the true "
              "least energy, worst %.1f %% over the SLO, %d without a pick",
              confident.feasible, confident.picks, confident.withinFivePercent, 100 * confident.worstExcess,
              confident.none);
        QVERIFY2(!confident.energyExcess.empty(), "no pick truly feasible");
        std::vector<double> excess = confident.energyExcess;
        std::sort(excess.begin(), excess.end());
        double meanExcess = 0.0;
        for (double e : excess)
            meanExcess += e / double(excess.size());
        qInfo("the feasible picks' true energy over the least: mean %.2f %%, median %.2f %%, 90th percentile "
              "%.2f %%, worst %.2f %%",
              100 * meanExcess, 100 * excess[excess.size() / 2], 100 * excess[excess.size() * 9 / 10],
              100 * excess.back());
        for (const auto& [factor, counts] : confident.byFactor)
            qInfo("SLO %.1fx: %d of %d picks truly feasible and within 5 %%; such modes lie at most %.2f %% "
                  "under the SLO",
                  factor, counts.second, counts.first, 100 * confident.withinMargin.at(factor));
        qInfo("20-run predictor, confidence 0.5 (the predictions themselves): %d of %d truly feasible, %d "
              "within 5 %%, worst %.1f %% over",
              median.feasible, median.picks, median.withinFivePercent, 100 * median.worstExcess);
        qInfo("the prior alone, confidence 0.9: %d of %d truly feasible, %d within 5 %%, %d without a pick",
              prior.feasible, prior.picks, prior.withinFivePercent, prior.none);
        QCOMPARE(confident.picks + confident.none, 96);
        QVERIFY2(confident.feasible * 100 >= 95 * confident.picks,
                 "fewer than 95 % of the picks truly feasible");
        // 3 without a pick (8 while the residual model placed the clocks on linear shares)
        QVERIFY2(confident.none * 20 <= 96, "more than a twentieth of the limits got no pick");
        QVERIFY2(confident.feasible >= median.feasible, "the confidence made picks less feasible");
        // on average the feasible picks cost 2.95 % more than the least energy (median 3.24 %)
        QVERIFY2(meanExcess <= 0.05,
                 "the feasible picks cost more than 5 % over the least energy on average");
        // 78 of 93 within 5 % with the run noise off the bounds (73 with it; 67 of 88 with the GPU and EMC
        // clocks on linear shares in the residual model; 42 while power was read at the roofline's busy
        // shares)
        QVERIFY2(confident.withinFivePercent * 5 >= confident.picks * 4,
                 "fewer than 80 % of the picks within 5 % of the true least energy");
        // Where the modes within 5 % of the least energy have room under the SLO (1.5-3x, 24-66 %) the picks
        // are within 5 % (66 of 72); at 1.1x (12 of 21) they lie at most 7.8 % under it, and a mode must be
        // predicted about 5 % under the SLO to meet it at 90 % with a 4 % spread.
        int slackPicks = 0, slackWithin = 0;
        for (const auto& [factor, counts] : confident.byFactor)
            if (factor > 1.2) {
                slackPicks += counts.first;
                slackWithin += counts.second;
            }
        // (66 of 72 leaves one pick of room at 90 %: a seeded measure, so any loss is a change to look at)
        QVERIFY2(slackWithin * 10 >= slackPicks * 9,
                 "fewer than 90 % of the picks under 1.5-3x SLOs within 5 % of the true least energy");
    }

    // The corner a free fit of 20 runs trades away: ResNet-50 at 2 cores, the lowest CPU clock and a fast
    // GPU, where the other physics' host time is a third of the latency. The predictor of seed 4 (no run
    // within 0.5 of it on linear clock shares) predicted 4.67 ms for 6.28 ms (-26 %) before time kept the
    // roofline's shape.
    void theLowCpuCornerIsNotTradedAway() {
        const Grid& g = grid();
        const Predictor& p = predictorOf("resnet50", 4);
        QCOMPARE(p.time.ridgePull, 0.3);
        QCOMPARE(p.power.ridgePull, 1e-3);
        const PowerMode corner = customPowerMode(g.device(), 2, 268800, 1134750000, 3199000000);
        const ModeProfile profile = deriveModeProfile(g.device(), corner, findRuntime("tensorrt"));
        const Workload& w = g.workload("resnet50");
        const ModeSummary predicted = predictModes(p, g.device(), w, Precision::FP32, {profile}).front();
        const test::OtherPhysicsTruth truth = test::otherPhysicsTruth(g.device(), w, corner);
        const double error = predicted.latencySeconds / truth.seconds - 1.0;
        qInfo("resnet50 seed 4 at %s: predicted %.3f ms, true %.3f ms (%+.1f %%), spread %.3f",
              corner.name.c_str(), predicted.latencySeconds * 1e3, truth.seconds * 1e3, 100 * error,
              predicted.spread.latency);
        QVERIFY2(std::abs(error) < 0.1, "the low-CPU corner is more than 10 % off");
    }
};

ROOFTOP_TEST_CLASS(TestRecommendConfidence)
#include "test_recommend_confidence.moc"
