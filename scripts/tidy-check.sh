#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The clang-tidy gate: the project's own C++ (core/, app/, models/) against .clang-tidy, every warning an error.
# Usage: scripts/tidy-check.sh BUILD [all | REV]
#   BUILD  a configured build folder with compile_commands.json (CMake writes it)
#   all    every file (about 270 files: 15-25 minutes on 2 cores; run it before moving the baseline)
#   REV    the files changed since REV (committed or not)
# Without a second argument: the files changed since the commit in .clang-tidy-clean, the last one whose whole tree
# passed (what CI runs: a check of one file costs 5-10 s of CPU, so the whole tree does not fit CI's time).
# Exit 0 when clean, 1 with the findings, 2 when it cannot check.
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:?usage: scripts/tidy-check.sh BUILD [all | REV]}
since=${2:-}
if [ ! -f "$build/compile_commands.json" ]; then
  echo "tidy-check: $build/compile_commands.json not found (configure the build first)" >&2
  exit 2
fi
tidy=$(command -v clang-tidy || true)
if [ -z "$tidy" ]; then
  echo "tidy-check: clang-tidy not found (Debian: apt-get install clang-tidy)" >&2
  exit 2
fi

# a unity build's database names its unity files, not the sources: derive one entry per source beside it
database=$build
if grep -q '/Unity/unity_[0-9]*_cxx\.cxx"' "$build/compile_commands.json"; then
  database=$build/tidy-db
  mkdir -p "$database"
  if ! cmake -DBUILD="$build" -DOUT="$database" -P scripts/unity-compile-db.cmake; then
    echo "tidy-check: cannot derive per-source compile commands from $build's unity build" >&2
    exit 2
  fi
fi

own_files() { git ls-files -- 'core/*.cpp' 'app/*.cpp' 'models/*.cpp'; }

if [ "$since" = all ]; then
  mapfile -t files < <(own_files)
else
  if [ -z "$since" ]; then
    since=$(tr -d '[:space:]' < .clang-tidy-clean)
  fi
  if ! git cat-file -e "$since^{commit}" 2>/dev/null; then
    if [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
      echo "tidy-check: SKIPPED: a shallow clone lacks $since, so what changed since it is unknown;" \
        "run scripts/tidy-check.sh BUILD all, or fetch the history" >&2
      exit 0
    fi
    echo "tidy-check: commit $since is not in this repository; pass a REV or 'all'" >&2
    exit 2
  fi
  mapfile -t files < <({
    git diff --name-only --diff-filter=AM "$since" -- 'core/*.cpp' 'app/*.cpp' 'models/*.cpp'
    git ls-files --others --exclude-standard -- 'core/*.cpp' 'app/*.cpp' 'models/*.cpp'
  } | sort -u)
fi

# only the files the build compiles (a CUDA-less build has no .cu; the fake backends are all .cpp)
checked=()
for file in "${files[@]}"; do
  [ -f "$file" ] && grep -q "\"file\" *: *\".*/$file\"" "$database/compile_commands.json" && checked+=("$file")
done
if [ "${#checked[@]}" -eq 0 ]; then
  echo "tidy-check: no changed file of the project's own code to check (since ${since:-all})"
  exit 0
fi

start=$(date +%s)
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
printf '%s\n' "${checked[@]}" |
  xargs -P "$(nproc)" -n 1 "$tidy" -p "$database" --quiet > "$log" 2>&1 || failed=1
grep -E "(warning|error):" "$log" | sort -u || true
echo "tidy-check: ${#checked[@]} file(s) in $(( $(date +%s) - start )) s: $([ "$failed" = 0 ] && echo clean || echo FINDINGS)"
exit "$failed"
