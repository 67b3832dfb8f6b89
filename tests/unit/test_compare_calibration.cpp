// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop compare --calibrate-classes: per operator class efficiencies fitted to one model's trtexec profile,
// written by a simulated engine whose physics differ from the prior (tests/support/simulated_engine.h), then
// used to predict other models' latency against what the same engine measures for them. Also the runtime
// file's class fields, the provenance of predictions that use classes a profile did not fit, and the
// predict/sweep agreement with class efficiencies.
#include "core/common/errors.h"
#include "core/compare/compare_session.h"
#include "core/compare/compare_writers.h"
#include "core/device/ceilings.h"
#include "core/device/mode_set.h"
#include "core/roofline/layer_operator_class.h"
#include "core/roofline/prediction.h"
#include "support/compare_fixtures.h"
#include "support/device_fixtures.h"
#include "support/simulated_engine.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace rooftop;

namespace {

const std::string boardId = "agx-orin-64gb";

PowerMode modeNamed(const std::string& name) {
    return modesFor(test::shippedAgxOrin(), name).front();
}

struct Calibrated {
    ClassCalibration calibration;
    test::SimulatedEngineRun engine;
};

// Profiles `model` on the simulated engine in `mode` and fits the tensorrt runtime to it.
Calibrated calibrateOn(const QTemporaryDir& dir, const std::string& model, int64_t batch,
                       const std::string& mode) {
    Calibrated out;
    out.engine = test::simulateEngine(test::shippedAgxOrin(),
                                      test::analyzeSample(model, test::atBatch(batch)), modeNamed(mode), 11);
    out.calibration = test::calibrateSampleProfile(dir.filePath(QString::fromStdString(model)), model, batch,
                                                   mode, out.engine.layers, out.engine.timesJson);
    return out;
}

struct Check {
    double errorPct = 0.0; ///< predicted against the engine's measured GPU time per inference
    ModelPrediction prediction;
};

Check predictAgainstEngine(const std::string& model, int64_t batch, const std::string& mode,
                           const RuntimeProfile& runtime) {
    const Workload w = test::analyzeSample(model, test::atBatch(batch));
    const PowerMode m = modeNamed(mode);
    const double measured = test::simulateEngine(test::shippedAgxOrin(), w, m, 23).inferenceMs;
    Check check;
    check.prediction = predict(w, deriveModeProfile(test::shippedAgxOrin(), m, runtime));
    check.errorPct = 100.0 * (check.prediction.latencySeconds * 1e3 - measured) / measured;
    return check;
}

const ClassFit& fitOf(const ClassCalibration& c, OperatorClass k) {
    return c.classes[static_cast<size_t>(k)];
}

} // namespace

class CompareCalibration : public QObject {
    Q_OBJECT

private slots:
    void operatorClassesOfLayers() {
        const Workload w = test::analyzeSample("mobilenet_v3_large");
        // features.1's first conv is depthwise (16 groups of 16 channels, weight 16x1x3x3); the stem is dense
        QCOMPARE(operatorClassOf(test::layerNamed(w, "/features/features.0/features.0.0/Conv")),
                 OperatorClass::DenseConv);
        QCOMPARE(operatorClassOf(test::layerNamed(w, "/features/features.1/block/block.0/block.0.0/Conv")),
                 OperatorClass::DepthwiseConv);
        QCOMPARE(operatorClassOf(test::layerNamed(w, "/features/features.0/features.0.2/HardSwish")),
                 OperatorClass::Pointwise);
        const Workload bert = test::analyzeSample("bert_base");
        int normalizations = 0, gemms = 0;
        for (const LayerCount& layer : bert.layers) {
            if (operatorClassOf(layer) == OperatorClass::Normalization) ++normalizations;
            if (operatorClassOf(layer) == OperatorClass::Gemm) ++gemms;
        }
        QVERIFY2(normalizations > 0 && gemms > 0, "BERT has softmax/layer norms and matrix products");
    }

