// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor for decoders: every (batch, mode) weighed as the model advisor weighs modes (docs/learn.md,
// "Bounds and confidence"): a limit is met when the value's upper bound at the confidence meets it, the bound
// taken from the prediction's spread; among those that meet every limit, the least energy per output token or
// the most tokens per second.
#include "core/llm/llm_advisor.h"

#include "core/advisor/advisor.h"
#include "core/advisor/explanation.h"
#include "core/common/errors.h"
#include "core/common/text_format.h"
#include "core/device/power_mode.h"
#include "core/llm/llm_writers.h"
#include "core/report/json_writer.h"
#include "core/report/text_table.h"
#include "core/roofline/prediction_spread.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace rooftop {

const char* llmObjectiveName(LlmObjective objective) {
    return objective == LlmObjective::EnergyPerToken ? "energy-per-token" : "tokens-per-second";
}

std::optional<LlmObjective> parseLlmObjective(const std::string& text) {
    if (text == "energy-per-token") return LlmObjective::EnergyPerToken;
    if (text == "tokens-per-second") return LlmObjective::TokensPerSecond;
    return std::nullopt;
}

namespace {

/// The result of `batch` among the advisor's results (one a batch); the first when none is.
const LlmResult& resultAt(const std::vector<LlmResult>& results, int64_t batch) {
    for (const LlmResult& result : results)
        if (result.request.batch == batch) return result;
    return results.front();
}

std::string ms(double seconds) {
    return general(seconds * 1e3, 4) + " ms";
}
std::string watts(double w) {
    return fixed(w, 1) + " W";
}
std::string mj(double joules) {
    return general(joules * 1e3, 4) + " mJ";
}

// True when a is better than b for the objective (ties go to the other quantity).
bool better(const LlmOption& a, const LlmOption& b, LlmObjective objective) {
    const double ea = a.answer->energyPerTokenJoules, eb = b.answer->energyPerTokenJoules;
    const double ta = a.answer->decodeTokensPerSecond, tb = b.answer->decodeTokensPerSecond;
    if (objective == LlmObjective::EnergyPerToken) return ea < eb || (ea == eb && ta > tb);
    return ta > tb || (ta == tb && ea < eb);
}

void weigh(LlmOption& option, const LlmLimits& limits, const LlmResult& result) {
    const double z = normalQuantile(limits.confidence);
    const LlmModeAnswer& a = *option.answer;
    option.tpotHigh = a.tpotSeconds * std::exp(z * a.decodeSpread.latency);
    option.ttftHigh = a.ttftSeconds * std::exp(z * result.ttftSpread);
    // each phase's power at its own error: a predictor's decode, the roofline's prefill
    const Interval decode = intervalAt(a.decodeWatts, a.decodeSpread.power, limits.confidence);
    const Interval prefill = intervalAt(a.prefillWatts, result.prefillPowerSpread, limits.confidence);
    option.powerLow = std::max(decode.low, prefill.low);
    option.powerHigh = std::max(decode.high, prefill.high);
    // a broken limit names the bound that breaks it, and the prediction it bounds
    const auto check = [&](const std::optional<double>& limit, double high, const std::string& what,
                           const std::string& highText, const std::string& predictedText,
                           const std::string& limitText) {
        if (!limit) return;
        option.worstRatio = std::max(option.worstRatio, high / *limit);
        if (high <= *limit) return;
        option.breaks.push_back(what + " " +
                                (highText != predictedText
                                     ? "up to " + highText + " at " + confidenceText(limits.confidence) +
                                           " (predicted " + predictedText + ")"
                                     : highText) +
                                " > " + limitText);
    };
    check(limits.tpotSeconds, option.tpotHigh, "TPOT", ms(option.tpotHigh), ms(a.tpotSeconds),
          limits.tpotSeconds ? ms(*limits.tpotSeconds) : "");
    check(limits.ttftSeconds, option.ttftHigh, "TTFT", ms(option.ttftHigh), ms(a.ttftSeconds),
          limits.ttftSeconds ? ms(*limits.ttftSeconds) : "");
    check(limits.powerWatts, option.powerHigh, "power", watts(option.powerHigh),
          watts(std::max(a.decodeWatts, a.prefillWatts)), limits.powerWatts ? watts(*limits.powerWatts) : "");
}

std::string modeText(const LlmOption& option) {
    return namedModeText(option.answer->profile.mode) + " at batch " + std::to_string(option.batch);
}

// What the objective ranks, lower better: energy a token, or time a token (1 / tokens per second).
double objectiveCost(const LlmOption& o, LlmObjective objective) {
    return objective == LlmObjective::EnergyPerToken ? o.answer->energyPerTokenJoules
                                                     : 1.0 / o.answer->decodeTokensPerSecond;
}

// The options that meet every limit and whose objective lies within `within` (the pick's 1-sigma spread) of
// the pick's.
std::vector<size_t> closeCallsOf(const LlmRecommendation& r, double within) {
    const double pick = objectiveCost(r.options[*r.pick], r.objective);
    std::vector<size_t> close;
    if (!(within > 0) || !(pick > 0) || !std::isfinite(pick)) return close;
    for (size_t i = 0; i < r.options.size(); ++i)
        if (i != *r.pick && r.options[i].breaks.empty() &&
            objectiveCost(r.options[i], r.objective) / pick - 1.0 <= within)
            close.push_back(i);
    std::stable_sort(close.begin(), close.end(),
                     [&](size_t a, size_t b) { return better(r.options[a], r.options[b], r.objective); });
    return close;
}

std::string closeCallReason(const LlmRecommendation& r, const LlmRequest& request) {
    const LlmOption& pick = r.options[*r.pick];
    const size_t count = r.closeCalls.size();
    const std::string quantity =
        r.objective == LlmObjective::EnergyPerToken ? "energy a token" : "time a token";
    std::string text = "a close call: " + std::to_string(count) + " other option" + (count == 1 ? "" : "s") +
                       " predicted within " + fixed(100 * r.closeCallSpread, 1) + " % of its " + quantity +
                       ", the pick's own error (1 sigma), so the predictions do not settle which is best: ";
    std::vector<std::pair<std::string, int64_t>> configurations{{pick.answer->profile.mode.name, pick.batch}};
    for (size_t k = 0; k < std::min(closeCallsNamed, count); ++k) {
        const LlmOption& o = r.options[r.closeCalls[k]];
        const double change = 100 * (objectiveCost(o, r.objective) / objectiveCost(pick, r.objective) - 1);
        text += (k ? ", " : "") + modeText(o) + " (" + signedFixed(change, 1) + " %)";
        configurations.emplace_back(o.answer->profile.mode.name, o.batch);
    }
    if (count > closeCallsNamed)
        return text + " and " + std::to_string(count - closeCallsNamed) +
               " more; measuring settles it: rooftop tune --llm (with a --tpot-slo) finds the least "
               "measured " +
               quantity + " in a few runs";
    return text + "; measuring settles it: run them (rooftop profile --llm --prompt " +
           std::to_string(request.prompt) + " --generate " + std::to_string(request.generate) + " " +
           profileSelection(configurations) + ") and compare their measured " + quantity;
}

void explain(LlmRecommendation& r, const std::vector<LlmResult>& results) {
    const LlmOption& pick = r.options[*r.pick];
    const std::string at = confidenceText(r.limits.confidence);
    const LlmModeAnswer& a = *pick.answer;
    r.reasons.push_back("predicted TPOT " + ms(a.tpotSeconds) + " (≤ " + ms(pick.tpotHigh) + " at " + at +
                        "), TTFT " + ms(a.ttftSeconds) + " (≤ " + ms(pick.ttftHigh) + "), " +
                        general(a.decodeTokensPerSecond, 4) + " tokens/s, " + mj(a.energyPerTokenJoules) +
                        " a token (" + general(a.tokensPerJoule, 4) + " tokens/J), power at most " +
                        watts(std::max(a.decodeWatts, a.prefillWatts)) + " (≤ " + watts(pick.powerHigh) +
                        "; decode " + watts(a.decodeWatts) + ", prefill " + watts(a.prefillWatts) + ")");
    if (r.limits.tpotSeconds || r.limits.ttftSeconds || r.limits.powerWatts) {
        std::string binding;
        double most = 0;
        const auto consider = [&](const std::optional<double>& limit, double high, const char* name) {
            if (limit && high / *limit > most) {
                most = high / *limit;
                binding = name;
            }
        };
        consider(r.limits.tpotSeconds, pick.tpotHigh, "the TPOT limit");
        consider(r.limits.ttftSeconds, pick.ttftHigh, "the TTFT limit");
        consider(r.limits.powerWatts, pick.powerHigh, "the power cap");
        // A limit binds when its bound comes close to it; otherwise the objective alone chose.
        r.reasons.push_back(most >= 0.9 ? binding + " binds: its bound at " + at + " uses " +
                                              fixed(most * 100, 1) + " % of it"
                                        : "no limit binds: the closest, " + binding + ", has its bound at " +
                                              at + " at " + fixed(most * 100, 1) + " % of it");
    }
    if (r.baseline && *r.baseline != *r.pick) {
        const LlmModeAnswer& b = *r.options[*r.baseline].answer;
        const double energy = (a.energyPerTokenJoules / b.energyPerTokenJoules - 1) * 100;
        const double speed = a.decodeTokensPerSecond / b.decodeTokensPerSecond * 100;
        r.reasons.push_back(
            std::string(energy <= 0 ? fixed(-energy, 1) + " % less" : fixed(energy, 1) + " % more") +
            " energy a token than " + modeText(r.options[*r.baseline]) +
            " (the baseline: the stock mode with the least time per token at batch " +
            std::to_string(r.options[*r.baseline].batch) + ", " + mj(b.energyPerTokenJoules) + "), at " +
            fixed(speed, 0) + " % of its tokens per second");
    }
    if (a.decodeBound == Bound::Memory)
        r.reasons.push_back(
            "decode is bandwidth-bound here: the memory (EMC) clock sets TPOT; GPU and CPU clocks above "
            "what decode needs only draw power");
    // the pick's batch: its spreads (a predictor's widen beyond its runs' batches) and what it rests on
    const LlmResult* picked = &resultAt(results, pick.batch);
    r.closeCallSpread =
        r.objective == LlmObjective::EnergyPerToken ? a.decodeSpread.energy : a.decodeSpread.latency;
    r.closeCalls = closeCallsOf(r, r.closeCallSpread);
    if (!r.closeCalls.empty()) r.reasons.push_back(closeCallReason(r, picked->request));
    r.reasons.push_back("numbers: " + llmProvenanceText(a) + "; intervals: " + picked->spreadBasis);
    for (const std::string& assumption : picked->assumptions)
        if (assumption.find("extrapolation") != std::string::npos) r.reasons.push_back(assumption);
}

} // namespace

