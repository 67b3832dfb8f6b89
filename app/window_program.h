// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace rooftop {

/// The rooftop-window executable that opens the window and writes reports: $ROOFTOP_WINDOW when set, else
/// next to this executable (a build tree), in <bin>/../<libexec>/rooftop (an installation, moved or not), or
/// where it was configured to be installed; empty when there is none.
std::string windowProgramPath();

} // namespace rooftop
