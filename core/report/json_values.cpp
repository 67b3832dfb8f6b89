// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/report/json_values.h"

#include <QString>

namespace rooftop {

QJsonObject sourcedJson(const SourcedValue& value) {
    return QJsonObject{{"value", value.value},
                       {"provenance", provenanceName(value.provenance)},
                       {"basis", QString::fromStdString(value.basis)}};
}

} // namespace rooftop
