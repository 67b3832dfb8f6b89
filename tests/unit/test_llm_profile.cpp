// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop profile --llm`: a decoder's generation per run (TTFT, TPOT, the prompt and generation in the runs
// file), a runner's LLM line, and `calibrate --llm --runs` fitted to the runs of a few modes and judged by
// the simulated board's runs in thirty modes it never saw (its physics are not the prior's: partial overlap
// of compute and memory, efficiency growing with the tokens in flight, host work per layer).
#include "core/common/errors.h"
#include "core/device/ceilings.h"
#include "core/device/mode_set.h"
#include "core/learn/predictor_file.h"
#include "core/llm/llm_advisor.h"
#include "core/llm/llm_session.h"
#include "core/llm/llm_writers.h"
#include "core/measure/learn_session.h"
#include "core/measure/llm_runs.h"
#include "core/measure/profile_session.h"
#include "core/measure/runner_line.h"
#include "core/measure/runs_file.h"
#include "core/report/prediction_bounds.h"
#include "core/roofline/prediction.h"
#include "core/roofline/prediction_spread.h"
#include "core/session/analysis_session.h"
#include "core/tune/tune_session.h"
#include "core/tune/tune_writers.h"
#include "support/cli_runner.h"
#include "support/compare.h"
#include "support/device_fixtures.h"
#include "support/llm_fixtures.h"
#include "support/other_physics_board.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <map>

using namespace rooftop;
using namespace rooftop::test;

