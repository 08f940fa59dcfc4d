#!/usr/bin/env python3
"""RenderCV's typography in cvpdf (issue 14): a family per part of the
page, the faces of the themes, small capitals, bold headline and
connections, custom connections' icons.

Usage: tests/rcvfonts.py CVPDF_BINARY [-k PATTERN] [--list]

Each feature is checked where a reader sees it: the faces pdffonts lists
and the --dump text names, the text pdftotext reads back, and the ink of
page 1 rasterised with pdftoppm.  The last line is "rcvfonts: N passed,
M failed".
"""
import os
import re
import subprocess
import sys
import tempfile

import testlib
from testlib import BIN, ROOT, check, read_dump, run

TMP = tempfile.mkdtemp(prefix="cvpdf-rcvfonts-")
SAMPLE = os.path.join(ROOT, "tests", "data", "rendercv", "sample.yaml")


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def sample_with(design, extra_connections=""):
    """The sample profile with `design` (YAML text under design:) and more
    custom connections (YAML list items, indented as the sample's)."""
    with open(SAMPLE, encoding="utf-8") as f:
        text = f.read()
    if extra_connections:
        text = text.replace("  sections:\n", extra_connections + "  sections:\n", 1)
    return text + "design:\n" + "".join("  " + l + "\n" for l in design.splitlines())


def dump(text, name):
    """(exit status, runs, stderr): the runs of testlib.read_dump, each with
    its page; face is the font as the dump writes it ("+bold" and all)."""
    prof = write(name + ".yaml", text)
    rc, out, err = run([BIN, "--dump", prof])
    runs = [{"x": r["x"], "y": r["y"], "w": r["w"], "face": r["font"], "size": r["size"],
             "color": r["color"], "text": r["text"], "page": pg["n"]}
            for pg in read_dump(out) for r in pg["runs"]]
    return rc, runs, err


def render(text, name):
    prof = write(name + ".yaml", text)
    pdf = os.path.join(TMP, name + ".pdf")
    rc, _, err = run([BIN, "-o", pdf, prof])
    return rc, pdf, err


def fonts(pdf):
    """The base font names pdffonts lists, without their subset tags."""
    rc, out, _ = run(["pdffonts", pdf])
    return [l.split()[0].split("+", 1)[-1] for l in out.splitlines()[2:] if l.strip()]


def text_of(pdf):
    return " ".join(run(["pdftotext", pdf, "-"])[1].split())


def find(runs, text):
    return next((r for r in runs if text in r["text"]), None)


def line_of(runs, r):
    """The runs on the line of run r, left to right."""
    return sorted((x for x in runs if x["page"] == r["page"] and abs(x["y"] - r["y"]) < 0.01),
                  key=lambda x: x["x"])


DPI = 300


def raster(pdf, name):
    """Page 1 in grey at DPI: (width, height, bytes)."""
    base = os.path.join(TMP, name)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-f", "1", "-l", "1", "-gray", pdf, base],
                   check=True)
    path = next(os.path.join(TMP, f) for f in sorted(os.listdir(TMP))
                if f.startswith(name + "-") and f.endswith(".pgm"))
    with open(path, "rb") as f:
        data = f.read()
    os.remove(path)
    parts = data.split(maxsplit=4)
    return int(parts[1]), int(parts[2]), parts[4]


def ink_height(img, page_h, x0, x1, y, above=40, below=12):
    """Rows with ink between x0 and x1 (points) within `above` points over
    baseline y and `below` under it: (top, bottom) in pixels, or None."""
    w, h, px = img
    k = DPI / 72
    c0, c1 = int(x0 * k) + 1, int(x1 * k) - 1
    r0, r1 = int((page_h - y - above) * k), int((page_h - y + below) * k)
    rows = [r for r in range(max(r0, 0), min(r1, h))
            if any(px[r * w + c] < 128 for c in range(max(c0, 0), min(c1, w)))]
    return (rows[0], rows[-1]) if rows else None


