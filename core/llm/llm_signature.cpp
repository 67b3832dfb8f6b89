// SPDX-License-Identifier: GPL-3.0-or-later
// A decoder is recognised by its KV cache: graph inputs named past... (past_key_values.N.key, past.N.value,
// past_key_N) paired by layer number and key/value with outputs named present..., or one tensor per layer
// holding both (TensorRT Edge-LLM's past_key_values_N / present_key_values_N, [batch, 2, kv heads, capacity,
// head dim], updated in place by its AttentionPlugin). The roles of the symbolic dims come from where they
// sit (input_ids or inputs_embeds [batch, sequence], a past key [batch, kv heads, past, head dim],
// attention_mask [batch, total]), not from their names, which exporters choose freely. Edge-LLM's cache dim
// is its capacity; bound to the past, the attention reads what its kernel reads (context_lengths tokens of
// the buffer).
#include "core/llm/llm_signature.h"

#include "core/common/errors.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace rooftop {

const char* llmExportStyleName(LlmExportStyle style) {
    switch (style) {
    case LlmExportStyle::Optimum:
        return "optimum";
    case LlmExportStyle::OptimumMerged:
        return "optimum-merged";
    case LlmExportStyle::GenAi:
        return "onnxruntime-genai";
    case LlmExportStyle::EdgeLlm:
        return "tensorrt-edge-llm";
    }
    return "optimum";
}

