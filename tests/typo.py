#!/usr/bin/env python3
"""Typography tests for cvpdf: what is drawn in the PDF, read back.

Usage: tests/typo.py CVPDF_BINARY [-k PATTERN] [--list]

The PDFs are read back with tools independent of cvpdf: pdfminer (every
glyph's origin, font and text, in content-stream order), poppler (pdftotext,
pdffonts, pdftoppm for ink) and fc-query (which characters the shipped fonts
cover).  The checks:

  readback   every glyph lands where --dump=glyphs says (<= 0.05 pt), for
             every profile, and kerning is really applied
  ink        every CJK glyph has dark pixels when rasterised (with a control
             that an empty box reads as empty)
  text       Chinese text comes back exactly from pdftotext; no line starts
             with closing or ends with opening punctuation
  bold       bold CJK (synthesised) carries visibly more ink than regular
  fallback   Latin from Lato, CJK from WenQuanYi, per character
  missing    a character no font has: one positioned warning, an error under
             --strict, also above U+FFFF; one warning per character, not per
             occurrence
  overfull   long URLs, e-mails, unbreakable words and mixed scripts in a
             narrow layout: every glyph inside the text column
  cli        --dump=glyphs and --strict

Every check prints "ok NAME" or "FAIL NAME: why"; the last line is
"typo: N passed, M failed".
"""
import glob
import math
import os
import re
import subprocess
import sys
import tempfile

import testlib
from testlib import BIN, ROOT, check, need_pdfminer, read_dump, run, words_bbox

need_pdfminer("typo")
from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LTChar
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage

TMP = tempfile.mkdtemp(prefix="cvpdf-typo-")
DEFAULT_LAYOUT = os.path.join(ROOT, "layouts", "onecolumn.yaml")
ZH_LAYOUT = os.path.join(ROOT, "layouts", "zh.yaml")
SPEC_LAYOUT = os.path.join(ROOT, "tests", "spec", "layout.yaml")
TOL = 0.05          # points: dump vs PDF
DPI = 200




def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def render(profile, layout, pdf, *extra):
    return run([BIN] + list(extra) + ["-l", layout, "-o", pdf, profile])


def stem(path):
    return os.path.basename(path).rsplit(".", 1)[0]


# ------------------------------------------------------------ characters

def is_han(c):
    o = ord(c)
    return 0x3400 <= o <= 0x4DBF or 0x4E00 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF


def is_cjk(c):
    """A character drawn from the CJK face: ideographs, kana, hangul and CJK
    or full-width punctuation (not the ideographic space)."""
    o = ord(c)
    return is_han(c) or 0x3001 <= o <= 0x303F or 0x3040 <= o <= 0x30FF or \
        0xAC00 <= o <= 0xD7AF or 0xFF01 <= o <= 0xFF60


CJK_RUN = re.compile("[\u3001-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
                     "\uf900-\ufaff\uff01-\uff60]+")
CLOSING = set("，。、；：！？）」』》〉】,.;:!?)")
OPENING = set("（「『《〈【")


# ------------------------------------------------------------- the dump

def parse_dump(text):
    """Pages of runs (testlib.read_dump), each with its glyph origins when
    the dump has them; a run's font is its face's name ("+bold" aside: its
    bold says so)."""
    pages = read_dump(text)
    for pg in pages:
        for r in pg["runs"]:
            r["font"] = r["face"]
    return pages


def dump(profile, layout, *extra):
    rc, out, err = run([BIN, "--dump=glyphs"] + list(extra) + ["-l", layout, profile])
    return rc, (parse_dump(out) if rc == 0 else []), err


def dump_lines(pages):
    """Lines of the dump as (page, y, x0, x1, text): runs on one baseline,
    split where a gap of more than 1 pt separates them (a date column)."""
    lines = []
    for pi, pg in enumerate(pages):
        by_y = {}
        for r in pg["runs"]:
            by_y.setdefault(round(r["y"], 2), []).append(r)
        for y, runs in by_y.items():
            runs.sort(key=lambda r: r["x"])
            cur = None
            for r in runs:
                if cur and r["x"] <= cur[3] + 1:
                    cur = (cur[0], cur[1], cur[2], max(cur[3], r["x"] + r["w"]), cur[4] + r["text"])
                else:
                    if cur:
                        lines.append(cur)
                    cur = (pi + 1, y, r["x"], r["x"] + r["w"], r["text"])
            if cur:
                lines.append(cur)
    return lines


# ------------------------------------------------------- the PDF, read back

def pdf_chars(pdf):
    """Every glyph drawn, page by page in content-stream order, as pdfminer
    places it: text, origin x and baseline y (the text rendering matrix), the
    advance box x0..x1, y0..y1, the font name and size.  The spaces a tagged
    PDF draws back over the end of each line (line_end_space) are left out:
    they are no glyph of the layout's, and the dump has none."""
    rm = PDFResourceManager()
    dev = PDFPageAggregator(rm, laparams=None)
    interp = PDFPageInterpreter(rm, dev)
    pages = []

    def walk(o, out):
        if isinstance(o, LTChar):
            out.append({"c": o.get_text(), "x": o.matrix[4], "y": o.matrix[5],
                        "x0": o.x0, "x1": o.x1, "y0": o.y0, "y1": o.y1,
                        "font": o.fontname, "size": o.size})
        elif hasattr(o, "__iter__"):
            for k in o:
                walk(k, out)

    with open(pdf, "rb") as f:
        for page in PDFPage.get_pages(f):
            interp.process_page(page)
            out = []
            walk(dev.get_result(), out)
            pages.append([g for k, g in enumerate(out) if not line_end_space(out, k)])
    return pages


