// SPDX-License-Identifier: GPL-3.0-or-later
// The prior's kernel-size and operator-class model judged on a per-layer board physics it was not built
// around (tests/support/layer_physics_board.h): calibrated on two runs of one CNN (ResNet-50 at batch 1 and
// 64, MAXN on the AGX Orin 64GB), the other models' and batches' latencies. The table this prints is the one
// in the README (docs/learn.md, "The prior on another physics").
#include "core/device/ceilings.h"
#include "core/device/mode_set.h"
#include "core/roofline/calibration.h"
#include "core/roofline/prediction.h"
#include "core/roofline/prediction_spread.h"
#include "support/device_fixtures.h"
#include "support/layer_physics_board.h"
#include "support/other_physics_board.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QTest>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>

using namespace rooftop;

namespace {

struct Case {
    const char* model;
    int64_t batch;
};

// Every sample a user of a Jetson runs, at batches the calibration did not see (ResNet-50 between them).
const Case cases[] = {{"resnet50", 4},
                      {"resnet50", 16},
                      {"resnet18", 1},
                      {"resnet18", 32},
                      {"mobilenet_v3_large", 1},
                      {"mobilenet_v3_large", 16},
                      {"mobilenet_v3_large", 64},
                      {"mobilenet_v2", 1},
                      {"mobilenet_v2", 32},
                      {"efficientnet_b0", 1},
                      {"efficientnet_b0", 32},
                      {"vit_b_16", 1},
                      {"vit_b_16", 8},
                      {"bert_base", 1},
                      {"bert_base", 16}};

Workload counted(const std::string& model, int64_t batch) {
    AnalysisSettings settings;
    settings.dims.batch = batch;
    return test::analyzeSample(model, settings);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The runtime the old prior was: no class estimates, no kernel-size model.
RuntimeProfile bareRoofline(RuntimeProfile runtime) {
    runtime.classEfficiency = unitClassFactors();
    runtime.kernelSizeModel = false;
    return runtime;
}

struct Errors {
    std::vector<double> percent; ///< signed, per case
    double medianAbs = 0.0, worstAbs = 0.0;
    int insideInterval = 0; ///< cases whose truth lies inside the prediction's 90 % interval
};

constexpr double z90 = 1.6448536269514722; // the two-sided 90 % interval: exp(+-z s) around the prediction

// `start` calibrated on ResNet-50 at batch 1 and 64 (MAXN) of the layer physics.
RuntimeCalibration calibratedOnResnet50(const RuntimeProfile& start) {
    const DeviceSpec& device = test::shippedAgxOrin();
    const PowerMode maxn = powerModeFrom(device, device.fastestStockMode());
    std::vector<std::pair<CalibrationRun, ModelPrediction>> runs;
    for (int64_t batch : {1, 64}) {
        const Workload w = counted("resnet50", batch);
        CalibrationRun run;
        run.mode = maxn.name;
        run.batch = batch;
        run.latencySeconds = test::layerPhysicsSeconds(device, w, maxn);
        runs.emplace_back(run, predict(w, deriveModeProfile(device, maxn, start)));
    }
    return calibrateRuntime(device, start, runs);
}

Errors calibratedErrors(const RuntimeProfile& start, bool print) {
    const DeviceSpec& device = test::shippedAgxOrin();
    const PowerMode maxn = powerModeFrom(device, device.fastestStockMode());
    const RuntimeProfile tuned = calibratedOnResnet50(start).runtime;
    const ModeProfile profile = deriveModeProfile(device, maxn, tuned);
    Errors errors;
    std::vector<double> absolute;
    for (const Case& c : cases) {
        const Workload w = counted(c.model, c.batch);
        const double truth = test::layerPhysicsSeconds(device, w, maxn);
        const double predicted = predict(w, profile).latencySeconds;
        const double error = 100.0 * (predicted / truth - 1.0);
        const double spread = LayerPredictor(w).spread(profile).latency;
        const bool inside = std::abs(std::log(truth / predicted)) <= z90 * spread;
        errors.insideInterval += inside ? 1 : 0;
        errors.percent.push_back(error);
        absolute.push_back(std::abs(error));
        if (print)
            std::printf("  %-20s batch %3lld  true %9.3f ms  predicted %9.3f ms  %+6.1f %%  90 %% interval "
                        "x/ %.2f %s\n",
                        c.model, static_cast<long long>(c.batch), truth * 1e3, predicted * 1e3, error,
                        std::exp(z90 * spread), inside ? "holds it" : "MISSES");
    }
    errors.medianAbs = median(absolute);
    errors.worstAbs = *std::max_element(absolute.begin(), absolute.end());
    return errors;
}

} // namespace

class TestPriorPhysics : public QObject {
    Q_OBJECT

private slots:
    // Calibrated on ResNet-50 at batch 1 and 64, the 15 other cases within 20 % median and 50 % worst, 80 %
    // of them inside their 90 % interval (the targets), and a lower median than the bare roofline
    // (one scale for every class, no kernel sizes) calibrated the same way (its worst case, BERT-base, is no
    // better: README, docs/calibration.md).
    void twoRunsOfOneCnnPredictTheOthers() {
        std::printf(
            "prior with kernel sizes and class estimates (tensorrt), calibrated on resnet50 b1+b64:\n");
        const Errors prior = calibratedErrors(findRuntime("tensorrt"), true);
        std::printf("bare roofline calibrated the same way:\n");
        const Errors bare = calibratedErrors(bareRoofline(findRuntime("tensorrt")), true);
        std::printf(
            "median |error| %.1f %% (worst %.1f %%); bare roofline %.1f %% (worst %.1f %%); the 90 %% "
            "interval holds %d of %zu\n",
            prior.medianAbs, prior.worstAbs, bare.medianAbs, bare.worstAbs, prior.insideInterval,
            prior.percent.size());
        QVERIFY2(prior.medianAbs < 20.0, qPrintable(QString::number(prior.medianAbs)));
        // the third target: at least 80 % of the cases inside their 90 % interval
        QVERIFY2(prior.insideInterval * 5 >= static_cast<int>(prior.percent.size()) * 4,
                 qPrintable(QString::number(prior.insideInterval)));
        QVERIFY2(prior.worstAbs < 50.0, qPrintable(QString::number(prior.worstAbs)));
        QVERIFY(prior.medianAbs < bare.medianAbs);
    }

