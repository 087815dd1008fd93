#!/usr/bin/env bash
# Makes a new lab <name> from the template in scripts/new-lab/: its folders (compute/<name>/ with a
# kernel's host side, its CPU twin, a bench and an exercise operator; shaders/<name>/ with the
# kernel and its push constants; app/labs/<name>/ with its knobs, picture and dump; assets/<name>/
# with a help page and its lesson, three presets, a gallery shot and an exercise; tests/<name>/),
# then adds <name> to VKLAB_LABS (CMakeLists.txt) and its help page to the README's list. The
# template is a working lab, the logistic map on a grid: build, run `vklab --lab <name>`, then
# change it into yours (docs/ARCHITECTURE.md, "Adding a lab").
# Usage: bash scripts/new-lab.sh <name>   (<name>: a to z and digits, starting with a letter)
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-}
if ! [[ $name =~ ^[a-z][a-z0-9]{1,15}$ ]]; then
  echo "usage: bash scripts/new-lab.sh NAME (2 to 16 of a-z and 0-9, starting with a letter)" >&2
  exit 2
fi
labs=$(sed -n 's/^set(VKLAB_LABS \(.*\))$/\1/p' CMakeLists.txt)
for taken in $labs gpu io measure exercise common render desktop fuzz hostile labs core modes window widgets; do
  if [ "$name" = "$taken" ]; then
    echo "new-lab: '$name' is taken (a lab or a shared folder)" >&2
    exit 2
  fi
done
for dir in compute/$name shaders/$name app/labs/$name assets/$name tests/$name; do
  if [ -e "$dir" ]; then
    echo "new-lab: $dir exists already" >&2
    exit 2
  fi
done
Name="$(echo "${name:0:1}" | tr a-z A-Z)${name:1}"
NAME=$(echo "$name" | tr a-z A-Z)
from=scripts/new-lab
# make TEMPLATE DESTINATION: the template with its names filled in.
make() {
  mkdir -p "$(dirname "$2")"
  sed -e "s/@lab@/$name/g" -e "s/@Lab@/$Name/g" -e "s/@LAB@/$NAME/g" "$from/$1" >"$2"
  echo "  $2"
}
echo "new-lab: the lab '$name'"
make compute/lab.h.in "compute/$name/$name.h"
make compute/lab.cpp.in "compute/$name/$name.cpp"
make compute/bench.h.in "compute/$name/bench.h"
make compute/bench.cpp.in "compute/$name/bench.cpp"
make compute/exercise.cpp.in "compute/$name/exercise.cpp"
make shaders/push.h.in "shaders/$name/${name}_push.h"
make shaders/step.comp.in "shaders/$name/step.comp"
make app/lab.cpp.in "app/labs/$name/${name}_lab.cpp"
make assets/help.md.in "assets/$name/help.md"
make assets/gallery.args.in "assets/$name/gallery.args"
for preset in settle doubling chaos; do
  make "assets/$preset.json.in" "assets/$name/presets/$preset.json"
done
for file in task.md start.comp solution.comp check.json; do
  make "assets/exercises/step/$file.in" "assets/$name/exercises/step/$file"
done
make tests/lab_test.cpp.in "tests/$name/${name}_test.cpp"
make tests/push_layout_test.cpp.in "tests/$name/push_layout_test.cpp"
sed -i "s/^set(VKLAB_LABS \(.*\))$/set(VKLAB_LABS \1 $name)/" CMakeLists.txt
sed -i "s#\(\[[a-z0-9]*\](assets/[a-z0-9]*/help\.md)\)\.\$#\1, [$name](assets/$name/help.md).#" README.md
echo "new-lab: '$name' added to VKLAB_LABS (CMakeLists.txt) and to the README's help pages."
echo "new-lab: build (cmake --build build), then: build/app/vklab --lab $name"
