// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/common/runner_name.h"
#include "core/cost/analysis_settings.h"
#include "core/device/measured_profile.h"

#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// Least-squares fit of E = eps_flop W + eps_byte Q + pi0 T over samples, with R^2 and residuals.
struct EnergyFit {
    double energyPerFlop = 0.0;    ///< eps_flop, joules per FLOP
    double energyPerByte = 0.0;    ///< eps_byte, joules per DRAM byte
    double constantPower = 0.0;    ///< pi0, watts
    double rSquared = 0.0;         ///< goodness of the fit to the measured energies
    std::vector<double> residuals; ///< joules, one per sample
};

/// Fits the energy model (Eigen, non-negative coefficients, relative residuals weighted by 1 / measured
/// energy); throws NumericalError with fewer than 3 usable samples or a rank-deficient design.
EnergyFit fitEnergyModel(const std::vector<EnergySample>& samples);

/// fitEnergyModel, or nullopt where the samples cannot be fitted (too few, rank-deficient).
std::optional<EnergyFit> tryFitEnergyModel(const std::vector<EnergySample>& samples);

/// The fitted coefficients as a power model (provenance fitted, with `basis`); the tensor ratio is not
/// fitted.
PowerModel powerModelFromFit(const EnergyFit& fit, double tensorFlopEnergyRatio, const std::string& basis);

/// One real run a user measured: mode name, batch, latency and average power.
struct CalibrationRun {
    std::string mode;            ///< the power mode's name as the file writes it
    int64_t batch = 1;           ///< samples per inference batch
    double latencySeconds = 0.0; ///< measured latency of one batch
    double averageWatts = 0.0;   ///< measured average power; 0 when the row gives none
    int line = 0;                ///< 1-based line of the CSV file it was read from (0 when not from a file)
    std::optional<std::string> dims;    ///< a runs file's dims column (namedDimsText); none: not recorded
    std::string model;                  ///< a runs file's model column ("m.onnx@hash"); empty: not recorded
    std::string runner;                 ///< a runs file's runner column ("sim:3" is the simulated board)
    std::optional<Precision> precision; ///< a runs file's precision column; none: not recorded
    std::optional<Phase> phase;         ///< a runs file's phase column; none: not recorded
    /// A runs file's cores and clocks the run was made at; none: not recorded.
    std::optional<int64_t> cores, cpuKhz, gpuHz, emcHz;
    /// Whether the simulated board made the run ("sim" runner), not a measurement.
    bool simulated() const { return isSimulatedRunner(runner); }
    bool llmGeneration =
        false; ///< a runs file's LLM generation (prompt and generate given): not one inference
};

/// Reads a calibration CSV (header: mode,batch,latency_ms,power_w; fields may be double-quoted, so a quoted
/// mode may hold commas); other columns are ignored, and with a status column (a `rooftop profile` runs file)
/// only rows whose status is "ok" are read. Throws InputError naming line and column, except for a last line
/// without its line break (a write cut short), which is left out with a line in `notes` when given.
std::vector<CalibrationRun> loadCalibrationCsv(const std::string& path,
                                               std::vector<std::string>* notes = nullptr);

} // namespace rooftop
