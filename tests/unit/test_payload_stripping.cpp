// SPDX-License-Identifier: GPL-3.0-or-later
// Large tensor payloads are skipped when a model is read: the parsed model equals the original with exactly
// those payloads cleared, small shape tensors keep their values, and the counts do not change.
#include "core/common/errors.h"
#include "core/cost/workload.h"
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"
#include "core/onnx/payload_stripping.h"
#include "core/onnx/tensor_values.h"
#include "support/test_registry.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>

using namespace rooftop;

namespace {

void addFloatTensor(onnx::TensorProto& t, const std::string& name, int64_t elements, bool raw) {
    t.set_name(name);
    t.set_data_type(onnx::TensorProto::FLOAT);
    t.add_dims(elements);
    if (raw) {
        t.set_raw_data(std::string(static_cast<size_t>(elements) * 4, '\x01'));
    } else {
        for (int64_t i = 0; i < elements; ++i)
            t.add_float_data(0.5f);
    }
}

onnx::ValueInfoProto vector(const std::string& name, int64_t n) {
    onnx::ValueInfoProto v;
    v.set_name(name);
    auto* type = v.mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::FLOAT);
    type->mutable_shape()->add_dim()->set_dim_value(n);
    return v;
}

/// X[8192] + W (raw, 8192 floats) -> Reshape by a small int64 shape -> Mul by a Constant of 8192 floats in
/// float_data -> If (constant true) whose then-branch adds its own 8192-float initializer.
onnx::ModelProto modelWithWeights() {
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(17);
    onnx::GraphProto* g = m.mutable_graph();
    g->set_name("weights");
    *g->add_input() = vector("X", 8192);
    addFloatTensor(*g->add_initializer(), "W", 8192, true);
    onnx::TensorProto* shape = g->add_initializer();
    shape->set_name("shape");
    shape->set_data_type(onnx::TensorProto::INT64);
    shape->add_dims(2);
    shape->add_int64_data(2);
    shape->add_int64_data(4096);
    onnx::TensorProto* cond = g->add_initializer();
    cond->set_name("cond");
    cond->set_data_type(onnx::TensorProto::BOOL);
    cond->add_int32_data(1);

    auto node = [&](const std::string& op, std::vector<std::string> in, std::string out) {
        onnx::NodeProto* n = g->add_node();
        n->set_op_type(op);
        n->set_name(out + "_node");
        for (const auto& i : in)
            n->add_input(i);
        n->add_output(out);
        return n;
    };
    node("Add", {"X", "W"}, "sum");
    onnx::NodeProto* constant = node("Constant", {}, "c");
    onnx::AttributeProto* value = constant->add_attribute();
    value->set_name("value");
    value->set_type(onnx::AttributeProto::TENSOR);
    addFloatTensor(*value->mutable_t(), "c_value", 8192, false);
    node("Mul", {"sum", "c"}, "product");
    node("Reshape", {"product", "shape"}, "reshaped");

    onnx::NodeProto* branch = node("If", {"cond"}, "Y");
    onnx::AttributeProto* thenBranch = branch->add_attribute();
    thenBranch->set_name("then_branch");
    thenBranch->set_type(onnx::AttributeProto::GRAPH);
    onnx::GraphProto* body = thenBranch->mutable_g();
    body->set_name("then");
    addFloatTensor(*body->add_initializer(), "B", 8192, true);
    onnx::NodeProto* inner = body->add_node();
    inner->set_op_type("Add");
    inner->add_input("product");
    inner->add_input("B");
    inner->add_output("then_out");
    *body->add_output() = vector("then_out", 8192);
    onnx::AttributeProto* elseBranch = branch->add_attribute();
    elseBranch->set_name("else_branch");
    elseBranch->set_type(onnx::AttributeProto::GRAPH);
    onnx::GraphProto* other = elseBranch->mutable_g();
    other->set_name("else");
    onnx::NodeProto* identity = other->add_node();
    identity->set_op_type("Identity");
    identity->add_input("product");
    identity->add_output("else_out");
    *other->add_output() = vector("else_out", 8192);
    *g->add_output() = vector("Y", 8192);
    return m;
}

std::optional<std::string> strip(const std::string& bytes, int64_t maxElements = maxFoldedElements) {
    return stripTensorPayloads(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), maxElements);
}

} // namespace

class TestPayloadStripping : public QObject {
    Q_OBJECT

private slots:
    void largePayloadsGoEverythingElseStays() {
        const onnx::ModelProto model = modelWithWeights();
        const std::string bytes = model.SerializeAsString();
        const std::optional<std::string> stripped = strip(bytes);
        QVERIFY(stripped.has_value());
        QVERIFY(stripped->size() < 2000);
        QVERIFY(bytes.size() > 3 * 8192 * 4);

        onnx::ModelProto expected = model;
        expected.mutable_graph()->mutable_initializer(0)->clear_raw_data();
        expected.mutable_graph()->mutable_node(1)->mutable_attribute(0)->mutable_t()->clear_float_data();
        expected.mutable_graph()
            ->mutable_node(4)
            ->mutable_attribute(0)
            ->mutable_g()
            ->mutable_initializer(0)
            ->clear_raw_data();
        onnx::ModelProto parsed;
        QVERIFY(parsed.ParseFromString(*stripped));
        QCOMPARE(parsed.SerializeAsString(), expected.SerializeAsString());
        // the shape the Reshape folds keeps its values
        QCOMPARE(integerValues(parsed.graph().initializer(1)).value(), (std::vector<int64_t>{2, 4096}));
    }

    void countsAreTheSameWithAndWithoutPayloads() {
        const onnx::ModelProto model = modelWithWeights();
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("weights.onnx").toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            QVERIFY(model.SerializeToOstream(&out));
        }
        const Workload fromFile = analyzeModelFile(path, {});
        const Workload whole = analyzeGraph(graphFromModel(model, {}, path), {});
        QCOMPARE(fromFile.layers.size(), whole.layers.size());
        QVERIFY(fromFile.totals.flops > 0);
        QCOMPARE(fromFile.totals.flops, whole.totals.flops);
        QCOMPARE(fromFile.totals.weightBytes, whole.totals.weightBytes);
        QCOMPARE(fromFile.totals.inputBytes, whole.totals.inputBytes);
        QCOMPARE(fromFile.totals.outputBytes, whole.totals.outputBytes);
        for (size_t i = 0; i < whole.layers.size(); ++i) {
            QCOMPARE(fromFile.layers[i].flops, whole.layers[i].flops);
            QCOMPARE(fromFile.layers[i].bytes(), whole.layers[i].bytes());
        }
    }

    void nothingToStripOrMalformedBytesGiveNothing() {
        onnx::ModelProto small = modelWithWeights();
        QVERIFY(!strip(small.SerializeAsString(), 1 << 20).has_value()); // every tensor under the limit
        const std::string bytes = small.SerializeAsString();
        QVERIFY(!strip(bytes.substr(0, bytes.size() / 2)).has_value());          // cut inside a payload
        QVERIFY(!strip(std::string("\x3b\x00", 2)).has_value());                 // a group (wire type 3)
        QVERIFY(!strip(std::string("\x3a\xff\xff\xff\xff\x0f", 6)).has_value()); // a length past the end
        QVERIFY(!strip(std::string()).has_value());
        // the loader then reports the original's error
        const std::string cut = bytes.substr(0, bytes.size() / 2);
        QVERIFY_EXCEPTION_THROWN(parseModelBytes(cut.data(), cut.size(), "cut"), InputError);
    }
};

ROOFTOP_TEST_CLASS(TestPayloadStripping)
#include "test_payload_stripping.moc"
