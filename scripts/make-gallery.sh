#!/usr/bin/env bash
# The pictures of docs/USING.md (and the README's wave): one headless capture a lab, legend
# included, into docs/img/<lab>.png.
# Usage: bash scripts/make-gallery.sh [path/to/vklab]   (default build/app/vklab)
set -euo pipefail
cd "$(dirname "$0")/.."
vklab=${1:-build/app/vklab}
mkdir -p docs/img
shot() {  # lab, then vklab's arguments
  local lab=$1
  shift
  "$vklab" --headless --size 960x600 --capture "docs/img/$lab.png" "$@" > /dev/null
  echo "docs/img/$lab.png"
}
shot diffusion --lab diffusion --steps 400
shot linalg --lab linalg --set operator=cg --set side=64 --steps 60
shot floatlab --lab floatlab --set "picture=error map" --steps 1
shot wave --preset wave/drop --steps 90
shot cloth --lab cloth --steps 240
shot machining --lab machining --tool assets/machining/ball-6mm.stl --path assets/machining/finish.nc --steps 150
shot mesh --lab mesh --mesh assets/mesh/bracket.mesh --set "example=tetrahedra: volumes" --set clip=true --steps 1
