// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/learn/predictor_file.h"

#include "core/common/errors.h"
#include "core/common/input_file.h"
#include "core/onnx/dim_binding.h"
#include "core/onnx/dim_text.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <limits>

namespace rooftop {

std::string modelFileHash(const std::string& path) {
    refuseIrregularFile(path, "a model");
    QFile file(QString::fromStdString(path));
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!file.open(QIODevice::ReadOnly) || !hash.addData(&file))
        throw InputError(path + ": cannot read the model to hash it");
    return hash.result().toHex().left(16).toStdString();
}

std::string modelFileKey(const std::string& path) {
    const size_t slash = path.find_last_of("/\\");
    return (slash == std::string::npos ? path : path.substr(slash + 1)) + "@" + modelFileHash(path);
}

namespace {

QString q(const std::string& text) {
    return QString::fromStdString(text);
}

QJsonArray numbers(const double* values, Eigen::Index n) {
    QJsonArray a;
    for (Eigen::Index i = 0; i < n; ++i)
        a.append(values[i]);
    return a;
}

QJsonObject gpJson(const GaussianProcess& gp) {
    QJsonObject o{{"mean", gp.mean},
                  {"length_scale", gp.lengthScale},
                  {"signal_variance", gp.signalVariance},
                  {"noise_variance", gp.noiseVariance}};
    QJsonArray inputs;
    for (Eigen::Index i = 0; i < gp.inputs.rows(); ++i) {
        const Eigen::RowVectorXd row = gp.inputs.row(i);
        inputs.append(numbers(row.data(), row.size()));
    }
    o["inputs"] = inputs;
    o["alpha"] = numbers(gp.alpha.data(), gp.alpha.size());
    return o;
}

template <size_t N> QJsonArray names(const std::array<const char*, N>& list) {
    QJsonArray a;
    for (const char* name : list)
        a.append(name);
    return a;
}

QJsonObject quantityJson(const LearnedQuantity& quantity) {
    QJsonObject o{{"coefficients", numbers(quantity.coefficients.data(), quantity.coefficients.size())},
                  {"residual_gp", gpJson(quantity.residual)},
                  {"ridge_pull", quantity.ridgePull}};
    if (!quantity.reference.empty() || quantity.reference.mean != 0.0)
        o["reference_gp"] = gpJson(quantity.reference);
    return o;
}

QJsonObject coverageJson(const RunCoverage& coverage) {
    QJsonArray positions;
    for (const Position& position : coverage.positions)
        positions.append(numbers(position.data(), Eigen::Index(position.size())));
    return QJsonObject{{"held_out_distance", coverage.heldOutDistance}, {"positions", positions}};
}

QJsonArray pair(double low, double high) {
    return QJsonArray{low, high};
}

/// Reads fields of one object, naming the path of a missing or wrong one.
class Reader {
public:
    Reader(std::string file, std::string where, QJsonObject object)
        : file_(std::move(file)), where_(std::move(where)), o_(std::move(object)) {}

    [[noreturn]] void fail(const std::string& key, const std::string& what) const {
        throw InputError(file_ + ": field " + where_ + key + " " + what);
    }
    QJsonValue value(const std::string& key) const {
        const QJsonValue v = o_.value(q(key));
        if (v.isUndefined()) fail(key, "is missing");
        return v;
    }
    std::string text(const std::string& key) const {
        const QJsonValue v = value(key);
        if (!v.isString()) fail(key, "must be a string");
        return v.toString().toStdString();
    }
    double number(const std::string& key) const {
        const QJsonValue v = value(key);
        if (!v.isDouble() || !std::isfinite(v.toDouble())) fail(key, "must be a finite number");
        return v.toDouble();
    }
    int integer(const std::string& key) const {
        const double v = number(key);
        if (v < 0 || v != std::floor(v)) fail(key, "must be a whole number >= 0");
        return int(v);
    }
    Eigen::VectorXd vector(const std::string& key, Eigen::Index size) const {
        const QJsonValue v = value(key);
        if (!v.isArray()) fail(key, "must be an array");
        const QJsonArray a = v.toArray();
        if (size >= 0 && a.size() != size) fail(key, "must have " + std::to_string(size) + " numbers");
        Eigen::VectorXd out(a.size());
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (!a[i].isDouble() || !std::isfinite(a[i].toDouble())) fail(key, "must hold finite numbers");
            out[Eigen::Index(i)] = a[i].toDouble();
        }
        return out;
    }
    Reader object(const std::string& key) const {
        const QJsonValue v = value(key);
        if (!v.isObject()) fail(key, "must be an object");
        return Reader(file_, where_ + key + ".", v.toObject());
    }
    bool has(const std::string& key) const { return o_.contains(q(key)); }
    const std::string& file() const { return file_; }

private:
    std::string file_, where_;
    QJsonObject o_;
};

