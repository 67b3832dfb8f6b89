// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA microkernels of rooftop bench and the GpuBackend that runs them (docs/bench.md). Compute kernels
// are long unrolled register-only chains with several independent chains per thread whose result is stored
// only behind a never-true runtime condition; DRAM kernels use 16-byte accesses with several loads in flight
// over cudaMalloc arrays of at least 8x L2. Times come from CUDA events; the SM clock from clock64 /
// globaltimer.
#include "core/microbench/gpu_backend.h"

#include <algorithm>
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace rooftop {

namespace {

constexpr int threadsPerBlock = 256;
constexpr int chains = 8;          // independent accumulators per thread
constexpr int unrolled = 16;       // FMAs per chain per loop trip (8 x 16 = 128 per trip)
constexpr int computeTrips = 1024; // loop trips of the compute kernels per launch

// ---- compute kernels -----------------------------------------------------------------------------------

__global__ void fp32FmaKernel(float b, float c, int trips, int neverTrue, float* out) {
    float a[chains];
#pragma unroll
    for (int j = 0; j < chains; ++j)
        a[j] = threadIdx.x * 1e-7f + j;
    for (int t = 0; t < trips; ++t) {
#pragma unroll
        for (int u = 0; u < unrolled; ++u) {
#pragma unroll
            for (int j = 0; j < chains; ++j)
                a[j] = fmaf(a[j], b, c);
        }
    }
    float sum = 0.f;
#pragma unroll
    for (int j = 0; j < chains; ++j)
        sum += a[j];
    if (neverTrue) out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void fp16FmaKernel(float bf, float cf, int trips, int neverTrue, float* out) {
    const __half2 b = __float2half2_rn(bf), c = __float2half2_rn(cf);
    __half2 a[chains];
#pragma unroll
    for (int j = 0; j < chains; ++j)
        a[j] = __float2half2_rn(threadIdx.x * 1e-4f + j);
    for (int t = 0; t < trips; ++t) {
#pragma unroll
        for (int u = 0; u < unrolled; ++u) {
#pragma unroll
            for (int j = 0; j < chains; ++j)
                a[j] = __hfma2(a[j], b, c);
        }
    }
    __half2 sum = a[0];
#pragma unroll
    for (int j = 1; j < chains; ++j)
        sum = __hadd2(sum, a[j]);
    if (neverTrue) out[blockIdx.x * blockDim.x + threadIdx.x] = __low2float(sum) + __high2float(sum);
}

constexpr int mmaAccumulators = 4; // independent accumulator sets per warp

// A register of two finite FP16 values in [0.5, 1) from hash bits: 0.5 + m / 2048 (m < 1024) is exact in
// FP16, so no Inf, NaN, zero or denormal reaches the tensor cores (those would skew their power).
__device__ __forceinline__ unsigned finiteHalfPair(unsigned hash) {
    hash = hash * 2654435761u + 0x9e3779b9u;
    const __half2 pair = __floats2half2_rn(0.5f + static_cast<float>(hash & 0x3ffu) / 2048.f,
                                           0.5f + static_cast<float>((hash >> 16) & 0x3ffu) / 2048.f);
    return *reinterpret_cast<const unsigned*>(&pair);
}

// mma.sync m16n8k16 FP16 x FP16 -> FP32 on register fragments (sm_80+): 4096 FLOP per warp per mma.
__global__ void tensorFp16Kernel(unsigned seed, int trips, int neverTrue, float* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned h = seed ^ threadIdx.x;
    unsigned a0 = finiteHalfPair(h), a1 = finiteHalfPair(h * 3u), a2 = finiteHalfPair(h * 5u),
             a3 = finiteHalfPair(h * 7u), b0 = finiteHalfPair(h * 11u), b1 = finiteHalfPair(h * 13u);
    float d[mmaAccumulators][4] = {};
    for (int t = 0; t < trips; ++t) {
#pragma unroll
        for (int u = 0; u < unrolled; ++u) {
#pragma unroll
            for (int k = 0; k < mmaAccumulators; ++k) {
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                             : "+f"(d[k][0]), "+f"(d[k][1]), "+f"(d[k][2]), "+f"(d[k][3])
                             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
            }
        }
    }
    float sum = 0.f;
#pragma unroll
    for (int k = 0; k < mmaAccumulators; ++k)
        sum += d[k][0] + d[k][1] + d[k][2] + d[k][3];
    if (neverTrue) out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
#else
    if (neverTrue) out[0] = seed + trips;
#endif
}

// A register of four finite FP8 E4M3 values in [1, 2) from hash bits: sign 0, exponent 0111 (2^0), a 3-bit
// mantissa from the hash. No NaN (S.1111.111), zero or denormal reaches the tensor cores.
__device__ __forceinline__ unsigned finiteE4m3Quad(unsigned hash) {
    hash = hash * 2654435761u + 0x9e3779b9u;
    unsigned quad = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i)
        quad |= (0x38u | ((hash >> (3 * i)) & 0x7u)) << (8 * i);
    return quad;
}

// mma.sync m16n8k32 FP8 (E4M3) x FP8 -> FP32 on register fragments (sm_89+: Ada, Hopper, Blackwell incl.
// Jetson AGX Thor, sm_110): 8192 FLOP per warp per mma. Built for every architecture, it runs only where
// __CUDA_ARCH__ >= 890 (Orin's sm_87 has no FP8 tensor path: the launcher refuses it there).
__global__ void tensorFp8Kernel(unsigned seed, int trips, int neverTrue, float* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    const unsigned h = seed ^ threadIdx.x;
    unsigned a0 = finiteE4m3Quad(h), a1 = finiteE4m3Quad(h * 3u), a2 = finiteE4m3Quad(h * 5u),
             a3 = finiteE4m3Quad(h * 7u), b0 = finiteE4m3Quad(h * 11u), b1 = finiteE4m3Quad(h * 13u);
    float d[mmaAccumulators][4] = {};
    for (int t = 0; t < trips; ++t) {
#pragma unroll
        for (int u = 0; u < unrolled; ++u) {
#pragma unroll
            for (int k = 0; k < mmaAccumulators; ++k) {
                asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
                             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                             : "+f"(d[k][0]), "+f"(d[k][1]), "+f"(d[k][2]), "+f"(d[k][3])
                             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
            }
        }
    }
    float sum = 0.f;
#pragma unroll
    for (int k = 0; k < mmaAccumulators; ++k)
        sum += d[k][0] + d[k][1] + d[k][2] + d[k][3];
    if (neverTrue) out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
#else
    if (neverTrue) out[0] = seed + trips;
#endif
}

// mma.sync m16n8k32 INT8 x INT8 -> INT32 on register fragments (sm_80+): 8192 ops per warp per mma.
__global__ void tensorInt8Kernel(unsigned seed, int trips, int neverTrue, float* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned a0 = seed ^ threadIdx.x, a1 = a0 * 3u, a2 = a0 * 5u, a3 = a0 * 7u, b0 = a0 * 11u, b1 = a0 * 13u;
    int d[mmaAccumulators][4] = {};
    for (int t = 0; t < trips; ++t) {
#pragma unroll
        for (int u = 0; u < unrolled; ++u) {
#pragma unroll
            for (int k = 0; k < mmaAccumulators; ++k) {
                asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
                             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                             : "+r"(d[k][0]), "+r"(d[k][1]), "+r"(d[k][2]), "+r"(d[k][3])
                             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
            }
        }
    }
    int sum = 0;
#pragma unroll
    for (int k = 0; k < mmaAccumulators; ++k)
        sum += d[k][0] + d[k][1] + d[k][2] + d[k][3];
    if (neverTrue) out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<float>(sum);
#else
    if (neverTrue) out[0] = seed + trips;
#endif
}

// ---- DRAM kernels (grid-stride, 4 x 16-byte loads in flight per thread) ----------------------------------

constexpr int inFlight = 4;

__global__ void dramReadKernel(const float4* __restrict__ a, size_t n, int neverTrue, float* out) {
    float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride * inFlight) {
        float4 v[inFlight];
#pragma unroll
        for (int j = 0; j < inFlight; ++j) {
            const size_t k = i + j * stride;
            v[j] = k < n ? __ldcs(a + k) : make_float4(0.f, 0.f, 0.f, 0.f);
        }
#pragma unroll
        for (int j = 0; j < inFlight; ++j) {
            sum.x += v[j].x;
            sum.y += v[j].y;
            sum.z += v[j].z;
            sum.w += v[j].w;
        }
    }
    if (neverTrue) out[blockIdx.x * blockDim.x + threadIdx.x] = sum.x + sum.y + sum.z + sum.w;
}

__global__ void dramWriteKernel(float4* __restrict__ a, size_t n, float value) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    const float4 v = make_float4(value, value + 1.f, value + 2.f, value + 3.f);
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        __stcs(a + i, v);
}

