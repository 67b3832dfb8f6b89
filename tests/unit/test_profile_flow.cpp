// SPDX-License-Identifier: GPL-3.0-or-later
// Device → Profile this model… in process: the dialog's request, the controller's progress, cancel and
// errors, and a simulated-board sweep whose runs land on the power-modes plot as measured points.
#include "core/common/errors.h"
#include "core/measure/runs_file.h"
#include "gui/advisor_panel.h"
#include "gui/analysis_toolbar.h"
#include "gui/main_window.h"
#include "gui/measuring_pages.h"
#include "gui/model_attachments.h"
#include "gui/modes_panel.h"
#include "gui/profile_controller.h"
#include "gui/profile_dialog.h"
#include "gui/profile_model_flow.h"
#include "gui/result_views.h"
#include "gui/tune_dialog.h"
#include "gui/tune_model_flow.h"
#include "models/item_roles.h"
#include "models/power_mode_table_model.h"
#include "plots/pareto_plot.h"
#include "support/device_fixtures.h"
#include "support/dialog_checks.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace rooftop;
using namespace rooftop::gui;

namespace {

ProfileDialogDefaults resnetDefaults() {
    ProfileDialogDefaults defaults;
    defaults.modelPath = QString::fromStdString(test::samplePath("resnet18"));
    defaults.deviceId = QStringLiteral("agx-orin-64gb");
    return defaults;
}

/// Opens `sample` on the AGX Orin in a shown window and waits for its analysis.
bool openAnalysed(MainWindow& window, const char* sample) {
    window.resize(1400, 900);
    window.show();
    window.openModel(QString::fromStdString(test::samplePath(sample)), QStringLiteral("agx-orin-64gb"));
    return QTest::qWaitFor([&] { return window.result() != nullptr && !window.runner().busy(); }, 30000);
}

/// Profiles MAXN on the simulated board from `window` with `dialog`'s request into `runsPath`; its rows.
std::vector<RunRow> profileMaxn(MainWindow& window, ProfileDialog& dialog, const QString& runsPath) {
    dialog.setRunner(QStringLiteral("sim"));
    dialog.setModes(QStringLiteral("MAXN"));
    dialog.setRunsPath(runsPath);
    ProfileRequest request = dialog.request();
    request.settleSeconds = 0;
    QSignalSpy written(window.parts().profiling, &ProfileModelFlow::runsWritten);
    if (!window.parts().profiling->start(request) ||
        !QTest::qWaitFor([&] { return written.count() == 1; }, 60000))
        return {};
    return readRunsFile(runsPath.toStdString());
}

} // namespace

