// SPDX-License-Identifier: GPL-3.0-or-later
// Predictions, sweeps and roofline lines against hand-computed cases (shared/reference/papers.md section 0).
#include "core/common/errors.h"
#include "core/device/measured_profile.h"
#include "core/roofline/prediction.h"
#include "core/roofline/roofline_curves.h"
#include "support/cli_runner.h"
#include "support/compare.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <random>

using namespace rooftop;

namespace {

SourcedValue sv(double value, Provenance p = Provenance::Datasheet) {
    return {value, p, "test"};
}

// peak FP32 1 TFLOP/s, FP16 2, tensor FP16 4, tensor INT8 8; BW 100 GB/s; t0 10 us;
// pi0 5 W, eps_flop 10 pJ, eps_byte 100 pJ, tensor ratio 0.25.
ModeProfile handProfile() {
    ModeProfile p;
    p.mode.name = "hand";
    p.ceilings.peakFlops = {sv(1e12), sv(2e12), sv(4e12), sv(8e12)};
    p.ceilings.bandwidth = sv(1e11);
    p.ceilings.dispatchOverhead = sv(1e-5, Provenance::Estimate);
    p.power.constantPower = sv(5.0, Provenance::Estimate);
    p.power.energyPerFlop = sv(1e-11, Provenance::Estimate);
    p.power.energyPerByte = sv(1e-10, Provenance::Estimate);
    p.power.tensorFlopEnergyRatio = 0.25;
    return p;
}

LayerCount layer(const char* name, OpKind kind, DataType type, int64_t flops, int64_t bytes,
                 bool fused = false) {
    LayerCount l;
    l.name = name;
    l.op = "Op";
    l.kind = kind;
    l.computeType = type;
    l.flops = flops;
    l.inputBytes = bytes;
    l.fused = fused;
    return l;
}

Workload handWorkload() {
    Workload w;
    w.layers = {
        layer("conv", OpKind::Matrix, DataType::Float32, 2000000000, 10000000),   // compute
        layer("norm", OpKind::Vector, DataType::Float32, 1000000, 100000000),     // memory
        layer("relu-fused", OpKind::Pointwise, DataType::Float32, 1000, 0, true), // no t0
        layer("add", OpKind::Pointwise, DataType::Float32, 1000, 1000),           // overhead
        layer("reshape", OpKind::Alias, DataType::Float32, 0, 0),                 // nothing
        layer("gemm16", OpKind::Matrix, DataType::Float16, 4000000000, 1000000),  // tensor fp16
        layer("gemm8", OpKind::Matrix, DataType::Int8, 8000000000, 2000000000),   // tensor int8, memory
    };
    return w;
}

// A random workload of n layers over every kind and precision.
Workload randomWorkload(int n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> logUniform(3.0, 10.0);
    const OpKind kinds[] = {OpKind::Matrix,       OpKind::Pointwise, OpKind::Vector,
                            OpKind::DataMovement, OpKind::Alias,     OpKind::Control};
    const DataType types[] = {DataType::Float32, DataType::Float16, DataType::Int8, DataType::BFloat16};
    Workload w;
    for (int i = 0; i < n; ++i) {
        LayerCount l;
        l.name = "l" + std::to_string(i);
        l.kind = kinds[rng() % 6];
        l.computeType = types[rng() % 4];
        l.flops = l.kind == OpKind::Alias || l.kind == OpKind::Control || l.kind == OpKind::DataMovement
                      ? 0
                      : static_cast<int64_t>(std::pow(10.0, logUniform(rng)));
        l.inputBytes = rng() % 7 == 0 ? 0 : static_cast<int64_t>(std::pow(10.0, logUniform(rng) - 1));
        l.outputBytes = static_cast<int64_t>(std::pow(10.0, logUniform(rng) - 2));
        l.fused = rng() % 2 == 0;
        w.layers.push_back(l);
    }
    return w;
}

ModeProfile randomProfile(std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u(0.2, 1.0);
    ModeProfile p = handProfile();
    for (auto& peak : p.ceilings.peakFlops)
        peak.value *= u(rng);
    p.ceilings.bandwidth.value *= u(rng);
    p.ceilings.dispatchOverhead.value *= u(rng);
    p.power.constantPower.value *= u(rng);
    p.power.energyPerFlop.value *= u(rng);
    p.power.energyPerByte.value *= u(rng);
    return p;
}

} // namespace

