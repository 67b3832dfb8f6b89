#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The window's pages of the measuring commands (Device → Profile this model…, Tune this model…, Plan training
# beside inference…, planned for ResNet-18 training beside MobileNetV2 inference) at 1280x800 and 1920x1080 in the
# light and dark palettes, and the dark window on BERT-base at sequence 128 and on ResNet-50 advised over the stock
# modes and the custom grid (a custom mode), into docs/screenshots/ (docs/window.md). The menus are opened by clicking their fixed places.
# The compare page (File → Import measured layer profile…, docs/compare.md): the import dialog over the window
# (page-compare-dialog-THEME-WxH.png), then the measured layers on the time roofline and in the layer table
# (page-compare-THEME-WxH.png), for ResNet-50 with the made-up profile
# tests/fixtures/compare/resnet50-trt86.json (not a measurement); the file is typed into the file dialog.
# Usage: scripts/page-screenshots.sh [BUILD_DIR] [PAGES]   (needs Xvfb, xdotool and imagemagick)
# Tune also tuned (Tune pressed, the simulated board, a fresh data folder): page-tuned-THEME-WxH.png.
# The LLM view (opened with a decoder, tiny_llama.onnx here, analysed with its defaults): page-llm-THEME-WxH.png,
# and its mode table (light, 1920x1080): page-llm-table-light-1920x1080.png.
# The learn page (Device → Learn a predictor from runs…, learned from simulated runs of ResNet-50 in 12 sampled
# modes): page-learn-THEME-WxH.png; the calibrate page (Device → Calibrate the runtime to runs…, the same runs):
# page-calibrate-THEME-WxH.png; "predictor": the same runs on the power-modes plot (power-modes-measured.png)
# with a predictor learned from them (power-modes-predicted.png) and its check against the runs, the tab beside
# the plot (predictor-check.png), light at 1280x800.
# PAGES: some of "window profile tune learn calibrate predictor plan compare llm" (default all of them).
# ROOFTOP_SCREENSHOT_DISPLAYS picks the two X displays (default "93 94").
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
pages=" ${2:-window profile tune learn calibrate predictor plan compare llm} "
out=docs/screenshots
read -r small large <<<"${ROOFTOP_SCREENSHOT_DISPLAYS:-93 94}"
Xvfb ":$small" -screen 0 1280x800x24 >/dev/null 2>&1 &
xsmall=$!
Xvfb ":$large" -screen 0 1920x1080x24 >/dev/null 2>&1 &
xlarge=$!
trap 'kill $xsmall $xlarge 2>/dev/null || true' EXIT
sleep 2
quantize() {
  if command -v pngquant >/dev/null; then
    pngquant --force --skip-if-larger --output "$1" 256 "$1" || true
  else
    convert "$1" -colors 256 "PNG8:$1"
  fi
}
shoot() { # display size theme file menu-item-y model [window options...]; menu-item-y 0: the window itself
  local display=$1 size=$2 theme=$3 file=$4 item=$5 model=$6
  shift 6
  local config
  config=$(mktemp -d)
  XDG_CONFIG_HOME=$config XDG_DATA_HOME=$config DISPLAY=":$display" "$build/app/rooftop" "$model" \
    --device agx-orin-64gb --theme "$theme" "$@" >/dev/null 2>&1 &
  local app=$!
  sleep "${ROOFTOP_SCREENSHOT_WAIT:-9}"
  if [ "$item" != 0 ]; then
    # the menus sit at the window's top left, wherever the window was placed on the screen
    local X=0 Y=0 WINDOW
    eval "$(DISPLAY=":$display" xdotool search --onlyvisible --name 'Rooftop$' getwindowgeometry --shell 2>/dev/null |
      grep -E '^(X|Y)=' | tail -2)"
    DISPLAY=":$display" xdotool mousemove $((X + 145)) $((Y + 8)) click 1
    sleep 1.5
    DISPLAY=":$display" xdotool mousemove $((X + 240)) $((Y + item)) click 1
    sleep 3
  fi
  if [ -n "${SHOT_TYPE:-}" ]; then # input for the page, one a line: "click DX DY WINDOW-NAME", "key K...",
    while read -r how what; do     # "type TEXT", "wait SECONDS"
      if [ "$how" = wait ]; then
        sleep "$what"
      elif [ "$how" = click ]; then # at DX,DY in the window of that name (which also gives it the keyboard)
        local dx dy name
        read -r dx dy name <<<"$what"
        eval "$(DISPLAY=":$display" xdotool search --onlyvisible --name "$name" getwindowgeometry --shell 2>/dev/null |
          grep -E '^(X|Y)=' | tail -2)"
        DISPLAY=":$display" xdotool mousemove $((X + dx)) $((Y + dy)) click 1
      else
        # shellcheck disable=SC2086 # the keys are separate words
        DISPLAY=":$display" xdotool "$how" --delay 20 $what
      fi
      sleep 0.5
    done <<<"$SHOT_TYPE"
    sleep "${SHOT_TYPE_WAIT:-8}"
  fi
  DISPLAY=":$display" import -window root "$out/$file"
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  rm -rf "$config"
  quantize "$out/$file"
  echo "wrote $out/$file"
}
compare() { # display size theme
  local display=$1 size=$2 theme=$3
  local config
  config=$(mktemp -d)
  XDG_CONFIG_HOME=$config DISPLAY=":$display" "$build/app/rooftop" resnet50.onnx --device agx-orin-64gb \
    --theme "$theme" --view time >/dev/null 2>&1 &
  local app=$!
  sleep "${ROOFTOP_SCREENSHOT_WAIT:-9}"
  local X=0 Y=0 WINDOW
  eval "$(DISPLAY=":$display" xdotool search --onlyvisible --name 'Rooftop$' getwindowgeometry --shell 2>/dev/null |
    grep -E '^(X|Y)=' | tail -2)"
  DISPLAY=":$display" xdotool mousemove $((X + 20)) $((Y + 8)) click 1 # File
  sleep 1.5
  DISPLAY=":$display" xdotool key i # &Import measured layer profile…
  sleep 2.5
  # the file dialog opens in the model's folder, resources/models
  DISPLAY=":$display" xdotool type --delay 20 ../../tests/fixtures/compare/resnet50-trt86.json
  DISPLAY=":$display" xdotool key Return
  sleep 2.5
  # Measured in (focused, no default): MAXN, MODE_15W, MODE_30W, MODE_50W, the mode the made-up profile is of
  DISPLAY=":$display" xdotool key --delay 200 Down Down Down Down
  sleep 1
  DISPLAY=":$display" import -window root "$out/page-compare-dialog-$theme-$size.png"
  DISPLAY=":$display" xdotool key Return # Import
  sleep 5
  DISPLAY=":$display" xdotool mousemove $((X + 5)) $((Y + 5)) # no tooltip over the plot
  sleep 1
  DISPLAY=":$display" import -window root "$out/page-compare-$theme-$size.png"
  kill "$app" 2>/dev/null || true
  wait "$app" 2>/dev/null || true
  rm -rf "$config"
  for file in "page-compare-dialog-$theme-$size.png" "page-compare-$theme-$size.png"; do
    quantize "$out/$file"
    echo "wrote $out/$file"
  done
}
has() { [[ $pages == *" $1 "* ]]; }
cd resources/models # the pages show model paths relative to here
out=../../docs/screenshots
case $build in /*) ;; *) build=../../$build ;; esac
learn_runs=
if has learn || has calibrate || has predictor; then # under the working folder, so that the page shows the paths relative to it
  learn_folder=learn-page-runs
  mkdir -p "$learn_folder"
  trap 'kill $xsmall $xlarge 2>/dev/null || true; rm -rf "$learn_folder"' EXIT
  learn_runs=$learn_folder/resnet50-runs.csv
  rm -f "$learn_runs"
  "$build/app/rooftop" profile resnet50.onnx --device agx-orin-64gb --runner sim --modes sample:12 --seed 3 \
    -o "$learn_runs" >/dev/null 2>&1
fi
if has predictor; then # the same runs on the power-modes plot, then with a predictor learned from them (light, 1280x800)
  "$build/app/rooftop" learn resnet50.onnx --device agx-orin-64gb --runs "$learn_runs" \
    -o "$learn_folder/resnet50-predictor.json" >/dev/null 2>&1
  shoot "$small" 1280x800 light power-modes-measured.png 0 resnet50.onnx --view modes --runs "$learn_runs"
  shoot "$small" 1280x800 light power-modes-predicted.png 0 resnet50.onnx --view modes --runs "$learn_runs" \
    --predictor "$learn_folder/resnet50-predictor.json"
  # its check against the runs: the tab beside the modes plot
  SHOT_TYPE=$'click 685 304 Rooftop$' SHOT_TYPE_WAIT=3 \
    shoot "$small" 1280x800 light predictor-check.png 0 resnet50.onnx --view modes --runs "$learn_runs" \
    --predictor "$learn_folder/resnet50-predictor.json"
fi
for screen in "$small 1280x800" "$large 1920x1080"; do
  read -r display size <<<"$screen"
  if has window; then
    shoot "$display" "$size" dark "window-dark-$size-bert128.png" 0 bert_base.onnx --dim sequence=128
    shoot "$display" "$size" dark "window-dark-$size-resnet50-custom.png" 0 resnet50.onnx --modes all
  fi
  for theme in light dark; do
    if has profile; then shoot "$display" "$size" "$theme" "page-profile-$theme-$size.png" 52 resnet50.onnx; fi
    if has tune; then
      shoot "$display" "$size" "$theme" "page-tune-$theme-$size.png" 74 resnet50.onnx
      # tuned: the dialog's Tune (its default button) on the simulated board, runs into a fresh data folder
      SHOT_TYPE=$'key Return' SHOT_TYPE_WAIT=25 \
        shoot "$display" "$size" "$theme" "page-tuned-$theme-$size.png" 74 resnet50.onnx
    fi
    # the plan page planned: ResNet-18 training beside MobileNetV2 inference (the training model typed, then Plan)
    # under a 200 ms SLO (the window's, which the page takes): at 100 ms the prior's error as a margin admits no plan
    if has plan; then
      SHOT_TYPE=$'click 300 58 Plan training beside inference\nkey ctrl+a\ntype resnet18.onnx\nkey Return' \
        shoot "$display" "$size" "$theme" "page-plan-$theme-$size.png" 140 mobilenet_v2.onnx --latency-slo 200
    fi
    # the learn page learned: ResNet-50's runs in 12 sampled grid modes on the simulated board (typed into Runs
    # file, then Learn), with each run's held-out prediction against the run
    if has learn; then
      SHOT_TYPE=$'click 300 100 Learn a predictor\nkey ctrl+a\ntype '"$learn_runs"$'\nkey Return' SHOT_TYPE_WAIT=12 \
        shoot "$display" "$size" "$theme" "page-learn-$theme-$size.png" 96 resnet50.onnx
    fi
    if has calibrate; then # the same runs fitted by Device → Calibrate the runtime to runs…
      SHOT_TYPE=$'click 300 128 Calibrate the runtime\nkey ctrl+a\ntype '"$learn_runs"$'\nkey Return' SHOT_TYPE_WAIT=12 \
        shoot "$display" "$size" "$theme" "page-calibrate-$theme-$size.png" 118 resnet50.onnx
    fi
    if has compare; then compare "$display" "$size" "$theme"; fi
    if has llm; then
      shoot "$display" "$size" "$theme" "page-llm-$theme-$size.png" 0 tiny_llama.onnx
      # the modes at the pick's batch, the view's last tab, light at 1920x1080
      if [ "$theme$size" = light1920x1080 ]; then
        SHOT_TYPE=$'click 903 199 LLM view' SHOT_TYPE_WAIT=3 \
          shoot "$display" "$size" "$theme" "page-llm-table-$theme-$size.png" 0 tiny_llama.onnx
      fi
    fi
  done
done
