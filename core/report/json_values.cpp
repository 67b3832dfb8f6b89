// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/json_values.h"

#include <QString>

namespace rooftop {

QJsonObject sourcedJson(const SourcedValue& value) {
    return QJsonObject{{"value", value.value},
                       {"provenance", provenanceName(value.provenance)},
                       {"basis", QString::fromStdString(value.basis)}};
}

QJsonObject namedDimsJson(const std::map<std::string, int64_t>& dims) {
    QJsonObject o;
    for (const auto& [name, value] : dims)
        o[QString::fromStdString(name)] = static_cast<qint64>(value);
    return o;
}

} // namespace rooftop
