// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cost/analysis_settings.h"

namespace rooftop {

bool parseConvention(const std::string& text, Convention& out) {
    if (text == "default") out = Convention::Default;
    else if (text == "pagoda") out = Convention::Pagoda;
    else return false;
    return true;
}

std::string conventionName(Convention convention) { return convention == Convention::Pagoda ? "pagoda" : "default"; }

bool parseTrafficView(const std::string& text, TrafficView& out) {
    if (text == "per-node") out = TrafficView::PerNode;
    else if (text == "fused") out = TrafficView::Fused;
    else return false;
    return true;
}

std::string trafficViewName(TrafficView view) { return view == TrafficView::Fused ? "fused" : "per-node"; }

} // namespace rooftop
