// SPDX-License-Identifier: GPL-3.0-or-later
// Names resolve per scope: a nested If body sees its own values, then those of each enclosing body, then the
// graph's; a value of one branch is not visible in its sibling. Nested Ifs with constant conditions inline.
#include "core/common/errors.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QtTest>
#include <algorithm>

using namespace rooftop;
using rooftop::test::analyzeText;
using rooftop::test::hasNote;
using rooftop::test::replaceFirst;

namespace {

// A top-level If whose then-branch computes h = x*w (1*16*32 = 512 MACs) and holds an If whose then-branch
// reads h: u = h*w2 (1*32*8 = 256 MACs); innerElse is the inner else-branch body. The condition is input c
// or, for "constant", the initializer k = true.
std::string nestedIfModel(const std::string& condition, const std::string& innerElse = "v = MatMul (x, w3)") {
    const std::string text = R"(
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[1,16] x @INPUT@) => (float[1,8] y)
          <float[16,32] w = {0.0}, float[32,8] w2 = {0.0}, float[16,8] w3 = {0.0} @INIT@> {
            y = If <then_branch = outer () => (float[1,8] t) {
                      h = MatMul (x, w)
                      t = If <then_branch = inner () => (float[1,8] u) { u = MatMul (h, w2) },
                              else_branch = innerElse () => (float[1,8] v) { @ELSE@ }> (@COND@)
                    },
                    else_branch = outerElse () => (float[1,8] e) { e = MatMul (x, w3) }> (@COND@)
        })";
    const bool constant = condition == "constant";
    std::string model = replaceFirst(text, "@INPUT@", constant ? "" : ", bool c");
    model = replaceFirst(model, "@INIT@", constant ? ", bool k = {1}" : "");
    model = replaceFirst(model, "@ELSE@", innerElse);
    model = replaceFirst(model, "@COND@", constant ? "k" : "c");
    return replaceFirst(model, "@COND@", constant ? "k" : "c");
}

// The InputError message analyzing the text gives, or "" when it loads.
std::string loadError(const std::string& text) {
    try {
        analyzeText(text);
    } catch (const InputError& error) {
        return error.what();
    }
    return {};
}

} // namespace

class NestedScopes : public QObject {
    Q_OBJECT
private slots:
    void nestedBodyReadsTheEnclosingBranchesValue() {
        const Workload w = analyzeText(nestedIfModel("input"));
        QCOMPARE(w.totals.macs, int64_t{512 + 256});
    }

    void nestedConstantIfsAreInlinedInTurn() {
        const Workload w = analyzeText(nestedIfModel("constant"));
        QCOMPARE(w.totals.macs, int64_t{512 + 256});
        QVERIFY(hasNote(w, "2 If node(s) with a constant condition inlined"));
        QVERIFY(
            std::none_of(w.layers.begin(), w.layers.end(), [](const LayerCount& l) { return l.op == "If"; }));
    }

    void siblingBranchValueIsNotVisible() {
        // The inner else-branch reads u, which only its sibling then-branch produces.
        const std::string error = loadError(nestedIfModel("input", "v = Identity (u)"));
        QVERIFY2(error.find("reads 'u', which no node, input or initializer provides") != std::string::npos,
                 error.c_str());
    }

    void danglingNameInNestedBodyIsAnError() {
        const std::string error = loadError(nestedIfModel("input", "v = Identity (nowhere)"));
        QVERIFY2(error.find("'nowhere'") != std::string::npos, error.c_str());
    }
};

ROOFTOP_TEST_CLASS(NestedScopes)
#include "test_nested_scopes.moc"
