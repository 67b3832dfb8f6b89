#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sets up, builds with tests and runs them: unit and whole-network tests through ctest, the package test, the
# clang-tidy gate, then the libFuzzer targets for a bounded, seeded number of runs (clang build in build-fuzz/).
set -euo pipefail
cd "$(dirname "$0")"

scripts/ensure-packages.sh test
mapfile -t distro_options < <(scripts/ensure-packages.sh cmake-options) # e.g. Ubuntu 22.04: fetch QCustomPlot
generator=(); command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
jobs=$(nproc)

# CI builds no benchmarks (they run outside ctest, from scripts; a developer's ./test.sh builds them) and no debug
# information (a quarter of the compile time of the Qt-heavy files; a developer's build keeps -g)
ci_options=(-DROOFTOP_BUILD_BENCHMARKS=ON)
[ "${CI:-}" = true ] && ci_options=(-DROOFTOP_BUILD_BENCHMARKS=OFF "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG")
cmake -S . -B build "${generator[@]}" "${distro_options[@]}" "${ci_options[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DROOFTOP_BUILD_TESTS=ON >/dev/null
cmake --build build --parallel "$jobs"
(cd build && ctest --output-on-failure --parallel "$jobs" -LE fuzz)
tests/package/test-package.sh build # the Debian package, unpacked and run
scripts/tidy-check.sh build         # clang-tidy on the own code changed since the last clean whole-tree check

if command -v clang++ >/dev/null 2>&1; then
  # -O1 and line tables only: libFuzzer's recommended level, and a crash's stack still names file and line.
  # A unity build (8 sources per compilation) as the main build (ROOFTOP_UNITY_BUILD, on by default).
  CC=clang CXX=clang++ cmake -S . -B build-fuzz "${generator[@]}" "${distro_options[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" -DROOFTOP_BUILD_TESTS=ON \
    -DROOFTOP_BUILD_BENCHMARKS=OFF -DROOFTOP_BUILD_FUZZERS=ON >/dev/null
  cmake --build build-fuzz --parallel "$jobs" --target rooftop_fuzzers
  (cd build-fuzz && ctest --output-on-failure -L fuzz)
else
  echo "clang++ not found: fuzz targets not run" >&2
  exit 1
fi
