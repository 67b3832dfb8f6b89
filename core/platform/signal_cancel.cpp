// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/platform/signal_cancel.h"

#include <csignal>

namespace rooftop {

namespace {

std::atomic<bool>* cancelFlag = nullptr;

extern "C" void onCancelSignal(int signal) {
    if (cancelFlag) cancelFlag->store(true);
    std::signal(signal, SIG_DFL); // the next one terminates
}

} // namespace

void cancelOnSignals(std::atomic<bool>* flag) {
    cancelFlag = flag;
    struct sigaction action {};
    action.sa_handler = onCancelSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

} // namespace rooftop
