// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/recommendation_writers.h"

#include "core/advisor/explanation.h"
#include "core/common/text_format.h"
#include "core/report/json_values.h"
#include "core/report/prediction_bounds.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <iomanip>
#include <sstream>

namespace rooftop {
namespace {

QJsonArray interval(const Interval& i, double scale) {
    return QJsonArray{i.low * scale, i.high * scale};
}

QJsonObject modeObject(const Candidate& c, double confidence) {
    const PowerMode& m = c.profile.mode;
    const CandidateBounds bounds = candidateBounds(c, confidence);
    QJsonObject mode{{"mode", QString::fromStdString(m.name)},
                     {"cores", m.onlineCores},
                     {"cpu_khz", qint64(m.cpuKhz)},
                     {"gpu_hz", qint64(m.gpuHz)},
                     {"emc_hz", qint64(m.emcHz)},
                     {"batch", qint64(c.batch)},
                     {"latency_ms", c.summary.latencySeconds * 1e3},
                     {"latency_ms_interval", interval(bounds.latencySeconds, 1e3)},
                     {"energy_mj", c.energyPerInference() * 1e3},
                     {"energy_mj_interval", interval(bounds.energyPerInference, 1e3)},
                     {"power_w", c.summary.averageWatts},
                     {"power_w_interval", interval(bounds.averageWatts, 1.0)},
                     {"feasible", c.feasible},
                     {"fits_memory", c.fitsMemory},
                     {"provenance", provenanceName(c.provenance)}};
    if (c.provenance == Provenance::Predicted) mode.insert("extrapolated", c.extrapolated);
    return mode;
}

class ModeTable {
public:
    static constexpr size_t kRoleWidth = 17; // "close, baseline" and two spaces

    ModeTable(size_t nameWidth, bool training, double confidence)
        : nameWidth_(nameWidth), training_(training), confidence_(confidence) {}

    void header(std::ostringstream& out) const {
        out << padded("", kRoleWidth, false) << padded("Mode", nameWidth_, false) << rightColumn("Cores", 6)
            << rightColumn("CPU MHz", 9) << rightColumn("GPU MHz", 9) << rightColumn("EMC MHz", 9)
            << rightColumn(training_ ? "Minibatch" : "Batch", 10)
            << rightColumn(training_ ? "Per step" : "Per batch", 24)
            << rightColumn(training_ ? "mJ/sample" : "mJ/inf", 22) << rightColumn("W", 13)
            << rightColumn("Feasible", 10) << "  Provenance\n";
    }

    void row(std::ostringstream& out, const std::string& role, const Candidate& c) const {
        const PowerMode& m = c.profile.mode;
        const CandidateBounds bounds = candidateBounds(c, confidence_);
        out << padded(role, kRoleWidth, false) << padded(m.name, nameWidth_, false)
            << rightColumn(std::to_string(m.onlineCores), 6)
            << rightColumn(fixed(double(m.cpuKhz) / 1e3, 1), 9) << rightColumn(mhz(m.gpuHz), 9)
            << rightColumn(mhz(m.emcHz), 9) << rightColumn(std::to_string(c.batch), 10)
            << rightColumn(duration(c.summary.latencySeconds) +
                               upTo(c.summary.latencySeconds, bounds.latencySeconds.high,
                                    durationScale(c.summary.latencySeconds),
                                    durationDecimals(c.summary.latencySeconds)),
                           24)
            << rightColumn(fixed(c.energyPerInference() * 1e3, 3) +
                               upTo(c.energyPerInference(), bounds.energyPerInference.high, 1e3, 3),
                           22)
            << rightColumn(fixed(c.summary.averageWatts, 1) +
                               upTo(c.summary.averageWatts, bounds.averageWatts.high, 1.0, 1),
                           13)
            << rightColumn(c.feasible ? "yes" : "no", 10) << "  " << provenanceName(c.provenance)
            << (c.extrapolated ? " (extrapolated)" : "") << "\n";
    }

private:
    /// A right-aligned cell of `width` that keeps two spaces before it however long its text grows.
    static std::string rightColumn(const std::string& text, size_t width) {
        return "  " + padded(text, width > 2 ? width - 2 : 0, true);
    }

    /// " ≤ 4.04": an upper bound beside its value, times `scale`, in the value's decimals (the prose rounds
    /// them alike); empty when it is the value itself.
    static std::string upTo(double value, double high, double scale, int decimals) {
        return high > value ? " ≤ " + fixed(high * scale, decimals) : std::string();
    }

