// SPDX-License-Identifier: GPL-3.0-or-later
// Shapes the model file states (value_info, graph outputs) fill what inference cannot reproduce, e.g. behind
// a Reshape whose shape tensor lives in an absent external file; a disagreement with inference is a note.
// A node that aborts ONNX's inference for the whole graph is skipped and the rest still inferred.
#include "core/cost/workload.h"
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>
#include <algorithm>

using namespace rooftop;
using rooftop::test::hasNote;

namespace {

// Turns the initializer `name` into one whose payload lives in a file that is not there.
void makeExternal(onnx::ModelProto& model, const std::string& name) {
    for (auto& init : *model.mutable_graph()->mutable_initializer()) {
        if (init.name() != name) continue;
        init.clear_int64_data();
        init.clear_float_data();
        init.clear_raw_data();
        init.set_data_location(onnx::TensorProto::EXTERNAL);
        auto* entry = init.add_external_data();
        entry->set_key("location");
        entry->set_value("absent.onnx.data");
    }
}

// Adds value_info for `name`: a float tensor with these dims ("" for a number in `values`, else a symbol).
void addValueInfo(onnx::ModelProto& model, const std::string& name, const std::vector<int64_t>& values,
                  const std::vector<std::string>& symbols = {}) {
    auto* info = model.mutable_graph()->add_value_info();
    info->set_name(name);
    auto* type = info->mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::FLOAT);
    auto* shape = type->mutable_shape();
    for (size_t i = 0; i < values.size(); ++i) {
        if (i < symbols.size() && !symbols[i].empty())
            shape->add_dim()->set_dim_param(symbols[i]);
        else
            shape->add_dim()->set_dim_value(values[i]);
    }
}

Workload analyze(const onnx::ModelProto& model, const DimBindings& bindings = {}) {
    return analyzeGraph(graphFromModel(model, bindings, "test model"), AnalysisSettings{});
}

// x [1,16] reshaped by an external (absent) shape tensor to r, then r x w [4,8] (4*4*8 = 128 MACs when r is
// known as 4x4) and Shape(r).
onnx::ModelProto reshapeModel() {
    onnx::ModelProto model = parseModelText(R"(
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[1,16] x) => (float y, int64 s) <int64[2] sh = {4, 4}, float[4,8] w = {0.0}> {
            r = Reshape (x, sh)
            y = MatMul (r, w)
            s = Shape (r)
        })");
    makeExternal(model, "sh");
    return model;
}

} // namespace

class FileShapes : public QObject {
    Q_OBJECT
private slots:
    void reshapeOfExternalShapeIsUnknownWithoutValueInfo() {
        const Workload w = analyze(reshapeModel());
        QCOMPARE(w.totals.macs, int64_t{0});
    }

    void valueInfoFillsWhatInferenceCannot() {
        onnx::ModelProto model = reshapeModel();
        addValueInfo(model, "r", {4, 4});
        const Workload w = analyze(model);
        QCOMPARE(w.totals.macs, int64_t{128});
        const Graph graph = graphFromModel(model, {}, "test model");
        const Tensor& s = graph.tensors[static_cast<size_t>(graph.findTensor("s"))];
        QVERIFY(s.shapeKnown);
        QCOMPARE(s.dims, std::vector<int64_t>{2});
    }

    void valueInfoSymbolsTakeTheBoundValues() {
        onnx::ModelProto model = parseModelText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[N,16] x) => (float y) <int64[3] sh = {-1, 4, 4}, float[4,8] w = {0.0}> {
                r = Reshape (x, sh)
                y = MatMul (r, w)
            })");
        makeExternal(model, "sh");
        addValueInfo(model, "r", {0, 4, 4}, {"N", "", ""});
        DimBindings bindings;
        bindings.named["N"] = 3;
        QCOMPARE(analyze(model, bindings).totals.macs, int64_t{3 * 4 * 4 * 8});
        // A symbol no binding names is assumed 1, like the input's.
        QCOMPARE(analyze(model).totals.macs, int64_t{4 * 4 * 8});
    }

    void disagreementIsANoteAndInferenceWins() {
        onnx::ModelProto model = parseModelText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,16] x) => (float y) <int64[2] sh = {4, 4}, float[4,8] w = {0.0}> {
                r = Reshape (x, sh)
                y = MatMul (r, w)
            })");
        addValueInfo(model, "r", {2, 8});
        const Workload w = analyze(model);
        QCOMPARE(w.totals.macs, int64_t{128});
        QVERIFY(hasNote(
            w, "1 shape(s) in the file disagree with inference (inferred kept): 'r' file 2x8, inferred 4x4"));
    }

    // Concat's data propagation reads the external tensor e and throws out of ONNX's whole inference; the
    // Softmax that only ONNX infers must still get its shape, so the second MatMul counts 2*3*5*6 = 180 MACs
    // on top of the first one's 2*3*4*5 = 120.
    void failingNodeIsSkippedAndTheRestInferred() {
        onnx::ModelProto model = parseModelText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3,4] x) => (float y, float q)
              <int64[1] e = {1}, float[4,5] w = {0.0}, float[5,6] w2 = {0.0}> {
                s = Shape (x)
                c = Concat <axis = 0> (s, e)
                y = Reshape (x, c)
                m = MatMul (x, w)
                z = Softmax (m)
                q = MatMul (z, w2)
            })");
        makeExternal(model, "e");
        const Workload w = analyze(model);
        QCOMPARE(w.totals.macs, int64_t{120 + 180});
        QVERIFY(hasNote(w, "ONNX shape inference skipped an unnamed Concat node"));
        QVERIFY(!hasNote(w, "stopped early"));
    }

    void valueInfoInsideASubgraphTakesTheBoundValues() {
        // The then-branch reshapes by an absent external shape: only its own value_info says [N,4,4].
        onnx::ModelProto model = parseModelText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[N,16] x, bool c) => (float y) <int64[3] sh = {-1, 4, 4}, float[4,8] w = {0.0}> {
                y = If <then_branch = thenBranch () => (float t) { r = Reshape (x, sh)  t = MatMul (r, w) },
                        else_branch = elseBranch () => (float e) { e = Identity (x) }> (c)
            })");
        makeExternal(model, "sh");
        onnx::GraphProto* branch = nullptr;
        for (auto& attr : *model.mutable_graph()->mutable_node(0)->mutable_attribute())
            if (attr.name() == "then_branch") branch = attr.mutable_g();
        QVERIFY(branch);
        branch->mutable_output(0)
            ->mutable_type()
            ->mutable_tensor_type()
            ->clear_shape(); // textual "float t" is rank 0
        auto* info = branch->add_value_info();
        info->set_name("r");
        auto* type = info->mutable_type()->mutable_tensor_type();
        type->set_elem_type(onnx::TensorProto::FLOAT);
        type->mutable_shape()->add_dim()->set_dim_param("N");
        type->mutable_shape()->add_dim()->set_dim_value(4);
        type->mutable_shape()->add_dim()->set_dim_value(4);
        DimBindings bindings;
        bindings.named["N"] = 3;
        QCOMPARE(analyze(model, bindings).totals.macs, int64_t{3 * 4 * 4 * 8});
    }
};

ROOFTOP_TEST_CLASS(FileShapes)
#include "test_file_shapes.moc"
