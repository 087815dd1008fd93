#!/usr/bin/env bash
# Builds the readers' libFuzzer targets with clang (AddressSanitizer + UBSan) and runs each
# for VKLAB_FUZZ_SECONDS (default 15) from its seed corpus. Usage: bash scripts/fuzz.sh
# A finding stops the run and leaves the input as crash-* / leak-* / oom-* in build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DVKLAB_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DVKLAB_FUZZ_SECONDS="${VKLAB_FUZZ_SECONDS:-15}"
cmake --build build-fuzz -j"$(nproc)"
ctest --test-dir build-fuzz --output-on-failure -j"$(nproc)"