LlmRecommendation recommendLlm(const std::vector<LlmResult>& results, const LlmLimits& limits,
                               LlmObjective objective) {
    for (const auto& [limit, name] :
         {std::make_pair(limits.tpotSeconds, "--tpot-slo"), std::make_pair(limits.ttftSeconds, "--ttft-slo"),
          std::make_pair(limits.powerWatts, "--power-cap")})
        if (limit && !(*limit > 0 && std::isfinite(*limit)))
            throw InputError(std::string("recommend --llm: ") + name + " must be a positive number");
    if (!(limits.confidence >= minConfidence && limits.confidence <= maxConfidence))
        throw InputError("recommend --llm: --confidence must be from " + general(minConfidence, 3) + " to " +
                         general(maxConfidence, 3) + ", got " + general(limits.confidence, 6));
    LlmRecommendation r;
    r.objective = objective;
    r.limits = limits;
    for (const LlmResult& result : results)
        for (const LlmModeAnswer& answer : result.modes) {
            LlmOption option;
            option.batch = result.request.batch;
            option.answer = &answer;
            weigh(option, limits, result);
            r.options.push_back(option);
        }
    if (r.options.empty()) throw InputError("recommend --llm: no mode to weigh (give --device)");
    for (size_t i = 0; i < r.options.size(); ++i) {
        const LlmOption& o = r.options[i];
        if (o.batch == results.front().request.batch && o.answer->profile.mode.stock &&
            (!r.baseline || o.answer->tpotSeconds < r.options[*r.baseline].answer->tpotSeconds))
            r.baseline = i;
        if (o.breaks.empty() && (!r.pick || better(o, r.options[*r.pick], objective))) r.pick = i;
        if (!r.closest || o.worstRatio < r.options[*r.closest].worstRatio) r.closest = i;
    }
    if (r.pick) r.closest.reset();
    std::vector<size_t> order(r.options.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        const LlmModeAnswer& a = *r.options[x].answer;
        const LlmModeAnswer& b = *r.options[y].answer;
        if (a.decodeTokensPerSecond != b.decodeTokensPerSecond)
            return a.decodeTokensPerSecond > b.decodeTokensPerSecond;
        return a.energyPerTokenJoules < b.energyPerTokenJoules; // of equal speed, the cheaper first
    });
    double leastEnergy = INFINITY;
    for (size_t i : order)
        if (r.options[i].answer->energyPerTokenJoules < leastEnergy) {
            leastEnergy = r.options[i].answer->energyPerTokenJoules;
            r.front.push_back(i);
        }
    if (r.pick) explain(r, results);
    return r;
}

