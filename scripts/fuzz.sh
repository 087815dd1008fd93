#!/usr/bin/env bash
# Builds the readers' libFuzzer targets with clang (AddressSanitizer + UBSan) and runs each
# for VKLAB_FUZZ_SECONDS (default 15) from its seed corpus. Usage: bash scripts/fuzz.sh
# A finding stops the run and leaves the input as crash-* / leak-* / oom-* in build-fuzz/.
#   bash scripts/fuzz.sh --nightly   each target for VKLAB_FUZZ_NIGHTLY_SECONDS (default 600,
#                                    ctest label nightly), then the inputs that reached new code
#                                    merged into tests/fuzz/seeds/<target>/ (commit them)
set -euo pipefail
cd "$(dirname "$0")/.."
CC=clang CXX=clang++ bash scripts/configure.sh build-fuzz -DVKLAB_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DVKLAB_FUZZ_SECONDS="${VKLAB_FUZZ_SECONDS:-15}" -DVKLAB_FUZZ_NIGHTLY_SECONDS="${VKLAB_FUZZ_NIGHTLY_SECONDS:-600}"
cmake --build build-fuzz -j"$(nproc)"
if [ "${1:-}" != "--nightly" ]; then
  ctest --test-dir build-fuzz --output-on-failure -j"$(nproc)" -L fuzz
  exit 0
fi
ctest --test-dir build-fuzz --output-on-failure -j"$(nproc)" -L nightly
for exe in build-fuzz/tests/fuzz/fuzz_*; do
  target=${exe##*/fuzz_}
  mkdir -p "tests/fuzz/seeds/$target"
  "$exe" -merge=1 "tests/fuzz/seeds/$target" "build-fuzz/tests/fuzz/corpus_$target" 2>/dev/null
done
git status --short tests/fuzz/seeds | sed 's/^/new seed: /'
