#!/usr/bin/env bash
# Builds everything with AddressSanitizer + UndefinedBehaviorSanitizer (-DVKLAB_SANITIZE=ON,
# in build-asan/) and runs the test suite on lavapipe; any report fails the test it is in.
# Usage: bash scripts/sanitize.sh [more ctest arguments, e.g. -R 'BadInput|Meshb']
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKLAB_SANITIZE=ON
cmake --build build-asan -j"$(nproc)"
export VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
# Leak checking is off: the Vulkan loader, lavapipe and the validation layer are built
# without frame pointers, so LeakSanitizer cannot attribute (or suppress) what they keep
# until exit; every Vulkan object of ours is owned by an RAII wrapper, and the readers'
# fuzz targets (scripts/fuzz.sh) run with leak checking on.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The soaks (label `soak`: the lab-sized cloth drapes, minutes in Release) are left out; their
# small twins run the same shaders and CPU twin instrumented. The tests that run vklab under renderdoccmd
# are left out: RenderDoc injects its library with LD_PRELOAD ahead of ASan's runtime, which
# ASan refuses (the injection fails); the not-attached path still runs instrumented.
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" \
  -LE soak -E 'RenderDoc.(Headless|Bench|Window)' "$@"
