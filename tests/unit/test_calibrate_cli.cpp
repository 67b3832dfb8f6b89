// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop calibrate`: a runs CSV synthesised from Rooftop's own predictions with a known roofline scale and
// dispatch cost is fitted back exactly; the written runtime file loads and drives roofline / modes /
// recommend through --runtime-file; malformed runs files fail with the line and column at fault.
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/roofline/prediction.h"
#include "support/cli_runner.h"
#include "support/compare.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <map>

using namespace rooftop;
using rooftop::test::jsonOf;
using rooftop::test::runRooftop;
using rooftop::test::shippedAgxOrin;

namespace {

constexpr double trueScale = 1.3;
constexpr double trueDispatch = 15e-6;    // seconds per dispatching layer at the top CPU clock
constexpr double tensorrtDispatch = 6e-6; // the starting runtime's estimate, which one model cannot refit
constexpr double powerFactor = 1.2;       // measured power = 1.2 x the estimated power model's

const std::string& resnet18() {
    static const std::string path = rooftop::test::samplePath("resnet18");
    return path;
}

const Workload& workloadAt(int64_t batch) {
    static std::map<int64_t, Workload> cache;
    auto found = cache.find(batch);
    if (found != cache.end()) return found->second;
    AnalysisSettings settings;
    settings.dims.batch = batch;
    return cache.emplace(batch, analyzeModelFile(resnet18(), settings)).first->second;
}

/// The runtime the synthetic measurements follow: tensorrt with efficiencies / 1.3 and 15 us dispatch.
RuntimeProfile trueRuntime() {
    RuntimeProfile r = findRuntime("tensorrt");
    r.computeEfficiency /= trueScale;
    r.bandwidthEfficiency /= trueScale;
    r.kernelFloorScale = trueScale; // whole kernel times scale, floors included (syntheticRuns)
    r.dispatchSecondsAtMaxCpu = trueDispatch;
    r.calibrated = true;
    return r;
}

struct SyntheticRun {
    std::string csvMode; ///< what the CSV says
    PowerMode mode;
    int64_t batch = 1;
    double latencySeconds = 0;
    double watts = 0;
};

/// latency = 1.3 x roofline time (tensorrt) + N x 15 us x fmax / f, for the stock modes and two custom modes.
std::vector<SyntheticRun> syntheticRuns() {
    const DeviceSpec& device = shippedAgxOrin();
    const RuntimeProfile tensorrt = findRuntime("tensorrt");
    std::vector<std::pair<std::string, PowerMode>> modes;
    for (const PowerMode& m : stockPowerModes(device))
        modes.push_back({m.name, m});
    const PowerMode grid = gridPowerModes(device)[7];
    modes.push_back({grid.name, grid}); // a custom mode by its canonical name
    const PowerMode custom =
        customPowerMode(device, 8, device.cpuLadderKhz[device.cpuLadderKhz.size() / 2],
                        device.gpuLadderHz[device.gpuLadderHz.size() / 3], device.maxEmcHz());
    modes.push_back({"\"cores=8,cpu=" + std::to_string(custom.cpuKhz) + ",gpu=" +
                         std::to_string(custom.gpuHz) + ",emc=" + std::to_string(custom.emcHz) + "\"",
                     custom}); // a quoted custom spec
    std::vector<SyntheticRun> runs;
    for (const auto& [csvMode, mode] : modes)
        for (int64_t batch : {1, 4}) {
            const ModelPrediction p = predict(workloadAt(batch), deriveModeProfile(device, mode, tensorrt));
            double roofline = 0, dispatching = 0;
            for (const LayerPrediction& l : p.layers) {
                roofline += l.seconds - l.dispatchSeconds;
                dispatching += l.dispatches ? 1 : 0;
            }
            SyntheticRun run{csvMode, mode, batch, 0, 0};
            run.latencySeconds = trueScale * roofline + dispatching * trueDispatch *
                                                            static_cast<double>(device.maxCpuKhz()) /
                                                            static_cast<double>(mode.cpuKhz);
            const ModelPrediction atTruth =
                predict(workloadAt(batch), deriveModeProfile(device, mode, trueRuntime()));
            run.watts = powerFactor * atTruth.averageWatts;
            runs.push_back(run);
        }
    return runs;
}

QString number(double value) {
    return QString::number(value, 'g', 17);
}

QString writeText(const QTemporaryDir& dir, const QString& name, const QString& text) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    file.write(text.toUtf8());
    return path;
}

