// SPDX-License-Identifier: GPL-3.0-or-later
// Calibration judged on a simulated board whose physics is not Rooftop's prior
// (core/measure/simulated_board.h: partial overlap, batch-dependent efficiency, host cost per sample and per
// layer, V^2 f power, noise). Runs of one model calibrate the runtime; the other batch sizes and two other
// models are held out.
#include "core/device/ceilings.h"
#include "core/device/power_mode.h"
#include "core/measure/runs_file.h"
#include "core/measure/simulated_board.h"
#include "core/report/calibration_writers.h"
#include "core/session/analysis_session.h"
#include "core/session/calibration_session.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace rooftop;

namespace {

const std::vector<int64_t> batches = {1, 2, 4, 8, 16, 32, 64};
const std::vector<std::string> models = {"resnet50", "mobilenet_v3_large", "bert_base"};

AnalysisSettings settingsFor(const std::string& model, int64_t batch) {
    AnalysisSettings settings;
    if (model == "bert_base") settings.dims.named["sequence"] = 128;
    settings.dims.batch = batch;
    return settings;
}

struct HeldOutRow {
    std::string model;
    PowerMode mode;
    int64_t batch = 1;
    RunResult measured;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Errors {
    double latencyMedian = 0, latencyWorst = 0, powerMedian = 0;
    size_t rows = 0;
};

class Fixture {
public:
    Fixture() : device_(test::shippedAgxOrin()) {
        for (const std::string& model : models)
            for (int64_t batch : batches)
                workloads_[{model, batch}] = test::analyzeSample(model, settingsFor(model, batch));
    }

    const DeviceSpec& device() const { return device_; }
    const Workload& workload(const std::string& model, int64_t batch) const {
        return workloads_.at({model, batch});
    }

    /// The simulated board's answer for one configuration (seed 7, first repeat).
    RunResult simulate(const std::string& model, const PowerMode& mode, int64_t batch) const {
        SimulatedBoardRunner runner(device_, {{Precision::FP32, workload(model, 1)}}, 7);
        RunConfig config;
        config.mode = mode;
        config.batch = batch;
        return runner.run(config, nullptr);
    }

    /// Writes the given calibration runs (simulated) as a `rooftop profile` runs file.
    std::string writeRuns(const QTemporaryDir& dir, const std::string& model,
                          const std::vector<std::pair<PowerMode, int64_t>>& configs) const {
        const std::string path = dir.filePath(QString::fromStdString(model) + "-runs.csv").toStdString();
        RunsFileWriter writer(path);
        for (const auto& [mode, batch] : configs) {
            RunConfig config;
            config.mode = mode;
            config.batch = batch;
            writer.append(runRowFrom(config, simulate(model, mode, batch), "sim:7", "profile"));
        }
        return path;
    }

    /// Writes ResNet-50 runs at `configs` named as runs of `modelKey`, of the simulated board.
    std::string writeRunsOf(const QTemporaryDir& dir, const std::string& modelKey,
                            const std::vector<std::pair<PowerMode, int64_t>>& configs) const {
        const std::string path =
            dir.filePath(QString::fromStdString(modelKey.substr(0, modelKey.find('.')) + "-named-runs.csv"))
                .toStdString();
        RunsFileWriter writer(path);
        for (const auto& [mode, batch] : configs) {
            RunConfig config;
            config.mode = mode;
            config.batch = batch;
            RunRow row = runRowFrom(config, simulate("resnet50", mode, batch), "sim:7", "profile");
            row.model = modelKey;
            writer.append(row);
        }
        return path;
    }

    /// `rooftop calibrate` of tensorrt on ResNet-50 runs of the simulated board at these configurations.
    CalibrationResult calibrateResnet50(const std::vector<std::pair<PowerMode, int64_t>>& configs) const {
        QTemporaryDir dir;
        CalibrationRequest request;
        request.modelPath = test::samplePath("resnet50");
        request.deviceId = device_.id;
        request.runtime.name = "tensorrt";
        request.runsPath = writeRuns(dir, "resnet50", configs);
        return runCalibration(request);
    }