class TestProfileFlow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("profileDialog")); // a field remembered by an earlier run
    }

    void dialogBuildsTheRequest() {
        ProfileDialogDefaults defaults = resnetDefaults();
        defaults.batch = 4;
        ProfileDialog dialog(defaults);
        ProfileRequest request = dialog.request();
        QCOMPARE(request.runner, std::string("sim")); // no trtexec given: the simulated board
        QVERIFY(request.noSwitch);
        QCOMPARE(request.batches, std::vector<int64_t>({4}));
        QCOMPARE(request.precisions, std::vector<Precision>({Precision::FP32}));
        QCOMPARE(QString::fromStdString(request.outPath),
                 QString::fromStdString(defaultRunsPath(defaults.modelPath.toStdString())));
        QVERIFY(QString::fromStdString(request.outPath).endsWith(QLatin1String("resnet18-runs.csv")));

        dialog.setRunner(QStringLiteral("command:./run-trt.sh --fast"));
        dialog.setModes(QStringLiteral("sample:3"));
        dialog.setRepeat(3);
        request = dialog.request();
        QCOMPARE(request.runner, std::string("command:./run-trt.sh --fast"));
        QVERIFY(!request.noSwitch);
        QCOMPARE(request.modes, std::string("sample:3"));
        QCOMPARE(request.repeat, 3);
        dialog.setRunsPath(QString());
        QVERIFY_EXCEPTION_THROWN(dialog.request(), InputError);
    }

    // Runs files go to the user's data folder (often the model's folder is read-only), for the CLI and the
    // window alike; naming the file changes nothing on disk, the first writer makes the folder.
    void runsFileDefaultsToTheDataFolder() {
        const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        QDir(folder).removeRecursively();
        const ProfileDialogDefaults defaults = resnetDefaults();
        QCOMPARE(QString::fromStdString(defaultRunsPath(defaults.modelPath.toStdString())),
                 folder + QStringLiteral("/resnet18-runs.csv"));
        QVERIFY(!QFileInfo::exists(folder));
        { RunsFileWriter first(defaultRunsPath(defaults.modelPath.toStdString())); }
        QVERIFY(QFileInfo(folder).isDir());
        QSettings().remove(QStringLiteral("profileDialog"));
        ProfileDialog dialog(defaults);
        QCOMPARE(QString::fromStdString(dialog.request().outPath),
                 folder + QStringLiteral("/resnet18-runs.csv"));
    }

    // Every field of the dialog is as it was left when it opens again (QSettings, typed values).
    void fieldsAreRememberedOnReopen() {
        QSettings().remove(QStringLiteral("profileDialog"));
        QTemporaryDir dir;
        const ProfileDialogDefaults defaults = resnetDefaults();
        {
            ProfileDialog dialog(defaults);
            dialog.setRunner(QStringLiteral("command:./run.sh"));
            dialog.setModes(QStringLiteral("stock"));
            dialog.setRepeat(3);
            dialog.findChild<QLineEdit*>(QStringLiteral("Batches"))->setText(QStringLiteral("1, 2"));
            dialog.findChild<QLineEdit*>(QStringLiteral("Precisions"))->setText(QStringLiteral("fp16,int8"));
            dialog.setRunsPath(dir.filePath(QStringLiteral("mine.csv")));
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
        }
        QCOMPARE(QSettings().value(QStringLiteral("profileDialog/repeat")).userType(), QMetaType::Int);
        ProfileDialog again(defaults);
        const ProfileRequest request = again.request();
        QCOMPARE(request.runner, std::string("command:./run.sh"));
        QCOMPARE(request.modes, std::string("stock"));
        QCOMPARE(request.repeat, 3);
        QCOMPARE(request.batches, std::vector<int64_t>({1, 2}));
        QCOMPARE(request.precisions, std::vector<Precision>({Precision::FP16, Precision::INT8}));
        QCOMPARE(QString::fromStdString(request.outPath), dir.filePath(QStringLiteral("mine.csv")));
        QSettings().remove(QStringLiteral("profileDialog"));
    }

    // The dialog says how many runs its fields ask for and about how long, as they change.
    void estimateSaysHowManyRunsAndHowLong() {
        QSettings().remove(QStringLiteral("profileDialog"));
        ProfileDialogDefaults defaults = resnetDefaults();
        defaults.device = test::shippedAgxOrin();
        ProfileDialog dialog(defaults);
        auto* estimate = dialog.findChild<QLabel*>(QStringLiteral("RunEstimate"));
        QVERIFY(estimate);
        QCOMPARE(estimate->text(),
                 QStringLiteral("1 mode \u00d7 1 batch \u00d7 1 precision = 1 run, under a minute"));
        dialog.setRunner(QStringLiteral("command:./run.sh"));
        dialog.setModes(QStringLiteral("stock"));
        dialog.findChild<QLineEdit*>(QStringLiteral("Batches"))->setText(QStringLiteral("1,2"));
        dialog.findChild<QLineEdit*>(QStringLiteral("Precisions"))->setText(QStringLiteral("fp32,fp16,int8"));
        QCOMPARE(estimate->text(),
                 QStringLiteral("4 modes \u00d7 2 batches \u00d7 3 precisions = 24 runs, about 5 min"));
        dialog.setRepeat(2);
        QCOMPARE(estimate->text(), QStringLiteral("4 modes \u00d7 2 batches \u00d7 3 precisions \u00d7 2 "
                                                  "repeats = 48 runs, about 10 min"));
        dialog.findChild<QLineEdit*>(QStringLiteral("Batches"))->setText(QStringLiteral("1,,2"));
        QVERIFY2(estimate->text().startsWith(QStringLiteral("Batch sizes")), qPrintable(estimate->text()));
    }

    // A field that does not read is said in a box over the dialog, which stays open to mend it.
    void aBadFieldIsShownOverTheDialog() {
        QSettings().remove(QStringLiteral("profileDialog"));
        ProfileDialog dialog(resnetDefaults());
        dialog.setRunsPath(QString());
        const QString problem = test::refusedWithABoxOver(dialog, QStringLiteral("Runs file"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void controllerReportsProgressCancelsAndFails() {
        ProfileController controller([](const ProfileRequest&, const ProfileProgressCallback& progress,
                                        const std::atomic<bool>* cancel) {
            ProfileProgress step;
            step.modeCount = 2;
            step.modeName = "MAXN";
            step.phase = "switching";
            step.etaSeconds = 65;
            progress(step);
            while (!cancel->load())
                QThread::msleep(2);
            ProfileOutcome outcome;
            outcome.cancelled = true;
            return outcome;
        });
        QSignalSpy progress(&controller, &ProfileController::progress);
        QSignalSpy finished(&controller, &ProfileController::finished);
        QVERIFY(controller.start({}));
        QVERIFY(!controller.start({})); // one sweep at a time
        QTRY_COMPARE(progress.count(), 1);
        QCOMPARE(progress.at(0).at(0).toString(),
                 QStringLiteral("mode 1/2 MAXN, switching, about 1:05 left"));
        controller.stopAndWait();
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(finished.at(0).at(0).value<ProfileOutcome>().cancelled);
        QVERIFY(!controller.running());

        ProfileController failing([](const ProfileRequest&, const ProfileProgressCallback&,
                                     const std::atomic<bool>*) -> ProfileOutcome {
            throw UnavailableError("no runner: trtexec not found\nsecond line");
        });
        QSignalSpy failed(&failing, &ProfileController::failed);
        QVERIFY(failing.start({}));
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("no runner: trtexec not found"));
    }

    void theWindowsDimsAreTheWorkloadMeasured() {
        // BERT at sequence=128 in the window: profile, tune and plan run, record and predict sequence 128
        QTemporaryDir folder;
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        window.openModel(QString::fromStdString(test::samplePath("bert_base")),
                         QStringLiteral("agx-orin-64gb"));
        window.setDims(QStringLiteral("sequence=128"));
        QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy() &&
                                     window.result()->request.settings.dims.named.count("sequence"),
                                 30000);
        const ProfileDialogDefaults defaults = window.parts().pages->measuringDefaults();
        const std::map<std::string, int64_t> seq128 = {{"sequence", 128}};
        QVERIFY(defaults.dims == seq128);
        ProfileDialog profileDialog(defaults);
        QVERIFY(profileDialog.request().dims == seq128);
        Constraints limits;
        limits.latencySloSeconds = 0.5;
        TuneDialog tuneDialog(defaults, limits, Objective::Energy);
        QVERIFY(tuneDialog.request().dims == seq128);

        // a profile started from the window records sequence 128, and its points are the window's
        ProfileDialog dialog(defaults);
        const QString runsPath = folder.filePath(QStringLiteral("bert-runs.csv"));
        const std::vector<RunRow> rows = profileMaxn(window, dialog, runsPath);
        QCOMPARE(rows.size(), size_t(1));
        QVERIFY(rows[0].dims == seq128);
        QCOMPARE(window.parts().views->modes()->measured().points.size(), size_t(1));
        // the same runs shown at sequence 1 are another workload's: none is the window's
        window.setDims(QStringLiteral("sequence=1"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.runner().busy() &&
                                     window.result()->request.settings.dims.named.at("sequence") == 1,
                                 30000);
        QCOMPARE(window.parts().attachments->loadRunsFile(runsPath), QString());
        QCOMPARE(window.parts().views->modes()->measured().points.size(), size_t(0));
    }

    void theWindowsTrainingStepIsTheWorkloadMeasured() {
        // Run = training step · sgd in the toolbar: profile and tune run sgd training steps, the rows record
        // them, and they are the measured points of the training analysis (not of an inference one)
        QTemporaryDir folder;
        MainWindow window;
        QVERIFY(openAnalysed(window, "resnet18"));
        QComboBox* run = window.parts().toolbar->phaseBox();
        run->setCurrentIndex(run->findData(QStringLiteral("sgd")));
        QVERIFY(run->currentIndex() >= 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            !window.runner().busy() && window.result()->request.settings.phase == Phase::Training, 30000);
        // the advisor's card reads per minibatch and per sample
        const QString card = window.parts().advisor->cardText();
        QVERIFY2(card.contains(QStringLiteral("per minibatch of")) &&
                     card.contains(QStringLiteral("per sample")) &&
                     !card.contains(QStringLiteral("per inference")),
                 qPrintable(card));
        const ProfileDialogDefaults defaults = window.parts().pages->measuringDefaults();
        QVERIFY(defaults.phase == Phase::Training);
        QVERIFY(defaults.optimizer == Optimizer::Sgd);
        ProfileDialog dialog(defaults);
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("RunKind"))
                    ->text()
                    .startsWith(QStringLiteral("training step with sgd")));
        Constraints limits;
        limits.latencySloSeconds = 0.5;
        TuneDialog tuneDialog(defaults, limits, Objective::Latency);
        QVERIFY(tuneDialog.request().options.phase == Phase::Training);
        QVERIFY(tuneDialog.request().options.optimizer == Optimizer::Sgd);

        QVERIFY(dialog.request().phase == Phase::Training);
        QVERIFY(dialog.request().optimizer == Optimizer::Sgd);
        const QString runsPath = folder.filePath(QStringLiteral("resnet18-training.csv"));
        const std::vector<RunRow> rows = profileMaxn(window, dialog, runsPath);
        QCOMPARE(rows.size(), size_t(1));
        QVERIFY(rows[0].phase == Phase::Training);
        QVERIFY(rows[0].optimizer == Optimizer::Sgd);
        QCOMPARE(window.parts().views->modes()->measured().points.size(), size_t(1));
        // another optimizer's training is another workload: its analysis shows none of these runs
        run->setCurrentIndex(run->findData(QStringLiteral("adam")));
        QTRY_VERIFY_WITH_TIMEOUT(
            !window.runner().busy() && window.result()->request.settings.optimizer == Optimizer::Adam, 30000);
        QCOMPARE(window.parts().attachments->loadRunsFile(runsPath), QString());
        QCOMPARE(window.parts().views->modes()->measured().points.size(), size_t(0));
    }

    void aModelThatFailsToAnalyseCannotBeProfiled() {
        QTemporaryDir folder;
        const QString broken = folder.filePath(QStringLiteral("broken.onnx"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a model");
        file.close();
        MainWindow window;
        QVERIFY(openAnalysed(window, "resnet18"));
        QVERIFY(window.parts().profiling->action()->isEnabled());
        QSignalSpy failed(&window.runner(), &AnalysisRunner::failed);
        window.openModel(broken);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY(!window.parts().profiling->action()->isEnabled());
        QVERIFY(!window.parts().tuning->action()->isEnabled());
        window.openModel(QString::fromStdString(test::samplePath("resnet18")));
        QTRY_VERIFY_WITH_TIMEOUT(window.parts().profiling->action()->isEnabled(), 30000);
    }

    void simulatedSweepLoadsMeasuredPointsOnThePowerModesPlot() {
        QTemporaryDir folder;
        MainWindow window;
        QVERIFY(openAnalysed(window, "resnet18"));
        QVERIFY(window.parts().profiling->action()->isEnabled());

        ProfileDialog dialog(resnetDefaults());
        dialog.setRunner(QStringLiteral("sim"));
        dialog.setModes(QStringLiteral("stock"));
        const QString runsPath = folder.filePath(QStringLiteral("resnet18-runs.csv"));
        dialog.setRunsPath(runsPath);
        ProfileRequest request = dialog.request();
        request.batches = {1, 2}; // batch 2 is in the file, not on the plot (the analysis is at batch 1)
        request.settleSeconds = 0;
        QSignalSpy written(window.parts().profiling, &ProfileModelFlow::runsWritten);
        QVERIFY(window.parts().profiling->start(request));
        QVERIFY(!window.parts().profiling->action()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(written.count(), 1, 60000);
        QVERIFY(!window.parts().profiling->running());

        const std::vector<RunRow> rows = readRunsFile(runsPath.toStdString());
        QCOMPARE(int(rows.size()), 8); // 4 stock modes x 2 batches
        plots::ParetoPlot* plot = window.parts().paretoPlot;
        QCOMPARE(plot->measuredPointCount(), 4);
        const models::MeasuredSet& measured = window.parts().views->modes()->measured();
        QCOMPARE(measured.sourceName, QStringLiteral("resnet18-runs.csv"));
        QCOMPARE(int(measured.points.size()), 4);
        for (const models::MeasuredPoint& point : measured.points)
            QVERIFY(point.simulated);
        bool simulatedLegend = false;
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
                simulatedLegend |= item->plottable()->name().startsWith(QLatin1String("simulated board"));
        QVERIFY(simulatedLegend);
        const models::PowerModeTableModel* table = window.parts().modesModel;
        QVERIFY(table->index(0, models::PowerModeTableModel::MeasuredBy)
                    .data()
                    .toString()
                    .startsWith(QLatin1String("simulated board (sim")));
        QVERIFY(window.parts().profiling->action()->isEnabled());

        // Opening it again (File → Open runs file…) shows the same points.
        QCOMPARE(window.parts().attachments->loadRunsFile(runsPath), QString());
        QCOMPARE(plot->measuredPointCount(), 4);
        const QString notRuns = folder.filePath(QStringLiteral("not-runs.csv"));
        QFile file(notRuns);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("a,b\n1,2\n");
        file.close();
        QVERIFY(window.parts().attachments->loadRunsFile(notRuns).contains(QLatin1String("not a runs file")));
        QCOMPARE(plot->measuredPointCount(), 4); // a refused file changes nothing
    }

    void runsOfModesOutsideThePlotAreDrawnAndRunsWithoutPowerAreNot() {
        QTemporaryDir folder;
        const QString runsPath = folder.filePath(QStringLiteral("measured-runs.csv"));
        QFile file(runsPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            QByteArray(idleRunsHeader()) + "\n" +
            "MAXN,12,2201600,1300500000,3199000000,1,fp32,inference,1.8,1.9,30,54,ok,command,\n"
            "MAXN,12,2201600,1300500000,3199000000,1,fp32,inference,2.0,2.1,32,64,ok,command,\n"
            "c8-cpu1728-gpu612-emc3199,8,1728000,612000000,3199000000,1,fp32,inference,4.1,4.3,18,73.8,ok,"
            "command,\n"
            "MODE_30W,8,1728000,612000000,3199000000,1,fp32,inference,4.4,4.6,,,ok,trtexec,\n"
            "MODE_15W,4,1113600,408000000,2133000000,1,fp32,inference,,,,,\"failed: exit 1\",command,\n");
        file.close();
        MainWindow window;
        window.show();
        window.openModel(QString::fromStdString(test::samplePath("resnet18")),
                         QStringLiteral("agx-orin-64gb"));
        QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 30000);
        QCOMPARE(window.parts().attachments->loadRunsFile(runsPath), QString());
        const models::MeasuredSet& measured = window.parts().views->modes()->measured();
        QCOMPARE(int(measured.points.size()), 3); // MAXN, the custom mode, MODE_30W (no power)
        plots::ParetoPlot* plot = window.parts().paretoPlot;
        QCOMPARE(plot->measuredPointCount(), 2); // the custom mode is not a candidate, and still drawn
        QStringList legend;
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
                legend << item->plottable()->name();
        QVERIFY(legend.contains(QStringLiteral("measured\n(runs file measured-runs.csv)")));
        QVERIFY(!legend.join(QLatin1Char(' ')).contains(QLatin1String("simulated")));
        const models::PowerModeTableModel* table = window.parts().modesModel;
        const int maxn = table->rowOfMode(QStringLiteral("MAXN"), 1);
        QCOMPARE(table->index(maxn, models::PowerModeTableModel::MeasuredLatency)
                     .data(models::SortRole)
                     .toDouble(),
                 0.0019);
        QCOMPARE(table->index(maxn, models::PowerModeTableModel::MeasuredBy).data().toString(),
                 QStringLiteral("measured (command, 2 runs)"));
        const int mode15 = table->rowOfMode(QStringLiteral("MODE_15W"), 1);
        QVERIFY(table->index(mode15, models::PowerModeTableModel::MeasuredBy).data().toString().isEmpty());

        // Another model: the runs are of the first one, and go.
        window.openModel(QString::fromStdString(test::samplePath("mobilenet_v2")));
        QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy() &&
                                     window.result()->request.modelPath.find("mobilenet") !=
                                         std::string::npos,
                                 30000);
        QCOMPARE(plot->measuredPointCount(), 0);
    }

    void closingTheWindowCancelsTheSweepAndWaitsForIt() {
        QTemporaryDir folder;
        MainWindow window;
        window.show();
        ProfileRequest request = ProfileDialog(resnetDefaults()).request();
        request.runner = "command:sleep 60; echo '{\"latency_ms\": 1}'";
        request.noSwitch = true;
        request.outPath = folder.filePath(QStringLiteral("slow-runs.csv")).toStdString();
        QVERIFY(window.parts().profiling->start(request));
        QTest::qWait(300); // the first run is sleeping
        QElapsedTimer clock;
        clock.start();
        window.close(); // cancels, kills the run's process group and waits for the sweep
        QVERIFY(clock.elapsed() < 20000);
        QTRY_VERIFY(!window.parts().profiling->running());
        const std::vector<RunRow> rows = readRunsFile(request.outPath);
        for (const RunRow& row : rows)
            QVERIFY(!row.ok());
    }
};

ROOFTOP_TEST_CLASS(TestProfileFlow)
#include "test_profile_flow.moc"
