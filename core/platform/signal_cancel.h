// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>

namespace rooftop {

/// Makes SIGINT and SIGTERM set *flag (instead of killing the process) so that a sweep stops at the next
/// check and restores the original power mode; a second signal of the same kind kills as usual.
void cancelOnSignals(std::atomic<bool>* flag);

} // namespace rooftop
