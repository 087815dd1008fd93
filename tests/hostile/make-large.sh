#!/usr/bin/env bash
# The hostile inputs too large or too odd to keep in git, made into the folder given:
#   bash tests/hostile/make-large.sh OUT
# (ctest runs it before the Hostile tests; tests/hostile/cases.txt names the files as {g}/NAME).
set -euo pipefail
solution=$(cd "$(dirname "$0")/../../assets/linalg/exercises/axpby" && pwd)/solution.comp
mkdir -p "$1"
cd "$1"
# a kernel of 300 KiB (a comment), one of 9000 lines
{ cat "$solution"; head -c 307200 /dev/zero | tr '\0' 'x' | fold -w 100 | sed 's|^|// |'; } >kernel-300k.comp
{ cat "$solution"; seq 1 9000 | sed 's|^|// line |'; } >kernel-9000-lines.comp
# a comment line of 200 KB (a regular expression over it once overflowed the stack)
{ printf '#version 460 //'; head -c 204800 /dev/zero | tr '\0' '.'; printf '\n'; tail -n +2 "$solution"; } >kernel-long-line.comp
# a mesh kernel of 100 sections, and one whose field name is 2 MB long
{ printf '// field: Area float Tri\n'; for i in $(seq 1 100); do printf -- '// loop: Tri\n---\n'; done; } >mesh-100-sections.glsl
{ printf '// loop: Tri\n// field: '; head -c 2097152 /dev/zero | tr '\0' 'A'; printf ' float Tri\nTriArea = 1.0;\n'; } >mesh-2mb-name.glsl
# a GMlib-dialect kernel of the manual behind a UTF-8 byte-order mark (which once hid its dialect line)
{ printf '\357\273\277'; cat "$(dirname "$solution")/../../../mesh/kernels/manual/s2_4_barycentre.cl"; } >mesh-gmlib-bom.cl
# a star: 20 000 triangles around one vertex (its padded ball would take gigabytes)
{
  printf 'MeshVersionFormatted 2\nDimension 3\nVertices\n40001\n0 0 0 0\n'
  awk 'BEGIN { for (t = 0; t < 20000; ++t) { a = t * 0.000157; printf "%.6f %.6f 0 0\n%.6f %.6f 0.001 0\n", cos(a), sin(a), cos(a + 0.0001), sin(a + 0.0001) } }'
  printf 'Triangles\n20000\n'
  awk 'BEGIN { for (t = 0; t < 20000; ++t) printf "1 %d %d 0\n", 2 * t + 2, 2 * t + 3 }'
  printf 'End\n'
} >mesh-star.mesh
# a preset of 3 GiB (sparse: no disk taken), FIFOs that no one writes, a folder
truncate -s 3G preset-3g.json
rm -f kernel-fifo.comp preset-fifo.json
mkfifo kernel-fifo.comp preset-fifo.json
mkdir -p folder.comp
