// SPDX-License-Identifier: GPL-3.0-or-later
// core/onnx/batch_list: the one parser of batch-size lists (--batch, --inference-batch, the window's fields).
#include "core/common/errors.h"
#include "core/onnx/batch_list.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QTest>

using namespace rooftop;

namespace {

using Batches = std::vector<int64_t>;

/// The message parseBatchList throws for `text`; empty when it parses.
QString errorFor(const std::string& text) {
    return test::errorOf([&] { parseBatchList(text, "--batch"); });
}

} // namespace

class TestBatchList : public QObject {
    Q_OBJECT

private slots:
    void listsKeepTheirOrder() {
        QCOMPARE(parseBatchList("8", "--batch"), Batches({8}));
        QCOMPARE(parseBatchList("16,1,4", "--batch"), Batches({16, 1, 4}));
        QCOMPARE(parseBatchList("1099511627776", "--batch"),
                 Batches({int64_t{1} << 40})); // 2^40, the largest
        QCOMPARE(parseBatchList("+2", "--batch"), Batches({2}));
        QCOMPARE(parseBatchList("007", "--batch"), Batches({7}));
    }

    void duplicatesAreDroppedTheFirstKept() {
        QCOMPARE(parseBatchList("4,1,4,2,1", "--batch"), Batches({4, 1, 2}));
        QCOMPARE(parseBatchList("2,02", "--batch"), Batches({2}));
    }

    void spacesAroundItemsAreAllowed() {
        QCOMPARE(parseBatchList(" 1, 4 ,16 ", "--batch"), Batches({1, 4, 16}));
        QCOMPARE(parseBatchList("\t2", "--batch"), Batches({2}));
        QCOMPARE(errorFor("1 6"), QString("--batch expects whole numbers of inputs per batch, such as 8 or "
                                          "1,4,16; got '1 6'"));
    }

    void emptyListsAndItemsAreRefused() {
        QCOMPARE(errorFor(""),
                 QString("--batch expects one batch size or more, such as 8 or 1,4,16; got nothing"));
        QCOMPARE(errorFor("  "), errorFor(""));
        QCOMPARE(errorFor("1,,2"),
                 QString("--batch has an empty item in '1,,2' (two commas, or one at an end)"));
        QCOMPARE(errorFor("4,"), QString("--batch has an empty item in '4,' (two commas, or one at an end)"));
        QCOMPARE(errorFor(",4"), QString("--batch has an empty item in ',4' (two commas, or one at an end)"));
        QCOMPARE(errorFor("1, ,2"),
                 QString("--batch has an empty item in '1, ,2' (two commas, or one at an end)"));
        QCOMPARE(errorFor(","), QString("--batch has an empty item in ',' (two commas, or one at an end)"));
    }

    void sizesBelowOneAreRefused() {
        QCOMPARE(errorFor("0"),
                 QString("--batch must be at least 1 (a batch holds one input or more), got '0'"));
        QCOMPARE(errorFor("-1"),
                 QString("--batch must be at least 1 (a batch holds one input or more), got '-1'"));
        QCOMPARE(errorFor("1,0,4"),
                 QString("--batch must be at least 1 (a batch holds one input or more), got '0' in '1,0,4'"));
        QCOMPARE(errorFor("-0"),
                 QString("--batch must be at least 1 (a batch holds one input or more), got '-0'"));
        QCOMPARE(errorFor("1, -99999999999999999999"),
                 QString("--batch must be at least 1 (a batch holds one input or more), got "
                         "'-99999999999999999999' in '1, -99999999999999999999'"));
    }

    void sizesAbove2To40AreRefused() {
        QCOMPARE(errorFor("1099511627777"),
                 QString("--batch must be at most 2^40 (about 1.1 trillion inputs), got '1099511627777'"));
        QCOMPARE(errorFor("99999999999999999999999999"), // beyond int64: still "too large", not an overflow
                 QString("--batch must be at most 2^40 (about 1.1 trillion inputs), got "
                         "'99999999999999999999999999'"));
    }

    void anythingButAWholeNumberIsRefused() {
        const QString expects =
            "--batch expects whole numbers of inputs per batch, such as 8 or 1,4,16; got ";
        QCOMPARE(errorFor("2^41"), expects + "'2^41'");
        QCOMPARE(errorFor("1,a"), expects + "'a' in '1,a'");
        QCOMPARE(errorFor("1.5"), expects + "'1.5'");
        QCOMPARE(errorFor("1e3"), expects + "'1e3'");
        QCOMPARE(errorFor("0x10"), expects + "'0x10'");
        QCOMPARE(errorFor("-"), expects + "'-'");
        QCOMPARE(errorFor("+-2"), expects + "'+-2'");
        QCOMPARE(errorFor("1;2"), expects + "'1;2'");
        QCOMPARE(errorFor("\xef\xbc\x98"), expects + "'\xef\xbc\x98'"); // a full-width 8 is no ASCII digit
    }

    void theMessageNamesTheInput() {
        QVERIFY_THROWS_EXCEPTION(InputError, parseBatchList("0", "--inference-batch"));
        QCOMPARE(test::errorOf([] { parseBatchList("2,x", "Batch sizes"); }),
                 QString("Batch sizes expects whole numbers of inputs per batch, such as 8 or 1,4,16; got "
                         "'x' in '2,x'"));
    }

    void oneSize() {
        QCOMPARE(parseBatchSize("32", "--batch"), int64_t(32));
        QCOMPARE(parseBatchSize(" 32 ", "--batch"), int64_t(32));
        QVERIFY_THROWS_EXCEPTION(InputError, parseBatchSize("1,2", "--batch"));
        QVERIFY_THROWS_EXCEPTION(InputError, parseBatchSize("", "--batch"));
    }
};

ROOFTOP_TEST_CLASS(TestBatchList)
#include "test_batch_list.moc"
