// SPDX-License-Identifier: GPL-3.0-or-later
// Whole sample networks: ONNX's inference plus our rules and value folding must leave no shape unknown,
// and our rules must agree with every shape ONNX inferred by itself.
#include "core/onnx/model_graph.h"
#include "core/onnx/shape_rules.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;

Q_DECLARE_METATYPE(std::string)

namespace {

Graph loadSample(const std::string& name, int64_t batch, int64_t sequence) {
    DimBindings bindings;
    if (batch > 0) bindings.batch = batch;
    if (sequence > 0) bindings.named["sequence"] = sequence;
    return loadGraph(rooftop::test::samplePath(name), bindings);
}

// Name of the first tensor a node reads or writes whose shape is unknown, or "" when all are known.
std::string firstUnknownTensor(const Graph& graph) {
    for (const Node& node : graph.nodes) {
        for (const auto* list : {&node.inputs, &node.outputs})
            for (int index : *list)
                if (index >= 0 && !graph.tensors[static_cast<size_t>(index)].shapeKnown)
                    return graph.tensors[static_cast<size_t>(index)].name + " (" + node.opType + " " +
                           node.name + ")";
    }
    return {};
}

void addSampleRows() {
    QTest::addColumn<std::string>("model");
    QTest::addColumn<qint64>("batch");
    QTest::addColumn<qint64>("sequence");
    QTest::newRow("vit_b_16") << std::string("vit_b_16") << qint64(1) << qint64(0);
    QTest::newRow("vit_b_16 batch 3") << std::string("vit_b_16") << qint64(3) << qint64(0);
    QTest::newRow("bert_base seq 128") << std::string("bert_base") << qint64(0) << qint64(128);
    QTest::newRow("bert_base batch 2 seq 77") << std::string("bert_base") << qint64(2) << qint64(77);
    QTest::newRow("lstm") << std::string("lstm") << qint64(0) << qint64(0);
    QTest::newRow("lstm batch 4") << std::string("lstm") << qint64(4) << qint64(0);
    QTest::newRow("resnet50") << std::string("resnet50") << qint64(0) << qint64(0);
    QTest::newRow("resnet18") << std::string("resnet18") << qint64(0) << qint64(0);
    QTest::newRow("mobilenet_v2") << std::string("mobilenet_v2") << qint64(0) << qint64(0);
    QTest::newRow("mobilenet_v3_large") << std::string("mobilenet_v3_large") << qint64(0) << qint64(0);
    QTest::newRow("efficientnet_b0") << std::string("efficientnet_b0") << qint64(0) << qint64(0);
}

} // namespace

class ShapeSamples : public QObject {
    Q_OBJECT
private slots:
    void everyTensorShapeKnown_data() { addSampleRows(); }
    void everyTensorShapeKnown() {
        QFETCH(std::string, model);
        QFETCH(qint64, batch);
        QFETCH(qint64, sequence);
        const Graph graph = loadSample(model, batch, sequence);
        const std::string missing = firstUnknownTensor(graph);
        QVERIFY2(missing.empty(), ("unknown shape: " + missing).c_str());
    }

    // Every node with a rule of ours gets its outputs from it (inputs and values are all known), with the
    // same dims as in the graph, most of which ONNX inferred by itself.
    void rulesAgreeWithInferredShapes_data() { addSampleRows(); }
    void rulesAgreeWithInferredShapes() {
        QFETCH(std::string, model);
        QFETCH(qint64, batch);
        QFETCH(qint64, sequence);
        const Graph graph = loadSample(model, batch, sequence);
        for (const Node& node : graph.nodes) {
            if (!findShapeRule(node.domain, node.opType, node.opsetVersion)) continue;
            std::vector<InferredOutput> outputs;
            QVERIFY2(applyShapeRule(graph, node, outputs),
                     ("no result for " + node.opType + " " + node.name).c_str());
            for (size_t i = 0; i < node.outputs.size(); ++i) {
                if (node.outputs[i] < 0 || !outputs[i].known) continue;
                const Tensor& tensor = graph.tensors[static_cast<size_t>(node.outputs[i])];
                Tensor ours;
                ours.dims = outputs[i].dims;
                ours.shapeKnown = true;
                QVERIFY2(tensor.dims == outputs[i].dims, (node.opType + " " + node.name + ": graph " +
                                                          tensor.shapeText() + ", rule " + ours.shapeText())
                                                             .c_str());
            }
        }
    }

    void reshapeTargetsFollowTheBoundDims() {
        const Graph graph = loadSample("bert_base", 2, 77);
        bool sawScores = false;
        for (const Node& node : graph.nodes) {
            if (node.opType != "Softmax") continue;
            QCOMPARE(QString::fromStdString(graph.tensors[static_cast<size_t>(node.outputs[0])].shapeText()),
                     QString("2x12x77x77"));
            sawScores = true;
        }
        QVERIFY(sawScores);
    }
};

ROOFTOP_TEST_CLASS(ShapeSamples)
#include "test_shape_samples.moc"