__global__ void dramCopyKernel(const float4* __restrict__ a, float4* __restrict__ b, size_t n) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride * inFlight) {
        float4 v[inFlight];
#pragma unroll
        for (int j = 0; j < inFlight; ++j)
            if (i + j * stride < n) v[j] = __ldcs(a + i + j * stride);
#pragma unroll
        for (int j = 0; j < inFlight; ++j)
            if (i + j * stride < n) __stcs(b + i + j * stride, v[j]);
    }
}

__global__ void dramTriadKernel(float4* __restrict__ a, const float4* __restrict__ b,
                                const float4* __restrict__ c, size_t n, float q) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride * inFlight) {
        float4 x[inFlight], y[inFlight];
#pragma unroll
        for (int j = 0; j < inFlight; ++j)
            if (i + j * stride < n) {
                x[j] = __ldcs(b + i + j * stride);
                y[j] = __ldcs(c + i + j * stride);
            }
#pragma unroll
        for (int j = 0; j < inFlight; ++j)
            if (i + j * stride < n)
                __stcs(a + i + j * stride, make_float4(x[j].x + q * y[j].x, x[j].y + q * y[j].y,
                                                       x[j].z + q * y[j].z, x[j].w + q * y[j].w));
    }
}

// k FMAs per loaded FP32 element; the 4 lanes of a float4 are 4 independent chains.
template <int K>
__global__ void intensityKernel(const float4* __restrict__ a, size_t n, float b, int neverTrue, float* out) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    float sum = 0.f;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float4 v = __ldcs(a + i);
#pragma unroll
        for (int k = 0; k < K; ++k) {
            v.x = fmaf(v.x, b, 0.5f);
            v.y = fmaf(v.y, b, 0.5f);
            v.z = fmaf(v.z, b, 0.5f);
            v.w = fmaf(v.w, b, 0.5f);
        }
        sum += v.x + v.y + v.z + v.w;
    }
    if (neverTrue) out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void emptyKernel() {}

