// SPDX-License-Identifier: GPL-3.0-or-later
// When Rooftop's own shape rules know every operator of a graph, ONNX's inference is skipped (it and its
// schema registry were half of a headless run). Both paths must give every tensor the same shape and type:
// the bundled networks, the Swin fixture, and small graphs of each operator family.
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"
#include "core/onnx/shape_inference.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QDir>
#include <QTest>

using namespace rooftop;

namespace {

const char* const forceOnnx = "ROOFTOP_ONNX_INFERENCE_ALWAYS";

struct Inferred {
    Graph ownRules;
    Graph onnx;
};

Inferred bothWays(const onnx::ModelProto& model, const DimBindings& dims) {
    qunsetenv(forceOnnx);
    Graph own = graphFromModel(model, dims, "model");
    qputenv(forceOnnx, "1");
    Graph onnx = graphFromModel(model, dims, "model");
    qunsetenv(forceOnnx);
    return {std::move(own), std::move(onnx)};
}

// Every tensor of one graph has the other's shape and type; returns the first difference, empty when none.
QString firstDifference(const Graph& a, const Graph& b) {
    if (a.tensors.size() != b.tensors.size()) return "tensor counts differ";
    for (const Tensor& t : a.tensors) {
        const Tensor* other = b.tensor(b.findTensor(t.name));
        if (!other) return QString::fromStdString("'" + t.name + "' missing");
        if (t.shapeKnown != other->shapeKnown || (t.shapeKnown && t.dims != other->dims) ||
            t.type != other->type)
            return QString::fromStdString("'" + t.name + "': own " + t.shapeText() + " " +
                                          dataTypeName(t.type) + ", ONNX " + other->shapeText() + " " +
                                          dataTypeName(other->type));
    }
    return {};
}

std::string textual(const std::string& body, int opset = 13) {
    return "<ir_version: 8, opset_import: [\"\" : " + std::to_string(opset) + "]>\nagraph " + body;
}

} // namespace