    // Intervals are narrow where the calibration checked the prior and wide where it did not: ResNet-50's
    // classes were fitted, BERT-base's GEMMs and normalisations were not (under 5 % of ResNet-50's time), and
    // a batch beyond the calibrated ones widens the fitted part by 10 % a doubling.
    void intervalsAreWideWhereThePriorWasNotChecked() {
        const RuntimeCalibration fit = calibratedOnResnet50(findRuntime("tensorrt"));
        QCOMPARE(fit.runtime.calibratedBatchLow, int64_t(1));
        QCOMPARE(fit.runtime.calibratedBatchHigh, int64_t(64));
        QVERIFY(fit.runtime.latencySpread > 0);
        QVERIFY2(fit.classesAtEstimate.find("gemm") != std::string::npos, fit.classesAtEstimate.c_str());
        const DeviceSpec& device = test::shippedAgxOrin();
        const ModeProfile profile =
            deriveModeProfile(device, powerModeFrom(device, device.fastestStockMode()), fit.runtime);
        auto spreadOf = [&](const std::string& model, int64_t batch) {
            const Workload w = counted(model, batch);
            return LayerPredictor(w).spread(profile).latency;
        };
        const double resnet = spreadOf("resnet50", 16), bert = spreadOf("bert_base", 16);
        std::printf(
            "latency spread, calibrated on resnet50: resnet50 b16 %.3f, bert_base b16 %.3f, prior %.3f\n",
            resnet, bert, priorSpread().latency);
        QVERIFY(resnet < 0.5 * priorSpread().latency);
        QVERIFY(bert > 2.0 * resnet);
        QVERIFY(bert <= priorSpread().latency);
        // the arithmetic: 80 % of the time in a fitted class at 0.1, 20 % at the prior's; then 3 doublings
        // out
        std::array<double, operatorClassCount> shares{};
        shares[0] = 0.8;
        shares[1] = 0.2;
        ClassEfficiencies checked;
        checked.fitted[0] = true;
        checked.checkedSpread = 0.1;
        checked.checkedBatchLow = 1;
        checked.checkedBatchHigh = 8;
        QVERIFY(std::abs(coverageSpread(shares, checked, 4).latency - (0.08 + 0.2 * priorSpread().latency)) <
                1e-12);
        QVERIFY(std::abs(coverageSpread(shares, checked, 64).latency -
                         (0.8 * 0.4 + 0.2 * priorSpread().latency)) < 1e-12);
        // the time no class holds (kernel floors: 30 % here) keeps the prior's spread
        std::array<double, operatorClassCount> withFloor{};
        withFloor[0] = 0.6;
        withFloor[1] = 0.1;
        QVERIFY(std::abs(coverageSpread(withFloor, checked, 4).latency -
                         (0.6 * 0.1 + 0.4 * priorSpread().latency)) < 1e-12);
        checked.fitted[0] = false; // nothing fitted: the prior's own spread
        QCOMPARE(coverageSpread(shares, checked, 4).latency, priorSpread().latency);
    }

