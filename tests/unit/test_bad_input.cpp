// SPDX-License-Identifier: GPL-3.0-or-later
// Bad input never crashes or hangs: one line on stderr and exit code 1.
#include "core/onnx/model_loader.h"
#include "support/cli_runner.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <sys/stat.h>
#include <thread>

using rooftop::test::CliResult;
using rooftop::test::expectOneLineError;
using rooftop::test::runRooftop;
using rooftop::test::writeTextModel;

class BadInput : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString file(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }

    QString writeBytes(const char* name, const QByteArray& bytes) {
        QFile f(file(name));
        if (!f.open(QIODevice::WriteOnly)) return {};
        f.write(bytes);
        return f.fileName();
    }

    QString model(const char* name, const char* text) {
        const QString path = file(name);
        return writeTextModel(path, text) ? path : QString();
    }

    static QByteArray sample() {
        QFile f(QString::fromStdString(rooftop::test::samplePath("resnet18")));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private slots:
    void missingFile() { expectOneLineError(runRooftop({"analyze", file("nope.onnx")}), "no such file"); }

    void directory() { expectOneLineError(runRooftop({"analyze", dir_.path()}), "is a directory"); }

    void emptyFile() {
        expectOneLineError(runRooftop({"analyze", writeBytes("empty.onnx", {})}), "empty file");
    }

    void textFileIsNotOnnx() {
        const QString path = writeBytes("readme.onnx", "This is not a model, just some text.\n");
        expectOneLineError(runRooftop({"analyze", path}), "not an ONNX model");
    }

    void truncatedProtobuf() {
        const QByteArray bytes = sample();
        QVERIFY(bytes.size() > 1000);
        expectOneLineError(runRooftop({"analyze", writeBytes("half.onnx", bytes.left(bytes.size() / 2))}),
                           "not an ONNX model");
    }

    void truncationAnywhereNeverCrashes() {
        const QByteArray bytes = sample();
        for (int cut : {1, 7, 64, 333, 4096, int(bytes.size()) - 3}) {
            const CliResult r = runRooftop({"analyze", writeBytes("cut.onnx", bytes.left(cut))});
            QVERIFY2(!r.crashed, qPrintable(QString("cut at %1 crashed").arg(cut)));
            QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(QString("cut at %1").arg(cut)));
            if (r.exitCode == 1) QVERIFY(!r.err.trimmed().contains('\n'));
        }
    }

    void corruptedBytesNeverCrash() {
        QByteArray bytes = sample();
        for (int i = 0; i < 40; ++i) {
            QByteArray corrupt = bytes;
            const int at = int((i * 7919) % corrupt.size());
            corrupt[at] = char(corrupt[at] ^ 0x5a);
            corrupt[(at + 13) % corrupt.size()] = char(0xff);
            const CliResult r =
                runRooftop({"analyze", writeBytes("corrupt.onnx", corrupt), "--format", "csv"});
            QVERIFY2(!r.crashed, qPrintable(QString("corruption at %1 crashed: %2").arg(at).arg(r.err)));
            QVERIFY(r.exitCode == 0 || r.exitCode == 1);
        }
    }

    void cycle() {
        const QString path = model("cycle.onnx", R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4] x) => (float[4] z) {
                y = Add (x, z)
                z = Relu (y)
            })");
        QVERIFY(!path.isEmpty());
        expectOneLineError(runRooftop({"analyze", path}), "cycle");
    }

    void danglingInput() {
        const QString path = model("dangling.onnx", R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4] x) => (float[4] y) {
                y = Add (x, ghost)
            })");
        expectOneLineError(runRooftop({"analyze", path}), "'ghost'");
    }

    void tensorProducedTwice() {
        const QString path = model("twice.onnx", R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4] x) => (float[4] y) {
                y = Relu (x)
                y = Neg (x)
            })");
        expectOneLineError(runRooftop({"analyze", path}), "produced twice");
    }

    // ONNX's data propagation would copy the 2 bytes into a vector of no int64 elements.
    void rawDataOfPartialElements() {
        onnx::ModelProto m = rooftop::parseModelText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3] x) => (y) <int64[1] a = {3}, int64[1] b = {2}> {
                shape = Concat <axis = 0> (a, b)
                y = Reshape (x, shape)
            })");
        onnx::TensorProto* a = m.mutable_graph()->mutable_initializer(0);
        a->clear_int64_data();
        a->set_raw_data(std::string("\x03\x00", 2));
        const std::string bytes = m.SerializeAsString();
        const QString path =
            writeBytes("partial.onnx", QByteArray(bytes.data(), static_cast<int>(bytes.size())));
        expectOneLineError(runRooftop({"analyze", path}), "tensor 'a' has 2 bytes of raw data");
    }

    // ONNX's data propagation reads as many values as the dims promise.
    void fewerValuesThanElements() {
        onnx::ModelProto m = rooftop::parseModelText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3] x) => (y) <int64[1] a = {3}, int64[1] b = {2}> {
                shape = Concat <axis = 0> (a, b)
                y = Reshape (x, shape)
            })");
        m.mutable_graph()->mutable_initializer(1)->add_dims(2);
        const std::string bytes = m.SerializeAsString();
        const QString path =
            writeBytes("fewer.onnx", QByteArray(bytes.data(), static_cast<int>(bytes.size())));
        expectOneLineError(runRooftop({"analyze", path}), "tensor 'b' holds 1 values for its 2 elements");
    }

    // A weight's stored dims are its extent: negative, or past any board's memory, is refused by name.
    void weightsOfImpossibleExtent() {
        for (const int64_t dim : {int64_t(-4), int64_t(1) << 50}) {
            onnx::ModelProto m = rooftop::parseModelText(R"(
                <ir_version: 8, opset_import: ["" : 17]>
                g (float[2,3] x) => (y) <float[2] w = {1.0, 2.0}> {
                    y = MatMul (x, w)
                })");
            onnx::TensorProto* w = m.mutable_graph()->mutable_initializer(0);
            w->clear_float_data();
            w->clear_dims();
            w->add_dims(dim);
            w->add_dims(4);
            w->set_data_location(onnx::TensorProto::EXTERNAL);
            auto* location = w->add_external_data();
            location->set_key("location");
            location->set_value("w.bin");
            const std::string bytes = m.SerializeAsString();
            const QString path =
                writeBytes("extent.onnx", QByteArray(bytes.data(), static_cast<int>(bytes.size())));
            expectOneLineError(runRooftop({"analyze", path}), dim < 0
                                                                  ? "tensor 'w' has a negative dimension (-4)"
                                                                  : "tensor 'w' has more than 2^40 elements");
        }
    }

    void negativeDim() {
        const QString path = model("negative.onnx", R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,-5] x) => (float[1,-5] y) {
                y = Relu (x)
            })");
        expectOneLineError(runRooftop({"analyze", path}), "negative dimension");
    }

    void absurdDimsDoNotOverflow() {
        const QString path = model("absurd.onnx", R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1000000000,1000000000] a, float[1000000000,1000000000] b) => (float[1000000000,1000000000] y) {
                y = MatMul (a, b)
            })");
        expectOneLineError(runRooftop({"analyze", path}), "overflow");
    }

    void absurdBatchOption() {
        const QString path = model("big.onnx", R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[N,1000000,1000000] a) => (float[N,1000000,1000000] y) {
                y = Relu (a)
            })");
        expectOneLineError(runRooftop({"analyze", path, "--batch", "1000000000000"}), "overflow");
    }

    void domainNotImported() {
        const QString path = model("domain.onnx", R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4] x) => (float[4] y) {
                y = com.acme.Frobnicate (x)
            })");
        expectOneLineError(runRooftop({"analyze", path}), "does not import");
    }

    void importedUnknownDomainIsReportedUnsupported() {
        const QString path = model("custom.onnx", R"(
            <ir_version: 8, opset_import: ["" : 17, "com.acme" : 1]>
            g (float[4] x) => (float[4] y) {
                y = com.acme.Frobnicate (x)
            })");
        const CliResult r = runRooftop({"analyze", path, "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("\"com.acme.Frobnicate\""), qPrintable(r.out));
    }

    void customOpFeedingStandardOpsDoesNotCrashInference() {
        // ONNX 1.12's inference dereferences the missing type of a custom op's output (found by the fuzzer).
        const QString path = model("custom_chain.onnx", R"(
            <ir_version: 8, opset_import: ["" : 17, "com.acme" : 1]>
            g (float[2,3,4] x) => (float[4,3,2] z) {
                y = com.acme.Frobnicate (x)
                t = Transpose <perm = [2, 1, 0]> (y)
                z = Relu (t)
            })");
        const CliResult r = runRooftop({"analyze", path, "--format", "json"});
        QVERIFY2(!r.crashed, qPrintable(r.err));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("\"com.acme.Frobnicate\""), qPrintable(r.out));
    }

    void malformedOptions_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("batch text") << QStringList{"--batch", "abc"} << "--batch expects a whole number";
        QTest::newRow("batch fraction") << QStringList{"--batch", "1.5"} << "--batch expects a whole number";
        // one batch is answered here: a list is refused without a list as its example
        QTest::newRow("batch list") << QStringList{"--batch", "1,4"}
                                    << "--batch takes one batch size here, such as 8";
        QTest::newRow("batch zero") << QStringList{"--batch", "0"} << "--batch must be at least 1";
        QTest::newRow("batch negative") << QStringList{"--batch", "-3"} << "--batch must be at least 1";
        QTest::newRow("batch huge") << QStringList{"--batch", "99999999999999999999"} << "at most 2^40";
        QTest::newRow("batch missing") << QStringList{"--batch"} << "--batch needs a value";
        QTest::newRow("dim no equals") << QStringList{"--dim", "seq"} << "NAME=VALUE";
        QTest::newRow("empty value") << QStringList{"--dim", ""} << "--dim needs a value, got an empty one";
        QTest::newRow("dim negative") << QStringList{"--dim", "seq=-4"} << "between 1 and 2^40";
        QTest::newRow("dim blank") << QStringList{"--dim", "seq= 4"} << "seq: value must be an integer";
        QTest::newRow("dim hex") << QStringList{"--dim", "seq=0x10"} << "seq: value must be an integer";
        QTest::newRow("dim no such name")
            << QStringList{"--dim", "nosuch=5"}
            << "--dim nosuch=5: the model has no input dim named 'nosuch' (its symbolic input dims: ";
        QTest::newRow("dim given twice, two values")
            << QStringList{"--dim", "seq=128", "--dim", "seq=64"}
            << "--dim seq is given twice, as 128 and as 64: give it once";
        QTest::newRow("output twice")
            << QStringList{"-o", "a.json", "-o", "b.json"} << "-o is given twice; give it once";
        // the last of two names would win without a word
        QTest::newRow("output under two names")
            << QStringList{"-o", "a.json", "--output", "b.json"}
            << "-o and --output name one option, given twice; give it once";
        QTest::newRow("dim and batch disagree")
            << QStringList{"--dim", "batch=1", "--batch", "4"}
            << "--dim batch=1 binds the batch dimension (dim 0 of input "
               "'input'), which is the batch size: give batch sizes with --batch";
        QTest::newRow("optimizer without training")
            << QStringList{"--optimizer", "sgd"}
            << "--optimizer is the update of a training step; add --phase training";
        QTest::newRow("precision") << QStringList{"--precision", "fp6"} << "--precision must be";
        QTest::newRow("convention") << QStringList{"--convention", "thop"} << "--convention must be";
        QTest::newRow("traffic") << QStringList{"--traffic", "none"} << "--traffic must be";
        QTest::newRow("format") << QStringList{"--format", "xml"} << "--format must be";
        QTest::newRow("unknown option") << QStringList{"--frobnicate"} << "unknown option";
        QTest::newRow("two models") << QStringList{"other.onnx"} << "one model";
    }

    void malformedOptions() {
        QFETCH(QStringList, extra);
        QFETCH(QString, fragment);
        const QString path = QString::fromStdString(rooftop::test::samplePath("resnet18"));
        expectOneLineError(runRooftop(QStringList{"analyze", path} + extra), fragment.toLatin1().constData());
    }

    void batchListsSayWhichSizeIsWrong() {
        const QString path = QString::fromStdString(rooftop::test::samplePath("resnet18"));
        expectOneLineError(
            runRooftop({"recommend", path, "--device", "agx-orin-64gb", "--batch", "1,0,4"}),
            "--batch must be at least 1 (a batch holds one input or more), got '0' in '1,0,4'");
    }

    void aDimOfTheBatchIsNotTakenOverTheChosenBatch() {
        // plan chose batch 2 and costed batch 1 while --dim batch=1 won over it; now it says so
        const QString inference = QString::fromStdString(rooftop::test::samplePath("resnet18"));
        const QString training = QString::fromStdString(rooftop::test::samplePath("mobilenet_v2"));
        expectOneLineError(
            runRooftop({"plan", "--inference", inference, "--training", training, "--device", "agx-orin-64gb",
                        "--arrival", "uniform:30", "--latency-slo", "100", "--dim", "batch=1"}),
            "leave 'batch' out of --dim");
    }

    void mistypedModeNamesTheModeMeant() {
        const QString path = QString::fromStdString(rooftop::test::samplePath("resnet18"));
        expectOneLineError(runRooftop({"roofline", path, "--device", "agx-orin-64gb", "--mode", "50W"}),
                           "did you mean MODE_50W?");
        expectOneLineError(runRooftop({"roofline", path, "--device", "agx-orin-64gb", "--mode", "mode-15w"}),
                           "did you mean MODE_15W?");
        // a text that fits no name (or several) gets the list alone
        const CliResult none = runRooftop({"roofline", path, "--device", "agx-orin-64gb", "--mode", "W"});
        expectOneLineError(none, "stock modes: ");
        QVERIFY2(!none.err.contains("did you mean"), qPrintable(none.err));
    }

    void customModeClocksAreInMegahertz() {
        const QString path = QString::fromStdString(rooftop::test::samplePath("resnet18"));
        expectOneLineError(
            runRooftop({"roofline", path, "--device", "agx-orin-64gb", "--mode",
                        "cores=8,cpu=1728,gpu=555,emc=3199"}),
            "GPU 555 MHz is not on agx-orin-64gb's GPU ladder (114.75 ... 1300.5 MHz); clocks in a "
            "custom mode are in MHz");
        const CliResult ok = runRooftop({"roofline", path, "--device", "agx-orin-64gb", "--mode",
                                         "cores=8,cpu=1728,gpu=612,emc=3199", "--format", "csv"});
        QCOMPARE(ok.exitCode, 0);
        QVERIFY2(ok.out.contains("c8-cpu1728-gpu612-emc3199"), qPrintable(ok.err));
    }

    void tablesPrintTimesBelowAMillisecondInMicroseconds() {
        const QString path = QString::fromStdString(rooftop::test::samplePath("resnet18"));
        const CliResult r = runRooftop({"roofline", path, "--device", "agx-orin-64gb", "--mode", "MAXN"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral(" \u00b5s")), qPrintable(r.out)); // ResNet-18's small layers
        const QStringList lines = r.out.split('\n');
        for (const QString& line : lines) // no millisecond cell below 1 ms
            QVERIFY2(!line.contains(QRegularExpression(QStringLiteral("\\b0\\.\\d+ ms\\b"))),
                     qPrintable(line));
    }

    // A device or a folder named as an input file is refused at once with what it is, never read without end
    // (/dev/zero once grew a recommend --predictor to 7 GB).
    void devicesAndFoldersAreNoInputFiles_data() {
        QTest::addColumn<QStringList>("arguments");
        const QString resnet = QString::fromStdString(rooftop::test::samplePath("resnet18"));
        const QStringList recommend{"recommend", resnet, "--device", "agx-orin-64gb"};
        QTest::newRow("predictor") << recommend + QStringList{"--predictor"};
        QTest::newRow("runtime file") << recommend + QStringList{"--runtime-file"};
        QTest::newRow("measured profile") << recommend + QStringList{"--profile"};
        QTest::newRow("trtexec profile")
            << QStringList{"compare", resnet, "--device", "agx-orin-64gb", "--trtexec-profile"};
        QTest::newRow("calibration runs")
            << QStringList{"calibrate", resnet, "--device", "agx-orin-64gb", "--runs"};
        QTest::newRow("model") << QStringList{"analyze"};
    }

    void devicesAndFoldersAreNoInputFiles() {
        QFETCH(QStringList, arguments);
        expectOneLineError(runRooftop(arguments + QStringList{"/dev/zero"}), "/dev/zero: not a regular file");
        const CliResult folder = runRooftop(arguments + QStringList{dir_.path()});
        QCOMPARE(folder.exitCode, 1);
        QVERIFY2(folder.err.contains("folder") || folder.err.contains("directory"), qPrintable(folder.err));
    }

    void unknownCommand() {
        const CliResult r = runRooftop({"frobnicate"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("unknown command"));
        // a mistyped command is answered with the one it meant, as a mistyped option is
        const CliResult british = runRooftop({"analyse", "model.onnx"});
        QCOMPARE(british.exitCode, 1);
        QVERIFY2(
            british.err.trimmed() ==
                "rooftop: error: unknown command 'analyse' (did you mean analyze? rooftop --help lists them)",
            qPrintable(british.err));
        QVERIFY2(runRooftop({"--help"}).out.contains("3 every run profile, tune or plan made"),
                 "exit 3 unlisted");
    }

    // -o never replaces what the command reads, nor a FIFO or device by a regular file.
    void anOutputNeverReplacesAnInputOrADevice() {
        const QString model = dir_.filePath("copy.onnx");
        QFile::remove(model);
        QVERIFY(QFile::copy(QString::fromStdString(rooftop::test::samplePath("resnet18")), model));
        const qint64 size = QFileInfo(model).size();
        expectOneLineError(runRooftop({"analyze", model, "-o", model}), "the output is also an input");
        QCOMPARE(QFileInfo(model).size(), size);
        // under its other names and in the --name=FILE form, for the output and for what it would replace
        expectOneLineError(runRooftop({"analyze", model, "--output=" + model}),
                           "the output is also an input");
        expectOneLineError(runRooftop({"bench", "--out", model, "--device", "agx-orin-64gb", model}),
                           "the output is also an input");
        const QString runs = dir_.filePath("runs.csv");
        QFile::remove(runs);
        QFile runsFile(runs);
        QVERIFY(runsFile.open(QIODevice::WriteOnly));
        runsFile.write("mode,batch,latency_ms\n");
        runsFile.close();
        expectOneLineError(
            runRooftop({"learn", model, "--device", "agx-orin-64gb", "--runs=" + runs, "-o", runs}),
            "the output is also an input");
        QCOMPARE(QFileInfo(model).size(), size);
        QCOMPARE(QFileInfo(runs).size(), qint64(22));
        expectOneLineError(runRooftop({"modes", "--device", "agx-orin-64gb", "-o", dir_.path()}), "a folder");
        const QString fifo = dir_.filePath("out.fifo");
        QFile::remove(fifo);
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        QFile reader(fifo);
        std::thread drain([&] { // a FIFO's writer waits for its reader
            if (reader.open(QIODevice::ReadOnly)) reader.readAll();
        });
        const CliResult r = runRooftop({"devices", "--format", "json", "-o", fifo});
        drain.join();
        QCOMPARE(r.exitCode, 0);
        QVERIFY(!QFileInfo(fifo).isFile()); // still the FIFO
    }

    void unwritableOutput() {
        const QString path = QString::fromStdString(rooftop::test::samplePath("resnet18"));
        expectOneLineError(runRooftop({"analyze", path, "-o", dir_.filePath("no/such/folder/out.csv")}),
                           "cannot write");
    }
};

ROOFTOP_TEST_CLASS(BadInput)
#include "test_bad_input.moc"
