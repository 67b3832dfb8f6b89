// SPDX-License-Identifier: GPL-3.0-or-later
// Device → Plan training beside inference… in process: the form's request with a board of the catalog, a
// plan shown through the one rendering (the summary's figures with their provenance, the tables as
// PlanTableModels), a real plan over the stock modes with its timeline and policies, and a bad request.
#include "core/device/catalog.h"
#include "core/plan/plan_rendering.h"
#include "gui/plan_window.h"
#include "gui/unbroken_words.h"
#include "models/plan_table_model.h"
#include "plots/timeline_plot.h"
#include "support/plan_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QtTest>

using namespace rooftop;
using namespace rooftop::gui;
using rooftop::test::columnHeaders;

namespace {

const std::vector<DeviceSpec>& defaultBoards() {
    static const std::vector<DeviceSpec> boards = loadCatalog(defaultCatalogFolder());
    return boards;
}

// A session that plans nothing: it returns the hand-built plan and remembers the request it was given.
PlanWindow::Session standIn(std::shared_ptr<PlanRequest> asked) {
    return [asked](const PlanRequest& r, const PlanProgressCallback&, const std::atomic<bool>*) {
        *asked = r;
        return test::knownPlanReport();
    };
}

} // namespace

class TestPlanWindow : public QObject {
    Q_OBJECT
private slots:
    void theFormBuildsTheRequest() {
        qputenv("ROOFTOP_TRTEXEC", ""); // no runner here: the default stays exhaustive
        PlanWindow w;
        qunsetenv("ROOFTOP_TRTEXEC");
        w.setDefaults(QString::fromStdString(test::samplePath("mobilenet_v2")), "orin-nano-8gb", 80, 12);
        const PlanRequest r = w.request();
        const QString model =
            QFileInfo(QString::fromStdString(test::samplePath("mobilenet_v2"))).absoluteFilePath();
        QCOMPARE(QFileInfo(QString::fromStdString(r.inferenceModel)).absoluteFilePath(), model);
        // the open model until one is chosen
        QCOMPARE(QFileInfo(QString::fromStdString(r.trainingModel)).absoluteFilePath(), model);
        QCOMPARE(r.deviceId, std::string("orin-nano-8gb"));
        QCOMPARE(r.latencySloMs, 80.0);
        QCOMPARE(*r.powerCapWatts, 12.0);
        QCOMPARE(r.arrival, std::string("poisson:30"));
        QCOMPARE(r.inferenceBatches, (std::vector<int64_t>{1, 2, 4, 8, 16}));
        QCOMPARE(r.strategy, PlanStrategy::Exhaustive);
        QVERIFY(r.runner.empty()); // exhaustive runs nothing
        // the runner reads as its label, and a typed one as it is
        auto* strategy = w.findChild<QComboBox*>("strategy");
        auto* runner = w.findChild<QComboBox*>("runner");
        QVERIFY(strategy && runner);
        strategy->setCurrentIndex(strategy->findData(QStringLiteral("gmd")));
        QCOMPARE(runner->currentText(),
                 QStringLiteral("simulated board (not a measurement of this machine)"));
        QCOMPARE(w.request().runner, std::string("sim"));
        runner->setEditText(QStringLiteral(" command:./my-runner.sh "));
        QCOMPARE(w.request().runner, std::string("command:./my-runner.sh"));
    }

    // With trtexec on this machine the window measures by default (gmd through it), as rooftop plan --runner.
    void aRunnerHereMakesMeasuringTheDefault() {
        qputenv("ROOFTOP_TRTEXEC", "/opt/fake/trtexec");
        PlanWindow w;
        qunsetenv("ROOFTOP_TRTEXEC");
        w.setDefaults(QString::fromStdString(test::samplePath("mobilenet_v2")), "orin-nano-8gb", 80, 12);
        const PlanRequest r = w.request();
        QCOMPARE(r.strategy, PlanStrategy::Gmd);
        QCOMPARE(r.runner, std::string("trtexec:/opt/fake/trtexec"));
    }

