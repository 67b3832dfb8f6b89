// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/llm/llm_writers.h"

#include "core/common/text_format.h"
#include "core/device/power_mode.h"
#include "core/report/json_values.h"
#include "core/report/json_writer.h"
#include "core/report/prediction_bounds.h"
#include "core/report/text_table.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace rooftop {
namespace {

std::string giga(int64_t value) {
    return fixed(double(value) / 1e9, 3);
}
std::string mega(int64_t value) {
    return fixed(double(value) / 1e6, 2);
}
std::string ms(double seconds) {
    return significant(seconds * 1e3, 4);
}

std::vector<std::string> countRow(const std::string& label, int64_t tokens, const LlmCounts& c) {
    return {label,         std::to_string(tokens), giga(c.macs),        giga(c.flops),
            mega(c.bytes), mega(c.weightBytes),    mega(c.kvReadBytes), mega(c.kvWriteBytes)};
}

JsonValue countsJson(const LlmCounts& c) {
    JsonValue o = JsonValue::object();
    o.set("macs", c.macs).set("flops", c.flops).set("sfu_ops", c.sfuOps).set("bytes", c.bytes);
    o.set("weight_bytes", c.weightBytes)
        .set("kv_read_bytes", c.kvReadBytes)
        .set("kv_write_bytes", c.kvWriteBytes);
    return o;
}

std::string generationBasis(const DecodeSeries& g) {
    return g.affine ? "exact: every layer's counts are affine in the context (checked at contexts " +
                          std::to_string(g.firstContext) + ", " +
                          std::to_string(g.points.size() > 2 ? g.points[1].pass.context() : g.lastContext) +
                          " and " + std::to_string(g.lastContext) + ")"
                    : "trapezoidal from " + std::to_string(g.points.size()) +
                          " counted steps: the counts are not affine in the context";
}

std::string memoryLine(const LlmResult& r) {
    const LlmMemory& m = r.memory;
    std::string line = "weights " + gibText(m.weightBytes) + " + KV cache " + gibText(m.kvBytes) + " (" +
                       fixed(double(m.kvBytesPerToken) / 1024.0, 1) +
                       " KiB a token a sequence) + activations " + gibText(m.activationBytes) + " = " +
                       gibText(m.totalBytes);
    if (m.boardBytes == 0) return line + " (no board given)";
    line += " of " + gibText(m.usableBytes()) + " usable (" + gibText(m.boardBytes) + " on the board, " +
            gibText(m.reservedBytes) + " left to the OS): ";
    if (m.fits) return line + "fits";
    return line + "does not fit; at batch " + std::to_string(r.request.batch) + " the largest context is " +
           std::to_string(m.largestContext) + (m.contextByPositions ? " (the model's position table)" : "") +
           ", the largest batch " + std::to_string(m.largestBatch);
}

} // namespace

