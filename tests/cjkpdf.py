#!/usr/bin/env python3
"""CJK typesetting (issue 15, items 1-4), on real PDFs:

  cff       Noto Sans CJK (OpenType, CFF outlines, in a .ttc collection) embedded
            as CIDFontType0 (pdffonts: "CID Type 0C", embedded, subset, with a
            ToUnicode map); its glyphs have ink with poppler and with MuPDF
  region    the profile's language picks the collection's face: SC, JP, KR, TC
  punct     two full-width marks side by side lose exactly half an em, and their
            inks stay apart when rasterised at 400 dpi ("MLSys）。", "CTO）。",
            "USP），", "2014年）。")
  dash      "——" after bold text is one run, one face, regular, and one unbroken
            line of ink; "……" one run too
  spacing   a quarter em between Han and Latin typed without a space, set by
            text.cjk_latin_space (0: none), and read back without a space by
            pdftotext, MuPDF, pdfminer and PDFBox
  format    a font in a format cvpdf cannot embed (a bitmap BDF font, as a file
            and through fontconfig) is an error that names the format

Every check prints "ok NAME" or "FAIL NAME: why"; the last line is
"cjkpdf: N passed, M failed".
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import testlib
from testlib import BIN, ROOT, check, read_dump, run

TMP = tempfile.mkdtemp(prefix="cvpdf-cjk-")
ZH = os.path.join(ROOT, "layouts", "zh.yaml")
JAVA = "/usr/share/java"


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def profile(name, lines, lang=None):
    text = ("locale:\n  language: %s\n" % lang if lang else "") + \
        "cv:\n  name: 测试\n  sections:\n    summary:\n" + \
        "".join("      - \"%s\"\n" % ln for ln in lines)
    return write(name + ".yaml", text)


def render(prof, layout=ZH, *extra):
    pdf = os.path.join(TMP, os.path.basename(prof)[:-5] + ".pdf")
    rc, _, err = run([BIN] + list(extra) + ["-l", layout, "-o", pdf, prof])
    return rc, pdf, err


def runs(prof, layout=ZH):
    """The dump's text runs (testlib.read_dump): x, y, w, font, size, text,
    glyph origins (at)."""
    rc, out, err = run([BIN, "--dump=glyphs", "-l", layout, prof])
    return [r for pg in read_dump(out) for r in pg["runs"]]


def glyphs(rs):
    """Every glyph as (char, x, next x, y, size, font), in drawing order."""
    out = []
    for r in rs:
        xs = r["at"] + [r["x"] + r["w"]]
        for k, c in enumerate(r["text"]):
            out.append((c, xs[k], xs[k + 1], r["y"], r["size"], r["font"]))
    return out


def raster(pdf, dpi, tool="pdftoppm"):
    """Page 1 in grey: (width, height, bytes)."""
    base = os.path.join(TMP, "r%d-%s" % (dpi, os.path.basename(pdf)[:-4]))
    if tool == "pdftoppm":
        rc, _, err = run(["pdftoppm", "-r", str(dpi), "-gray", "-f", "1", "-l", "1",
                          pdf, base])
        files = glob.glob(base + "*.pgm")
    else:
        rc, _, err = run(["mutool", "draw", "-q", "-r", str(dpi), "-c", "gray",
                          "-o", base + ".pgm", pdf, "1"])
        files = [base + ".pgm"]
    if rc != 0 or not files:
        raise RuntimeError("%s failed: %s" % (tool, err))
    return testlib.read_pgm(files[0])


def ink_columns(img, dpi, page_h, x0, x1, y0, y1):
    """The columns (pixels) with dark ink inside a box in points."""
    w, h, px = img
    s = dpi / 72.0
    c0, c1 = max(0, int(x0 * s)), min(w, int(x1 * s + 0.999))
    r0, r1 = max(0, int((page_h - y1) * s)), min(h, int((page_h - y0) * s + 0.999))
    return [c for c in range(c0, c1) if any(px[r * w + c] < 128 for r in range(r0, r1))]


def pdffonts(pdf):
    rc, out, _ = run(["pdffonts", pdf])
    return [ln.split() for ln in out.splitlines()[2:] if ln.strip()]


# ------------------------------------------------------------------- groups

def cff():
    prof = os.path.join(ROOT, "profiles", "fang-zh.yaml")
    rc, pdf, err = render(prof)
    check("cff: fang-zh renders with the zh layout, nothing on stderr", rc == 0 and not err,
          err)
    if rc != 0:
        return
    fonts = pdffonts(pdf)
    noto = [f for f in fonts if "NotoSansCJKsc" in f[0]]
    check("cff: Noto Sans CJK SC regular and bold, each a CIDFontType0 (CID Type 0C), "
          "embedded, subset, with ToUnicode",
          len(noto) >= 2 and all(" ".join(f[1:4]) == "CID Type 0C" and f[-5:-2] ==
                                 ["yes", "yes", "yes"] for f in noto) and
          any("Bold" in f[0] for f in noto), str(fonts))
    check("cff: no synthetic bold left in the zh layout (dump: no +bold run)",
          not any(r["font"].endswith("+bold") for r in runs(prof)))
    rs = runs(prof)
    name = next((r for r in rs if r["text"] == "方佳瑞"), None)
    if not check("cff: the name 方佳瑞 is one Noto run", name is not None and
                 name["font"].startswith("NotoSansCJK"), str(rs[:3])):
        return
    for tool in ("pdftoppm", "mutool"):
        img = raster(pdf, 100, tool)
        page_h = img[1] * 72.0 / 100
        xs = name["at"] + [name["x"] + name["w"]]
        inked = [len(ink_columns(img, 100, page_h, xs[k], xs[k + 1], name["y"] - 3,
                                 name["y"] + name["size"])) for k in range(3)]
        check("cff: each glyph of 方佳瑞 has ink with %s (%s columns)" % (tool, inked),
              all(n >= 3 for n in inked))


def region():
    for lang, tag in [("mandarin_chinese", "sc"), ("japanese", "jp"), ("korean", "kr"),
                      ("zh-Hant", "tc"), ("english", "sc")]:
        prof = profile("region-" + lang, ["中文与“引号”。"], lang)
        rc, pdf, err = render(prof)
        names = sorted({re.sub(r"^[A-Z]{6}\+", "", f[0]) for f in pdffonts(pdf)
                        if "CJK" in f[0]}) if rc == 0 else []
        check("region: %s takes the %s faces (%s)" % (lang, tag.upper(), names),
              rc == 0 and names == ["NotoSansCJK%s-Bold" % tag, "NotoSansCJK%s-Regular" % tag],
              err)


def punct():
    pairs = ["（MLSys）。", "（CTO）。", "（USP），", "2014年）。", "研究。「开源」"]
    prof = profile("punct", ["系统" + p + "后文" for p in pairs])
    rc, pdf, err = render(prof)
    if not check("punct: renders", rc == 0, err):
        return
    gl = glyphs(runs(prof))
    img = raster(pdf, 400)
    page_h = img[1] * 72.0 / 400
    for p in pairs:
        seq = [g for g in gl]
        text = "".join(g[0] for g in seq)
        i = text.find(p)
        if not check("punct: %s is drawn" % p, i >= 0, text[:60]):
            continue
        # The full-width pair inside p: the first two adjacent marks.
        k = next(j for j in range(i, i + len(p) - 1)
                 if seq[j][0] in "）。，「」" and seq[j + 1][0] in "）。，「」")
        a, b = seq[k], seq[k + 1]
        em = a[4]
        check("punct: %s%s loses exactly half an em (advance %.2f pt, em %.0f pt)" % (
            a[0], b[0], a[2] - a[1], em), abs((a[2] - a[1]) - em / 2) < 0.02)
        ca = ink_columns(img, 400, page_h, a[1], a[2], a[3] - 0.3 * em, a[3] + 0.9 * em)
        cb = ink_columns(img, 400, page_h, b[1], b[2], b[3] - 0.3 * em, b[3] + 0.9 * em)
        check("punct: the inks of %s%s stay apart at 400 dpi (%s..%s | %s..%s)" % (
            a[0], b[0], ca and ca[0], ca and ca[-1], cb and cb[0], cb and cb[-1]),
            ca and cb and cb[0] - ca[-1] >= 2)


def dash():
    prof = profile("dash", ["获得腾讯**个人最高奖项**——2021年度奖……省略号"])
    rc, pdf, err = render(prof)
    if not check("dash: renders", rc == 0, err):
        return
    rs = runs(prof)
    d = [r for r in rs if "—" in r["text"]]
    check("dash: —— is one run, regular, from the CJK face (%s)" % [
        (r["font"], r["text"]) for r in d],
        len(d) == 1 and "——" in d[0]["text"] and d[0]["font"] == "NotoSansCJKsc-Regular")
    e = [r for r in rs if "…" in r["text"]]
    check("dash: …… is in one run", len(e) == 1 and "……" in e[0]["text"], str(e))
    if len(d) != 1:
        return
    r = d[0]
    k = r["text"].index("——")
    xs = r["at"] + [r["x"] + r["w"]]
    img = raster(pdf, 400)
    page_h = img[1] * 72.0 / 400
    cols = ink_columns(img, 400, page_h, xs[k], xs[k + 2], r["y"], r["y"] + 0.6 * r["size"])
    holes = [c for c in range(cols[0], cols[-1]) if c not in cols] if cols else ["none"]
    check("dash: —— is one unbroken line of ink at 400 dpi (%d columns, holes %s)" % (
        len(cols), holes[:5]), cols and not holes and len(cols) > 400 / 72 * r["size"] * 1.4)


READERS = [
    ("pdftotext", lambda pdf: ["pdftotext", "-enc", "UTF-8", pdf, "-"]),
    ("mutool", lambda pdf: ["mutool", "draw", "-q", "-F", "txt", pdf]),
    ("pdfminer", lambda pdf: [shutil.which("pdf2txt") or "pdf2txt.py", pdf]),
    ("pdfbox", lambda pdf: ["java", "-cp", ":".join(os.path.join(JAVA, j) for j in [
        "pdfbox2.jar", "fontbox2.jar", "pdfbox2-tools.jar", "commons-logging.jar"]),
        "org.apache.pdfbox.tools.ExtractText", "-console", "-encoding", "UTF-8", pdf]),
]


def spacing():
    lines = ["在GPU与NPU等加速器上", "熟悉C/C++、CUDA与Python", "2023年11月"]
    prof = profile("spacing", lines)
    for extra, label in [([], "plain"), (["--pdfa"], "--pdfa")]:
        rc, pdf, err = render(prof, ZH, *extra)
        if not check("spacing %s: renders" % label, rc == 0, err):
            return
        for name, cmd in READERS:
            rc, out, err = run(cmd(pdf))
            got = [ln for ln in (out or "").splitlines() if ln.strip()]
            check("spacing %s: %s reads every line as typed, no space added" % (label, name),
                  rc == 0 and all(any(ln.strip() == want for ln in got) for want in lines),
                  str(got[:6]) + err[-200:])
    gl = glyphs(runs(prof))
    text = "".join(g[0] for g in gl)
    i = text.index("在GPU")
    a, b = gl[i], gl[i + 1]
    check("spacing: a quarter em between 在 and G (%.2f pt at %.0f pt)" % (
        b[1] - a[1] - a[4], a[4]), abs(b[1] - a[1] - 1.25 * a[4]) < 0.02)
    j = text.index("U与")
    u, yu = gl[j], gl[j + 1]
    check("spacing: a quarter em between U and 与", yu[1] - u[2] < 0.01 and
          u[2] - u[1] > 0.25 * u[4])
    off = write("nospace.yaml", "extends: %s\ntext:\n  cjk_latin_space: 0\n" % ZH)
    gl0 = glyphs(runs(prof, off))
    t0 = "".join(g[0] for g in gl0)
    a0, b0 = gl0[t0.index("在GPU")], gl0[t0.index("在GPU") + 1]
    check("spacing: cjk_latin_space: 0 sets none (%.2f pt)" % (b0[1] - a0[1] - a0[4]),
          abs(b0[1] - a0[1] - a0[4]) < 0.02)
    bad = write("badspace.yaml", "extends: %s\ntext:\n  cjk_latin_space: 3em\n" % ZH)
    rc, _, err = run([BIN, "--dump", "-l", bad, prof])
    check("spacing: cjk_latin_space: 3em is an error at its place", rc == 1 and
          re.search(r"badspace\.yaml:3:20: error: cjk_latin_space must be a width in em", err),
          err)


BDF = """STARTFONT 2.1
FONT -misc-cvpdfbitmaptest-medium-r-normal--10-100-75-75-c-60-iso10646-1
SIZE 10 75 75
FONTBOUNDINGBOX 6 10 0 -2
STARTPROPERTIES 3
FAMILY_NAME "Cvpdf Bitmap Test"
FONT_ASCENT 8
FONT_DESCENT 2
ENDPROPERTIES
CHARS 1
STARTCHAR A
ENCODING 65
SWIDTH 600 0
DWIDTH 6 0
BBX 6 10 0 -2
BITMAP
00
20
50
88
88
F8
88
88
00
00
ENDCHAR
ENDFONT
"""


def format_errors():
    d = os.path.join(TMP, "fmt")
    os.makedirs(os.path.join(d, "home", ".fonts"))
    write(os.path.join("fmt", "x.bdf"), BDF)
    write(os.path.join("fmt", "home", ".fonts", "x.bdf"), BDF)
    prof = profile("fmt", ["Text"])
    lay = write(os.path.join("fmt", "l.yaml"), "font:\n  family: ./x.bdf\n")
    rc, _, err = run([BIN, "--dump", "-l", lay, prof])
    check("format: a BDF font file is refused, naming its format", rc == 1 and
          re.search(r"l\.yaml:2:11: error: '[^']*x\.bdf' is bitmap; cvpdf embeds only "
                    r"TrueType \(glyf\) and OpenType CFF outlines", err), err)
    lay = write(os.path.join("fmt", "m.yaml"), "font:\n  family: Cvpdf Bitmap Test\n")
    env = dict(os.environ, HOME=os.path.join(d, "home"),
               XDG_CACHE_HOME=os.path.join(d, "cache"),
               XDG_DATA_HOME=os.path.join(d, "data"))
    p = subprocess.run([BIN, "--dump", "-l", lay, prof], capture_output=True, env=env,
                       timeout=120)
    rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
    check("format: a family installed only as a bitmap font is an error naming the format",
          rc == 1 and re.search(r"m\.yaml:2:11: error: the font family 'Cvpdf Bitmap Test' "
                                r"is installed only as (BDF|PCF|bitmap)", err), err)


if __name__ == "__main__":
    sys.exit(testlib.main("cjkpdf", [cff, region, punct, dash, spacing, format_errors], tmp=TMP))
