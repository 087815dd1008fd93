#!/usr/bin/env bash
# scripts/new-lab.sh end to end (ctest label `scaffold`, which CI runs): the tree copied into a
# scratch folder, a lab made there from the template, built, and its tests and the tests every
# lab must pass run, then the lab run headless with validation and its picture written.
# Usage: bash tests/new_lab_test.sh SOURCE_ROOT SCRATCH
set -euo pipefail
src=$1
work=$2
name=scaffold
rm -rf "$work"
mkdir -p "$work"
(cd "$src" && git ls-files --cached --others --exclude-standard -z | xargs -0 cp --parents -t "$work")
cd "$work"
bash scripts/new-lab.sh "$name"
# A second lab of the same name, a bad name and a shared folder's name are refused.
for bad in "$name" 9lives gpu; do
  if bash scripts/new-lab.sh "$bad" 2>/dev/null; then
    echo "new-lab accepted '$bad'" >&2
    exit 1
  fi
done
grep -q "^set(VKLAB_LABS .* $name)$" CMakeLists.txt
grep -q "(assets/$name/help.md)" README.md
bash scripts/configure.sh build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target vklab vklab_tests >/dev/null
export VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
# Its own tests (suite Scaffold), its exercise, presets and lesson, and what every lab must pass.
build/tests/vklab_tests --gtest_brief=1 \
  --gtest_filter="Scaffold*.*:*scaffold*:Layout.*:NamedPaths.*:Help.*:HelpLabels.*:ExerciseCatalogue.*:ParamGroups.*:Presets.Listed*:Cli.Help*:EveryLab/OutOfMemory.*"
build/app/vklab --headless --validate --lab "$name" --steps 100 --capture "$work/$name.png"
test -s "$work/$name.png"
build/app/vklab bench --quick --lab "$name" --out "$work/$name-bench.json" >/dev/null
grep -q '"pass": "scaffold.step"' "$work/$name-bench.json"
echo "new_lab_test: the lab '$name' was made, built, tested and run"