LlmOptionBounds llmOptionBounds(const LlmAdvice& advice, size_t index) {
    const LlmRecommendation& r = advice.recommendation;
    const LlmOption& o = r.options.at(index);
    const double c = r.limits.confidence;
    // its mode's spreads (a predictor's widen far from its runs); a rate is a time's (an energy's)
    // reciprocal: under a log-normal error the same factor either side
    return {intervalAt(o.answer->decodeTokensPerSecond, o.answer->decodeSpread.latency, c),
            intervalAt(o.answer->tokensPerJoule, o.answer->decodeSpread.energy, c)};
}

std::string llmRecommendationHeadline(const LlmRecommendation& r) {
    if (r.pick) {
        const PowerMode& mode = r.options[*r.pick].answer->profile.mode;
        return "Use " + modeText(r.options[*r.pick]) +
               (mode.stock ? std::string() : " (--mode " + mode.name + ")");
    }
    if (!r.closest) return "No batch and mode meets the limits, and none comes close";
    const LlmOption& c = r.options[*r.closest];
    std::string text = "No batch and mode meets the limits at " + confidenceText(r.limits.confidence) +
                       ". Closest: " + modeText(c) + ", which breaks them least: ";
    for (size_t i = 0; i < c.breaks.size(); ++i)
        text += (i ? "; " : "") + c.breaks[i];
    return text;
}

