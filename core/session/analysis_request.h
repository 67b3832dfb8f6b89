// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/advisor/advisor.h"
#include "core/cost/analysis_settings.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// Which runtime executes the model: a built-in one by name, or one from a runtime file (rooftop calibrate
/// -o).
struct RuntimeSelection {
    std::string name = "tensorrt"; ///< the built-in runtime, or the runtime of that name in `file`
    bool nameGiven = false;        ///< with a file: pick `name` from it rather than its only runtime
    std::string file;              ///< a runtime file; empty for the built-in runtimes
};

/// One question asked of the analysis pipeline, by any command or the GUI.
struct AnalysisRequest {
    std::string modelPath;             ///< the ONNX model; empty for the modes of a board alone
    AnalysisSettings settings;         ///< counting settings; each of `batches` replaces settings.dims.batch
    std::vector<int64_t> batches;      ///< batch sizes the advisor weighs; empty: the settings as they are
    std::string deviceId;              ///< catalog id or cuda:N; empty for counts alone
    RuntimeSelection runtime;          ///< the runtime that executes the model
    std::string profilePath;           ///< measured profile (rooftop bench); empty for derived ceilings
    std::string predictorPath;         ///< a predictor (rooftop learn -o); empty: the roofline's numbers
    std::string modes = "stock";       ///< a mode set (modesFor)
    std::optional<int> currentStockId; ///< the nvpmodel mode in force, for the mode set "current"
    bool predictModes = true;          ///< predict every mode of `modes` at the first batch size
    bool predictStock = false;         ///< predict every stock mode too (the GUI's overlays)
    bool advise = false;               ///< run the advisor over `modes` x `batches`
    /// With advise over stock modes on a board with a custom grid: also ask over the stock modes and the
    /// grid, for AnalysisResult::gridHint ("custom clocks would save x %").
    bool compareWithGrid = false;
    /// With advise on TensorRT at FP32 or as-model, without a predictor, for inference: also ask at FP16 and
    /// INT8 (what Jetson engines run), for AnalysisResult::precisionHints.
    bool comparePrecisions = false;
    Constraints constraints;                 ///< the advisor's limits
    Objective objective = Objective::Energy; ///< what the advisor ranks by
};

/// The batch sizes a request analyses, first one first: `batches`, else settings.dims.batch (1 when unbound).
std::vector<int64_t> requestedBatches(const AnalysisRequest& request);

} // namespace rooftop
