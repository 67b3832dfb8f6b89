#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sets up, builds and runs Rooftop: installs missing packages, configures, builds, and runs the main job.
# Any arguments are passed to rooftop instead of the default job. The default job opens the window on ResNet-50 with
# AGX Orin 64GB and its stock modes; without a display it writes the report to ./rooftop-report/ instead.
set -euo pipefail
cd "$(dirname "$0")"

scripts/ensure-packages.sh build
mapfile -t distro_options < <(scripts/ensure-packages.sh cmake-options) # e.g. Ubuntu 22.04: fetch QCustomPlot
generator=(); command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" "${distro_options[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROOFTOP_BUILD_TESTS=OFF >/dev/null
cmake --build build --parallel "$(nproc)"

if [ $# -gt 0 ]; then
  exec ./build/app/rooftop "$@"
fi
model=resources/models/resnet50.onnx
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "== rooftop $model --device agx-orin-64gb (the window) =="
  exec ./build/app/rooftop "$model" --device agx-orin-64gb
fi
mkdir -p rooftop-report
echo "== no display: rooftop report $model --device agx-orin-64gb =="
./build/app/rooftop report "$model" --device agx-orin-64gb -o rooftop-report/report.html
./build/app/rooftop report "$model" --device agx-orin-64gb -o rooftop-report/report.pdf
echo "The report is in $(pwd)/rooftop-report/ (report.html, report.pdf); open it in a browser or PDF viewer."