    /// Errors of `runtime`'s predictions on every (model, mode, batch) not in `seen`.
    Errors errors(const RuntimeProfile& runtime, const std::vector<PowerMode>& modes,
                  const std::set<std::string>& seen) const {
        std::vector<double> latency, power;
        for (const std::string& model : models)
            for (const PowerMode& mode : modes)
                for (int64_t batch : batches) {
                    if (seen.count(model + "|" + mode.name + "|" + std::to_string(batch))) continue;
                    const RunResult measured = simulate(model, mode, batch);
                    const ModelPrediction p =
                        predict(workload(model, batch), deriveModeProfile(device_, mode, runtime));
                    latency.push_back(p.latencySeconds * 1e3 / measured.latencyMs - 1.0);
                    if (qEnvironmentVariableIsSet("ROOFTOP_DEBUG_ROWS"))
                        qInfo("%s %s b%d measured %.3f ms predicted %.3f ms (fixed %.3f) W %.2f / %.2f",
                              model.c_str(), mode.name.c_str(), int(batch), measured.latencyMs,
                              p.latencySeconds * 1e3, p.fixedSeconds * 1e3, *measured.powerW, p.averageWatts);
                    power.push_back(std::abs(p.averageWatts / *measured.powerW - 1.0));
                }
        Errors e;
        e.rows = latency.size();
        std::vector<double> absolute(latency.size());
        std::transform(latency.begin(), latency.end(), absolute.begin(),
                       [](double x) { return std::abs(x); });
        e.latencyMedian = median(absolute);
        e.latencyWorst = *std::max_element(absolute.begin(), absolute.end());
        e.powerMedian = median(power);
        return e;
    }

private:
    DeviceSpec device_;
    std::map<std::pair<std::string, int64_t>, Workload> workloads_;
};

const Fixture& fixture() {
    static const Fixture f;
    return f;
}

std::string report(const char* what, const Errors& e) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "%s: %zu held-out rows, latency error median %.1f %% worst %.1f %%, power "
                  "error median %.1f %%",
                  what, e.rows, 100 * e.latencyMedian, 100 * e.latencyWorst, 100 * e.powerMedian);
    return line;
}

/// ResNet-50 runs in MAXN at batch 1 and 4 named as runs of `modelKey`.
std::string writeRunsOfOther(const Fixture& f, const QTemporaryDir& dir, const std::string& modelKey,
                             const PowerMode& maxn) {
    return f.writeRunsOf(dir, modelKey, {{maxn, 1}, {maxn, 4}});
}

} // namespace

class TestCalibrationSimulated : public QObject {
    Q_OBJECT

private slots:
    void twoRunsOfOneModelPredictTheOtherModelsAndBatches() {
        const Fixture& f = fixture();
        const PowerMode maxn = stockPowerModes(f.device()).front();
        const CalibrationResult result = f.calibrateResnet50({{maxn, 1}, {maxn, 8}});

        // Two runs of one model: a and c fitted, b kept, and the fit says it is exact.
        QVERIFY(result.fit.inferenceFitted);
        QVERIFY(!result.fit.dispatchFitted);
        QCOMPARE(result.fit.keptEstimates.size(), size_t(1));
        QVERIFY(result.fit.quality.find("exact fit") != std::string::npos);
        QVERIFY(result.power.fit.has_value());
        QVERIFY(result.power.quality.find("exact fit") != std::string::npos);
        QVERIFY(!result.power.fit->rSquared.has_value());

        const std::set<std::string> seen = {"resnet50|" + maxn.name + "|1", "resnet50|" + maxn.name + "|8"};
        const Errors before = f.errors(findRuntime("tensorrt"), {maxn}, seen);
        const Errors after = f.errors(result.fit.runtime, {maxn}, seen);
        qInfo("%s", report("tensorrt estimate", before).c_str());
        qInfo("%s", report("calibrated on 2 resnet50 runs", after).c_str());
        QCOMPARE(after.rows, size_t(19));
        // The prior (kernel sizes, class estimates) is already within 10 % median on this physics; two runs
        // of one model fit its power and keep its latency within 20 % (they do not improve the latency median
        // here: docs/calibration.md, "Accuracy on a simulated board").
        QVERIFY2(before.latencyMedian <= 0.10, report("before", before).c_str());
        QVERIFY2(after.powerMedian < before.powerMedian, report("after", after).c_str());
        QVERIFY2(after.latencyMedian <= 0.20, report("after", after).c_str());
        // The worst row is MobileNetV3 at batch 1: the simulator's efficiency grows with the batch, which a
        // roofline with fixed efficiencies reads as a fixed cost, and ResNet-50's fixed cost dominates the
        // small model. The bound records that weakness rather than hiding it.
        QVERIFY2(after.latencyWorst <= 1.2, report("after", after).c_str());
        QVERIFY2(after.powerMedian <= 0.15, report("after", after).c_str());

        // The runtime file carries the fit, and a prediction with it says fitted.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string file = dir.filePath("tuned.json").toStdString();
        saveRuntimeFile(file, result.fit.runtime);
        const RuntimeProfile back = loadRuntimeFromFile(file);
        QVERIFY(back.power.has_value());
        QCOMPARE(back.power->constantScale, result.fit.runtime.power->constantScale);
        QCOMPARE(back.inferenceSecondsAtMaxCpu, result.fit.runtime.inferenceSecondsAtMaxCpu);
        const ModeProfile profile = deriveModeProfile(f.device(), maxn, back);
        QCOMPARE(profile.power.constantPower.provenance, Provenance::Fitted);
        QCOMPARE(profile.ceilings.inferenceOverhead.provenance, Provenance::Fitted);
        // b stayed an estimate (one model), so a prediction that uses it is an estimate too
        QCOMPARE(profile.ceilings.dispatchOverhead.provenance, Provenance::Estimate);
        QCOMPARE(predict(f.workload("bert_base", 4), profile).provenance, Provenance::Estimate);
    }

