// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/measured_layers.h"

#include <optional>
#include <string>

namespace rooftop {

/// An Nsight Compute unit: its base ("second", "byte", "cycle", "inst", ..., "cycle/second"; "" for a plain
/// count) and the scale to it.
struct NcuUnit {
    std::string base;   ///< "second", "byte", "cycle/second", ...; "" for a plain count
    double scale = 1.0; ///< what one unit is in the base ("nsecond": 1e-9)
};

/// Parses a unit: an SI prefix (n, u, m, K, M, G, T) and a base, a ratio of two ("cycle/usecond"), or hertz
/// (cycle/second); nothing for a unit Rooftop does not know ("ms", "%", "xsecond").
std::optional<NcuUnit> parseNcuUnit(const std::string& unit);

/// The scale of a unit to its base: "nsecond" 1e-9, "Mbyte" 1e6, "cycle/usecond" 1e6, "" 1; nothing when
/// unknown.
std::optional<double> ncuUnitScale(const std::string& unit);

/// Reads an Nsight Compute CSV export, either form: the default long one (a row per kernel launch x metric:
/// "ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value") or `--page raw` (a row per launch, a
/// column per metric, units in the second row). `==PROF==` lines are skipped, thousands separators removed,
/// `n/a` read as missing; a wanted metric's unit must be known and of its kind (a time in seconds, DRAM
/// traffic in bytes), else InputError. One layer per launch, in ID order: time from gpu__time_duration.sum
/// (else sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second), FLOPs 2 fma + mul + add over the
/// double, single and half sm__sass_thread_inst_executed_op_*_pred_on.sum plus sm__ops_path_tensor_* (when
/// any is there), DRAM bytes dram__bytes.sum (else dram__bytes_read.sum + dram__bytes_write.sum). Throws
/// InputError "WHERE: Nsight Compute CSV: line N: ..." naming the line and the field.
MeasuredLayers parseNcuCsv(const std::string& text, const std::string& where);

} // namespace rooftop
