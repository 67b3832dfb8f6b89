// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzzes the nvpmodel.conf reader and every accessor of what it returns; InputError is the only allowed way
// out.
#include "core/common/errors.h"
#include "core/platform/nvpmodel_conf.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const rooftop::NvpmodelConf conf = rooftop::parseNvpmodelConf(text);
        const std::string cpu = conf.cpuClockParam(), gpu = conf.gpuClockParam(), emc = conf.emcClockParam();
        for (const auto& mode : conf.modes) {
            (void)mode.onlineCores();
            (void)mode.tpcPgMask();
            (void)mode.gpuPgMask();
            (void)mode.integer("GPU", "MAX_FREQ");
            (void)mode.integer(cpu, "MAX_FREQ");
            (void)mode.integer(gpu, "MAX_FREQ_KNEXT");
            (void)mode.integer(emc, "MAX_FREQ");
            for (const auto& s : mode.settings)
                (void)mode.integer(s.param, s.argument);
        }
        (void)conf.mode(conf.defaultId);
    } catch (const rooftop::InputError&) {
    }
    (void)rooftop::parseNvpmodelStatus(text);
    return 0;
}