    void runsInSeveralModesTestTheFitOnRunsItDidNotSee() {
        const Fixture& f = fixture();
        const std::vector<PowerMode> modes = stockPowerModes(f.device());
        QVERIFY(modes.size() >= 3);
        std::vector<std::pair<PowerMode, int64_t>> configs;
        std::set<std::string> seen;
        for (size_t m = 0; m < 3; ++m)
            for (int64_t batch : {int64_t(1), int64_t(16)}) {
                configs.emplace_back(modes[m], batch);
                seen.insert("resnet50|" + modes[m].name + "|" + std::to_string(batch));
            }
        const CalibrationResult result = f.calibrateResnet50(configs);

        QVERIFY(result.fit.quality.find("leave-one-out") != std::string::npos);
        QVERIFY(result.power.quality.find("leave-one-out") != std::string::npos);
        QVERIFY(result.power.fit->rSquared.has_value());
        const std::vector<PowerMode> held(modes.begin(), modes.begin() + 3);
        const Errors before = f.errors(findRuntime("tensorrt"), held, seen);
        const Errors after = f.errors(result.fit.runtime, held, seen);
        qInfo("%s", report("tensorrt estimate, 3 modes", before).c_str());
        qInfo("%s", report("calibrated on 6 resnet50 runs in 3 modes", after).c_str());
        qInfo("%s; %s", result.fit.quality.c_str(), result.power.quality.c_str());
        QCOMPARE(after.rows, size_t(3 * 3 * 7 - 6));
        QVERIFY2(after.latencyMedian < before.latencyMedian, report("after", after).c_str());
        QVERIFY2(after.powerMedian < before.powerMedian, report("after", after).c_str());
    }

    // Runs of another model, of another board (clocks its mode does not have there) or with a power no
    // reading of the board can have are refused with file and line, as learn and profile refuse them.
    void calibrateRefusesRunsItCannotBeFittedTo() {
        const Fixture& f = fixture();
        const PowerMode maxn = stockPowerModes(f.device()).front();
        QTemporaryDir dir;
        CalibrationRequest request;
        request.modelPath = test::samplePath("resnet50");
        request.deviceId = f.device().id;
        request.runtime.name = "tensorrt";
        const auto refused = [&] { return test::errorOf([&] { runCalibration(request); }); };

        request.runsPath =
            writeRunsOfOther(f, dir, runsModelKey(test::samplePath("mobilenet_v3_large")), maxn);
        QVERIFY2(refused().contains("mobilenet_v3_large-named-runs.csv:2: a run of mobilenet_v3_large.onnx@"),
                 qPrintable(refused()));

        request.runsPath = writeRunsOfOther(f, dir, runsModelKey(request.modelPath), maxn);
        QVERIFY(runCalibration(request).runs.size() == 2); // the same runs of this model and board are fitted
        request.deviceId = "orin-nx-16gb";
        QVERIFY2(refused().contains("resnet50-named-runs.csv:2: the run was made at "
                                    "c12-cpu2201.6-gpu1300.5-emc3199, but MAXN of orin-nx-16gb is c8-cpu"),
                 qPrintable(refused()));
        QVERIFY2(refused().contains("a run of another board"), qPrintable(refused()));

        request.deviceId = f.device().id;
        request.runsPath = dir.filePath("power.csv").toStdString();
        QFile file(QString::fromStdString(request.runsPath));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("mode,batch,latency_ms,power_w\nMAXN,1,6.3,39\nMODE_15W,1,41,13\nMODE_30W,1,21,1e9\n");
        file.close();
        QVERIFY2(refused().contains("power.csv:4: column 'power_w': power 1e+09 W is above 2 x the"),
                 qPrintable(refused()));
    }

