#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The window at 1280x800 and 1920x1080 (light palette) on ResNet-50, ViT-B/16 and BERT-base at sequence 128,
# and on ResNet-50 advised over the stock modes and the custom grid (a custom mode: window-WxH-resnet50-custom),
# each with fresh settings, into docs/screenshots/window-WxH-MODEL.png (docs/window.md).
# Usage: scripts/window-screenshots.sh [BUILD_DIR]   (needs Xvfb and imagemagick; pngquant if present)
# ROOFTOP_SCREENSHOT_DISPLAYS picks the two X displays (default "95 96").
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=docs/screenshots
mkdir -p "$out"
read -r small large <<<"${ROOFTOP_SCREENSHOT_DISPLAYS:-95 96}"
Xvfb ":$small" -screen 0 1280x800x24 >/dev/null 2>&1 &
xsmall=$!
Xvfb ":$large" -screen 0 1920x1080x24 >/dev/null 2>&1 &
xlarge=$!
trap 'kill $xsmall $xlarge 2>/dev/null || true' EXIT
sleep 2
shoot() { # display size name model [window options...]
  local display=$1 size=$2 name=$3 model=$4
  shift 4
  local config
  config=$(mktemp -d) # a fresh settings folder: the default window layout, nothing remembered
  XDG_CONFIG_HOME=$config DISPLAY=":$display" "$build/app/rooftop" "$model" --device agx-orin-64gb \
    --theme light "$@" &
  local app=$!
  sleep "${ROOFTOP_SCREENSHOT_WAIT:-10}"
  local file="$out/window-$size-$name.png"
  DISPLAY=":$display" import -window root "$file"
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  rm -rf "$config"
  if command -v pngquant >/dev/null; then
    pngquant --force --skip-if-larger --output "$file" 256 "$file" || true
  elif command -v convert >/dev/null; then
    convert "$file" -colors 256 "PNG8:$file"
  fi
  echo "wrote $file"
}
for screen in "$small 1280x800" "$large 1920x1080"; do
  read -r display size <<<"$screen"
  shoot "$display" "$size" resnet50 resources/models/resnet50.onnx
  shoot "$display" "$size" vit-b16 resources/models/vit_b_16.onnx
  shoot "$display" "$size" bert128 resources/models/bert_base.onnx --dim sequence=128
  shoot "$display" "$size" resnet50-custom resources/models/resnet50.onnx --modes all
done