std::string llmRecommendationTable(const std::vector<LlmResult>& results, const LlmRecommendation& r) {
    std::ostringstream out;
    const LlmResult& first = results.front();
    out << "Model: " << first.request.modelPath << " on " << first.device.name << ", prompt "
        << first.request.prompt << ", generate " << first.request.generate << "; objective "
        << llmObjectiveName(r.objective) << "; limits met at " << confidenceText(r.limits.confidence)
        << "\n\n";
    out << llmRecommendationHeadline(r) << "\n";
    if (r.pick)
        for (const std::string& reason : r.reasons)
            out << "  " << reason << "\n";
    out << "\nPareto front (tokens/s against energy a token)\n";
    std::vector<std::vector<std::string>> rows = {{"mode", "batch", "TPOT ms", "TTFT ms", "decode tok/s",
                                                   "mJ/token", "tok/J", "max phase W", "meets limits"}};
    for (size_t i : r.front) {
        const LlmOption& o = r.options[i];
        const LlmModeAnswer& a = *o.answer;
        rows.push_back({namedModeText(a.profile.mode) + (r.pick && i == *r.pick ? "  <- pick" : ""),
                        std::to_string(o.batch), general(a.tpotSeconds * 1e3, 4),
                        general(a.ttftSeconds * 1e3, 4), general(a.decodeTokensPerSecond, 4),
                        general(a.energyPerTokenJoules * 1e3, 4), general(a.tokensPerJoule, 4),
                        fixed(std::max(a.decodeWatts, a.prefillWatts), 1),
                        o.breaks.empty() ? "yes" : o.breaks.front()});
    }
    out << formatTable(rows, 1, "  ");
    return out.str();
}

