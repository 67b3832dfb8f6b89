// SPDX-License-Identifier: GPL-3.0-or-later
// The LLM view (View → LLM view…, opened with a decoder): the advisor's pick, the memory bar, the decode step
// on the roofline, TPOT against context and tokens/J against tokens/s, each checked against the core's
// answer; a bad field and an unmeetable limit answer in words.
#include "core/device/catalog.h"
#include "core/llm/llm_pass.h"
#include "core/session/analysis_session.h"
#include "gui/llm_window.h"
#include "gui/memory_bar.h"
#include "plots/llm_context_plot.h"
#include "plots/llm_efficiency_plot.h"
#include "plots/roofline_plot.h"
#include "support/llm_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace rooftop;
using namespace rooftop::gui;
using namespace rooftop::test;

namespace {

QString writeDecoder(const QTemporaryDir& dir, const LlmShape& shape) {
    const QString path = dir.filePath("decoder.onnx");
    writeModel(makeLlmDecoder(shape, LlmExport::GenAi), path.toStdString());
    return path;
}

} // namespace

class TestLlmWindow : public QObject {
    Q_OBJECT

private slots:
    void theViewShowsTheAdvisorsPick() {
        QTemporaryDir dir;
        const QString model = writeDecoder(dir, qwen25_05b());
        QVERIFY(isLlmDecoder(model.toStdString()));
        QVERIFY(!isLlmDecoder(samplePath("resnet18")));
        LlmWindow w;
        w.setBoards({resolveDevice("agx-orin-64gb")});
        w.setModel(model, "agx-orin-64gb");
        QSignalSpy done(&w, &LlmWindow::finished);
        QVERIFY(w.analyse());
        QVERIFY(done.wait(60000));
        const LlmAdvice* advice = w.advice();
        QVERIFY2(advice, qPrintable(w.summaryText()));
        const LlmRecommendation& r = advice->recommendation;
        QCOMPARE(int(advice->results.size()), 3); // batches 1, 2 and 4
        QCOMPARE(int(r.options.size()), 12);      // x 4 stock modes
        QVERIFY(r.pick.has_value());
        const LlmOption& pick = r.options[*r.pick];
        QVERIFY2(w.summaryText().contains(QString("at batch %1").arg(pick.batch)),
                 qPrintable(w.summaryText()));
        // the pick carries its own error on the plot: bars over its 90 % bounds, both axes
        QList<QCPErrorBars*> bars;
        for (int i = 0; i < w.efficiencyPlot()->plottableCount(); ++i)
            if (auto* b = qobject_cast<QCPErrorBars*>(w.efficiencyPlot()->plottable(i))) bars << b;
        QCOMPARE(bars.size(), 2);
        const LlmOptionBounds pickBounds = llmOptionBounds(*advice, *r.pick);
        for (QCPErrorBars* b : bars) {
            const bool energy = b->errorType() == QCPErrorBars::etValueError;
            const Interval& i = energy ? pickBounds.tokensPerJoule : pickBounds.tokensPerSecond;
            const double at = energy ? pick.answer->tokensPerJoule : pick.answer->decodeTokensPerSecond;
            QVERIFY(i.low < at && at < i.high);
            QCOMPARE(b->data()->at(0).errorMinus, at - i.low);
            QCOMPARE(b->data()->at(0).errorPlus, i.high - at);
        }
        // the window's headline and reasons are the command's, word for word
        QVERIFY2(w.summaryText().startsWith("<b>" + QString::fromStdString(llmRecommendationHeadline(r))),
                 qPrintable(w.summaryText()));
        for (const std::string& reason : r.reasons)
            QVERIFY2(w.summaryText().contains(QString::fromStdString(reason).toHtmlEscaped()),
                     reason.c_str());

        QCOMPARE(w.efficiencyPlot()->pointCount(), 12);
        QCOMPARE(w.efficiencyPlot()->frontSize(), int(r.front.size()));
        QVERIFY(w.efficiencyPlot()->pickPoint().has_value());
        QCOMPARE(w.efficiencyPlot()->pickPoint()->x(), pick.answer->decodeTokensPerSecond);
        QCOMPARE(w.efficiencyPlot()->pickPoint()->y(), pick.answer->tokensPerJoule);
        // the axes keep to the configurations, every one in view; the interval reaches at most half their
        // span past them, and its legend says when it goes on
        double least = INFINITY, most = 0;
        for (const LlmOption& o : r.options) {
            QVERIFY(w.efficiencyPlot()->yAxis->range().contains(o.answer->tokensPerJoule));
            QVERIFY(w.efficiencyPlot()->xAxis->range().contains(o.answer->decodeTokensPerSecond));
            least = std::min(least, o.answer->tokensPerJoule);
            most = std::max(most, o.answer->tokensPerJoule);
        }
        const double reach = 0.5 * std::max(most - least, most * 0.1);
        const QCPRange shownY = w.efficiencyPlot()->yAxis->range();
        const double reached = std::max(most, std::min(pickBounds.tokensPerJoule.high, most + reach));
        QVERIFY2(shownY.upper <= reached + 0.4 * shownY.size(),
                 qPrintable(QStringLiteral("%1 over %2").arg(shownY.upper).arg(reached)));
        if (pickBounds.tokensPerJoule.high > most + reach || pickBounds.tokensPerJoule.low < least - reach)
            QVERIFY(w.efficiencyPlot()->intervalCut());
        QCOMPARE(bars.front()->name().contains(QStringLiteral("goes on past the edge")),
                 w.efficiencyPlot()->intervalCut());

        const QStringList drawn = w.contextPlot()->modesDrawn();
        QCOMPARE(drawn, QStringList({"MAXN", "MODE_15W", "MODE_30W", "MODE_50W"}));

        // the roofline shows the decode step at the chosen context (the generation's last: 128 + 128)
        QVERIFY(w.roofline()->layerPointCount() > 0);
        QVERIFY2(w.roofline()->title().contains("Decode step at context 256"),
                 qPrintable(w.roofline()->title()));

        const LlmResult* pickResult = nullptr;
        for (const LlmResult& result : advice->results)
            if (result.request.batch == pick.batch) pickResult = &result;
        QVERIFY(pickResult);
        const LlmMemory& memory = pickResult->memory;
        QCOMPARE(w.memoryBar()->weightShare(), double(memory.weightBytes) / double(memory.usableBytes()));
        QCOMPARE(w.memoryBar()->kvShare(), double(memory.kvBytes) / double(memory.usableBytes()));
        QCOMPARE(w.modeTable()->rowCount(), 4);
        // TTFT, TPOT, the token rates, tok/J and W carry their bounds at the view's confidence around the
        // value
        const QString tpot = w.modeTable()->item(0, 2)->text();
        const double value = tpot.section(' ', 0, 0).toDouble();
        const QString bounds = tpot.section(' ', 1, 1);
        QVERIFY2(bounds.startsWith('[') && bounds.endsWith(']'), qPrintable(tpot));
        const QStringList lowHigh = bounds.mid(1, bounds.size() - 2).split(QString::fromUtf8("–"));
        QCOMPARE(lowHigh.size(), 2);
        QVERIFY2(lowHigh[0].toDouble() < value && value < lowHigh[1].toDouble(), qPrintable(tpot));
        for (int column : {1, 3, 4, 5, 6}) {
            const QString cell = w.modeTable()->item(0, column)->text();
            QVERIFY2(cell.contains('['), qPrintable(cell));
            QVERIFY2(!cell.contains(QLatin1String("e+")), qPrintable(cell)); // written as its bounds are
        }
        QVERIFY(w.modeTable()->toolTip().contains("each bound holding at 90 %"));
        const auto* caption = w.findChild<QLabel*>(QStringLiteral("llmTableCaption"));
        QVERIFY(caption);
        QVERIFY2(caption->text().contains(QStringLiteral("[low–high]: each bound holds at 90 %")),
                 qPrintable(caption->text()));
    }