namespace {

constexpr int64_t kPrompt = 128, kGenerate = 64; // within the tiny decoder's 256 positions

std::string writeDecoder(const QTemporaryDir& dir, const LlmShape& shape, const char* name) {
    const std::string path = dir.filePath(name).toStdString();
    writeModel(makeLlmDecoder(shape, LlmExport::GenAi), path);
    return path;
}

ProfileRequest llmProfile(const std::string& model, const std::string& modes, uint64_t seed,
                          const std::string& out) {
    ProfileRequest request;
    request.modelPath = model;
    request.deviceId = "agx-orin-64gb";
    request.runner = "sim";
    request.modes = modes;
    request.seed = seed;
    request.precisions = {Precision::FP16};
    request.llm = {kPrompt, kGenerate};
    request.outPath = out;
    return request;
}

/// The tests' generation on the AGX Orin's whole grid, at the runs' precision and traffic.
LlmRequest gridRequest(const std::string& model) {
    LlmRequest request;
    request.modelPath = model;
    request.settings.traffic = TrafficView::Fused;
    request.settings.precision = Precision::FP16;
    request.prompt = kPrompt;
    request.generate = kGenerate;
    request.deviceId = "agx-orin-64gb";
    request.modes = "grid";
    return request;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

class LlmProfile : public QObject {
    Q_OBJECT

private slots:
    void eachRunRecordsItsGeneration() {
        QTemporaryDir dir;
        const std::string model = writeDecoder(dir, LlmShape{}, "tiny.onnx");
        const std::string runs = dir.filePath("runs.csv").toStdString();
        ProfileRequest request = llmProfile(model, "stock", 0, runs);
        request.batches = {1, 4};
        const ProfileOutcome outcome = runProfileSession(request, {}, nullptr);
        QCOMPARE(outcome.ok, size_t(8));
        const std::vector<RunRow> rows = readRunsFile(runs);
        QCOMPARE(rows.size(), size_t(8));
        for (const RunRow& row : rows) {
            QVERIFY(isLlmRun(row));
            QCOMPARE(row.llm.prompt, kPrompt);
            QCOMPARE(row.llm.generate, kGenerate);
            QVERIFY(row.ttftMs && row.tpotMs);
            // the row's latency is the whole generation, written to 6 digits
            QVERIFY(qAbs(*row.latencyMs / (*row.ttftMs + double(kGenerate) * *row.tpotMs) - 1) < 1e-5);
            QVERIFY(!row.p99Ms); // a generation has no tail of its own
        }
        // batch 4 decodes four sequences a step: about the time of one (the weights are read once), far less
        // a token
        QCOMPARE(rows[1].batch, int64_t(4));
        QVERIFY(*rows[1].tpotMs > 0.8 * *rows[0].tpotMs && *rows[1].tpotMs < 2 * *rows[0].tpotMs);
        // a rerun resumes: every generation is in the file
        const ProfileOutcome again = runProfileSession(request, {}, nullptr);
        QCOMPARE(again.resumed, size_t(8));
        QCOMPARE(again.ok, size_t(0));
        // an inference profile of the same modes is another workload, not a resumed one
        QVERIFY(runKey(rows[0]) != runKey(rows[0].mode, 1, Precision::FP16, Phase::Inference));
    }

    void theRunnerGetsTheGenerationAndItsLineIsChecked() {
        QTemporaryDir dir;
        const QString model = QString::fromStdString(writeDecoder(dir, LlmShape{}, "tiny.onnx"));
        const QString runs = dir.filePath("runs.csv");
        const QString seen = dir.filePath("env.txt");
        const QString command =
            "command:echo $ROOFTOP_PROMPT $ROOFTOP_GENERATE $ROOFTOP_CONTEXT $ROOFTOP_PRECISION > '" + seen +
            "'; echo '{\"prompt\": 128, \"generate\": 64, \"batch\": 1, \"prefill_tok_s\": 1280, "
            "\"decode_tok_s\": 50, \"power_w\": 20}'";
        const CliResult run =
            runRooftop({"profile", model, "--device", "agx-orin-64gb", "--no-switch", "--modes", "MAXN",
                        "--llm", "--prompt", "128", "--generate", "64", "--runner", command, "-o", runs});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains("ok TTFT 100.000 ms, TPOT 20.000 ms, 20.00 W"), qPrintable(run.err));
        QFile env(seen);
        QVERIFY(env.open(QIODevice::ReadOnly));
        QCOMPARE(QString(env.readAll()).trimmed(), QString("128 64 192 fp16"));
        const std::vector<RunRow> rows = readRunsFile(runs.toStdString());
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(*rows[0].ttftMs, 100.0); // 128 tokens at 1280 a second
        QCOMPARE(*rows[0].tpotMs, 20.0);
        QCOMPARE(*rows[0].latencyMs, 100.0 + 64 * 20.0);
        QCOMPARE(*rows[0].powerW, 20.0);
    }

    // The prior's stated error on decode steps is its RMS log error against the other physics (a board
    // physics written apart from the roofline) over four decoders' steps at batch 1 and 4, every 8th grid
    // mode: not narrower, and not more than 0.05 wider. fp16: the steps are memory- and overhead-bound, so
    // the other physics' fp32 compute roof does not enter (it would for a prefill at fp16).
    void priorDecodeSpreadIsItsOwnErrorOnDecodeSteps() {
        QTemporaryDir dir;
        const DeviceSpec device = test::shippedAgxOrin();
        const RuntimeProfile runtime = findRuntime("tensorrt");
        const test::GridSample sample = test::gridSample(device, runtime, 8);
        const std::vector<PowerMode>& modes = sample.modes;
        const std::vector<ModeProfile>& profiles = sample.profiles;
        const std::string decoders[] = {
            test::samplePath("tiny_llama"), writeDecoder(dir, LlmShape{}, "t.onnx"),
            writeDecoder(dir, qwen25_05b(), "q.onnx"), writeDecoder(dir, llama2_7b(), "l.onnx")};
        double time = 0, power = 0, energy = 0, slowest = 0;
        int n = 0;
        for (const std::string& path : decoders) {
            const LlmCounter counter(path, runtimeLlmSettings(Precision::FP16, {}));
            for (int64_t batch : {1, 4}) {
                const Workload step = counter.count(LlmPass{batch, 1, 128}).workload;
                const std::vector<ModeSummary> prior = sweepModes(step, profiles);
                for (size_t i = 0; i < modes.size(); ++i) {
                    const test::OtherPhysicsTruth truth = test::otherPhysicsTruth(device, step, modes[i]);
                    const double t = std::log(truth.seconds / prior[i].latencySeconds);
                    const double p = std::log(truth.watts / prior[i].averageWatts);
                    time += t * t;
                    power += p * p;
                    energy += (t + p) * (t + p);
                    slowest = std::max(slowest, t);
                    ++n;
                }
            }
        }
        time = std::sqrt(time / n);
        power = std::sqrt(power / n);
        energy = std::sqrt(energy / n);
        qInfo("the prior on decode steps against the other physics, %d configurations: RMS log error time "
              "%.3f, "
              "power %.3f, energy %.3f; the truth at most %.2fx the prior's time",
              n, time, power, energy, std::exp(slowest));
        QCOMPARE(n, 8 * int(modes.size()));
        const PredictionSpread stated = priorDecodeSpread();
        QVERIFY2(stated.latency >= time && stated.latency <= time + 0.05, "the decode time spread is stale");
        QVERIFY2(stated.power >= power && stated.power <= power + 0.05, "the decode power spread is stale");
        QVERIFY2(stated.energy >= energy && stated.energy <= energy + 0.05,
                 "the decode energy spread is stale");
        QVERIFY2(stated.latency > priorSpread().latency, "decode steps are no harder than CNNs?");
    }

    // The bundled tiny decoder's steps in the four stock modes: both fixed costs took all of their time (a
    // roofline scale of 0, refused), so the README's calibrate after profile failed; fewer fixed costs are
    // fitted instead, and the answer says which estimates it kept.
    void aSmallDecodersStockRunsCalibrate() {
        QTemporaryDir dir;
        const QString model = QString::fromStdString(test::samplePath("tiny_llama"));
        const QString runs = dir.filePath("runs.csv");
        const CliResult profile =
            runRooftop({"profile", model, "--device", "agx-orin-64gb", "--runner", "sim", "--modes", "stock",
                        "--llm", "--prompt", "128", "--generate", "64", "-o", runs});
        QVERIFY2(profile.exitCode == 0, qPrintable(profile.err));
        const CliResult calibrate = runRooftop({"calibrate", model, "--device", "agx-orin-64gb", "--llm",
                                                "--runs", runs, "-o", dir.filePath("rt.json")});
        QVERIFY2(calibrate.exitCode == 0, qPrintable(calibrate.err));
        QVERIFY2(calibrate.out.contains("gave them all of the runs' time (a roofline scale of 0)"),
                 qPrintable(calibrate.out));
        // every decode test within 20 % of its run (the fitted error column), none at the prior's 2.7x
        const QRegularExpression decode("decode \\(per token\\)\\s+\\S+\\s+\\S+\\s+\\S+\\s+(-?[0-9.]+) %");
        int decodes = 0;
        for (auto match = decode.globalMatch(calibrate.out); match.hasNext();) {
            const double error = match.next().captured(1).toDouble();
            QVERIFY2(std::abs(error) < 20.0, qPrintable(calibrate.out));
            ++decodes;
        }
        QCOMPARE(decodes, 4);

        // the runtime file says the runs' precision (profile --llm runs fp16), and rooftop llm counts at it
        // where the model's own types (fp32 here) would be as-model's
        QFile written(dir.filePath("rt.json"));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(written.readAll()).contains("\"calibrated_precision\": \"fp16\""));
        // MAXN's TTFT and the precision counted at
        const auto ttftAtMaxn = [&](const QStringList& extra) {
            const CliResult llm = runRooftop(
                QStringList{"llm", model, "--device", "agx-orin-64gb", "--prompt", "128", "--generate", "64",
                            "--runtime-file", dir.filePath("rt.json"), "--format", "json"} +
                extra);
            const QJsonObject doc = QJsonDocument::fromJson(llm.out.toUtf8()).object();
            double ttft = -1;
            for (const QJsonValue& m : doc["modes"].toArray())
                if (m["mode"].toString() == "MAXN") ttft = m["ttft_ms"].toDouble();
            return std::make_pair(ttft, doc["workload"]["precision"].toString());
        };
        const auto asModel = ttftAtMaxn({}), fp16 = ttftAtMaxn({"--precision", "fp16"}),
                   fp32 = ttftAtMaxn({"--precision", "fp32"});
        QCOMPARE(asModel.second, QString("fp16"));
        QVERIFY(asModel.first > 0);
        QCOMPARE(asModel.first, fp16.first);
        QVERIFY2(fp32.first > fp16.first, // the fp32 weights are twice the bytes
                 qPrintable(QString("fp32 %1 ms against fp16 %2 ms").arg(fp32.first).arg(fp16.first)));
        const CliResult said =
            runRooftop({"llm", model, "--device", "agx-orin-64gb", "--prompt", "128", "--generate", "64",
                        "--runtime-file", dir.filePath("rt.json"), "--precision", "fp32"});
        QVERIFY2(said.out.contains("precision fp32 lies outside the calibration's runs (fp16)"),
                 qPrintable(said.out.left(1500)));
    }