    // The target: efficiencies fitted from one model's profile predict another model within 15 %.
    void classesFittedOnOneModelPredictAnother() {
        QTemporaryDir dir;
        const Calibrated fit = calibrateOn(dir, "mobilenet_v2", 8, "MAXN");
        const RuntimeProfile& runtime = fit.calibration.runtime;
        qInfo("%s", classCalibrationTable(fit.calibration).c_str());
        QVERIFY(fitOf(fit.calibration, OperatorClass::DenseConv).fitted);
        QVERIFY(fitOf(fit.calibration, OperatorClass::DepthwiseConv).fitted);
        // the depthwise convolutions are much further from the roofs than the dense ones on this engine
        QVERIFY(fitOf(fit.calibration, OperatorClass::DepthwiseConv).after <
                0.7 * fitOf(fit.calibration, OperatorClass::DenseConv).after);
        QVERIFY(fit.calibration.layerErrorAfterPct < fit.calibration.layerErrorBeforePct);

        const RuntimeProfile uniform = findRuntime("tensorrt");
        struct Target {
            const char* model;
            int64_t batch;
            const char* mode;
        };
        for (const Target& t :
             {Target{"mobilenet_v3_large", 8, "MAXN"}, Target{"mobilenet_v3_large", 64, "MAXN"},
              Target{"efficientnet_b0", 8, "MAXN"}, Target{"efficientnet_b0", 1, "MAXN"}}) {
            const Check before = predictAgainstEngine(t.model, t.batch, t.mode, uniform);
            const Check after = predictAgainstEngine(t.model, t.batch, t.mode, runtime);
            qInfo("%s batch %lld %s: uniform tensorrt %+.1f %%, classes fitted on mobilenet_v2 %+.1f %%",
                  t.model, static_cast<long long>(t.batch), t.mode, before.errorPct, after.errorPct);
            QVERIFY2(std::abs(after.errorPct) < 15.0, t.model);
            if (std::abs(before.errorPct) > 15.0)
                QVERIFY2(std::abs(after.errorPct) < std::abs(before.errorPct), t.model);
            QCOMPARE(after.prediction.provenance,
                     Provenance::Estimate); // the peaks' runtime efficiency is one
        }
        // another mode of the same model: the engine's launch and overlap laws are not the prior's, so the
        // profile's mode is where the fit holds best; it still beats the uniform runtime
        const Check before = predictAgainstEngine("mobilenet_v2", 8, "MODE_30W", uniform);
        const Check after = predictAgainstEngine("mobilenet_v2", 8, "MODE_30W", runtime);
        qInfo("mobilenet_v2 batch 8 MODE_30W: uniform tensorrt %+.1f %%, classes fitted in MAXN %+.1f %%",
              before.errorPct, after.errorPct);
        QVERIFY(std::abs(after.errorPct) < std::abs(before.errorPct));
    }

    void dispatchAndFixedCostComeFromTheProfile() {
        QTemporaryDir dir;
        const Calibrated fit = calibrateOn(dir, "resnet50", 1, "MAXN");
        QVERIFY(fit.calibration.dispatchFitted);
        QVERIFY(fit.calibration.runtime.dispatchFitted && fit.calibration.runtime.inferenceFitted);
        // the engine launches for 4 us per layer; the per-node fit carries it within a factor of two
        QVERIFY2(fit.calibration.dispatchAfterUs > 2.0 && fit.calibration.dispatchAfterUs < 8.0,
                 qPrintable(QString::number(fit.calibration.dispatchAfterUs)));
        // fixed cost: the reformat plus the 40 us beside the layers in --exportTimes (noise 2 %)
        double reformatMs = 0.0;
        for (const auto& layer : fit.engine.layers)
            if (layer.first.rfind("Reformatting", 0) == 0) reformatMs += layer.second;
        QVERIFY2(std::abs(fit.calibration.fixedMs - reformatMs - 0.04) < 0.02 * fit.engine.inferenceMs + 1e-3,
                 qPrintable(QString::number(fit.calibration.fixedMs)));
        QVERIFY(!fitOf(fit.calibration, OperatorClass::DepthwiseConv).fitted);
        QCOMPARE(fitOf(fit.calibration, OperatorClass::DepthwiseConv).note,
                 std::string("not in the profile; its estimate kept relative to the fitted classes"));
    }