std::string llmTable(const LlmResult& r) {
    std::ostringstream out;
    const LlmSignature& s = r.signature;
    out << "Model: " << r.request.modelPath << " (" << llmExportStyleName(s.style) << ", " << s.caches.size()
        << " layers with a KV cache, " << s.kvHeads << " KV heads x " << s.headDim << ", "
        << dataTypeName(s.kvType) << ")\n";
    out << "Workload: prompt " << r.request.prompt << ", generate " << r.request.generate << ", batch "
        << r.request.batch << ", precision " << precisionName(r.request.settings.precision) << ", traffic "
        << trafficViewName(r.request.settings.traffic) << "\n";
    for (const std::string& line : s.roles.readFrom)
        out << "Dims: " << line << "\n";
    for (const std::string& line : r.assumptions)
        out << "Assumed: " << line << "\n";
    out << "\nCounts (G = 1e9, MB = 1e6 bytes)\n";
    std::vector<std::vector<std::string>> rows = {
        {"pass", "tokens", "GMACs", "GFLOPs", "MB", "MB weights", "MB KV read", "MB KV write"}};
    rows.push_back(countRow("prefill", r.request.batch * r.request.prompt, countsOf(r.prefill)));
    for (const LlmPassCount& step : r.decodeSteps)
        rows.push_back(countRow("decode at context " + std::to_string(step.pass.context()), r.request.batch,
                                countsOf(step)));
    rows.push_back(countRow("generation (" + std::to_string(r.generation.steps()) + " steps)",
                            r.request.batch * r.generation.steps(), r.generation.sum));
    out << formatTable(rows, 1, "  ");
    out << "  the generation's sum is " << generationBasis(r.generation) << "\n";
    out << "\nMemory: " << memoryLine(r) << "\n";
    if (r.modes.empty()) return out.str();

    const std::string runtimes = r.prefillRuntime.name == r.runtime.name
                                     ? r.runtime.name
                                     : r.prefillRuntime.name + " / " + r.runtime.name;
    const double c = r.request.confidence;
    out << "\nModes on " << r.device.name << " (" << runtimes << "; "
        << (r.request.predictorPath.empty() ? "predicted from the roofline" : "TPOT from the predictor");
    // the decode's calibration, else the prefill's (a runtimes file of both phases has one origin)
    const std::string calibrated =
        r.runtime.calibrated ? calibrationWords(r.runtime) : calibrationWords(r.prefillRuntime);
    if (!calibrated.empty()) out << ", its runtime " << calibrated;
    out << ")\n";
    std::vector<std::vector<std::string>> modeRows = {{"mode", "TTFT ms", "TPOT ms", "TPOT first..last",
                                                       "prefill tok/s", "decode tok/s", "mJ/token", "tok/J",
                                                       "decode W", "decode bound", "provenance"}};
    for (const LlmModeAnswer& m : r.modes)
        modeRows.push_back(
            {namedModeText(m.profile.mode),
             withBounds(ms(m.ttftSeconds), m.ttftSeconds, r.ttftSpread, 1e3, c),
             withBounds(ms(m.tpotSeconds), m.tpotSeconds, m.decodeSpread.latency, 1e3, c),
             ms(m.tpotFirstSeconds) + ".." + ms(m.tpotLastSeconds),
             withBounds(tokenRate(m.prefillTokensPerSecond), m.prefillTokensPerSecond, r.ttftSpread, 1.0, c),
             withBounds(tokenRate(m.decodeTokensPerSecond), m.decodeTokensPerSecond, m.decodeSpread.latency,
                        1.0, c),
             withBounds(significant(m.energyPerTokenJoules * 1e3, 4), m.energyPerTokenJoules,
                        m.decodeSpread.energy, 1e3, c),
             withBounds(significant(m.tokensPerJoule, 4), m.tokensPerJoule, m.decodeSpread.energy, 1.0, c),
             withBounds(significant(m.decodeWatts, 3), m.decodeWatts, m.decodeSpread.power, 1.0, c),
             passBoundName(m.decodeBound), llmProvenanceText(m)});
    out << formatTable(modeRows, 1, "  ");
    if (c > 0.5 && (r.spread.latency > 0 || r.ttftSpread > 0 || r.spread.energy > 0 || r.spread.power > 0))
        out << "  " << boundsLegendText(r.spreadBasis, c) << "\n";
    if (!r.sweepContexts.empty()) {
        out << "\nTPOT ms against context\n";
        std::vector<std::vector<std::string>> sweepRows = {{"context"}};
        for (const LlmModeAnswer& m : r.modes)
            sweepRows[0].push_back(m.profile.mode.name);
        for (size_t i = 0; i < r.sweepContexts.size(); ++i) {
            std::vector<std::string> row = {std::to_string(r.sweepContexts[i])};
            for (const LlmModeAnswer& m : r.modes)
                row.push_back(ms(m.sweepTpotSeconds[i]));
            sweepRows.push_back(row);
        }
        out << formatTable(sweepRows, 1, "  ");
    }
    return out.str();
}