    // The commands after profile --llm: calibrate --llm fits the phases from the runs, learn says where they
    // go.
    void calibrateTakesTheRunsAndLearnPointsThere() {
        QTemporaryDir dir;
        const QString model = QString::fromStdString(writeDecoder(dir, qwen25_05b(), "qwen.onnx"));
        const QString runs = dir.filePath("runs.csv");
        const CliResult profile =
            runRooftop({"profile", model, "--device", "agx-orin-64gb", "--runner", "sim", "--modes", "stock",
                        "--llm", "--prompt", "128", "--generate", "64", "-o", runs});
        QVERIFY2(profile.exitCode == 0, qPrintable(profile.err));
        const QString runtimes = dir.filePath("rt.json");
        const CliResult calibrate = runRooftop(
            {"calibrate", model, "--device", "agx-orin-64gb", "--llm", "--runs", runs, "-o", runtimes});
        QVERIFY2(calibrate.exitCode == 0, qPrintable(calibrate.err));
        QCOMPARE(int(calibrate.out.count("tg64 @ d128")), 4); // a decode test per mode
        QVERIFY(QFile::exists(runtimes));
        // the simulated board's runs are never called measured, in the runtimes' bases either
        QFile written(runtimes);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QString runtimeText = QString::fromUtf8(written.readAll());
        QVERIFY2(runtimeText.contains("simulated runs (the simulated board, no measurement)") &&
                     !runtimeText.contains("measured runs"),
                 qPrintable(runtimeText.left(2000)));
        // a measured generation beside the simulated ones: refused, not labelled either way
        QFile simulated(runs);
        QVERIFY(simulated.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(simulated.readAll());
        const QString lastRow = text.trimmed().section(QLatin1Char('\n'), -1);
        QVERIFY(lastRow.contains(QStringLiteral(",sim:0,")));
        const QString mixed = dir.filePath("mixed.csv");
        QFile mixedFile(mixed);
        QVERIFY(mixedFile.open(QIODevice::WriteOnly));
        mixedFile.write(
            (text +
             QString(lastRow).replace(QStringLiteral(",sim:0,"), QStringLiteral(",command:./bench.sh,")) +
             QStringLiteral("\n"))
                .toUtf8());
        mixedFile.close();
        const CliResult refused = runRooftop({"calibrate", model, "--device", "agx-orin-64gb", "--llm",
                                              "--runs", mixed, "-o", dir.filePath("x.json")});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("mixed.csv: 4 generation(s) of the simulated board beside 1 measured: "
                                      "calibrate from one or the other"),
                 qPrintable(refused.err));
        const CliResult learn = runRooftop({"learn", model, "--device", "agx-orin-64gb", "--runs", runs});
        QCOMPARE(learn.exitCode, 1);
        QVERIFY2(learn.err.contains("only LLM generation runs (4): rooftop learn MODEL --llm --prompt P "
                                    "--generate G --runs") &&
                     learn.err.contains("rooftop calibrate MODEL --llm --runs"),
                 qPrintable(learn.err));
        // calibrate without --llm would fit whole generations as single inferences: refused, and told where
        const CliResult plain = runRooftop({"calibrate", model, "--device", "agx-orin-64gb", "--runs", runs});
        QCOMPARE(plain.exitCode, 1);
        QVERIFY2(plain.err.contains("4 LLM generation run(s): rooftop calibrate MODEL --llm --runs"),
                 qPrintable(plain.err));
        const CliResult noRuns = runRooftop({"calibrate", model, "--device", "agx-orin-64gb", "--llm"});
        QCOMPARE(noRuns.exitCode, 1);
        QVERIFY2(noRuns.err.contains("calibrate --llm needs the LLM runs"), qPrintable(noRuns.err));
    }