QString runsCsv(const std::vector<SyntheticRun>& runs) {
    QString text = "mode,batch,latency_ms,power_w\n";
    for (const SyntheticRun& r : runs)
        text += QString::fromStdString(r.csvMode) + "," + QString::number(r.batch) + "," +
                number(r.latencySeconds * 1e3) + "," + number(r.watts) + "\n";
    return text;
}

} // namespace

class CalibrateCli : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::vector<SyntheticRun> runs_;
    QString runtimePath_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        runs_ = syntheticRuns();
        QCOMPARE(runs_.size(), size_t(12));
        runtimePath_ = dir_.filePath("resnet18-trt.json");
    }

    void recoversScaleAndDispatch() {
        const QString csv = writeText(dir_, "runs.csv", runsCsv(runs_));
        const auto result =
            runRooftop({"calibrate", QString::fromStdString(resnet18()), "--device", "agx-orin-64gb",
                        "--runs", csv, "-o", runtimePath_, "--format", "json"});
        QVERIFY2(result.exitCode == 0 && !result.crashed, qPrintable(result.err));
        const QJsonObject root = jsonOf(result);
        QCOMPARE(root["schema"].toString(), QString("rooftop-calibration/3"));
        const QJsonObject firstRun = root["runs"].toArray()[0].toObject();
        for (const char* key : {"measured_latency_ms", "start_latency_ms", "calibrated_latency_ms",
                                "roofline_latency_ms", "start_power_w", "calibrated_power_w"})
            QVERIFY2(firstRun.contains(key), key);
        COMPARE_REL_TOL(root["roofline_scale"].toDouble(), trueScale, 1e-6);
        // One model: b is kept at tensorrt's 6 us and c takes the rest of the per-layer cost, N x 9 us.
        QVERIFY(!root["dispatch_fitted"].toBool());
        QVERIFY(root["inference_fitted"].toBool());
        COMPARE_REL_TOL(root["dispatch_s_at_max_cpu"].toDouble(), tensorrtDispatch, 1e-9);
        const int layers = root["runs"].toArray()[0].toObject()["dispatching_layers"].toInt();
        QVERIFY(layers > 0);
        COMPARE_REL_TOL(root["inference_s_at_max_cpu"].toDouble(), layers * (trueDispatch - tensorrtDispatch),
                        1e-6);
        QVERIFY(root["r_squared"].toDouble() > 1 - 1e-9);
        QCOMPARE(root["kept_estimates"].toArray().size(), 1);
        const QJsonObject runtime = root["runtime"].toObject();
        QCOMPARE(runtime["name"].toString(), QString("tensorrt-calibrated"));
        QVERIFY(runtime["calibrated"].toBool());
        COMPARE_REL_TOL(runtime["compute_efficiency"].toDouble(), 0.75 / trueScale, 1e-6);
        COMPARE_REL_TOL(runtime["bandwidth_efficiency"].toDouble(), 0.8 / trueScale, 1e-6);
        COMPARE_REL_TOL(runtime["dispatch_us_at_max_cpu"].toDouble(), tensorrtDispatch * 1e6, 1e-6);
        QVERIFY(!runtime["dispatch_fitted"].toBool());
        QVERIFY(runtime["inference_fitted"].toBool());
        QCOMPARE(root["start_runtime"].toObject()["name"].toString(), QString("tensorrt"));

        const QJsonArray rows = root["runs"].toArray();
        QCOMPARE(rows.size(), int(runs_.size()));
        for (int i = 0; i < rows.size(); ++i) {
            const QJsonObject row = rows[i].toObject();
            const SyntheticRun& run = runs_[static_cast<size_t>(i)];
            QCOMPARE(row["line"].toInt(), i + 2);
            QCOMPARE(row["mode"].toString().toStdString(), run.mode.name);
            QCOMPARE(row["batch"].toInt(), int(run.batch));
            COMPARE_REL_TOL(row["calibrated_latency_ms"].toDouble(), run.latencySeconds * 1e3, 1e-6);
            QVERIFY(std::abs(row["residual_ms"].toDouble()) <= 1e-6 * run.latencySeconds * 1e3);
            // measured power is 1.2 x the estimate's; the fitted multipliers bring the prediction onto it
            COMPARE_REL_TOL(row["power_ratio"].toDouble(), 1.0, 1e-6);
        }
        const QJsonObject power = root["power"].toObject();
        QCOMPARE(power["runs"].toInt(), int(runs_.size()));
        const QJsonObject powerFit = power["fit"].toObject();
        COMPARE_REL_TOL(powerFit["constant_scale"].toDouble(), powerFactor, 1e-6);
        COMPARE_REL_TOL(powerFit["flop_scale"].toDouble(), powerFactor, 1e-6);
        COMPARE_REL_TOL(powerFit["byte_scale"].toDouble(), powerFactor, 1e-6);
        QCOMPARE(powerFit["fitted"].toArray().size(), 3);
        COMPARE_REL_TOL(runtime["power"].toObject()["constant_scale"].toDouble(), powerFactor, 1e-6);
    }

    void tableReport() {
        const QString csv = writeText(dir_, "runs.csv", runsCsv(runs_));
        const QString out = dir_.filePath("table-runtime.json");
        const auto result = runRooftop({"calibrate", QString::fromStdString(resnet18()), "--device",
                                        "agx-orin-64gb", "--runs", csv, "-o", out, "--name", "my-trt"});
        QVERIFY2(result.exitCode == 0 && !result.crashed, qPrintable(result.err));
        for (const char* text :
             {"a, roofline scale       1.3", "b, dispatch per layer   6 µs", "kept, tensorrt's 6 µs",
              "c, fixed per inference", "not fitted: b, dispatch per layer", "R^2 1", "leave-one-out",
              "MODE_15W", "RESIDUAL ms",
              "multipliers of the estimate: pi0 x 1.2, eps_flop x 1.2, eps_byte x 1.2",
              "Wrote runtime 'my-trt'"})
            QVERIFY2(result.out.contains(text), text);
        QCOMPARE(loadRuntimeFromFile(out.toStdString()).name, std::string("my-trt"));
    }

    void runtimeFileLoads() {
        const RuntimeProfile r = loadRuntimeFromFile(runtimePath_.toStdString());
        QCOMPARE(r.name, std::string("tensorrt-calibrated"));
        QVERIFY(r.calibrated);
        COMPARE_REL_TOL(r.dispatchSecondsAtMaxCpu, tensorrtDispatch, 1e-6);
        QVERIFY(!r.dispatchFitted && r.inferenceFitted && r.power.has_value());
        COMPARE_REL_TOL(r.computeEfficiency, 0.75 / trueScale, 1e-6);
        QVERIFY(r.basis.find("fitted to 12 measured runs") != std::string::npos);
        QCOMPARE(loadRuntimeFile(runtimePath_.toStdString()).size(), size_t(1));
        // a calibrated runtime drives the ceilings and the power model with fitted provenance, except the
        // dispatch cost it kept
        const ModeProfile p =
            deriveModeProfile(shippedAgxOrin(), stockPowerModes(shippedAgxOrin()).front(), r);
        QCOMPARE(p.ceilings.dispatchOverhead.provenance, Provenance::Estimate);
        QCOMPARE(p.ceilings.inferenceOverhead.provenance, Provenance::Fitted);
        QCOMPARE(p.ceilings.bandwidth.provenance, Provenance::Fitted);
        QCOMPARE(p.power.constantPower.provenance, Provenance::Fitted);
        QCOMPARE(p.power.energyPerByte.provenance, Provenance::Fitted);
    }

    // With a calibrated runtime, recommend's bounds are the calibration's own error and the answer says so
    // (not the prior's, which it no longer uses on the classes the runtime fitted).
    void recommendStatesTheCalibrationsError() {
        const auto result =
            runRooftop({"recommend", QString::fromStdString(resnet18()), "--device", "agx-orin-64gb",
                        "--runtime-file", runtimePath_, "--latency-slo", "15", "--format", "json"});
        QVERIFY2(result.exitCode == 0 && !result.crashed, qPrintable(result.err));
        const QJsonObject root = jsonOf(result);
        QVERIFY2(root["interval_basis"].toString().startsWith("the calibrated runtime's own error: "),
                 qPrintable(root["interval_basis"].toString()));
        QVERIFY2(root["prediction_basis"].toString().startsWith(
                     "Rooftop's roofline with the calibrated runtime tensorrt-calibrated ("),
                 qPrintable(root["prediction_basis"].toString()));
        const QJsonObject prior =
            jsonOf(runRooftop({"recommend", QString::fromStdString(resnet18()), "--device", "agx-orin-64gb",
                               "--latency-slo", "15", "--format", "json"}));
        QVERIFY(prior["interval_basis"].toString().startsWith("the prior's own error (no predictor)"));
        QCOMPARE(prior["prediction_basis"].toString(), QString("Rooftop's roofline prior (no predictor)"));
        // modes and roofline name the same basis, calibrated or not, in the same words
        for (const char* command : {"modes", "roofline"}) {
            const QJsonObject calibrated =
                jsonOf(runRooftop({command, QString::fromStdString(resnet18()), "--device", "agx-orin-64gb",
                                   "--runtime-file", runtimePath_, "--format", "json"}));
            QCOMPARE(calibrated["prediction_basis"].toString(), root["prediction_basis"].toString());
            const QJsonObject plain = jsonOf(runRooftop({command, QString::fromStdString(resnet18()),
                                                         "--device", "agx-orin-64gb", "--format", "json"}));
            QCOMPARE(plain["prediction_basis"].toString(), prior["prediction_basis"].toString());
        }
    }

    void rooflineUsesRuntimeFile() {
        for (int64_t batch : {1, 4}) {
            const auto result = runRooftop({"roofline", QString::fromStdString(resnet18()), "--device",
                                            "agx-orin-64gb", "--runtime-file", runtimePath_, "--batch",
                                            QString::number(batch), "--format", "json"});
            QVERIFY2(result.exitCode == 0 && !result.crashed, qPrintable(result.err));
            const QJsonObject root = jsonOf(result);
            QCOMPARE(root["runtime"].toObject()["name"].toString(), QString("tensorrt-calibrated"));
            const QJsonArray modes = root["modes"].toArray();
            QCOMPARE(modes.size(), 4);
            for (const QJsonValue& value : modes) {
                const QJsonObject mode = value.toObject();
                const std::string name = mode["mode"].toString().toStdString();
                bool found = false;
                for (const SyntheticRun& run : runs_)
                    if (run.mode.name == name && run.batch == batch) {
                        COMPARE_REL_TOL(mode["latency_ms"].toDouble(), run.latencySeconds * 1e3, 1e-6);
                        found = true;
                    }
                QVERIFY2(found, name.c_str());
                QCOMPARE(mode["dispatch_s"].toObject()["provenance"].toString(), QString("estimate"));
                QCOMPARE(mode["inference_s"].toObject()["provenance"].toString(), QString("fitted"));
                QCOMPARE(mode["power_model"].toObject()["constant_w"].toObject()["provenance"].toString(),
                         QString("fitted"));
            }
        }
        // a custom mode named as rooftop modes --grid prints it is not a roofline --mode, but its spec is
        const SyntheticRun& custom = runs_.back();
        const auto result = runRooftop({"roofline", QString::fromStdString(resnet18()), "--device",
                                        "agx-orin-64gb", "--runtime-file", runtimePath_, "--mode",
                                        QString::fromStdString(custom.csvMode).remove('"'), "--batch",
                                        QString::number(custom.batch), "--format", "json"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        COMPARE_REL_TOL(jsonOf(result)["modes"].toArray()[0].toObject()["latency_ms"].toDouble(),
                        custom.latencySeconds * 1e3, 1e-6);
    }

    void modesAndRecommendUseRuntimeFile() {
        const auto modes = runRooftop(
            {"modes", "--device", "agx-orin-64gb", "--runtime-file", runtimePath_, "--format", "json"});
        QVERIFY2(modes.exitCode == 0, qPrintable(modes.err));
        const QJsonObject root = jsonOf(modes);
        QVERIFY(root["runtime"].toObject()["calibrated"].toBool());
        COMPARE_REL_TOL(root["runtime"].toObject()["dispatch_s_at_max_cpu"].toDouble(), tensorrtDispatch,
                        1e-6);
        QVERIFY(root["runtime"].toObject()["inference_s_at_max_cpu"].toDouble() > 0);
        const QJsonObject maxn = root["modes"].toArray()[0].toObject();
        QCOMPARE(maxn["dispatch_s"].toObject()["provenance"].toString(), QString("estimate"));
        COMPARE_REL_TOL(maxn["dispatch_s"].toObject()["value"].toDouble(), tensorrtDispatch, 1e-6);

        const auto table = runRooftop({"modes", "--device", "agx-orin-64gb", "--runtime-file", runtimePath_});
        QCOMPARE(table.exitCode, 0);
        QVERIFY(table.out.contains("Runtime tensorrt-calibrated: 6.0 µs per layer"));
        QVERIFY(table.out.contains("µs at the top CPU clock (fitted)"));
        QVERIFY(table.out.contains("power model: the estimate x pi0 1.2"));
        QVERIFY(table.out.contains("(calibrated)"));

        const auto recommend =
            runRooftop({"recommend", QString::fromStdString(resnet18()), "--device", "agx-orin-64gb",
                        "--runtime-file", runtimePath_, "--format", "json"});
        QVERIFY2(recommend.exitCode == 0, qPrintable(recommend.err));

        // --runtime picks a runtime inside a file that holds several; a name it lacks is an error
        const auto named =
            runRooftop({"modes", "--device", "agx-orin-64gb", "--runtime-file",
                        ROOFTOP_SOURCE_DATA_DIR "/runtimes.json", "--runtime", "pytorch-eager"});
        QCOMPARE(named.exitCode, 0);
        QVERIFY(named.out.contains("Runtime pytorch-eager: 50.0 µs"));
        const auto several = runRooftop({"modes", "--device", "agx-orin-64gb", "--runtime-file",
                                         ROOFTOP_SOURCE_DATA_DIR "/runtimes.json"});
        QCOMPARE(several.exitCode, 1);
        QVERIFY2(several.err.contains("several runtimes"), qPrintable(several.err));
        const auto lacking = runRooftop(
            {"modes", "--device", "agx-orin-64gb", "--runtime-file", runtimePath_, "--runtime", "tensorrt"});
        QCOMPARE(lacking.exitCode, 1);
        QVERIFY2(lacking.err.contains("no runtime 'tensorrt'"), qPrintable(lacking.err));
        const auto missing = runRooftop({"roofline", QString::fromStdString(resnet18()), "--device",
                                         "agx-orin-64gb", "--runtime-file", dir_.filePath("nope.json")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("nope.json: cannot read"), qPrintable(missing.err));
    }

    void savedRuntimeRoundTrips() {
        RuntimeProfile r;
        r.name = "fast";
        r.dispatchSecondsAtMaxCpu = 3.25e-6;
        r.computeEfficiency = 1.4; // a calibrated runtime may beat the counted traffic
        r.bandwidthEfficiency = 0.5;
        r.calibrated = true;
        r.basis = "test";
        const std::string path = dir_.filePath("fast.json").toStdString();
        saveRuntimeFile(path, r);
        const RuntimeProfile back = loadRuntimeFromFile(path);
        QCOMPARE(back.name, r.name);
        COMPARE_REL_TOL(back.dispatchSecondsAtMaxCpu, r.dispatchSecondsAtMaxCpu, 1e-12);
        QCOMPARE(back.computeEfficiency, r.computeEfficiency);
        QCOMPARE(back.bandwidthEfficiency, r.bandwidthEfficiency);
        QVERIFY(back.calibrated);
        QCOMPARE(back.basis, r.basis);
        // an uncalibrated runtime above 1 is still refused, and bare files name the field without a prefix
        const QString bad = writeText(dir_, "bad.json",
                                      R"({"name": "x", "dispatch_us_at_max_cpu": 1, "compute_efficiency": 1.5,
                                          "bandwidth_efficiency": 1, "basis": "b"})");
        try {
            loadRuntimeFile(bad.toStdString());
            QFAIL("no error");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).startsWith("bad.json: compute_efficiency: expected a number from"),
                     error.what());
        }
    }

    void runtimeFilePowerAndFixedCostFields() {
        RuntimeProfile r;
        r.name = "powered";
        r.calibrated = true;
        r.basis = "test";
        r.inferenceSecondsAtMaxCpu = 250e-6;
        r.inferenceFitted = true;
        r.power = RuntimePowerFit{1.5, 0.5, 0.5, true, true, false, 0.93, "three runs", 0.0, ""};
        const std::string path = dir_.filePath("powered.json").toStdString();
        saveRuntimeFile(path, r);
        const RuntimeProfile back = loadRuntimeFromFile(path);
        COMPARE_REL_TOL(back.inferenceSecondsAtMaxCpu, 250e-6, 1e-12);
        QVERIFY(back.inferenceFitted && !back.dispatchFitted);
        QVERIFY(back.power.has_value());
        QCOMPARE(back.power->constantScale, 1.5);
        QVERIFY(back.power->constantFitted && back.power->flopFitted && !back.power->byteFitted);
        QCOMPARE(*back.power->rSquared, 0.93);
        QCOMPARE(back.power->basis, std::string("three runs"));
        // an older calibrated file without dispatch_fitted had its dispatch fitted
        const QString old = writeText(dir_, "old.json",
                                      R"({"name": "o", "dispatch_us_at_max_cpu": 9, "compute_efficiency": 0.5,
                                          "bandwidth_efficiency": 0.5, "calibrated": true, "basis": "b"})");
        QVERIFY(loadRuntimeFromFile(old.toStdString()).dispatchFitted);

        const QString head = R"({"name": "x", "dispatch_us_at_max_cpu": 1, "compute_efficiency": 0.5,
                                 "bandwidth_efficiency": 0.5, "basis": "b", )";
        const std::pair<QString, QString> cases[] = {
            {R"("inference_us_at_max_cpu": -1})", "inference_us_at_max_cpu: expected a number from 0"},
            {R"("inference_us_at_max_cpu": "fast"})", "inference_us_at_max_cpu: expected a number"},
            {R"("inference_fitted": 1})", "inference_fitted: expected true or false"},
            {R"("power": 3})", "power: expected an object"},
            {R"("power": {"constant_scale": 1, "flop_scale": 1, "byte_scale": 1, "fitted": [], "basis": "b",
                          "extra": 1}})",
             "power.extra: unknown field"},
            {R"("power": {"constant_scale": 1, "flop_scale": 1, "byte_scale": 1, "fitted": ["watts"],
                          "basis": "b"}})",
             "power.fitted: expected \"constant\", \"flop\" or \"byte\", got 'watts'"},
            {R"("power": {"constant_scale": 1, "flop_scale": 1, "byte_scale": 1, "fitted": "all", "basis": "b"}})",
             "power.fitted: expected an array"},
            {R"("power": {"constant_scale": 1e9, "flop_scale": 1, "byte_scale": 1, "fitted": [], "basis": "b"}})",
             "power.constant_scale: expected a number from 0 to 1000"},
            {R"("power": {"constant_scale": 1, "byte_scale": 1, "fitted": [], "basis": "b"}})",
             "power.flop_scale: missing"},
            {R"("power": {"constant_scale": 1, "flop_scale": 1, "byte_scale": 1, "fitted": [], "basis": "b",
                          "r_squared": 2}})",
             "power.r_squared: expected a number from"},
        };
        int index = 0;
        for (const auto& [tail, expected] : cases) {
            const QString file = writeText(dir_, QString("p%1.json").arg(index++), head + tail);
            try {
                loadRuntimeFile(file.toStdString());
                QFAIL(qPrintable("no error for " + tail));
            } catch (const InputError& error) {
                QVERIFY2(QString(error.what()).contains(expected), error.what());
                QVERIFY(!QString(error.what()).contains('\n'));
            }
        }
    }

    void malformedRunsFiles() {
        const QString model = QString::fromStdString(resnet18());
        struct Case {
            const char* file;
            QString text;
            const char* expected;
        };
        const Case cases[] = {
            {"nolatency.csv", "mode,batch,power_w\nMAXN,1,30\nMODE_15W,1,10\n",
             "nolatency.csv:1: header lacks column 'latency_ms'"},
            {"text.csv", "mode,batch,latency_ms,power_w\nMAXN,1,2.5,30\nMODE_15W,1,fast,10\n",
             "text.csv:3: column 'latency_ms': expected a positive number of milliseconds, got 'fast'"},
            {"batch.csv", "mode,batch,latency_ms,power_w\nMAXN,one,2.5,30\nMODE_15W,1,4,10\n",
             "batch.csv:2: column 'batch': expected a positive integer, got 'one'"},
            {"mode.csv", "mode,batch,latency_ms,power_w\nMAXN,1,2.5,30\n# a comment\nTURBO,1,4,10\n",
             "mode.csv:4: column 'mode': unknown mode 'TURBO' for agx-orin-64gb; stock modes: MAXN"},
            {"clock.csv", "mode,batch,latency_ms,power_w\nMAXN,1,2.5,30\nc8-cpu1234-gpu612-emc3199,1,4,10\n",
             "clock.csv:3: column 'mode': custom mode 'c8-cpu1234-gpu612-emc3199': a clock is not on"},
            {"columns.csv", "mode,batch,latency_ms,power_w\nMAXN,1,2.5\n",
             "columns.csv:2: expected 4 columns, got 3"},
            {"none.csv", "mode,batch,latency_ms,power_w\n", "none.csv: no runs after the header"},
            {"precision.csv",
             "mode,batch,precision,latency_ms,power_w\nMAXN,1,fp32,2.5,30\nMODE_15W,1,fp12,4,10\n",
             "precision.csv:3: column 'precision': expected as-model, fp32, fp16, int8, fp8, fp4 or nothing, "
             "got "
             "'fp12'"},
            {"phase.csv", "mode,batch,phase,latency_ms,power_w\nMAXN,1,serving,2.5,30\n",
             "phase.csv:2: column 'phase': expected inference, training or nothing, got 'serving'"},
            {"training.csv", "mode,batch,phase,latency_ms,power_w\nMAXN,1,training,2.5,30\n",
             "training.csv: no inference run to calibrate with (1 of the other phase)"},
            {"mixed.csv",
             "mode,batch,latency_ms,power_w,runner\nMAXN,1,2.5,30,sim:0\nMODE_15W,1,4,10,sim:0\n"
             "MODE_30W,1,3,20,command:./run.sh\n",
             "mixed.csv: 2 run(s) of the simulated board beside 1 measured: calibrate from one or the other "
             "(the runner column says which)"},
        };
        for (const Case& c : cases) {
            const QString path = writeText(dir_, c.file, c.text);
            const auto result = runRooftop(
                {"calibrate", model, "--device", "agx-orin-64gb", "--runs", path, "-o", dir_.filePath("x")});
            QVERIFY2(result.exitCode == 1 && !result.crashed, c.file);
            QVERIFY2(result.err.contains(c.expected), qPrintable(result.err));
            QCOMPARE(result.err.count('\n'), 1);
            QVERIFY2(!QFile::exists(dir_.filePath("x")), c.file);
        }
    }

    // a last line cut short (no line break) is left out and said, as learn says it; the same line with its
    // line break is an error
    void aLastLineCutShortIsLeftOut() {
        const QString model = QString::fromStdString(resnet18());
        const QString torn = writeText(dir_, "torn.csv", runsCsv(runs_) + "MODE_15W,1,4");
        const auto result = runRooftop({"calibrate", model, "--device", "agx-orin-64gb", "--runs", torn, "-o",
                                        dir_.filePath("torn-rt.json"), "--format", "json"});
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
        QVERIFY2(
            (result.out + result.err)
                .contains(
                    "torn.csv:" + QString::number(runs_.size() + 2) +
                    ": its last line, without a line break (a write cut short), was left out: expected 4 "
                    "columns, got 3"),
            qPrintable(result.out.left(600) + result.err));
        QCOMPARE(jsonOf(result)["runs"].toArray().size(), int(runs_.size()));
        const QString ended = writeText(dir_, "ended.csv", runsCsv(runs_) + "MODE_15W,1,4\n");
        const auto refused = runRooftop({"calibrate", model, "--device", "agx-orin-64gb", "--runs", ended,
                                         "-o", dir_.filePath("ended-rt.json")});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("expected 4 columns, got 3"), qPrintable(refused.err));
    }

    void badOptions() {
        const QString model = QString::fromStdString(resnet18());
        const QString csv = writeText(dir_, "runs.csv", runsCsv(runs_));
        const auto batch =
            runRooftop({"calibrate", model, "--device", "agx-orin-64gb", "--runs", csv, "--batch", "4"});
        QCOMPARE(batch.exitCode, 1);
        QVERIFY(batch.err.contains("batch sizes come from the runs file"));
        const auto noRuns = runRooftop({"calibrate", model, "--device", "agx-orin-64gb"});
        QCOMPARE(noRuns.exitCode, 1);
        QVERIFY(noRuns.err.contains("--runs FILE"));
        const auto missing = runRooftop(
            {"calibrate", model, "--device", "agx-orin-64gb", "--runs", dir_.filePath("absent.csv")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("absent.csv: cannot read"));
        const auto help = runRooftop({"calibrate", "--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--runtime-file"));
        const auto usage = runRooftop({"--help"});
        QVERIFY(usage.out.contains("calibrate MODEL.onnx"));
    }
};

ROOFTOP_TEST_CLASS(CalibrateCli)
#include "test_calibrate_cli.moc"