    // Calibrated on ResNet-50 (no depthwise convolution, one Gemm), a prediction that uses a class no profile
    // fitted stays an estimate, whatever else was fitted.
    void aClassNotFittedKeepsThePredictionAnEstimate() {
        QTemporaryDir dir;
        const RuntimeProfile fromResnet = calibrateOn(dir, "resnet50", 1, "MAXN").calibration.runtime;
        QVERIFY(fromResnet.classFitted[static_cast<size_t>(OperatorClass::DenseConv)]);
        QVERIFY(!fromResnet.classFitted[static_cast<size_t>(OperatorClass::Gemm)]); // its one fc layer
        QVERIFY(!fromResnet.classFitted[static_cast<size_t>(OperatorClass::DepthwiseConv)]);
        const PowerMode maxn = modeNamed("MAXN");
        const Workload resnet = test::analyzeSample("resnet50");
        const Workload mobilenet = test::analyzeSample("mobilenet_v3_large");
        // every class but the depthwise one fitted, over measured ceilings: ResNet-50 is fitted, MobileNetV3
        // not
        RuntimeProfile runtime = fromResnet;
        runtime.efficiencyFitted = true;
        runtime.classFitted.fill(true);
        runtime.classFitted[static_cast<size_t>(OperatorClass::DepthwiseConv)] = false;
        ModeProfile profile = deriveModeProfile(test::shippedAgxOrin(), maxn, runtime);
        for (SourcedValue* v :
             {&profile.ceilings.peakFlops[0], &profile.ceilings.bandwidth, &profile.power.constantPower,
              &profile.power.energyPerFlop, &profile.power.energyPerByte})
            v->provenance = Provenance::Measured;
        QCOMPARE(weakestProvenance(resnet, profile), Provenance::Fitted);
        QCOMPARE(weakestProvenance(mobilenet, profile), Provenance::Estimate);
    }

    void sweepAgreesWithPredictUnderClassEfficiencies() {
        RuntimeProfile runtime = findRuntime("tensorrt");
        runtime.classEfficiency[static_cast<size_t>(OperatorClass::DepthwiseConv)] = 0.1;
        runtime.classEfficiency[static_cast<size_t>(OperatorClass::Pointwise)] = 0.5;
        runtime.classEfficiency[static_cast<size_t>(OperatorClass::DataMovement)] = 0.7;
        const Workload w = test::analyzeSample("mobilenet_v3_large");
        std::vector<ModeProfile> profiles;
        for (const PowerMode& mode : modesFor(test::shippedAgxOrin(), "stock"))
            profiles.push_back(deriveModeProfile(test::shippedAgxOrin(), mode, runtime));
        const std::vector<ModeSummary> sweep = sweepModes(w, profiles);
        for (size_t m = 0; m < profiles.size(); ++m) {
            const ModelPrediction p = predict(w, profiles[m]);
            QVERIFY(std::abs(sweep[m].latencySeconds / p.latencySeconds - 1.0) < 1e-9);
            QVERIFY(std::abs(sweep[m].energyJoules / p.energyJoules - 1.0) < 1e-9);
        }
        // and the factors slow the classes they name: a depthwise layer takes its roofline over 0.1 instead
        // of over tensorrt's estimate
        const ModelPrediction slow = predict(w, profiles.front());
        const ModelPrediction plain = predict(
            w, deriveModeProfile(test::shippedAgxOrin(), profiles.front().mode, findRuntime("tensorrt")));
        const size_t dw = static_cast<size_t>(
            &test::layerNamed(w, "/features/features.1/block/block.0/block.0.0/Conv") - w.layers.data());
        const double rooflineSlow = slow.layers[dw].seconds - slow.layers[dw].dispatchSeconds;
        const double rooflinePlain = plain.layers[dw].seconds - plain.layers[dw].dispatchSeconds;
        const double estimate =
            findRuntime("tensorrt").classEfficiency[static_cast<size_t>(OperatorClass::DepthwiseConv)];
        QVERIFY(std::abs(rooflineSlow / rooflinePlain - estimate / 0.1) < 1e-9);
    }

    void runtimeFileKeepsTheClasses() {
        QTemporaryDir dir;
        const RuntimeProfile runtime = calibrateOn(dir, "mobilenet_v2", 8, "MAXN").calibration.runtime;
        const std::string path = dir.filePath("runtime.json").toStdString();
        saveRuntimeFile(path, runtime);
        const RuntimeProfile loaded = loadRuntimeFromFile(path);
        QCOMPARE(loaded.name, std::string("tensorrt-calibrated"));
        QVERIFY(loaded.calibrated && !loaded.efficiencyFitted);
        for (int k = 0; k < operatorClassCount; ++k) {
            QCOMPARE(loaded.classFitted[static_cast<size_t>(k)], runtime.classFitted[static_cast<size_t>(k)]);
            QVERIFY(std::abs(loaded.classEfficiency[static_cast<size_t>(k)] -
                             runtime.classEfficiency[static_cast<size_t>(k)]) < 1e-12);
        }
        QVERIFY(loaded.classBasis.find("mobilenet_v2-profile.json") != std::string::npos);
        QVERIFY(loaded.classBasis.find("batch 8") != std::string::npos);
        QVERIFY(loaded.classBasis.find("the model's own dims") !=
                std::string::npos); // the workload it was of
    }

