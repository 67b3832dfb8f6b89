// SPDX-License-Identifier: GPL-3.0-or-later
// File → Load predictor… in process: a predictor learned from simulated-board runs drives the window's
// numbers (provenance predicted), its cross-validated runs are drawn against their predictions, and a
// predictor of another model or a broken file is refused with its reason.
#include "core/common/errors.h"
#include "core/learn/predictor_file.h"
#include "core/measure/learn_session.h"
#include "core/measure/profile_session.h"
#include "gui/gui_main.h"
#include "gui/main_window.h"
#include "gui/model_attachments.h"
#include "gui/modes_panel.h"
#include "gui/result_views.h"
#include "plots/prediction_check_plot.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace rooftop;
using namespace rooftop::gui;

namespace {

/// Profiles `model` in 12 sampled grid modes on the simulated board and learns a predictor from the runs.
QString learnedPredictor(const QTemporaryDir& folder, const std::string& model) {
    ProfileRequest profile;
    profile.modelPath = test::samplePath(model);
    profile.deviceId = "agx-orin-64gb";
    profile.runner = "sim";
    profile.modes = "sample:12";
    profile.seed = 3;
    profile.outPath = folder.filePath(QString::fromStdString(model + "-runs.csv")).toStdString();
    runProfileSession(profile, {}, nullptr);
    LearnRequest learn;
    learn.modelPath = profile.modelPath;
    learn.runsPath = profile.outPath;
    learn.deviceId = profile.deviceId;
    const QString path = folder.filePath(QString::fromStdString(model + "-predictor.json"));
    savePredictor(path.toStdString(), runLearning(learn).predictor, learn.runsPath);
    return path;
}

} // namespace

class TestPredictorWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void loadedPredictorGivesTheNumbersAndItsCheck() {
        QTemporaryDir folder;
        const QString predictor = learnedPredictor(folder, "resnet18");
        MainWindow window;
        window.show();
        window.openModel(QString::fromStdString(test::samplePath("resnet18")),
                         QStringLiteral("agx-orin-64gb"));
        QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 30000);
        const double rooflineLatency = window.result()->stockPredictions.front().latencySeconds;
        QVERIFY(!window.parts().views->modes()->latencyCheck()->isVisibleTo(window.parts().views->modes()));

        // Device → drop the predictor is offered only while there is one to drop
        QMenu* device = nullptr;
        for (QMenu* menu : window.menuBar()->findChildren<QMenu*>())
            if (menu->title() == QStringLiteral("&Device")) device = menu;
        QVERIFY(device);
        auto* drop = window.findChild<QAction*>(QStringLiteral("DropPredictorAction"));
        auto* derived = window.findChild<QAction*>(QStringLiteral("UseDerivedCeilingsAction"));
        QVERIFY(drop && derived);
        emit device->aboutToShow();
        QVERIFY(!drop->isEnabled());
        QVERIFY(!derived->isEnabled()); // no measured profile either

        QCOMPARE(window.parts().attachments->loadPredictorFile(predictor), QString());
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->predictor != nullptr && !window.runner().busy(), 30000);
        emit device->aboutToShow();
        QVERIFY(drop->isEnabled());
        const AnalysisResult& result = *window.result();
        QVERIFY(result.predictorBasis.find("learned from 12 runs of resnet18.onnx") != std::string::npos);
        QVERIFY(!result.stockPredictions.empty());
        for (const ModelPrediction& p : result.stockPredictions)
            QCOMPARE(p.provenance, Provenance::Predicted);
        QVERIFY(result.stockPredictions.front().latencySeconds != rooflineLatency);
        for (const Candidate& c : result.recommendation.candidates)
            QCOMPARE(c.provenance, Provenance::Predicted);
        // the advisor's card says what its bounds rest on in brief, the whole basis in its tooltip
        auto* card = window.findChild<QLabel*>(QStringLiteral("ResultsCard"));
        QVERIFY(card);
        QVERIFY2(card->text().contains(QStringLiteral("cross-validated over 12 runs: time ")),
                 qPrintable(card->text()));
        QVERIFY2(!card->text().contains(QStringLiteral("upper confidence limit")), qPrintable(card->text()));
        QVERIFY(card->toolTip().contains(QString::fromStdString(result.predictor->spreadBasis())));

        window.showView(QStringLiteral("modes"));
        ModesPanel* modes = window.parts().views->modes();
        QCOMPARE(int(modes->measured().points.size()), 12); // the predictor's runs, no runs file opened
        QCOMPARE(modes->measured().sourceName, QStringLiteral("resnet18-predictor.json, its runs"));
        for (const models::MeasuredPoint& point : modes->measured().points)
            QVERIFY(point.simulated);
        // the check is a tab beside the modes plot, the plot still in front
        auto* plotTabs = modes->findChild<QTabWidget*>(QStringLiteral("modesPlotTabs"));
        QVERIFY(plotTabs != nullptr);
        QTRY_COMPARE(plotTabs->count(), 2);
        QVERIFY(plotTabs->currentWidget()->isAncestorOf(window.parts().paretoPlot));
        QVERIFY(plotTabs->tabBar()->isVisibleTo(modes));
        plotTabs->setCurrentIndex(1);
        QTRY_VERIFY(modes->latencyCheck()->isVisibleTo(modes));
        QCOMPARE(modes->latencyCheck()->pointCount(), 12);
        QCOMPARE(modes->powerCheck()->pointCount(), 12);
        QVERIFY2(modes->latencyCheck()->title().contains(QLatin1String("12 held out (")),
                 qPrintable(modes->latencyCheck()->title()));
        QStringList legend;
        for (int i = 0; i < modes->latencyCheck()->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(modes->latencyCheck()->legend->item(i));
                item != nullptr)
                legend << item->plottable()->name();
        QVERIFY2(legend.contains(QStringLiteral("simulated runs")), qPrintable(legend.join('|')));
        QVERIFY(!legend.contains(QStringLiteral("measured runs")));

        window.parts().attachments->dropPredictor();
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->predictor == nullptr && !window.runner().busy(), 30000);
        QCOMPARE(window.result()->stockPredictions.front().latencySeconds, rooflineLatency);
        QTRY_VERIFY(!modes->latencyCheck()->isVisibleTo(modes));
        QCOMPARE(plotTabs->count(), 1);
        QVERIFY(!plotTabs->tabBar()->isVisibleTo(modes));
    }

    void commandLineNamesRunsAndPredictor() {
        const GuiOptions options = parseGuiOptions({"m.onnx", "--runs", "r.csv", "--predictor", "p.json"});
        QCOMPARE(options.runsPath, std::string("r.csv"));
        QCOMPARE(options.predictorPath, std::string("p.json"));
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--predictor"}));
        // the toolbar's workload: a training step with its optimizer, the batch
        const GuiOptions training =
            parseGuiOptions({"m.onnx", "--phase", "training", "--optimizer", "sgd", "--batch", "16"});
        QCOMPARE(training.run, std::string("sgd"));
        QCOMPARE(*training.batch, 16);
        QCOMPARE(parseGuiOptions({"m.onnx", "--phase", "training"}).run, std::string("adam"));
        QCOMPARE(parseGuiOptions({"m.onnx", "--phase", "inference"}).run, std::string("inference"));
        QVERIFY(parseGuiOptions({"m.onnx"}).run.empty());
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--optimizer", "sgd"}));
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--phase", "train"}));
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--batch", "0"}));
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--batch", "2x"}));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 parseGuiOptions({"m.onnx", "--batch", "4097"})); // the toolbar's limit
        QCOMPARE(*parseGuiOptions({"m.onnx", "--batch", "4096"}).batch, 4096);
        QCOMPARE(parseGuiOptions({"m.onnx", "--objective", "latency"}).objective, std::string("latency"));
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--objective", "speed"}));
        // as the commands read them: a limit given twice, or written in hexadecimal, is refused
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 parseGuiOptions({"m.onnx", "--latency-slo", "5", "--latency-slo", "50"}));
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--latency-slo", "0x10"}));
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--power-cap", "inf"}));
        QCOMPARE(parseGuiOptions({"m.onnx", "--dim", "a=1", "--dim", "b=2"}).dims.size(), size_t(2));
        // --option=value as the commands take it, the value whole after the first '='
        const GuiOptions attached = parseGuiOptions({"m.onnx", "--device=agx-orin-64gb", "--dim=sequence=128",
                                                     "--latency-slo=5", "--runs", "a=b.csv"});
        QCOMPARE(attached.deviceId, std::string("agx-orin-64gb"));
        QCOMPARE(attached.dims, std::vector<std::string>{"sequence=128"});
        QCOMPARE(*attached.latencySloMs, 5.0);
        QCOMPARE(attached.runsPath, std::string("a=b.csv"));
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--device=x", "--device", "y"}));
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--latency-slo="}));
    }

    void predictorOfAnotherModelOrABrokenFileIsRefused() {
        QTemporaryDir folder;
        const QString other = learnedPredictor(folder, "mobilenet_v2");
        MainWindow window;
        window.show();
        QVERIFY(
            window.parts().attachments->loadPredictorFile(other).contains(QLatin1String("Open the model")));
        window.openModel(QString::fromStdString(test::samplePath("resnet18")),
                         QStringLiteral("agx-orin-64gb"));
        QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 30000);
        const QString why = window.parts().attachments->loadPredictorFile(other);
        QVERIFY2(why.contains(QLatin1String("learned for model mobilenet_v2.onnx")), qPrintable(why));
        const QString broken = folder.filePath(QStringLiteral("broken.json"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"format\": \"rooftop-predictor/3\", \"board\": 3}");
        file.close();
        QVERIFY(window.parts().attachments->loadPredictorFile(broken).contains(
            QLatin1String("field board must be a string")));
        QVERIFY(!window.runner().busy());
        QVERIFY(window.result()->predictor == nullptr);
    }
};

ROOFTOP_TEST_CLASS(TestPredictorWindow)
#include "test_predictor_window.moc"
