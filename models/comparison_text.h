// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/comparison.h"

#include <QString>

namespace rooftop::models {

/// The measured-profile card's text (rich text): the file and the mode it was measured in, the whole model
/// measured against predicted ("2.9× slower than predicted"), the median share of the roof the layers
/// reached, and the three layers whose predicted time is furthest from the measured.
QString comparisonCardHtml(const Comparison& comparison);

} // namespace rooftop::models
