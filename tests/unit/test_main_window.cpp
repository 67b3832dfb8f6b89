// SPDX-License-Identifier: GPL-3.0-or-later
// The main window on the offscreen platform: open a model, table <-> plot selection, mode changes, exports.
#include "core/device/catalog.h"
#include "core/device/power_mode.h"
#include "gui/advisor_panel.h"
#include "gui/analysis_toolbar.h"
#include "gui/assumed_dims_banner.h"
#include "gui/layer_panel.h"
#include "gui/main_window.h"
#include "gui/measuring_pages.h"
#include "gui/nvpmodel_steps.h"
#include "gui/path_elide_delegate.h"
#include "gui/result_views.h"
#include "gui/shown_mode_chooser.h"
#include "gui/window_exports.h"
#include "gui/window_geometry.h"
#include "gui/window_settings.h"
#include "gui/window_status.h"
#include "models/layer_filter_proxy_model.h"
#include "models/layer_table_model.h"
#include "models/mode_row.h"
#include "models/power_mode_table_model.h"
#include "models/selection_state.h"
#include "plots/pareto_plot.h"
#include "plots/roofline_plot.h"
#include "support/test_support.h"

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFontMetrics>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <algorithm>

using namespace rooftop;
using namespace rooftop::gui;

namespace {

QByteArray head(const QString& path, int bytes) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    return file.read(bytes);
}

/// Opens a sample (resnet18) on AGX Orin 64GB and waits for the analysis.
void openAndWait(MainWindow& window, const std::string& sample = "resnet18") {
    window.openModel(QString::fromStdString(test::samplePath(sample)), QStringLiteral("agx-orin-64gb"));
    QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 60000);
}

/// Waits for the analysis a change of the window's inputs started.
void waitForNewResult(MainWindow& window, const AnalysisResult* before) {
    QTRY_VERIFY_WITH_TIMEOUT(window.result() != before && !window.runner().busy(), 60000);
}

