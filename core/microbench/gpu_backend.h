// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rooftop {

/// The microkernels of rooftop bench (docs/bench.md).
enum class KernelKind {
    Fp32Fma,     ///< FP32 FMA chains on CUDA cores
    Fp16Fma,     ///< FP16 half2 FMA chains on CUDA cores
    TensorFp16,  ///< register-only mma.sync FP16 -> FP32
    TensorInt8,  ///< register-only mma.sync INT8 -> INT32
    TensorFp8,   ///< register-only mma.sync FP8 E4M3 -> FP32 (compute capability 8.9+: Ada, Hopper, Thor)
    DramRead,    ///< 16-byte loads, sum stored behind a never-true condition
    DramWrite,   ///< 16-byte stores
    DramCopy,    ///< b = a
    DramTriad,   ///< a = b + q c
    Intensity,   ///< k FMAs per loaded element (KernelParams::intensity)
    EmptyLaunch, ///< an empty kernel: the dispatch overhead
};

/// Stable name of a kernel kind ("fp32-fma", "dram-triad", ...), as written into profile samples.
std::string kernelName(KernelKind kind, int intensity = 0);

/// What to run: one warm-up launch, then `samples` timed batches of `launches` back-to-back launches.
struct KernelParams {
    KernelKind kind = KernelKind::Fp32Fma; ///< the kernel to run
    int intensity = 0;                     ///< FMAs per loaded element for KernelKind::Intensity (1..1024)
    int launches = 1;                      ///< launches per timed batch (>= 1)
    int samples = 1;                       ///< timed batches (>= 1)
};

/// What a backend measured for one KernelParams.
struct KernelRun {
    std::vector<double> batchSeconds; ///< one per timed batch (CUDA events)
    double flopsPerLaunch = 0.0;      ///< FLOPs (ops for INT8) of one launch
    double bytesPerLaunch = 0.0;      ///< DRAM bytes of one launch (STREAM counting)
    int64_t smClockHz = 0; ///< SM clock measured during the batches (clock64 / globaltimer), 0 = unknown
};

/// The GPU a backend drives.
struct GpuInfo {
    std::string name;                       ///< the device name the driver reports
    int smCount = 0;                        ///< streaming multiprocessors
    int computeMajor = 0, computeMinor = 0; ///< compute capability
    /// True when the GPU runs mma.sync on FP8 (E4M3) operands: compute capability 8.9 or newer.
    bool fp8Tensor() const { return computeMajor * 10 + computeMinor >= 89; }
    int64_t l2Bytes = 0;                       ///< L2 cache size, bytes
    bool integrated = false;                   ///< shares memory with the CPU (a Jetson's iGPU)
    std::string driverVersion, runtimeVersion; ///< "13.0" style
};

/// Runs microkernels on one GPU. Implementations: the CUDA one (cuda_backend.h) and FakeGpuBackend.
class GpuBackend {
public:
    virtual ~GpuBackend() = default;
    /// The GPU this backend runs on.
    virtual GpuInfo info() const = 0;
    /// Runs one kernel; throws UnavailableError when the GPU fails.
    virtual KernelRun run(const KernelParams& params) = 0;
};

/// The CUDA backend on device `ordinal`, or nullptr with the reason in *whyNot (no driver, no device, built
/// without nvcc). Never throws.
std::unique_ptr<GpuBackend> openCudaBackend(int ordinal, std::string* whyNot);

} // namespace rooftop
