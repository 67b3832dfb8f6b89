// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop compare` as a process, one test per source: trtexec profiles of resnet18.onnx in TensorRT 8.6 and
// 10.x naming (with the layer info's Metadata), an old Conv_0-name model, an ONNX Runtime CUDA profile, and
// Nsight Compute CSV mapped by kernel order; JSON with exactly the documented keys, totals equal to the
// fixtures' sums, worst-predicted first, the provenance of the numbers in every format; every bad input is
// one line on stderr and exit 1.
#include "core/cost/workload.h"
#include "core/device/mode_set.h"
#include "core/device/runtime_profile.h"
#include "core/roofline/prediction.h"
#include "support/cli_runner.h"
#include "support/compare_fixtures.h"
#include "support/device_fixtures.h"
#include "support/simulated_engine.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace rooftop;
using rooftop::test::CliResult;
using rooftop::test::jsonOf;
using rooftop::test::runRooftop;

namespace {

const QString board = "agx-orin-64gb";

QString resnet18() {
    return QString::fromStdString(test::samplePath("resnet18"));
}

double sumOf(const std::vector<std::pair<std::string, double>>& layers) {
    double total = 0.0;
    for (const auto& layer : layers)
        total += layer.second;
    return total;
}

void verifyOneLineError(const CliResult& result, const QString& part) {
    QVERIFY2(!result.crashed, qPrintable(result.err));
    QCOMPARE(result.exitCode, 1);
    QVERIFY2(result.err.startsWith("rooftop: error: ") && result.err.count('\n') == 1,
             qPrintable(result.err));
    QVERIFY2(result.err.contains(part), qPrintable(result.err));
}

/// The layers' |error_pct| never grows down the list, and layers without one come last.
bool worstFirst(const QJsonArray& layers) {
    double previous = INFINITY;
    bool seenNull = false;
    for (const QJsonValue& value : layers) {
        const QJsonValue error = value.toObject().value("error_pct");
        if (error.isNull()) {
            seenNull = true;
            continue;
        }
        if (seenNull || std::fabs(error.toDouble()) > previous) return false;
        previous = std::fabs(error.toDouble());
    }
    return true;
}

int distinctNodes(const QJsonArray& layers) {
    QSet<QString> nodes;
    for (const QJsonValue& layer : layers)
        for (const QJsonValue& node : layer.toObject().value("nodes").toArray())
            nodes.insert(node.toString());
    return int(nodes.size());
}

} // namespace

class CompareCli : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

    QString write(const QString& name, const std::string& text) {
        const QString path = dir_.filePath(name);
        if (!test::writeText(path, text)) qFatal("cannot write %s", qPrintable(path));
        return path;
    }

