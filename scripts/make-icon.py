#!/usr/bin/env python3
"""Draws vklab's icon: a drop's rings spreading on dark water, in the inferno colours the labs'
heat maps use. Writes assets/desktop/vklab.svg and vklab-N.png (N = 16 ... 512) from one list of
shapes, the PNGs rasterised here with 4x4 samples a pixel (no imaging library needed).
Usage: python3 scripts/make-icon.py"""
import math
import pathlib
import struct
import zlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "assets" / "desktop"
BACKGROUND = (0x1D, 0x1B, 0x2E)
CORNER = 0.18  # the rounded square's corner radius, in icon widths
CENTRE = (0.5, 0.5)
# Rings from the outside in: (radius, half width, colour); the last is the drop itself.
RINGS = [(0.40, 0.035, (0x57, 0x10, 0x6E)), (0.30, 0.04, (0xBC, 0x37, 0x54)),
         (0.20, 0.045, (0xF9, 0x8E, 0x09)), (0.0, 0.10, (0xFC, 0xFF, 0xA4))]
GRID = 8  # lattice lines, faint, over the water


def inside_square(x, y):
    cx, cy = min(max(x, CORNER), 1 - CORNER), min(max(y, CORNER), 1 - CORNER)
    return (x - cx) ** 2 + (y - cy) ** 2 <= CORNER ** 2


def colour(x, y):
    """The icon's colour at (x, y) in [0, 1]^2, or None outside it."""
    if not inside_square(x, y):
        return None
    r = math.hypot(x - CENTRE[0], y - CENTRE[1])
    for radius, half, c in RINGS:
        if abs(r - radius) <= half:
            return c
    gx, gy = (x * GRID) % 1, (y * GRID) % 1
    if min(gx, 1 - gx, gy, 1 - gy) < 0.04:
        return tuple(int(v + 0.12 * (255 - v)) for v in BACKGROUND)
    return BACKGROUND


def png(size):
    rows = []
    n = 4
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            acc, cover = [0, 0, 0], 0
            for sy in range(n):
                for sx in range(n):
                    c = colour((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size)
                    if c:
                        cover += 1
                        acc = [a + v for a, v in zip(acc, c)]
            if cover:
                row += bytes(int(a / cover) for a in acc) + bytes([cover * 255 // (n * n)])
            else:
                row += bytes(4)
        rows.append(bytes(row))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def svg():
    hexc = lambda c: "#%02x%02x%02x" % c
    s = 256
    lines = ['<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">',
             '  <title>vklab</title>',
             '  <clipPath id="icon"><rect width="256" height="256" rx="%g"/></clipPath>' % (CORNER * s),
             '  <g clip-path="url(#icon)">',
             '    <rect width="256" height="256" fill="%s"/>' % hexc(BACKGROUND)]
    grid = tuple(int(v + 0.12 * (255 - v)) for v in BACKGROUND)
    for k in range(GRID + 1):
        p = k * s / GRID
        lines.append('    <path d="M%g 0V256M0 %gH256" stroke="%s" stroke-width="%g"/>' % (p, p, hexc(grid), 0.08 * s / GRID))
    for radius, half, c in RINGS:
        if radius == 0:
            lines.append('    <circle cx="128" cy="128" r="%g" fill="%s"/>' % (half * s, hexc(c)))
        else:
            lines.append('    <circle cx="128" cy="128" r="%g" fill="none" stroke="%s" stroke-width="%g"/>' %
                         (radius * s, hexc(c), 2 * half * s))
    lines += ['  </g>', '</svg>', '']
    return "\n".join(lines)


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "vklab.svg").write_text(svg())
    for size in (16, 32, 48, 64, 128, 256, 512):
        (OUT / ("vklab-%d.png" % size)).write_bytes(png(size))