__global__ void initKernel(float4* a, size_t n, float seed) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const float x = seed + static_cast<float>(i % 1021) * 1e-3f;
        a[i] = make_float4(x, x + 0.25f, x + 0.5f, x + 0.75f);
    }
}

// One block spins for `nanoseconds` of globaltimer and records elapsed SM cycles and ns.
__global__ void clockProbeKernel(unsigned long long nanoseconds, unsigned long long* result) {
    unsigned long long t0, t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    const long long c0 = clock64();
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    } while (t1 - t0 < nanoseconds);
    const long long c1 = clock64();
    if (threadIdx.x == 0) {
        result[0] = static_cast<unsigned long long>(c1 - c0);
        result[1] = t1 - t0;
    }
}

// ---- the backend ---------------------------------------------------------------------------------------

struct CudaFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) throw CudaFailure(std::string(what) + ": " + cudaGetErrorString(status));
}

std::string versionText(int version) {
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

class CudaBackend final : public GpuBackend {
public:
    explicit CudaBackend(int ordinal) : ordinal_(ordinal) {
        check(cudaSetDevice(ordinal), "cudaSetDevice");
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, ordinal), "cudaGetDeviceProperties");
        info_.name = prop.name;
        info_.smCount = prop.multiProcessorCount;
        info_.computeMajor = prop.major;
        info_.computeMinor = prop.minor;
        info_.l2Bytes = prop.l2CacheSize;
        info_.integrated = prop.integrated != 0;
        int driver = 0, runtime = 0;
        cudaDriverGetVersion(&driver);
        cudaRuntimeGetVersion(&runtime);
        info_.driverVersion = versionText(driver);
        info_.runtimeVersion = versionText(runtime);
        maxThreadsPerSm_ = prop.maxThreadsPerMultiProcessor;
        check(cudaStreamCreate(&stream_), "cudaStreamCreate");
        check(cudaEventCreate(&start_), "cudaEventCreate");
        check(cudaEventCreate(&stop_), "cudaEventCreate");
        check(cudaMalloc(&sink_, sizeof(float) * computeBlocks() * threadsPerBlock), "cudaMalloc");
        check(cudaMalloc(&probe_, 2 * sizeof(unsigned long long)), "cudaMalloc");
    }
    ~CudaBackend() override {
        cudaFree(a_);
        cudaFree(b_);
        cudaFree(c_);
        cudaFree(sink_);
        cudaFree(probe_);
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
        cudaStreamDestroy(stream_);
    }

    GpuInfo info() const override { return info_; }

    KernelRun run(const KernelParams& params) override {
        try {
            check(cudaSetDevice(ordinal_), "cudaSetDevice");
            KernelRun result;
            launch(params, result); // warm-up, also sets the per-launch counts
            check(cudaStreamSynchronize(stream_), "warm-up");
            for (int s = 0; s < std::max(1, params.samples); ++s) {
                check(cudaEventRecord(start_, stream_), "cudaEventRecord");
                for (int l = 0; l < std::max(1, params.launches); ++l)
                    launch(params, result);
                check(cudaEventRecord(stop_, stream_), "cudaEventRecord");
                check(cudaEventSynchronize(stop_), "kernel");
                float ms = 0.f;
                check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
                result.batchSeconds.push_back(ms * 1e-3);
            }
            result.smClockHz = measureSmClock();
            return result;
        } catch (const CudaFailure& failure) {
            throw std::runtime_error(std::string("CUDA: ") + failure.what());
        }
    }

