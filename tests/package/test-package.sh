#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian package from a configured and built build directory, unpacks it into a temporary root
# (dpkg -x, no installation on this machine) and checks it as a user would meet it: the installed rooftop finds its
# data next to itself, analyzes and reports on an installed sample network, and the desktop file, the AppStream
# metainfo, the icons and the manual page are there and valid.
# Usage: tests/package/test-package.sh BUILD_DIR        (test.sh runs it on build/)
#        ROOFTOP_PACKAGE_ARCH=arm64 tests/package/test-package.sh BUILD_DIR    a cross build's package
# Needs: cpack, dpkg-deb, dpkg-shlibdeps (dpkg-dev), file, desktop-file-validate (desktop-file-utils),
#        appstreamcli (appstream); scripts/ensure-packages.sh test installs them.
set -euo pipefail

source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build_dir=$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rooftop-package-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
unset ROOFTOP_DATA_DIR # the installed binary must find its data by itself
export QT_QPA_PLATFORM=offscreen

passed=0 failed=0
log="$work/step.log"
# check NAME COMMAND...: runs COMMAND with its output in $log, counts and prints the result.
# Each step runs in a subshell with errexit on (bash ignores set -e in a function called from an if condition).
check() {
  local name=$1 rc
  shift
  set +e
  (set -e; "$@") >"$log" 2>&1
  rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1))
    echo "PASS  $name"
  else
    failed=$((failed + 1))
    echo "FAIL  $name"
    sed -e 's/^/      /' "$log" | tail -n 25
  fi
}

# A cross build (scripts/arm64-check.sh) names its target architecture; its binaries run through binfmt_misc.
arch=${ROOFTOP_PACKAGE_ARCH:-$(dpkg --print-architecture)}
version=$(sed -n 's/^project(Rooftop VERSION \([0-9.]*\).*/\1/p' "$source_dir/CMakeLists.txt")
deb="$work/cpack/rooftop_${version}_${arch}.deb"
root="$work/root"
app_id=io.github.rooftop.Rooftop

build_package() {
  # cpack installs what the build made (with Ninja it builds nothing itself): bring everything up to date first
  cmake --build "$build_dir" --parallel "$(nproc)"
  (cd "$build_dir" && cpack -G DEB -B "$work/cpack")
  test -f "$deb" || { echo "expected $deb; cpack made: $(ls "$work/cpack")"; return 1; }
}

control_fields() {
  local info
  info=$(dpkg-deb --info "$deb")
  echo "$info"
  grep -q "^ Package: rooftop$" <<<"$info"
  grep -q "^ Version: $version$" <<<"$info"
  grep -q "^ Architecture: $arch$" <<<"$info"
  grep -q "^ Maintainer: ." <<<"$info"
  grep -q "^ Description: ." <<<"$info"
  # dpkg-shlibdeps worked: the Qt 6 and C++ runtime libraries rooftop links are dependencies
  grep -Eq "^ Depends: .*libqt6core6" <<<"$info"
  grep -Eq "^ Depends: .*libstdc\+\+6" <<<"$info"
  grep -Eq "^ Recommends: .*pkexec" <<<"$info"
}

contents() {
  local listing expected
  listing=$(dpkg-deb --contents "$deb" | awk '{print $6}')
  for expected in \
    ./usr/bin/rooftop ./usr/libexec/rooftop/rooftop-window \
    ./usr/share/rooftop/devices/agx-orin-64gb.json ./usr/share/rooftop/devices/README.md \
    ./usr/share/rooftop/runtimes.json \
    ./usr/share/rooftop/models/resnet50.onnx ./usr/share/rooftop/models/README.md \
    "./usr/share/applications/$app_id.desktop" "./usr/share/metainfo/$app_id.metainfo.xml" \
    "./usr/share/icons/hicolor/scalable/apps/$app_id.svg" \
    ./usr/share/mime/packages/rooftop-onnx.xml \
    ./usr/share/man/man1/rooftop.1.gz ./usr/share/doc/rooftop/copyright; do
    grep -qxF "$expected" <<<"$listing" || { echo "missing from the package: $expected"; return 1; }
  done
  if grep -v '^\./usr/' <<<"$listing" | grep -v '^\./$'; then
    echo "files outside /usr (above)"
    return 1
  fi
  # the power-mode helper and its polkit policy, once their sources exist
  if [ -d "$source_dir/app/mode_helper" ]; then
    grep -qxF ./usr/libexec/rooftop/rooftop-mode-helper <<<"$listing" || { echo "missing: the mode helper"; return 1; }
  fi
  if compgen -G "$source_dir/packaging/polkit/*.policy*" >/dev/null; then
    grep -q '^\./usr/share/polkit-1/actions/.*\.policy$' <<<"$listing" || { echo "missing: the polkit policy"; return 1; }
  fi
}

