#!/usr/bin/env python3
"""Typography, round 3 (issue 27): the lab's pages, measured from --dump.

Usage: tests/typo3.py CVPDF_BINARY [-k PATTERN] [--list]

  justified  every line of a justified paragraph but its last reaches the
             right edge of its column, for he, fang, li, chaoyang-he and
             weber-de in onecolumn, sidebar and compact, and for a
             paragraph no break of the tolerance fits (a narrow column)
  runts      no paragraph ends with a line that is only the tail of a
             hyphenated word
  cjk        the label colon full-width in Chinese and Japanese profiles in
             every layout; no blank between "）" and a following ";"
  sidebar    a profile with nothing for the sidebar gets the full width from
             page 1; a sidebar title's rule clears its title's ink (pdftoppm)
  pull back  every shipped layout: the lab's last pages a quarter full
  short list a list of four one-line items is never split (RenderCV's look-alike)
  bullets    RenderCV's themes: a bullet mark no wider than 0.62 em, clear of its
             text; nested bullets a different mark
  footer     show_footer: true in a German RenderCV file: the footer, in every theme
  hyphens    German compounds break at their joints ("Daten-banken", not
             "Datenban-ken"); no more than two hyphens in any five lines of a
             narrow column (the sidebar layout's main column)

A paragraph is read back from the dump: lines of one column, one after the
other at the text's leading, the later ones starting where the text of the
earlier one starts (after a bullet), in the same face and size.

Every check prints "ok NAME" or "FAIL NAME: why"; the last line is
"typo3: N passed, M failed".
"""
import glob
import os
import sys
import tempfile

import re

import yaml

import testlib
from testlib import BIN, ROOT, check, read_dump, run

TMP = tempfile.mkdtemp(prefix="cvpdf-typo3-")
LAB = ["he", "fang", "li", "chaoyang-he", "weber-de"]
LAYOUTS = ["onecolumn", "sidebar", "compact"]
EDGE = 0.5          # points: a line this close to the column's edge reaches it


def profile(name):
    return os.path.join(ROOT, "profiles", name + ".yaml")


def layout(name):
    return os.path.join(ROOT, "layouts", name + ".yaml")


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def dump(prof, lay, *extra):
    rc, out, err = run([BIN, "--dump"] + list(extra) + ["-l", lay, prof])
    if rc != 0:
        raise RuntimeError("cvpdf %s -l %s: exit %d: %s" % (prof, lay, rc, err.strip()))
    return read_dump(out)


def column_of(page, run):
    """The name of the region (main, sidebar, ...) the run starts in."""
    for name, (x0, y0, x1, y1) in page["region"].items():
        if x0 - 0.01 <= run["x"] <= x1 and y0 - 0.01 <= run["y"] <= y1 + 0.01:
            return name, x0, x1
    return None, 0, 0


def lines_of(pages):
    """Lines: runs on one baseline of one column of one page, in reading
    order; each {page, col, right, y, runs, x1}."""
    out = []
    for pg in pages:
        by = {}
        for r in pg["runs"]:
            col, x0, x1 = column_of(pg, r)
            if col in (None, "head", "page_footer"):
                continue
            by.setdefault((col, round(r["y"], 2)), (x1, []))[1].append(r)
        for (col, y), (right, runs) in sorted(by.items(), key=lambda kv: (kv[0][0], -kv[0][1])):
            runs.sort(key=lambda r: r["x"])
            out.append({"page": pg["n"], "col": col, "right": right, "y": y, "runs": runs,
                        "x1": max(r["x"] + r["w"] for r in runs),
                        "text": joined(runs)})
    return out


def text_x(ln):
    """Where a line's text starts: after its bullet, if it has one."""
    r = ln["runs"]
    return r[1]["x"] if len(r) > 1 and is_mark(r[0]) else r[0]["x"]


def is_mark(run):
    t = run["text"].strip()
    return len(t) == 1 and not t.isalnum()


