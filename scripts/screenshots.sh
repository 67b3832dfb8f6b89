#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Starts the GUI under Xvfb on a sample network and saves a screenshot of each view into docs/screenshots/.
# Usage: scripts/screenshots.sh [BUILD_DIR] [MODEL.onnx] [DEVICE_ID]   (needs Xvfb and imagemagick's import)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
model=${2:-resources/models/resnet50.onnx}
device=${3:-agx-orin-64gb}
out=docs/screenshots
mkdir -p "$out"
display=:$((90 + RANDOM % 9))
Xvfb "$display" -screen 0 1600x1000x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 2
config=$(mktemp -d) # a fresh settings folder: the default window layout, nothing remembered
shoot() { # view theme file
  XDG_CONFIG_HOME=$config DISPLAY=$display "$build/app/rooftop" "$model" --device "$device" --view "$1" --theme "$2" &
  local app=$!
  sleep "${ROOFTOP_SCREENSHOT_WAIT:-8}"
  DISPLAY=$display import -window root "$out/$3"
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  echo "wrote $out/$3"
}
shoot time light time-roofline.png
shoot energy light energy-roofline.png
shoot modes light power-modes.png
shoot time dark time-roofline-dark.png
rm -rf "$config"
