// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/power_mode.h"
#include "core/platform/helper_request.h"
#include "core/platform/jetson_clocks.h"

#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// Changes the board's power mode. Implementations: JetsonModeSwitcher (through the privileged helper) and
/// test fakes. Every failure throws UnavailableError with one line.
class ModeSwitcher {
public:
    virtual ~ModeSwitcher() = default;
    /// The nvpmodel mode now in force, nothing when unknown.
    virtual std::optional<int> currentStockId() = 0;
    /// The clocks now in force.
    virtual ObservedClocks observe() = 0;
    /// nvpmodel -m ID.
    virtual void setStockMode(int id) = 0;
    /// Pins online cores, CPU, GPU (and EMC when mode.emcHz > 0) clocks to the mode's values.
    virtual void setClocks(const PowerMode& mode) = 0;
    /// Undoes setClocks' pinning (minimum clocks back to the ladder floors, EMC unlocked).
    virtual void releaseClocks() = 0;
};

/// Runs the privileged helper with arguments; returns its exit code and its output in *output.
class HelperRunner {
public:
    virtual ~HelperRunner() = default;
    /// Runs `rooftop-mode-helper args...` with privileges.
    virtual int run(const std::vector<std::string>& args, std::string* output) = 0;
};

/// The helper executable: $ROOFTOP_MODE_HELPER, else next to rooftop (build tree: mode_helper/), else
/// <prefix>/libexec/rooftop/rooftop-mode-helper; empty when none exists.
std::string defaultHelperPath();

/// Runs the helper through pkexec (polkit policy io.github.rooftop.mode-helper), or `sudo -n` without pkexec.
class ProcessHelperRunner final : public HelperRunner {
public:
    /// Runs the helper at `helperPath` (defaultHelperPath()).
    explicit ProcessHelperRunner(std::string helperPath);
    int run(const std::vector<std::string>& args, std::string* output) override;

private:
    std::string helperPath_;
};

/// Jetson switching: state read from sysfs and /var/lib/nvpmodel/status under `root`, changes through the
/// helper.
class JetsonModeSwitcher final : public ModeSwitcher {
public:
    /// State under `root`, changes through `helper` (which must outlive it).
    JetsonModeSwitcher(SysfsRoot root, HelperRunner& helper);
    std::optional<int> currentStockId() override;
    ObservedClocks observe() override;
    void setStockMode(int id) override;
    void setClocks(const PowerMode& mode) override;
    void releaseClocks() override;

private:
    void call(const HelperRequest& request);

    SysfsRoot root_;
    HelperRunner& helper_;
    ClockPaths paths_;
};

/// Empty when the observed clocks show `mode` in force, else what differs ("GPU max 408 MHz, wanted 612").
/// Stock modes are checked against their caps (max clocks, online cores), custom modes against pinned
/// min = max clocks; EMC only when it could be read.
std::string clockMismatch(const PowerMode& mode, const ObservedClocks& seen);

/// Why switching to `mode` needs a reboot (its active TPCs differ from the current TPC mask), or empty.
std::string rebootReason(const DeviceSpec& device, const ObservedClocks& now, const PowerMode& mode);

/// Releases the pinned clocks, then sets stock mode `stockId` even when the release failed; rethrows the
/// first error afterwards.
void releaseThenSetStock(ModeSwitcher& switcher, int stockId);

/// Applies `mode` (stock: setStockMode; custom: setClocks) and verifies it took effect; throws
/// UnavailableError naming the mismatch when it did not.
void switchAndVerify(ModeSwitcher& switcher, const PowerMode& mode);

} // namespace rooftop
