// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/tune/tune_space.h"
#include "support/other_physics_board.h"

#include <string>
#include <vector>

namespace rooftop::test {

/// A model's tune space with Rooftop's prior, and the other physics' noise-free truth of every configuration:
/// what the tune tests and bench_tune score a search against.
struct TuneTruthSpace {
    OtherPhysicsBoard::Counts counts;
    TuneSpace space;
    std::vector<OtherPhysicsTruth> truth; ///< per configuration of the space

    /// The true energy per inference of a configuration, mJ.
    double trueEnergyMj(size_t i) const {
        return truth[i].seconds * 1e3 * truth[i].watts / double(space.configs[i].batch);
    }
    /// The true least energy per inference within a latency SLO, mJ.
    double optimumMj(double sloSeconds) const;
    /// The noise-free latency of the fastest stock mode at the first batch size.
    double maxnSeconds() const { return truth[space.baseline].seconds; }
};

/// A sample model on the AGX Orin 64GB (the shipped catalog) in `modes` x `batches` at fp32.
TuneTruthSpace makeTuneTruthSpace(const std::string& model, const std::vector<PowerMode>& modes,
                                  const std::vector<int64_t>& batches);

} // namespace rooftop::test
