// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/llm/llm_session.h"
#include "plots/roofline_scene.h"

#include <cstddef>

namespace rooftop::report {

/// The decode step result.decodeSteps[step] on the time roofline of result.modes[mode]: that mode's roofs,
/// the step's layers (the KV cache's reads included) and the whole step as the star.
plots::RooflineScene buildLlmDecodeScene(const LlmResult& result, size_t mode, size_t step = 0);

} // namespace rooftop::report
