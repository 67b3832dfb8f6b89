// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/learn/predictor.h"

#include "core/common/errors.h"
#include "core/common/runner_name.h"
#include "core/common/splitmix.h"
#include "core/common/text_format.h"
#include "core/learn/physics_fit.h"
#include "core/roofline/prediction_spread.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace rooftop {

namespace {

// Ridge pulls (relative, per column): without a reference the prior is Rooftop's roofline alone and the runs
// decide; a reference's coefficients are a stronger prior, since a few runs cannot pin seven columns.
constexpr double freeLambda = 1e-3;
constexpr double transferLambda = 0.3;
// Inference time from two runs per column up keeps the roofline's shape with a firmer pull. Its host terms
// and its compute and memory parts overlap, and a free fit of tens of runs on a board whose physics the
// columns do not describe exactly trades them (host time taken as GPU time: 25-35 % too fast at the lowest
// CPU clocks, where few runs lie); the pull keeps what the runs cannot tell apart. With fewer runs it would
// hold the roofline's own error; a training step's roofline (forward, backward, optimizer) is the looser
// shape and its host share small, so training fits freely (tests/unit/test_recommend_confidence.cpp,
// docs/learn.md).
constexpr double timeShapeLambda = 0.3;
constexpr Eigen::Index timeShapeRunsPerColumn = 2;

Eigen::RowVectorXd positionRow(const double* position) {
    return Eigen::Map<const Eigen::RowVectorXd>(position, positionCount);
}

/// Rows of one quantity: its physics features, positions and measured values.
struct Rows {
    Eigen::MatrixXd physics, positions;
    Eigen::VectorXd measured;
};

template <size_t K, typename Pick> Rows rowsOf(const std::vector<const LearnPoint*>& points, Pick pick) {
    Rows r{Eigen::MatrixXd(Eigen::Index(points.size()), Eigen::Index(K)),
           Eigen::MatrixXd(Eigen::Index(points.size()), positionCount),
           Eigen::VectorXd(Eigen::Index(points.size()))};
    for (size_t i = 0; i < points.size(); ++i) {
        const auto [features, value] = pick(*points[i]);
        const Eigen::Index row = Eigen::Index(i);
        r.physics.row(row) = Eigen::Map<const Eigen::RowVectorXd>(features.data(), Eigen::Index(K));
        r.positions.row(row) = positionRow(points[i]->features.position.data());
        r.measured[row] = value;
    }
    return r;
}

/// `whole`: the fit to all runs, when this is a cross-validation fold (a sparse fold takes its
/// hyperparameters).
LearnedQuantity fitQuantity(const Rows& rows, const LearnedQuantity* reference, Eigen::Index exactGpLimit,
                            const LearnedQuantity* whole, double freePull) {
    LearnedQuantity q;
    const Eigen::Index n = rows.measured.size(), k = rows.physics.cols();
    Eigen::VectorXd prior = Eigen::VectorXd::Zero(k);
    prior[0] = 1.0; // Rooftop's own prediction
    Eigen::VectorXd target = rows.measured;
    if (reference) {
        prior = reference->coefficients;
        q.reference = reference->residual;
        for (Eigen::Index i = 0; i < n; ++i) {
            const Eigen::RowVectorXd x = rows.positions.row(i);
            target[i] /= std::exp(q.reference.predict(x.data()));
        }
    }
    // a fold fits at the pull of the fit to all runs
    q.ridgePull = reference ? transferLambda : whole ? whole->ridgePull : freePull;
    q.coefficients = fitRelativeRidge(rows.physics, target, prior, q.ridgePull);
    Eigen::VectorXd residual(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const double physics = std::max(1e-30, rows.physics.row(i).dot(q.coefficients));
        residual[i] = std::log(target[i] / physics);
    }
    q.residual = n <= exactGpLimit
                     ? fitGaussianProcess(rows.positions, residual)
                     : fitSparseGaussianProcess(rows.positions, residual, {}, sparseGpInducingPoints,
                                                whole ? &whole->residual : nullptr);
    return q;
}

LearnedQuantity fitTime(const std::vector<const LearnPoint*>& points, const Predictor* reference,
                        const LearnOptions& options, const LearnedQuantity* whole = nullptr) {
    const Rows rows = rowsOf<timeFeatureCount>(
        points, [](const LearnPoint& p) { return std::make_pair(p.features.time, p.latencySeconds); });
    const bool shape = options.phase == Phase::Inference &&
                       rows.measured.size() >= timeShapeRunsPerColumn * timeFeatureCount;
    return fitQuantity(rows, reference ? &reference->time : nullptr, options.exactGpLimit, whole,
                       shape ? timeShapeLambda : freeLambda);
}

LearnedQuantity fitPower(const std::vector<const LearnPoint*>& points, const Predictor* reference,
                         const LearnOptions& options, const LearnedQuantity* whole = nullptr) {
    // the busy shares the run itself had: its work over its measured latency
    const bool generations = options.llmPrompt > 0;
    const Rows rows = rowsOf<powerFeatureCount>(points, [generations](const LearnPoint& p) {
        return std::make_pair(powerFeaturesFor(p.features, p.latencySeconds, generations), p.watts);
    });
    return fitQuantity(rows, reference ? &reference->power : nullptr, options.exactGpLimit, whole,
                       freeLambda);
}

/// Folds of a seeded shuffle: fold f holds the points at shuffled positions f, f + k, f + 2k, ...
std::vector<int> foldOf(size_t n, int folds, uint64_t seed) {
    const std::vector<size_t> order = shuffledIndices(n, seed);
    std::vector<int> fold(n);
    for (size_t i = 0; i < n; ++i)
        fold[order[i]] = int(i % size_t(folds));
    return fold;
}

/// Each point's quantity predicted by a fit to the other folds (k-fold cross-validation).
template <typename Fit, typename Predict>
std::vector<double> crossValidate(const std::vector<const LearnPoint*>& points, int folds,
                                  const LearnOptions& options, const char* what, Fit fit, Predict predicted) {
    const std::vector<int> fold = foldOf(points.size(), folds, options.seed);
    std::vector<double> out(points.size());
    for (int f = 0; f < folds; ++f) {
        if (options.progress)
            options.progress(std::string(what) + ": cross-validation fold " + std::to_string(f + 1) + " of " +
                             std::to_string(folds));
        std::vector<const LearnPoint*> train;
        for (size_t i = 0; i < points.size(); ++i)
            if (fold[i] != f) train.push_back(points[i]);
        const LearnedQuantity q = fit(train);
        for (size_t i = 0; i < points.size(); ++i)
            if (fold[i] == f) out[i] = predicted(q, *points[i]);
    }
    return out;
}

/// Mean |predicted / measured - 1|.
template <typename Measured>
double meanAbsoluteRelativeError(const std::vector<const LearnPoint*>& points,
                                 const std::vector<double>& predicted, Measured measured) {
    double sum = 0.0;
    for (size_t i = 0; i < points.size(); ++i)
        sum += std::abs(predicted[i] / measured(*points[i]) - 1.0);
    return sum / double(points.size());
}

/// The profiled ranges of some points.
LearnRange rangeOf(const std::vector<const LearnPoint*>& points) {
    LearnRange r;
    const LearnPoint& first = *points.front();
    r.minCores = r.maxCores = first.mode.onlineCores;
    r.minCpuKhz = r.maxCpuKhz = first.mode.cpuKhz;
    r.minGpuHz = r.maxGpuHz = first.mode.gpuHz;
    r.minEmcHz = r.maxEmcHz = first.mode.emcHz;
    r.minBatch = r.maxBatch = first.batch;
    std::set<Precision> precisions;
    for (const LearnPoint* point : points) {
        const LearnPoint& p = *point;
        r.minCores = std::min(r.minCores, p.mode.onlineCores);
        r.maxCores = std::max(r.maxCores, p.mode.onlineCores);
        r.minCpuKhz = std::min(r.minCpuKhz, p.mode.cpuKhz);
        r.maxCpuKhz = std::max(r.maxCpuKhz, p.mode.cpuKhz);
        r.minGpuHz = std::min(r.minGpuHz, p.mode.gpuHz);
        r.maxGpuHz = std::max(r.maxGpuHz, p.mode.gpuHz);
        r.minEmcHz = std::min(r.minEmcHz, p.mode.emcHz);
        r.maxEmcHz = std::max(r.maxEmcHz, p.mode.emcHz);
        r.minBatch = std::min(r.minBatch, p.batch);
        r.maxBatch = std::max(r.maxBatch, p.batch);
        precisions.insert(p.precision);
    }
    r.precisions.assign(precisions.begin(), precisions.end());
    return r;
}

double timeFeaturesPredict(const LearnedQuantity& q, const LearnPoint& x) {
    return q.predict(x.features.time.data(), x.features.position.data());
}

/// One quantity learned: the fit to every point, each point's cross-validated prediction and their MAPE.
struct Learned {
    LearnedQuantity quantity;
    std::vector<double> heldOut;
    double mape = 0.0;
    int folds = 0;
};

using FitFunction = LearnedQuantity (*)(const std::vector<const LearnPoint*>&, const Predictor*,
                                        const LearnOptions&, const LearnedQuantity*);

/// Fits one quantity to `points` and cross-validates it; with a reference, also without it, and keeps the
/// one that cross-validates better: a reference whose shape differs from this model's (a transfer of power
/// from a model that loads the board otherwise) must not cost accuracy the model's own runs would have.
template <typename Predict, typename Measured>
Learned learnQuantity(const std::vector<const LearnPoint*>& points, const Predictor* reference,
                      FitFunction fit, Predict predicted, Measured measured, const LearnOptions& options,
                      const char* what) {
    const int folds = std::min<int>(options.folds, int(points.size()));
    const auto learnWith = [&](const Predictor* from) {
        Learned l;
        if (options.progress)
            options.progress(std::string(what) + ": fit on " + std::to_string(points.size()) + " runs" +
                             (from ? " with the reference" : ""));
        l.quantity = fit(points, from, options, nullptr);
        l.folds = folds;
        l.heldOut = crossValidate(
            points, folds, options, what,
            [&](const std::vector<const LearnPoint*>& train) {
                return fit(train, from, options, &l.quantity);
            },
            predicted);
        l.mape = meanAbsoluteRelativeError(points, l.heldOut, measured);
        return l;
    };
    Learned with = learnWith(reference);
    if (!reference) return with;
    Learned alone = learnWith(nullptr);
    return alone.mape < with.mape ? alone : with;
}

} // namespace

