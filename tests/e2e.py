#!/usr/bin/env python3
"""End-to-end and spec tests for cvpdf.

Usage: tests/e2e.py CVPDF_BINARY [-k PATTERN] [--list]

Spec tests (tests/spec/*.txt) compare `cvpdf --dump` with expected text.
End-to-end tests render every profile in profiles/ and read the PDFs back
with independent tools: poppler (pdftotext, pdffonts, pdfinfo, pdftoppm) and
qpdf.  Every check prints "ok NAME" or "FAIL NAME: why"; the last line is
"e2e: N passed, M failed".
"""
import os
import shutil
import re
import subprocess
import sys
import tempfile

import testlib
from testlib import BIN, ROOT, check, read_dump, run, words_bbox

TMP = tempfile.mkdtemp(prefix="cvpdf-e2e-")




def length(s):
    m = re.fullmatch(r"\s*([0-9.]+)\s*(pt|mm|cm|in)?\s*", s)
    v = float(m.group(1))
    return v * {"pt": 1, None: 1, "mm": 72 / 25.4, "cm": 72 / 2.54, "in": 72}[m.group(2)]


def layout_margins(path):
    """top, bottom, left, right of a layout file (plain text read)."""
    text = open(path, encoding="utf-8").read()
    out = {}
    for k in ("top", "bottom", "left", "right"):
        m = re.search(r"^\s+%s:\s*([0-9.]+\s*(?:pt|mm|cm|in)?)" % k, text, re.M)
        out[k] = length(m.group(1))
    return out


def section_titles(profile):
    """Section titles of a profile, read from its YAML text as RenderCV names
    them: snake_case keys become Title Case, other keys stay as written."""
    titles, inside = [], False
    for line in open(profile, encoding="utf-8"):
        if re.match(r"^  sections:\s*$", line):
            inside = True
            continue
        if inside and re.match(r"^  \S", line):
            break
        m = re.match(r"^    ([^\s#-][^:]*|\"[^\"]+\"):\s*$", line) if inside else None
        if m:
            key = m.group(1).strip('"')
            if re.fullmatch(r"[a-z0-9_]+", key):
                key = " ".join(w[:1].upper() + w[1:] for w in key.split("_") if w)
            titles.append(key)
    return titles


def norm(s):
    return re.sub(r"\s+", " ", s).strip().upper()


def dump(profile, layout=None):
    args = [BIN, "--dump", "-q", profile]
    if layout:
        args += ["-l", layout]
    return run(args)


# ---------------------------------------------------------------- spec tests

def spec_tests():
    spec_dir = os.path.join(ROOT, "tests", "spec")
    layout = os.path.join(spec_dir, "layout.yaml")
    for name in sorted(os.listdir(spec_dir)):
        if not name.endswith(".txt"):
            continue
        text = open(os.path.join(spec_dir, name), encoding="utf-8").read()
        # NAME.txt is set with NAME.layout.yaml where there is one.
        own = os.path.join(spec_dir, name[:-4] + ".layout.yaml")
        lay = own if os.path.exists(own) else layout
        for chunk in re.split(r"^## ", text, flags=re.M)[1:]:
            title, _, body = chunk.partition("\n")
            profile, sep, expected = body.partition("\n.\n")
            if not sep:
                check("spec %s: %s" % (name, title), False, "no '.' separator")
                continue
            path = os.path.join(TMP, "spec.yaml")
            open(path, "w", encoding="utf-8").write(profile)
            rc, out, err = dump(path, lay)
            got = out.strip("\n")
            exp = expected.strip("\n")
            why = "exit %d: %s" % (rc, err.strip())
            if rc == 0 and got != exp:
                gl, el = got.splitlines(), exp.splitlines()
                for i in range(max(len(gl), len(el))):
                    g = gl[i] if i < len(gl) else "<end>"
                    e = el[i] if i < len(el) else "<end>"
                    if g != e:
                        why = "line %d\n   want: %s\n   got:  %s" % (i + 1, e, g)
                        break
            check("spec %s: %s" % (name, title.strip()), rc == 0 and got == exp, why)


# ------------------------------------------------------------- command line

