#!/usr/bin/env python3
"""RenderCV and JSON Resume files (issue 14): themes, design options, the
content model, JSON Resume.

Usage: tests/rendercv.py CVPDF_BINARY [-k PATTERN] [--list]

Our own profiles (tests/data/rendercv/, tests/data/resume.json) are
rendered in each of RenderCV's nine themes and with each design option;
each option is checked where it shows: the --dump text (positions, faces,
sizes, colours), the PDF read back with pdftotext and pdfinfo, and page 1
rasterised with pdftoppm.  The last line is "rendercv: N passed, M failed".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import testlib
from testlib import BIN, ROOT, check, run

TMP = tempfile.mkdtemp(prefix="cvpdf-rendercv-")
DATA = os.path.join(ROOT, "tests", "data", "rendercv")
SAMPLE = os.path.join(DATA, "sample.yaml")
THEMES = ["classic", "engineeringresumes", "engineeringclassic", "sb2nov", "moderncv",
          "harvard", "ink", "opal", "ember"]
# What a reader takes each theme by: the name's colour and face, and
# whether section titles are capitals (from RenderCV's theme definitions and
# its PDFs: ink's are small capitals, opal's and ember's faces have none, so
# they are as written; tests/rcvfonts.py checks the small capitals).
LOOK = {
    "classic": ("#004f90", "SourceSans3", False),
    "engineeringresumes": ("#000000", "XCharter", False),
    "engineeringclassic": ("#004f90", "Raleway", False),
    "sb2nov": ("#000000", "CMUSerif", False),
    "moderncv": ("#004f90", "SourceSans3", False),
    "harvard": ("#000000", "XCharter", False),
    "ink": ("#2a1852", "EBGaramond", False),
    "opal": ("#00645a", "Lato", False),
    "ember": ("#9b2319", "GentiumBookPlus", False),
}


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def sample_with(design):
    """The sample profile with `design` (YAML text under design:)."""
    with open(SAMPLE, encoding="utf-8") as f:
        text = f.read()
    return text + "design:\n" + "".join("  " + l + "\n" for l in design.splitlines())


def render(text, name, *extra):
    prof = write(name + ".yaml", text)
    pdf = os.path.join(TMP, name + ".pdf")
    rc, _, err = run([BIN, "-o", pdf, prof] + list(extra))
    return rc, pdf, err


def dump(text, name, *extra):
    prof = write(name + ".yaml", text)
    rc, out, err = run([BIN, "--dump", prof] + list(extra))
    d = testlib.read_dump(out)
    pages = [(pg["w"], pg["h"]) for pg in d]
    runs = [{"x": r["x"], "y": r["y"], "w": r["w"], "face": r["font"], "size": r["size"],
             "color": r["color"], "text": r["text"], "page": pg["n"]}
            for pg in d for r in pg["runs"]]
    return rc, runs, pages, out, err


def text_of(pdf):
    rc, out, _ = run(["pdftotext", "-layout", pdf, "-"])
    return out


def find(runs, text):
    return next((r for r in runs if text in r["text"]), None)


def ink(pdf, rgb, tol=40):
    """Pixels of page 1 (at 40 dpi) within `tol` of colour rgb."""
    base = os.path.join(TMP, "ink")
    subprocess.run(["pdftoppm", "-r", "40", "-f", "1", "-l", "1", pdf, base],
                   check=True)
    path = next(os.path.join(TMP, f) for f in sorted(os.listdir(TMP))
                if f.startswith("ink") and f.endswith(".ppm"))
    with open(path, "rb") as f:
        data = f.read()
    os.remove(path)
    # P6 header: magic, width, height, maxval, each followed by whitespace.
    parts = data.split(maxsplit=4)
    px = parts[4]
    n = 0
    for i in range(0, len(px) - 2, 3):
        if abs(px[i] - rgb[0]) < tol and abs(px[i + 1] - rgb[1]) < tol and \
                abs(px[i + 2] - rgb[2]) < tol:
            n += 1
    return n


WORDS = ["Marguerite Okonkwo", "Harborlight Data", "Principal Engineer", "moved 3 PB",
         "University of Coimbra", "Quiet Failovers in Practice", "tidecheck",
         "Lag-aware leader election", "Taming replication lag", "Office hours",
         "m.okonkwo@example.net", "blog.example.org", "strace"]


def title_y(runs):
    """The baseline of the Experience section's title (its bookmark)."""
    xs = [r for r in runs if r["page"] == 1 and r["text"].strip() in ("E", "EXPERIENCE",
                                                                       "Experience")]
    return xs[0]["y"] if xs else None


def themes_test():
    """Each theme renders the sample with every word, in its look; -l
    layouts/THEME.yaml is the same look as design: {theme: THEME}."""
    for theme in THEMES:
        rc, pdf, err = render(sample_with("theme: %s" % theme), "theme-" + theme)
        check("%s: renders" % theme, rc == 0, err)
        if rc:
            continue
        txt = " ".join(text_of(pdf).split())
        missing = [w for w in WORDS if w not in txt]
        check("%s: every word is in the PDF" % theme, not missing, missing)
        rc, runs, pages, out, err = dump(sample_with("theme: %s" % theme), "theme-" + theme)
        color, face, caps = LOOK[theme]
        name = find(runs, "Marguerite Okonkwo")
        check("%s: the name in %s, %s" % (theme, color, face),
              name and name["color"] == color and name["face"].startswith(face),
              name)
        # A title in small capitals is runs of two faces or sizes: the line's text.
        line = "".join(r["text"] for r in runs if title_y(runs) is not None and
                       r["page"] == 1 and abs(r["y"] - title_y(runs)) < 0.01)
        title = find(runs, "EXPERIENCE" if caps else "Experience") or \
            ("Experience" == line.strip() and not caps and line) or None
        check("%s: section titles %s" % (theme, "in capitals" if caps else "as written"),
              title is not None, [r["text"] for r in runs][:12])
        check("%s: US Letter as in RenderCV" % theme,
              pages and abs(pages[0][0] - 612) < 0.1 and abs(pages[0][1] - 792) < 0.1, pages)
        # The same look from -l, on a profile without design:.
        rc2, runs2, _, _, _ = dump(open(SAMPLE, encoding="utf-8").read(), "l-" + theme, "-l",
                                   os.path.join(ROOT, "layouts", theme + ".yaml"))
        name2 = find(runs2, "Marguerite Okonkwo")
        check("%s: -l layouts/%s.yaml gives the same name line" % (theme, theme),
              name2 and name and (name2["face"], name2["size"], name2["color"]) ==
              (name["face"], name["size"], name["color"]), (name, name2))
        date, company = find(runs, "Feb 2021"), find(runs, "Harborlight")
        if theme == "moderncv":
            check("moderncv: the dates in a column left of the entries",
                  date and company and date["x"] + date["w"] < company["x"], (date, company))
        else:
            check("%s: the dates right of the entries" % theme,
                  date and company and date["x"] > company["x"] + company["w"], (date, company))
        rgb = tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))
        if color != "#000000":
            check("%s: page 1 has ink of the theme's colour" % theme, ink(pdf, rgb) > 50)


