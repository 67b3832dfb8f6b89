// SPDX-License-Identifier: GPL-3.0-or-later
// Reference figures for the GPU check (tests/device/run-device-checks.sh): what the vendor paths reach on the same
// card, so that rooftop bench's kernels can be judged against them: cudaMemcpy device-to-device bandwidth (STREAM
// counting: read + write) and a large cuBLAS FP16 GEMM with FP32 accumulation on tensor cores.
// Prints two lines: "memcpy_d2d_bytes_per_s VALUE" and "cublas_fp16_tensor_flops VALUE".
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        std::fprintf(stderr, "reference_peaks: %s: %s\n", what, cudaGetErrorString(status));
        std::exit(2);
    }
}

void check(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "reference_peaks: %s: cuBLAS status %d\n", what, int(status));
        std::exit(2);
    }
}

/// Best seconds per call of `body` over `batches` timed batches of `repeats` calls each.
template <typename Body>
double bestSeconds(Body body, int batches, int repeats) {
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "event");
    check(cudaEventCreate(&stop), "event");
    body(); // warm-up
    check(cudaDeviceSynchronize(), "warm-up");
    double best = 1e30;
    for (int b = 0; b < batches; ++b) {
        check(cudaEventRecord(start), "record");
        for (int r = 0; r < repeats; ++r) body();
        check(cudaEventRecord(stop), "record");
        check(cudaEventSynchronize(stop), "synchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
        best = std::min(best, double(ms) / 1e3 / repeats);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return best;
}

} // namespace

int main() {
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, 0), "device properties");
    // Copy: arrays of 8 x L2 (at least 256 MiB) so that the copy streams through DRAM.
    const size_t bytes = std::max<size_t>(size_t(properties.l2CacheSize) * 8, size_t(256) << 20);
    void *source = nullptr, *target = nullptr;
    check(cudaMalloc(&source, bytes), "cudaMalloc");
    check(cudaMalloc(&target, bytes), "cudaMalloc");
    check(cudaMemset(source, 1, bytes), "cudaMemset");
    const double copySeconds = bestSeconds([&] { check(cudaMemcpy(target, source, bytes, cudaMemcpyDeviceToDevice), "copy"); }, 10, 5);
    std::printf("memcpy_d2d_bytes_per_s %.6e\n", 2.0 * double(bytes) / copySeconds);
    cudaFree(source);
    cudaFree(target);

    // GEMM: n x n x n FP16 inputs, FP32 accumulate (tensor cores), 2 n^3 FLOP per call.
    const int n = 8192;
    __half *a = nullptr, *b = nullptr;
    float* c = nullptr;
    check(cudaMalloc(&a, size_t(n) * n * sizeof(__half)), "cudaMalloc");
    check(cudaMalloc(&b, size_t(n) * n * sizeof(__half)), "cudaMalloc");
    check(cudaMalloc(&c, size_t(n) * n * sizeof(float)), "cudaMalloc");
    std::vector<__half> host(size_t(n) * n);
    for (size_t i = 0; i < host.size(); ++i) host[i] = __float2half(0.5f + float(i % 1024) / 2048.0f);
    check(cudaMemcpy(a, host.data(), host.size() * sizeof(__half), cudaMemcpyHostToDevice), "upload");
    check(cudaMemcpy(b, host.data(), host.size() * sizeof(__half), cudaMemcpyHostToDevice), "upload");
    cublasHandle_t handle;
    check(cublasCreate(&handle), "cublasCreate");
    const float alpha = 1.0f, beta = 0.0f;
    const double gemmSeconds = bestSeconds(
        [&] {
            check(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_16F, n, b, CUDA_R_16F, n,
                               &beta, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                  "cublasGemmEx");
        },
        5, 3);
    std::printf("cublas_fp16_tensor_flops %.6e\n", 2.0 * double(n) * n * n / gemmSeconds);
    cublasDestroy(handle);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return 0;
}
