#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Cross-builds Rooftop for arm64 (aarch64, the CPU of every Jetson) on a Debian amd64 machine, runs the ctest suite
# (all but the fuzz label) under qemu-user, and builds and checks the arm64 Debian package.
#   - Debian's cross compiler (g++-aarch64-linux-gnu) and Debian's arm64 libraries through multiarch
#     (dpkg --add-architecture arm64; qt6-base-dev:arm64 ...), with cmake/aarch64-linux-gnu.cmake; Qt's moc, uic
#     and rcc are the host's. No CUDA (no cross CUDA toolkit), no benchmarks, no fuzzers.
#   - Tests run through qemu-aarch64 (CMAKE_CROSSCOMPILING_EMULATOR); tests that start rooftop or another test
#     program as a process need qemu-aarch64 registered with binfmt_misc (qemu-user-binfmt): set up here.
#   - The package: cpack -G DEB into BUILD_DIR/package, then tests/package/test-package.sh for arm64.
# Installs what it needs (apt-get, through sudo when not root) and refuses to go on if apt would remove a package.
# Slow (a clean build and the suite under qemu take long; see the README's arm64 section): it is not part of ctest
# or CI.
#
# Usage: scripts/arm64-check.sh [BUILD_DIR]       (default: build-arm64 in the repository)
# Environment: JOBS          build and ctest jobs (default: nproc); on a shared machine e.g.
#                            JOBS=1 nice -n 19 scripts/arm64-check.sh
#              TIMEOUT_FACTOR  multiplier of the tests' time limits under qemu (default 10)
#              CTEST_ARGS    more ctest arguments, e.g. "-R test_cli" for some of the tests only
# Exits 0 when the build, every test and the package check passed.
set -euo pipefail

start=$(date +%s)
source_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-$source_dir/build-arm64}
jobs=${JOBS:-$(nproc)}
timeout_factor=${TIMEOUT_FACTOR:-10}
read -r -a ctest_args <<<"${CTEST_ARGS:-}"
triplet=aarch64-linux-gnu

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  sudo=(false) # every privileged step below says what it needed
fi

# --- packages: the host's build and package-test tools, the cross compiler, qemu, the arm64 libraries ---
"$source_dir/scripts/ensure-packages.sh" build
if [ "$(dpkg --print-architecture)" != amd64 ]; then
  echo "error: this script cross-builds from amd64 (this machine: $(dpkg --print-architecture))" >&2
  exit 1
fi
host_packages=("g++-$triplet" qemu-user qemu-user-binfmt binfmt-support
               dpkg-dev file desktop-file-utils appstream) # the last four: the package test
arm64_packages=(qt6-base-dev qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6 libonnx1 libprotobuf-dev)
wanted=("${host_packages[@]}" "${arm64_packages[@]/%/:arm64}")
installed=" $(dpkg-query -W -f='${Package}:${Architecture}:${db:Status-Status} ' "${wanted[@]}" 2>/dev/null || true) "
missing=()
for p in "${host_packages[@]}"; do
  [[ $installed == *" $p:amd64:installed "* || $installed == *" $p:all:installed "* ]] || missing+=("$p")