namespace {

/// The CSV columns every row starts with, "mode,...,batch": the mode's clocks and the request's workload.
const char* const workloadColumns = "mode,cores,cpu_khz,gpu_hz,emc_hz,prompt,generate,batch,";

/// A row's first fields, as workloadColumns names them.
std::string workloadFields(const LlmResult& r, const PowerMode& mode) {
    std::ostringstream out;
    out << csvField(mode.name) << ',' << mode.onlineCores << ',' << mode.cpuKhz << ',' << mode.gpuHz << ','
        << mode.emcHz << ',' << r.request.prompt << ',' << r.request.generate << ',' << r.request.batch
        << ',';
    return out.str();
}

/// --context-sweep's CSV: TPOT at every swept context in every mode, one row each. Its rows are decode steps
/// at a context, not the request's generation: no prompt or generate columns.
std::string sweepCsv(const LlmResult& r) {
    std::ostringstream out;
    out << "mode,cores,cpu_khz,gpu_hz,emc_hz,batch,context,tpot_ms,provenance,tpot_ms_low,tpot_ms_high,"
           "bounds_confidence\n";
    for (const LlmModeAnswer& m : r.modes) {
        const PowerMode& mode = m.profile.mode;
        std::ostringstream first;
        first << csvField(mode.name) << ',' << mode.onlineCores << ',' << mode.cpuKhz << ',' << mode.gpuHz
              << ',' << mode.emcHz << ',' << r.request.batch << ',';
        const std::string fields = first.str();
        for (size_t i = 0; i < r.sweepContexts.size(); ++i)
            out << fields << r.sweepContexts[i] << ',' << general(m.sweepTpotSeconds[i] * 1e3, 6) << ','
                << provenanceName(m.decodeProvenance)
                << boundsCsv(m.sweepTpotSeconds[i], m.decodeSpread.latency, 1e3, r.request.confidence)
                << boundsConfidenceCsv(r.request.confidence) << '\n';
    }
    return out.str();
}

} // namespace

std::string llmCsv(const LlmResult& r) {
    if (!r.sweepContexts.empty()) return sweepCsv(r);
    std::ostringstream out;
    out << workloadColumns
        << "ttft_ms,tpot_ms,tpot_first_ms,tpot_last_ms,"
           "prefill_tok_s,decode_tok_s,energy_per_token_mj,tokens_per_joule,power_w,end_to_end_ms,"
           "end_to_end_mj,prefill_bound,bound,provenance,ttft_ms_low,ttft_ms_high,tpot_ms_low,tpot_ms_high,"
           "energy_per_token_mj_low,energy_per_token_mj_high,power_w_low,power_w_high,prefill_provenance,"
           "decode_provenance,prefill_power_w,prefill_power_w_low,prefill_power_w_high,bounds_confidence\n";
    const double c = r.request.confidence;
    for (const LlmModeAnswer& m : r.modes) {
        out << workloadFields(r, m.profile.mode) << general(m.ttftSeconds * 1e3, 6) << ','
            << general(m.tpotSeconds * 1e3, 6) << ',' << general(m.tpotFirstSeconds * 1e3, 6) << ','
            << general(m.tpotLastSeconds * 1e3, 6) << ',' << general(m.prefillTokensPerSecond, 6) << ','
            << general(m.decodeTokensPerSecond, 6) << ',' << general(m.energyPerTokenJoules * 1e3, 6) << ','
            << general(m.tokensPerJoule, 6) << ',' << general(m.decodeWatts, 6) << ','
            << general(m.endToEndSeconds * 1e3, 6) << ',' << general(m.endToEndJoules * 1e3, 6) << ','
            << boundName(m.prefillBound) << ',' << boundName(m.decodeBound) << ','
            << provenanceName(m.provenance) << boundsCsv(m.ttftSeconds, r.ttftSpread, 1e3, c)
            << boundsCsv(m.tpotSeconds, m.decodeSpread.latency, 1e3, c)
            << boundsCsv(m.energyPerTokenJoules, m.decodeSpread.energy, 1e3, c)
            << boundsCsv(m.decodeWatts, m.decodeSpread.power, 1.0, c) << ','
            << provenanceName(m.prefillProvenance) << ',' << provenanceName(m.decodeProvenance) << ','
            << general(m.prefillWatts, 6) << boundsCsv(m.prefillWatts, r.prefillPowerSpread, 1.0, c)
            << boundsConfidenceCsv(c) << '\n';
    }
    return out.str();
}

