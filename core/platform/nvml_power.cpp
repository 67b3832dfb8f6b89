// SPDX-License-Identifier: GPL-3.0-or-later
// NVML without its headers: the few entry points and types below are those of nvml.h (reference:
// microbench.md §6.1). On Jetson NVML initialises but power queries return NOT_SUPPORTED.
#include "core/platform/nvml_power.h"

#include "core/platform/dl_symbol.h"

#include <cstdlib>
#include <dlfcn.h>

namespace rooftop {

namespace {

using NvmlReturn = int; // nvmlReturn_t; 0 = NVML_SUCCESS, 3 = NVML_ERROR_NOT_SUPPORTED
struct NvmlDeviceOpaque;
using NvmlDevice = NvmlDeviceOpaque*;

using NvmlInit = NvmlReturn (*)();
using NvmlShutdown = NvmlReturn (*)();
using NvmlGetHandle = NvmlReturn (*)(unsigned index, NvmlDevice* device);
using NvmlGetPower = NvmlReturn (*)(NvmlDevice device, unsigned* milliwatts);

constexpr NvmlReturn nvmlSuccess = 0;
constexpr NvmlReturn nvmlNotSupported = 3;

class NvmlPowerSource final : public PowerSource {
public:
    NvmlPowerSource(void* library, NvmlShutdown shutdown, NvmlGetPower power, NvmlDevice device)
        : library_(library), shutdown_(shutdown), power_(power), device_(device) {}
    ~NvmlPowerSource() override {
        shutdown_();
        (void)library_; // the library stays loaded: the driver may keep threads of its own
    }
    std::string description() const override { return "NVML board power"; }
    std::optional<double> readWatts() override {
        unsigned milliwatts = 0;
        if (power_(device_, &milliwatts) != nvmlSuccess) return std::nullopt;
        return milliwatts / 1000.0;
    }

private:
    void* library_;
    NvmlShutdown shutdown_;
    NvmlGetPower power_;
    NvmlDevice device_;
};

} // namespace

std::string nvmlLibrary() {
    if (const char* path = std::getenv("ROOFTOP_NVML_LIBRARY"); path && *path) return path;
    return "libnvidia-ml.so.1";
}

std::unique_ptr<PowerSource> openNvmlPowerSource(unsigned deviceIndex, std::string* whyNot) {
    auto unavailable = [&](const std::string& why) -> std::unique_ptr<PowerSource> {
        if (whyNot) *whyNot = "NVML power not available: " + why;
        return nullptr;
    };
    const std::string path = nvmlLibrary();
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) return unavailable("cannot load " + path);
    NvmlInit init = nullptr;
    NvmlShutdown shutdown = nullptr;
    NvmlGetHandle handle = nullptr;
    NvmlGetPower power = nullptr;
    if (!resolveSymbol(library, "nvmlInit_v2", init) || !resolveSymbol(library, "nvmlShutdown", shutdown) ||
        !resolveSymbol(library, "nvmlDeviceGetHandleByIndex_v2", handle) ||
        !resolveSymbol(library, "nvmlDeviceGetPowerUsage", power)) {
        dlclose(library);
        return unavailable(path + " lacks an NVML entry point");
    }
    if (init() != nvmlSuccess) return unavailable("nvmlInit failed");
    NvmlDevice device = nullptr;
    if (handle(deviceIndex, &device) != nvmlSuccess) {
        shutdown();
        return unavailable("no NVML device " + std::to_string(deviceIndex));
    }
    unsigned milliwatts = 0;
    const NvmlReturn status = power(device, &milliwatts);
    if (status != nvmlSuccess) {
        shutdown();
        return unavailable(status == nvmlNotSupported
                               ? "power readings not supported on this GPU"
                               : "power query failed (NVML error " + std::to_string(status) + ")");
    }
    return std::make_unique<NvmlPowerSource>(library, shutdown, power, device);
}

} // namespace rooftop
