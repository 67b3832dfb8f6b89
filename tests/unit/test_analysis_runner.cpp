// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's analysis runner: work off the GUI thread, stale requests dropped, errors as one line; and the
// measurement controller: its own pool, one measurement at a time, cancel, "unavailable" without a GPU.
#include "core/device/catalog.h"
#include "core/device/measured_profile.h"
#include "gui/analysis_runner.h"
#include "gui/measurement_controller.h"
#include "report/report_builder.h"
#include "support/test_support.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <atomic>

using namespace rooftop;
using namespace rooftop::gui;

namespace {

AnalysisRequest requestFor(const std::string& sample, int64_t batch) {
    AnalysisRequest request;
    request.modelPath = test::samplePath(sample);
    request.deviceId = "agx-orin-64gb";
    request.settings.dims.batch = batch;
    report::askForReport(request);
    return request;
}

/// A measurement stand-in: reports one step, then waits for its cancel flag (or `finish`).
struct FakeBench {
    std::atomic<int> runs{0};
    std::atomic<bool> cancelledAtEntry{false};
    std::atomic<bool> finish{false};
    QSemaphore entered;

    MeasurementController::Backend backend() {
        return {[](std::string*) { return true; },
                [this](const BenchRequest&, const SweepProgressCallback& progress,
                       const std::atomic<bool>* cancel) {
                    ++runs;
                    cancelledAtEntry = cancel->load();
                    SweepProgress step;
                    step.modeName = "MAXN";
                    step.modeCount = 1;
                    step.phase = "dram-copy";
                    step.fraction = 0.5;
                    progress(step);
                    entered.release();
                    while (!cancel->load() && !finish.load())
                        QThread::msleep(2);
                    SweepOutcome outcome;
                    outcome.cancelled = cancel->load();
                    if (!outcome.cancelled) outcome.measured.push_back("MAXN");
                    return outcome;
                }};
    }
};

} // namespace

class TestAnalysisRunner : public QObject {
    Q_OBJECT
private slots:
    void onlyTheLatestRequestIsDelivered() {
        AnalysisRunner runner;
        QSignalSpy finished(&runner, &AnalysisRunner::finished);
        QSignalSpy failed(&runner, &AnalysisRunner::failed);
        runner.start(requestFor("vit_b_16", 1)); // slow: superseded at its next stage
        runner.start(requestFor("resnet18", 2));
        const int latest = runner.start(requestFor("resnet18", 3));
        QCOMPARE(latest, 3);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        runner.waitForIdle();
        QTest::qWait(50); // let any queued (stale) delivery run: it must be dropped
        QCOMPARE(finished.count(), 1);
        QCOMPARE(failed.count(), 0);
        const auto result = finished.front().front().value<std::shared_ptr<const AnalysisResult>>();
        QCOMPARE(result->request.settings.dims.batch.value_or(0), int64_t(3));
        QCOMPARE(result->workload().info.path, test::samplePath("resnet18"));
        QVERIFY(!runner.busy());
    }

    void errorsArriveAsOneLine() {
        AnalysisRunner runner;
        QSignalSpy failed(&runner, &AnalysisRunner::failed);
        AnalysisRequest request = requestFor("resnet18", 1);
        request.deviceId = "no-such-board";
        runner.start(request);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        const QString message = failed.front().front().toString();
        QVERIFY(message.contains("no-such-board"));
        QVERIFY(!message.contains('\n'));
    }

    void measuredProfileIsReadOnceAndUsedForEveryMode() {
        const std::vector<DeviceSpec> catalog = loadCatalog(defaultCatalogFolder());
        const DeviceSpec& device = findDevice(catalog, "agx-orin-64gb");
        const PowerMode maxn = stockPowerModes(device).front();
        MeasuredProfile profile;
        profile.deviceId = device.id;
        MeasuredMode measured;
        measured.mode = maxn;
        measured.peakFlops[0] = 4.0e12;
        measured.bandwidth = 1.5e11;
        measured.dispatchSeconds = 5e-6;
        profile.modes.push_back(measured);
        QTemporaryDir dir;
        const std::string path = dir.filePath("profile.json").toStdString();
        saveMeasuredProfile(profile, path);

        AnalysisRequest request = requestFor("resnet18", 1);
        request.profilePath = path;
        const AnalysisResult result = runAnalysis(request);
        QVERIFY(result.measured != nullptr);
        // The runtime's efficiency applies to measured ceilings as to derived ones.
        const double derived =
            deriveModeProfile(device, maxn, findRuntime("tensorrt")).ceilings.bandwidth.value;
        const double expected = 1.5e11 * derived / device.peakBandwidth();
        QCOMPARE(result.stockPredictions.front().profile.ceilings.bandwidth.value, expected);
        QVERIFY(expected < derived); // the measured 150 GB/s, not the datasheet's 204.7 GB/s
        // What-if predictions (every slider move) use the profile read by the analysis, not the file.
        QVERIFY(QFile::remove(dir.filePath("profile.json")));
        const ModeProfile again = profileForMode(result, maxn);
        QCOMPARE(again.ceilings.bandwidth.value, expected);
    }

