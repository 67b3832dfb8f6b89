// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/provenance.h"

#include <QJsonObject>
#include <cstdint>
#include <map>
#include <string>

namespace rooftop {

/// {"value", "provenance", "basis"} of a number that carries its provenance.
QJsonObject sourcedJson(const SourcedValue& value);

/// {"NAME": value} of the symbolic dims a workload was bound at (`dims` in every answer).
QJsonObject namedDimsJson(const std::map<std::string, int64_t>& dims);

} // namespace rooftop