private slots:
    void trtexec86JsonOnResnet18() {
        const auto layers = test::resnet18Trt86Layers();
        const QString profile = write("r18-86.json", test::trtexecProfileJson(layers));
        const CliResult result = runRooftop(
            {"compare", resnet18(), "--device", board, "--trtexec-profile", profile, "--format", "json"});
        QCOMPARE(result.exitCode, 0);
        const QJsonObject json = jsonOf(result);
        QStringList keys = json.keys();
        keys.sort();
        QCOMPARE(keys, (QStringList{"absent_node_layers",
                                    "bound_basis",
                                    "confidence",
                                    "covered_nodes",
                                    "device",
                                    "interval_basis",
                                    "layers",
                                    "measured_basis",
                                    "measured_provenance",
                                    "measured_total_ms",
                                    "mode",
                                    "model_nodes",
                                    "predicted_model_ms",
                                    "predicted_model_ms_interval",
                                    "predicted_provenance",
                                    "predicted_total_ms",
                                    "predicted_total_ms_interval",
                                    "prediction_basis",
                                    "schema",
                                    "source",
                                    "unmapped_ms"}));
        // the roofline's totals with the prior's bounds at 90 % around them
        for (const char* key : {"predicted_model_ms", "predicted_total_ms"}) {
            const double value = json[key].toDouble();
            const QJsonArray bounds = json[QString(key) + "_interval"].toArray();
            QCOMPARE(bounds.size(), qsizetype(2));
            QVERIFY2(bounds[0].toDouble() < value && value < bounds[1].toDouble(), key);
        }
        QVERIFY(json["interval_basis"].toString().startsWith("the prior's own error"));
        QCOMPARE(json["absent_node_layers"].toInt(), 0);
        // 20 Convs, 8 Adds, 17 Relus (unfused in the per-node traffic view), MaxPool, GlobalAveragePool and
        // Gemm; Flatten is an alias
        QCOMPARE(json["model_nodes"].toInt(), 48);
        // covered counts the same kernels: the profile's Flatten (an alias, in a fused layer's name) is not
        // one
        QCOMPARE(json["covered_nodes"].toInt(), 48);
        QCOMPARE(json["device"].toString(), board);
        QCOMPARE(json["schema"].toString(), QString("rooftop-compare/4"));
        QCOMPARE(json["mode"].toString(), QString("MAXN")); // the fastest stock mode by default
        QCOMPARE(json["source"].toString(), QString("trtexec"));
        QCOMPARE(json["measured_total_ms"].toDouble(), sumOf(layers));
        // overhead: the input reformat (layer 1) and reshape_after_/fc/Gemm (the last)
        QCOMPARE(json["unmapped_ms"].toDouble(), layers.front().second + layers.back().second);
        const QJsonArray rows = json["layers"].toArray();
        QCOMPARE(rows.size(), qsizetype(26));
        QCOMPARE(distinctNodes(rows), 49);
        QVERIFY(worstFirst(rows));
        QStringList rowKeys = rows[0].toObject().keys();
        rowKeys.sort();
        QCOMPARE(rowKeys,
                 (QStringList{"achieved_flops", "bound", "error_pct", "intensity", "measured_time_ms", "name",
                              "nodes", "predicted_time_ms", "roof_share_pct"}));
        double predicted = 0.0;
        for (const QJsonValue& value : rows) {
            const QJsonObject row = value.toObject();
            if (row["nodes"].toArray().isEmpty()) {
                QCOMPARE(row["bound"].toString(), QString("overhead"));
                QVERIFY(row["predicted_time_ms"].isNull());
                continue;
            }
            QVERIFY(row["predicted_time_ms"].toDouble() > 0);
            predicted += row["predicted_time_ms"].toDouble(); // every node in one layer only here
            const double error = (row["predicted_time_ms"].toDouble() - row["measured_time_ms"].toDouble()) /
                                 row["measured_time_ms"].toDouble() * 100;
            QCOMPARE(row["error_pct"].toDouble(), error);
            QVERIFY(QStringList({"compute", "memory", "overhead"}).contains(row["bound"].toString()));
        }
        QCOMPARE(json["predicted_total_ms"].toDouble(), predicted);
        QCOMPARE(json["measured_provenance"].toString(), QString("measured"));
        QCOMPARE(json["predicted_provenance"].toString(), QString("estimate"));
        QVERIFY(json["measured_basis"].toString().startsWith("measured, trtexec --exportProfile "));
        QVERIFY(json["measured_basis"].toString().endsWith("r18-86.json"));
        QVERIFY(json["prediction_basis"].toString().contains("the roofline in mode MAXN on " + board));
    }

    void trtexec10WithLayerInfoAndMode() {
        const auto layers = test::resnet18Trt10Layers();
        const QString profile = write("r18-10.json", test::trtexecProfileJson(layers));
        const QString info = write("r18-10.graph.json", test::resnet18Trt10LayerInfo());
        const QStringList common = {"compare",           resnet18(), "--device",         board,
                                    "--trtexec-profile", profile,    "--trtexec-layers", info,
                                    "--format",          "json"};
        const QJsonObject maxn = jsonOf(runRooftop(common));
        const QJsonObject slow = jsonOf(runRooftop(common + QStringList{"--mode", "MODE_15W"}));
        QCOMPARE(maxn["measured_total_ms"].toDouble(), sumOf(layers));
        // the reformat and the unnamed layer have no node
        QCOMPARE(maxn["unmapped_ms"].toDouble(), layers[0].second + layers[5].second);
        QCOMPARE(distinctNodes(maxn["layers"].toArray()), 49);
        QCOMPARE(slow["mode"].toString(), QString("MODE_15W"));
        QCOMPARE(slow["measured_total_ms"].toDouble(), maxn["measured_total_ms"].toDouble());
        QVERIFY(slow["predicted_total_ms"].toDouble() > maxn["predicted_total_ms"].toDouble());
    }

    // An engine built for other dims (batch 8) is not a profile of the analysis at batch 1: refused, naming
    // the layer and both shapes; the same engine at batch 1, or with dynamic dims, compares.
    void anEngineOfOtherDimsIsRefused() {
        const auto layers = test::resnet18Trt10Layers();
        const QString profile = write("r18-dims.json", test::trtexecProfileJson(layers));
        auto infoWith = [&](const char* dims) {
            QString text = QString::fromStdString(test::resnet18Trt10LayerInfo());
            text.replace("\"[ONNX Layer: /maxpool/MaxPool]\x1e\"}",
                         QString("\"[ONNX Layer: /maxpool/MaxPool]\x1e\", \"Outputs\": [{\"Name\": \"m\", "
                                 "\"Dimensions\": %1}]}")
                             .arg(dims));
            return write(QString("r18-dims-%1.graph.json").arg(qHash(QString(dims))), text.toStdString());
        };
        auto compareWith = [&](const QString& info) {
            return runRooftop({"compare", resnet18(), "--device", board, "--trtexec-profile", profile,
                               "--trtexec-layers", info, "--format", "json"});
        };
        const CliResult same = compareWith(infoWith("[1,64,56,56]"));
        QVERIFY2(same.exitCode == 0, qPrintable(same.err));
        const CliResult dynamic = compareWith(infoWith("[-1,64,56,56]"));
        QVERIFY2(dynamic.exitCode == 0, qPrintable(dynamic.err));
        const CliResult other = compareWith(infoWith("[8,64,56,56]"));
        QCOMPARE(other.exitCode, 1);
        QVERIFY2(other.err.contains("writes 8x64x56x56, the analysis 1x64x56x56 at batch 1") &&
                     other.err.contains("/maxpool/MaxPool") && other.err.contains("--batch N"),
                 qPrintable(other.err));
        const CliResult malformed = compareWith(infoWith("[1,\"x\",56,56]"));
        QCOMPARE(malformed.exitCode, 1);
        QVERIFY2(malformed.err.contains("'Dimensions' must be an array of integers"),
                 qPrintable(malformed.err));
    }

    void oldNamesTableAndCsv() {
        const QString model = dir_.filePath("old.onnx");
        QVERIFY(test::writeOldNamesModel(model));
        const auto layers = test::oldNamesTrt86Layers();
        const QString profile = write("old.json", test::trtexecProfileJson(layers));
        const CliResult table =
            runRooftop({"compare", model, "--device", board, "--trtexec-profile", profile});
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.contains("Conv_3 + onnx::Add_12 + Add_4 + Relu_5"), qPrintable(table.out));
        QVERIFY(table.out.contains("Measured ms: measured, trtexec --exportProfile "));
        QVERIFY(table.out.contains(
            QRegularExpression("Predicted ms: (estimate|datasheet|predicted|fitted|measured), "
                               "the roofline in mode MAXN")));
        const QString out = dir_.filePath("old.csv");
        const CliResult csv = runRooftop({"compare", model, "--device", board, "--trtexec-profile", profile,
                                          "--format", "csv", "-o", out});
        QCOMPARE(csv.exitCode, 0);
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), qsizetype(1 + layers.size()));
        QCOMPARE(lines[0], QString("layer,nodes,measured_time_ms,predicted_time_ms,error_pct,achieved_flops,"
                                   "intensity,roof_share_pct,bound,"
                                   "measured_provenance,predicted_provenance,counts"));
        QCOMPARE(lines.filter("Conv_3;Add_4;Relu_5").size(), qsizetype(1));
        // Flatten_7 copy and the reformat: no nodes, no prediction
        QCOMPARE(lines.filter(QRegularExpression(",,[0-9.e-]+,,,,,,overhead,")).size(), qsizetype(2));
    }

    void onnxRuntimeCudaProfile() {
        const QString profile = write("ort.json", test::resnet18OrtProfile());
        const QJsonObject json = jsonOf(runRooftop(
            {"compare", resnet18(), "--device", board, "--ort-profile", profile, "--format", "json"}));
        QCOMPARE(json["source"].toString(), QString("onnxruntime"));
        const QJsonArray rows = json["layers"].toArray();
        QCOMPARE(rows.size(), qsizetype(50)); // 49 nodes and one ONNX Runtime made
        QCOMPARE(distinctNodes(rows), 49);
        // kernels of (i+1) us for node i but /Flatten (i = 47: its host 100 us), fused_Gemm_99 (i = 49)
        // unmapped
        QCOMPARE(json["measured_total_ms"].toDouble(), (49 * 50 / 2 - 48 + 100 + 50) / 1000.0);
        QCOMPARE(json["unmapped_ms"].toDouble(), 0.05);
        QVERIFY(worstFirst(rows));
    }

    // A profile of one of the model's 48 kernel nodes is compared node by node, never as the whole model (it
    // said "49x faster than predicted").
    void aPartialProfileIsNoWholeModel() {
        const CliResult r =
            runRooftop({"compare", resnet18(), "--device", board, "--ort-profile",
                        QString(ROOFTOP_TEST_FIXTURES_DIR "/../fuzz/corpus/ort_profile/cuda.json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("Whole model: not compared, the profile covers 1 of its 48 nodes"),
                 qPrintable(r.out));
        QVERIFY(!r.out.contains("faster than predicted") && !r.out.contains("slower than predicted"));
    }

    void nsightComputeByKernelOrder() {
        const QString model = dir_.filePath("old-ncu.onnx");
        QVERIFY(test::writeOldNamesModel(model));
        const Workload workload = analyzeModelFile(model.toStdString(), {});
        int launching = 0;
        for (const LayerCount& layer : workload.layers)
            launching += dispatchesKernel(layer) ? 1 : 0;
        QVERIFY(launching > 0);
        // --page raw with the units row: kernel k takes (k+1) us, (k+1) x 1000 FFMA, 4000 DRAM bytes
        std::string csv =
            "==PROF== Connected to process 9\n\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\","
            "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"dram__bytes.sum\"\n"
            "\"\",\"\",\"usecond\",\"inst\",\"Kbyte\"\n";
        double total = 0.0;
        for (int k = 0; k < launching; ++k) {
            csv += "\"" + std::to_string(k) + "\",\"kernel_" + std::to_string(k) + "\",\"" +
                   std::to_string(k + 1) + "\",\"" + std::to_string((k + 1) * 1000) + "\",\"4\"\n";
            total += (k + 1) / 1000.0;
        }
        const QString profile = write("ncu.csv", csv);
        const QJsonObject json =
            jsonOf(runRooftop({"compare", model, "--device", board, "--ncu", profile, "--format", "json"}));
        QCOMPARE(json["source"].toString(), QString("ncu"));
        QCOMPARE(json["measured_total_ms"].toDouble(), total);
        QCOMPARE(json["unmapped_ms"].toDouble(), 0.0);
        const QJsonArray rows = json["layers"].toArray();
        QCOMPARE(int(rows.size()), launching);
        double firstBandwidth = 0;
        for (const QJsonValue& value : rows) {
            const QJsonObject row = value.toObject();
            QCOMPARE(row["nodes"].toArray().size(), qsizetype(1));
            const int k = row["name"].toString().mid(7).toInt();
            QCOMPARE(row["achieved_flops"].toDouble(),
                     2.0 * (k + 1) * 1000 / ((k + 1) * 1e-6)); // ncu's counts
            QCOMPARE(row["intensity"].toDouble(), 2.0 * (k + 1) * 1000 / 4000);
            QVERIFY(row["roof_share_pct"].toDouble() > 0);
            if (k >= 8) continue;
            // memory-bound at 0.5 (k + 1) <= 4 FLOP/B (MAXN's ridges are higher): the roof is I x BW, so the
            // share of it reached is 4000 B / ((k + 1) us x BW), the same bandwidth for every kernel
            const double bandwidth = 4000 / ((k + 1) * 1e-6) / (row["roof_share_pct"].toDouble() / 100);
            if (firstBandwidth == 0) firstBandwidth = bandwidth;
            QVERIFY(qAbs(bandwidth / firstBandwidth - 1) < 1e-9);
            QVERIFY(bandwidth > 50e9 && bandwidth < 205e9); // AGX Orin's DRAM: 204.8 GB/s at most
        }
        // one kernel fewer: no whole pass, so nothing would map: refused with the counts, not a comparison of
        // nothing
        const QString partial =
            write("ncu-partial.csv",
                  csv.substr(0, csv.rfind("\"" + std::to_string(launching - 1) + "\",\"kernel_")));
        verifyOneLineError(
            runRooftop({"compare", model, "--device", board, "--ncu", partial}),
            partial + ": " + QString::number(launching - 1) + " of " + QString::number(launching - 1) +
                " kernels map to no node: by order they are not whole passes (the same names in "
                "the same order) over the " +
                QString::number(launching) + " kernel-launching nodes of " + model);
    }

    void badInput() {
        const QString good = write("good.json", test::trtexecProfileJson(test::oldNamesTrt86Layers()));
        const QString r18 = resnet18();
        verifyOneLineError(runRooftop({"compare", r18, "--device", board}), "needs a measured profile");
        verifyOneLineError(runRooftop({"compare", r18, "--trtexec-profile", good}), "needs a board");
        verifyOneLineError(runRooftop({"compare", "--device", board, "--trtexec-profile", good}),
                           "needs a model");
        verifyOneLineError(
            runRooftop({"compare", r18, "--device", board, "--trtexec-profile", good, "--ort-profile", good}),
            "takes one measured profile");
        verifyOneLineError(
            runRooftop({"compare", r18, "--device", board, "--ort-profile", good, "--trtexec-layers", good}),
            "--trtexec-layers goes with --trtexec-profile");
        verifyOneLineError(
            runRooftop({"compare", r18, "--device", board, "--trtexec-profile", good, "--mode", "stock"}),
            "--mode must name one mode");
        verifyOneLineError(
            runRooftop({"compare", r18, "--device", board, "--trtexec-profile", good, "--predictor", good}),
            "unknown option '--predictor'");
        verifyOneLineError(
            runRooftop({"compare", r18, "--device", board, "--trtexec-profile", dir_.filePath("none.json")}),
            "none.json: cannot read");
        const QString badProfile = write("bad-profile.json", R"([{"count": 3}, {"name": "a", "timeMs": 1}])");
        verifyOneLineError(runRooftop({"compare", r18, "--device", board, "--trtexec-profile", badProfile}),
                           "bad-profile.json: trtexec layer profile: record 2: no 'averageMs'");
        const QString countOnly = write("count-only.json", R"([{"count": 10}])");
        verifyOneLineError(runRooftop({"compare", r18, "--device", board, "--trtexec-profile", countOnly}),
                           "count-only.json: no layer records (an empty or truncated profile?)");
        const QString badInfo = write("bad-info.json", R"({"Layers": [{"Name": 1}]})");
        verifyOneLineError(runRooftop({"compare", r18, "--device", board, "--trtexec-profile", good,
                                       "--trtexec-layers", badInfo}),
                           "bad-info.json: trtexec layer info: layer 1: 'Name' must be a string");
        const QString badOrt =
            write("bad-ort.json", R"([{"cat": "Node", "name": "x_kernel_time", "dur": "5"}])");
        verifyOneLineError(runRooftop({"compare", r18, "--device", board, "--ort-profile", badOrt}),
                           "bad-ort.json: ONNX Runtime profile: event 1: 'dur' must be a number");
        const QString badNcu =
            write("bad.csv", "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\",\"x\"\n");
        verifyOneLineError(runRooftop({"compare", r18, "--device", board, "--ncu", badNcu}),
                           "bad.csv: Nsight Compute CSV: line 2: 'gpu__time_duration.sum' must be a number");
        verifyOneLineError(runRooftop({"compare", r18, "--device", "nope", "--trtexec-profile", good}),
                           "nope");
        verifyOneLineError(
            runRooftop({"compare", r18, "--device", board, "--ort-profile", good, "--trtexec-times", good}),
            "--trtexec-times goes with --trtexec-profile");
        const QString badTimes = write("bad-times.json", R"([{"computeMs": -1}])");
        verifyOneLineError(runRooftop({"compare", r18, "--device", board, "--trtexec-profile", good,
                                       "--trtexec-times", badTimes}),
                           "bad-times.json: trtexec times: ");
        verifyOneLineError(
            runRooftop({"compare", r18, "--device", board, "--trtexec-profile", good, "--calibrate-classes"}),
            "give it with -o RUNTIME.json");
        verifyOneLineError(
            runRooftop({"compare", r18, "--device", board, "--trtexec-profile", good, "--calibrate-classes",
                        "--format", "json", "-o", dir_.filePath("r.json")}),
            "drop --format");
    }

    // a ResNet-50 profile shares names with ResNet-18 (/conv1/Conv, /layer1/layer1.0/conv1/Conv, ...) but
    // most of its layers name nodes ResNet-18 lacks
    void profileOfARelatedModelIsRefused() {
        const Workload r50 = test::analyzeSample("resnet50");
        std::vector<std::pair<std::string, double>> layers;
        for (const LayerCount& layer : r50.layers)
            if (layer.op == "Conv") layers.emplace_back(layer.name, 0.01);
        const QString profile = write("r50.json", test::trtexecProfileJson(layers));
        verifyOneLineError(
            runRooftop({"compare", resnet18(), "--device", board, "--trtexec-profile", profile}),
            "ms) name nodes");
        // a few absent names among many mapped ones are a warning in the table
        std::vector<std::pair<std::string, double>> mostly = test::resnet18Trt86Layers();
        mostly.emplace_back("/layer4/layer4.5/conv3/Conv", 0.01);
        const QString extra = write("r18-extra.json", test::trtexecProfileJson(mostly));
        const CliResult table =
            runRooftop({"compare", resnet18(), "--device", board, "--trtexec-profile", extra});
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.contains(
                     "Warning: 1 layer names nodes this model lacks (e.g. '/layer4/layer4.5/conv3/Conv')"),
                 qPrintable(table.out));
        // ... but not when the absent layers hold more than a quarter of the measured time (ResNet-50's
        // profile against ResNet-18: 25 of 59 layers, 7.22 of 15.4 ms)
        double total = 0.0;
        for (const auto& layer : test::resnet18Trt86Layers())
            total += layer.second;
        mostly.back().second = total / 2;
        const QString heavy = write("r18-heavy.json", test::trtexecProfileJson(mostly));
        verifyOneLineError(runRooftop({"compare", resnet18(), "--device", board, "--trtexec-profile", heavy}),
                           "1 of " + QString::number(mostly.size()) + " layers (");
    }

    // --trtexec-times beside the layers, and --calibrate-classes writing a runtime file that other commands
    // use
    void timesAndClassCalibration() {
        const Workload w = test::analyzeSample("mobilenet_v2");
        const test::SimulatedEngineRun run = test::simulateEngine(
            test::shippedAgxOrin(), w, modesFor(test::shippedAgxOrin(), "MAXN").front(), 5);
        const QString profile = write("mv2.json", test::trtexecProfileJson(run.layers));
        const QString times = write("mv2-times.json", test::trtexecTimesJson({1.5, 1.25, 1.75}));
        const QString model = QString::fromStdString(test::samplePath("mobilenet_v2"));
        const CliResult json = runRooftop({"compare", model, "--device", board, "--trtexec-profile", profile,
                                           "--trtexec-times", times, "--format", "json"});
        QCOMPARE(jsonOf(json)["inference_ms"].toDouble(), 1.5); // the median computeMs
        const QString runtime = dir_.filePath("mv2-runtime.json");
        const CliResult fit = runRooftop({"compare", model, "--device", board, "--trtexec-profile", profile,
                                          "--calibrate-classes", "-o", runtime});
        QVERIFY2(fit.exitCode == 0, qPrintable(fit.err));
        QVERIFY2(fit.out.contains("depthwise_conv") && fit.out.contains("Wrote " + runtime),
                 qPrintable(fit.out));
        // the kernel constants' rows, the floor and the wave tail, each fitted or with why not
        QVERIFY2(fit.out.contains("kernel floor (µs)") && fit.out.contains("wave-tail penalty (scale)"),
                 qPrintable(fit.out));
        const RuntimeProfile loaded = loadRuntimeFromFile(runtime.toStdString());
        QVERIFY(loaded.classFitted[static_cast<size_t>(OperatorClass::DepthwiseConv)]);
        const CliResult analyze = runRooftop({"roofline", model, "--device", board, "--runtime-file", runtime,
                                              "--mode", "MAXN", "--format", "json"});
        QVERIFY2(analyze.exitCode == 0, qPrintable(analyze.err));
        QVERIFY2(analyze.out.contains("tensorrt-calibrated"), qPrintable(analyze.out.left(400)));
    }
};

ROOFTOP_TEST_CLASS(CompareCli)
#include "test_compare_cli.moc"
