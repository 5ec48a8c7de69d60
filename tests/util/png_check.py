#!/usr/bin/env python3
"""tests/util/png_check.py - pixel checks on the renderer's 8-bit PNGs (no
libraries beyond Python's own: zlib and the five PNG filters).

  png_check.py invert_top PLAIN OUT   OUT's top half is 255 - PLAIN, its bottom half PLAIN
  png_check.py black OUT              every pixel's RGB is 0
  png_check.py fxaa_edges PLAIN OUT   OUT differs from PLAIN only where FXAA 3.11's early exit
                                      does not hold (luma range of the pixel and its 4
                                      neighbours >= max(0.0833, 0.166 * their max))
  png_check.py only_colour PLAIN OUT RRGGBB[,RRGGBB...]
                                      OUT differs from PLAIN somewhere, only where it is one
                                      of the colours, and each colour is there (an object
                                      effect drawing its object one colour, or one per part)
  png_check.py colour_mask A B RRGGBB [PERCENT]
                                      the pixels of colour RRGGBB are the same in A and B but
                                      for at most PERCENT % of A's (default 0), and there are
                                      some (one material drawn in that colour)
  png_check.py edge_off PLAIN SOLID OUT EDGE SOLIDC
                                      PLAIN has pixels of the edge colour EDGE (hex) and OUT none;
                                      OUT differs from PLAIN only where SOLID is SOLIDC (the
                                      object, from only_colour's render) or PLAIN is EDGE
  png_check.py lighter PLAIN OUT      OUT differs from PLAIN somewhere, and where it does it is
                                      no darker in any channel (a shadow taken away, nothing else)
  png_check.py same_mask BASE REF OUT RRGGBB
                                      REF differs from BASE somewhere, and OUT differs from BASE at
                                      exactly those pixels, all RRGGBB there (an effect drawing
                                      where the built-in pass drew, in one colour)
  png_check.py material_split PLAIN WHOLE PART REST RRGGBB
                                      per-material effects: PART (one material drawn RRGGBB)
                                      and REST (the others) each change some pixels, every one
                                      to RRGGBB; the two sets do not meet and together are the
                                      pixels WHOLE (every material RRGGBB) changes
  png_check.py count OUT RRGGBB        prints the number of RRGGBB pixels (always exit 0)
Exit 0 when the check holds, 1 with a line saying where it does not."""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "8-bit RGB or RGBA only"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def luma(p):
    return (0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]) / 255.0


