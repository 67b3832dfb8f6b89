#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sets up, builds and runs Rooftop: installs missing packages, configures, builds, and runs the main job.
# Any arguments are passed to rooftop instead of the default job.
set -euo pipefail
cd "$(dirname "$0")"

scripts/ensure-packages.sh build
generator=(); command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROOFTOP_BUILD_TESTS=OFF >/dev/null
cmake --build build --parallel "$(nproc)"

if [ $# -gt 0 ]; then
  exec ./build/app/rooftop "$@"
fi
echo "== rooftop analyze resources/models/resnet50.onnx =="
exec ./build/app/rooftop analyze resources/models/resnet50.onnx