    // learned from the stock modes alone, a mode below their GPU clocks is the predictor's extrapolation:
    // said per mode (provenance, JSON), its bounds the predictor's own wider spread there, which hold the
    // simulated board's power where the cross-validated spread's did not
    void aModeOutsideTheLearnedClocksIsSaidAndWidened() {
        QTemporaryDir dir;
        const std::string model = writeDecoder(dir, llama2_7b(), "llama2.onnx");
        const std::string seen = dir.filePath("stock.csv").toStdString();
        ProfileRequest stock = llmProfile(model, "stock", 1, seen);
        stock.repeat = 3;
        runProfileSession(stock, {}, nullptr);
        LearnRequest learn;
        learn.modelPath = model;
        learn.runsPath = seen;
        learn.deviceId = "agx-orin-64gb";
        learn.llm = {kPrompt, kGenerate};
        const std::string predictorPath = dir.filePath("p.json").toStdString();
        savePredictor(predictorPath, runLearning(learn).predictor, seen);

        const std::string outside = "c2-cpu2201.6-gpu114.75-emc3199";
        LlmRequest request = gridRequest(model);
        request.modes = outside + ";MAXN";
        request.predictorPath = predictorPath;
        const LlmResult result = runLlmAnalysis(request);
        QCOMPARE(result.modes.size(), size_t(2));
        const LlmModeAnswer& low = result.modes[0];
        const LlmModeAnswer& maxn = result.modes[1];
        QVERIFY(low.extrapolated);
        QVERIFY(!maxn.extrapolated);
        QCOMPARE(QString::fromStdString(llmProvenanceText(low)),
                 QStringLiteral("TPOT predicted (extrapolated), TTFT estimate"));
        QCOMPARE(QString::fromStdString(llmProvenanceText(maxn)),
                 QStringLiteral("TPOT predicted, TTFT estimate"));
        QVERIFY(std::any_of(result.assumptions.begin(), result.assumptions.end(), [](const std::string& a) {
            return a.find("1 of 2 modes lie outside the ranges the predictor learned") != std::string::npos;
        }));
        const QJsonArray modes = QJsonDocument::fromJson(QByteArray::fromStdString(llmJson(result)))
                                     .object()
                                     .value("modes")
                                     .toArray();
        QCOMPARE(modes.at(0).toObject().value("extrapolated").toBool(), true);
        QCOMPARE(modes.at(1).toObject().value("extrapolated").toBool(), false);

        // the simulated board's decode power in that mode (3 generations)
        const std::string truthRuns = dir.filePath("truth.csv").toStdString();
        ProfileRequest there = llmProfile(model, outside, 2, truthRuns);
        there.repeat = 3;
        runProfileSession(there, {}, nullptr);
        std::vector<double> watts;
        for (const RunRow& row : readRunsFile(truthRuns))
            watts.push_back(*row.powerW);
        QCOMPARE(watts.size(), size_t(3));
        const double truth = median(watts);
        const Interval own = intervalAt(low.decodeWatts, low.decodeSpread.power, 0.9);
        const Interval crossValidated = intervalAt(low.decodeWatts, result.spread.power, 0.9);
        const QString figures = QString("board %1 W, own [%2, %3], cross-validated [%4, %5]")
                                    .arg(truth)
                                    .arg(own.low)
                                    .arg(own.high)
                                    .arg(crossValidated.low)
                                    .arg(crossValidated.high);
        qInfo("%s", qPrintable(figures));
        QVERIFY2(low.decodeSpread.power > result.spread.power, qPrintable(figures));
        QVERIFY2(truth >= own.low && truth <= own.high, qPrintable(figures));
    }

