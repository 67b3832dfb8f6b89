#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The window with a training predictor: ResNet-50 training steps (minibatch 16, Adam) profiled in 20 grid modes on
# the simulated board, learned, and shown in the modes view with a 20 W power cap and the fastest step as the
# objective (PowerTrain's question; the Pareto front of time per minibatch against power), at 1280x800 and 1920x1080 in both palettes, into
# docs/screenshots/window-training-{light,dark}-WxH.png (docs/training.md).
# Usage: scripts/training-screenshots.sh [BUILD_DIR]   (needs Xvfb and imagemagick; pngquant if present)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=docs/screenshots
work=$(mktemp -d)
read -r small large <<<"${ROOFTOP_SCREENSHOT_DISPLAYS:-93 94}"
Xvfb ":$small" -screen 0 1280x800x24 >/dev/null 2>&1 &
xsmall=$!
Xvfb ":$large" -screen 0 1920x1080x24 >/dev/null 2>&1 &
xlarge=$!
trap 'kill $xsmall $xlarge 2>/dev/null || true; rm -rf "$work"' EXIT
model=resources/models/resnet50.onnx
"$build/app/rooftop" profile "$model" --device agx-orin-64gb --runner sim --modes sample:20 --batch 16 \
  --phase training -o "$work/training-runs.csv" >/dev/null
"$build/app/rooftop" learn "$model" --device agx-orin-64gb --runs "$work/training-runs.csv" --phase training \
  -o "$work/training.json" >/dev/null
sleep 1
for screen in "$small 1280x800" "$large 1920x1080"; do
  read -r display size <<<"$screen"
  for theme in light dark; do
    config=$(mktemp -d --tmpdir="$work")
    XDG_CONFIG_HOME=$config XDG_DATA_HOME=$config DISPLAY=":$display" "$build/app/rooftop" "$model" \
      --device agx-orin-64gb --theme "$theme" --phase training --batch 16 --predictor "$work/training.json" \
      --power-cap 20 --objective latency --view modes &
    app=$!
    sleep "${ROOFTOP_SCREENSHOT_WAIT:-10}"
    file="$out/window-training-$theme-$size.png"
    DISPLAY=":$display" import -window root "$file"
    kill "$app" 2>/dev/null || true
    wait "$app" 2>/dev/null || true
    if command -v pngquant >/dev/null; then
      pngquant --force --skip-if-larger --output "$file" 256 "$file" || true
    fi
    echo "wrote $file"
  done
done