/// The recommended mode of the window's analysis (empty when none).
std::string recommendedMode(const MainWindow& window) {
    const Recommendation& r = window.result()->recommendation;
    return r.recommended ? r.candidates[*r.recommended].profile.mode.name : std::string();
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // A page's error while its modal dialog is open lands over that dialog, where it can be clicked.
    void anErrorOpensOverTheModalDialog() {
        MainWindow window;
        window.show();
        QDialog dialog(&window);
        dialog.setModal(true);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        emit window.parts().pages->failed(QStringLiteral("Tune this model"),
                                          QStringLiteral("a field is wrong"));
        auto* box = dialog.findChild<QMessageBox*>();
        QVERIFY(box);
        QVERIFY(box->isVisible());
        QCOMPARE(box->text(), QStringLiteral("a field is wrong"));
        box->close();
        dialog.close();
    }

    void openingAModelFillsTableAndPlots() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        openAndWait(window);
        const Workload& workload = window.result()->workload();
        QCOMPARE(window.parts().layerModel->rowCount(), int(workload.layers.size()));
        QCOMPARE(window.result()->device.id, std::string("agx-orin-64gb"));
        // 4 stock modes of AGX Orin 64GB, each with an FP32 roof (resnet18 as-model is fp32: one class).
        QCOMPARE(int(window.result()->stockPredictions.size()), 4);
        QCOMPARE(window.parts().timePlot->roofCount(), 4);
        QCOMPARE(window.parts().energyPlot->roofCount(), 4);
        int plottable = 0;
        for (const LayerCount& layer : workload.layers)
            if (layer.flops > 0 && layer.bytes() > 0) ++plottable;
        QCOMPARE(window.parts().timePlot->layerPointCount(), plottable);
        QVERIFY(window.result()->recommendation.recommended.has_value());
        QVERIFY(window.parts().modesModel->rowCount() == 4);
        QVERIFY(!window.parts().advisor->nvpmodelBlock().isEmpty());
    }

    void selectingARowRingsThePointAndClickingAPointSelectsTheRow() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        openAndWait(window);
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // The first Conv layer: select its row in the table.
        int convRow = -1;
        for (int row = 0; row < window.parts().layerModel->rowCount(); ++row)
            if (window.parts().layerModel->layerAt(row)->op == "Conv") {
                convRow = row;
                break;
            }
        QVERIFY(convRow >= 0);
        const int convNode = window.parts().layerModel->layerAt(convRow)->nodeIndex;
        const QModelIndex proxyIndex =
            window.parts().layerProxy->mapFromSource(window.parts().layerModel->index(convRow, 0));
        window.parts().layerView->selectionModel()->setCurrentIndex(
            proxyIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QCOMPARE(window.parts().selection->currentLayer(), convNode);
        QCOMPARE(window.parts().timePlot->selectedLayer(), convNode);
        QCOMPARE(window.parts().energyPlot->selectedLayer(), convNode);

        // Click another layer's point on the time roofline: the table follows.
        int otherRow = -1;
        for (int row = 0; row < window.parts().layerModel->rowCount(); ++row) {
            const LayerCount* layer = window.parts().layerModel->layerAt(row);
            if (layer->op == "Gemm") otherRow = row;
        }
        QVERIFY(otherRow >= 0);
        const int otherNode = window.parts().layerModel->layerAt(otherRow)->nodeIndex;
        window.parts().timePlot->replot();
        const QPointF pixel = window.parts().timePlot->pixelOfLayer(otherNode);
        QVERIFY(pixel.x() >= 0 && pixel.y() >= 0);
        QTest::mouseClick(window.parts().timePlot, Qt::LeftButton, Qt::NoModifier, pixel.toPoint());
        QCOMPARE(window.parts().selection->currentLayer(), otherNode);
        const QModelIndex current = window.parts().layerView->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(window.parts().layerProxy->sourceRow(current.row()), otherRow);
        QCOMPARE(window.parts().timePlot->selectedLayer(), otherNode);
    }

    void changingTheModeChangesTheNumbers() {
        MainWindow window;
        window.show();
        openAndWait(window);
        const int timeColumn = models::LayerTableModel::Time;
        const int row =
            window.parts().layerModel->rowOfNode(window.result()->workload().layers.front().nodeIndex);
        auto timeOf = [&] {
            return window.parts()
                .layerModel->data(window.parts().layerModel->index(row, timeColumn), Qt::UserRole)
                .toDouble();
        };
        QComboBox* modes = window.parts().activeModeBox;
        const int maxn = modes->findData(QStringLiteral("stock:MAXN"));
        const int slowest = modes->findData(QStringLiteral("stock:MODE_15W"));
        QVERIFY(maxn >= 0 && slowest >= 0);
        modes->setCurrentIndex(maxn);
        const double fast = timeOf();
        modes->setCurrentIndex(slowest);
        const double slow = timeOf();
        QVERIFY(fast > 0);
        QVERIFY2(slow > fast * 1.5, qPrintable(QStringLiteral("%1 vs %2").arg(slow).arg(fast)));
        QCOMPARE(window.parts().layerModel->prediction()->profile.mode.name, std::string("MODE_15W"));

        // A batch of 4 triggers a new analysis with 4x the MACs.
        const int64_t macs = window.result()->workload().totals.macs;
        window.parts().batchBox->setValue(4);
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->workload().totals.macs == 4 * macs, 30000);
    }

    void changingTheModeSetOrPowerModeDoesNotCountTheModelAgain() {
        MainWindow window;
        window.show();
        openAndWait(window);
        // the model at its own precision, and at FP16 and INT8 for the card's precision hints
        QCOMPARE(window.runner().countedModels(), size_t(3));
        auto waitForModes = [&](const std::string& modes) {
            QTRY_VERIFY_WITH_TIMEOUT(window.result()->request.modes == modes && !window.runner().busy(),
                                     30000);
        };
        QComboBox* modeSet = window.parts().toolbar->modeSetBox();
        modeSet->setCurrentIndex(modeSet->findData(QStringLiteral("grid")));
        waitForModes("grid");
        QVERIFY(window.result()->recommendation.candidates.size() > 4); // the grid, not the 4 stock modes
        modeSet->setCurrentIndex(modeSet->findData(QStringLiteral("all")));
        waitForModes("all");
        window.parts().activeModeBox->setCurrentIndex(
            window.parts().activeModeBox->findData(QStringLiteral("stock:MODE_15W")));
        window.parts().advisor->setWhatIf(true, 306000000, 2133000000);
        window.parts().deviceBox->setCurrentIndex(
            window.parts().deviceBox->findData(QStringLiteral("agx-orin-32gb")));
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->device.id == "agx-orin-32gb" && !window.runner().busy(),
                                 30000);
        QCOMPARE(window.runner().countedModels(), size_t(3));
        window.parts().batchBox->setValue(2); // a new batch size does count again: the counter sees misses
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->request.settings.dims.batch == 2 && !window.runner().busy(),
                                 30000);
        QCOMPARE(window.runner().countedModels(), size_t(6));
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

    // A layout saved by another version, or unreadable, is not restored (the window opens with its own
    // defaults); values that do not fit their type read as the defaults; dims are remembered per model even
    // for paths that QSettings would split into groups.
    void settingsAreTypedAndVersioned() {
        QSettings().clear();
        {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            auto* dock = window.findChild<QDockWidget*>(QStringLiteral("AdvisorDock"));
            QVERIFY(dock && dock->isVisible());
            dock->hide();
            window.close(); // saves
        }
        QCOMPARE(QSettings().value(QStringLiteral("window/layoutVersion")).toInt(), kWindowLayoutVersion);
        {
            MainWindow same; // the same version restores the hidden dock
            same.show();
            QVERIFY(QTest::qWaitForWindowExposed(&same));
            QVERIFY(!same.findChild<QDockWidget*>(QStringLiteral("AdvisorDock"))->isVisible());
        }
        QSettings().setValue(QStringLiteral("window/layoutVersion"), kWindowLayoutVersion - 1);
        {
            MainWindow older; // a layout of another version is not restored
            older.show();
            QVERIFY(QTest::qWaitForWindowExposed(&older));
            QVERIFY(older.findChild<QDockWidget*>(QStringLiteral("AdvisorDock"))->isVisible());
        }
        QSettings().setValue(QStringLiteral("window/layoutVersion"), kWindowLayoutVersion);
        QSettings().setValue(QStringLiteral("window/state"), QByteArray("not a state"));
        QSettings().setValue(QStringLiteral("window/view"), -4);
        QSettings().setValue(QStringLiteral("theme"), QStringLiteral("purple"));
        QMainWindow plain;
        const WindowSettings read = restoreWindowSettings(plain);
        QCOMPARE(read.view, 0);
        QVERIFY(!read.dark);
        {
            MainWindow garbled; // an unreadable state opens with the defaults
            garbled.show();
            QVERIFY(QTest::qWaitForWindowExposed(&garbled));
            QVERIFY(garbled.findChild<QDockWidget*>(QStringLiteral("AdvisorDock"))->isVisible());
        }
        const QString a = QStringLiteral("/models/a b/m.onnx"), b = QStringLiteral("/models/a b/m2.onnx");
        saveModelDims(a, QStringLiteral(" sequence=64 "));
        saveModelDims(b, QStringLiteral("batch=2"));
        QCOMPARE(savedModelDims(a), QStringLiteral("sequence=64"));
        QCOMPARE(savedModelDims(b), QStringLiteral("batch=2"));
        saveModelDims(a, QString());
        QCOMPARE(savedModelDims(a), QString());
        QCOMPARE(savedBoard(), QStringLiteral("agx-orin-64gb"));
        QSettings().clear();
    }

    // At as-model precision on TensorRT the card offers the FP16 and INT8 answers; "Use FP16" switches.
    void precisionHintSwitchesWithOneClick() {
        MainWindow window;
        window.show();
        openAndWait(window, "resnet18");
        QCOMPARE(window.result()->request.settings.precision, Precision::AsModel);
        const QString hints = window.parts().advisor->precisionHintText();
        QVERIFY2(hints.contains(QStringLiteral("At FP16")) && hints.contains(QStringLiteral("At INT8")),
                 qPrintable(hints));
        auto* use = window.parts().advisor->findChild<QPushButton*>(QStringLiteral("UsePrecision_fp16"));
        QVERIFY(use && use->isVisible());
        const AnalysisResult* before = window.result();
        use->click();
        waitForNewResult(window, before);
        QCOMPARE(window.result()->request.settings.precision, Precision::FP16);
        QCOMPARE(window.parts().toolbar->precisionBox()->currentText(), QStringLiteral("fp16"));
        QVERIFY(window.parts().advisor->precisionHintText().isEmpty()); // already there
    }

    void theAdvisorFitsItsDockAt1280x800() {
        MainWindow window;
        window.show();
        openAndWait(window, "resnet50"); // tensorrt: the precision hints show
        window.setGeometry(0, 0, 1280, 800);
        QTRY_COMPARE(window.width(), 1280);
        QCoreApplication::processEvents();
        AdvisorPanel* advisor = window.parts().advisor;
        const QScrollArea* scroll = window.parts().advisorScroll;
        QCOMPARE(scroll->widget(), advisor);
        const int viewport = scroll->viewport()->width();
        QVERIFY2(
            advisor->width() <= viewport,
            qPrintable(
                QStringLiteral("the advisor is %1 px in a %2 px dock").arg(advisor->width()).arg(viewport)));
        for (const QLabel* label : advisor->findChildren<QLabel*>()) {
            if (!label->isVisible() || label->text().isEmpty()) continue;
            const int right = label->mapTo(advisor, QPoint(label->width(), 0)).x();
            QVERIFY2(right <= viewport, qPrintable(QStringLiteral("'%1' ends at %2 of %3")
                                                       .arg(label->text().left(40))
                                                       .arg(right)
                                                       .arg(viewport)));
        }
    }

    void assumedDimsShowABannerAndTheDimsEditorCountsAgain() {
        QSettings().remove(QStringLiteral("modelDims"));
        MainWindow window;
        window.show();
        openAndWait(window, "bert_base");
        const QString path = QString::fromStdString(test::samplePath("bert_base"));
        // BERT leaves batch and sequence symbolic: the batch follows the batch box, the sequence is assumed
        QVERIFY(window.parts().banner->isVisible());
        QVERIFY2(window.parts().banner->text().contains(QStringLiteral("sequence=1")),
                 qPrintable(window.parts().banner->text()));
        QVERIFY(!window.parts().banner->text().contains(QStringLiteral("batch=1")));
        QVERIFY2(window.windowTitle().contains(QStringLiteral("assumed sequence=1")),
                 qPrintable(window.windowTitle()));
        QVERIFY2(window.parts().status->text().contains(QStringLiteral("assumed sequence=1")),
                 qPrintable(window.parts().status->text()));
        QTemporaryDir dir;
        QCOMPARE(window.parts().exports->exportReport(dir.filePath("bert.html")), QString());
        const QByteArray html = head(dir.filePath("bert.html"), 1 << 24);
        QVERIFY(html.contains("Assumed dims"));
        QVERIFY(html.contains("(assumed sequence=1)"));
        const int64_t macsAtOne = window.result()->workload().totals.macs;

        // the dims editor: sequence=128 counts again, hides the banner and is remembered for this model
        QLineEdit* dims = window.parts().toolbar->dimsEdit();
        const AnalysisResult* before = window.result();
        dims->setText(QStringLiteral("sequence=128"));
        emit dims->editingFinished();
        waitForNewResult(window, before);
        QCOMPARE(window.result()->request.settings.dims.named.at("sequence"), int64_t(128));
        QVERIFY(window.result()->workload().totals.macs > 100 * macsAtOne);
        QVERIFY(!window.parts().banner->isVisible());
        QVERIFY(!window.windowTitle().contains(QStringLiteral("assumed")));
        QCOMPARE(savedModelDims(path), QStringLiteral("sequence=128"));

        // another window on the same model starts with them
        MainWindow second;
        second.show();
        openAndWait(second, "bert_base");
        QCOMPARE(second.parts().toolbar->dimsText(), QStringLiteral("sequence=128"));
        QVERIFY(second.result()->workload().info.assumedShapeDims().empty());
        QVERIFY(!second.parts().banner->isVisible());

        // malformed dims are refused: the analysis keeps the last good ones
        QVERIFY(!AnalysisToolbar::dimsError(QStringLiteral("sequence")).isEmpty());
        QVERIFY(AnalysisToolbar::dimsError(QStringLiteral("sequence=128, past=4")).isEmpty());
        QVERIFY(!AnalysisToolbar::dimsError(QStringLiteral("sequence=-1")).isEmpty());
        // the window's field is named, not the command line's option
        QCOMPARE(AnalysisToolbar::dimsError(QStringLiteral("sequence")),
                 QString("Dims expects NAME=VALUE, got 'sequence'"));
    }

    void modelsWithoutSymbolicDimsShowNoBanner() {
        MainWindow window;
        window.show();
        openAndWait(window);
        QVERIFY(!window.parts().banner->isVisible());
        QVERIFY(!window.windowTitle().contains(QStringLiteral("assumed")));
    }

    void layerTableShowsWhatMattersFirst() {
        MainWindow window;
        window.show();
        openAndWait(window);
        using models::LayerTableModel;
        LayerPanel* panel = window.parts().views->layers();
        const std::vector<int> shown = panel->visualColumns();
        const std::vector<int> first(shown.begin(), shown.begin() + 5);
        QCOMPARE(first, (std::vector<int>{LayerTableModel::Name, LayerTableModel::Op, LayerTableModel::Time,
                                          LayerTableModel::TimeShare, LayerTableModel::Bound}));
        const auto at = [&](int column) {
            return std::find(shown.begin(), shown.end(), column) - shown.begin();
        };
        for (int count : {LayerTableModel::Macs, LayerTableModel::Flops, LayerTableModel::WeightBytes,
                          LayerTableModel::Intensity})
            QVERIFY(at(count) > at(LayerTableModel::Bound));
        // sorted by time, the slowest layer first
        QTableView* view = window.parts().layerView;
        QVERIFY(view->model()->rowCount() > 2);
        const auto time = [&](int row) {
            return view->model()->index(row, LayerTableModel::Time).data(models::SortRole).toDouble();
        };
        for (int row = 1; row < view->model()->rowCount(); ++row)
            QVERIFY(time(row - 1) >= time(row));
        QVERIFY(time(0) > time(view->model()->rowCount() - 1));
        // units in the cells, long names elided in the middle
        QVERIFY(view->model()
                    ->index(0, LayerTableModel::TimeShare)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral(" %")));
        QVERIFY(view->model()
                    ->index(0, LayerTableModel::Intensity)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral(" FLOP/B")));
        QCOMPARE(view->textElideMode(), Qt::ElideMiddle);
        // the name column is sized to the names as they are (up to its cap), not to their shortened form,
        // unless that would push the bound out of view: then it takes the room left, 110 px at least
        int longest = 0;
        for (const LayerCount& layer : window.result()->workload().layers)
            longest =
                std::max(longest, view->fontMetrics().horizontalAdvance(QString::fromStdString(layer.name)));
        const int nameWidth = view->columnWidth(LayerTableModel::Name);
        const int othersToBound = panel->boundColumnRightEdge() -
                                  view->columnViewportPosition(LayerTableModel::Name) -
                                  nameWidth; // op, time, share and bound
        QVERIFY2(nameWidth >= std::min(longest, 360) ||
                     nameWidth == std::max(110, view->viewport()->width() - othersToBound),
                 qPrintable(QStringLiteral("%1 < %2").arg(nameWidth).arg(longest)));
        // the frozen name column: a view of its own over the same rows, only the name shown
        auto* frozen = view->findChild<QTableView*>(QStringLiteral("FrozenColumn"));
        QVERIFY(frozen != nullptr);
        QCOMPARE(frozen->model(), view->model());
        QCOMPARE(frozen->selectionModel(), view->selectionModel());
        for (int column = 0; column < LayerTableModel::ColumnCount; ++column)
            QCOMPARE(frozen->isColumnHidden(column), column != LayerTableModel::Name);
        // the column chooser hides a column and remembers it
        panel->setColumnShown(LayerTableModel::Flops, false);
        QVERIFY(view->isColumnHidden(LayerTableModel::Flops));
        panel->arrangeColumns();
        QVERIFY(view->isColumnHidden(LayerTableModel::Flops));
        panel->setColumnShown(LayerTableModel::Flops, true);
        QVERIFY(!view->isColumnHidden(LayerTableModel::Flops));
        panel->setColumnShown(LayerTableModel::Name, false); // the name column stays
        QVERIFY(!view->isColumnHidden(LayerTableModel::Name));
    }

    void longNamesKeepThePartThatTellsRowsApart() {
        const QFontMetrics metrics(QApplication::font());
        const QString name = QStringLiteral("/encoder/layers/encoder_layer_3/mlp/mlp.0/MatMul");
        QCOMPARE(PathElideDelegate::compactPath(name, metrics, metrics.horizontalAdvance(name)),
                 name); // it fits
        const QString narrow = PathElideDelegate::compactPath(
            name, metrics, metrics.horizontalAdvance(QStringLiteral("/…/encoder_layer_3/…/mlp.0/MatMul")));
        QVERIFY2(narrow.contains(QStringLiteral("encoder_layer_3")) &&
                     narrow.contains(QStringLiteral("mlp.0")) && narrow.endsWith(QStringLiteral("/MatMul")),
                 qPrintable(narrow));
        QVERIFY(!narrow.contains(QStringLiteral("/layers/")));
        // two rows of different layers still read differently
        const QString other = PathElideDelegate::compactPath(
            QStringLiteral("/encoder/layers/encoder_layer_4/mlp/mlp.0/MatMul"), metrics,
            metrics.horizontalAdvance(QStringLiteral("/…/encoder_layer_3/…/mlp.0/MatMul")));
        QVERIFY(narrow != other);
        QCOMPARE(PathElideDelegate::compactPath(QStringLiteral("conv1"), metrics, 5),
                 QStringLiteral("conv1"));
        // narrower still: the numbered segments keep their last word and number
        const QString narrower = PathElideDelegate::compactPath(
            QStringLiteral("/encoder/layers/encoder_layer_11/mlp/mlp.3/MatMul"), metrics,
            metrics.horizontalAdvance(QStringLiteral("/…/…layer_11/…/mlp.3/MatMul")));
        QCOMPARE(narrower, QStringLiteral("/…/…layer_11/…/mlp.3/MatMul"));
        // as narrow as the table at 1280x800: the op segment (the op column shows it) goes before any number
        const int tableWidth = metrics.horizontalAdvance(QStringLiteral("/…/…layer_0/mlp.0"));
        const QString mlp0 =
            PathElideDelegate::compactPath(QStringLiteral("/encoder/layers/encoder_layer_0/mlp/mlp.0/MatMul"),
                                           metrics, tableWidth, "MatMul");
        const QString mlp3 =
            PathElideDelegate::compactPath(QStringLiteral("/encoder/layers/encoder_layer_0/mlp/mlp.3/MatMul"),
                                           metrics, tableWidth, "MatMul");
        const QString layer1 =
            PathElideDelegate::compactPath(QStringLiteral("/encoder/layers/encoder_layer_1/mlp/mlp.0/MatMul"),
                                           metrics, tableWidth, "MatMul");
        QVERIFY2(mlp0.contains("_0") && mlp0.contains("mlp.0"), qPrintable(mlp0));
        QVERIFY2(mlp0 != mlp3 && mlp0 != layer1 && mlp3 != layer1,
                 qPrintable(mlp0 + " " + mlp3 + " " + layer1));
        QVERIFY(metrics.horizontalAdvance(mlp0) <= tableWidth);
        // a segment the next one repeats goes first
        const QString resnet = QStringLiteral("/layer2/layer2.0/downsample/downsample.0/Conv");
        QCOMPARE(PathElideDelegate::compactPath(resnet, metrics, metrics.horizontalAdvance(resnet) - 1),
                 QStringLiteral("/…/layer2.0/downsample/downsample.0/Conv"));
        // and when all that is not enough, the longest segment loses letters from its start: one ellipsis
        // each
        const int tight = metrics.horizontalAdvance(QStringLiteral("/…/layer2.0/…/…sample.0/Conv"));
        const QString squeezed = PathElideDelegate::compactPath(resnet, metrics, tight);
        QVERIFY2(metrics.horizontalAdvance(squeezed) <= tight, qPrintable(squeezed));
        QVERIFY2(squeezed.endsWith(QStringLiteral(".0/Conv")) &&
                     squeezed.contains(QStringLiteral("layer2.0")) &&
                     !squeezed.contains(QStringLiteral("……")),
                 qPrintable(squeezed));
    }

    void ctrlFFocusesTheLayerFilter() {
        MainWindow window;
        openAndWait(window); // before a model the empty state shows, with no table to filter
        window.show();
        QApplication::setActiveWindow(&window);
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.parts().paretoPlot->setFocus();
        QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
        QTRY_COMPARE(QApplication::focusWidget(),
                     static_cast<QWidget*>(window.parts().views->layers()->nameFilter()));
    }

    void windowFitsTheAvailableScreen() {
        for (const QRect& available : {QRect(0, 0, 1280, 800), QRect(0, 27, 1280, 773),
                                       QRect(0, 0, 1920, 1080), QRect(1920, 0, 2560, 1440)}) {
            const QRect geometry = initialWindowGeometry(available);
            QVERIFY2(available.contains(geometry),
                     qPrintable(QStringLiteral("%1x%2").arg(available.width()).arg(available.height())));
            QVERIFY(geometry.width() >= available.width() * 8 / 10 || geometry.width() == 1680);
        }
        QCOMPARE(initialWindowGeometry(QRect(0, 0, 1280, 800)), QRect(0, 0, 1280, 800));
        QVERIFY(!toolbarsNeedTwoRows(2400));
        QVERIFY(toolbarsNeedTwoRows(1280));
        // a geometry saved on a larger screen comes back inside a smaller one
        const QRect small(0, 0, 1280, 800);
        QVERIFY(small.contains(fitInside(QRect(400, 300, 1500, 900), small)));
        QCOMPARE(fitInside(QRect(10, 10, 600, 400), small), QRect(10, 10, 600, 400));

        // the window itself: never larger than what a 1280 x 800 screen offers, and inside its own screen
        MainWindow window;
        window.show();
        openAndWait(window);
        QVERIFY2(window.minimumSizeHint().width() <= 1280 && window.minimumSizeHint().height() <= 800,
                 qPrintable(QStringLiteral("%1x%2")
                                .arg(window.minimumSizeHint().width())
                                .arg(window.minimumSizeHint().height())));
        QVERIFY(window.minimumSize().width() <= 1280 && window.minimumSize().height() <= 800);
        const QRect available = window.screen()->availableGeometry(); // the offscreen screen: 800 x 600
        const QSize least = window.minimumSizeHint().expandedTo(window.minimumSize());
        if (least.width() <= available.width() && least.height() <= available.height())
            QVERIFY2(available.contains(window.frameGeometry()),
                     qPrintable(QStringLiteral("%1,%2 %3x%4 in %5,%6 %7x%8")
                                    .arg(window.frameGeometry().x())
                                    .arg(window.frameGeometry().y())
                                    .arg(window.frameGeometry().width())
                                    .arg(window.frameGeometry().height())
                                    .arg(available.x())
                                    .arg(available.y())
                                    .arg(available.width())
                                    .arg(available.height())));
        // every dock and toolbar has an entry in the View menu
        QMenu* view = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->text() == QStringLiteral("&View")) view = menu->menu();
        QVERIFY(view != nullptr);
        const QList<QDockWidget*> docks = window.findChildren<QDockWidget*>();
        QVERIFY(!docks.isEmpty());
        for (QDockWidget* dock : docks)
            QVERIFY2(view->actions().contains(dock->toggleViewAction()), qPrintable(dock->windowTitle()));
        for (QToolBar* bar : window.findChildren<QToolBar*>())
            QVERIFY2(view->actions().contains(bar->toggleViewAction()), qPrintable(bar->windowTitle()));
    }

    void pointsForFollowsTheRecommendation() {
        MainWindow window;
        window.show();
        openAndWait(window);
        auto shownMode = [&] { return window.parts().layerModel->prediction()->profile.mode.name; };
        const std::string first = recommendedMode(window);
        QVERIFY(!first.empty());
        QCOMPARE(window.parts().toolbar->shownModeKey(), QString::fromStdString("stock:" + first));
        QCOMPARE(shownMode(), first);

        // ask for the least latency: the recommendation (MAXN) moves, the points follow it
        const AnalysisResult* before = window.result();
        window.parts().advisor->setQuestion({}, Objective::Latency);
        waitForNewResult(window, before);
        const std::string fastest = recommendedMode(window);
        QVERIFY(fastest != first); // the least-energy mode is not the fastest on AGX Orin
        QCOMPARE(window.parts().toolbar->shownModeKey(), QString::fromStdString("stock:" + fastest));
        QCOMPARE(shownMode(), fastest);

        // a mode the user picks stays while the recommendation does not change
        QComboBox* box = window.parts().activeModeBox;
        box->setCurrentIndex(box->findData(QString::fromStdString("stock:" + first)));
        QCOMPARE(shownMode(), first);
        before = window.result();
        window.parts().batchBox->setValue(2);
        waitForNewResult(window, before);
        QCOMPARE(recommendedMode(window), fastest);
        QCOMPARE(shownMode(), first);

        // over the grid the recommendation is a custom mode: offered by its clocks and shown
        before = window.result();
        window.parts().advisor->setQuestion({}, Objective::Energy);
        QComboBox* modeSet = window.parts().toolbar->modeSetBox();
        modeSet->setCurrentIndex(modeSet->findData(QStringLiteral("grid")));
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->request.modes == "grid" && !window.runner().busy(), 60000);
        const std::string custom = recommendedMode(window);
        QVERIFY(custom.rfind("c", 0) == 0);
        QCOMPARE(window.parts().toolbar->shownModeKey(), QString::fromStdString("custom:" + custom));
        QVERIFY2(box->currentText().contains(QStringLiteral(" MHz")) &&
                     box->currentText().contains(QStringLiteral("recommended")),
                 qPrintable(box->currentText()));
        QCOMPARE(shownMode(), custom);

        // the what-if sliders are a choice of their own, and their numbers sit next to them
        window.parts().advisor->setWhatIf(true, 306000000, 2133000000);
        QCOMPARE(window.parts().toolbar->shownModeKey(), QStringLiteral("whatif"));
        QVERIFY(shownMode().find("gpu306") != std::string::npos);
        QVERIFY2(window.parts().advisor->whatIfText().contains(QStringLiteral("per batch")) &&
                     window.parts().advisor->whatIfText().contains(QStringLiteral("meets the limits")),
                 qPrintable(window.parts().advisor->whatIfText()));
        window.parts().advisor->setWhatIf(false);
        QCOMPARE(window.parts().toolbar->shownModeKey(), QString::fromStdString("custom:" + custom));
    }

    void layerTableShowsNameToBoundWithoutScrollingAt1280x800() {
        for (const char* sample : {"resnet50", "vit_b_16", "bert_base"}) {
            MainWindow window;
            window.show();
            openAndWait(window, sample);
            window.setGeometry(0, 0, 1280, 800); // the window maximized on a 1280 x 800 screen
            QTRY_COMPARE(window.width(), 1280);
            QCoreApplication::processEvents();
            LayerPanel* layers = window.parts().views->layers();
            QTableView* view = layers->view();
            const int viewport = view->viewport()->width();
            QVERIFY2(viewport > 250 && viewport < 700,
                     qPrintable(QStringLiteral("%1 in a %2 x %3 window, panel %4")
                                    .arg(viewport)
                                    .arg(window.width())
                                    .arg(window.height())
                                    .arg(layers->width())));
            QCOMPARE(view->horizontalScrollBar()->value(), 0);
            QVERIFY2(layers->boundColumnRightEdge() <= viewport,
                     qPrintable(QStringLiteral("%1: bound ends at %2 of %3")
                                    .arg(sample)
                                    .arg(layers->boundColumnRightEdge())
                                    .arg(viewport)));
            const std::vector<int> shown = layers->visualColumns();
            const int bound = int(std::find(shown.begin(), shown.end(), int(models::LayerTableModel::Bound)) -
                                  shown.begin());
            QCOMPARE(bound, 4);                                               // name, op, time, share, bound
            QVERIFY(view->columnWidth(models::LayerTableModel::Name) >= 100); // elided, still readable
            // a wider panel gives the names their room back
            window.resize(1920, 1080);
            QCoreApplication::processEvents();
            QVERIFY(view->columnWidth(models::LayerTableModel::Name) >= 100);
            QVERIFY(layers->boundColumnRightEdge() <= view->viewport()->width());
        }
    }

    void theRoofOfThePointsModeIsHighlighted() {
        MainWindow window;
        window.show();
        openAndWait(window);
        const QString recommended = QString::fromStdString(recommendedMode(window));
        QComboBox* box = window.parts().activeModeBox;
        auto highlighted = [&](const QString& mode) {
            for (plots::RooflinePlot* plot : {window.parts().timePlot, window.parts().energyPlot}) {
                QCOMPARE(plot->highlightedMode(), mode);
                double widest = 0, others = 0;
                for (QCPGraph* roof : plot->roofGraphs())
                    (roof->name() == mode ? widest : others) =
                        std::max(roof->name() == mode ? widest : others, roof->pen().widthF());
                QVERIFY2(widest > others + 1.0, qPrintable(mode));
            }
        };
        highlighted(recommended);
        // "Points for" another mode: its roof is the highlighted one
        const QString other =
            recommended == QLatin1String("MAXN") ? QStringLiteral("MODE_15W") : QStringLiteral("MAXN");
        box->setCurrentIndex(box->findData(QStringLiteral("stock:") + other));
        QCoreApplication::processEvents();
        highlighted(other);
    }

    void whatIfSaysWhichLimitItBreaks() {
        MainWindow window;
        window.show();
        openAndWait(window);
        const AnalysisResult* before = window.result();
        Constraints limits;
        limits.latencySloSeconds = 1e-5; // no mode runs ResNet-18 in 10 µs
        window.parts().advisor->setQuestion(limits, Objective::Energy);
        waitForNewResult(window, before);
        window.parts().advisor->setWhatIf(true, 306000000, 2133000000);
        QVERIFY2(window.parts().advisor->whatIfText().contains(QStringLiteral("breaks the latency SLO")),
                 qPrintable(window.parts().advisor->whatIfText()));
    }

    void advisorCardComesFirstAndCustomClocksAreHinted() {
        MainWindow window;
        window.show();
        openAndWait(window);
        const Recommendation& r = window.result()->recommendation;
        QVERIFY(r.recommended.has_value());
        const QString card = window.parts().advisor->cardText();
        for (const QString& part : {QString::fromStdString(recommendedMode(window)),
                                    QStringLiteral("per batch"), QStringLiteral("per inference"),
                                    QStringLiteral("less energy than"), QStringLiteral("predicted")})
            QVERIFY2(card.contains(part), qPrintable(part + " not in " + card));
        // the prose is folded below the card
        QVERIFY(!window.parts().advisor->explanationText().isEmpty());
        // each command of the nvpmodel text on its own, without its comment
        const QStringList commands = window.parts().advisor->commands();
        QVERIFY(commands.contains(QStringLiteral("nvpmodel -q")));
        for (const QString& command : commands)
            QVERIFY2(!command.contains('#'), qPrintable(command));
        // over the stock modes the grid's answer is computed by the session and named when it saves more
        const std::optional<GridHint>& hint = window.result()->gridHint;
        QVERIFY(hint.has_value());
        QVERIFY(!hint->best.profile.mode.stock);
        QVERIFY(hint->best.energyPerInference() < r.candidates[*r.recommended].energyPerInference());
        QVERIFY(hint->savingPercent > r.savingPercent);
        const QString text = window.parts().advisor->gridHintText();
        QVERIFY2(text.contains(QStringLiteral("Custom clocks would save")) &&
                     text.contains(QStringLiteral("GPU ")) && text.contains(QStringLiteral(" \u00d7 ")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral(" at 90 %) per batch")), qPrintable(text)); // its bound

        // advising over the grid too makes the hint the answer, and it goes
        const AnalysisResult* before = window.result();
        QComboBox* modeSet = window.parts().toolbar->modeSetBox();
        modeSet->setCurrentIndex(modeSet->findData(QStringLiteral("all")));
        waitForNewResult(window, before);
        QVERIFY(!window.result()->gridHint.has_value());
        // a custom answer's commands are steps, with its block to save and the whole as a script
        const NvpmodelSteps* steps = window.parts().advisor->nvpmodelSteps();
        QCOMPARE(steps->stepTitles(),
                 QStringList({QStringLiteral("1. Back up"), QStringLiteral("2. Add the mode"),
                              QStringLiteral("3. Switch"), QStringLiteral("4. Undo")}));
        QVERIFY(steps->script().contains(QStringLiteral("<<'EOF'\n< POWER_MODEL")));
        QTemporaryDir blockDir;
        const QString blockPath = blockDir.filePath(QStringLiteral("rooftop_mode.conf"));
        QString why;
        QVERIFY2(steps->saveBlock(blockPath, &why), qPrintable(why));
        QFile saved(blockPath);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QVERIFY(saved.readAll().startsWith("< POWER_MODEL ID="));
        QVERIFY(window.parts().advisor->gridHintText().isEmpty());
        QVERIFY(!window.result()
                     ->recommendation.candidates[*window.result()->recommendation.recommended]
                     .profile.mode.stock);
    }

    void whatIfSlidersAddACustomMode() {
        MainWindow window;
        window.show();
        openAndWait(window);
        const int roofs = window.parts().timePlot->roofCount();
        window.parts().advisor->setWhatIf(true, 306000000, 2133000000);
        QCOMPARE(window.parts().timePlot->roofCount(), roofs + 1);
        QVERIFY(window.parts().advisor->whatIfMode().has_value());
        QCOMPARE(window.parts().advisor->whatIfMode()->gpuHz, int64_t(306000000));
        QVERIFY(window.parts().layerModel->prediction()->profile.mode.name.find("gpu306") !=
                std::string::npos);
        window.parts().advisor->setWhatIf(false);
        QCOMPARE(window.parts().timePlot->roofCount(), roofs);
    }

    void aGridModePickedFromTheTableKeepsItsCoresAndCpuClock() {
        MainWindow window;
        window.show();
        openAndWait(window);
        const MainWindow::Parts& parts = window.parts();
        QComboBox* modeSet = parts.toolbar->modeSetBox();
        modeSet->setCurrentIndex(modeSet->findData(QStringLiteral("grid")));
        QTRY_VERIFY_WITH_TIMEOUT(window.result()->request.modes == "grid" && !window.runner().busy(), 60000);
        const DeviceSpec& device = window.result()->device;
        // a row with fewer cores and a lower CPU clock than MAXN that "Points for" does not list
        int pick = -1;
        for (int row = 0; row < parts.modesModel->rowCount() && pick < 0; ++row) {
            const PowerMode& mode = parts.modesModel->rowAt(row)->profile.mode;
            if (!mode.stock && mode.onlineCores < device.cpuCores && mode.cpuKhz < device.maxCpuKhz() &&
                parts.activeModeBox->findData(QString::fromStdString("custom:" + mode.name)) < 0)
                pick = row;
        }
        QVERIFY(pick >= 0);
        const models::ModeRow picked = *parts.modesModel->rowAt(pick);
        const PowerMode& mode = picked.profile.mode;
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(parts.modesView->model());
        QVERIFY(proxy != nullptr);
        // the mode's name stays in view while the grid's many columns scroll past it
        auto* frozenModes = parts.modesView->findChild<QTableView*>(QStringLiteral("FrozenColumn"));
        QVERIFY(frozenModes != nullptr);
        QCOMPARE(frozenModes->selectionModel(), parts.modesView->selectionModel());
        for (int column = 0; column < models::PowerModeTableModel::ColumnCount; ++column)
            QCOMPARE(frozenModes->isColumnHidden(column), column != models::PowerModeTableModel::Mode);
        parts.modesView->selectionModel()->setCurrentIndex(
            proxy->mapFromSource(parts.modesModel->index(pick, 0)),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        // the what-if mode is the picked one, all four settings
        QCOMPARE(parts.toolbar->shownModeKey(), QStringLiteral("whatif"));
        const std::optional<PowerMode> whatIf = parts.advisor->whatIfMode();
        QVERIFY(whatIf.has_value());
        QCOMPARE(whatIf->name, mode.name);
        QCOMPARE(whatIf->onlineCores, mode.onlineCores);
        QCOMPARE(whatIf->cpuKhz, mode.cpuKhz);
        QCOMPARE(whatIf->gpuHz, mode.gpuHz);
        QCOMPARE(whatIf->emcHz, mode.emcHz);
        // the points, the roofs and the report draw it as itself
        const ModelPrediction* shown = parts.layerModel->prediction();
        QVERIFY(shown != nullptr);
        QCOMPARE(shown->profile.mode.onlineCores, mode.onlineCores);
        QCOMPARE(shown->profile.mode.cpuKhz, mode.cpuKhz);
        const report::SceneChoice scene = parts.shownModes->sceneChoice();
        QVERIFY(scene.whatIf.has_value());
        QCOMPARE(scene.whatIf->profile.mode.name, mode.name);
        // predicted with its own CPU: the table's energy, not that of MAXN's cores and clock at its GPU and
        // EMC
        QVERIFY2(std::abs(shown->energyPerInference() - picked.energyPerInferenceJoules) <=
                     1e-9 * picked.energyPerInferenceJoules,
                 qPrintable(QStringLiteral("%1 J, the table %2 J")
                                .arg(shown->energyPerInference())
                                .arg(picked.energyPerInferenceJoules)));
        const ModelPrediction maxnCpu =
            predictMode(*window.result(),
                        customPowerMode(device, device.cpuCores, device.maxCpuKhz(), mode.gpuHz, mode.emcHz));
        QVERIFY(shown->energyPerInference() != maxnCpu.energyPerInference());
        // the advisor says which CPU the sliders' mode runs
        QVERIFY2(parts.advisor->findChild<QLabel*>(QStringLiteral("WhatIfCpu"))
                     ->text()
                     .startsWith(QStringLiteral("%1 cores @ %2 MHz")
                                     .arg(mode.onlineCores)
                                     .arg(double(mode.cpuKhz) / 1e3, 0, 'f', 0)),
                 qPrintable(parts.advisor->findChild<QLabel*>(QStringLiteral("WhatIfCpu"))->text()));
        // the sliders alone are the board's whole CPU again
        parts.advisor->setWhatIf(true, mode.gpuHz, mode.emcHz);
        QCOMPARE(parts.advisor->whatIfMode()->onlineCores, device.cpuCores);
        QCOMPARE(parts.advisor->whatIfMode()->cpuKhz, device.maxCpuKhz());
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
            if (auto* candidate = qobject_cast<MainWindow*>(widget); candidate && candidate != &window)
                other = candidate;
        QVERIFY(other != nullptr);
        QVERIFY(int(QApplication::topLevelWidgets().size()) > windowsBefore);
        QTRY_VERIFY_WITH_TIMEOUT(other->result() != nullptr && !other->runner().busy(), 30000);
        QCOMPARE(QString::fromStdString(other->result()->workload().info.path), second);
        other->close();
        window.close(); // saves the board: a new window starts on it
        QCOMPARE(QSettings().value(QStringLiteral("lastDevice")).toString(),
                 window.parts().deviceBox->currentData().toString());
    }

    void theTabBarStaysPutFromTabToTab() {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        openAndWait(window);
        auto* tabs = window.parts().views->findChild<QTabWidget*>();
        QVERIFY(tabs);
        QList<int> tops;
        for (const QString& view : {QStringLiteral("time"), QStringLiteral("energy"), QStringLiteral("modes"),
                                    QStringLiteral("ops"), QStringLiteral("time")}) {
            window.showView(view);
            QCoreApplication::processEvents();
            tops << tabs->mapTo(&window, QPoint(0, 0)).y();
        }
        // the rooflines' options row hides on the other tabs without moving the tabs up
        QCOMPARE(tops, QList<int>(tops.size(), tops.front()));
    }

    void exportsWriteValidFiles() {
        MainWindow window;
        window.show();
        openAndWait(window);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const QString& view :
             {QStringLiteral("time"), QStringLiteral("energy"), QStringLiteral("modes")}) {
            window.showView(view);
            const QString png = dir.filePath(view + ".png"), pdf = dir.filePath(view + ".pdf"),
                          svg = dir.filePath(view + ".svg");
            QCOMPARE(window.parts().exports->exportCurrentPlot(png, 800, 500), QString());
            QCOMPARE(window.parts().exports->exportCurrentPlot(pdf, 800, 500), QString());
            QCOMPARE(window.parts().exports->exportCurrentPlot(svg, 800, 500), QString());
            QCOMPARE(head(png, 8), QByteArray("\x89PNG\r\n\x1a\n"));
            QCOMPARE(head(pdf, 5), QByteArray("%PDF-"));
            QVERIFY(head(svg, 4096).contains("<svg"));
            QImage image(png);
            QCOMPARE(image.width(), 1600); // 800 logical pixels at scale 2
        }
        QVERIFY(!window.parts().exports->exportCurrentPlot(dir.filePath("plot.bmp"), 800, 500).isEmpty());

        window.parts().layerProxy->setOpFilter(QStringLiteral("Conv"));
        QCOMPARE(window.parts().exports->exportLayerTable(dir.filePath("conv.json")), QString());
        QFile json(dir.filePath("conv.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject layersDoc = QJsonDocument::fromJson(json.readAll()).object();
        QCOMPARE(layersDoc.value("schema").toString(), QString("rooftop-window-layers/1"));
        const QJsonArray rows = layersDoc.value("rows").toArray();
        int convs = 0;
        for (const LayerCount& layer : window.result()->workload().layers)
            convs += layer.op == "Conv";
        QCOMPARE(rows.size(), convs);
        QCOMPARE(window.parts().exports->exportLayerTable(dir.filePath("conv.csv")), QString());
        QFile csv(dir.filePath("conv.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), convs + 1);

        QCOMPARE(window.parts().exports->exportModesTable(dir.filePath("modes.json")), QString());
        QFile modes(dir.filePath("modes.json"));
        QVERIFY(modes.open(QIODevice::ReadOnly));
        const QJsonObject modesDoc = QJsonDocument::fromJson(modes.readAll()).object();
        QCOMPARE(modesDoc.value("schema").toString(), QString("rooftop-window-modes/1"));
        const QJsonArray modeRows = modesDoc.value("rows").toArray();
        QCOMPARE(modeRows.size(), 4); // the 4 stock modes the advisor weighed
        // the vocabulary's names and units: MAXN's CPU clock in kHz, an exact integer, its latency in ms
        bool maxn = false;
        for (const QJsonValue& mode : modeRows)
            if (mode["mode"].toString() == "MAXN") {
                maxn = true;
                QCOMPARE(mode["cpu_khz"].toInteger(), qint64(2201600));
                QCOMPARE(mode["gpu_hz"].toInteger(), qint64(1300500000));
                QVERIFY(mode["latency_ms"].toDouble() > 0.1 && mode["latency_ms"].toDouble() < 1000);
                QVERIFY(mode["energy_mj"].toDouble() > 0 && mode["power_w"].toDouble() > 0);
                QCOMPARE(mode["provenance"].toString(), QString("estimate"));
            }
        QVERIFY(maxn);
        QVERIFY(!window.parts().exports->exportModesTable(dir.filePath("modes.txt")).isEmpty());

        QCOMPARE(window.parts().exports->exportNetronMetrics(dir.filePath("metrics.json")), QString());
        QVERIFY(QJsonDocument::fromJson(head(dir.filePath("metrics.json"), 1 << 24)).isObject() ||
                QJsonDocument::fromJson(head(dir.filePath("metrics.json"), 1 << 24)).isArray());

        QCOMPARE(window.parts().exports->exportReport(dir.filePath("report.pdf")), QString());
        QCOMPARE(head(dir.filePath("report.pdf"), 5), QByteArray("%PDF-"));
        QCOMPARE(window.parts().exports->exportReport(dir.filePath("report.html")), QString());
        const QByteArray html = head(dir.filePath("report.html"), 1 << 24);
        QCOMPARE(html.count("src=\"data:image/png;base64,"), 3);

        // the report plots the points the window shows, not a choice of its own
        QVERIFY(window.parts().toolbar->selectShownMode(QStringLiteral("stock:MODE_15W")));
        QApplication::processEvents();
        QCOMPARE(window.parts().exports->exportReport(dir.filePath("shown.html")), QString());
        QVERIFY(head(dir.filePath("shown.html"), 1 << 24).contains("Layer points: MODE_15W"));
        QVERIFY(window.parts().toolbar->selectShownMode(QStringLiteral("stock:MAXN")));
        QApplication::processEvents();
        QCOMPARE(window.parts().exports->exportReport(dir.filePath("maxn.html")), QString());
        QVERIFY(head(dir.filePath("maxn.html"), 1 << 24).contains("Layer points: MAXN"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
