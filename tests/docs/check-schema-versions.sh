#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Every JSON document Rooftop writes is named "rooftop-NAME/N". Checks that the newest N of each name written in
# the sources is the one docs/json.md documents, and that every header comment naming a schema names that N
# (older N appear only where readers accept them). Usage: tests/docs/check-schema-versions.sh [SOURCE_DIR]
set -euo pipefail
source_dir=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$source_dir"

written_literals() { # every "rooftop-NAME/N" string literal of the sources (a header's constants included)
  { grep -rhoE '"rooftop-[a-z-]+/[0-9]+"' core app models --include=*.cpp
    grep -rhoE '= "rooftop-[a-z-]+/[0-9]+"' core app models --include=*.h | sed 's/^= //'; } | tr -d '"'
}
newest() { # name -> the highest N written for it
  written_literals | grep -E "^rooftop-$1/" | grep -oE '[0-9]+$' | sort -n | tail -1 || true
}
documented() { # name -> the N docs/json.md gives (empty when none)
  grep -oE "rooftop-$1/[0-9]+" docs/json.md | grep -oE '[0-9]+$' | sort -n | tail -1 || true
}

failures=0
# the journals' first words (runner-group, mode-journal) are not JSON documents: their headers describe them
names=$(written_literals | sed -E 's/^rooftop-//; s|/.*||' | grep -vxE 'runner-group|mode-journal' | sort -u)
[ -n "$names" ] || { echo "no schema found in the sources" >&2; exit 1; }
for name in $names; do
  written=$(newest "$name")
  docs=$(documented "$name")
  if [ "$docs" != "$written" ]; then
    echo "rooftop-$name/$written is written, docs/json.md documents ${docs:-no version of it}"
    failures=$((failures + 1))
  fi
done
while IFS=: read -r file line match; do
  name=${match#rooftop-}
  name=${name%/*}
  written=$(newest "$name")
  if [ -n "$written" ] && [ "${match##*/}" != "$written" ]; then
    echo "$file:$line: names $match, the sources write rooftop-$name/$written"
    failures=$((failures + 1))
  fi
done < <(grep -rnoE "rooftop-[a-z-]+/[0-9]+" core app models --include=*.h)
if [ "$failures" -gt 0 ]; then
  echo "$failures schema name(s) out of step" >&2
  exit 1
fi
echo "schema names in step: $(echo "$names" | wc -w) documents"