GaussianProcess readGp(const Reader& r) {
    GaussianProcess gp;
    gp.mean = r.number("mean");
    if (std::abs(gp.mean) > 10) r.fail("mean", "must lie within [-10, 10] (a log-residual)");
    gp.lengthScale = r.number("length_scale");
    if (!(gp.lengthScale > 0)) r.fail("length_scale", "must be positive");
    gp.signalVariance = r.number("signal_variance");
    gp.noiseVariance = r.number("noise_variance");
    if (gp.signalVariance < 0 || gp.noiseVariance < 0) r.fail("signal_variance", "must not be negative");
    const QJsonValue inputs = r.value("inputs");
    if (!inputs.isArray()) r.fail("inputs", "must be an array");
    const QJsonArray rows = inputs.toArray();
    gp.alpha = r.vector("alpha", rows.size());
    gp.inputs.resize(rows.size(), positionCount);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QJsonArray row = rows[i].toArray();
        if (row.size() != positionCount)
            r.fail("inputs", "rows must have " + std::to_string(positionCount) + " numbers");
        for (int j = 0; j < positionCount; ++j) {
            if (!row[j].isDouble()) r.fail("inputs", "must hold numbers");
            gp.inputs(Eigen::Index(i), j) = row[j].toDouble();
        }
    }
    // the posterior variance widens predictions away from the runs; past this many runs the cubic
    // factorisation would cost seconds, and the cross-validated spread alone bounds them
    constexpr Eigen::Index maxRunsForPosterior = 1000;
    if (gp.inputs.rows() <= maxRunsForPosterior) gp.refactor();
    return gp;
}

RunCoverage readCoverage(const Reader& r) {
    RunCoverage coverage;
    coverage.heldOutDistance = r.number("held_out_distance");
    if (coverage.heldOutDistance < 0) r.fail("held_out_distance", "must not be negative");
    const QJsonValue positions = r.value("positions");
    if (!positions.isArray()) r.fail("positions", "must be an array");
    const QJsonArray rows = positions.toArray();
    if (std::size_t(rows.size()) > coveragePositionLimit)
        r.fail("positions", "must hold at most " + std::to_string(coveragePositionLimit) + " positions");
    for (const auto& value : rows) {
        const QJsonArray row = value.toArray();
        if (row.size() != positionCount)
            r.fail("positions", "rows must have " + std::to_string(positionCount) + " numbers");
        Position position{};
        for (int j = 0; j < positionCount; ++j) {
            if (!row[j].isDouble() || !std::isfinite(row[j].toDouble()))
                r.fail("positions", "must hold numbers");
            position[std::size_t(j)] = row[j].toDouble();
        }
        coverage.positions.push_back(position);
    }
    return coverage;
}

LearnedQuantity readQuantity(const Reader& r, Eigen::Index features) {
    LearnedQuantity quantity;
    quantity.coefficients = r.vector("coefficients", features);
    quantity.residual = readGp(r.object("residual_gp"));
    if (r.has("ridge_pull")) { // files before it: the pull was the free one's
        quantity.ridgePull = r.number("ridge_pull");
        if (quantity.ridgePull < 0 || quantity.ridgePull > 1000)
            r.fail("ridge_pull", "must be from 0 to 1000");
    }
    if (r.has("reference_gp")) quantity.reference = readGp(r.object("reference_gp"));
    return quantity;
}

QJsonObject rangeJson(const LearnRange& r) {
    QJsonArray precisions;
    for (Precision precision : r.precisions)
        precisions.append(q(precisionName(precision)));
    return QJsonObject{{"cores", pair(r.minCores, r.maxCores)},
                       {"cpu_khz", pair(double(r.minCpuKhz), double(r.maxCpuKhz))},
                       {"gpu_hz", pair(double(r.minGpuHz), double(r.maxGpuHz))},
                       {"emc_hz", pair(double(r.minEmcHz), double(r.maxEmcHz))},
                       {"batch", pair(double(r.minBatch), double(r.maxBatch))},
                       {"precisions", precisions}};
}

