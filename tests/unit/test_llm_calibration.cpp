// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop calibrate --llama-bench`: a decoder's prefill and decode fitted apart from llama-bench files
// measured on a board whose physics is not Rooftop's (weights at 70 % of the DRAM bandwidth, the KV cache at
// 45 %, a host cost per token of 6 ms at the top CPU clock growing as the clock falls; prefill at 45 % of the
// fp16 tensor peak plus 10 ms of host work), in two modes; the other modes predicted and judged by the true
// times. Bad llama-bench files get one line each.
#include "core/common/errors.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/llm/llm_advisor.h"
#include "core/llm/llm_calibration.h"
#include "core/llm/llm_pass.h"
#include "core/llm/llm_session.h"
#include "core/llm/mlc_bench.h"
#include "core/session/analysis_session.h"
#include "support/llm_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace rooftop;
using namespace rooftop::test;

namespace {

constexpr int64_t prompt = 512, generate = 128;

struct Truth {
    double ttft = 0;
    double tpot = 0; ///< mean over the generation's steps
};

// The other physics, from the counts and the mode's raw roofs (no runtime efficiencies).
Truth truthIn(const LlmCounter& counter, const DeviceSpec& device, const PowerMode& mode) {
    RuntimeProfile ideal;
    ideal.name = "ideal";
    const Ceilings roofs = deriveModeProfile(device, mode, ideal).ceilings;
    const double bandwidth = roofs.bandwidth.value;
    const double tensor = roofs.peak(ComputeClass::TensorFp16).value;
    const double cpuRatio = double(device.maxCpuKhz()) / double(mode.cpuKhz);
    const LlmPassCount prefill = counter.count({1, prompt, 0});
    Truth truth;
    truth.ttft = double(prefill.workload.totals.flops) / (tensor * 0.45) + 10e-3 * cpuRatio;
    const LlmPassCount step = counter.count({1, 1, prompt});
    const double meanPast = double(prompt) + double(generate - 1) / 2.0;
    const double kvBytes = double(counter.kvBytesPerToken()) * meanPast;
    truth.tpot = double(step.workload.totals.weightBytes) / (bandwidth * 0.7) + kvBytes / (bandwidth * 0.45) +
                 6e-3 * cpuRatio;
    return truth;
}

/// `parameters` > 0: the records name the model's parameter count (model_n_params) as llama-bench does.
void writeBench(const QString& path, const Truth& truth, qint64 parameters = 0) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QString model = QString(R"("model_type": "llama 7B int4", )") +
                          (parameters > 0 ? QString(R"("model_n_params": %1, )").arg(parameters) : QString());
    const QString pp =
        QString(R"({%1"n_prompt": %2, "n_gen": 0, "n_depth": 0, "avg_ns": %3, "stddev_ns": 1000})")
            .arg(model)
            .arg(prompt)
            .arg(qint64(truth.ttft * 1e9));
    const QString tg =
        QString(R"({%1"n_prompt": 0, "n_gen": %2, "n_depth": %3, "avg_ns": %4, "stddev_ns": 1000})")
            .arg(model)
            .arg(generate)
            .arg(prompt)
            .arg(qint64(truth.tpot * double(generate) * 1e9));
    file.write((pp + "\n" + tg + "\n").toUtf8());
}

// The same truth as MLC's benchmark.py --save writes it: a prefill of `prompt` tokens and `generate` tokens
// decoded after it, with their times and rates.
void writeMlcCsv(const QString& path, const Truth& truth) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const double decodeSeconds = truth.tpot * double(generate);
    file.write(
        QString("timestamp, hostname, api, model, precision, input_tokens, output_tokens, prefill_time, "
                "prefill_rate, decode_time, decode_rate, memory\n"
                "20240301 10:12:03, orin, mlc, Llama-2-7b-chat-hf-q4f16_ft, q4f16_ft, %1, %2, %3, %4, %5, "
                "%6, 5012.4\n")
            .arg(prompt)
            .arg(generate)
            .arg(truth.ttft, 0, 'g', 10)
            .arg(double(prompt) / truth.ttft, 0, 'g', 10)
            .arg(decodeSeconds, 0, 'g', 10)
            .arg(double(generate) / decodeSeconds, 0, 'g', 10)
            .toUtf8());
}

