// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/ceilings.h"
#include "core/device/provenance.h"
#include "core/device/runtime_profile.h"
#include "core/report/json_writer.h"

#include <QJsonObject>
#include <cstdint>
#include <map>
#include <string>

namespace rooftop {

/// {"value", "provenance", "basis"} of a number that carries its provenance.
QJsonObject sourcedJson(const SourcedValue& value);

/// The key of a compute class's peak in every `peak_flops` object: fp32, fp16, tensor_fp16, tensor_int8, ...
QString peakFlopsKey(ComputeClass computeClass);

/// A mode's ceilings as every document gives them: `peak_flops` keyed by peakFlopsKey, `bandwidth`,
/// `dispatch_s` and `inference_s`, each a sourcedJson; inserted into `mode`.
void insertCeilingsJson(QJsonObject& mode, const Ceilings& ceilings);

/// The runtime a document's predictions use (`runtime` in every document that names one): its name,
/// overheads, efficiencies, whether calibrated, and its basis.
QJsonObject runtimeSummaryJson(const RuntimeProfile& runtime);

/// The same value for the writers that build a JsonValue.
JsonValue toJsonValue(const QJsonValue& value);

/// {"NAME": value} of the symbolic dims a workload was bound at (`dims` in every answer).
QJsonObject namedDimsJson(const std::map<std::string, int64_t>& dims);

} // namespace rooftop
