#!/usr/bin/env bash
# Writes the mesh lab's sample meshes with Debian's gmsh, so their origin is plain:
# assets/mesh/sphere.mesh (a triangulated unit sphere) and assets/mesh/bracket.mesh
# (tetrahedra filling a box with a hole through it, and its surface triangles).
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/assets/mesh"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/sphere.geo" <<'GEO'
SetFactory("OpenCASCADE");
Sphere(1) = {0, 0, 0, 1};
Mesh.MeshSizeMax = 0.12;
GEO
cat > "$tmp/bracket.geo" <<'GEO'
SetFactory("OpenCASCADE");
Box(1) = {0, 0, 0, 2, 1, 0.6};
Cylinder(2) = {1, 0.5, -0.1, 0, 0, 0.8, 0.25};
BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };
Mesh.MeshSizeMax = 0.13;
GEO
(cd "$tmp" && gmsh -2 sphere.geo -format mesh -o sphere.mesh > /dev/null && gmsh -3 bracket.geo -format mesh -o bracket.mesh > /dev/null)
cp "$tmp/sphere.mesh" "$tmp/bracket.mesh" "$out/"