def split_first(img, page_h, x0, x1, y, above, below):
    """The ink heights (top, bottom) of the first glyph between x0 and x1
    (up to the first blank column after ink) and of the rest, or Nones."""
    w, h, px = img
    k = DPI / 72
    c0, c1 = int(x0 * k), int(x1 * k) + 1
    r0, r1 = int((page_h - y - above) * k), int((page_h - y + below) * k)
    cols = [any(px[r * w + c] < 128 for r in range(r0, r1)) for c in range(c0, c1)]
    try:
        first = cols.index(True)
        gap = cols.index(False, first)
        nxt = cols.index(True, gap)
    except ValueError:
        return None, None
    x_at = lambda c: (c0 + c) / k
    return (ink_height(img, page_h, x_at(first), x_at(gap), y, above, below),
            ink_height(img, page_h, x_at(nxt), x1, y, above, below))


# ---- A family per part of the page -----------------------------------------

def roles_test():
    """typography.font_family as a mapping gives the name, headline,
    connections and section titles their own faces (header.name_font ...),
    embedded; one family (a string) is every part's."""
    design = ("theme: classic\ntypography:\n  font_family:\n    body: Lato\n"
              "    name: EB Garamond\n    headline: Gentium Book Plus\n"
              "    connections: DejaVu Serif\n    section_titles: New Computer Modern\n")
    rc, runs, err = dump(sample_with(design), "roles")
    check("roles: renders", rc == 0, err)
    if rc:
        return
    want = {"Marguerite Okonkwo": "EBGaramond", "Reliability engineer": "GentiumBookPlus",
            "marguerite@example.org": "DejaVuSerif", "Experience": "CMUSerif",
            "Halved incident": "Lato"}
    for text, face in want.items():
        r = find(runs, text)
        check("roles: %r in %s" % (text, face), r and r["face"].startswith(face), r)
    rc, pdf, err = render(sample_with(design), "roles")
    got = fonts(pdf) if rc == 0 else []
    for face in ("EBGaramond12-Bold", "GentiumBookPlus", "DejaVuSerif", "CMUSerif-Bold",
                 "Lato-Regular"):
        check("roles: pdffonts lists %s, embedded" % face,
              any(f.startswith(face) for f in got), got)
    # The theme's own: ember's name and headline in Gentium Book Plus...
    rc, pdf, err = render(sample_with("theme: ember"), "ember")
    got = fonts(pdf) if rc == 0 else []
    check("roles: ember's name in Gentium Book Plus Bold, its body in Ubuntu",
          "GentiumBookPlus-Bold" in got and "Ubuntu-Regular" in got, got)
    # ... and one family for all of them.
    rc, runs, err = dump(sample_with("theme: ember\ntypography:\n  font_family: Lato"),
                         "ember-lato")
    name = find(runs, "Marguerite Okonkwo")
    check("roles: one font_family is the name's too (over ember's Gentium)",
          rc == 0 and name and name["face"] == "Lato-Bold", name)
    # A design's family that is not installed: a warning (one, for every part
    # it names), as Typst's, and the theme's faces stand in.
    rc, runs, err = dump(sample_with("theme: ember\ntypography:\n  font_family: No Such Face"),
                         "ember-nope")
    name = find(runs, "Marguerite Okonkwo")
    check("roles: a design family not installed is one warning, the theme's faces stay",
          rc == 0 and err.count("warning: no font of family 'No Such Face'") == 1 and
          name and name["face"].startswith("GentiumBookPlus"), (err, name))
    # The same family named for each part (a mapping): one warning too.
    rc, runs, err = dump(sample_with("theme: ember\ntypography:\n  font_family:\n"
                                     "    body: No Such Face\n    name: No Such Face\n"
                                     "    section_titles: No Such Face"), "ember-nope-parts")
    check("roles: one family not installed, named for three parts, is one warning",
          rc == 0 and err.count("warning: no font of family 'No Such Face'") == 1, err)
    # A layout names the families directly; an unknown one is an error at it.
    lay = write("roles-layout.yaml", "extends: %s\nsection_title:\n  font: Gentium Plus\n"
                % os.path.join(ROOT, "layouts", "classic.yaml"))
    rc, out, err = run([BIN, "--dump", "-l", lay, SAMPLE])
    check("roles: section_title.font in a layout",
          rc == 0 and re.search(r'GentiumPlus\S* \S+ #\S+ "Experience"', out), err)
    lay = write("roles-bad.yaml", "extends: classic\nheader:\n  name_font: [1, 2]\n")
    rc, out, err = run([BIN, "--dump", "-l", lay, SAMPLE])
    check("roles: a family that is not a string is an error at its line",
          rc == 1 and "roles-bad.yaml:3:14: error" in err, err)