unpack() {
  dpkg-deb -x "$deb" "$root"
  test -x "$root/usr/bin/rooftop" || { echo "no executable usr/bin/rooftop in the package"; return 1; }
  "$root/usr/bin/rooftop" --version | grep -qx "rooftop $version"
}

# The installed binary reads <exe>/../share/rooftop (here inside a temporary root, not /usr), not the source tree
# that it was built from: a board added to the unpacked root's catalog shows up.
installed_data_found() {
  local marker="$root/usr/share/rooftop/devices/package-test-board.json" status=0
  sed -e '0,/"id": "agx-orin-64gb"/s//"id": "package-test-board"/' \
    "$root/usr/share/rooftop/devices/agx-orin-64gb.json" >"$marker"
  {
    "$root/usr/bin/rooftop" devices >"$work/devices.txt" &&
      "$root/usr/bin/rooftop" modes --device package-test-board >/dev/null # runtimes.json from the same folder
  } || status=$?
  rm "$marker"
  cat "$work/devices.txt"
  [ "$status" -eq 0 ]
  grep -q "^package-test-board " "$work/devices.txt"
  grep -q "^agx-orin-64gb " "$work/devices.txt"
}

analyze_installed_model() {
  "$root/usr/bin/rooftop" analyze "$root/usr/share/rooftop/models/resnet50.onnx" --format json -o "$work/analyze.json"
  # torchvision's ResNet-50 at batch 1: 4.089 GMACs
  grep -Eq '"torchvision_macs": *4089[0-9]{6}[,}]' "$work/analyze.json"
  "$root/usr/bin/rooftop" analyze "$root/usr/share/rooftop/models/resnet50.onnx" | tail -n 5
}

report_installed_model() {
  "$root/usr/bin/rooftop" report "$root/usr/share/rooftop/models/resnet50.onnx" --device agx-orin-64gb \
    -o "$work/r.html"
  test -s "$work/r.html"
  grep -qi "<html" "$work/r.html"
  grep -q "agx-orin-64gb\|AGX Orin 64GB" "$work/r.html"
}

desktop_file() {
  local desktop="$root/usr/share/applications/$app_id.desktop"
  desktop-file-validate "$desktop"
  grep -qx "Exec=rooftop %F" "$desktop"
  grep -qx "Icon=$app_id" "$desktop"
  # the type it opens is the one the package defines
  grep -qx "MimeType=application/x-onnx;" "$desktop"
  grep -q '<mime-type type="application/x-onnx">' "$root/usr/share/mime/packages/rooftop-onnx.xml"
}

metainfo() {
  appstreamcli validate --no-net "$root/usr/share/metainfo/$app_id.metainfo.xml"
  appstreamcli validate-tree --no-net "$root" # with the desktop file and icons it refers to
  grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" \
    "$root/usr/share/metainfo/$app_id.metainfo.xml"
}

icons_and_manual() {
  local size
  file "$root/usr/share/icons/hicolor/scalable/apps/$app_id.svg" | grep -q "SVG"
  for size in 16 24 32 48 64 128 256; do
    file "$root/usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png" | grep -q "PNG image data, $size x $size"
  done
  gzip -t "$root/usr/share/man/man1/rooftop.1.gz"
  gzip -dc "$root/usr/share/man/man1/rooftop.1.gz" | grep -q '^\.TH ROOFTOP 1'
  for command in analyze devices modes roofline recommend calibrate bench report; do
    gzip -dc "$root/usr/share/man/man1/rooftop.1.gz" | grep -q "^\.B $command\$" || { echo "man page lacks $command"; return 1; }
  done
}

check "cpack -G DEB builds rooftop_${version}_${arch}.deb" build_package
if [ ! -f "$deb" ]; then
  echo "package: $passed passed, $((failed + 9)) failed"
  exit 1
fi
check "control fields, Depends from dpkg-shlibdeps" control_fields
check "package contents" contents
check "dpkg -x; installed rooftop --version" unpack
check "installed rooftop finds its data in <exe>/../share/rooftop" installed_data_found
check "installed rooftop analyze on an installed sample network" analyze_installed_model
check "installed rooftop report (HTML)" report_installed_model
check "desktop-file-validate" desktop_file
check "appstreamcli validate --no-net (metainfo, installed tree)" metainfo
check "icons and manual page" icons_and_manual

echo "package: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