namespace {

struct KvName {
    bool past = false;
    int layer = 0;
    bool key = false;
    bool combined = false; ///< past_key_values_3: K and V of layer 3 in one tensor
};

std::string lowered(const std::string& text) {
    std::string out = text;
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

// "past_key_values.3.key" -> {past, 3, key}; "present.3.value" -> {present, 3, value}; nothing otherwise.
std::optional<KvName> kvNameOf(const std::string& name) {
    const std::string text = lowered(name);
    KvName kv;
    if (text.rfind("past", 0) == 0)
        kv.past = true;
    else if (text.rfind("present", 0) != 0)
        return std::nullopt;
    const size_t keyAt = text.rfind("key");
    const size_t valueAt = text.rfind("value");
    // past_key_values.3.key has both: the last of the two words names the tensor.
    if (keyAt == std::string::npos && valueAt == std::string::npos) return std::nullopt;
    kv.key = valueAt == std::string::npos || (keyAt != std::string::npos && keyAt > valueAt);
    // "key_values" as the last of the two words: no key or value after the layer number.
    kv.combined = keyAt != std::string::npos && valueAt == keyAt + 4;
    const auto digit =
        std::find_if(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
    if (digit == text.end()) return std::nullopt;
    size_t used = 0;
    const std::string digits(digit, text.end());
    try {
        const long layer = std::stol(digits, &used);
        if (layer < 0 || layer > 100000) return std::nullopt;
        kv.layer = static_cast<int>(layer);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return kv;
}

const onnx::TensorShapeProto* shapeOf(const onnx::ValueInfoProto& info) {
    if (!info.type().has_tensor_type() || !info.type().tensor_type().has_shape()) return nullptr;
    return &info.type().tensor_type().shape();
}

// The symbol of dim `index`, "" when the dim is a number; nothing when the tensor has no such dim.
std::optional<std::string> symbolAt(const onnx::ValueInfoProto& info, int index) {
    const onnx::TensorShapeProto* shape = shapeOf(info);
    if (!shape || index >= shape->dim_size()) return std::nullopt;
    const auto& dim = shape->dim(index);
    return dim.has_dim_param() ? dim.dim_param() : std::string();
}

std::optional<int64_t> valueAt(const onnx::ValueInfoProto& info, int index) {
    const onnx::TensorShapeProto* shape = shapeOf(info);
    if (!shape || index >= shape->dim_size() || !shape->dim(index).has_dim_value()) return std::nullopt;
    return shape->dim(index).dim_value();
}

const onnx::ValueInfoProto* inputNamed(const onnx::GraphProto& graph, const std::string& name) {
    for (const auto& input : graph.input())
        if (input.name() == name) return &input;
    return nullptr;
}

void collectNodes(const onnx::GraphProto& graph, std::vector<const onnx::NodeProto*>& nodes) {
    for (const auto& node : graph.node()) {
        nodes.push_back(&node);
        for (const auto& attribute : node.attribute())
            if (attribute.has_g()) collectNodes(attribute.g(), nodes);
    }
}

// Where a node reads its position table: the table's name and the dim that counts positions; nothing when the
// node reads none.
std::optional<std::pair<std::string, int>> positionTableOf(const onnx::NodeProto& node) {
    if (node.op_type() == "GroupQueryAttention" && node.input_size() > 7)
        return std::make_pair(node.input(7), 0);
    if (node.op_type() == "Gather" && node.input_size() == 2 && node.input(1) == "position_ids")
        return std::make_pair(node.input(0), 0);
    if (node.op_type() ==
        "AttentionPlugin") // [1, positions, rotary dim], named, its place depends on packing
        for (const std::string& input : node.input())
            if (lowered(input).find("rope") != std::string::npos ||
                lowered(input).find("cos_sin") != std::string::npos)
                return std::make_pair(input, 1);
    return std::nullopt;
}

// The number a graph states for dim `dim` of an initializer or input; nothing when it states none.
std::optional<int64_t> statedDim(const onnx::GraphProto& graph, const std::string& name, int dim) {
    for (const auto& tensor : graph.initializer())
        if (tensor.name() == name)
            return dim < tensor.dims_size() ? std::optional(tensor.dims(dim)) : std::nullopt;
    const onnx::ValueInfoProto* input = inputNamed(graph, name);
    return input ? valueAt(*input, dim) : std::nullopt;
}

// Rows of the position table: a GroupQueryAttention's cos_cache, an AttentionPlugin's rope_rotary_cos_sin or
// a table gathered by position_ids, an initializer or an input of fixed size.
void findPositionTable(const onnx::ModelProto& model, LlmSignature& signature) {
    std::vector<const onnx::NodeProto*> nodes;
    collectNodes(model.graph(), nodes);
    for (const onnx::NodeProto* node : nodes) {
        const auto table = positionTableOf(*node);
        if (!table) continue;
        const std::optional<int64_t> rows = statedDim(model.graph(), table->first, table->second);
        if (!rows || *rows <= 0) continue;
        signature.maxPositions = *rows;
        signature.positionsSource = table->first;
        return;
    }
}

void pairCaches(const onnx::GraphProto& graph, const std::string& source, LlmSignature& signature) {
    std::map<std::pair<int, bool>, std::string> past;
    std::map<std::pair<int, bool>, std::string> present;
    // A combined tensor fills both of its layer's slots.
    const auto add = [](std::map<std::pair<int, bool>, std::string>& slots, const KvName& kv,
                        const std::string& name) {
        slots[{kv.layer, kv.key}] = name;
        if (kv.combined) slots[{kv.layer, !kv.key}] = name;
    };
    for (const auto& input : graph.input())
        if (const auto kv = kvNameOf(input.name()); kv && kv->past) add(past, *kv, input.name());
    for (const auto& output : graph.output())
        if (const auto kv = kvNameOf(output.name()); kv && !kv->past) add(present, *kv, output.name());
    if (past.empty()) {
        if (!present.empty())
            throw InputError(
                source + ": a decoder without past inputs (" + present.begin()->second +
                " is an output, but nothing feeds the cache back): decode needs the export with "
                "past key values (optimum's decoder_with_past_model.onnx or the merged decoder)");
        throw InputError(source + ": not a decoder with a KV cache (no past_key_values.N.key inputs and "
                                  "present.N.key outputs): rooftop analyze counts other models");
    }
    for (const auto& [slot, name] : past)
        if (!present.count(slot))
            throw InputError(source + ": the KV input " + name + " has no present output of layer " +
                             std::to_string(slot.first) + (slot.second ? " (key)" : " (value)") +
                             ": its inputs cannot be matched to outputs");
    for (const auto& [slot, name] : present)
        if (!past.count(slot))
            throw InputError(source + ": the KV output " + name + " has no past input of layer " +
                             std::to_string(slot.first) + (slot.second ? " (key)" : " (value)") +
                             ": its outputs cannot be matched to inputs");
    for (const auto& [slot, name] : past) {
        if (!slot.second) continue;
        if (!past.count({slot.first, false}))
            throw InputError(source + ": layer " + std::to_string(slot.first) + " has a past key (" + name +
                             ") but no past value");
        signature.caches.push_back({slot.first, name, past.at({slot.first, false}), present.at(slot),
                                    present.at({slot.first, false})});
    }
    if (signature.caches.empty())
        throw InputError(source + ": the decoder's past inputs name values but no keys");
}

std::string symbolOrThrow(const onnx::ValueInfoProto& info, int index, const std::string& role,
                          const std::string& source) {
    const std::optional<std::string> symbol = symbolAt(info, index);
    if (!symbol)
        throw InputError(source + ": " + info.name() + " has no dim " + std::to_string(index) + " (its " +
                         role + "): not a decoder input as exporters write it");
    if (symbol->empty()) {
        const std::optional<int64_t> value = valueAt(info, index);
        throw InputError(source + ": " + info.name() + " has a fixed " + role + " of " +
                         (value ? std::to_string(*value) : std::string("?")) + " (dim " +
                         std::to_string(index) +
                         "): the LLM view needs an export with dynamic axes (optimum, torch.onnx.export with "
                         "dynamic_axes, onnxruntime-genai)");
    }
    return *symbol;
}

// A combined cache is [batch, 2, kv heads, capacity, head size]; a paged pool (no batch, pages of tokens) is
// not a layout whose dims say how many tokens a pass reads.
void checkCombinedLayout(const onnx::ValueInfoProto& cache, const std::string& source) {
    const onnx::TensorShapeProto* shape = shapeOf(cache);
    if (!shape || shape->dim_size() != 5 || valueAt(cache, 1).value_or(0) != 2)
        throw InputError(source + ": " + cache.name() +
                         " holds K and V in one tensor but is not [batch, 2, kv heads, capacity, head size] "
                         "(TensorRT Edge-LLM's linear cache); a paged KV pool or another combined layout is "
                         "not read: export with a linear cache or K and V apart");
}

void readRoles(const onnx::GraphProto& graph, const std::string& source, LlmSignature& signature) {
    const onnx::ValueInfoProto* tokens = inputNamed(graph, "input_ids");
    if (!tokens) tokens = inputNamed(graph, "inputs_embeds");
    if (!tokens)
        throw InputError(source +
                         ": a KV cache but no input_ids or inputs_embeds input: name the token input "
                         "as exporters do");
    signature.tokenInput = tokens->name();
    LlmDimRoles& roles = signature.roles;
    roles.batch = symbolOrThrow(*tokens, 0, "batch", source);
    roles.sequence = symbolOrThrow(*tokens, 1, "sequence length", source);
    const KvCacheTensors& first = signature.caches.front();
    const onnx::ValueInfoProto& pastKey = *inputNamed(graph, first.pastKey);
    signature.combinedKv = first.pastKey == first.pastValue;
    const int pastDim = signature.combinedKv ? 3 : 2;
    if (signature.combinedKv) checkCombinedLayout(pastKey, source);
    roles.past = symbolOrThrow(pastKey, pastDim,
                               signature.combinedKv ? "cache capacity" : "past sequence length", source);
    const std::optional<int64_t> kvHeads = valueAt(pastKey, pastDim - 1);
    const std::optional<int64_t> headDim = valueAt(pastKey, pastDim + 1);
    if (!kvHeads || !headDim || *kvHeads <= 0 || *headDim <= 0)
        throw InputError(source + ": " + pastKey.name() +
                         " does not give its KV heads and head size as numbers (" +
                         (signature.combinedKv ? "dims 2 and 4 of [batch, 2, kv heads, capacity, head size])"
                                               : "dims 1 and 3 of [batch, kv heads, past, head size])"));
    signature.kvHeads = *kvHeads;
    signature.headDim = *headDim;
    signature.kvType = dataTypeFromOnnx(pastKey.type().tensor_type().elem_type());
    if (roles.past == roles.sequence)
        throw InputError(source + ": " + pastKey.name() + " and " + tokens->name() + " share the dim " +
                         roles.past + ": the past and the new tokens cannot be told apart");
    roles.readFrom.push_back("batch = " + roles.batch + " (" + tokens->name() + " dim 0)");
    roles.readFrom.push_back("sequence = " + roles.sequence + " (" + tokens->name() + " dim 1)");
    roles.readFrom.push_back(
        "past = " + roles.past + " (" + pastKey.name() + " dim " + std::to_string(pastDim) +
        (signature.combinedKv ? ", the cache's capacity: bound to the tokens read)" : ")"));
    if (const onnx::ValueInfoProto* mask = inputNamed(graph, "attention_mask")) {
        const std::optional<std::string> total = symbolAt(*mask, 1);
        if (total && !total->empty() && *total != roles.sequence && *total != roles.past) {
            roles.total = *total;
            roles.readFrom.push_back("total = " + roles.total + " (attention_mask dim 1) = past + sequence");
        }
    }
    // Every past input shares the layout of the first.
    for (const KvCacheTensors& cache : signature.caches)
        for (const std::string& name : {cache.pastKey, cache.pastValue}) {
            const onnx::ValueInfoProto* info = inputNamed(graph, name);
            if (symbolAt(*info, pastDim).value_or("") != roles.past)
                throw InputError(source + ": " + name + " does not have the past length " + roles.past +
                                 " as dim " + std::to_string(pastDim) + " like " + pastKey.name() +
                                 ": contradictory dims");
        }
}

void checkUserDims(const LlmSignature& signature, const DimBindings& userDims, const std::string& source) {
    const LlmDimRoles& roles = signature.roles;
    for (const std::string& role : {roles.batch, roles.sequence, roles.past, roles.total}) {
        if (role.empty() || !userDims.named.count(role)) continue;
        throw InputError(source + ": --dim " + role + "=" + std::to_string(userDims.named.at(role)) +
                         " contradicts the phases, which bind " + role +
                         " themselves (--prompt, --generate, --batch, --context): drop it");
    }
}

} // namespace

LlmSignature recognizeDecoder(const onnx::ModelProto& model, const DimBindings& userDims,
                              const std::string& sourceName) {
    LlmSignature signature;
    const onnx::GraphProto& graph = model.graph();
    pairCaches(graph, sourceName, signature);
    readRoles(graph, sourceName, signature);
    checkUserDims(signature, userDims, sourceName);
    for (const auto& input : graph.input())
        if (input.name() == "use_cache_branch") signature.useCacheInput = input.name();
    std::vector<const onnx::NodeProto*> nodes;
    collectNodes(graph, nodes);
    const auto uses = [&](const char* op) {
        return std::any_of(nodes.begin(), nodes.end(),
                           [op](const onnx::NodeProto* node) { return node->op_type() == op; });
    };
    signature.style = uses("AttentionPlugin")            ? LlmExportStyle::EdgeLlm
                      : uses("GroupQueryAttention")      ? LlmExportStyle::GenAi
                      : !signature.useCacheInput.empty() ? LlmExportStyle::OptimumMerged
                                                         : LlmExportStyle::Optimum;
    findPositionTable(model, signature);
    return signature;
}

void checkContextFits(const LlmSignature& signature, int64_t context, const std::string& who,
                      const std::string& hint) {
    if (!signature.maxPositions || context <= *signature.maxPositions) return;
    throw InputError(who + ": a context of " + std::to_string(context) + " tokens is beyond the model's " +
                     std::to_string(*signature.maxPositions) + " positions (" + signature.positionsSource +
                     "): " + hint);
}

} // namespace rooftop
