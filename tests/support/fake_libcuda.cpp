// SPDX-License-Identifier: GPL-3.0-or-later
// A stand-in for libcuda.so.1 that the CUDA probe tests dlopen() through ROOFTOP_CUDA_LIBRARY: device 0 is a
// discrete H100-like GPU, device 1 an integrated (Jetson-like) one. FAKE_CUDA_WITHOUT_ATTRIBUTE builds it
// without cuDeviceGetAttribute (a library the probe must refuse). $FAKE_CUDA_FAIL=init makes cuInit fail,
// $FAKE_CUDA_FAIL=none reports zero devices.
#include <cstddef>
#include <cstdlib>
#include <cstring>

#define FAKE_CUDA_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

struct FakeDevice {
    const char* name;
    int integrated, sms, major, minor, clockKhz, memoryClockKhz, busBits;
    size_t bytes;
};

const FakeDevice devices[] = {
    {"NVIDIA H100 80GB HBM3", 0, 132, 9, 0, 1980000, 2619000, 5120, size_t(80) << 30},
    {"Orin (nvgpu)", 1, 16, 8, 7, 1300500, 3199000, 256, size_t(64) << 30},
};
constexpr int deviceCount = 2;
constexpr int invalidValue = 1;    // CUDA_ERROR_INVALID_VALUE
constexpr int notInitialized = 3;  // CUDA_ERROR_NOT_INITIALIZED
constexpr int invalidDevice = 101; // CUDA_ERROR_INVALID_DEVICE

bool initialized = false;

bool failing(const char* what) {
    const char* fail = std::getenv("FAKE_CUDA_FAIL");
    return fail && std::strcmp(fail, what) == 0;
}

} // namespace

FAKE_CUDA_EXPORT int cuInit(unsigned int flags) {
    if (flags != 0 || failing("init")) return invalidValue;
    initialized = true;
    return 0;
}

FAKE_CUDA_EXPORT int cuDeviceGetCount(int* count) {
    if (!initialized) return notInitialized;
    *count = failing("none") ? 0 : deviceCount;
    return 0;
}

FAKE_CUDA_EXPORT int cuDeviceGet(int* device, int ordinal) {
    if (!initialized) return notInitialized;
    if (ordinal < 0 || ordinal >= deviceCount) return invalidDevice;
    *device = ordinal;
    return 0;
}

FAKE_CUDA_EXPORT int cuDeviceGetName(char* name, int length, int device) {
    if (device < 0 || device >= deviceCount || length <= 0) return invalidValue;
    std::strncpy(name, devices[device].name, static_cast<size_t>(length));
    name[length - 1] = '\0';
    return 0;
}

FAKE_CUDA_EXPORT int cuDeviceTotalMem_v2(size_t* bytes, int device) {
    if (device < 0 || device >= deviceCount) return invalidDevice;
    *bytes = devices[device].bytes;
    return 0;
}

#ifndef FAKE_CUDA_WITHOUT_ATTRIBUTE
FAKE_CUDA_EXPORT int cuDeviceGetAttribute(int* value, int attribute, int device) {
    if (device < 0 || device >= deviceCount) return invalidDevice;
    const FakeDevice& d = devices[device];
    switch (attribute) {
    case 13:
        *value = d.clockKhz;
        return 0; // CLOCK_RATE
    case 16:
        *value = d.sms;
        return 0; // MULTIPROCESSOR_COUNT
    case 18:
        *value = d.integrated;
        return 0; // INTEGRATED
    case 36:
        *value = d.memoryClockKhz;
        return 0; // MEMORY_CLOCK_RATE
    case 37:
        *value = d.busBits;
        return 0; // GLOBAL_MEMORY_BUS_WIDTH
    case 75:
        *value = d.major;
        return 0; // COMPUTE_CAPABILITY_MAJOR
    case 76:
        *value = d.minor;
        return 0; // COMPUTE_CAPABILITY_MINOR
    default:
        return invalidValue;
    }
}
#endif
