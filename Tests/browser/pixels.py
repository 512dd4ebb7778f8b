#!/usr/bin/env python3
"""Checks a PNG screenshot of an HTML report (Docs/Reports.md, Tests): that each colour given
with --colour is present on at least MIN pixels, and that the page's content (every pixel that is
not the page background) is no wider than --max-width pixels. Reads the PNG with the standard
library only (zlib). Prints what it found; exits 1 when a check fails."""
import argparse
import struct
import sys
import zlib


def read_png(path):
    """The width, height and rows of RGB tuples of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, width, height, kind = 8, [], 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        name = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if name == b"IHDR":
            width, height, depth, kind, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or kind not in (2, 6) or interlace:
                raise ValueError(f"{path}: only 8-bit RGB/RGBA, not interlaced")
        elif name == b"IDAT":
            idat.append(body)
        elif name == b"IEND":
            break
    channels = 3 if kind == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, previous, i = [], bytearray(stride), 0
    for _ in range(height):
        kind_of_filter = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind_of_filter == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind_of_filter == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind_of_filter == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind_of_filter == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[x] = (line[x] + predictor) & 0xFF
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


def colour(text):
    text = text.lstrip("#")
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("png")
    parser.add_argument("--colour", action="append", default=[], help="#RRGGBB that must be present")
    parser.add_argument("--min", type=int, default=100, help="pixels of each colour at least")
    parser.add_argument("--background", default="#F5F6F7")
    parser.add_argument("--max-width", type=int, default=1000)
    args = parser.parse_args()
    width, height, rows = read_png(args.png)
    wanted = {colour(c): 0 for c in args.colour}
    background = colour(args.background)
    left, right = width, -1
    for row in rows:
        for x, pixel in enumerate(row):
            if pixel in wanted:
                wanted[pixel] += 1
            if pixel != background:
                left = min(left, x)
                right = max(right, x)
    failed = False
    for c, count in zip(args.colour, wanted.values()):
        ok = count >= args.min
        failed = failed or not ok
        print(f"{args.png}: {c}: {count} pixels{'' if ok else f' (fewer than {args.min})'}")
    content = right - left + 1 if right >= 0 else 0
    if right >= width - 1 or left <= 0:
        print(f"{args.png}: the content reaches the edge of the {width}px window")
        failed = True
    elif content > args.max_width:
        print(f"{args.png}: content {content}px wide, more than {args.max_width}px")
        failed = True
    else:
        print(f"{args.png}: content {content}px wide (window {width}x{height})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
