#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian/Ubuntu packages Rooftop needs and that are missing (apt-get, through sudo when not root).
# Usage: scripts/ensure-packages.sh [build|test]
set -euo pipefail

mode=${1:-build}
packages=(build-essential cmake ninja-build pkg-config
          qt6-base-dev qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6
          libonnx-dev libprotobuf-dev protobuf-compiler libeigen3-dev)
if [ "$mode" = test ]; then
  packages+=(libbenchmark-dev clang libclang-rt-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "error: these packages are missing and neither root nor sudo is available: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