// Llama-2-7B (genai export) on the AGX Orin under the other physics: llama-bench files of its truth in some
// modes, calibrated, and the requests that predict it.
class OtherPhysicsDecoder {
public:
    OtherPhysicsDecoder()
        : model_(writeDecoder(dir_)), counter_(model_, fused()), device_(resolveDevice("agx-orin-64gb")) {}

    Truth truth(const PowerMode& mode) const { return truthIn(counter_, device_, mode); }
    Truth truth(const char* mode) const { return truth(resolvePowerMode(device_, mode)); }

    /// llama-bench files of the truth in `modes` (naming `parameters` when > 0), fitted.
    LlmCalibrationResult calibrate(const std::vector<const char*>& modes,
                                   LlmBenchFormat format = LlmBenchFormat::LlamaBench,
                                   qint64 parameters = 0) const {
        LlmCalibrationRequest request;
        request.modelPath = model_;
        request.settings = fused();
        request.deviceId = device_.id;
        for (const char* mode : modes) {
            const bool mlc = format == LlmBenchFormat::Mlc;
            const QString path = dir_.filePath(QString(mlc ? "%1.csv" : "%1.jsonl").arg(mode));
            if (mlc)
                writeMlcCsv(path, truth(mode));
            else
                writeBench(path, truth(mode), parameters);
            request.files.push_back({path.toStdString(), mode, format});
        }
        return runLlmCalibration(request);
    }

    /// The decoder's parameters, as the calibration counts them.
    qint64 parameters() const { return counter_.count({1, prompt, 0}).workload.totals.params; }

    /// The fitted runtimes written to a file rooftop llm --runtime-file reads.
    std::string saveRuntimes(const LlmCalibrationResult& fit) const {
        const std::string path = dir_.filePath("rt.json").toStdString();
        saveRuntimesFile(path, fit.runtimes());
        return path;
    }

    /// The prompt and generation of the tests, on the board, with the prior's runtime.
    LlmRequest request() const {
        LlmRequest r;
        r.modelPath = model_;
        r.settings = fused();
        r.prompt = prompt;
        r.generate = generate;
        r.deviceId = device_.id;
        return r;
    }

private:
    static AnalysisSettings fused() {
        AnalysisSettings settings;
        settings.traffic = TrafficView::Fused;
        return settings;
    }
    static std::string writeDecoder(const QTemporaryDir& dir) {
        const std::string path = dir.filePath("llama2.onnx").toStdString();
        writeModel(makeLlmDecoder(llama2_7b(), LlmExport::GenAi), path);
        return path;
    }

    QTemporaryDir dir_;
    std::string model_;
    LlmCounter counter_;
    DeviceSpec device_;
};

} // namespace

class LlmCalibration : public QObject {
    Q_OBJECT

private slots:
    void twoModesPredictTheOthers() {
        const OtherPhysicsDecoder decoder;
        const LlmCalibrationResult fit = decoder.calibrate({"MAXN", "MODE_15W"});
        QVERIFY(fit.prefill && fit.decode);
        QCOMPARE(int(fit.records.size()), 4);
        QVERIFY(fit.decode->inferenceFitted); // two CPU clocks separate the host cost from the roofline

        LlmRequest llm = decoder.request();
        const LlmResult prior = runLlmAnalysis(llm);
        llm.runtime.file = decoder.saveRuntimes(fit);
        const LlmResult calibrated = runLlmAnalysis(llm);
        QCOMPARE(calibrated.runtime.name, std::string("tensorrt-llm-decode"));
        QCOMPARE(calibrated.prefillRuntime.name, std::string("tensorrt-llm-prefill"));
        QCOMPARE(int(calibrated.modes.size()), 4);
        for (size_t m = 0; m < calibrated.modes.size(); ++m) {
            const LlmModeAnswer& answer = calibrated.modes[m];
            const Truth truth = decoder.truth(answer.profile.mode);
            const double tpotError = answer.tpotSeconds / truth.tpot - 1;
            const double ttftError = answer.ttftSeconds / truth.ttft - 1;
            const double priorError = prior.modes[m].tpotSeconds / truth.tpot - 1;
            qInfo("%s: TPOT %.2f ms true, %.2f calibrated (%+.1f %%), %.2f prior (%+.1f %%); TTFT %+.1f %%",
                  answer.profile.mode.name.c_str(), truth.tpot * 1e3, answer.tpotSeconds * 1e3,
                  tpotError * 100, prior.modes[m].tpotSeconds * 1e3, priorError * 100, ttftError * 100);
            QVERIFY2(qAbs(tpotError) < 0.05, answer.profile.mode.name.c_str());
            QVERIFY2(qAbs(ttftError) < 0.10, answer.profile.mode.name.c_str());
        }
    }

