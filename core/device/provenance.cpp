// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/device/provenance.h"

namespace rooftop {

const char* provenanceName(Provenance provenance) {
    switch (provenance) {
    case Provenance::Datasheet: return "datasheet";
    case Provenance::Estimate: return "estimate";
    case Provenance::Measured: return "measured";
    case Provenance::Fitted: return "fitted";
    case Provenance::Predicted: return "predicted";
    }
    return "estimate";
}

bool parseProvenance(const std::string& text, Provenance& out) {
    for (Provenance p : {Provenance::Datasheet, Provenance::Estimate, Provenance::Measured, Provenance::Fitted,
                         Provenance::Predicted})
        if (text == provenanceName(p)) {
            out = p;
            return true;
        }
    return false;
}

} // namespace rooftop
