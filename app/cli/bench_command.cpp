// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop bench`: measures the attached GPU in one or more power modes and writes a measured profile
// (docs/bench.md). Without a CUDA device it says why and exits 2 before touching anything.
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/unknown_option.h"
#include "core/common/argument_list.h"
#include "core/common/errors.h"
#include "core/microbench/bench_session.h"
#include "core/platform/signal_cancel.h"

#include <atomic>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace rooftop::cli {

namespace {

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop bench [--device ID] [--modes current|stock|grid|all|LIST] [-o|--out FILE] "
           "[--quick]\n"
           "Measures peak compute, DRAM bandwidth, dispatch overhead and power of the attached GPU in\n"
           "each power mode and writes a measured profile (rooftop-profile/1).\n\n"
           "  --device ID       catalog id of the board (default: detected)\n"
           "  --modes M         current (default), stock, grid (the custom grid), all (stock + grid), or a "
           ";-separated\n"
           "                    list of stock names/ids and custom specs cores=N,cpu=MHZ,gpu=MHZ,emc=MHZ\n"
           "  -o, --out FILE    the profile (default: DEVICE-profile.json); a rerun resumes it\n"
           "  --quick           fewer samples and shorter power windows\n"
           "  --settle SECONDS  wait after each mode switch (default 5)\n\n"
           "Switching modes runs rooftop-mode-helper through pkexec or sudo; the original mode is restored\n"
           "on exit, error, Ctrl-C and, after a crash, at the next start. Exit 2 without a CUDA device.\n";
    return out.str();
}

} // namespace

int runBench(const std::vector<std::string>& args) {
    BenchRequest request;
    ArgumentList list(args);
    while (list.more()) {
        if (!list.nextIsOption())
            throw InputError("bench: unexpected argument '" + list.takePositional() + "'");
        const std::string option = list.takeOption();
        if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else if (option == "--device") {
            request.deviceId = list.takeValue(option);
        } else if (option == "--modes") {
            request.modes = list.takeValue(option);
        } else if (option == "--out" || option == "-o" || option == "--output") { // as every command
            request.outPath = list.takeValue(option);
        } else if (option == "--quick") {
            request.quick = true;
        } else if (option == "--settle") {
            request.settleSeconds = static_cast<double>(list.takeInteger(option, 0, 600));
        } else {
            throw unknownOption("bench", option, helpText());
        }
    }

    static std::atomic<bool> cancel{false};
    cancelOnSignals(&cancel);
    std::string lastLine;
    const SweepOutcome outcome = runBenchSession(
        request,
        [&](const SweepProgress& p) {
            const std::string line = "[" + std::to_string(p.modeIndex + 1) + "/" +
                                     std::to_string(p.modeCount) + "] " + p.modeName + ": " + p.phase + " (" +
                                     std::to_string(static_cast<int>(p.fraction * 100)) + "%, ETA " +
                                     durationText(p.etaSeconds) + ")";
            if (line != lastLine) std::cerr << line << "\n";
            lastLine = line;
        },
        &cancel);
    for (const auto& name : outcome.resumed)
        std::cout << "already in the profile: " << name << "\n";
    for (const auto& name : outcome.measured)
        std::cout << "measured: " << name << "\n";
    for (const auto& reason : outcome.skipped)
        std::cout << "skipped: " << reason << "\n";
    std::cout << "profile: " << outcome.outPath << "\n";
    if (outcome.cancelled) {
        std::cerr << "rooftop: bench cancelled; the original mode was restored; rerun to resume\n";
        return ExitUnavailable;
    }
    return ExitOk;
}

} // namespace rooftop::cli