class RooflineTest : public QObject {
    Q_OBJECT
private slots:
    void computeClasses() {
        QCOMPARE(computeClassOf(layer("a", OpKind::Matrix, DataType::Float16, 1, 1)),
                 ComputeClass::TensorFp16);
        QCOMPARE(computeClassOf(layer("a", OpKind::Matrix, DataType::BFloat16, 1, 1)),
                 ComputeClass::TensorFp16);
        QCOMPARE(computeClassOf(layer("a", OpKind::Matrix, DataType::Int8, 1, 1)), ComputeClass::TensorInt8);
        QCOMPARE(computeClassOf(layer("a", OpKind::Matrix, DataType::UInt8, 1, 1)), ComputeClass::TensorInt8);
        QCOMPARE(computeClassOf(layer("a", OpKind::Matrix, DataType::Int4, 1, 1)), ComputeClass::TensorInt8);
        QCOMPARE(computeClassOf(layer("a", OpKind::Matrix, DataType::Float32, 1, 1)),
                 ComputeClass::Fp32CudaCore);
        QCOMPARE(computeClassOf(layer("a", OpKind::Vector, DataType::Float16, 1, 1)),
                 ComputeClass::Fp16CudaCore);
        QCOMPARE(computeClassOf(layer("a", OpKind::Pointwise, DataType::BFloat16, 1, 1)),
                 ComputeClass::Fp16CudaCore);
        QCOMPARE(computeClassOf(layer("a", OpKind::Vector, DataType::Int8, 1, 1)),
                 ComputeClass::Fp32CudaCore);
        QCOMPARE(QString(boundName(Bound::Overhead)), QString("overhead"));
    }

    void dispatchRule() {
        QVERIFY(dispatchesKernel(layer("a", OpKind::Matrix, DataType::Float32, 1, 1, true)));
        QVERIFY(dispatchesKernel(layer("a", OpKind::Vector, DataType::Float32, 1, 1, true)));
        QVERIFY(dispatchesKernel(layer("a", OpKind::DataMovement, DataType::Float32, 0, 1)));
        QVERIFY(dispatchesKernel(layer("a", OpKind::Pointwise, DataType::Float32, 1, 1, false)));
        QVERIFY(!dispatchesKernel(layer("a", OpKind::Pointwise, DataType::Float32, 1, 1, true)));
        QVERIFY(!dispatchesKernel(layer("a", OpKind::Alias, DataType::Float32, 0, 1)));
        QVERIFY(!dispatchesKernel(layer("a", OpKind::Control, DataType::Float32, 0, 0)));
    }

