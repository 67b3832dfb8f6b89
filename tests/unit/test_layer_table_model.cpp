// SPDX-License-Identifier: GPL-3.0-or-later
// LayerTableModel, LayerFilterProxyModel and SelectionState on ResNet-18 and on an unsupported custom op.
#include "core/device/catalog.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "core/roofline/prediction.h"
#include "models/layer_filter_proxy_model.h"
#include "models/layer_table_model.h"
#include "models/selection_state.h"
#include "models/unit_format.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QFont>
#include <QSignalSpy>
#include <QtTest>
#include <algorithm>
#include <cmath>

using namespace rooftop;
using rooftop::test::resnet18MaxnPrediction;
using rooftop::test::resnet18Workload;
using namespace rooftop::models;
using rooftop::test::resnet18Conv1Macs;

namespace {

constexpr int resnet18Layers = 49; // 20 Conv, 17 Relu, 8 Add, MaxPool, GlobalAveragePool, Flatten, Gemm
constexpr int resnet18Convs = 20;

int rowNamed(const LayerTableModel& model, const std::string& name) {
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.layerAt(row)->name == name) return row;
    return -1;
}

} // namespace

class TestLayerTableModel : public QObject {
    Q_OBJECT
private slots:
    void rowsAndColumns() {
        LayerTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setWorkload(resnet18Workload());
        QCOMPARE(model.rowCount(), resnet18Layers);
        QCOMPARE(model.rowCount(), int(resnet18Workload().layers.size()));
        QCOMPARE(model.columnCount(), 17);
        QCOMPARE(model.headerData(LayerTableModel::Macs, Qt::Horizontal).toString(), QStringLiteral("MACs"));
        QCOMPARE(model.headerData(LayerTableModel::Time, Qt::Horizontal, ExportHeaderRole).toString(),
                 QStringLiteral("Time (s)"));
        QVERIFY(model.layerAt(-1) == nullptr);
        QVERIFY(model.layerAt(resnet18Layers) == nullptr);
    }

    void convRowHasRawAndFormattedMacs() {
        LayerTableModel model;
        model.setWorkload(resnet18Workload());
        const int row = rowNamed(model, "/conv1/Conv");
        QVERIFY(row >= 0);
        const LayerCount& layer = *model.layerAt(row);
        QCOMPARE(layer.op, std::string("Conv"));
        const QModelIndex macs = model.index(row, LayerTableModel::Macs);
        QCOMPARE(macs.data(SortRole).toLongLong(), qlonglong(layer.macs));
        QCOMPARE(macs.data(SortRole).toLongLong(), resnet18Conv1Macs);
        QCOMPARE(macs.data(Qt::DisplayRole).toString(), QStringLiteral("118 MMAC"));
        QVERIFY2(macs.data(Qt::ToolTipRole).toString().contains(formatExactCount(resnet18Conv1Macs)),
                 qPrintable(macs.data(Qt::ToolTipRole).toString()));
        QCOMPARE(macs.data(Qt::TextAlignmentRole).toInt(), int(Qt::AlignRight | Qt::AlignVCenter));
        QCOMPARE(model.index(row, LayerTableModel::Name).data(Qt::TextAlignmentRole).toInt(),
                 int(Qt::AlignLeft | Qt::AlignVCenter));
        QCOMPARE(model.index(row, LayerTableModel::WeightBytes).data(SortRole).toLongLong(),
                 qlonglong(layer.weightBytes));
        QCOMPARE(model.index(row, LayerTableModel::Intensity).data(SortRole).toDouble(), layer.intensity());
        const QString shapes = model.index(row, LayerTableModel::Name).data(Qt::ToolTipRole).toString();
        QVERIFY2(shapes.contains(QStringLiteral("inputs: 1x3x224x224, 64x3x7x7, 64")), qPrintable(shapes));
        QVERIFY2(shapes.contains(QStringLiteral("outputs: 1x64x112x112")), qPrintable(shapes));
        QVERIFY(!model.index(row, LayerTableModel::Time).data(SortRole).isValid());
        QVERIFY(model.index(row, LayerTableModel::Time).data().toString().isEmpty());
    }