    // learn --llm from 20 grid modes' runs (stock ones left out), then rooftop llm --predictor in 30 other
    // grid modes, judged by the board's own runs there; a predictor of decode steps is refused for a model's
    // analysis, and a model's predictor for the decoder.
    void learnedFromRunsPredictsTheModesNotProfiled() {
        QTemporaryDir dir;
        const std::string model = writeDecoder(dir, llama2_7b(), "llama2.onnx");
        const std::string seen = dir.filePath("seen.csv").toStdString();
        runProfileSession(llmProfile(model, "sample:20", 1, seen), {}, nullptr);
        const std::string truthRuns = dir.filePath("truth.csv").toStdString();
        runProfileSession(llmProfile(model, "sample:30", 7, truthRuns), {}, nullptr);

        LearnRequest learn;
        learn.modelPath = model;
        learn.runsPath = seen;
        learn.deviceId = "agx-orin-64gb";
        learn.llm = {kPrompt, kGenerate};
        const LearnOutcome learned = runLearning(learn);
        QCOMPARE(learned.predictor.runs, 20);
        QCOMPARE(learned.predictor.llmPrompt, kPrompt);
        const std::string predictorPath = dir.filePath("p.json").toStdString();
        savePredictor(predictorPath, learned.predictor, seen);
        QCOMPARE(loadPredictor(predictorPath).llmGenerate, kGenerate);

        LlmRequest request = gridRequest(model);
        request.predictorPath = predictorPath;
        const LlmResult result = runLlmAnalysis(request);
        std::map<std::string, const LlmModeAnswer*> byMode;
        for (const LlmModeAnswer& a : result.modes)
            byMode[a.profile.mode.name] = &a;
        std::vector<double> tpot, power;
        for (const RunRow& row : readRunsFile(truthRuns)) {
            const LlmModeAnswer& a = *byMode.at(row.mode);
            tpot.push_back(std::fabs(a.tpotSeconds * 1e3 / *row.tpotMs - 1));
            power.push_back(std::fabs(a.decodeWatts / *row.powerW - 1));
        }
        QCOMPARE(int(tpot.size()), 30);
        // the predictor predicts decode steps: TPOT says so, TTFT stays the roofline's estimate
        const LlmModeAnswer& any = result.modes.front();
        QCOMPARE(any.decodeProvenance, Provenance::Predicted);
        QCOMPARE(any.prefillProvenance, Provenance::Estimate);
        QCOMPARE(any.provenance, Provenance::Estimate);
        QCOMPARE(QString::fromStdString(llmProvenanceText(any)), QString("TPOT predicted, TTFT estimate"));
        QVERIFY(llmJson(result).find("\"decode_provenance\": \"predicted\"") != std::string::npos);
        qInfo("learn --llm from 20 modes (CV time %.1f %%, power %.1f %%): 30 unseen grid modes, TPOT median "
              "%.1f %% worst %.1f %%; decode power against the generation's median %.1f %%",
              learned.predictor.cv.timeMape * 100, learned.predictor.cv.powerMape * 100, median(tpot) * 100,
              *std::max_element(tpot.begin(), tpot.end()) * 100, median(power) * 100);
        QVERIFY(median(tpot) < 0.05);
        QVERIFY(median(power) < 0.10);
        QVERIFY(result.ttftSpread > result.spread.latency); // the prefill keeps the roofline's error
        // and so does its power: a power limit bounds each phase at its own error, the prefill's wider than
        // the learned decode's
        QVERIFY(result.prefillPowerSpread > result.spread.power);
        // As-model counts at the precision the predictor's runs ran (the model's own types did not run), and
        // says so; another precision is the predictor's extrapolation, said too.
        QVERIFY(result.assumptions.end() ==
                std::find_if(result.assumptions.begin(), result.assumptions.end(),
                             [](const std::string& a) { return a.find("precision") == 0; }));
        LlmRequest asModel = request;
        asModel.settings.precision = Precision::AsModel;
        const LlmResult counted = runLlmAnalysis(asModel);
        QCOMPARE(counted.request.settings.precision, Precision::FP16);
        QCOMPARE(counted.modes.size(), result.modes.size());
        for (size_t i = 0; i < result.modes.size(); ++i) {
            QCOMPARE(counted.modes[i].tpotSeconds, result.modes[i].tpotSeconds);
            QCOMPARE(counted.modes[i].ttftSeconds, result.modes[i].ttftSeconds);
        }
        const auto says = [](const LlmResult& r, const char* text) {
            return std::any_of(r.assumptions.begin(), r.assumptions.end(),
                               [&](const std::string& a) { return a.find(text) != std::string::npos; });
        };
        QVERIFY(says(counted, "precision fp16, as the predictor's runs ran"));
        LlmRequest fp32 = request;
        fp32.settings.precision = Precision::FP32;
        QVERIFY(says(runLlmAnalysis(fp32), "precision fp32 lies outside the predictor's runs (fp16)"));
        // a batch the predictor never ran is its extrapolation, in the answer and in the advisor's reasons
        QVERIFY(!says(result, "is its extrapolation"));
        LlmRequest batch2 = request;
        batch2.batch = 2;
        const LlmResult atTwo = runLlmAnalysis(batch2);
        QVERIFY(says(atTwo, "; batch 2 is its extrapolation"));
        // and its error is widened there, 10 % a doubling: TPOT's interval, power's and the JSON say so
        QVERIFY(!result.extrapolated);
        QVERIFY(atTwo.extrapolated);
        QVERIFY(std::abs(atTwo.spread.latency - (result.spread.latency + 0.1)) < 1e-12);
        QVERIFY(std::abs(atTwo.spread.power - (result.spread.power + 0.1)) < 1e-12);
        QVERIFY2(atTwo.spreadBasis.find("widened 10 % a doubling of the batch or the context") !=
                     std::string::npos,
                 atTwo.spreadBasis.c_str());
        QVERIFY(llmJson(atTwo).find("\"extrapolated\": true") != std::string::npos);
        QVERIFY(llmJson(result).find("\"extrapolated\": false") != std::string::npos);
        // a generation four times as long reaches contexts its runs never did (up to 2x their last)
        LlmRequest longer = request;
        longer.generate = 4 * kGenerate;
        const LlmResult atLonger = runLlmAnalysis(longer);
        const double doublings = std::log2(double(kPrompt + 4 * kGenerate) / double(kPrompt + kGenerate));
        QVERIFY(std::abs(atLonger.spread.latency - (result.spread.latency + 0.1 * doublings)) < 1e-12);
        QVERIFY(atLonger.extrapolated);
        // recommend --llm over batches 1 and 2: each option's interval at its own mode's spread at its batch,
        // never narrower than that batch's cross-validated one
        const LlmRecommendation both =
            recommendLlm({result, atTwo}, LlmLimits{}, LlmObjective::EnergyPerToken);
        const QJsonObject answer =
            QJsonDocument::fromJson(QByteArray::fromStdString(llmRecommendationJson({result, atTwo}, both)))
                .object();
        int checked = 0;
        for (const QJsonValue& v : answer.value("pareto").toArray()) {
            const QJsonObject o = v.toObject();
            const LlmResult& of = o["batch"].toInt() == 2 ? atTwo : result;
            const auto mode = std::find_if(of.modes.begin(), of.modes.end(), [&](const LlmModeAnswer& a) {
                return a.profile.mode.name == o["mode"].toString().toStdString();
            });
            QVERIFY(mode != of.modes.end());
            const double spread = mode->decodeSpread.latency;
            QVERIFY(spread >= of.spread.latency);
            COMPARE_REL_TOL(o["tpot_ms_interval"].toArray()[1].toDouble() / o["tpot_ms"].toDouble(),
                            std::exp(normalQuantile(0.9) * spread), 1e-9);
            ++checked;
        }
        QVERIFY(checked > 0);
        const LlmRecommendation two = recommendLlm({atTwo}, LlmLimits{}, LlmObjective::EnergyPerToken);
        QVERIFY(two.pick);
        QVERIFY(std::any_of(two.reasons.begin(), two.reasons.end(), [](const std::string& r) {
            return r.find("batch 2 is its extrapolation") != std::string::npos;
        }));
        LlmLimits cap;
        cap.powerWatts = 1e6;
        const LlmRecommendation weighed = recommendLlm({result}, cap, LlmObjective::EnergyPerToken);
        QVERIFY(!weighed.options.empty());
        const double z = normalQuantile(cap.confidence);
        for (const LlmOption& option : weighed.options) {
            const LlmModeAnswer& a = *option.answer;
            COMPARE_REL_TOL(option.powerHigh,
                            std::max(a.decodeWatts * std::exp(z * a.decodeSpread.power),
                                     a.prefillWatts * std::exp(z * result.prefillPowerSpread)),
                            1e-12);
            QVERIFY(option.powerHigh >=
                    a.prefillWatts * std::exp(z * result.prefillPowerSpread) * (1 - 1e-12));
        }

        // the predictor is for decode steps only, and rooftop llm takes no other
        AnalysisRequest cnn;
        cnn.modelPath = model;
        cnn.deviceId = "agx-orin-64gb";
        cnn.predictorPath = predictorPath;
        const QString refused = errorOf([&] { runAnalysis(cnn); });
        QVERIFY2(refused.contains("decoder's decode steps"), qPrintable(refused));
    }

