// SPDX-License-Identifier: GPL-3.0-or-later
// Discrete NVIDIA GPUs at run time through the CUDA driver API, opened with dlopen() so that Rooftop builds
// and runs without CUDA. Only the few entry points below are used; their types and the attribute numbers are
// those of cuda.h (CUresult and CUdevice are ints, CUdevice_attribute an enum).
#include "core/platform/cuda_probe.h"

#include "core/platform/dl_symbol.h"

#include <QFile>
#include <QThread>
#include <cstddef>
#include <cstdlib>
#include <dlfcn.h>
#include <exception>

namespace rooftop {

namespace {

using CuResult = int; // CUresult; 0 = CUDA_SUCCESS
using CuDevice = int; // CUdevice

using CuInit = CuResult (*)(unsigned int flags);
using CuDeviceGetCount = CuResult (*)(int* count);
using CuDeviceGet = CuResult (*)(CuDevice* device, int ordinal);
using CuDeviceGetName = CuResult (*)(char* name, int length, CuDevice device);
using CuDeviceGetAttribute = CuResult (*)(int* value, int attribute, CuDevice device);
using CuDeviceTotalMem = CuResult (*)(size_t* bytes, CuDevice device);

// CUdevice_attribute values (cuda.h).
constexpr int attributeClockRateKhz = 13;           // CU_DEVICE_ATTRIBUTE_CLOCK_RATE
constexpr int attributeMultiprocessorCount = 16;    // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
constexpr int attributeIntegrated = 18;             // CU_DEVICE_ATTRIBUTE_INTEGRATED
constexpr int attributeMemoryClockRateKhz = 36;     // CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE
constexpr int attributeGlobalMemoryBusWidth = 37;   // CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH
constexpr int attributeComputeCapabilityMajor = 75; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int attributeComputeCapabilityMinor = 76; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR

constexpr CuResult cudaSuccess = 0;
constexpr int maxDevices = 64;

struct DriverApi {
    CuInit init = nullptr;
    CuDeviceGetCount getCount = nullptr;
    CuDeviceGet get = nullptr;
    CuDeviceGetName getName = nullptr;
    CuDeviceGetAttribute getAttribute = nullptr;
    CuDeviceTotalMem totalMem = nullptr;
};

// The top clock of the host CPU in kHz (cpufreq), 0 when unknown.
int64_t hostCpuMaxKhz() {
    QFile file(QStringLiteral("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"));
    if (!file.open(QIODevice::ReadOnly)) return 0;
    bool ok = false;
    const qint64 khz = file.readAll().trimmed().toLongLong(&ok);
    return ok && khz > 0 ? khz : 0;
}

// One device's spec, or false when a property cannot be read, the GPU is integrated or the spec is refused.
bool probeDevice(const DriverApi& api, int ordinal, DeviceSpec& spec) {
    CuDevice device = 0;
    if (api.get(&device, ordinal) != cudaSuccess) return false;
    auto attribute = [&](int which, int& value) {
        value = 0;
        return api.getAttribute(&value, which, device) == cudaSuccess;
    };
    int integrated = 0, sms = 0, major = 0, minor = 0, clockKhz = 0, memoryClockKhz = 0, busBits = 0;
    if (!attribute(attributeIntegrated, integrated) || integrated != 0) return false;
    if (!attribute(attributeMultiprocessorCount, sms) || !attribute(attributeComputeCapabilityMajor, major) ||
        !attribute(attributeComputeCapabilityMinor, minor) || !attribute(attributeClockRateKhz, clockKhz) ||
        !attribute(attributeMemoryClockRateKhz, memoryClockKhz) ||
        !attribute(attributeGlobalMemoryBusWidth, busBits))
        return false;
    char name[256] = {};
    if (api.getName(name, static_cast<int>(sizeof name) - 1, device) != cudaSuccess) name[0] = '\0';
    name[sizeof name - 1] = '\0';
    size_t bytes = 0;
    if (api.totalMem(&bytes, device) != cudaSuccess) bytes = 0;
    try {
        spec = discreteDeviceFromProperties(name, sms, major, minor, clockKhz, memoryClockKhz, busBits,
                                            static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0), 0.0,
                                            QThread::idealThreadCount(), hostCpuMaxKhz());
    } catch (const std::exception&) {
        return false; // a property out of range or a compute capability older than 3.0
    }
    spec.id = "cuda:" + std::to_string(ordinal);
    spec.sourceFile = cudaDriverLibrary();
    return true;
}

} // namespace

std::string cudaDriverLibrary() {
    if (const char* path = std::getenv("ROOFTOP_CUDA_LIBRARY"); path && *path) return path;
    return "libcuda.so.1";
}

std::vector<DeviceSpec> probeCudaDevices() {
    const std::string path = cudaDriverLibrary();
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) return {};
    DriverApi api;
    if (!resolveSymbol(library, "cuInit", api.init) ||
        !resolveSymbol(library, "cuDeviceGetCount", api.getCount) ||
        !resolveSymbol(library, "cuDeviceGet", api.get) ||
        !resolveSymbol(library, "cuDeviceGetName", api.getName) ||
        !resolveSymbol(library, "cuDeviceGetAttribute", api.getAttribute) ||
        !resolveSymbol(library, "cuDeviceTotalMem_v2", api.totalMem)) {
        dlclose(library);
        return {};
    }
    // Once cuInit ran the driver may have started threads of its own: the library stays loaded.
    int count = 0;
    if (api.init(0) != cudaSuccess || api.getCount(&count) != cudaSuccess || count <= 0) return {};
    std::vector<DeviceSpec> devices;
    for (int ordinal = 0; ordinal < count && ordinal < maxDevices; ++ordinal) {
        DeviceSpec spec;
        if (probeDevice(api, ordinal, spec)) devices.push_back(std::move(spec));
    }
    return devices;
}

} // namespace rooftop