def joined(runs):
    """The text of runs on one baseline: a space between two that do not
    touch (a date column), none between two that do."""
    t = runs[0]["text"]
    for a, b in zip(runs, runs[1:]):
        t += ("" if b["x"] - (a["x"] + a["w"]) < 1 else " ") + b["text"]
    return t


def continues(a, b):
    """Line b carries on the paragraph of line a: same page and column, one
    leading lower, starting where a's text starts (after a's bullet), with
    no bullet of its own, in a's last run's face and size."""
    if a["page"] != b["page"] or a["col"] != b["col"]:
        return False
    last, first = a["runs"][-1], b["runs"][0]
    if is_mark(first) or abs(first["x"] - text_x(a)) > 0.01:
        return False
    step = a["y"] - b["y"]
    if not (1.1 * last["size"] <= step <= 1.45 * last["size"]):
        return False
    return first["size"] == last["size"] and first["face"] == last["face"]


def squeeze(s):
    return re.sub(r"\s+", "", s)


def source_ends(path):
    """The ends of the profile's strings, without spaces or Markdown: a
    line that ends one ends its paragraph (a summary's paragraphs follow
    one another at the leading)."""
    ends = set()

    def walk(v):
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str):
            t = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", v).replace("**", "").replace("*", "")
            t = squeeze(t)
            for k in range(1, min(len(t), 24) + 1):
                ends.add(t[-k:])
    with open(path, encoding="utf-8") as f:
        walk(yaml.safe_load(f))
    return ends


def ends_source(ln, ends):
    t = squeeze(ln["text"])[-24:]
    return t in ends


def paragraphs(pages, ends=()):
    """Paragraphs of two lines or more: lists of lines.  A line whose text
    is the end of one of `ends` ends its paragraph."""
    lines = lines_of(pages)
    paras, cur = [], []
    for ln in lines:
        if cur and continues(cur[-1], ln) and not ends_source(cur[-1], ends):
            cur.append(ln)
        else:
            if len(cur) > 1:
                paras.append(cur)
            cur = [ln]
    if len(cur) > 1:
        paras.append(cur)
    return paras


def justified(para):
    """A paragraph set justified: a line but the last reaches the edge and
    the text is Latin or CJK set in one column (not a list of links)."""
    return any(ln["right"] - ln["x1"] <= EDGE for ln in para[:-1])


def short_lines(pages, ends=()):
    """Lines of justified paragraphs, not their last, that stop short of
    the column's edge: (page, column, points short, text)."""
    out = []
    for para in paragraphs(pages, ends):
        if not justified(para):
            continue
        for ln in para[:-1]:
            gap = ln["right"] - ln["x1"]
            if gap > EDGE:
                out.append((ln["page"], ln["col"], round(gap, 1), ln["text"][-40:]))
    return out


def justified_tests():
    for name in LAB:
        for lay in LAYOUTS:
            pages = dump(profile(name), layout(lay))
            bad = short_lines(pages, source_ends(profile(name)))
            check("justified %s %s: every line but the last reaches the margin" % (name, lay),
                  not bad, "%d short: %s" % (len(bad), bad[:3]))


def runts(pages, ends=()):
    """Paragraphs whose last line is only the tail of a word hyphenated on
    the line before: (page, the two lines' ends)."""
    out = []
    for para in paragraphs(pages, ends):
        a, b = para[-2], para[-1]
        if a["text"].endswith("-") and " " not in b["text"].strip():
            out.append((b["page"], a["text"][-20:] + " / " + b["text"]))
    return out


# The runts issue 27 saw: (profile, layout, the tail).
RUNTS = [("he", "sidebar", "nels."), ("fang", "sidebar", "ware:"),
         ("chaoyang-he", "sidebar", "dustry."), ("weber-de", "onecolumn", "nen.")]


