#!/usr/bin/env python3
"""The output format follows the name (issue 17): PDF, PNG pages, SVG pages.

Usage: tests/formats.py CVPDF_BINARY [-k PATTERN] [--list]   (tests/run.sh passes build/san/cvpdf)

  png_pixels    every page of two profiles (one with a photo) as PNG at the
                default 144 dpi, against poppler's own renderings of the PDF
                of the same run: pdftocairo (the same cairo rasteriser, first
                pages only, its PNGs being slow to decode here) must agree to
                within 16 levels everywhere, and within 4 on all but 0.01%
                of the samples;
                pdftoppm (poppler's Splash rasteriser, which rounds glyph
                origins to whole pixels differently) must agree once a shift
                of one pixel is allowed, on all but 2% of the pixels (by 48
                grey levels), and in the ink of every 64 x 64 tile to within
                60 pixels' worth; the same comparison of two different
                pages must fail (the test can see a difference).  --dpi 72
                sizes the pages by it.  (pdftocairo, with the same
                rasteriser, also catches one glyph missing: no sample may
                differ by more than 16 levels.)
  svg_pages     each page an SVG that parses as XML, of the page's size in
                points, with exactly one glyph placed for each glyph the
                --dump=glyphs text lists for the page, and the photo
  names         -o cv.PNG, --format for directories and no -o, --merge
                book.png (the book's pages), batch -o DIR/ --format svg;
                usage errors (exit 2): another extension or none, --format
                disagreeing with the name, PNG to "-" or a device, --dpi out
                of range
  page_sets     a shorter run sweeps the pages a longer one left, but not a
                file of the user's; a page that would be an input (the
                photo) refuses the whole set, exit 2, the earlier pages and
                the photo untouched, nothing left behind

PNGs are decoded here (zlib, the five PNG filters); pdftoppm and pdftocairo
write PPM, read as raw samples.  The last line is "formats: N passed, M
failed".
"""
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

import testlib
from testlib import BIN, ROOT, check, read_dump, run

TMP = tempfile.mkdtemp(prefix="cvpdf-formats-")
PHOTO = os.path.join(ROOT, "tests", "data", "photo.png")
SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


# ------------------------------------------------------------------ images