def cli_tests():
    rc, out, _ = run([BIN, "--help"])
    check("--help exits 0 and shows usage", rc == 0 and "Usage: cvpdf" in out)
    rc, out, _ = run([BIN, "--version"])
    check("--version", rc == 0 and re.match(r"cvpdf \d+\.\d+", out))
    rc, _, err = run([BIN, "--frobnicate", "profiles/he.yaml"])
    check("unknown option exits 2", rc == 2, "rc %d" % rc)
    rc, _, _ = run([BIN])
    check("no profile exits 2", rc == 2, "rc %d" % rc)
    rc, _, _ = run([BIN, "-o", os.path.join(TMP, "one.pdf"), "profiles/he.yaml", "profiles/li.yaml"])
    check("-o FILE with two profiles exits 2", rc == 2, "rc %d" % rc)


# ------------------------------------------------------------ lab profiles

def profile_tests():
    layout = os.path.join(ROOT, "layouts", "onecolumn.yaml")
    mg = layout_margins(layout)
    outdir = os.path.join(TMP, "out")
    profiles = sorted(os.path.join("profiles", p) for p in os.listdir(os.path.join(ROOT, "profiles"))
                      if p.endswith(".yaml"))
    check("there are lab profiles", len(profiles) >= 4, str(profiles))
    rc, out, err = run([BIN, "-l", layout, "-o", outdir + "/"] + profiles)
    check("batch render of every profile exits 0", rc == 0, err)
    for prof in profiles:
        stem = os.path.basename(prof)[:-5]
        pdf = os.path.join(outdir, stem + ".pdf")
        if not os.path.exists(pdf):
            check("%s rendered" % stem, False, "no PDF")
            continue
        rc, out, err = run([BIN, "-l", layout, "-o", os.path.join(TMP, stem + "-1.pdf"), prof])
        check("%s renders with nothing on stderr" % stem, rc == 0 and err == "", err.strip())

        rc, out, err = run(["qpdf", "--check", pdf])
        check("%s passes qpdf --check" % stem, rc == 0 and "No syntax or stream encoding errors" in out,
              out + err)

        rc, out, _ = run(["pdffonts", pdf])
        rows = out.splitlines()[2:]
        bad = [r for r in rows if not re.search(r"\byes\s+yes\s+yes\s+\d+\s+\d+\s*$", r)]
        check("%s embeds every font as a subset with ToUnicode" % stem, rows and not bad,
              "\n".join(bad) or "no fonts")

        rc, text, err = run(["pdftotext", pdf, "-"])
        check("%s: pdftotext reads it without a warning (ToUnicode map)" % stem,
              rc == 0 and err == "", err.strip()[:300])
        flat = norm(text)
        pos, missing = 0, []
        for t in section_titles(os.path.join(ROOT, prof)):
            i = flat.find(norm(t), pos)
            if i < 0:
                missing.append(t)
            else:
                pos = i + len(norm(t))
        check("%s: every section title in pdftotext, in profile order" % stem,
              not missing and section_titles(os.path.join(ROOT, prof)), "missing/out of order: %s" % missing)

        # The running header and footer sit in the top and bottom margins,
        # inside the measure; nothing else leaves the text block.
        outside = []
        for pw, ph, words in words_bbox(pdf):
            for x0, y0, x1, y1, w in words:
                # pdftotext boxes a word by its face's ascent: Noto's Hebrew
                # and Arabic faces rise 1/10 em above Lato's, though no
                # letter does (tests/scripts.py looks at the ink).
                if re.search("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]", w):
                    y0 += 0.1 * (y1 - y0)
                in_band = y1 <= mg["top"] - 2 or y0 >= ph - mg["bottom"] + 2
                if x0 < mg["left"] - 0.5 or x1 > pw - mg["right"] + 0.5 or \
                   (not in_band and (y0 < mg["top"] - 2 or y1 > ph - mg["bottom"] + 2)) or \
                   y0 < 2 or y1 > ph - 2:
                    outside.append("%s (%.1f,%.1f)-(%.1f,%.1f)" % (w, x0, y0, x1, y1))
        check("%s: no word outside the margins (pdftotext -bbox)" % stem, not outside,
              "; ".join(outside[:5]))

        rc, d, err = dump(os.path.join(ROOT, prof), layout)
        pages = read_dump(d)
        titles = [norm(t) for t in section_titles(os.path.join(ROOT, prof))]
        stranded = []
        for i, pg in enumerate(pages):
            runs = sorted(pg["runs"], key=lambda r: -r["y"])
            for j, r in enumerate(runs):
                if norm(r["text"]) in titles:
                    below = [q for q in runs[j + 1:] if q["y"] < r["y"] - 1]
                    if len(below) < 2:
                        stranded.append("page %d: %s" % (i + 1, r["text"]))
        check("%s: no section title at the foot of a page" % stem, not stranded and pages,
              "; ".join(stranded))
        wide = [r["text"] for pg in pages for r in pg["runs"]
                if r["x"] < mg["left"] - 0.01 or r["x"] + r["w"] > pg["w"] - mg["right"] + 0.01]
        check("%s: no line wider than the measure (dump)" % stem, not wide, "; ".join(wide[:3]))


