// SPDX-License-Identifier: GPL-3.0-or-later
// Device → Tune this model… in process: the dialog's request, a simulated-board tune whose runs land one by
// one in the window with the best-so-far plot, the result applied to the advisor, and cancel.
#include "core/common/errors.h"
#include "core/measure/runs_file.h"
#include "gui/advisor_panel.h"
#include "gui/analysis_toolbar.h"
#include "gui/main_window.h"
#include "gui/measuring_pages.h"
#include "gui/tune_dialog.h"
#include "gui/tune_model_flow.h"
#include "gui/tune_plot.h"
#include "support/device_fixtures.h"
#include "support/dialog_checks.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontMetrics>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QWidget>
#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace rooftop;
using namespace rooftop::gui;

namespace {

ProfileDialogDefaults resnetDefaults() {
    ProfileDialogDefaults defaults;
    defaults.modelPath = QString::fromStdString(test::samplePath("resnet18"));
    defaults.deviceId = QStringLiteral("agx-orin-64gb");
    return defaults;
}

/// The dialog's request of 5 runs of resnet18 on the simulated board under a 20 ms SLO, into `dir`.
TuneRequest simulatedRequest(const QTemporaryDir& dir) {
    Constraints limits;
    limits.latencySloSeconds = 0.02;
    TuneDialog dialog(resnetDefaults(), limits, Objective::Energy);
    dialog.setRunner(QStringLiteral("sim"));
    dialog.setBudget(5);
    dialog.setRunsPath(dir.filePath("runs.csv"));
    return dialog.request();
}

} // namespace

