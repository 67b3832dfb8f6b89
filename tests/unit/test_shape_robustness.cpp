// SPDX-License-Identifier: GPL-3.0-or-later
// Malformed shape input (negative dims, zero sizes, rank mismatches, absurd values) leaves outputs unknown:
// rules and value folding never crash, hang or throw.
#include "core/onnx/model_graph.h"
#include "core/onnx/model_loader.h"
#include "core/onnx/shape_rules.h"
#include "core/onnx/value_folding.h"
#include "support/shape_test_support.h"
#include "support/test_registry.h"

#include <QtTest>
#include <random>

using namespace rooftop;
using rooftop::test::graphOf;

namespace {

// Our rule's result for the tensor `output`: its dims, "?" when left unknown, "none" when no result.
QString ruleOutputShape(const Graph& graph, const std::string& output) {
    const int t = graph.findTensor(output);
    if (t < 0 || graph.tensors[static_cast<size_t>(t)].producer < 0) return "no producer";
    const Node& node = graph.nodes[static_cast<size_t>(graph.tensors[static_cast<size_t>(t)].producer)];
    std::vector<InferredOutput> outputs;
    if (!applyShapeRule(graph, node, outputs)) return "none";
    for (size_t i = 0; i < node.outputs.size(); ++i)
        if (node.outputs[i] == t && outputs[i].known) {
            Tensor shown;
            shown.dims = outputs[i].dims;
            shown.shapeKnown = true;
            return QString::fromStdString(shown.shapeText());
        }
    return "?";
}

const std::vector<std::string> ruleOps = {"Reshape",
                                          "Flatten",
                                          "Expand",
                                          "Tile",
                                          "ConstantOfShape",
                                          "Range",
                                          "Slice",
                                          "Squeeze",
                                          "Unsqueeze",
                                          "Concat",
                                          "Gather",
                                          "GatherElements",
                                          "Transpose",
                                          "Split",
                                          "Pad",
                                          "Shape",
                                          "Size",
                                          "DepthToSpace",
                                          "SpaceToDepth",
                                          "Add",
                                          "Div",
                                          "Mod",
                                          "Where",
                                          "Equal",
                                          "Cast",
                                          "Relu",
                                          "Dropout",
                                          "MatMul",
                                          "Gemm",
                                          "ReduceSum",
                                          "ReduceProd",
                                          "ReduceMean",
                                          "ArgMax",
                                          "TopK",
                                          "Conv",
                                          "ConvTranspose",
                                          "MaxPool",
                                          "AveragePool",
                                          "GlobalAveragePool",
                                          "Resize",
                                          "LSTM",
                                          "GRU",
                                          "LayerNormalization",
                                          "Attention",
                                          "Neg",
                                          "Abs",
                                          "Floor",
                                          "Min",
                                          "Max",
                                          "Not",
                                          "Identity",
                                          "ReduceMin",
                                          "Sum",
                                          "QuantizeLinear",
                                          "DequantizeLinear",
                                          "ScatterND",
                                          "CumSum"};

const std::vector<std::string> contribOps = {"Attention",
                                             "MultiHeadAttention",
                                             "GroupQueryAttention",
                                             "SkipLayerNormalization",
                                             "EmbedLayerNormalization",
                                             "FusedConv",
                                             "NhwcConv",
                                             "QLinearConv",
                                             "QLinearMatMul",
                                             "MatMulNBits",
                                             "FusedMatMul",
                                             "MatMulIntegerToFloat",
                                             "QLinearAdd",
                                             "QLinearGlobalAveragePool",
                                             "BiasGelu"};

int64_t pickDim(std::mt19937& rng) {
    static const int64_t dims[] = {
        -3, -1, 0, 1, 1, 2, 3, 4, 7, 64, int64_t(1) << 31, int64_t(1) << 40, int64_t(1) << 62, INT64_MAX};
    return dims[rng() % (sizeof(dims) / sizeof(dims[0]))];
}

std::vector<int64_t> pickList(std::mt19937& rng, size_t maxSize) {
    std::vector<int64_t> list(rng() % (maxSize + 1));
    for (int64_t& v : list)
        v = rng() % 3 == 0 ? pickDim(rng) : static_cast<int64_t>(rng() % 9) - 4;
    return list;
}

// A node of the given op with 1-8 inputs of random rank, dims, values and attributes.
Graph randomGraph(std::mt19937& rng, const std::string& domain, const std::string& op) {
    Graph graph;
    Node node;
    node.opType = op;
    node.domain = domain;
    node.opsetVersion = static_cast<int>(7 + rng() % 18);
    const size_t inputs = 1 + rng() % 8;
    for (size_t i = 0; i < inputs; ++i) {
        if (rng() % 7 == 0) {
            node.inputs.push_back(-1);
            continue;
        }
        const int index = graph.addTensor("in" + std::to_string(i));
        Tensor& t = graph.tensors[static_cast<size_t>(index)];
        t.type = rng() % 2 ? DataType::Int64 : DataType::Float32;
        t.shapeKnown = rng() % 8 != 0;
        t.dims.resize(rng() % 6);
        for (int64_t& d : t.dims)
            d = pickDim(rng);
        if (rng() % 2) t.intValues = pickList(rng, 6);
        if (rng() % 5 == 0) t.floatValues = std::vector<double>{-1.5, 0.0, 1e300};
        node.inputs.push_back(index);
    }
    const size_t outputs = 1 + rng() % 4;
    for (size_t i = 0; i < outputs; ++i)
        node.outputs.push_back(graph.addTensor("out" + std::to_string(i)));
    for (const char* key : {"axis",
                            "axes",
                            "perm",
                            "kernel_shape",
                            "pads",
                            "strides",
                            "dilations",
                            "split",
                            "num_outputs",
                            "keepdims",
                            "allowzero",
                            "num_heads",
                            "kv_num_heads",
                            "q_num_heads",
                            "hidden_size",
                            "N",
                            "qkv_hidden_sizes",
                            "blocksize",
                            "to",
                            "start",
                            "end",
                            "ceil_mode",
                            "output_padding",
                            "group",
                            "transA",
                            "transB",
                            "layout",
                            "mode",
                            "reduction",
                            "exclusive",
                            "reverse"}) {
        if (rng() % 2) continue;
        static const char* const words[] = {"",     "constant", "edge", "reflect", "wrap",
                                            "none", "add",      "mul",  "max"};
        AttributeValue value;
        value.i = rng() % 3 == 0 ? pickDim(rng) : static_cast<int64_t>(rng() % 9) - 4;
        value.ints = pickList(rng, 8);
        value.s = words[rng() % (sizeof(words) / sizeof(words[0]))];
        node.attributes[key] = value;
    }
    graph.nodes.push_back(node);
    return graph;
}

} // namespace

