#!/usr/bin/env python3
"""Writes assets/wave/pool.png: the pool floor the wave lab refracts (tiles, grout, lane
marks), drawn here so the asset's origin is plain. Standard library only."""
import math, random, struct, sys, zlib

W = H = 512
random.seed(7)
tile = 32
shade = {(i, j): random.uniform(-0.06, 0.06) for i in range(W // tile) for j in range(H // tile)}
rows = []
for y in range(H):
    row = bytearray()
    for x in range(W):
        i, j = x // tile, y // tile
        gx, gy = x % tile, y % tile
        grout = gx < 2 or gy < 2
        base = (0.55, 0.80, 0.88) if not grout else (0.86, 0.88, 0.86)
        s = 0 if grout else shade[(i, j)]
        r, g, b = (min(1.0, max(0.0, c + s)) for c in base)
        # two dark lane stripes and a ring: shapes that show the refraction
        lane = abs(x - 160) < 10 or abs(x - 352) < 10
        ring = abs(math.hypot(x - 256, y - 256) - 90) < 7
        if (lane and 40 < y < 472) or ring:
            r, g, b = 0.10, 0.18, 0.42
        row += bytes((int(r * 255), int(g * 255), int(b * 255)))
    rows.append(b"\x00" + bytes(row))

def chunk(kind, data):
    c = struct.pack(">I", len(data)) + kind + data
    return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
out = sys.argv[1] if len(sys.argv) > 1 else "assets/wave/pool.png"
open(out, "wb").write(png)
print("wrote", out)
