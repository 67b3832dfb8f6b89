// SPDX-License-Identifier: GPL-3.0-or-later
// trtexec's --exportProfile reader on the real TRT 8.6/10.x layout and the pre-8.4 one without medianMs, and
// on malformed files (each refused with one line naming the record and field, never a crash); the layers
// sidecar of a runs file: its path, rows appended per run with the repeat of the run, a cut-short last row
// dropped, a stale sidecar of a fresh runs file started afresh.
#include "core/common/errors.h"
#include "core/measure/layers_file.h"
#include "core/measure/profile_sweep.h"
#include "core/measure/runs_file.h"
#include "core/measure/trtexec_layer_profile.h"
#include "support/device_fixtures.h"
#include "support/test_registry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

using namespace rooftop;

namespace {

/// The header of layers files written before the dims column: still read and resumed in that layout.
const char* const undimmedHeader = "mode,batch,precision,phase,repeat,layer,average_ms,median_ms,percent";

// TRT 10.x layout, names from a real DETR profile (measured-formats.md 1.1)
const char* const realProfile = R"json([
  { "count" : 641 }
, { "name" : "Reformatting CopyNode for Input Tensor 0 to PWN(PWN(/Sub), PWN(/Div))", "timeMs" : 12.8778, "averageMs" : 0.0200902, "medianMs" : 0.019904, "percentage" : 0.482752 }
, { "name" : "PWN(PWN(/Sub), PWN(/Div))", "timeMs" : 15.1954, "averageMs" : 0.0237058, "medianMs" : 0.023296, "percentage" : 0.569632 }
, { "name" : "onnx::Constant_12", "timeMs" : 0, "averageMs" : 0, "medianMs" : 0, "percentage" : 0 }
])json";

std::string layer(const std::string& fields) {
    return "[{\"count\": 10}, {" + fields + "}]";
}

const std::string goodFields =
    R"("name": "Conv_0", "timeMs": 1.5, "averageMs": 0.15, "medianMs": 0.14, "percentage": 50)";

void writeFile(const QString& path, const std::string& text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text.data(), static_cast<qint64>(text.size()));
}

/// Returns two layers per run, the second run of each configuration failing.
class LayeredRunner final : public Runner {
public:
    RunResult run(const RunConfig& config, const std::atomic<bool>*) override {
        ++calls;
        if (failSecond && calls == 2) return RunResult::failed("boom");
        RunResult r;
        r.ok = true;
        r.latencyMs = 1.0;
        r.p99Ms = 1.0;
        r.layers = {{"Conv_0 + Relu_1", 0.4 * double(config.batch), 0.38, 60.0},
                    {"name, with \"quotes\"", 0.2, 0.2, 40.0}};
        return r;
    }
    std::string name() const override { return "layered"; }
    int calls = 0;
    bool failSecond = false;
};

ProfileOutcome sweep(Runner& runner, const std::string& runs, int repeat) {
    const DeviceSpec& orin = test::shippedAgxOrin();
    ProfileEnvironment env;
    env.runner = &runner;
    env.sleep = [](double) {};
    ProfileOptions options;
    options.outPath = runs;
    options.repeat = repeat;
    options.batches = {1, 4};
    return runProfileSweep(orin, {powerModeFrom(orin, *orin.stockMode(0))}, env, options, nullptr, nullptr);
}

} // namespace

class LayerProfile : public QObject {
    Q_OBJECT
private slots:
    void realProfileRead() {
        const std::vector<LayerTime> layers = parseTrtexecLayerProfile(realProfile, "p.json");
        QCOMPARE(layers.size(), size_t(3)); // the zero-time constant is kept
        QCOMPARE(QString::fromStdString(layers[1].name), QString("PWN(PWN(/Sub), PWN(/Div))"));
        QCOMPARE(layers[1].averageMs, 0.0237058);
        QCOMPARE(layers[1].medianMs, 0.023296);
        QCOMPARE(layers[1].percent, 0.569632);
        QCOMPARE(layers[2].averageMs, 0.0);
    }

    void beforeTensorRt84TheMedianIsTheAverage() {
        const auto layers = parseTrtexecLayerProfile(
            layer(R"("name": "Conv_0", "timeMs": 1.5, "averageMs": 0.15, "percentage": 100)"), "p.json");
        QCOMPARE(layers.size(), size_t(1));
        QCOMPARE(layers[0].medianMs, 0.15);
        QVERIFY(parseTrtexecLayerProfile("[{\"count\": 0}]", "p.json").empty());
    }