    void predictionFillsPredictedColumns() {
        LayerTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setWorkload(resnet18Workload());
        QCOMPARE(model.headerData(LayerTableModel::Time, Qt::Horizontal, Qt::ToolTipRole).toString(),
                 QStringLiteral("predicted; no power mode selected"));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy headers(&model, &QAbstractItemModel::headerDataChanged);
        const ModelPrediction& p = resnet18MaxnPrediction();
        model.setPrediction(&p);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(headers.count(), 1);
        QVERIFY(model.prediction() != nullptr);
        double shareSum = 0.0;
        for (int row = 0; row < model.rowCount(); ++row) {
            QCOMPARE(model.index(row, LayerTableModel::Time).data(SortRole).toDouble(),
                     p.layers[size_t(row)].seconds);
            QCOMPARE(model.index(row, LayerTableModel::Energy).data(SortRole).toDouble(),
                     p.layers[size_t(row)].joules);
            QCOMPARE(model.index(row, LayerTableModel::Bound).data().toString(),
                     QString::fromUtf8(boundName(p.layers[size_t(row)].bound)));
            shareSum += model.index(row, LayerTableModel::TimeShare).data(SortRole).toDouble();
        }
        QVERIFY2(std::fabs(shareSum - 100.0) < 1e-9, qPrintable(QString::number(shareSum, 'g', 17)));
        const QString expectedTip = QStringLiteral("predicted (%1) for MAXN at batch 1")
                                        .arg(QString::fromUtf8(provenanceName(p.provenance)));
        for (int column : {LayerTableModel::Time, LayerTableModel::Energy, LayerTableModel::Bound})
            QCOMPARE(model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString(), expectedTip);
        QVERIFY(model.totalsText().contains(QStringLiteral("latency ")));
        QVERIFY2(model.totalsText().contains(QStringLiteral(" at 90 %)")), qPrintable(model.totalsText()));
        // a predictor's total replaces the latency, not the layers': their shares still add up to 100 %
        ModelPrediction learned = p;
        learned.latencySeconds *= 1.3;
        model.setPrediction(&learned);
        double learnedShareSum = 0.0;
        for (int row = 0; row < model.rowCount(); ++row)
            learnedShareSum += model.index(row, LayerTableModel::TimeShare).data(SortRole).toDouble();
        QVERIFY2(std::fabs(learnedShareSum - 100.0) < 1e-9,
                 qPrintable(QString::number(learnedShareSum, 'g', 17)));
        model.setPrediction(&p);

        model.setPrediction(&p); // the same prediction again still refreshes (it is a copy)
        model.setPrediction(nullptr);
        QVERIFY(model.prediction() == nullptr);
        QVERIFY(!model.index(0, LayerTableModel::Time).data(SortRole).isValid());
        model.setPrediction(nullptr); // nothing to clear: no signal
        QCOMPARE(changed.count(), 5); // p, learned, p again, p once more, nullptr
    }

