// SPDX-License-Identifier: GPL-3.0-or-later
// Einsum costs (core/cost/einsum_rules.cpp), hand-computed: a pairwise step that sums a label costs the
// product of all distinct label sizes of the pair in MACs; the path is greedy (smallest intermediate first).
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>

using namespace rooftop;
using rooftop::test::analyzeText;

namespace {

// One Einsum node over float inputs of the given shapes ("[8,16]").
Workload einsum(const std::string& equation, const std::vector<std::string>& shapes) {
    std::string inputs;
    std::string names;
    for (size_t i = 0; i < shapes.size(); ++i) {
        const std::string name = "x" + std::to_string(i);
        inputs += (i ? ", float" : "float") + shapes[i] + " " + name;
        names += (i ? ", " : "") + name;
    }
    const std::string header = R"(<ir_version: 8, opset_import: ["" : 17]>)";
    const std::string node = "y = Einsum <equation = \"" + equation + "\"> (" + names + ")";
    return analyzeText(header + "\ng (" + inputs + ") => (float[] y) {\n" + node + "\n}");
}

} // namespace

class EinsumCosts : public QObject {
    Q_OBJECT
private slots:
    void matrixProduct() {
        const auto w = einsum("ij,jk->ik", {"[8,16]", "[16,32]"});
        const auto& l = w.layers.at(0);
        QVERIFY(l.supported);
        QCOMPARE(l.kind, OpKind::Matrix);
        QCOMPARE(l.macs, int64_t(8 * 16 * 32));
        QCOMPARE(l.flops, int64_t(2 * 4096));
        QCOMPARE(l.sfuOps, int64_t(0));
    }

    void implicitOutputIsTheMatrixProduct() {
        QCOMPARE(einsum("ij,jk", {"[8,16]", "[16,32]"}).layers.at(0).macs, int64_t(4096));
    }

    // Attention scores written as an Einsum: 1 x 12 x 64 x 64 x 64.
    void batchedScores() {
        const auto w = einsum("bhqd,bhkd->bhqk", {"[1,12,64,64]", "[1,12,64,64]"});
        QCOMPARE(w.layers.at(0).macs, int64_t(3145728));
    }

    // i2 j3 k4 l5: (ij, jk) -> ik costs 24, then (ik, kl) -> il costs 40.
    void threeOperandChain() {
        const auto w = einsum("ij,jk,kl->il", {"[2,3]", "[3,4]", "[4,5]"});
        QCOMPARE(w.layers.at(0).macs, int64_t(64));
        QCOMPARE(w.layers.at(0).flops, int64_t(128));
    }

    // i10 j10 k10 l1: greedy contracts (jk, kl) -> jl first (100), then (ij, jl) -> il (100) = 200;
    // left to right would cost 1,000 + 100.
    void threeOperandGreedyPath() {
        const auto w = einsum("ij,jk,kl->il", {"[10,10]", "[10,10]", "[10,1]"});
        QCOMPARE(w.layers.at(0).macs, int64_t(200));
    }

    // b2 n3 a4 m5: (anm, bm) -> anb (120 MACs), then (bn, anb) -> ba (24 MACs).
    void threeOperandBilinear() {
        const auto w = einsum("bn,anm,bm->ba", {"[2,3]", "[4,3,5]", "[2,5]"});
        QCOMPARE(w.layers.at(0).macs, int64_t(144));
        QCOMPARE(w.layers.at(0).kind, OpKind::Matrix);
    }

    // "..." binds (2, 3) on the first operand and (3) on the second, broadcast to (2, 3).
    void ellipsisBroadcastBatch() {
        const auto w = einsum("...ij,...jk->...ik", {"[2,3,4,5]", "[3,5,6]"});
        QCOMPARE(w.layers.at(0).macs, int64_t(2 * 3 * 4 * 5 * 6));
        // A broadcast dim of 1 takes the other operand's size.
        QCOMPARE(einsum("...ij,...jk->...ik", {"[2,1,4,5]", "[3,5,6]"}).layers.at(0).macs, int64_t(720));
        // Implicit output keeps the broadcast dims.
        QCOMPARE(einsum("...ij,...jk", {"[2,3,4,5]", "[3,5,6]"}).layers.at(0).macs, int64_t(720));
    }

    void ellipsisSummedWhenLeftOutOfOutput() {
        const auto w = einsum("...i,...i->", {"[3,4,5]", "[3,4,5]"});
        QCOMPARE(w.layers.at(0).macs, int64_t(60));
    }

    // Hadamard product: nothing summed, 1 multiply per output element, pointwise.
    void hadamardIsElementwise() {
        const auto w = einsum("ij,ij->ij", {"[4,6]", "[4,6]"});
        const auto& l = w.layers.at(0);
        QCOMPARE(l.kind, OpKind::Pointwise);
        QCOMPARE(l.macs, int64_t(0));
        QCOMPARE(l.flops, int64_t(24));
    }

    void singleOperandReduction() {
        const auto w = einsum("ij->i", {"[4,6]"});
        QCOMPARE(w.layers.at(0).kind, OpKind::Vector);
        QCOMPARE(w.layers.at(0).flops, int64_t(24));
        // Trace: the 5 diagonal elements are added.
        QCOMPARE(einsum("ii", {"[5,5]"}).layers.at(0).flops, int64_t(5));
    }

    void transposeAndDiagonalAreDataMovement() {
        for (const auto& [equation, shape] : std::vector<std::pair<std::string, std::string>>{
                 {"ij->ji", "[4,6]"}, {"ii->i", "[5,5]"}, {"...ij->...ji", "[2,4,6]"}}) {
            const auto w = einsum(equation, {shape});
            QVERIFY2(w.layers.at(0).supported, equation.c_str());
            QCOMPARE(w.layers.at(0).kind, OpKind::DataMovement);
            QCOMPARE(w.layers.at(0).flops, int64_t(0));
        }
    }

    void malformedEquationsAreUnsupported() {
        const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
            {"ij,jk->ikz", {"[2,3]", "[3,4]"}}, // output label in no input
            {"ij->ii", {"[2,2]"}},              // repeated output label
            {"ij,jk->ik", {"[2,3]"}},           // fewer inputs than terms
            {"ij", {"[2,3]", "[3,4]"}},         // more inputs than terms
            {"ijk,jk->ik", {"[2,3]", "[3,4]"}}, // rank does not fit the term
            {"ij,jk->ik", {"[2,3]", "[5,4]"}},  // j bound to 3 and 5
            {"i.j,jk->ik", {"[2,3]", "[3,4]"}}, // lone dot
            {"i......j->ij", {"[2,3]"}},        // two ellipses
            {"ij->->ij", {"[2,3]"}},            // two arrows
            {"i$j->ij", {"[2,3]"}},             // stray character
            {"", {"[2,3]"}},                    // empty equation
            {"...ij", {"[2]"}},                 // rank below the letters
        };
        for (const auto& [equation, shapes] : cases) {
            const auto w = einsum(equation, shapes);
            QVERIFY2(!w.layers.at(0).supported, equation.c_str());
            QCOMPARE(w.layers.at(0).flops, int64_t(0));
        }
    }
};

ROOFTOP_TEST_CLASS(EinsumCosts)
#include "test_einsum_costs.moc"
