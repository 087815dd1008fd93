#!/usr/bin/env bash
# Cross-builds vklab's dependencies for 64-bit Windows with MinGW-w64, from Debian 12's source
# packages, into a prefix kept under the user's cache folder and named by a hash of this recipe:
# a second run with the same recipe builds nothing. Prints the prefix on its last line.
#   compiled: SPIRV-Tools, glslang and shaderc (one build, shaderc's), GLFW, meshoptimizer,
#             GoogleTest, Dear ImGui (its backends' sources beside it), stb, GMP, MPFR, and
#             FFmpeg's DLLs (LGPL: libavcodec with H.264 by Media Foundation and MPEG-4 Part 2,
#             libavformat with the MP4 muxer, libavutil, libswscale), which vklab loads to record;
#   headers only, taken from the host's packages (they are the same for every system): Vulkan,
#             volk, glm, nlohmann-json, SPIR-V's headers and grammar, RenderDoc's in-app API, and
#             OpenBLAS's declarations (vklab loads its DLL at run time, where the user has one).
# Needs: scripts/install-deps.sh --windows (MinGW-w64, Wine), dpkg-dev, and deb-src lines, which
# it adds (/etc/apt/sources.list.d/vklab-src.sources) where apt has none. About 9 min 30 s on 2 cores.
# Usage: bash scripts/windows/build-deps.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jobs=$(nproc)
recipe=$(cat "$here/build-deps.sh" "$here/mingw-w64.cmake" "$here/imgui.cmake" | sha256sum | cut -c1-12)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/vklab/windows-deps-$recipe
prefix=$cache/prefix
if [ -f "$prefix/.complete" ]; then
  echo "$prefix"
  exit 0
fi
rm -rf "$cache" && mkdir -p "$cache/src" "$prefix/include" "$prefix/lib/pkgconfig"
src=$cache/src
toolchain=(-DCMAKE_TOOLCHAIN_FILE="$here/mingw-w64.cmake" -DVKLAB_WINDOWS_PREFIX="$prefix"
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -G Ninja)
step() { echo "== $1 ($(date +%T))"; }

step "sources"
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
if ! apt-get source --download-only --print-uris glfw3 >/dev/null 2>&1; then
  $SUDO tee /etc/apt/sources.list.d/vklab-src.sources > /dev/null <<'SOURCES'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  $SUDO apt-get update -qq
fi
(cd "$src" && apt-get source --download-only -qq glfw3 meshoptimizer googletest imgui shaderc glslang spirv-tools \
  gmp mpfr4 ffmpeg 2>&1 | grep -v unsandboxed || true)
unpack() {  # the upstream sources, without Debian's patches (they fit Debian's own layout)
  local dsc
  dsc=$(ls "$src"/"$1"_*.dsc)
  # (apt checked the files against Debian's signed index; dpkg-source cannot check the uploaders' keys)
  dpkg-source -x --skip-patches "$dsc" "$src/$1" > "$src/unpack-$1.log" 2>&1
}
for p in glfw3 meshoptimizer googletest imgui shaderc glslang spirv-tools gmp mpfr4 ffmpeg; do unpack $p; done

cmake_build() {  # NAME SOURCE [cmake arguments]
  local name=$1 dir=$2
  shift 2
  step "$name"
  cmake -S "$dir" -B "$src/build-$name" "${toolchain[@]}" "$@" > "$src/build-$name.log"
  cmake --build "$src/build-$name" -j"$jobs" >> "$src/build-$name.log"
  cmake --install "$src/build-$name" >> "$src/build-$name.log"
}

step "headers from the host"
cp -r /usr/include/vulkan /usr/include/vk_video /usr/include/volk.h /usr/include/volk.c /usr/include/glm \
  /usr/include/nlohmann /usr/include/spirv /usr/include/renderdoc_app.h "$prefix/include/"
mkdir -p "$prefix/share/cmake" "$prefix/lib/cmake"
cp -r /usr/share/cmake/nlohmann_json "$prefix/share/cmake/"
cp -r /usr/lib/cmake/glm "$prefix/lib/cmake/" 2>/dev/null || true
mkdir -p "$prefix/include/openblas"
cp /usr/include/x86_64-linux-gnu/cblas.h /usr/include/x86_64-linux-gnu/openblas_config.h "$prefix/include/openblas/" 2> /dev/null ||
  cp /usr/include/x86_64-linux-gnu/openblas-pthread/{cblas.h,openblas_config.h} "$prefix/include/openblas/"
# Debian's are Linux's: the Windows build's declarations (no cpu_set_t affinity functions)
sed -i 's/^#define OPENBLAS_OS_LINUX 1$/#define OPENBLAS_OS_WINNT 1/' "$prefix/include/openblas/openblas_config.h"
cat > "$prefix/lib/pkgconfig/openblas.pc" <<PC
prefix=$prefix
Name: openblas
Description: OpenBLAS's declarations (the library is loaded at run time, where there is one)
Version: 0.3
Cflags: -I\${prefix}/include/openblas
PC

step "stb"
mkdir -p "$prefix/include/stb" "$src/stb"
cp /usr/include/stb/stb_image.h /usr/include/stb/stb_image_write.h /usr/include/stb/stb_truetype.h \
  /usr/include/stb/stb_rect_pack.h "$prefix/include/stb/"
printf '%s\n' '#define STB_IMAGE_IMPLEMENTATION' '#include "stb_image.h"' '#define STB_IMAGE_WRITE_IMPLEMENTATION' \
  '#include "stb_image_write.h"' '#define STB_RECT_PACK_IMPLEMENTATION' '#include "stb_rect_pack.h"' \
  '#define STB_TRUETYPE_IMPLEMENTATION' '#include "stb_truetype.h"' > "$src/stb/stb.c"