def cjk_ink_test():
    """The native name must come back as text and have ink in every glyph."""
    pdf = os.path.join(TMP, "out", "fang.pdf")
    if not os.path.exists(pdf):
        check("fang.pdf exists for the CJK tests", False)
        return
    rc, text, _ = run(["pdftotext", pdf, "-"])
    check("方佳瑞 comes back from pdftotext", "方佳瑞" in text, text[:200])
    boxes = [(x0, y0, x1, y1, w) for _, _, ws in words_bbox(pdf)[:1]
             for x0, y0, x1, y1, w in ws if "方" in w or "佳" in w or "瑞" in w]
    if not boxes:
        check("the CJK name is on page 1", False)
        return
    # The three glyphs share one box (or lie in consecutive boxes); split the
    # union evenly and demand dark pixels in each third.
    x0 = min(b[0] for b in boxes); x1 = max(b[2] for b in boxes)
    y0 = min(b[1] for b in boxes); y1 = max(b[3] for b in boxes)
    dpi = 144
    s = dpi / 72.0

    def ink(ax0, ay0, ax1, ay1):
        base = os.path.join(TMP, "ink")
        run(["pdftoppm", "-f", "1", "-l", "1", "-r", str(dpi), "-gray", "-x", str(int(ax0 * s)),
             "-y", str(int(ay0 * s)), "-W", str(max(1, int((ax1 - ax0) * s))),
             "-H", str(max(1, int((ay1 - ay0) * s))), "-singlefile", pdf, base])
        data = open(base + ".pgm", "rb").read()
        parts = data.split(maxsplit=4)      # P5 w h maxval pixels
        return sum(1 for b in parts[4] if b < 128)

    w = (x1 - x0) / 3
    counts = [ink(x0 + i * w + 1, y0, x0 + (i + 1) * w - 1, y1) for i in range(3)]
    check("every glyph of 方佳瑞 has ink when rasterised", all(c > 20 for c in counts), str(counts))
    # Control: the same measurement sees no ink in the empty margin.
    blank = ink(2, y0, 2 + w - 2, y1)
    check("the ink probe sees nothing in the blank margin (control)", blank == 0, str(blank))


def pdf_furniture_tests():
    pdf = os.path.join(TMP, "out", "fang.pdf")
    rc, out, _ = run(["pdfinfo", pdf])
    check("fang.pdf title is 'Jiarui Fang — Résumé'", re.search(r"^Title:\s+Jiarui Fang — Résumé$", out, re.M), out)
    check("fang.pdf author is set", re.search(r"^Author:\s+Jiarui Fang$", out, re.M), out)
    rc, out, _ = run(["qpdf", "--qdf", "--object-streams=disable", pdf, os.path.join(TMP, "q.pdf")])
    raw = open(os.path.join(TMP, "q.pdf"), "rb").read().decode("latin-1")
    uris = re.findall(r"/URI \(([^)]*)\)", raw)
    check("fang.pdf links the e-mail (mailto:)", any(u.startswith("mailto:") for u in uris), str(uris))
    check("fang.pdf links GitHub", any("github.com/feifeibear" in u for u in uris), str(uris))
    borders = re.findall(r"/Border\s*\[([^\]]*)\]", raw)
    check("links have no border box", len(borders) >= len(uris) > 0 and all(b.split() == ["0", "0", "0"] for b in borders), str(borders[:3]))
    rc, out, err = run([BIN, "-q", "-l", "layouts/onecolumn-letter.yaml", "-o",
                        os.path.join(TMP, "letter.pdf"), "profiles/he.yaml"])
    rc2, info, _ = run(["pdfinfo", os.path.join(TMP, "letter.pdf")])
    check("US Letter layout gives 612x792 pages", rc == 0 and "612 x 792 pts (letter)" in info, info + err)
    rc2, info, _ = run(["pdfinfo", pdf])
    check("default layout gives A4 pages", "595.276 x 841.89 pts (A4)" in info, info)


