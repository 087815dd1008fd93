#!/usr/bin/env bash
# vklab for 64-bit Windows, built here: the dependencies (build-deps.sh, cached), vklab.exe in
# build-windows/ (the toolchain file mingw-w64.cmake; the test suite is not built for Windows:
# its tests use POSIX's processes and pipes), then
# vklab-windows-x64.zip: the .exe (static: no MinGW DLL beside it), the SPIR-V, the assets, the
# font and a README for Windows users. The Vulkan runtime comes with the GPU's driver; FFmpeg's
# and OpenBLAS's DLLs are used where they are found (recording MP4, the CPU baselines).
# Usage: bash scripts/windows/build.sh [more cmake arguments]
set -euo pipefail
cd "$(dirname "$0")/../.."
prefix=$(bash scripts/windows/build-deps.sh | tail -n 1)
bash scripts/configure.sh build-windows -DCMAKE_TOOLCHAIN_FILE="$PWD/scripts/windows/mingw-w64.cmake" \
  -DVKLAB_WINDOWS_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build-windows -j"$(nproc)" --target vklab vklab_shaders
stage=build-windows/zip/vklab
rm -rf build-windows/zip && mkdir -p "$stage/fonts"
cp build-windows/app/vklab.exe "$stage/"
cp -r build-windows/shaders "$stage/shaders"
find "$stage/shaders" -type f ! -name '*.spv' -delete
find "$stage/shaders" -type d -empty -delete
cp -r assets "$stage/assets"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$stage/fonts/"
cp /usr/share/doc/fonts-dejavu-core/copyright "$stage/fonts/DejaVu-copyright.txt"
sed 's/$/\r/' scripts/windows/README-windows.txt > "$stage/README.txt"
(cd build-windows/zip && rm -f ../../vklab-windows-x64.zip && zip -qr ../../vklab-windows-x64.zip vklab)
ls -l vklab-windows-x64.zip