x86_64-w64-mingw32-gcc-posix -O2 -I"$prefix/include/stb" -c "$src/stb/stb.c" -o "$src/stb/stb.o"
x86_64-w64-mingw32-gcc-ar-posix rcs "$prefix/lib/libstb.a" "$src/stb/stb.o"

cmake_build glfw "$src/glfw3" -DGLFW_BUILD_EXAMPLES=OFF -DGLFW_BUILD_TESTS=OFF -DGLFW_BUILD_DOCS=OFF
cmake_build meshoptimizer "$src/meshoptimizer"
cmake_build googletest "$src/googletest" -DBUILD_GMOCK=ON
cp "$here/imgui.cmake" "$src/imgui/CMakeLists.txt"
cmake_build imgui "$src/imgui"

# shaderc builds SPIRV-Tools and glslang as its third parties, from their unpacked sources;
# SPIR-V's headers and grammar are the host's (Debian serves no source for spirv-headers).
mkdir -p "$src/spirv-headers/include"
ln -s /usr/include/spirv "$src/spirv-headers/include/spirv"
cat > "$src/spirv-headers/CMakeLists.txt" <<'HEADERS'
cmake_minimum_required(VERSION 3.14)
project(SPIRV-Headers)
add_library(SPIRV-Headers INTERFACE)
add_library(SPIRV-Headers::SPIRV-Headers ALIAS SPIRV-Headers)
target_include_directories(SPIRV-Headers INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/include)
HEADERS
# Only what vklab links: shaderc_combined (shaderc, glslang, SPIRV-Tools and its optimizer in one
# archive) and the headers it includes; not SPIRV-Tools' shared library, reducer, linter and
# differ or glslc, which a whole build and install would make too.
step "shaderc"
cmake -S "$src/shaderc" -B "$src/build-shaderc" "${toolchain[@]}" -DSHADERC_SPIRV_HEADERS_DIR="$src/spirv-headers" \
  -DSHADERC_SPIRV_TOOLS_DIR="$src/spirv-tools" -DSHADERC_GLSLANG_DIR="$src/glslang" -DSHADERC_SKIP_TESTS=ON \
  -DSHADERC_SKIP_EXAMPLES=ON -DSHADERC_SKIP_COPYRIGHT_CHECK=ON -DSHADERC_ENABLE_WERROR_COMPILE=OFF \
  -DSPIRV_SKIP_TESTS=ON -DSPIRV_SKIP_EXECUTABLES=ON -DSPIRV_WERROR=OFF -DENABLE_GLSLANG_BINARIES=OFF \
  -DENABLE_CTEST=OFF -DBUILD_TESTING=OFF > "$src/build-shaderc.log"
cmake --build "$src/build-shaderc" -j"$jobs" --target shaderc_combined_genfile >> "$src/build-shaderc.log"
cp "$src/build-shaderc/libshaderc/libshaderc_combined.a" "$prefix/lib/"
cp -r "$src/shaderc/libshaderc/include/shaderc" "$src/spirv-tools/include/spirv-tools" "$prefix/include/"

autotools_build() {  # NAME SOURCE [configure arguments]
  local name=$1 dir=$2
  shift 2
  step "$name"
  (cd "$dir" && ./configure --host=x86_64-w64-mingw32 --prefix="$prefix" --enable-static --disable-shared \
    CC=x86_64-w64-mingw32-gcc-posix "$@" > "$src/build-$name.log" &&
    make -j"$jobs" >> "$src/build-$name.log" && make install >> "$src/build-$name.log")
}
# Debian's GMP source leaves out the manual (its licence, the GFDL, is not DFSG-free), whose
# makefile configure still writes: one that makes nothing stands in.
mkdir -p "$src/gmp/doc" && printf 'all:\n.DEFAULT:\n\t@:\n' > "$src/gmp/doc/Makefile.in"
autotools_build gmp "$src/gmp"
autotools_build mpfr "$src/mpfr4" --with-gmp="$prefix"

# FFmpeg 5.1's DLLs (avcodec-59.dll, avformat-59.dll, avutil-57.dll, swscale-6.dll: the names
# render/ffmpeg.cpp loads), with only what recording needs: LGPL, no GPL part (so no libx264),
# the C runtime and threads linked in (no MinGW DLL beside them), no assembly (no nasm).
step "ffmpeg"
(cd "$src/ffmpeg" && ./configure --prefix="$prefix" --target-os=mingw32 --arch=x86_64 \
  --cross-prefix=x86_64-w64-mingw32- --cc=x86_64-w64-mingw32-gcc-posix --enable-shared --disable-static \
  --disable-programs --disable-doc --disable-everything --disable-autodetect --disable-network \
  --disable-avdevice --disable-avfilter --disable-swresample --disable-postproc --disable-x86asm \
  --enable-w32threads --enable-mediafoundation --enable-encoder=h264_mf,mpeg4 --enable-muxer=mp4 \
  --enable-demuxer=mov --enable-protocol=file --extra-ldflags="-static-libgcc -static" > "$src/build-ffmpeg.log" &&
  make -j"$jobs" >> "$src/build-ffmpeg.log" && make install >> "$src/build-ffmpeg.log")
cp "$src/ffmpeg/COPYING.LGPLv2.1" "$prefix/bin/FFmpeg-COPYING.LGPLv2.1.txt"

touch "$prefix/.complete"
step "done"
echo "$prefix"