    void badFieldsAndUnmeetableLimitsAnswerInWords() {
        QTemporaryDir dir;
        const QString model = writeDecoder(dir, qwen25_05b());
        LlmWindow w;
        w.setBoards({resolveDevice("agx-orin-64gb")});
        w.setModel(model, "agx-orin-64gb");
        auto* context = w.findChildren<QSpinBox*>().at(2); // prompt, generate, the roofline's context
        context->setValue(100000);
        QVERIFY(!w.analyse());
        QVERIFY(!w.advice());
        auto* slo = w.findChild<QDoubleSpinBox*>();
        context->setValue(200);
        slo->setValue(0.01); // 10 microseconds a token: nothing meets it
        QSignalSpy done(&w, &LlmWindow::finished);
        QVERIFY(w.analyse());
        QVERIFY(done.wait(60000));
        QVERIFY(w.advice());
        QVERIFY(!w.advice()->recommendation.pick);
        QVERIFY2(w.summaryText().contains("No batch and mode meets the limits at 90 %. Closest: "),
                 qPrintable(w.summaryText()));
        QVERIFY2(w.summaryText().contains("which breaks them least: TPOT"), qPrintable(w.summaryText()));
        QVERIFY(!w.efficiencyPlot()->pickPoint());
    }
};

ROOFTOP_TEST_CLASS(TestLlmWindow)
#include "test_llm_window.moc"
