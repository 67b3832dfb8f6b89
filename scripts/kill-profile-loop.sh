#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# kill -9 of `rooftop profile` at random times on a fake Jetson, N times:
#   scripts/kill-profile-loop.sh BUILD_DIR N [SEED]
# Each round copies the AGX Orin JetPack 6 fixture tree, puts it in a random stock mode through the fake helper
# (tests/support/fake_jetson_tool.cpp behind a pkexec that only runs its arguments), starts a profile over
# three modes (two stock, one custom) with a shell runner that leaves a background child holding its output and sleeps
# a random few ms, kills it with SIGKILL at a random time within one whole sweep's duration, then checks that
#   (a) no process a runner started outlives the kill (the run's guardian kills its group when Rooftop dies),
#       the next start (`rooftop devices`) restores the original mode when a journal was left, and no process a
#       runner started is left running after it either (the runner's record, core/measure/runner_journal.h),
#   (b) the runs file (and its layers file) reads,
#   (c) a resume completes with the expected number of ok rows, none beyond --repeat,
#   (d) no background child of a run outlives the run (the run ends when its runner exits).
# Prints the counts and exits 1 when any check failed.
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR N [SEED]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
rounds=$2
seed=${3:-$$}
RANDOM=$seed
echo "seed: $seed (rerun with it as the third argument)"
source_dir=$(cd "$(dirname "$0")/.." && pwd)
rooftop=$build/app/rooftop
tool=$build/tests/rooftop_fake_jetson_tool
fixture=$source_dir/tests/fixtures/jetson/agx-orin-jp6
model=$source_dir/resources/models/lstm.onnx
for f in "$rooftop" "$tool"; do
    [ -x "$f" ] || { echo "$0: $f is not built" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PATH=$source_dir/tests/support/fake-pkexec:$PATH
export ROOFTOP_MODE_HELPER=$tool
export ROOFTOP_TRTEXEC=
export ROOFTOP_CACHE_DIR=$work/cache
unset ROOFTOP_SYSFS_ROOT ROOFTOP_MODE_JOURNAL

repeat=2
# MAXN and MODE_50W (the fixture's TPC mask rules out the other stock modes: reboot needed) and a custom mode
modes='MAXN;MODE_50W;cores=8,cpu=1728000,gpu=612000000,emc=3199000000'
runner='command:sleep 30 & echo $! >>"$ROOFTOP_KILL_CHILDREN"; sleep 0.0$(od -An -N1 -tu1 /dev/urandom | tr -dc 0-9 | cut -c1); echo '"'"'{"latency_ms": 1.5, "p99_ms": 2}'"'"
profile_args() { # RUNS
    printf '%s\n' profile "$model" --device agx-orin-64gb --modes "$modes" --batch 1 --repeat "$repeat" \
        --settle 0 --idle 0.1 --run-timeout 10 --runner "$runner" -o "$1"
}

# A fresh board in stock mode $2 under folder $1, set as a restore sets it (release, then nvpmodel).
new_board() {
    rm -rf "$1"
    mkdir -p "$1"
    cp -r "$fixture" "$1/board"
    export ROOFTOP_SYSFS_ROOT=$1/board ROOFTOP_MODE_JOURNAL=$1/state/mode-journal \
        ROOFTOP_RUNNER_JOURNAL=$1/state/runners ROOFTOP_KILL_CHILDREN=$1/children
    "$tool" release-clocks >/dev/null && "$tool" set-stock-mode "$2" >/dev/null
}

now_ms() { date +%s%3N; }

# The reference: one whole sweep, for its duration and its number of ok rows.
new_board "$work/reference" 0
mapfile -t args < <(profile_args "$work/reference/runs.csv")
t0=$(now_ms)
if ! "$rooftop" "${args[@]}" >"$work/reference/out" 2>"$work/reference/err"; then
    echo "$0: the reference profile failed:" >&2
    cat "$work/reference/err" >&2
    exit 1
fi
sweep_ms=$(($(now_ms) - t0))
expected=$("$tool" check-runs "$work/reference/runs.csv" "$repeat" | sed -n 's/^ok=\([0-9]*\) .*/\1/p')
echo "reference sweep: $expected ok runs in ${sweep_ms} ms"

kills=0 finished_first=0 journals=0 restores=0 modes_restored=0 valid=0 resumes=0 failures=0 reaped=0
# True while a process runs (a zombie waiting for its reaper does not).
running() { [ -r "/proc/$1/stat" ] && ! sed 's/.*) //' "/proc/$1/stat" | grep -q '^Z'; }
# True when process PID has ended within two seconds (SIGKILL is delivered at once, but a loaded machine may
# take a moment to end and reap the process).
ends_soon() {
    for _ in $(seq 20); do
        running "$1" || return 0
        sleep 0.1
    done
    return 1
}
fail() { # ROUND MESSAGE
    failures=$((failures + 1))
    echo "round $1: $2" >&2
}

start=$(now_ms)
for ((i = 1; i <= rounds; i++)); do
    dir=$work/round
    original=$((RANDOM % 4))
    new_board "$dir" "$original"
    before=$("$tool" mode)
    mapfile -t args < <(profile_args "$dir/runs.csv")
    "$rooftop" "${args[@]}" >"$dir/out" 2>"$dir/err" &
    pid=$!
    # within the sweep's middle 80 %: a kill before the first switch or after the last run tests little
    delay_ms=$((sweep_ms / 10 + (RANDOM * 32768 + RANDOM) % (sweep_ms * 8 / 10 + 1)))
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    if kill -9 "$pid" 2>/dev/null; then
        kills=$((kills + 1))
    else
        finished_first=$((finished_first + 1))
    fi
    wait "$pid" 2>/dev/null
    for child in $(cat "$ROOFTOP_KILL_CHILDREN" 2>/dev/null); do
        ends_soon "$child" || fail "$i" "a runner's background child ($child) outlived the kill of rooftop profile"
    done
    left=0
    if [ -e "$ROOFTOP_MODE_JOURNAL" ]; then
        left=1
        journals=$((journals + 1))
    fi

    # (a) the next start, any command, restores the mode
    "$rooftop" devices >/dev/null 2>"$dir/next.err"
    grep -q "^rooftop: killed [0-9]* runner process" "$dir/next.err" && reaped=$((reaped + 1))
    if grep -q "^rooftop: restored the power mode" "$dir/next.err"; then
        restores=$((restores + 1))
        [ "$(grep -vc "^rooftop: killed" "$dir/next.err")" -eq 1 ] ||
            fail "$i" "more than one line at the next start: $(cat "$dir/next.err")"
    elif [ "$left" = 1 ]; then
        fail "$i" "a journal was left and the next start did not restore: $(cat "$dir/next.err")"
    fi
    [ -e "$ROOFTOP_MODE_JOURNAL" ] && fail "$i" "the journal is still there after the next start"
    for child in $(cat "$ROOFTOP_KILL_CHILDREN" 2>/dev/null); do
        ends_soon "$child" || fail "$i" "a runner's background child ($child) is still running after the next start"
    done
    after=$("$tool" mode)
    if [ "$after" = "$before" ]; then
        modes_restored=$((modes_restored + 1))
    else
        fail "$i" "mode after the kill: $after, before: $before (killed after ${delay_ms} ms)"
    fi

    # (b) the runs file reads
    if "$tool" check-runs "$dir/runs.csv" "$repeat" >"$dir/check" 2>&1; then
        valid=$((valid + 1))
    else
        fail "$i" "runs file does not read: $(cat "$dir/check")"
    fi

    # (c) a resume completes: every configuration exactly --repeat ok rows
    if "$rooftop" "${args[@]}" >"$dir/out2" 2>"$dir/err2"; then
        check=$("$tool" check-runs "$dir/runs.csv" "$repeat")
        if [ "$check" = "ok=$expected keys=$((expected / repeat)) max=$repeat" ] &&
            [ "$("$tool" mode)" = "$before" ]; then
            resumes=$((resumes + 1))
        else
            fail "$i" "after the resume: $check, mode $("$tool" mode) (wanted ok=$expected, mode $before)"
        fi
    else
        fail "$i" "the resume failed: $(tail -1 "$dir/err2")"
    fi
    # (d) each run ended with its runner: no background child outlives the run that started it
    for child in $(cat "$ROOFTOP_KILL_CHILDREN" 2>/dev/null); do
        ends_soon "$child" || fail "$i" "a runner's background child ($child) outlived its run"
    done
done
wall_ms=$(($(now_ms) - start))

echo "rounds: $rounds, kills: $kills (finished before the kill: $finished_first), journals left: $journals," \
    "restores: $restores, modes as before: $modes_restored, valid files: $valid, resumes completed: $resumes," \
    "runner processes killed by the next start: $reaped rounds," \
    "failures: $failures, wall time: $((wall_ms / 1000)).$(printf '%03d' $((wall_ms % 1000))) s"
if [ "$rounds" -ge 3 ] && [ "$journals" -eq 0 ]; then
    echo "$0: no round left a journal to restore: the kills tested nothing (seed $seed)" >&2
    exit 1
fi
[ "$failures" -eq 0 ]
