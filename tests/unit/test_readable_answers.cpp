// SPDX-License-Identifier: GPL-3.0-or-later
// What a person reads beside a number and after a typo: a prediction's bounds in the number's own unit, and
// the option a mistyped one meant (only options the command takes).
#include "cli/unknown_option.h"
#include "core/advisor/advisor.h"
#include "core/common/text_format.h"
#include "core/report/prediction_bounds.h"
#include "models/recommendation_text.h"
#include "support/test_registry.h"

#include <QTest>

using namespace rooftop;
using namespace rooftop::cli;

namespace {

const char* const help = "Usage: rooftop sample MODEL.onnx --device ID [--latency-slo MS] [options]\n"
                         "Prose that mentions --predictor and --save, another command's and tool's.\n"
                         "\n"
                         "  --device ID               board id\n"
                         "  --llama-bench FILE --mode MODE\n"
                         "                            a decoder; see --grid in the prose\n"
                         "  --quick                   fewer samples\n"
                         "  -o, --output FILE         write the result to FILE\n";

} // namespace

class TestReadableAnswers : public QObject {
    Q_OBJECT

private slots:
    void numbersKeepAboutThreeDigitsWithoutExponents() {
        QCOMPARE(boundsCsv(5.0e-3, 0.45, 1e3), std::string(",2.80875046,8.90075511"));
        QCOMPARE(boundsCsv(5.0e-3, 0.0, 1e3), std::string(",,"));    // no spread: no bounds, not [5, 5]
        QCOMPARE(boundsText(5.0e-3, 0.45, 1e3, 0.5), std::string()); // both bounds the value itself
        QCOMPARE(boundsText(5.0e-3, 0.45, 1e3, 0.8), std::string("[3.42–7.30]"));
        QCOMPARE(compactNumber(0.2207), std::string("0.221"));
        QCOMPARE(compactNumber(23.0), std::string("23.0"));
        QCOMPARE(compactNumber(1610.4), std::string("1610"));
        QCOMPARE(compactNumber(12100.0), std::string("12100"));
        QCOMPARE(compactNumber(0.0), std::string("0"));
    }

    // duration() writes 392.9 µs, 3820.793 ms and 21.45 s: the bounds beside them are in the same unit
    void latencyBoundsAreInTheValuesUnit() {
        const double s = 0.45; // the prior's time spread: x/ 1.780 at 90 %
        QCOMPARE(durationWithBounds(392.9e-6, s), std::string("392.9 µs [221–699]"));
        QCOMPARE(durationWithBounds(3.820793, s), std::string("3820.793 ms [2146–6802]"));
        QCOMPARE(durationWithBounds(21.45, s), std::string("21.45 s [12.0–38.2]"));
        QCOMPARE(durationWithBounds(21.45, 0.0), std::string("21.45 s")); // no spread: no bounds, no space
        QCOMPARE(withBounds("23.20", 23.2, 0.0, 1.0), std::string("23.20"));
        QCOMPARE(durationScale(392.9e-6), 1e6);
        QCOMPARE(durationScale(3.82), 1e3);
        QCOMPARE(durationScale(21.45), 1.0);
    }

    // The window's card names the close calls by their readable clocks, with their difference and the error
    void theCardNamesTheCloseCalls() {
        const auto candidate = [](const char* name, double joules) {
            Candidate c;
            c.profile.mode.name = name;
            c.profile.mode.stock = true;
            c.summary.latencySeconds = 1e-3;
            c.summary.energyJoules = joules;
            c.summary.averageWatts = joules / 1e-3;
            c.summary.spread = {0.04, 0.04, 0.05};
            return c;
        };
        const std::vector<Candidate> cs{candidate("MAXN", 0.0209), candidate("MODE_50W", 0.0200),
                                        candidate("MODE_30W", 0.0230)};
        Recommendation r = decide(cs, cs[0], {}, Objective::Energy);
        QCOMPARE(
            models::closeCallHtml(r, Objective::Energy),
            QStringLiteral("MAXN (+4.5 %) lies within its 5.0 % error (1 sigma) of its energy per inference: "
                           "profile them to tell which (Device → Profile this model)"));
        // many: their count and the nearest, for a search
        Recommendation many = r;
        many.closeCalls = {0, 0, 0, 0};
        QCOMPARE(
            models::closeCallHtml(many, Objective::Energy),
            QStringLiteral("4 other candidates lie within its 5.0 % error (1 sigma) of its energy per "
                           "inference, the nearest MAXN (+4.5 %): tune to tell which (Device → Tune this "
                           "model)"));
        r.training = true;
        QVERIFY(models::closeCallHtml(r, Objective::Energy).contains("energy per sample"));
        r.closeCalls.clear();
        QVERIFY(models::closeCallHtml(r, Objective::Energy).isEmpty());
    }

    void theHelpsOptionsAreItsUsageAndOptionColumn() {
        const std::vector<std::string> options = optionsInHelp(help);
        for (const char* taken : {"--device", "--latency-slo", "--llama-bench", "--mode", "--quick", "-o",
                                  "--output", "--help", "-h"})
            QVERIFY2(std::find(options.begin(), options.end(), taken) != options.end(), taken);
        for (const char* prose : {"--predictor", "--save", "--grid"})
            QVERIFY2(std::find(options.begin(), options.end(), prose) == options.end(), prose);
    }

    void aTypoNamesTheOptionMeant() {
        const std::vector<std::string> options = optionsInHelp(help);
        QCOMPARE(nearestOption("--devce", options), std::string("--device"));
        QCOMPARE(nearestOption("--DEVICE", options), std::string("--device"));
        QCOMPARE(nearestOption("--lateny-slo", options), std::string("--latency-slo"));
        QCOMPARE(nearestOption("--quik", options), std::string("--quick"));
        QCOMPARE(nearestOption("--hlep", options), std::string("--help"));
        QCOMPARE(nearestOption("--lat", options), std::string("--latency-slo")); // the only one it begins
        QCOMPARE(nearestOption("--device", options), std::string());             // known
        QCOMPARE(nearestOption("-x", options), std::string());          // every one-letter option is as near
        QCOMPARE(nearestOption("--predictor", options), std::string()); // prose, not an option here
        QCOMPARE(nearestOption("--frobnicate", options), std::string());
        const std::string line = unknownOption("sample", "--devce", help).what();
        QCOMPARE(line,
                 std::string("sample: unknown option '--devce' (did you mean --device? rooftop sample --help "
                             "lists them)"));
    }
};

ROOFTOP_TEST_CLASS(TestReadableAnswers)
#include "test_readable_answers.moc"