def line_end_space(chars, k):
    """Is chars[k] the space a tagged PDF draws at the end of a line, back
    over the line's last glyph so that both end at the same x (for readers
    of the structure tree; docs/accessibility.md)?  The dump has none."""
    c = chars[k]
    if c["c"] != " " or not k:
        return False
    p = chars[k - 1]
    return abs(c["x1"] - p["x1"]) < 0.02 and abs(c["y"] - p["y"]) < 0.02 and c["x"] < p["x1"] - 0.01


def readback(pdf, pages):
    """Compare the glyphs of the dump with those of the PDF, in order.
    Returns (glyphs compared, max |dx|, max |dy|, list of problems)."""
    got = pdf_chars(pdf)
    problems = []
    if len(got) != len(pages):
        return 0, 0, 0, ["%d pages in the PDF, %d in the dump" % (len(got), len(pages))]
    n, mdx, mdy = 0, 0.0, 0.0
    for pi, (pg, chars) in enumerate(zip(pages, got)):
        want = []
        for r in pg["runs"]:
            if r["at"] is None or len(r["at"]) != len(r["text"]):
                problems.append("page %d: run %r has %s glyph positions" %
                                (pi + 1, r["text"], r["at"] and len(r["at"])))
                continue
            run_glyphs = [(c, x, r["y"]) for c, x in zip(r["text"], r["at"])]
            # A right-to-left run is drawn in the order of its text, the
            # reverse of the dump's (docs/languages.md).
            k = len(want)
            if len(run_glyphs) > 1 and k + len(run_glyphs) <= len(chars) and \
                    [g["c"] for g in chars[k:k + len(run_glyphs)]] == \
                    [c for c, _, _ in reversed(run_glyphs)] and \
                    abs(chars[k]["x"] - run_glyphs[-1][1]) < abs(chars[k]["x"] - run_glyphs[0][1]):
                run_glyphs.reverse()
            want += run_glyphs
        if len(want) != len(chars):
            problems.append("page %d: %d glyphs in the dump, %d in the PDF" %
                            (pi + 1, len(want), len(chars)))
            continue
        for (c, x, y), g in zip(want, chars):
            n += 1
            dx, dy = abs(g["x"] - x), abs(g["y"] - y)
            mdx, mdy = max(mdx, dx), max(mdy, dy)
            if g["c"] != c or dx > TOL or dy > TOL:
                if len(problems) < 5:
                    problems.append("page %d: %r at (%.3f, %.3f) in the PDF, %r at "
                                    "(%.2f, %.2f) in the dump" % (pi + 1, g["c"], g["x"], g["y"],
                                                                 c, x, y))
                else:
                    problems.append("")
    return n, mdx, mdy, problems


def raster(pdf, dpi=DPI):
    """Pages rasterised in grey: a list of (width, height, pixels)."""
    base = os.path.join(TMP, "r-" + stem(pdf))
    for old in glob.glob(base + "-*.pgm"):
        os.unlink(old)
    rc, _, err = run(["pdftoppm", "-r", str(dpi), "-gray", pdf, base])
    if rc != 0:
        raise RuntimeError("pdftoppm failed: " + err)
    files = sorted(glob.glob(base + "-*.pgm"), key=lambda p: int(re.search(r"-(\d+)\.pgm$", p).group(1)))
    imgs = []
    for path in files:
        data = open(path, "rb").read()
        fields, pos = [], 0
        while len(fields) < 4:          # P5 width height maxval, then one byte of space
            while data[pos:pos + 1].isspace():
                pos += 1
            if data[pos:pos + 1] == b"#":
                pos = data.index(b"\n", pos)
                continue
            start = pos
            while not data[pos:pos + 1].isspace():
                pos += 1
            fields.append(data[start:pos])
        w, h = int(fields[1]), int(fields[2])
        imgs.append((w, h, data[pos + 1:pos + 1 + w * h]))
    return imgs


def ink(img, page_h, x0, y0, x1, y1, dpi=DPI):
    """Dark pixels (< 128) inside a box given in PDF points."""
    w, h, px = img
    s = dpi / 72.0
    c0, c1 = max(0, int(math.ceil(x0 * s))), min(w, int(math.floor(x1 * s)))
    r0, r1 = max(0, int(math.ceil((page_h - y1) * s))), min(h, int(math.floor((page_h - y0) * s)))
    n = 0
    for r in range(r0, r1):
        row = px[r * w + c0:r * w + c1]
        n += sum(1 for b in row if b < 128)
    return n


def pdftotext(pdf):
    rc, out, err = run(["pdftotext", "-enc", "UTF-8", pdf, "-"])
    return out


# ------------------------------------------------------------- profiles

def profile_cv_text(path):
    """The text of a profile's cv: block (where what is printed comes from)."""
    out, inside = [], False
    for line in open(path, encoding="utf-8"):
        if re.match(r"^cv:\s*$", line):
            inside = True
            continue
        if inside and re.match(r"^\S", line):
            inside = False
        if inside:
            out.append(line)
    return "".join(out)


def is_chinese(path):
    return sum(1 for c in profile_cv_text(path) if is_han(c)) >= 20


