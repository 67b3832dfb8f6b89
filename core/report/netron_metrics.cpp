// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/netron_metrics.h"

#include "core/device/provenance.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace rooftop {
namespace {

/// Netron matches a node by the first line of its name.
QString targetName(const std::string& name) {
    const size_t newline = name.find('\n');
    return QString::fromStdString(newline == std::string::npos ? name : name.substr(0, newline));
}

QJsonValue finite(double value) {
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

class ItemList {
public:
    ItemList(const char* kind, QString target)
        : kind_(QString::fromLatin1(kind)), target_(std::move(target)) {}
    void add(QJsonArray& out, const char* name, const QJsonValue& value) const {
        out.append(QJsonObject{
            {"kind", kind_}, {"target", target_}, {"name", QString::fromLatin1(name)}, {"value", value}});
    }

private:
    QString kind_;
    QString target_;
};

void addCounts(QJsonArray& out, const ItemList& item, int64_t flops, int64_t macs, int64_t sfuOps,
               int64_t weightBytes, int64_t inputBytes, int64_t outputBytes, double intensity) {
    item.add(out, "flops", qint64(flops));
    item.add(out, "macs", qint64(macs));
    item.add(out, "sfu_ops", qint64(sfuOps));
    item.add(out, "weight_bytes", qint64(weightBytes));
    item.add(out, "input_bytes", qint64(inputBytes));
    item.add(out, "output_bytes", qint64(outputBytes));
    item.add(out, "bytes", qint64(weightBytes + inputBytes + outputBytes));
    item.add(out, "intensity", finite(intensity));
}

} // namespace

std::string netronMetricsJson(const Workload& workload, const ModelPrediction* prediction) {
    if (prediction && prediction->layers.size() != workload.layers.size()) prediction = nullptr;
    const double layersSeconds = prediction ? prediction->layersSeconds() : 0.0;
    QJsonArray metadata;
    QJsonArray metrics;
    const ItemList model("model", QString());
    model.add(metadata, "rooftop", QStringLiteral("Rooftop " ROOFTOP_VERSION " per-node counts"));
    model.add(metadata, "traffic", QString::fromStdString(trafficViewName(workload.settings.traffic)));
    model.add(metadata, "precision", QString::fromStdString(precisionName(workload.settings.precision)));
    const WorkloadTotals& t = workload.totals;
    addCounts(metrics, model, t.flops, t.macs, t.sfuOps, t.weightBytes, t.inputBytes, t.outputBytes,
              t.intensity());
    if (prediction) {
        model.add(metadata, "power_mode", QString::fromStdString(prediction->profile.mode.name));
        model.add(metadata, "provenance", QString::fromLatin1(provenanceName(prediction->provenance)));
        model.add(metrics, "latency_s", finite(prediction->latencySeconds));
        model.add(metrics, "energy_j", finite(prediction->energyJoules));
        model.add(metrics, "average_w", finite(prediction->averageWatts));
        model.add(metrics, "batch", qint64(prediction->batch));
    }
    for (size_t i = 0; i < workload.layers.size(); ++i) {
        const LayerCount& l = workload.layers[i];
        const ItemList node("node", targetName(l.name));
        addCounts(metrics, node, l.flops, l.macs, l.sfuOps, l.weightBytes, l.inputBytes, l.outputBytes,
                  l.intensity());
        if (!l.supported) node.add(metadata, "rooftop", QStringLiteral("unsupported: counted as 0 FLOPs"));
        if (!prediction) continue;
        const LayerPrediction& p = prediction->layers[i];
        node.add(metrics, "time_s", finite(p.seconds));
        node.add(metrics, "energy_j", finite(p.joules));
        node.add(metrics, "bound", QString::fromLatin1(boundName(p.bound)));
        const double share = layersSeconds > 0 ? 100.0 * p.seconds / layersSeconds : 0.0;
        node.add(metrics, "share_of_time_percent", finite(share));
    }
    const QJsonObject root{
        {"signature", QStringLiteral("netron:attachment")}, {"metadata", metadata}, {"metrics", metrics}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

} // namespace rooftop