    void theBoardComesFromTheCatalog() {
        PlanWindow w;
        auto* box = w.findChild<QComboBox*>("board");
        QVERIFY(box);
        w.setBoards(defaultBoards());
        QCOMPARE(box->count(), int(defaultBoards().size()));
        QVERIFY(defaultBoards().size() > 2);
        // the window's board: one other than the AGX Orin 64GB
        w.setDefaults(QString::fromStdString(test::samplePath("mobilenet_v2")), "orin-nano-8gb", 100, 0);
        QCOMPARE(box->currentData().toString(), QString("orin-nano-8gb"));
        QCOMPARE(box->currentText(),
                 QString::fromStdString(findDevice(defaultBoards(), "orin-nano-8gb").name));
        QCOMPARE(w.request().deviceId, std::string("orin-nano-8gb"));
        // a board the user picks is the one planned on
        box->setCurrentIndex(box->findData("agx-orin-32gb"));
        emit box->activated(box->currentIndex());
        QCOMPARE(w.request().deviceId, std::string("agx-orin-32gb"));
        // the catalog loaded again keeps the choice
        w.setBoards(defaultBoards());
        QCOMPARE(w.request().deviceId, std::string("agx-orin-32gb"));
    }

    void aBoardAskedForBeforeTheCatalogIsListedIsChosenWhenItIs() {
        PlanWindow w;
        auto* box = w.findChild<QComboBox*>("board");
        w.setBoards({});
        w.setDefaults(QString(), "orin-nx-16gb", 100, 0);
        QCOMPARE(w.request().deviceId, std::string("orin-nx-16gb"));
        w.setBoards(defaultBoards());
        QCOMPARE(box->currentData().toString(), QString("orin-nx-16gb"));
        QCOMPARE(w.request().deviceId, std::string("orin-nx-16gb"));
    }

    void aPlanIsShownThroughTheRenderingAndTableModels() {
        auto asked = std::make_shared<PlanRequest>();
        PlanWindow w(nullptr, standIn(asked));
        w.setBoards(defaultBoards());
        w.setDefaults(QString::fromStdString(test::samplePath("mobilenet_v2")), "orin-nano-8gb", 100, 15);
        QSignalSpy done(&w, &PlanWindow::finished);
        QVERIFY(w.start());
        QVERIFY(done.wait(10000));
        QCOMPARE(asked->deviceId, std::string("orin-nano-8gb"));
        QVERIFY(w.lastReport());
        const PlanRendering v = renderPlan(*w.lastReport());
        const QString summary = w.summaryText();
        QVERIFY2(summary.contains(unbrokenAtHyphens(QString::fromStdString(v.headline).toHtmlEscaped())),
                 qPrintable(summary));
        // every figure of the rendering, with its provenance
        for (const PlanLine& line : v.figures) {
            QVERIFY2(summary.contains(unbrokenAtHyphens(QString::fromStdString(line.value).toHtmlEscaped())),
                     line.label.c_str());
            QVERIFY(summary.contains("(" + QString::fromStdString(line.provenance) + ")"));
        }
        QVERIFY(summary.contains("(simulated)"));
        QVERIFY(summary.contains("(estimate)"));
        QVERIFY(w.findChild<QLabel*>("planSummary")->toolTip().contains("Rooftop's roofline"));

        auto* policies = qobject_cast<models::PlanTableModel*>(w.policyTable()->model());
        QVERIFY(policies);
        QCOMPARE(policies->rowCount(), 3);
        QCOMPARE(policies->columnCount(), 6);
        QCOMPARE(policies->index(2, 0).data().toString(), QString("bursty at 30 req/s"));
        QCOMPARE(policies->index(2, 3).data().toString(), QString("0.06 %"));
        auto* candidates = qobject_cast<models::PlanTableModel*>(w.candidateTable()->model());
        QVERIFY(candidates);
        QCOMPARE(candidates->rowCount(), 3);
        QCOMPARE(columnHeaders(*candidates),
                 (QStringList{"Mode", "Batch", "Minibatches/s", "Violations, SLO bound", "Avg power bound",
                              "Costs", "Note"}));
        QCOMPARE(candidates->index(0, 2).data().toString(), QString("11.93"));
        QCOMPARE(w.timeline()->inferenceCount(), 10);
        QCOMPARE(w.timeline()->trainingCount(), 10);
        QCOMPARE(w.timeline()->title(),
                 QString("One simulated second of GPU 1033 \u00b7 EMC 3199 \u00b7 2 \u00d7 "
                         "1958 MHz at batch 4: 10 inference batches, 10 training minibatches"));
    }

