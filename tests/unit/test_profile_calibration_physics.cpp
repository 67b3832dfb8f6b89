// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop compare --calibrate-classes judged on the per-layer board physics
// (tests/support/layer_physics_board.h, not Rooftop's prior): fitted to ResNet-50's per-layer profile, how
// well the runtime predicts the models the profile never showed (depthwise convolutions, squeeze-excitation,
// hard-swish) in the profile's mode and in a slow custom mode, against the prior it started from. The table
// this prints is in docs/calibration.md.
#include "core/compare/compare_session.h"
#include "core/compare/compare_writers.h"
#include "core/device/ceilings.h"
#include "core/device/mode_set.h"
#include "core/roofline/prediction.h"
#include "support/compare_fixtures.h"
#include "support/device_fixtures.h"
#include "support/layer_physics_board.h"
#include "support/simulated_engine.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace rooftop;

namespace {

PowerMode maxn() {
    return modesFor(test::shippedAgxOrin(), "MAXN").front();
}

// A slow corner of the grid: 4 cores at 1.19 GHz, the GPU at 420.75 MHz, the memory at 2,133 MHz.
PowerMode slowMode() {
    PowerMode m;
    m.name = "c4-cpu1190-gpu420-emc2133";
    m.onlineCores = 4;
    m.cpuKhz = 1190400;
    m.gpuHz = 420750000;
    m.emcHz = 2133000000;
    return m;
}

// A per-layer profile of `model` at `batch` in MAXN (name, ms per layer) with its time per inference, fitted
// with compare --calibrate-classes.
ClassCalibration calibratedOn(const QTemporaryDir& dir, const std::string& model, int64_t batch,
                              const std::vector<std::pair<std::string, double>>& layers, double inferenceMs) {
    return test::calibrateSampleProfile(
        dir.filePath(QString::fromStdString(model) + QString("-b%1").arg(batch)), model, batch, "MAXN",
        layers, test::trtexecTimesJson(std::vector<double>(20, inferenceMs)));
}

// ResNet-50's per-layer profile at `batch` in MAXN on the layer physics, fitted.
ClassCalibration calibratedOnResnet50(const QTemporaryDir& dir, int64_t batch) {
    const Workload w = test::analyzeSample("resnet50", test::atBatch(batch));
    return calibratedOn(dir, "resnet50", batch, test::layerPhysicsProfile(test::shippedAgxOrin(), w, maxn()),
                        test::layerPhysicsSeconds(test::shippedAgxOrin(), w, maxn()) * 1e3);
}

struct Case {
    const char* model;
    int64_t batch;
    bool slow;
};

const Case cases[] = {{"mobilenet_v3_large", 1, false}, {"mobilenet_v3_large", 8, false},
                      {"efficientnet_b0", 1, false},    {"efficientnet_b0", 8, false},
                      {"mobilenet_v2", 8, false},       {"mobilenet_v3_large", 1, true},
                      {"mobilenet_v3_large", 8, true},  {"efficientnet_b0", 1, true},
                      {"efficientnet_b0", 8, true},     {"resnet18", 8, true}};

double errorPct(const Case& c, const RuntimeProfile& runtime) {
    const Workload w = test::analyzeSample(c.model, test::atBatch(c.batch));
    const PowerMode mode = c.slow ? slowMode() : maxn();
    const double truth = test::layerPhysicsSeconds(test::shippedAgxOrin(), w, mode);
    const double predicted =
        predict(w, deriveModeProfile(test::shippedAgxOrin(), mode, runtime)).latencySeconds;
    return 100.0 * (predicted / truth - 1.0);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Summary {
    double medianAbs = 0.0, worstAbs = 0.0;
};

Summary summarise(const std::vector<double>& errors) {
    std::vector<double> magnitudes;
    for (double e : errors)
        magnitudes.push_back(std::abs(e));
    return {median(magnitudes), *std::max_element(magnitudes.begin(), magnitudes.end())};
}

} // namespace

class TestProfileCalibrationPhysics : public QObject {
    Q_OBJECT

private slots:
    // The case: one CNN's layer profile fits the classes and the floor it shows; the classes it
    // cannot show keep their estimates relative to the fitted ones, so the models that are mostly those
    // classes are predicted no worse than by the prior the profile started from.
    void aResnetProfileLeavesTheOtherModelsNoWorse() {
        QTemporaryDir dir;
        const RuntimeProfile prior = findRuntime("tensorrt");
        for (int64_t batch : {1, 8}) {
            const ClassCalibration fit = calibratedOnResnet50(dir, batch);
            qInfo("%s", classCalibrationTable(fit).c_str());
            QVERIFY(fit.classes[static_cast<size_t>(OperatorClass::DenseConv)].fitted);
            QVERIFY(!fit.classes[static_cast<size_t>(OperatorClass::DepthwiseConv)].fitted);
            // depthwise keeps its estimate relative to the fitted classes: x 1 / their geometric mean
            // multiplier, weighted by the time each dominates
            double logSum = 0.0, weight = 0.0;
            for (const ClassFit& c : fit.classes)
                if (c.fitted) {
                    logSum += c.measuredMs * std::log(c.before / c.after);
                    weight += c.measuredMs;
                }
            const ClassFit& depthwise = fit.classes[static_cast<size_t>(OperatorClass::DepthwiseConv)];
            QVERIFY(std::abs(depthwise.after / (depthwise.before / std::exp(logSum / weight)) - 1.0) < 1e-6);
            QCOMPARE(fit.runtime.classEfficiency[static_cast<size_t>(OperatorClass::DepthwiseConv)],
                     depthwise.after);
            QVERIFY(fit.classes[static_cast<size_t>(OperatorClass::DepthwiseConv)].relative);
            // the same fit with the classes it could not fit at their absolute estimates, the floor and the
            // wave tail at the prior's (what --calibrate-classes did before)
            RuntimeProfile absolute = fit.runtime;
            for (const ClassFit& c : fit.classes)
                if (c.relative) absolute.classEfficiency[static_cast<size_t>(c.operatorClass)] = c.before;
            absolute.kernelFloorScale = prior.kernelFloorScale;
            absolute.kernelTailScale = prior.kernelTailScale;
            std::vector<double> before, after, absoluteErrors;
            for (const Case& c : cases) {
                before.push_back(errorPct(c, prior));
                after.push_back(errorPct(c, fit.runtime));
                absoluteErrors.push_back(errorPct(c, absolute));
                qInfo(
                    "%-20s batch %2lld %-26s prior %+6.1f %%  fitted to ResNet-50 b%lld %+6.1f %%  (absolute "
                    "estimates, floor and tail not fitted: %+6.1f %%)",
                    c.model, static_cast<long long>(c.batch), c.slow ? slowMode().name.c_str() : "MAXN",
                    before.back(), static_cast<long long>(batch), after.back(), absoluteErrors.back());
            }
            const Summary b = summarise(before), a = summarise(after), o = summarise(absoluteErrors);
            qInfo("median |error| %.1f %% -> %.1f %% (absolute estimates: %.1f %%), worst %.1f %% -> %.1f %% "
                  "(%.1f %%), %zu cases",
                  b.medianAbs, a.medianAbs, o.medianAbs, b.worstAbs, a.worstAbs, o.worstAbs, before.size());
            QVERIFY2(a.medianAbs <= b.medianAbs, "the calibration made the unseen models worse");
            QVERIFY2(a.medianAbs <= o.medianAbs, "relative estimates no better than absolute ones");
            QVERIFY2(a.medianAbs < 20.0, qPrintable(QString::number(a.medianAbs)));
            QVERIFY2(a.worstAbs < 50.0, qPrintable(QString::number(a.worstAbs)));
        }
    }