ZH_PROFILE = """\
cv:
  name: Fang Jiarui
  native_name: 方佳瑞
  headline: 腾讯云首席软件工程师，技术负责人
  location: 中国北京
  email: fang@example.com
  sections:
    个人简介:
      - 长期从事高性能计算（HPC）与机器学习系统（MLSys）的研究和工程工作，主导或参与了多个流行的开源项目，在 GitHub 上累计获得超过四万颗星。在计算机科学顶级会议和期刊上发表了多篇第一作者论文，包括《并行深度学习训练系统》《异构内存管理》等。
      - 熟悉：C、C++、Python、CUDA、MPI、OpenMP、PyTorch、TensorFlow、Megatron、DeepSpeed；擅长：分布式训练、推理加速、显存优化、通信调度、编译优化、性能建模。
      - 甲、乙、丙、丁、戊、己、庚、辛、壬、癸；子、丑、寅、卯、辰、巳、午、未、申、酉、戌、亥。一，二，三，四，五，六，七，八，九，十。（春）（夏）（秋）（冬）「东」「南」「西」「北」《诗》《书》《礼》《易》《春秋》。
    工作经历:
      - company: 腾讯微信 AI
        position: 高级软件工程师
        location: 中国北京
        start_date: 2019-07
        end_date: 2022-02
        highlights:
          - 负责「微信大规模预训练模型」的训练与推理系统，设计了基于异构内存的参数管理方案，使单机可训练的模型规模提升了十倍以上。
          - 开发了 Transformer 推理加速库 TurboTransformers，被微信、QQ、腾讯云等多个业务采用，推理延迟降低了一半，服务成本显著下降！
          - 与『清华大学』合作，完成了面向超级计算机的深度学习框架移植和优化工作；相关成果发表于 IEEE TPDS 等期刊？是的。
    教育经历:
      - institution: 清华大学
        area: 计算机科学与技术系
        degree: 博士
        location: 中国北京
        start_date: 2014-09
        end_date: 2019-07
        highlights:
          - 导师：杨广文教授；合作导师：付昊桓教授。博士论文题目为《神威太湖之光上的并行深度学习训练系统》。
"""


def chinese_cases():
    """(label, profile, layout) for every Chinese profile: those in profiles/
    with layouts/zh.yaml (the default layout while it does not exist), and a
    generated one with both layouts."""
    cases = []
    zh_layout = ZH_LAYOUT if os.path.exists(ZH_LAYOUT) else DEFAULT_LAYOUT
    for p in sorted(glob.glob(os.path.join(ROOT, "profiles", "*.yaml"))):
        if is_chinese(p):
            cases.append((stem(p) + "+" + stem(zh_layout), p, zh_layout))
    gen = write("gen-zh.yaml", ZH_PROFILE)
    cases.append(("gen-zh+onecolumn", gen, DEFAULT_LAYOUT))
    if os.path.exists(ZH_LAYOUT):
        cases.append(("gen-zh+zh", gen, ZH_LAYOUT))
    cases.append(("gen-zh+spec", gen, SPEC_LAYOUT))
    return cases


# ------------------------------------------------------------------ tests

def readback_tests():
    cases = []
    for p in sorted(glob.glob(os.path.join(ROOT, "profiles", "*.yaml"))):
        cases.append((stem(p) + "+onecolumn", p, DEFAULT_LAYOUT))
        if is_chinese(p) and os.path.exists(ZH_LAYOUT):
            cases.append((stem(p) + "+zh", p, ZH_LAYOUT))
    check("there are profiles to read back", len(cases) >= 4, str(cases))
    gen = write("gen-zh.yaml", ZH_PROFILE)
    cases.append(("gen-zh+onecolumn (justified CJK)", gen, DEFAULT_LAYOUT))
    cases.append(("gen-zh+spec", gen, SPEC_LAYOUT))
    for label, prof, layout in cases:
        pdf = os.path.join(TMP, "rb-%s.pdf" % re.sub(r"\W", "_", label))
        rc, _, err = render(prof, layout, pdf, "-q")
        rc2, pages, err2 = dump(prof, layout, "-q")
        if rc != 0 or rc2 != 0:
            check("readback %s: renders" % label, False, (err + err2).strip())
            continue
        n, mdx, mdy, problems = readback(pdf, pages)
        check("readback %s: every glyph of the PDF where --dump=glyphs puts it "
              "(%d glyphs, max dx %.3f, dy %.3f pt)" % (label, n, mdx, mdy),
              n > 0 and not problems, "; ".join(p for p in problems if p))

    # Kerning is applied: in Lato, V tucks under A and o under T.
    prof = write("kern.yaml", "cv:\n  name: Kern Test\n  sections:\n    summary:\n"
                 "      - \"AVATAR To Tokyo WAVE\"\n")
    pdf = os.path.join(TMP, "kern.pdf")
    rc, _, err = render(prof, SPEC_LAYOUT, pdf)
    chars = [c for pg in pdf_chars(pdf) for c in pg] if rc == 0 else []
    pairs = []
    for a, b in zip(chars, chars[1:]):
        if a["c"] + b["c"] in ("AV", "To") and abs(a["y"] - b["y"]) < 0.01:
            pairs.append(b["x"] - (a["x"] + (a["x1"] - a["x0"])))
    check("kerning is applied: V after A and o after T sit left of the advance "
          "(PDF read back)", len(pairs) >= 3 and all(d < -0.1 for d in pairs),
          "shifts %s; %s" % (["%.3f" % d for d in pairs], err.strip()))


def ink_tests():
    for label, prof, layout in chinese_cases():
        pdf = os.path.join(TMP, "ink-%s.pdf" % re.sub(r"\W", "_", label))
        rc, _, err = render(prof, layout, pdf, "-q")
        if rc != 0:
            check("ink %s: renders" % label, False, err.strip())
            continue
        imgs = raster(pdf)
        pages = pdf_chars(pdf)
        blank, cjk, spaces, margin = [], 0, [], []
        for (img, chars) in zip(imgs, pages):
            page_h = img[1] * 72.0 / DPI
            for g in chars:
                inset = (g["x1"] - g["x0"]) * 0.08
                box = (g["x0"] + inset, g["y0"], g["x1"] - inset, g["y1"])
                if is_cjk(g["c"]):
                    cjk += 1
                    k = ink(img, page_h, *box)
                    if k < 4:
                        blank.append("%s at (%.1f, %.1f): %d" % (g["c"], g["x"], g["y"], k))
                    # The same box moved into the left margin: nothing there.
                    if len(margin) < 20:
                        margin.append(ink(img, page_h, 2, box[1], 2 + box[2] - box[0], box[3]))
                elif g["c"] == " " and g["x1"] - g["x0"] > 1:
                    inset = (g["x1"] - g["x0"]) * 0.2
                    spaces.append(ink(img, page_h, g["x0"] + inset, g["y0"] + 0.15 * g["size"],
                                      g["x1"] - inset, g["y1"]))
        check("ink %s: every CJK glyph has ink when rasterised (%d glyphs)" % (label, cjk),
              cjk > 0 and not blank, "; ".join(blank[:8]))
        check("ink %s: the probe reads empty boxes as empty (spaces, margin: control)" % label,
              spaces and margin and max(spaces) < 4 and max(margin) == 0,
              "spaces %s, margin %s" % (sorted(spaces)[-5:], margin[:5]))
    cases = [c for c in chinese_cases() if stem(c[1]) == "fang-zh" and c[2] == ZH_LAYOUT]
    check("profiles/fang-zh.yaml with layouts/zh.yaml is among the Chinese profiles",
          cases, "profiles/fang-zh.yaml or layouts/zh.yaml is missing")