    // Runs of the simulated board are called simulated in the runtime's basis and the table, never measured;
    // a hand-written file (no runner column) is measured.
    void simulatedRunsAreNotCalledMeasured() {
        const Fixture& f = fixture();
        const std::vector<PowerMode> stock = stockPowerModes(f.device());
        const CalibrationResult simulated =
            f.calibrateResnet50({{stock[0], 1}, {stock[1], 1}, {stock[2], 4}});
        QVERIFY(simulated.simulated);
        QVERIFY(simulated.fit.runtime.basis.find("simulated runs") != std::string::npos);
        QVERIFY(simulated.fit.runtime.basis.find("measured") == std::string::npos);
        const std::string table = calibrationTable(simulated, "");
        QVERIFY(table.find("SIMULATED ms") != std::string::npos);
        QVERIFY(table.find("MEASURED") == std::string::npos);

        QTemporaryDir dir;
        CalibrationRequest request;
        request.modelPath = test::samplePath("resnet50");
        request.deviceId = f.device().id;
        request.runtime.name = "tensorrt";
        request.runsPath = dir.filePath("hand.csv").toStdString();
        QFile file(QString::fromStdString(request.runsPath));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("mode,batch,latency_ms,power_w\nMAXN,1,6.3,39\nMODE_15W,1,41,13\n");
        file.close();
        const CalibrationResult measured = runCalibration(request);
        QVERIFY(!measured.simulated);
        QVERIFY(measured.fit.runtime.basis.find("2 measured runs") != std::string::npos);
        QVERIFY(calibrationTable(measured, "").find("MEASURED ms") != std::string::npos);
    }

    // A fit whose efficiency exceeds the peak is flagged: the runs went faster than the counted work allows.
    // Runs faster than the counted traffic allows: the basis advises the fused traffic view only where the
    // calibration counted per-node traffic.
    void fusedTrafficIsAdvisedOnlyAfterPerNodeCounts() {
        QTemporaryDir dir;
        const QString path = dir.filePath("fast.csv");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("mode,batch,latency_ms,power_w\nMAXN,1,0.5,\nMAXN,8,2.5,\nMODE_15W,1,2.0,\n");
        file.close();
        CalibrationRequest request;
        request.modelPath = test::samplePath("resnet50");
        request.deviceId = "agx-orin-64gb";
        request.runtime.name = "tensorrt";
        request.runsPath = path.toStdString();
        const CalibrationResult perNode = runCalibration(request);
        QVERIFY(perNode.fit.rooflineScale < 1);
        QVERIFY2(perNode.fit.runtime.basis.find("(try --traffic fused)") != std::string::npos,
                 perNode.fit.runtime.basis.c_str());
        request.settings.traffic = TrafficView::Fused;
        const CalibrationResult fused = runCalibration(request);
        QVERIFY(fused.fit.rooflineScale < 1);
        QVERIFY2(fused.fit.runtime.basis.find("--traffic fused") == std::string::npos,
                 fused.fit.runtime.basis.c_str());
    }

    void efficienciesAbovePeakAreWarnedOf() {
        RuntimeProfile runtime = resolveRuntime(RuntimeSelection{}, "agx-orin-64gb");
        runtime.computeEfficiency = 0.8;
        runtime.bandwidthEfficiency = 0.9;
        QVERIFY(efficiencyWarnings(runtime).empty());
        runtime.bandwidthEfficiency = 1.8;
        const std::vector<std::string> warnings = efficiencyWarnings(runtime);
        QCOMPARE(warnings.size(), size_t(1));
        QVERIFY(warnings[0].find("bandwidth 1.8") != std::string::npos);
        QVERIFY(warnings[0].find("exceed the board's peak") != std::string::npos);
    }