    void malformedProfiles_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        const std::string full = layer(goodFields);
        QTest::newRow("truncated") << QByteArray::fromStdString(full.substr(0, full.size() / 2))
                                   << "not JSON";
        QTest::newRow("empty file") << QByteArray() << "not JSON";
        QTest::newRow("an object") << QByteArray("{\"count\": 1}") << "expected a JSON array";
        QTest::newRow("empty array") << QByteArray("[]") << "empty array";
        QTest::newRow("missing count") << QByteArray::fromStdString("[{" + goodFields + "}]")
                                       << "the first record must be {\"count\": N}";
        QTest::newRow("count a string") << QByteArray("[{\"count\": \"7\"}]") << "record 1: 'count'";
        QTest::newRow("negative count") << QByteArray("[{\"count\": -1}]") << "record 1: 'count'";
        QTest::newRow("fractional count") << QByteArray("[{\"count\": 1.5}]") << "whole number";
        QTest::newRow("huge count") << QByteArray("[{\"count\": 1e300}]") << "record 1: 'count'";
        QTest::newRow("overflowing number")
            << QByteArray::fromStdString(
                   layer(R"("name": "a", "timeMs": 1e999, "averageMs": 1, "percentage": 1)"))
            << "not JSON"; // Qt refuses a number out of double's range
        QTest::newRow("negative average")
            << QByteArray::fromStdString(
                   layer(R"("name": "a", "timeMs": 1, "averageMs": -0.1, "percentage": 1)"))
            << "record 2: 'averageMs' must be a number from 0";
        QTest::newRow("NaN median")
            << QByteArray::fromStdString(
                   layer(R"("name": "a", "timeMs": 1, "averageMs": 1, "medianMs": NaN, "percentage": 1)"))
            << "not JSON";
        QTest::newRow("median a string")
            << QByteArray::fromStdString(
                   layer(R"("name": "a", "timeMs": 1, "averageMs": 1, "medianMs": "1", "percentage": 1)"))
            << "record 2: 'medianMs'";
        QTest::newRow("percent over 100")
            << QByteArray::fromStdString(
                   layer(R"("name": "a", "timeMs": 1, "averageMs": 1, "percentage": 250)"))
            << "record 2: 'percentage' must be a number from 0 to 100";
        QTest::newRow("missing averageMs")
            << QByteArray::fromStdString(layer(R"("name": "a", "timeMs": 1, "percentage": 1)"))
            << "record 2: no 'averageMs'";
        QTest::newRow("name a number")
            << QByteArray::fromStdString(layer(R"("name": 5, "timeMs": 1, "averageMs": 1, "percentage": 1)"))
            << "record 2: 'name' must be a non-empty string";
        QTest::newRow("empty name") << QByteArray::fromStdString(layer(
                                           R"("name": "", "timeMs": 1, "averageMs": 1, "percentage": 1)"))
                                    << "record 2: 'name'";
        QTest::newRow("a layer that is an array")
            << QByteArray("[{\"count\": 1}, [1, 2]]") << "record 2: expected a layer object";
        QByteArray latin1 = QByteArray::fromStdString(layer(goodFields));
        latin1.replace("Conv_0", "Conv_\xe9\xff");
        QTest::newRow("non-UTF-8 name") << latin1 << "not JSON";
        QTest::newRow("nul bytes") << QByteArray("[{\"count\": 1}\0, ]", 16) << "not JSON";
    }
    void malformedProfiles() {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        try {
            parseTrtexecLayerProfile(json.toStdString(), "run/profile.json");
            QFAIL("accepted");
        } catch (const InputError& error) {
            const QString what = error.what();
            QVERIFY2(what.startsWith("run/profile.json: trtexec layer profile: "), error.what());
            QVERIFY2(what.contains(message), error.what());
            QVERIFY2(!what.contains('\n'), error.what());
        }
    }

    void sidecarPath() {
        QCOMPARE(QString::fromStdString(layersPathFor("out/m-runs.csv")), QString("out/m-runs.layers.csv"));
        QCOMPARE(QString::fromStdString(layersPathFor("runs")), QString("runs.layers.csv"));
    }

    void sweepWritesTheSidecar() {
        QTemporaryDir dir;
        const std::string runs = dir.filePath("m-runs.csv").toStdString();
        LayeredRunner runner;
        runner.failSecond = true;
        const ProfileOutcome outcome = sweep(runner, runs, 2);
        QCOMPARE(outcome.failed, size_t(1));
        QCOMPARE(outcome.layersPath, layersPathFor(runs));
        QFile file(QString::fromStdString(outcome.layersPath));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(file.readLine()).trimmed(), QString(layersHeader()));
        std::vector<LayerRow> rows = readLayersFile(outcome.layersPath);
        QCOMPARE(rows.size(), size_t(6)); // 3 ok runs x 2 layers; the failed one has none
        QCOMPARE(rows[0].batch, int64_t(1));
        QCOMPARE(rows[0].repeat, 1);
        QCOMPARE(rows[2].batch, int64_t(4)); // batch 1's second run failed: no layers
        QCOMPARE(rows[2].repeat, 1);
        QCOMPARE(rows[3].layer.name, std::string("name, with \"quotes\""));
        QCOMPARE(rows[4].batch, int64_t(4));
        QCOMPARE(rows[4].repeat, 2);
        QCOMPARE(rows[4].layer.averageMs, 1.6);
        QCOMPARE(rows[4].layer.medianMs, 0.38);
        QCOMPARE(rows[4].layer.percent, 60.0);

        // resume: batch 1 needs one more ok run, its repeat 2 (the failed run does not count)
        LayeredRunner again;
        sweep(again, runs, 2);
        rows = readLayersFile(outcome.layersPath);
        QCOMPARE(rows.size(), size_t(8));
        QCOMPARE(rows[6].batch, int64_t(1));
        QCOMPARE(rows[6].repeat, 2);
    }

    void cutShortLastRowIsDropped() {
        QTemporaryDir dir;
        const QString path = dir.filePath("r.layers.csv");
        const std::string good = "MAXN,1,fp32,inference,1,Conv_0,0.5,0.5,100";
        writeFile(path, std::string(undimmedHeader) + "\n" + good + "\n" + good.substr(0, 25));
        QCOMPARE(readLayersFile(path.toStdString()).size(), size_t(1)); // the cut row is not read
        {
            LayersFileWriter writer(path.toStdString());
            RunConfig config;
            config.mode.name = "MAXN";
            config.batch = 2;
            config.precision = Precision::FP16;
            writer.append(config, 1, {{"Relu_1", 0.25, 0.2, 50.0}});
        }
        const std::vector<LayerRow> rows = readLayersFile(path.toStdString());
        QCOMPARE(rows.size(), size_t(2));
        QCOMPARE(rows[1].layer.name, std::string("Relu_1"));
        QCOMPARE(rows[1].precision, Precision::FP16);
    }

    void layerRowsRecordTheDims() {
        QTemporaryDir dir;
        const std::string fresh = dir.filePath("new.layers.csv").toStdString();
        RunConfig config;
        config.mode.name = "MAXN";
        config.dims = {{"sequence", 128}};
        LayersFileWriter(fresh).append(config, 1, {{"MatMul_1", 0.5, 0.5, 100.0}});
        const std::vector<LayerRow> rows = readLayersFile(fresh);
        QCOMPARE(rows.size(), size_t(1));
        QVERIFY(rows[0].dims == config.dims);
        // a file from before the dims column keeps its layout, and cannot take a run at bound dims
        const QString old = dir.filePath("old.layers.csv");
        writeFile(old, std::string(undimmedHeader) + "\nMAXN,1,fp32,inference,1,a,1,1,50\n");
        LayersFileWriter writer(old.toStdString());
        QVERIFY_THROWS_EXCEPTION(InputError, writer.append(config, 1, {{"MatMul_1", 0.5, 0.5, 100.0}}));
        QVERIFY(readLayersFile(old.toStdString()).at(0).dims.empty());
    }

    void staleSidecarOfAFreshRunsFileIsDropped() {
        QTemporaryDir dir;
        const std::string runs = dir.filePath("m-runs.csv").toStdString();
        writeFile(QString::fromStdString(layersPathFor(runs)),
                  std::string(undimmedHeader) + "\nOLD,1,fp32,inference,1,x,1,1,1\n");
        LayeredRunner runner;
        sweep(runner, runs, 1);
        const std::vector<LayerRow> rows = readLayersFile(layersPathFor(runs));
        QCOMPARE(rows.size(), size_t(4));
        QVERIFY(rows[0].mode != "OLD");
    }

    void layerRowsOfNoRunAreDroppedOnResume() {
        // a kill after a run's layer rows and before its runs-file row: batch 1 has one ok run in the runs
        // file but layer rows for two, batch 4 none but layer rows for one, and a cut-short last line
        QTemporaryDir dir;
        const std::string runs = dir.filePath("m-runs.csv").toStdString();
        const DeviceSpec& orin = test::shippedAgxOrin();
        const PowerMode maxn = powerModeFrom(orin, *orin.stockMode(0));
        const std::string run =
            maxn.name + ",12,2201600,1300500000,3199000000,1,fp32,inference,1,1,,,ok,layered,,,";
        writeFile(QString::fromStdString(runs), std::string(dimsRunsHeader()) + "\n" + run + "\n");
        const std::string kept = maxn.name + ",1,fp32,inference,1,Conv_0 + Relu_1,0.4,0.38,60\n" + maxn.name +
                                 ",1,fp32,inference,1,\"name, with \"\"quotes\"\"\",0.2,0.2,40\n";
        writeFile(QString::fromStdString(layersPathFor(runs)),
                  std::string(undimmedHeader) + "\n" + kept + maxn.name +
                      ",1,fp32,inference,2,ORPHAN,9,9,100\n" + maxn.name +
                      ",4,fp32,inference,1,ORPHAN,9,9,100\n" + maxn.name + ",4,fp32,inf");
        LayeredRunner runner;
        const ProfileOutcome outcome = sweep(runner, runs, 2);
        QCOMPARE(outcome.resumed, size_t(1));
        QCOMPARE(outcome.ok, size_t(3));
        const std::vector<LayerRow> rows = readLayersFile(layersPathFor(runs));
        QCOMPARE(rows.size(), size_t(8)); // 4 ok runs x 2 layers, each once
        std::map<std::string, int> seen;
        for (const LayerRow& row : rows) {
            QVERIFY(row.layer.name != "ORPHAN");
            ++seen[std::to_string(row.batch) + "/" + std::to_string(row.repeat) + "/" + row.layer.name];
        }
        QCOMPARE(seen.size(), size_t(8));
        QCOMPARE(rows[0].layer.averageMs, 0.4); // the rows of the run the runs file has stay as they were
        QCOMPARE(rows[1].layer.name, std::string("name, with \"quotes\""));
        QCOMPARE(rows[2].repeat, 2);
        QVERIFY(!QFile::exists(QString::fromStdString(layersPathFor(runs) + ".tmp")));
    }

    void dropLayerRowsRewritesOnlyWhenNeeded() {
        QTemporaryDir dir;
        const QString path = dir.filePath("r.layers.csv");
        const std::string text = std::string(undimmedHeader) + "\nMAXN,1,fp32,inference,1,a,1,1,50\r\n" +
                                 "MAXN,1,fp32,inference,2,b,1,1,50\n";
        writeFile(path, text);
        const auto all = [](const LayerRow&) { return true; };
        QCOMPARE(dropLayerRowsWithoutRun(path.toStdString(), all), size_t(0));
        QCOMPARE(dropLayerRowsWithoutRun(dir.filePath("none.csv").toStdString(), all), size_t(0));
        QCOMPARE(dropLayerRowsWithoutRun(path.toStdString(), [](const LayerRow& r) { return r.repeat == 1; }),
                 size_t(1));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().toStdString(),
                 std::string(undimmedHeader) + "\nMAXN,1,fp32,inference,1,a,1,1,50\r\n");
        writeFile(path, "mode,batch\nx,1\n"); // not a layers file: left for the reader to refuse
        QCOMPARE(dropLayerRowsWithoutRun(path.toStdString(), [](const LayerRow&) { return false; }),
                 size_t(0));
    }

    void malformedLayersFileIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath("x.layers.csv");
        writeFile(path, std::string(undimmedHeader) + "\nMAXN,0,fp32,inference,1,a,1,1,1\n");
        QVERIFY_THROWS_EXCEPTION(InputError, readLayersFile(path.toStdString()));
        writeFile(path, "mode,batch\n");
        QVERIFY_THROWS_EXCEPTION(InputError, LayersFileWriter{path.toStdString()});
    }
};

ROOFTOP_TEST_CLASS(LayerProfile)
#include "test_layer_profile.moc"
