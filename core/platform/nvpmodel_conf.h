// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rooftop {

/// One `< PARAM TYPE=... NAME=... >` declaration and its argument lines (ARG -> sysfs path).
struct NvpmodelParam {
    std::string type;                             ///< FILE, CLOCK, HWMON
    std::string name;                             ///< CPU_ONLINE, GPU, EMC, TPC_POWER_GATING, ...
    std::map<std::string, std::string> arguments; ///< ARG -> sysfs path
};

/// One setting line inside a POWER_MODEL block: "<PARAM> <ARG> <value>".
struct NvpmodelSetting {
    std::string param, argument, value; ///< PARAM, ARG and the value, as written
};

/// One `< POWER_MODEL ID=n NAME=... >` block.
struct NvpmodelMode {
    int id = -1;                           ///< its ID, the nvpmodel mode number
    std::string name;                      ///< its NAME; empty when absent
    std::vector<NvpmodelSetting> settings; ///< in the order written

    /// The value of PARAM ARG as an integer ("-1" allowed), or nothing.
    std::optional<int64_t> integer(const std::string& param, const std::string& argument) const;
    /// Online cores: CPU_ONLINE CORE_n settings equal to 1, plus core 0 (never offlined); 0 without any.
    int onlineCores() const;
    /// TPC_POWER_GATING TPC_PG_MASK, or -1 when the mode has none.
    int tpcPgMask() const;
    /// GPU_POWER_GATING GPU_PG_MASK (Jetson Thor, JetPack 7: a GPU module option that needs a reboot to
    /// change), or -1 when the mode has none.
    int gpuPgMask() const;
};

/// A parsed nvpmodel.conf (jetson.md §2.1).
struct NvpmodelConf {
    std::vector<NvpmodelParam> params; ///< in the order declared
    std::vector<NvpmodelMode> modes;   ///< in the order written
    int defaultId = -1;                ///< PM_CONFIG DEFAULT, -1 when absent

    /// The mode with this id, or nullptr.
    const NvpmodelMode* mode(int id) const;
    /// The CLOCK param that caps the CPU Rooftop observes (cpu0): the one whose MAX_FREQ path names
    /// cpu0/cpufreq, else the first CLOCK param named CPU_*; empty when none. Names differ per SoC
    /// (CPU_A78_0, CPU_DENVER_0, CPU_A57, ...; Thor's are not public), so they are found, never assumed.
    std::string cpuClockParam() const;
    /// The CLOCK param of the GPU: the one named GPU, else one whose MAX_FREQ path is a GPU devfreq
    /// (gpu-gpc-0 on Thor, 17000000.gpu / .ga10b / .gv11b / .gp10b / 57000000.gpu); empty when none.
    std::string gpuClockParam() const;
    /// The CLOCK param of the memory clock: EMC, else one whose MAX_FREQ path names emc or bwmgr; empty when
    /// none.
    std::string emcClockParam() const;
};

/// Parses nvpmodel.conf text. Tolerant of spacing ("<PARAM ..." and "< PARAM ..."), comments and blank
/// lines; throws InputError naming the line for a malformed header, a setting outside a block, a duplicate or
/// non-numeric mode id, or more than 256 modes / 1 MiB of text.
NvpmodelConf parseNvpmodelConf(const std::string& text);

/// The mode id of /var/lib/nvpmodel/status ("pmode:0002 fmode:quiet" -> 2), or nothing.
std::optional<int> parseNvpmodelStatus(const std::string& text);

} // namespace rooftop
