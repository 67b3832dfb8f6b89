// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <onnx/onnx_pb.h>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// Values for the model's symbolic (or overridden) input dimensions.
struct DimBindings {
    std::optional<int64_t>
        batch; ///< replaces dim 0 of every graph input of rank >= 1 (only the symbolic ones when some are)
    std::map<std::string, int64_t> named; ///< symbolic dim name -> value
    /// The options that bound them, for messages: plan's training model has "--training-dim" and
    /// "--training-batch".
    std::string dimOption = "--dim", batchOption = "--batch";

    /// The largest value a dim may be bound to (2^40).
    static constexpr int64_t maxDimValue = int64_t{1} << 40;
};

/// Parses "NAME=VALUE" into bindings.named; throws InputError naming `option` on malformed text,
/// out-of-range values or a name already bound to another value.
void parseDimOption(const std::string& text, DimBindings& bindings, const std::string& option = "--dim");

/// Parses a field of "NAME=VALUE" entries separated by commas, semicolons or spaces ("sequence=128, past=0")
/// into bindings.named; throws InputError naming `field` at the first malformed entry. An empty field binds
/// nothing.
void parseDimList(const std::string& text, DimBindings& bindings, const std::string& field);

/// What bindInputDims did beyond writing the dims.
struct InputBinding {
    std::vector<std::string> assumed; ///< "name=1" for each symbol left unbound and assumed to be 1
    std::optional<int64_t>
        batchFromDims; ///< the value a named binding gave the batch symbol, without a batch
    std::vector<std::string> batchSymbols; ///< with batchFromDims: the bound symbols that are the batch
};

/// Writes concrete values into the graph inputs' dims. Throws InputError for negative dims and for a named
/// binding that no input dim has (a misspelt --dim would otherwise change nothing).
InputBinding bindInputDims(onnx::ModelProto& model, const DimBindings& bindings);

/// The values bindInputDims gave the symbolic dims of `before` (the inputs as the file had them), by symbol;
/// nullopt when it also changed a dim the file had as a number (so the file's other shapes no longer hold).
std::optional<std::map<std::string, int64_t>>
boundSymbols(const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& before,
             const onnx::GraphProto& after);

} // namespace rooftop
