#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The GPU check of rooftop bench, for a machine with an NVIDIA GPU (the `device` tool): builds rooftop with the
# CUDA microkernels for the GPU present, runs one quick bench of the mode in force, and prints each measured
# ceiling against the theoretical one at the measured clock, and the DRAM copy and tensor FP16 figures against
# cudaMemcpy device-to-device and a large cuBLAS GEMM on the same card (reference_peaks.cu). Leaves the GPU's
# settings alone.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD_DIR:-build-device}
out=${OUT:-$build}
mkdir -p "$build" "$out"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DROOFTOP_BUILD_TESTS=OFF -DROOFTOP_BUILD_BENCHMARKS=OFF \
  -DROOFTOP_CUDA_ARCHITECTURES=native >"$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 1; }
start=$(date +%s)
cmake --build "$build" -j"$(nproc)" --target rooftop >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
echo "build: $(( $(date +%s) - start )) s"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv || true
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
"$nvcc" -O2 -std=c++17 -arch=native -o "$build/reference_peaks" tests/device/reference_peaks.cu -lcublas
"$build/reference_peaks" | tee "$out/reference.txt"
profile="$out/device-profile.json"
rm -f "$profile"
set +e
"$build/app/rooftop" bench --modes current --quick --out "$profile"
code=$?
set -e
echo "rooftop bench exit code: $code"
[ -f "$profile" ] || exit "$code"
python3 - "$profile" "$out/reference.txt" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
reference = dict(line.split() for line in open(sys.argv[2]) if line.strip())
print("device:", p["device"], "| board:", p["board"].get("model"), "| driver", p["board"].get("driver"), "| CUDA", p["board"].get("cuda"))
for m in p["modes"]:
    print("mode", m["name"], "observed GPU clock %.0f MHz" % (m.get("observed", {}).get("gpu_hz", 0) / 1e6))
    pct = m.get("percent_of_theoretical", {})
    for key, value in m["ceilings"].items():
        scale = 1e12 if key.endswith(("flops", "ops")) else 1e9 if key == "bandwidth" else 1e-6
        unit = "T/s" if scale == 1e12 else "GB/s" if scale == 1e9 else "us"
        print("  %-18s %12.3f %-5s %s" % (key, value / scale, unit, ("%.1f %% of theoretical" % pct[key]) if key in pct else ""))
    for pattern, bw in m.get("bandwidth_by_pattern", {}).items():
        print("  %-18s %12.1f GB/s" % ("dram-" + pattern, bw / 1e9))
    copy = m.get("bandwidth_by_pattern", {}).get("copy", 0)
    memcpy = float(reference.get("memcpy_d2d_bytes_per_s", 0))
    if memcpy > 0:
        print("  dram-copy vs cudaMemcpy D2D: %.1f / %.1f GB/s = %.1f %% (target >= 90 %%)" % (copy / 1e9, memcpy / 1e9, 100 * copy / memcpy))
    tensor = m["ceilings"].get("tensor_fp16_flops", 0)
    cublas = float(reference.get("cublas_fp16_tensor_flops", 0))
    if cublas > 0:
        print("  tensor fp16 vs cuBLAS GEMM: %.1f / %.1f TFLOP/s = %.1f %% (target >= 80 %%)" % (tensor / 1e12, cublas / 1e12, 100 * tensor / cublas))
    pm = m.get("power_model")
    print("  power model:", "not available" if not pm else "pi0 %.1f W, eps_flop %.2f pJ, eps_byte %.1f pJ, R2 %.3f" % (
        pm["constant_w"], pm["j_per_flop"] * 1e12, pm["j_per_byte"] * 1e12, pm.get("r_squared", -1)))
PY