LearnedQuantity estimatedPower() {
    LearnedQuantity q;
    q.coefficients = Eigen::VectorXd::Zero(powerFeatureCount);
    q.coefficients[0] = 1.0;
    return q;
}

PredictionSpread Predictor::spreadBeyondRuns(int64_t batch, double beyondContext) const {
    const double time = spreadBeyondBatches(range.minBatch, range.maxBatch, batch) + beyondContext;
    const double watts =
        powerLearned ? spreadBeyondBatches(powerRange.minBatch, powerRange.maxBatch, batch) + beyondContext
                     : 0.0;
    return {time, watts, std::max(time, watts)};
}

bool Predictor::extrapolates(const PowerMode& mode, int64_t batch, Precision precision) const {
    return !range.contains(mode, batch, precision) ||
           (powerLearned && !powerRange.contains(mode, batch, precision));
}

double LearnedQuantity::predict(const double* physics, const double* position) const {
    const Eigen::Map<const Eigen::VectorXd> f(physics, coefficients.size());
    return std::max(0.0, f.dot(coefficients)) *
           std::exp(residual.predict(position) + reference.predict(position));
}

double LearnedQuantity::residualSpread(const double* position) const {
    if (residual.empty() || residual.cholesky.rows() != residual.inputs.rows()) return 0.0;
    return std::sqrt(residual.posterior(position).variance);
}