    // The Bound cell's tooltip says what cost the layer its time: layer4's 3x3 convolutions at batch 1 keep
    // 8.8 of the 16 SMs busy (kernel_size.h: 7 tiles split 5 ways = 35 blocks over 2 waves of 32 slots).
    void boundTooltipNamesTheSmallKernel() {
        LayerTableModel model;
        model.setWorkload(resnet18Workload());
        model.setPrediction(&resnet18MaxnPrediction());
        const Workload& w = resnet18Workload();
        const auto at = std::find_if(w.layers.begin(), w.layers.end(), [](const LayerCount& l) {
            return l.name == "/layer4/layer4.0/conv2/Conv";
        });
        QVERIFY(at != w.layers.end());
        const int row = model.rowOfNode(at->nodeIndex);
        const QString tip = model.index(row, LayerTableModel::Bound).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("small kernel: 8.8 of 16 SMs busy")), qPrintable(tip));
    }

    void misalignedPredictionIsIgnored() {
        LayerTableModel model;
        model.setWorkload(resnet18Workload());
        ModelPrediction shorter = resnet18MaxnPrediction();
        shorter.layers.pop_back();
        model.setPrediction(&shorter);
        QVERIFY(model.prediction() == nullptr);
        model.setPrediction(&resnet18MaxnPrediction());
        model.setWorkload(resnet18Workload()); // a new workload clears the prediction
        QVERIFY(model.prediction() == nullptr);
    }

    void rowOfNodeInvertsLayerAt() {
        LayerTableModel model;
        model.setWorkload(resnet18Workload());
        for (int row = 0; row < model.rowCount(); ++row)
            QCOMPARE(model.rowOfNode(model.layerAt(row)->nodeIndex), row);
        QCOMPARE(model.rowOfNode(-1), -1);
        QCOMPARE(model.rowOfNode(100000), -1);
    }

    void totalsText() {
        LayerTableModel model;
        model.setWorkload(resnet18Workload());
        QCOMPARE(model.totalsText().left(22), QStringLiteral("49 layers · 1.81 GMAC "));
        QVERIFY(!model.totalsText().contains(QStringLiteral("latency")));
    }

    void unsupportedLayerIsMarked() {
        LayerTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setWorkload(test::analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17, "com.acme" : 1]>
            g (float[4] x) => (float[4] y, float[4] z) {
                y = com.acme.Frobnicate (x)
                z = Relu (x)
            })"));
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(!model.layerAt(0)->supported);
        QVERIFY(model.index(0, LayerTableModel::Name).data(Qt::FontRole).value<QFont>().italic());
        QCOMPARE(model.index(0, LayerTableModel::Flops).data(Qt::ForegroundRole).value<QColor>(),
                 QColor(Qt::gray));
        QVERIFY(model.index(0, LayerTableModel::Op)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("unsupported")));
        QVERIFY(model.layerAt(1)->supported);
        QVERIFY(!model.index(1, LayerTableModel::Name).data(Qt::FontRole).isValid());
        QVERIFY(!model.index(1, LayerTableModel::Name).data(Qt::ForegroundRole).isValid());
    }

    void measuredColumnsShowALayerOnceOnItsFirstNode() {
        LayerTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setWorkload(resnet18Workload());
        for (int column = LayerTableModel::MeasuredTime; column <= LayerTableModel::RoofShare; ++column)
            QVERIFY(
                model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString().contains("Empty until"));
        Comparison comparison;
        comparison.source = "trtexec";
        comparison.file = "folder/p.json";
        comparison.mode = "MAXN";
        comparison.device = "agx-orin-64gb";
        ComparedLayer fused; // one fused layer over three nodes
        fused.name = "/conv1/Conv + /relu/Relu + /maxpool/MaxPool";
        fused.kind = MappingKind::Nodes;
        fused.nodes = {"/conv1/Conv", "/relu/Relu", "/maxpool/MaxPool"};
        fused.measuredMs = 0.25;
        fused.predictedMs = 0.2;
        fused.errorPct = -20.0;
        fused.roofPct = 42.4;
        ComparedLayer kernelA; // two kernels of one node: their times add up, the node is predicted once
        kernelA.name = "k1";
        kernelA.kind = MappingKind::Nodes;
        kernelA.nodes = {"/fc/Gemm"};
        kernelA.measuredMs = 0.01;
        kernelA.predictedMs = 0.04;
        kernelA.errorPct = 300.0;
        ComparedLayer kernelB = kernelA;
        kernelB.name = "k2";
        kernelB.measuredMs = 0.03;
        kernelB.errorPct = 33.3;
        ComparedLayer overhead;
        overhead.name = "Reformatting CopyNode for Input Tensor 0";
        overhead.kind = MappingKind::Overhead;
        overhead.measuredMs = 0.5;
        comparison.layers = {fused, kernelA, kernelB, overhead};
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setComparison(&comparison);
        QCOMPARE(changed.count(), 1);

        const int conv = rowNamed(model, "/conv1/Conv"), relu = rowNamed(model, "/relu/Relu"),
                  gemm = rowNamed(model, "/fc/Gemm");
        QCOMPARE(model.index(conv, LayerTableModel::MeasuredTime).data(SortRole).toDouble(), 0.25);
        QCOMPARE(model.index(conv, LayerTableModel::LayerPredicted).data(SortRole).toDouble(), 0.2);
        QCOMPARE(model.index(conv, LayerTableModel::LayerError).data(SortRole).toDouble(), -20.0);
        QCOMPARE(model.index(conv, LayerTableModel::RoofShare).data(SortRole).toDouble(), 42.4);
        QCOMPARE(model.index(conv, LayerTableModel::RoofShare).data().toString(), QString("42"));
        QVERIFY(model.headerData(LayerTableModel::RoofShare, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains("roofline at its intensity in mode MAXN"));
        QCOMPARE(model.index(conv, LayerTableModel::MeasuredTime).data().toString(), formatSeconds(0.25e-3));
        QVERIFY(model.index(conv, LayerTableModel::MeasuredTime)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains("measured, trtexec --exportProfile p.json"));
        QCOMPARE(model.index(relu, LayerTableModel::MeasuredTime).data().toString(),
                 QStringLiteral("in /conv1/Conv"));
        QVERIFY(!model.index(relu, LayerTableModel::MeasuredTime).data(SortRole).isValid()); // nothing split
        QVERIFY(!model.index(relu, LayerTableModel::LayerPredicted).data().isValid());
        QCOMPARE(model.index(gemm, LayerTableModel::MeasuredTime).data(SortRole).toDouble(), 0.01 + 0.03);
        QVERIFY(model.index(gemm, LayerTableModel::MeasuredTime).data().toString().contains("(2 layers)"));
        QCOMPARE(model.index(gemm, LayerTableModel::LayerPredicted).data(SortRole).toDouble(), 0.04);
        QVERIFY(!model.index(gemm, LayerTableModel::LayerError).data().isValid());
        QVERIFY(!model.index(gemm, LayerTableModel::RoofShare).data().isValid()); // two layers: no one share
        QCOMPARE(model.measuredLayersAt(gemm), (std::vector<int>{1, 2}));
        const QString header =
            model.headerData(LayerTableModel::LayerPredicted, Qt::Horizontal, Qt::ToolTipRole).toString();
        QVERIFY2(header.contains("estimate, the roofline in mode MAXN on agx-orin-64gb") &&
                     header.contains("first ONNX node"),
                 qPrintable(header));

        model.setComparison(nullptr);
        QVERIFY(!model.index(conv, LayerTableModel::MeasuredTime).data().isValid());
        QVERIFY(!model.index(relu, LayerTableModel::MeasuredTime).data().isValid());
    }

    void proxySortsByRawMacsDescending() {
        LayerTableModel model;
        model.setWorkload(resnet18Workload());
        LayerFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.sort(LayerTableModel::Macs, Qt::DescendingOrder);
        QCOMPARE(proxy.rowCount(), resnet18Layers);
        QCOMPARE(proxy.index(0, LayerTableModel::Macs).data(SortRole).toLongLong(), resnet18Conv1Macs);
        QCOMPARE(model.layerAt(proxy.sourceRow(0))->name, std::string("/conv1/Conv"));
        for (int row = 1; row < proxy.rowCount(); ++row)
            QVERIFY(proxy.index(row - 1, LayerTableModel::Macs).data(SortRole).toLongLong() >=
                    proxy.index(row, LayerTableModel::Macs).data(SortRole).toLongLong());
        QCOMPARE(proxy.sourceRow(-1), -1);
    }

    void proxyFiltersByOpAndName() {
        LayerTableModel model;
        LayerFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        model.setWorkload(resnet18Workload());
        QCOMPARE(proxy.opTypes(),
                 QStringList({"Add", "Conv", "Flatten", "Gemm", "GlobalAveragePool", "MaxPool", "Relu"}));
        proxy.setOpFilter(QStringLiteral("Conv"));
        QCOMPARE(proxy.rowCount(), resnet18Convs);
        const auto convs = std::count_if(resnet18Workload().layers.begin(), resnet18Workload().layers.end(),
                                         [](const LayerCount& l) { return l.op == "Conv"; });
        QCOMPARE(proxy.rowCount(), int(convs));
        proxy.setOpFilter(QStringLiteral("conv")); // op match is exact
        QCOMPARE(proxy.rowCount(), 0);
        proxy.setOpFilter(QString());
        proxy.setNameFilter(QStringLiteral("LAYER1/")); // case-insensitive substring: 2 blocks x 5 nodes
        QCOMPARE(proxy.rowCount(), 10);
        proxy.setOpFilter(QStringLiteral("Conv"));
        QCOMPARE(proxy.rowCount(), 4);
        proxy.setNameFilter(QString());
        proxy.setOpFilter(QString());
        QCOMPARE(proxy.rowCount(), resnet18Layers);
    }

    void selectionStateEmitsOnlyOnChange() {
        SelectionState state;
        QSignalSpy layers(&state, &SelectionState::layerSelected);
        QSignalSpy modes(&state, &SelectionState::modeSelected);
        QCOMPARE(state.currentLayer(), -1);
        QCOMPARE(state.currentMode(), -1);
        state.setCurrentLayer(7);
        state.setCurrentLayer(7);
        QCOMPARE(layers.count(), 1);
        QCOMPARE(layers.at(0).at(0).toInt(), 7);
        state.setCurrentLayer(-3); // any negative index means none
        QCOMPARE(state.currentLayer(), -1);
        state.setCurrentLayer(-1);
        QCOMPARE(layers.count(), 2);
        state.setCurrentMode(2);
        state.setCurrentMode(2);
        QCOMPARE(modes.count(), 1);
        state.setCurrentLayer(4);
        state.clear();
        QCOMPARE(layers.count(), 4);
        QCOMPARE(modes.count(), 2);
        QCOMPARE(modes.last().at(0).toInt(), -1);
        state.clear();
        QCOMPARE(layers.count(), 4);
        QCOMPARE(modes.count(), 2);
    }

    void selectionStateBreaksLoops() {
        // A table and a plot that echo each other's selection must settle after one round.
        SelectionState state;
        int echoes = 0;
        QObject::connect(&state, &SelectionState::layerSelected, &state, [&](int node) {
            ++echoes;
            state.setCurrentLayer(node); // the other view answers with the same node
        });
        state.setCurrentLayer(3);
        QCOMPARE(echoes, 1);
    }
};

ROOFTOP_TEST_CLASS(TestLayerTableModel)
#include "test_layer_table_model.moc"