QJsonValue numberOrNull(double value) {
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QJsonArray heldOutJson(const std::vector<HeldOutRun>& runs) {
    QJsonArray a;
    for (const HeldOutRun& run : runs)
        a.append(QJsonObject{{"mode", q(run.mode.name)},
                             {"cores", run.mode.onlineCores},
                             {"cpu_khz", double(run.mode.cpuKhz)},
                             {"gpu_hz", double(run.mode.gpuHz)},
                             {"emc_hz", double(run.mode.emcHz)},
                             {"batch", double(run.batch)},
                             {"precision", q(precisionName(run.precision))},
                             {"latency_ms", 1e3 * run.measuredSeconds},
                             {"predicted_latency_ms", 1e3 * run.predictedSeconds},
                             {"power_w", numberOrNull(run.measuredWatts)},
                             {"predicted_power_w", numberOrNull(run.predictedWatts)},
                             {"runner", q(run.runner)}});
    return a;
}

double positive(const Reader& r, const std::string& key) {
    const double v = r.number(key);
    if (!(v > 0)) r.fail(key, "must be positive");
    return v;
}

Precision readPrecision(const Reader& r, const std::string& key, const std::string& text) {
    const std::optional<Precision> precision = parsePrecision(text);
    if (!precision || *precision == Precision::AsModel) r.fail(key, "must name fp32, fp16 or int8");
    return *precision;
}

std::vector<HeldOutRun> readHeldOut(const Reader& r, const std::string& key) {
    const QJsonValue v = r.value(key);
    if (!v.isArray()) r.fail(key, "must be an array");
    std::vector<HeldOutRun> runs;
    const QJsonArray a = v.toArray();
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!a[i].isObject()) r.fail(key, "must hold objects");
        const Reader run(r.file(), key + "[" + std::to_string(i) + "].", a[i].toObject());
        HeldOutRun h;
        h.mode.name = run.text("mode");
        h.mode.onlineCores = run.integer("cores");
        h.mode.cpuKhz = int64_t(run.number("cpu_khz"));
        h.mode.gpuHz = int64_t(run.number("gpu_hz"));
        h.mode.emcHz = int64_t(run.number("emc_hz"));
        h.batch = run.integer("batch");
        h.precision = readPrecision(run, "precision", run.text("precision"));
        h.measuredSeconds = positive(run, "latency_ms") * 1e-3;
        h.predictedSeconds = positive(run, "predicted_latency_ms") * 1e-3;
        h.measuredWatts = run.value("power_w").isNull() ? std::nan("") : positive(run, "power_w");
        h.predictedWatts =
            run.value("predicted_power_w").isNull() ? std::nan("") : positive(run, "predicted_power_w");
        if (run.has("runner")) h.runner = run.text("runner");
        runs.push_back(h);
    }
    return runs;
}

std::pair<int64_t, int64_t> readPair(const Reader& r, const std::string& key) {
    const Eigen::VectorXd v = r.vector(key, 2);
    if (v[0] > v[1] || v[0] < 0) r.fail(key, "must be [low, high] with 0 <= low <= high");
    return {int64_t(v[0]), int64_t(v[1])};
}

LearnRange readRange(const Reader& range) {
    LearnRange out;
    const auto cores = readPair(range, "cores");
    out.minCores = int(cores.first);
    out.maxCores = int(cores.second);
    std::tie(out.minCpuKhz, out.maxCpuKhz) = readPair(range, "cpu_khz");
    std::tie(out.minGpuHz, out.maxGpuHz) = readPair(range, "gpu_hz");
    std::tie(out.minEmcHz, out.maxEmcHz) = readPair(range, "emc_hz");
    std::tie(out.minBatch, out.maxBatch) = readPair(range, "batch");
    const QJsonValue precisions = range.value("precisions");
    if (!precisions.isArray()) range.fail("precisions", "must be an array of names");
    for (const QJsonValue v : precisions.toArray()) {
        if (!v.isString()) range.fail("precisions", "must be an array of names");
        out.precisions.push_back(readPrecision(range, "precisions", v.toString().toStdString()));
    }
    std::sort(out.precisions.begin(), out.precisions.end());
    return out;
}