def text_tests():
    for label, prof, layout in chinese_cases():
        pdf = os.path.join(TMP, "text-%s.pdf" % re.sub(r"\W", "_", label))
        rc, _, err = render(prof, layout, pdf, "-q")
        if rc != 0:
            check("text %s: renders" % label, False, err.strip())
            continue
        text = pdftotext(pdf)
        flat = re.sub(r"\s+", "", text)
        want = CJK_RUN.findall(profile_cv_text(prof))
        missing = [w for w in want if w not in flat]
        check("text %s: every CJK string of the profile comes back from pdftotext "
              "(%d strings)" % (label, len(want)), want and not missing, "missing: %s" % missing[:6])
        bad = []
        for line in text.splitlines():
            s = line.strip()
            if s and (s[0] in CLOSING or s[-1] in OPENING):
                bad.append(s)
        check("text %s: no pdftotext line starts with closing or ends with opening "
              "punctuation" % label, not bad, "; ".join(bad[:5]))
        rc, pages, _ = dump(prof, layout, "-q")
        bad = ["p%d y=%.2f: %s" % (p, y, t) for p, y, _, _, t in dump_lines(pages)
               if t.strip() and (t.strip()[0] in CLOSING or t.strip()[-1] in OPENING)]
        check("text %s: no line of the dump starts with closing or ends with opening "
              "punctuation" % label, pages and not bad, "; ".join(bad[:5]))


def bold_tests():
    prof = write("bold.yaml", "cv:\n  name: Bold Test\n  sections:\n    summary:\n"
                 "      - \"**粗体中文** and **Bold**\"\n      - \"粗体中文 and Bold\"\n")
    pdf = os.path.join(TMP, "bold.pdf")
    rc, _, err = render(prof, SPEC_LAYOUT, pdf)
    rc2, pages, _ = dump(prof, SPEC_LAYOUT)
    if rc != 0 or rc2 != 0:
        check("bold: renders", False, err.strip())
        return
    runs = [r for r in pages[0]["runs"] if "粗体中文" in r["text"]]
    bold = [r for r in runs if r["bold"]]
    regular = [r for r in runs if not r["bold"]]
    check("bold: the bold CJK run is WenQuanYi with synthetic bold (dump: +bold)",
          len(bold) == 1 and bold[0]["font"].startswith("WenQuanYi"),
          str([(r["font"], r["bold"], r["text"]) for r in runs]))
    latin = [r for r in pages[0]["runs"] if r["text"].strip() == "Bold"]
    check("bold: Latin bold uses the real Lato-Bold face, not a synthetic one",
          latin and all(r["font"] == "Lato-Bold" and not r["bold"] for r in latin),
          str([(r["font"], r["bold"]) for r in latin]))
    if len(bold) != 1 or len(regular) != 1:
        check("bold: one bold and one regular 粗体中文 run", False, str(runs))
        return
    img = raster(pdf)[0]
    page_h = pages[0]["h"]

    def run_ink(r):
        i = r["text"].index("粗体中文")
        at = r["at"] + [r["x"] + r["w"]]
        return sum(ink(img, page_h, at[i + k], r["y"] - 0.25 * r["size"], at[i + k + 1],
                       r["y"] + 0.95 * r["size"]) for k in range(4))

    b, g = run_ink(bold[0]), run_ink(regular[0])
    check("bold: synthetic bold CJK is visibly bolder when rasterised (>= 20%% more ink: "
          "%d dark pixels vs %d)" % (b, g), g > 50 and b >= 1.2 * g)


