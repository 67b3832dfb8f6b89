// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/onnx/dim_binding.h"

#include "core/common/decimal_text.h"
#include "core/common/errors.h"

#include <cctype>
#include <set>

namespace rooftop {

void parseDimOption(const std::string& text, DimBindings& bindings, const std::string& option) {
    auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw InputError(option + " expects NAME=VALUE, got '" + text + "'");
    const std::string name = text.substr(0, eq);
    const std::string valueText = text.substr(eq + 1);
    const std::optional<int64_t> value = readInteger(valueText);
    if (!value || *value < 1 || *value > DimBindings::maxDimValue)
        throw InputError(option + " " + name + ": value must be an integer between 1 and 2^40, got '" +
                         valueText + "'");
    if (const auto bound = bindings.named.find(name);
        bound != bindings.named.end() && bound->second != *value)
        throw InputError(option + " " + name + " is given twice, as " + std::to_string(bound->second) +
                         " and as " + std::to_string(*value) + ": give it once");
    bindings.named[name] = *value;
}

void parseDimList(const std::string& text, DimBindings& bindings, const std::string& field) {
    const auto separator = [](char c) {
        return c == ',' || c == ';' || std::isspace(static_cast<unsigned char>(c));
    };
    size_t start = 0;
    while (start < text.size()) {
        if (separator(text[start])) {
            ++start;
            continue;
        }
        size_t end = start;
        while (end < text.size() && !separator(text[end]))
            ++end;
        parseDimOption(text.substr(start, end - start), bindings, field);
        start = end;
    }
}

InputBinding bindInputDims(onnx::ModelProto& model, const DimBindings& bindings) {
    std::set<std::string> initializers;
    for (const auto& init : model.graph().initializer())
        initializers.insert(init.name());
    // An exporter that marks dim 0 dynamic on some inputs marks its batched ones: --batch binds only those
    // (the others, e.g. buffers exported as inputs, keep their sizes).
    bool symbolicFirstDim = false;
    for (const auto& input : model.graph().input())
        if (!initializers.count(input.name()) && input.type().has_tensor_type() &&
            input.type().tensor_type().shape().dim_size() > 0 &&
            input.type().tensor_type().shape().dim(0).has_dim_param())
            symbolicFirstDim = true;
    // a symbol also named past dim 0 (a sequence that is one input's first dim) is not the batch
    std::set<std::string> laterSymbols;
    for (const auto& input : model.graph().input())
        if (!initializers.count(input.name()) && input.type().has_tensor_type())
            for (int i = 1; i < input.type().tensor_type().shape().dim_size(); ++i)
                if (input.type().tensor_type().shape().dim(i).has_dim_param())
                    laterSymbols.insert(input.type().tensor_type().shape().dim(i).dim_param());
    std::set<std::string> assumed, symbols;
    std::set<int64_t> batchesByName;
    std::set<std::string> batchNames;
    bool batchLeftAtOne = false; // another input's batch symbol, unbound
    for (auto& input : *model.mutable_graph()->mutable_input()) {
        if (initializers.count(input.name()) || !input.type().has_tensor_type()) continue;
        auto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
        for (int i = 0; i < shape->dim_size(); ++i) {
            auto* dim = shape->mutable_dim(i);
            if (dim->has_dim_value() && dim->dim_value() < 0)
                throw InputError("input '" + input.name() + "' has a negative dimension (" +
                                 std::to_string(dim->dim_value()) + ")");
            if (dim->has_dim_value() && dim->dim_value() > DimBindings::maxDimValue)
                throw InputError("input '" + input.name() + "' has an absurd dimension (" +
                                 std::to_string(dim->dim_value()) + ")");
            const std::string symbol = dim->has_dim_param() ? dim->dim_param() : std::string();
            // a batch is dim 0 of a tensor of samples, by a symbol named nowhere later: a 1-D input's only
            // dim is a shape (boxes, tokens), a symbol also past dim 0 a sequence
            const bool batchSymbol =
                i == 0 && shape->dim_size() >= 2 && !symbol.empty() && !laterSymbols.count(symbol);
            if (!symbol.empty()) symbols.insert(symbol);
            auto named = symbol.empty() ? bindings.named.end() : bindings.named.find(symbol);
            if (named != bindings.named.end()) {
                if (i == 0 && bindings.batch && *bindings.batch != named->second &&
                    (!symbolicFirstDim || dim->has_dim_param()) && !laterSymbols.count(symbol))
                    throw InputError(
                        bindings.dimOption + " " + symbol + "=" + std::to_string(named->second) +
                        " binds the batch dimension (dim 0 of input '" + input.name() +
                        "'), which is the batch size: give batch sizes with " + bindings.batchOption +
                        (bindings.batchOption == "--batch" ? " (plan and tune choose them)" : "") +
                        " and leave '" + symbol + "' out of " + bindings.dimOption);
                if (batchSymbol) {
                    batchesByName.insert(named->second);
                    batchNames.insert(symbol);
                }
                dim->set_dim_value(named->second);
            } else if (i == 0 && bindings.batch && (!symbolicFirstDim || dim->has_dim_param())) {
                dim->set_dim_value(*bindings.batch);
            } else if (!dim->has_dim_value()) {
                batchLeftAtOne |= batchSymbol;
                assumed.insert((symbol.empty() ? input.name() + "[" + std::to_string(i) + "]" : symbol) +
                               "=1");
                dim->set_dim_value(1);
            }
        }
    }
    for (const auto& [name, value] : bindings.named)
        if (!symbols.count(name)) {
            std::string known;
            for (const std::string& symbol : symbols)
                known += (known.empty() ? "" : ", ") + symbol;
            throw InputError(bindings.dimOption + " " + name + "=" + std::to_string(value) +
                             ": the model has no input dim named '" + name + "' (" +
                             (known.empty() ? std::string("it has no symbolic input dims")
                                            : "its symbolic input dims: " + known) +
                             ")");
        }
    InputBinding bound{{assumed.begin(), assumed.end()}, std::nullopt, {}};
    // one value for every batch symbol: a batch left at 1 beside it would make "the batch" ambiguous
    if (!bindings.batch && batchesByName.size() == 1 && !batchLeftAtOne) {
        bound.batchFromDims = *batchesByName.begin();
        bound.batchSymbols.assign(batchNames.begin(), batchNames.end());
    }
    return bound;
}

std::optional<std::map<std::string, int64_t>>
boundSymbols(const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& before,
             const onnx::GraphProto& after) {
    std::map<std::string, int64_t> symbols;
    for (const auto& input : before) {
        if (!input.type().has_tensor_type()) continue;
        const onnx::ValueInfoProto* bound = nullptr;
        for (const auto& candidate : after.input())
            if (candidate.name() == input.name()) bound = &candidate;
        if (!bound || !bound->type().has_tensor_type()) continue;
        const auto& from = input.type().tensor_type().shape();
        const auto& to = bound->type().tensor_type().shape();
        for (int i = 0; i < from.dim_size() && i < to.dim_size(); ++i) {
            if (!to.dim(i).has_dim_value()) continue;
            if (from.dim(i).has_dim_value() && from.dim(i).dim_value() != to.dim(i).dim_value())
                return std::nullopt;
            if (from.dim(i).has_dim_param()) symbols.emplace(from.dim(i).dim_param(), to.dim(i).dim_value());
        }
    }
    return symbols;
}

} // namespace rooftop