/// The dims a predictor was learned at as {"sequence": 128}, the other documents' `dims`.
QJsonObject dimsJson(const std::string& dimsText) {
    QJsonObject dims;
    for (const auto& [name, value] : parseNamedDimsText(dimsText, "the predictor's dims"))
        dims[q(name)] = qint64(value);
    return dims;
}

/// /4's dims object, or /3's text ("sequence=128"), as the canonical text.
std::string readDims(const Reader& r, const std::string& path, bool asText) {
    if (asText) {
        if (!r.value("dims").isString()) r.fail("dims", "must be a text such as \"sequence=128\"");
        return namedDimsText(
            parseNamedDimsText(r.value("dims").toString().toStdString(), path + ": field 'dims'"));
    }
    if (!r.value("dims").isObject()) r.fail("dims", "must be an object such as {\"sequence\": 128}");
    std::map<std::string, int64_t> dims;
    const QJsonObject object = r.value("dims").toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const double value = it.value().toDouble(-1.0);
        if (!it.value().isDouble() || value < 0 || value > double(DimBindings::maxDimValue) ||
            value != std::floor(value))
            r.fail("dims", "'" + it.key().toStdString() + "' must be a whole number from 0 to 2^40");
        dims[it.key().toStdString()] = int64_t(value);
    }
    // a name the dims text cannot hold (empty, or with '=' or ';') is refused here, naming the file
    return namedDimsText(parseNamedDimsText(namedDimsText(dims), path + ": field 'dims'"));
}

} // namespace

std::string predictorJson(const Predictor& p, const std::string& runsPath) {
    QJsonObject o{
        {"schema", predictorFormat},
        {"device", q(p.board)},
        {"model", q(p.model)},
        {"model_hash", q(p.modelHash)},
        {"dims", dimsJson(p.dims)},
        {"runs_file", q(QFileInfo(q(runsPath)).fileName().toStdString())},
        {"runs", p.runs},
        {"power_runs", p.powerRuns},
        {"power_learned", p.powerLearned},
        {"method", "physics coefficients (relative ridge NNLS) x exp(RBF Gaussian process on log residuals)"},
        {"features", QJsonObject{{"time", names(timeFeatureNames())},
                                 {"power", names(powerFeatureNames())},
                                 {"position", names(positionNames())}}},
        {"time", quantityJson(p.time)},
        {"power", quantityJson(p.power)},
        {"range", rangeJson(p.range)},
        {"cv", QJsonObject{{"folds", p.cv.folds},
                           {"time_mape", p.cv.timeMape},
                           {"power_mape", numberOrNull(p.cv.powerMape)}}},
        {"held_out", heldOutJson(p.heldOut)},
        {"coverage", coverageJson(p.coverage)},
    };
    o["phase"] = q(phaseName(p.phase));
    if (p.phase == Phase::Training) o["optimizer"] = q(optimizerName(p.optimizer));
    if (p.llmPrompt > 0)
        o["llm"] = QJsonObject{
            {"prompt", qint64(p.llmPrompt)}, {"generate", qint64(p.llmGenerate)}, {"latency", "tpot"}};
    if (p.powerLearned) o["power_range"] = rangeJson(p.powerRange);
    if (!p.runtime.empty()) o["runtime"] = q(p.runtime);
    if (!p.referenceModel.empty()) {
        QJsonObject reference{
            {"model", q(p.referenceModel)}, {"model_hash", q(p.referenceHash)}, {"runs", p.referenceRuns}};
        if (!p.referenceBoard.empty()) reference["device"] = q(p.referenceBoard);
        o["reference"] = reference;
    }
    return QJsonDocument(o).toJson(QJsonDocument::Indented).toStdString();
}

void savePredictor(const std::string& path, const Predictor& predictor, const std::string& runsPath) {
    QFile file(q(path));
    const std::string text = predictorJson(predictor, runsPath);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(text.data(), qint64(text.size())) != qint64(text.size()))
        throw InputError(path + ": cannot write the predictor");
}

