"""Draws the app icons (static/img/icon-180.png, icon-192.png, icon-512.png) from the shapes of
static/img/favicon.svg: a red chip, a dashed white ring, a white centre with a red T, on the
app's dark background (a home screen shows the icon as a square). Pure Python (zlib and struct), so
the icons need no image library: run `python3 tools/make_icons.py` after changing the design,
and commit the PNGs it writes.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

STATIC_IMG = Path(__file__).resolve().parent.parent / "static" / "img"
SIZES = {"icon-180.png": 180, "icon-192.png": 192, "icon-512.png": 512}

BACKGROUND = (0x0F, 0x17, 0x20)  # --bg of static/css/tourney.css
RED = (0xC0, 0x39, 0x2B)
WHITE = (0xFF, 0xFF, 0xFF)
SAMPLES = 4  # per axis: 16 samples a pixel smooth the edges


def png(width: int, height: int, rows: list[bytes]) -> bytes:
    """An 8-bit RGB PNG: signature, IHDR, one IDAT, IEND."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in rows)  # filter 0 (none) on every row
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def colour_at(x: float, y: float) -> tuple[int, int, int]:
    """The design in the favicon's 64-unit square, centred at (32, 32), scaled to fill most of
    the icon (maskable-safe: the chip stays inside the middle 80 %)."""
    dx, dy = x - 32, y - 32
    r = math.hypot(dx, dy)
    if r > 30:
        return BACKGROUND
    if r <= 13:  # the white centre with the favicon's red "T"
        bar = 26.5 <= x <= 37.5 and 26.5 <= y <= 29.2
        stem = 30.6 <= x <= 33.4 and 26.5 <= y <= 38
        return RED if bar or stem else WHITE
    if 18 <= r <= 24:  # the dashed ring: 8 white dashes, as stroke-dasharray draws them
        angle = (math.atan2(dy, dx) + math.pi) / (2 * math.pi)
        if int(angle * 16) % 2 == 0:
            return WHITE
    return RED


def icon(size: int) -> bytes:
    scale = 64 / (size * 0.9)  # the 64-unit design over 90 % of the icon
    offset = (size - size * 0.9) / 2
    step = 1 / SAMPLES
    rows = []
    for py in range(size):
        row = bytearray()
        for px in range(size):
            acc = [0, 0, 0]
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) * step - offset) * scale
                    y = (py + (sy + 0.5) * step - offset) * scale
                    c = colour_at(x, y)
                    acc[0] += c[0]
                    acc[1] += c[1]
                    acc[2] += c[2]
            n = SAMPLES * SAMPLES
            row += bytes((round(acc[0] / n), round(acc[1] / n), round(acc[2] / n)))
        rows.append(bytes(row))
    return png(size, size, rows)


def main() -> int:
    for name, size in SIZES.items():
        path = STATIC_IMG / name
        path.write_bytes(icon(size))
        print(f"{path.relative_to(STATIC_IMG.parent.parent)}: {size}x{size}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