def main():
    check = sys.argv[1]
    if check == "black":
        w, h, o = read_png(sys.argv[2])
        bad = [(x, y) for y in range(h) for x in range(w) if o[y][x] != (0, 0, 0)]
        return fail(bad, "not black")
    if check == "grain":
        return grain(sys.argv[2:6])
    if check == "only_colour":
        w, h, p = read_png(sys.argv[2])
        _, _, o = read_png(sys.argv[3])
        cs = [colour(c) for c in sys.argv[4].split(",")]
        changed = [(x, y) for y in range(h) for x in range(w) if o[y][x] != p[y][x]]
        if not changed:
            return fail([None], "nothing changed")
        missing = [c for c in cs if not any(o[y][x] == c for x, y in changed)]
        if missing:
            return fail(missing, "a colour not drawn")
        return fail([(x, y, o[y][x]) for x, y in changed if o[y][x] not in cs], "changed but not %s" % sys.argv[4])
    if check == "lighter":
        w, h, p = read_png(sys.argv[2])
        _, _, o = read_png(sys.argv[3])
        changed = [(x, y) for y in range(h) for x in range(w) if o[y][x] != p[y][x]]
        if not changed:
            return fail([None], "nothing changed")
        return fail([(x, y, p[y][x], o[y][x]) for x, y in changed
                     if any(a < b for a, b in zip(o[y][x], p[y][x]))], "changed and darker")
    if check == "count":
        w, h, o = read_png(sys.argv[2])
        c = colour(sys.argv[3])
        print(sum(1 for y in range(h) for x in range(w) if o[y][x] == c))
        return 0
    if check == "material_split":
        return material_split(sys.argv[2:7])
    if check == "colour_mask":
        w, h, a = read_png(sys.argv[2])
        _, _, b = read_png(sys.argv[3])
        c = colour(sys.argv[4])
        n = sum(1 for y in range(h) for x in range(w) if a[y][x] == c)
        if not n:
            return fail([None], "no pixel of %s" % sys.argv[4])
        bad = [(x, y) for y in range(h) for x in range(w) if (a[y][x] == c) != (b[y][x] == c)]
        allowed = n * float(sys.argv[5]) / 100 if len(sys.argv) > 5 else 0
        print("colour_mask: %d pixel(s) of %s, %d in one picture only" % (n, sys.argv[4], len(bad)))
        return fail(bad if len(bad) > allowed else [], "%s in one picture only" % sys.argv[4])
    if check == "edge_off":
        w, h, p = read_png(sys.argv[2])
        _, _, m = read_png(sys.argv[3])
        _, _, o = read_png(sys.argv[4])
        edge, solid = colour(sys.argv[5]), colour(sys.argv[6])
        if not any(p[y][x] == edge for y in range(h) for x in range(w)):
            return fail([None], "no edge pixel in PLAIN")
        bad = [(x, y) for y in range(h) for x in range(w) if o[y][x] == edge]
        bad += [(x, y, o[y][x]) for y in range(h) for x in range(w)
                if o[y][x] != p[y][x] and m[y][x] != solid and p[y][x] != edge]
        return fail(bad, "edge kept or a pixel outside the object changed")
    if check == "same_mask":
        w, h, p = read_png(sys.argv[2])
        _, _, m = read_png(sys.argv[3])
        _, _, o = read_png(sys.argv[4])
        c = colour(sys.argv[5])
        if all(m[y][x] == p[y][x] for y in range(h) for x in range(w)):
            return fail([None], "REF is BASE")
        return fail([(x, y, o[y][x]) for y in range(h) for x in range(w)
                     if (m[y][x] != p[y][x]) != (o[y][x] != p[y][x]) or (o[y][x] != p[y][x] and o[y][x] != c)],
                    "mask differs or not %s" % sys.argv[5])
    w, h, p = read_png(sys.argv[2])
    _, _, o = read_png(sys.argv[3])
    bad = []
    for y in range(h):
        for x in range(w):
            if check == "invert_top":
                want = tuple(255 - v for v in p[y][x]) if y < h // 2 else p[y][x]
                if o[y][x] != want:
                    bad.append((x, y))
            elif check == "scanlines_x4":  # FilmGrain's FilmLineX 0.1: columns x % 4 < 2 black
                if o[y][x] != ((0, 0, 0) if x % 4 < 2 else p[y][x]):
                    bad.append((x, y))
            elif check == "fxaa_edges" and o[y][x] != p[y][x]:
                taps = [p[y][x]] + [p[min(max(y + dy, 0), h - 1)][min(max(x + dx, 0), w - 1)]
                                    for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))]
                lumas = [luma(t) for t in taps]
                if max(lumas) - min(lumas) < max(0.0833, 0.166 * max(lumas)) - 0.004:
                    bad.append((x, y))
    return fail(bad, check)


def material_split(args):
    w, h, p = read_png(args[0])
    imgs = [read_png(a)[2] for a in args[1:4]]
    c = colour(args[4])
    sets = [{(x, y) for y in range(h) for x in range(w) if o[y][x] != p[y][x]} for o in imgs]
    whole, part, rest = sets
    bad = [(x, y, imgs[i + 1][y][x]) for i, s in enumerate((part, rest)) for x, y in s if imgs[i + 1][y][x] != c]
    if not part or not rest:
        return fail([None], "PART or REST changed nothing")
    bad += [(x, y, "in both") for x, y in part & rest]
    bad += [(x, y, "not the whole's") for x, y in (part | rest) ^ whole]
    return fail(bad, "not a split of the whole by material")


def grain(paths):
    """grain PLAIN_A GRAIN_A PLAIN_B GRAIN_B: film grain over two frames: in each, most
    pixels move by a few levels (at most 20) and none by more; the grain's pattern (the
    difference to the plain frame) is not the same in both (it moves with TIME: at most
    4/5 of the pixels keep theirs; a grain of +-1..2 levels often repeats by chance)."""
    frames = [read_png(p)[2] for p in paths]
    w, h = len(frames[0][0]), len(frames[0])
    noise = []
    for plain, grained in ((frames[0], frames[1]), (frames[2], frames[3])):
        d = [tuple(g - q for g, q in zip(grained[y][x], plain[y][x])) for y in range(h) for x in range(w)]
        big = [i for i, v in enumerate(d) if max(abs(c) for c in v) > 20]
        if big:
            return fail([(big[0] % w, big[0] // w)], "grain moves a pixel by more than 20 levels")
        moved = sum(1 for v in d if v != (0, 0, 0))
        if moved < w * h // 2:
            print("grain: only %d of %d pixels moved" % (moved, w * h))
            return 1
        noise.append(d)
    same = sum(1 for a, b in zip(noise[0], noise[1]) if a == b)
    if same > w * h * 4 // 5:
        print("grain: %d of %d pixels have the same grain in both frames" % (same, w * h))
        return 1
    return 0


def colour(hexrgb):
    return tuple(int(hexrgb[i:i + 2], 16) for i in (0, 2, 4))


def fail(bad, what):
    if bad:
        print("%s: %d pixel(s), the first at %s" % (what, len(bad), bad[0]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
