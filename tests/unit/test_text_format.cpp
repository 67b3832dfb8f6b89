// SPDX-License-Identifier: GPL-3.0-or-later
// core/common/text_format: the one number and CSV formatting every writer uses; core/common/enum_names: the
// one table of each enum's names.
#include "core/common/decimal_text.h"
#include "core/common/enum_names.h"
#include "core/common/text_format.h"
#include "core/cost/analysis_settings.h"
#include "core/device/provenance.h"
#include "support/test_registry.h"

#include <QTest>

using namespace rooftop;

class TestTextFormat : public QObject {
    Q_OBJECT

private slots:
    void fixedKeepsEveryDecimal() {
        QCOMPARE(fixed(1.5, 3), std::string("1.500"));
        QCOMPARE(fixed(-0.125, 2), std::string("-0.12")); // printf rounding: to even on the exact half
        QCOMPARE(fixed(1e300, 0).size(), size_t(301));    // no truncation of long numbers
        // a value that rounds to zero has no sign (calibrate's residuals read -0.0000)
        QCOMPARE(fixed(-0.00001, 4), std::string("0.0000"));
        QCOMPARE(fixed(-0.4, 0), std::string("0"));
        QCOMPARE(fixed(-0.0, 2), std::string("0.00"));
        QCOMPARE(fixed(-0.006, 2), std::string("-0.01"));
        QCOMPARE(fixed(-0.004, 2), std::string("0.00"));
        // a sign before what is written: "+0.0" for a value that rounds to zero, never "-0.0"
        QCOMPARE(signedFixed(-0.03, 1), std::string("+0.0"));
        QCOMPARE(signedFixed(2.25, 1), std::string("+2.2"));
        QCOMPARE(signedFixed(-1.26, 1), std::string("-1.3"));
    }

    void generalCountsSignificantDigits() {
        QCOMPARE(general(1300.5, 6), std::string("1300.5"));
        QCOMPARE(general(0.000123456, 3), std::string("0.000123"));
        QCOMPARE(general(123456789.0, 4), std::string("1.235e+08"));
    }

    void significantKeepsItsDigitsInAColumn() {
        QCOMPARE(significant(1.56, 4), std::string("1.560"));
        QCOMPARE(significant(0.69741, 4), std::string("0.6974"));
        QCOMPARE(significant(1889.2, 4), std::string("1889")); // no point left hanging
        QCOMPARE(significant(734132.4, 4), std::string("734132"));
        QCOMPARE(significant(9999.7, 4), std::string("10000")); // not "1.000e+04"
        QCOMPARE(significant(4.04, 3), std::string("4.04"));
        QCOMPARE(significant(0.0, 3), std::string("0.00"));
    }

    void trimmedFixedDropsTrailingZeros() {
        QCOMPARE(trimmedFixed(612.0, 3), std::string("612"));
        QCOMPARE(trimmedFixed(1300.5, 3), std::string("1300.5"));
        QCOMPARE(trimmedFixed(624.75, 3), std::string("624.75"));
        QCOMPARE(trimmedFixed(100.0, 0), std::string("100")); // no point: zeros of the integer part stay
        QCOMPARE(trimmedFixed(0.0004, 3), std::string("0"));
    }

    // "1 minibatches" read as a typo
    void aCountTakesItsNounsNumber() {
        QCOMPARE(countedNoun(1, "minibatch", "minibatches"), std::string("1 minibatch"));
        QCOMPARE(countedNoun(0, "minibatch", "minibatches"), std::string("0 minibatches"));
        QCOMPARE(countedNoun(32, "sample", "samples"), std::string("32 samples"));
        QCOMPARE(gibText(int64_t{3} << 29), std::string("1.50 GiB"));
        QCOMPARE(gibText(int64_t{5} << 19), std::string("2.50 MiB"));
    }

    void mhzOfLadderClocks() {
        QCOMPARE(mhz(1300500000.0), std::string("1300.5"));
        QCOMPARE(mhz(612000000.0), std::string("612"));
        QCOMPARE(mhz(2201600.0 * 1e3), std::string("2201.6"));
        QCOMPARE(mhz(115200000.0), std::string("115.2"));
        QCOMPARE(mhz(3199000000.0), std::string("3199"));
        QCOMPARE(mhz(204000.0), std::string("0.204"));
    }