# ---- The faces of the themes --------------------------------------------------

def faces_test():
    """Each theme's faces, as pdffonts lists them: RenderCV's, from Debian
    (EB Garamond, Lato, Gentium Book Plus) or fonts/ (Source Sans 3, Raleway,
    Ubuntu, XCharter), else the stand-in docs/rendercv.md names (CMU Serif
    for New Computer Modern, Source Sans 3 for Fontin)."""
    want = {"classic": ["SourceSans3-Regular", "SourceSans3-Bold"],
            "engineeringresumes": ["XCharter-Roman"],
            "engineeringclassic": ["Raleway-Regular"],
            "sb2nov": ["CMUSerif-Roman"],
            "moderncv": ["SourceSans3-Regular"],
            "harvard": ["XCharter-Roman"],
            # EB Garamond's styles from one optical size (12, not 08's italic).
            "ink": ["EBGaramond12-Regular", "EBGaramond12-Bold", "EBGaramond12-Italic"],
            "opal": ["Lato-Regular"],
            "ember": ["Ubuntu-Regular", "GentiumBookPlus-Bold"]}
    for theme, faces in want.items():
        rc, pdf, err = render(sample_with("theme: %s" % theme), "face-" + theme)
        got = fonts(pdf) if rc == 0 else []
        check("faces: %s embeds %s" % (theme, ", ".join(faces)),
              all(any(f == g or f.startswith(g + "-") or f == g for f in got) or g in got
                  for g in faces), got)
    # Every family RenderCV offers is accepted: its own face where Debian
    # packages it, else the stand-in.
    offered = {"Libertinus Serif": "EBGaramond", "New Computer Modern": "CMUSerif",
               "DejaVu Sans Mono": "DejaVuSansMono", "Mukta": "NotoSans",
               "Open Sans": "Lato", "Gentium Book Plus": "GentiumBookPlus",
               "Noto Sans": "NotoSans", "Lato": "Lato", "Source Sans 3": "SourceSans3",
               "EB Garamond": "EBGaramond", "Open Sauce Sans": "Lato",
               "Fontin": "SourceSans3", "Roboto": "Lato", "Ubuntu": "Ubuntu",
               "Poppins": "Lato", "Raleway": "Raleway", "XCharter": "XCharter"}
    for family, face in offered.items():
        rc, runs, err = dump(sample_with("theme: classic\ntypography:\n  font_family: %s"
                                         % family), "offered")
        r = find(runs, "Halved incident")
        check("faces: RenderCV's %s is set in %s" % (family, face),
              rc == 0 and r and r["face"].startswith(face), (r, err[-200:]))
    # EB Garamond is embedded with its CFF outlines (pdffonts: CID Type 0C).
    rc, out, _ = run(["pdffonts", os.path.join(TMP, "face-ink.pdf")])
    check("faces: ink's EB Garamond is CFF (CID Type 0C)",
          any("EBGaramond12-Regular" in l and "Type 0C" in l for l in out.splitlines()), out)
    # A character EB Garamond's bold lacks comes from its regular face,
    # emboldened, not from a fallback family.
    prof = sample_with("theme: ink").replace("Harborlight Data", "Boğaziçi Data")
    rc, runs, err = dump(prof, "ink-g")
    g = find(runs, "ğ")
    check("faces: ink's bold ğ from EB Garamond, emboldened",
          rc == 0 and g and g["face"].startswith("EBGaramond12-Regular+bold"), g)