double LearnedQuantity::runNoise() const {
    return residual.empty() ? 0.0 : std::sqrt(residual.noiseVariance);
}

bool LearnRange::contains(const PowerMode& mode, int64_t batch, Precision precision) const {
    return mode.onlineCores >= minCores && mode.onlineCores <= maxCores && mode.cpuKhz >= minCpuKhz &&
           mode.cpuKhz <= maxCpuKhz && mode.gpuHz >= minGpuHz && mode.gpuHz <= maxGpuHz &&
           mode.emcHz >= minEmcHz && mode.emcHz <= maxEmcHz && batch >= minBatch && batch <= maxBatch &&
           std::binary_search(precisions.begin(), precisions.end(), precision);
}

namespace {

// "2-12", or "4" when the range is one value ("batch 1", not "batch 1-1")
std::string spanText(double low, double high) {
    const std::string from = fixed(low, 0), to = fixed(high, 0);
    return from == to ? from : from + "-" + to;
}

} // namespace

std::string LearnRange::describe() const {
    std::string text = "cores " + spanText(minCores, maxCores) + ", CPU " +
                       spanText(minCpuKhz / 1e3, maxCpuKhz / 1e3) + " MHz, GPU " +
                       spanText(minGpuHz / 1e6, maxGpuHz / 1e6) + " MHz, EMC " +
                       spanText(minEmcHz / 1e6, maxEmcHz / 1e6) + " MHz, batch " +
                       spanText(double(minBatch), double(maxBatch));
    text += ", precision";
    for (Precision p : precisions)
        text += " " + precisionName(p);
    return text;
}

