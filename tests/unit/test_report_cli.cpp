// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop report` headless, and how the window entry point behaves without a display or with bad arguments.
#include "support/cli_runner.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace rooftop;

namespace {

const QStringList kNoDisplay = {QStringLiteral("DISPLAY"), QStringLiteral("WAYLAND_DISPLAY"),
                                QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("XDG_RUNTIME_DIR")};

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestReportCli : public QObject {
    Q_OBJECT
private slots:
    void writesPdfAndHtmlWithoutADisplay() {
        QTemporaryDir dir;
        const QString model = QString::fromStdString(test::samplePath("mobilenet_v2"));
        const test::CliResult pdf = test::runRooftop({"report", model, "--device", "orin-nano-8gb",
                                                      "--latency-slo", "50", "-o", dir.filePath("r.pdf")},
                                                     kNoDisplay);
        QVERIFY2(pdf.exitCode == 0 && !pdf.crashed, qPrintable(pdf.err));
        QVERIFY(readAll(dir.filePath("r.pdf")).startsWith("%PDF-"));
        QVERIFY(readAll(dir.filePath("r.pdf")).size() > 20000);

        const test::CliResult html = test::runRooftop(
            {"report", model, "--device", "orin-nano-8gb", "--modes", "all", "-o", dir.filePath("r.html")},
            kNoDisplay);
        QVERIFY2(html.exitCode == 0 && !html.crashed, qPrintable(html.err));
        QVERIFY2(!html.err.contains("QStandardPaths"), qPrintable(html.err)); // no Qt noise (XDG_RUNTIME_DIR)
        QCOMPARE(html.err.count('\n'), 1);                                    // the one line saying where
        const QByteArray text = readAll(dir.filePath("r.html"));
        QCOMPARE(text.count("src=\"data:image/png;base64,"), 3);
        for (const char* section :
             {"<h2>Model</h2>", "<h2>Recommendation</h2>", "<h2>Board and power modes</h2>",
              "<h2>Time roofline</h2>", "<h2>Energy roofline</h2>", "Top layers by time"})
            QVERIFY2(text.contains(section), section);
        QVERIFY(text.contains("estimate"));         // provenance is shown next to derived numbers
        QVERIFY(!text.contains("measured</span>")); // and nothing derived is called measured
    }

    // The shares of "Top layers by time" are of the layers' summed time: all of them add up to 100 %.
    void topLayerSharesAddUpToTheWhole() {
        QTemporaryDir dir;
        const QString model = dir.filePath("mlp.onnx"); // five layers: every one is listed
        QVERIFY(test::writeTextModel(model, R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[8,1024] x) => (float[8,1024] y)
            <float[1024,1024] w1 = {0.0}, float[1024,1024] w2 = {0.0}> {
                a = MatMul(x, w1)
                b = Relu(a)
                c = MatMul(b, w2)
                d = Sigmoid(c)
                y = Add(d, x)
            })"));
        const test::CliResult html = test::runRooftop(
            {"report", model, "--device", "agx-orin-64gb", "-o", dir.filePath("r.html")}, kNoDisplay);
        QVERIFY2(html.exitCode == 0 && !html.crashed, qPrintable(html.err));
        const QString text = QString::fromUtf8(readAll(dir.filePath("r.html")));
        const QString table = text.mid(text.indexOf("Top layers by time"));
        QRegularExpression share(QStringLiteral("<td>([0-9.]+) %</td>"));
        double sum = 0;
        int rows = 0;
        for (auto it = share.globalMatch(table); it.hasNext(); ++rows)
            sum += it.next().captured(1).toDouble();
        QCOMPARE(rows, 5); // every layer is listed
        QVERIFY2(std::abs(sum - 100.0) <= 0.05 * rows + 0.01, qPrintable(QString::number(sum)));
        QVERIFY(table.contains("add up to 100 %"));
    }

    // A custom recommendation is what the report plots and lists: its roof beside the stock ones, its layer
    // points and its top layers, under the readable name the headline uses. A stock answer carries the grid's
    // better one, as the window's card does.
    void plotsAndListsWhatItRecommends() {
        QTemporaryDir dir;
        const QString model = QString::fromStdString(test::samplePath("resnet50"));
        const test::CliResult custom =
            test::runRooftop({"report", model, "--device", "agx-orin-64gb", "--modes", "all", "--latency-slo",
                              "20", "-o", dir.filePath("custom.html")},
                             kNoDisplay);
        QVERIFY2(custom.exitCode == 0 && !custom.crashed, qPrintable(custom.err));
        const QString text = QString::fromUtf8(readAll(dir.filePath("custom.html")));
        const QString used = QRegularExpression(QStringLiteral("<b>Use ([^<]+)</b>")).match(text).captured(1);
        QVERIFY2(used.contains(QStringLiteral(" · ")), qPrintable(used)); // a custom mode, readably named
        QVERIFY(!used.startsWith(QStringLiteral("c")));
        QCOMPARE(
            QRegularExpression(QStringLiteral("Top layers by time in ([^<]+)</h2>")).match(text).captured(1),
            used);
        QCOMPARE(QRegularExpression(QStringLiteral("Layer points: ([^<(]+) \\(")).match(text).captured(1),
                 used);
        QVERIFY(text.contains(QStringLiteral("<td class=l>")));              // names read from the left
        QVERIFY(!text.contains(QStringLiteral("Custom clocks would save"))); // already the grid's answer

        const test::CliResult stock =
            test::runRooftop({"report", model, "--device", "agx-orin-64gb", "--latency-slo", "20", "-o",
                              dir.filePath("stock.html")},
                             kNoDisplay);
        QVERIFY2(stock.exitCode == 0 && !stock.crashed, qPrintable(stock.err));
        const QString stockText = QString::fromUtf8(readAll(dir.filePath("stock.html")));
        QVERIFY(stockText.contains(QStringLiteral("<b>Use MODE_")));
        QVERIFY(stockText.contains(QStringLiteral("Custom clocks would save")));
        QVERIFY(stockText.contains(QStringLiteral("POWER_MODEL"))); // and how to apply it
    }

    void rejectsBadRequestsWithOneLine() {
        QTemporaryDir dir;
        const QString model = QString::fromStdString(test::samplePath("resnet18"));
        const struct {
            QStringList args;
            const char* message;
        } cases[] = {
            {{"report", model, "--device", "agx-orin-64gb", "-o", dir.filePath("r.txt")}, ".html or .pdf"},
            {{"report", model, "--device", "agx-orin-64gb"}, "needs -o"},
            {{"report", model, "-o", dir.filePath("r.pdf")}, "needs --device"},
            {{"report", model, "--device", "no-such-board", "-o", dir.filePath("r.pdf")}, "no-such-board"},
            {{"report", dir.filePath("missing.onnx"), "--device", "agx-orin-64gb", "-o",
              dir.filePath("r.pdf")},
             "missing.onnx"},
            {{"report", model, "--device", "agx-orin-64gb", "--modes", "some", "-o", dir.filePath("r.pdf")},
             "unknown mode 'some'"},
            {{"report", model, "--device", "agx-orin-64gb", "-o", dir.filePath("no/such/folder/r.pdf")},
             "r.pdf"},
        };
        for (const auto& c : cases) {
            const test::CliResult result = test::runRooftop(c.args, kNoDisplay);
            QVERIFY2(result.exitCode == 1 && !result.crashed,
                     qPrintable(c.args.join(' ') + " -> " + result.err));
            QVERIFY2(result.err.contains(QString::fromUtf8(c.message)), qPrintable(result.err));
            QCOMPARE(result.err.count(QStringLiteral("rooftop: error:")),
                     1); // one line of ours (Qt may warn too)
        }
    }

    void windowWithoutDisplayExitsUnavailable() {
        const test::CliResult result =
            test::runRooftop({QString::fromStdString(test::samplePath("resnet18"))}, kNoDisplay);
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.err.contains("no display"));
        const test::CliResult none = test::runRooftop({}, kNoDisplay);
        QCOMPARE(none.exitCode, 2);
    }

    void windowArgumentsAreChecked() {
        const test::CliResult unknown = test::runRooftop({"frobnicate"}, kNoDisplay);
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY(unknown.err.contains("unknown command 'frobnicate'"));
        const test::CliResult view = test::runRooftop({"--view", "sideways"}, kNoDisplay);
        QCOMPARE(view.exitCode, 1);
        QVERIFY(view.err.contains("--view"));
    }
};

ROOFTOP_TEST_CLASS(TestReportCli)
#include "test_report_cli.moc"
