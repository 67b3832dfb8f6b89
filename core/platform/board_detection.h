// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"
#include "core/platform/sysfs_root.h"

#include <string>
#include <vector>

namespace rooftop {

/// What the board says about itself.
struct BoardIdentity {
    bool jetson = false;       ///< a Tegra device tree or an nv_tegra_release was found
    std::string model;         ///< /proc/device-tree/model
    std::string compatible;    ///< /proc/device-tree/compatible, NUL-separated entries joined by ","
    std::string l4tRelease;    ///< "35.4.1" from /etc/nv_tegra_release, empty when unknown
    std::string jetpack;       ///< "5.1.2" from the L4T release, empty when unknown
    std::string deviceId;      ///< catalog id, empty when no catalog entry matches
    std::string module;        ///< the module part number in compatible ("p3834-0008"), empty when none
    std::string unknownReason; ///< why a Jetson matched no catalog entry, one line (an unknown p3834 variant)
};

/// Parses the first line of /etc/nv_tegra_release ("# R35 (release), REVISION: 4.1, ...") into "35.4.1";
/// empty when it is not in that form.
std::string parseL4tRelease(const std::string& text);

/// The JetPack version of an L4T release ("35.4.1" -> "5.1.2"; R38.2 -> 7.0, R38.4 -> 7.1, R39.2 -> 7.2),
/// empty when unknown.
std::string jetpackForL4t(const std::string& l4t);

/// True for JetPack 7's L4T (R38 and later: Ubuntu 24.04, the Thor-class kernel and userspace, also on Orin
/// from 7.2).
bool isJetPack7(const std::string& l4t);

/// Reads model, compatible and release under `root` and matches them to the catalog: a module part number
/// (p3701-0000, ...) in `compatible`, else an exact model string. A module of a family the catalog knows
/// (p3834-xxxx: Thor) in a variant it does not know matches nothing, and unknownReason says so, rather than
/// taking a sibling's numbers by its model string. Never throws.
BoardIdentity detectBoard(const SysfsRoot& root, const std::vector<DeviceSpec>& catalog);

} // namespace rooftop