def link_scheme_tests():
    """Only http:, https:, mailto: and tel: destinations become links in the
    PDF, as in the HTML and Markdown: javascript:, file: and a relative path
    are their text alone, in the text's colour, with a warning at the
    text's position."""
    prof = os.path.join(TMP, "links.yaml")
    open(prof, "w", encoding="utf-8").write(
        "cv:\n  name: Ada Link\n  sections:\n    summary:\n"
        "      - \"See [this](javascript:alert(1)) and [that](file:///etc/passwd) "
        "and [rel](thesis.pdf) and [ok](https://example.com) or [mail](mailto:a@b.example).\"\n")
    pdf = os.path.join(TMP, "links.pdf")
    rc, _, err = run([BIN, "-o", pdf, prof])
    check("a non-web link: exit 0, one warning at the text's position",
          rc == 0 and err.count("warning:") == 1 and
          "links.yaml:5:9: warning: link to 'javascript:alert(1)' is set as text alone" in err,
          err)
    run(["qpdf", "--qdf", "--object-streams=disable", pdf, os.path.join(TMP, "lq.pdf")])
    raw = open(os.path.join(TMP, "lq.pdf"), "rb").read().decode("latin-1")
    uris = sorted(re.findall(r"/URI \(([^)]*)\)", raw))
    check("only the web links are link annotations",
          uris == ["https://example.com", "mailto:a@b.example"], str(uris))
    _, text, _ = run(["pdftotext", pdf, "-"])
    check("the texts of the dropped links stay on the page",
          "See this and that and rel and ok or mail." in " ".join(text.split()), text)
    _, dump, _ = run([BIN, "--dump", prof])
    colours = {m.group(2): m.group(1) for m in
               re.finditer(r'^text .* (#[0-9a-f]{6}) "([^"]*)"$', dump, re.M)}
    plain = [c for s, c in colours.items() if "this and that and rel" in s]
    check("the dropped links are in the text's colour, not the links'",
          plain == ["#1a1a1a"] and colours.get("ok") not in (None, "#1a1a1a"), str(colours))


def idn_link_tests():
    """A host name beyond ASCII (an internationalised domain) is written in
    the PDF's link as DNS knows it, in Punycode; the path and query stay
    percent-encoded UTF-8.  Before, the host was percent-encoded too, and
    such a link reaches no server."""
    prof = os.path.join(TMP, "idn.yaml")
    open(prof, "w", encoding="utf-8").write(
        "cv:\n  name: Jörg Müller\n  email: jörg@bücher.de\n  website: https://bücher.de/über?q=ä\n"
        "  sections:\n    summary:\n      - \"[Shop](https://user@bücher.de:8080/a), "
        "[plain](https://example.com/ö), [mail](mailto:x@bücher.de?subject=hi).\"\n")
    pdf = os.path.join(TMP, "idn.pdf")
    rc, _, err = run([BIN, "-q", "-o", pdf, prof])
    run(["qpdf", "--qdf", "--object-streams=disable", pdf, os.path.join(TMP, "idnq.pdf")])
    raw = open(os.path.join(TMP, "idnq.pdf"), "rb").read().decode("latin-1")
    uris = sorted(re.findall(r"/URI \(([^)]*)\)", raw))
    check("IDN hosts in Punycode, paths percent-encoded", rc == 0 and uris == sorted([
        "mailto:j%C3%B6rg@xn--bcher-kva.de", "https://xn--bcher-kva.de/%C3%BCber?q=%C3%A4",
        "https://user@xn--bcher-kva.de:8080/a", "https://example.com/%C3%B6",
        "mailto:x@xn--bcher-kva.de?subject=hi"]), "%r %r" % (uris, err))
    _, text, _ = run(["pdftotext", pdf, "-"])
    check("the page still shows the name as written", "bücher.de" in text, text[:300])