    void layerTimesEnergiesAndBounds() {
        const Workload w = handWorkload();
        const ModelPrediction p = predict(w, handProfile());
        QCOMPARE(p.layers.size(), size_t(7));
        // conv: max(2e9/1e12, 1e7/1e11) + 1e-5 = 2.01e-3 s; E = 1e-11 x 2e9 + 1e-10 x 1e7 + 5 x 2.01e-3.
        COMPARE_REL(p.layers[0].seconds, 2.01e-3);
        COMPARE_REL(p.layers[0].joules, 0.02 + 0.001 + 5 * 2.01e-3);
        QCOMPARE(p.layers[0].bound, Bound::Compute);
        QCOMPARE(p.layers[0].computeClass, ComputeClass::Fp32CudaCore);
        COMPARE_REL(p.layers[0].dispatchSeconds, 1e-5);
        // norm: max(1e-6, 1e-3) + 1e-5.
        COMPARE_REL(p.layers[1].seconds, 1.01e-3);
        COMPARE_REL(p.layers[1].joules, 1e-5 + 1e-2 + 5 * 1.01e-3);
        QCOMPARE(p.layers[1].bound, Bound::Memory);
        // fused relu: 1e3 / 1e12, no dispatch.
        COMPARE_REL(p.layers[2].seconds, 1e-9);
        COMPARE_REL(p.layers[2].joules, 1e-8 + 5e-9);
        QCOMPARE(p.layers[2].bound, Bound::Compute);
        QCOMPARE(p.layers[2].dispatchSeconds, 0.0);
        // add: max(1e-9, 1e-8) + 1e-5: overhead-bound.
        COMPARE_REL(p.layers[3].seconds, 1e-8 + 1e-5);
        QCOMPARE(p.layers[3].bound, Bound::Overhead);
        // reshape: nothing at all.
        QCOMPARE(p.layers[4].seconds, 0.0);
        QCOMPARE(p.layers[4].joules, 0.0);
        // gemm16 on tensor cores: 4e9 / 4e12 + 1e-5; FLOP energy x 0.25.
        QCOMPARE(p.layers[5].computeClass, ComputeClass::TensorFp16);
        COMPARE_REL(p.layers[5].seconds, 1e-3 + 1e-5);
        COMPARE_REL(p.layers[5].joules, 0.25 * 1e-11 * 4e9 + 1e-10 * 1e6 + 5 * (1e-3 + 1e-5));
        QCOMPARE(p.layers[5].bound, Bound::Compute);
        // gemm8: max(8e9 / 8e12, 2e9 / 1e11) = 0.02 s memory-bound.
        QCOMPARE(p.layers[6].computeClass, ComputeClass::TensorInt8);
        COMPARE_REL(p.layers[6].seconds, 0.02 + 1e-5);
        QCOMPARE(p.layers[6].bound, Bound::Memory);

        double seconds = 0, joules = 0;
        for (const auto& l : p.layers) {
            seconds += l.seconds;
            joules += l.joules;
        }
        COMPARE_REL(p.latencySeconds, seconds);
        COMPARE_REL(p.energyJoules, joules);
        COMPARE_REL(p.averageWatts, joules / seconds);
        QCOMPARE(p.batch, int64_t(1));
        QCOMPARE(p.provenance, Provenance::Estimate);
    }

    void batchFromSettings() {
        Workload w = handWorkload();
        w.settings.dims.batch = 8;
        const ModelPrediction p = predict(w, handProfile());
        QCOMPARE(p.batch, int64_t(8));
        COMPARE_REL(p.energyPerInference(), p.energyJoules / 8);
        COMPARE_REL(p.inferencesPerSecond(), 8 / p.latencySeconds);
    }

    void provenanceIsTheWeakestUsedInput() {
        QCOMPARE(weakerProvenance(Provenance::Measured, Provenance::Fitted), Provenance::Fitted);
        QCOMPARE(weakerProvenance(Provenance::Datasheet, Provenance::Predicted), Provenance::Predicted);
        QCOMPARE(weakerProvenance(Provenance::Predicted, Provenance::Estimate), Provenance::Estimate);
        QVERIFY(provenanceStrength(Provenance::Estimate) < provenanceStrength(Provenance::Predicted));
        QVERIFY(provenanceStrength(Provenance::Predicted) < provenanceStrength(Provenance::Datasheet));
        QVERIFY(provenanceStrength(Provenance::Datasheet) < provenanceStrength(Provenance::Fitted));
        QVERIFY(provenanceStrength(Provenance::Fitted) < provenanceStrength(Provenance::Measured));

        ModeProfile profile = handProfile();
        for (auto& peak : profile.ceilings.peakFlops)
            peak.provenance = Provenance::Measured;
        profile.ceilings.bandwidth.provenance = Provenance::Measured;
        profile.ceilings.dispatchOverhead.provenance = Provenance::Measured;
        for (SourcedValue* v :
             {&profile.power.constantPower, &profile.power.energyPerFlop, &profile.power.energyPerByte})
            v->provenance = Provenance::Fitted;
        QCOMPARE(predict(handWorkload(), profile).provenance, Provenance::Fitted);

        // An unused class does not weaken the prediction; a used one does.
        Workload fp32Only;
        fp32Only.layers = {layer("conv", OpKind::Matrix, DataType::Float32, 1000, 1000)};
        profile.ceilings.peakFlops[3].provenance = Provenance::Estimate;
        QCOMPARE(predict(fp32Only, profile).provenance, Provenance::Fitted);
        profile.ceilings.peakFlops[0].provenance = Provenance::Predicted;
        QCOMPARE(predict(fp32Only, profile).provenance, Provenance::Predicted);
    }