def fallback_tests():
    layout = write("fallback.yaml", "page: {size: [300pt, 400pt], margins: 20pt}\n"
                   "font: {family: Lato, fallback: [WenQuanYi Micro Hei], size: 10pt}\n")
    prof = write("fallback-p.yaml", "cv:\n  name: Fallback Test\n  sections:\n    summary:\n"
                 "      - \"Worked at 腾讯微信 AI on WeChat since 2019, then 清华大学.\"\n")
    pdf = os.path.join(TMP, "fallback.pdf")
    rc, _, err = render(prof, layout, pdf)
    rc2, pages, _ = dump(prof, layout)
    if rc != 0 or rc2 != 0:
        check("fallback: renders", False, err.strip())
        return
    runs = [r for pg in pages for r in pg["runs"]]
    wrong = [(r["font"], r["text"]) for r in runs
             if (any(is_han(c) for c in r["text"]) and not r["font"].startswith("WenQuanYi")) or
             (re.search(r"[A-Za-z0-9]", r["text"]) and not r["font"].startswith("Lato"))]
    check("fallback: dump runs: Latin in Lato, CJK in WenQuanYi, none mixed",
          runs and not wrong and any(r["font"].startswith("WenQuanYi") for r in runs),
          str(wrong))
    chars = [c for pg in pdf_chars(pdf) for c in pg]
    wrong = ["%s:%s" % (c["c"], c["font"]) for c in chars
             if (is_han(c["c"]) and "WenQuanYi" not in c["font"]) or
             (re.match(r"[A-Za-z0-9]", c["c"]) and "Lato" not in c["font"])]
    check("fallback: PDF glyphs: every Latin one in a Lato font, every CJK one in "
          "WenQuanYi (pdfminer)", chars and not wrong, str(wrong[:8]))
    rc, out, _ = run(["pdffonts", pdf])
    names = [r.split()[0] for r in out.splitlines()[2:] if r.strip()]
    check("fallback: pdffonts lists a Lato and a WenQuanYi subset",
          any(re.match(r"[A-Z]{6}\+Lato-", n) for n in names) and
          any(re.match(r"[A-Z]{6}\+WenQuanYi", n) for n in names), out)
    # Without the fallback, the CJK characters have no font: a warning for
    # each word of them, with the hint to add a fallback font.
    layout2 = write("nofallback.yaml", "page: {size: [300pt, 400pt], margins: 20pt}\n"
                    "font: {family: Lato, fallback: [], size: 10pt}\n")
    rc, _, err = render(prof, layout2, os.path.join(TMP, "nofallback.pdf"))
    got = re.findall(r"no font has the characters of '(\w+)' \(U\+([0-9A-F]{4})\.\.\.\): "
                     r"add a font that has them to font.fallback in the layout", err)
    want = [(w, "%04X" % ord(w[0])) for w in ("腾讯微信", "清华大学")]
    check("fallback: without WenQuanYi in the chain each run of CJK characters is one "
          "warning, with the hint", rc == 0 and got == want and err.count("warning") == 2,
          "rc %d, %s" % (rc, err.strip()))


def font_coverage():
    """Code points covered by any face of any font in fonts/ (fc-query)."""
    ranges = []
    for f in glob.glob(os.path.join(ROOT, "fonts", "*.tt[fc]")):
        rc, out, _ = run(["fc-query", "--format=%{charset}\n", f])
        for tok in out.split():
            a, _, b = tok.partition("-")
            ranges.append((int(a, 16), int(b or a, 16)))
    return ranges


def missing_tests():
    cover = font_coverage()
    check("fc-query reads the shipped fonts' coverage", len(cover) > 100, str(len(cover)))
    # Not in the shipped fonts, nor in Noto Sans CJK (the default chain's).
    cands = [0xA500, 0x13A0, 0x10D0, 0x0E01, 0x0905]
    absent = [c for c in cands if not any(a <= c <= b for a, b in cover)]
    if not absent or len(cover) <= 100:
        check("a character no shipped font has", False, "all of %s are covered" % cands)
        return
    cp = absent[0]
    ch = chr(cp)
    text = "cv:\n  name: Missing Glyph\n  sections:\n    summary:\n      - Plain text first.\n" \
           "      - \"A snowman here: %s, then more text.\"\n" % ch
    prof = write("missing.yaml", text)
    lines = text.splitlines()
    line = next(i for i, l in enumerate(lines) if ch in l) + 1
    field_col = lines[line - 1].index('"') + 1
    char_col = lines[line - 1].index(ch) + 1
    pdf = os.path.join(TMP, "missing.pdf")
    rc, _, err = render(prof, SPEC_LAYOUT, pdf)
    pat = r"%s:%d:(\d+): warning: no font has U\+%04X '%s'\n" % (re.escape(prof), line, cp, ch)
    m = re.fullmatch(pat, err)
    check("missing: exactly one 'FILE:LINE:COL: warning: no font has U+%04X' at the "
          "field, exit 0" % cp,
          rc == 0 and m and int(m.group(1)) in (field_col, char_col),
          "rc %d, stderr %r (want line %d, col %d or %d)" % (rc, err, line, field_col, char_col))
    check("missing: the PDF is written, the rest of the line with it",
          rc == 0 and os.path.exists(pdf) and "then more text" in pdftotext(pdf))

    # --strict: the warning is an error; nothing is written.
    old = b"previous good PDF"
    with open(pdf, "wb") as f:
        f.write(old)
    rc, out, err = render(prof, SPEC_LAYOUT, pdf, "--strict")
    pat = r"%s:%d:(\d+): error: no font has U\+%04X '%s'\n" % (re.escape(prof), line, cp, ch)
    check("missing --strict: exit 1 with 'FILE:LINE:COL: error: no font has ...' only",
          rc == 1 and re.fullmatch(pat, err), "rc %d, stderr %r" % (rc, err))
    check("missing --strict: the old output is untouched, no temporary file left",
          open(pdf, "rb").read() == old and not glob.glob(os.path.join(TMP, ".cvpdf-*")))
    rc, out, err = render(prof, SPEC_LAYOUT, pdf, "--strict", "-q")
    check("missing --strict -q: still exit 1 and the error printed",
          rc == 1 and re.fullmatch(pat, err), "rc %d, stderr %r" % (rc, err))
    rc, out, err = run([BIN, "--strict", "--dump", "-l", SPEC_LAYOUT, prof])
    check("missing --strict --dump: exit 1, nothing on stdout", rc == 1 and out == "",
          "rc %d, %d bytes out" % (rc, len(out)))

    # The character in every kind of place: the header's contact line, an
    # entry's template line and date column (both measured before they are
    # set), a highlight.  One positioned warning each, at the field or at its
    # entry; nothing without a position, nothing at all under -q.
    text = ("cv:\n  name: Missing Places\n  location: Snow%sville\n  sections:\n"
            "    experience:\n      - company: Acme\n        position: Snow%sman\n"
            "        location: Snow%stown\n        date: Winter %s 2020\n        highlights:\n"
            "          - Built a snow%s.\n") % ((ch,) * 5)
    prof = write("missing-places.yaml", text)
    lines = text.splitlines()
    entry = next(i for i, l in enumerate(lines) if "company:" in l) + 1
    fields = [i + 1 for i, l in enumerate(lines) if ch in l]
    rc, _, err = render(prof, SPEC_LAYOUT, os.path.join(TMP, "missing-places.pdf"))
    got = err.splitlines()
    pat = re.compile(r"%s:(\d+):\d+: warning: no font has U\+%04X '%s'$" % (re.escape(prof), cp, ch))
    where = [int(m.group(1)) for m in map(pat.match, got) if m]
    check("missing: a character in the header, a template line, the date column and a "
          "highlight: one positioned warning each, at the field or its entry",
          rc == 0 and len(got) == len(where) == 5 and
          all(w in fields or w == entry for w in where) and
          fields[0] in where and fields[-1] in where,
          "rc %d, stderr:\n%s" % (rc, err))
    rc, _, err = render(prof, SPEC_LAYOUT, os.path.join(TMP, "missing-places.pdf"), "-q")
    check("missing -q: no warning printed at all", rc == 0 and err == "", err)

    # A code point above U+FFFF no font has: a warning naming it, an error
    # under --strict (the PDF backend writes such characters when a font
    # has them: surrogate pairs in the ToUnicode map).
    emoji = "\U0001F600"
    text = "cv:\n  name: Emoji Test\n  sections:\n    summary:\n      - \"Smile %s please\"\n" % emoji
    prof = write("emoji.yaml", text)
    epdf = os.path.join(TMP, "emoji.pdf")
    rc, _, err = render(prof, SPEC_LAYOUT, epdf)
    check("above U+FFFF: a warning 'FILE:5:COL: warning:' naming U+1F600, the rest rendered",
          rc == 0 and re.search(r"^%s:5:\d+: warning: no font has U\+1F600" % re.escape(prof),
                                err, re.M) and os.path.exists(epdf), "rc %d, stderr %r" % (rc, err))
    with open(epdf, "wb") as f:
        f.write(old)
    rc, _, err = render(prof, SPEC_LAYOUT, epdf, "--strict")
    check("above U+FFFF --strict: exit 1, an error naming U+1F600, old output untouched",
          rc == 1 and re.search(r"^%s:5:\d+: error: no font has U\+1F600" % re.escape(prof), err, re.M)
          and open(epdf, "rb").read() == old, "rc %d, stderr %r" % (rc, err))
    # Thousands of one missing word: one warning, not thousands.
    text = "cv:\n  name: Thai Test\n  sections:\n    summary:\n      - \"%s\"\n" % (
        "\u0e01\u0e02 " * 3000)
    prof = write("thai.yaml", text)
    rc, _, err = render(prof, SPEC_LAYOUT, os.path.join(TMP, "thai.pdf"))
    warns = [l for l in err.splitlines() if "warning: no font has" in l]
    check("missing: 3,000 times one Thai word of two letters gives one warning, naming the "
          "word", rc == 0 and len(warns) == 1 and "'\u0e01\u0e02'" in warns[0],
          "rc %d, %d warnings" % (rc, len(warns)))


