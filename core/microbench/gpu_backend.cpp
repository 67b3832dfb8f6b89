// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/microbench/gpu_backend.h"

namespace rooftop {

std::string kernelName(KernelKind kind, int intensity) {
    switch (kind) {
    case KernelKind::Fp32Fma:
        return "fp32-fma";
    case KernelKind::Fp16Fma:
        return "fp16-hfma2";
    case KernelKind::TensorFp16:
        return "mma-fp16";
    case KernelKind::TensorInt8:
        return "mma-int8";
    case KernelKind::TensorFp8:
        return "mma-fp8";
    case KernelKind::DramRead:
        return "dram-read";
    case KernelKind::DramWrite:
        return "dram-write";
    case KernelKind::DramCopy:
        return "dram-copy";
    case KernelKind::DramTriad:
        return "dram-triad";
    case KernelKind::Intensity:
        return "intensity-k" + std::to_string(intensity);
    case KernelKind::EmptyLaunch:
        return "empty-launch";
    }
    return "unknown";
}

#ifndef ROOFTOP_HAVE_CUDA
std::unique_ptr<GpuBackend> openCudaBackend(int, std::string* whyNot) {
    if (whyNot) *whyNot = "this rooftop was built without CUDA (nvcc was not found at build time)";
    return nullptr;
}
#endif

} // namespace rooftop
