// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop analyze --phase training: the forward / backward / update split in JSON, the epoch, and bad input
// (one line on stderr, exit 1). The counts are test_training_costs' convolution, derived there.
#include "support/cli_runner.h"
#include "support/test_registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using rooftop::test::CliResult;
using rooftop::test::expectOneLineError;
using rooftop::test::jsonOf;
using rooftop::test::runRooftop;
using rooftop::test::writeTextModel;

namespace {

const char* convText = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,3,8,8] x) => (float[2,4,8,8] y)
    <float[4,3,3,3] w = {1.0}, float[4] b = {0.0}> {
        y = Conv <pads = [1,1,1,1]> (x, w, b)
    })";

// The same convolution with a symbolic batch N and height H.
const char* symbolicConvText = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[N,3,H,8] x) => (float[N,4,H,8] y)
    <float[4,3,3,3] w = {1.0}, float[4] b = {0.0}> {
        y = Conv <pads = [1,1,1,1]> (x, w, b)
    })";

const char* noParamsText = R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,10] x) => (float[2,10] y) {
        y = Softmax (x)
    })";

qint64 integer(const QJsonObject& object, const char* phase, const char* field) {
    return object[phase].toObject()[field].toInteger();
}

} // namespace

class TrainingCli : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString conv_;
    QString noParams_;
    QString symbolicConv_;

