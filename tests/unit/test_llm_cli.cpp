// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop llm` as a process: the JSON document's fields (docs/llm.md) and one line for each bad input.
#include "core/roofline/prediction_spread.h"
#include "support/cli_runner.h"
#include "support/compare.h"
#include "support/llm_fixtures.h"
#include "support/test_registry.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <map>

using namespace rooftop::test;

namespace {

QString writeDecoder(const QTemporaryDir& dir, const QString& name, const LlmShape& shape, LlmExport style) {
    const QString path = dir.filePath(name);
    writeModel(makeLlmDecoder(shape, style), path.toStdString());
    return path;
}

} // namespace

class LlmCli : public QObject {
    Q_OBJECT

private slots:
    void theJsonHasTheDocumentedFields() {
        QTemporaryDir dir;
        const QString model = writeDecoder(dir, "tiny.onnx", LlmShape{}, LlmExport::GenAi);
        const CliResult run = runRooftop({"llm", model, "--device", "agx-orin-64gb", "--prompt", "64",
                                          "--generate", "16", "--batch", "2", "--context-sweep", "16:128",
                                          "--sweep-points", "5", "--format", "json"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonObject doc = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QCOMPARE(doc["schema"].toString(), QString("rooftop-llm/5"));
        QVERIFY(doc["dims"].toObject().isEmpty()); // none bound: dims are values bound, as everywhere
        QVERIFY(!doc["dim_roles"].toObject()["past"].toString().isEmpty());
        for (const QJsonValue& mode : doc["modes"].toArray())
            for (const char* key : {"end_to_end_ms", "end_to_end_mj"}) {
                const QJsonArray interval = mode[QString(key) + "_interval"].toArray();
                QVERIFY2(interval.size() == 2 && interval[0].toDouble() < mode[key].toDouble() &&
                             mode[key].toDouble() < interval[1].toDouble(),
                         key);
            }
        QVERIFY2(doc["prediction_basis"].toString().startsWith("decode: Rooftop's roofline prior"),
                 qPrintable(doc["prediction_basis"].toString()));
        QCOMPARE(doc["workload"]["prompt"].toInt(), 64);
        QCOMPARE(doc["workload"]["generate"].toInt(), 16);
        QCOMPARE(doc["workload"]["batch"].toInt(), 2);
        QCOMPARE(doc["prefill"]["tokens"].toInt(), 128);
        const QJsonArray decode = doc["decode"].toArray();
        QCOMPARE(decode.size(), 2);
        QCOMPARE(decode[0]["context"].toInt(), 65);
        QCOMPARE(decode[0]["past"].toInt(), 64);
        QCOMPARE(decode[1]["context"].toInt(), 80);
        for (const char* key : {"macs", "flops", "bytes", "weight_bytes", "kv_read_bytes", "kv_write_bytes"})
            QVERIFY2(decode[1].toObject().contains(key), key);
        QVERIFY(decode[1]["kv_read_bytes"].toDouble() > decode[0]["kv_read_bytes"].toDouble());
        QCOMPARE(doc["generation"]["steps"].toInt(), 16);
        QVERIFY(doc["generation"]["exact"].toBool());
        const QJsonObject memory = doc["memory"].toObject();
        for (const char* key :
             {"weight_bytes", "kv_bytes_per_token", "kv_bytes", "total_bytes", "board_bytes", "fits"})
            QVERIFY2(memory.contains(key), key);
        QCOMPARE(memory["kv_bytes"].toDouble(), memory["kv_bytes_per_token"].toDouble() * 2 * 80);
        QVERIFY(memory["fits"].toBool());
        // a Jetson's shared memory keeps 2 GiB for the OS and the runtime unless --reserve-gib says otherwise
        QCOMPARE(memory["reserved_bytes"].toDouble(), 2.0 * (int64_t{1} << 30));
        QVERIFY(doc["assumptions"].toArray().contains(
            QString("memory: 2.0 GiB left to the OS and the runtime (an estimate; --reserve-gib)")));
        const CliResult reserved = runRooftop(
            {"llm", model, "--device", "agx-orin-64gb", "--reserve-gib", "3.5", "--format", "json"});
        QVERIFY2(reserved.exitCode == 0, qPrintable(reserved.err));
        const QJsonObject given = QJsonDocument::fromJson(reserved.out.toUtf8()).object();
        QCOMPARE(given["memory"]["reserved_bytes"].toDouble(), 3.5 * (int64_t{1} << 30));
        QVERIFY(given["assumptions"].toArray().contains(
            QString("memory: 3.5 GiB left to the OS and the runtime (--reserve-gib, an estimate)")));
        const QJsonArray modes = doc["modes"].toArray();
        QCOMPARE(modes.size(), 4);
        QCOMPARE(doc["sweep_contexts"].toArray().size(), 5);
        for (const QJsonValue& value : modes) {
            const QJsonObject mode = value.toObject();
            for (const char* key :
                 {"mode", "ttft_ms", "tpot_ms", "prefill_tok_s", "decode_tok_s", "energy_per_token_mj",
                  "tokens_per_joule", "power_w", "bound", "provenance", "tpot_ms_interval"})
                QVERIFY2(mode.contains(key), key);
            QCOMPARE(mode["provenance"].toString(), QString("estimate"));
            const QJsonArray interval = mode["tpot_ms_interval"].toArray();
            QVERIFY(interval[0].toDouble() < mode["tpot_ms"].toDouble());
            QVERIFY(interval[1].toDouble() > mode["tpot_ms"].toDouble());
            QCOMPARE(mode["decode_tok_s"].toDouble(), 2 * 1000.0 / mode["tpot_ms"].toDouble());
            QCOMPARE(mode["sweep_tpot_ms"].toArray().size(), 5);
            // every predicted number has its interval: a rate's is its time's turned over
            for (const char* key : {"prefill_tok_s", "decode_tok_s", "tokens_per_joule", "prefill_power_w"}) {
                const QJsonArray bounds = mode[QString(key) + "_interval"].toArray();
                QVERIFY2(bounds.size() == 2 && bounds[0].toDouble() < mode[key].toDouble() &&
                             mode[key].toDouble() < bounds[1].toDouble(),
                         key);
            }
            const QJsonArray rate = mode["decode_tok_s_interval"].toArray();
            COMPARE_REL_TOL(rate[0].toDouble(), 2 * 1000.0 / interval[1].toDouble(), 1e-9);
            COMPARE_REL_TOL(rate[1].toDouble(), 2 * 1000.0 / interval[0].toDouble(), 1e-9);
            // the roofline's vocabulary: its bound words and energy in mJ (llm/2 said "bandwidth" and J)
            for (const char* key : {"bound", "prefill_bound"})
                QVERIFY2(QStringList({"compute", "memory", "overhead"}).contains(mode[key].toString()), key);
            QVERIFY(!mode.contains("end_to_end_j"));
            QVERIFY(mode["end_to_end_mj"].toDouble() >
                    16 * 2 * mode["energy_per_token_mj"].toDouble()); // the prefill's energy besides
        }
    }

    void theSweepsCsvIsTpotPerModeAndContext() {
        QTemporaryDir dir;
        const QString model = writeDecoder(dir, "tiny.onnx", LlmShape{}, LlmExport::GenAi);
        const QStringList args{
            "llm",        model, "--device",        "agx-orin-64gb", "--prompt",       "64",
            "--generate", "16",  "--context-sweep", "16:128",        "--sweep-points", "5"};
        const CliResult json = runRooftop(args + QStringList{"--format", "json"});
        const CliResult csv = runRooftop(args + QStringList{"--format", "csv"});
        QVERIFY2(json.exitCode == 0 && csv.exitCode == 0, qPrintable(json.err + csv.err));
        const QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
        const QJsonArray contexts = doc["sweep_contexts"].toArray();
        const QJsonArray modes = doc["modes"].toArray();
        QStringList lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.takeFirst(),
                 QString("mode,cores,cpu_khz,gpu_hz,emc_hz,batch,context,tpot_ms,provenance,"
                         "tpot_ms_low,tpot_ms_high,bounds_confidence"));
        QCOMPARE(lines.size(), modes.size() * contexts.size());
        for (int i = 0; i < lines.size(); ++i) {
            const QStringList cells = lines[i].split(',');
            QCOMPARE(cells.size(), 12);
            QCOMPARE(cells.last(), QString("0.9"));
            const QJsonObject mode = modes[i / contexts.size()].toObject();
            const int point = i % contexts.size();
            QCOMPARE(cells[0], mode["mode"].toString());
            QCOMPARE(cells[5].toLongLong(), 1); // the batch
            QCOMPARE(cells[6].toLongLong(), contexts[point].toInteger());
            const double tpot = cells[7].toDouble();
            QVERIFY(std::abs(tpot / mode["sweep_tpot_ms"].toArray()[point].toDouble() - 1.0) < 1e-5);
            QVERIFY2(cells[9].toDouble() < tpot && tpot < cells[10].toDouble(), qPrintable(lines[i]));
        }
    }

    void theTableNamesThePhasesAndTheMemory() {
        QTemporaryDir dir;
        const QString model = writeDecoder(dir, "tiny.onnx", LlmShape{}, LlmExport::Optimum);
        const CliResult run =
            runRooftop({"llm", model, "--device", "agx-thor-t5000", "--prompt", "32", "--generate", "8"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        for (const char* text :
             {"prefill", "decode at context 33", "decode at context 40", "generation (8 steps)", "fits",
              "TTFT ms", "MAXN", "past = past_sequence_length"})
            QVERIFY2(run.out.contains(text), text);
    }

    // Every predicted number of the table and the CSV has its bounds at --confidence beside it.
    void theTableAndTheCsvCarryBounds() {
        QTemporaryDir dir;
        const QString model = writeDecoder(dir, "tiny.onnx", LlmShape{}, LlmExport::Optimum);
        const QStringList args{"llm",      model, "--device",   "agx-orin-64gb",
                               "--prompt", "32",  "--generate", "8"};
        const CliResult table = runRooftop(args);
        QVERIFY2(table.exitCode == 0, qPrintable(table.err));
        QVERIFY2(table.out.contains("each bound holding at 90 %"), qPrintable(table.out));
        QVERIFY(!table.out.contains("within x/"));
        const QString maxnRow = table.out.section("\n  MAXN ", 1, 1).section('\n', 0, 0);
        QCOMPARE(maxnRow.count(QString::fromUtf8("–")),
                 7); // TTFT, TPOT, prefill and decode tok/s, mJ/token, tok/J and W
        const CliResult table80 = runRooftop(args + QStringList{"--confidence", "0.8"});
        QVERIFY2(table80.out.contains("each bound holding at 80 %, from"), qPrintable(table80.out));
        const CliResult table50 = runRooftop(args + QStringList{"--confidence", "0.5"});
        QVERIFY2(!table50.out.contains("[low") && !table50.out.contains(QString::fromUtf8("–")),
                 qPrintable(table50.out)); // at 0.5 the bounds are the values: none written
        const CliResult csv = runRooftop(args + QStringList{"--format", "csv"});
        const CliResult csv80 = runRooftop(args + QStringList{"--format", "csv", "--confidence", "0.8"});
        QVERIFY2(csv.exitCode == 0 && csv80.exitCode == 0, qPrintable(csv.err + csv80.err));
        const QStringList lines = csv.out.trimmed().split('\n'), lines80 = csv80.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        QCOMPARE(lines80.size(), 5);
        const QStringList header = lines[0].split(',');
        const auto field = [&](const QStringList& fields, const QString& name) {
            const int column = int(header.indexOf(name));
            return column >= 0 ? fields[column].toDouble() : std::nan("");
        };
        // each quantity's bounds at 0.9 from its own spread: the prior's (no predictor, no runtime file), on
        // whole passes for the prefill and on decode steps for the decode
        const rooftop::PredictionSpread prior = rooftop::priorSpread(), decode = rooftop::priorDecodeSpread();
        const std::map<QString, double> spreads{{"ttft_ms", prior.latency},
                                                {"tpot_ms", decode.latency},
                                                {"energy_per_token_mj", decode.energy},
                                                {"power_w", decode.power},
                                                {"prefill_power_w", prior.power}};
        for (int row = 1; row < lines.size(); ++row) {
            const QStringList fields = lines[row].split(','), fields80 = lines80[row].split(',');
            QCOMPARE(fields.size(), header.size());
            QCOMPARE(field(fields, "bounds_confidence"), 0.9);
            QCOMPARE(field(fields80, "bounds_confidence"), 0.8);
            for (const char* name :
                 {"ttft_ms", "tpot_ms", "energy_per_token_mj", "power_w", "prefill_power_w"}) {
                const double value = field(fields, name);
                const double low = field(fields, QString(name) + "_low");
                const double high = field(fields, QString(name) + "_high");
                QVERIFY2(low > 0 && low < value && value < high, name);
                QVERIFY2(std::abs(std::log(high / value) - 1.2815516 * spreads.at(name)) < 1e-4, name);
                // one-sided bounds: z = 1.2816 at 0.9, 0.8416 at 0.8, the same factor below and above (the
                // values written to 6 digits)
                const double width80 = std::log(field(fields80, QString(name) + "_high") / value);
                QVERIFY2(std::abs(std::log(high / value) / width80 - 1.2815516 / 0.8416212) < 1e-4, name);
                QVERIFY2(std::abs(std::log(high / value) - std::log(value / low)) < 5e-5, name);
            }
        }
    }

    void badInputIsOneLine_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("sweep") << QStringList{"--context-sweep", "8192:128x"}
                               << "--context-sweep wants FROM:TO";
        QTest::newRow("sweep one number")
            << QStringList{"--context-sweep", "128"} << "--context-sweep wants FROM:TO";
        QTest::newRow("sweep blank") << QStringList{"--context-sweep", "128: 256"}
                                     << "--context-sweep wants FROM:TO";
        QTest::newRow("sweep order") << QStringList{"--device", "agx-orin-64gb", "--context-sweep", "200:100"}
                                     << "1 <= FROM < TO";
        QTest::newRow("positions") << QStringList{"--prompt", "250", "--generate", "10"}
                                   << "beyond the model's 256 positions";
        QTest::newRow("dim") << QStringList{"--dim", "past_sequence_length=3"} << "contradicts the phases";
        QTest::newRow("prompt") << QStringList{"--prompt", "0"} << "--prompt";
        QTest::newRow("device") << QStringList{"--device", "no-such-board"} << "no-such-board";
        QTest::newRow("confidence") << QStringList{"--confidence", "0.3"} << "--confidence must be from 0.5";
        QTest::newRow("sweep points alone")
            << QStringList{"--sweep-points", "8"} << "--sweep-points goes with --context-sweep";
        QTest::newRow("modes without a board")
            << QStringList{"--modes", "grid"} << "llm --modes is of a board's power modes: give --device ID";
        QTest::newRow("csv without a board")
            << QStringList{"--format", "csv"}
            << "llm --format csv writes one row per power mode: give --device ID";
        QTest::newRow("reserve") << QStringList{"--device", "agx-orin-64gb", "--reserve-gib", "1e300"}
                                 << "--reserve-gib 1e+300 leaves nothing of agx-orin-64gb's 64 GiB";
    }
    void badInputIsOneLine() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString model = writeDecoder(dir, "tiny.onnx", LlmShape{}, LlmExport::Optimum);
        const CliResult run = runRooftop(QStringList{"llm", model} + arguments);
        QVERIFY(!run.crashed);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QCOMPARE(run.err.trimmed().count('\n'), 0);
    }

    void calibrateReadsLlamaBenchPerPhase() {
        QTemporaryDir dir;
        const QString model = writeDecoder(dir, "tiny.onnx", LlmShape{}, LlmExport::GenAi);
        const QString bench = dir.filePath("bench.jsonl");
        QFile file(bench);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"n_prompt": 64, "n_gen": 0, "n_depth": 0, "avg_ns": 2000000})"
                   "\n"
                   R"({"n_prompt": 0, "n_gen": 32, "n_depth": 64, "avg_ns": 48000000})"
                   "\n"
                   R"({"n_prompt": 64, "n_gen": 32, "n_depth": 0, "avg_ns": 50000000})"
                   "\n");
        file.close();
        const QString runtimes = dir.filePath("rt.json");
        const CliResult run = runRooftop({"calibrate", model, "--device", "agx-orin-64gb", "--llama-bench",
                                          bench, "--mode", "MODE_30W", "--name", "mine", "-o", runtimes});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains("Left out: 1 mixed test"), qPrintable(run.out));
        QVERIFY(run.out.contains("tg32 @ d64"));
        const CliResult llm =
            runRooftop({"llm", model, "--device", "agx-orin-64gb", "--prompt", "64", "--generate", "32",
                        "--runtime-file", runtimes, "--format", "json"});
        QVERIFY2(llm.exitCode == 0, qPrintable(llm.err));
        const QJsonObject doc = QJsonDocument::fromJson(llm.out.toUtf8()).object();
        QCOMPARE(doc["runtime"].toObject()["name"].toString(), QString("mine-decode"));
        QCOMPARE(doc["prefill_runtime"].toObject()["name"].toString(), QString("mine-prefill"));
        bool measuredMode = false;
        for (const QJsonValue& mode : doc["modes"].toArray())
            if (mode["mode"].toString() == "MODE_30W") {
                measuredMode = true;
                QVERIFY(qAbs(mode["ttft_ms"].toDouble() / 2.0 - 1) < 1e-3);
                QVERIFY(qAbs(mode["tpot_ms"].toDouble() / 1.5 - 1) < 0.02); // the mean step, 48 ms / 32
            }
        QVERIFY(measuredMode);

        const CliResult orphan =
            runRooftop({"calibrate", model, "--device", "agx-orin-64gb", "--mode", "MAXN"});
        QCOMPARE(orphan.exitCode, 1);
        QVERIFY(orphan.err.contains("--mode names the mode of the --llama-bench or --mlc-bench file"));
        const CliResult modeless =
            runRooftop({"calibrate", model, "--device", "agx-orin-64gb", "--llama-bench", bench});
        QCOMPARE(modeless.exitCode, 1);
        QVERIFY2(modeless.err.contains("give the power mode it was measured in"), qPrintable(modeless.err));
    }

    // MLC's printed log through the command, beside a llama-bench file of another mode: each result a
    // prefill and a decode test, fitted with the llama-bench tests.
    void calibrateReadsMlcBesideLlamaBench() {
        QTemporaryDir dir;
        const QString model = writeDecoder(dir, "tiny.onnx", LlmShape{}, LlmExport::GenAi);
        const QString bench = dir.filePath("bench.jsonl");
        QFile llama(bench);
        QVERIFY(llama.open(QIODevice::WriteOnly));
        llama.write(R"({"n_prompt": 64, "n_gen": 0, "n_depth": 0, "avg_ns": 272000})"
                    "\n"
                    R"({"n_prompt": 0, "n_gen": 32, "n_depth": 64, "avg_ns": 8490000})"
                    "\n");
        llama.close();
        const QString log = dir.filePath("mlc.log");
        QFile mlc(log);
        QVERIFY(mlc.open(QIODevice::WriteOnly));
        mlc.write(
            "AVERAGE OVER 9 RUNS  (input_tokens=64, output_tokens=32)\n"
            "tiny-q4f16_1:  prefill_time 0.000634 sec, prefill_rate 100946 tokens/sec, decode_time 0.01976 "
            "sec, decode_rate 1619.4 tokens/sec\n");
        mlc.close();
        const CliResult run = runRooftop({"calibrate", model, "--device", "agx-orin-64gb", "--llama-bench",
                                          bench, "--mode", "MAXN", "--mlc-bench", log, "--mode", "MODE_15W"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains("tg32 @ d64"), qPrintable(run.out));
        QVERIFY(run.out.contains("MODE_15W"));
        QCOMPARE(int(run.out.count("pp64")), 2);

        const CliResult modeless =
            runRooftop({"calibrate", model, "--device", "agx-orin-64gb", "--mlc-bench", log});
        QCOMPARE(modeless.exitCode, 1);
        QVERIFY2(modeless.err.contains("(--mode after --mlc-bench)"), qPrintable(modeless.err));
        const CliResult wrong = runRooftop(
            {"calibrate", model, "--device", "agx-orin-64gb", "--mlc-bench", bench, "--mode", "MAXN"});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.err.contains("no MLC benchmark result"), qPrintable(wrong.err));
        QCOMPARE(wrong.err.trimmed().count('\n'), 0);
    }

    // The pick meets the limit and has the least energy a token among the modes that do (at confidence 0.5
    // the bounds are the values `rooftop llm` prints).
    void recommendPicksTheLeastEnergyWithinTheLimit() {
        QTemporaryDir dir;
        const QString model = writeDecoder(dir, "llama.onnx", qwen25_05b(), LlmExport::GenAi);
        const QStringList common = {model,        "--device", "agx-orin-64gb", "--prompt", "256",
                                    "--generate", "64"};
        const CliResult all = runRooftop(QStringList{"llm"} + common + QStringList{"--format", "json"});
        QVERIFY2(all.exitCode == 0, qPrintable(all.err));
        const QJsonArray modes = QJsonDocument::fromJson(all.out.toUtf8()).object()["modes"].toArray();
        double fastest = 1e9, slowest = 0;
        for (const QJsonValue& m : modes) {
            fastest = qMin(fastest, m["tpot_ms"].toDouble());
            slowest = qMax(slowest, m["tpot_ms"].toDouble());
        }
        QVERIFY(slowest > fastest);
        const double slo = (fastest + slowest) / 2;
        QString best;
        double leastEnergy = 1e18;
        for (const QJsonValue& m : modes)
            if (m["tpot_ms"].toDouble() <= slo && m["energy_per_token_mj"].toDouble() < leastEnergy) {
                leastEnergy = m["energy_per_token_mj"].toDouble();
                best = m["mode"].toString();
            }
        const CliResult pick =
            runRooftop(QStringList{"recommend"} + common +
                       QStringList{"--llm", "--modes", "stock", "--tpot-slo", QString::number(slo),
                                   "--confidence", "0.5", "--format", "json"});
        QVERIFY2(pick.exitCode == 0, qPrintable(pick.err));
        const QJsonObject doc = QJsonDocument::fromJson(pick.out.toUtf8()).object();
        QCOMPARE(doc["schema"].toString(), QString("rooftop-llm-recommend/5"));
        // power_w is the decode's as in rooftop llm; the cap holds the larger phase, max_phase_power_w
        const QJsonObject picked = doc["recommended"].toObject();
        for (const QJsonValue& m : modes)
            if (m["mode"].toString() == picked["mode"].toString()) {
                QCOMPARE(picked["power_w"].toDouble(), m["power_w"].toDouble());
                // each predicted power with its interval (at 0.5 here: the value itself)
                const double decode = picked["power_w"].toDouble(),
                             prefill = picked["prefill_power_w"].toDouble();
                QCOMPARE(picked["power_w_interval"].toArray(), (QJsonArray{decode, decode}));
                QCOMPARE(picked["prefill_power_w_interval"].toArray(), (QJsonArray{prefill, prefill}));
            }
        QCOMPARE(picked["max_phase_power_w"].toDouble(),
                 qMax(picked["power_w"].toDouble(), picked["prefill_power_w"].toDouble()));
        QVERIFY(picked["max_phase_power_w_interval"].toArray()[1].toDouble() >=
                picked["max_phase_power_w"].toDouble()); // at 0.5 here: the value itself
        QCOMPARE(doc["limits"]["tpot_slo_ms"].toDouble(), QString::number(slo).toDouble()); // as given
        QCOMPARE(doc["workload"]["precision"].toString(), QString("as-model"));
        QCOMPARE(doc["recommended"]["mode"].toString(), best);
        QVERIFY(doc["recommended"]["tpot_ms"].toDouble() <= slo);
        const QJsonArray energy = doc["recommended"]["energy_per_token_mj_interval"].toArray();
        QCOMPARE(energy.size(), 2); // every predicted value has its interval beside it
        QVERIFY(energy[0].toDouble() <= doc["recommended"]["energy_per_token_mj"].toDouble());
        QVERIFY(energy[1].toDouble() >= doc["recommended"]["energy_per_token_mj"].toDouble());
        QVERIFY(!doc["reasons"].toArray().isEmpty());
        // the close calls: every other mode meeting the limit whose energy a token lies within the pick's
        // 1-sigma spread of it (llm's interval at 90 % reaches exp(1.2816 sigma) above the value)
        double sigma = 0;
        for (const QJsonValue& m : modes)
            if (m["mode"].toString() == picked["mode"].toString())
                sigma = std::log(m["energy_per_token_mj_interval"].toArray()[1].toDouble() /
                                 m["energy_per_token_mj"].toDouble()) /
                        1.2816;
        QVERIFY(sigma > 0.05);
        QStringList expectedClose;
        for (const QJsonValue& m : modes)
            if (m["mode"].toString() != picked["mode"].toString() && m["tpot_ms"].toDouble() <= slo &&
                m["energy_per_token_mj"].toDouble() / leastEnergy - 1 <= sigma)
                expectedClose << m["mode"].toString();
        QVERIFY2(!expectedClose.isEmpty(), "no close call to check");
        QCOMPARE(doc["close_call_count"].toInt(), int(expectedClose.size()));
        QVERIFY(std::abs(doc["close_call_within_pct"].toDouble() / 100 - sigma) < 1e-3);
        QStringList close;
        for (const QJsonValue& c : doc["close_calls"].toArray())
            close << c["mode"].toString();
        close.sort();
        expectedClose.sort();
        QCOMPARE(close, expectedClose); // four stock modes: at most three, all listed
        bool said = false;
        for (const QJsonValue& reason : doc["reasons"].toArray())
            said = said ||
                   reason.toString().startsWith("a close call: " + QString::number(expectedClose.size()));
        QVERIFY2(said, "no close-call reason");
        QVERIFY(!doc.contains("closest"));
        // At the default confidence (0.9) the pick is the least energy among the modes whose upper bound
        // meets the limit: `rooftop llm` prints each bound at 0.9 by default. A limit where that differs from
        // the least energy among the predictions themselves.
        auto leastEnergyWithin = [&](double limit, bool bound) {
            QString mode;
            double least = 1e18;
            for (const QJsonValue& m : modes) {
                const double tpot =
                    bound ? m["tpot_ms_interval"].toArray()[1].toDouble() : m["tpot_ms"].toDouble();
                if (tpot <= limit && m["energy_per_token_mj"].toDouble() < least) {
                    least = m["energy_per_token_mj"].toDouble();
                    mode = m["mode"].toString();
                }
            }
            return mode;
        };
        double boundLimit = 0;
        for (int i = 1; i < 80 && boundLimit == 0; ++i) { // the bounds at 90 % reach about 1.8 x the values
            const double limit = fastest + (2 * slowest - fastest) * i / 80.0;
            const QString atBound = leastEnergyWithin(limit, true);
            if (!atBound.isEmpty() && atBound != leastEnergyWithin(limit, false)) boundLimit = limit;
        }
        QVERIFY2(boundLimit > 0, "no limit where the bounds change the pick");
        const CliResult confident = runRooftop(QStringList{"recommend"} + common +
                                               QStringList{"--llm", "--modes", "stock", "--tpot-slo",
                                                           QString::number(boundLimit), "--format", "json"});
        QVERIFY2(confident.exitCode == 0, qPrintable(confident.err));
        const QJsonObject atNinety = QJsonDocument::fromJson(confident.out.toUtf8()).object();
        QCOMPARE(atNinety["confidence"].toDouble(), 0.9);
        QCOMPARE(atNinety["recommended"]["mode"].toString(),
                 leastEnergyWithin(QString::number(boundLimit).toDouble(), true));
        QVERIFY(atNinety["recommended"]["tpot_ms_interval"].toArray()[1].toDouble() <=
                QString::number(boundLimit).toDouble());
        // A limit no mode meets: no pick, and the closest as recommend gives it, a list
        const CliResult none =
            runRooftop(QStringList{"recommend"} + common +
                       QStringList{"--llm", "--modes", "stock", "--tpot-slo", "0.0001", "--format", "json"});
        QVERIFY2(none.exitCode == 0, qPrintable(none.err));
        const QJsonObject noPick = QJsonDocument::fromJson(none.out.toUtf8()).object();
        QVERIFY(noPick.contains("recommended") && noPick["recommended"].isNull());
        QCOMPARE(noPick["closest"].toArray().size(), 1);
        QVERIFY(noPick["closest"].toArray()[0].toObject()["tpot_ms"].toDouble() > 0.0001);
        // The front: each entry slower than the one before it and strictly cheaper a token.
        const QJsonArray front = doc["pareto"].toArray();
        QVERIFY(!front.isEmpty());
        for (int i = 1; i < front.size(); ++i) {
            QVERIFY(front[i]["decode_tok_s"].toDouble() <= front[i - 1]["decode_tok_s"].toDouble());
            QVERIFY(front[i]["energy_per_token_mj"].toDouble() <
                    front[i - 1]["energy_per_token_mj"].toDouble());
        }

        // a grid pick in the text names the mode as --mode takes it, beside the readable clocks
        const CliResult grid =
            runRooftop(QStringList{"recommend"} + common +
                       QStringList{"--llm", "--modes", "grid", "--tpot-slo", QString::number(slowest * 3)});
        QVERIFY2(grid.exitCode == 0, qPrintable(grid.err));
        QVERIFY2(grid.out.contains(QRegularExpression(
                     R"(\nUse GPU .* at batch \d+ \(--mode c\d+-cpu[0-9.]+-gpu[0-9.]+-emc[0-9.]+\)\n)")),
                 qPrintable(grid.out.left(400)));

        const CliResult table = runRooftop(QStringList{"recommend"} + common +
                                           QStringList{"--llm", "--batch", "1,4", "--tpot-slo", "0.001"});
        QVERIFY2(table.exitCode == 0, qPrintable(table.err));
        QVERIFY2(table.out.contains("No batch and mode meets the limits") && table.out.contains("Closest:"),
                 qPrintable(table.out));
        // the limit is broken by the bound, named as one beside the prediction it bounds
        const QRegularExpressionMatch broken =
            QRegularExpression(R"(TPOT up to ([0-9.]+) ms at 90 % \(predicted ([0-9.]+) ms\) > 0\.001 ms)")
                .match(table.out);
        QVERIFY2(broken.hasMatch(), qPrintable(table.out));
        QVERIFY(broken.captured(1).toDouble() > broken.captured(2).toDouble());
        const CliResult bad =
            runRooftop(QStringList{"recommend"} + common + QStringList{"--llm", "--objective", "speed"});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY(bad.err.contains("--objective is energy-per-token or tokens-per-second"));
    }

    void aModelThatDoesNotFitSaysWhatWould() {
        QTemporaryDir dir;
        const QString model = writeDecoder(dir, "llama2.onnx", llama2_7b(), LlmExport::Optimum);
        const CliResult run =
            runRooftop({"llm", model, "--device", "orin-nano-8gb", "--prompt", "512", "--generate", "512"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("more than the") && run.err.contains("largest context"),
                 qPrintable(run.err));
        const CliResult notDecoder = runRooftop({"llm", QString(ROOFTOP_TEST_MODELS_DIR) + "/resnet18.onnx"});
        QCOMPARE(notDecoder.exitCode, 1);
        QVERIFY2(notDecoder.err.contains("not a decoder with a KV cache"), qPrintable(notDecoder.err));
    }
};

ROOFTOP_TEST_CLASS(LlmCli)
#include "test_llm_cli.moc"
