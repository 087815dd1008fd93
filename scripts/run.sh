#!/usr/bin/env bash
# Installs the dependencies, builds (Release) and opens the vklab window on the first lab.
# Extra arguments go to vklab, e.g. bash scripts/run.sh --lab diffusion --validate
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/configure.sh build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
exec ./build/app/vklab "$@"