def date_range_break_tests():
    """A date range too wide for its column breaks after the dash, each date
    whole: classic's column set Russian 'май 2019 г. – настоящее' / 'время';
    now 'май 2019 г. –' / 'настоящее время'.  The spaces inside each date are
    no-break spaces, drawn and read back as spaces."""
    prof = os.path.join(TMP, "ru-dates.yaml")
    open(prof, "w", encoding="utf-8").write(
        "cv:\n  name: Анна Петрова\n  sections:\n    опыт работы:\n"
        "      - company: Яндекс\n        position: Инженер\n        start_date: 2019-05\n"
        "locale:\n  language: russian\n")
    rc, dump, err = run([BIN, "--dump", "-l", "layouts/classic.yaml", prof])
    texts = re.findall(r'^text .* "([^"]*)"$', dump, re.M)
    check("a date range breaks after its dash, each date whole",
          rc == 0 and "май 2019\u202fг. –" in texts and "настоящее время" in texts and
          "время" not in texts, "%r %r" % (err, texts))
    pdf = os.path.join(TMP, "ru-dates.pdf")
    run([BIN, "-q", "-l", "layouts/classic.yaml", "-o", pdf, prof])
    _, text, _ = run(["pdftotext", pdf, "-"])
    check("... and reads back with plain spaces", re.search("май 2019.г. –", text) and
          "настоящее время" in text and "\u00a0" not in text, text)


def tall_header_tests():
    """An entry header taller than a page (a publication whose title runs to
    3,000 words) is set a line an item, across pages, as a paragraph is:
    every word on a page, in order, and nothing said; before, it ran off the
    foot of its page with a warning and most of the title was lost."""
    prof = os.path.join(TMP, "tall.yaml")
    words = " ".join("w%d" % i for i in range(3000))
    open(prof, "w", encoding="utf-8").write(
        "cv:\n  name: Tall Title\n  sections:\n    publications:\n"
        "      - title: \"%s\"\n        authors: [Ada Lovelace]\n        date: 2020\n"
        "        journal: The Journal\n" % words)
    for lay in ("onecolumn", "classic"):
        pdf = os.path.join(TMP, "tall-%s.pdf" % lay)
        rc, _, err = run([BIN, "-l", "layouts/%s.yaml" % lay, "-o", pdf, prof])
        _, text, _ = run(["pdftotext", pdf, "-"])
        got = [int(w) for w in re.findall(r"\bw(\d+)\b", text)]
        check("a 3,000-word title in %s: every word, in order, nothing said" % lay,
              rc == 0 and not err and got == list(range(3000)) and "The Journal" in text,
              "rc %d, %r, %d words" % (rc, err[:200], len(got)))


def line_separator_tests():
    """U+2028 and U+2029, which word processors paste, end a line as a line
    feed does; before, no font had them: a warning each, and the words on
    either side ran together."""
    prof = os.path.join(TMP, "lsep.yaml")
    open(prof, "w", encoding="utf-8").write(
        "cv:\n  name: Ada\n  sections:\n    summary:\n"
        "      - \"First line\\u2028second line\\u2029third line.\"\n")
    rc, dump, err = run([BIN, "--dump", prof])
    texts = re.findall(r'^text .* "([^"]*)"$', dump, re.M)
    check("U+2028 and U+2029 end a line, nothing said",
          rc == 0 and not err and texts[-3:] == ["First line", "second line", "third line."],
          "%r %r" % (err, texts[-4:]))


# ------------------------------------------------------------ bad inputs

BAD = [
    ("yaml-syntax", "cv:\n  name: A\n  email: [x\n", r":\d+:\d+: error: "),
    ("unknown-key", "cv:\n  name: A\n  emial: a@b.c\n", r":3:3: error: .*emial.*did you mean 'email'"),
    # (a cv without a name is valid RenderCV, and renders: tests/rendercv.py)
    ("bad-email", "cv:\n  email: a.b.c\n", r":2:10: error: .*email"),
    ("bad-date", "cv:\n  name: A\n  sections:\n    x:\n      - company: C\n        position: P\n        start_date: 2023-13\n",
     r":7:21: error: .*2023-13"),
    ("wrong-type", "cv:\n  name: A\n  sections:\n    x: hello\n", r":4:\d+: error: "),
    ("not-a-mapping", "- just\n- a list\n", r":1:1: error: "),
    ("empty", "", r":1:1: error: "),
    ("no-cv", "name: A\n", r":\d+:\d+: error: .*cv"),
]