    void theRunnerCountsAModelOnceForEveryBoardAndModeSet() {
        AnalysisRunner runner;
        QSignalSpy finished(&runner, &AnalysisRunner::finished);
        AnalysisRequest request = requestFor("resnet18", 1);
        runner.start(request);
        // the model at its own precision, and at FP16 and INT8 for the precision hints (comparePrecisions)
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(runner.countedModels(), size_t(3));
        request.modes = "grid";
        request.deviceId = "agx-orin-32gb";
        runner.start(request);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
        QCOMPARE(runner.countedModels(), size_t(3));
        request.settings.dims.batch = 2; // a new batch size is a new count, at each precision
        runner.start(request);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, 30000);
        QCOMPARE(runner.countedModels(), size_t(6));
    }

    void measuringWithoutAGpuReportsWhyNot() {
        std::string whyNot;
        if (benchAvailable(&whyNot)) QSKIP("this machine can measure: the unavailable path is not reachable");
        MeasurementController controller;
        QSignalSpy unavailable(&controller, &MeasurementController::unavailable);
        QSignalSpy finished(&controller, &MeasurementController::finished);
        QSignalSpy failed(&controller, &MeasurementController::failed);
        QVERIFY(controller.start(BenchRequest{}));
        QVERIFY(controller.running());
        QTRY_COMPARE_WITH_TIMEOUT(unavailable.count(), 1, 30000);
        QCOMPARE(unavailable.front().front().toString(), QString::fromStdString(whyNot));
        QVERIFY(!whyNot.empty());
        QCOMPARE(finished.count(), 0);
        QCOMPARE(failed.count(), 0);
        QVERIFY(!controller.running());
    }

    void onlyOneMeasurementRunsAtATime() {
        FakeBench bench;
        MeasurementController controller(bench.backend());
        MeasurementController otherWindow(bench.backend());
        QSignalSpy progress(&controller, &MeasurementController::progress);
        QSignalSpy finished(&controller, &MeasurementController::finished);
        QVERIFY(controller.start(BenchRequest{}));
        QVERIFY(bench.entered.tryAcquire(1, 10000));
        QVERIFY(!controller.start(BenchRequest{}));  // this window's second one
        QVERIFY(!otherWindow.start(BenchRequest{})); // another window's, same board
        QTRY_COMPARE_WITH_TIMEOUT(progress.count(), 1, 10000);
        QVERIFY(progress.front().front().toString().contains("MAXN"));
        QCOMPARE(progress.front().at(1).toDouble(), 0.5);
        bench.finish = true;
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        const auto outcome = finished.front().front().value<SweepOutcome>();
        QVERIFY(!outcome.cancelled);
        QCOMPARE(outcome.measured.size(), size_t(1));
        QCOMPARE(bench.runs.load(), 1);
        QVERIFY(!controller.running());
        bench.finish = false;
        QVERIFY(otherWindow.start(BenchRequest{})); // free again once the first has ended
        QVERIFY(bench.entered.tryAcquire(1, 10000));
        otherWindow.stopAndWait();
    }

    void cancelStopsOnlyTheRunningMeasurement() {
        FakeBench bench;
        MeasurementController controller(bench.backend());
        QSignalSpy finished(&controller, &MeasurementController::finished);
        controller.cancel(); // before any start: nothing to stop, and the next run is not cancelled
        QVERIFY(controller.start(BenchRequest{}));
        QVERIFY(bench.entered.tryAcquire(1, 10000));
        QVERIFY(!bench.cancelledAtEntry.load());
        controller.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QVERIFY(finished.front().front().value<SweepOutcome>().cancelled);
        controller.cancel(); // after the end: harmless
        QVERIFY(controller.start(BenchRequest{}));
        QVERIFY(bench.entered.tryAcquire(1, 10000));
        QVERIFY(!bench.cancelledAtEntry.load());
        controller.stopAndWait();
        QCOMPARE(bench.runs.load(), 2);
    }

    void stoppingWaitsForItsOwnJobNotTheGlobalPool() {
        FakeBench bench;
        auto releaseGlobal = std::make_shared<QSemaphore>(); // outlives this test should a check fail
        // Someone else's work on the global pool: it ends on its own after 5 s, so a wrong wait fails, not
        // hangs.
        QThreadPool::globalInstance()->start([releaseGlobal] { releaseGlobal->tryAcquire(1, 5000); });
        {
            auto controller = std::make_unique<MeasurementController>(bench.backend());
            QVERIFY(controller->start(BenchRequest{}));
            QVERIFY(bench.entered.tryAcquire(1, 10000));
            QElapsedTimer clock;
            clock.start();
            controller.reset(); // cancels and waits for the sweep to restore the mode
            QVERIFY2(clock.elapsed() < 2500, "the controller waited for work that is not its own");
        }
        QVERIFY(QThreadPool::globalInstance()->activeThreadCount() >= 1); // the other job still runs
        releaseGlobal->release();
        QVERIFY(QThreadPool::globalInstance()->waitForDone(10000));
        MeasurementController next(bench.backend());
        QVERIFY(next.start(BenchRequest{})); // the destroyed controller freed the process-wide claim
        next.stopAndWait();
    }

    void advisorLimitsThatAreMalformedDoNotFailTheAnalysis() {
        AnalysisRequest request = requestFor("resnet18", 1);
        request.constraints.latencySloSeconds = -1.0;
        const AnalysisResult result = runAnalysis(request);
        QCOMPARE(int(result.stockPredictions.size()), 4);
        QVERIFY(!result.advisorError.empty());
        QVERIFY(!result.recommendation.recommended.has_value());
    }
};

QTEST_MAIN(TestAnalysisRunner)
#include "test_analysis_runner.moc"