done
for p in "${arm64_packages[@]}"; do
  [[ $installed == *" $p:arm64:installed "* ]] || missing+=("$p:arm64")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    "${sudo[@]}" dpkg --add-architecture arm64
  fi
  "${sudo[@]}" apt-get update -qq
  # Multiarch needs the amd64 and arm64 builds of a library at the same version: apt may upgrade amd64 packages
  # to match, but it must not remove any (the native build needs them all).
  removals=$(apt-get install -s --no-install-recommends "${missing[@]}" | sed -n 's/^Remv \([^ ]*\).*/\1/p')
  if [ -n "$removals" ]; then
    echo "error: installing ${missing[*]} would remove: ${removals//$'\n'/ }" >&2
    echo "       (not done; install the arm64 libraries by hand or in a container)" >&2
    exit 1
  fi
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ONNX's development files: libonnx-dev:arm64 cannot be installed beside libonnx-dev:amd64 on Debian 12, because
# libonnxifi (Multi-Arch: same, which libonnx-dev needs) ships /usr/lib/libonnxifi.so outside the multiarch folders,
# different for each architecture, and dpkg refuses to overwrite it. Unless it is installed, the arm64 packages are
# unpacked into the build directory and CMake pointed there; the programs link libonnx.so.1, which libonnx1:arm64
# (installed above) provides at run time.
onnx_options=()
if ! dpkg-query -W -f='${db:Status-Status}' libonnx-dev:arm64 2>/dev/null | grep -qx installed; then
  onnx_dir=$build_dir/_deps/onnx-arm64
  onnx_version=$(dpkg-query -W -f='${Version}' libonnx1:arm64)
  if [ "$(cat "$onnx_dir/version" 2>/dev/null)" != "$onnx_version" ] || [ ! -d "$onnx_dir/unpacked" ]; then
    rm -rf "$onnx_dir"
    mkdir -p "$onnx_dir/debs"
    (cd "$onnx_dir/debs" &&
      apt-get download -q "libonnx-dev:arm64=$onnx_version" "libonnxifi:arm64=$onnx_version" \
        "libonnx1:arm64=$onnx_version")
    for deb in "$onnx_dir"/debs/*.deb; do dpkg-deb -x "$deb" "$onnx_dir/unpacked"; done
    echo "$onnx_version" >"$onnx_dir/version"
  fi
  onnx_options=(-DONNX_DIR="$onnx_dir/unpacked/usr/lib/$triplet/cmake/ONNX")
fi

# --- binfmt_misc: rooftop started as a process (QProcess, the kill-loop script) must run as an arm64 binary ---
binfmt=/proc/sys/fs/binfmt_misc
binfmt_ok=no
if [ ! -e "$binfmt/register" ]; then
  "${sudo[@]}" mount -t binfmt_misc binfmt_misc "$binfmt" 2>/dev/null || true
fi
if [ -e "$binfmt/register" ] && ! grep -qx enabled "$binfmt/qemu-aarch64" 2>/dev/null; then
  "${sudo[@]}" update-binfmts --enable qemu-aarch64 2>/dev/null || true
fi
if grep -qx enabled "$binfmt/qemu-aarch64" 2>/dev/null; then
  binfmt_ok=yes
else
  echo "warning: qemu-aarch64 is not registered with binfmt_misc ($binfmt): the tests that start rooftop as a" \
    "process will fail (mount binfmt_misc and run update-binfmts --enable qemu-aarch64 as root)" >&2
fi

# --- configure and build ---
generator=(); command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
cmake -S "$source_dir" -B "$build_dir" "${generator[@]}" \
  -DCMAKE_TOOLCHAIN_FILE="$source_dir/cmake/$triplet.cmake" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DROOFTOP_BUILD_TESTS=ON -DROOFTOP_BUILD_BENCHMARKS=OFF -DROOFTOP_BUILD_FUZZERS=OFF \
  -DROOFTOP_TEST_TIMEOUT_FACTOR="$timeout_factor" "${onnx_options[@]}" >/dev/null
cmake --build "$build_dir" --parallel "$jobs"
built=$(date +%s)
if ! file -L "$build_dir/app/rooftop" | grep -q 'ARM aarch64'; then
  echo "error: $build_dir/app/rooftop is not an arm64 binary" >&2
  exit 1
fi

# --- qemu-user 7.2 cannot start a process the way Qt 6 does: tests/arm64/qemu_pidfd_shim.c, preloaded into the
# arm64 programs, makes Qt fall back to fork(). Host programs (qemu itself, sh) read the same LD_PRELOAD, so
# ld.so's $LIB picks an empty library for them. ($LIB is each ld.so's own multiarch folder, lib/aarch64-linux-gnu
# or lib/x86_64-linux-gnu; $PLATFORM, used before, comes from the auxiliary vector, which qemu-user 7.2 does not
# fill for the guest: its ld.so then found no shim and wrote an error line into every test's stderr.)
shim_dir=$build_dir/qemu-pidfd-shim
host_multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
mkdir -p "$shim_dir/lib/$triplet" "$shim_dir/lib/$host_multiarch"
"$triplet-gcc" -O2 -shared -fPIC "$source_dir/tests/arm64/qemu_pidfd_shim.c" -ldl \
  -o "$shim_dir/lib/$triplet/libqemu-pidfd-shim.so"
echo 'void rooftop_qemu_host_side(void) {}' |
  cc -shared -fPIC -x c - -o "$shim_dir/lib/$host_multiarch/libqemu-pidfd-shim.so"
shim_preload="$shim_dir/\$LIB/libqemu-pidfd-shim.so"

# --- the tests under qemu ---
ctest_log=$build_dir/arm64-ctest.log
set +e
# QtTest's watchdog ends a test function after 5 minutes: under qemu the slowest take longer (the plan search about
# 8 minutes), so it gets the same factor as ctest's limits
(cd "$build_dir" && LD_PRELOAD=$shim_preload QTEST_FUNCTION_TIMEOUT=$((300000 * timeout_factor)) ctest --output-on-failure --parallel "$jobs" -LE fuzz "${ctest_args[@]}") 2>&1 | tee "$ctest_log"
ctest_rc=${PIPESTATUS[0]}
set -e
tested=$(date +%s)
summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$ctest_log" | tail -n 1)
failed_tests=$(sed -n '/^The following tests FAILED:/,$s/^[[:space:]]*[0-9]* - //p' "$ctest_log")

# --- the Debian package: built into BUILD_DIR/package, then unpacked and run by the package test ---
# DEB_HOST_ARCH lets dpkg-shlibdeps (run by cpack) read the arm64 binaries and find the arm64 libraries' packages.
rm -rf "$build_dir/package"
(cd "$build_dir" && DEB_HOST_ARCH=arm64 cpack -G DEB -B "$build_dir/package" >/dev/null)
deb=$(find "$build_dir/package" -maxdepth 1 -name 'rooftop_*.deb' | head -n 1)
deb_arch=$(dpkg-deb -f "$deb" Architecture)
set +e
LD_PRELOAD=$shim_preload DEB_HOST_ARCH=arm64 ROOFTOP_PACKAGE_ARCH=arm64 "$source_dir/tests/package/test-package.sh" "$build_dir" 2>&1 |
  tee "$build_dir/arm64-package-test.log"
package_rc=${PIPESTATUS[0]}
set -e
end=$(date +%s)

minutes() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
echo
qemu_version=$(qemu-aarch64 --version | sed -n 's/.*version \([^ ]*\).*/\1/p;q')
echo "== arm64 check: cross-built on $(uname -m), tests under qemu-aarch64 $qemu_version"
echo "build:    $build_dir ($(minutes $((built - start))))"
echo "tests:    ${summary:-no ctest summary (see $ctest_log)} under qemu ($(minutes $((tested - built))))"
while IFS= read -r failed_test; do
  [ -z "$failed_test" ] || echo "          failed: $failed_test"
done <<<"$failed_tests"
[ "$binfmt_ok" = yes ] || echo "          (binfmt_misc not set up: tests that start rooftop as a process cannot pass)"
echo "package:  $(basename "$deb"), Architecture: $deb_arch; $(tail -n 1 "$build_dir/arm64-package-test.log")"
echo "wall:     $(minutes $((end - start)))"
[ "$ctest_rc" -eq 0 ] && [ "$package_rc" -eq 0 ] && [ "$deb_arch" = arm64 ]