def bad_input_tests():
    for name, text, pattern in BAD:
        path = os.path.join(TMP, name + ".yaml")
        open(path, "w", encoding="utf-8").write(text)
        out = os.path.join(TMP, name + ".pdf")
        open(out, "wb").write(b"previous good PDF")
        rc, _, err = run([BIN, path, "-o", out])
        ok = rc == 1 and re.search(re.escape(path) + pattern, err)
        check("bad input '%s' -> exit 1 with file:line:col error" % name, ok,
              "rc %d, stderr: %s" % (rc, err.strip()))
        check("bad input '%s' leaves the old output untouched" % name,
              open(out, "rb").read() == b"previous good PDF")
        leftovers = [f for f in os.listdir(TMP) if f.startswith(".cvpdf-")]
        check("bad input '%s' leaves no temporary file" % name, not leftovers, str(leftovers))
    # A batch with one broken profile still renders the rest.
    d = os.path.join(TMP, "mixed")
    rc, _, err = run([BIN, "-q", "-o", d + "/", "profiles/he.yaml",
                      os.path.join(TMP, "unknown-key.yaml"), "profiles/li.yaml"])
    check("a broken profile in a batch: exit 1, the others rendered",
          rc == 1 and os.path.exists(os.path.join(d, "he.pdf")) and os.path.exists(os.path.join(d, "li.pdf")),
          "rc %d %s" % (rc, err))
    rc, _, err = run([BIN, "-o", d + "/", "profiles/he.yaml", "./profiles/he.yaml"])
    check("a profile given twice is rendered once, with a note",
          rc == 0 and "./profiles/he.yaml: note: given twice; rendered once" in err, err)
    for sub in ("a", "b"):
        os.makedirs(os.path.join(TMP, sub), exist_ok=True)
        shutil.copy("profiles/he.yaml", os.path.join(TMP, sub, "cv.yaml"))
    two = [os.path.join(TMP, "a", "cv.yaml"), os.path.join(TMP, "b", "cv.yaml")]
    rc, _, err = run([BIN, "-o", d + "/"] + two)
    check("two profiles with one output name are refused",
          rc == 1 and "cvpdf: error:" in err and "both" in err, err)
    book = os.path.join(TMP, "book.pdf")
    rc, _, err = run([BIN, "-q", "--merge", book] + two)
    check("--merge takes two profiles of one name (it writes one file)",
          rc == 0 and os.path.exists(book), err)
    rc, _, err = run([BIN, "profiles/he.yaml", "-l", "/nonexistent/layout.yaml", "-o", os.path.join(TMP, "x.pdf")])
    check("a missing layout is an error naming it", rc == 1 and "/nonexistent/layout.yaml" in err, err)
    rc, _, err = run([BIN, "profiles/he.yaml", "-o", "/nonexistent-dir/x.pdf"])
    check("an unwritable output is an error", rc == 1 and "error:" in err, err)


def warning_position_tests():
    """A character no font has is reported where it was written: the field
    of a template line (not the entry), the layout's bullet glyph."""
    # Vai, in no font of the default chain (Noto Sans CJK has U+2603).
    snow = "\ua500"
    prof = os.path.join(TMP, "snow.yaml")
    open(prof, "w", encoding="utf-8").write(
        "cv:\n  name: A\n  sections:\n    exp:\n      - company: Acme\n"
        "        position: \"Chief %s officer\"\n        start_date: 2020-01\n"
        "        location: \"X%s\"\n" % (snow, snow))
    rc, _, err = run([BIN, "--dump", prof])
    lines = err.splitlines()
    check("missing glyph in a template line: the field's position",
          rc == 0 and lines == ["%s:6:19: warning: no font has U+A500 '%s'" % (prof, snow),
                                "%s:8:19: warning: no font has U+A500 '%s'" % (prof, snow)],
          repr(err))
    lay = os.path.join(TMP, "snow-layout.yaml")
    open(lay, "w", encoding="utf-8").write(
        "extends: %s\nbullets:\n  glyph: \"%s\"\n"
        % (os.path.join(ROOT, "tests", "spec", "layout.yaml"), snow))
    prof2 = os.path.join(TMP, "bullet.yaml")
    open(prof2, "w", encoding="utf-8").write(
        "cv:\n  name: A\n  sections:\n    s:\n      - bullet: hello\n")
    rc, _, err = run([BIN, "--dump", prof2, "-l", lay])
    check("missing glyph in the layout's bullet: the layout's position",
          rc == 0 and err.strip() == "%s:3:10: warning: no font has U+A500 '%s'" % (lay, snow),
          repr(err))


if __name__ == "__main__":
    sys.exit(testlib.main("e2e", [spec_tests, cli_tests, profile_tests, cjk_ink_test,
                                  pdf_furniture_tests, link_scheme_tests, idn_link_tests, date_range_break_tests, tall_header_tests, line_separator_tests,
                                  bad_input_tests,
                                  warning_position_tests], tmp=TMP))