class TestOwnRulesAgreement : public QObject {
    Q_OBJECT

private slots:
    void bundledNetworksAndFixtures_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("dims");
        const QDir models(ROOFTOP_TEST_MODELS_DIR);
        for (const QString& file : models.entryList({"*.onnx"}, QDir::Files)) {
            QTest::newRow(qPrintable(file)) << models.filePath(file) << QString();
            QTest::newRow(qPrintable(file + " batch 4")) << models.filePath(file) << QString("batch=4");
        }
        QTest::newRow("bert sequence 128") << models.filePath("bert_base.onnx") << QString("sequence=128");
        QTest::newRow("swin fixture")
            << QString(ROOFTOP_TEST_FIXTURES_DIR) + "/onnx/swin_tiny.onnx" << QString();
    }

    void bundledNetworksAndFixtures() {
        QFETCH(QString, path);
        QFETCH(QString, dims);
        DimBindings bindings;
        if (dims == "batch=4") bindings.batch = 4;
        if (dims == "sequence=128") bindings.named["sequence"] = 128;
        const onnx::ModelProto model = loadModelFile(path.toStdString());
        QVERIFY(ownRulesKnowEveryOperator(model)); // else the comparison would not test the own-rules path
        const Inferred graphs = bothWays(model, bindings);
        QCOMPARE(firstDifference(graphs.ownRules, graphs.onnx), QString());
        int known = 0;
        for (const Tensor& t : graphs.ownRules.tensors)
            known += t.shapeKnown;
        QCOMPARE(known, int(graphs.ownRules.tensors.size()));
    }

    void operatorFamilies_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("conv, pool, norm") << QString::fromStdString(textual(
            R"((float[1,3,32,32] x, float[8,3,3,3] w, float[8] b, float[8] s, float[8] m, float[8] v) => (float[1,8,8,8] y) {
  c = Conv <pads = [1,1,1,1], strides = [2,2]> (x, w, b)
  n = BatchNormalization (c, s, b, m, v)
  r = Relu (n)
  y = MaxPool <kernel_shape = [3,3], strides = [2,2], pads = [1,1,1,1]> (r)
})"));
        QTest::newRow("ceil pooling, global, flatten, gemm") << QString::fromStdString(
            textual(R"((float[2,4,7,7] x, float[5,4] w, float[5] b) => (float[2,5] y) {
  p = AveragePool <kernel_shape = [2,2], strides = [2,2], ceil_mode = 1> (x)
  g = GlobalAveragePool (p)
  f = Flatten (g)
  y = Gemm <transB = 1> (f, w, b)
})"));
        QTest::newRow("attention block") << QString::fromStdString(textual(
            R"((float[2,16,64] x, float[64,64] wq, float[64] gamma, float[64] beta) => (float[2,16,64] y) {
  heads = Constant <value = int64[4] {2, 16, 4, 16}> ()
  back = Constant <value = int64[3] {2, 16, 64}> ()
  q = MatMul (x, wq)
  h = Reshape (q, heads)
  t = Transpose <perm = [0,2,1,3]> (h)
  k = Transpose <perm = [0,1,3,2]> (t)
  s = MatMul (t, k)
  a = Softmax <axis = -1> (s)
  o = MatMul (a, t)
  u = Transpose <perm = [0,2,1,3]> (o)
  m = Reshape (u, back)
  e = Add (m, x)
  y = LayerNormalization <axis = -1> (e, gamma, beta)
})",
            17));
        QTest::newRow("shape arithmetic")
            << QString::fromStdString(textual(R"((float[3,5,7] x) => (float[3,35] y) {
  s = Shape (x)
  i0 = Constant <value = int64[1] {0}> ()
  i1 = Constant <value = int64[1] {1}> ()
  i2 = Constant <value = int64[1] {2}> ()
  d0 = Gather <axis = 0> (s, i0)
  d1 = Gather <axis = 0> (s, i1)
  d2 = Gather <axis = 0> (s, i2)
  p = Mul (d1, d2)
  shape = Concat <axis = 0> (d0, p)
  y = Reshape (x, shape)
})"));
        QTest::newRow("slice, split, concat, pad, tile, expand") << QString::fromStdString(textual(
            R"((float[4,6,8] x) => (float[4,6,9] y, float[4,6,8] z, float[8,6,8] w, float[2,4,6,8] v) {
  st = Constant <value = int64[1] {1}> ()
  en = Constant <value = int64[1] {5}> ()
  ax = Constant <value = int64[1] {2}> ()
  pads = Constant <value = int64[6] {0, 0, 0, 0, 0, 5}> ()
  reps = Constant <value = int64[3] {2, 1, 1}> ()
  big = Constant <value = int64[4] {2, 1, 1, 1}> ()
  a = Slice (x, st, en, ax)
  b, c = Split <axis = 2> (x)
  z = Concat <axis = 2> (b, c)
  p = Pad (a, pads)
  y = Identity (p)
  w = Tile (x, reps)
  v = Expand (x, big)
})"));
        QTest::newRow("reduce, cast, compare, where, argmax") << QString::fromStdString(
            textual(R"((float[3,4,5] x) => (float[3,1,5] r, int64[3,5] i, float[3,4,5] w, int32[3,4,5] c) {
  r = ReduceMean <axes = [1]> (x)
  i = ArgMax <axis = 1, keepdims = 0> (x)
  zero = Constant <value = float {0}> ()
  g = Greater (x, zero)
  w = Where (g, x, zero)
  c = Cast <to = 6> (x)
})"));
        QTest::newRow("resize, depth to space, unsqueeze, squeeze") << QString::fromStdString(
            textual(R"((float[1,8,4,4] x) => (float[1,2,16,16] y, float[1,8,4,4,1] u, float[8,4,4] q) {
  scales = Constant <value = float[4] {1, 1, 2, 2}> ()
  last = Constant <value = int64[1] {4}> ()
  first = Constant <value = int64[1] {0}> ()
  d = DepthToSpace <blocksize = 2> (x)
  roi = Constant <value = float[0] {}> ()
  y = Resize <mode = "nearest"> (d, roi, scales)
  u = Unsqueeze (x, last)
  q = Squeeze (x, first)
})"));
    }

    void operatorFamilies() {
        QFETCH(QString, text);
        const onnx::ModelProto model = parseModelText(text.toStdString());
        QVERIFY(ownRulesKnowEveryOperator(model));
        const Inferred graphs = bothWays(model, {});
        QCOMPARE(firstDifference(graphs.ownRules, graphs.onnx), QString());
        for (const Tensor& t : graphs.ownRules.tensors)
            QVERIFY2(t.shapeKnown, t.name.c_str());
    }
};

ROOFTOP_TEST_CLASS(TestOwnRulesAgreement)
#include "test_own_rules_agreement.moc"
