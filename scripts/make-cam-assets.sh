#!/usr/bin/env bash
# Writes the machining lab's sample programs with Debian's CAM tools, from the drawings beside
# them, so their origin is plain (apt-get install dxf2gcode slic3r; Debian 12's dxf2gcode 20191025
# needs the one-line fix below to export without its window):
#  assets/machining/plate.dxf -> plate.ngc   dxf2gcode (LinuxCNC post-processor, its defaults:
#                                             two passes to Z -3, arcs as G2/G3 with I J)
#  assets/machining/tile.stl  -> tile.gcode  slic3r 1.3 (0.3 mm layers, one perimeter, 20 % fill)
# The plate: 60 x 40 mm, corners of radius 5, holes of radius 6 at (20, 20) and 4 at (45, 20).
set -euo pipefail
dir="$(cd "$(dirname "$0")/.." && pwd)/assets/machining"
routetext=/usr/lib/python3/dist-packages/dxf2gcode/gui/routetext.py
if grep -q 'QFont("Arial", 10/self.sc)' "$routetext"; then  # a float where Qt wants an int
  sed -i 's|QFont("Arial", 10/self.sc)|QFont("Arial", int(10/self.sc))|' "$routetext"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$dir/plate.dxf" "$tmp/"
(cd "$tmp" && QT_QPA_PLATFORM=offscreen dxf2gcode -q -e plate.ngc plate.dxf > /dev/null 2>&1 || true)
test -s "$tmp/plate.ngc"
sed "s|(Created from file: .*plate.dxf)|(Created from file: plate.dxf)|" "$tmp/plate.ngc" > "$dir/plate.ngc"
slic3r "$dir/tile.stl" --output "$dir/tile.gcode" --layer-height 0.3 --first-layer-height 0.3 --perimeters 1 \
  --fill-density 20% > /dev/null
