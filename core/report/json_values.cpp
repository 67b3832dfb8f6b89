// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/json_values.h"

#include <QJsonArray>
#include <QString>

namespace rooftop {

QJsonObject sourcedJson(const SourcedValue& value) {
    return QJsonObject{{"value", value.value},
                       {"provenance", provenanceName(value.provenance)},
                       {"basis", QString::fromStdString(value.basis)}};
}

QString peakFlopsKey(ComputeClass computeClass) {
    return QString::fromUtf8(computeClassName(computeClass)).replace('-', '_');
}

void insertCeilingsJson(QJsonObject& mode, const Ceilings& ceilings) {
    QJsonObject peaks;
    for (int c = 0; c < computeClassCount; ++c)
        peaks.insert(peakFlopsKey(static_cast<ComputeClass>(c)),
                     sourcedJson(ceilings.peakFlops[static_cast<size_t>(c)]));
    mode.insert("peak_flops", peaks);
    mode.insert("bandwidth", sourcedJson(ceilings.bandwidth));
    mode.insert("dispatch_s", sourcedJson(ceilings.dispatchOverhead));
    mode.insert("inference_s", sourcedJson(ceilings.inferenceOverhead));
}

QJsonObject runtimeSummaryJson(const RuntimeProfile& runtime) {
    return QJsonObject{{"name", QString::fromStdString(runtime.name)},
                       {"dispatch_s_at_max_cpu", runtime.dispatchSecondsAtMaxCpu},
                       {"inference_s_at_max_cpu", runtime.inferenceSecondsAtMaxCpu},
                       {"compute_efficiency", runtime.computeEfficiency},
                       {"bandwidth_efficiency", runtime.bandwidthEfficiency},
                       {"calibrated", runtime.calibrated},
                       {"calibrated_on_simulator", runtime.calibratedOnSimulator},
                       {"efficiency_fitted", runtime.calibrated && runtime.efficiencyFitted},
                       {"class_efficiency", fittedClassEfficiencyJson(runtime)},
                       {"class_basis", QString::fromStdString(runtime.classBasis)},
                       {"basis", QString::fromStdString(runtime.basis)}};
}

JsonValue toJsonValue(const QJsonValue& value) {
    switch (value.type()) {
    case QJsonValue::Bool:
        return JsonValue(value.toBool());
    case QJsonValue::Double:
        return JsonValue(value.toDouble());
    case QJsonValue::String:
        return JsonValue(value.toString().toStdString());
    case QJsonValue::Array: {
        JsonValue out = JsonValue::array();
        const QJsonArray items = value.toArray();
        for (const auto& item : items)
            out.append(toJsonValue(item));
        return out;
    }
    case QJsonValue::Object: {
        JsonValue out = JsonValue::object();
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            out.set(it.key().toStdString(), toJsonValue(it.value()));
        return out;
    }
    default:
        return JsonValue();
    }
}

QJsonObject namedDimsJson(const std::map<std::string, int64_t>& dims) {
    QJsonObject o;
    for (const auto& [name, value] : dims)
        o[QString::fromStdString(name)] = static_cast<qint64>(value);
    return o;
}

} // namespace rooftop
