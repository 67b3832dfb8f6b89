// SPDX-License-Identifier: GPL-3.0-or-later
// The GUI's analysis runner: work off the GUI thread, stale requests dropped, errors as one line.
#include "gui/analysis_runner.h"
#include "support/test_support.h"

#include <QSignalSpy>
#include <QTest>

using namespace rooftop;
using namespace rooftop::gui;

namespace {

AnalysisRequest requestFor(const std::string& sample, int64_t batch) {
    AnalysisRequest request;
    request.modelPath = test::samplePath(sample);
    request.deviceId = "agx-orin-64gb";
    request.settings.dims.batch = batch;
    return request;
}

} // namespace

class TestAnalysisRunner : public QObject {
    Q_OBJECT
private slots:
    void onlyTheLatestRequestIsDelivered() {
        AnalysisRunner runner;
        QSignalSpy finished(&runner, &AnalysisRunner::finished);
        QSignalSpy failed(&runner, &AnalysisRunner::failed);
        runner.start(requestFor("vit_b_16", 1));  // slow: superseded at its next stage
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
        QCOMPARE(result->workload.info.path, test::samplePath("resnet18"));
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
