// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace rooftop {

/// The named dims of a workload as one canonical text, sorted by name: "past=0;sequence=128"; "" for none.
std::string namedDimsText(const std::map<std::string, int64_t>& dims);

/// Reads namedDimsText's form back; throws InputError naming `what` for a malformed entry, a repeated name or
/// a value outside 0..2^40.
std::map<std::string, int64_t> parseNamedDimsText(const std::string& text, const std::string& what);

/// The text a user reads for a workload's dims: "sequence=128, past=0", or "the model's own dims" for none.
std::string describeNamedDims(const std::map<std::string, int64_t>& dims);

/// A model as every answer names it, with the dims it was counted at: "bert_base.onnx at sequence=128"; the
/// model alone when no dim was bound.
std::string modelAtDims(const std::string& model, const std::map<std::string, int64_t>& dims);

} // namespace rooftop
