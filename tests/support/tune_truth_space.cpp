// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/tune_truth_space.h"

#include "core/device/runtime_profile.h"
#include "support/device_fixtures.h"
#include "support/test_support.h"

#include <algorithm>
#include <limits>

namespace rooftop::test {

double TuneTruthSpace::optimumMj(double sloSeconds) const {
    double best = std::numeric_limits<double>::infinity(); // none within the SLO
    for (size_t i = 0; i < space.candidates; ++i)
        if (truth[i].seconds <= sloSeconds) best = std::min(best, trueEnergyMj(i));
    return best;
}

TuneTruthSpace makeTuneTruthSpace(const std::string& model, const std::vector<PowerMode>& modes,
                                  const std::vector<int64_t>& batches) {
    const DeviceSpec& device = shippedAgxOrin();
    TuneTruthSpace m;
    for (int64_t batch : batches) {
        AnalysisSettings settings;
        settings.dims.batch = batch;
        m.counts[{batch, Precision::FP32}] = analyzeSample(model, settings);
    }
    m.space = buildTuneSpace(device, findRuntime("tensorrt"), modes, batches, {Precision::FP32},
                             [&](int64_t batch, Precision p) -> const Workload& {
                                 return m.counts.at({batch, p});
                             });
    OtherPhysicsBoard board(device, m.counts, 0);
    for (const TuneConfig& c : m.space.configs)
        m.truth.push_back(board.truth(RunConfig{c.mode, c.batch, c.precision, Phase::Inference, {}}));
    return m;
}

} // namespace rooftop::test
