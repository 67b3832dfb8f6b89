// SPDX-License-Identifier: GPL-3.0-or-later
// Einsum with any number of operands. The equation is parsed (explicit "->" or numpy's implicit output;
// "..." binds to the broadcast of the operands' remaining leading dims), label sizes are bound from the input
// shapes, and the operands are contracted pairwise along a greedy path (smallest intermediate first).
// A pairwise step that sums a label costs the product of all distinct label sizes of the pair in MACs; one
// that sums nothing (Hadamard or outer product) costs 1 multiply per result element. A single operand costs
// 1 add per input element when it sums labels, nothing when it only transposes or takes a diagonal.
// A malformed equation or a shape that does not fit it makes the node unsupported.
#include "core/cost/cost_registry.h"
#include "core/graph/checked_math.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace rooftop {
namespace {

using Labels = std::vector<int>;      ///< one term: label ids in order, kEllipsis for "..."
using LabelSet = std::set<int>;       ///< distinct labels an operand carries
using Sizes = std::map<int, int64_t>; ///< label id -> size

constexpr int kEllipsis = -1;
constexpr int kFirstEllipsisLabel = 52; ///< broadcast dims of "..." get ids 52, 53, ... (after a-z, A-Z)

int letterLabel(char ch) {
    if (ch >= 'a' && ch <= 'z') return ch - 'a';
    if (ch >= 'A' && ch <= 'Z') return 26 + (ch - 'A');
    return -2;
}

// One term into labels; false for a stray character or more than one ellipsis.
bool parseTerm(const std::string& text, Labels& labels) {
    labels.clear();
    bool ellipsis = false;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '.') {
            if (ellipsis || text.compare(i, 3, "...") != 0) return false;
            ellipsis = true;
            labels.push_back(kEllipsis);
            i += 2;
            continue;
        }
        const int label = letterLabel(text[i]);
        if (label < 0) return false;
        labels.push_back(label);
    }
    return true;
}

struct Equation {
    std::vector<Labels> inputs;
    Labels output;
    bool explicitOutput = false;
};

std::vector<std::string> splitTerms(const std::string& text) {
    std::vector<std::string> terms(1);
    for (char ch : text) {
        if (ch == ',')
            terms.emplace_back();
        else
            terms.back() += ch;
    }
    return terms;
}

bool parseEquation(const std::string& raw, Equation& eq) {
    std::string text;
    for (char ch : raw)
        if (ch != ' ' && ch != '\t' && ch != '\n') text += ch;
    const size_t arrow = text.find("->");
    if (arrow != std::string::npos && text.find("->", arrow + 2) != std::string::npos) return false;
    eq.explicitOutput = arrow != std::string::npos;
    for (const std::string& term : splitTerms(text.substr(0, arrow))) {
        eq.inputs.emplace_back();
        if (!parseTerm(term, eq.inputs.back())) return false;
    }
    return !eq.explicitOutput || parseTerm(text.substr(arrow + 2), eq.output);
}

// An operand's dims matched to its term: the labels per dim, with "..." expanded to broadcast labels.
struct Operand {
    Labels dimLabels;
    const std::vector<int64_t>* dims = nullptr;
};

size_t letterCount(const Labels& term) {
    return static_cast<size_t>(std::count_if(term.begin(), term.end(), [](int l) { return l != kEllipsis; }));
}

bool hasEllipsis(const Labels& term) {
    return std::find(term.begin(), term.end(), kEllipsis) != term.end();
}

// The number of dims "..." stands for in each term (-1 when the rank does not fit), and their maximum.
bool ellipsisRanks(const Equation& eq, const std::vector<const Tensor*>& tensors, std::vector<size_t>& ranks,
                   size_t& broadcastRank) {
    broadcastRank = 0;
    for (size_t i = 0; i < eq.inputs.size(); ++i) {
        const size_t rank = tensors[i]->dims.size();
        const size_t letters = letterCount(eq.inputs[i]);
        const bool ellipsis = hasEllipsis(eq.inputs[i]);
        if (rank < letters || (!ellipsis && rank != letters)) return false;
        ranks.push_back(rank - letters);
        broadcastRank = std::max(broadcastRank, rank - letters);
    }
    return true;
}

// Expands "..." of a term covering `rank` dims; broadcast dims are right-aligned to the broadcast rank.
Labels expandTerm(const Labels& term, size_t rank, size_t broadcastRank) {
    Labels expanded;
    for (int label : term) {
        if (label != kEllipsis) {
            expanded.push_back(label);
            continue;
        }
        for (size_t k = 0; k < rank; ++k)
            expanded.push_back(kFirstEllipsisLabel + static_cast<int>(broadcastRank - rank + k));
    }
    return expanded;
}

// Binds each label to its size; a size of 1 broadcasts against any other; other mismatches fail.
bool bindSizes(const std::vector<Operand>& operands, Sizes& sizes) {
    for (const Operand& op : operands) {
        for (size_t k = 0; k < op.dimLabels.size(); ++k) {
            const int64_t dim = (*op.dims)[k];
            auto [it, inserted] = sizes.emplace(op.dimLabels[k], dim);
            if (inserted || it->second == dim || dim == 1) continue;
            if (it->second != 1) return false;
            it->second = dim;
        }
    }
    return true;
}

// Labels an operand really carries: a dim of 1 broadcast against a larger size is left out.
LabelSet carriedLabels(const Operand& op, const Sizes& sizes) {
    LabelSet set;
    for (size_t k = 0; k < op.dimLabels.size(); ++k)
        if ((*op.dims)[k] != 1 || sizes.at(op.dimLabels[k]) == 1) set.insert(op.dimLabels[k]);
    return set;
}