def read_png(path):
    """(width, height, RGB bytes, [(chunk type, data)]) of an 8-bit PNG."""
    b = open(path, "rb").read()
    assert b[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    i, idat, chunks = 8, [], []
    while i < len(b):
        n, = struct.unpack(">I", b[i:i + 4])
        t, d = b[i + 4:i + 8], b[i + 8:i + 8 + n]
        chunks.append((t, d))
        if t == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", d)
            assert depth == 8 and inter == 0, "not 8-bit non-interlaced"
            bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
        elif t == b"IDAT":
            idat.append(d)
        i += 12 + n
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    out = bytearray(h * stride)
    prev = bytearray(stride)
    p = 0
    for y in range(h):
        f = raw[p]
        line = bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        if f == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif f == 2:
            for x in range(stride):
                line[x] = (line[x] + prev[x]) & 255
        elif f == 3:
            for x in range(stride):
                left = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + (left + prev[x]) // 2) & 255
        elif f == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                c = prev[x - bpp] if x >= bpp else 0
                up = prev[x]
                pa, pb, pc = abs(up - c), abs(a - c), abs(a + up - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else up if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    if bpp != 3:
        raise AssertionError("expected RGB, got %d bytes a pixel" % bpp)
    return w, h, bytes(out), chunks


def read_ppm(path):
    """(width, height, RGB bytes) of a binary PPM (P6, maxval 255)."""
    b = open(path, "rb").read()
    fields, i = [], 0
    while len(fields) < 4:
        while b[i:i + 1].isspace():
            i += 1
        if b[i:i + 1] == b"#":
            i = b.index(b"\n", i)
            continue
        j = i
        while not b[j:j + 1].isspace():
            j += 1
        fields.append(b[i:j])
        i = j
    assert fields[0] == b"P6" and fields[3] == b"255"
    w, h = int(fields[1]), int(fields[2])
    return w, h, b[i + 1:i + 1 + w * h * 3]


def poppler(tool, pdf, page, dpi, stem):
    """Page `page` of `pdf` as pdftoppm (PPM) or pdftocairo (PNG) draw it
    at `dpi`: (width, height, RGB bytes)."""
    args = [tool, "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile"]
    args += ["-png"] if tool == "pdftocairo" else []
    rc, _, err = run(args + [pdf, stem])
    assert rc == 0, "%s failed: %s" % (tool, err)
    return read_png(stem + ".png")[:3] if tool == "pdftocairo" else read_ppm(stem + ".ppm")


def gray(rgb):
    """Luminance per pixel (0.30 R + 0.59 G + 0.11 B), as pdftoppm -gray."""
    r, g, b = rgb[0::3], rgb[1::3], rgb[2::3]
    return bytes((30 * x + 59 * y + 11 * z) // 100 for x, y, z in zip(r, g, b))


def close_samples(a, b, level):
    """The fraction of samples (channel values) that differ by more than level."""
    return sum(1 for x, y in zip(a, b) if abs(x - y) > level) / max(1, len(a))


def shifted_misses(ga, gb, w, h, level):
    """The fraction of pixels of ga that differ from every pixel of gb in
    the 3 x 3 neighbourhood around them by more than `level` (a one-pixel
    shift allowed)."""
    bad = 0
    for i, (x, y) in enumerate(zip(ga, gb)):
        if abs(x - y) <= level:
            continue
        r, c = divmod(i, w)
        if all(abs(x - gb[rr * w + cc]) > level
               for rr in range(max(0, r - 1), min(h, r + 2))
               for cc in range(max(0, c - 1), min(w, c + 2))):
            bad += 1
    return bad / max(1, len(ga))


def worst_tile(ga, gb, w, h, t=64):
    """The largest difference of ink (in whole black pixels) in any t x t tile."""
    worst = 0
    for ty in range(0, h, t):
        for tx in range(0, w, t):
            x1 = min(w, tx + t)
            ia = ib = 0
            for y in range(ty, min(h, ty + t)):
                ra, rb = ga[y * w + tx:y * w + x1], gb[y * w + tx:y * w + x1]
                ia += 255 * len(ra) - sum(ra)
                ib += 255 * len(rb) - sum(rb)
            worst = max(worst, abs(ia - ib) / 255)
    return worst


def inked_glyphs(page):
    """The glyphs of one page of --dump=glyphs (testlib.read_dump) that are
    not spaces: each run's glyph positions, one per character where the
    counts agree."""
    n = 0
    for r in page["runs"]:
        if r["at"] is not None:
            text, at = r["text"], len(r["at"])
            n += at - text.count(" ") if len(text) == at else at
    return n


def pages_of(pdf):
    rc, out, _ = run(["pdfinfo", pdf])
    m = re.search(r"^Pages:\s+(\d+)", out, re.M)
    return int(m.group(1)) if m else 0


def page_size_pt(pdf):
    rc, out, _ = run(["pdfinfo", pdf])
    m = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", out, re.M)
    return float(m.group(1)), float(m.group(2))


def photo_dir(name):
    d = os.path.join(TMP, name)
    os.makedirs(d)
    shutil.copy(PHOTO, os.path.join(d, "me.png"))
    text = open(os.path.join(ROOT, "profiles", "li.yaml"), encoding="utf-8").read()
    text = re.sub(r"^cv:\n", "cv:\n  photo: me.png\n", text, count=1, flags=re.M)
    open(os.path.join(d, "p.yaml"), "w", encoding="utf-8").write(text)
    return d


# ------------------------------------------------------------------ groups

def png_pixels():
    cases = [("he", os.path.join(ROOT, "profiles", "he.yaml"))]
    d = photo_dir("pixels")
    cases.append(("li with a photo", os.path.join(d, "p.yaml")))
    for label, prof in cases:
        base = os.path.join(TMP, "px-" + label.split()[0])
        rc, _, err = run([BIN, "-q", prof, "-o", base + ".pdf"])
        rc2, _, err2 = run([BIN, "-q", prof, "-o", base + ".png"])
        check("png %s: exit 0" % label, rc == 0 and rc2 == 0, err + err2)
        n = pages_of(base + ".pdf")
        pngs = sorted(f for f in os.listdir(TMP) if re.match(re.escape(os.path.basename(base))
                                                             + r"-\d+\.png$", f))
        check("png %s: a PNG per page (%d)" % (label, n), n > 0 and len(pngs) == n, pngs)
        for k in range(1, n + 1):
            w, h, ours, chunks = read_png("%s-%d.png" % (base, k))
            soft = [d for t, d in chunks if t == b"tEXt" and d.startswith(b"Software\0")]
            check("png %s p%d: marked Software=cvpdf" % (label, k),
                  soft and soft[0].startswith(b"Software\0cvpdf "), soft)
            pw, ph, splash = poppler("pdftoppm", base + ".pdf", k, 144, base + "-ppm")
            check("png %s p%d: the size of pdftoppm's (%dx%d)" % (label, k, pw, ph),
                  (w, h) == (pw, ph), "ours %dx%d, pdftoppm %dx%d" % (w, h, pw, ph))
            if (w, h) != (pw, ph):
                continue
            if k == 1:
                # Decoding pdftocairo's PNG here is slow: the first page only.
                cw, ch, cairo = poppler("pdftocairo", base + ".pdf", k, 144, base + "-cairo")
                same = (cw, ch) == (w, h)
                off = close_samples(ours, cairo, 4) if same else 1
                worst = max(abs(x - y) for x, y in zip(ours, cairo)) if same else 255
                check("png %s p%d: as pdftocairo draws it: no sample off by more than 16 "
                      "levels (worst %d), 0.01%% off by more than 4 (%.4f%%)"
                      % (label, k, worst, 100 * off), worst <= 16 and off <= 0.0001,
                      "worst %d, %.4f%% of samples" % (worst, 100 * off))
            ga, gb = gray(ours), gray(splash)
            miss = shifted_misses(ga, gb, w, h, 48)
            check("png %s p%d: as pdftoppm draws it, a pixel's shift allowed (%.3f%% off)"
                  % (label, k, 100 * miss), miss <= 0.02, "%.3f%% of pixels" % (100 * miss))
            tile = worst_tile(ga, gb, w, h)
            check("png %s p%d: the ink of every 64 px tile as pdftoppm's (worst %.0f px)"
                  % (label, k, tile), tile <= 60, "%.0f pixels" % tile)
            if k == 1 and n > 1:
                # The same measures must see two different pages apart.
                _, _, other = poppler("pdftoppm", base + ".pdf", 2, 144, base + "-ppm2")
                go = gray(other)
                check("png %s: page 1 against page 2 fails the comparison" % label,
                      shifted_misses(ga, go, w, h, 48) > 0.02 or worst_tile(ga, go, w, h) > 60)
    # Another resolution.
    out = os.path.join(TMP, "r72.png")
    rc, _, err = run([BIN, "-q", os.path.join(ROOT, "profiles", "he.yaml"), "--dpi", "72",
                      "-o", out])
    w, h, _, _ = read_png(os.path.join(TMP, "r72-1.png")) if rc == 0 else (0, 0, 0, 0)
    check("png --dpi 72: 596 x 842 pixels for A4", (w, h) == (596, 842), (rc, w, h, err))


def svg_pages():
    d = photo_dir("svg")
    for label, prof in (("he", os.path.join(ROOT, "profiles", "he.yaml")),
                        ("with a photo", os.path.join(d, "p.yaml"))):
        base = os.path.join(TMP, "svg-" + label.split()[0])
        rc, _, err = run([BIN, "-q", prof, "-o", base + ".pdf"])
        rc2, _, err2 = run([BIN, "-q", prof, "-o", base + ".svg"])
        check("svg %s: exit 0" % label, rc == 0 and rc2 == 0, err + err2)
        n = pages_of(base + ".pdf")
        pw, ph = page_size_pt(base + ".pdf")
        rc, dump, _ = run([BIN, "--dump=glyphs", prof])
        per_page = [inked_glyphs(page) for page in read_dump(dump)]
        check("svg %s: --dump=glyphs has the PDF's %d pages" % (label, n),
              len(per_page) == n, len(per_page))
        images = 0
        for k in range(1, n + 1):
            path = "%s-%d.svg" % (base, k)
            try:
                root = ET.parse(path).getroot()
            except (ET.ParseError, OSError) as e:
                check("svg %s p%d: well-formed XML" % (label, k), False, e)
                continue
            check("svg %s p%d: an <svg> of the page's size in points" % (label, k),
                  root.tag == SVG_NS + "svg" and
                  abs(float(root.get("width", "0pt").rstrip("pt")) - pw) < 0.01 and
                  abs(float(root.get("height", "0pt").rstrip("pt")) - ph) < 0.01,
                  (root.tag, root.get("width"), root.get("height"), pw, ph))
            # Glyphs with an outline: cairo leaves out some spaces.
            outlined = {s.get("id") for s in root.iter(SVG_NS + "symbol")
                        if any(p.get("d", "").strip() for p in s.iter(SVG_NS + "path"))}
            uses = [u for u in root.iter(SVG_NS + "use") if (u.get(XLINK) or "")[1:] in outlined]
            want = per_page[k - 1] if k <= len(per_page) else -1
            check("svg %s p%d: a glyph placed per glyph of the page but spaces (%d)"
                  % (label, k, want),
                  len(uses) == want, "%d placed" % len(uses))
            paths = [p for p in root.iter(SVG_NS + "path") if p.get("d")]
            check("svg %s p%d: glyph outlines and rules as paths" % (label, k), len(paths) > 20,
                  len(paths))
            images += len(list(root.iter(SVG_NS + "image")))
            head = open(path, "rb").read(200)
            check("svg %s p%d: marked as cvpdf's" % (label, k), b"<!-- made by cvpdf " in head,
                  head)
        if "photo" in label:
            check("svg with a photo: the photo is an <image>", images >= 1, images)


def names():
    he = os.path.join(ROOT, "profiles", "he.yaml")
    li = os.path.join(ROOT, "profiles", "li.yaml")
    d = os.path.join(TMP, "names")
    os.makedirs(d)
    rc, _, err = run([BIN, "-q", he, "-o", "CV.PNG"], cwd=d)
    check("-o CV.PNG: PNG pages CV-1.PNG...",
          rc == 0 and os.path.exists(os.path.join(d, "CV-1.PNG")),
          (rc, err, os.listdir(d)))
    shutil.copy(he, os.path.join(d, "he.yaml"))
    rc, _, err = run([BIN, "-q", "he.yaml", "--format", "png"], cwd=d)
    check("--format png without -o: he-1.png beside the profile", rc == 0 and
          os.path.exists(os.path.join(d, "he-1.png")) and
          not os.path.exists(os.path.join(d, "he.pdf")),
          (rc, err))
    rc, _, err = run([BIN, "-q", "--format", "svg", "-o", "out/", he, li], cwd=d)
    out = sorted(os.listdir(os.path.join(d, "out"))) if rc == 0 else []
    check("batch --format svg -o out/: SVG pages for each profile, no PDF",
          rc == 0 and "he-1.svg" in out and "li-1.svg" in out and
          not any(f.endswith(".pdf") for f in out), (rc, err, out))
    rc, _, err = run([BIN, "-q", "--merge", "book.png", he, li], cwd=d)
    run([BIN, "-q", "--merge", "book.pdf", he, li], cwd=d)
    n = pages_of(os.path.join(d, "book.pdf"))
    book = [f for f in os.listdir(d) if re.match(r"book-\d+\.png$", f)]
    check("--merge book.png: a PNG per page of the book (%d)" % n,
          rc == 0 and n > 1 and len(book) == n, (rc, err, book))
    usage = [
        ("-o cv.txt", [he, "-o", "cv.txt"], r"cv\.txt: error: the name's extension says"),
        ("-o cv (no extension)", [he, "-o", "cv"], r"cv: error: .*\.pdf, \.png .*\.svg"),
        ("--merge book.doc", ["--merge", "book.doc", he, li], r"book\.doc: error:"),
        ("--format svg -o cv.png", [he, "--format", "svg", "-o", "cv.png"], r"does not agree"),
        ("--format png -o -", [he, "--format", "png", "-o", "-"], r"files of their own"),
        ("--format jpg", [he, "--format", "jpg"], r"expected pdf, png, svg, html or md"),
        ("--dpi 17", [he, "--dpi", "17", "-o", "x.png"],
         r"--dpi 17: expected dots per inch from 18 to 600"),
        ("--dpi 601", [he, "--dpi", "601", "-o", "x.png"], r"from 18 to 600"),
        ("--dpi abc", [he, "--dpi", "abc", "-o", "x.png"], r"from 18 to 600"),
        ("--dpi with a PDF", [he, "--dpi", "150", "-o", "x.pdf"],
         r"--dpi sets the resolution of PNG pages; the output is a PDF"),
        ("--dpi with SVG pages", [he, "--dpi", "150", "--format", "svg"], r"SVG pages"),
        ("--dpi with HTML", [he, "--dpi", "150", "-o", "x.html"], r"an HTML page"),
        ("--merge DIR/", ["--merge", "sub/", he, li], r"--merge writes one file, the CV book"),
        ("--list-layouts with a profile", ["--list-layouts", he], r"takes no profile"),
        ("--schema with a profile", ["--schema", "profile", he], r"takes no profile"),
    ]
    before = sorted(os.listdir(d))
    for label, args, msg in usage:
        rc, out, err = run([BIN] + args, cwd=d)
        check("%s: usage error, exit 2" % label, rc == 2, (rc, err))
        check("%s: says why" % label, re.search(msg, err), err)
    check("usage errors wrote nothing", sorted(os.listdir(d)) == before,
          set(os.listdir(d)) ^ set(before))
    # A PDF to a device and to "-" still works without an extension.
    # -o cv.html where cv.html is a directory: asked, not guessed.
    os.mkdir(os.path.join(d, "dir.html"))
    rc, out, err = run([BIN, he, "-o", "dir.html"], cwd=d)
    check("-o dir.html, a directory: usage error, says to add a slash, nothing written",
          rc == 2 and "say -o dir.html/" in err and not os.listdir(os.path.join(d, "dir.html")),
          (rc, err))
    rc, out, err = run([BIN, "-q", he, "-o", "dir.html/"], cwd=d)
    check("-o dir.html/: into the directory", rc == 0 and
          os.listdir(os.path.join(d, "dir.html")) == ["he.pdf"], (rc, err))
    # (A null device of our own: a test never writes to the machine's.)
    null = os.path.join(d, "null")
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    rc, out, err = run([BIN, "-q", he, "-o", null], cwd=d)
    st = os.stat(null)
    check("-o a null device: a PDF, exit 0, the device still a device", rc == 0 and
          stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3), err)
    os.unlink(null)
    p = subprocess.run([BIN, "-q", he, "-o", "-"], cwd=d, capture_output=True, timeout=300)
    check("-o -: a PDF on the standard output", p.returncode == 0 and p.stdout[:5] == b"%PDF-",
          p.stderr[-300:])


def page_sets():
    d = os.path.join(TMP, "sets")
    os.makedirs(d)
    fang = os.path.join(ROOT, "profiles", "fang.yaml")
    he = os.path.join(ROOT, "profiles", "he.yaml")
    rc, _, err = run([BIN, "-q", fang, "-o", "cv.png", "--dpi", "36"], cwd=d)
    n_long = len([f for f in os.listdir(d) if f.startswith("cv-")])
    open(os.path.join(d, "cv-%d.png" % (n_long + 2)), "w").write("a file of the user's\n")
    rc2, _, err2 = run([BIN, "-q", he, "-o", "cv.png", "--dpi", "36"], cwd=d)
    run([BIN, "-q", he, "-o", "he.pdf"], cwd=d)
    n_short = pages_of(os.path.join(d, "he.pdf"))
    os.unlink(os.path.join(d, "he.pdf"))
    left = sorted(f for f in os.listdir(d) if f.startswith("cv-"))
    want = sorted(["cv-%d.png" % k for k in range(1, n_short + 1)] + ["cv-%d.png" % (n_long + 2)])
    check("a shorter run sweeps the longer run's pages (%d -> %d), keeps the user's file"
          % (n_long, n_short), rc == 0 and rc2 == 0 and n_long > n_short and left == want,
          (rc, rc2, err, err2, left, want))
    # A page that is the photo: the set is refused, nothing changes.
    d = photo_dir("photo-page")
    before = {f: open(os.path.join(d, f), "rb").read() for f in os.listdir(d)}
    os.rename(os.path.join(d, "me.png"), os.path.join(d, "cv-2.png"))
    prof = open(os.path.join(d, "p.yaml")).read().replace("photo: me.png", "photo: cv-2.png")
    open(os.path.join(d, "p.yaml"), "w").write(prof)
    open(os.path.join(d, "cv-1.png"), "wb").write(b"the earlier page 1\n")
    rc, _, err = run([BIN, "p.yaml", "-o", "cv.png"], cwd=d)
    # Known before anything is written (issue 25): exit 2, as an output that is an input.
    check("a page that is the photo: exit 2, an error naming it",
          rc == 2 and re.search(r"cv-2\.png: error: this is an input \(a photo\)", err), (rc, err))
    check("a page that is the photo: the photo and the earlier page 1 untouched",
          open(os.path.join(d, "cv-2.png"), "rb").read() == before["me.png"] and
          open(os.path.join(d, "cv-1.png"), "rb").read() == b"the earlier page 1\n")
    check("a page that is the photo: nothing left behind",
          sorted(os.listdir(d)) == ["cv-1.png", "cv-2.png", "p.yaml"], os.listdir(d))
    # The name itself is the photo: refused though it would not be written.
    rc, _, err = run([BIN, "p.yaml", "-o", "cv-2.png"], cwd=d)
    check("-o the photo's own name as PNG: exit 2, refused", rc == 2 and "input" in err, (rc, err))


if __name__ == "__main__":
    sys.exit(testlib.main("formats", [png_pixels, svg_pages, names, page_sets], tmp=TMP))