# ---- Small capitals -----------------------------------------------------------

def small_caps_test():
    """small_caps: lowercase letters drawn as small capitals -- the face's
    own (EB Garamond, CMU Serif, Gentium) or capitals set smaller where it
    has none (Lato) -- shorter than the capitals, taller than the x-height,
    and read back as written."""
    cases = [
        # (what, design with small caps, the same without)
        ("ink (EB Garamond's own, emboldened)", "theme: ink",
         "theme: ink\ntypography:\n  small_caps:\n    section_titles: false"),
        ("classic (Source Sans 3's own)",
         "theme: classic\ntypography:\n  small_caps:\n    section_titles: true",
         "theme: classic"),
        ("opal (Lato: synthesised)",
         "theme: opal\ntypography:\n  small_caps:\n    section_titles: true",
         "theme: opal\ntypography:\n  small_caps:\n    section_titles: false"),
        ("sb2nov (CMU Serif's own)",
         "theme: sb2nov\ntypography:\n  small_caps:\n    section_titles: true",
         "theme: sb2nov"),
    ]
    for what, on, off in cases:
        tag = re.sub(r"\W+", "-", what.split()[0])
        rc, runs, err = dump(sample_with(on), "sc-" + tag)
        rc2, runs0, err2 = dump(sample_with(off), "sc0-" + tag)
        if not check("small caps %s: renders" % what, rc == 0 and rc2 == 0, err + err2):
            continue
        # "Honors": H then o, n, o, r, s -- no ascender or descender.
        h = next((r for r in runs if r["text"].startswith("H") and
                  "".join(x["text"] for x in line_of(runs, r)).strip() == "Honors"), None)
        h0 = next((r for r in runs0 if r["text"].strip() == "Honors"), None)
        if not check("small caps %s: the title reads 'Honors' in the dump" % what,
                     h and h0, [r["text"] for r in runs if "onors" in r["text"]]):
            continue
        line = line_of(runs, h)
        rest = [r for r in line if r is not h]
        rc, pdf, err = render(sample_with(on), "sc-" + tag)
        rc2, pdf0, err2 = render(sample_with(off), "sc0-" + tag)
        txt = text_of(pdf)
        check("small caps %s: pdftotext reads 'Honors' and 'Experience'" % what,
              "Honors" in txt and "Experience" in txt and "HONORS" not in txt and
              "EXPERIENCE" not in txt, txt[:300])
        page_h = 792
        img, img0 = raster(pdf, "sc-" + tag), raster(pdf0, "sc0-" + tag)
        # The capital H's ink, the small capitals' ink, and the same
        # lowercase letters' ink without small capitals (the x-height).
        # A window of the title's size above its baseline ("Honors" has no
        # descender, and nothing else is that near), cut after the H's ink.
        a, b = h["size"] * 0.95, h["size"] * 0.08
        x1 = line[-1]["x"] + line[-1]["w"]
        hh, sc = split_first(img, page_h, h["x"], x1, h["y"], a, b)
        _, xh = split_first(img0, page_h, h0["x"], h0["x"] + h0["w"], h0["y"], a, b)
        if not check("small caps %s: ink found" % what, hh and sc and xh, (hh, sc, xh)):
            continue
        cap, small, x = hh[1] - hh[0], sc[1] - sc[0], xh[1] - xh[0]
        check("small caps %s: lowercase letters' ink (%d px) below the capital's (%d) and "
              "above the x-height (%d)" % (what, small, cap, x),
              x * 1.05 < small < cap * 0.93, (x, small, cap))
        # Their bottoms on the baseline, like the capital's.
        check("small caps %s: on the baseline" % what, abs(sc[1] - hh[1]) <= 3, (sc, hh))
    # A CFF face with no small capitals (Latin Modern): the capitals drawn
    # for lowercase letters come from a second font of the same face, so
    # their codes read as the letters, not as the capitals drawn elsewhere.
    lay = write("sc-lm.yaml", "extends: %s\nsection_title:\n  font: Latin Modern Roman\n"
                "  small_caps: true\n  bold: false\n"
                % os.path.join(ROOT, "layouts", "classic.yaml"))
    pdf = os.path.join(TMP, "sc-lm.pdf")
    rc, _, err = run([BIN, "-l", lay, "-o", pdf, SAMPLE])
    txt = text_of(pdf) if rc == 0 else ""
    lm = [l for l in run(["pdffonts", pdf])[1].splitlines() if "LMRoman" in l]
    check("small caps: Latin Modern (CFF, none of its own) reads 'Experience' and 'Honors'",
          "Experience" in txt and "Honors" in txt and "ExPE" not in txt, txt[:400])
    check("small caps: ... from two fonts of Latin Modern, both CFF",
          len(lm) == 2 and all("Type 0C" in l for l in lm), lm)
    # Ember's headline: Gentium Book Plus's small capitals.
    rc, runs, err = dump(sample_with("theme: ember"), "sc-ember")
    r = find(runs, "Reliability engineer")
    check("small caps: ember's headline as written, in Gentium Book Plus",
          rc == 0 and r and r["face"].startswith("GentiumBookPlus"), r)
    rc, pdf, err = render(sample_with("theme: ember"), "sc-ember")
    check("small caps: ember's headline reads 'Reliability engineer'",
          rc == 0 and "Reliability engineer" in text_of(pdf), err)
    # Each part: name, headline, connections.
    design = ("theme: opal\ntypography:\n  small_caps:\n    name: true\n"
              "    headline: true\n    connections: true")
    rc, runs, err = dump(sample_with(design), "sc-parts")
    for text, first in (("arguerite", "M"), ("eliability", "R"), ("isbon", "L")):
        r = find(runs, text)
        before = r and [x for x in line_of(runs, r) if x["x"] < r["x"]]
        check("small caps: %s%s... set smaller than its capital (synthesised in Lato)"
              % (first, text[:4]),
              r and before and before[-1]["text"].endswith(first) and
              r["size"] < before[-1]["size"] * 0.85, (r, before and before[-1]))


