// SPDX-License-Identifier: GPL-3.0-or-later
// Energy model fit E = eps_flop W + eps_byte Q + pi0 T over measured kernels (shared/reference/papers.md
// section 0, "Fitting per power mode"): least squares of the relative residuals (each sample weighted by
// 1 / its measured energy: power-monitor error is proportional to the reading and samples span orders of
// magnitude), constrained to non-negative coefficients (exact NNLS over the 7 support sets of 3 unknowns).
// R^2 and the residuals are those of the unweighted energies. A design whose columns do not separate W, Q and
// T (for instance only compute-bound kernels, where T is proportional to W) is refused.
//
// Calibration CSV: one real run per line, header "mode,batch,latency_ms,power_w" (columns in any order,
// extra columns ignored, '#' comment lines and blank lines skipped; power_w may be empty when not measured; a
// double-quoted field may hold commas, as a custom mode spec "cores=8,cpu=...,gpu=...,emc=..." does).
#include "core/roofline/energy_fit.h"

#include "core/common/csv_line.h"
#include "core/common/errors.h"
#include "core/common/input_file.h"
#include "core/common/text_format.h"
#include "core/roofline/least_squares.h"

#include <QString>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <map>

namespace rooftop {

EnergyFit fitEnergyModel(const std::vector<EnergySample>& samples) {
    std::vector<const EnergySample*> usable;
    for (const EnergySample& s : samples)
        if (std::isfinite(s.flops) && std::isfinite(s.bytes) && std::isfinite(s.seconds) &&
            std::isfinite(s.joules) && s.flops >= 0 && s.bytes >= 0 && s.seconds > 0 && s.joules >= 0)
            usable.push_back(&s);
    if (usable.size() < 3)
        throw NumericalError(
            "energy fit needs at least 3 samples with positive time and non-negative work, got " +
            std::to_string(usable.size()));

    const Eigen::Index n = static_cast<Eigen::Index>(usable.size());
    Eigen::MatrixXd design(n, 3);
    Eigen::VectorXd energy(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const EnergySample& s = *usable[static_cast<size_t>(i)];
        design(i, 0) = s.flops;
        design(i, 1) = s.bytes;
        design(i, 2) = s.seconds;
        energy(i) = s.joules;
    }
    if (scaledRank(design) < 3)
        throw NumericalError(
            "energy fit: the samples do not separate FLOPs, bytes and time (rank-deficient design); "
            "measure kernels of several intensities, compute- and memory-bound");

    // Relative residuals: each row divided by its measured energy, since power-monitor error is proportional
    // to the reading and samples span orders of magnitude (unweighted, the largest kernels would decide
    // alone).
    Eigen::VectorXd weight(n);
    const double floor = energy.maxCoeff() * 1e-9;
    for (Eigen::Index i = 0; i < n; ++i)
        weight(i) = 1.0 / std::max(energy(i), floor > 0 ? floor : 1.0);
    const Eigen::VectorXd x =
        nonNegativeLeastSquares(weight.asDiagonal() * design, weight.asDiagonal() * energy);
    const Eigen::VectorXd fitted = design * x;
    EnergyFit fit;
    fit.energyPerFlop = x(0);
    fit.energyPerByte = x(1);
    fit.constantPower = x(2);
    fit.rSquared = rSquared(energy, fitted);
    fit.residuals.resize(usable.size());
    for (Eigen::Index i = 0; i < n; ++i)
        fit.residuals[static_cast<size_t>(i)] = energy(i) - fitted(i);
    return fit;
}

std::optional<EnergyFit> tryFitEnergyModel(const std::vector<EnergySample>& samples) {
    try {
        return fitEnergyModel(samples);
    } catch (const NumericalError&) {
        return std::nullopt;
    }
}

PowerModel powerModelFromFit(const EnergyFit& fit, double tensorFlopEnergyRatio, const std::string& basis) {
    PowerModel power;
    power.constantPower = {fit.constantPower, Provenance::Fitted, basis};
    power.energyPerFlop = {fit.energyPerFlop, Provenance::Fitted, basis};
    power.energyPerByte = {fit.energyPerByte, Provenance::Fitted, basis};
    power.rSquared = fit.rSquared;
    power.tensorFlopEnergyRatio = tensorFlopEnergyRatio;
    return power;
}

namespace {

const char* const calibrationHeader = "mode,batch,latency_ms,power_w";

// The fields of a line, unquoted and trimmed; throws InputError naming `where` for a bad quote.
QStringList splitFields(const QString& line, const std::string& where) {
    std::vector<std::string> parts;
    std::string why;
    if (!splitCsvLine(line.toStdString(), parts, &why)) throw InputError(where + why);
    QStringList fields;
    for (const std::string& part : parts)
        fields.append(QString::fromStdString(part).trimmed());
    return fields;
}

} // namespace

std::vector<CalibrationRun> loadCalibrationCsv(const std::string& path, std::vector<std::string>* notes) {
    std::string text = readInputFile(path, "a runs file");
    text.erase(std::remove(text.begin(), text.end(), '\r'), text.end());
    dropUtf8Bom(text);
    const bool cutShort = !text.empty() && text.back() != '\n'; // the last line's write did not end
    const QStringList lines = QString::fromStdString(text).split('\n');

    std::map<std::string, int> column;
    int columnCount = 0;
    std::vector<CalibrationRun> runs;
    for (int index = 0; index < lines.size(); ++index) {
        const QString line = lines[index].trimmed();
        if (line.isEmpty() || line.startsWith('#')) continue;
        const std::string where = path + ":" + std::to_string(index + 1) + ": ";
        if (column.empty()) {
            const QStringList fields = splitFields(line, where);
            columnCount = static_cast<int>(fields.size());
            for (int c = 0; c < fields.size(); ++c)
                column[fields[c].toLower().toStdString()] = c;
            for (const char* name : {"mode", "batch", "latency_ms", "power_w"})
                if (!column.count(name))
                    throw InputError(where + "header lacks column '" + name + "' (expected " +
                                     calibrationHeader + ")");
            continue;
        }
        try {
            const QStringList fields = splitFields(line, where);
            if (fields.size() != columnCount)
                throw InputError(where + "expected " + std::to_string(columnCount) + " columns, got " +
                                 std::to_string(fields.size()));
            auto field = [&](const char* name) { return fields[column[name]]; };
            auto bad = [&](const char* name, const char* expected) {
                return InputError(where + "column '" + name + "': expected " + expected + ", got '" +
                                  field(name).toStdString() + "'");
            };
            // a runs file of rooftop profile: only the runs that succeeded count
            if (column.count("status") && field("status").trimmed() != "ok") continue;
            CalibrationRun run;
            run.line = index + 1;
            run.mode = field("mode").toStdString();
            if (run.mode.empty()) throw bad("mode", "a power mode name");
            if (column.count("dims")) run.dims = field("dims").toStdString();
            if (column.count("model")) run.model = field("model").trimmed().toStdString();
            if (column.count("runner")) run.runner = field("runner").trimmed().toStdString();
            if (column.count("precision") && !field("precision").trimmed().isEmpty()) {
                run.precision = parsePrecision(field("precision").trimmed().toStdString());
                if (!run.precision) throw bad("precision", "as-model, fp32, fp16, int8, fp8, fp4 or nothing");
            }
            if (column.count("phase") && !field("phase").trimmed().isEmpty()) {
                run.phase = parsePhase(field("phase").trimmed().toStdString());
                if (!run.phase) throw bad("phase", "inference, training or nothing");
            }
            bool ok = false;
            auto optionalCount = [&](const char* name, std::optional<int64_t>& value) {
                if (!column.count(name) || field(name).trimmed().isEmpty()) return;
                value = field(name).trimmed().toLongLong(&ok);
                if (!ok || *value < 1) throw bad(name, "a positive integer or nothing");
            };
            run.llmGeneration = column.count("generate") && !field("generate").trimmed().isEmpty() &&
                                field("generate").trimmed() != "0";
            optionalCount("cores", run.cores);
            optionalCount("cpu_khz", run.cpuKhz);
            optionalCount("gpu_hz", run.gpuHz);
            optionalCount("emc_hz", run.emcHz);
            run.batch = field("batch").toLongLong(&ok);
            if (!ok || run.batch < 1) throw bad("batch", "a positive integer");
            const double latencyMs = field("latency_ms").toDouble(&ok);
            if (!ok || !std::isfinite(latencyMs) || latencyMs <= 0)
                throw bad("latency_ms", "a positive number of milliseconds");
            run.latencySeconds = latencyMs * 1e-3;
            if (!field("power_w").isEmpty()) {
                run.averageWatts = field("power_w").toDouble(&ok);
                if (!ok || !std::isfinite(run.averageWatts) || run.averageWatts <= 0)
                    throw bad("power_w", "a positive number of watts or nothing");
            }
            runs.push_back(run);
        } catch (const InputError& error) {
            // a last line without its line break that does not read was cut short (a kill, a full disk): left
            // out and said, as the runs file's own reader does
            if (!cutShort || index != lines.size() - 1) throw;
            if (notes)
                notes->push_back(cutShortLineNote(where, std::string(error.what()).substr(where.size())));
        }
    }
    if (column.empty()) throw InputError(path + ": empty; expected the header " + calibrationHeader);
    if (runs.empty()) throw InputError(path + ": no runs after the header");
    return runs;
}

} // namespace rooftop