std::string workloadText(Phase phase, Optimizer optimizer) {
    return phase == Phase::Training ? "training (" + optimizerName(optimizer) + ")" : "inference";
}

std::string Predictor::basis() const {
    char line[300];
    if (powerLearned)
        std::snprintf(line, sizeof line, "learned from %d runs of %s (CV time %.1f%%, power %.1f%%)", runs,
                      model.c_str(), 100 * cv.timeMape, 100 * cv.powerMape);
    else if (powerRuns >= minimumLearnRuns)
        std::snprintf(
            line, sizeof line,
            "learned from %d runs of %s (CV time %.1f%%); power not learned (the %d runs with power are "
            "all in one mode): Rooftop's estimate",
            runs, model.c_str(), 100 * cv.timeMape, powerRuns);
    else
        std::snprintf(
            line, sizeof line,
            "learned from %d runs of %s (CV time %.1f%%); power not learned (%d of the runs measured "
            "power, %d needed): Rooftop's estimate",
            runs, model.c_str(), 100 * cv.timeMape, powerRuns, minimumLearnRuns);
    std::string text = line;
    if (phase == Phase::Training) text += ", training steps (" + optimizerName(optimizer) + ")";
    if (learnedOnSimulatedRuns()) text += ", runs on the simulated board (not measured)";
    if (!referenceModel.empty()) text += ", " + referenceText();
    return text;
}

bool Predictor::learnedOnSimulatedRuns() const {
    return !heldOut.empty() && std::all_of(heldOut.begin(), heldOut.end(), [](const HeldOutRun& run) {
        return isSimulatedRunner(run.runner);
    });
}

std::string Predictor::referenceText() const {
    if (referenceModel.empty()) return {};
    const bool timeAdapted = !time.reference.empty(), powerAdapted = powerLearned && !power.reference.empty();
    const std::string from =
        std::to_string(referenceRuns) + " runs of " + referenceModel +
        (referenceBoard.empty() || referenceBoard == board ? std::string() : " on " + referenceBoard);
    const char* alone = " from this model's runs alone: they cross-validated better without the reference)";
    if (timeAdapted && (powerAdapted || !powerLearned)) return "adapted from " + from;
    if (timeAdapted) return "time adapted from " + from + " (power" + alone;
    if (powerAdapted) return "power adapted from " + from + " (time" + alone;
    return from + " offered as a reference, not used: this model's runs alone cross-validated better";
}

