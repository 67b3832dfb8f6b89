#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian/Ubuntu packages Rooftop needs and that are missing (apt-get, through sudo when not root).
# Knows Debian 12 and Ubuntu 22.04 / 24.04 (from /etc/os-release; other Debian-like systems get the Debian names).
# Usage: scripts/ensure-packages.sh [build|test]    install what the build (or the build and the tests) needs
#        scripts/ensure-packages.sh cmake-options   print the extra CMake options this distribution needs, one a line
set -euo pipefail

mode=${1:-build}

os_release=${ROOFTOP_OS_RELEASE:-/etc/os-release} # overridable to check the other distributions' branches
distro_id=unknown distro_version=unknown
# shellcheck disable=SC1090 # os-release is sourced from a variable path
if [ -r "$os_release" ]; then
  distro_id=$(. "$os_release" && echo "${ID:-unknown}")
  distro_version=$(. "$os_release" && echo "${VERSION_ID:-unknown}")
fi

# Package names that differ between the distributions:
# - QCustomPlot for Qt 6: libqcustomplot2.1-qt6 (+ the header in libqcustomplot-dev) on Debian 12 and Ubuntu 24.04;
#   Ubuntu 22.04 has only a Qt 5 build, so Rooftop downloads QCustomPlot's source at configure time
#   (-DROOFTOP_FETCH_QCUSTOMPLOT=ON, which needs ca-certificates for the https download).
# - libFuzzer's runtime: libclang-rt-dev (llvm-defaults) on Debian 12 and Ubuntu 24.04; on Ubuntu 22.04 it is part
#   of libclang-common-14-dev, which clang pulls in.
# - Qt 6's CMake files on Ubuntu 22.04 need OpenGL's headers (libgl-dev), which its qt6-base-dev does not pull in.
# - Ubuntu 20.04 (JetPack 5) has no Qt 6 at all.
fetch_qcustomplot=no
qcustomplot_packages=(libqcustomplot-dev libqcustomplot2.1-qt6)
fuzzer_runtime=(libclang-rt-dev)
distro_extra=()
case "$distro_id:$distro_version" in
  ubuntu:22.04)
    fetch_qcustomplot=yes
    qcustomplot_packages=(ca-certificates)
    fuzzer_runtime=()
    distro_extra=(libgl-dev)
    ;;
  ubuntu:20.04 | ubuntu:18.04)
    echo "error: Ubuntu $distro_version has no Qt 6 packages; Rooftop needs Ubuntu 22.04 (JetPack 6) or newer" >&2
    exit 1
    ;;
esac

if [ "$mode" = cmake-options ]; then
  if [ "$fetch_qcustomplot" = yes ]; then echo "-DROOFTOP_FETCH_QCUSTOMPLOT=ON"; fi
  exit 0
fi

packages=(build-essential cmake ninja-build pkg-config
          qt6-base-dev qt6-svg-dev "${qcustomplot_packages[@]}" "${distro_extra[@]}"
          libonnx-dev libprotobuf-dev protobuf-compiler libeigen3-dev)
if [ "$mode" = test ]; then
  packages+=(libbenchmark-dev clang clang-tidy "${fuzzer_runtime[@]}"
             dpkg-dev file desktop-file-utils appstream) # the package test: dpkg-shlibdeps, validators
fi

# One dpkg-query for all of them: quick when nothing is missing.
installed=" $(dpkg-query -W -f='${Package}:${db:Status-Status} ' "${packages[@]}" 2>/dev/null || true) "
missing=()
for p in "${packages[@]}"; do
  [[ $installed == *" $p:installed "* ]] || missing+=("$p")
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