    void badClassFieldsAreRefused() {
        QTemporaryDir dir;
        const auto refuse = [&](const std::string& classes, const std::string& part) {
            const QString path = dir.filePath("bad.json");
            QVERIFY(test::writeText(path,
                                    "{\"schema\": \"rooftop-runtime/1\", \"name\": \"x\", "
                                    "\"dispatch_us_at_max_cpu\": 5, \"compute_efficiency\": 0.7, "
                                    "\"bandwidth_efficiency\": 0.8, \"calibrated\": true, \"basis\": \"b\"" +
                                        classes + "}"));
            try {
                loadRuntimeFile(path.toStdString());
                QFAIL(("accepted: " + classes).c_str());
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find(part) != std::string::npos, e.what());
            }
        };
        refuse(", \"class_efficiency\": {\"convs\": 0.5}, \"class_basis\": \"p\"", "unknown operator class");
        refuse(", \"class_efficiency\": {\"gemm\": 0}, \"class_basis\": \"p\"", "class_efficiency.gemm");
        refuse(", \"class_efficiency\": {\"gemm\": \"fast\"}, \"class_basis\": \"p\"", "expected a number");
        refuse(", \"class_efficiency\": [0.5], \"class_basis\": \"p\"", "expected an object");
        refuse(", \"class_efficiency\": {\"gemm\": 0.5}", "class_basis");
        refuse(", \"class_basis\": \"p\"", "without class_efficiency");
        // the prior's fields: estimates up to 1000, a batch range of two ordered sizes, a positive floor
        // scale, a fill scale of 0-10
        refuse(", \"class_estimate\": {\"gemm\": 1500}, \"class_estimate_basis\": \"e\"",
               "class_estimate.gemm");
        refuse(", \"class_estimate\": {\"convs\": 0.5}, \"class_estimate_basis\": \"e\"",
               "unknown operator class");
        refuse(", \"class_estimate_basis\": \"e\"", "without class_estimate");
        refuse(", \"calibrated_batches\": [8, 1]", "calibrated_batches");
        refuse(", \"calibrated_batches\": [0, 4]", "calibrated_batches");
        refuse(", \"calibrated_batches\": \"1-4\"", "calibrated_batches");
        refuse(", \"kernel_floor_scale\": 0", "kernel_floor_scale");
        refuse(", \"kernel_tail_scale\": -0.5", "kernel_tail_scale");
        refuse(", \"kernel_tail_scale\": 11", "kernel_tail_scale");
        refuse(", \"kernel_size_model\": \"yes\"", "kernel_size_model");
        refuse(", \"calibrated_precision\": \"fp12\"", "calibrated_precision");
        refuse(", \"calibrated_precision\": 16", "calibrated_precision");
    }

    // A runtime file keeps the prior's fields: estimates of the classes not fitted, the kernel model, the
    // floor and fill scales and the calibrated batches; an older calibrated file without kernel_size_model
    // keeps the bare roofline it was fitted on.
    void runtimeFilesKeepThePriorsFields() {
        QTemporaryDir dir;
        RuntimeProfile r = findRuntime("tensorrt");
        r.calibrated = true;
        r.classEfficiency[static_cast<size_t>(OperatorClass::Gemm)] = 0.42;
        r.classFitted[static_cast<size_t>(OperatorClass::Gemm)] = true;
        r.classBasis = "fitted";
        r.kernelFloorScale = 1.25;
        r.kernelTailScale = 0.5;
        r.classEfficiency[static_cast<size_t>(OperatorClass::DepthwiseConv)] = 1.7; // an estimate moved up
        r.calibratedBatchLow = 1;
        r.calibratedBatchHigh = 64;
        r.calibratedPrecision = "fp16";
        const std::string path = dir.filePath("rt.json").toStdString();
        saveRuntimeFile(path, r);
        const RuntimeProfile back = loadRuntimeFromFile(path);
        QCOMPARE(back.classEfficiency, r.classEfficiency);
        QCOMPARE(back.classFitted, r.classFitted);
        QCOMPARE(back.kernelSizeModel, true);
        QCOMPARE(back.kernelFloorScale, 1.25);
        QCOMPARE(back.kernelTailScale, 0.5);
        QCOMPARE(back.calibratedBatchLow, int64_t(1));
        QCOMPARE(back.calibratedBatchHigh, int64_t(64));
        QCOMPARE(back.calibratedPrecision, std::string("fp16"));
        const QString old = dir.filePath("old.json");
        QVERIFY(test::writeText(old,
                                "{\"schema\": \"rooftop-runtime/1\", \"name\": \"x\", "
                                "\"dispatch_us_at_max_cpu\": 5, \"compute_efficiency\": 0.7, "
                                "\"bandwidth_efficiency\": 0.8, \"calibrated\": true, \"basis\": \"b\"}"));
        QCOMPARE(loadRuntimeFromFile(old.toStdString()).kernelSizeModel, false);
    }

    // profiled at 1113.6 MHz (MODE_15W) of a 2201.6 MHz CPU: dispatch and fixed cost are written at the top
    // clock (x 1113.6 / 2201.6), so that the file predicts MODE_15W with the cost it was fitted at
    void costsAreStoredAtTheTopCpuClock() {
        QTemporaryDir dir;
        const Calibrated fit = calibrateOn(dir, "resnet50", 1, "MODE_15W");
        const ClassCalibration& c = fit.calibration;
        QVERIFY(c.dispatchFitted && c.fixedFitted);
        const double scale = 1113.6 / 2201.6;
        QVERIFY(std::abs(c.runtime.dispatchSecondsAtMaxCpu * 1e6 / (c.dispatchAfterUs * scale) - 1.0) < 1e-9);
        QVERIFY(std::abs(c.runtime.inferenceSecondsAtMaxCpu * 1e3 / (c.fixedMs * scale) - 1.0) < 1e-9);
        const ModeProfile back = deriveModeProfile(test::shippedAgxOrin(), modeNamed("MODE_15W"), c.runtime);
        QVERIFY(std::abs(back.ceilings.dispatchOverhead.value * 1e6 / c.dispatchAfterUs - 1.0) < 1e-6);
        QVERIFY(std::abs(back.ceilings.inferenceOverhead.value * 1e3 / c.fixedMs - 1.0) < 1e-6);
    }

    // without overhead layers or --trtexec-times the profile says nothing of the fixed cost: it is kept
    void fixedCostIsKeptWithoutEvidence() {
        QTemporaryDir dir;
        const Workload w = test::analyzeSample("resnet18");
        std::vector<std::pair<std::string, double>> layers;
        for (const auto& layer : test::simulateEngine(test::shippedAgxOrin(), w, modeNamed("MAXN"), 3).layers)
            if (layer.first.rfind("Reformatting", 0) != 0) layers.push_back(layer);
        const QString profile = dir.filePath("no-overhead.json");
        QVERIFY(test::writeText(profile, test::trtexecProfileJson(layers)));
        CompareRequest request;
        request.analysis.modelPath = test::samplePath("resnet18");
        request.analysis.deviceId = boardId;
        request.profilePath = profile.toStdString();
        const ClassCalibration c = runClassCalibration(request);
        QVERIFY(!c.fixedFitted);
        QVERIFY(!c.runtime.inferenceFitted);
        QCOMPARE(c.runtime.inferenceSecondsAtMaxCpu, findRuntime("tensorrt").inferenceSecondsAtMaxCpu);
    }

    void aProfileWithoutNodesCannotCalibrate() {
        QTemporaryDir dir;
        const QString profile = dir.filePath("overhead.json");
        QVERIFY(test::writeText(
            profile,
            test::trtexecProfileJson(
                {{"Reformatting CopyNode for Input Tensor 0 to /conv1/Conv", 0.1}, {"/conv1/Conv", 0.0}})));
        CompareRequest request;
        request.analysis.modelPath = test::samplePath("resnet18");
        request.analysis.deviceId = boardId;
        request.profilePath = profile.toStdString();
        try {
            runClassCalibration(request);
            QFAIL("calibrated from overhead alone");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("no measured layer with ONNX nodes and a positive time") !=
                         std::string::npos,
                     e.what());
        }
    }
};

ROOFTOP_TEST_CLASS(CompareCalibration)
#include "test_compare_calibration.moc"
