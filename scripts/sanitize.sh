#!/usr/bin/env bash
# Builds everything with AddressSanitizer + UndefinedBehaviorSanitizer (-DVKLAB_SANITIZE=ON,
# in build-asan/) and runs the test suite on lavapipe; any report fails the test it is in.
# Usage: bash scripts/sanitize.sh [more ctest arguments, e.g. -R 'BadInput|Meshb']
set -euo pipefail
cd "$(dirname "$0")/.."
# -O1 and line tables only (-g1): the build compiles twice as fast as at RelWithDebInfo's -O2 -g
# (one unit of compute/exercise: 21-28 s against 48-62 s), the reports keep file and line.
bash scripts/configure.sh build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKLAB_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"
cmake --build build-asan -j"$(nproc)"
export VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
# Leak checking is off: the Vulkan loader, lavapipe and the validation layer are built
# without frame pointers, so LeakSanitizer cannot attribute (or suppress) what they keep
# until exit; every Vulkan object of ours is owned by an RAII wrapper, and the readers'
# fuzz targets (scripts/fuzz.sh) run with leak checking on.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The soaks (label `soak`: the lab-sized cloth drapes, minutes in Release) are left out; their
# small twins run the same shaders and CPU twin instrumented. So is the hostile corpus (label
# `hostile`): it limits each run's address space to 2 GiB, which ASan's shadow memory passes. The tests that run vklab under renderdoccmd
# are left out: RenderDoc injects its library with LD_PRELOAD ahead of ASan's runtime, which
# ASan refuses (the injection fails); the not-attached path still runs instrumented. The README's
# examples (suite Readme) are left out too: they run, as written, commands whose code the Cli
# suite's tests run instrumented, and they took 141 of the pass's 2 708 test-seconds. So are the
# lessons run step by step (Labs/LessonsOfLab, about 100 test-seconds in Release, mostly the
# driver building labs): each step is a preset, and every shipped preset runs instrumented
# (Labs/PresetsOfLab), as does the reading of the lessons (Lessons). The Windows tests (labels
# `windows`, `windows-exe`) run programs built with MinGW-w64 under Wine, which no sanitizer sees.
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" \
  -LE 'soak|hostile|scaffold|windows' -E 'RenderDoc.(Headless|Bench|Window)|^Readme\.|LessonsOfLab' "$@"
