// SPDX-License-Identifier: GPL-3.0-or-later
// The runs file of rooftop profile: rows written and read back field for field (quoted reasons with commas
// and quotes included), resume counts, and a reader that rejects, with path, line and field, a wrong header,
// truncated and overlong lines, bad quotes, bad and huge numbers, unknown precisions and phases, ok rows
// without latency and p99 below the median. calibrate's CSV reader takes the same file and skips failed rows.
#include "core/common/errors.h"
#include "core/device/catalog.h"
#include "core/device/power_mode.h"
#include "core/measure/model_runs.h"
#include "core/measure/runs_file.h"
#include "core/roofline/energy_fit.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace rooftop;
using rooftop::test::shippedAgxOrin;

namespace {

const std::string goodRow = "MAXN,12,2201600,1300500000,3199000000,4,fp16,inference,2.5,2.75,30,75,ok,sim:0";

void writeFile(const QString& path, const std::string& text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text.data(), static_cast<qint64>(text.size()));
}

/// The reader's message for a file of `body` after the 14-column header ("" when it reads); every line ends
/// in a newline (a last line without one is an interrupted write, see
/// interruptedLastRowIsDroppedAndTheNextStartsAfresh).
QString readError(const QTemporaryDir& dir, std::string body, bool withHeader = true) {
    const QString path = dir.filePath("runs.csv");
    if (!body.empty() && body.back() != '\n') body += '\n';
    writeFile(path, (withHeader ? std::string(legacyRunsHeader()) + "\n" : std::string()) + body);
    try {
        readRunsFile(path.toStdString());
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

RunConfig config(int64_t batch, Precision precision) {
    return RunConfig{powerModeFrom(shippedAgxOrin(), *shippedAgxOrin().stockMode(0)),
                     batch,
                     precision,
                     Phase::Inference,
                     {}};
}

} // namespace

class RunsFile : public QObject {
    Q_OBJECT
private slots:
    void rowsRoundTrip() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.csv").toStdString();
        RunResult good;
        good.ok = true;
        good.latencyMs = 2.5;
        good.p99Ms = 3.0;
        good.powerW = 20.0;
        {
            RunsFileWriter writer(path);
            writer.append(runRowFrom(config(1, Precision::FP32), good, "command", "profile"));
            writer.append(runRowFrom(config(2, Precision::INT8),
                                     RunResult::failed("exit 3: \"bad\", really\nno"), "command", "profile"));
        }
        {
            RunsFileWriter again(path); // appending does not write a second header
            RunResult energy;
            energy.ok = true;
            energy.latencyMs = 4.0;
            energy.p99Ms = 4.0;
            energy.energyJ = 0.1;
            again.append(runRowFrom(config(8, Precision::FP16), energy, "sim:3", "tune:0123abcd"));
        }
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0], QString(runsHeader()));
        QCOMPARE(lines[1], QString("MAXN,12,2201600,1300500000,3199000000,1,fp32,inference,2.5,3,20,50,ok,"
                                   "command,,,,profile,,,,,"));

        const std::vector<RunRow> rows = readRunsFile(path);
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[0].energyMj.value(), 50.0); // 20 W x 2.5 ms
        QVERIFY(rows[0].ok());
        QCOMPARE(rows[1].status, std::string("failed: exit 3: \"bad\", really no"));
        QVERIFY(!rows[1].latencyMs && !rows[1].powerW);
        QCOMPARE(rows[1].line, 3);
        QCOMPARE(rows[2].powerW.value(), 25.0); // 0.1 J / 4 ms
        QCOMPARE(rows[2].energyMj.value(), 100.0);
        QCOMPARE(rows[2].runner, std::string("sim:3"));
        QCOMPARE(rows[0].origin, std::string("profile"));
        QCOMPARE(rows[2].origin, std::string("tune:0123abcd"));
        QCOMPARE(rows[2].gpuHz, int64_t(1300500000));

        const auto counts = okRunCounts(rows);
        QCOMPARE(counts.at(runKey("MAXN", 1, Precision::FP32, Phase::Inference)), 1);
        QVERIFY(!counts.count(runKey("MAXN", 2, Precision::INT8, Phase::Inference)));
    }

    // What the writer writes, its reader reads: an LLM generation whose runner gave no TTFT and TPOT is
    // written as failed with that reason, and a row the reader would refuse is refused before it reaches the
    // file (whose rows stay readable).
    void theWriterRefusesWhatItsReaderWould() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.csv").toStdString();
        RunConfig generation = config(1, Precision::FP16);
        generation.llm.prompt = 128;
        generation.llm.generate = 64;
        RunResult bare;
        bare.ok = true;
        bare.latencyMs = 900.0;
        bare.powerW = 20.0;
        const RunRow failed = runRowFrom(generation, bare, "command", "profile");
        QVERIFY(!failed.ok());
        QVERIFY2(failed.status.find("no ttft_ms and tpot_ms") != std::string::npos, failed.status.c_str());
        RunRow forged = runRowFrom(generation, bare, "command", "profile");
        forged.status = "ok";
        forged.latencyMs = 900.0;
        {
            RunsFileWriter writer(path);
            writer.append(failed);
            try {
                writer.append(forged);
                QFAIL("an ok LLM row without ttft_ms was written");
            } catch (const InputError& error) {
                const QString message = QString::fromUtf8(error.what());
                QVERIFY2(message.contains("not appending a row its reader would refuse") &&
                             message.contains("ttft_ms"),
                         qPrintable(message));
            }
        }
        // a meter's 0 W and a latency beyond a day: the power left out, the run failed; both rows readable
        RunResult zeroPower;
        zeroPower.ok = true;
        zeroPower.latencyMs = 5.0;
        zeroPower.powerW = 0.0;
        const RunRow unpowered = runRowFrom(config(1, Precision::FP32), zeroPower, "command", "profile");
        QVERIFY(unpowered.ok() && !unpowered.powerW && !unpowered.energyMj);
        RunResult endless;
        endless.ok = true;
        endless.latencyMs = 1e12;
        const RunRow slow = runRowFrom(config(2, Precision::FP32), endless, "command", "profile");
        QVERIFY2(slow.status.find("implausible latency") != std::string::npos, slow.status.c_str());
        {
            RunsFileWriter writer(path);
            writer.append(unpowered);
            writer.append(slow);
        }
        const std::vector<RunRow> rows = readRunsFile(path);
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[0].llm.prompt, int64_t(128));
        QVERIFY(!rows[0].ok());
        QVERIFY(rows[1].ok() && !rows[1].powerW);
        QVERIFY(!rows[2].ok());
    }

    // A training row records its optimizer; resume keeps the updates apart; a file written before the column
    // reads its training rows as Adam's and refuses another optimizer's rows.
    void trainingRowsRecordTheirOptimizer() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.csv").toStdString();
        RunResult good;
        good.ok = true;
        good.latencyMs = 80.0;
        good.powerW = 20.0;
        RunConfig sgd = config(16, Precision::FP32);
        sgd.phase = Phase::Training;
        sgd.optimizer = Optimizer::Sgd;
        RunConfig adam = sgd;
        adam.optimizer = Optimizer::Adam;
        {
            RunsFileWriter writer(path);
            writer.append(runRowFrom(sgd, good, "sim:0", "profile"));
            writer.append(runRowFrom(adam, good, "sim:0", "profile"));
            writer.append(runRowFrom(adam, good, "sim:0", "profile"));
        }
        const std::vector<RunRow> rows = readRunsFile(path);
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[0].optimizer, Optimizer::Sgd);
        QCOMPARE(rows[1].optimizer, Optimizer::Adam);
        const auto counts = okRunCounts(rows);
        QCOMPARE(counts.at(runKey(sgd)), 1);
        QCOMPARE(counts.at(runKey(adam)), 2);

        const std::string row18 =
            "MAXN,12,2201600,1300500000,3199000000,16,fp32,training,80,,20,1600,ok,sim:0,,,,profile";
        const std::string old = dir.filePath("old.csv").toStdString();
        writeFile(QString::fromStdString(old), std::string(originRunsHeader()) + "\n" + row18 + "\n");
        const std::vector<RunRow> oldRows = readRunsFile(old);
        QCOMPARE(oldRows.size(), size_t(1));
        QCOMPARE(oldRows[0].optimizer, Optimizer::Adam);
        RunsFileWriter oldWriter(old);
        oldWriter.append(runRowFrom(adam, good, "sim:0", "profile"));
        try {
            oldWriter.append(runRowFrom(sgd, good, "sim:0", "profile"));
            QFAIL("an sgd run was written to a file without the optimizer column");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains("write the sgd runs to another file"), error.what());
        }
        QCOMPARE(readRunsFile(old).size(), size_t(2));

        const std::string head = std::string(optimizerRunsHeader()) + "\n";
        writeFile(dir.filePath("bad.csv"), head + row18 + ",rmsprop\n");
        try {
            readRunsFile(dir.filePath("bad.csv").toStdString());
            QFAIL("an unknown optimizer was read");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains("field 'optimizer'"), error.what());
        }
        writeFile(dir.filePath("inference.csv"), head + goodRow + ",,,,profile,sgd\n");
        try {
            readRunsFile(dir.filePath("inference.csv").toStdString());
            QFAIL("an optimizer on an inference run was read");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains("set on an inference run"), error.what());
        }
    }

    // A device read as a runs file would be read without end (/dev/zero grew to 3.8 GB): refused.
    void aDeviceIsNoRunsFile() {
        if (!QFileInfo::exists("/dev/zero")) QSKIP("no /dev/zero here");
        try {
            readRunsFile("/dev/zero");
            QFAIL("/dev/zero read as a runs file");
        } catch (const InputError& error) {
            QCOMPARE(std::string(error.what()),
                     std::string("/dev/zero: not a regular file (a device or a pipe), not a runs file"));
        }
    }

    // A last line without its line break that does not read (a write cut short) is left out, and a reader
    // that keeps notes is told which line; one in the middle of the file is an error.
    void aLastLineCutShortIsLeftOutAndSaid() {
        QTemporaryDir dir;
        const QString path = dir.filePath("runs.csv");
        writeFile(path, std::string(legacyRunsHeader()) + "\n" + goodRow + "\n" + goodRow.substr(0, 20));
        std::vector<std::string> notes;
        QCOMPARE(readRunsFile(path.toStdString(), &notes).size(), size_t(1));
        QCOMPARE(notes.size(), size_t(1));
        QVERIFY2(QString::fromStdString(notes.front())
                     .endsWith("runs.csv:3: its last line, without a line break (a write cut short), was "
                               "left out: expected 14 fields, got 4 (a truncated line?)"),
                 notes.front().c_str());
        QCOMPARE(readGivenRunsFile(path.toStdString()).size(), size_t(1));
        writeFile(path, std::string(legacyRunsHeader()) + "\n" + goodRow + "\n" + goodRow + "\n");
        notes.clear();
        QCOMPARE(readRunsFile(path.toStdString(), &notes).size(), size_t(2));
        QVERIFY(notes.empty());
        writeFile(path,
                  std::string(legacyRunsHeader()) + "\n" + goodRow.substr(0, 20) + "\n" + goodRow + "\n");
        QVERIFY_THROWS_EXCEPTION(InputError, readRunsFile(path.toStdString(), &notes));
    }

    void missingOrEmptyFileHasNoRows() {
        QTemporaryDir dir;
        QVERIFY(readRunsFile(dir.filePath("none.csv").toStdString()).empty());
        writeFile(dir.filePath("empty.csv"), "");
        QVERIFY(readRunsFile(dir.filePath("empty.csv").toStdString()).empty());
        QCOMPARE(readError(dir, goodRow + "\n\n" + goodRow + "\r\n"), QString());
    }

    void malformedFilesNameLineAndField_data() {
        QTest::addColumn<QString>("body");
        QTest::addColumn<bool>("header");
        QTest::addColumn<QString>("message");
        const QString h = QString(runsHeader());
        QTest::newRow("wrong header") << "mode,batch,latency_ms,power_w\nMAXN,1,2,3\n"
                                      << false << "runs.csv:1: not a runs file: expected the header " + h;
        QTest::newRow("header with a column less") << QString(runsHeader()).section(',', 0, 12) + "\n"
                                                   << false << "runs.csv:1: not a runs file";
        QTest::newRow("truncated line") << QString("MAXN,12,2201600,1300500") << true
                                        << "runs.csv:2: expected 14 fields, got 4 (a truncated line?)";
        QTest::newRow("extra field") << QString::fromStdString(goodRow + ",x") << true
                                     << "runs.csv:2: expected 14 fields, got 15";
        QTest::newRow("unterminated quote")
            << QString::fromStdString(goodRow.substr(0, goodRow.size() - 5) + "\"sim:0") << true
            << "runs.csv:2: field 14: unterminated quote";
        QTest::newRow("text after quote") << QString("\"MAXN\"x,12,2201600,1300500000,3199000000,4,fp16,"
                                                     "inference,2.5,2.75,30,75,ok,sim")
                                          << true << "runs.csv:2: field 1: text after a closing quote";
        QTest::newRow("stray quote") << QString("MA\"XN,12,2201600,1300500000,3199000000,4,fp16,"
                                                "inference,2.5,2.75,30,75,ok,sim")
                                     << true << "runs.csv:2: field 1: a quote inside an unquoted field";
        QTest::newRow("bad latency")
            << QString("MAXN,12,2201600,1300500000,3199000000,4,fp16,inference,fast,,,,"
                       "ok,sim")
            << true
            << "runs.csv:2: field 'latency_ms': expected a positive finite number or "
               "nothing, got 'fast'";
        QTest::newRow("negative power")
            << QString("MAXN,12,2201600,1300500000,3199000000,4,fp16,inference,2,,-4,,"
                       "ok,sim")
            << true << "runs.csv:2: field 'power_w'";
        QTest::newRow("nan") << QString(
                                    "MAXN,12,2201600,1300500000,3199000000,4,fp16,inference,nan,,,,ok,sim")
                             << true << "runs.csv:2: field 'latency_ms'";
        QTest::newRow("hexadecimal latency") // std::strtod reads it as 16
            << QString("MAXN,12,2201600,1300500000,3199000000,4,fp16,inference,0x10,,,,ok,sim") << true
            << "runs.csv:2: field 'latency_ms': expected a positive finite number or nothing, got '0x10'";
        QTest::newRow("huge latency")
            << QString("MAXN,12,2201600,1300500000,3199000000,4,fp16,inference,1e400,,,,ok,sim") << true
            << "runs.csv:2: field 'latency_ms'";
        QTest::newRow("latency over a day") // finite, but a fit to it would be meaningless
            << QString("MAXN,12,2201600,1300500000,3199000000,4,fp16,inference,1e300,,,,ok,sim") << true
            << "runs.csv:2: field 'latency_ms': expected a time of at most a day (86400000 ms) or nothing, "
               "got "
               "'1e300'";
        QTest::newRow("llm run without its tpot") // the empty field is named, not ttft_ms beside it
            << h + "\nMAXN,12,2201600,1300500000,3199000000,1,fp16,inference,100,,,,ok,sim:0,,m.onnx@0,,"
                   "profile,,"
                   "128,64,5.5737,\n"
            << false
            << "runs.csv:2: field 'tpot_ms': expected a positive number with ttft_ms for an ok LLM run";
        QTest::newRow("huge cores")
            << QString("MAXN,99999999999999999999,2201600,1300500000,3199000000,4,fp16,inference,1,,,,ok,sim")
            << true
            << "runs.csv:2: field 'cores': expected an integer from 0 to 4096, got '99999999999999999999'";
        QTest::newRow("zero batch")
            << QString("MAXN,12,2201600,1300500000,3199000000,0,fp16,inference,1,,,,ok,sim") << true
            << "runs.csv:2: field 'batch'";
        QTest::newRow("fractional clock")
            << QString("MAXN,12,2201600.5,1300500000,3199000000,1,fp16,inference,1,,,,ok,sim") << true
            << "runs.csv:2: field 'cpu_khz'";
        QTest::newRow("precision")
            << QString("MAXN,12,2201600,1300500000,3199000000,1,bf16,inference,1,,,,ok,sim") << true
            << "runs.csv:2: field 'precision': expected fp32, fp16, int8, fp8 or fp4";
        QTest::newRow("phase") << QString("MAXN,12,2201600,1300500000,3199000000,1,fp16,serving,1,,,,ok,sim")
                               << true << "runs.csv:2: field 'phase'";
        QTest::newRow("ok without latency")
            << QString("MAXN,12,2201600,1300500000,3199000000,1,fp16,inference,,,,,ok,sim") << true
            << "runs.csv:2: field 'latency_ms': expected a positive number for an ok run";
        QTest::newRow("p99 below median")
            << QString("MAXN,12,2201600,1300500000,3199000000,1,fp16,inference,5,4,,,ok,sim") << true
            << "runs.csv:2: field 'p99_ms': below latency_ms";
        QTest::newRow("status")
            << QString("MAXN,12,2201600,1300500000,3199000000,1,fp16,inference,5,,,,maybe,sim") << true
            << "runs.csv:2: field 'status'";
        QTest::newRow("empty mode") << QString(
                                           ",12,2201600,1300500000,3199000000,1,fp16,inference,5,,,,ok,sim")
                                    << true << "runs.csv:2: field 'mode'";
        QTest::newRow("second line bad") << QString::fromStdString(goodRow + "\n" + goodRow.substr(0, 30))
                                         << true << "runs.csv:3: expected 14 fields";
    }

    void malformedFilesNameLineAndField() {
        QFETCH(QString, body);
        QFETCH(bool, header);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString error = readError(dir, body.toStdString(), header);
        QVERIFY2(!error.isEmpty(), "read without an error");
        QVERIFY2(!error.contains('\n'), qPrintable(error));
        QVERIFY2(error.startsWith(dir.filePath("runs.csv")), qPrintable(error));
        QVERIFY2(error.contains(message), qPrintable(error + " / wanted: " + message));
    }

    void interruptedLastRowIsDroppedAndTheNextStartsAfresh() {
        QTemporaryDir dir;
        const QString path = dir.filePath("runs.csv");
        // a kill in the middle of a write: the last row stops without its newline
        writeFile(path, std::string(legacyRunsHeader()) + "\n" + goodRow + "\n" + goodRow.substr(0, 30));
        QCOMPARE(readRunsFile(path.toStdString()).size(), size_t(1));
        RunRow again = readRunsFile(path.toStdString()).front();
        again.latencyMs = again.p99Ms = 1.5;
        {
            RunsFileWriter writer(path.toStdString());
            writer.append(again);
        }
        const std::vector<RunRow> rows = readRunsFile(path.toStdString()); // the cut row is gone
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[1].line, 3);
        QCOMPARE(rows[1].latencyMs.value(), 1.5);
        // a whole last row without its newline is read, and kept when the next row is appended
        writeFile(path, std::string(legacyRunsHeader()) + "\n" + goodRow);
        QCOMPARE(readRunsFile(path.toStdString()).size(), size_t(1));
        {
            RunsFileWriter writer(path.toStdString());
            writer.append(again);
        }
        QCOMPARE(readRunsFile(path.toStdString()).size(), size_t(2));
    }

    // Spreadsheets save CSV with a UTF-8 byte order mark: the runs file's reader, its appender and
    // calibrate's reader take it as the plain header.
    // A runs file holds one board's runs: another board's stock mode (by name or by its clocks) or a clock
    // off the ladders is refused before a measurement appends; the board's own rows and no file pass.
    // what the window's power-modes view reads: a model's passes, not an LLM's generations, not another
    // model's
    void aModelsRunsAreItsPassesOnly() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.csv").toStdString();
        const std::string model = test::samplePath("resnet18");
        RunResult good;
        good.ok = true;
        good.latencyMs = 2.5;
        good.powerW = 20.0;
        {
            RunsFileWriter writer(path);
            RunRow pass = runRowFrom(config(1, Precision::FP32), good, "sim:0", "profile");
            pass.model = runsModelKey(model);
            writer.append(pass);
            RunRow generation = pass;
            generation.llm.prompt = 128;
            generation.llm.generate = 64;
            generation.ttftMs = 50;
            generation.tpotMs = 20;
            writer.append(generation);
        }
        const std::vector<RunRow> rows = readModelRuns(path, model);
        QCOMPARE(rows.size(), size_t(1));
        QVERIFY(!rows.front().llm.active());
        QCOMPARE(readModelRuns(path, "").size(), size_t(1)); // no model to check against
        QVERIFY_THROWS_EXCEPTION(InputError, readModelRuns(path, test::samplePath("resnet50")));

        // a predictor's held-out runs as its runner's rows, at the dims it learned
        Predictor predictor;
        predictor.dims = "sequence=128";
        HeldOutRun run;
        run.mode = powerModeFrom(shippedAgxOrin(), shippedAgxOrin().fastestStockMode());
        run.batch = 2;
        run.measuredSeconds = 4e-3;
        run.measuredWatts = 30;
        run.runner = "sim:0";
        predictor.heldOut = {run, run};
        const std::vector<RunRow> learned = predictorRunRows(predictor);
        QCOMPARE(learned.size(), size_t(2));
        QCOMPARE(*learned.front().latencyMs, 4.0);
        QCOMPARE(*learned.front().powerW, 30.0);
        QCOMPARE(learned.front().dims.at("sequence"), int64_t(128));
        QCOMPARE(learned.front().origin, std::string("learn"));
        QVERIFY(!learned.front().p99Ms);         // the runner's p99 is not in a predictor
        predictor.heldOut.back().runner.clear(); // an older file: measured or simulated cannot be told
        QVERIFY(predictorRunRows(predictor).empty());
    }

    void anotherBoardsRowsAreRefused() {
        QTemporaryDir dir;
        static const auto devices = loadCatalog(ROOFTOP_SOURCE_DATA_DIR "/devices");
        const DeviceSpec& nano = findDevice(devices, "orin-nano-8gb");
        const std::string path = dir.filePath("runs.csv").toStdString();
        checkRunsAreOfBoard(path, shippedAgxOrin()); // no file
        writeFile(QString::fromStdString(path), std::string(legacyRunsHeader()) + "\n" + goodRow + "\n");
        checkRunsAreOfBoard(path, shippedAgxOrin());
        QVERIFY_THROWS_EXCEPTION(InputError, checkRunsAreOfBoard(path, nano));
        // MAXN by name, with another board's clocks
        writeFile(QString::fromStdString(path),
                  std::string(legacyRunsHeader()) +
                      "\nMAXN,12,2201600,918000000,3199000000,4,fp16,inference,2.5,"
                      "2.75,30,75,ok,sim:0\n");
        try {
            checkRunsAreOfBoard(path, shippedAgxOrin());
            QFAIL("another board's MAXN passed");
        } catch (const InputError& error) {
            QVERIFY2(
                QString(error.what())
                    .contains(
                        "runs.csv:2: not a run of agx-orin-64gb (it was run at c12-cpu2201.6-gpu918-emc3199, "
                        "but MAXN of agx-orin-64gb is c12-cpu2201.6-gpu1300.5-emc3199)"),
                error.what());
        }
        // no online core beside MAXN's clocks; and the name alone (all zero, written by hand) passes
        writeFile(QString::fromStdString(path),
                  std::string(legacyRunsHeader()) +
                      "\nMAXN,0,2201600,1300500000,3199000000,4,fp16,inference,2.5,2.75,30,75,ok,sim:0\n");
        QVERIFY_THROWS_EXCEPTION(InputError, checkRunsAreOfBoard(path, shippedAgxOrin()));
        writeFile(QString::fromStdString(path),
                  std::string(legacyRunsHeader()) +
                      "\nMAXN,0,0,0,0,4,fp16,inference,2.5,2.75,30,75,ok,sim:0\n");
        checkRunsAreOfBoard(path, shippedAgxOrin());
    }

    void byteOrderMarkIsAccepted() {
        QTemporaryDir dir;
        const QString path = dir.filePath("runs.csv");
        writeFile(path, "\xEF\xBB\xBF" + std::string(legacyRunsHeader()) + "\n" + goodRow + "\n");
        const std::vector<RunRow> rows = readRunsFile(path.toStdString());
        QCOMPARE(rows.size(), size_t(1));
        QCOMPARE(rows[0].mode, std::string("MAXN"));
        {
            RunsFileWriter writer(path.toStdString());
            writer.append(rows[0]);
        }
        QCOMPARE(readRunsFile(path.toStdString()).size(), size_t(2));
        QCOMPARE(loadCalibrationCsv(path.toStdString()).size(), size_t(2));
        // a mark anywhere else is no mark: the header does not read
        writeFile(path, "\xEF\xBB\xBF\xEF\xBB\xBF" + std::string(legacyRunsHeader()) + "\n" + goodRow + "\n");
        QVERIFY_THROWS_EXCEPTION(InputError, readRunsFile(path.toStdString()));
    }

    void secondWriterIsRefusedWhileTheFirstIsOpen() {
        QTemporaryDir dir;
        const QString path = dir.filePath("runs.csv");
        writeFile(path, std::string(legacyRunsHeader()) + "\n" + goodRow + "\n");
        const RunRow row = readRunsFile(path.toStdString()).front();
        {
            RunsFileWriter first(path.toStdString());
            // flock() locks an open file: a second open conflicts, in this process as in another
            try {
                RunsFileWriter second(path.toStdString());
                QFAIL("a second writer opened a runs file being written");
            } catch (const InputError& error) {
                const QString message = QString::fromUtf8(error.what());
                QCOMPARE(message, path + " is being written by another rooftop (pid " +
                                      QString::number(QCoreApplication::applicationPid()) +
                                      "); wait for it or use another runs file");
            }
            first.append(row);
        }
        RunsFileWriter third(path.toStdString()); // released with the first
        third.append(row);
        QCOMPARE(readRunsFile(path.toStdString()).size(), size_t(3));
    }

    void calibrationReadsTheRunsFileAndSkipsFailedRows() {
        QTemporaryDir dir;
        const QString path = dir.filePath("runs.csv");
        writeFile(path,
                  std::string(legacyRunsHeader()) + "\n" + goodRow + "\n" +
                      "MODE_30W,8,1728000,612000000,3199000000,1,fp32,inference,,,,,\"failed: exit 1, "
                      "oops\",command\n" +
                      "c8-cpu1728-gpu612-emc3199,8,1728000,612000000,3199000000,2,fp32,inference,7,8,,,ok,"
                      "command\n");
        const std::vector<CalibrationRun> runs = loadCalibrationCsv(path.toStdString());
        QCOMPARE(runs.size(), size_t(2));
        QCOMPARE(runs[0].mode, std::string("MAXN"));
        QCOMPARE(runs[0].batch, int64_t(4));
        QCOMPARE(runs[0].latencySeconds, 2.5e-3);
        QCOMPARE(runs[0].averageWatts, 30.0);
        QCOMPARE(runs[1].mode, std::string("c8-cpu1728-gpu612-emc3199"));
        QCOMPARE(runs[1].averageWatts,
                 0.0); // no power: the runtime is fitted, the power model is not compared
        QCOMPARE(runs[1].line, 4);
        writeFile(path, std::string(legacyRunsHeader()) +
                            "\nMAXN,1,1,1,1,1,fp32,inference,,,,,failed: x,command\n");
        QVERIFY_EXCEPTION_THROWN(loadCalibrationCsv(path.toStdString()), InputError); // nothing ok to fit
    }
};

ROOFTOP_TEST_CLASS(RunsFile)
#include "test_runs_file.moc"
