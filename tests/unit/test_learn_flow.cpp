// SPDX-License-Identifier: GPL-3.0-or-later
// Device → Learn a predictor from runs… in process: the page learns from the open model's runs at the
// window's workload, writes the same predictor `rooftop learn` would, shows each run's held-out prediction,
// and hands it to the advisor; missing files, half a reference and too few runs are refused with a reason.
#include "core/common/errors.h"
#include "core/learn/predictor_file.h"
#include "core/measure/learn_session.h"
#include "core/measure/profile_session.h"
#include "gui/learn_dialog.h"
#include "gui/learn_model_flow.h"
#include "gui/main_window.h"
#include "gui/measuring_pages.h"
#include "gui/model_attachments.h"
#include "plots/prediction_check_plot.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <thread>

using namespace rooftop;
using namespace rooftop::gui;

namespace {

/// Profiles `model` in `modes` on the simulated board into FOLDER/MODEL-runs.csv.
QString profiledRuns(const QTemporaryDir& folder, const std::string& model, const std::string& modes) {
    ProfileRequest profile;
    profile.modelPath = test::samplePath(model);
    profile.deviceId = "agx-orin-64gb";
    profile.runner = "sim";
    profile.modes = modes;
    profile.seed = 5;
    profile.outPath = folder.filePath(QString::fromStdString(model + "-runs.csv")).toStdString();
    runProfileSession(profile, {}, nullptr);
    return QString::fromStdString(profile.outPath);
}

ProfileDialogDefaults defaultsFor(const std::string& model) {
    ProfileDialogDefaults defaults;
    defaults.modelPath = QString::fromStdString(test::samplePath(model));
    defaults.deviceId = QStringLiteral("agx-orin-64gb");
    return defaults;
}

QString refusal(const LearnDialog& dialog) {
    try {
        (void)dialog.request();
    } catch (const InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

} // namespace

class TestLearnFlow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void thePageLearnsWhatTheCommandLearnsAndTheAdvisorUsesIt() {
        QTemporaryDir folder;
        const QString runs = profiledRuns(folder, "resnet18", "sample:10");
        MainWindow window;
        window.show();
        window.openModel(QString::fromStdString(test::samplePath("resnet18")),
                         QStringLiteral("agx-orin-64gb"));
        QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 30000);
        LearnModelFlow* flow = window.parts().pages->learning();
        QVERIFY(flow->action()->isEnabled());

        LearnDialog dialog(window.parts().pages->measuringDefaults(), &window);
        dialog.setRunsPath(runs);
        const LearnPageRequest request = dialog.request();
        QCOMPARE(QString::fromStdString(request.predictorPath),
                 folder.filePath(QStringLiteral("resnet18-predictor.json")));
        QCOMPARE(request.learn.deviceId, std::string("agx-orin-64gb"));
        QCOMPARE(request.learn.settings.phase, Phase::Inference);

        QSignalSpy finished(flow, &LearnModelFlow::finished);
        QVERIFY(flow->start(request));
        QVERIFY(!flow->action()->isEnabled()); // one learning at a time
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(flow->lastOutcome().has_value());
        QVERIFY(flow->action()->isEnabled());

        // the file written is the command's predictor: same runs, same cross-validated errors
        LearnRequest command;
        command.modelPath = test::samplePath("resnet18");
        command.deviceId = "agx-orin-64gb";
        command.runsPath = runs.toStdString();
        const Predictor expected = runLearning(command).predictor;
        const Predictor written = loadPredictor(request.predictorPath);
        QCOMPARE(written.runs, 10);
        QCOMPARE(written.runs, expected.runs);
        QCOMPARE(written.cv.timeMape, expected.cv.timeMape);
        QCOMPARE(written.cv.powerMape, expected.cv.powerMape);

        // each run's held-out prediction is drawn against the run
        QCOMPARE(flow->latencyCheck()->pointCount(), 10);
        QCOMPARE(flow->powerCheck()->pointCount(), 10);
        const auto* summary = flow->resultWindow()->findChild<QLabel*>(QStringLiteral("LearnSummary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(
                     QStringLiteral("from 10 runs of the simulated board, not measurements (10 with power)")),
                 qPrintable(summary->text()));
        // the words of rooftop learn's report
        QVERIFY2(summary->text().contains(QStringLiteral("Cross-validated (5-fold) MAPE: time ")),
                 qPrintable(summary->text()));
        QVERIFY(summary->text().contains(QStringLiteral("resnet18-predictor.json")));

        flow->use();
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->predictor != nullptr && !window.runner().busy(), 30000);
        QVERIFY(window.parts().attachments->hasPredictor());
        for (const ModelPrediction& p : window.result()->stockPredictions)
            QCOMPARE(p.provenance, Provenance::Predicted);
        QVERIFY(window.result()->predictorBasis.find("learned from 10 runs of resnet18.onnx") !=
                std::string::npos);
    }

    // The window's dims are the workload the page learns at: a predictor of BERT at sequence 64, not the
    // model's own dims, and runs at other dims are not taken for it.
    void thePageLearnsAtTheWindowsDims() {
        QTemporaryDir folder;
        ProfileRequest profile;
        profile.modelPath = test::samplePath("bert_base");
        profile.deviceId = "agx-orin-64gb";
        profile.runner = "sim";
        profile.modes = "sample:6";
        profile.seed = 2;
        profile.dims = {{"sequence", 64}};
        profile.outPath = folder.filePath(QStringLiteral("bert_base-runs.csv")).toStdString();
        runProfileSession(profile, {}, nullptr);

        ProfileDialogDefaults defaults = defaultsFor("bert_base");
        defaults.dims = profile.dims;
        LearnDialog dialog(defaults);
        dialog.setRunsPath(QString::fromStdString(profile.outPath));
        const LearnPageRequest request = dialog.request();
        QCOMPARE(request.learn.settings.dims.named, profile.dims);
        QWidget parent;
        LearnModelFlow flow(&parent);
        QSignalSpy finished(&flow, &LearnModelFlow::finished);
        QVERIFY(flow.start(request));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(flow.lastOutcome().has_value());
        const Predictor written = loadPredictor(request.predictorPath);
        QCOMPARE(written.runs, 6);
        QVERIFY2(written.dims.find("sequence") != std::string::npos &&
                     written.dims.find("64") != std::string::npos,
                 written.dims.c_str());

        // at the model's own dims the same runs are another workload's: the learner refuses them
        ProfileDialogDefaults own = defaultsFor("bert_base");
        LearnDialog ownDialog(own);
        ownDialog.setRunsPath(QString::fromStdString(profile.outPath));
        ownDialog.setPredictorPath(folder.filePath(QStringLiteral("own-predictor.json")));
        QSignalSpy failed(&flow, &LearnModelFlow::failed);
        QVERIFY(flow.start(ownDialog.request()));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 60000);
        QVERIFY(!QFileInfo::exists(folder.filePath(QStringLiteral("own-predictor.json"))));
    }

    void missingFilesAndHalfAReferenceAreRefused() {
        QTemporaryDir folder;
        LearnDialog dialog(defaultsFor("resnet18"));
        dialog.setRunsPath(folder.filePath(QStringLiteral("none-runs.csv")));
        QVERIFY2(refusal(dialog).contains(QStringLiteral("Runs file: ")) &&
                     refusal(dialog).contains(QStringLiteral("does not exist")),
                 qPrintable(refusal(dialog)));
        const QString runs = profiledRuns(folder, "resnet18", "stock");
        dialog.setRunsPath(runs);
        QCOMPARE(refusal(dialog), QString());
        dialog.setReference(QString::fromStdString(test::samplePath("mobilenet_v2")), QString());
        QVERIFY2(refusal(dialog).contains(QStringLiteral("give both the reference model and its runs file")),
                 qPrintable(refusal(dialog)));
        dialog.setReference(QString(), QString());
        dialog.setPredictorPath(runs);
        QVERIFY(refusal(dialog).contains(QStringLiteral("would overwrite the runs file")));
        dialog.setPredictorPath(QString());
        QVERIFY(refusal(dialog).contains(QStringLiteral("Predictor file: give a file")));

        // "~/" is the home folder, as the profile dialog shows its data folder
        dialog.setRunsPath(QStringLiteral("~/no-such-rooftop-runs.csv"));
        QCOMPARE(dialog.findChild<QLineEdit*>(QStringLiteral("predictorFile"))->text(),
                 QStringLiteral("~/no-such-rooftop-predictor.json"));
        QVERIFY2(refusal(dialog).contains(QDir::homePath() +
                                          QStringLiteral("/no-such-rooftop-runs.csv does not exist")),
                 qPrintable(refusal(dialog)));
    }

    // The runs file the profile dialog last wrote for the model is the one the page learns from by default.
    void theProfilesRunsFileIsTheDefault() {
        QTemporaryDir folder;
        const QString runs = profiledRuns(folder, "resnet18", "stock");
        const ProfileDialogDefaults defaults = defaultsFor("resnet18");
        QSettings().setValue(QStringLiteral("profileDialog/runsFile/") + defaults.modelPath, runs);
        const LearnDialog dialog(defaults);
        QCOMPARE(QString::fromStdString(dialog.request().learn.runsPath), runs);
        QCOMPARE(QString::fromStdString(dialog.request().predictorPath),
                 folder.filePath(QStringLiteral("resnet18-predictor.json")));
        QSettings().remove(QStringLiteral("profileDialog/runsFile/") + defaults.modelPath);
    }

    void tooFewRunsFailWithTheLearnersReason() {
        QTemporaryDir folder;
        const QString runs = profiledRuns(folder, "resnet18", "sample:10");
        QFile file(runs); // keep the header and three runs
        QVERIFY(file.open(QIODevice::ReadOnly));
        QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        file.close();
        QVERIFY(lines.size() > 4);
        lines = lines.mid(0, 4);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write((lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
        file.close();

        QWidget parent;
        LearnModelFlow flow(&parent);
        LearnDialog dialog(defaultsFor("resnet18"));
        dialog.setRunsPath(runs);
        QSignalSpy failed(&flow, &LearnModelFlow::failed);
        QVERIFY(flow.start(dialog.request()));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        const QString message = failed.front().at(1).toString();
        QVERIFY2(message.contains(QStringLiteral("at least 5")), qPrintable(message));
        QVERIFY(!flow.lastOutcome().has_value());
        QVERIFY(!QFileInfo::exists(dialog.request().predictorPath.c_str())); // nothing written
    }

    // Cancel stops a learning at its next stage: no predictor, no file, and the page says so.
    void cancelStopsTheLearningAndWritesNothing() {
        QTemporaryDir folder;
        const QString runs = profiledRuns(folder, "resnet18", "sample:10");
        QWidget parent;
        std::atomic<int> stages{0};
        LearnModelFlow flow(&parent, [&stages](const LearnRequest& request) {
            for (int i = 0; i < 400; ++i) { // a long learning: a stage every 5 ms, 2 s in all
                request.progress("stage " + std::to_string(i));
                ++stages;
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
            return runLearning(request);
        });
        LearnDialog dialog(defaultsFor("resnet18"));
        dialog.setRunsPath(runs);
        QSignalSpy finished(&flow, &LearnModelFlow::finished);
        QVERIFY(flow.start(dialog.request()));
        QTRY_VERIFY(stages.load() > 0);
        QPushButton* cancel = nullptr;
        for (auto* button : flow.resultWindow()->findChildren<QPushButton*>())
            if (button->text() == QStringLiteral("Cancel")) cancel = button;
        QVERIFY(cancel && cancel->isEnabled());
        cancel->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY2(stages.load() < 400, "the learning ran to its end");
        QVERIFY(!flow.running());
        QVERIFY(!flow.lastOutcome().has_value());
        QVERIFY(!QFileInfo::exists(dialog.request().predictorPath.c_str()));
        const auto* status = flow.resultWindow()->findChild<QLabel*>(QStringLiteral("LearnStatus"));
        QVERIFY2(status->text().startsWith(QStringLiteral("Cancelled")), qPrintable(status->text()));
        QVERIFY(!cancel->isEnabled());
        // and the next learning runs to its end
        QVERIFY(flow.start(dialog.request()));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
        QVERIFY(flow.lastOutcome().has_value());
    }
};

ROOFTOP_TEST_CLASS(TestLearnFlow)
#include "test_learn_flow.moc"
