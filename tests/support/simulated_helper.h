// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/platform/mode_switcher.h"
#include "core/platform/sysfs_root.h"

#include <QTemporaryDir>
#include <string>
#include <vector>

namespace rooftop::test {

/// A copy of a fixture Jetson tree (tests/fixtures/jetson/BOARD) in a temporary folder.
struct BoardCopy {
    explicit BoardCopy(const char* board);
    SysfsRoot root() const { return SysfsRoot(dir.path().toStdString()); }
    QTemporaryDir dir;
};

/// The privileged helper as a function call: its real validation and write plan, then the kernel's and
/// nvpmodel's reactions on the fake sysfs tree.
class SimulatedHelper final : public HelperRunner {
public:
    explicit SimulatedHelper(SysfsRoot root) : root_(std::move(root)) {}
    int run(const std::vector<std::string>& args, std::string* output) override;

    std::vector<std::vector<std::string>> calls;
    bool failAll = false;
    bool failRelease = false;  ///< release-clocks fails, everything else works
    bool ignoreWrites = false; ///< accepts set-clocks but changes nothing (clocks "do not take effect")

private:
    void settle(const ClockPaths& paths, const HelperLimits& limits);
    SysfsRoot root_;
};

} // namespace rooftop::test
