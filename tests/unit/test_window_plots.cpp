// SPDX-License-Identifier: GPL-3.0-or-later
// The plots' readability on the offscreen platform: op styles, stacked and near-free points, the table
// filter, roofs of the chosen mode, hover texts, palette switches, the power-modes legend, limits and zoom,
// the modes table's order, the op-time chart and the window's empty state.
#include "core/measure/runs_file.h"
#include "core/roofline/op_time.h"
#include "core/session/analysis_session.h"
#include "gui/empty_state.h"
#include "gui/main_window.h"
#include "gui/modes_panel.h"
#include "models/layer_filter_proxy_model.h"
#include "models/mode_row.h"
#include "models/power_mode_table_model.h"
#include "models/selection_state.h"
#include "plots/op_palette.h"
#include "plots/op_time_chart.h"
#include "plots/pareto_plot.h"
#include "plots/roofline_plot.h"
#include "report/scene_builder.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QSet>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>
#include <map>

using namespace rooftop;
using namespace rooftop::plots;

namespace {

AnalysisRequest request(const std::string& model, const std::string& modes = "stock") {
    AnalysisRequest request;
    request.modelPath = test::samplePath(model);
    request.deviceId = "agx-orin-64gb";
    request.modes = modes;
    request.predictModes = false;
    request.predictStock = true;
    request.advise = true;
    return request;
}

const AnalysisResult& resnet18Analysis() {
    static const AnalysisResult result = runAnalysis(request("resnet18"));
    return result;
}

report::SceneChoice allStockModes(const AnalysisResult& result) {
    report::SceneChoice choice;
    for (size_t i = 0; i < result.stockPredictions.size(); ++i)
        choice.overlaidStockModes.push_back(int(i));
    return choice;
}

LayerMarker marker(int node, const QString& op, double intensity, double flopsPerSecond,
                   bool nearFree = false) {
    LayerMarker m;
    m.nodeIndex = node;
    m.name = QStringLiteral("layer%1").arg(node);
    m.op = op;
    m.intensity = intensity;
    m.flopsPerSecond = flopsPerSecond;
    m.flopsPerJoule = flopsPerSecond / 20;
    m.seconds = 1e-5;
    m.shareOfTime = 0.01;
    m.nearFree = nearFree;
    return m;
}

/// A scene with the stock roofs of ResNet-18 and hand-placed points.
RooflineScene handScene(std::vector<LayerMarker> layers) {
    RooflineScene scene = report::buildRooflineScene(resnet18Analysis(), allStockModes(resnet18Analysis()));
    scene.layers = std::move(layers);
    return scene;
}

/// The roofs of `mode` are drawn thicker than every other roof, above them, and its legend entry is bold.
void verifyHighlightedRoof(const RooflinePlot& plot, const QString& mode) {
    int highlighted = 0, others = 0;
    double thinnest = 1e9, widestOther = 0;
    for (QCPGraph* roof : plot.roofGraphs()) {
        if (roof->name() == mode) {
            ++highlighted;
            thinnest = std::min(thinnest, roof->pen().widthF());
            QCOMPARE(roof->pen().color().alpha(), 255);
        } else {
            ++others;
            widestOther = std::max(widestOther, roof->pen().widthF());
        }
    }
    QVERIFY2(highlighted > 0 && others > 0, qPrintable(mode));
    QVERIFY2(thinnest > widestOther + 1.0,
             qPrintable(QStringLiteral("%1: %2 against %3").arg(mode).arg(thinnest).arg(widestOther)));
    // above the other roofs: drawn after them on the same layer
    const QList<QCPLayerable*> drawn = plot.roofGraphs().front()->layer()->children();
    int lastOther = -1, firstHighlighted = int(drawn.size());
    for (QCPGraph* roof : plot.roofGraphs()) {
        const int at = int(drawn.indexOf(roof));
        if (roof->name() == mode)
            firstHighlighted = std::min(firstHighlighted, at);
        else
            lastOther = std::max(lastOther, at);
    }
    QVERIFY(firstHighlighted > lastOther);
    for (QCPGraph* roof : plot.roofGraphs())
        if (QCPPlottableLegendItem* entry = plot.legend->itemWithPlottable(roof))
            QCOMPARE(entry->font().bold(), roof->name() == mode);
}

QStringList legendNames(QCPLegend* legend) {
    QStringList names;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            names << item->plottable()->name();
    return names;
}

} // namespace