private slots:
    void initTestCase() {
        conv_ = dir_.filePath("conv.onnx");
        noParams_ = dir_.filePath("softmax.onnx");
        QVERIFY(writeTextModel(conv_, convText));
        QVERIFY(writeTextModel(noParams_, noParamsText));
        symbolicConv_ = dir_.filePath("symbolic_conv.onnx");
        QVERIFY(writeTextModel(symbolicConv_, symbolicConvText));
    }

    void jsonSplitsForwardBackwardUpdate() {
        const QJsonObject root = jsonOf(
            runRooftop({"analyze", conv_, "--phase", "training", "--optimizer", "sgd", "--format", "json"}));
        const QJsonObject settings = root["settings"].toObject();
        QCOMPARE(settings["phase"].toString(), QString("training"));
        QCOMPARE(settings["optimizer"].toString(), QString("sgd"));
        QCOMPARE(root["schema"].toString(), QString("rooftop-analysis/1"));
        const QJsonObject totals = root["totals"].toObject();
        const QJsonObject split = totals["training"].toObject();
        QCOMPARE(integer(split, "forward", "flops"), 28160);
        QCOMPARE(integer(split, "backward", "flops"), 55808);
        QCOMPARE(integer(split, "update", "flops"), 224);
        QCOMPARE(integer(split, "forward", "bytes"), 4032);
        QCOMPARE(integer(split, "backward", "bytes"), 6016);
        QCOMPARE(integer(split, "update", "bytes"), 1344);
        QCOMPARE(split["trainable_params"].toInteger(), 112);
        QCOMPARE(totals["flops"].toInteger(), 84192);
        QCOMPARE(totals["bytes"].toInteger(), 11392);
        const QJsonObject layer = root["layers"].toArray().at(0).toObject()["training"].toObject();
        QCOMPARE(integer(layer, "backward", "macs"), 27648);
    }

    void inferenceJsonHasNoTrainingFields() {
        const QJsonObject root = jsonOf(runRooftop({"analyze", conv_, "--format", "json"}));
        QVERIFY(!root["settings"].toObject().contains("phase"));
        QVERIFY(!root["totals"].toObject().contains("training"));
        QCOMPARE(root["totals"].toObject()["flops"].toInteger(), 28160);
    }

    // 1000 samples at batch 2: ceil(1000 / 2) = 500 minibatches of 84,192 FLOPs.
    void epochOfSamples() {
        const QJsonObject root =
            jsonOf(runRooftop({"analyze", conv_, "--phase", "training", "--optimizer", "sgd", "--batch", "2",
                               "--samples", "1001", "--format", "json"}));
        const QJsonObject epoch = root["totals"].toObject()["training"].toObject()["epoch"].toObject();
        QCOMPARE(epoch["minibatches"].toInteger(), 501);
        QCOMPARE(epoch["flops"].toDouble(), 501.0 * 84192);
        const CliResult table =
            runRooftop({"analyze", conv_, "--phase", "training", "--batch", "2", "--samples", "1001"});
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.contains("Training step") && table.out.contains("501 minibatches"),
                 qPrintable(table.out));
        // the step's bytes are its phases'; the weights, inputs and outputs beside them the forward's alone
        QVERIFY2(table.out.contains("over the step; the forward's weights"), qPrintable(table.out));
    }

    // The rooflines take the step's FLOPs and bytes: a step is slower than an inference in every mode; the
    // epoch is 501 steps of it.
    void rooflinePredictsTheStepAndTheEpoch() {
        const QStringList common = {"roofline", conv_, "--device", "agx-orin-64gb",
                                    "--batch",  "2",   "--format", "json"};
        const QJsonObject inference = jsonOf(runRooftop(common));
        const QJsonObject step = jsonOf(runRooftop(
            common + QStringList{"--phase", "training", "--optimizer", "sgd", "--samples", "1001"}));
        const QJsonObject advice =
            jsonOf(runRooftop({"recommend", conv_, "--device", "agx-orin-64gb", "--phase", "training",
                               "--optimizer", "sgd", "--format", "json"}));
        QCOMPARE(advice["optimizer"].toString(), QString("sgd"));      // sgd and adam cost differently
        QCOMPARE(inference["phase"].toString(), QString("inference")); // every answer names its workload
        QVERIFY(!inference.contains("optimizer"));
        QCOMPARE(step["phase"].toString(), QString("training"));
        QCOMPARE(step["optimizer"].toString(), QString("sgd"));
        const QJsonArray inferenceModes = inference["modes"].toArray();
        const QJsonArray stepModes = step["modes"].toArray();
        QVERIFY(!stepModes.isEmpty());
        QCOMPARE(stepModes.size(), inferenceModes.size());
        for (qsizetype i = 0; i < stepModes.size(); ++i) {
            const QJsonObject mode = stepModes.at(i).toObject();
            QVERIFY(mode["latency_ms"].toDouble() > inferenceModes.at(i).toObject()["latency_ms"].toDouble());
            QCOMPARE(mode["epoch_minibatches"].toInteger(), 501);
            QCOMPARE(mode["epoch_s"].toDouble(), mode["latency_ms"].toDouble() * 1e-3 * 501);
            // the epoch's bounds are the step's, 501 times over
            const QJsonArray epoch = mode["epoch_s_interval"].toArray();
            const QJsonArray step = mode["latency_ms_interval"].toArray();
            QCOMPARE(epoch.size(), qsizetype(2));
            QVERIFY(std::abs(epoch[1].toDouble() / (step[1].toDouble() * 1e-3 * 501) - 1) < 1e-12);
            QVERIFY(mode["epoch_kj_interval"].toArray()[1].toDouble() > mode["epoch_kj"].toDouble());
        }
    }

    void textSaysStepAndSampleNotInference() {
        // a training step's tables and explanation read per step and per sample: "inference" names
        // nothing of it
        const QStringList training = {"--device", "agx-orin-64gb", "--batch", "2", "--phase", "training"};
        const CliResult roofline = runRooftop(QStringList{"roofline", conv_} + training);
        QCOMPARE(roofline.exitCode, 0);
        QVERIFY2(roofline.out.contains("PER STEP") && roofline.out.contains("mJ/SAMPLE") &&
                     roofline.out.contains("SAMPLES/s"),
                 qPrintable(roofline.out));
        QVERIFY2(!roofline.out.contains("INFERENCE", Qt::CaseInsensitive), qPrintable(roofline.out));
        const CliResult recommend =
            runRooftop(QStringList{"recommend", conv_, "--latency-slo", "1000"} + training);
        QCOMPARE(recommend.exitCode, 0);
        QVERIFY2(recommend.out.contains("per sample"), qPrintable(recommend.out));
        QVERIFY2(!recommend.out.contains("per inference"), qPrintable(recommend.out));
        const CliResult inference = runRooftop({"roofline", conv_, "--device", "agx-orin-64gb"});
        QVERIFY2(inference.out.contains("mJ/INFERENCE"), qPrintable(inference.out));
    }

    void recommendTakesATrainingStep() {
        const CliResult r =
            runRooftop({"recommend", conv_, "--device", "agx-orin-64gb", "--phase", "training"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("Model: conv.onnx, as-model, training\nTraining step (adam)"),
                 qPrintable(r.out));
        expectOneLineError(runRooftop({"recommend", conv_, "--device", "agx-orin-64gb", "--phase", "training",
                                       "--samples", "10"}),
                           "--samples is for analyze and roofline");
    }

    // A training step of a model with an unbound dim says both: which dims it assumed, and what its units
    // are.
    void aTrainingRecommendationKeepsTheAssumedDims() {
        const CliResult r = runRooftop(
            {"recommend", symbolicConv_, "--device", "agx-orin-64gb", "--phase", "training", "--batch", "2"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(
            r.out.startsWith("Model: symbolic_conv.onnx, as-model, training\nAssumed (unbound) dims: H=") &&
                r.out.contains("\nTraining step (adam)"),
            qPrintable(r.out));
    }

    void csvAppendsTheSplit() {
        const CliResult step = runRooftop({"analyze", conv_, "--phase", "training", "--format", "csv"});
        QCOMPARE(step.exitCode, 0);
        const QStringList lines = step.out.split('\n');
        QVERIFY2(lines.at(0).endsWith(",saved_bytes,trainable_params"), qPrintable(lines.at(0)));
        QVERIFY2(lines.at(1).endsWith(",28160,55808,1456,4032,6016,3136,0,1536,112"),
                 qPrintable(lines.at(1)));
        const CliResult inference = runRooftop({"analyze", conv_, "--format", "csv"});
        QVERIFY(inference.out.split('\n').at(0).endsWith(",note,status"));
    }

    void badPhase() {
        expectOneLineError(runRooftop({"analyze", conv_, "--phase", "learning"}), "--phase must be");
    }

    void badOptimizer() {
        expectOneLineError(runRooftop({"analyze", conv_, "--phase", "training", "--optimizer", "rmsprop"}),
                           "--optimizer must be");
    }

    void modelWithoutParameters() {
        expectOneLineError(runRooftop({"analyze", noParams_, "--phase", "training"}),
                           "no trainable parameters");
    }

    // A --dim that binds the batch (dim 0 of the input) is the minibatch of the epoch, as --batch is; one
    // that binds another dim alone leaves the minibatch unknown.
    void anEpochTakesTheBatchADimBinds() {
        const QStringList training = {"analyze", symbolicConv_, "--phase", "training", "--optimizer",
                                      "sgd",     "--samples",   "1001",    "--format", "json"};
        const QJsonObject byDim = jsonOf(runRooftop(training + QStringList{"--dim", "N=2", "--dim", "H=8"}));
        const QJsonObject epoch = byDim["totals"].toObject()["training"].toObject()["epoch"].toObject();
        QCOMPARE(epoch["minibatches"].toInteger(), 501);
        QCOMPARE(epoch["flops"].toDouble(), 501.0 * 84192);
        expectOneLineError(runRooftop(training + QStringList{"--dim", "H=8"}), "needs the minibatch size");
    }

    void samplesNeedTrainingAndBatch() {
        expectOneLineError(runRooftop({"analyze", conv_, "--samples", "100"}), "--samples needs");
        expectOneLineError(runRooftop({"analyze", conv_, "--phase", "training", "--samples", "100"}),
                           "--samples needs");
    }

    void fusedTrafficRefused() {
        expectOneLineError(runRooftop({"analyze", conv_, "--phase", "training", "--traffic", "fused"}),
                           "per-node traffic");
    }
};

ROOFTOP_TEST_CLASS(TrainingCli)
#include "test_training_cli.moc"
