// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/workload_writers.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace rooftop {
namespace {

QJsonArray stringArray(const std::vector<std::string>& values) {
    QJsonArray array;
    for (const auto& v : values) array.append(QString::fromStdString(v));
    return array;
}

QJsonObject modelObject(const ModelInfo& info) {
    QJsonObject opsets;
    for (const auto& [domain, version] : info.opsets) opsets[QString::fromStdString(domain)] = qint64(version);
    return QJsonObject{{"path", QString::fromStdString(info.path)},
                       {"graph_name", QString::fromStdString(info.graphName)},
                       {"producer", QString::fromStdString(info.producer)},
                       {"ir_version", qint64(info.irVersion)},
                       {"opsets", opsets},
                       {"external_data", info.hasExternalData},
                       {"external_data_present", info.externalDataPresent},
                       {"assumed_dims", stringArray(info.assumedDims)},
                       {"notes", stringArray(info.notes)}};
}

QJsonObject settingsObject(const AnalysisSettings& settings) {
    QJsonObject dims;
    for (const auto& [name, value] : settings.dims.named) dims[QString::fromStdString(name)] = qint64(value);
    QJsonObject object{{"precision", QString::fromStdString(precisionName(settings.precision))},
                       {"convention", QString::fromStdString(conventionName(settings.convention))},
                       {"traffic", QString::fromStdString(trafficViewName(settings.traffic))},
                       {"dims", dims}};
    object["batch"] = settings.dims.batch ? QJsonValue(qint64(*settings.dims.batch)) : QJsonValue();
    if (settings.phase == Phase::Training) {
        object["phase"] = QString::fromStdString(phaseName(settings.phase));
        object["optimizer"] = QString::fromStdString(optimizerName(settings.optimizer));
        if (settings.samples > 0) object["samples"] = qint64(settings.samples);
    }
    return object;
}

QJsonObject phaseObject(const PhaseCount& p) {
    return QJsonObject{{"macs", qint64(p.macs)},
                       {"flops", qint64(p.flops)},
                       {"sfu_ops", qint64(p.sfuOps)},
                       {"bytes", qint64(p.bytes)}};
}

// The forward / backward / update split of a training step (totals or one layer).
template <typename Counts> QJsonObject trainingObject(const Counts& c) {
    return QJsonObject{
        {"forward", phaseObject(c.forward)},   {"backward", phaseObject(c.backward)},
        {"update", phaseObject(c.update)},     {"state_bytes", qint64(c.stateBytes)},
        {"saved_bytes", qint64(c.savedBytes)}, {"trainable_params", qint64(c.trainableParams)}};
}

QJsonObject totalsObject(const WorkloadTotals& t) {
    QJsonObject object{{"macs", qint64(t.macs)},
                       {"flops", qint64(t.flops)},
                       {"sfu_ops", qint64(t.sfuOps)},
                       {"weight_bytes", qint64(t.weightBytes)},
                       {"input_bytes", qint64(t.inputBytes)},
                       {"output_bytes", qint64(t.outputBytes)},
                       {"bytes", qint64(t.bytes())},
                       {"intensity", t.intensity()},
                       {"params", qint64(t.params)},
                       {"layers", qint64(t.layers)},
                       {"torchvision_macs", qint64(t.torchvisionMacs)},
                       {"unsupported", stringArray(t.unsupported)},
                       {"shape_unknown", stringArray(t.shapeUnknown)}};
    if (!t.shapeLossNode.empty())
        object["shape_loss"] = QJsonObject{{"node", QString::fromStdString(t.shapeLossNode)},
                                           {"reason", QString::fromStdString(t.shapeLossReason)}};
    return object;
}

QJsonObject layerObject(const LayerCount& l, bool training) {
    QJsonObject object{{"name", QString::fromStdString(l.name)},
                       {"op", QString::fromStdString(l.op)},
                       {"domain", QString::fromStdString(l.domain)},
                       {"input_shapes", stringArray(l.inputShapes)},
                       {"output_shapes", stringArray(l.outputShapes)},
                       {"macs", qint64(l.macs)},
                       {"flops", qint64(l.flops)},
                       {"sfu_ops", qint64(l.sfuOps)},
                       {"weight_bytes", qint64(l.weightBytes)},
                       {"input_bytes", qint64(l.inputBytes)},
                       {"output_bytes", qint64(l.outputBytes)},
                       {"bytes", qint64(l.bytes())},
                       {"intensity", l.intensity()},
                       {"kind", opKindName(l.kind)},
                       {"dtype", QString::fromStdString(dataTypeName(l.computeType))},
                       {"supported", l.supported},
                       {"status", QString::fromStdString(l.status())}};
    if (l.repeat != 1) object["repeat"] = qint64(l.repeat);
    if (l.fused) object["fused"] = true;
    if (!l.note.empty()) object["note"] = QString::fromStdString(l.note);
    if (training) object["training"] = trainingObject(l);
    return object;
}

} // namespace

std::string workloadToJson(const Workload& workload) {
    QJsonArray layers;
    const AnalysisSettings& settings = workload.settings;
    const bool training = settings.phase == Phase::Training;
    for (const auto& layer : workload.layers)
        layers.append(layerObject(layer, training));
    QJsonObject totals = totalsObject(workload.totals);
    if (training) {
        QJsonObject split = trainingObject(workload.totals);
        if (settings.samples > 0 && settings.dims.batch) {
            const int64_t steps = minibatchesPerEpoch(settings.samples, *settings.dims.batch);
            split["epoch"] = QJsonObject{{"samples", qint64(settings.samples)},
                                         {"minibatches", qint64(steps)},
                                         {"flops", double(workload.totals.flops) * double(steps)},
                                         {"bytes", double(workload.totals.bytes()) * double(steps)}};
        }
        totals["training"] = split;
    }
    QJsonObject root{{"model", modelObject(workload.info)},
                     {"settings", settingsObject(settings)},
                     {"totals", totals},
                     {"layers", layers}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

} // namespace rooftop
