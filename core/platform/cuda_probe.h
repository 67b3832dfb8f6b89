// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"

#include <string>
#include <vector>

namespace rooftop {

/// The CUDA driver library the probe opens: $ROOFTOP_CUDA_LIBRARY when set, else "libcuda.so.1".
std::string cudaDriverLibrary();

/// Discrete NVIDIA GPUs the CUDA driver reports on this machine, each as a generic one-mode DeviceSpec from
/// its device properties (discreteDeviceFromProperties) with id "cuda:N", N the CUDA device ordinal.
/// Integrated GPUs (a Jetson's: it uses its catalog entry) are skipped. A missing library or symbol, a CUDA
/// error or no device gives an empty list: the probe never throws and never needs CUDA headers (the driver
/// API is dlopen()ed).
std::vector<DeviceSpec> probeCudaDevices();

} // namespace rooftop
