// SPDX-License-Identifier: GPL-3.0-or-later
// The plan's one rendering (renderPlan) and the item model of its tables (PlanTableModel) on a plan built by
// hand: exact rows and columns, header names, the text and number of cells, the provenance of every figure,
// the plan's row bold and a candidate over the cap greyed, and the text writer drawn from the same rendering.
#include "core/common/text_format.h"
#include "core/plan/plan_margins.h"
#include "core/plan/plan_rendering.h"
#include "core/plan/plan_writers.h"
#include "models/plan_table_model.h"
#include "support/plan_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QFont>
#include <QtTest>

using namespace rooftop;
using namespace rooftop::models;
using rooftop::test::columnHeaders;

namespace {

const PlanLine* lineLabelled(const std::vector<PlanLine>& lines, const std::string& label) {
    for (const PlanLine& line : lines)
        if (line.label == label) return &line;
    return nullptr;
}

} // namespace

class TestPlanTableModel : public QObject {
    Q_OBJECT
private slots:
    void thePolicyTableHasOneRowPerArrivalProcess() {
        PlanTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setTable(renderPlan(test::knownPlanReport()).policies);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 6);
        QCOMPARE(columnHeaders(model), (QStringList{"Arrivals", "No training", "Greedy", "Adaptive",
                                                    "Greedy minibatches/s", "Adaptive minibatches/s"}));
        QCOMPARE(model.index(1, 0).data().toString(), QString("poisson at 30 req/s"));
        QCOMPARE(model.index(1, 2).data().toString(), QString("24.04 %"));
        QCOMPARE(model.index(1, 2).data(SortRole).toDouble(), 24.04);
        QCOMPARE(model.index(2, 5).data().toString(), QString("15.28"));
        QCOMPARE(model.index(1, 0).data(SortRole).toString(), QString("poisson at 30 req/s"));
        // a number says where it comes from; names flush left, numbers flush right
        QVERIFY2(model.index(1, 2).data(Qt::ToolTipRole).toString().contains("simulated"),
                 qPrintable(model.index(1, 2).data(Qt::ToolTipRole).toString()));
        QCOMPARE(model.index(1, 0).data(Qt::TextAlignmentRole).toInt() & Qt::AlignLeft, int(Qt::AlignLeft));
        QCOMPARE(model.index(1, 2).data(Qt::TextAlignmentRole).toInt() & Qt::AlignRight, int(Qt::AlignRight));
        QCOMPARE(model.headerData(1, Qt::Horizontal, ExportHeaderRole).toString(),
                 QString("No training (%)"));
        QCOMPARE(model.headerData(4, Qt::Horizontal, ExportHeaderRole).toString(),
                 QString("Greedy minibatches/s"));
        QVERIFY(!model.index(3, 0).isValid());
    }

    void theCandidateTableShowsThePlanFirstAndGreysWhatMissesTheBudgets() {
        PlanTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTable(renderPlan(test::knownPlanReport()).candidates);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), 7);
        QCOMPARE(columnHeaders(model), (QStringList{"Mode", "Batch", "Minibatches/s", "Violations, SLO bound",
                                                    "Avg power bound", "Costs", "Note"}));
        // a custom mode by its clocks as a person reads them (c2-cpu1958.4-gpu1032.75-emc3199)
        QCOMPARE(model.index(0, 0).data().toString(),
                 QString::fromUtf8("GPU 1033 \u00b7 EMC 3199 \u00b7 2 \u00d7 1958 MHz"));
        QCOMPARE(model.index(0, 1).data().toString(), QString("4"));
        QCOMPARE(model.index(0, 1).data(SortRole).toDouble(), 4.0);
        QCOMPARE(model.index(0, 2).data().toString(), QString("11.93"));
        QCOMPARE(model.index(0, 4).data().toString(), QString("14.8 W"));
        QCOMPARE(model.index(0, 5).data().toString(), QString("estimate"));
        QCOMPARE(model.index(1, 0).data().toString(), QString("15W"));
        QCOMPARE(model.index(1, 1).data().toString(), QString("1"));
        QCOMPARE(model.headerData(4, Qt::Horizontal, ExportHeaderRole).toString(),
                 QString("Avg power bound (W)"));
        // the plan is bold, the candidate over the cap grey with its reason
        QVERIFY(model.index(0, 0).data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!model.index(1, 0).data(Qt::FontRole).isValid());
        QCOMPARE(model.index(2, 3).data(Qt::ForegroundRole).value<QColor>(), QColor(Qt::gray));
        QVERIFY(!model.index(0, 3).data(Qt::ForegroundRole).isValid());
        QCOMPARE(model.index(2, 6).data().toString(), QString("average power 22.1 W over the 15 W cap"));
        QVERIFY(model.index(2, 2).data(Qt::ToolTipRole).toString().contains("over the 15 W cap"));
        // a batch size is a setting chosen, not a simulated figure: no provenance on it
        QVERIFY(!model.index(0, 1).data(Qt::ToolTipRole).toString().contains("simulated"));
        QVERIFY(!model.headerData(1, Qt::Horizontal, Qt::ToolTipRole).toString().contains("simulated"));
        QVERIFY(model.index(0, 2).data(Qt::ToolTipRole).toString().contains("simulated"));
    }

    void idlePowerCarriesItsOwnProvenance() {
        PlanReport r = test::knownPlanReport();
        for (PlanCandidate& c : r.outcome.candidates) {
            c.costs.idleProvenance = "datasheet";
            c.costs.idleBasis = "the module's idle power";
        }
        const PlanRendering v = renderPlan(r);
        QCOMPARE(lineLabelled(v.figures, "Idle power")->provenance, std::string("datasheet"));
        QVERIFY(lineLabelled(v.figures, "Idle power")->basis.find("the module's idle power") !=
                std::string::npos);
    }

    void theCandidateRowsAreLimited() {
        QCOMPARE(renderPlan(test::knownPlanReport(), 2).candidates.rows.size(), size_t(2));
        PlanReport none = test::knownPlanReport();
        none.outcome.plan.reset();
        const PlanRendering v = renderPlan(none);
        QVERIFY(!v.planned);
        QVERIFY(v.figures.empty());
        QCOMPARE(v.candidates.emphasisedRow, -1);
        QVERIFY(QString::fromStdString(v.headline).startsWith("No configuration meets the budgets"));
        // the timeline shows the best candidate, and says so
        QCOMPARE(QString::fromStdString(v.timelineConfiguration),
                 QString("the best candidate, GPU 1033 \u00b7 EMC 3199 \u00b7 2 \u00d7 1958 MHz at batch 4 "
                         "(no plan)"));
        // the closest misses, each with what admits it: MAXN_SUPER keeps the SLO at 22.1 W (cap 15 W); the
        // other two keep the cap and miss the SLO, 15W the least
        for (PlanCandidate& c : none.outcome.candidates) {
            c.result.worstWatts = c.result.stats.averageWatts;
            c.result.worstViolationPct = c.mode == 0 ? 1.5 : c.mode == 1 ? 2.25 : 0.5;
        }
        QCOMPARE(
            QString::fromStdString(planClosestMiss(none)),
            QString("Closest within the SLO: MAXN_SUPER at batch 4 trains 15.2 minibatches/s at 22.1 W "
                    "average, 47 % over the 15 W cap: a cap of 22.1 W admits it. Closest within the power "
                    "cap: 15W at batch 1 trains 6.5 minibatches/s with 1.50 % of requests late or dropped "
                    "against 1 %: allowing 1.50 %, or a latency SLO above 100 ms, admits it."));
        QVERIFY(QString::fromStdString(renderPlan(none).headline).endsWith("admits it."));
        PlanReport nothing = none;
        for (PlanCandidate& c : nothing.outcome.candidates)
            c.result.stats.minibatchesPerSecond = 0;
        QVERIFY(
            QString::fromStdString(planClosestMiss(nothing)).startsWith("No mode tried trains a minibatch"));
        QVERIFY(planClosestMiss(test::knownPlanReport()).empty()); // a plan: nothing missed
    }

    void everyFigureOfThePlanHasItsProvenance() {
        const PlanRendering v = renderPlan(test::knownPlanReport());
        QVERIFY(v.planned);
        QCOMPARE(QString::fromStdString(v.headline),
                 QString("Plan: GPU 1033 \u00b7 EMC 3199 \u00b7 2 \u00d7 1958 MHz "
                         "(c2-cpu1958.4-gpu1032.75-emc3199), inference batch 4"));
        QCOMPARE(QString::fromStdString(v.timelineConfiguration),
                 QString("GPU 1033 \u00b7 EMC 3199 \u00b7 2 \u00d7 1958 MHz at batch 4"));
        QCOMPARE(v.figures.size(), size_t(8));
        for (const PlanLine& line : v.figures) {
            QVERIFY2(!line.provenance.empty(), line.label.c_str());
            QVERIFY2(!line.basis.empty(), line.label.c_str());
        }
        QCOMPARE(lineLabelled(v.figures, "Training")->value, std::string("11.93 minibatches/s"));
        QCOMPARE(lineLabelled(v.figures, "Training")->provenance, std::string("simulated"));
        QCOMPARE(lineLabelled(v.figures, "Inference batch")->value,
                 std::string("10.000 ms (≤ 10.000 ms) at 10.5 W (≤ 10.5 W) (batch 4)")); // no spread given
        // on estimates each cost carries its upper bound at the confidence: 10 ms x exp(1.2816 x 0.1)
        PlanReport spread = test::knownPlanReport();
        spread.margins.inference = {0.1, 0.2, 0.25};
        QCOMPARE(lineLabelled(renderPlan(spread).figures, "Inference batch")->value,
                 std::string("10.000 ms (≤ 11.367 ms) at 10.5 W (≤ 13.6 W) (batch 4)"));
        spread.margins.estimated = false; // measured costs: no bound
        QCOMPARE(lineLabelled(renderPlan(spread).figures, "Inference batch")->value,
                 std::string("10.000 ms at 10.5 W (batch 4)"));
        QCOMPARE(lineLabelled(v.figures, "Inference batch")->provenance, std::string("estimate"));
        QCOMPARE(lineLabelled(v.figures, "Inference batch")->basis,
                 std::string("Rooftop's roofline (tensorrt runtime), no run"));
        QCOMPARE(lineLabelled(v.figures, "Idle power")->provenance, std::string("estimate"));
        for (const PlanLine& line : v.settings)
            QVERIFY2(line.provenance.empty(), line.label.c_str());
        QVERIFY(lineLabelled(v.settings, "Prior"));
        QCOMPARE(lineLabelled(v.settings, "Schedule")->value,
                 std::string("seeded discrete-event simulation of 3 streams of 30 s, adaptive policy"));
    }

    void theTextWriterRendersTheSameLines() {
        const PlanReport r = test::knownPlanReport();
        const PlanRendering v = renderPlan(r);
        const QString text = QString::fromStdString(planTable(r));
        QVERIFY2(text.startsWith(QString::fromStdString(v.title) + "\n"), qPrintable(text));
        QVERIFY(text.contains(QString::fromStdString(v.headline)));
        for (const PlanLine& line : v.figures)
            QVERIFY2(text.contains(QString::fromStdString(line.value + " (" + line.provenance + ")")),
                     line.label.c_str());
        // the policies' table names the configuration it compares them at: the plan's
        QVERIFY2(text.contains(QString::fromStdString("SLO violations by scheduling policy at " +
                                                      v.timelineConfiguration + " (simulated):")),
                 qPrintable(text));
        QVERIFY(text.contains("Best candidates over the prediction (simulated):"));
        // a plan on estimates ran against a shortened SLO: the policies, at the SLO itself, say so
        PlanReport onEstimates = r;
        onEstimates.request.strategy = PlanStrategy::Exhaustive;
        onEstimates.margins.estimated = true;
        onEstimates.margins.confidence = 0.9;
        onEstimates.margins.inference.latency = 0.3;
        const QString estimated = QString::fromStdString(planTable(onEstimates));
        QVERIFY2(estimated.contains(QString::fromStdString(
                     "SLO violations by scheduling policy at " + v.timelineConfiguration +
                     ", against the SLO itself (the plan's figures: against it shortened by x" +
                     fixed(planSloFactor(onEstimates.margins), 2) + " for the costs' error) (simulated):")),
                 qPrintable(estimated));
        QVERIFY(!text.contains("against the SLO itself"));
        QVERIFY2(!text.contains(QRegularExpression(" \n")), qPrintable(text)); // no trailing blanks
        QVERIFY(text.contains("sudo nvpmodel -m 2"));
        // the table's rows, names flush left and numbers flush right
        QVERIFY2(text.contains(
                     QRegularExpression("\n  poisson at 30 req/s +0\\.00 % +24\\.04 % +0\\.04 % +19\\.06 "
                                        "+15\\.50\n")),
                 qPrintable(text));
    }
};

ROOFTOP_TEST_CLASS(TestPlanTableModel)
#include "test_plan_table_model.moc"
