// SPDX-License-Identifier: GPL-3.0-or-later
// nvpmodel.conf parsing: the fixture confs (AGX Orin, Orin Nano, Xavier NX, TX2) and adversarial text;
// /var/lib/nvpmodel/status parsing.
#include "core/common/errors.h"
#include "core/platform/nvpmodel_conf.h"
#include "core/platform/sysfs_root.h"
#include "support/test_registry.h"

#include <QtTest>

using namespace rooftop;

namespace {

NvpmodelConf fixtureConf(const char* board) {
    const SysfsRoot root(std::string(ROOFTOP_TEST_FIXTURES_DIR "/jetson/") + board);
    return parseNvpmodelConf(root.read("etc/nvpmodel.conf").value());
}

QString errorOf(const std::string& text) {
    try {
        parseNvpmodelConf(text);
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

} // namespace

class PlatformNvpmodel : public QObject {
    Q_OBJECT
private slots:
    void agxOrinConf() {
        const NvpmodelConf conf = fixtureConf("agx-orin-jp6");
        QCOMPARE(conf.defaultId, 2);
        QCOMPARE(int(conf.modes.size()), 4);
        QCOMPARE(int(conf.params.size()), 6); // "<PARAM ..." without the space after '<' included
        QCOMPARE(QString::fromStdString(conf.params.back().name), QString("EMC"));
        const NvpmodelMode* m15 = conf.mode(1);
        QVERIFY(m15);
        QCOMPARE(QString::fromStdString(m15->name), QString("MODE_15W"));
        QCOMPARE(m15->onlineCores(), 4);
        QCOMPARE(m15->tpcPgMask(), 248);
        QCOMPARE(m15->integer("GPU", "MAX_FREQ"), std::optional<int64_t>(408000000));
        QCOMPARE(m15->integer("CPU_A78_0", "MAX_FREQ"), std::optional<int64_t>(1113600));
        QCOMPARE(conf.mode(0)->integer("GPU", "MAX_FREQ"), std::optional<int64_t>(-1));
        QCOMPARE(conf.mode(0)->onlineCores(), 12);
        QVERIFY(!conf.mode(4));
        QVERIFY(!m15->integer("GPU", "NOPE"));
    }

    void otherBoards() {
        const NvpmodelConf nano = fixtureConf("orin-nano-jp6");
        QCOMPARE(nano.defaultId, 0);
        QCOMPARE(nano.mode(1)->onlineCores(), 4);
        QCOMPARE(nano.mode(1)->tpcPgMask(), 252);
        const NvpmodelConf xnx = fixtureConf("xavier-nx-jp5");
        QCOMPARE(xnx.defaultId, 5);
        QCOMPARE(int(xnx.modes.size()), 2);
        QCOMPARE(xnx.mode(5)->integer("GPU", "MAX_FREQ"), std::optional<int64_t>(510000000));
        const NvpmodelConf tx2 = fixtureConf("tx2-jp4");
        // TX2 never lists CORE_0: it counts as online
        QCOMPARE(tx2.mode(3)->onlineCores(), 4);
        QCOMPARE(tx2.mode(0)->onlineCores(), 6);
        QCOMPARE(tx2.mode(0)->tpcPgMask(), -1);
    }

    void tolerantSpacingAndComments() {
        const NvpmodelConf conf =
            parseNvpmodelConf("# head\n\n<POWER_MODEL ID=7 NAME=X>\r\n  GPU MAX_FREQ 5 # c\n"
                              "<PM_CONFIG DEFAULT=7>\n< FAN_CONFIG NAME=cool >\nFAN x y\n");
        QCOMPARE(conf.defaultId, 7);
        QCOMPARE(conf.mode(7)->integer("GPU", "MAX_FREQ"), std::optional<int64_t>(5));
        QVERIFY(parseNvpmodelConf("").modes.empty());
    }

    void adversarial_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("unclosed header") << "< POWER_MODEL ID=0 NAME=A\n"
                                         << "line 1: header without a closing '>'";
        QTest::newRow("empty header") << "<>\n"
                                      << "line 1: empty header";
        QTest::newRow("no id") << "< POWER_MODEL NAME=A >\n"
                               << "line 1: POWER_MODEL without ID";
        QTest::newRow("negative id") << "< POWER_MODEL ID=-1 >\n"
                                     << "line 1: POWER_MODEL ID '-1' is not a mode number";
        QTest::newRow("huge id") << "< POWER_MODEL ID=99999999999999999999 >\n"
                                 << "is not a mode number";
        QTest::newRow("duplicate") << "< POWER_MODEL ID=1 >\n< POWER_MODEL ID=1 >\n"
                                   << "line 2: duplicate POWER_MODEL ID 1";
        QTest::newRow("outside") << "GPU MAX_FREQ 1\n"
                                 << "line 1: setting outside any block";
        QTest::newRow("short setting") << "< POWER_MODEL ID=1 >\nGPU MAX_FREQ\n"
                                       << "line 2: expected PARAM ARG VALUE";
        QTest::newRow("bad attribute") << "< PARAM TYPE=FILE NAME >\n"
                                       << "expected KEY=VALUE";
        QTest::newRow("bad default") << "< PM_CONFIG DEFAULT=abc >\n"
                                     << "PM_CONFIG DEFAULT is not a mode number";
        QTest::newRow("param without name") << "< PARAM TYPE=FILE >\n"
                                            << "PARAM without NAME";
        QTest::newRow("binary") << QString::fromLatin1("< POWER_MODEL ID=\x01\x02 >\n")
                                << "is not a mode number";
    }
    void adversarial() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QString error = errorOf(text.toStdString());
        QVERIFY2(error.startsWith("nvpmodel.conf line ") && error.contains(message), qPrintable(error));
        QVERIFY(!error.contains('\n'));
    }

    void limits() {
        std::string many;
        for (int i = 0; i <= 256; ++i)
            many += "< POWER_MODEL ID=" + std::to_string(i) + " >\n";
        QVERIFY(errorOf(many).contains("more than 256 power modes"));
        QVERIFY(errorOf(std::string((1 << 20) + 1, '#')).contains("larger than 1 MiB"));
    }

    void statusFile() {
        QCOMPARE(parseNvpmodelStatus("pmode:0002 fmode:quiet\n"), std::optional<int>(2));
        QCOMPARE(parseNvpmodelStatus("pmode:0000"), std::optional<int>(0));
        QCOMPARE(parseNvpmodelStatus("pmode:12"), std::optional<int>(12));
        QVERIFY(!parseNvpmodelStatus("pmode:"));
        QVERIFY(!parseNvpmodelStatus("mode:1"));
        QVERIFY(!parseNvpmodelStatus(""));
        QCOMPARE(parseNvpmodelStatus("pmode:99999999999"),
                 std::optional<int>(999999)); // at most 6 digits read
    }
};

ROOFTOP_TEST_CLASS(PlatformNvpmodel)
#include "test_platform_nvpmodel.moc"