namespace {

// An RMS from n residuals underestimates the spread more often than not when n is small: the 90 % upper
// confidence limit of a standard deviation from n samples, sqrt((n - 1) / chi2_0.1(n - 1)), with the
// chi-square quantile by Wilson and Hilferty (x 1.28 for 20 runs, x 1.10 for 100).
double smallSampleFactor(int n) {
    if (n < 2) return 1.0;
    const double k = n - 1, z = normalQuantile(0.1);
    const double c = 1.0 - 2.0 / (9.0 * k) + z * std::sqrt(2.0 / (9.0 * k));
    const double chi2 = k * c * c * c;
    return chi2 > 0 ? std::sqrt(k / chi2) : 3.0;
}

} // namespace

PredictionSpread Predictor::cvSpread() const {
    double time = 0, power = 0, energy = 0;
    int timeRuns = 0, powerRuns = 0;
    for (const HeldOutRun& run : heldOut) {
        if (!(run.measuredSeconds > 0 && run.predictedSeconds > 0)) continue;
        const double t = std::log(run.predictedSeconds / run.measuredSeconds);
        time += t * t;
        ++timeRuns;
        if (!(run.measuredWatts > 0 && run.predictedWatts > 0)) continue;
        const double p = std::log(run.predictedWatts / run.measuredWatts);
        power += p * p;
        energy += (t + p) * (t + p);
        ++powerRuns;
    }
    PredictionSpread s;
    // without held-out runs, the prior's error on what was learned: decode steps, or whole passes
    const PredictionSpread prior = llmPrompt > 0 ? priorDecodeSpread() : priorSpread();
    s.latency = timeRuns ? std::sqrt(time / timeRuns) * smallSampleFactor(timeRuns) : prior.latency;
    if (powerLearned && powerRuns > 0) {
        s.power = std::sqrt(power / powerRuns) * smallSampleFactor(powerRuns);
        s.energy = std::sqrt(energy / powerRuns) * smallSampleFactor(powerRuns);
    } else { // Rooftop's power at the learned latency: the prior's power error, independent of time's
        s.power = prior.power;
        s.energy = std::hypot(s.latency, s.power);
    }
    return s;
}

PredictionSpread Predictor::runNoise() const {
    const double t = time.runNoise(), p = powerLearned ? power.runNoise() : 0.0;
    return {t, p, std::hypot(t, p)};
}

namespace {

// The held-out errors are against measured runs, each off its true value by the run noise; the spreads are
// about the true value. The GP's noise may also hold misfit on scales shorter than its length scale, so at
// most three quarters of the variance is taken as noise.
double withoutRunNoise(double spread, double noise) {
    return std::sqrt(std::max(spread * spread - noise * noise, spread * spread / 4));
}

PredictionSpread withoutRunNoise(const PredictionSpread& spread, const PredictionSpread& noise) {
    return {withoutRunNoise(spread.latency, noise.latency), withoutRunNoise(spread.power, noise.power),
            withoutRunNoise(spread.energy, noise.energy)};
}

} // namespace

PredictionSpread Predictor::trueValueSpread() const {
    return withoutRunNoise(cvSpread(), runNoise());
}

PredictionSpread Predictor::spread(const ConfigFeatures& f, const PredictionSpread& cv) const {
    const double t = time.residualSpread(f.position.data());
    const double p = powerLearned ? power.residualSpread(f.position.data()) : 0.0;
    const double factor = coverage.spreadFactor(f.position.data());
    if (!powerLearned) // power is the prior's estimate, whose error does not shrink near the runs
        return {std::max(cv.latency * factor, t), cv.power,
                std::max(cv.energy, std::hypot(cv.latency * factor, cv.power))};
    return {std::max(cv.latency * factor, t), std::max(cv.power * factor, p),
            std::max(cv.energy * factor, std::hypot(t, p))};
}

