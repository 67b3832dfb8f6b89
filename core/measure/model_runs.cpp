// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/measure/model_runs.h"

#include "core/common/errors.h"
#include "core/measure/llm_runs.h"
#include "core/onnx/dim_text.h"

#include <algorithm>
#include <cmath>

namespace rooftop {

std::vector<RunRow> readModelRuns(const std::string& path, const std::string& modelPath) {
    std::vector<RunRow> rows = readRunsFile(path);
    rows.erase(std::remove_if(rows.begin(), rows.end(), isLlmRun), rows.end());
    if (!modelPath.empty()) checkRunsAreOf(rows, path, runsModelKey(modelPath));
    return rows;
}

std::vector<RunRow> predictorRunRows(const Predictor& predictor) {
    std::map<std::string, int64_t> dims; // the workload it learned: its runs are at those dims
    try {
        dims = parseNamedDimsText(predictor.dims, "the predictor's dims");
    } catch (const InputError&) {
        return {};
    }
    std::vector<RunRow> rows;
    for (const HeldOutRun& run : predictor.heldOut) {
        if (run.runner.empty()) return {};
        RunResult result;
        result.ok = true;
        result.latencyMs = run.measuredSeconds * 1e3;
        if (std::isfinite(run.measuredWatts)) result.powerW = run.measuredWatts;
        const RunConfig config{run.mode,        run.batch, run.precision,
                               predictor.phase, dims,      predictor.optimizer};
        rows.push_back(runRowFrom(config, result, run.runner, "learn"));
    }
    return rows;
}

} // namespace rooftop
