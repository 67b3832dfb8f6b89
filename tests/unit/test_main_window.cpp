// SPDX-License-Identifier: GPL-3.0-or-later
// The main window on the offscreen platform: open a model, table <-> plot selection, mode changes, exports.
#include "core/device/catalog.h"
#include "gui/advisor_panel.h"
#include "gui/analysis_toolbar.h"
#include "gui/main_window.h"
#include "models/layer_filter_proxy_model.h"
#include "models/layer_table_model.h"
#include "models/power_mode_table_model.h"
#include "models/selection_state.h"
#include "plots/pareto_plot.h"
#include "plots/roofline_plot.h"
#include "support/test_support.h"

#include <QApplication>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace rooftop;
using namespace rooftop::gui;

namespace {

QByteArray head(const QString& path, int bytes) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return file.read(bytes);
}

/// Opens resnet18 on AGX Orin 64GB and waits for the analysis.
void openAndWait(MainWindow& window) {
    window.openModel(QString::fromStdString(test::samplePath("resnet18")), QStringLiteral("agx-orin-64gb"));
    QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 30000);
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void openingAModelFillsTableAndPlots() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        openAndWait(window);
        const Workload& workload = window.result()->workload();
        QCOMPARE(window.layerModel()->rowCount(), int(workload.layers.size()));
        QCOMPARE(window.result()->device.id, std::string("agx-orin-64gb"));
        // 4 stock modes of AGX Orin 64GB, each with an FP32 roof (resnet18 as-model is fp32: one class).
        QCOMPARE(int(window.result()->stockPredictions.size()), 4);
        QCOMPARE(window.timePlot()->roofCount(), 4);
        QCOMPARE(window.energyPlot()->roofCount(), 4);
        int plottable = 0;
        for (const LayerCount& layer : workload.layers)
            if (layer.flops > 0 && layer.bytes() > 0) ++plottable;
        QCOMPARE(window.timePlot()->layerPointCount(), plottable);
        QVERIFY(window.result()->recommendation.recommended.has_value());
        QVERIFY(window.modesModel()->rowCount() == 4);
        QVERIFY(!window.advisor()->nvpmodelBlock().isEmpty());
    }

    void selectingARowRingsThePointAndClickingAPointSelectsTheRow() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        openAndWait(window);
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // The first Conv layer: select its row in the table.
        int convRow = -1;
        for (int row = 0; row < window.layerModel()->rowCount(); ++row)
            if (window.layerModel()->layerAt(row)->op == "Conv") {
                convRow = row;
                break;
            }
        QVERIFY(convRow >= 0);
        const int convNode = window.layerModel()->layerAt(convRow)->nodeIndex;
        const QModelIndex proxyIndex = window.layerProxy()->mapFromSource(window.layerModel()->index(convRow, 0));
        window.layerView()->selectionModel()->setCurrentIndex(proxyIndex, QItemSelectionModel::ClearAndSelect |
                                                                              QItemSelectionModel::Rows);
        QCOMPARE(window.selection()->currentLayer(), convNode);
        QCOMPARE(window.timePlot()->selectedLayer(), convNode);
        QCOMPARE(window.energyPlot()->selectedLayer(), convNode);

        // Click another layer's point on the time roofline: the table follows.
        int otherRow = -1;
        for (int row = 0; row < window.layerModel()->rowCount(); ++row) {
            const LayerCount* layer = window.layerModel()->layerAt(row);
            if (layer->op == "Gemm") otherRow = row;
        }
        QVERIFY(otherRow >= 0);
        const int otherNode = window.layerModel()->layerAt(otherRow)->nodeIndex;
        window.timePlot()->replot();
        const QPointF pixel = window.timePlot()->pixelOfLayer(otherNode);
        QVERIFY(pixel.x() >= 0 && pixel.y() >= 0);
        QTest::mouseClick(window.timePlot(), Qt::LeftButton, Qt::NoModifier, pixel.toPoint());
        QCOMPARE(window.selection()->currentLayer(), otherNode);
        const QModelIndex current = window.layerView()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(window.layerProxy()->sourceRow(current.row()), otherRow);
        QCOMPARE(window.timePlot()->selectedLayer(), otherNode);
    }

    void changingTheModeChangesTheNumbers() {
        MainWindow window;
        window.show();
        openAndWait(window);
        const int timeColumn = models::LayerTableModel::Time;
        const int row = window.layerModel()->rowOfNode(window.result()->workload().layers.front().nodeIndex);
        auto timeOf = [&] { return window.layerModel()->data(window.layerModel()->index(row, timeColumn), Qt::UserRole).toDouble(); };
        QComboBox* modes = window.activeModeBox();
        const int maxn = modes->findText(QStringLiteral("MAXN"));
        const int slowest = modes->findText(QStringLiteral("MODE_15W"));
        QVERIFY(maxn >= 0 && slowest >= 0);
        modes->setCurrentIndex(maxn);
        const double fast = timeOf();
        modes->setCurrentIndex(slowest);
        const double slow = timeOf();
        QVERIFY(fast > 0);
        QVERIFY2(slow > fast * 1.5, qPrintable(QStringLiteral("%1 vs %2").arg(slow).arg(fast)));
        QCOMPARE(window.layerModel()->prediction()->profile.mode.name, std::string("MODE_15W"));

        // A batch of 4 triggers a new analysis with 4x the MACs.
        const int64_t macs = window.result()->workload().totals.macs;
        window.batchBox()->setValue(4);
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->workload().totals.macs == 4 * macs, 30000);
    }

    void changingTheModeSetOrPowerModeDoesNotCountTheModelAgain() {
        MainWindow window;
        window.show();
        openAndWait(window);
        QCOMPARE(window.runner().countedModels(), size_t(1));
        auto waitForModes = [&](const std::string& modes) {
            QTRY_VERIFY_WITH_TIMEOUT(window.result()->request.modes == modes && !window.runner().busy(), 30000);
        };
        QComboBox* modeSet = window.toolbar()->modeSetBox();
        modeSet->setCurrentIndex(modeSet->findData(QStringLiteral("grid")));
        waitForModes("grid");
        QVERIFY(window.result()->recommendation.candidates.size() > 4); // the grid, not the 4 stock modes
        modeSet->setCurrentIndex(modeSet->findData(QStringLiteral("all")));
        waitForModes("all");
        window.activeModeBox()->setCurrentIndex(window.activeModeBox()->findText(QStringLiteral("MODE_15W")));
        window.advisor()->setWhatIf(true, 306000000, 2133000000);
        window.deviceBox()->setCurrentIndex(window.deviceBox()->findData(QStringLiteral("agx-orin-32gb")));
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->device.id == "agx-orin-32gb" && !window.runner().busy(), 30000);
        QCOMPARE(window.runner().countedModels(), size_t(1));
        window.batchBox()->setValue(2); // a new batch size does count again: the counter sees misses
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->request.settings.dims.batch == 2 && !window.runner().busy(), 30000);
        QCOMPARE(window.runner().countedModels(), size_t(2));
    }

    void customGridIsOfferedOnlyOnBoardsWithAGrid() {
        DeviceSpec orin = findDevice(loadCatalog(defaultCatalogFolder()), "agx-orin-64gb");
        DeviceSpec gpu = orin;
        gpu.id = "cuda:0";
        gpu.name = "A discrete GPU";
        gpu.discrete = true;
        gpu.grid = CustomGrid{};
        AnalysisToolbar bar;
        bar.setBoards({orin, gpu});
        QVERIFY(bar.selectBoard(QStringLiteral("agx-orin-64gb")));
        QComboBox* modeSet = bar.modeSetBox();
        auto* items = qobject_cast<QStandardItemModel*>(modeSet->model());
        QVERIFY(items != nullptr);
        const int gridRow = modeSet->findData(QStringLiteral("grid"));
        QVERIFY(items->item(gridRow)->isEnabled());
        modeSet->setCurrentIndex(gridRow);

        QSignalSpy changed(&bar, &AnalysisToolbar::requestInputsChanged);
        bar.boardBox()->setCurrentIndex(bar.boardBox()->findData(QStringLiteral("cuda:0")));
        QCOMPARE(changed.count(), 1); // one new request for the board and the mode set together
        QVERIFY(!items->item(gridRow)->isEnabled());
        QCOMPARE(modeSet->currentData().toString(), QStringLiteral("stock"));
        AnalysisRequest request;
        bar.fillRequest(request);
        QCOMPARE(request.deviceId, std::string("cuda:0"));
        QCOMPARE(request.modes, std::string("stock"));

        QVERIFY(bar.selectBoard(QStringLiteral("agx-orin-64gb")));
        QVERIFY(items->item(gridRow)->isEnabled());
        QVERIFY(!bar.selectBoard(QStringLiteral("no-such-board")));
    }

    void whatIfSlidersAddACustomMode() {
        MainWindow window;
        window.show();
        openAndWait(window);
        const int roofs = window.timePlot()->roofCount();
        window.advisor()->setWhatIf(true, 306000000, 2133000000);
        QCOMPARE(window.timePlot()->roofCount(), roofs + 1);
        QVERIFY(window.advisor()->whatIfMode().has_value());
        QCOMPARE(window.advisor()->whatIfMode()->gpuHz, int64_t(306000000));
        QVERIFY(window.layerModel()->prediction()->profile.mode.name.find("gpu306") != std::string::npos);
        window.advisor()->setWhatIf(false);
        QCOMPARE(window.timePlot()->roofCount(), roofs);
    }

    void droppingAFileOpensItAndRemembersIt() {
        MainWindow window;
        window.show();
        const QString path = QString::fromStdString(test::samplePath("resnet18"));
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 30000);
        QCOMPARE(QString::fromStdString(window.result()->workload().info.path), path);
        QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList().value(0), path);
        // Two files at once: the first here, the second in a new window.
        QMimeData two;
        const QString second = QString::fromStdString(test::samplePath("mobilenet_v2"));
        two.setUrls({QUrl::fromLocalFile(path), QUrl::fromLocalFile(second)});
        const int windowsBefore = int(QApplication::topLevelWidgets().size());
        QDragEnterEvent enterTwo(QPoint(10, 10), Qt::CopyAction, &two, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enterTwo);
        QVERIFY(enterTwo.isAccepted());
        QDropEvent dropTwo(QPointF(10, 10), Qt::CopyAction, &two, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &dropTwo);
        MainWindow* other = nullptr;
        for (QWidget* widget : QApplication::topLevelWidgets())
            if (auto* candidate = qobject_cast<MainWindow*>(widget); candidate && candidate != &window) other = candidate;
        QVERIFY(other != nullptr);
        QVERIFY(int(QApplication::topLevelWidgets().size()) > windowsBefore);
        QTRY_VERIFY_WITH_TIMEOUT(other->result() != nullptr && !other->runner().busy(), 30000);
        QCOMPARE(QString::fromStdString(other->result()->workload().info.path), second);
        other->close();
        window.close(); // saves the board: a new window starts on it
        QCOMPARE(QSettings().value(QStringLiteral("lastDevice")).toString(), window.deviceBox()->currentData().toString());
    }

    void exportsWriteValidFiles() {
        MainWindow window;
        window.show();
        openAndWait(window);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const QString& view : {QStringLiteral("time"), QStringLiteral("energy"), QStringLiteral("modes")}) {
            window.showView(view);
            const QString png = dir.filePath(view + ".png"), pdf = dir.filePath(view + ".pdf"), svg = dir.filePath(view + ".svg");
            QCOMPARE(window.exportCurrentPlot(png, 800, 500), QString());
            QCOMPARE(window.exportCurrentPlot(pdf, 800, 500), QString());
            QCOMPARE(window.exportCurrentPlot(svg, 800, 500), QString());
            QCOMPARE(head(png, 8), QByteArray("\x89PNG\r\n\x1a\n"));
            QCOMPARE(head(pdf, 5), QByteArray("%PDF-"));
            QVERIFY(head(svg, 4096).contains("<svg"));
            QImage image(png);
            QCOMPARE(image.width(), 1600); // 800 logical pixels at scale 2
        }
        QVERIFY(!window.exportCurrentPlot(dir.filePath("plot.bmp"), 800, 500).isEmpty());

        window.layerProxy()->setOpFilter(QStringLiteral("Conv"));
        QCOMPARE(window.exportLayerTable(dir.filePath("conv.json")), QString());
        QFile json(dir.filePath("conv.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonArray rows = QJsonDocument::fromJson(json.readAll()).array();
        int convs = 0;
        for (const LayerCount& layer : window.result()->workload().layers) convs += layer.op == "Conv";
        QCOMPARE(rows.size(), convs);
        QCOMPARE(window.exportLayerTable(dir.filePath("conv.csv")), QString());
        QFile csv(dir.filePath("conv.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), convs + 1);

        QCOMPARE(window.exportModesTable(dir.filePath("modes.json")), QString());
        QFile modes(dir.filePath("modes.json"));
        QVERIFY(modes.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(modes.readAll()).array().size(), 4); // the 4 stock modes the advisor weighed
        QVERIFY(!window.exportModesTable(dir.filePath("modes.txt")).isEmpty());

        QCOMPARE(window.exportNetronMetrics(dir.filePath("metrics.json")), QString());
        QVERIFY(QJsonDocument::fromJson(head(dir.filePath("metrics.json"), 1 << 24)).isObject() ||
                QJsonDocument::fromJson(head(dir.filePath("metrics.json"), 1 << 24)).isArray());

        QCOMPARE(window.exportReport(dir.filePath("report.pdf")), QString());
        QCOMPARE(head(dir.filePath("report.pdf"), 5), QByteArray("%PDF-"));
        QCOMPARE(window.exportReport(dir.filePath("report.html")), QString());
        const QByteArray html = head(dir.filePath("report.html"), 1 << 24);
        QCOMPARE(html.count("src=\"data:image/png;base64,"), 3);
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