def astral_tests():
    """A character above U+FFFF from a font that has it (DejaVu Math TeX Gyre,
    Debian's fonts-dejavu-extra, as a fallback): drawn with ink, extracted
    exactly by pdftotext and pdfminer (a surrogate pair in the ToUnicode map)."""
    lay = write("astral.yaml", "extends: %s\nfont:\n  fallback: [WenQuanYi Micro Hei, "
                "DejaVu Math TeX Gyre]\n" % DEFAULT_LAYOUT)
    prof = write("astral-p.yaml", "cv:\n  name: Astral Test\n  sections:\n    summary:\n"
                 "      - \"Bold math \U0001D400\U0001D401 and plain\"\n")
    pdf = os.path.join(TMP, "astral.pdf")
    rc, _, err = render(prof, lay, pdf)
    if not check("astral: renders without a warning", rc == 0 and "warning" not in err, err):
        return
    check("astral: pdftotext reads U+1D400 U+1D401", "Bold math \U0001D400\U0001D401 and plain"
          in pdftotext(pdf), pdftotext(pdf))
    chars = [c for page in pdf_chars(pdf) for c in page]
    got = "".join(c["c"] for c in chars)
    check("astral: pdfminer reads U+1D400 U+1D401", "\U0001D400\U0001D401" in got, got[:80])
    _, out, _ = run([BIN, "--dump", "-l", lay, prof])
    d = read_dump(out)
    m = next((r for pg in d for r in pg["runs"] if r["face"].startswith("DejaVuMathTeXGyre")),
             None)
    img = raster(pdf)[0]
    h = d[0]["h"]
    if check("astral: the math letters come from the fallback face", m, out[:400]):
        x, y, w, size = m["x"], m["y"], m["w"], m["size"]
        check("astral: the glyphs have ink", ink(img, h, x, y - 0.2 * size, x + w, y + 0.8 * size) > 20)