    void missingPeakIsAnInputError() {
        ModeProfile profile = handProfile();
        profile.ceilings.peakFlops[2].value = 0;
        QVERIFY_EXCEPTION_THROWN(predict(handWorkload(), profile), InputError);
        QVERIFY_EXCEPTION_THROWN(sweepModes(handWorkload(), {profile}), InputError);
        Workload fp32Only;
        fp32Only.layers = {layer("conv", OpKind::Matrix, DataType::Float32, 1000, 1000)};
        QCOMPARE(predict(fp32Only, profile).layers.size(), size_t(1));
    }

    void sweepEqualsPredict() {
        std::mt19937_64 rng(42);
        for (unsigned seed : {1u, 2u, 3u}) {
            const Workload w = randomWorkload(300, seed);
            std::vector<ModeProfile> profiles;
            for (int i = 0; i < 50; ++i)
                profiles.push_back(randomProfile(rng));
            profiles.push_back(handProfile());
            const std::vector<ModeSummary> sweep = sweepModes(w, profiles);
            QCOMPARE(sweep.size(), profiles.size());
            for (size_t m = 0; m < profiles.size(); ++m) {
                const ModelPrediction p = predict(w, profiles[m]);
                COMPARE_REL_TOL(sweep[m].latencySeconds, p.latencySeconds, 1e-9);
                COMPARE_REL_TOL(sweep[m].energyJoules, p.energyJoules, 1e-9);
                COMPARE_REL_TOL(sweep[m].averageWatts, p.averageWatts, 1e-9);
            }
        }
        const std::vector<ModeSummary> hand = sweepModes(handWorkload(), {handProfile()});
        COMPARE_REL_TOL(hand[0].latencySeconds, predict(handWorkload(), handProfile()).latencySeconds, 1e-9);
        QVERIFY(sweepModes(handWorkload(), {}).empty());
    }

    void timeRoofline() {
        const ModeProfile p = handProfile();
        // B_tau = 1e12 / 1e11 = 10 FLOP/B.
        COMPARE_REL(timeBalance(p.ceilings, ComputeClass::Fp32CudaCore), 10.0);
        COMPARE_REL(timeBalance(p.ceilings, ComputeClass::TensorInt8), 80.0);
        COMPARE_REL(attainableFlops(p.ceilings, ComputeClass::Fp32CudaCore, 2.0), 2e11);
        COMPARE_REL(attainableFlops(p.ceilings, ComputeClass::Fp32CudaCore, 10.0), 1e12);
        COMPARE_REL(attainableFlops(p.ceilings, ComputeClass::Fp32CudaCore, 1000.0), 1e12);
        QCOMPARE(attainableFlops(0.0, 1e12, 1e11), 0.0);
        const auto points =
            sampleCurve(p, ComputeClass::Fp32CudaCore, RooflineCurve::Attainable, 0.1, 1000, 4);
        QCOMPARE(points.size(), size_t(5)); // 0.1, 2.15, 46.4, 1000 and the knee at 10
        COMPARE_REL(points[2].intensity, 10.0);
        COMPARE_REL(points[2].value, 1e12);
        QCOMPARE(sampleCurve(p, ComputeClass::Fp32CudaCore, RooflineCurve::Attainable, 0.1, 1000, 5).size(),
                 size_t(5));
        COMPARE_REL(points.front().intensity, 0.1);
        COMPARE_REL(points.back().intensity, 1000.0);
        COMPARE_REL(points.back().value, 1e12);
    }

