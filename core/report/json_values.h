// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/provenance.h"

#include <QJsonObject>

namespace rooftop {

/// {"value", "provenance", "basis"} of a number that carries its provenance.
QJsonObject sourcedJson(const SourcedValue& value);

} // namespace rooftop