std::string Predictor::spreadBasis(bool byDistance) const {
    const PredictionSpread s = cvSpread();
    const PredictionSpread noise = runNoise();
    char line[900];
    std::snprintf(
        line, sizeof line,
        "the predictor's own error (cross-validated over %d runs: time %.1f %%, power %.1f %%, energy "
        "%.1f %%, 1 sigma: the held-out runs' RMS log error at its 90 %% upper confidence limit, above "
        "their MAPE%s; less the run noise the residual GP found, %s, as the bounds are of the true "
        "value, at most three quarters of the variance%s)",
        runs, 100 * s.latency, 100 * s.power, 100 * s.energy,
        powerLearned ? "" : "; power the prior's own error",
        ("time " + fixed(100 * noise.latency, 1) + " %" +
         (powerLearned ? ", power " + fixed(100 * noise.power, 1) + " %" : std::string()))
            .c_str(),
        byDistance ? "; half that at a run, wider with the distance to the nearest run, and 10 % more a "
                     "doubling of the batch beyond the runs' batches"
                   : "");
    return line;
}

std::string Predictor::spreadSummary() const {
    const PredictionSpread s = cvSpread();
    return "the predictor's error, cross-validated over " + std::to_string(runs) + " runs: time " +
           fixed(100 * s.latency, 1) + " %, power " + fixed(100 * s.power, 1) + " %" +
           (powerLearned ? std::string() : " (the prior's)") + ", energy " + fixed(100 * s.energy, 1) +
           " % (1 sigma)";
}

Predictor learnPredictor(const std::vector<LearnPoint>& points, const Predictor* reference,
                         const LearnOptions& options) {
    if (int(points.size()) < minimumLearnRuns)
        throw InputError("learning needs at least " + std::to_string(minimumLearnRuns) + " ok runs, got " +
                         std::to_string(points.size()));
    std::set<std::string> modes;
    for (const LearnPoint& p : points)
        modes.insert(p.mode.name);
    if (modes.size() < 2)
        throw InputError("all " + std::to_string(points.size()) + " runs are in one mode (" + *modes.begin() +
                         "): learning needs runs in several modes");
    std::vector<const LearnPoint*> all, withPower;
    std::set<std::string> powerModes;
    for (const LearnPoint& p : points) {
        all.push_back(&p);
        if (std::isfinite(p.watts) && p.watts > 0) {
            withPower.push_back(&p);
            powerModes.insert(p.mode.name);
        }
    }

    Predictor p;
    p.phase = options.phase;
    p.llmPrompt = options.llmPrompt;
    p.llmGenerate = options.llmGenerate;
    p.runs = int(all.size());
    p.powerRuns = int(withPower.size());
    p.powerModes = int(powerModes.size());
    p.powerLearned = p.powerRuns >= minimumLearnRuns && powerModes.size() >= 2;
    // A reference without learned power would pull toward Rooftop's estimate as if it were learned.
    const Predictor* powerReference = reference && reference->powerLearned ? reference : nullptr;
    if (reference) {
        p.referenceModel = reference->model;
        p.referenceHash = reference->modelHash;
        p.referenceRuns = reference->runs;
        p.referenceBoard = reference->board;
    }
    const auto timeOf = [](const LearnPoint& x) { return x.latencySeconds; };
    const auto wattsOf = [](const LearnPoint& x) { return x.watts; };
    Learned time = learnQuantity(all, reference, fitTime, timeFeaturesPredict, timeOf, options, "time");
    p.time = std::move(time.quantity);
    p.cv.folds = time.folds;
    p.cv.timeMape = time.mape;
    std::vector<double> power;
    if (p.powerLearned) {
        // held out as it will be predicted, at a learned latency: the time predicted for it with it held out
        // (the fit to all runs has learned its latency)
        std::map<const LearnPoint*, double> heldOutLatency;
        for (size_t i = 0; i < all.size(); ++i)
            heldOutLatency[all[i]] = time.heldOut[i];
        const auto atLearnedLatency = [&](const LearnedQuantity& q, const LearnPoint& x) {
            return q.predict(p.powerFeatures(x.features, heldOutLatency.at(&x)).data(),
                             x.features.position.data());
        };
        Learned learned =
            learnQuantity(withPower, powerReference, fitPower, atLearnedLatency, wattsOf, options, "power");
        p.power = std::move(learned.quantity);
        p.cv.powerMape = learned.mape;
        power = std::move(learned.heldOut);
    } else {
        p.power = estimatedPower();
    }
    p.range = rangeOf(all);
    if (p.powerLearned) p.powerRange = rangeOf(withPower);
    const std::vector<double>& timeHeldOut = time.heldOut;

    size_t nextWithPower = 0;
    for (size_t i = 0; i < all.size(); ++i) {
        const LearnPoint& x = *all[i];
        HeldOutRun run;
        run.mode = x.mode;
        run.batch = x.batch;
        run.precision = x.precision;
        run.measuredSeconds = x.latencySeconds;
        run.predictedSeconds = timeHeldOut[i];
        run.runner = x.runner;
        if (nextWithPower < withPower.size() && withPower[nextWithPower] == all[i]) {
            run.measuredWatts = x.watts;
            if (p.powerLearned) run.predictedWatts = power[nextWithPower];
            ++nextWithPower;
        }
        p.heldOut.push_back(run);
    }
    std::vector<Position> positions;
    positions.reserve(all.size());
    for (const LearnPoint* x : all)
        positions.push_back(x->features.position);
    p.coverage = runCoverage(positions, foldOf(all.size(), time.folds, options.seed));
    return p;
}

