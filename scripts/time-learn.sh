#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Whole-process timing of `rooftop learn` on runs files of the simulated board: wall time and peak resident
# memory (/usr/bin/time -v) per size. The runs files (ResNet-18 on AGX Orin 64GB, sample:N grid modes x 5 batch
# sizes, --repeat R) are made once with `rooftop profile --runner sim` and kept in the work folder.
# Usage: scripts/time-learn.sh ROOFTOP_BINARY [WORK_FOLDER] [SIZES]
#   SIZES: "MODES:REPEAT ..." (default "100:1 400:1 1000:1 4000:5": 500, 2,000, 5,000 and 100,000 runs)
set -eu
binary=$1
work=${2:-$(mktemp -d)}
sizes=${3:-"100:1 400:1 1000:1 4000:5"}
model=$(cd "$(dirname "$0")/.." && pwd)/resources/models/resnet18.onnx
mkdir -p "$work"
printf 'runs\twall s\tpeak RSS MiB\tCV time\tCV power\n'
for size in $sizes; do
    modes=${size%%:*}
    repeat=${size##*:}
    runs=$work/runs-$modes-$repeat.csv
    if [ ! -s "$runs" ]; then
        "$binary" profile "$model" --device agx-orin-64gb --runner sim --no-switch --modes "sample:$modes" \
            --seed 3 --batch 1,2,4,8,16 --repeat "$repeat" -o "$runs" >/dev/null 2>&1
    fi
    count=$(($(wc -l <"$runs") - 1))
    report=$work/learn-$modes-$repeat.txt
    /usr/bin/time -v "$binary" learn "$model" --device agx-orin-64gb --runs "$runs" -o "$work/p.json" \
        >"$report" 2>"$report.time"
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$report.time" |
        awk -F: '{ s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; printf "%.2f", s }')
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$report.time" | awk '{ printf "%.0f", $1 / 1024 }')
    cv=$(sed -n 's/^Cross-validated (5-fold) MAPE: time \([0-9.]*\) %, power \([0-9.]*\) %/\1 %\t\2 %/p' "$report")
    printf '%s\t%s\t%s\t%s\n' "$count" "$wall" "$rss" "$cv"
done