std::string llmRecommendationJson(const std::vector<LlmResult>& results, const LlmRecommendation& r) {
    const LlmResult& first = results.front();
    const auto optionJson = [&](const LlmOption& o) {
        const LlmModeAnswer& a = *o.answer;
        const LlmResult* of = &resultAt(results, o.batch); // its spreads: a predictor's widen beyond its runs
        const PowerMode& m = a.profile.mode;
        JsonValue v = JsonValue::object();
        v.set("mode", m.name).set("cores", m.onlineCores).set("cpu_khz", m.cpuKhz).set("gpu_hz", m.gpuHz);
        v.set("emc_hz", m.emcHz).set("batch", o.batch);
        v.set("tpot_ms", a.tpotSeconds * 1e3).set("ttft_ms", a.ttftSeconds * 1e3);
        const double c = r.limits.confidence;
        v.set("tpot_ms_interval", intervalJson(a.tpotSeconds * 1e3, a.decodeSpread.latency, c));
        v.set("ttft_ms_interval", intervalJson(a.ttftSeconds * 1e3, of->ttftSpread, c));
        v.set("decode_tok_s", a.decodeTokensPerSecond)
            .set("decode_tok_s_interval", intervalJson(a.decodeTokensPerSecond, a.decodeSpread.latency, c));
        v.set("energy_per_token_mj", a.energyPerTokenJoules * 1e3)
            .set("energy_per_token_mj_interval",
                 intervalJson(a.energyPerTokenJoules * 1e3, a.decodeSpread.energy, c));
        v.set("tokens_per_joule", a.tokensPerJoule)
            .set("tokens_per_joule_interval", intervalJson(a.tokensPerJoule, a.decodeSpread.energy, c));
        // power_w is the decode's, as in rooftop llm; a power cap holds the larger phase
        v.set("power_w", a.decodeWatts).set("prefill_power_w", a.prefillWatts);
        v.set("power_w_interval", intervalJson(a.decodeWatts, a.decodeSpread.power, c))
            .set("prefill_power_w_interval", intervalJson(a.prefillWatts, of->prefillPowerSpread, c));
        v.set("max_phase_power_w", std::max(a.decodeWatts, a.prefillWatts))
            .set("max_phase_power_w_interval", JsonValue::array().append(o.powerLow).append(o.powerHigh));
        v.set("bound", boundName(a.decodeBound));
        v.set("extrapolated", a.extrapolated);
        v.set("provenance", provenanceName(a.provenance))
            .set("prefill_provenance", provenanceName(a.prefillProvenance))
            .set("decode_provenance", provenanceName(a.decodeProvenance))
            .set("breaks", JsonValue::strings(o.breaks));
        return v;
    };
    JsonValue doc = JsonValue::object();
    doc.set("schema", "rooftop-llm-recommend/5");
    doc.set("model", first.request.modelPath).set("device", first.device.id);
    JsonValue workload = JsonValue::object();
    workload.set("prompt", first.request.prompt).set("generate", first.request.generate);
    JsonValue batches = JsonValue::array();
    for (const LlmResult& result : results)
        batches.append(result.request.batch);
    workload.set("batches", batches);
    const AnalysisSettings& settings = first.request.settings;
    workload.set("precision", precisionName(settings.precision))
        .set("traffic", trafficViewName(settings.traffic));
    JsonValue dims = JsonValue::object();
    for (const auto& [name, value] : settings.dims.named)
        dims.set(name, value);
    workload.set("dims", dims);
    doc.set("workload", workload);
    doc.set("objective", llmObjectiveName(r.objective)).set("confidence", r.limits.confidence);
    // the pick's batch's (a predictor's spreads widen beyond its runs' batches), else the first batch's
    const LlmResult& shown = r.pick ? resultAt(results, r.options[*r.pick].batch) : first;
    doc.set("prediction_basis", shown.predictionBasis);
    doc.set("interval_basis", shown.spreadBasis);
    JsonValue limits = JsonValue::object();
    // the limits' names are not the values' (/1 wrote tpot_ms, ttft_ms and power_w)
    // every limit named, null when not set, as recommend and tune write theirs
    const auto limit = [](const std::optional<double>& value, double scale) {
        return value ? JsonValue(*value * scale) : JsonValue();
    };
    limits.set("tpot_slo_ms", limit(r.limits.tpotSeconds, 1e3));
    limits.set("ttft_slo_ms", limit(r.limits.ttftSeconds, 1e3));
    limits.set("power_cap_w", limit(r.limits.powerWatts, 1.0));
    doc.set("limits", limits);
    if (r.baseline) doc.set("baseline", optionJson(r.options[*r.baseline]));
    // as recommend's: `recommended` null without a pick, and then `closest` a list
    if (r.pick) {
        doc.set("recommended", optionJson(r.options[*r.pick]));
        JsonValue close = JsonValue::array();
        const double pickCost = objectiveCost(r.options[*r.pick], r.objective);
        for (size_t k = 0; k < std::min(closestCount, r.closeCalls.size()); ++k) {
            JsonValue option = optionJson(r.options[r.closeCalls[k]]);
            // of energy a token, or of time a token (the objective's quantity, as the reason says)
            option.set("difference_pct",
                       100 * (objectiveCost(r.options[r.closeCalls[k]], r.objective) / pickCost - 1));
            close.append(option);
        }
        doc.set("close_calls", close);
        doc.set("close_call_count", double(r.closeCalls.size()));
        doc.set("close_call_within_pct", 100 * r.closeCallSpread);
    } else {
        doc.set("recommended", JsonValue());
        JsonValue closest = JsonValue::array();
        if (r.closest) closest.append(optionJson(r.options[*r.closest]));
        doc.set("closest", closest);
    }
    JsonValue front = JsonValue::array();
    for (size_t i : r.front)
        front.append(optionJson(r.options[i]));
    doc.set("pareto", front);
    doc.set("reasons", JsonValue::strings(r.reasons));
    return doc.toIndentedJson();
}

LlmAdvice adviseLlm(LlmRequest request, const std::vector<int64_t>& batches, const LlmLimits& limits,
                    LlmObjective objective) {
    LlmAdvice advice;
    for (int64_t batch : batches) {
        request.batch = batch;
        LlmResult result = runLlmAnalysis(request);
        if (!result.memory.fits) {
            advice.tooBig.push_back(std::to_string(batch) + " (" + gibText(result.memory.totalBytes) + ")");
            continue;
        }
        advice.results.push_back(std::move(result));
    }
    if (advice.results.empty()) {
        std::string tooBig;
        for (const std::string& batch : advice.tooBig)
            tooBig += (tooBig.empty() ? "" : ", ") + batch;
        throw InputError(request.modelPath + ": no batch fits in the memory " + request.deviceId +
                         " leaves usable: " + tooBig);
    }
    advice.recommendation = recommendLlm(advice.results, limits, objective);
    return advice;
}

} // namespace rooftop