class TestTuneFlow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("tuneDialog")); // a field remembered by an earlier run
    }

    void dialogBuildsTheRequest() {
        Constraints limits;
        limits.latencySloSeconds = 0.012;
        TuneDialog dialog(resnetDefaults(), limits, Objective::Energy);
        dialog.setRunner(QStringLiteral("sim"));
        dialog.setBudget(7);
        const TuneRequest r = dialog.request();
        QCOMPARE(r.runner, std::string("sim"));
        QCOMPARE(r.options.budget, 7);
        QCOMPARE(*r.options.limits.latencySloSeconds, 0.012);
        QVERIFY(!r.options.limits.powerCapWatts);
        QVERIFY(r.noSwitch);
        TuneDialog noSlo(resnetDefaults(), Constraints{}, Objective::Energy);
        QVERIFY_THROWS_EXCEPTION(InputError, noSlo.request());
    }

    // No SLO from the advisor: the last one given here, else one from the fastest stock mode's predicted
    // latency, else none, which is refused in words over the dialog (not behind it).
    void theSloHasASensibleDefaultAndZeroIsRefusedOverTheDialog() {
        QSettings().remove(QStringLiteral("tuneDialog"));
        ProfileDialogDefaults defaults = resnetDefaults();
        defaults.fastestLatencyMs = 4.1;
        TuneDialog hinted(defaults, Constraints{}, Objective::Energy);
        QCOMPARE(*hinted.request().options.limits.latencySloSeconds, 0.0062); // 1.5 x 4.1 ms, 2 digits
        TuneDialog none(resnetDefaults(), Constraints{}, Objective::Energy);
        none.setRunner(QStringLiteral("sim"));
        QVERIFY(none.findChild<QDoubleSpinBox*>(QStringLiteral("Slo"))
                    ->text()
                    .startsWith(QStringLiteral("none")));
        const QString problem = test::refusedWithABoxOver(none, QStringLiteral("more than 0 ms"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    // The tune's own fields (limits, budget, search, seed) come back as they were left, with the shared ones.
    void fieldsAreRememberedOnReopen() {
        QSettings().remove(QStringLiteral("tuneDialog"));
        Constraints limits;
        limits.latencySloSeconds = 0.012;
        {
            TuneDialog dialog(resnetDefaults(), limits, Objective::Energy);
            dialog.setRunner(QStringLiteral("sim"));
            dialog.setBudget(9);
            dialog.findChild<QLineEdit*>(QStringLiteral("Batches"))->setText(QStringLiteral("1,4"));
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
        }
        TuneDialog again(resnetDefaults(), Constraints{}, Objective::Energy);
        const TuneRequest r = again.request();
        QCOMPARE(r.runner, std::string("sim"));
        QCOMPARE(r.options.budget, 9);
        QCOMPARE(*r.options.limits.latencySloSeconds, 0.012); // the advisor had none: the last one given
        QCOMPARE(r.batches, std::vector<int64_t>({1, 4}));
        QSettings().remove(QStringLiteral("tuneDialog"));
    }

    // The budget caps the runs the estimate counts.
    void estimateCountsTheBudget() {
        QSettings().remove(QStringLiteral("tuneDialog"));
        ProfileDialogDefaults defaults = resnetDefaults();
        defaults.device = test::shippedAgxOrin();
        Constraints limits;
        limits.latencySloSeconds = 0.012;
        TuneDialog dialog(defaults, limits, Objective::Energy);
        dialog.setRunner(QStringLiteral("command:./run.sh"));
        dialog.setBudget(15);
        dialog.findChild<QLineEdit*>(QStringLiteral("Precisions"))->setText(QStringLiteral("fp16,int8"));
        QCOMPARE(
            dialog.findChild<QLabel*>(QStringLiteral("RunEstimate"))->text(),
            QStringLiteral("%1 modes \u00d7 1 batch \u00d7 2 precisions = %2 configurations; at most 15 runs "
                           "(the budget), about 3 min")
                .arg(gridPowerModes(*defaults.device).size())
                .arg(2 * gridPowerModes(*defaults.device).size()));
    }

    void aSimulatedTuneLandsRunByRunAndIsApplied() {
        QWidget window;
        TuneModelFlow flow(&window);
        QTemporaryDir dir;
        TuneRequest request = simulatedRequest(dir);
        request.modes = "stock";
        request.batches = {1, 2};
        QSignalSpy landed(&flow, &TuneModelFlow::sampleLanded);
        QSignalSpy finished(&flow, &TuneModelFlow::finished);
        QSignalSpy applied(&flow, &TuneModelFlow::applied);
        QVERIFY(flow.start(request));
        QVERIFY(flow.running());
        QVERIFY(!flow.start(request)); // one at a time
        QVERIFY(finished.wait(30000));
        QVERIFY(!flow.running());
        QVERIFY(flow.lastReport().has_value());
        const TuneOutcome& out = flow.lastReport()->outcome;
        QCOMPARE(landed.count(), int(out.samples.size()));
        QCOMPARE(flow.plot()->values().size(), out.samples.size());
        QCOMPARE(flow.progressWindow()->findChild<QListWidget*>()->count(), int(out.samples.size()));
        // each line is the command's sample line (core's), the mode by its readable name
        const QListWidget* lines = flow.progressWindow()->findChild<QListWidget*>();
        QVERIFY2(lines->item(0)->text().startsWith("1. ") &&
                     lines->item(0)->text().contains(" mJ/inference (simulated"),
                 qPrintable(lines->item(0)->text()));
        // the page opens within the screen, however small (a 1280 x 800 screen scaled to 960 x 600)
        const QSize screen = window.screen()->availableSize();
        QVERIFY2(flow.progressWindow()->width() <= screen.width() &&
                     flow.progressWindow()->height() <= screen.height(),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                .arg(flow.progressWindow()->width())
                                .arg(flow.progressWindow()->height())
                                .arg(screen.width())
                                .arg(screen.height())));
        QCOMPARE(readRunsFile(dir.filePath("runs.csv").toStdString()).size(), size_t(out.runsMade));
        QVERIFY(out.recommended.has_value());
        QCOMPARE(flow.plot()->values().back(), out.samples[*out.recommended].energyMj);
        // the answer stands above the runs: the recommended configuration by its readable name, its energy
        const TuneConfig& answer = flow.lastReport()->space.configs[out.samples[*out.recommended].config];
        bool answered = false;
        for (const QLabel* label : flow.progressWindow()->findChildren<QLabel*>())
            answered |= label->text().contains(
                QStringLiteral("<b>Recommended (simulated, within the limits): %1 batch %2")
                    .arg(QString::fromStdString(readableModeName(answer.mode)).toHtmlEscaped())
                    .arg(answer.batch));
        QVERIFY(answered);
        // done, the table of every run takes the room of the run lines it repeats
        QVERIFY(lines->isHidden());
        QVERIFY(!flow.progressWindow()->findChild<QPlainTextEdit*>()->isHidden());
        // a page the user narrowed widens again when the next tune's table lands, until its lines fit or the
        // window reaches 19/20 of the screen
        flow.progressWindow()->resize(400, flow.progressWindow()->height());
        QCoreApplication::processEvents();
        QCOMPARE(flow.progressWindow()->width(), 400);
        QVERIFY(flow.start(request));
        QVERIFY(!lines->isHidden()); // the run lines again while it runs
        QVERIFY(finished.wait(30000));
        QCoreApplication::processEvents();
        const QPlainTextEdit* table = flow.progressWindow()->findChild<QPlainTextEdit*>();
        QVERIFY(table != nullptr && !table->toPlainText().isEmpty());
        int widest = 0;
        for (const QString& line : table->toPlainText().split(QLatin1Char('\n')))
            widest = std::max(widest, QFontMetrics(table->font()).horizontalAdvance(line));
        const int width = flow.progressWindow()->width();
        QVERIFY2(width > 400 && width <= screen.width(), qPrintable(QString::number(width)));
        QVERIFY2(widest <= table->viewport()->width() || width >= screen.width() * 19 / 20,
                 qPrintable(QStringLiteral("lines of %1 px in %2 px, the window %3 px of %4")
                                .arg(widest)
                                .arg(table->viewport()->width())
                                .arg(width)
                                .arg(screen.width())));
        flow.apply();
        QCOMPARE(applied.count(), 1);
        // the page marks what was applied until the next tune
        QList<QPushButton*> buttons = flow.progressWindow()->findChildren<QPushButton*>();
        const auto appliedButton = std::find_if(buttons.begin(), buttons.end(), [](QPushButton* b) {
            return b->text() == QStringLiteral("Applied");
        });
        QVERIFY(appliedButton != buttons.end());
        QVERIFY(!(*appliedButton)->isEnabled());
        const TuneConfig& best = flow.lastReport()->space.configs[out.samples[*out.recommended].config];
        bool marked = false;
        for (const QLabel* label : flow.progressWindow()->findChildren<QLabel*>())
            marked |= label->text().contains(QStringLiteral("Applied: the window now advises %1 at batch %2")
                                                 .arg(QString::fromStdString(readableModeName(best.mode)))
                                                 .arg(best.batch));
        QVERIFY(marked);
    }

    // Apply to advisor in the window: the tuned mode is the one shown once the analyses it starts have
    // landed, and closing the tune's page keeps it.
    void anAppliedTuneStaysShown() {
        QTemporaryDir dir;
        MainWindow window;
        window.show();
        window.openModel(QString::fromStdString(test::samplePath("resnet18")),
                         QStringLiteral("agx-orin-64gb"));
        QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 30000);
        TuneRequest request = simulatedRequest(dir);
        request.modes = "sample:8";
        request.batches = {1};
        TuneModelFlow* flow = window.parts().pages->tuning();
        QSignalSpy finished(flow, &TuneModelFlow::finished);
        QVERIFY(flow->start(request));
        QVERIFY(finished.wait(30000));
        const TuneReport& report = *flow->lastReport();
        QVERIFY(report.outcome.recommended);
        const PowerMode tuned =
            report.space.configs[report.outcome.samples[*report.outcome.recommended].config].mode;
        qInfo("tuned %s", tuned.name.c_str());
        flow->apply();
        const auto shown = [&] {
            const std::optional<PowerMode> whatIf = window.parts().advisor->whatIfMode();
            return tuned.stock
                       ? window.parts().toolbar->shownModeKey().contains(QString::fromStdString(tuned.name))
                       : whatIf && whatIf->gpuHz == tuned.gpuHz && whatIf->emcHz == tuned.emcHz;
        };
        QVERIFY(shown());
        QTest::qWait(1000); // the analyses the new question and runs start
        QTRY_VERIFY_WITH_TIMEOUT(!window.runner().busy(), 30000);
        QVERIFY2(shown(), qPrintable(window.parts().toolbar->shownModeKey()));
        flow->progressWindow()->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Close)->click();
        QTest::qWait(500);
        QTRY_VERIFY_WITH_TIMEOUT(!window.runner().busy(), 30000);
        QVERIFY2(shown(), qPrintable(window.parts().toolbar->shownModeKey()));
    }

    // A training tune's energies are per sample, in its objective, its run lines and its plot.
    void aTrainingTuneSpeaksOfSamples() {
        ProfileDialogDefaults defaults = resnetDefaults();
        defaults.phase = Phase::Training;
        defaults.batch = 16;
        Constraints limits;
        limits.latencySloSeconds = 0.5;
        TuneDialog dialog(defaults, limits, Objective::Energy);
        bool perSample = false;
        for (QComboBox* box : dialog.findChildren<QComboBox*>())
            perSample = perSample || box->findText(QStringLiteral("Least energy per sample")) >= 0;
        QVERIFY(perSample);
        dialog.setRunner(QStringLiteral("sim"));
        dialog.setBudget(3);
        QTemporaryDir dir;
        dialog.setRunsPath(dir.filePath("runs.csv"));
        TuneRequest request = dialog.request();
        request.modes = "sample:6"; // custom modes: named in the result as in the run lines
        QWidget window;
        TuneModelFlow flow(&window);
        QSignalSpy finished(&flow, &TuneModelFlow::finished);
        QVERIFY(flow.start(request));
        QVERIFY(finished.wait(60000));
        const QListWidget* runs = flow.progressWindow()->findChild<QListWidget*>();
        QVERIFY(runs->count() > 0);
        for (int i = 0; i < runs->count(); ++i)
            QVERIFY2(!runs->item(i)->text().contains(QStringLiteral("inference")),
                     qPrintable(runs->item(i)->text()));
        QVERIFY2(runs->item(0)->text().contains(QStringLiteral("mJ/sample")),
                 qPrintable(runs->item(0)->text()));
        const QString result = flow.progressWindow()->findChild<QPlainTextEdit*>()->toPlainText();
        for (int i = 0; i < runs->count(); ++i) {
            const QString line = runs->item(i)->text();
            const QString mode =
                line.mid(line.indexOf(QStringLiteral(". ")) + 2).section(QStringLiteral(" batch "), 0, 0);
            QVERIFY2(result.contains(mode), qPrintable(mode + " not in\n" + result));
        }
    }

    void cancelEndsTheTune() {
        QWidget window;
        // a stand-in session that reports samples until it is cancelled, as the search does
        TuneModelFlow flow(&window, [](const TuneRequest&, const TuneProgressCallback& progress,
                                       const std::atomic<bool>* cancel) {
            TuneReport report;
            report.space.configs.push_back(TuneConfig{});
            report.space.features.resize(1);
            report.space.candidates = 1;
            while (!cancel->load()) {
                TuneSample s;
                s.reason = "failed: waiting";
                report.outcome.samples.push_back(s);
                progress(report.outcome, report.space);
                QThread::msleep(5);
            }
            report.outcome.cancelled = true;
            report.outcome.stopReason = "cancelled";
            return report;
        });
        QSignalSpy landed(&flow, &TuneModelFlow::sampleLanded);
        QSignalSpy finished(&flow, &TuneModelFlow::finished);
        TuneRequest request;
        request.options.budget = 100;
        QVERIFY(flow.start(request));
        QVERIFY(landed.wait(5000));
        flow.cancel();
        QVERIFY(finished.wait(5000));
        QVERIFY(flow.lastReport()->outcome.cancelled);
        QVERIFY(std::isnan(flow.plot()->values().back()));
    }
};

ROOFTOP_TEST_CLASS(TestTuneFlow)
#include "test_tune_flow.moc"