# ---- Bold headline and connections --------------------------------------------

def bold_test():
    """typography.bold.headline and .connections (header.headline_bold,
    header.contact_bold)."""
    rc, runs0, _ = dump(sample_with("theme: classic"), "bold0")
    rc, runs, err = dump(sample_with("theme: classic\ntypography:\n  bold:\n"
                                     "    headline: true\n    connections: true"), "bold")
    for text in ("Reliability engineer", "marguerite@example.org"):
        r, r0 = find(runs, text), find(runs0, text)
        check("bold: %r bold with the option, regular without" % text,
              r and r0 and r["face"] == "SourceSans3-Bold" and r0["face"] == "SourceSans3-Regular",
              (r, r0))
    rc, pdf, err = render(sample_with("theme: ink\ntypography:\n  bold:\n    headline: true"),
                          "bold-ink")
    check("bold: ink's bold headline embeds EB Garamond Bold",
          rc == 0 and "EBGaramond12-Bold" in fonts(pdf), err)


# ---- Custom connections' icons --------------------------------------------------

def icons_test():
    """custom_connections' fontawesome_icon: the Fork Awesome glyph of that
    Font Awesome name (a Font Awesome 6 name mapped to its 4.7 one, a
    "fa-" prefix or style word allowed); an unknown name, the link icon
    and a warning naming it."""
    more = ("    - placeholder: Teaching\n      url: https://teach.example.org\n"
            "      fontawesome_icon: fa-solid fa-graduation-cap\n"
            "    - placeholder: Elsewhere\n      url: https://else.example.org\n"
            "      fontawesome_icon: no-such-icon\n")
    text = sample_with("theme: classic", more)
    rc, runs, err = dump(text, "cicons")
    check("icons: an unknown icon is a warning naming it",
          rc == 0 and re.search(r"cicons\.yaml:\d+:\d+: warning: no icon named 'no-such-icon'",
                                err), err)
    # RenderCV's own icons: an outlined envelope, LinkedIn's square logo.
    want = {"Office hours": "\uf073", "Teaching": "\uf19d", "Elsewhere": "\uf0c1",
            "marguerite@example.org": "\uf003"}
    for label, glyph in want.items():
        r = find(runs, label)
        before = r and [x for x in line_of(runs, r) if x["x"] < r["x"]]
        check("icons: %r after U+%04X in Fork Awesome" % (label, ord(glyph)),
              before and before[-1]["face"] == "forkawesome" and before[-1]["text"] == glyph,
              before and before[-1])
    rc, pdf, err = render(text, "cicons")
    r = run(["pdffonts", pdf])
    check("icons: Fork Awesome embedded",
          any("forkawesome" in l and " yes " in l for l in r[1].splitlines()), r[1])
    # The calendar's ink, rasterised, left of "Office hours".
    cal = find(runs, "\uf073")
    if cal:
        img = raster(pdf, "cicons")
        ink = ink_height(img, 792, cal["x"], cal["x"] + cal["w"], cal["y"], above=12, below=4)
        check("icons: the calendar has ink", ink and ink[1] - ink[0] > 15, ink)