def runt_tests():
    for name in LAB:
        for lay in LAYOUTS:
            pages = dump(profile(name), layout(lay))
            bad = runts(pages, source_ends(profile(name)))
            check("runts %s %s: no last line only a hyphenated word's tail" % (name, lay),
                  not bad, "%d: %s" % (len(bad), bad[:3]))
    for name, lay, tail in RUNTS:
        pages = dump(profile(name), layout(lay))
        alone = [ln for ln in lines_of(pages) if ln["text"].strip() == tail]
        check("runts %s %s: %r is not a line of its own" % (name, lay, tail), not alone)
    # The checker itself: a hand-made runt is found.
    fake = [{"n": 1, "region": {"main": (0, 0, 100, 800)}, "runs": [
        {"x": 0, "y": 700, "w": 100, "size": 10, "face": "F", "text": "a line ending in ker-"},
        {"x": 0, "y": 687.2, "w": 20, "size": 10, "face": "F", "text": "nels."}]}]
    check("runts: the checker finds a runt", len(runts(fake)) == 1)


def crowded(pages, ends=(), most=2, window=5):
    """Runs of `window` lines of a paragraph with more than `most` ending
    in a hyphen: (page, the lines' ends)."""
    out = []
    for para in paragraphs(pages, ends):
        flags = [ln["text"].endswith("-") and len(ln["text"]) > 1 for ln in para]
        for i in range(max(0, len(flags) - window + 1)):
            if sum(flags[i:i + window]) > most:
                out.append((para[i]["page"], [ln["text"][-12:] for ln in para[i:i + window]
                                              if ln["text"].endswith("-")]))
                break
    return out


def hyphen_tests():
    # A narrow column: the sidebar layout's main column (33 ems).
    for name in LAB:
        pages = dump(profile(name), layout("sidebar"))
        bad = crowded(pages, source_ends(profile(name)))
        check("hyphens %s sidebar: at most two hyphens in any five lines" % name,
              not bad, "%d: %s" % (len(bad), bad[:2]))
    # German compounds break at their joints.
    lines = []
    for lay in LAYOUTS:
        lines += [ln["text"] for ln in lines_of(dump(profile("weber-de"), layout(lay)))]
    check("hyphens weber-de: never Datenban-ken",
          not [t for t in lines if t.endswith("Datenban-")])
    check("hyphens weber-de sidebar: Daten-banken",
          any(t.endswith("Daten-") for t in lines_of_text("weber-de", "sidebar")))
    # The checker itself.
    fake = [{"n": 1, "region": {"main": (0, 0, 100, 800)}, "runs": [
        {"x": 0, "y": 700 - 12.8 * i, "w": 100, "size": 10, "face": "F",
         "text": "words and a hyph-" if i in (0, 2, 3) else "words and more"}
        for i in range(6)]}]
    check("hyphens: the checker finds three hyphens in five lines", len(crowded(fake)) == 1)


CJK_COLON = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff60]: ")


def cjk_tests():
    # The label colon: full-width in a CJK profile whatever the layout.
    for name in ["fang-zh", "sato-ja"]:
        for lay in LAYOUTS + ["zh"]:
            bad = [t for t in lines_of_text(name, lay) if CJK_COLON.search(t.replace(" ", " "))]
            check("cjk %s %s: no ASCII ': ' after Chinese or Japanese" % (name, lay),
                  not bad, "%d: %s" % (len(bad), bad[:2]))
    label = [t for t in lines_of_text("fang-zh", "onecolumn") if "英语" in t]
    check("cjk fang-zh onecolumn: 英语：", any("英语：" in t for t in label), repr(label[:1]))
    # No blank half em between a full-width closing mark and Latin punctuation.
    prof = write("paren.yaml", 'cv:\n  name: 测试\n  sections:\n    summary:\n'
                 '      - "清华大学（北京）; MIT（美国）, and more."\n')
    rc, out, err = run([BIN, "--dump=glyphs", "-l", layout("onecolumn"), prof])
    pages = read_dump(out) if rc == 0 else []
    runs = pages[0]["runs"] if pages else []
    pairs = []
    for a, b in zip(runs, runs[1:]):
        if a["text"].endswith("）") and b["text"][:1] in ";," and a["y"] == b["y"] and a["at"]:
            pairs.append(b["x"] - a["at"][-1])
    check("cjk: Latin punctuation after ） follows its ink (2 pt < step <= 0.55 em)",
          len(pairs) == 2 and all(2 < d <= 5.5 for d in pairs), "steps %s" % pairs)