    // The prior's stated error (priorSpread, from inference) is also its error on training steps: its RMS log
    // error against the other physics (tests/support/other_physics_board.h, written apart from the roofline)
    // over every 8th grid mode for 5 CNNs' steps (minibatch 16, Adam) lies within 0.05 of the stated spread,
    // as that of the same CNNs' inference (batch 1 and 16) does. Training's answers (recommend, plan) take
    // it.
    void priorSpreadHoldsForTrainingSteps() {
        const DeviceSpec device = test::shippedAgxOrin();
        const RuntimeProfile runtime = findRuntime("tensorrt");
        const test::GridSample sample = test::gridSample(device, runtime, 8);
        const std::vector<PowerMode>& modes = sample.modes;
        const std::vector<ModeProfile>& profiles = sample.profiles;
        struct Rms {
            double time = 0, power = 0, energy = 0, worstPower = 0;
            int n = 0;
        };
        const auto add = [&](Rms& rms, const Workload& w) {
            const std::vector<ModeSummary> prior = sweepModes(w, profiles);
            for (size_t i = 0; i < modes.size(); ++i) {
                const test::OtherPhysicsTruth truth = test::otherPhysicsTruth(device, w, modes[i]);
                const double t = std::log(truth.seconds / prior[i].latencySeconds);
                const double p = std::log(truth.watts / prior[i].averageWatts);
                rms.time += t * t;
                rms.power += p * p;
                rms.energy += (t + p) * (t + p);
                rms.worstPower = std::max(rms.worstPower, std::abs(p));
                ++rms.n;
            }
        };
        Rms training, inference;
        for (const char* model :
             {"resnet18", "resnet50", "mobilenet_v2", "mobilenet_v3_large", "efficientnet_b0"}) {
            AnalysisSettings settings;
            settings.dims.batch = 16;
            settings.phase = Phase::Training;
            add(training, test::analyzeSample(model, settings));
            for (int64_t batch : {1, 16}) {
                AnalysisSettings plain;
                plain.dims.batch = batch;
                add(inference, test::analyzeSample(model, plain));
            }
        }
        for (const auto& [name, r] :
             {std::make_pair("training", training), std::make_pair("inference", inference)})
            std::printf(
                "prior against the other physics, %s, %d configurations: RMS log error time %.3f, power "
                "%.3f, energy %.3f; worst power %.3f\n",
                name, r.n, std::sqrt(r.time / r.n), std::sqrt(r.power / r.n), std::sqrt(r.energy / r.n),
                r.worstPower);
        QCOMPARE(training.n, 5 * int(modes.size()));
        const PredictionSpread stated = priorSpread();
        for (const Rms& r : {training, inference}) {
            QVERIFY2(std::abs(std::sqrt(r.time / r.n) - stated.latency) <= 0.05, "time spread stale");
            QVERIFY2(std::abs(std::sqrt(r.power / r.n) - stated.power) <= 0.05, "power spread stale");
            QVERIFY2(std::abs(std::sqrt(r.energy / r.n) - stated.energy) <= 0.05, "energy spread stale");
        }
    }
};

ROOFTOP_TEST_CLASS(TestPriorPhysics)
#include "test_prior_physics.moc"
