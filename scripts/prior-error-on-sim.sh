#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The prior's own error against the simulated board (`--runner sim`, a physics apart from both the prior's and the
# other-physics board's): per model, sampled grid modes at batch 1, fp32, each run against the starting runtime's
# prediction as `rooftop calibrate --format json` gives it (start_latency_ms, start_power_w). Prints the RMS of
# log(prior / sim) for time, power and energy, the mean power log ratio, and the share of runs whose upper bound
# at 90 % on the prior's stated spread (priorSpread: 45 % time, 25 % power, 35 % energy) holds.
# Usage: scripts/prior-error-on-sim.sh ROOFTOP_BINARY [MODES] [MODELS]   (needs /usr/bin/python3 for the sums)
#   MODES: sampled grid modes per model (default 30); MODELS: sample networks (default "resnet50 mobilenet_v2 resnet18")
set -eu
binary=$1
modes=${2:-30}
models=${3:-"resnet50 mobilenet_v2 resnet18"}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for model in $models; do
    "$binary" profile "$root/resources/models/$model.onnx" --device agx-orin-64gb --runner sim \
        --modes "sample:$modes" --seed 1 -o "$work/$model-runs.csv" >/dev/null 2>&1
    "$binary" calibrate "$root/resources/models/$model.onnx" --device agx-orin-64gb --runs "$work/$model-runs.csv" \
        --format json >"$work/$model.json"
done
/usr/bin/python3 - "$work" $models <<'PY'
import json, math, sys
work, models = sys.argv[1], sys.argv[2:]
z = 1.2816  # the one-sided 90 % quantile
spread = {"time": 0.45, "power": 0.25, "energy": 0.35}  # priorSpread, core/roofline/prediction_spread.cpp
print("model\truns\tRMS log time\tpower\tenergy\tmean log power\tbound holds: time\tpower\tenergy")
for model in models:
    runs = json.load(open(f"{work}/{model}.json"))["runs"]
    logs = {"time": [], "power": [], "energy": []}
    for r in runs:
        t = math.log(r["start_latency_ms"] / r["measured_latency_ms"])
        logs["time"].append(t)
        if r.get("measured_power_w"):
            p = math.log(r["start_power_w"] / r["measured_power_w"])
            logs["power"].append(p)
            logs["energy"].append(t + p)
    rms = {k: math.sqrt(sum(x * x for x in v) / len(v)) for k, v in logs.items()}
    holds = {k: 100 * sum(1 for x in v if -x <= z * spread[k]) / len(v) for k, v in logs.items()}
    mean_power = sum(logs["power"]) / len(logs["power"])
    print(f"{model}\t{len(runs)}\t{rms['time']:.3f}\t{rms['power']:.3f}\t{rms['energy']:.3f}\t{mean_power:.3f}"
          f"\t{holds['time']:.0f} %\t{holds['power']:.0f} %\t{holds['energy']:.0f} %")
PY
