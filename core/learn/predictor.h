// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/cost/analysis_settings.h"
#include "core/device/power_mode.h"
#include "core/device/provenance.h"
#include "core/learn/config_features.h"
#include "core/learn/gaussian_process.h"
#include "core/learn/run_coverage.h"
#include "core/learn/sparse_gaussian_process.h"

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace rooftop {

/// One measured configuration of one model, as the learner sees it.
struct LearnPoint {
    PowerMode mode;                        ///< the mode it ran in
    int64_t batch = 1;                     ///< samples per batch
    Precision precision = Precision::FP32; ///< the precision it ran at
    ConfigFeatures features;               ///< the roofline's features of its configuration (learnPoints)
    double latencySeconds = 0.0;           ///< measured latency of one batch, seconds
    double watts = std::numeric_limits<double>::quiet_NaN(); ///< NaN when the run measured no power
    std::string runner;                                      ///< what ran it, as the runs file names it
};

/// A learned quantity (latency or power): coefficients of the physics features as the prior mean, times
/// exp(residual GP) over the mode's position, times exp(the reference model's residual GP) after a transfer.
struct LearnedQuantity {
    Eigen::VectorXd coefficients; ///< weights of the physics feature columns (the prior mean)
    GaussianProcess residual;  ///< log(measured / prior mean) over the mode's position; empty: none learned
    GaussianProcess reference; ///< empty unless adapted from a reference model
    /// How firmly the physics fit was pulled toward its prior (the roofline, or a reference's coefficients).
    double ridgePull = 1e-3;

    /// The quantity at a configuration.
    double predict(const double* physics, const double* position) const;
    /// The residual GP's posterior standard deviation of the true value at a position (its latent variance:
    /// a run's own noise is not the quantity's), in log space; 0 without a residual process.
    double residualSpread(const double* position) const;
    /// The run-to-run noise the residual GP found (its noise standard deviation), in log space; 0 without
    /// one.
    double runNoise() const;
};

/// The profiled ranges; a configuration outside any of them is an extrapolation.
struct LearnRange {
    int minCores = 0, maxCores = 0; ///< online CPU cores
    /// CPU in kHz, GPU and EMC in Hz.
    int64_t minCpuKhz = 0, maxCpuKhz = 0, minGpuHz = 0, maxGpuHz = 0, minEmcHz = 0, maxEmcHz = 0;
    int64_t minBatch = 0, maxBatch = 0; ///< batch sizes
    std::vector<Precision> precisions;  ///< sorted

    /// True when every clock, the cores, the batch and the precision lie within the profiled ranges.
    bool contains(const PowerMode& mode, int64_t batch, Precision precision) const;
    /// The ranges in one line ("cores 2-12, CPU 729-2202 MHz, ...").
    std::string describe() const;
};

/// k-fold cross-validated mean absolute percentage errors (as fractions).
struct CvErrors {
    int folds = 0;                                               ///< folds the runs were split into
    double timeMape = 0.0;                                       ///< of the latency
    double powerMape = std::numeric_limits<double>::quiet_NaN(); ///< NaN when power was not learned
};

/// One run as cross-validation saw it: what was measured, and what a fit that left the run out predicted.
struct HeldOutRun {
    PowerMode mode;                        ///< the mode it ran in
    int64_t batch = 1;                     ///< samples per batch
    Precision precision = Precision::FP32; ///< the precision it ran at
    /// The latency of one batch in seconds: measured, and predicted by a fit without the run.
    double measuredSeconds = 0.0, predictedSeconds = 0.0;
    double measuredWatts = std::numeric_limits<double>::quiet_NaN();  ///< NaN: the run measured no power
    double predictedWatts = std::numeric_limits<double>::quiet_NaN(); ///< NaN: power was not learned
    std::string runner; ///< what ran it ("sim:..." is the simulated board, not a measurement)
};

/// "inference", or "training (adam)": a workload's phase and, for training, its optimizer.
std::string workloadText(Phase phase, Optimizer optimizer);

/// A time and power predictor of one model on one board.
struct Predictor {
    std::string board;     ///< device id
    std::string model;     ///< model file name (no folder)
    std::string modelHash; ///< modelFileHash of the model
    std::string
        dims; ///< namedDimsText of the dims it was learned at: the workload family; "": the model's own
    Phase phase = Phase::Inference;        ///< what the runs ran: inferences, or training steps
    Optimizer optimizer = Optimizer::Adam; ///< the training step's optimizer (phase Training only)
    /// A decoder's mean decode step of generations of this prompt and length (rooftop learn --llm); 0: not
    /// an LLM predictor. Its latency is then the time per output token.
    int64_t llmPrompt = 0, llmGenerate = 0;
    int runs = 0;             ///< ok runs learned from
    int powerRuns = 0;        ///< of them, runs with power
    int powerModes = 0;       ///< modes the runs with power cover
    bool powerLearned = true; ///< false: too few runs with power, or in one mode; power is Rooftop's estimate
    std::string referenceModel, referenceHash; ///< the model pre-trained on; empty without a transfer
    int referenceRuns = 0;                     ///< ok runs the reference learned from; 0 without a transfer
    std::string
        referenceBoard; ///< the reference's board when it is another than `board` (a transfer across boards)
    LearnedQuantity time, power;     ///< latency (seconds per batch) and average power (watts)
    LearnRange range;                ///< of all runs (time)
    LearnRange powerRange;           ///< of the runs with power (power); unused when power was not learned
    CvErrors cv;                     ///< the k-fold errors of time and power
    std::vector<HeldOutRun> heldOut; ///< every run with its cross-validated prediction
    RunCoverage coverage;            ///< where the runs lie: the learned spreads widen away from them
    /// The runtime whose roofline gave the learned features (learn's --runtime or --runtime-file): another
    /// one changes the predictor's inputs; empty in files written before it was recorded.
    std::string runtime;

    /// Latency in seconds of one batch.
    double latency(const ConfigFeatures& f) const { return time.predict(f.time.data(), f.position.data()); }
    /// Average power in watts at the learned latency.
    double watts(const ConfigFeatures& f) const { return watts(f, latency(f)); }
    /// Average power in watts at a latency of `latencySeconds` (the learned one: latency(f)).
    double watts(const ConfigFeatures& f, double latencySeconds) const {
        return power.predict(powerFeatures(f, latencySeconds).data(), f.position.data());
    }
    /// The power features at `latencySeconds` (powerFeaturesFor; a decoder's generations: the roofline's).
    std::array<double, powerFeatureCount> powerFeatures(const ConfigFeatures& f,
                                                        double latencySeconds) const {
        return powerFeaturesFor(f, latencySeconds, llmPrompt > 0);
    }
    /// "learned from N runs of MODEL (CV time x %, power y %)", or the reason power was not learned.
    std::string basis() const;
    /// What the reference gave: "adapted from 400 runs of REF", "time adapted from ... (power from this
    /// model's runs alone: ...)"; empty without a reference.
    std::string referenceText() const;
    /// Every run it learned from was the simulated board's (the runner column), none a measurement.
    bool learnedOnSimulatedRuns() const;
    /// The cross-validated spread: the RMS of log(predicted / measured) over the held-out runs, per quantity
    /// (power and energy the prior's, priorSpread, when power was not learned).
    PredictionSpread cvSpread() const;
    /// The run-to-run noise in the held-out runs' errors (the residual GPs' noise; energy both together): a
    /// measured run scatters by it about the true value the spreads are about.
    PredictionSpread runNoise() const;
    /// The spread at a configuration: per learned quantity the larger of `trueValue` (trueValueSpread(),
    /// taken once for many configurations) scaled by the distance to the nearest run
    /// (RunCoverage::spreadFactor), and the residual GP's posterior.
    PredictionSpread spread(const ConfigFeatures& f, const PredictionSpread& trueValue) const;
    /// The cross-validated spread less the run noise (withoutRunNoise): the true value's spread where the
    /// distance to the runs is not reckoned (an LLM's decode steps).
    PredictionSpread trueValueSpread() const;
    /// What the spreads rest on: "the predictor's own error (cross-validated over 20 runs: time 3.8 %, ...;
    /// less the run noise ...)", and with `byDistance` how they narrow at a run and widen away from them.
    std::string spreadBasis(bool byDistance = true) const;
    /// The spreadBasis in brief: the cross-validated errors and the runs they come from.
    std::string spreadSummary() const;
    /// Predicted when both latency and power are learned; estimate when power is Rooftop's.
    Provenance provenance() const { return powerLearned ? Provenance::Predicted : Provenance::Estimate; }
    /// What the spreads grow by at `batch` and `beyondContext` (an LLM's contexts beyond its runs'): time by
    /// spreadBeyondBatches over the time runs' batches, power over the power runs' (0 unlearned), energy by
    /// the larger; all 0 within the runs.
    PredictionSpread spreadBeyondRuns(int64_t batch, double beyondContext = 0.0) const;
    /// True outside the profiled ranges of the time runs or, when power was learned, of the power runs.
    bool extrapolates(const PowerMode& mode, int64_t batch, Precision precision) const;
};

/// The fewest ok runs (and runs with power) the learner accepts.
constexpr int minimumLearnRuns = 5;

/// Power as Rooftop estimates it (coefficient 1 on its own watts, no residual): a predictor without power.
LearnedQuantity estimatedPower();

/// How the learner runs.
struct LearnOptions {
    int folds = 5;     ///< cross-validation folds (fewer when there are fewer runs)
    uint64_t seed = 1; ///< fold assignment
    /// Above this many runs the residual GP is sparse (sparse_gaussian_process.h); exact up to it.
    Eigen::Index exactGpLimit = exactGpPointLimit;
    /// What the runs ran (the predictor's phase): inference time keeps the roofline's shape from two runs per
    /// column (predictor.cpp).
    Phase phase = Phase::Inference;
    /// The runs are a decoder's generations of this prompt and length (learn --llm); 0: not.
    int64_t llmPrompt = 0, llmGenerate = 0;
    /// Told each stage ("time: fold 2 of 5") as it starts; may be empty.
    std::function<void(const std::string& stage)> progress;
};

/// Learns time and power from measured points of one model; with `reference` (a predictor of another model
/// on the same board) adapts it instead of starting from Rooftop's roofline, per quantity where that
/// cross-validates better than the model's own runs alone (basis() says which). With fewer than
/// minimumLearnRuns points that measured power, learns time only and keeps Rooftop's power (powerLearned
/// false). Fills everything but board, model and hashes. Throws InputError for fewer than minimumLearnRuns
/// points, or all points in one mode.
Predictor learnPredictor(const std::vector<LearnPoint>& points, const Predictor* reference = nullptr,
                         const LearnOptions& options = {});

/// Latency, energy and power of a workload in each mode from a predictor (the fast path of the advisor), each
/// with its spread (Predictor::spread).
/// Without learned power, the watts are Rooftop's energy model at the learned latency: pi0 plus the
/// roofline's dynamic energy spread over the learned time.
std::vector<ModeSummary> predictModes(const Predictor& predictor, const DeviceSpec& device,
                                      const Workload& workload, Precision precision,
                                      const std::vector<ModeProfile>& profiles);

} // namespace rooftop