Predictor loadPredictor(const std::string& path) {
    const std::string text = readInputFile(path, "a predictor file");
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        throw InputError(path + ": not a JSON object (" + error.errorString().toStdString() + ")");
    const Reader r(path, "", doc.object());
    // "schema" as every Rooftop document; files written before it named the layout "format"
    const char* key = r.has("schema") ? "schema" : r.has("format") ? "format" : nullptr;
    if (!key)
        r.fail("schema",
               std::string("is missing: not a predictor file (rooftop learn -o writes them, \"schema\": \"") +
                   predictorFormat + "\")");
    const std::string format = r.text(key);
    if (format.rfind("rooftop-", 0) == 0 && format.rfind("rooftop-predictor/", 0) != 0)
        r.fail(key,
               "is " + format + ": another Rooftop document, not a predictor (rooftop learn -o writes them)");
    // /1's power coefficients rest on the roofline's busy shares, /2's residual models on linear GPU and EMC
    // clock shares
    if (format == "rooftop-predictor/1" || format == "rooftop-predictor/2")
        r.fail(key, "is " + format +
                        ", an older Rooftop's, whose predictions this one reads otherwise: learn it again "
                        "from its runs file (rooftop learn)");
    // /3 named the board `board` and gave the dims as a text, as no other document does
    const bool third = format == "rooftop-predictor/3";
    if (format != predictorFormat && !third) r.fail(key, std::string("must be \"") + predictorFormat + "\"");
    const char* deviceKey = third ? "board" : "device";
    Predictor p;
    p.board = r.text(deviceKey);
    p.model = r.text("model");
    p.modelHash = r.text("model_hash");
    // files before the dims were recorded: the model's own dims; canonical, so that a hand-edited order
    // still names the same dims
    if (r.has("dims")) p.dims = readDims(r, path, third);
    if (r.has("phase")) { // files before the phase was recorded: inference
        const std::optional<Phase> phase = parsePhase(r.value("phase").toString().toStdString());
        if (!r.value("phase").isString() || !phase) r.fail("phase", "must be \"inference\" or \"training\"");
        p.phase = *phase;
    }
    if (p.phase == Phase::Training) {
        const std::optional<Optimizer> optimizer = parseOptimizer(r.text("optimizer"));
        if (!optimizer) r.fail("optimizer", "must be \"sgd\", \"momentum\" or \"adam\"");
        p.optimizer = *optimizer;
    }
    if (r.has("llm")) {
        const Reader llm = r.object("llm");
        p.llmPrompt = llm.integer("prompt");
        p.llmGenerate = llm.integer("generate");
        if (p.llmPrompt < 1 || p.llmGenerate < 1) r.fail("llm", "prompt and generate must be at least 1");
        if (p.phase != Phase::Inference) r.fail("llm", "is a generation: its phase is inference");
    }
    p.runs = r.integer("runs");
    if (p.runs < minimumLearnRuns) r.fail("runs", "must be at least " + std::to_string(minimumLearnRuns));
    p.powerRuns = r.integer("power_runs");
    if (p.powerRuns > p.runs) r.fail("power_runs", "must not exceed runs");
    p.time = readQuantity(r.object("time"), timeFeatureCount);
    p.power = readQuantity(r.object("power"), powerFeatureCount);
    p.range = readRange(r.object("range"));
    p.powerRange = r.has("power_range") ? readRange(r.object("power_range")) : p.range;
    const Reader cv = r.object("cv");
    p.cv.folds = cv.integer("folds");
    if (p.cv.folds < 2) cv.fail("folds", "must be at least 2");
    p.cv.timeMape = cv.number("time_mape");
    if (p.cv.timeMape < 0) cv.fail("time_mape", "must not be negative");
    if (r.has("power_learned")) { // files before it learned power in every case
        if (!r.value("power_learned").isBool()) r.fail("power_learned", "must be true or false");
        p.powerLearned = r.value("power_learned").toBool();
    }
    if (p.powerLearned) {
        p.cv.powerMape = cv.number("power_mape");
        if (p.cv.powerMape < 0) cv.fail("power_mape", "must not be negative");
    } else {
        p.power = estimatedPower(); // whatever the file holds, power is Rooftop's estimate
        p.cv.powerMape = std::numeric_limits<double>::quiet_NaN();
    }
    if (r.has("held_out")) p.heldOut = readHeldOut(r, "held_out");
    if (r.has("runtime")) p.runtime = r.text("runtime");                    // files before it: not checked
    if (r.has("coverage")) p.coverage = readCoverage(r.object("coverage")); // files before it: factor 1
    if (r.has("reference")) {
        const Reader reference = r.object("reference");
        p.referenceModel = reference.text("model");
        p.referenceHash = reference.text("model_hash");
        p.referenceRuns = reference.integer("runs");
        if (reference.has(deviceKey)) p.referenceBoard = reference.text(deviceKey);
    }
    return p;
}

