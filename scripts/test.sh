#!/usr/bin/env bash
# Installs the dependencies, builds (Release) and runs the test suite headless on lavapipe with
# the Khronos validation layer on; the soaks, the hostile corpus and a lab made by
# scripts/new-lab.sh (ctest labels `soak`, `hostile` and `scaffold`) are left to `ctest -L`,
# which CI runs.
# Usage: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
installed=$SECONDS
bash scripts/configure.sh build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
built=$SECONDS
# Tests run on the CPU Vulkan driver (lavapipe) whatever GPU the machine has.
export VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
ctest --test-dir build --output-on-failure -j"$(nproc)" -LE "soak|hostile|scaffold"
echo "test.sh: install ${installed} s, build $((built - installed)) s, tests $((SECONDS - built)) s, in all ${SECONDS} s"
