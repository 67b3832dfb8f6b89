// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rooftop {

/// Where a number shown to a user comes from. Derived numbers are never presented as measured.
enum class Provenance {
    Datasheet, ///< a vendor figure, or exact arithmetic on vendor figures (cores x 2 x clock)
    Estimate,  ///< a modelling assumption whose basis the catalog names
    Measured,  ///< measured on the board by rooftop bench
    Fitted,    ///< least-squares fit to measurements
    Predicted, ///< extrapolated to an unmeasured mode from a model fitted to measured ones
};

/// Lower-case name ("datasheet", "estimate", "measured", "fitted", "predicted").
const char* provenanceName(Provenance provenance);

/// Parses a provenance name; nothing when unknown.
std::optional<Provenance> parseProvenance(std::string_view text);

/// A number with its provenance and a short basis anyone can check ("2 x 2048 cores x 1300.5 MHz").
struct SourcedValue {
    double value = 0.0;                           ///< the number, in its quantity's unit
    Provenance provenance = Provenance::Estimate; ///< where it comes from
    std::string basis;                            ///< how it was found, in a few words
};

} // namespace rooftop