def raster_page(pdf, dpi):
    """Page 1 rasterised in grey by pdftoppm: (width, height, pixels)."""
    base = os.path.join(TMP, "r-" + os.path.basename(pdf))
    rc, _, err = run(["pdftoppm", "-r", str(dpi), "-gray", "-f", "1", "-l", "1", pdf, base])
    if rc != 0:
        raise RuntimeError("pdftoppm: " + err)
    path = glob.glob(base + "-*.pgm")[0]
    return testlib.read_pgm(path)


def clear_above(img, page_h, dpi, x0, x1, y):
    """Points of blank (no pixel darker than 128) between height y and the
    first ink above it, in columns [x0, x1]."""
    w, h, px = img
    s = dpi / 72.0
    c0, c1 = int(x0 * s) + 1, int(x1 * s) - 1
    r = int((page_h - y) * s) - 1
    clear = 0
    while r > 0 and clear < 40:
        if any(b < 128 for b in px[r * w + c0:r * w + c1]):
            break
        clear += 1
        r -= 1
    return clear / s


def sidebar_tests():
    # Nothing for the sidebar: the main column is the page's from page 1.
    one = dump(profile("li"), layout("onecolumn"))
    side = dump(profile("li"), layout("sidebar"))
    widest = max(r["x"] + r["w"] - side[0]["region"]["main"][0] for r in side[0]["runs"]
                 if column_of(side[0], r)[0] == "main")
    check("sidebar li: the main column takes the full width from page 1",
          side[0]["region"]["main"][0] == side[0]["region"]["head"][0] and
          side[0]["region"]["main"][2] == side[0]["region"]["head"][2] and
          "sidebar" not in side[0]["region"] and widest > 490,
          "main %s, regions %s, widest %.1f" % (side[0]["region"]["main"],
                                                sorted(side[0]["region"]), widest))
    check("sidebar li: no more pages than in onecolumn", len(side) <= len(one),
          "%d against %d" % (len(side), len(one)))
    # A sidebar title's rule clears the ink of its title, in every script.
    dpi = 600
    for name in ["fang-zh", "levi-he", "sato-ja", "he"]:
        pdf = os.path.join(TMP, name + "-sidebar.pdf")
        rc, _, err = run([BIN, "-l", layout("sidebar"), "-o", pdf, profile(name)])
        pages = dump(profile(name), layout("sidebar"))
        img = raster_page(pdf, dpi)
        pg = pages[0]
        sx0, _, sx1, _ = pg["region"]["sidebar"]
        bad, n = [], 0
        for rl in pg["rules"]:
            if rl.y0 != rl.y1 or abs(rl.x0 - sx0) > 0.01:
                continue
            titles = [r for r in pg["runs"] if 0 < r["y"] - rl.y0 < 8 and sx0 <= r["x"] < sx1]
            if not titles:
                continue
            n += 1
            x0 = min(r["x"] for r in titles)
            x1 = max(r["x"] + r["w"] for r in titles)
            gap = clear_above(img, pg["h"], dpi, x0, x1, rl.y0 + rl.w / 2)
            if gap < 0.35:
                bad.append("%s: %.2f pt" % ("".join(r["text"] for r in titles), gap))
        check("sidebar %s: every title rule clears its title's ink (>= 0.35 pt)" % name,
              rc == 0 and n > 0 and not bad, "%d rules, %s" % (n, bad[:3]))


SHIPPED = sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "layouts")) if f.endswith(".yaml"))


def last_fill(pages):
    """How full the last page is, as the fullest of its columns: from the
    column's top to the foot of its lowest line (its baseline less a
    quarter of its size: the descent), page footers aside."""
    pg = pages[-1]
    most = 0
    for col in ("main", "sidebar"):
        if col not in pg["region"]:
            continue
        x0, y0, x1, y1 = pg["region"][col]
        ys = [r["y"] - r["size"] / 4 for r in pg["runs"] if column_of(pg, r)[0] == col]
        if ys:
            most = max(most, (y1 - min(ys)) / (y1 - y0))
    return most