namespace {

// A file's coefficients are only checked to be finite numbers: an edited or damaged one can predict 1e300 s.
void checkPlausible(const Predictor& predictor, const std::string& mode, const ModeSummary& predicted) {
    const auto implausible = [](double value, double most) {
        return !std::isfinite(value) || value < 0 || value > most;
    };
    std::string what;
    if (implausible(predicted.latencySeconds, 86400.0))
        what = "a latency of " + general(predicted.latencySeconds, 3) + " s";
    else if (implausible(predicted.averageWatts, 1e5))
        what = "a power of " + general(predicted.averageWatts, 3) + " W";
    else if (implausible(predicted.spread.latency, 50.0) || implausible(predicted.spread.power, 50.0) ||
             implausible(predicted.spread.energy, 50.0))
        what = "a spread (log) of " + general(predicted.spread.latency, 3) + " in time, " +
               general(predicted.spread.power, 3) + " in power, " + general(predicted.spread.energy, 3) +
               " in energy";
    if (what.empty()) return;
    throw InputError("the predictor of " + predictor.model + " gives " + what + " in mode " + mode +
                     ": its file's figures are out of range (edited or damaged); learn it again");
}

} // namespace

std::vector<ModeSummary> predictModes(const Predictor& predictor, const DeviceSpec& device,
                                      const Workload& workload, Precision precision,
                                      const std::vector<ModeProfile>& profiles) {
    const std::vector<ModeSummary> roofline = featureSummaries(workload, profiles);
    const std::vector<ConfigFeatures> features =
        configFeatures(device, aggregateWorkload(workload, precision), profiles, roofline, learnerClockScale);
    std::vector<ModeSummary> out(profiles.size());
    const PredictionSpread cv = predictor.trueValueSpread();
    // the runs' errors say nothing of a batch they never ran: 10 % more a doubling beyond their batches (as a
    // calibrated runtime's), which the distance to the runs along the batch axis alone would understate
    const PredictionSpread beyond = predictor.spreadBeyondRuns(workload.settings.dims.batch.value_or(1));
    for (size_t i = 0; i < profiles.size(); ++i) {
        out[i].spread = predictor.spread(features[i], cv) + beyond;
        out[i].latencySeconds = predictor.latency(features[i]);
        // unlearned: Rooftop's at the learned latency
        out[i].averageWatts = predictor.watts(features[i], out[i].latencySeconds);
        out[i].energyJoules = out[i].latencySeconds * out[i].averageWatts;
        checkPlausible(predictor, profiles[i].mode.name, out[i]);
    }
    return out;
}

} // namespace rooftop
