// SPDX-License-Identifier: GPL-3.0-or-later
// Cast, (de)quantisation and com.microsoft QLinear* rules (core/cost/quantization_rules.cpp). The
// com.microsoft cases build their Graph by hand, with shapes set, so they test the rules alone.
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeText;

namespace {

// A Graph written tensor by tensor, for operators ONNX's shape inference cannot see.
class HandGraph {
public:
    HandGraph& tensor(const std::string& name, DataType type, std::vector<int64_t> dims,
                      TensorOrigin origin = TensorOrigin::Activation) {
        Tensor& t = graph_.tensors[static_cast<size_t>(graph_.addTensor(name))];
        t.type = type;
        t.dims = std::move(dims);
        t.shapeKnown = true;
        t.origin = origin;
        if (origin == TensorOrigin::GraphInput) graph_.inputs.push_back(graph_.findTensor(name));
        return *this;
    }

    HandGraph& weight(const std::string& name, DataType type) {
        return tensor(name, type, {}, TensorOrigin::Initializer);
    }

    HandGraph& node(const std::string& op, const std::vector<std::string>& inputs,
                    const std::vector<std::string>& outputs, const std::vector<int64_t>& kernel = {}) {
        Node n;
        n.name = op;
        n.opType = op;
        n.domain = "com.microsoft";
        const int index = static_cast<int>(graph_.nodes.size());
        for (const auto& in : inputs) {
            const int t = graph_.addTensor(in);
            n.inputs.push_back(t);
            graph_.tensors[static_cast<size_t>(t)].consumers.push_back(index);
        }
        for (const auto& out : outputs) {
            const int t = graph_.addTensor(out);
            n.outputs.push_back(t);
            graph_.tensors[static_cast<size_t>(t)].producer = index;
            graph_.outputs.push_back(t);
        }
        if (!kernel.empty()) n.attributes["kernel_shape"].ints = kernel;
        graph_.nodes.push_back(std::move(n));
        return *this;
    }

    Workload analyze() const { return analyzeGraph(graph_, AnalysisSettings{}); }

private:
    Graph graph_;
};

// uint8 activations a, b [1,8,4,4] (128 elements) with one shared float scale s and uint8 zero point z.
HandGraph quantizedOperands() {
    HandGraph g;
    g.tensor("a", DataType::UInt8, {1, 8, 4, 4}, TensorOrigin::GraphInput)
        .tensor("b", DataType::UInt8, {1, 8, 4, 4}, TensorOrigin::GraphInput)
        .weight("s", DataType::Float32)
        .weight("z", DataType::UInt8);
    return g;
}

} // namespace

