// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace rooftop {

/// The rooftop-window executable that opens the window and writes reports: next to this executable (a build
/// tree) or in ../libexec/rooftop (an installation); empty when there is none.
std::string windowProgramPath();

} // namespace rooftop