private:
    int computeBlocks() const { return info_.smCount * std::max(1, maxThreadsPerSm_ / threadsPerBlock) * 4; }

    // Elements (float4) per DRAM array: at least 8x L2 and 64 MiB, at most a quarter of free memory / 3.
    void ensureArrays() {
        if (a_) return;
        size_t freeBytes = 0, totalBytes = 0;
        check(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo");
        const size_t l2Clean = static_cast<size_t>(info_.l2Bytes) * 8; // smaller arrays stay partly in L2
        size_t bytes = std::max<size_t>(l2Clean, size_t(64) << 20);
        bytes = std::min(bytes, freeBytes / 12);
        if (bytes < l2Clean)
            throw CudaFailure("not enough free GPU memory for an L2-clean DRAM test (need " +
                              std::to_string((l2Clean * 12) >> 20) + " MiB, " +
                              std::to_string(freeBytes >> 20) + " MiB free)");
        elements_ = bytes / sizeof(float4);
        if (elements_ < 1024) throw CudaFailure("not enough free GPU memory for the DRAM arrays");
        check(cudaMalloc(&a_, elements_ * sizeof(float4)), "cudaMalloc");
        check(cudaMalloc(&b_, elements_ * sizeof(float4)), "cudaMalloc");
        check(cudaMalloc(&c_, elements_ * sizeof(float4)), "cudaMalloc");
        const int blocks = computeBlocks();
        initKernel<<<blocks, threadsPerBlock, 0, stream_>>>(a_, elements_, 1.f);
        initKernel<<<blocks, threadsPerBlock, 0, stream_>>>(b_, elements_, 2.f);
        initKernel<<<blocks, threadsPerBlock, 0, stream_>>>(c_, elements_, 3.f);
        check(cudaStreamSynchronize(stream_), "init");
    }

    template <int K> void launchIntensity(int blocks, KernelRun& r) {
        intensityKernel<K><<<blocks, threadsPerBlock, 0, stream_>>>(b_, elements_, 0.999f, 0, sink_);
        r.flopsPerLaunch = 2.0 * K * 4.0 * elements_;
        r.bytesPerLaunch = 16.0 * elements_;
    }

    void launchIntensityStep(int k, int blocks, KernelRun& r) {
        switch (k) {
        case 1:
            return launchIntensity<1>(blocks, r);
        case 2:
            return launchIntensity<2>(blocks, r);
        case 4:
            return launchIntensity<4>(blocks, r);
        case 8:
            return launchIntensity<8>(blocks, r);
        case 16:
            return launchIntensity<16>(blocks, r);
        case 32:
            return launchIntensity<32>(blocks, r);
        case 64:
            return launchIntensity<64>(blocks, r);
        case 128:
            return launchIntensity<128>(blocks, r);
        case 256:
            return launchIntensity<256>(blocks, r);
        case 512:
            return launchIntensity<512>(blocks, r);
        case 1024:
            return launchIntensity<1024>(blocks, r);
        default:
            throw CudaFailure("intensity " + std::to_string(k) + " is not one of 1, 2, 4, ..., 1024");
        }
    }

    void launch(const KernelParams& p, KernelRun& r) {
        const int blocks = computeBlocks();
        const double threads = static_cast<double>(blocks) * threadsPerBlock;
        const double warps = threads / 32.0;
        const double fmasPerThread = static_cast<double>(computeTrips) * unrolled * chains;
        const bool tensorCapable = info_.computeMajor >= 8;
        switch (p.kind) {
        case KernelKind::Fp32Fma:
            fp32FmaKernel<<<blocks, threadsPerBlock, 0, stream_>>>(0.9999f, 1e-4f, computeTrips, 0, sink_);
            r.flopsPerLaunch = 2.0 * fmasPerThread * threads;
            break;
        case KernelKind::Fp16Fma:
            fp16FmaKernel<<<blocks, threadsPerBlock, 0, stream_>>>(0.999f, 1e-3f, computeTrips, 0, sink_);
            r.flopsPerLaunch = 4.0 * fmasPerThread * threads;
            break;
        case KernelKind::TensorFp16:
            if (!tensorCapable) throw CudaFailure("mma.sync FP16 needs compute capability 8.0 or newer");
            tensorFp16Kernel<<<blocks, threadsPerBlock, 0, stream_>>>(12345u, computeTrips / 4, 0, sink_);
            r.flopsPerLaunch = 4096.0 * warps * (computeTrips / 4) * unrolled * mmaAccumulators;
            break;
        case KernelKind::TensorInt8:
            if (!tensorCapable) throw CudaFailure("mma.sync INT8 needs compute capability 8.0 or newer");
            tensorInt8Kernel<<<blocks, threadsPerBlock, 0, stream_>>>(12345u, computeTrips / 4, 0, sink_);
            r.flopsPerLaunch = 8192.0 * warps * (computeTrips / 4) * unrolled * mmaAccumulators;
            break;
        case KernelKind::TensorFp8:
            if (!info_.fp8Tensor()) throw CudaFailure("mma.sync FP8 needs compute capability 8.9 or newer");
            tensorFp8Kernel<<<blocks, threadsPerBlock, 0, stream_>>>(12345u, computeTrips / 4, 0, sink_);
            r.flopsPerLaunch = 8192.0 * warps * (computeTrips / 4) * unrolled * mmaAccumulators;
            break;
        case KernelKind::DramRead:
            ensureArrays();
            dramReadKernel<<<blocks, threadsPerBlock, 0, stream_>>>(a_, elements_, 0, sink_);
            r.bytesPerLaunch = 16.0 * elements_;
            break;
        case KernelKind::DramWrite:
            ensureArrays();
            dramWriteKernel<<<blocks, threadsPerBlock, 0, stream_>>>(c_, elements_, 1.5f);
            r.bytesPerLaunch = 16.0 * elements_;
            break;
        case KernelKind::DramCopy:
            ensureArrays();
            dramCopyKernel<<<blocks, threadsPerBlock, 0, stream_>>>(a_, c_, elements_);
            r.bytesPerLaunch = 32.0 * elements_;
            break;
        case KernelKind::DramTriad:
            ensureArrays();
            dramTriadKernel<<<blocks, threadsPerBlock, 0, stream_>>>(a_, b_, c_, elements_, 0.5f);
            r.bytesPerLaunch = 48.0 * elements_;
            break;
        case KernelKind::Intensity:
            ensureArrays();
            launchIntensityStep(p.intensity, blocks, r);
            break;
        case KernelKind::EmptyLaunch:
            emptyKernel<<<1, 1, 0, stream_>>>();
            break;
        }
        check(cudaGetLastError(), "launch");
    }

    int64_t measureSmClock() {
        clockProbeKernel<<<1, 32, 0, stream_>>>(20000000ull, probe_); // 20 ms
        unsigned long long host[2] = {0, 0};
        check(cudaMemcpyAsync(host, probe_, sizeof host, cudaMemcpyDeviceToHost, stream_), "cudaMemcpy");
        check(cudaStreamSynchronize(stream_), "clock probe");
        return host[1] ? static_cast<int64_t>(static_cast<double>(host[0]) * 1e9 / host[1]) : 0;
    }

    int ordinal_;
    GpuInfo info_;
    int maxThreadsPerSm_ = 1024;
    cudaStream_t stream_ = nullptr;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
    float* sink_ = nullptr;
    unsigned long long* probe_ = nullptr;
    float4 *a_ = nullptr, *b_ = nullptr, *c_ = nullptr;
    size_t elements_ = 0;
};

} // namespace

std::unique_ptr<GpuBackend> openCudaBackend(int ordinal, std::string* whyNot) {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        if (whyNot)
            *whyNot = status == cudaErrorNoDevice ? std::string("no CUDA device")
                      : status == cudaErrorInsufficientDriver
                          ? "no CUDA device: no NVIDIA driver, or one older than CUDA " +
                                versionText(CUDART_VERSION)
                          : std::string("no CUDA device: ") + cudaGetErrorString(status);
        return nullptr;
    }
    if (ordinal < 0 || ordinal >= count) {
        if (whyNot)
            *whyNot = count == 0 ? std::string("no CUDA device")
                                 : "no CUDA device " + std::to_string(ordinal) + " (" +
                                       std::to_string(count) + " present)";
        return nullptr;
    }
    try {
        return std::make_unique<CudaBackend>(ordinal);
    } catch (const std::exception& error) {
        if (whyNot) *whyNot = error.what();
        return nullptr;
    }
}

} // namespace rooftop