    void durationsBelowAMillisecondAreInMicroseconds() {
        QCOMPARE(duration(4.2131e-3), std::string("4.213 ms"));
        QCOMPARE(duration(1e-3), std::string("1.000 ms"));
        QCOMPARE(duration(845.24e-6), std::string("845.2 \u00b5s"));
        QCOMPARE(duration(3e-8), std::string("0.0 \u00b5s"));
        QCOMPARE(duration(12.345), std::string("12.35 s"));
        QCOMPARE(displayWidth(duration(845.24e-6)), size_t(8)); // "845.2 µs": µ is one column, two bytes
    }

    void csvFieldQuotesOnlyWhenNeeded() {
        QCOMPARE(csvField("conv1"), std::string("conv1"));
        QCOMPARE(csvField("cores=8,cpu=1"), std::string("\"cores=8,cpu=1\""));
        QCOMPARE(csvField("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
        QCOMPARE(csvField("two\nlines"), std::string("\"two\nlines\""));
        QCOMPARE(csvField("cr\r"), std::string("\"cr\r\""));
        QCOMPARE(csvField(""), std::string(""));
    }

    void enumNamesRoundTripAndRefuseTheUnknown() {
        enum class Colour { Red, Green, Blue };
        const EnumName<Colour> colours[] = {
            {Colour::Red, "red"}, {Colour::Green, "green"}, {Colour::Blue, "blue"}};
        QCOMPARE(std::string(nameIn(colours, Colour::Blue)), std::string("blue"));
        QCOMPARE(int(*parseIn(colours, "green")), int(Colour::Green));
        QVERIFY(!parseIn(colours, "Green"));
        QVERIFY(!parseIn(colours, ""));
        QVERIFY(!parseIn(colours, std::string_view("redx", 4)));
        QCOMPARE(int(*parseIn(colours, std::string_view("redx", 3))), int(Colour::Red));
        QCOMPARE(namesIn(colours), std::string("red, green or blue"));
        QCOMPARE(std::string(nameIn(colours, static_cast<Colour>(7))),
                 std::string("red")); // the first: a default
        for (Phase phase : {Phase::Inference, Phase::Training})
            QCOMPARE(int(*parsePhase(phaseName(phase))), int(phase));
        for (Optimizer o : {Optimizer::Sgd, Optimizer::Momentum, Optimizer::Adam})
            QCOMPARE(int(*parseOptimizer(optimizerName(o))), int(o));
        for (Provenance p : {Provenance::Datasheet, Provenance::Estimate, Provenance::Measured,
                             Provenance::Fitted, Provenance::Predicted})
            QCOMPARE(int(*parseProvenance(provenanceName(p))), int(p));
        QVERIFY(!parseProvenance("guessed"));
    }

    void parsedOrThrowsTheGivenLine() {
        QCOMPARE(parsedOr(std::optional<int>(3), "unused"), 3);
        try {
            parsedOr(std::optional<int>(), "--x must be a or b, got 'c'");
            QFAIL("no error");
        } catch (const InputError& error) {
            QCOMPARE(std::string(error.what()), std::string("--x must be a or b, got 'c'"));
        }
    }

    // one integer reading for every option (--batch, --seed, --dim NAME=V, --context-sweep A:B)
    void integersAreWholeDecimalText() {
        QCOMPARE(readInteger("12"), std::optional<int64_t>(12));
        QCOMPARE(readInteger("-3"), std::optional<int64_t>(-3));
        QCOMPARE(readInteger("+4"), std::optional<int64_t>(4));
        QCOMPARE(readInteger("9223372036854775807"), std::optional<int64_t>(INT64_MAX));
        for (const char* refused : {"", "-", "+", " 4", "4 ", "0x10", "1e3", "4.0", "4a", "--4",
                                    "9223372036854775808", "-9223372036854775809"})
            QVERIFY2(!readInteger(refused), refused);
    }
};

ROOFTOP_TEST_CLASS(TestTextFormat)
#include "test_text_format.moc"