class QuantizationCosts : public QObject {
    Q_OBJECT
private slots:
    void castIsOneOpPerElementAndUsesBothDtypes() {
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,64] x) => (float16[1,64] y) {
                y = Cast <to = 10> (x)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.kind, OpKind::Pointwise);
        QCOMPARE(l.flops, int64_t(64));
        QCOMPARE(l.inputBytes, int64_t(256));
        QCOMPARE(l.outputBytes, int64_t(128));
    }

    void quantizeAndDequantizeLinear() {
        // 192 elements: quantize 3 ops (divide, round + saturate, add zero point), dequantize 2.
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,3,8,8] x) => (float[1,3,8,8] y) <float s = {0.5}, uint8 z = {128}> {
                q = QuantizeLinear (x, s, z)
                y = DequantizeLinear (q, s, z)
            })");
        const auto& q = w.layers.at(0);
        QCOMPARE(q.kind, OpKind::Pointwise);
        QCOMPARE(q.flops, int64_t(576));
        QCOMPARE(q.weightBytes, int64_t(5)); // float scale + uint8 zero point
        QCOMPARE(q.inputBytes, int64_t(768));
        QCOMPARE(q.outputBytes, int64_t(192));
        const auto& d = w.layers.at(1);
        QCOMPARE(d.flops, int64_t(384));
        QCOMPARE(d.inputBytes, int64_t(192));
        QCOMPARE(d.outputBytes, int64_t(768));
    }

    void dynamicQuantizeLinear() {
        // 64 elements: min + max (2) and quantize (3) per element.
        const auto w = analyzeText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[4,16] x) => (uint8[4,16] y, float s, uint8 z) {
                y, s, z = DynamicQuantizeLinear (x)
            })");
        const auto& l = w.layers.at(0);
        QCOMPARE(l.kind, OpKind::Vector);
        QCOMPARE(l.flops, int64_t(320));
        QCOMPARE(l.outputBytes, int64_t(64 + 4 + 1));
    }

    void qlinearBinaryOps() {
        // 128 outputs x (1 op + 4 requant ops).
        HandGraph g = quantizedOperands();
        g.tensor("c", DataType::UInt8, {1, 8, 4, 4}).tensor("m", DataType::UInt8, {1, 8, 4, 4});
        g.node("QLinearAdd", {"a", "s", "z", "b", "s", "z", "s", "z"}, {"c"});
        g.node("QLinearMul", {"a", "s", "z", "b", "s", "z", "s", "z"}, {"m"});
        const Workload w = g.analyze();
        for (const auto& l : w.layers) {
            QVERIFY(l.supported);
            QCOMPARE(l.kind, OpKind::Pointwise);
            QCOMPARE(l.flops, int64_t(640));
            QCOMPARE(l.inputBytes, int64_t(256));
            QCOMPARE(l.weightBytes, int64_t(5)); // shared scale and zero point counted once per node
            QCOMPARE(l.outputBytes, int64_t(128));
        }
    }

    void qlinearActivations() {
        HandGraph g = quantizedOperands();
        g.tensor("sg", DataType::UInt8, {1, 8, 4, 4})
            .tensor("lr", DataType::UInt8, {1, 8, 4, 4})
            .tensor("sm", DataType::UInt8, {1, 8, 4, 4});
        g.node("QLinearSigmoid", {"a", "s", "z", "s", "z"}, {"sg"});
        g.node("QLinearLeakyRelu", {"a", "s", "z", "s", "z"}, {"lr"});
        g.node("QLinearSoftmax", {"a", "s", "z", "s", "z"}, {"sm"});
        const Workload w = g.analyze();
        QCOMPARE(w.layers.at(0).flops, int64_t(128 * 7 + 128)); // sigmoid 3 + 1 SFU, + 4 requant
        QCOMPARE(w.layers.at(0).sfuOps, int64_t(128));
        QCOMPARE(w.layers.at(1).flops, int64_t(128 * 6));       // leaky relu 2 + 4 requant
        QCOMPARE(w.layers.at(2).flops, int64_t(128 * 8 + 128)); // softmax 4 + 1 SFU, + 4 requant
        QCOMPARE(w.layers.at(2).kind, OpKind::Vector);
    }

    void qlinearPools() {
        HandGraph g = quantizedOperands();
        g.tensor("gap", DataType::UInt8, {1, 8, 1, 1}).tensor("ap", DataType::UInt8, {1, 8, 2, 2});
        g.node("QLinearGlobalAveragePool", {"a", "s", "z", "s", "z"}, {"gap"});
        g.node("QLinearAveragePool", {"a", "s", "z", "s", "z"}, {"ap"}, {2, 2});
        const Workload w = g.analyze();
        QCOMPARE(w.layers.at(0).kind, OpKind::Vector);
        QCOMPARE(w.layers.at(0).flops, int64_t(128 + 8 * 5));      // X adds + Y divides + 4Y requant
        QCOMPARE(w.layers.at(1).flops, int64_t(32 * (4 + 1 + 4))); // Y x K adds + Y divides + 4Y requant
    }

    void qlinearConcatRequantizesEveryOutput() {
        HandGraph g = quantizedOperands();
        g.tensor("y", DataType::UInt8, {1, 16, 4, 4});
        g.node("QLinearConcat", {"s", "z", "a", "s", "z", "b", "s", "z"}, {"y"});
        const Workload w = g.analyze();
        const auto& l = w.layers.at(0);
        QCOMPARE(l.kind, OpKind::DataMovement);
        QCOMPARE(l.flops, int64_t(512));
        QCOMPARE(l.inputBytes, int64_t(256));
        QCOMPARE(l.outputBytes, int64_t(256));
    }

    void microsoftQuantizeDequantize() {
        HandGraph g;
        g.tensor("x", DataType::Float32, {1, 128}, TensorOrigin::GraphInput)
            .weight("s", DataType::Float32)
            .weight("z", DataType::UInt8)
            .tensor("q", DataType::UInt8, {1, 128})
            .tensor("y", DataType::Float32, {1, 128});
        g.node("QuantizeLinear", {"x", "s", "z"}, {"q"});
        g.node("DequantizeLinear", {"q", "s", "z"}, {"y"});
        const Workload w = g.analyze();
        QCOMPARE(w.layers.at(0).flops, int64_t(384));
        QCOMPARE(w.layers.at(1).flops, int64_t(256));
    }

    void unknownOutputShapeIsUnsupported() {
        HandGraph g = quantizedOperands();
        g.node("QLinearAdd", {"a", "s", "z", "b", "s", "z", "s", "z"}, {"c"}); // c: shape never set
        const Workload w = g.analyze();
        const auto& l = w.layers.at(0);
        QVERIFY(!l.supported);
        QCOMPARE(l.flops, int64_t(0));
        QCOMPARE(QString::fromStdString(l.note), QString("shapes unknown: not counted"));
    }
};

ROOFTOP_TEST_CLASS(QuantizationCosts)
#include "test_quantization_costs.moc"