def overfull_tests():
    url = "https://www.example-university.edu/research/groups/high-performance-computing/" \
          "projects/2024/distributed-training/very-long-path-segment-" + "x" * 60 + "/index.html?q=1&r=2"
    word = "".join("abcdefghij"[(i * 7) % 10] for i in range(300))
    email = "firstname.middlename.lastname.department.division@a-very-long-subdomain." \
            "example-university.edu"
    profiles = {
        "url": "cv:\n  name: Long Url\n  website: %s\n  sections:\n    summary:\n"
               "      - \"See %s for details.\"\n      - \"[%s](%s) again.\"\n" % (url, url, url, url),
        "word": "cv:\n  name: Long Word\n  sections:\n    summary:\n      - \"Before %s after.\"\n"
                "    experience:\n      - company: %s\n        position: Engineer\n"
                "        start_date: 2020-01\n" % (word, word[:120]),
        "email": "cv:\n  name: Long Email\n  email: %s\n  location: Somewhere Quite Far Away\n"
                 "  phone: \"+44 20 1234 5678\"\n  sections:\n    summary:\n"
                 "      - \"Write to %s or %s.\"\n" % (email, email, email.upper()),
        "mixed": "cv:\n  name: Mixed Scripts\n  native_name: 方佳瑞\n  sections:\n    summary:\n"
                 "      - \"在腾讯微信 AI 团队负责 TurboTransformers 推理加速库的开发，被微信、QQ、"
                 "腾讯云等业务采用；supercalifragilisticexpialidocious 与 https://github.com/"
                 "Tencent/TurboTransformers/blob/master/docs/benchmark.md 均为测试。\"\n"
                 "    experience:\n      - company: 腾讯微信 AI\n        position: 高级软件工程师 Senior "
                 "Software Engineer\n        start_date: 2019-07\n        end_date: 2022-02\n"
                 "        location: 中国北京 Beijing\n        highlights:\n"
                 "          - 腾讯微信AI腾讯微信AI腾讯微信AI腾讯微信AI腾讯微信AI腾讯微信AI腾讯微信AI"
                 "腾讯微信AI腾讯微信AI。\n",
    }
    # An address whose only break points are its hyphens, '.' and '@', and a
    # linked user name made of hyphenated parts: pdftotext drops a hyphen that
    # ends a line, so these must break before their hyphens to read back whole.
    hy_email = "-".join(["first", "second", "third", "fourth", "fifth", "sixth", "seventh",
                         "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth",
                         "fourteenth"]) + "@research-group-of-distributed-systems.example.org"
    hy_user = "-".join(["maximiliana", "theodora", "anastasopoulou", "whitcombe", "research",
                        "group", "of", "distributed", "systems", "laboratory", "archive"])
    profiles["hyphen"] = ("cv:\n  name: Hyphen Address\n  email: %s\n  social_networks:\n"
                          "    - network: GitHub\n      username: %s\n  sections:\n"
                          "    summary:\n      - \"Write to %s today.\"\n"
                          % (hy_email, hy_user, hy_email))
    text = open(SPEC_LAYOUT, encoding="utf-8").read()
    margin = float(re.search(r"^\s+margins:\s*([0-9.]+)pt", text, re.M).group(1))
    for name, body in profiles.items():
        prof = write("over-%s.yaml" % name, body)
        pdf = os.path.join(TMP, "over-%s.pdf" % name)
        rc, _, err = render(prof, SPEC_LAYOUT, pdf, "-q")
        rc2, pages, _ = dump(prof, SPEC_LAYOUT, "-q")
        if rc != 0 or rc2 != 0:
            check("overfull %s: renders" % name, False, err.strip())
            continue
        left, right = margin, pages[0]["w"] - margin
        out = ["%r x=%.2f..%.2f" % (r["text"][:30], r["x"], r["x"] + r["w"])
               for pg in pages for r in pg["runs"]
               if min([r["x"]] + (r["at"] or [])) < left - 0.01 or r["x"] + r["w"] > right + 0.01]
        check("overfull %s: every run of the dump within the column %.0f..%.0f" % (name, left, right),
              not out, "; ".join(out[:4]))
        chars = [c for pg in pdf_chars(pdf) for c in pg]
        out = ["%r %.2f..%.2f" % (c["c"], c["x0"], c["x1"]) for c in chars
               if c["x0"] < left - 0.01 or c["x1"] > right + 0.01]
        check("overfull %s: every glyph of the PDF within the column (pdfminer, %d glyphs)"
              % (name, len(chars)), chars and not out, "; ".join(out[:4]))
        out = ["%s %.2f..%.2f" % (w[:30], x0, x1) for _, _, words in words_bbox(pdf)
               for x0, _, x1, _, w in words if x0 < left - 0.01 or x1 > right + 0.01]
        check("overfull %s: every word of pdftotext -bbox within the column" % name,
              not out, "; ".join(out[:4]))
        flat = re.sub(r"\s+", "", pdftotext(pdf))
        key = {"url": url[:40], "word": word[:40], "email": email[:30], "mixed": "腾讯微信AI",
               "hyphen": hy_email}[name]
        check("overfull %s: the long text is there (not dropped)" % name, key in flat, flat[:200])
        if name == "hyphen":
            lines = [l.strip() for l in pdftotext(pdf).splitlines() if l.strip()]
            check("overfull hyphen: the address is broken (wider than the column)",
                  hy_email not in lines and hy_email[:20] in flat, lines[:8])
            check("overfull hyphen: pdftotext reads the address whole twice (no line ends "
                  "with its hyphen)", flat.count(hy_email) == 2, flat[:300])
            check("overfull hyphen: pdftotext reads the linked user name whole",
                  hy_user in flat, flat[:300])


