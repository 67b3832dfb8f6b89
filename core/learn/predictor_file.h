// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/learn/predictor.h"

#include <map>
#include <string>

namespace rooftop {

/// The format tag of a predictor file.
constexpr const char* predictorFormat = "rooftop-predictor/4";

/// SHA-256 of a file, its first 16 hex digits; throws InputError when it cannot be read.
std::string modelFileHash(const std::string& path);

/// A model file's name (no folder) and its modelFileHash, "m.onnx@0123abcd...": how runs files name a model.
std::string modelFileKey(const std::string& path);

/// The predictor as "rooftop-predictor/4" JSON (docs/learn.md), with the runs file it came from.
std::string predictorJson(const Predictor& predictor, const std::string& runsPath);

/// Writes predictorJson to a file; throws InputError when it cannot.
void savePredictor(const std::string& path, const Predictor& predictor, const std::string& runsPath);

/// Reads a predictor file; throws InputError "PATH: ..." naming the field that is missing or wrong.
Predictor loadPredictor(const std::string& path);

/// Throws InputError naming both when the predictor's features came from another runtime's roofline than
/// `runtime` (a file that does not record its runtime is taken as it is).
void checkPredictorRuntime(const Predictor& predictor, const std::string& path, const std::string& runtime);

/// Throws InputError naming both boards, or both models, when the predictor was learned for another board
/// or another model file (by hash).
void checkPredictorFits(const Predictor& predictor, const std::string& path, const std::string& board,
                        const std::string& modelPath);

/// Throws InputError naming both when the predictor was learned for another phase (or optimizer), or for a
/// decoder's decode steps when `llm` is false (and the other way round).
void checkPredictorWorkload(const Predictor& predictor, const std::string& path, Phase phase,
                            Optimizer optimizer, bool llm = false);

/// Throws InputError naming both when the predictor was learned at other dims (another workload family).
void checkPredictorDims(const Predictor& predictor, const std::string& path,
                        const std::map<std::string, int64_t>& dims);

/// A request's precision settled against a predictor's runs, and what the answer says of it (empty: a
/// precision the runs ran).
struct SettledPrecision {
    Precision precision = Precision::AsModel; ///< the precision to count the request at
    std::string note;                         ///< what the answer says of it; empty: a precision the runs ran
};

/// As-model counts at the runs' first precision (the model's own types did not run; it stays as-model where
/// the runs ran fp32, which it counts at), and a precision the runs did not run is the predictor's
/// extrapolation.
SettledPrecision settlePredictorPrecision(const Predictor& predictor, Precision asked);

/// The precision a predictor's features count a request at: as-model at fp32.
Precision predictorPrecision(Precision precision);

/// Throws InputError naming both when the predictor's runs ran other precisions than `precision` (a file
/// without precisions passes): `what` names the answer that would count at it ("the plan").
void checkPredictorPrecision(const Predictor& predictor, const std::string& path, Precision precision,
                             const std::string& what);

} // namespace rooftop