    size_t nameWidth_;
    bool training_;
    double confidence_;
};

} // namespace

QJsonValue optionalNumber(const std::optional<double>& value, double scale) {
    return value ? QJsonValue(*value * scale) : QJsonValue(QJsonValue::Null);
}

std::string rooflinePredictionBasis(const RuntimeProfile& runtime) {
    const auto& fitted = runtime.classFitted;
    if (std::find(fitted.begin(), fitted.end(), true) == fitted.end())
        return "Rooftop's roofline prior (no predictor)";
    return "Rooftop's roofline with the calibrated runtime " + runtime.name + " (" + runtime.basis + ")" +
           (runtime.calibratedOnSimulator ? ", " + calibrationWords(runtime) : std::string());
}

std::string analysisPredictionBasis(const AnalysisResult& result) {
    return result.predictorBasis.empty() ? rooflinePredictionBasis(result.runtime) : result.predictorBasis;
}

std::string recommendationToJson(const RecommendationQuestion& q, const Recommendation& r) {
    QJsonArray modes, pareto;
    for (const auto& c : r.candidates)
        modes.append(modeObject(c, r.confidence));
    for (size_t i : runnableParetoFront(r.candidates, r.frontAxes()))
        pareto.append(QJsonObject{{"mode", QString::fromStdString(r.candidates[i].profile.mode.name)},
                                  {"batch", qint64(r.candidates[i].batch)}});
    const QJsonObject limits{{"latency_slo_ms", optionalNumber(q.limits.latencySloSeconds, 1e3)},
                             {"power_cap_w", optionalNumber(q.limits.powerCapWatts, 1.0)},
                             {"slowdown_pct", optionalNumber(q.limits.maxSlowdownPercent, 1.0)}};
    QJsonObject root{
        {"schema", "rooftop-recommend/3"},
        {"device", QString::fromStdString(q.deviceId)},
        {"model", QString::fromStdString(q.model)},
        {"dims", namedDimsJson(q.dims)},
        {"precision", QString::fromStdString(q.precision)},
        {"objective", objectiveName(q.objective)},
        {"limits", limits},
        {"prediction_basis",
         QString::fromStdString(q.predictionBasis.empty() ? "Rooftop's roofline prior (no predictor)"
                                                          : q.predictionBasis)},
        {"confidence", r.confidence},
        {"interval_basis", QString::fromStdString(r.spreadBasis)},
        {"baseline", modeObject(r.baseline, r.confidence)},
        {"modes", modes},
        {"phase", r.training ? "training" : "inference"},
        {"pareto_axes", r.training ? "latency_power" : "latency_energy"},
        {"pareto", pareto}};
    if (r.training && !q.optimizer.empty()) root.insert("optimizer", QString::fromStdString(q.optimizer));
    if (r.recommended) {
        QJsonObject recommended = modeObject(r.candidates[*r.recommended], r.confidence);
        recommended["saving_pct"] = r.savingPercent;
        recommended["explanation"] = QString::fromStdString(r.explanation);
        recommended["nvpmodel"] = QString::fromStdString(r.nvpmodelBlock);
        root["recommended"] = recommended;
        const auto [value, spread] = objectiveQuantity(r.candidates[*r.recommended], q.objective);
        QJsonArray close;
        for (size_t k = 0; k < std::min(closestCount, r.closeCalls.size()); ++k) {
            const Candidate& c = r.candidates[r.closeCalls[k]];
            QJsonObject mode = modeObject(c, r.confidence);
            mode["difference_pct"] = 100.0 * (objectiveQuantity(c, q.objective).first / value - 1.0);
            close.append(mode);
        }
        root["close_calls"] = close;
        root["close_call_count"] = qint64(r.closeCalls.size());
        // the pick's 1-sigma spread of the objective's quantity, which the close calls lie within
        root["close_call_within_pct"] = 100.0 * spread;
    } else {
        root["recommended"] = QJsonValue::Null;
        QJsonArray closest;
        for (size_t i : r.closest)
            closest.append(modeObject(r.candidates[i], r.confidence));
        root["closest"] = closest;
        root["message"] = QString::fromStdString(r.explanation);
    }
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

std::string recommendationToTable(const std::string& deviceName, const Recommendation& r,
                                  const Constraints& constraints, Objective objective) {
    const std::vector<size_t> front = runnableParetoFront(r.candidates, r.frontAxes());
    size_t nameWidth = std::max<size_t>(6, r.baseline.profile.mode.name.size());
    for (size_t i : front)
        nameWidth = std::max(nameWidth, r.candidates[i].profile.mode.name.size());
    for (size_t i : r.closest)
        nameWidth = std::max(nameWidth, r.candidates[i].profile.mode.name.size());
    if (r.recommended) nameWidth = std::max(nameWidth, r.candidates[*r.recommended].profile.mode.name.size());
    for (size_t k = 0; k < std::min(closeCallsNamed, r.closeCalls.size()); ++k)
        nameWidth = std::max(nameWidth, r.candidates[r.closeCalls[k]].profile.mode.name.size());
    const ModeTable table(nameWidth + 2, r.training, r.confidence);

    std::ostringstream out;
    out << "Device: " << deviceName << "   objective: " << objectiveName(objective) << "   limits:";
    bool any = false;
    if (constraints.latencySloSeconds) {
        out << " latency <= " << fixed(*constraints.latencySloSeconds * 1e3, 3) << " ms";
        any = true;
    }
    if (constraints.powerCapWatts) {
        out << (any ? "," : "") << " power <= " << fixed(*constraints.powerCapWatts, 1) << " W";
        any = true;
    }
    if (constraints.maxSlowdownPercent) {
        out << (any ? "," : "") << " slowdown <= " << fixed(*constraints.maxSlowdownPercent, 1) << "%";
        any = true;
    }
    if (!any) out << " none";
    if (constraints.latencySloSeconds || constraints.powerCapWatts)
        out << " (met at " << confidenceText(constraints.confidence) << " confidence)";
    size_t feasible = 0;
    for (const auto& c : r.candidates)
        feasible += c.feasible ? 1 : 0;
    out << "\nCandidates: " << r.candidates.size() << " (modes x batch sizes), " << feasible
        << (r.training ? " feasible. Time is per training step (one minibatch); energy is per sample.\n\n"
                       : " feasible. Latency is per batch; energy is per inference.\n\n");

    if (!r.recommended) {
        out << (r.explanation.empty() ? std::string("The constraints cannot be met.") : r.explanation)
            << "\n\n";
        table.header(out);
        table.row(out, "baseline", r.baseline);
        for (size_t i : r.closest)
            table.row(out, "closest", r.candidates[i]);
        out << "\n";
    } else {
        table.header(out);
        table.row(out, "RECOMMENDED", r.candidates[*r.recommended]);
        const auto isBaseline = [&r](const Candidate& c) {
            return c.profile.mode.name == r.baseline.profile.mode.name && c.batch == r.baseline.batch;
        };
        const size_t named = std::min(closeCallsNamed, r.closeCalls.size());
        const bool baselineIsClose = std::any_of(r.closeCalls.begin(), r.closeCalls.begin() + long(named),
                                                 [&](size_t i) { return isBaseline(r.candidates[i]); });
        table.row(out, baselineIsClose ? "close, baseline" : "baseline", r.baseline);
        for (size_t k = 0; k < named; ++k) // the baseline's row says it once
            if (const Candidate& c = r.candidates[r.closeCalls[k]]; !isBaseline(c))
                table.row(out, "close call", c);
        const Candidate& chosen = r.candidates[*r.recommended];
        out << "\nPredicted " << boundedLatency(chosen, r.confidence)
            << (r.training ? " per minibatch, " : " per batch, ") << boundedPower(chosen, r.confidence)
            << ", " << boundedEnergy(chosen, r.confidence)
            << (r.training ? " per sample.\n" : " per inference.\n");
        const std::string confidence = confidenceSentence(r);
        if (!confidence.empty()) out << confidence << "\n";
        out << "Energy per " << (r.training ? "sample" : "inference") << " against the baseline: "
            << (r.savingPercent >= 0 ? fixed(r.savingPercent, 1) + " % less energy"
                                     : fixed(-r.savingPercent, 1) + " % more energy")
            << "\n\n";
    }
    out << "Pareto front ("
        << (r.training ? "time per minibatch vs average power" : "latency vs energy per inference") << ", "
        << front.size() << (front.size() == 1 ? " candidate):\n" : " candidates):\n");
    table.header(out);
    for (size_t i : front)
        table.row(out, r.recommended && *r.recommended == i ? "pareto *" : "pareto", r.candidates[i]);
    if (r.recommended) {
        out << "\nWhy:\n" << r.explanation << "\n\nHow to apply it:\n" << r.nvpmodelBlock;
    }
    return out.str();
}

} // namespace rooftop
