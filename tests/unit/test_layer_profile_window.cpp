// SPDX-License-Identifier: GPL-3.0-or-later
// File → Import measured layer profile… in process: the window compares a trtexec or ONNX Runtime profile of
// resnet18.onnx with the roofline in the mode its points show (off the GUI thread), fills the layer table's
// measured/predicted columns with exactly the comparison's numbers, draws the measured layers as hollow
// markers joined to their predictions, follows a change of mode, clears; bad files give one line and no
// crash.
#include "core/common/errors.h"
#include "core/compare/compare_session.h"
#include "core/compare/profile_kind.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "gui/advisor_panel.h"
#include "gui/analysis_toolbar.h"
#include "gui/comparison_card.h"
#include "gui/gui_main.h"
#include "gui/layer_profile_dialog.h"
#include "gui/layer_profile_import.h"
#include "gui/main_window.h"
#include "gui/model_attachments.h"
#include "models/layer_table_model.h"
#include "plots/measured_overlay.h"
#include "plots/roofline_plot.h"
#include "support/compare_fixtures.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QComboBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <map>

using namespace rooftop;
using namespace rooftop::gui;
using rooftop::models::LayerTableModel;

namespace {

const QString board = QStringLiteral("agx-orin-64gb");

QString resnet18() {
    return QString::fromStdString(test::samplePath("resnet18"));
}

bool openResnet18(MainWindow& window) {
    window.show();
    window.openModel(resnet18(), board);
    return QTest::qWaitFor([&] { return window.result() != nullptr && !window.runner().busy(); }, 60000);
}

bool waitForImport(MainWindow& window) {
    return QTest::qWaitFor([&] { return !window.parts().layerImport->running(); }, 60000);
}

int rowOfName(const LayerTableModel& model, const std::string& name) {
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.layerAt(row)->name == name) return row;
    return -1;
}

QStringList legendNames(const plots::RooflinePlot& plot) {
    QStringList names;
    for (int i = 0; i < plot.legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot.legend->item(i)); item != nullptr)
            names << item->plottable()->name();
    return names;
}

/// Every covered row shows the comparison's own numbers: a layer on its first node, "in FIRST" on the others.
void verifyTableShows(const LayerTableModel& model, const Comparison& comparison) {
    std::map<int, std::vector<const ComparedLayer*>> starting;
    std::map<int, const ComparedLayer*> inside;
    for (const ComparedLayer& layer : comparison.layers)
        for (size_t n = 0; n < layer.nodes.size(); ++n) {
            const int row = rowOfName(model, layer.nodes[n]);
            QVERIFY2(row >= 0, layer.nodes[n].c_str());
            if (n == 0)
                starting[row].push_back(&layer);
            else
                inside.emplace(row, &layer);
        }
    QVERIFY(!starting.empty());
    for (int row = 0; row < model.rowCount(); ++row) {
        const QVariant measured = model.index(row, LayerTableModel::MeasuredTime).data(models::SortRole);
        const QVariant predicted = model.index(row, LayerTableModel::LayerPredicted).data(models::SortRole);
        const QVariant error = model.index(row, LayerTableModel::LayerError).data(models::SortRole);
        const auto found = starting.find(row);
        if (found == starting.end()) {
            QVERIFY(!measured.isValid() && !predicted.isValid() && !error.isValid());
            const QString text = model.index(row, LayerTableModel::MeasuredTime).data().toString();
            if (inside.count(row))
                QCOMPARE(text, QStringLiteral("in ") + QString::fromStdString(inside[row]->nodes.front()));
            else
                QVERIFY2(text.isEmpty(), qPrintable(text));
            continue;
        }
        double measuredMs = 0.0;
        for (const ComparedLayer* layer : found->second)
            measuredMs += layer->measuredMs;
        QCOMPARE(measured.toDouble(), measuredMs);
        if (found->second.size() == 1) {
            QCOMPARE(predicted.toDouble(), *found->second.front()->predictedMs);
            QCOMPARE(error.toDouble(), *found->second.front()->errorPct);
        } else {
            QVERIFY(!error.isValid()); // no one layer's error to show
        }
    }
}

} // namespace

class TestLayerProfileWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void trtexecProfileFillsTheTableAndTheTimeRoofline() {
        QTemporaryDir folder;
        const QString profile = folder.filePath(QStringLiteral("resnet18-trt86.json"));
        QVERIFY(test::writeText(profile, test::trtexecProfileJson(test::resnet18Trt86Layers())));
        MainWindow window;
        QVERIFY(openResnet18(window));
        const QString mode = window.parts().activeModeBox->currentText();