def pull_back_tests():
    # Every shipped layout pulls a near-empty last page back for the lab's
    # profiles: the last page a quarter full, or the explain says why not.
    for lay in SHIPPED:
        for name in LAB:
            rc, out, err = run([BIN, "--dump", "--explain", "-l", layout(lay), profile(name)])
            pages = read_dump(out, other=True) if rc == 0 else []
            fill = last_fill(pages) if len(pages) > 1 else 1
            check("pull back %s %s: the last page a quarter full (%d pages, last %.0f%%)"
                  % (lay, name, len(pages), fill * 100),
                  rc == 0 and fill >= 0.25, (err + "\n".join(pages.other if pages else []))[-300:])


THEMES = ["classic", "engineeringresumes", "engineeringclassic", "sb2nov", "moderncv",
          "harvard", "ink", "opal", "ember"]


def short_list_tests():
    # A four-item list is never split (2/2 left two lines on sb2nov's last
    # page): the look-alike's four talks share a page in every theme.
    src = open(os.path.join(ROOT, "tests", "data", "rendercv", "lookalike.yaml"),
               encoding="utf-8").read()
    talks = ["Robots That Count Fish", "Cheap Vehicles, Big Oceans", "From Thesis to Fleet",
             "Navigating Without GPS"]
    for theme in THEMES:
        prof = write("lookalike-%s.yaml" % theme, src + "\ndesign:\n  theme: %s\n" % theme)
        rc, out, err = run([BIN, "--dump", prof])
        pages = read_dump(out) if rc == 0 else []
        on = {pg["n"] for pg in pages for r in pg["runs"] for t in talks
              if r["text"].startswith(t)}
        check("short list %s: the four talks on one page" % theme, rc == 0 and len(on) == 1,
              "pages %s" % sorted(on))


MARKS = set("•●◦◆–-▪■")

# RenderCV 2.8's space_between_bullet_and_text in each theme, in em (its
# themes' defaults, classic_theme.py and other_themes/*.yaml).
RCV_BULLET_GAP = {"classic": 0.5, "engineeringresumes": 0.3, "engineeringclassic": 0.5,
                  "sb2nov": 0.5, "moderncv": 0.3, "harvard": 0.5, "ink": 0.4, "opal": 0.5,
                  "ember": 0.5}