    void energyRooflineArchLine() {
        const ModeProfile p = handProfile();
        // B_eps = 1e-10 / 1e-11 = 10 FLOP/B on CUDA cores, 40 on tensor cores (FLOP energy x 0.25).
        COMPARE_REL(energyBalance(p.power, ComputeClass::Fp32CudaCore), 10.0);
        COMPARE_REL(energyBalance(p.power, ComputeClass::TensorFp16), 40.0);
        // I = 2 (memory-bound): J/FLOP = 1e-11 + 1e-10/2 + 5 / (2 x 1e11) = 8.5e-11.
        COMPARE_REL(energyEfficiency(p, ComputeClass::Fp32CudaCore, 2.0), 1.0 / 8.5e-11);
        // I = 100 (compute-bound): 1e-11 + 1e-12 + 5 / 1e12 = 1.6e-11.
        COMPARE_REL(energyEfficiency(p, ComputeClass::Fp32CudaCore, 100.0), 1.0 / 1.6e-11);
        // Choi's closed form: W/E = 1 / (eps_hat (1 + B_hat(I) / I)), eps_hat = eps_flop + pi0 tau_flop,
        // B_hat(I) = eta B_eps + (1 - eta) max(0, B_tau - I), eta = eps_flop / eps_hat.
        const double epsHat = 1e-11 + 5.0 / 1e12, eta = 1e-11 / epsHat;
        for (double i : {0.5, 3.0, 10.0, 42.0, 1e4}) {
            const double bHat = eta * 10.0 + (1 - eta) * std::max(0.0, 10.0 - i);
            COMPARE_REL(energyEfficiency(p, ComputeClass::Fp32CudaCore, i), 1.0 / (epsHat * (1 + bHat / i)));
        }
        QCOMPARE(energyEfficiency(p, ComputeClass::Fp32CudaCore, 0.0), 0.0);
    }

    void powerLine() {
        const ModeProfile p = handProfile();
        const double piFlop = 1e-11 * 1e12, piMem = 1e-10 * 1e11; // 10 W each
        // I >= B_tau: pi0 + pi_flop (1 + B_eps / I); I <= B_tau: pi0 + pi_mem (1 + I / B_eps).
        COMPARE_REL(averagePower(p, ComputeClass::Fp32CudaCore, 100.0), 5 + piFlop * (1 + 10.0 / 100));
        COMPARE_REL(averagePower(p, ComputeClass::Fp32CudaCore, 2.0), 5 + piMem * (1 + 2.0 / 10));
        COMPARE_REL(averagePower(p, ComputeClass::Fp32CudaCore, 10.0), 5 + piFlop * 2);
        COMPARE_REL(averagePower(p, ComputeClass::Fp32CudaCore, 0.0), 5 + piMem);
        // Its maximum is at B_tau.
        for (double i : {1.0, 5.0, 9.9, 10.1, 20.0, 1000.0})
            QVERIFY(averagePower(p, ComputeClass::Fp32CudaCore, i) <
                    averagePower(p, ComputeClass::Fp32CudaCore, 10.0));
    }

    void curvesMatchASingleLayerPrediction() {
        ModeProfile p = handProfile();
        p.ceilings.dispatchOverhead.value = 0;
        for (double intensity : {0.25, 4.0, 10.0, 64.0}) {
            Workload w;
            const int64_t bytes = 1 << 24;
            w.layers = {layer("x", OpKind::Matrix, DataType::Float32, static_cast<int64_t>(intensity * bytes),
                              bytes)};
            const ModelPrediction pr = predict(w, p);
            COMPARE_REL(static_cast<double>(w.layers[0].flops) / pr.latencySeconds,
                        attainableFlops(p.ceilings, ComputeClass::Fp32CudaCore, intensity));
            COMPARE_REL(static_cast<double>(w.layers[0].flops) / pr.energyJoules,
                        energyEfficiency(p, ComputeClass::Fp32CudaCore, intensity));
            COMPARE_REL(pr.averageWatts, averagePower(p, ComputeClass::Fp32CudaCore, intensity));
            const LayerPoint point = layerPoint(w.layers[0], pr.layers[0]);
            COMPARE_REL(point.intensity, intensity);
            COMPARE_REL(point.watts, pr.averageWatts);
        }
    }

