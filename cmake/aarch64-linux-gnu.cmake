# SPDX-License-Identifier: GPL-3.0-or-later
# Toolchain file: Rooftop for arm64 (aarch64, the Jetson CPU) on a Debian amd64 machine, with Debian's cross
# compiler (g++-aarch64-linux-gnu) and the arm64 libraries installed through multiarch
# (dpkg --add-architecture arm64; qt6-base-dev:arm64 ...), i.e. in /usr/lib/aarch64-linux-gnu, no sysroot.
# scripts/arm64-check.sh installs all that, configures with this file, builds, runs ctest under qemu-user and
# builds the arm64 .deb.
#
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(ROOFTOP_CROSS_TRIPLET aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${ROOFTOP_CROSS_TRIPLET}-gcc)
set(CMAKE_CXX_COMPILER ${ROOFTOP_CROSS_TRIPLET}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${ROOFTOP_CROSS_TRIPLET})
# GCC notes on aarch64 that passing some std::pair arguments changed in GCC 10.1: it matters only when linking code
# built by an older GCC, and all of Debian 12's arm64 libraries come from GCC 12.
set(CMAKE_CXX_FLAGS_INIT -Wno-psabi)

# Target libraries and headers only from the arm64 multiarch folders (and arch-independent ones such as Eigen's);
# programs (protoc, gzip, dpkg) are the host's.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)

# Qt's build tools (moc, uic, rcc) run here: the amd64 ones, from the host's Qt 6 (qt6-base-dev-tools).
if(NOT QT_HOST_PATH)
  set(QT_HOST_PATH /usr)
endif()
if(NOT QT_HOST_PATH_CMAKE_DIR)
  execute_process(COMMAND dpkg-architecture -qDEB_BUILD_MULTIARCH OUTPUT_VARIABLE _rooftop_build_multiarch
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_rooftop_build_multiarch)
    set(QT_HOST_PATH_CMAKE_DIR "${QT_HOST_PATH}/lib/${_rooftop_build_multiarch}/cmake")
  endif()
endif()

# The test programs and the rooftop binary run through qemu-user (qemu-user package). Tests that start rooftop
# as a process (QProcess, scripts) need qemu-aarch64 registered with binfmt_misc too (qemu-user-binfmt).
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  find_program(ROOFTOP_QEMU_AARCH64 qemu-aarch64)
  if(ROOFTOP_QEMU_AARCH64)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${ROOFTOP_QEMU_AARCH64})
  endif()
endif()

# CUDA: core/CMakeLists.txt does not pick up this machine's nvcc in a cross build (its code would be amd64), so
# the CUDA microkernels stay out and rooftop bench reports unavailable, as on a host without the CUDA toolkit.
