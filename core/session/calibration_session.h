// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"
#include "core/device/device_spec.h"
#include "core/device/runtime_profile.h"
#include "core/roofline/calibration.h"
#include "core/session/analysis_request.h"

#include <string>
#include <vector>

namespace rooftop {

/// `rooftop calibrate`: a model, a board, the runtime to start from and a CSV of measured runs.
struct CalibrationRequest {
    std::string modelPath;     ///< the ONNX model the runs ran
    AnalysisSettings settings; ///< the batch of each run comes from the runs file
    std::string deviceId;      ///< the board the runs ran on (catalog id or cuda:N)
    RuntimeSelection runtime;  ///< the runtime to start from
    std::string runsPath;      ///< header mode,batch,latency_ms,power_w (loadCalibrationCsv)
    std::string name;          ///< name of the tuned runtime; empty: <runtime>-calibrated
};

/// The tuned runtime (latency and power), every run predicted with the starting and the tuned runtime.
struct CalibrationResult {
    CalibrationRequest request; ///< what was asked
    DeviceSpec device;          ///< the request's board
    RuntimeProfile start;       ///< the runtime the fit started from
    /// The latency fit; its runtime is the tuned one, with the power fit when there is one.
    RuntimeCalibration fit;
    std::vector<CalibratedRun> runs;   ///< every run of the file, predicted with both runtimes
    PowerCalibration power;            ///< the power multipliers fitted on the runs that measured power
    bool simulated = false;            ///< every run came from the simulated board, none was measured
    std::vector<std::string> warnings; ///< what the fit implies that no board can do (efficiency above peak)
};

/// Reads the runs, resolves their modes (before counting, so a bad name is reported first), counts the model
/// once per batch size, fits the runtime's latency terms, then its power multipliers on the runs that
/// measured power, and predicts every run again. Throws InputError naming file and line for a run of another
/// model, at cores or clocks its mode does not have on this board, or with a power no reading of it can have.
CalibrationResult runCalibration(const CalibrationRequest& request);

} // namespace rooftop