// numpy's implicit output: the broadcast labels, then the letters that occur exactly once.
LabelSet implicitOutput(const std::vector<Operand>& operands) {
    std::map<int, int> occurrences;
    for (const Operand& op : operands)
        for (int label : op.dimLabels)
            ++occurrences[label];
    LabelSet output;
    for (const auto& [label, count] : occurrences)
        if (label >= kFirstEllipsisLabel || count == 1) output.insert(label);
    return output;
}

// The explicit output's labels; false when one repeats or appears in no input.
bool explicitOutput(const Labels& term, size_t broadcastRank, const Sizes& sizes, LabelSet& output) {
    for (int label : expandTerm(term, broadcastRank, broadcastRank)) {
        if (!sizes.count(label) || !output.insert(label).second) return false;
    }
    return true;
}

int64_t productOf(const LabelSet& labels, const Sizes& sizes) {
    int64_t product = 1;
    for (int label : labels)
        product = checkedMul(product, sizes.at(label));
    return product;
}

// One candidate pairwise step.
struct Step {
    size_t a = 0;
    size_t b = 0;
    LabelSet result;
    int64_t resultSize = 0;
    int64_t cost = 0; ///< product of all distinct label sizes of the pair
    bool sums = false;
};

Step evaluatePair(const std::vector<LabelSet>& ops, size_t a, size_t b, const LabelSet& output,
                  const Sizes& sizes) {
    Step step{a, b, {}, 0, 0, false};
    LabelSet all = ops[a];
    all.insert(ops[b].begin(), ops[b].end());
    for (int label : all) {
        bool needed = output.count(label) != 0;
        for (size_t k = 0; k < ops.size() && !needed; ++k)
            if (k != a && k != b && ops[k].count(label)) needed = true;
        if (needed) step.result.insert(label);
    }
    step.resultSize = productOf(step.result, sizes);
    step.cost = productOf(all, sizes);
    step.sums = step.result.size() < all.size();
    return step;
}

// The pair with the smallest intermediate (then the cheapest, then the leftmost).
Step greedyStep(const std::vector<LabelSet>& ops, const LabelSet& output, const Sizes& sizes) {
    Step best;
    bool found = false;
    for (size_t a = 0; a < ops.size(); ++a) {
        for (size_t b = a + 1; b < ops.size(); ++b) {
            Step step = evaluatePair(ops, a, b, output, sizes);
            if (!found || step.resultSize < best.resultSize ||
                (step.resultSize == best.resultSize && step.cost < best.cost)) {
                best = step;
                found = true;
            }
        }
    }
    return best;
}

// Contracts two or more operands pairwise; MACs for summing steps, 1 multiply per element otherwise.
OpCost contractAll(std::vector<LabelSet> ops, const LabelSet& output, const Sizes& sizes) {
    OpCost cost;
    cost.kind = OpKind::Pointwise;
    while (ops.size() > 1) {
        const Step step = greedyStep(ops, output, sizes);
        if (step.sums) {
            cost.macs = checkedAdd(cost.macs, step.cost);
            cost.kind = OpKind::Matrix;
        } else {
            cost.vectorOps = checkedAdd(cost.vectorOps, step.cost);
        }
        ops[step.a] = step.result;
        ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(step.b));
    }
    return cost;
}

// A single operand: 1 add per input element when it sums a label, else a pure copy.
OpCost singleOperand(const LabelSet& labels, const LabelSet& output, const Sizes& sizes) {
    OpCost cost;
    const bool sums = std::any_of(labels.begin(), labels.end(), [&](int l) { return !output.count(l); });
    cost.kind = sums ? OpKind::Vector : OpKind::DataMovement;
    if (sums) cost.vectorOps = productOf(labels, sizes);
    return cost;
}

// Operands with their term labels expanded; false when a shape is unknown or does not fit its term.
bool bindOperands(const CostContext& c, const Equation& eq, std::vector<Operand>& operands,
                  size_t& broadcastRank) {
    if (eq.inputs.size() != c.inputCount() || eq.inputs.empty()) return false;
    std::vector<const Tensor*> tensors;
    for (size_t i = 0; i < c.inputCount(); ++i) {
        if (!c.inputKnown(i)) return false;
        tensors.push_back(c.input(i));
    }
    std::vector<size_t> ranks;
    if (!ellipsisRanks(eq, tensors, ranks, broadcastRank)) return false;
    for (size_t i = 0; i < tensors.size(); ++i)
        operands.push_back({expandTerm(eq.inputs[i], ranks[i], broadcastRank), &tensors[i]->dims});
    return true;
}

OpCost einsum(const CostContext& c) {
    Equation eq;
    if (!parseEquation(c.node().attributeString("equation", ""), eq)) return unsupportedCost(OpKind::Matrix);
    std::vector<Operand> operands;
    size_t broadcastRank = 0;
    Sizes sizes;
    if (!bindOperands(c, eq, operands, broadcastRank) || !bindSizes(operands, sizes))
        return unsupportedCost(OpKind::Matrix);
    LabelSet output = implicitOutput(operands);
    if (eq.explicitOutput) {
        output.clear();
        if (!explicitOutput(eq.output, broadcastRank, sizes, output)) return unsupportedCost(OpKind::Matrix);
    }
    std::vector<LabelSet> carried;
    for (const Operand& op : operands)
        carried.push_back(carriedLabels(op, sizes));
    if (carried.size() == 1) return singleOperand(carried[0], output, sizes);
    return contractAll(std::move(carried), output, sizes);
}

} // namespace

void registerEinsumRules(CostRuleTable& table) {
    table[{"", "Einsum"}] = einsum;
}

} // namespace rooftop