    // A runs file holds several precisions and phases (rooftop profile --precision fp16, --phase training):
    // each inference run is counted at its own batch and precision, the training runs are left out and said
    void runsAtSeveralPrecisionsAreCountedEachAtItsOwn() {
        const Fixture& f = fixture();
        const std::vector<PowerMode> stock = stockPowerModes(f.device());
        AnalysisSettings fp16 = settingsFor("resnet50", 1);
        fp16.precision = Precision::FP16;
        SimulatedBoardRunner board(f.device(),
                                   {{Precision::FP32, f.workload("resnet50", 1)},
                                    {Precision::FP16, test::analyzeSample("resnet50", fp16)}},
                                   7);
        QTemporaryDir dir;
        const std::string path = dir.filePath("mixed-runs.csv").toStdString();
        {
            RunsFileWriter writer(path);
            for (const PowerMode& mode : {stock[0], stock[2]})
                for (const auto& [precision, batch] :
                     {std::pair{Precision::FP32, int64_t(1)}, std::pair{Precision::FP16, int64_t(4)}}) {
                    RunConfig config;
                    config.mode = mode;
                    config.batch = batch;
                    config.precision = precision;
                    writer.append(runRowFrom(config, board.run(config, nullptr), "sim:7", "profile"));
                }
            RunConfig training;
            training.mode = stock[0];
            training.phase = Phase::Training;
            RunRow row = runRowFrom(training, board.run(training, nullptr), "sim:7", "profile");
            row.phase = Phase::Training;
            writer.append(row);
        }
        CalibrationRequest request;
        request.modelPath = test::samplePath("resnet50");
        request.deviceId = f.device().id;
        request.runtime.name = "tensorrt";
        request.runsPath = path;
        const CalibrationResult result = runCalibration(request);
        QCOMPARE(int(result.runs.size()), 4);
        QCOMPARE(result.fit.runtime.calibratedDevice, f.device().id); // the file names the board it fits
        QVERIFY(std::any_of(result.warnings.begin(), result.warnings.end(), [](const std::string& w) {
            return w.find("1 run(s) of the other phase left out") != std::string::npos;
        }));
        AnalysisSettings fp16b4 = fp16;
        fp16b4.dims.batch = 4;
        const Workload atFp16 = test::analyzeSample("resnet50", fp16b4);
        for (const CalibratedRun& r : result.runs) {
            QVERIFY(r.run.precision.has_value());
            const Workload& counted =
                *r.run.precision == Precision::FP16 ? atFp16 : f.workload("resnet50", 1);
            const ModelPrediction expected =
                predict(counted, deriveModeProfile(f.device(), r.mode, result.start));
            QCOMPARE(r.start.latencySeconds, expected.latencySeconds);
        }
        // counted at their precisions one scale fits both; read as fp32 runs (the precision column blanked,
        // as before) the fp16 runs pull the fit apart
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray text = file.readAll();
        file.close();
        text.replace(",fp16,inference,", ",,inference,");
        const std::string blanked = dir.filePath("blanked-runs.csv").toStdString();
        QFile out(QString::fromStdString(blanked));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        request.runsPath = blanked;
        const CalibrationResult asFp32 = runCalibration(request);
        qInfo("R^2 %.3f counted at each run's precision, %.3f all at fp32", result.fit.rSquared,
              asFp32.fit.rSquared);
        QVERIFY(result.fit.rSquared > 0.8);
        QVERIFY(asFp32.fit.rSquared < result.fit.rSquared - 0.3);
        const std::string table = calibrationTable(result, "");
        QVERIFY(table.find("PRECISION") != std::string::npos);
        QVERIFY(table.find("fp16") != std::string::npos);
    }

    void oneRunFitsOnlyTheRooflineScaleAndOnePowerMultiplier() {
        const Fixture& f = fixture();
        const PowerMode maxn = stockPowerModes(f.device()).front();
        const CalibrationResult result = f.calibrateResnet50({{maxn, 4}});
        QVERIFY(!result.fit.dispatchFitted);
        QVERIFY(!result.fit.inferenceFitted);
        QCOMPARE(result.fit.keptEstimates.size(), size_t(2));
        QCOMPARE(result.power.keptEstimates.size(), size_t(1));
        const RuntimePowerFit& power = *result.power.fit;
        QCOMPARE(power.constantScale, power.flopScale);
        QCOMPARE(power.flopScale, power.byteScale);
        // One run, one coefficient each: the calibrated prediction reproduces it.
        const CalibratedRun& run = result.runs.front();
        QVERIFY(std::abs(run.calibrated.latencySeconds / run.run.latencySeconds - 1.0) < 1e-9);
        QVERIFY(std::abs(run.calibrated.averageWatts / run.run.averageWatts - 1.0) < 1e-9);
    }
};

ROOFTOP_TEST_CLASS(TestCalibrationSimulated)
#include "test_calibration_simulated.moc"
