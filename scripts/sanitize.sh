#!/usr/bin/env bash
# Builds everything with AddressSanitizer + UndefinedBehaviorSanitizer (-DVKLAB_SANITIZE=ON,
# in build-asan/) and runs the test suite on lavapipe; any report fails the test it is in.
# Usage: bash scripts/sanitize.sh [ctest arguments, e.g. -R 'BadInput|Meshb']
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKLAB_SANITIZE=ON
cmake --build build-asan -j"$(nproc)"
export VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
# The Vulkan driver and loader are not ours and not instrumented: their allocations at exit
# are left to them (suppressions), everything of ours is checked.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" --timeout 900 "$@"
