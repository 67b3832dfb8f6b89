// SPDX-License-Identifier: GPL-3.0-or-later
// The window's training step: the analysis toolbar's phase (an inference or a training step with its
// optimizer) in the request, and the layer table's totals line naming the step's parts.
#include "gui/analysis_toolbar.h"
#include "models/layer_table_model.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QtTest>

using namespace rooftop;
using namespace rooftop::gui;

class TestAnalysisToolbar : public QObject {
    Q_OBJECT
private slots:
    void thePhaseBecomesTheRequestsPhaseAndOptimizer() {
        AnalysisToolbar bar;
        AnalysisRequest inference;
        bar.fillRequest(inference);
        QCOMPARE(inference.settings.phase, Phase::Inference);

        QSignalSpy asked(&bar, &AnalysisToolbar::requestInputsChanged);
        bar.phaseBox()->setCurrentIndex(bar.phaseBox()->findData("sgd"));
        QCOMPARE(asked.count(), 1); // the window asks again
        AnalysisRequest step;
        bar.fillRequest(step);
        QCOMPARE(step.settings.phase, Phase::Training);
        QCOMPARE(step.settings.optimizer, Optimizer::Sgd);
        bar.phaseBox()->setCurrentIndex(bar.phaseBox()->findData("adam"));
        bar.fillRequest(step);
        QCOMPARE(step.settings.optimizer, Optimizer::Adam);
    }

    void theTotalsLineNamesATrainingStep() {
        models::LayerTableModel model;
        model.setWorkload(test::analyzeSample("resnet18"));
        QVERIFY(!model.totalsText().contains("training step"));
        AnalysisSettings step;
        step.phase = Phase::Training;
        step.optimizer = Optimizer::Sgd;
        model.setWorkload(test::analyzeSample("resnet18", step));
        QVERIFY2(model.totalsText().startsWith("training step (forward "), qPrintable(model.totalsText()));
        QVERIFY(model.totalsText().contains("backward "));
    }
};

ROOFTOP_TEST_CLASS(TestAnalysisToolbar)
#include "test_analysis_toolbar.moc"
