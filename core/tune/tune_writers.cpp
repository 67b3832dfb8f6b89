// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tune/tune_writers.h"

#include "core/common/runner_name.h"
#include "core/common/text_format.h"
#include "core/measure/runner_spec.h"
#include "core/onnx/dim_text.h"
#include "core/report/json_values.h"
#include "core/report/prediction_bounds.h"
#include "core/report/text_table.h"
#include "core/roofline/prediction_spread.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace rooftop {

namespace {

/// The prior's own error on what a tune runs: decode steps for an LLM tune (its latency is TPOT), whole
/// passes otherwise.
PredictionSpread tunedPriorSpread(const TuneReport& r) {
    return r.options.llm.active() ? priorDecodeSpread() : priorSpread();
}

/// The prior's own error, as the predicted columns' uncertainty.
std::string priorSpreadText(const TuneReport& r) {
    const PredictionSpread s = tunedPriorSpread(r);
    return "1 sigma " + fixed(100 * s.latency, 0) + " % time, " + fixed(100 * s.energy, 0) +
           " % energy (the prior's own error)";
}

QJsonValue number(double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

std::string num(double v, int digits = 4) {
    return std::isfinite(v) ? general(v, digits) : "-";
}

// a column's values with the same decimals, as recommend writes them: ms to the µs, W and mJ to 0.01
std::string figure(double v, int decimals) {
    return std::isfinite(v) ? fixed(v, decimals) : "-";
}
std::string ms(double v) {
    return figure(v, 3);
}
std::string hundredths(double v) {
    return figure(v, 2);
}

QJsonObject sampleJson(const TuneReport& r, size_t index) {
    const TuneSample& s = r.outcome.samples[index];
    const TuneConfig& c = r.space.configs[s.config];
    QJsonObject o;
    o["index"] = qint64(index);
    o["mode"] = QString::fromStdString(c.mode.name);
    o["cores"] = c.mode.onlineCores;
    o["cpu_khz"] = qint64(c.mode.cpuKhz);
    o["gpu_hz"] = qint64(c.mode.gpuHz);
    o["emc_hz"] = qint64(c.mode.emcHz);
    o["batch"] = qint64(c.batch);
    o["precision"] = QString::fromStdString(precisionName(c.precision));
    o["latency_ms"] = number(s.latencyMs);
    o["power_w"] = number(s.powerW);
    o["energy_mj"] = number(s.energyMj);
    o["feasible"] = s.feasible;
    o["reason"] = QString::fromStdString(s.reason);
    o["measurements"] = s.measurements;
    o["own_runs"] = s.ownRuns;
    const std::string provenance =
        runProvenance(s.runner.empty() ? r.runner : s.runner); // the run's own runner
    // the provenance word alone (tune/2 added " (runs file)" or wrote "failed"); whether the runs file had it
    o["provenance"] = s.ok ? QJsonValue(QString::fromStdString(provenance)) : QJsonValue(QJsonValue::Null);
    o["resumed"] = s.resumed;
    // Rooftop's roofline before any run, with the prior's own error at the tables' confidence
    const PredictionSpread prior = tunedPriorSpread(r);
    const auto bounds = [](double value, double spread) {
        return std::isfinite(value) && value > 0 ? QJsonValue(boundsJson(value, spread, 1.0))
                                                 : QJsonValue(QJsonValue::Null);
    };
    o["predicted_provenance"] = "estimate";
    o["predicted_latency_ms"] = number(s.predictedLatencyMs);
    o["predicted_latency_ms_interval"] = bounds(s.predictedLatencyMs, prior.latency);
    o["predicted_power_w"] = number(s.predictedPowerW);
    o["predicted_power_w_interval"] = bounds(s.predictedPowerW, prior.power);
    o["predicted_energy_mj"] = number(s.predictedEnergyMj);
    o["predicted_energy_mj_interval"] = bounds(s.predictedEnergyMj, prior.energy);
    // null (their NaN) where the search did not choose the sample: a resumed row, a start before any
    // surrogate
    o["surrogate_latency_ms"] = number(s.surrogateLatencyMs);
    o["surrogate_energy_mj"] = number(s.surrogateEnergyMj);
    o["expected_improvement"] = number(s.expectedImprovement);
    return o;
}

std::string modeText(const PowerMode& mode, bool readable) {
    return readable ? readableModeName(mode) : mode.name;
}

std::string describeConfig(const TuneConfig& c, bool readable) {
    return modeText(c.mode, readable) + " batch " + std::to_string(c.batch) + " " +
           precisionName(c.precision);
}

std::string limitsText(const TuneOptions& o) {
    std::string text =
        (o.phase == Phase::Training ? "training steps (" + optimizerName(o.optimizer) + "), " : "") +
        std::string(o.llm.active() ? "TPOT SLO " : "latency SLO ") +
        num(o.limits.latencySloSeconds.value_or(NAN) * 1e3) + " ms";
    if (o.limits.powerCapWatts) text += ", power cap " + num(*o.limits.powerCapWatts) + " W";
    return text;
}

/// "Recommended (simulated, within the limits): MODE batch 1 fp32: 6.8 ms, 32.2 W, 219.5 mJ per inference".
std::string recommendedText(const TuneReport& r, bool readableModes) {
    const TuneSample& s = r.outcome.samples[*r.outcome.recommended];
    const bool llm = r.options.llm.active();
    return "Recommended (" + runProvenance(r.runner) +
           ", within the limits): " + describeConfig(r.space.configs[s.config], readableModes) + ": " +
           ms(s.latencyMs) + (llm ? " ms TPOT, " : " ms, ") + hundredths(s.powerW) + " W, " +
           hundredths(s.energyMj) + " mJ per " + energyItem(r.options);
}

} // namespace

std::string tuneTable(const TuneReport& r, bool readableModes) {
    const TuneOutcome& out = r.outcome;
    std::string text = "Tune of " + modelAtDims(r.model, r.options.dims) + " on " + r.device.id + ": " +
                       tuneMethodName(r.options.method) + ", budget " + std::to_string(r.options.budget) +
                       ", " + limitsText(r.options) + ", objective " + objectiveName(r.options.objective) +
                       "\n";
    text += "Runner: " + r.runner +
            (isSimulatedRunner(r.runner) ? " (a simulated board, not a measurement of this machine)" : "") +
            "; power: " + (r.powerSource.empty() ? "the runner's own" : r.powerSource) + "\n";
    const bool llm = r.options.llm.active();
    const bool training = r.options.phase == Phase::Training;
    // energy per output token, per training sample, or per inference
    const std::string perItem = llm ? "token" : training ? "sample" : "inf";
    if (llm)
        text +=
            "Each run a generation of " + std::to_string(r.options.llm.generate) +
            " tokens after a prompt of " + std::to_string(r.options.llm.prompt) +
            ": latency is its time per output token (TPOT, a decode step of the batch's sequences), energy "
            "per output token from the generation's average power\n";
    text += "Space: " + std::to_string(r.space.candidates) + " configurations\n\n";
    std::vector<std::vector<std::string>> rows = {
        {"#", "mode", "batch", "prec", llm ? "TPOT ms" : "latency ms", "power W", "energy mJ/" + perItem,
         "predicted ms", "predicted mJ/" + perItem, "limits"}};
    for (size_t i = 0; i < out.samples.size(); ++i) {
        const TuneSample& s = out.samples[i];
        const TuneConfig& c = r.space.configs[s.config];
        // "met" only beyond the run noise, as the answer is chosen; a mean just under a limit may lie over it
        std::string mark = !s.feasible                         ? s.reason
                           : confidentlyFeasible(s, r.options) ? "met"
                                                               : "met within its run noise";
        if (s.resumed) mark += s.ownAttempts > 0 ? " (runs file)" : " (earlier runs)";
        if (s.measurements > 1) mark += " (mean of " + std::to_string(s.measurements) + " runs)";
        if (out.recommended && *out.recommended == i) mark += " <- recommended";
        if (out.baseline && *out.baseline == i) mark += " <- baseline";
        rows.push_back({std::to_string(i + 1), modeText(c.mode, readableModes), std::to_string(c.batch),
                        precisionName(c.precision), ms(s.latencyMs), hundredths(s.powerW),
                        hundredths(s.energyMj), ms(s.predictedLatencyMs), hundredths(s.predictedEnergyMj),
                        mark});
    }
    text += formatTable(rows, 2, "  ");
    const std::string measured = runProvenance(r.runner);
    text += "  (latency, power and energy " + measured + " by the runner" +
            (measured == "simulated" ? ", not measured on this machine" : "") +
            "; predicted: Rooftop's roofline before any run, " + priorSpreadText(r) + ")\n\n";
    text += "Stopped: " + out.stopReason + "\n";
    text += "Runs: " + std::to_string(out.runsMade + out.resumed) + " of the budget's " +
            std::to_string(r.options.budget) + " over " + std::to_string(out.samples.size()) +
            " configurations: " + std::to_string(out.runsMade) + " made now" +
            (out.repeats > 0
                 ? " (" + std::to_string(out.repeats) + " of them repeats of configurations run before)"
                 : std::string()) +
            (out.resumed > 0
                 ? ", " + std::to_string(out.resumed) + " made earlier by this tune (" + out.origin + ")"
                 : std::string()) +
            "; runs file " + r.options.runsPath + "\n";
    if (out.priorRuns > 0 || out.otherRunner > 0)
        text += "Earlier runs: " + std::to_string(out.priorRuns) +
                " made by profile, plan or other tunes, used as information (not budget, never the answer "
                "unless run again)" +
                (out.otherRunner > 0 ? "; " + std::to_string(out.otherRunner) + " by another runner left out"
                                     : std::string()) +
                "\n";
    if (!out.caveat.empty()) text += "Note: " + out.caveat + "\n";
    const std::string unit = energyItem(r.options);
    if (out.baseline) {
        const TuneSample& b = out.samples[*out.baseline];
        text += "Baseline (" + measured + "): " + describeConfig(r.space.configs[b.config], readableModes) +
                ": " + ms(b.latencyMs) + (llm ? " ms TPOT, " : " ms, ") + hundredths(b.powerW) + " W, " +
                hundredths(b.energyMj) + " mJ per " + unit + "\n";
    }
    if (out.recommended) {
        const TuneSample& s = out.samples[*out.recommended];
        text += recommendedText(r, readableModes) + "\n";
        text += "  predicted by Rooftop's roofline: " + ms(s.predictedLatencyMs) + " ms (" +
                figure(100 * (s.predictedLatencyMs / s.latencyMs - 1), 1) + " % off), " +
                hundredths(s.predictedEnergyMj) + " mJ per " + unit + " (" +
                figure(100 * (s.predictedEnergyMj / s.energyMj - 1), 1) + " % off)\n";
        if (out.baseline && !std::isfinite(out.savingPercent))
            text += "  saving against the baseline: unknown (energy was not measured)\n";
        else if (out.baseline && out.savingPercent >= 0)
            text += "  saving against the baseline (both " + measured + "): " + fixed(out.savingPercent, 1) +
                    " % of energy per " + unit + "\n";
        else if (out.baseline) // the limits ruled the baseline out: the answer costs more, said as such
            text += "  against the baseline (both " + measured + "): " + fixed(-out.savingPercent, 1) +
                    " % more energy per " + unit + "\n";
        text += "\n" + r.nvpmodel + "\n";
    } else {
        text += "No " + measured + " configuration met the limits (" + limitsText(r.options) + ")";
        text += out.closest.empty() ? std::string(", and no run succeeded: nothing to show as closest.\n")
                                    : ". Closest " + measured + ":\n";
        for (size_t i : out.closest) {
            const TuneSample& s = out.samples[i];
            text += "  " + describeConfig(r.space.configs[s.config], readableModes) + ": " + ms(s.latencyMs) +
                    " ms, " + hundredths(s.powerW) + " W (" + s.reason + ")\n";
        }
    }
    return text;
}

std::string tuneAnswerLine(const TuneReport& r, bool readableModes) {
    const TuneOutcome& out = r.outcome;
    const std::string measured = runProvenance(r.runner);
    if (!out.recommended)
        return "No " + measured + " configuration met the limits (" + limitsText(r.options) + ")";
    std::string line = recommendedText(r, readableModes);
    if (out.baseline && std::isfinite(out.savingPercent))
        line += "; " + fixed(std::abs(out.savingPercent), 1) +
                (out.savingPercent >= 0 ? " % less" : " % more") + " energy than the baseline";
    return line;
}

std::string tuneJson(const TuneReport& r) {
    const TuneOutcome& out = r.outcome;
    QJsonObject root;
    root["schema"] = "rooftop-tune/4";
    root["prediction_basis"] =
        QString::fromStdString("Rooftop's roofline before any run; " +
                               (r.options.llm.active() ? priorDecodeSpreadBasis() : priorSpreadBasis()));
    root["confidence"] = tableBoundsConfidence; // of the predicted values' intervals
    root["device"] = QString::fromStdString(r.device.id);
    root["model"] = QString::fromStdString(r.modelPath);
    root["dims"] = namedDimsJson(r.options.dims);
    root["budget"] = r.options.budget;
    root["search"] = tuneMethodName(r.options.method);
    root["objective"] = objectiveName(r.options.objective);
    root["phase"] = QString::fromStdString(phaseName(r.options.phase));
    if (r.options.phase == Phase::Training)
        root["optimizer"] = QString::fromStdString(optimizerName(r.options.optimizer));
    if (r.options.llm.active()) {
        // latency_ms and energy_mj of the samples are then a decode step's (TPOT) and one output token's
        QJsonObject llm;
        llm["prompt"] = qint64(r.options.llm.prompt);
        llm["generate"] = qint64(r.options.llm.generate);
        llm["latency"] = "tpot";
        llm["energy"] = "per output token";
        root["llm"] = llm;
    }
    QJsonObject limits;
    limits["latency_slo_ms"] = number(r.options.limits.latencySloSeconds.value_or(NAN) * 1e3);
    limits["power_cap_w"] = number(r.options.limits.powerCapWatts.value_or(NAN));
    root["limits"] = limits;
    root["runner"] = QString::fromStdString(r.runner);
    root["runs_file"] = QString::fromStdString(r.options.runsPath);
    root["space"] = qint64(r.space.candidates);
    root["runs_made"] = out.runsMade;
    root["resumed"] = out.resumed;
    root["repeats"] = out.repeats;
    root["prior_runs"] = out.priorRuns;
    root["other_runner_runs"] = out.otherRunner;
    root["origin"] = QString::fromStdString(out.origin);
    root["stop"] = QString::fromStdString(out.stopReason);
    root["caveat"] =
        out.caveat.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QString::fromStdString(out.caveat));
    QJsonArray samples;
    for (size_t i = 0; i < out.samples.size(); ++i)
        samples.append(sampleJson(r, i));
    root["samples"] = samples;
    if (out.recommended) {
        QJsonObject rec = sampleJson(r, *out.recommended);
        rec["saving_pct"] = out.baseline && std::isfinite(out.savingPercent) ? QJsonValue(out.savingPercent)
                                                                             : QJsonValue(QJsonValue::Null);
        rec["nvpmodel"] = QString::fromStdString(r.nvpmodel);
        root["recommended"] = rec;
    } else {
        root["recommended"] = QJsonValue(QJsonValue::Null);
    }
    QJsonArray closest;
    for (size_t i : out.closest)
        closest.append(sampleJson(r, i));
    root["closest"] = closest;
    root["baseline"] = out.baseline ? QJsonValue(sampleJson(r, *out.baseline)) : QJsonValue(QJsonValue::Null);
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

} // namespace rooftop
