// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cost/analysis_settings.h"

#include "core/common/enum_names.h"

namespace rooftop {

namespace {
const EnumName<Convention> conventionNames[] = {{Convention::Default, "default"},
                                                {Convention::Pagoda, "pagoda"}};
const EnumName<TrafficView> trafficViewNames[] = {{TrafficView::PerNode, "per-node"},
                                                  {TrafficView::Fused, "fused"}};
const EnumName<Phase> phaseNames[] = {{Phase::Inference, "inference"}, {Phase::Training, "training"}};
const EnumName<Optimizer> optimizerNames[] = {
    {Optimizer::Sgd, "sgd"}, {Optimizer::Momentum, "momentum"}, {Optimizer::Adam, "adam"}};
} // namespace

std::optional<Convention> parseConvention(std::string_view text) {
    return parseIn(conventionNames, text);
}
std::string conventionName(Convention convention) {
    return nameIn(conventionNames, convention);
}
std::optional<TrafficView> parseTrafficView(std::string_view text) {
    return parseIn(trafficViewNames, text);
}
std::string trafficViewName(TrafficView view) {
    return nameIn(trafficViewNames, view);
}
std::optional<Phase> parsePhase(std::string_view text) {
    return parseIn(phaseNames, text);
}
std::string phaseName(Phase phase) {
    return nameIn(phaseNames, phase);
}
std::optional<Optimizer> parseOptimizer(std::string_view text) {
    return parseIn(optimizerNames, text);
}
std::string workloadOptionsText(const AnalysisSettings& settings) {
    std::string text;
    for (const auto& [name, value] : settings.dims.named)
        text += " --dim " + name + "=" + std::to_string(value);
    if (settings.precision != Precision::AsModel) text += " --precision " + precisionName(settings.precision);
    if (settings.phase == Phase::Training)
        text += " --phase training --optimizer " + optimizerName(settings.optimizer);
    return text;
}

std::string optimizerName(Optimizer optimizer) {
    return nameIn(optimizerNames, optimizer);
}

int64_t minibatchesPerEpoch(int64_t samples, int64_t batch) {
    return batch > 0 ? samples / batch + (samples % batch ? 1 : 0) : 0;
}

} // namespace rooftop