void checkPredictorWorkload(const Predictor& predictor, const std::string& path, Phase phase,
                            Optimizer optimizer, bool llm) {
    if (llm && predictor.llmPrompt == 0)
        throw InputError(path + ": the predictor was learned for " +
                         workloadText(predictor.phase, predictor.optimizer) +
                         ", not for a decoder's decode steps (learn one from LLM runs: rooftop learn --llm)");
    if (!llm && predictor.llmPrompt > 0)
        throw InputError(path +
                         ": the predictor was learned for a decoder's decode steps (its latency is the time "
                         "per output token): rooftop llm --predictor uses it");
    const bool same =
        predictor.phase == phase && (phase == Phase::Inference || predictor.optimizer == optimizer);
    if (same) return;
    throw InputError(path + ": the predictor was learned for " +
                     workloadText(predictor.phase, predictor.optimizer) + ", not " +
                     workloadText(phase, optimizer) +
                     " (learn one from runs of that workload: rooftop learn --phase " + phaseName(phase) +
                     (phase == Phase::Training ? " --optimizer " + optimizerName(optimizer) : "") + ")");
}

void checkPredictorDims(const Predictor& predictor, const std::string& path,
                        const std::map<std::string, int64_t>& dims) {
    if (predictor.dims != namedDimsText(dims))
        throw InputError(path + ": the predictor was learned at " +
                         describeNamedDims(parseNamedDimsText(predictor.dims, path)) + ", not at " +
                         describeNamedDims(dims) + " (learn one for these dims)");
}

SettledPrecision settlePredictorPrecision(const Predictor& predictor, Precision asked) {
    const std::vector<Precision>& ran = predictor.range.precisions;
    const auto wasRun = [&ran](Precision p) { return std::find(ran.begin(), ran.end(), p) != ran.end(); };
    if (ran.empty() || wasRun(predictorPrecision(asked))) return {asked, {}};
    if (asked == Precision::AsModel)
        return {ran.front(), "precision " + precisionName(ran.front()) +
                                 ", as the predictor's runs ran (as-model would count the model's own types, "
                                 "which did not run)"};
    return {asked, "precision " + precisionName(asked) + " lies outside the predictor's runs (" +
                       precisionName(ran.front()) + "): its numbers are the predictor's extrapolation"};
}

Precision predictorPrecision(Precision precision) {
    return precision == Precision::AsModel ? Precision::FP32 : precision;
}

void checkPredictorPrecision(const Predictor& predictor, const std::string& path, Precision precision,
                             const std::string& what) {
    const std::vector<Precision>& ran = predictor.range.precisions;
    if (ran.empty() || std::find(ran.begin(), ran.end(), precision) != ran.end()) return;
    std::string names;
    for (Precision p : ran)
        names += (names.empty() ? "" : ", ") + precisionName(p);
    throw InputError(path + ": the predictor's runs ran " + names + ", and " + what + " counts at " +
                     precisionName(precision) + " (give --precision " + precisionName(ran.front()) +
                     ", or learn one from runs at " + precisionName(precision) + ")");
}

void checkPredictorRuntime(const Predictor& predictor, const std::string& path, const std::string& runtime) {
    if (predictor.runtime.empty() || predictor.runtime == runtime) return;
    throw InputError(path + ": the predictor learned its inputs from the roofline of runtime " +
                     predictor.runtime + ", not " + runtime +
                     ": give the runtime it was learned with, or learn again with " + runtime);
}

void checkPredictorFits(const Predictor& predictor, const std::string& path, const std::string& board,
                        const std::string& modelPath) {
    if (predictor.board != board)
        throw InputError(path + ": the predictor was learned on board " + predictor.board + ", not " + board);
    if (modelPath.empty()) return;
    const std::string hash = modelFileHash(modelPath);
    if (predictor.modelHash != hash)
        throw InputError(path + ": the predictor was learned for model " + predictor.model + " (" +
                         predictor.modelHash + "), not " + QFileInfo(q(modelPath)).fileName().toStdString() +
                         " (" + hash + ")");
}

} // namespace rooftop
