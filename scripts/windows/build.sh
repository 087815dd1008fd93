#!/usr/bin/env bash
# vklab for 64-bit Windows, built here: the dependencies (build-deps.sh, cached), vklab.exe in
# build-windows/ (the toolchain file mingw-w64.cmake; the test suite is not built for Windows:
# its tests use POSIX's processes and pipes), then
# vklab-windows-x64.zip: the .exe (static: no MinGW DLL beside it), FFmpeg's DLLs (recording MP4)
# with their licence, the SPIR-V, the assets, the font and a README for Windows users. The
# Vulkan runtime comes with the GPU's driver; OpenBLAS's DLL is used where it is found (the CPU
# baselines).
# Usage: bash scripts/windows/build.sh [more cmake arguments]
set -euo pipefail
cd "$(dirname "$0")/../.."
prefix=$(bash scripts/windows/build-deps.sh | tail -n 1)
# a new recipe's prefix: the paths CMake found in an earlier one are forgotten
deps=$(basename "$(dirname "$prefix")")
if [ -f build-windows/CMakeCache.txt ] && grep -o 'windows-deps-[0-9a-f]*' build-windows/CMakeCache.txt | grep -qvx "$deps"; then
  rm -rf build-windows/CMakeCache.txt build-windows/CMakeFiles
fi
bash scripts/configure.sh build-windows -DCMAKE_TOOLCHAIN_FILE="$PWD/scripts/windows/mingw-w64.cmake" \
  -DVKLAB_WINDOWS_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build-windows -j"$(nproc)" --target vklab vklab_shaders
# FFmpeg's DLLs beside vklab.exe, where Windows looks first (recording an MP4)
cp "$prefix"/bin/*.dll "$prefix/bin/FFmpeg-COPYING.LGPLv2.1.txt" build-windows/app/
stage=build-windows/zip/vklab
rm -rf build-windows/zip && mkdir -p "$stage/fonts"
cp build-windows/app/vklab.exe build-windows/app/*.dll build-windows/app/FFmpeg-COPYING.LGPLv2.1.txt "$stage/"
cp -r build-windows/shaders "$stage/shaders"
find "$stage/shaders" -type f ! -name '*.spv' -delete
find "$stage/shaders" -type d -empty -delete
cp -r assets "$stage/assets"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$stage/fonts/"
cp /usr/share/doc/fonts-dejavu-core/copyright "$stage/fonts/DejaVu-copyright.txt"
sed 's/$/\r/' scripts/windows/README-windows.txt > "$stage/README.txt"
(cd build-windows/zip && rm -f ../../vklab-windows-x64.zip && zip -qr ../../vklab-windows-x64.zip vklab)
ls -l vklab-windows-x64.zip
