// SPDX-License-Identifier: GPL-3.0-or-later
// Device → Calibrate the runtime to runs… in process: the page fits the window's runtime to the open model's
// runs as `rooftop calibrate` does, writes the runtime file, shows the fit, and the window then analyses with
// the calibrated runtime; a missing runs file or a runtime file over the runs is refused with a reason.
#include "core/common/errors.h"
#include "core/measure/profile_session.h"
#include "core/session/calibration_session.h"
#include "gui/calibrate_dialog.h"
#include "gui/calibrate_model_flow.h"
#include "gui/calibration_view.h"
#include "gui/main_window.h"
#include "gui/measuring_pages.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace rooftop;
using namespace rooftop::gui;

namespace {

QString simulatedRuns(const QTemporaryDir& folder) {
    ProfileRequest profile;
    profile.modelPath = test::samplePath("resnet18");
    profile.deviceId = "agx-orin-64gb";
    profile.runner = "sim";
    profile.modes = "sample:8";
    profile.batches = {1, 4};
    profile.seed = 7;
    profile.outPath = folder.filePath(QStringLiteral("resnet18-runs.csv")).toStdString();
    runProfileSession(profile, {}, nullptr);
    return QString::fromStdString(profile.outPath);
}

} // namespace

class TestCalibrateFlow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void thePageCalibratesAsTheCommandDoesAndTheWindowUsesIt() {
        QTemporaryDir folder;
        const QString runs = simulatedRuns(folder);
        MainWindow window;
        window.show();
        window.openModel(QString::fromStdString(test::samplePath("resnet18")),
                         QStringLiteral("agx-orin-64gb"));
        QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 30000);
        CalibrateModelFlow* flow = window.parts().pages->calibrating();
        QVERIFY(flow->action()->isEnabled());

        CalibrateDialog dialog(window.parts().pages->measuringDefaults(), &window);
        dialog.setRunsPath(runs);
        const CalibratePageRequest request = dialog.request();
        QCOMPARE(QString::fromStdString(request.runtimePath),
                 folder.filePath(QStringLiteral("resnet18-runtime.json")));
        QCOMPARE(request.calibration.runtime.name, window.result()->request.runtime.name);

        QSignalSpy finished(flow, &CalibrateModelFlow::finished);
        QVERIFY(flow->start(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(flow->lastResult().has_value());
        QVERIFY(QFileInfo::exists(QString::fromStdString(request.runtimePath)));

        // the command's fit of the same runs
        CalibrationRequest command;
        command.modelPath = test::samplePath("resnet18");
        command.deviceId = "agx-orin-64gb";
        command.runsPath = runs.toStdString();
        const CalibrationResult expected = runCalibration(command);
        QCOMPARE(flow->lastResult()->runs.size(), size_t(16));
        QCOMPARE(flow->lastResult()->fit.rooflineScale, expected.fit.rooflineScale);
        QCOMPARE(flow->lastResult()->fit.rSquared, expected.fit.rSquared);
        const auto* report =
            flow->resultWindow()->findChild<CalibrationView*>(QStringLiteral("CalibrationReport"));
        QVERIFY(report);
        QVERIFY2(report->text().contains(QStringLiteral("simulated")), qPrintable(report->text().left(400)));
        // the fit's quality said once on the page, in the report (the status line above it says where it
        // went)
        const QString quality = QString::fromStdString(flow->lastResult()->fit.quality).toHtmlEscaped();
        int said = 0; // the report's lines are labels of the page too
        for (const QLabel* label : flow->resultWindow()->findChildren<QLabel*>())
            said += int(label->text().count(quality));
        QCOMPARE(said, 1);
        // the command's report, its runs as table rows: one per run, the mode and the measured latency beside
        const auto* runsTable = report->findChild<QTableWidget*>(QStringLiteral("CalibrationRuns"));
        QVERIFY(runsTable);
        QCOMPARE(runsTable->rowCount(), int(expected.runs.size()));
        QCOMPARE(runsTable->horizontalHeaderItem(5)->text(), QStringLiteral("Simulated ms"));
        const CalibrationReportParts parts = calibrationReportParts(expected, "", true);
        for (int r = 0; r < runsTable->rowCount(); ++r)
            for (int c = 0; c < runsTable->columnCount(); ++c)
                QCOMPARE(runsTable->item(r, c)->text().toStdString(),
                         parts.runs.rows[size_t(r) + 1][size_t(c)]);
        // modes as a person reads them, as the window's other pages name them
        for (int r = 0; r < runsTable->rowCount(); ++r)
            QCOMPARE(runsTable->item(r, 1)->text().toStdString(),
                     readableModeName(expected.runs[size_t(r)].mode));
        QVERIFY(!runsTable->item(0, 1)->text().contains(QStringLiteral("-cpu")));
        const auto* powerTable = report->findChild<QTableWidget*>(QStringLiteral("CalibrationPower"));
        QVERIFY(powerTable);
        QCOMPARE(powerTable->rowCount(), int(parts.power.rows.size()) - 1);

        flow->use();
        const std::string calibrated = expected.fit.runtime.name;
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->runtime.name == calibrated && !window.runner().busy(),
                                 30000);
        QVERIFY(window.result()->runtime.calibrated);
    }

    void aMissingRunsFileOrARuntimeFileOverTheRunsIsRefused() {
        QTemporaryDir folder;
        ProfileDialogDefaults defaults;
        defaults.modelPath = QString::fromStdString(test::samplePath("resnet18"));
        defaults.deviceId = QStringLiteral("agx-orin-64gb");
        CalibrateDialog dialog(defaults);
        const auto refusal = [&dialog]() -> QString {
            try {
                (void)dialog.request();
            } catch (const InputError& error) {
                return QString::fromUtf8(error.what());
            }
            return {};
        };
        dialog.setRunsPath(folder.filePath(QStringLiteral("none-runs.csv")));
        QVERIFY2(refusal().contains(QStringLiteral("Runs file: ")) &&
                     refusal().contains(QStringLiteral("does not exist")),
                 qPrintable(refusal()));
        // while the field names no file, a line says where runs come from; it goes once the file is there
        const auto* hint = dialog.findChild<QLabel*>(QStringLiteral("runsHint"));
        QVERIFY(hint);
        QVERIFY(!hint->isHidden());
        QVERIFY(hint->text().contains(QStringLiteral("Device → Profile this model…")));
        const QString runs = simulatedRuns(folder);
        dialog.setRunsPath(runs);
        QCOMPARE(refusal(), QString());
        QVERIFY(hint->isHidden());
        dialog.setRuntimePath(runs);
        QVERIFY(refusal().contains(QStringLiteral("would overwrite the runs file")));
        dialog.setRuntimePath(QString());
        QVERIFY(refusal().contains(QStringLiteral("Runtime file: give a file")));
    }
};

ROOFTOP_TEST_CLASS(TestCalibrateFlow)
#include "test_calibrate_flow.moc"
