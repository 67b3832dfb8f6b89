#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Starts the GUI under Xvfb on a sample network and saves a screenshot of each view into docs/screenshots/.
# Usage: scripts/screenshots.sh [BUILD_DIR] [MODEL.onnx] [DEVICE_ID]   (needs Xvfb, imagemagick's import and
# convert, and xdotool for the window-dark-WxH-MODEL.png set: the window sized to 1280x800 and 1920x1080)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
model=${2:-resources/models/resnet50.onnx}
device=${3:-agx-orin-64gb}
out=docs/screenshots
mkdir -p "$out"
freeDisplay() { # the first X display from :90 up that no server holds (a taken one would show another screen)
  local n=90
  while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
  echo ":$n"
}
display=$(freeDisplay)
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

# The dark window at two screen sizes for three sample networks, the power modes over the grid with limits and
# the time by op type; each a fresh settings folder, the window moved and sized to the screen (no window manager).
sized() { # display WxH file model [options]
  local display=$1 size=$2 file=$3 sample=$4
  shift 4
  local settings
  settings=$(mktemp -d)
  XDG_CONFIG_HOME=$settings DISPLAY=$display "$build/app/rooftop" "$sample" --device "$device" --theme dark "$@" &
  local app=$!
  sleep "${ROOFTOP_SCREENSHOT_WAIT:-9}"
  for window in $(DISPLAY=$display xdotool search --name Rooftop); do
    case "$(DISPLAY=$display xdotool getwindowname "$window")" in
    *Rooftop) DISPLAY=$display xdotool windowmove "$window" 0 0 windowsize "$window" "${size%x*}" "${size#*x}" ;;
    esac
  done
  sleep 3
  DISPLAY=$display import -window root "$settings/shot.png"
  convert "$settings/shot.png" +dither -colors 96 -define png:compression-level=9 "$out/$file" # < 300 kB
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  rm -rf "$settings"
  echo "wrote $out/$file"
}
for size in 1280x800 1920x1080; do
  sizedDisplay=$(freeDisplay)
  Xvfb "$sizedDisplay" -screen 0 "${size}x24" >/dev/null 2>&1 &
  sizedXvfb=$!
  sleep 2
  sized "$sizedDisplay" "$size" "window-dark-$size-resnet50.png" resources/models/resnet50.onnx --view time
  sized "$sizedDisplay" "$size" "window-dark-$size-vit.png" resources/models/vit_b_16.onnx --view time
  sized "$sizedDisplay" "$size" "window-dark-$size-bert128.png" resources/models/bert_base.onnx --view time \
    --dim sequence=128
  kill "$sizedXvfb" 2>/dev/null || true
done
sizedDisplay=$(freeDisplay)
Xvfb "$sizedDisplay" -screen 0 1920x1080x24 >/dev/null 2>&1 &
sizedXvfb=$!
sleep 2
ROOFTOP_SCREENSHOT_WAIT=14 sized "$sizedDisplay" 1920x1080 power-modes-grid-dark-1920x1080.png resources/models/resnet50.onnx \
  --view modes --modes all --latency-slo 5 --power-cap 14
kill "$sizedXvfb" 2>/dev/null || true
sleep 1
sizedDisplay=$(freeDisplay)
Xvfb "$sizedDisplay" -screen 0 1280x800x24 >/dev/null 2>&1 &
sizedXvfb=$!
sleep 2
sized "$sizedDisplay" 1280x800 op-time-dark-1280x800-vit.png resources/models/vit_b_16.onnx --view ops
kill "$sizedXvfb" 2>/dev/null || true