    // At batch 1 most of ResNet-50's layers are at the floor or near it: the profile fits the floor itself
    // (the physics' least kernel time is 4 us, the prior's 1.5 us in MAXN), and the fitted runtime file
    // carries it as a fitted scale.
    void theFloorIsFittedWhereLayersSitOnIt() {
        QTemporaryDir dir;
        const ClassCalibration fit = calibratedOnResnet50(dir, 1);
        QVERIFY2(fit.floor.fitted, fit.floor.note.c_str());
        QVERIFY(fit.floor.layers >= 2);
        QVERIFY2(fit.floor.afterUs > fit.floor.beforeUs, qPrintable(QString::number(fit.floor.afterUs)));
        QVERIFY(fit.runtime.kernelFloorScale > 1.0);
        const Ceilings c = deriveCeilings(test::shippedAgxOrin(), maxn(), fit.runtime);
        QCOMPARE(c.minimumKernel.provenance, Provenance::Fitted);
        QVERIFY(std::abs(c.minimumKernel.value * 1e6 / fit.floor.afterUs - 1.0) < 1e-9);
        QVERIFY(fit.layerErrorAfterPct < fit.layerErrorBeforePct);
    }

    // The fit's mechanics: a profile written by the prior itself with known kernel constants (half the
    // wave-tail penalty, twice the floor, every class at 0.8 of its estimate) gives them back; the grid holds
    // the tail scale.
    void knownKernelConstantsAreRecovered() {
        QTemporaryDir dir;
        RuntimeProfile truth = findRuntime("tensorrt");
        truth.kernelTailScale = 0.5;
        truth.kernelFloorScale = 2.0;
        for (double& e : truth.classEfficiency)
            e *= 0.8;
        const Workload w = test::analyzeSample("resnet50", test::atBatch(1));
        const ModelPrediction p = predict(w, deriveModeProfile(test::shippedAgxOrin(), maxn(), truth));
        std::vector<std::pair<std::string, double>> layers;
        for (size_t i = 0; i < w.layers.size(); ++i)
            if (p.layers[i].seconds > 0) layers.emplace_back(w.layers[i].name, p.layers[i].seconds * 1e3);
        const ClassCalibration fit = calibratedOn(dir, "resnet50", 1, layers, p.latencySeconds * 1e3);
        qInfo("%s", classCalibrationTable(fit).c_str());
        QVERIFY2(fit.tail.fitted, fit.tail.note.c_str());
        QCOMPARE(fit.tail.after, 0.5);
        QCOMPARE(fit.runtime.kernelTailScale, 0.5);
        QVERIFY2(fit.floor.fitted, fit.floor.note.c_str());
        QVERIFY(std::abs(fit.runtime.kernelFloorScale / 2.0 - 1.0) < 1e-6);
        for (size_t k = 0; k < static_cast<size_t>(operatorClassCount); ++k) // fitted, or kept relative
            QVERIFY2(std::abs(fit.runtime.classEfficiency[k] / truth.classEfficiency[k] - 1.0) < 1e-6,
                     operatorClassName(static_cast<OperatorClass>(k)));
        QVERIFY(fit.layerErrorAfterPct < 1e-4);
        // and predicts another model in another mode as the truth does
        const Workload other = test::analyzeSample("resnet18", test::atBatch(8));
        const double expected =
            predict(other, deriveModeProfile(test::shippedAgxOrin(), slowMode(), truth)).latencySeconds;
        const double got =
            predict(other, deriveModeProfile(test::shippedAgxOrin(), slowMode(), fit.runtime)).latencySeconds;
        QVERIFY2(std::abs(got / expected - 1.0) < 1e-3, qPrintable(QString::number(got / expected)));
    }
};

ROOFTOP_TEST_CLASS(TestProfileCalibrationPhysics)
#include "test_profile_calibration_physics.moc"