def cjk_word_tests():
    """A short run of Chinese letters among English words (a name, a word:
    普通话) is not broken between lines in an English résumé; a Chinese
    sentence in it, between its own punctuation, still breaks anywhere;
    and in a Chinese résumé the same run breaks as Chinese text does."""
    bullets = "".join("          - \"%sMandarin \u666e\u901a\u8bdd, basic, and %s more.\"\n"
                      % ("Spoken " * k, "words " * (12 - k % 12)) for k in range(28))
    body = ("cv:\n  name: Ada Lin\n  sections:\n    skills:\n      - label: Languages\n"
            "        details: x\n    experience:\n      - company: Example\n        position: "
            "Engineer\n        start_date: 2020-01\n        highlights:\n" + bullets)
    word = "\u666e\u901a\u8bdd"
    for lang, whole in (("english", True), ("mandarin_chinese", False)):
        prof = write("cjkword-%s.yaml" % lang, body + "locale:\n  language: %s\n" % lang)
        rc, out, err = run([BIN, "--dump", "-q", prof])
        if not check("cjk word (%s): renders" % lang, rc == 0, err):
            continue
        lines = {}
        for pg_no, pg in enumerate(read_dump(out)):
            for r in pg["runs"]:
                lines.setdefault((pg_no, round(r["y"], 2)), []).append(r)
        texts = ["".join(r["text"] for r in sorted(v, key=lambda r: r["x"]))
                 for _, v in sorted(lines.items())]
        split = [t for t in texts if any(c in t for c in word) and word not in t]
        if whole:
            # Justified lines stretch their spaces, not the word's letters:
            # each of its three glyphs one em from the next (pdftotext
            # would read a letter-spaced "普 通 话" as three words).
            rc, g, _ = run([BIN, "--dump=glyphs", "-q", prof])
            runs = [r for pg in read_dump(g) for r in pg["runs"]]
            spread = [(r["text"], r["at"]) for r in runs
                      if r["text"] == word and r["at"] and
                      any(abs(b - a - r["size"]) > 0.01 for a, b in zip(r["at"], r["at"][1:]))]
            # Nor spaced from the comma after it: the next run starts where
            # the word's last glyph ends (one em after it).
            for r, nxt in zip(runs, runs[1:]):
                if r["text"] == word and r["at"] and abs(nxt["y"] - r["y"]) < 0.01 and \
                        abs(nxt["x"] - r["at"][-1] - r["size"]) > 0.01:
                    spread.append((r["text"], r["at"], nxt["text"][:5], nxt["x"]))
            check("cjk word (english): %s never letter-spaced in a justified line, nor "
                  "spaced from its comma" % word,
                  rc == 0 and not spread, spread[:3])
            check("cjk word (english): %s never broken between lines (%d lines with it)"
                  % (word, sum(word in t for t in texts)),
                  not split and sum(word in t for t in texts) == 28, split[:4])
        else:
            check("cjk word (mandarin_chinese): the run still breaks as Chinese text", split,
                  texts[:6])


def cli_tests():
    rc, out, _ = run([BIN, "--help"])
    check("cli: --help documents --dump=glyphs and --strict",
          rc == 0 and "--dump=glyphs" in out and "--strict" in out, out)
    prof = os.path.join(ROOT, "profiles", "he.yaml")
    rc1, plain, _ = run([BIN, "--dump", "-q", prof])
    rc2, glyphs, _ = run([BIN, "--dump=glyphs", "-q", prof])
    lines = glyphs.splitlines()
    check("cli: --dump=glyphs is --dump plus 'at' lines",
          rc1 == rc2 == 0 and plain.splitlines() == [l for l in lines if not l.startswith("  at ")]
          and any(l.startswith("  at ") for l in lines))
    bad = []
    for r in (r for pg in read_dump(glyphs) for r in pg["runs"]):
        nums, t = r["at"], r["text"]
        if nums is None or len(nums) != len(t) or abs(nums[0] - r["x"]) > 0.005 \
                or any(p > q for p, q in zip(nums, nums[1:])):
            bad.append(r["line"])
    check("cli: every text line is followed by one x per glyph, from the run's x, increasing",
          not bad, "; ".join(bad[:3]))
    rc, out, err = run([BIN, "--dump=words", prof])
    check("cli: --dump=words is a usage error (exit 2)", rc == 2 and out == "", "rc %d %s" % (rc, err))

    # --strict on a clean profile changes nothing.
    pdf = os.path.join(TMP, "strict-he.pdf")
    rc, _, err = run([BIN, "--strict", "-o", pdf, prof])
    check("cli: --strict on a profile without warnings: exit 0, PDF written",
          rc == 0 and err == "" and os.path.exists(pdf), "rc %d %s" % (rc, err))
    # Warnings from other stages stop a --strict run too: the profile loader
    # (a section name that names no section; two e-mails are RenderCV's
    # and shown both, issue 14) and the composer (a glyph no font has).
    for name, body, what in [
            ("no-such-section", "cv:\n  name: A B\nsettings:\n  page_break_before: [Nope]\n",
             r":4:\d+: (warning|error): page_break_before: there is no section 'Nope'"),
            ("glyph", "cv:\n  name: A B\n  headline: \"vai \ua500\"\n",
             r":3:\d+: (warning|error): no font has U\+A500")]:
        p = write("strict-%s.yaml" % name, body)
        out = os.path.join(TMP, "strict-%s.pdf" % name)
        rc, _, err = run([BIN, "-o", out, p])
        m = re.search(re.escape(p) + what, err)
        check("cli: %s: a warning, exit 0, PDF written" % name,
              rc == 0 and m and m.group(1) == "warning" and os.path.exists(out), "rc %d %s" % (rc, err))
        os.unlink(out) if os.path.exists(out) else None
        rc, _, err = run([BIN, "--strict", "-o", out, p])
        m = re.search(re.escape(p) + what, err)
        check("cli: %s --strict: exit 1, the same message as an error, printed once, no PDF" % name,
              rc == 1 and m and m.group(1) == "error" and err.count("\n") == 1
              and not os.path.exists(out), "rc %d %s" % (rc, err))
    # In a batch, a profile failing under --strict does not stop the others.
    d = os.path.join(TMP, "strict-batch")
    rc, _, err = run([BIN, "--strict", "-q", "-o", d + "/", prof,
                      os.path.join(TMP, "strict-glyph.yaml")])
    check("cli: --strict batch: exit 1, the clean profile still rendered, the other not",
          rc == 1 and os.path.exists(os.path.join(d, "he.pdf"))
          and not os.path.exists(os.path.join(d, "strict-glyph.pdf")), "rc %d %s" % (rc, err))


if __name__ == "__main__":
    sys.exit(testlib.main("typo", [cli_tests, readback_tests, ink_tests, text_tests,
                                   bold_tests, fallback_tests, missing_tests, astral_tests,
                                   overfull_tests, cjk_word_tests], tmp=TMP))