    void aModeIdIsNeverBrokenAtItsHyphens() {
        const QString id = QStringLiteral("c2-cpu2201.6-gpu1300.5-emc3199");
        const QString headline =
            QStringLiteral("Plan: GPU 1301 · EMC 3199 · 2 × 2202 MHz (%1), inference batch 4 "
                           "at a 3-minute well-known trade-off")
                .arg(id);
        QTextDocument document;
        document.setHtml(QStringLiteral("<b>%1</b>").arg(unbrokenAtHyphens(headline)));
        int wrapped = 0;
        for (int width = 200; width <= 700; width += 10) {
            document.setTextWidth(width);
            document.size(); // laid out
            const QTextLayout* layout = document.begin().layout();
            wrapped += layout->lineCount() > 1;
            for (int i = 0; i < layout->lineCount(); ++i) {
                const QTextLine line = layout->lineAt(i);
                const QString text = document.begin().text().mid(line.textStart(), line.textLength());
                QVERIFY2(!text.trimmed().endsWith(QLatin1Char('-')), qPrintable(text));
            }
        }
        QVERIFY(wrapped > 20);
        // it reads the same: only invisible joiners were added
        QCOMPARE(unbrokenAtHyphens(headline).remove(QChar(0x2060)), headline);
        QCOMPARE(unbrokenAtHyphens(QStringLiteral("-5 % - 3")), QStringLiteral("-5 % - 3"));
        // a number keeps its unit on its line (the advisor's card): units only, not words that start alike
        QCOMPARE(
            unbrokenUnits(QStringLiteral("6.78 ms (≤ 12.1 ms at 90 %) · 13.6 W, 3 streams, 2 seconds")),
            QStringLiteral("6.78&nbsp;ms (≤ 12.1&nbsp;ms at 90&nbsp;%) · 13.6&nbsp;W, 3 streams, 2 seconds"));
        QCOMPARE(unbrokenUnits(QStringLiteral("2.51 TFLOP/s at 15.3 FLOP/B")),
                 QStringLiteral("2.51&nbsp;TFLOP/s at 15.3&nbsp;FLOP/B"));
    }

    void aPlanIsShownWithItsTimelineAndPolicies() {
        PlanWindow w;
        w.setBoards(defaultBoards());
        w.setDefaults(QString::fromStdString(test::samplePath("mobilenet_v2")), "agx-orin-64gb", 300,
                      0); // room for the estimates' margin
        w.findChild<QLineEdit*>("trainingModel")
            ->setText(QString::fromStdString(test::samplePath("resnet18")));
        for (QComboBox* box : w.findChildren<QComboBox*>())
            if (box->findText("stock") >= 0) box->setCurrentText("stock");
        QSignalSpy done(&w, &PlanWindow::finished);
        QVERIFY(w.start());
        QVERIFY(done.wait(60000));
        QVERIFY(w.lastReport());
        QVERIFY(w.lastReport()->outcome.plan);
        QVERIFY2(w.summaryText().contains("Plan: "), qPrintable(w.summaryText()));
        QVERIFY(w.summaryText().contains("(simulated)"));
        QVERIFY(w.summaryText().contains("(estimate)"));
        QVERIFY(w.timeline()->inferenceCount() > 0);
        QVERIFY(w.timeline()->trainingCount() > 0);
        QCOMPARE(w.policyTable()->model()->rowCount(), 3);
        QVERIFY(w.policyTable()->model()->index(1, 0).data().toString().startsWith("poisson"));
        QVERIFY(w.candidateTable()->model()->rowCount() >= 1);
    }

    void aBadRequestSaysWhyInOneLine() {
        PlanWindow w;
        w.setDefaults("does-not-exist.onnx", "agx-orin-64gb", 100, 0);
        QSignalSpy done(&w, &PlanWindow::finished);
        QVERIFY(w.start());
        QVERIFY(done.wait(30000));
        QVERIFY(!w.lastReport());
        const QList<QLabel*> labels = w.findChildren<QLabel*>();
        bool said = false;
        for (QLabel* l : labels)
            if (l->text().startsWith("Not planned: ") && l->text().contains("no such model file") &&
                !l->text().contains('\n'))
                said = true;
        QVERIFY(said);
    }
};

ROOFTOP_TEST_CLASS(TestPlanWindow)
#include "test_plan_window.moc"
