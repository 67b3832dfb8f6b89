// SPDX-License-Identifier: GPL-3.0-or-later
// Device → Plan training beside inference… in process: the form's request, a plan over the stock modes shown
// with its provenance, the timeline of one simulated second and the policy table, and a bad request.
#include "gui/plan_window.h"
#include "plots/timeline_plot.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

using namespace rooftop;
using namespace rooftop::gui;

class TestPlanWindow : public QObject {
    Q_OBJECT
private slots:
    void theFormBuildsTheRequest() {
        PlanWindow w;
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
    }

    void aPlanIsShownWithItsTimelineAndPolicies() {
        PlanWindow w;
        w.setDefaults(QString::fromStdString(test::samplePath("mobilenet_v2")), "agx-orin-64gb", 100, 0);
        w.findChildren<QLineEdit*>()[1]->setText(QString::fromStdString(test::samplePath("resnet18")));
        for (QComboBox* box : w.findChildren<QComboBox*>())
            if (box->findText("stock") >= 0) box->setCurrentText("stock");
        QSignalSpy done(&w, &PlanWindow::finished);
        QVERIFY(w.start());
        QVERIFY(done.wait(60000));
        QVERIFY(w.lastReport());
        QVERIFY(w.lastReport()->outcome.plan);
        QVERIFY2(w.summaryText().contains("Plan: "), qPrintable(w.summaryText()));
        QVERIFY(w.summaryText().contains("simulated"));
        QVERIFY(w.summaryText().contains("(estimate)"));
        QVERIFY(w.timeline()->inferenceCount() > 0);
        QVERIFY(w.timeline()->trainingCount() > 0);
        QCOMPARE(w.policyTable()->rowCount(), 3);
        QVERIFY(w.policyTable()->item(1, 0)->text().startsWith("poisson"));
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
