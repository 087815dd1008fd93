#!/usr/bin/env bash
# The pictures of docs/USING.md (and the README's wave): one headless capture a lab, legend
# included, into docs/img/<lab>.png. Each lab's shot is the command line in
# assets/<lab>/gallery.args (vklab's arguments, shell-quoted).
# Usage: bash scripts/make-gallery.sh [path/to/vklab]   (default build/app/vklab)
set -euo pipefail
cd "$(dirname "$0")/.."
vklab=${1:-build/app/vklab}
mkdir -p docs/img
for args in assets/*/gallery.args; do
  lab=$(basename "$(dirname "$args")")
  eval "set -- $(cat "$args")"
  "$vklab" --headless --size 960x600 --capture "docs/img/$lab.png" "$@" > /dev/null
  echo "docs/img/$lab.png"
done
