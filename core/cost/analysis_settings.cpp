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

int64_t minibatchesPerEpoch(int64_t samples, int64_t batch) {
    return batch > 0 ? samples / batch + (samples % batch ? 1 : 0) : 0;
}

bool parsePhase(const std::string& text, Phase& out) {
    if (text == "inference")
        out = Phase::Inference;
    else if (text == "training")
        out = Phase::Training;
    else
        return false;
    return true;
}

std::string phaseName(Phase phase) {
    return phase == Phase::Training ? "training" : "inference";
}

bool parseOptimizer(const std::string& text, Optimizer& out) {
    if (text == "sgd")
        out = Optimizer::Sgd;
    else if (text == "momentum")
        out = Optimizer::Momentum;
    else if (text == "adam")
        out = Optimizer::Adam;
    else
        return false;
    return true;
}

std::string optimizerName(Optimizer optimizer) {
    switch (optimizer) {
    case Optimizer::Sgd:
        return "sgd";
    case Optimizer::Momentum:
        return "momentum";
    case Optimizer::Adam:
        return "adam";
    }
    return "adam";
}

} // namespace rooftop
