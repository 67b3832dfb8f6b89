// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/plan/plan_writers.h"

#include "core/common/text_format.h"
#include "core/plan/plan_rendering.h"
#include "core/report/text_table.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <sstream>

namespace rooftop {

namespace {

QJsonValue number(double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

const PlanCandidate* chosenCandidate(const PlanReport& r) {
    if (r.outcome.plan) return &r.outcome.candidates[*r.outcome.plan];
    return nullptr;
}

// A plan table as text: its header and rows, names flush left and numbers flush right.
std::string tableText(const PlanTable& table) {
    std::vector<std::vector<std::string>> rows;
    std::vector<bool> rightAligned;
    rows.emplace_back();
    for (const PlanColumn& column : table.columns) {
        rows.back().push_back(column.name);
        rightAligned.push_back(!column.label);
    }
    for (const std::vector<PlanCell>& row : table.rows) {
        rows.emplace_back();
        for (const PlanCell& cell : row)
            rows.back().push_back(cell.text);
    }
    // an empty last cell (a candidate without a note) leaves no trailing blanks
    std::istringstream lines(formatTable(rows, rightAligned, "  "));
    std::string out;
    for (std::string line; std::getline(lines, line);)
        out += line.erase(line.find_last_not_of(' ') + 1) + "\n";
    return out;
}

QJsonObject modeJson(const PlanReport& r, const PlanCandidate& c) {
    const PowerMode& mode = r.space.modes[c.mode].mode;
    QJsonObject o;
    o["mode"] = text(mode.name);
    o["cores"] = mode.onlineCores;
    o["cpu_khz"] = static_cast<qint64>(mode.cpuKhz);
    o["gpu_hz"] = static_cast<qint64>(mode.gpuHz);
    o["emc_hz"] = static_cast<qint64>(mode.emcHz);
    o["inference_batch"] = static_cast<qint64>(r.space.inferenceBatches[c.result.batchIndex]);
    o["training_batch"] = static_cast<qint64>(r.space.trainingBatch);
    return o;
}

QJsonObject figuresJson(const PlanCandidate& c) {
    const ScheduleStats& s = c.result.stats;
    QJsonObject o;
    o["slo_violation_pct"] = number(s.violationPct);
    o["worst_stream_violation_pct"] = number(c.result.worstViolationPct);
    o["p50_ms"] = number(s.p50Ms);
    o["p99_ms"] = number(s.p99Ms);
    o["dropped"] = static_cast<qint64>(s.dropped);
    o["late"] = static_cast<qint64>(s.late);
    o["requests"] = static_cast<qint64>(s.requests);
    o["training_minibatches_per_s"] = number(s.minibatchesPerSecond);
    o["power_w"] = number(s.averageWatts);
    o["window_energy_j"] = number(s.energyJoules);
    o["inference_busy"] = number(s.inferenceBusy);
    o["training_busy"] = number(s.trainingBusy);
    return o;
}

QJsonObject costsJson(const PlanReport& r, const PlanCandidate& c) {
    const size_t b = c.result.batchIndex;
    QJsonObject o;
    // plan/2 wrote inference_batch_ms, inference_w, training_step_ms, training_w, idle_w and the inference's
    // provenance as "provenance", which read as if it covered every cost
    o["inference_latency_ms"] = number(1e3 * c.costs.inferenceSeconds[b]);
    o["inference_power_w"] = number(c.costs.inferenceWatts[b]);
    o["training_latency_ms"] = number(1e3 * c.costs.trainingSeconds);
    o["training_power_w"] = number(c.costs.trainingWatts);
    o["idle_power_w"] = number(c.costs.idleWatts);
    o["inference_provenance"] = text(c.costs.provenance);
    o["training_provenance"] =
        text(c.costs.trainingProvenance.empty() ? c.costs.provenance : c.costs.trainingProvenance);
    o["idle_provenance"] = text(c.costs.idleProvenance);
    (void)r;
    return o;
}

QJsonObject candidateJson(const PlanReport& r, const PlanCandidate& c) {
    QJsonObject o = modeJson(r, c);
    o["predicted"] = figuresJson(c);
    o["costs"] = costsJson(r, c);
    o["profiled"] = c.profiled;
    o["feasible"] = c.result.feasible;
    o["reason"] = text(c.result.reason);
    o["kept_pct"] = c.keptPct >= 0 ? QJsonValue(c.keptPct) : QJsonValue(QJsonValue::Null);
    return o;
}

std::string kindName(TimelineSegment::Kind kind) {
    switch (kind) {
    case TimelineSegment::Kind::Inference:
        return "inference";
    case TimelineSegment::Kind::Training:
        return "training";
    case TimelineSegment::Kind::Idle:
        return "idle";
    }
    return "idle";
}

} // namespace

std::string planJson(const PlanReport& r) {
    QJsonObject root;
    root["schema"] = "rooftop-plan/3";
    root["device"] = text(r.device.id);
    root["inference_model"] = text(r.request.inferenceModel); // the files as given (plan/1: their names)
    root["training_model"] = text(r.request.trainingModel);
    root["strategy"] = planStrategyName(r.request.strategy);
    root["profiled_modes"] = r.outcome.profiledModes;
    root["failed_profiles"] = r.outcome.failedProfiles;
    root["modes_in_space"] = static_cast<qint64>(r.space.modes.size());
    root["runner"] = r.runner.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text(r.runner));
    root["stop"] = text(r.outcome.stopReason);
    root["runs_files"] = r.inferenceRunsPath.empty()
                             ? QJsonValue(QJsonValue::Null)
                             : QJsonValue(QJsonArray{text(r.inferenceRunsPath), text(r.trainingRunsPath)});
    root["arrival"] = text(describeArrivals(r.arrival));
    QJsonObject limits;
    limits["latency_slo_ms"] = r.budgets.sloSeconds * 1e3;
    limits["power_cap_w"] =
        r.budgets.powerCapWatts ? QJsonValue(*r.budgets.powerCapWatts) : QJsonValue(QJsonValue::Null);
    limits["max_violation_pct"] = r.budgets.maxViolationPct;
    root["limits"] = limits;
    root["precision"] = text(precisionName(r.space.precision));
    const auto dimsJson = [](const std::map<std::string, int64_t>& dims) {
        QJsonObject o;
        for (const auto& [name, value] : dims)
            o[text(name)] = static_cast<qint64>(value);
        return o;
    };
    root["inference_dims"] = dimsJson(r.request.inferenceDims);
    root["training_dims"] = dimsJson(r.request.trainingDims);
    const auto names = [](const std::vector<std::string>& dims) {
        QJsonArray list;
        for (const std::string& dim : dims)
            list.append(QString::fromStdString(dim));
        return list;
    };
    root["assumed_dims"] =
        QJsonObject{{"inference", names(r.inferenceAssumedDims)}, {"training", names(r.trainingAssumedDims)}};
    root["optimizer"] = text(optimizerName(r.request.optimizer));
    root["trainable_params"] = static_cast<qint64>(r.trainableParams);
    root["prior_basis"] = text(r.space.basis);
    root["schedule_basis"] = text(planScheduleBasis(r));
    root["costs_basis"] = text(r.margins.basis);
    root["costs_estimated"] = r.margins.estimated;
    root["confidence"] = r.margins.confidence;
    root["advice"] = r.advice.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text(r.advice));
    const std::string closestMiss = planClosestMiss(r); // empty when there is a plan
    root["closest_miss"] = closestMiss.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text(closestMiss));
    const PlanCandidate* plan = chosenCandidate(r);
    root["plan"] = plan ? QJsonValue(modeJson(r, *plan)) : QJsonValue(QJsonValue::Null);
    root["predicted"] = plan ? QJsonValue(figuresJson(*plan)) : QJsonValue(QJsonValue::Null);
    // what "predicted"'s figures were simulated with: its power_w is then an upper bound, not the estimate
    root["predicted_at"] = !plan ? QJsonValue(QJsonValue::Null)
                           : r.atEstimates && r.margins.confidence > 0.5
                               ? QJsonValue("the costs' upper bounds at the confidence (the margin)")
                               : QJsonValue("the costs");
    // on estimates, "predicted" is at the costs' upper bounds and "at_estimates" at the estimates themselves
    if (plan && r.atEstimates) {
        PlanCandidate estimates = *plan;
        estimates.result = *r.atEstimates;
        root["at_estimates"] = figuresJson(estimates);
    } else {
        root["at_estimates"] = QJsonValue(QJsonValue::Null);
    }
    root["costs"] = plan ? QJsonValue(costsJson(r, *plan)) : QJsonValue(QJsonValue::Null);
    root["budget_met_pct"] = plan ? number(r.budgetMetPct) : QJsonValue(QJsonValue::Null);
    root["planning_cap_w"] =
        r.planningCapWatts ? QJsonValue(*r.planningCapWatts) : QJsonValue(QJsonValue::Null);
    root["check_streams"] = r.checkStreams;
    root["nvpmodel"] = plan ? QJsonValue(text(r.nvpmodel)) : QJsonValue(QJsonValue::Null);
    QJsonArray candidates;
    for (size_t i = 0; i < r.outcome.candidates.size() && i < 20; ++i)
        candidates.append(candidateJson(r, r.outcome.candidates[i]));
    root["candidates"] = candidates;
    QJsonArray policies;
    for (const PolicyComparison& p : r.policies) {
        QJsonObject o;
        o["arrival"] = text(p.arrival);
        o["inference_only_violation_pct"] = number(p.inferenceOnlyPct);
        o["greedy_violation_pct"] = number(p.greedyPct);
        o["adaptive_violation_pct"] = number(p.adaptivePct);
        o["greedy_minibatches_per_s"] = number(p.greedyMinibatchesPerSecond);
        o["adaptive_minibatches_per_s"] = number(p.adaptiveMinibatchesPerSecond);
        policies.append(o);
    }
    root["policies"] = policies;
    QJsonArray pareto;
    for (const ParetoPoint& p : r.outcome.pareto) {
        QJsonObject o;
        o["mode"] = text(r.space.modes[p.mode].mode.name);
        o["inference_batch"] = static_cast<qint64>(r.space.inferenceBatches[p.batchIndex]);
        o["training_minibatches_per_s"] = number(p.minibatchesPerSecond);
        o["power_w"] = number(p.watts);
        pareto.append(o);
    }
    root["pareto"] = pareto;
    QJsonArray timeline;
    for (const TimelineSegment& s : r.timeline) {
        QJsonObject o;
        o["kind"] = text(kindName(s.kind));
        o["start_s"] = s.start;
        o["end_s"] = s.end;
        if (s.kind == TimelineSegment::Kind::Inference) o["requests"] = s.requests;
        timeline.append(o);
    }
    root["timeline"] = timeline;
    QJsonArray notes;
    for (const std::string& n : r.outcome.notes)
        notes.append(text(n));
    root["notes"] = notes;
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

std::string planTable(const PlanReport& r) {
    const PlanRendering v = renderPlan(r, 8);
    std::ostringstream out;
    out << v.title << "\n";
    for (const PlanLine& line : v.settings)
        out << line.label << ": " << line.value << "\n";
    out << "\n" << v.headline << "\n";
    std::vector<std::vector<std::string>> figures;
    for (const PlanLine& line : v.figures)
        figures.push_back({line.label, line.value + " (" + line.provenance + ")"});
    out << formatTable(figures, 2, "  ");
    if (!v.nvpmodel.empty()) out << "\n" << v.nvpmodel << "\n";
    for (const PlanTable* table : {&v.policies, &v.candidates}) {
        if (table->rows.empty()) continue;
        out << "\n" << table->title << " (" << table->provenance << "):\n";
        out << tableText(*table);
    }
    for (const std::string& n : v.notes)
        out << "note: " << n << "\n";
    return out.str();
}

} // namespace rooftop