std::string llmJson(const LlmResult& r) {
    const LlmSignature& s = r.signature;
    JsonValue doc = JsonValue::object();
    doc.set("schema", "rooftop-llm/5");
    JsonValue model = JsonValue::object();
    model.set("path", r.request.modelPath).set("style", llmExportStyleName(s.style));
    model.set("kv_layers", int64_t(s.caches.size())).set("kv_heads", s.kvHeads).set("head_dim", s.headDim);
    model.set("kv_type", dataTypeName(s.kvType));
    if (s.maxPositions) model.set("max_positions", *s.maxPositions);
    doc.set("model", model);
    // which of the model's symbols plays which part (llm/4 named this "dims"); "dims" the values bound, as
    // everywhere
    JsonValue roles = JsonValue::object();
    roles.set("batch", s.roles.batch).set("sequence", s.roles.sequence).set("past", s.roles.past);
    if (!s.roles.total.empty()) roles.set("total", s.roles.total);
    doc.set("dim_roles", roles);
    JsonValue dims = JsonValue::object();
    for (const auto& [name, value] : r.request.settings.dims.named)
        dims.set(name, value);
    doc.set("dims", dims);
    doc.set("prediction_basis", r.predictionBasis);
    doc.set("assumptions", JsonValue::strings(r.assumptions));
    doc.set("extrapolated", r.extrapolated);
    JsonValue workload = JsonValue::object();
    workload.set("prompt", r.request.prompt)
        .set("generate", r.request.generate)
        .set("batch", r.request.batch);
    workload.set("precision", precisionName(r.request.settings.precision));
    workload.set("traffic", trafficViewName(r.request.settings.traffic));
    doc.set("workload", workload);
    JsonValue prefill = countsJson(countsOf(r.prefill));
    prefill.set("tokens", r.request.batch * r.request.prompt);
    doc.set("prefill", prefill);
    JsonValue decode = JsonValue::array();
    for (const LlmPassCount& step : r.decodeSteps)
        decode.append(
            countsJson(countsOf(step)).set("context", step.pass.context()).set("past", step.pass.past));
    doc.set("decode", decode);
    JsonValue generation = countsJson(r.generation.sum);
    generation.set("steps", r.generation.steps()).set("exact", r.generation.affine);
    generation.set("basis", generationBasis(r.generation));
    doc.set("generation", generation);
    const LlmMemory& m = r.memory;
    JsonValue memory = JsonValue::object();
    memory.set("weight_bytes", m.weightBytes).set("kv_bytes_per_token", m.kvBytesPerToken);
    memory.set("kv_bytes", m.kvBytes)
        .set("activation_bytes", m.activationBytes)
        .set("total_bytes", m.totalBytes);
    memory.set("board_bytes", m.boardBytes).set("reserved_bytes", m.reservedBytes);
    // Weights and KV cache are counted; the board's memory is the catalog's datasheet value; the reserve and
    // the activations are estimates.
    memory.set("board_provenance", "datasheet").set("reserved_provenance", "estimate");
    memory.set("activation_provenance", "estimate");
    memory.set("fits", m.fits).set("largest_context", m.largestContext).set("largest_batch", m.largestBatch);
    memory.set("largest_context_bound", m.contextByPositions ? "positions" : "memory");
    doc.set("memory", memory);
    if (!r.modes.empty()) {
        doc.set("device", r.device.id)
            .set("runtime", toJsonValue(runtimeSummaryJson(r.runtime)))
            .set("prefill_runtime", toJsonValue(runtimeSummaryJson(r.prefillRuntime)));
        doc.set("confidence", r.request.confidence).set("interval_basis", r.spreadBasis);
    }
    const double c = r.request.confidence;
    JsonValue modes = JsonValue::array();
    for (const LlmModeAnswer& a : r.modes) {
        const PowerMode& mode = a.profile.mode;
        JsonValue o = JsonValue::object();
        o.set("mode", mode.name).set("cores", mode.onlineCores).set("cpu_khz", mode.cpuKhz);
        o.set("gpu_hz", mode.gpuHz).set("emc_hz", mode.emcHz);
        o.set("ttft_ms", a.ttftSeconds * 1e3)
            .set("ttft_ms_interval", intervalJson(a.ttftSeconds * 1e3, r.ttftSpread, c));
        o.set("tpot_ms", a.tpotSeconds * 1e3)
            .set("tpot_ms_interval", intervalJson(a.tpotSeconds * 1e3, a.decodeSpread.latency, c));
        o.set("tpot_first_ms", a.tpotFirstSeconds * 1e3).set("tpot_last_ms", a.tpotLastSeconds * 1e3);
        // a rate's interval is its time's, turned over (the log error is symmetric)
        o.set("prefill_tok_s", a.prefillTokensPerSecond)
            .set("prefill_tok_s_interval", intervalJson(a.prefillTokensPerSecond, r.ttftSpread, c));
        o.set("decode_tok_s", a.decodeTokensPerSecond)
            .set("decode_tok_s_interval", intervalJson(a.decodeTokensPerSecond, a.decodeSpread.latency, c));
        o.set("energy_per_token_mj", a.energyPerTokenJoules * 1e3);
        o.set("energy_per_token_mj_interval",
              intervalJson(a.energyPerTokenJoules * 1e3, a.decodeSpread.energy, c));
        o.set("tokens_per_joule", a.tokensPerJoule)
            .set("tokens_per_joule_interval", intervalJson(a.tokensPerJoule, a.decodeSpread.energy, c));
        o.set("power_w", a.decodeWatts)
            .set("power_w_interval", intervalJson(a.decodeWatts, a.decodeSpread.power, c));
        o.set("prefill_power_w", a.prefillWatts)
            .set("prefill_power_w_interval", intervalJson(a.prefillWatts, r.prefillPowerSpread, c));
        // the roofline's words and units (the tables say "bandwidth", as LLM users do)
        // a sum's relative error is a weighted mean of its parts': the larger part's spread bounds it
        const double prefillEnergySpread =
            std::sqrt(r.ttftSpread * r.ttftSpread + r.prefillPowerSpread * r.prefillPowerSpread);
        o.set("end_to_end_ms", a.endToEndSeconds * 1e3)
            .set("end_to_end_ms_interval",
                 intervalJson(a.endToEndSeconds * 1e3, std::max(r.ttftSpread, a.decodeSpread.latency), c));
        o.set("end_to_end_mj", a.endToEndJoules * 1e3)
            .set("end_to_end_mj_interval",
                 intervalJson(a.endToEndJoules * 1e3, std::max(prefillEnergySpread, a.decodeSpread.energy),
                              c));
        o.set("bound", boundName(a.decodeBound)).set("prefill_bound", boundName(a.prefillBound));
        o.set("extrapolated", a.extrapolated);
        o.set("provenance", provenanceName(a.provenance))
            .set("prefill_provenance", provenanceName(a.prefillProvenance))
            .set("decode_provenance", provenanceName(a.decodeProvenance));
        if (!r.sweepContexts.empty()) {
            JsonValue sweep = JsonValue::array();
            for (double t : a.sweepTpotSeconds)
                sweep.append(t * 1e3);
            o.set("sweep_tpot_ms", sweep);
        }
        modes.append(o);
    }
    doc.set("modes", modes);
    if (!r.sweepContexts.empty()) {
        JsonValue contexts = JsonValue::array();
        for (int64_t context : r.sweepContexts)
            contexts.append(context);
        doc.set("sweep_contexts", contexts);
    }
    return doc.toIndentedJson();
}

JsonValue intervalJson(double value, double spread, double confidence) {
    const Interval i = intervalAt(value, spread, confidence);
    return JsonValue::array().append(i.low).append(i.high);
}

std::string tokenRate(double perSecond) {
    return significant(perSecond, 4);
}

} // namespace rooftop
