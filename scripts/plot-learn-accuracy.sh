#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's learning-curve figure: runs the simulated-board accuracy tests of rooftop learn (test_learn's
# TestLearnSimulated), takes the grid MAPE per number of profiled modes from their output and draws it.
# Usage: scripts/plot-learn-accuracy.sh [BUILD_DIR]   writes docs/figures/learn-accuracy.{csv,png}
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=docs/figures
mkdir -p "$out"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
QT_QPA_PLATFORM=offscreen "$build/tests/test_learn" TestLearnSimulated mapeFallsWithProfiledModes \
  independentPhysicsIsLearnedToo >"$log"
awk '
  /profiled modes: grid time MAPE/ {
    independent = index($0, "independent physics") > 0
    match($0, /[0-9]+ profiled modes/); n = substr($0, RSTART, RLENGTH) + 0
    match($0, /time MAPE +[0-9.]+/); split(substr($0, RSTART, RLENGTH), t, " "); time = t[3]
    match($0, /power MAPE +[0-9.]+/); split(substr($0, RSTART, RLENGTH), p, " "); power = p[3]
    if (independent) { it[n] = time; ip[n] = power } else { st[n] = time; sp[n] = power }
    modes[n] = 1
  }
  END {
    print "profiled modes,independent physics: time,independent physics: power,core/measure simulator: time," \
          "core/measure simulator: power,target: time (10 %),target: power (5 %)," \
          "PowerTrain time (real AGX Orin: < 15 % from ~50 modes),PowerTrain power (real AGX Orin: < 6 % from ~50 modes)"
    for (n in modes) print n "," it[n] "," ip[n] "," st[n] "," sp[n] ",10,5," (n == 50 ? "15,6" : ",") | "sort -n"
  }' "$log" >"$out/learn-accuracy.csv"
[ "$(wc -l <"$out/learn-accuracy.csv")" -eq 6 ] || { echo "expected 5 rows, got:" >&2; cat "$out/learn-accuracy.csv" >&2; exit 1; }
"$build/tests/bench/plot_csv" "$out/learn-accuracy.csv" "$out/learn-accuracy.png" --log-x \
  --title "rooftop learn: MAPE over all 4,368 AGX Orin grid modes (ResNet-50, batch 1, simulated boards)" \
  --x-label "profiled modes (sample:N)" --y-label "MAPE (%)"
echo "wrote $out/learn-accuracy.csv and $out/learn-accuracy.png"