def figures_test():
    """font.lining_figures (ink): EB Garamond's lining figures, all on the
    baseline, where its default old-style 3, 4, 5, 7 and 9 descend below
    it; the text reads the same digits either way."""
    prof = write("fig.yaml", sample_with("theme: ink"))
    lay = write("fig-oldstyle.yaml", "extends: ink\nfont:\n  lining_figures: false\n")
    got = {}
    for tag, args in (("lining", []), ("oldstyle", ["-l", lay])):
        rc, out, err = run([BIN, "--dump", prof] + args)
        pages = read_dump(out)
        runs = pages[0]["runs"] if pages else []
        date = next((r for r in runs if re.fullmatch(r"[A-Z][a-z]+ \d{4}", r["text"]) and
                     re.search(r"[34579]", r["text"])), None)
        pdf = os.path.join(TMP, "fig-%s.pdf" % tag)
        rc2, _, err2 = run([BIN, "-o", pdf, prof] + args)
        if not check("figures %s: renders, a date with a 3, 4, 5, 7 or 9 on page 1" % tag,
                     rc == 0 and rc2 == 0 and date, err + err2):
            return
        x, y, w, size = date["x"], date["y"], date["w"], date["size"]
        img = raster(pdf, "fig-" + tag)
        # The year only: the part after the month's width, measured by ink.
        ink = ink_height(img, 792, x + w * 0.45, x + w, y, above=size, below=size * 0.4)
        got[tag] = (ink, round(y * DPI / 72), date["text"], text_of(pdf))
    if len(got) < 2:
        return
    (on, base_on, d_on, t_on), (off, base_off, d_off, t_off) = got["lining"], got["oldstyle"]
    page_h = round(792 * DPI / 72)
    check("figures: lining figures end on the baseline (ink to %s, baseline %d)"
          % (on and page_h - on[1], base_on), on and abs((page_h - on[1]) - base_on) <= 2, on)
    check("figures: old-style ones descend below it (ink to %s, baseline %d)"
          % (off and page_h - off[1], base_off),
          off and base_off - (page_h - off[1]) >= 4, off)
    check("figures: pdftotext reads the same digits either way",
          d_on in t_on and d_off in t_off and re.findall(r"\d", t_on) == re.findall(r"\d", t_off),
          (d_on, d_off))


if __name__ == "__main__":
    sys.exit(testlib.main("rcvfonts", [roles_test, faces_test, small_caps_test, bold_test,
                                       icons_test, figures_test], tmp=TMP))