def options_test():
    """Each design option takes effect over the theme."""
    base = dump(sample_with("theme: classic"), "opt-base")[1]
    cases = [
        ("page.size a4", "page:\n  size: a4",
         lambda runs, pages: abs(pages[0][0] - 595.28) < 0.1),
        ("page.left_margin 2in", "page:\n  left_margin: 2in",
         lambda runs, pages: abs(find(runs, "Harborlight")["x"] - 144 - 5.67) < 0.5),
        ("page.show_footer false", "page:\n  show_footer: false",
         lambda runs, pages: not find(runs, "/2") and not find(runs, "1/")),
        ("page.show_top_note false", "page:\n  show_top_note: false",
         lambda runs, pages: not find(runs, "Last updated")),
        ("colors.name", "colors:\n  name: rgb(10, 200, 30)",
         lambda runs, pages: find(runs, "Marguerite Okonkwo")["color"] == "#0ac81e"),
        ("colors.body", "colors:\n  body: rgb(60, 60, 60)",
         lambda runs, pages: find(runs, "Halved incident")["color"] == "#3c3c3c"),
        ("colors.section_titles", "colors:\n  section_titles: rgb(200, 0, 0)",
         lambda runs, pages: find(runs, "Experience")["color"] == "#c80000"),
        ("colors.links", "colors:\n  links: rgb(0, 128, 0)",
         lambda runs, pages: find(runs, "tidecheck") is not None),
        ("colors.footer", "colors:\n  footer: rgb(1, 2, 3)",
         lambda runs, pages: find(runs, "1/")["color"] == "#010203"),
        ("colors.top_note", "colors:\n  top_note: rgb(3, 2, 1)",
         lambda runs, pages: find(runs, "Last updated")["color"] == "#030201"),
        ("typography.font_family", "typography:\n  font_family: New Computer Modern",
         lambda runs, pages: find(runs, "Halved")["face"].startswith("CMUSerif")),
        ("typography.font_size.body", "typography:\n  font_size:\n    body: 12pt",
         lambda runs, pages: find(runs, "Halved")["size"] == 12),
        ("typography.font_size.name", "typography:\n  font_size:\n    name: 40pt",
         lambda runs, pages: find(runs, "Marguerite")["size"] == 40),
        ("typography.font_size.section_titles em", "typography:\n  font_size:\n"
         "    section_titles: 2em",
         lambda runs, pages: find(runs, "Experience")["size"] == 20),
        ("typography.bold.name false", "typography:\n  bold:\n    name: false",
         lambda runs, pages: "Bold" not in find(runs, "Marguerite")["face"]),
        ("typography.line_spacing", "typography:\n  line_spacing: 1.2em",
         lambda runs, pages: gap(runs, "Halved", "Led the") >
         gap(base, "Halved", "Led the") + 4),
        # RenderCV's default written out is the theme's own (cap height + 0.6em).
        ("typography.line_spacing 0.6em is classic's", "typography:\n  line_spacing: 0.6em",
         lambda runs, pages: abs(gap(runs, "Halved", "Led the") -
                                 gap(base, "Halved", "Led the")) < 0.01),
        ("header.alignment left", "header:\n  alignment: left",
         lambda runs, pages: abs(find(runs, "Marguerite")["x"] - 50.4) < 0.5),
        ("header.connections.separator", "header:\n  connections:\n    separator: '|'",
         lambda runs, pages: find(runs, "  |  ") is not None),
        ("header.connections.show_icons (classic: on)", "theme: classic",
         lambda runs, pages: any(r["face"] == "forkawesome" for r in runs) and
         find(runs, "\uf09b") is not None and find(runs, "GitHub:") is None),
        ("header.connections.show_icons false", "header:\n  connections:\n    show_icons: false",
         lambda runs, pages: not any(r["face"] == "forkawesome" for r in runs) and
         find(runs, "mokonkwo") is not None and find(runs, "GitHub:") is None),
        ("header.connections.display_urls_instead_of_usernames",
         "header:\n  connections:\n    show_icons: false\n"
         "    display_urls_instead_of_usernames: true",
         lambda runs, pages: find(runs, "github.com/mokonkwo") and not find(runs, "GitHub:")),
        ("colors.connections", "colors:\n  connections: rgb(9, 99, 9)",
         lambda runs, pages: find(runs, "marguerite@example.org")["color"] == "#096309"),
        ("header.connections.phone_number_format E164",
         "header:\n  connections:\n    phone_number_format: E164",
         lambda runs, pages: find(runs, "+351912345678") is not None),
        ("phone_number_format national (default)", "theme: classic",
         lambda runs, pages: find(runs, "912 345 678") is not None),
        ("section_titles.type centered_without_line",
         "section_titles:\n  type: centered_without_line",
         lambda runs, pages: abs(find(runs, "Experience")["x"] + find(runs, "Experience")["w"] / 2
                                 - 306) < 1),
        ("section_titles.space_above", "section_titles:\n  space_above: 2cm",
         lambda runs, pages: gap(runs, "Keeps distributed", "Experience") >
         gap(base, "Keeps distributed", "Experience") + 20),
        ("sections.space_between_regular_entries",
         "sections:\n  space_between_regular_entries: 1in",
         lambda runs, pages: gap(runs, "Built the on-call", "University of Coimbra") < 0 or
         gap(runs, "retired the legacy", "Quayside") > gap(base, "retired the legacy",
                                                           "Quayside") + 40),
        ("sections.show_time_spans_in", "sections:\n  show_time_spans_in: [education]",
         lambda runs, pages: find(runs, "1 year 11 months") and not find(runs, "5 years")),
        ("time spans in experience by default (classic)", "theme: classic",
         lambda runs, pages: find(runs, "3 years 5 months") is not None),
        ("entries.highlights.bullet", "entries:\n  highlights:\n    bullet: ★",
         lambda runs, pages: find(runs, "★") is not None),
        ("entries.short_second_row false", "entries:\n  short_second_row: false",
         lambda runs, pages: right_edge(runs, "Built the on-call") >
         right_edge(base, "Built the on-call") + 80),
        ("entries.date_and_location_width", "entries:\n  date_and_location_width: 8cm",
         lambda runs, pages: right_edge(runs, "Built the on-call") <
         right_edge(base, "Built the on-call") - 80),
        ("templates.footer", "templates:\n  footer: 'Page PAGE_NUMBER of TOTAL_PAGES'",
         lambda runs, pages: find(runs, "Page 1 of") is not None),
        ("templates.top_note", "templates:\n  top_note: 'As of CURRENT_DATE'",
         lambda runs, pages: find(runs, "As of Mar 2026") is not None),
        ("templates.experience_entry with an extra key",
         "templates:\n  experience_entry:\n    main_column: \"**COMPANY** (HEADCOUNT)\\n"
         "HIGHLIGHTS\"",
         lambda runs, pages: find(runs, "(14 people)") and find(runs, "(40 people)")),
        ("templates.single_date and date_range",
         "templates:\n  single_date: MONTH_NAME YEAR\n  date_range: START_DATE until END_DATE",
         lambda runs, pages: find(runs, "September 2017 until") is not None),
        ("typography.alignment left", "typography:\n  alignment: left",
         lambda runs, pages: right_edge(runs, "Built the on-call") <
         right_edge(base, "Built the on-call") - 1),
        # moderncv section titles put the dates left of the whole entry,
        # whatever the theme and short_second_row say (RenderCV 2.0 to 2.8).
        ("section_titles.type moderncv: the dates on the left",
         "section_titles:\n  type: moderncv",
         lambda runs, pages: find(runs, "Feb 2021")["x"] < find(runs, "Harborlight")["x"]),
        ("moderncv with short_second_row false: the dates still on the left",
         "theme: moderncv\nentries:\n  short_second_row: false",
         lambda runs, pages: find(runs, "Feb 2021")["x"] < find(runs, "Harborlight")["x"]),
        ("moderncv with section_titles.type with_full_line: the dates on the right",
         "theme: moderncv\nsection_titles:\n  type: with_full_line",
         lambda runs, pages: find(runs, "Feb 2021")["x"] > find(runs, "Harborlight")["x"]),
    ]
    for name, design, ok in cases:
        text = sample_with(design if design.startswith("theme") else "theme: classic\n" + design)
        rc, runs, pages, out, err = dump(text, "opt")
        try:
            good = rc == 0 and bool(ok(runs, pages))
        except (TypeError, KeyError, IndexError) as e:
            good = False
            err += " (%s)" % e
        check("design option %s takes effect" % name, good, err[-300:])


