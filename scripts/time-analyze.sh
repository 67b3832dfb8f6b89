#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Whole-process timing of `rooftop analyze --format json`: the fastest of N runs and the peak resident memory.
# Usage: scripts/time-analyze.sh ROOFTOP_BINARY MODEL.onnx [MODEL.onnx ...]   (RUNS=N, default 10)
set -eu
binary=$1
shift
runs=${RUNS:-10}
for model in "$@"; do
    "$binary" analyze "$model" --format json >/dev/null # warm the page cache
    best=
    i=0
    while [ "$i" -lt "$runs" ]; do
        start=$(date +%s%N)
        "$binary" analyze "$model" --format json >/dev/null
        end=$(date +%s%N)
        ms=$(( (end - start) / 1000000 ))
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
        i=$((i + 1))
    done
    rss=$(/usr/bin/time -f %M "$binary" analyze "$model" --format json 2>&1 >/dev/null | tail -n 1)
    printf '%s\t%s bytes\t%s ms (fastest of %s)\t%s KiB peak RSS\n' "$(basename "$model")" \
        "$(wc -c <"$model" | tr -d ' ')" "$best" "$runs" "$rss"
done
