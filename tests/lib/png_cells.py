#!/usr/bin/env python3
# png_cells.py SVG PNG: the colour of every heatmap cell of SVG (a <rect>
# with data-col, its fill) against the pixel at its centre in PNG, a
# browser's rendering of SVG at its own size.  Prints one line:
#   "WxH: N cells, N as drawn" or what differs; exit 1 when any does.
# The PNG is decoded here (zlib and the five row filters): no imaging
# library needed.
import re
import struct
import sys
import zlib


def png_rgb(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                sys.exit("%s: depth %d, colour type %d, interlace %d: not read here"
                         % (path, depth, ctype, interlace))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return w, h, lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])


def main():
    svg = open(sys.argv[1], encoding="utf-8").read()
    w, h, pixel = png_rgb(sys.argv[2])
    want_w = int(re.search(r'<svg [^>]*width="(\d+)"', svg).group(1))
    want_h = int(re.search(r'<svg [^>]*height="(\d+)"', svg).group(1))
    # Panels are nested <svg y=...>: a cell's y is within its panel.
    cells, bad, panel_y = 0, [], 0
    for m in re.finditer(r'<svg x="0" y="(\d+)"|<rect x="(\d+)" y="(\d+)" '
                         r'width="(\d+)" height="(\d+)" fill="#(\w{6})" data-col', svg):
        if m.group(1) is not None:
            panel_y = int(m.group(1))
            continue
        x, y, cw, ch = (int(m.group(i)) for i in range(2, 6))
        fill = tuple(int(m.group(6)[i:i + 2], 16) for i in (0, 2, 4))
        got = pixel(x + cw // 2, panel_y + y + ch // 2)
        cells += 1
        if max(abs(g - f) for g, f in zip(got, fill)) > 2:
            bad.append("cell at (%d, %d): #%02x%02x%02x drawn, #%s wanted"
                       % (x, panel_y + y, *got, m.group(6)))
    if (w, h) != (want_w, want_h):
        bad.insert(0, "the picture is %dx%d, the SVG %dx%d" % (w, h, want_w, want_h))
    if bad:
        print("%dx%d: %d cells, %d differ; the first: %s" % (w, h, cells, len(bad), bad[0]))
        return 1
    print("%dx%d: %d cells, %d as drawn" % (w, h, cells, cells))
    return 0


sys.exit(main())