class ShapeRobustness : public QObject {
    Q_OBJECT
private slots:
    void reshapeRejectsImpossibleTargets() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3] x, float[0,3] e) => (a, b, c, d, f, h, z)
            <int64[2] twoMinus = {-1, -1}, int64[1] four = {4}, int64[2] neg = {-2, 3}, int64[3] zeros = {0, 0, 0},
             int64[2] huge = {4611686018427387904, 4}, int64[2] ambiguous = {0, -1}, int64[2] ok = {-1, 3}> {
                a = Reshape (x, twoMinus)
                b = Reshape (x, four)
                c = Reshape (x, neg)
                d = Reshape (x, zeros)
                f = Reshape (x, huge)
                h = Reshape (e, ambiguous)
                z = Reshape (e, ok)
            })");
        for (const char* name : {"a", "b", "c", "d", "f", "h"})
            QCOMPARE(ruleOutputShape(g, name), QString("none"));
        QCOMPARE(ruleOutputShape(g, "z"), QString("0x3"));
    }

    void absurdSizesStayUnknown() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3] x, float[4] v) => (t, n, e, c, r)
            <int64[2] reps = {4611686018427387904, 4}, int64[2] negReps = {-1, 2},
             int64[2] big = {4611686018427387904, 4611686018427387904}, int64[2] bad = {5, 3},
             int64 zero = {0}, int64 one = {1}> {
                t = Tile (x, reps)
                n = Tile (x, negReps)
                c = ConstantOfShape (big)
                e = Expand (v, bad)
                r = Range (zero, one, zero)
            })");
        for (const char* name : {"t", "n", "c", "e", "r"})
            QCOMPARE(ruleOutputShape(g, name), QString("none"));
    }

    void inconsistentAttributesStayUnknown() {
        const Graph g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3] x, float[2,3,4] y, float[1,1,2,2] small) => (c, s0, sd, t1, t2, sp, p, k, st, u, q, m)
            <int64[1] s = {0}, int64[1] e = {1}, int64[1] step0 = {0}, int64[2] s2 = {0, 0}, int64[2] e2 = {1, 1},
             int64[2] dup = {1, 1}, int64[2] sizes = {1, 1}, int64[4] pads = {0, -5, 0, 0}, int64[1] ax9 = {9},
             float[1,1,3,3] w = {0.0}> {
                c = Concat <axis = 0> (x, y)
                s0 = Slice (x, s, e, s, step0)
                sd = Slice (x, s2, e2, dup)
                t1 = Transpose <perm = [0, 0]> (x)
                t2 = Transpose <perm = [1, 0, 2]> (x)
                sp = Split <axis = 1> (x, sizes)
                p = Pad (x, pads)
                k = Conv (small, w)
                st = Conv <strides = [0, 0], pads = [2, 2, 2, 2]> (small, w)
                u = Unsqueeze (x, ax9)
                q = Squeeze (x, s)
                m = MatMul (x, x)
            })");
        for (const char* name : {"c", "s0", "sd", "t1", "t2", "sp", "p", "k", "st", "u", "q", "m"})
            QVERIFY2(ruleOutputShape(g, name) == "none", name);
    }

    void rankMismatchedAttentionStaysUnknown() {
        const Graph g = graphOf(R"(
            <ir_version: 10, opset_import: ["" : 23]>
            g (float[2,10,768] q, float[2,8,20,96] k, float[2,20,768] v) => (y) {
                y = Attention <q_num_heads = 8, kv_num_heads = 8> (q, k, v)
            })");
        QCOMPARE(ruleOutputShape(g, "y"), QString("none"));
    }

    // The whole pipeline on absurd shape arithmetic: loads, leaves shapes unknown, does not throw.
    void absurdShapeArithmeticLoads() {
        Graph g;
        QVERIFY_THROWS_NO_EXCEPTION(g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3] x) => (y, c, h, z)
            <int64[2] big = {4611686018427387904, 4611686018427387904}, int64 one = {1}, int64[2] wide = {1099511627776, 1099511627776}> {
                s = Shape (x)
                d = Div (s, one)
                m = Mul (d, big)
                y = Reshape (x, m)
                c = ConstantOfShape (m)
                h = ConstantOfShape (wide)
                p = ReduceProd <keepdims = 0> (m)
                z = Range (one, p, one)
            })"));
        QVERIFY(!g.tensors[static_cast<size_t>(g.findTensor("m"))].intValues); // overflows: not folded
        for (const char* name : {"y", "c", "z"})
            QVERIFY2(!g.tensors[static_cast<size_t>(g.findTensor(name))].shapeKnown, name);
    }

    // A stride of 0 would crash ONNX 1.12's own inference (division by zero): that op is left to our rules.
    void zeroStrideDoesNotCrashTheLibrary() {
        Graph g;
        QVERIFY_THROWS_NO_EXCEPTION(g = graphOf(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[1,4,8,8] x) => (a, b, c) <float[4,4,3,3] w = {0.0}> {
                a = Conv <strides = [0, 0]> (x, w)
                b = MaxPool <kernel_shape = [2, 2], strides = [0, 1]> (x)
                c = AveragePool <kernel_shape = [2, 2], strides = [-1, 1]> (x)
            })"));
        for (const char* name : {"a", "b", "c"})
            QVERIFY2(!g.tensors[static_cast<size_t>(g.findTensor(name))].shapeKnown, name);
    }

    // ONNX 1.12's Shape inference dereferences the type of its input: a graph input without one gets a
    // placeholder.
    void untypedGraphInputDoesNotCrashTheLibrary() {
        onnx::ModelProto model = parseModelText(R"(
            <ir_version: 8, opset_import: ["" : 17]>
            g (float[2,3] x) => (s, y) {
                s = Shape (x)
                y = Relu (x)
            })");
        model.mutable_graph()->mutable_input(0)->clear_type();
        Graph g;
        QVERIFY_THROWS_NO_EXCEPTION(g = graphFromModel(model, {}, "textual model"));
        QVERIFY(!g.tensors[static_cast<size_t>(g.findTensor("y"))].shapeKnown);
    }

    // Random nodes of every op our rules and folding know: nothing throws or crashes.
    void randomMalformedNodes() {
        std::mt19937 rng(20240611);
        int ran = 0;
        for (int round = 0; round < 150; ++round) {
            for (const auto& list : {std::make_pair(std::string(), &ruleOps),
                                     std::make_pair(std::string("com.microsoft"), &contribOps)}) {
                for (const std::string& op : *list.second) {
                    Graph graph = randomGraph(rng, list.first, op);
                    std::vector<InferredOutput> outputs;
                    try {
                        applyShapeRule(graph, graph.nodes[0], outputs);
                        foldIntegerValues(graph);
                    } catch (const std::exception& error) {
                        QFAIL((op + " threw: " + error.what()).c_str());
                    }
                    for (const InferredOutput& out : outputs)
                        for (int64_t d : out.dims)
                            QVERIFY2(!out.known || d >= 0, op.c_str());
                    ++ran;
                }
            }
        }
        QVERIFY(ran > 1000);
    }
};

ROOFTOP_TEST_CLASS(ShapeRobustness)
#include "test_shape_robustness.moc"
