#!/usr/bin/env bash
# Installs every build, run and test dependency of vklab from Debian 12's packages.
# Idempotent: apt-get skips what is already there. `--ci` adds the tools only CI's extra checks
# use: clang and its libFuzzer runtime (scripts/fuzz.sh) and clang-format (scripts/format.sh);
# `--windows` the MinGW-w64 compiler and Wine (ctest -L windows: the Windows side of
# compute/io/platform.cpp built and run), and what scripts/windows/build.sh needs besides
# (dpkg-dev and m4 to unpack and build the dependencies' sources, zip; python3 reads the zip and
# the MP4s back in tests/windows/).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# dpkg without a sync after each file it unpacks (as Debian's container images set it): a crash
# mid-install means running it again; the install takes 41 s instead of 47 s (packages downloaded).
APT="$SUDO apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-unsafe-io"
$APT \
  build-essential cmake ninja-build pkg-config \
  libvulkan-dev libvulkan-volk-dev vulkan-validationlayers mesa-vulkan-drivers vulkan-tools \
  glslc libshaderc-dev glslang-dev spirv-tools libglfw3-dev libglm-dev libimgui-dev libstb-dev nlohmann-json3-dev \
  libmpfr-dev libopenblas-dev libmeshoptimizer-dev librenderdoc-dev renderdoccmd libgtest-dev xvfb xauth fonts-dejavu-core \
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev \
  gmsh desktop-file-utils >/dev/null  # gmsh: the mesh lab's reader is checked on meshes it generates; fonts-dejavu-core: the window's font; desktop-file-utils: the package check validates the menu entry
if [ "${1:-}" = "--ci" ]; then
  $APT clang libclang-rt-14-dev clang-format >/dev/null
fi
if [ "${1:-}" = "--windows" ]; then
  $APT g++-mingw-w64-x86-64-posix wine64 dpkg-dev m4 zip python3 >/dev/null
fi
