// SPDX-License-Identifier: GPL-3.0-or-later
// The dims column of a runs file and ROOFTOP_DIMS: one canonical text, read back exactly, and every malformed
// entry refused with the field named.
#include "core/common/errors.h"
#include "core/measure/run_config.h"
#include "core/onnx/dim_binding.h"
#include "core/onnx/dim_text.h"
#include "support/test_registry.h"

#include <QtTest>

using namespace rooftop;

class DimText : public QObject {
    Q_OBJECT
private slots:
    void canonicalAndBack() {
        const std::map<std::string, int64_t> dims = {
            {"sequence", 128}, {"past_sequence_length", 0}, {"b", 1}};
        const std::string text = namedDimsText(dims);
        QCOMPARE(text, std::string("b=1;past_sequence_length=0;sequence=128"));
        QVERIFY(parseNamedDimsText(text, "dims") == dims);
        QCOMPARE(namedDimsText({}), std::string());
        QVERIFY(parseNamedDimsText("", "dims").empty());
        QCOMPARE(describeNamedDims(dims), std::string("b=1, past_sequence_length=0, sequence=128"));
        QCOMPARE(describeNamedDims({}), std::string("the model's own dims"));
    }

    void malformedIsRefused_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("part");
        QTest::newRow("no value") << "sequence="
                                  << "NAME=VALUE";
        QTest::newRow("no name") << "=128"
                                 << "NAME=VALUE";
        QTest::newRow("no equals") << "sequence"
                                   << "NAME=VALUE";
        QTest::newRow("empty entry") << "a=1;;b=2"
                                     << "NAME=VALUE";
        QTest::newRow("trailing separator") << "a=1;"
                                            << "';'";
        QTest::newRow("comma") << "a=1,b=2"
                               << "NAME=VALUE";
        QTest::newRow("space") << "a= 1"
                               << "NAME=VALUE";
        QTest::newRow("negative") << "a=-1"
                                  << "from 0 to 2^40";
        QTest::newRow("plus sign") << "a=+1"
                                   << "from 0 to 2^40";
        QTest::newRow("too large") << "a=1099511627777"
                                   << "from 0 to 2^40";
        QTest::newRow("overflow") << "a=99999999999999999999999"
                                  << "from 0 to 2^40";
        QTest::newRow("not a number") << "a=1x"
                                      << "from 0 to 2^40";
        QTest::newRow("twice") << "a=1;a=2"
                               << "given twice";
    }

    void malformedIsRefused() {
        QFETCH(QString, text);
        QFETCH(QString, part);
        try {
            parseNamedDimsText(text.toStdString(), "runs.csv:2: field 'dims'");
            QFAIL("accepted");
        } catch (const InputError& error) {
            const QString message = QString::fromStdString(error.what());
            QVERIFY2(message.startsWith("runs.csv:2: field 'dims'") && message.contains(part),
                     qPrintable(message));
        }
    }

    // the window's Dims field and the precision fields read through core, as the CLI does
    void fieldsOfSeveralEntries() {
        DimBindings bindings;
        parseDimList(" sequence=128,past=16;  heads=12 ", bindings, "Dims");
        QCOMPARE(bindings.named.size(), size_t(3));
        QCOMPARE(bindings.named.at("sequence"), int64_t(128));
        QCOMPARE(bindings.named.at("past"), int64_t(16));
        QCOMPARE(bindings.named.at("heads"), int64_t(12));
        DimBindings none;
        parseDimList("  ", none, "Dims");
        QVERIFY(none.named.empty());
        for (const char* bad : {"sequence", "sequence=", "=4", "sequence=x", "sequence=-1"}) {
            DimBindings refused;
            try {
                parseDimList(std::string("past=16, ") + bad, refused, "Dims");
                QFAIL(bad);
            } catch (const InputError& error) {
                QVERIFY2(QString::fromUtf8(error.what()).startsWith("Dims"), error.what());
            }
        }
        const std::vector<Precision> precisions = parseRunPrecisionList(" FP16, int8 ", "Precisions");
        QCOMPARE(precisions, (std::vector<Precision>{Precision::FP16, Precision::INT8}));
        for (const char* bad : {"", "fp16,", "fp64", "as-model", "f p16"})
            QVERIFY_THROWS_EXCEPTION(InputError, parseRunPrecisionList(bad, "Precisions"));
    }
};

ROOFTOP_TEST_CLASS(DimText)
#include "test_dim_text.moc"