        QCOMPARE(window.parts().attachments->importLayerProfile(profile), QString());
        QVERIFY(waitForImport(window));
        const Comparison* shown = window.parts().layerImport->comparison();
        QVERIFY(shown != nullptr);
        QCOMPARE(QString::fromStdString(shown->mode), mode); // the mode the roofline points are shown for
        QCOMPARE(shown->source, std::string("trtexec"));

        // the same request run directly gives the same numbers: the window built the request right
        CompareRequest request;
        request.analysis.modelPath = resnet18().toStdString();
        request.analysis.deviceId = board.toStdString();
        request.profilePath = profile.toStdString();
        request.mode = mode.toStdString();
        const Comparison expected = runComparison(request);
        QCOMPARE(shown->layers.size(), expected.layers.size());
        QCOMPARE(shown->measuredTotalMs, expected.measuredTotalMs);
        QCOMPARE(shown->predictedTotalMs, expected.predictedTotalMs);

        verifyTableShows(*window.parts().layerModel, *shown);
        if (QTest::currentTestFailed()) return;
        const QString tip =
            window.parts()
                .layerModel->headerData(LayerTableModel::MeasuredTime, Qt::Horizontal, Qt::ToolTipRole)
                .toString();
        QVERIFY2(tip.contains(QLatin1String("measured, trtexec --exportProfile resnet18-trt86.json")),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QLatin1String("first ONNX node")), qPrintable(tip));

        plots::RooflinePlot* plot = window.parts().timePlot;
        const plots::MeasuredOverlay overlay = plots::measuredOverlay(*shown, window.result()->workload());
        QVERIFY(overlay.layers.size() >= 10);
        QVERIFY(plot->measuredGraph() != nullptr);
        QCOMPARE(plot->measuredPointCount(), int(overlay.layers.size()));
        QCOMPARE(plot->measuredGraph()->scatterStyle().shape(), QCPScatterStyle::ssCircle);
        QCOMPARE(plot->measuredGraph()->scatterStyle().brush().style(), Qt::NoBrush); // hollow
        QCOMPARE(plot->measuredPredictionGraph()->dataCount(), int(overlay.layers.size()));
        std::vector<std::pair<double, double>> expectedPoints, drawnPoints; // the graph keeps its data by key
        for (const plots::MeasuredLayerMarker& marker : overlay.layers)
            expectedPoints.push_back({marker.intensity, marker.achievedFlopsPerSecond});
        for (int i = 0; i < plot->measuredPointCount(); ++i)
            drawnPoints.push_back(
                {plot->measuredGraph()->data()->at(i)->key, plot->measuredGraph()->data()->at(i)->value});
        std::sort(expectedPoints.begin(), expectedPoints.end());
        std::sort(drawnPoints.begin(), drawnPoints.end());
        QVERIFY(expectedPoints == drawnPoints);
        for (const ComparedLayer& layer : shown->layers) // each drawn point is a comparison's own numbers
            if (layer.intensity && layer.achievedFlops && layer.predictedMs)
                QVERIFY(std::count(drawnPoints.begin(), drawnPoints.end(),
                                   std::make_pair(*layer.intensity, *layer.achievedFlops)) >= 1);
        QVERIFY(legendNames(*plot).contains(QStringLiteral("measured layers")));
        QVERIFY2(plot->measuredLayerToolTip(0).contains(
                     QLatin1String("measured, trtexec --exportProfile resnet18-trt86.json")),
                 qPrintable(plot->measuredLayerToolTip(0)));
        QCOMPARE(window.parts().energyPlot->measuredGraph(),
                 nullptr); // a time profile says nothing of energy
        // a measured marker selects the first node it covers
        QCOMPARE(plot->nodeOfPoint((1 << 30) + 0), overlay.layers.front().firstNodeIndex);

        // another mode for the points: the comparison follows it
        QVERIFY(window.parts().activeModeBox->count() > 1);
        const int other = window.parts().activeModeBox->currentIndex() == 0 ? 1 : 0;
        window.parts().activeModeBox->setCurrentIndex(other);
        QTRY_VERIFY_WITH_TIMEOUT(window.parts().layerImport->comparison() != nullptr &&
                                     !window.parts().layerImport->running() &&
                                     window.parts().layerImport->comparison()->mode ==
                                         window.parts().activeModeBox->currentText().toStdString(),
                                 60000);
        verifyTableShows(*window.parts().layerModel, *window.parts().layerImport->comparison());
        if (QTest::currentTestFailed()) return;

        window.parts().attachments->clearLayerProfile();
        QCOMPARE(window.parts().layerImport->comparison(), nullptr);
        QCOMPARE(window.parts().layerModel->comparison(), nullptr);
        QCOMPARE(plot->measuredGraph(), nullptr);
        for (int row = 0; row < window.parts().layerModel->rowCount(); ++row)
            QVERIFY(!window.parts().layerModel->index(row, LayerTableModel::MeasuredTime).data().isValid());
    }

    void ortProfileIsReadAsOne() {
        QTemporaryDir folder;
        const QString profile = folder.filePath(QStringLiteral("ort.json"));
        QVERIFY(test::writeText(profile, test::resnet18OrtProfile()));
        QCOMPARE(*guessProfileKind(profile.toStdString()).source, ProfileSource::OnnxRuntime);
        MainWindow window;
        QVERIFY(openResnet18(window));
        QCOMPARE(window.parts().attachments->importLayerProfile(profile), QString());
        QVERIFY(waitForImport(window));
        QVERIFY(window.parts().layerImport->comparison() != nullptr);
        QCOMPARE(window.parts().layerImport->comparison()->source, std::string("onnxruntime"));
        verifyTableShows(*window.parts().layerModel, *window.parts().layerImport->comparison());
        if (QTest::currentTestFailed()) return;
        QVERIFY(window.parts().timePlot->measuredPointCount() > 0);
    }

    void badFilesGiveOneLineAndNoCrash() {
        QTemporaryDir folder;
        MainWindow window;
        QVERIFY(window.parts()
                    .attachments->importLayerProfile(folder.filePath(QStringLiteral("x.json")))
                    .contains(QLatin1String("Open the model")));
        QVERIFY(openResnet18(window));

        const QString unknown = folder.filePath(QStringLiteral("notes.txt"));
        QVERIFY(test::writeText(unknown, "hello\n"));
        QVERIFY(window.parts().attachments->importLayerProfile(unknown).contains(
            QLatin1String("cannot tell which tool")));
        QVERIFY(window.parts()
                    .attachments->importLayerProfile(folder.filePath(QStringLiteral("missing.json")))
                    .contains(QLatin1String("cannot read")));

        const QString broken = folder.filePath(QStringLiteral("broken.json"));
        QVERIFY(test::writeText(broken, "[{\"count\": 10}, {\"name\": \"/conv1/Conv\", \"timeMs\": 1.0, "
                                        "\"averageMs\": \"fast\", \"percentage\": 1}]"));
        QSignalSpy failed(window.parts().layerImport, &LayerProfileImport::failed);
        QCOMPARE(window.parts().attachments->importLayerProfile(broken),
                 QString()); // the file is read off the GUI thread
        QVERIFY(failed.wait(60000));
        const QString message = failed.front().at(1).toString();
        QVERIFY2(message.contains(QLatin1String("broken.json")) && !message.contains('\n'),
                 qPrintable(message));
        QCOMPARE(window.parts().layerImport->comparison(), nullptr);
        QCOMPARE(window.parts().timePlot->measuredGraph(), nullptr);
        QStringList boxes; // the window says it in a message box
        for (const QMessageBox* box : window.findChildren<QMessageBox*>())
            boxes << box->text();
        QVERIFY2(boxes.contains(message), qPrintable(boxes.join('|')));

        const QString otherModel = folder.filePath(QStringLiteral("other.json"));
        QVERIFY(test::writeText(otherModel,
                                test::trtexecProfileJson({{"Conv_0 + Relu_1", 0.1}, {"Gemm_8", 0.2}})));
        QCOMPARE(window.parts().attachments->importLayerProfile(otherModel), QString());
        QVERIFY(failed.wait(60000));
        QVERIFY2(failed.back().at(1).toString().contains(QLatin1String("another model")),
                 qPrintable(failed.back().at(1).toString()));

        const QString info = folder.filePath(QStringLiteral("layers.json"));
        QVERIFY(test::writeText(info, test::resnet18Trt10LayerInfo()));
        QVERIFY(guessProfileKind(info.toStdString()).layerInfo);
        QVERIFY(window.parts().attachments->importLayerProfile(info).contains(
            QLatin1String("--exportLayerInfo")));
        QVERIFY(window.result() != nullptr); // the window still works
    }

    void whatIfClocksAreTheModeCompared() {
        QTemporaryDir folder;
        const QString profile = folder.filePath(QStringLiteral("p.json"));
        QVERIFY(test::writeText(profile, test::trtexecProfileJson(test::resnet18Trt86Layers())));
        MainWindow window;
        QVERIFY(openResnet18(window));
        window.parts().advisor->setWhatIf(true, 306000000, 2133000000);
        QCOMPARE(window.parts().attachments->importLayerProfile(profile), QString());
        const std::optional<PowerMode> whatIf = window.parts().advisor->whatIfMode();
        QVERIFY(whatIf.has_value());
        QTRY_VERIFY_WITH_TIMEOUT(window.parts().layerImport->comparison() != nullptr &&
                                     !window.parts().layerImport->running(),
                                 60000);
        QCOMPARE(window.parts().layerImport->comparison()->mode, whatIf->name);
        // the mode by its canonical name, which carries all four settings (cores, CPU, GPU, EMC)
        QCOMPARE(window.parts().layerImport->request()->mode,
                 customModeName(whatIf->onlineCores, whatIf->cpuKhz, 306000000, 2133000000));
        window.parts().advisor->setWhatIf(false); // back to the stock mode the points show
        QTRY_VERIFY_WITH_TIMEOUT(window.parts().layerImport->comparison() != nullptr &&
                                     !window.parts().layerImport->running() &&
                                     window.parts().layerImport->comparison()->mode ==
                                         window.parts().activeModeBox->currentText().toStdString(),
                                 60000);
    }

    void measuredModeIsAskedAndTheCardSummarises() {
        ProfileKindGuess guess;
        guess.source = ProfileSource::Trtexec;
        LayerProfileDialog dialog(QStringLiteral("folder/p.json"), guess,
                                  {{QStringLiteral("MAXN"), QStringLiteral("MAXN")},
                                   {QStringLiteral("MODE_30W"), QStringLiteral("MODE_30W")}});
        QVERIFY(!dialog.okButton()->isEnabled()); // asked, not assumed
        dialog.measuredModeBox()->setCurrentIndex(2);
        QVERIFY(dialog.okButton()->isEnabled());
        QCOMPARE(dialog.measuredMode(), QStringLiteral("MODE_30W"));
        dialog.measuredModeBox()->setCurrentIndex(dialog.measuredModeBox()->count() - 1);
        QVERIFY(dialog.okButton()->isEnabled());
        QCOMPARE(dialog.measuredMode(), QString()); // not known: the mode the plots show

        QTemporaryDir folder;
        const QString profile = folder.filePath(QStringLiteral("resnet18-trt86.json"));
        QVERIFY(test::writeText(profile, test::trtexecProfileJson(test::resnet18Trt86Layers())));
        MainWindow window;
        QVERIFY(openResnet18(window));
        QVERIFY(window.parts().attachments->modeChoices().size() >= 4); // the board's stock modes
        QVERIFY(window.parts().comparisonCard->isHidden());
        QCOMPARE(window.parts().attachments->importLayerProfile(profile, {}, std::nullopt,
                                                                QStringLiteral("MODE_30W")),
                 QString());
        QVERIFY(waitForImport(window));
        const Comparison* shown = window.parts().layerImport->comparison();
        QVERIFY(shown != nullptr);
        QCOMPARE(shown->mode, std::string("MODE_30W")); // predicted in the mode it was measured in
        QCOMPARE(window.parts().activeModeBox->currentText(), QStringLiteral("MODE_30W")); // its points
        ComparisonCard* card = window.parts().comparisonCard;
        QVERIFY(!card->isHidden());
        const QString text = card->text();
        QVERIFY2(text.contains(QLatin1String("predicted in <b>MODE_30W</b>")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String(" measured vs ")) &&
                     text.contains(QLatin1String("Largest misses")),
                 qPrintable(text));
        QVERIFY2(text.contains(shown->predictedModelMs < shown->measuredTotalMs ? QLatin1String("slower")
                                                                                : QLatin1String("faster")),
                 qPrintable(text));
        QCOMPARE(card->measuredModeBox()->currentData().toString(), QStringLiteral("MODE_30W"));

        // said otherwise on the card: compared again in that mode
        const int maxn = card->measuredModeBox()->findData(QStringLiteral("MAXN"));
        QVERIFY(maxn > 0);
        card->measuredModeBox()->setCurrentIndex(maxn);
        emit card->measuredModeBox()->activated(maxn);
        QTRY_VERIFY_WITH_TIMEOUT(window.parts().layerImport->comparison() &&
                                     !window.parts().layerImport->running() &&
                                     window.parts().layerImport->comparison()->mode == "MAXN",
                                 60000);
        QTRY_VERIFY_WITH_TIMEOUT(card->text().contains(QLatin1String("predicted in <b>MAXN</b>")), 10000);

        card->findChild<QPushButton*>()->click(); // Clear
        QTRY_VERIFY_WITH_TIMEOUT(window.parts().layerImport->comparison() == nullptr, 10000);
        QVERIFY(card->isHidden());
        QCOMPARE(window.parts().attachments->measuredMode(), QString());

        // a mode the board lacks (the command line's --measured-mode is not checked before the board is
        // known): one line naming it, nothing compared, the card stays hidden, and nothing is retried
        QSignalSpy failed(window.parts().layerImport, &LayerProfileImport::failed);
        QCOMPARE(window.parts().attachments->importLayerProfile(profile, {}, std::nullopt,
                                                                QStringLiteral("MODE_99W")),
                 QString());
        QVERIFY(failed.wait(60000));
        const QString message = failed.front().at(1).toString();
        QVERIFY2(message.contains(QLatin1String("MODE_99W")) && !message.contains('\n'), qPrintable(message));
        QCOMPARE(window.parts().layerImport->comparison(), nullptr);
        QVERIFY(card->isHidden());
        QCOMPARE(window.parts().attachments->measuredMode(), QString());
    }

    void dialogStartsFromTheGuess() {
        ProfileKindGuess guess;
        guess.source = ProfileSource::OnnxRuntime;
        LayerProfileDialog dialog(QStringLiteral("folder/ort.json"), guess);
        QCOMPARE(dialog.source(), ProfileSource::OnnxRuntime);
        QVERIFY(!dialog.layerInfoEdit()->isEnabled());
        dialog.layerInfoEdit()->setText(QStringLiteral("l.json"));
        QCOMPARE(dialog.layerInfoPath(), QString()); // a layer info goes with trtexec only
        dialog.kindBox()->setCurrentIndex(dialog.kindBox()->findData(int(ProfileSource::Trtexec)));
        QVERIFY(dialog.layerInfoEdit()->isEnabled());
        QCOMPARE(dialog.layerInfoPath(), QStringLiteral("l.json"));
    }

    void kindsAreGuessedFromContent() {
        QTemporaryDir folder;
        auto guessOf = [&](const QString& name, const std::string& text) {
            const QString path = folder.filePath(name);
            test::writeText(path, text);
            return guessProfileKind(path.toStdString());
        };
        QCOMPARE(*guessOf("p.json", test::trtexecProfileJson({{"/fc/Gemm", 0.1}})).source,
                 ProfileSource::Trtexec);
        QCOMPARE(*guessOf("o.json", test::resnet18OrtProfile()).source, ProfileSource::OnnxRuntime);
        QCOMPARE(*guessOf("n.txt", "==PROF== Connected\n\"ID\",\"Kernel Name\",\"Metric Name\"\n").source,
                 ProfileSource::NsightCompute);
        QCOMPARE(*guessOf("n.csv", "a,b\n").source, ProfileSource::NsightCompute);
        QVERIFY(!guessOf("e.json", "{}").source.has_value());
        QVERIFY(!guessOf("e.txt", "hello").source.has_value());
        QVERIFY_THROWS_EXCEPTION(InputError, guessProfileKind(folder.filePath("missing.json").toStdString()));
    }

    void newModelClearsTheImport() {
        QTemporaryDir folder;
        const QString profile = folder.filePath(QStringLiteral("p.json"));
        QVERIFY(test::writeText(profile, test::trtexecProfileJson(test::resnet18Trt86Layers())));
        MainWindow window;
        QVERIFY(openResnet18(window));
        QCOMPARE(window.parts().attachments->importLayerProfile(profile), QString());
        QVERIFY(waitForImport(window));
        QVERIFY(window.parts().layerImport->comparison() != nullptr);
        window.openModel(QString::fromStdString(test::samplePath("mobilenet_v2")));
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->request.modelPath.find("mobilenet_v2") !=
                                         std::string::npos &&
                                     !window.runner().busy(),
                                 60000);
        QCOMPARE(window.parts().layerImport->comparison(), nullptr);
        QCOMPARE(window.parts().layerModel->comparison(), nullptr);
        QCOMPARE(window.parts().timePlot->measuredGraph(), nullptr);
    }

    void aTrainingAnalysisIsAnotherComparison() {
        CompareRequest inference;
        inference.profilePath = "p.json";
        inference.analysis.modelPath = "m.onnx";
        CompareRequest training = inference;
        training.analysis.settings.phase = Phase::Training;
        QVERIFY(comparisonKey(training) != comparisonKey(inference));
        CompareRequest sgd = training;
        sgd.analysis.settings.optimizer = Optimizer::Sgd;
        QVERIFY(comparisonKey(sgd) != comparisonKey(training));
    }

    void commandLineNamesTheLayerProfile() {
        const GuiOptions options =
            parseGuiOptions({"m.onnx", "--layer-profile", "p.json", "--layer-info", "l.json"});
        QCOMPARE(options.layerProfilePath, std::string("p.json"));
        QCOMPARE(options.layerInfoPath, std::string("l.json"));
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--layer-info", "l.json"}));
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--layer-profile"}));
        QCOMPARE(parseGuiOptions({"m.onnx", "--layer-profile", "p.json", "--measured-mode", "MODE_30W"})
                     .measuredMode,
                 std::string("MODE_30W"));
        QVERIFY_THROWS_EXCEPTION(InputError, parseGuiOptions({"m.onnx", "--measured-mode", "MAXN"}));
        // a dim bound twice to two values is refused at start, as the commands refuse it (the window's
        // field would drop both); twice to one value is one binding
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 parseGuiOptions({"m.onnx", "--dim", "seq=128", "--dim", "seq=64"}));
        QCOMPARE(parseGuiOptions({"m.onnx", "--dim", "seq=128", "--dim", "seq=128"}).dims.size(), size_t(2));
        // a near miss names the option meant, as the commands do
        try {
            parseGuiOptions({"m.onnx", "--devce", "agx-orin-64gb"});
            QFAIL("no error");
        } catch (const InputError& error) {
            QCOMPARE(QString(error.what()),
                     QString("unknown option '--devce' (did you mean --device? try rooftop --help)"));
        }
    }

    // a runtime file (here as rooftop compare --calibrate-classes writes one) joins the Runtime box and the
    // analysis runs with it; a bad one is refused with its reason
    void runtimeFileJoinsTheRuntimes() {
        QTemporaryDir folder;
        RuntimeProfile runtime = findRuntime("tensorrt");
        runtime.name = "tensorrt-calibrated";
        runtime.calibrated = true;
        runtime.classEfficiency[static_cast<size_t>(OperatorClass::DenseConv)] = 0.5;
        runtime.classFitted[static_cast<size_t>(OperatorClass::DenseConv)] = true;
        runtime.classBasis = "a test profile";
        const QString path = folder.filePath(QStringLiteral("calibrated.json"));
        saveRuntimeFile(path.toStdString(), runtime);
        MainWindow window;
        QVERIFY(openResnet18(window));
        QVERIFY(!window.result()->stockPredictions.empty());
        const double before = window.result()->stockPredictions.front().latencySeconds;
        QCOMPARE(window.parts().attachments->useRuntimeFile(path), QString());
        QVERIFY(QTest::qWaitFor(
            [&] {
                return window.result() && window.result()->runtime.name == "tensorrt-calibrated" &&
                       !window.runner().busy();
            },
            60000));
        QCOMPARE(window.result()->request.runtime.file, path.toStdString());
        QVERIFY(window.result()->stockPredictions.front().latencySeconds >
                before); // its convolutions are slower
        QCOMPARE(window.parts().toolbar->runtimeBox()->currentText(),
                 QStringLiteral("tensorrt-calibrated (calibrated.json)"));
        const QString bad = folder.filePath(QStringLiteral("bad.json"));
        QVERIFY(test::writeText(bad, "{\"schema\": \"rooftop-runtime/1\", \"name\": 3}"));
        QVERIFY(window.parts().attachments->useRuntimeFile(bad).contains(QStringLiteral("bad.json: name")));
    }
};

ROOFTOP_TEST_CLASS(TestLayerProfileWindow)
#include "test_layer_profile_window.moc"
