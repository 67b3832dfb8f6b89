// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/device/provenance.h"

#include "core/common/enum_names.h"

namespace rooftop {

namespace {
const EnumName<Provenance> provenanceNames[] = {{Provenance::Estimate, "estimate"},
                                                {Provenance::Datasheet, "datasheet"},
                                                {Provenance::Measured, "measured"},
                                                {Provenance::Fitted, "fitted"},
                                                {Provenance::Predicted, "predicted"}};
} // namespace

const char* provenanceName(Provenance provenance) {
    return nameIn(provenanceNames, provenance);
}

std::optional<Provenance> parseProvenance(std::string_view text) {
    return parseIn(provenanceNames, text);
}

} // namespace rooftop
