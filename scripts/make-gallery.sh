#!/usr/bin/env bash
# The pictures of docs/USING.md and the README: one headless capture a lab, legend included,
# into docs/img/<lab>.png (each lab's shot is the command line in assets/<lab>/gallery.args,
# vklab's arguments, shell-quoted); then two of the window under Xvfb: presentation mode
# (docs/img/presentation.png, the whole window) and an exercise's editor pane beside the picture
# (docs/img/editor.png).
# Usage: bash scripts/make-gallery.sh [path/to/vklab]   (default build/app/vklab)
set -euo pipefail
cd "$(dirname "$0")/.."
vklab=$(realpath "${1:-build/app/vklab}")
mkdir -p docs/img
for args in assets/*/gallery.args; do
  lab=$(basename "$(dirname "$args")")
  eval "set -- $(cat "$args")"
  "$vklab" --headless --size 960x600 --capture "docs/img/$lab.png" "$@" > /dev/null
  echo "docs/img/$lab.png"
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# presentation mode: the picture fills the window; the mouse has not moved, so no bar
xvfb-run -a -s '-screen 0 1920x1080x24' env VKLAB_CONFIG_DIR="$work" "$vklab" --preset wave/drop --present \
  --with-interface --frames 90 --size 1280x800 --capture "$PWD/docs/img/presentation.png" > /dev/null
echo docs/img/presentation.png
# the editor pane: an exercise's starting kernel, checked, beside the lab's picture
(cd "$work" && xvfb-run -a -s '-screen 0 1920x1080x24' env VKLAB_CONFIG_DIR="$work" VKLAB_EXERCISE_DIR="$work" \
  "$vklab" --exercise linalg/axpby --with-interface --frames 60 --size 1600x900 \
  --capture "$OLDPWD/docs/img/editor.png" > /dev/null)
echo docs/img/editor.png
