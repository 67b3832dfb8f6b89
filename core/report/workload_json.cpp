// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/json_writer.h"
#include "core/report/workload_writers.h"

namespace rooftop {
namespace {

JsonValue modelObject(const ModelInfo& info) {
    JsonValue opsets = JsonValue::object();
    for (const auto& [domain, version] : info.opsets)
        opsets.set(domain, version);
    JsonValue object = JsonValue::object();
    object.set("path", info.path)
        .set("graph_name", info.graphName)
        .set("producer", info.producer)
        .set("ir_version", info.irVersion)
        .set("opsets", std::move(opsets))
        .set("external_data", info.hasExternalData)
        .set("external_data_present", info.externalDataPresent)
        .set("assumed_dims", JsonValue::strings(info.assumedDims))
        .set("notes", JsonValue::strings(info.notes));
    return object;
}

JsonValue settingsObject(const AnalysisSettings& settings) {
    JsonValue dims = JsonValue::object();
    for (const auto& [name, value] : settings.dims.named)
        dims.set(name, value);
    JsonValue object = JsonValue::object();
    object.set("precision", precisionName(settings.precision))
        .set("convention", conventionName(settings.convention))
        .set("traffic", trafficViewName(settings.traffic))
        .set("dims", std::move(dims))
        .set("batch", settings.dims.batch ? JsonValue(*settings.dims.batch) : JsonValue());
    if (settings.phase == Phase::Training) {
        object.set("phase", phaseName(settings.phase)).set("optimizer", optimizerName(settings.optimizer));
        if (settings.samples > 0) object.set("samples", settings.samples);
    }
    return object;
}

JsonValue phaseObject(const PhaseCount& p) {
    JsonValue object = JsonValue::object();
    object.set("macs", p.macs).set("flops", p.flops).set("sfu_ops", p.sfuOps).set("bytes", p.bytes);
    return object;
}

// The forward / backward / update split of a training step (totals or one layer).
template <typename Counts> JsonValue trainingObject(const Counts& c) {
    JsonValue object = JsonValue::object();
    object.set("forward", phaseObject(c.forward))
        .set("backward", phaseObject(c.backward))
        .set("update", phaseObject(c.update))
        .set("state_bytes", c.stateBytes)
        .set("saved_bytes", c.savedBytes)
        .set("trainable_params", c.trainableParams);
    return object;
}

JsonValue totalsObject(const WorkloadTotals& t) {
    JsonValue object = JsonValue::object();
    object.set("macs", t.macs)
        .set("flops", t.flops)
        .set("sfu_ops", t.sfuOps)
        .set("weight_bytes", t.weightBytes)
        .set("input_bytes", t.inputBytes)
        .set("output_bytes", t.outputBytes)
        .set("bytes", t.bytes())
        .set("intensity", t.intensity())
        .set("params", t.params)
        .set("layers", t.layers)
        .set("torchvision_macs", t.torchvisionMacs)
        .set("unsupported", JsonValue::strings(t.unsupported))
        .set("shape_unknown", JsonValue::strings(t.shapeUnknown));
    if (!t.shapeLossNode.empty()) {
        JsonValue loss = JsonValue::object();
        loss.set("node", t.shapeLossNode).set("reason", t.shapeLossReason);
        object.set("shape_loss", std::move(loss));
    }
    return object;
}

JsonValue layerObject(const LayerCount& l, bool training) {
    JsonValue object = JsonValue::object();
    object.set("name", l.name)
        .set("op", l.op)
        .set("domain", l.domain)
        .set("input_shapes", JsonValue::strings(l.inputShapes))
        .set("output_shapes", JsonValue::strings(l.outputShapes))
        .set("macs", l.macs)
        .set("flops", l.flops)
        .set("sfu_ops", l.sfuOps)
        .set("weight_bytes", l.weightBytes)
        .set("input_bytes", l.inputBytes)
        .set("output_bytes", l.outputBytes)
        .set("bytes", l.bytes())
        .set("intensity", l.intensity())
        .set("kind", opKindName(l.kind))
        .set("dtype", dataTypeName(l.computeType))
        .set("supported", l.supported)
        .set("status", l.status());
    if (l.repeat != 1) object.set("repeat", l.repeat);
    if (l.fused) object.set("fused", true);
    if (!l.note.empty()) object.set("note", l.note);
    if (training) object.set("training", trainingObject(l));
    return object;
}

} // namespace

std::string workloadToJson(const Workload& workload) {
    JsonValue layers = JsonValue::array();
    const AnalysisSettings& settings = workload.settings;
    const bool training = settings.phase == Phase::Training;
    for (const auto& layer : workload.layers)
        layers.append(layerObject(layer, training));
    JsonValue totals = totalsObject(workload.totals);
    if (training) {
        JsonValue split = trainingObject(workload.totals);
        if (settings.samples > 0 && settings.dims.batch) {
            const int64_t steps = minibatchesPerEpoch(settings.samples, *settings.dims.batch);
            JsonValue epoch = JsonValue::object();
            epoch.set("samples", settings.samples)
                .set("minibatches", steps)
                .set("flops", double(workload.totals.flops) * double(steps))
                .set("bytes", double(workload.totals.bytes()) * double(steps));
            split.set("epoch", std::move(epoch));
        }
        totals.set("training", std::move(split));
    }
    JsonValue root = JsonValue::object();
    root.set("schema", "rooftop-analysis/1")
        .set("model", modelObject(workload.info))
        .set("settings", settingsObject(settings))
        .set("totals", std::move(totals))
        .set("layers", std::move(layers));
    return root.toIndentedJson();
}

} // namespace rooftop