    // llama-bench names the model's parameters: a file of another model (7B against the 1.1B a user mixed
    // up, or the other way) is refused in one line; the same model, give or take its embeddings, is taken
    void aBenchmarkOfAnotherModelIsRefused() {
        const OtherPhysicsDecoder decoder;
        const qint64 parameters = decoder.parameters();
        QVERIFY2(parameters > 6'600'000'000LL && parameters < 6'900'000'000LL, // Llama-2-7B: 6.74e9
                 qPrintable(QString::number(parameters)));
        QVERIFY(
            decoder.calibrate({"MAXN", "MODE_15W"}, LlmBenchFormat::LlamaBench, parameters * 11 / 10).decode);
        const QString error = errorOf([&] {
            decoder.calibrate({"MAXN", "MODE_15W"}, LlmBenchFormat::LlamaBench, 1'100'048'384LL);
        });
        QVERIFY2(
            error.contains("MAXN.jsonl: record 1 benchmarks a model of 1.1e+09 parameters ('llama 7B int4'), "
                           "not llama2.onnx"),
            qPrintable(error));
        QVERIFY(error.contains("a benchmark of another model calibrates nothing"));
        QVERIFY(!error.contains('\n'));
    }

    // MLC's --save CSV from the same two modes fits the same runtimes: the other modes' TPOT and TTFT
    // within the llama-bench files' accuracy.
    void mlcFilesCalibrateLikeLlamaBench() {
        const OtherPhysicsDecoder decoder;
        const LlmCalibrationResult fit = decoder.calibrate({"MAXN", "MODE_15W"}, LlmBenchFormat::Mlc);
        QVERIFY(fit.prefill && fit.decode);
        QCOMPARE(int(fit.records.size()), 4); // a prefill and a decode test per file
        LlmRequest llm = decoder.request();
        llm.runtime.file = decoder.saveRuntimes(fit);
        const LlmResult calibrated = runLlmAnalysis(llm);
        for (const LlmModeAnswer& answer : calibrated.modes) {
            const Truth truth = decoder.truth(answer.profile.mode);
            qInfo("%s (MLC): TPOT %+.2f %%, TTFT %+.2f %%", answer.profile.mode.name.c_str(),
                  (answer.tpotSeconds / truth.tpot - 1) * 100, (answer.ttftSeconds / truth.ttft - 1) * 100);
            QVERIFY2(qAbs(answer.tpotSeconds / truth.tpot - 1) < 0.05, answer.profile.mode.name.c_str());
            QVERIFY2(qAbs(answer.ttftSeconds / truth.ttft - 1) < 0.10, answer.profile.mode.name.c_str());
        }
    }

    // benchmark.py's printed log: its summary (the prompts' average, the first left out as warm-up) when it
    // has one, else each prompt's line; a name with colons of its own is kept whole.
    void mlcLogsAreReadFromTheirSummary() {
        const std::string perPrompt = "PROMPT:  Once upon a time,\n"
                                      "HF://mlc-ai/Llama-2-7b-q4f16_1-MLC:  input=6 output=128 prefill_time "
                                      "0.010 sec, prefill_rate 600.2 "
                                      "tokens/sec, decode_time 2.731 sec, decode_rate 46.9 tokens/sec\n"
                                      "HF://mlc-ai/Llama-2-7b-q4f16_1-MLC:  input=9 output=64 prefill_time "
                                      "0.015 sec, prefill_rate 600.0 "
                                      "tokens/sec, decode_time 1.365 sec, decode_rate 46.9 tokens/sec\n";
        const LlamaBenchFile prompts = parseMlcBench(perPrompt, "log.txt");
        QCOMPARE(int(prompts.records.size()), 4);
        QCOMPARE(prompts.records[0].prompt, int64_t(6));
        QCOMPARE(prompts.records[0].averageSeconds, 0.010);
        QCOMPARE(prompts.records[1].generate, int64_t(128));
        QCOMPARE(prompts.records[1].depth, int64_t(6));
        QCOMPARE(prompts.records[3].generate, int64_t(64));
        QCOMPARE(prompts.records[3].depth, int64_t(9));
        QCOMPARE(prompts.records[3].averageSeconds, 1.365);
        QCOMPARE(prompts.records[0].modelType, std::string("HF://mlc-ai/Llama-2-7b-q4f16_1-MLC"));

        const LlamaBenchFile summary = parseMlcBench(
            perPrompt + "AVERAGE OVER 1 RUNS  (input_tokens=16, output_tokens=128)\n"
                        "HF://mlc-ai/Llama-2-7b-q4f16_1-MLC:  prefill_time 0.025 sec, prefill_rate "
                        "632.8 tokens/sec, decode_time 2.729 sec, decode_rate 46.9 tokens/sec\n",
            "log.txt");
        QCOMPARE(int(summary.records.size()), 2);
        QVERIFY(summary.records[0].prefill());
        QCOMPARE(summary.records[0].prompt, int64_t(16));
        QCOMPARE(summary.records[0].averageSeconds, 0.025);
        QCOMPARE(summary.records[1].generate, int64_t(128));
        QCOMPARE(summary.records[1].depth, int64_t(16));
        QCOMPARE(summary.records[1].averageSeconds, 2.729);
        QCOMPARE(summary.records[1].index, 5); // the summary line, after the AVERAGE line
    }

    void badMlcFilesAreOneLine_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QString header = "timestamp, hostname, api, model, precision, input_tokens, output_tokens, "
                               "prefill_time, prefill_rate, decode_time, decode_rate, memory\n";
        QTest::newRow("llama-bench json") << R"([{"n_prompt": 512, "n_gen": 0, "avg_ns": 5}])"
                                          << "no MLC benchmark result";
        QTest::newRow("empty") << ""
                               << "no MLC benchmark result";
        QTest::newRow("short row") << header + "20240301, orin, mlc, m, q4, 16, 128, 0.025\n"
                                   << ":2: 8 fields where the header has 12";
        QTest::newRow("fraction of a token")
            << header + "20240301, orin, mlc, m, q4, 16.5, 128, 0.025, 640, 2.7, 46.9, 5000\n"
            << "input_tokens must be a whole number";
        QTest::newRow("no prompt") << header +
                                          "20240301, orin, mlc, m, q4, 0, 128, 0.025, 640, 2.7, 46.9, 5000\n"
                                   << "input_tokens must be a whole number from 1";
        QTest::newRow("milliseconds")
            << header + "20240301, orin, mlc, m, q4, 16, 128, 25.3, 632.8, 2729, 46.9, 5000\n"
            << "prefill_time 25.3";
        QTest::newRow("negative rate")
            << header + "20240301, orin, mlc, m, q4, 16, 128, , -632.8, 2.729, 46.9, 5000\n"
            << "prefill_rate must be a positive number";
        QTest::newRow("no decode") << header + "20240301, orin, mlc, m, q4, 16, 128, 0.025, 632.8, , , 5000\n"
                                   << "decode_time and decode_rate are missing";
        QTest::newRow("log without tokens") << "m:  prefill_time 0.025 sec, prefill_rate 632.8 tokens/sec, "
                                               "decode_time 2.729 sec, decode_rate "
                                               "46.9 tokens/sec\n"
                                            << ":1: input_tokens is missing";
    }
    void badMlcFilesAreOneLine() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QString error = errorOf([&] { parseMlcBench(text.toStdString(), "mlc.csv"); });
        QVERIFY2(error.contains(message), qPrintable(error));
        QVERIFY(error.startsWith("mlc.csv"));
        QVERIFY(!error.contains('\n'));
    }

    // The advisor on the runtime calibrated in three modes, over stock and 40 grid modes under a TPOT limit
    // 15 % above the true MAXN TPOT: its pick is judged by the true TPOT; the uncalibrated prior's is shown
    // beside it (it may decline to pick: its intervals are wide).
    void theLlmPickHoldsOnTheTruePhysics() {
        const OtherPhysicsDecoder decoder;
        // Three modes: one test to spare per phase, so the fit measures its own error (an exact fit assumes
        // 15 %).
        const LlmCalibrationResult fit = decoder.calibrate({"MAXN", "MODE_15W", "MODE_50W"});
        QCOMPARE(fit.decode->runtime.latencySpread, 0.05); // the floor: the spare test fits within it
        const std::string runtimes = decoder.saveRuntimes(fit);

        LlmLimits limits;
        limits.tpotSeconds = decoder.truth("MAXN").tpot * 1.15;
        for (const bool calibrated : {false, true}) {
            LlmRequest request = decoder.request();
            request.runtime.file = calibrated ? runtimes : std::string();
            request.modes = "sample:40";
            LlmResult sampled = runLlmAnalysis(request);
            request.modes = "stock";
            LlmResult stock = runLlmAnalysis(request);
            const std::vector<LlmResult> results = {std::move(stock), std::move(sampled)};
            const LlmRecommendation r = recommendLlm(results, limits, LlmObjective::EnergyPerToken);
            if (!r.pick) {
                QVERIFY2(!calibrated, "the calibrated advisor found no mode within the limit");
                qInfo("prior: no pick at 90 %% (its spread: %.2f)", results.front().spread.latency);
                continue;
            }
            const LlmModeAnswer& pick = *r.options[*r.pick].answer;
            const double trueTpot = decoder.truth(pick.profile.mode).tpot;
            qInfo("%s: pick %s, TPOT predicted %.2f ms, true %.2f ms, limit %.2f ms",
                  calibrated ? "calibrated" : "prior", pick.profile.mode.name.c_str(), pick.tpotSeconds * 1e3,
                  trueTpot * 1e3, *limits.tpotSeconds * 1e3);
            if (calibrated) QVERIFY2(trueTpot <= *limits.tpotSeconds, pick.profile.mode.name.c_str());
        }
    }

    // llama-bench had no n_depth before its -d option: such a record is a test with nothing cached.
    void aRecordWithoutDepthStartsFromAnEmptyCache() {
        const LlamaBenchFile file = parseLlamaBench(
            R"([{"n_prompt": 0, "n_gen": 32, "avg_ns": 48000000}, {"n_prompt": 0, "n_gen": 32, "n_depth": 512,)"
            R"( "avg_ns": 52000000}])",
            "old.json");
        QCOMPARE(int(file.records.size()), 2);
        QCOMPARE(file.records[0].depth, int64_t(0));
        QCOMPARE(file.records[1].depth, int64_t(512));
        const QString error = errorOf([&] {
            parseLlamaBench(R"([{"n_prompt": 0, "n_gen": 32, "n_depth": -1, "avg_ns": 5}])", "bad.json");
        });
        QVERIFY2(error.contains("n_depth must be a whole number"), qPrintable(error));
    }

    void badLlamaBenchFilesAreOneLine_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << "pp512 | 2368.80 ± 93.24"
                                  << "not JSON";
        QTest::newRow("no avg") << R"([{"n_prompt": 512, "n_gen": 0}])"
                                << "avg_ns is missing";
        QTest::newRow("negative") << R"([{"n_prompt": -5, "n_gen": 0, "avg_ns": 10}])"
                                  << "n_prompt must be a whole number";
        QTest::newRow("fraction") << R"([{"n_prompt": 0, "n_gen": 1.5, "avg_ns": 10}])"
                                  << "n_gen must be a whole number";
        QTest::newRow("zero time") << R"([{"n_prompt": 0, "n_gen": 8, "avg_ns": 0}])"
                                   << "avg_ns must be a positive";
        QTest::newRow("nothing") << R"([{"n_prompt": 0, "n_gen": 0, "avg_ns": 5}])"
                                 << "neither n_prompt nor n_gen";
        QTest::newRow("only pg") << R"([{"n_prompt": 16, "n_gen": 16, "avg_ns": 5}])"
                                 << "only 1 mixed -pg tests";
        QTest::newRow("parameters") << R"([{"n_prompt": 0, "n_gen": 8, "avg_ns": 5, "model_n_params": -7}])"
                                    << "model_n_params must be a whole number from 1 to 1e13";
        QTest::newRow("parameters text")
            << R"([{"n_prompt": 0, "n_gen": 8, "avg_ns": 5, "model_n_params": "7B"}])"
            << "model_n_params must be a whole number";
        QTest::newRow("array of numbers") << "[1, 2]"
                                          << "record 1: expected a JSON object";
        QTest::newRow("empty") << ""
                               << "no prefill (n_prompt) or decode (n_gen) test";
    }
    void badLlamaBenchFilesAreOneLine() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QString error = errorOf([&] { parseLlamaBench(text.toStdString(), "bench.json"); });
        QVERIFY2(error.contains(message), qPrintable(error));
        QVERIFY(error.startsWith("bench.json"));
        QVERIFY(!error.contains('\n'));
    }
};

ROOFTOP_TEST_CLASS(LlmCalibration)
#include "test_llm_calibration.moc"