    // tune --llm on the simulated board: mode x batch for a TPOT limit, least energy per output token, judged
    // by the board's own runs of every configuration of the space (40 grid modes x 4 batches).
    void tuneFindsTheLeastEnergyPerTokenUnderATpotLimit() {
        QTemporaryDir dir;
        const std::string model = writeDecoder(dir, llama2_7b(), "llama2.onnx");
        const std::vector<int64_t> batches = {1, 2, 4, 8};
        ProfileRequest all = llmProfile(model, "sample:40", 0, dir.filePath("truth.csv").toStdString());
        all.batches = batches;
        runProfileSession(all, {}, nullptr);
        struct Truth {
            double tpot = 0, energy = 0;
        };
        std::map<std::string, Truth> truth; // by mode and batch
        double maxnTpot = 0;
        for (const RunRow& row : readRunsFile(all.outPath)) {
            truth[row.mode + "@" + std::to_string(row.batch)] = {*row.tpotMs, *row.powerW * *row.tpotMs /
                                                                                  double(row.batch)};
        }
        ProfileRequest maxn = llmProfile(model, "MAXN", 0, dir.filePath("maxn.csv").toStdString());
        runProfileSession(maxn, {}, nullptr);
        maxnTpot = *readRunsFile(maxn.outPath).front().tpotMs;
        QCOMPARE(int(truth.size()), 160);

        for (const double factor : {1.0, 1.1, 1.25}) {
            const double slo = factor * maxnTpot;
            double best = 1e30;
            for (const auto& [key, t] : truth)
                if (t.tpot <= slo) best = std::min(best, t.energy);
            TuneRequest request;
            request.modelPath = model;
            request.deviceId = "agx-orin-64gb";
            request.runner = "sim";
            request.modes = "sample:40";
            request.batches = batches;
            request.precisions = {Precision::FP16};
            request.options.llm = {kPrompt, kGenerate};
            request.options.limits.latencySloSeconds = slo * 1e-3;
            request.options.runsPath = dir.filePath(QString("tune-%1.csv").arg(factor)).toStdString();
            const TuneReport report = runTuneSession(request, {}, nullptr);
            QVERIFY(report.outcome.recommended.has_value());
            const TuneSample& pick = report.outcome.samples[*report.outcome.recommended];
            const TuneConfig& config = report.space.configs[pick.config];
            const Truth t = truth.at(config.mode.name + "@" + std::to_string(config.batch));
            qInfo("tune --llm, TPOT limit %.1f ms (%.2f x MAXN batch 1): %s batch %lld in %d runs, true TPOT "
                  "%.1f ms, "
                  "%.1f mJ/token against the best feasible %.1f (%+.1f %%)",
                  slo, factor, config.mode.name.c_str(), (long long)config.batch, report.outcome.runsMade,
                  t.tpot, t.energy, best, (t.energy / best - 1) * 100);
            QVERIFY(report.outcome.runsMade <= 15);
            QVERIFY(t.tpot <= slo * 1.03); // within the board's run noise of the limit
            QVERIFY(t.energy <= best * 1.05);
            // the runs are LLM rows of this tune: resumable, and calibrate --llm --runs takes them
            const std::vector<RunRow> rows = readRunsFile(request.options.runsPath);
            QVERIFY(!rows.empty() && isLlmRun(rows.front()));
            // the samples' predicted TPOT carries the prior's error on decode steps, not on whole passes
            if (factor == 1.0) {
                const QJsonObject json =
                    QJsonDocument::fromJson(QByteArray::fromStdString(tuneJson(report))).object();
                QVERIFY(json["prediction_basis"].toString().contains("error on decode steps"));
                const QJsonObject first = json["samples"].toArray().first().toObject();
                const double predicted = first["predicted_latency_ms"].toDouble();
                const double high = first["predicted_latency_ms_interval"].toArray()[1].toDouble();
                QVERIFY(std::abs(std::log(high / predicted) / priorDecodeSpread().latency -
                                 normalQuantile(tableBoundsConfidence)) < 1e-3);
            }
        }
    }