def bullet_tests():
    # The theme's bullets as RenderCV 2.8 draws them: the text the theme's
    # space_between_bullet_and_text after its mark; a mark no wider than
    # 0.62 em, at the text's size, but engineeringresumes' "●", which
    # RenderCV draws as text(13pt, [•], baseline: -0.6pt) (Preamble.j2.typ):
    # a 13pt "•", a Typst list marker, the tops of its capitals level with
    # the text's, so a little below the text's baseline; nested bullets
    # another mark.
    sample = open(os.path.join(ROOT, "tests", "data", "rendercv", "sample.yaml"),
                  encoding="utf-8").read()
    for theme in THEMES:
        prof = write("bullets-%s.yaml" % theme, sample + "\ndesign:\n  theme: %s\n" % theme)
        rc, out, err = run([BIN, "--dump", prof])
        pages = read_dump(out) if rc == 0 else []
        marks = []
        for pg in pages:
            for a in pg["runs"]:
                if a["text"] not in MARKS:
                    continue
                after = [b for b in pg["runs"] if abs(b["y"] - a["y"]) < 2.5 and b["x"] > a["x"]
                         and b["text"] not in MARKS]
                if after:
                    b = min(after, key=lambda r: r["x"])
                    marks.append((a["text"], a["size"], a["w"] / b["size"],
                                  (b["x"] - a["x"] - a["w"]) / b["size"], b["y"] - a["y"],
                                  b["text"], b["size"]))
        top = [m for m in marks if m[5].startswith(("Halved", "Led the"))]
        nested = [m for m in marks if m[5].startswith(("moved 3 PB", "retired the"))]
        said = "%s" % [(m[0], m[1], round(m[2], 2), round(m[3], 2), round(m[4], 2)) for m in top]
        gap = RCV_BULLET_GAP[theme]
        check("bullets %s: the text %.1f em after its mark, as RenderCV's" % (theme, gap),
              rc == 0 and len(top) == 2 and all(abs(m[3] - gap) < 0.01 for m in top)
              and len(nested) == 2 and all(abs(m[3] - gap) < 0.01 for m in nested), said)
        if theme == "engineeringresumes":
            check("bullets %s: RenderCV's 13pt \u2022, a little below the text's baseline"
                  % theme, top and all(m[0] == "\u2022" and m[1] == 13 and m[6] == 10
                                       and 0.5 < m[4] < 2 for m in top), said)
        else:
            check("bullets %s: a mark at the text's size, <= 0.62 em, on its baseline" % theme,
                  top and all(m[1] == m[6] and m[2] <= 0.621 and abs(m[4]) < 0.01
                              for m in top), said)
        check("bullets %s: nested bullets another mark" % theme,
              len(nested) == 2 and top and all(m[0] != top[0][0] for m in nested),
              "top %s nested %s" % ([m[0] for m in top], [m[0] for m in nested]))
    # A RenderCV file's own "●" in another theme is RenderCV's 13pt "•" too,
    # and its space_between_bullet_and_text the gap.
    prof = write("bullets-disc.yaml", sample + "\ndesign:\n  theme: classic\n  entries:\n"
                 "    highlights:\n      bullet: \u25cf\n"
                 "      space_between_bullet_and_text: 0.7em\n")
    rc, out, err = run([BIN, "--dump", prof])
    pages = read_dump(out) if rc == 0 else []
    runs = [r for pg in pages for r in pg["runs"]]
    disc = [(a, b) for a in runs for b in runs if a["text"] == "\u2022" and
            b["text"].startswith("Halved") and abs(b["y"] - a["y"]) < 2.5]
    check("bullets: a file's bullet \u25cf is RenderCV's 13pt \u2022, its text 0.7 em after it",
          rc == 0 and disc and all(a["size"] == 13 and abs(b["x"] - a["x"] - a["w"] - 7) < 0.01
                                   for a, b in disc),
          err or [(a["size"], round(b["x"] - a["x"] - a["w"], 2)) for a, b in disc])


def footer_tests():
    # show_footer: true in a German RenderCV file prints the footer in every
    # theme, those with none by default too; without it they have none.
    sample = open(os.path.join(ROOT, "tests", "data", "rendercv", "sample.yaml"),
                  encoding="utf-8").read()
    for theme in THEMES:
        prof = write("footer-%s.yaml" % theme, sample + "\nlocale:\n  language: german\n"
                     "design:\n  theme: %s\n  page:\n    show_footer: true\n" % theme)
        rc, out, err = run([BIN, "--dump", prof])
        pages = read_dump(out) if rc == 0 else []
        foot = [pg["n"] for pg in pages for r in pg["runs"]
                if "page_footer" in pg["region"] and column_of(pg, r)[0] == "page_footer"
                and r["text"].endswith("%d/%d" % (pg["n"], len(pages)))]
        check("footer %s: show_footer: true prints it on every page" % theme,
              rc == 0 and pages and foot == [pg["n"] for pg in pages], "%s" % foot)
    prof = write("footer-none.yaml", sample + "\ndesign:\n  theme: engineeringresumes\n")
    rc, out, err = run([BIN, "--dump", prof])
    check("footer engineeringresumes: none unless asked",
          rc == 0 and not re.search(r"\d/\d\"", out))


def lines_of_text(name, lay):
    return [ln["text"] for ln in lines_of(dump(profile(name), layout(lay)))]


if __name__ == "__main__":
    sys.exit(testlib.main("typo3", [justified_tests, runt_tests, hyphen_tests, cjk_tests,
                                          sidebar_tests, pull_back_tests,
                                          short_list_tests, bullet_tests,
                                          footer_tests], tmp=TMP))