def icons_test():
    """The connections' icons: Fork Awesome embedded as a font every reader
    opens (fontconfig also lists its .woff and .woff2, which must not be
    what is embedded), its glyphs drawn where the dump puts them."""
    rc, runs, pages, out, err = dump(sample_with("theme: classic"), "icons")
    icons = [r for r in runs if r["face"] == "forkawesome"]
    check("icons: the dump sets Fork Awesome glyphs", rc == 0 and len(icons) >= 3, err)
    rc, pdf, err = render(sample_with("theme: classic"), "icons")
    if not check("icons: renders", rc == 0, err) or not icons:
        return
    r = run(["pdffonts", pdf])
    check("icons: pdffonts lists forkawesome, embedded",
          any("forkawesome" in l and " yes " in l for l in r[1].splitlines()), r[1] + r[2])
    # The embedded program itself: mutool extracts it, a TrueType file
    # (sfnt version 0x00010000) of more than a table directory.
    xdir = os.path.join(TMP, "icons-fonts")
    os.makedirs(xdir, exist_ok=True)
    subprocess.run(["mutool", "extract", os.path.abspath(pdf)], cwd=xdir,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    progs = [os.path.join(xdir, f) for f in os.listdir(xdir) if f.endswith(".ttf")]
    sizes = []
    for p in progs:
        with open(p, "rb") as f:
            head = f.read()
        sizes.append((len(head), head[:4]))
    check("icons: every embedded program is a whole TrueType font",
          len(progs) >= 4 and all(n > 500 and h == b"\0\1\0\0" for n, h in sizes), sizes)
    r = run(["mutool", "draw", "-q", "-o", os.path.join(TMP, "icons-%d.png"), pdf, "1"])
    check("icons: mutool draws page 1 without complaint", r[0] == 0 and
          "error" not in r[2].lower().replace("icc support", ""), r[2])
    # Ink: the icon before the e-mail address, in the connections' colour,
    # rasterised by poppler at 150 dpi (a box left of the address's text).
    mail = find(runs, "marguerite@example.org")
    icon = max((r for r in icons if r["page"] == 1 and r["x"] < mail["x"] and
                abs(r["y"] - mail["y"]) < 1), key=lambda r: r["x"], default=None)
    if not check("icons: an icon before the e-mail address", icon is not None, icons):
        return
    dpi = 150
    k = dpi / 72
    h = pages[0][1]
    x0, y0 = int(icon["x"] * k), int((h - icon["y"] - 10) * k)
    base = os.path.join(TMP, "iconink")
    w = min(icon["w"], mail["x"] - icon["x"] - 0.5)
    r = run(["pdftoppm", "-r", str(dpi), "-f", "1", "-l", "1", "-gray",
             "-x", str(x0), "-y", str(y0), "-W", str(int(w * k)),
             "-H", str(int(13 * k)), pdf, base])
    check("icons: poppler opens every font", r[0] == 0 and "Couldn't" not in r[2] and
          "rror" not in r[2], r[2])
    path = next(os.path.join(TMP, f) for f in os.listdir(TMP)
                if f.startswith("iconink") and f.endswith(".pgm"))
    with open(path, "rb") as f:
        px = f.read().split(maxsplit=4)[4]
    os.remove(path)
    dark = sum(1 for b in px if b < 160)
    check("icons: poppler draws the icon's ink (%d dark pixels)" % dark, dark >= 60, dark)


def last_page_test():
    """RenderCV keeps a near-empty last page, and so does a RenderCV file
    (one with a design: section): src/design.c turns off cvpdf's pull-back
    (pagination.pull_back_last_page) for it.  A profile set in a theme
    with -l pulls the page back, as every shipped layout does (issue 27).
    More and more bullets are added until the rule saves a page."""
    with open(SAMPLE, encoding="utf-8") as f:
        base = f.read()
    head, sep, tail = base.partition("\nsettings:")
    for theme in ("classic", "engineeringresumes"):
        found = None
        for n in range(2, 80, 3):
            prof = head + "\n    more:\n" + "".join(
                "      - bullet: Filler line %d of a longer résumé, long enough to fill one line "
                "of the page.\n" % i for i in range(n)) + sep + tail
            path = write("pull-%s-%d.yaml" % (theme, n), prof)
            rc, out, err = run([BIN, "--explain", "--dump", path, "-l", theme])
            if rc == 0 and re.search(r"last page: .* (\d+) pages -> (\d+)", err + out):
                found = (n, prof, out.count("\npage ") + out.startswith("page "))
                break
        if not check("last page %s: with -l, some length makes cvpdf's rule pull a page back"
                     % theme, found is not None):
            continue
        n, prof, pulled = found
        path = write("keep-%s-%d.yaml" % (theme, n), prof + "\ndesign:\n  theme: %s\n" % theme)
        rc, out, err = run([BIN, "--explain", "--dump", path])
        kept = out.count("\npage ") + out.startswith("page ")
        check("last page %s: a RenderCV file keeps it (%d bullets: %d pages, %d pulled back)"
              % (theme, n, kept, pulled),
              rc == 0 and kept == pulled + 1 and not re.search(r"last page: .* pages ->",
                                                               err + out), err[-300:])


def gap(runs, upper, lower):
    a, b = find(runs, upper), find(runs, lower)
    if not a or not b or a["page"] != b["page"]:
        return -1
    return a["y"] - b["y"]


def right_edge(runs, text):
    """The right edge of the (justified) first line of the paragraph
    starting with text."""
    r = find(runs, text)
    return r["x"] + r["w"]


def rules_test():
    """section_titles.type: the rule under the title, running on from it, or
    none; line_thickness its width."""
    def rules(design):
        rc, runs, pages, out, err = dump(sample_with("theme: classic\n" + design), "rules")
        return [tuple(float(v) for v in l.split()[1:5]) + (float(l.split()[5][2:]),)
                for l in out.splitlines() if l.startswith("rule ")], runs
    r, runs = rules("")
    t = find(runs, "Experience")
    check("with_partial_line (classic): the rule starts after the title, at its middle",
          r and any(x0 > t["x"] + t["w"] and t["y"] < y0 < t["y"] + 10 for x0, y0, _, _, _ in r),
          (r[:3], t))
    r, runs = rules("section_titles:\n  type: with_full_line\n  line_thickness: 2pt")
    t = find(runs, "Experience")
    check("with_full_line: the rule under the title across the measure, 2pt",
          any(abs(x0 - 50.4) < 0.1 and y0 < t["y"] and w == 2 for x0, y0, _, _, w in r), r[:3])
    r, runs = rules("section_titles:\n  type: without_line")
    check("without_line: no rule", not r, r[:3])


def content_test():
    """Nested highlights, extra keys, every email/phone/website, custom
    connections, code, Typst markup, empty sections, a missing name."""
    rc, runs, pages, out, err = dump(sample_with("theme: classic"), "content")
    parent = find(runs, "Led the storage migration")
    sub = find(runs, "moved 3 PB")
    check("nested highlight: its own line, indented under its parent",
          parent and sub and sub["y"] < parent["y"] and sub["x"] > parent["x"] + 5,
          (parent, sub))
    for w in ["marguerite@example.org", "m.okonkwo@example.net", "okonkwo.example.org",
              "blog.example.org", "Office hours"]:
        check("contact %s shown" % w, find(runs, w) is not None)
    code = find(runs, "strace")
    check("`code` in a monospace face", code and "Mono" in code["face"], code)
    text = ("cv:\n  headline: No name here\n  sections:\n    empty: []\n    notes:\n"
            "      - 'A $$x^2$$ formula and #emph[emphasis].'\n")
    rc, runs, pages, out, err = dump(text, "nameless")
    check("a cv without a name renders", rc == 0 and find(runs, "No name here"), err)
    check("an empty section shows its title alone, as in RenderCV",
          (find(runs, "Empty") or find(runs, "EMPTY")) is not None, err)
    check("Typst markup: a warning naming it, set as plain text",
          "Typst markup '$$x^2$$'" in err and find(runs, "A x\u00b2 formula and emphasis."),
          err)
    rc, runs, pages, out, err = dump("cv:\n  name: A\nlocale:\n  language: vietnamese\n",
                                     "vietnamese")
    check("locale.language vietnamese is accepted", rc == 0, err)
    rc, runs, pages, out, err = dump("cv:\n  name: A\nlocale:\n  language: klingon\n", "kl")
    check("an unknown language is a note with its position, not an error",
          rc == 0 and ":4:13: note: unknown language 'klingon'" in err and
          "error" not in err and find(runs, "A") is not None, err)


def settings_test():
    """settings: pdf_title, current_date (today is the clock), the design
    file of render_command, -l over design:."""
    rc, pdf, err = render("cv:\n  name: Ada Byron\nsettings:\n  pdf_title: 'NAME - CV'\n",
                          "title")
    rc2, out, _ = run(["pdfinfo", pdf])
    check("settings.pdf_title is the PDF's title",
          re.search(r"Title: +Ada Byron - CV\n", out), out)
    rc, pdf, err = render("cv:\n  name: Ada Byron\nsettings:\n  pdf_title: 'NAME (MONTH_NAME "
                          "YEAR, DAY_IN_TWO_DIGITS/MONTH_IN_TWO_DIGITS/YEAR_IN_TWO_DIGITS)'\n",
                          "title2", "--date", "2026-03-05")
    rc2, out, _ = run(["pdfinfo", pdf])
    check("settings.pdf_title's date placeholders",
          re.search(r"Title: +Ada Byron \(March 2026, 05/03/26\)\n", out), out)
    env = dict(os.environ)
    env.pop("SOURCE_DATE_EPOCH", None)
    prof = write("today.yaml", "cv:\n  name: A\ndesign:\n  theme: classic\n"
                 "settings:\n  current_date: today\n")
    p = subprocess.run([BIN, "--dump", prof], capture_output=True, env=env)
    import datetime
    now = datetime.date.today().strftime("%b %Y")
    check("current_date: today shows the clock's month", now.encode() in p.stdout,
          p.stdout[-300:])
    p = subprocess.run([BIN, "--dump", "--date", "2020-02-03", prof], capture_output=True,
                       env=env)
    check("--date wins over today", b"Last updated in Feb 2020" in p.stdout)
    rc, out, err = run([BIN, "--dump", os.path.join(DATA, "with-design-file.yaml")])
    check("render_command.design: its design replaces the profile's",
          rc == 0 and 'EBGaramond' in out and "#c80000" in out, err)
    rc, out, err = run([BIN, "--dump", "-l", os.path.join(ROOT, "layouts", "onecolumn.yaml"),
                        os.path.join(DATA, "with-design-file.yaml")])
    check("-l wins over design:, with a note", rc == 0 and "Lato" in out and
          "note: the layout given with -l is used" in err, err)
    rc, out, err = run([BIN, "--dump", write("baddesign.yaml",
                                             "cv: {name: A}\ndesign:\n  page: {sise: a4}\n")])
    check("an unknown design key is an error at its position",
          rc == 1 and ":3:10: error: unknown key 'sise' in design.page" in err, err)


def jsonresume_test():
    """A resume.json with every part renders directly."""
    src = os.path.join(ROOT, "tests", "data", "resume.json")
    pdf = os.path.join(TMP, "resume.pdf")
    rc, _, err = run([BIN, "-o", pdf, src])
    check("resume.json renders", rc == 0, err)
    if rc:
        return
    txt = " ".join(text_of(pdf).split())
    for w in ["Rosalind Quill", "Systems Engineer", "SUMMARY", "EXPERIENCE", "Tidewater Storage",
              "Staff Engineer", "VOLUNTEERING", "Code Harbor", "EDUCATION", "Lakeside University",
              "BSc in Computer Science", "Courses: CS301", "AWARDS", "Engineer of the Year",
              "CERTIFICATES", "Certified Kubernetes Administrator", "PUBLICATIONS",
              "Erasure Codes in Practice", "SKILLS", "C++, Rust, Linux (Expert)", "LANGUAGES",
              "Tagalog", "INTERESTS", "Sailing", "REFERENCES", "Mara Lindqvist", "PROJECTS",
              "quillfs", "Roles: Author, Maintainer", "GitHub: rquill", "San Francisco",
              "*careful*"]:
        check("resume.json: %r in the PDF" % w, w in txt)
    bad = write("bad.json", '{\n  "basics": {"name": "A"},\n  "work": [{"name": "X",\n'
                '    "position": "Y", "startDate": "2020-13"}]\n}\n')
    rc, _, err = run([BIN, "-o", os.path.join(TMP, "bad.pdf"), bad])
    check("resume.json: a bad date is an error at its line and column",
          rc == 1 and "bad.json:4:35: error: invalid start_date '2020-13'" in err, err)
    bad = write("bad2.json", '{\n  "basics": {"name": "A"}\n  "work": []\n}\n')
    rc, _, err = run([BIN, "-o", os.path.join(TMP, "bad.pdf"), bad])
    check("resume.json: a syntax error at its line", rc == 1 and "bad2.json:3:" in err, err)


def shapes(out, kind):
    """The `rule`, `link` or `image` lines of a dump, as tuples: a rule's
    (x0, y0, x1, y1, width, page), a link's (x0, y0, x1, y1, uri, page), an
    image's (x, y, w, h, page)."""
    found, page = [], 0
    for line in out.splitlines():
        if line.startswith("page "):
            page += 1
        f = line.split()
        if f and f[0] == kind == "rule":
            found.append(tuple(float(v) for v in f[1:5]) + (float(f[5][2:]), page))
        elif f and f[0] == kind == "link":
            found.append(tuple(float(v) for v in f[1:5]) + (f[5], page))
        elif f and f[0] == kind == "image":
            found.append(tuple(float(v) for v in f[1:5]) + (page,))
    return found


def long_profile(section_entries, entry_bullets):
    """The sample with a filler section that takes most of page 1, then a
    section `late` of `section_entries` entries of `entry_bullets` bullets:
    it crosses from page 1 to page 2."""
    with open(SAMPLE, encoding="utf-8") as f:
        base = f.read()
    head, sep, tail = base.partition("\nsettings:")
    late = "".join("      - name: Late entry %d\n        date: '2020'\n        highlights:\n%s"
                   % (i, "".join("          - Late bullet %d.%d, a line of some length for "
                                 "the test\n" % (i, k) for k in range(entry_bullets)))
                   for i in range(section_entries))
    return head + "\n    late:\n" + late + sep + tail


def design_options_test():
    """The design options that became layout keys: each rendered on and off
    over the theme, the difference checked where it shows."""
    def d(design, name="dopt", text=None):
        return dump(text if text else sample_with("theme: classic\n" + design), name)
    rc, base, _, bout, err = d("")
    check("design options: the sample renders", rc == 0, err)

    # links.underline: a rule under the DOI link, none under the contact line.
    rc, runs, _, out, err = d("links:\n  underline: true")
    doi = [l for l in shapes(out, "link") if "doi.org" in l[4]]
    under = lambda rules, l: [r for r in rules if abs(r[0] - l[0]) < 0.5 and
                              l[1] - 0.5 < r[1] < l[1] + 3 and r[5] == l[5]]
    check("links.underline: a rule under the DOI link",
          doi and under(shapes(out, "rule"), doi[0]), (doi, shapes(out, "rule")))
    mail = [l for l in shapes(out, "link") if l[4].startswith("mailto:")]
    check("links.underline: the connections are not underlined",
          mail and not under(shapes(out, "rule"), mail[0]), mail)
    doi0 = [l for l in shapes(bout, "link") if "doi.org" in l[4]]
    check("links.underline off (classic): no rule under the DOI link",
          doi0 and not under(shapes(bout, "rule"), doi0[0]))
    rc, pdf, err = render(sample_with("theme: sb2nov"), "ul-sb2nov")
    rc, runs2, _, out2, _ = dump(sample_with("theme: sb2nov"), "ul-sb2nov")
    doi2 = [l for l in shapes(out2, "link") if "doi.org" in l[4]]
    check("links.underline: sb2nov underlines links as RenderCV's does",
          doi2 and under(shapes(out2, "rule"), doi2[0]), doi2)
    if doi2:
        # Ink: a dark row of pixels under the link's text, rasterised.
        k = 150 / 72
        l = doi2[0]
        base_png = os.path.join(TMP, "ulink")
        r = run(["pdftoppm", "-r", "150", "-f", "1", "-l", "1", "-gray", "-x",
                 str(int(l[0] * k)), "-y", str(int((792 - l[1] - 2) * k)), "-W",
                 str(int((l[2] - l[0]) * k)), "-H", str(int(4 * k)), pdf, base_png])
        path = next(os.path.join(TMP, f) for f in os.listdir(TMP)
                    if f.startswith("ulink") and f.endswith(".pgm"))
        with open(path, "rb") as f:
            hdr = f.read().split(maxsplit=4)
        os.remove(path)
        w, px = int(hdr[1]), hdr[4]
        rows = [px[i:i + w] for i in range(0, len(px) - w + 1, w)]
        best = max((sum(1 for b in row if b < 128) for row in rows), default=0)
        check("links.underline: poppler draws the underline (%d of %d pixels dark in a row)"
              % (best, w), best > w * 0.8, best)

    # links.show_external_link_icon: U+F08E after the DOI, inside its link.
    rc, runs, _, out, err = d("links:\n  show_external_link_icon: true")
    icon = [r for r in runs if r["text"] == "\uf08e"]
    doi = [l for l in shapes(out, "link") if "doi.org" in l[4]]
    check("links.show_external_link_icon: the icon after the DOI, inside the link",
          icon and doi and doi[0][0] < icon[0]["x"] < doi[0][2] and
          icon[0]["face"] == "forkawesome", (icon, doi))
    doi_text = find(runs, "10.9999/srecon")
    check("links.show_external_link_icon: small and raised, as RenderCV's",
          icon and doi_text and icon[0]["size"] == 6.5 and icon[0]["y"] > doi_text["y"] + 1,
          (icon, doi_text))
    mail = find(runs, "marguerite@example.org")
    check("links.show_external_link_icon: none on the connections",
          all(abs(r["y"] - mail["y"]) > 1 for r in icon), icon)
    check("links.show_external_link_icon off: no icon",
          not [r for r in base if r["text"] == "\uf08e"])

    # header.connections.hyperlink false: no link annotation on a connection.
    off = "header:\n  connections:\n    hyperlink: false"
    rc, runs, _, out, err = d(off)
    uris = [l[4] for l in shapes(out, "link")]
    check("connections.hyperlink false: no mailto:, tel: or website link in the dump",
          rc == 0 and not [u for u in uris if u.startswith(("mailto:", "tel:")) or
                           "example.org" in u] and find(runs, "marguerite@example.org"), uris)
    rc, pdf, err = render(sample_with("theme: classic\n" + off), "nolinks")
    rc2, pdf2, _ = render(sample_with("theme: classic"), "links")
    def uris_of(path):
        r = run(["qpdf", "--qdf", "--object-streams=disable", path, "-"])
        return re.findall(r"/URI \(([^)]*)\)", r[1])
    a, b = uris_of(pdf), uris_of(pdf2)
    check("connections.hyperlink false: qpdf finds no mailto: annotation, the DOI's still",
          rc == 0 and not [u for u in a if u.startswith("mailto:")] and
          [u for u in b if u.startswith("mailto:")] and [u for u in a if "doi.org" in u],
          (a, b))

    # header.connections.space_between_connections.
    def contact_gap(runs):
        a, b = find(runs, "marguerite@example.org"), find(runs, "m.okonkwo@example.net")
        icon = max((r for r in runs if r["face"] == "forkawesome" and abs(r["y"] - b["y"]) < 1
                    and r["x"] < b["x"]), key=lambda r: r["x"])
        return icon["x"] - (a["x"] + a["w"])
    rc, runs, _, out, err = d("header:\n  connections:\n    space_between_connections: 2cm")
    g = contact_gap(runs)
    check("connections.space_between_connections 2cm: 2cm between connections (%.1fpt)" % g,
          abs(g - 56.69) < 0.5, g)
    rc, runs, _, out, err = d("header:\n  connections:\n    space_between_connections: 1cm\n"
                              "    separator: '|'")
    a = next((r for r in runs if r["text"] == " Lisbon, Portugal"), None)
    sep = find(runs, "|")
    check("connections.space_between_connections with a separator: half the space each side",
          a and sep and abs(sep["x"] - (a["x"] + a["w"]) - 14.17) < 0.5, (a, sep))

    # header.space_below_name, space_below_headline.
    def gapy(runs, a, b):
        return find(runs, a)["y"] - find(runs, b)["y"]
    rc, runs, _, out, err = d("header:\n  space_below_name: 2cm")
    check("header.space_below_name: the headline 1.3cm further down",
          abs(gapy(runs, "Marguerite", "Reliability") -
              gapy(base, "Marguerite", "Reliability") - 36.85) < 0.5)
    rc, runs, _, out, err = d("header:\n  space_below_headline: 1.2cm")
    check("header.space_below_headline: the connections 0.5cm further down",
          abs(gapy(runs, "Reliability", "marguerite@") -
              gapy(base, "Reliability", "marguerite@") - 14.17) < 0.5)

    # header.photo_space_left, with a photo on the left.
    shutil.copy(os.path.join(ROOT, "tests", "data", "photo.png"), os.path.join(TMP, "me.png"))
    with open(SAMPLE, encoding="utf-8") as f:
        photo = f.read().replace("cv:\n", "cv:\n  photo: me.png\n", 1)
    ph = lambda design: photo + "design:\n  theme: classic\n" + "".join(
        "  " + l + "\n" for l in design.splitlines())
    rc, runs, _, out, err = dump(ph(""), "photo0")
    rc2, runs2, _, out2, err2 = dump(ph("header:\n  photo_space_left: 2cm"), "photo1")
    i0, i1 = shapes(out, "image"), shapes(out2, "image")
    check("header.photo_space_left: the photo 1.6cm further right (0.4cm is the theme's)",
          rc == 0 and rc2 == 0 and i0 and i1 and abs(i1[0][0] - i0[0][0] - 45.35) < 0.5,
          (i0, i1, err2))

    # typography.date_and_location_column_alignment.
    for align in ("left", "center", "right"):
        rc, runs, _, out, err = d("typography:\n  date_and_location_column_alignment: " + align)
        a = next(r for r in runs if r["text"] == "Lisbon")
        b = find(runs, "Feb 2021")
        ok = {"left": abs(a["x"] - b["x"]) < 0.1,
              "center": abs(a["x"] + a["w"] / 2 - b["x"] - b["w"] / 2) < 0.1,
              "right": abs(a["x"] + a["w"] - b["x"] - b["w"]) < 0.1}[align]
        check("date_and_location_column_alignment %s: place and date %s-aligned" %
              (align, align), rc == 0 and ok and (align == "right" or
                                                  abs(a["x"] + a["w"] - 561.6) > 1), (a, b))

    # entries.side_space: entries inset both sides, the section title not.
    rc, runs, _, out, err = d("entries:\n  side_space: 1cm")
    h, h0 = find(runs, "Harborlight"), find(base, "Harborlight")
    date, date0 = find(runs, "Feb 2021"), find(base, "Feb 2021")
    check("entries.side_space 1cm: entries 0.8cm further in on both sides",
          abs(h["x"] - h0["x"] - 22.68) < 0.2 and
          abs(date0["x"] + date0["w"] - date["x"] - date["w"] - 22.68) < 0.2 and
          find(runs, "Experience")["x"] == find(base, "Experience")["x"], (h, date))

    # The degree column (classic has one), degree_width, degree_column null.
    deg, inst = find(base, "MSc"), find(base, "University of Coimbra")
    thesis = find(base, "Thesis")
    check("classic: the degree in a column left of the institution, the bullets under it",
          deg and inst and deg["text"] == "MSc" and abs(deg["y"] - inst["y"]) < 0.1 and
          inst["x"] - deg["x"] > 28 and thesis["x"] > inst["x"], (deg, inst, thesis))
    rc, runs, _, out, err = d("entries:\n  degree_width: 3cm")
    inst2 = find(runs, "University of Coimbra")
    check("entries.degree_width 3cm: the institution 2cm further right",
          abs(inst2["x"] - inst["x"] - 56.69) < 0.2, (inst, inst2))
    rc, runs, _, out, err = d("templates:\n  education_entry:\n    degree_column: null")
    inst3 = find(runs, "University of Coimbra")
    check("degree_column null: no degree column", not find(runs, "MSc") and
          abs(inst3["x"] - 50.4 - 5.67) < 0.1, inst3)     # margin + classic's side_space
    rc, runs, _, out, err = dump(sample_with("theme: sb2nov\ntemplates:\n  education_entry:\n"
                                             "    degree_column: '**DEGREE**'"), "dsb")
    d4, i4 = find(runs, "MSc"), find(runs, "University of Coimbra")
    check("degree_column on sb2nov (none of its own): the column appears",
          d4 and d4["text"] == "MSc" and i4["x"] - d4["x"] > 28, (d4, i4))

    with open(SAMPLE, encoding="utf-8") as f:
        long_degree = f.read().replace("degree: MSc", "degree: Doctorate")
    long_degree = long_degree.replace("    publications:\n", "      - institution: Escola X\n"
                                      "        area: Physics\n        degree: BS\n"
                                      "        date: '2014'\n    publications:\n", 1)
    rc, runs, _, out, err = dump(long_degree + "design:\n  theme: classic\n", "longdeg")
    dg, i1, i2 = find(runs, "Doctorate"), find(runs, "University of Coimbra"), \
        find(runs, "Escola X")
    check("a degree wider than the column widens it for the section, never broken",
          rc == 0 and dg and dg["text"] == "Doctorate" and i1["x"] > dg["x"] + dg["w"] and
          i2 and abs(i1["x"] - i2["x"]) < 0.01 and "broken" not in err, (dg, i1, i2, err))

    # entries.summary.space_above, space_left.
    rc, runs, _, out, err = d("entries:\n  summary:\n    space_above: 0.5cm\n"
                              "    space_left: 1cm")
    s, s0 = find(runs, "A checker for"), find(base, "A checker for")
    check("entries.summary.space_left 1cm: the summary indented 1cm",
          abs(s["x"] - s0["x"] - 28.35) < 0.1, (s, s0))
    check("entries.summary.space_above 0.5cm: the summary 0.5cm lower under its entry",
          abs(gapy(runs, "tidecheck", "A checker for") -
              gapy(base, "tidecheck", "A checker for") - 14.17) < 0.2)

    # sections.allow_page_break false: a section that would cross the page
    # starts on the next one.
    text = long_profile(7, 2)
    rc, runs, pages, out, err = dump(text + "design:\n  theme: classic\n", "brk0")
    rc2, runs2, pages2, out2, err2 = dump(text + "design:\n  theme: classic\n  sections:\n"
                                          "    allow_page_break: false\n", "brk1")
    pg = lambda runs, t: {r["page"] for r in runs if t in r["text"]}
    check("sections.allow_page_break true: the late section crosses the page",
          rc == 0 and pg(runs, "Late entry") == {1, 2}, pg(runs, "Late entry"))
    check("sections.allow_page_break false: the late section starts page 2",
          rc2 == 0 and pg(runs2, "Late entry") == {2} and pg(runs2, "Late") == {2},
          pg(runs2, "Late entry"))
    # entries.allow_page_break false: a long entry is not split.
    text = long_profile(2, 14)
    rc, runs, pages, out, err = dump(text + "design:\n  theme: classic\n"
                                     "  entries:\n    allow_page_break: true\n", "ebrk0")
    rc2, runs2, pages2, out2, err2 = dump(text + "design:\n  theme: classic\n  entries:\n"
                                          "    allow_page_break: false\n", "ebrk1")
    split = [i for i in range(2) if len(pg(runs, "Late bullet %d." % i)) > 1]
    check("entries.allow_page_break true: a long entry is split across pages", split, split)
    check("entries.allow_page_break false: no entry is split",
          rc2 == 0 and all(len(pg(runs2, "Late bullet %d." % i) |
                               pg(runs2, "Late entry %d" % i)) == 1 for i in range(2)),
          [pg(runs2, "Late bullet %d." % i) for i in range(2)])

    # templates.date_range of other shapes.
    rc, runs, _, out, err = d("templates:\n  date_range: 'from START_DATE to END_DATE'")
    check("templates.date_range 'from START_DATE to END_DATE'",
          find(runs, "from Feb 2021 to present") and find(runs, "from Sept 2017 to"),
          [r["text"] for r in runs if "2021" in r["text"]])
    rc, runs, _, out, err = d("templates:\n  date_range: 'END_DATE (since START_DATE)'")
    check("templates.date_range 'END_DATE (since START_DATE)'",
          find(runs, "present (since Feb 2021)"),
          [r["text"] for r in runs if "2021" in r["text"]])

    # section_titles.type: centred partial lines, on each side of the title.
    for kind, where in (("centered_with_partial_line", "baseline"),
                        ("centered_with_centered_partial_line", "middle")):
        rc, runs, _, out, err = d("section_titles:\n  type: " + kind)
        t = find(runs, "Experience")
        rs = [r for r in shapes(out, "rule") if r[5] == t["page"] and abs(r[1] - t["y"]) < 8]
        left = [r for r in rs if abs(r[0] - 50.4) < 0.1 and r[2] < t["x"]]
        right = [r for r in rs if r[0] > t["x"] + t["w"] and abs(r[2] - 561.6) < 0.1]
        dy = left[0][1] - t["y"] if left else None
        ok = dy is not None and (abs(dy) < 0.6 if where == "baseline" else 2 < dy < 6)
        check("section_titles.type %s: a line each side of the centred title, at its %s"
              % (kind, where), left and right and ok and
              abs(t["x"] + t["w"] / 2 - 306) < 1, (rs, t))
    rc, runs, _, out, err = dump(sample_with("theme: harvard"), "harv")
    t = find(runs, "Experience")
    rs = [r for r in shapes(out, "rule") if abs(r[1] - t["y"]) < 8 and r[5] == t["page"]]
    check("harvard (centered_with_centered_partial_line): two lines beside the title",
          len(rs) == 2 and rs[0][2] < t["x"] < rs[1][0], rs)


def dates_under_layout_test():
    """A RenderCV file's date formats are its content, as its phone format
    is: rendered with -l, its design: templates (single_date, date_range,
    time_span), show_time_spans_in and RenderCV's English abbreviations
    still hold, over what the -l layout says of dates."""
    design = ("theme: moderncv\ntemplates:\n  single_date: MONTH_NAME YEAR\n"
              "  date_range: END_DATE (since START_DATE)\n"
              "  time_span: HOW_MANY_YEARS YEARS\n"
              "sections:\n  show_time_spans_in: [experience]\n")
    onecol = os.path.join(testlib.ROOT, "layouts", "onecolumn.yaml")

    def texts(text, name, *extra):
        rc, runs, _, out, err = dump(text, name, "--date", "2024-05-15", *extra)
        return rc, [r["text"] for r in runs], err

    def spans(t):
        return [x for x in t if re.fullmatch(r"\d+ years?", x)]

    rc, t, err = texts(sample_with(design), "dates-l", "-l", onecol)
    check("-l onecolumn: the file's templates.date_range and single_date hold "
          "('present (since February 2021)')",
          rc == 0 and "present (since February 2021)" in t and
          "January 2021 (since September 2017)" in t and "October 2023" in t, (err, t))
    check("-l onecolumn: the file's show_time_spans_in and time_span hold",
          spans(t) == ["3 years", "3 years"], t)
    check("-l onecolumn: the note says the layout is used", "the layout given with -l is "
          "used" in err, err)
    rc, t, err = texts(sample_with("theme: moderncv\n"), "dates-l0", "-l", onecol)
    check("-l onecolumn: a file without date templates keeps RenderCV's dates "
          "(Sept, no time spans)", rc == 0 and "Sept 2017 \u2013 Jan 2021" in t and
          not spans(t), (err, t))
    rc, t, err = texts(open(SAMPLE, encoding="utf-8").read(), "dates-nod", "-l", onecol)
    check("-l onecolumn without design: the layout's own dates (Sep)",
          rc == 0 and "Sep 2017 \u2013 Jan 2021" in t, (err, t))
    # A -l layout's own dates.* lose to the file's, as header.phone_format.
    lay = write("dates-lay.yaml", "extends: %s\ndates:\n  single: YEAR\n"
                "  range: START_DATE to END_DATE\n  show_time_spans_in: [education]\n"
                % onecol)
    rc, t, err = texts(sample_with(design), "dates-l2", "-l", lay)
    check("-l LAYOUT with dates.*: the file's date templates win",
          rc == 0 and "present (since February 2021)" in t and
          spans(t) == ["3 years", "3 years"], (err, t))
    rc, t, err = texts(sample_with(design), "dates-l4", "-l", onecol,
                       "--set", "layout.dates.range=START_DATE until END_DATE")
    check("-l onecolumn with --set layout.dates.range: the option wins over the file's",
          rc == 0 and "February 2021 until present" in t and
          "present (since February 2021)" not in t, (err, t))
    rc, t, err = texts(open(SAMPLE, encoding="utf-8").read(), "dates-l3", "-l", lay)
    check("-l LAYOUT with dates.*, a file without design:: the layout's dates",
          rc == 0 and "2021 to present" in t and "2017 to 2021" in t and
          "1 year 11 months" in t and not spans(t), (err, t))


if __name__ == "__main__":
    sys.exit(testlib.main("rendercv", [themes_test, options_test, rules_test, content_test,
                                       settings_test, icons_test, last_page_test,
                                       jsonresume_test, design_options_test,
                                       dates_under_layout_test], tmp=TMP))