    void aRunnerLineThatIsNotTheGenerationFails_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("reason");
        QTest::newRow("other prompt") << R"({"prompt": 256, "ttft_ms": 5, "tpot_ms": 2})"
                                      << "ran prompt 256, asked for 128";
        QTest::newRow("other batch") << R"({"batch": 4, "ttft_ms": 5, "tpot_ms": 2})"
                                     << "ran batch 4, asked for 1";
        QTest::newRow("no decode") << R"({"ttft_ms": 5})"
                                   << "no tpot_ms or decode_tok_s";
        QTest::newRow("no prefill") << R"({"tpot_ms": 5})"
                                    << "no ttft_ms or prefill_tok_s";
        QTest::newRow("a CNN's line") << R"({"latency_ms": 5})"
                                      << "no ttft_ms or prefill_tok_s";
        QTest::newRow("negative") << R"({"ttft_ms": -5, "tpot_ms": 2})"
                                  << "ttft_ms must be positive";
        QTest::newRow("short generation") << R"({"ttft_ms": 5, "tpot_ms": 2, "latency_ms": 50})"
                                          << "latency_ms is below ttft_ms + generate x tpot_ms";
        QTest::newRow("nothing") << ""
                                 << "no output line (expected a JSON object with ttft_ms and tpot_ms)";
    }
    void aRunnerLineThatIsNotTheGenerationFails() {
        QFETCH(QString, line);
        QFETCH(QString, reason);
        RunConfig config;
        config.llm = {kPrompt, kGenerate};
        const RunResult result = parseLlmRunnerOutput(line.toStdString(), config);
        QVERIFY(!result.ok);
        QVERIFY2(QString::fromStdString(result.failure).contains(reason), result.failure.c_str());
    }

    void badLlmProfilesAreOneLine() {
        QTemporaryDir dir;
        const QString model = QString::fromStdString(writeDecoder(dir, LlmShape{}, "tiny.onnx"));
        const QStringList common = {"profile", model, "--device", "agx-orin-64gb", "--runner", "sim"};
        const struct {
            QStringList args;
            const char* message;
        } cases[] = {
            {{"--llm", "--prompt", "16"}, "profile --llm needs --prompt P and --generate G"},
            {{"--prompt", "16", "--generate", "4"}, "--prompt and --generate go with --llm"},
            {{"--llm", "--prompt", "4000", "--generate", "200"}, "beyond the model's"},
            {{"--llm", "--prompt", "16", "--generate", "4", "--phase", "training"},
             "a generation is inference"},
        };
        for (const auto& c : cases) {
            const CliResult run = runRooftop(common + c.args + QStringList{"-o", dir.filePath("r.csv")});
            QCOMPARE(run.exitCode, 1);
            QVERIFY2(run.err.contains(c.message), qPrintable(run.err));
            QCOMPARE(run.err.trimmed().count('\n'), 0);
        }
        const QString cnn = QString::fromStdString(samplePath("resnet18"));
        const CliResult notDecoder =
            runRooftop({"profile", cnn, "--device", "agx-orin-64gb", "--runner", "sim", "--llm", "--prompt",
                        "16", "--generate", "4", "-o", dir.filePath("cnn.csv")});
        QCOMPARE(notDecoder.exitCode, 1);
        QVERIFY2(notDecoder.err.contains("past"), qPrintable(notDecoder.err)); // no KV cache to recognise
        QCOMPARE(notDecoder.err.trimmed().count('\n'), 0);

        // a runs file written before the LLM columns takes no LLM run, and is left as it was
        const QString old = dir.filePath("old.csv");
        QFile file(old);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(optimizerRunsHeader()) + "\n");
        file.close();
        const CliResult oldFile =
            runRooftop(common + QStringList{"--llm", "--prompt", "16", "--generate", "4", "-o", old});
        QCOMPARE(oldFile.exitCode, 1);
        QVERIFY2(oldFile.err.contains("written before runs recorded an LLM's prompt"),
                 qPrintable(oldFile.err));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray(optimizerRunsHeader()) + "\n");

        // tune --llm runs no batch whose weights and KV cache the board cannot hold (it "measured" them)
        const QString tuneRuns = dir.filePath("tune.csv");
        const CliResult huge = runRooftop({"tune", model, "--device", "agx-orin-64gb", "--runner", "sim",
                                           "--llm", "--prompt", "16", "--generate", "4", "--tpot-slo", "50",
                                           "--batch", "1,1099511627776", "--runs", tuneRuns});
        QCOMPARE(huge.exitCode, 1);
        QVERIFY2(huge.err.contains("tune --llm: batch 1099511627776 at fp16 holds") &&
                     huge.err.contains("leave it out of --batch"),
                 qPrintable(huge.err));
        QVERIFY(!QFile::exists(tuneRuns)); // refused before any run
        // one sequence over the largest batch the refusal names: its weights and cache alone would fit, not
        // with the prefill's activations and the reserve
        const QRegularExpressionMatch most = QRegularExpression("at most (\\d+)\\)").match(huge.err);
        QVERIFY2(most.hasMatch(), qPrintable(huge.err));
        const CliResult crowded =
            runRooftop({"tune", model, "--device", "agx-orin-64gb", "--runner", "sim", "--llm", "--prompt",
                        "16", "--generate", "4", "--tpot-slo", "50", "--batch",
                        QString::number(most.captured(1).toLongLong() + 1), "--runs", tuneRuns});
        QCOMPARE(crowded.exitCode, 1);
        QVERIFY2(crowded.err.contains("of weights, KV cache and activations, more than the 62.00 GiB"),
                 qPrintable(crowded.err));
        QVERIFY(!QFile::exists(tuneRuns));
    }

    void malformedLlmRowsAreRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath("runs.csv");
        const QString ok =
            "MAXN,12,2201600,1300500000,3199000000,1,fp16,inference,1380,,20,27600,ok,sim:0,,,,profile,";
        const struct {
            QString tail;
            const char* message;
        } cases[] = {
            {",0,64,100,20", "field 'prompt'"},
            {",256,,100,20", "field 'generate'"},
            {",256,64,,20", "tpot_ms for an ok LLM run"},
            {",256,64,100,-2", "field 'tpot_ms'"},
        };
        for (const auto& c : cases) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write((QString(runsHeader()) + "\n" + ok + c.tail + "\n").toUtf8());
            file.close();
            const QString error = errorOf([&] { readRunsFile(path.toStdString()); });
            QVERIFY2(error.contains(c.message), qPrintable(error));
        }
    }

    // Profiled in six grid modes (and the four stock ones), calibrated per phase, predicted in thirty other
    // grid modes and judged by the simulated board's own runs there.
    void calibratedFromRunsPredictsTheModesNotProfiled() {
        QTemporaryDir dir;
        const std::string model = writeDecoder(dir, llama2_7b(), "llama2.onnx");
        const std::string seen = dir.filePath("seen.csv").toStdString();
        runProfileSession(llmProfile(model, "stock", 0, seen), {}, nullptr);
        runProfileSession(llmProfile(model, "sample:6", 1, seen), {}, nullptr);
        const std::string truthRuns = dir.filePath("truth.csv").toStdString();
        runProfileSession(llmProfile(model, "sample:30", 7, truthRuns), {}, nullptr);

        LlmCalibrationRequest fit;
        fit.modelPath = model;
        fit.settings.traffic = TrafficView::Fused;
        fit.deviceId = "agx-orin-64gb";
        const LlmCalibrationResult calibration = runLlmRunsCalibration(fit, seen);
        QCOMPARE(int(calibration.records.size()), 20); // ten runs, a prefill and a decode test each
        QCOMPARE(calibration.request.settings.precision, Precision::FP16); // the runs' precision
        const std::string runtimes = dir.filePath("rt.json").toStdString();
        saveRuntimesFile(runtimes, calibration.runtimes());

        LlmRequest request = gridRequest(model);
        const LlmResult prior = runLlmAnalysis(request);
        request.runtime.file = runtimes;
        const LlmResult calibrated = runLlmAnalysis(request);
        std::map<std::string, size_t> index;
        for (size_t m = 0; m < calibrated.modes.size(); ++m)
            index[calibrated.modes[m].profile.mode.name] = m;

        std::vector<double> tpot, ttft, priorTpot, priorTtft, power, priorPower;
        for (const RunRow& row : readRunsFile(truthRuns)) {
            const auto found = index.find(row.mode);
            QVERIFY2(found != index.end(), row.mode.c_str());
            const LlmModeAnswer& c = calibrated.modes[found->second];
            const LlmModeAnswer& p = prior.modes[found->second];
            tpot.push_back(std::fabs(c.tpotSeconds * 1e3 / *row.tpotMs - 1));
            ttft.push_back(std::fabs(c.ttftSeconds * 1e3 / *row.ttftMs - 1));
            priorTpot.push_back(std::fabs(p.tpotSeconds * 1e3 / *row.tpotMs - 1));
            priorTtft.push_back(std::fabs(p.ttftSeconds * 1e3 / *row.ttftMs - 1));
            // the generation's average power, as the run measured it
            power.push_back(std::fabs(c.endToEndJoules / c.endToEndSeconds / *row.powerW - 1));
            priorPower.push_back(std::fabs(p.endToEndJoules / p.endToEndSeconds / *row.powerW - 1));
        }
        QCOMPARE(int(tpot.size()), 30);
        qInfo("30 unseen grid modes, Llama-2-7B int4 (genai), P %lld, G %lld: calibrated on 10 modes' runs, "
              "TPOT median %.1f %% worst %.1f %%, TTFT median %.1f %% worst %.1f %%; the prior: TPOT median "
              "%.1f "
              "%%, TTFT median %.1f %%",
              (long long)kPrompt, (long long)kGenerate, median(tpot) * 100,
              *std::max_element(tpot.begin(), tpot.end()) * 100, median(ttft) * 100,
              *std::max_element(ttft.begin(), ttft.end()) * 100, median(priorTpot) * 100,
              median(priorTtft) * 100);
        qInfo("the generation's average power: calibrated median %.1f %% worst %.1f %%, the prior median "
              "%.1f %% "
              "worst %.1f %%",
              median(power) * 100, *std::max_element(power.begin(), power.end()) * 100,
              median(priorPower) * 100, *std::max_element(priorPower.begin(), priorPower.end()) * 100);
        QVERIFY(calibration.power.fit.has_value());
        QVERIFY(median(power) < median(priorPower));
        QVERIFY(median(tpot) < 0.08);
        QVERIFY(median(tpot) < median(priorTpot));
        QVERIFY(median(ttft) < 0.15);
    }
};

ROOFTOP_TEST_CLASS(LlmProfile)
#include "test_llm_profile.moc"
