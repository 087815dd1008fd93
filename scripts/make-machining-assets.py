#!/usr/bin/env python3
"""Writes the machining lab's sample inputs into assets/machining/:
ball-6mm.stl  a ball-end mill of diameter 6 (ASCII STL, the tool's frame: tip at the
              origin, axis +z), a hemisphere under a cylinder 20 long;
finish.nc     a finishing pass (finition, in Abecassis 2012) in G-code: parallel lines 1 apart
              over the default stock ([0, 63.75]²), following a gentle wavy surface.
Run from the repository root: python3 scripts/make-machining-assets.py"""
import math
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "assets", "machining")


def ball_end(radius=3.0, length=20.0, slices=24, stacks=8):
    def ring(z, r):
        return [(r * math.cos(2 * math.pi * i / slices), r * math.sin(2 * math.pi * i / slices), z)
                for i in range(slices)]

    rings = [[(0.0, 0.0, 0.0)] * slices]  # the tip
    for k in range(1, stacks + 1):  # the hemisphere, from the tip up to its equator
        a = (math.pi / 2) * k / stacks
        rings.append(ring(radius - radius * math.cos(a), radius * math.sin(a)))
    rings.append(ring(length, radius))  # the shank's top
    tris = []
    for lo, hi in zip(rings, rings[1:]):
        for i in range(slices):
            j = (i + 1) % slices
            if lo[i] != lo[j]:
                tris.append((lo[i], hi[j], lo[j]))
            tris.append((lo[i], hi[i], hi[j]))
    top = (0.0, 0.0, length)
    for i in range(slices):
        tris.append((rings[-1][i], top, rings[-1][(i + 1) % slices]))
    return tris


def write_stl(path, tris):
    with open(path, "w") as f:
        f.write("solid ball-6mm\n")
        for a, b, c in tris:
            u = [b[k] - a[k] for k in range(3)]
            v = [c[k] - a[k] for k in range(3)]
            n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
            norm = math.sqrt(sum(x * x for x in n)) or 1.0
            f.write("  facet normal %.6f %.6f %.6f\n    outer loop\n" % tuple(x / norm for x in n))
            for p in (a, b, c):
                f.write("      vertex %.6f %.6f %.6f\n" % p)
            f.write("    endloop\n  endfacet\n")
        f.write("endsolid ball-6mm\n")


def write_finish(path):
    def z(x, y):
        return -1.5 + 0.8 * math.sin(x / 9.0) * math.cos(y / 11.0)

    lines = ["(finishing pass over the default stock, lines 1 apart over a wavy surface, a vklab sample)",
             "G21 G90", "G0 X4 Y4 Z5"]
    y, forward = 4.0, True
    while y <= 60.0 + 1e-9:
        xs = [4.0 + 2.0 * i for i in range(29)]
        if not forward:
            xs.reverse()
        for x in xs:
            lines.append("G1 X%.3f Y%.3f Z%.3f" % (x, y, z(x, y)))
        y += 1.0
        forward = not forward
    lines.append("G0 Z5")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


os.makedirs(OUT, exist_ok=True)
write_stl(os.path.join(OUT, "ball-6mm.stl"), ball_end())
write_finish(os.path.join(OUT, "finish.nc"))