    void logSpacing() {
        const auto xs = logSpacedIntensities(0.01, 100, 5);
        QCOMPARE(xs.size(), size_t(5));
        COMPARE_REL(xs[0], 0.01);
        COMPARE_REL(xs[2], 1.0);
        COMPARE_REL(xs[4], 100.0);
        QVERIFY(logSpacedIntensities(0, 1, 5).empty());
    }

    // ---- rooftop roofline (uses the catalog in resources/devices)
    // ----------------------------------------------

    void cliJsonTotalsAreLayerSums() {
        const auto r = test::runRooftop({"roofline", QString::fromStdString(test::samplePath("resnet18")),
                                         "--device", "agx-orin-64gb", "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(root["device"].toString(), QString("agx-orin-64gb"));
        QCOMPARE(root["runtime"].toObject()["name"].toString(), QString("tensorrt"));
        QCOMPARE(root["batch"].toInt(), 1);
        const QJsonArray modes = root["modes"].toArray();
        QCOMPARE(modes.size(), 4); // the stock modes
        const Workload w = test::analyzeSample("resnet18");
        for (const QJsonValue& value : modes) {
            const QJsonObject m = value.toObject();
            const QJsonArray layers = m["layers"].toArray();
            QCOMPARE(layers.size(), static_cast<qsizetype>(w.layers.size()));
            double ms = 0, mj = 0;
            for (const QJsonValue& l : layers) {
                ms += l.toObject()["time_ms"].toDouble();
                mj += l.toObject()["energy_mj"].toDouble();
            }
            COMPARE_REL_TOL(m["latency_ms"].toDouble(), ms, 1e-9);
            COMPARE_REL_TOL(m["batch_energy_mj"].toDouble(), mj, 1e-9); // batch 1: per inference too
            COMPARE_REL_TOL(m["energy_mj"].toDouble(), mj, 1e-9);
            COMPARE_REL_TOL(m["power_w"].toDouble(), mj / ms, 1e-9);
            QCOMPARE(m["provenance"].toString(), QString("estimate"));
            const QJsonObject fp32 = m["peak_flops"].toObject()["fp32"].toObject();
            QVERIFY(fp32["value"].toDouble() > 0);
            QVERIFY(fp32["basis"].toString().contains("tensorrt"));
            QVERIFY(m["power_model"].toObject().contains("constant_w"));
            QVERIFY(m["balance"].toObject()["time_fp32"].toDouble() > 0);
        }
        QCOMPARE(modes[0].toObject()["mode"].toString(), QString("MAXN"));
    }

    // One vocabulary: roofline gives a mode's peaks, bandwidth and overheads and the runtime as modes does.
    void cliCeilingsAreNamedAsModesNamesThem() {
        const auto roofline =
            test::runRooftop({"roofline", QString::fromStdString(test::samplePath("resnet18")), "--device",
                              "agx-orin-64gb", "--mode", "MAXN", "--format", "json"});
        const auto modes = test::runRooftop({"modes", "--device", "agx-orin-64gb", "--format", "json"});
        QCOMPARE(roofline.exitCode, 0);
        QCOMPARE(modes.exitCode, 0);
        const QJsonObject r = QJsonDocument::fromJson(roofline.out.toUtf8()).object();
        const QJsonObject m = QJsonDocument::fromJson(modes.out.toUtf8()).object();
        QCOMPARE(r["schema"].toString(), QString("rooftop-roofline/4"));
        const QJsonObject rMode = r["modes"].toArray()[0].toObject();
        const QJsonObject mMode = m["modes"].toArray()[0].toObject();
        QCOMPARE(mMode["mode"].toString(), QString("MAXN"));
        for (const char* key : {"peak_flops", "bandwidth", "dispatch_s", "inference_s"}) {
            QVERIFY2(rMode.contains(key) && rMode[key] == mMode[key], key);
        }
        QCOMPARE(rMode["peak_flops"].toObject().keys(),
                 (QStringList{"fp16", "fp32", "tensor_fp16", "tensor_fp4", "tensor_fp8", "tensor_int8"}));
        QVERIFY(!rMode.contains("ceilings"));
        QCOMPARE(r["runtime"], m["runtime"]);
        // the rate's interval is the latency's turned over, as the table writes it
        const double rate = rMode["inferences_per_s"].toDouble();
        const QJsonArray rates = rMode["inferences_per_s_interval"].toArray();
        const QJsonArray latencies = rMode["latency_ms_interval"].toArray();
        QCOMPARE(rates.size(), 2);
        QVERIFY(rates[0].toDouble() < rate && rate < rates[1].toDouble());
        const double batch = rate * rMode["latency_ms"].toDouble() / 1e3;
        COMPARE_REL(rates[0].toDouble(), batch * 1e3 / latencies[1].toDouble());
        COMPARE_REL(rates[1].toDouble(), batch * 1e3 / latencies[0].toDouble());
    }

    void cliIdealRuntimeGivesDatasheetRoofs() {
        const auto r =
            test::runRooftop({"roofline", QString::fromStdString(test::samplePath("resnet18")), "--device",
                              "agx-orin-64gb", "--mode", "MAXN", "--runtime", "ideal", "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject m =
            QJsonDocument::fromJson(r.out.toUtf8()).object()["modes"].toArray()[0].toObject();
        COMPARE_REL(m["peak_flops"].toObject()["fp32"].toObject()["value"].toDouble(), 5.326848e12);
        COMPARE_REL(m["bandwidth"].toObject()["value"].toDouble(), 204.736e9);
        QCOMPARE(m["bandwidth"].toObject()["provenance"].toString(), QString("datasheet"));
    }

    void cliTableAndCsv() {
        const QString model = QString::fromStdString(test::samplePath("resnet18"));
        auto r = test::runRooftop({"roofline", model, "--device", "agx-orin-64gb", "--mode", "MODE_30W"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("MODE_30W") && r.out.contains("top 10 layers by time") &&
                     r.out.contains("total:"),
                 qPrintable(r.out));
        r = test::runRooftop({"roofline", model, "--device", "agx-orin-64gb", "--mode", "0", "--mode",
                              "cores=8,cpu=1728000,gpu=612000000,emc=3199000000", "--format", "csv"});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.trimmed().split('\n');
        QVERIFY(lines[0].startsWith("mode,mode_latency_ms,"));
        const qsizetype layers = static_cast<qsizetype>(test::analyzeSample("resnet18").layers.size());
        QCOMPARE(lines.size(), 1 + 2 * layers);
        QVERIFY(lines[1].startsWith("MAXN,"));
        QVERIFY(lines.last().startsWith("c8-cpu1728-gpu612-emc3199,"));
    }

    void cliErrors() {
        const QString model = QString::fromStdString(test::samplePath("resnet18"));
        auto r = test::runRooftop({"roofline", model, "--device", "no-such-board"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("agx-orin-64gb") && r.err.count('\n') == 1, qPrintable(r.err));
        r = test::runRooftop({"roofline", model, "--device", "agx-orin-64gb", "--mode", "TURBO"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("TURBO") && r.err.contains("MAXN") && r.err.contains("MODE_15W"),
                 qPrintable(r.err));
        r = test::runRooftop({"roofline", model, "--device", "agx-orin-64gb", "--mode",
                              "cores=8,cpu=1728001,gpu=612000000,emc=3199000000"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("1728001"), qPrintable(r.err));
        r = test::runRooftop({"roofline", "--device", "agx-orin-64gb"});
        QCOMPARE(r.exitCode, 1);
        r = test::runRooftop({"roofline", model});
        QCOMPARE(r.exitCode, 1);
        r = test::runRooftop(
            {"roofline", model, "--device", "agx-orin-64gb", "--profile", "/nonexistent.json"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("/nonexistent.json"), qPrintable(r.err));
        r = test::runRooftop({"roofline", model, "--device", "agx-orin-64gb", "--format", "xml"});
        QCOMPARE(r.exitCode, 1);
    }

    void cliMeasuredProfileProvenance() {
        QTemporaryDir dir;
        const QString path = dir.filePath("orin.json");
        MeasuredProfile profile;
        profile.deviceId = "agx-orin-64gb";
        MeasuredMode m;
        m.mode.name = "MAXN";
        m.mode.onlineCores = 12;
        m.mode.cpuKhz = 2201600;
        m.mode.gpuHz = 1300500000;
        m.mode.emcHz = 3199000000;
        m.mode.activeTpcs = 8;
        m.peakFlops = {5.1e12, 10.2e12, 38e12, 76e12};
        m.bandwidth = 180e9;
        m.dispatchSeconds = 1e-6;
        PowerModel power;
        power.constantPower.value = 8.5;
        power.energyPerFlop.value = 6e-12;
        power.energyPerByte.value = 30e-12;
        power.rSquared = 0.99;
        m.power = power;
        profile.modes.push_back(m);
        saveMeasuredProfile(profile, path.toStdString());

        const auto r = test::runRooftop({"roofline", QString::fromStdString(test::samplePath("resnet18")),
                                         "--device", "agx-orin-64gb", "--mode", "MAXN", "--mode", "MODE_30W",
                                         "--runtime", "ideal", "--profile", path, "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray modes = QJsonDocument::fromJson(r.out.toUtf8()).object()["modes"].toArray();
        const QJsonObject maxn = modes[0].toObject(), mode30 = modes[1].toObject();
        const QJsonObject maxnBw = maxn["bandwidth"].toObject();
        QCOMPARE(maxnBw["provenance"].toString(), QString("measured"));
        QCOMPARE(maxnBw["value"].toDouble(), 180e9);
        QCOMPARE(maxn["power_model"].toObject()["constant_w"].toObject()["provenance"].toString(),
                 QString("fitted"));
        // The ideal runtime has no dispatch estimate: the measured launch time is t0, and the prediction is
        // fitted.
        QCOMPARE(maxn["dispatch_s"].toObject()["provenance"].toString(), QString("measured"));
        QCOMPARE(maxn["provenance"].toString(), QString("fitted"));
        QCOMPARE(mode30["bandwidth"].toObject()["provenance"].toString(), QString("predicted"));
        QCOMPARE(mode30["power_model"].toObject()["j_per_flop"].toObject()["provenance"].toString(),
                 QString("predicted"));
        QCOMPARE(mode30["provenance"].toString(), QString("predicted"));

        // with the default runtime (efficiencies below 1, so the ceilings' provenance is an estimate)
        // recommend still says the profile measured the pick's mode, and names no calibration
        const auto maxnOnly =
            test::runRooftop({"recommend", QString::fromStdString(test::samplePath("resnet18")), "--device",
                              "agx-orin-64gb", "--modes", "MAXN", "--profile", path});
        QVERIFY2(maxnOnly.exitCode == 0, qPrintable(maxnOnly.err));
        QVERIFY2(
            maxnOnly.out.contains("These numbers rest on ceilings and power measured in this mode by rooftop "
                                  "bench (--profile)"),
            qPrintable(maxnOnly.out));
        QVERIFY2(!maxnOnly.out.contains("calibrated") && !maxnOnly.out.contains("datasheet-derived"),
                 qPrintable(maxnOnly.out));
        const auto other =
            test::runRooftop({"recommend", QString::fromStdString(test::samplePath("resnet18")), "--device",
                              "agx-orin-64gb", "--modes", "MODE_30W", "--profile", path});
        QVERIFY2(other.exitCode == 0, qPrintable(other.err));
        QVERIFY2(other.out.contains("predicted from the modes rooftop bench measured (--profile)") &&
                     other.out.contains("rooftop bench --modes MODE_30W measures its ceilings"),
                 qPrintable(other.out));
    }
};

ROOFTOP_TEST_CLASS(RooflineTest)
#include "test_roofline.moc"