class TestWindowPlots : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void confusableOpsDifferInColourAndShape() {
        const OpStyle matmul = styleForOpType(QStringLiteral("MatMul")),
                      gemm = styleForOpType(QStringLiteral("Gemm"));
        QVERIFY(matmul.color != gemm.color);
        QVERIFY(matmul.shape != gemm.shape);
        const QStringList elementwise = {"Add", "Mul", "Div", "Sub"};
        for (int a = 0; a < elementwise.size(); ++a)
            for (int b = a + 1; b < elementwise.size(); ++b) {
                const OpStyle first = styleForOpType(elementwise[a]), second = styleForOpType(elementwise[b]);
                QVERIFY2(first.color != second.color, qPrintable(elementwise[a] + " / " + elementwise[b]));
                QVERIFY2(first.shape != second.shape, qPrintable(elementwise[a] + " / " + elementwise[b]));
            }
        QCOMPARE(styleForOpType(QStringLiteral("SomeCustomOp")).color,
                 styleForOpType(QStringLiteral("SomeCustomOp")).color);
    }

    void everyOpTypeShownHasAColourOfItsOwn() {
        for (const char* model : {"resnet50", "vit_b_16", "bert_base"}) {
            const AnalysisResult result = runAnalysis(request(model));
            const report::SceneChoice choice = allStockModes(result);
            const RooflineScene scene = report::buildRooflineScene(result, choice);
            OpTimeChart chart;
            chart.setOpTypes(scene.opTypes);
            chart.setTimes(timeByOpType(result.workload(), *report::activePrediction(result, choice)),
                           QString());
            const std::vector<QColor>& colors = chart.barColors();
            QCOMPARE(colors.size(), chart.bars().size());
            QVERIFY2(colors.size() >= 5, model);
            std::map<QString, QColor> barColor;
            for (size_t a = 0; a < colors.size(); ++a) {
                const QString op = QString::fromStdString(chart.bars()[a].op);
                barColor[op] = colors[a];
                for (size_t b = a + 1; b < colors.size(); ++b)
                    QVERIFY2(colors[a] != colors[b],
                             qPrintable(QStringLiteral("%1: %2 and %3 share %4")
                                            .arg(model, op, QString::fromStdString(chart.bars()[b].op),
                                                 colors[a].name())));
            }
            // on the roofline: the colour and marker of each op type differ from every other's, and the
            // colour is its bar's
            RooflinePlot plot(RooflineKind::Time);
            plot.setShowNearFree(true);
            plot.setScene(scene);
            QSet<QString> styles;
            int entries = 0;
            for (int i = 0; i < plot.opLegend()->itemCount(); ++i) {
                auto* item = qobject_cast<QCPPlottableLegendItem*>(plot.opLegend()->item(i));
                if (!item) continue;
                const auto* graph = qobject_cast<QCPGraph*>(item->plottable());
                QVERIFY(graph);
                QColor color = graph->scatterStyle().brush().color();
                color.setAlpha(255);
                ++entries;
                styles.insert(color.name() + QString::number(int(graph->scatterStyle().shape())));
                if (barColor.count(graph->name()))
                    QVERIFY2(barColor[graph->name()] == color, qPrintable(graph->name()));
            }
            QVERIFY(entries >= 5);
            QCOMPARE(styles.size(), entries);
        }
    }

    void stackedPointsAreCounted() {
        std::vector<LayerMarker> layers;
        for (int i = 0; i < 5; ++i) // away from the whole model's point (37.5 FLOP/B, 1.9 TFLOP/s)
            layers.push_back(marker(i, QStringLiteral("MatMul"), 80.0, 3e12));
        layers.push_back(marker(5, QStringLiteral("Add"), 0.1, 2e10));
        layers.push_back(marker(6, QStringLiteral("Add"), 0.1, 2e10));
        layers.push_back(marker(7, QStringLiteral("Conv"), 12.0, 1e12));
        RooflinePlot plot(RooflineKind::Time);
        plot.resize(900, 600);
        plot.setViewport(plot.rect()); // unshown, it keeps its first 640 px: its legends would go under it
        plot.setScene(handScene(layers));
        QCOMPARE(plot.stackCount(0), 5);
        QCOMPARE(plot.stackCount(4), 5);
        QCOMPARE(plot.stackCount(5), 2);
        QCOMPARE(plot.stackCount(7), 1);
        QCOMPARE(plot.stackLabelCount(), 2); // x5 and x2; the lone Conv has none
        plot.replot();
        const QString tip = plot.toolTipAt(plot.pixelOfLayer(2));
        QVERIFY2(tip.contains(QStringLiteral("5 layers at this point")), qPrintable(tip));
    }

    void nearFreeLayersLeaveTheAxisUntilShown() {
        std::vector<LayerMarker> layers = {marker(0, QStringLiteral("Conv"), 20.0, 3e12),
                                           marker(1, QStringLiteral("Add"), 0.2, 4e10),
                                           marker(2, QStringLiteral("Shape"), 0.01, 2e3, true)};
        RooflinePlot plot(RooflineKind::Time);
        plot.setScene(handScene(layers));
        QVERIFY(!plot.showNearFree());
        const QCPRange hidden = plot.yFitRange();
        QCOMPARE(plot.drawnPointCount(), 2);
        QVERIFY(hidden.lower > 2e3);
        plot.setShowNearFree(true);
        QCOMPARE(plot.drawnPointCount(), 3);
        QVERIFY(plot.yFitRange().lower <= 2e3);
        QVERIFY(plot.yFitRange().lower < hidden.lower);
    }

    void nearFreeMarksShapeArithmeticOnly() {
        const std::vector<LayerMarker> markers =
            layerMarkers(resnet18Analysis().workload(), resnet18Analysis().stockPredictions.front());
        int nearFree = 0;
        for (const LayerMarker& m : markers) {
            if (m.op == QLatin1String("Conv")) QVERIFY2(!m.nearFree, qPrintable(m.name));
            if (m.nearFree) ++nearFree;
        }
        QVERIFY(nearFree < int(markers.size()));
    }

    void filterPredicateHidesPoints() {
        RooflinePlot plot(RooflineKind::Time);
        plot.resize(900, 600);
        RooflineScene scene =
            report::buildRooflineScene(resnet18Analysis(), allStockModes(resnet18Analysis()));
        plot.setScene(scene);
        plot.setShowNearFree(true);
        const int all = plot.drawnPointCount();
        int convs = 0, other = -1;
        for (const LayerMarker& m : scene.layers) {
            if (m.op == QLatin1String("Conv"))
                ++convs;
            else if (other < 0)
                other = m.nodeIndex;
        }
        QVERIFY(convs > 0 && convs < all && other >= 0);
        plot.setLayerFilter([](const LayerMarker& m) { return m.op == QLatin1String("Conv"); });
        QCOMPARE(plot.drawnPointCount(), convs);
        QCOMPARE(plot.pixelOfLayer(other), QPointF(-1, -1));
        plot.setLayerFilter({});
        QCOMPARE(plot.drawnPointCount(), all);
    }

    void tableFilterReachesThePlotInTheWindow() {
        gui::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY((window.parts().central->currentWidget() ==
                 window.parts().emptyState)); // no model yet: what to do, not a blank plot
        QVERIFY(window.parts().emptyState->isVisible());
        QVERIFY(!window.parts().emptyState->samples().isEmpty());
        window.openModel(QString::fromStdString(test::samplePath("resnet18")),
                         QStringLiteral("agx-orin-64gb"));
        QTRY_VERIFY_WITH_TIMEOUT(window.result() != nullptr && !window.runner().busy(), 30000);
        QVERIFY(!(window.parts().central->currentWidget() == window.parts().emptyState));
        const int before = window.parts().timePlot->drawnPointCount();
        window.parts().layerProxy->setOpFilter(QStringLiteral("Conv"));
        const int convs = window.parts().layerProxy->rowCount();
        QVERIFY(convs > 0 && convs < before);
        QCOMPARE(window.parts().timePlot->drawnPointCount(), convs);
        window.parts().layerProxy->setNameFilter(QStringLiteral("no layer has this name"));
        QCOMPARE(window.parts().timePlot->drawnPointCount(), 0);
        QCOMPARE(window.parts().energyPlot->drawnPointCount(), 0);
        window.parts().layerProxy->setNameFilter(QString());
        window.parts().layerProxy->setOpFilter(QString());
        QCOMPARE(window.parts().timePlot->drawnPointCount(), before);

        // the dark palette: the ring and the star take its foreground, not the light one's
        const int node = window.result()->workload().layers.front().nodeIndex;
        window.parts().selection->setCurrentLayer(node);
        window.setTheme(gui::Theme::Dark);
        QCoreApplication::processEvents();
        const QColor ink = window.parts().timePlot->palette().color(QPalette::WindowText);
        QVERIFY(ink.lightness() > 128);
        QCOMPARE(window.parts().timePlot->selectionGraph()->scatterStyle().pen().color(), ink);
        QCOMPARE(window.parts().timePlot->modelGraph()->scatterStyle().pen().color(), ink);
        QCOMPARE(window.parts().energyPlot->selectionGraph()->scatterStyle().pen().color(), ink);
        // every roof and every op's points readable on the dark base: none darker than lightness 150
        for (QCPGraph* roof : window.parts().timePlot->roofGraphs())
            QVERIFY2(roof->pen().color().lightness() >= 150, qPrintable(roof->name()));
        for (int i = 0; i < window.parts().timePlot->opLegend()->itemCount(); ++i)
            if (auto* item =
                    qobject_cast<QCPPlottableLegendItem*>(window.parts().timePlot->opLegend()->item(i)))
                if (auto* points = qobject_cast<QCPGraph*>(item->plottable()))
                    QVERIFY2(points->scatterStyle().brush().color().lightness() >= 150,
                             qPrintable(points->name()));
        window.setTheme(gui::Theme::Light);
        QCoreApplication::processEvents();
        QCOMPARE(window.parts().timePlot->selectionGraph()->scatterStyle().pen().color(),
                 window.parts().timePlot->palette().color(QPalette::WindowText));
    }

    void onlyTheChosenModesRoofsWhenSeveralClasses() {
        RooflineScene scene =
            report::buildRooflineScene(resnet18Analysis(), allStockModes(resnet18Analysis()));
        scene.classes = {ComputeClass::Fp32CudaCore, ComputeClass::Fp16CudaCore, ComputeClass::TensorFp16};
        RooflinePlot plot(RooflineKind::Time);
        plot.setScene(scene);
        QVERIFY(plot.onlyChosenRoofs());
        QCOMPARE(plot.roofCount(), 3);
        plot.setRoofChoice(RooflinePlot::RoofChoice::All);
        QCOMPARE(plot.roofCount(), 3 * int(scene.modes.size()));
        scene.classes = {ComputeClass::Fp32CudaCore};
        plot.setRoofChoice(RooflinePlot::RoofChoice::Auto);
        plot.setScene(scene);
        QCOMPARE(plot.roofCount(), int(scene.modes.size())); // one class: every mode's roof
    }

    void theRoofOfThePointsModeIsHighlighted() {
        RooflineScene scene =
            report::buildRooflineScene(resnet18Analysis(), allStockModes(resnet18Analysis()));
        QVERIFY(scene.modes.size() >= 3);
        for (RooflineKind kind : {RooflineKind::Time, RooflineKind::Energy})
            for (const ModeRoofs& points : {scene.modes[1], scene.modes.back()}) {
                scene.activeMode = points.name;
                RooflinePlot plot(kind);
                plot.setScene(scene);
                QCOMPARE(plot.highlightedMode(), points.name);
                verifyHighlightedRoof(plot, points.name);
            }
    }

    void modesAndOpTypesHaveALegendEach() {
        RooflinePlot plot(RooflineKind::Time);
        plot.setScene(report::buildRooflineScene(resnet18Analysis(), allStockModes(resnet18Analysis())));
        const QStringList modes = legendNames(plot.legend), ops = legendNames(plot.opLegend());
        QVERIFY(modes.contains(QStringLiteral("MAXN")));
        QVERIFY(ops.contains(QStringLiteral("Conv")));
        QVERIFY(!modes.contains(QStringLiteral("Conv")));
        QVERIFY(!ops.contains(QStringLiteral("MAXN")));
    }

    void roofsRidgesAndTheModelHaveHoverTexts() {
        QCOMPARE(siTickLabel(1e12, QStringLiteral("FLOP/s")), QStringLiteral("1 TFLOP/s"));
        QCOMPARE(siTickLabel(1e8, QStringLiteral("FLOP/s")), QStringLiteral("100 MFLOP/s"));
        QCOMPARE(siTickLabel(0.01, QStringLiteral("")), QStringLiteral("0.01"));
        RooflineScene scene =
            report::buildRooflineScene(resnet18Analysis(), allStockModes(resnet18Analysis()));
        scene.layers.clear(); // nothing in front of the roofs
        RooflinePlot plot(RooflineKind::Time);
        plot.resize(900, 600);
        plot.setScene(scene);
        plot.replot();
        const QPointF star(plot.xAxis->coordToPixel(scene.model.intensity),
                           plot.yAxis->coordToPixel(scene.model.flopsPerSecond));
        QVERIFY(plot.toolTipAt(star).contains(QStringLiteral("Whole model")));
        const ModeProfile& maxn = scene.modes.front().profile;
        const double ridge = maxn.ceilings.balance(ComputeClass::Fp32CudaCore);
        const QPointF ridgePixel(
            plot.xAxis->coordToPixel(ridge),
            plot.yAxis->coordToPixel(maxn.ceilings.peak(ComputeClass::Fp32CudaCore).value));
        QVERIFY2(plot.toolTipAt(ridgePixel).contains(QStringLiteral("Ridge")),
                 qPrintable(plot.toolTipAt(ridgePixel)));
        const QPointF onRoof(plot.xAxis->coordToPixel(ridge * 20),
                             plot.yAxis->coordToPixel(maxn.ceilings.peak(ComputeClass::Fp32CudaCore).value));
        QVERIFY2(plot.toolTipAt(onRoof).contains(QStringLiteral("peak")), qPrintable(plot.toolTipAt(onRoof)));
    }

    void selectionRingAndStarFollowAPaletteSwitch() {
        RooflineScene scene =
            report::buildRooflineScene(resnet18Analysis(), allStockModes(resnet18Analysis()));
        RooflinePlot plot(RooflineKind::Time);
        plot.setScene(scene);
        plot.setSelectedLayer(scene.layers.front().nodeIndex);
        QPalette other = plot.palette();
        const bool wasDark = other.color(QPalette::WindowText).lightness() > 128;
        const QColor ink = wasDark ? QColor(0x20, 0x20, 0x20) : QColor(0xE6, 0xE6, 0xE6);
        other.setColor(QPalette::WindowText, ink);
        other.setColor(QPalette::Base, wasDark ? QColor(Qt::white) : QColor(0x1E, 0x1F, 0x22));
        plot.setPalette(other);
        QCOMPARE(plot.selectionGraph()->scatterStyle().pen().color(), ink);
        QCOMPARE(plot.modelGraph()->scatterStyle().pen().color(), ink);
        QCOMPARE(plot.selectionGraph()->dataCount(), 1); // still ringed
    }

    void powerModesLegendHasEachEntryOnce() {
        AnalysisRequest gridRequest = request("resnet18", "all");
        gridRequest.constraints.latencySloSeconds = 0.004;
        gridRequest.constraints.powerCapWatts = 30.0;
        const AnalysisResult result = runAnalysis(gridRequest);
        QVERIFY(result.recommendation.candidates.size() > 100);
        ParetoPlot plot;
        plot.setLimits(gridRequest.constraints);
        plot.setRecommendation(result.recommendation, QStringLiteral("AGX Orin"));
        const QStringList names = legendNames(plot.legend);
        QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), names.size());
        QCOMPARE(names.count(QStringLiteral("Pareto front")), 1);
        QCOMPARE(plot.limitLineCount(), 2); // the SLO and the power cap at batch 1
        // zoomed to the modes that meet the limits; "show all" takes in the rest
        const QCPRange feasible = plot.xFitRange();
        plot.setShowAll(true);
        QVERIFY(plot.xFitRange().upper > feasible.upper);
        plot.setShowAll(false);
        QCOMPARE(plot.xFitRange().upper, feasible.upper);
        // a candidate's hover gives its bounds at the advisor's confidence beside the predicted values
        struct Hovered : ParetoPlot {
            using ParetoPlot::hoverText;
        } hovered;
        hovered.setRecommendation(result.recommendation, QStringLiteral("AGX Orin"));
        QVERIFY(result.recommendation.recommended);
        const size_t pick = *result.recommendation.recommended;
        const Candidate& c = result.recommendation.candidates[pick];
        const Interval latency = intervalAt(c.summary.latencySeconds * 1e3, c.summary.spread.latency, 0.9);
        const QString text = hovered.hoverText(int(pick));
        QVERIFY2(text.contains(QStringLiteral("bounds at 90 %: latency [%1–%2] ms")
                                   .arg(latency.low, 0, 'f', 3)
                                   .arg(latency.high, 0, 'f', 3)),
                 qPrintable(text));
    }

    void modesTableSortedByTheObjectiveWithTheRecommendationSelected() {
        auto result = std::make_shared<AnalysisResult>(resnet18Analysis());
        gui::ModesPanel panel;
        panel.resize(900, 700);
        panel.show();
        QSignalSpy chosen(&panel, &gui::ModesPanel::modeRowChosen);
        panel.showResult(result);
        QCOMPARE(panel.proxy()->sortColumn(), int(models::PowerModeTableModel::EnergyPerInference));
        const QModelIndex current = panel.view()->currentIndex();
        QVERIFY(current.isValid());
        const models::ModeRow* row = panel.model()->rowAt(panel.proxy()->mapToSource(current).row());
        const Candidate& recommended = result->recommendation.candidates[*result->recommendation.recommended];
        QCOMPARE(row->name, QString::fromStdString(recommended.profile.mode.name));
        QCOMPARE(chosen.count(), 0); // showing the advice is not choosing a mode
        // nor are runs arriving (an applied tune's runs file), which replace and sort the rows again, with
        // the current row elsewhere than the advice
        const QModelIndex other = panel.proxy()->index(panel.proxy()->rowCount() - 1, 0);
        QVERIFY(other != panel.view()->currentIndex());
        panel.view()->selectionModel()->setCurrentIndex(other, QItemSelectionModel::ClearAndSelect |
                                                                   QItemSelectionModel::Rows);
        QCOMPARE(chosen.count(), 1); // the user's choice
        std::vector<RunRow> runs(1);
        runs.front().mode = recommended.profile.mode.name;
        runs.front().precision = Precision::FP32;
        runs.front().runner = "sim";
        runs.front().status = "ok";
        runs.front().latencyMs = 2.0;
        runs.front().powerW = 20.0;
        panel.setRuns(runs, QStringLiteral("runs.csv"));
        QCOMPARE(chosen.count(), 1);
        panel.showResult(result);
        QCOMPARE(chosen.count(), 1);
    }

    void opTimeChartSumsTimeByOpType() {
        const AnalysisResult& result = resnet18Analysis();
        const ModelPrediction& prediction = result.stockPredictions.front();
        const std::vector<OpTypeTime> times = timeByOpType(result.workload(), prediction);
        QVERIFY(!times.empty());
        QCOMPARE(times.front().op, std::string("Conv"));
        double sum = 0;
        int layers = 0;
        for (const OpTypeTime& time : times) {
            sum += time.seconds;
            layers += time.layers;
        }
        double layerSum = 0;
        for (const LayerPrediction& layer : prediction.layers)
            layerSum += layer.seconds;
        QVERIFY(std::abs(sum - layerSum) <= 1e-12 + 1e-9 * layerSum);
        // of the layers' sum, not of the latency, which holds a fixed cost or is a predictor's: here 1.7 x
        // theirs
        ModelPrediction predicted = prediction;
        predicted.latencySeconds = 1.7 * layerSum;
        double shares = 0;
        for (const OpTypeTime& time : timeByOpType(result.workload(), predicted))
            shares += time.shareOfTime;
        QVERIFY(std::abs(shares - 1.0) < 1e-9);
        double markerShares = 0; // the roofline's layer points say the same shares
        for (const LayerMarker& marker : layerMarkers(result.workload(), predicted))
            markerShares += marker.shareOfTime;
        QVERIFY(markerShares <= 1.0 + 1e-9 && markerShares > 0.9);
        QVERIFY(layers <= int(result.workload().layers.size()));
        OpTimeChart chart;
        chart.setTimes(times, QString(), 3);
        QCOMPARE(int(chart.bars().size()), 3);
        QVERIFY(QString::fromStdString(chart.bars().back().op).startsWith(QStringLiteral("other")));
    }
};

ROOFTOP_TEST_CLASS(TestWindowPlots)
#include "test_window_plots.moc"
