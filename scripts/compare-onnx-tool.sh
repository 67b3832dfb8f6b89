#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Whole-process time of `rooftop analyze --format json` against onnx-tool's model_profile (Python) on the same
# files: the fastest of N runs each, and both tools' total MACs. onnx-tool runs from a checkout of
# ThanatosShinji/onnx-tool (never part of this repository) with /usr/bin/python3 (onnx, numpy, tabulate).
# Usage: scripts/compare-onnx-tool.sh ONNX_TOOL_CHECKOUT ROOFTOP_BINARY MODEL.onnx [MODEL.onnx ...]   (RUNS=N, default 5)
set -eu
checkout=$1
binary=$2
shift 2
runs=${RUNS:-5}
fastest() { # command...: the fastest wall time of $runs runs, in ms
    best=
    i=0
    while [ "$i" -lt "$runs" ]; do
        start=$(date +%s%N)
        "$@" >/dev/null 2>&1
        end=$(date +%s%N)
        ms=$(((end - start) / 1000000))
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
        i=$((i + 1))
    done
    echo "$best"
}
printf 'file\tbytes\tonnx-tool ms\trooftop ms\tratio\tonnx-tool MACs\trooftop MACs\n'
for model in "$@"; do
    tool_ms=$(fastest env PYTHONPATH="$checkout" /usr/bin/python3 -c \
        "import onnx_tool, sys; onnx_tool.model_profile(sys.argv[1])" "$model")
    rooftop_ms=$(fastest "$binary" analyze "$model" --format json)
    tool_macs=$(PYTHONPATH="$checkout" /usr/bin/python3 -c "
import onnx_tool, sys
m = onnx_tool.Model(sys.argv[1])
m.graph.graph_reorder_nodes(); m.graph.shape_infer(None); m.graph.profile()
print(int(m.graph.macs[0]) if isinstance(m.graph.macs, (list, tuple)) else int(m.graph.macs))" "$model" 2>/dev/null | tail -n 1)
    rooftop_macs=$("$binary" analyze "$model" --format json | sed -n 's/^        "macs": \([0-9]*\),$/\1/p' | head -n 1)
    ratio=$(awk -v a="$tool_ms" -v b="$rooftop_ms" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
    printf '%s\t%s\t%s\t%s\tx%s\t%s\t%s\n' "$(basename "$model")" "$(wc -c <"$model" | tr -d ' ')" "$tool_ms" \
        "$rooftop_ms" "$ratio" "$tool_macs" "$rooftop_macs"
done
