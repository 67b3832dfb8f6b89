// SPDX-License-Identifier: GPL-3.0-or-later
// The commands of rooftop_cli called in this process (no binary spawned): output, writers and exit codes.
#include "cli/command_line.h"
#include "cli/commands.h"
#include "core/common/option_text.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <QTest>
#include <iostream>
#include <optional>
#include <sstream>

using namespace rooftop;

namespace {

struct Captured {
    int exitCode = -1;
    std::string out, err;
};

// Runs a command with std::cout and std::cerr redirected into strings.
Captured run(const std::string& command, const std::vector<std::string>& args) {
    std::ostringstream out, err;
    std::streambuf* oldOut = std::cout.rdbuf(out.rdbuf());
    std::streambuf* oldErr = std::cerr.rdbuf(err.rdbuf());
    Captured result;
    result.exitCode = cli::runCommand(command, args);
    std::cout.rdbuf(oldOut);
    std::cerr.rdbuf(oldErr);
    result.out = out.str();
    result.err = err.str();
    return result;
}

int lineCount(const std::string& text) {
    return static_cast<int>(QString::fromStdString(text).count('\n'));
}

} // namespace

class TestCliInProcess : public QObject {
    Q_OBJECT

private slots:
    void modesCsvHasOneLinePerStockMode() {
        const Captured r = run("modes", {"--device", "agx-orin-64gb", "--format", "csv"});
        QCOMPARE(r.exitCode, int(cli::ExitOk));
        QCOMPARE(lineCount(r.out), 1 + 4); // header + MAXN, MODE_15W, MODE_30W, MODE_50W
        // the columns have the names of the runs file and the JSON: clocks in kHz and Hz as nvpmodel writes
        // them
        QVERIFY(r.out.rfind(
                    "device,stock_id,mode,stock,default,cores,cpu_khz,gpu_hz,emc_hz,active_tpcs,budget_w,",
                    0) == 0);
        QVERIFY(r.out.find("\nagx-orin-64gb,0,MAXN,1,") != std::string::npos);
        QVERIFY(r.out.find(",2201600,1300500000,3199000000,") != std::string::npos); // MAXN's clocks
        QVERIFY(r.err.empty());
    }

    void rooflineJsonHasTheModesOfTheModeSet() {
        const Captured r = run("roofline", {test::samplePath("resnet18"), "--device", "agx-orin-64gb",
                                            "--mode", "MAXN;MODE_15W", "--format", "json"});
        QCOMPARE(r.exitCode, int(cli::ExitOk));
        const QJsonObject root = QJsonDocument::fromJson(QByteArray::fromStdString(r.out)).object();
        QCOMPARE(root.value("schema").toString(), QStringLiteral("rooftop-roofline/4"));
        const QJsonArray modes = root.value("modes").toArray();
        QCOMPARE(modes.size(), 2);
        QCOMPARE(modes.at(0).toObject().value("mode").toString(), QStringLiteral("MAXN"));
        QCOMPARE(modes.at(1).toObject().value("layers").toArray().size(), 49); // ResNet-18's layers
    }

    void recommendOverTwoBatchSizes() {
        const Captured r = run("recommend", {test::samplePath("resnet18"), "--device", "agx-orin-64gb",
                                             "--batch", "1,4", "--format", "json"});
        QCOMPARE(r.exitCode, int(cli::ExitOk));
        const QJsonObject root = QJsonDocument::fromJson(QByteArray::fromStdString(r.out)).object();
        QCOMPARE(root.value("modes").toArray().size(), 8); // 4 stock modes x 2 batch sizes
    }

    // --option=value is --option value, the value whole after the first '=' (splitOption, the window's too)
    void anAttachedValueIsTheSameOption() {
        const Captured spaced =
            run("recommend", {test::samplePath("resnet18"), "--device", "agx-orin-64gb", "--batch", "1,4",
                              "--latency-slo", "5", "--format", "json"});
        const Captured attached = run("recommend", {test::samplePath("resnet18"), "--device=agx-orin-64gb",
                                                    "--batch=1,4", "--latency-slo=5", "--format=json"});
        QCOMPARE(attached.exitCode, int(cli::ExitOk));
        QCOMPARE(attached.out, spaced.out);
        const Captured twice =
            run("recommend", {test::samplePath("resnet18"), "--device=agx-orin-64gb", "--device", "nano"});
        QCOMPARE(twice.exitCode, int(cli::ExitBadInput));
        QVERIFY2(twice.err.find("--device is given twice") != std::string::npos, twice.err.c_str());
        // a flag given a value is refused, wherever it stands, rather than read as the flag alone
        for (const std::vector<std::string>& flagged :
             {std::vector<std::string>{"--no-switch=no", test::samplePath("resnet18"),
                                       "--device=agx-orin-64gb"},
              std::vector<std::string>{test::samplePath("resnet18"), "--no-switch=no",
                                       "--device=agx-orin-64gb"},
              std::vector<std::string>{test::samplePath("resnet18"), "--device=agx-orin-64gb",
                                       "--no-switch=no"}}) {
            const Captured r = run("profile", flagged);
            QCOMPARE(r.exitCode, int(cli::ExitBadInput));
            QVERIFY2(r.err.find("--no-switch takes no value") != std::string::npos, r.err.c_str());
        }
        QCOMPARE(splitOption("--dim=sequence=128").attached, std::optional<std::string>("sequence=128"));
        QCOMPARE(splitOption("--dim=").attached, std::optional<std::string>(""));
        QVERIFY(!splitOption("-o=x").attached); // a short option is taken whole
        QVERIFY(!splitOption("a=b.onnx").attached);
    }

    void badInputIsOneLineAndExitOne() {
        const Captured r =
            run("roofline", {test::samplePath("resnet18"), "--device", "agx-orin-64gb", "--mode", "fastest"});
        QCOMPARE(r.exitCode, int(cli::ExitBadInput));
        QVERIFY(r.out.empty());
        QCOMPARE(lineCount(r.err), 1);
        QVERIFY2(r.err.find("rooftop: error: unknown mode 'fastest'") == 0, r.err.c_str());
        QCOMPARE(run("devices", {"--format", "xml"}).exitCode, int(cli::ExitBadInput));
        QCOMPARE(run("no-such-command", {}).exitCode, int(cli::ExitBadInput));
    }

    void gridAndCustomModes() {
        const Captured both = run("modes", {"--device", "agx-orin-64gb", "--grid", "--custom",
                                            "cores=8,cpu=1728000,gpu=612000000,"
                                            "emc=3199000000"});
        QCOMPARE(both.exitCode, int(cli::ExitBadInput));
        const Captured grid = run("modes", {"--device", "agx-orin-64gb", "--grid", "--format", "csv"});
        QCOMPARE(grid.exitCode, int(cli::ExitOk));
        QCOMPARE(lineCount(grid.out), 1 + 4368);
    }
};

ROOFTOP_TEST_CLASS(TestCliInProcess)
#include "test_cli_in_process.moc"
