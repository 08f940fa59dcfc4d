#!/usr/bin/env python3
"""-o cv.html (issue 29): one self-contained HTML5 page, read in a real browser.

Usage: tests/htmlpage.py CVPDF_BINARY [-k PATTERN] [--list]   (tests/run.sh passes build/san/cvpdf)

  structure   he, fang-zh (CJK), levi-he (right to left), fang (Han in an
              English page), sato-ja, and he in the sidebar layout: tidy
              (Debian's tidy) reports no error; <html lang dir>, one <h1>
              in a <header>, a <section> with an <h2> per section of the
              profile, <article>s, <time datetime>, nested <ul>, a
              lang="zh" run for 方佳瑞 in the English page; nothing loaded
              from the network (no src or url() but data:), the CSP
              <meta>, WOFF2 faces; the sidebar an <aside> beside <main>;
              html.fonts: system embeds no face and names the families
  coverage    in he, fang-zh, levi-he, fang, sato-ja, he (sidebar) and a
              profile with bold, italic, code, Han, Hebrew and quotes in
              classic, ink and ember: each character the page shows (its
              text, the markers and separators its CSS draws), in the
              family, weight and style Chromium computes for it, is in the
              embedded face CSS font matching takes (fontTools reads the
              WOFF2), from the first family that has it; no face is
              embedded that draws none of the page's characters in its
              style, or holds others; chromium loads every face
  jsonld      the one <script> is JSON-LD that Python's json parses: a
              schema.org Person with name, jobTitle, email, url, sameAs
              (every social profile's URL), worksFor, alumniOf, address
  words       every word of the profile that cvpdf's PDF shows (pdftotext)
              is in the page's text as chromium renders it (innerText)
  browser     headless chromium: screenshots of he, fang-zh and levi-he at
              1280 and 375 px wide, each with ink across the page; at 375
              px no horizontal overflow (scrollWidth, read by a script in
              a test copy of the page, never in cvpdf's output); printed to
              PDF (--print-to-pdf), within one page of cvpdf's PDF
  contact_rows  RenderCV's sample (nine contact items) at 375 px: no line
              of the contact list starts with the separator; weber-de in
              classic: each degree no taller than its text; he in the
              sidebar layout: the contact block above the main column
  axe         axe-core (npm, tests/deps.sh installs it in
              build/npm/) run in a test copy of each page (and of a JSON
              Resume without a name) reports no violation
  safety      hostile text (<script>, quotes, &, a javascript: link, a
              data: link) is escaped or dropped: no element, attribute or
              link it did not ask for, the JSON-LD still valid
  writes      -o - writes the page to the standard output, nothing on
              stderr but the "wrote" line's absence; an output that is an
              input is refused; --merge x.html is a usage error; --watch
              renders the page again when the profile changes

Screenshots stay in $CVPDF_HTML_SHOTS when it names a directory (to look
at them).  (Not tests/html.py: that name would hide Python's own html
module from every suite, pdfminer's import of it too.)  The last line is
"htmlpage: N passed, M failed".
"""
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import html  # noqa: E402
import html.parser  # noqa: E402

import testlib  # noqa: E402
from testlib import BIN, ROOT, check, run  # noqa: E402

# fontTools (with Brotli for WOFF2) is Debian's, for the system's python3:
# a python3 from pyenv or a virtualenv does not see it; run under that.
try:
    import fontTools.ttLib  # noqa: F401
    import brotli  # noqa: F401
except ImportError:
    testlib.reexec_system_python("htmlpage")
    print("FAIL: fontTools or brotli is not installed (tests/deps.sh check: python3-fonttools, "
          "python3-brotli)")
    print("htmlpage: 0 passed, 1 failed")
    sys.exit(1)
import io  # noqa: E402
from fontTools.ttLib import TTFont  # noqa: E402

TMP = tempfile.mkdtemp(prefix="cvpdf-html-")
PROFILES = os.path.join(ROOT, "profiles")
AXE = os.path.join(testlib.npm_tool("axe-core") or os.path.join(testlib.NPM_DIR, "axe-core"),
                   "axe.min.js")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CASES = [("he", []), ("fang-zh", ["-l", "zh"]), ("levi-he", []), ("fang", []),
         ("sato-ja", [])]


def render(name, args, out=None):
    """The profile's page (and its PDF with pdf=True): the path."""
    out = out or os.path.join(TMP, name + ".html")
    rc, _, err = run([BIN, os.path.join(PROFILES, name + ".yaml"), "-o", out] + args)
    return out if rc == 0 else None, err


_pages = {}


def page(name, args=()):
    key = (name, tuple(args))
    if key not in _pages:
        out = os.path.join(TMP, "%s%s.html" % (name, "-".join([""] + [a for a in args if
                                                                      a != "-l"])))
        _pages[key] = render(name, list(args), out)
    return _pages[key]


class Tree(html.parser.HTMLParser):
    """Elements (tag, attrs, depth path) and the text outside <script> and
    <style>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elems, self.stack, self.text, self.scripts = [], [], [], []
        self._in = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elems.append((tag, a, tuple(t for t, _ in self.stack)))
        if tag not in ("meta", "img", "br", "link", "input"):
            self.stack.append((tag, a))
        if tag in ("script", "style"):
            self._in = tag
            if tag == "script":
                self.scripts.append([a, ""])

    def handle_endtag(self, tag):
        while self.stack:
            t, _ = self.stack.pop()
            if t == tag:
                break
        if tag in ("script", "style"):
            self._in = None

    def handle_data(self, data):
        if self._in == "script":
            self.scripts[-1][1] += data
        elif self._in is None:
            self.text.append(data)


def parse(path):
    t = Tree()
    t.feed(open(path, encoding="utf-8").read())
    return t


def tags(t, tag):
    return [e for e in t.elems if e[0] == tag]


FULL = """cv:
  name: Ada Example
  headline: Research Engineer
  location: Cambridge, UK
  email: ada@example.org
  phone: "+44 20 7946 0958"
  website: https://ada.example.org/
  photo: %s
  social_networks:
    - {network: GitHub, username: ada}
    - {network: LinkedIn, username: ada-example}
  sections:
    experience:
      - company: Analytical Engines Ltd
        position: Engineer
        start_date: 2021-03
        end_date: present
        highlights:
          - "Designed the mill - with a store - and a printer"
      - company: Old Co
        position: Intern
        start_date: 2019-06
        end_date: 2019-09
    education:
      - institution: University of London
        area: Mathematics
        degree: BSc
        start_date: 2015-09
        end_date: 2019-06
"""


def full():
    """A profile with every contact, a photo, nested highlights: the page."""
    prof = os.path.join(TMP, "ada.yaml")
    if not os.path.exists(prof):
        open(prof, "w", encoding="utf-8").write(
            FULL % os.path.join(ROOT, "tests", "data", "photo.png"))
    out = os.path.join(TMP, "ada.html")
    rc, _, err = run([BIN, prof, "-o", out])
    return (out if rc == 0 else None), err


def structure():
    for name, args in CASES + [("he", ["-l", "sidebar"]), ("fang-zh", ["-l", "sidebar"])]:
        path, err = page(name, args)
        label = name + (" (sidebar)" if "sidebar" in args else "")
        if not check("%s: -o %s.html written" % (label, name), path, err):
            continue
        rc, _, terr = run(["tidy", "-q", "-e", "--show-warnings", "no", path])
        check("%s: tidy reports no error" % label, rc in (0, 1) and "Error:" not in terr,
              (rc, terr[:600]))
        src = open(path, encoding="utf-8").read()
        # A template's fields in one style are one element: no
        # "<em>a</em><em> </em><em>b</em>", whose blank <em> tidy trims.
        blank = re.findall(r"<(em|strong|code)>\s*</\1>|</(em|strong|code)><\2>", src)
        check("%s: no element of white space alone, no </em><em>" % label, not blank,
              re.findall(r".{0,40}(?:<(?:em|strong|code)>\s*</(?:em|strong|code)>|"
                         r"</(?:em|strong|code)><(?:em|strong|code)>).{0,40}", src)[:5])
        t = parse(path)
        h = tags(t, "html")[0][1]
        want = {"he": "en", "fang": "en", "fang-zh": "zh", "levi-he": "he", "sato-ja": "ja"}
        check("%s: <html lang=%s dir=%s>" % (label, want[name], h.get("dir")),
              h.get("lang", "").startswith(want[name]) and
              h.get("dir") == ("rtl" if name == "levi-he" else "ltr"), h)
        h1 = tags(t, "h1")
        check("%s: one <h1> in the <header>" % label, len(h1) == 1 and "header" in h1[0][2],
              h1)
        import yaml
        prof = yaml.safe_load(open(os.path.join(PROFILES, name + ".yaml"), encoding="utf-8"))
        nsec = len(prof["cv"].get("sections", {}))
        secs = tags(t, "section")
        h2 = [e for e in tags(t, "h2") if "section" in e[2]]
        contact_block = 1 if "sidebar" in args else 0
        check("%s: a <section> with an <h2> for each of the %d sections" % (label, nsec),
              len(secs) in (nsec, nsec + contact_block) and len(h2) == len(secs),
              (len(secs), len(h2)))
        times = tags(t, "time")
        check("%s: <time datetime> for dates" % label, times and all(
            re.fullmatch(r"\d{4}(-\d\d){0,2}", e[1].get("datetime", "")) for e in times),
            times[:3])
        check("%s: <article> per entry with a header" % label, tags(t, "article"))
        # Nothing from the network: every src and url() a data: URI.
        srcs = [e[1].get("src") for e in t.elems if e[1].get("src")]
        urls = re.findall(r"url\(([^)]{0,40})", src)
        check("%s: nothing loaded from the network" % label,
              all(s.startswith("data:") for s in srcs) and
              all(u.startswith("data:") for u in urls) and "@import" not in src and
              not tags(t, "link") and not tags(t, "iframe"), (srcs[:3], urls[:3]))
        csp = [e[1] for e in tags(t, "meta") if e[1].get("http-equiv") ==
               "Content-Security-Policy"]
        check("%s: a Content-Security-Policy <meta>" % label,
              csp and "default-src 'none'" in csp[0].get("content", ""), csp)
        check("%s: faces embedded as WOFF2" % label, "font/woff2;base64,d09GMg" in src)
        check("%s: no oblique made up for a face without italics (the PDF slants none)"
              % label, re.search(r"body\{[^}]*font-synthesis-style:none", src))
        check("%s: a gap between Han or kana and Latin, as the PDF's text.cjk_latin_space"
              % label, re.search(r"body\{[^}]*text-autospace:normal", src))
        if "sidebar" in args:
            aside = tags(t, "aside")
            check("%s: the sidebar an <aside> beside <main>, a grid" % label,
                  len(aside) == 1 and "main" not in aside[0][2] and tags(t, "main") and
                  "grid-template-columns" in src, aside)
    # Nested highlights: a <ul> inside an <li>; the photo with its alt.
    path, err = full()
    if check("a profile with everything: written", path, err):
        t = parse(path)
        nested = [e for e in tags(t, "ul") if "li" in e[2]]
        check("nested highlights as a <ul> in an <li>", nested)
        img = tags(t, "img")
        check("the photo an <img> with its alt, a data: URI", len(img) == 1 and
              img[0][1].get("alt") == "Photo of Ada Example" and
              img[0][1].get("src", "").startswith("data:image/jpeg;base64,"),
              [(e[1].get("alt"), e[1].get("src", "")[:30]) for e in img])
    path, _ = page("fang")
    if path:
        src = open(path, encoding="utf-8").read()
        check("fang: 方佳瑞 in the English page as <span lang=\"zh\">",
              re.search(r'<span lang="zh"(?: class="[^"]*")?>方佳瑞</span>', src), re.findall(r".{40}方佳瑞.{20}", src)[:2])
    # The degree column (classic): as wide as the section's widest degree
    # and the same for each entry, as in the PDF, so that "Promotion" is
    # not broken inside the word.
    path, err = page("weber-de", ["-l", "classic"])
    if check("weber-de (classic): written", path, err):
        t = parse(path)
        deg = [e[1].get("style", "") for e in tags(t, "div") if e[1].get("class") == "degree"]
        basis = [float(m.group(1)) for m in (re.search(r"--dw:([\d.]+)pt", d)
                                             for d in deg) if m]
        check("weber-de (classic): each degree column wide enough for 'Promotion', the same "
              "for each entry of the section", len(deg) == 2 and len(basis) == 2 and
              basis[0] == basis[1] and basis[0] > 40, deg)
    # Soft hyphens where the PDF hyphenates (Chromium on Linux has no
    # hyphenation dictionaries): in body text, by the language's patterns,
    # never in a link, bold, code, a name or an address.
    path, _ = page("weber-de", ["-l", "classic"])
    if path:
        src = open(path, encoding="utf-8").read()
        body = src[src.index("<body>"):]
        inside = re.findall(r"<(a|strong|code|h1|h3|time)\b[^>]*>([^<]*)", body)
        check("weber-de: soft hyphens in German words by German patterns (Durch-füh-rung), "
              "none in a link, bold text, a heading or a date",
              "Durch\xadfüh\xadrung" in body and
              "\xad" in (re.findall(r"Archi[a-z\xad]+chungen", body) or [""])[0] and
              not [t for _, t in inside if "\xad" in t], [t for _, t in inside if "\xad" in t][:5])
    path, _ = page("he")
    if path:
        src = open(path, encoding="utf-8").read()
        body = src[src.index("<body>"):]
        check("he: soft hyphens in English body text (dis-trib-uted), none in an address",
              "dis\xadtrib\xaduted" in body and "\xad" not in "".join(
                  re.findall(r"[\w.\xad-]+@[\w.\xad-]+|https?://[^\s<\"]+", body)), "")
    # html.fonts: system.
    out = os.path.join(TMP, "he-system.html")
    rc, _, err = run([BIN, os.path.join(PROFILES, "he.yaml"), "-o", out, "--set",
                      "layout.html.fonts=system"])
    src = open(out, encoding="utf-8").read() if rc == 0 else ""
    check("html.fonts: system: no face embedded, the families named",
          rc == 0 and "@font-face" not in src and re.search(r'font-family:"[^"]+"', src),
          (rc, err))
    rc, _, err = run([BIN, os.path.join(PROFILES, "he.yaml"), "-o", out, "--set",
                      "layout.html.fonts=web"])
    check("html.fonts: web is an error at the option", rc == 1 and "html.fonts" in err,
          (rc, err))


# Each run of text the browser sets, with the font it sets it in: the
# page's text nodes, and the markers and separators its CSS draws (an
# <ol>'s numbers made as the browser makes them).
FONTS_PROBE = """addEventListener('load', function () {
  var out = [];
  function font(cs) { return [cs.fontFamily, cs.fontWeight, cs.fontStyle, cs.fontVariantCaps]; }
  var tw = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (var n = tw.nextNode(); n; n = tw.nextNode())
    if (n.data.trim() && !n.parentElement.closest('script, style'))
      out.push([n.data, 0].concat(font(getComputedStyle(n.parentElement))));
  document.querySelectorAll('li').forEach(function (li) {
    ['::marker', '::before'].forEach(function (ps) {
      var cs = getComputedStyle(li, ps), c = cs.content;
      if (ps === '::marker' && li.parentElement.tagName === 'OL') {
        var items = Array.from(li.parentElement.children), i = items.indexOf(li);
        c = JSON.stringify((li.parentElement.reversed ? items.length - i : i + 1) + '. ');
      }
      if (c && c !== 'none' && c !== 'normal') out.push([c, 1].concat(font(cs)));
    });
  });
  document.fonts.ready.then(function () {
    var faces = [];
    document.fonts.forEach(function (f) { faces.push([f.family, f.weight, f.style, f.status]); });
    var p = document.createElement('pre'); p.id = 'cvpdf-fonts';
    p.textContent = JSON.stringify({runs: out, faces: faces}); document.body.appendChild(p);
  });
});"""

# A profile that sets text in every style and part: bold, italic and code
# in a paragraph, Han, Hebrew and curly quotes in bold and italic, a
# numbered list, highlights.
MIX = """cv:
  name: Zoë Ångström
  headline: "Research engineer, *systems* and **compilers**"
  email: zoe@example.org
  location: Tel Aviv
  sections:
    summary:
      - "Plain “quoted” text, **bold “quoted” text with ğ**, *italic 方佳瑞 and שלום*, **שלום 方佳瑞**, ***both***, and `code_x = 1;`."
    patents:
      - number: "A first patent, **its claim**"
      - number: "A second patent"
    experience:
      - company: Acme Ltd
        position: Engineer
        start_date: 2020-01
        end_date: present
        highlights:
          - "Built the **first** thing"
          - "Kept *the other* one running"
"""


def css_unescape(q):
    return re.sub(r"\\([0-9a-fA-F]{1,6}) ?|\\(.)",
                  lambda h: chr(int(h.group(1), 16)) if h.group(1) else h.group(2), q)


def embedded_faces(src):
    """{family: [(weight, style, cmap, unicode-range or None)]} of the
    page's @font-face rules, each face read by fontTools."""
    import base64
    faces = {}
    for m in re.finditer(r"@font-face\{([^}]*)\}", src):
        rule = m.group(1)
        fam = re.search(r"font-family:([^;]+);", rule).group(1).strip("\"'")
        weight = int(re.search(r"font-weight:(\d+)", rule).group(1))
        style = re.search(r"font-style:(\w+)", rule).group(1)
        rng = None
        r = re.search(r"unicode-range:([^;]+);", rule)
        if r:
            rng = set()
            for part in r.group(1).split(","):
                lo, _, hi = part.strip()[2:].partition("-")
                rng |= set(range(int(lo, 16), int(hi or lo, 16) + 1))
        data = re.search(r"base64,([A-Za-z0-9+/=]+)\)", rule).group(1)
        f = TTFont(io.BytesIO(base64.b64decode(data)))
        faces.setdefault(fam, []).append((weight, style, set(f.getBestCmap()), rng, f))
    return faces


def matched(faces, weight, style):
    """The rules of one family the browser takes for text of `weight` and
    `style` (CSS Fonts 4, font matching: the style first, then the
    weight); several when they differ by unicode-range."""
    order = {"italic": ["italic", "oblique", "normal"],
             "oblique": ["oblique", "italic", "normal"]}.get(style, ["normal", "oblique", "italic"])
    cand = next(c for c in ([f for f in faces if f[1] == s] for s in order) if c)
    ws = sorted(set(f[0] for f in cand))
    if weight in ws:
        w = weight
    elif 400 <= weight <= 500:
        up = [x for x in ws if weight < x <= 500]
        lo = [x for x in ws if x < weight]
        w = min(up) if up else max(lo) if lo else min(x for x in ws if x > 500)
    elif weight < 400:
        lo = [x for x in ws if x < weight]
        w = max(lo) if lo else min(ws)
    else:
        hi = [x for x in ws if x > weight]
        w = min(hi) if hi else max(ws)
    return [f for f in cand if f[0] == w]


def font_runs(path):
    copy = test_copy(path, FONTS_PROBE)
    rc, dom = chromium(["--window-size=1280,900", "--virtual-time-budget=3000",
                        "--dump-dom", "file://" + copy])
    m = re.search(r'<pre id="cvpdf-fonts">(.*?)</pre>', dom, re.S)
    return json.loads(html.unescape(m.group(1))) if m else None


def coverage():
    """Every character the page shows is in the embedded face the browser
    takes for it: in the family, weight and style the page's CSS sets it
    in (Chromium's computed style of each run of text, marker and
    separator), from the first family of its font-family list that has
    the character in any face (a character set in bold that the bold face
    lacks would otherwise be drawn from a later family); and every face
    embedded draws some character the page sets in its style, and holds
    no other."""
    mix = os.path.join(TMP, "mix.yaml")
    open(mix, "w", encoding="utf-8").write(MIX)
    cases = [(n, a, None) for n, a in CASES + [("he", ["-l", "sidebar"])]]
    cases += [("mix", ["-l", l], mix) for l in ("classic", "ink", "ember")]
    for name, args, prof in cases:
        label = name + "".join(" (%s)" % a for a in args if a != "-l")
        if prof:
            path = os.path.join(TMP, "mix-%s.html" % args[1])
            rc, _, err = run([BIN, prof, "-o", path] + args)
            path = path if rc == 0 else None
        else:
            path, err = page(name, args)
        if not check("%s: written" % label, path, err):
            continue
        src = open(path, encoding="utf-8").read()
        faces = embedded_faces(src)
        if name == "fang-zh":
            halt = any("GPOS" in f[4] and 0x3002 in f[2] and "halt" in
                       {r.FeatureTag for r in f[4]["GPOS"].table.FeatureList.FeatureRecord}
                       for fs in faces.values() for f in fs)
            check("fang-zh: the CJK face keeps 'halt' (the browser sets '）。' tight, "
                  "as the PDF)", halt)
        got = font_runs(path)
        if not check("%s: chromium gives each run of text its font" % label, got, path):
            continue
        runs = got["runs"]
        # Each face is a font chromium reads (its OpenType sanitizer
        # rejects a broken one) and loads, the page's text needing it.
        bad = [f for f in got["faces"] if f[3] != "loaded"]
        check("%s: chromium loads each of the %d faces" % (label, len(got["faces"])),
              len(got["faces"]) == sum(len(f) for f in faces.values()) and not bad,
              bad or (len(got["faces"]), sum(len(f) for f in faces.values())))
        served = {}                   # (family, weight, style, ranged) -> characters
        missing, later, shown = [], [], set()
        for text, drawn, family, weight, style, caps in runs:
            if drawn:                 # a CSS string: drawn as it is (white-space:pre)
                chars = set("".join(css_unescape(q) for q in
                                    re.findall(r'"((?:[^"\\]|\\.)*)"', text)))
            else:                     # a space only between two characters
                t = re.sub(r"[ \t\n\r\f]+", " ", text.replace("\xad", "")).strip(" \t\n\r\f")
                chars = set(t)
            if caps == "small-caps":  # drawn as smaller capitals where the face has no smcp
                chars |= set(u for c in chars for u in c.upper() if u != c)
            fams = [f.strip().strip("\"'") for f in family.split(",")]
            fams = [f for f in fams if f in faces]
            if not fams:              # the reader's fonts (code without a face of its own)
                continue
            weight = int(weight)
            for c in sorted(chars):
                cp = ord(c)
                if c in "\n\t":
                    continue
                shown.add(c)
                take = None
                for f in fams:
                    for rule in matched(faces[f], weight, style):
                        if cp in rule[2] and (rule[3] is None or cp in rule[3]):
                            take = (f, rule)
                            break
                    if take:
                        break
                where = "%s %s %s" % (c, weight, style)
                if not take:
                    missing.append(where)
                    continue
                first = next(f for f in fams if any(cp in r[2] for r in faces[f]))
                if first != take[0]:
                    later.append("%s from %s, not %s" % (where, take[0], first))
                key = (take[0], take[1][0], take[1][1], take[1][3] is not None)
                served.setdefault(key, set()).add(c)
        check("%s: every character shown (text, markers, separators: %d) is in the face "
              "of its family, weight and style" % (label, len(shown)),
              shown and not missing, missing[:12])
        check("%s: each character from the first family that has it (none set in bold "
              "missing from the bold face)" % label, not later, later[:12])
        idle, extra = [], []
        for fam, fs in faces.items():
            for w, st, cmap, rng, _ in fs:
                got = served.get((fam, w, st, rng is not None), set())
                if not got:
                    idle.append("%s %d %s" % (fam, w, st))
                # A hyphen may be drawn where the browser hyphenates.
                more = sorted(chr(c) for c in cmap if chr(c) not in got and chr(c) not in " -")
                if more:
                    extra.append("%s %d %s: %s" % (fam, w, st, "".join(more[:20])))
        check("%s: no face embedded that draws no character the page sets in its style (%d "
              "faces)" % (label, sum(len(f) for f in faces.values())),
              faces and not idle, idle)
        check("%s: each face holds only characters the page sets in its style" % label,
              not extra, extra[:6])


def jsonld():
    path, err = page("fang")
    if not check("fang: written", path, err):
        return
    t = parse(path)
    check("the only <script> is JSON-LD", len(t.scripts) == 1 and
          t.scripts[0][0].get("type") == "application/ld+json", [s[0] for s in t.scripts])
    try:
        ld = json.loads(t.scripts[0][1])
    except (ValueError, IndexError) as e:
        check("the JSON-LD parses", False, e)
        return
    check("the JSON-LD parses", True)
    check("a schema.org Person", ld.get("@context") == "https://schema.org" and
          ld.get("@type") == "Person", ld.get("@type"))
    for k in ("name", "jobTitle", "email", "sameAs", "worksFor", "alumniOf", "address"):
        check("Person has %s" % k, ld.get(k), sorted(ld))
    check("Person's name is the profile's", ld.get("name") == "Jiarui Fang", ld.get("name"))
    check("sameAs holds the GitHub profile",
          "https://github.com/feifeibear" in ld.get("sameAs", []), ld.get("sameAs"))
    works = [o.get("name") for o in ld.get("worksFor", [])]
    check("worksFor the current employer", works and all(works), works)
    check("alumniOf the schools", len(ld.get("alumniOf", [])) >= 2, ld.get("alumniOf"))
    path, _ = page("he")
    if path:
        ld = json.loads(parse(path).scripts[0][1])
        check("he: ORCID in sameAs",
              any("orcid.org" in u for u in ld.get("sameAs", [])), ld.get("sameAs"))
    path, err = full()
    if check("ada: written", path, err):
        ld = json.loads(parse(path).scripts[0][1])
        check("ada: url, telephone, address, two sameAs, worksFor the current company only",
              ld.get("url") == "https://ada.example.org/" and
              ld.get("telephone") == "+44 20 7946 0958" and
              ld.get("address", {}).get("addressLocality") == "Cambridge, UK" and
              len(ld.get("sameAs", [])) == 2 and
              [o["name"] for o in ld.get("worksFor", [])] == ["Analytical Engines Ltd"] and
              [o["name"] for o in ld.get("alumniOf", [])] == ["University of London"], ld)
    # JSON Resume's basics.profiles (custom connections with a link) are
    # social profiles too: sameAs has each one's URL.
    out = os.path.join(TMP, "jr-full.html")
    rc, _, err = run([BIN, os.path.join(ROOT, "tests/data/jsonresume/ok/full.json"), "-o", out])
    if check("JSON Resume full.json: written", rc == 0, err):
        ld = json.loads(parse(out).scripts[0][1])
        same = ld.get("sameAs", [])
        check("JSON Resume: sameAs has each of basics.profiles' URLs",
              "https://linkedin.com/in/inescarvalhal" in same and
              any("orcid.org/0000-0002-1694-233X" in u for u in same), ld)


_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff"
_WORD = re.compile(r"[%s]|[^\W_%s]+" % (_CJK, _CJK))


def words(text):
    return set(w.lower() for w in _WORD.findall(text))


def profile_words(node):
    out = set()
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("photo", "date", "start_date", "end_date", "url", "doi", "phone",
                     "network", "username", "icon", "bib"):
                continue
            out |= profile_words(v)
    elif isinstance(node, list):
        for v in node:
            out |= profile_words(v)
    elif isinstance(node, str):
        out |= words(re.sub(r"\]\([^)]*\)", "]", node))
    return out


def chromium(args, timeout=120):
    prof = tempfile.mkdtemp(prefix="chromium-", dir=TMP)
    try:
        p = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                            "--no-first-run", "--hide-scrollbars", "--user-data-dir=" + prof]
                           + args, capture_output=True, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    finally:
        shutil.rmtree(prof, ignore_errors=True)


def test_copy(path, script):
    """A copy of the page with `script` run at load and allowed by its CSP
    (cvpdf's page itself runs no script)."""
    src = open(path, encoding="utf-8").read()
    src = src.replace("default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';")
    src = src.replace("</body>", "<script>%s</script>\n</body>" % script)
    out = path[:-5] + "-test%d.html" % len(os.listdir(TMP))
    open(out, "w", encoding="utf-8").write(src)
    return out


# Headless chromium makes no window narrower than 500 px: the page is
# measured in an iframe of the width asked for, and says what it measured
# to the frame around it.
PROBE = """addEventListener('load', function () {
  var d = document.documentElement;
  var lead = [], prev = null;
  document.querySelectorAll('ul.contact li').forEach(function (li) {
    var sep = getComputedStyle(li, '::before').content;
    if (prev !== null && li.offsetTop > prev && sep !== 'none' && sep !== 'normal')
      lead.push(li.textContent);
    prev = li.offsetTop;
  });
  var deg = [];
  document.querySelectorAll('.head .degree').forEach(function (e) {
    var c = e.firstElementChild;
    deg.push([e.getBoundingClientRect().height, c ? c.getBoundingClientRect().height : 0]);
  });
  var reach = document.querySelector('section.reach'), main = document.querySelector('main');
  var tops = reach && main ? [reach.getBoundingClientRect().top,
                              main.getBoundingClientRect().top] : null;
  parent.postMessage(JSON.stringify({sw: d.scrollWidth, cw: d.clientWidth, lead: lead, deg: deg,
                                     tops: tops,
                                     vw: innerWidth, text: document.body.innerText}), '*');
});"""
FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="%s" style="width:%dpx;height:900px;border:0"></iframe>
<script>addEventListener('message', function (e) {
  var p = document.createElement('pre'); p.id = 'cvpdf-probe';
  p.textContent = e.data; document.body.appendChild(p); });</script></body></html>"""


def probe(path, width):
    frame = path[:-5] + "-frame%d.html" % width
    open(frame, "w", encoding="utf-8").write(
        FRAME % (os.path.basename(test_copy(path, PROBE)), width))
    rc, dom = chromium(["--window-size=1280,900", "--virtual-time-budget=3000",
                        "--dump-dom", "file://" + frame])
    m = re.search(r'<pre id="cvpdf-probe">(.*?)</pre>', dom, re.S)
    if not m:
        return None
    return json.loads(html.unescape(m.group(1)))


def read_png_size_ink(path):
    """(width, height, fraction of rows with ink) of an 8-bit RGB(A) PNG."""
    data = open(path, "rb").read()
    w, h, depth, ctype = struct.unpack(">IIBB", data[16:26])
    pos, idat = 8, b""
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        if typ == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    bpp = {2: 3, 6: 4}.get(ctype, 3)
    stride = w * bpp
    prev = bytearray(stride)
    inked = 0
    i = 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if min(line[k] for k in range(0, stride, bpp)) < 128:
            inked += 1
    return w, h, inked / h


def pages_of(pdf):
    rc, out, _ = run(["pdfinfo", pdf])
    m = re.search(r"Pages:\s+(\d+)", out)
    return int(m.group(1)) if rc == 0 and m else -1


def browser():
    shots = os.environ.get("CVPDF_HTML_SHOTS")
    for name, args in CASES[:3]:
        path, err = page(name, args)
        if not check("%s: written" % name, path, err):
            continue
        for width in (1280, 375):
            png = os.path.join(TMP, "%s-%d.png" % (name, width))
            rc, _ = chromium(["--window-size=%d,1400" % width, "--screenshot=" + png,
                              "file://" + path])
            ok = rc == 0 and os.path.exists(png)
            w, h, ink = read_png_size_ink(png) if ok else (0, 0, 0)
            check("%s at %d px: a screenshot %dx%d with text on %.0f%% of its rows"
                  % (name, width, w, h, ink * 100), ok and w == width and ink > 0.2,
                  (rc, w, h, ink))
            if ok and shots and os.path.isdir(shots):
                shutil.copy(png, shots)
        r = probe(path, 375)
        check("%s at 375 px: no horizontal scrolling (scrollWidth %s, clientWidth %s)"
              % (name, r and r["sw"], r and r["cw"]),
              r and r["vw"] == 375 and r["sw"] <= r["cw"], r and (r["sw"], r["cw"], r["vw"]))
        # Every word of the profile the PDF shows is in the page's text.
        pdf = os.path.join(TMP, name + ".pdf")
        rc, _, err = run([BIN, os.path.join(PROFILES, name + ".yaml"), "-o", pdf] + args)
        rc2, ptext, _ = run(["pdftotext", pdf, "-"])
        import yaml
        prof = yaml.safe_load(open(os.path.join(PROFILES, name + ".yaml"), encoding="utf-8"))
        pw = profile_words(prof["cv"]) & words(ptext)
        hw = words(r["text"].replace("\xad", "")) if r else set()
        missing = sorted(pw - hw)
        check("%s: the %d profile words the PDF shows are all in the page's text"
              % (name, len(pw)), rc == 0 and len(pw) > 60 and not missing, missing[:20])
        # Printed: within a page of cvpdf's PDF.
        printed = os.path.join(TMP, name + "-printed.pdf")
        rc3, _ = chromium(["--no-pdf-header-footer", "--print-to-pdf=" + printed,
                           "file://" + path])
        n, m = pages_of(printed), pages_of(pdf)
        check("%s: printed from chromium, %d page(s); cvpdf's PDF %d" % (name, n, m),
              n > 0 and m > 0 and abs(n - m) <= 1, (rc3, n, m))


AXE_RUN = """addEventListener('load', function () {
  axe.run(document, {resultTypes: ['violations']}).then(function (r) {
    var p = document.createElement('pre'); p.id = 'cvpdf-axe';
    p.textContent = JSON.stringify(r.violations.map(function (v) {
      return {id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map(function (n) {
        return n.target.join(' '); })}; }));
    document.body.appendChild(p);
  });
});"""


# The width of each <span lang> run in the page's justified text, and the
# same text's width set alone (no justification).
CJK_GAP = """addEventListener('load', function () {
  var out = [];
  document.querySelectorAll('main .lines p span[lang]').forEach(function (s) {
    var alone = document.createElement('span');
    alone.style.cssText = 'position:absolute;white-space:nowrap;font:inherit';
    alone.textContent = s.textContent;
    s.parentNode.appendChild(alone);
    out.push([s.textContent, s.getBoundingClientRect().width,
              alone.getBoundingClientRect().width,
              getComputedStyle(s.closest('p')).textAlign]);
    alone.remove();
  });
  var p = document.createElement('pre'); p.id = 'cvpdf-cjk';
  p.textContent = JSON.stringify(out); document.body.appendChild(p);
});"""


def justified_cjk():
    """A Chinese name inside an English justified paragraph keeps its
    letters together in the browser, as in the PDF: only the spaces
    stretch.  A Chinese page still justifies between its characters."""
    prof = os.path.join(TMP, "cjk-in-en.yaml")
    para = ("I study distributed systems for machine learning with a focus on sparse "
            "and heterogeneous workloads; my group built a training framework used at "
            "three national laboratories. I collaborate with 王建国 (Tsinghua), "
            "Ahmad Al-Farsi (KAUST) and Priya Raghunathan (IISc) on sparse communication "
            "and scheduling for mixture-of-experts models at very large scale.")
    with open(prof, "w", encoding="utf-8") as f:
        f.write("cv:\n  name: Jonathan Okonkwo\n  sections:\n    summary:\n      - \"%s\"\n"
                % para)
    for width in (700, 900, 1100):
        out = os.path.join(TMP, "cjk-in-en-%d.html" % width)
        rc, _, err = run([BIN, prof, "-o", out])
        if not check("cjk-in-en: written", rc == 0, err):
            return
        rc, dom = chromium(["--window-size=%d,900" % width, "--virtual-time-budget=3000",
                            "--dump-dom", "file://" + test_copy(out, CJK_GAP)])
        m = re.search(r'<pre id="cvpdf-cjk">(.*?)</pre>', dom, re.S)
        got = json.loads(html.unescape(m.group(1))) if m else []
        check("cjk-in-en at %d px: the justified paragraph's Chinese name is as wide as "
              "set alone (its letters not spread)" % width,
              len(got) == 1 and got[0][0] == "王建国" and got[0][3] == "justify"
              and got[0][1] <= got[0][2] + 0.5, got)


CJK_LINES = """addEventListener('load', function () {
  var out = [];
  document.querySelectorAll('main span[lang]').forEach(function (s) {
    out.push([s.textContent, s.getClientRects().length]);
  });
  var p = document.createElement('pre'); p.id = 'cvpdf-cjk';
  p.textContent = JSON.stringify(out); document.body.appendChild(p);
});"""


def cjk_word():
    """As in the PDF, a short Chinese word among English words (普通话) is
    never broken between lines by the browser, wherever the line ends."""
    bullets = "".join("          - \"%sMandarin \u666e\u901a\u8bdd (basic) and more.\"\n"
                      % ("Spoken " * k) for k in range(24))
    prof = os.path.join(TMP, "cjk-word.yaml")
    with open(prof, "w", encoding="utf-8") as f:
        f.write("cv:\n  name: Ada Lin\n  sections:\n    experience:\n      - company: Example\n"
                "        position: Engineer\n        start_date: 2020-01\n        highlights:\n"
                + bullets)
    out = os.path.join(TMP, "cjk-word.html")
    rc, _, err = run([BIN, prof, "-o", out])
    if not check("cjk-word: written", rc == 0, err):
        return
    for width in (700, 1000):
        rc, dom = chromium(["--window-size=%d,900" % width, "--virtual-time-budget=3000",
                            "--dump-dom", "file://" + test_copy(out, CJK_LINES)])
        m = re.search(r'<pre id="cvpdf-cjk">(.*?)</pre>', dom, re.S)
        got = json.loads(html.unescape(m.group(1))) if m else []
        split = [g for g in got if g[1] != 1]
        check("cjk-word at %d px: each of the 24 \u666e\u901a\u8bdd on one line" % width,
              len(got) == 24 and not split, split[:4] or got[:3])


def contact_rows():
    """RenderCV's sample has nine contact items: at 375 px they take
    several lines, and no line starts with the separator."""
    out = os.path.join(TMP, "sample.html")
    rc, _, err = run([BIN, os.path.join(ROOT, "tests/data/rendercv/sample.yaml"), "-o", out])
    if not check("RenderCV's sample: written", rc == 0, err):
        return
    r = probe(out, 375)
    check("sample at 375 px: no contact line starts with a separator",
          r and r["vw"] == 375 and r["lead"] == [], r and r["lead"])
    # classic's degree column on a phone: a line above the entry's title,
    # no taller than its text (its width must not become its height).
    path, err = page("weber-de", ["-l", "classic"])
    r = probe(path, 375) if path else None
    check("weber-de (classic) at 375 px: each degree as tall as its text",
          r and len(r["deg"]) == 2 and all(h <= c + 1 for h, c in r["deg"]), r and r["deg"])
    # The sidebar on a phone: its contact block above the main column's
    # sections, not after the last of them.
    path, err = page("he", ["-l", "sidebar"])
    r = probe(path, 375) if path else None
    check("he (sidebar) at 375 px: the contact block before the main column",
          r and r["tops"] and r["tops"][0] < r["tops"][1], r and r["tops"])


def axe():
    if not check("axe-core installed (sh tests/deps.sh check)", os.path.exists(AXE), AXE):
        return
    lib = open(AXE, encoding="utf-8").read()
    # A JSON Resume without basics has no name: the page has its <h1> all
    # the same (for a screen reader).
    nameless = os.path.join(TMP, "no_basics.html")
    rc, _, err = run([BIN, os.path.join(ROOT, "tests/data/jsonresume/ok/no_basics.json"),
                      "-o", nameless])
    for name, args in CASES[:3] + [("he", ["-l", "sidebar"]), ("no_basics", None)]:
        path, err = page(name, args) if args is not None else (rc == 0 and nameless, err)
        if not path:
            check("%s: written" % name, False, err)
            continue
        copy = test_copy(path, lib.replace("</script", "<\\/script") + "\n" + AXE_RUN)
        rc, dom = chromium(["--window-size=1280,900", "--virtual-time-budget=20000",
                            "--dump-dom", "file://" + copy], timeout=180)
        m = re.search(r'<pre id="cvpdf-axe">(.*?)</pre>', dom, re.S)
        v = json.loads(html.unescape(m.group(1))) if m else None
        label = name + (" (sidebar)" if args and "sidebar" in args else "")
        check("%s: axe-core reports no violation" % label, v == [], v if v else (rc, dom[-300:]))


HOSTILE = """cv:
  name: "Eve <script>alert(1)</script> O'Brien & \\"Co\\""
  headline: "<img src=x onerror=alert(1)> ' \\" &amp;"
  email: eve@example.org
  website: https://example.org/?a=1&b="2"
  custom_connections:
    - placeholder: Blog
      url: "https://blog.example/)](javascript:alert(3)"
      fontawesome_icon: link
  sections:
    notes:
      - "[click](javascript:alert(1)) and [data](data:text/html,<b>x</b>) and [ok](https://example.org/a?b=<c>)"
      - "</script><script>alert(2)</script>"
    experience:
      - company: "Acme </script> Inc"
        position: "<b>Boss</b>"
        start_date: 2020-01
        end_date: present
"""


def safety():
    prof = os.path.join(TMP, "hostile.yaml")
    open(prof, "w", encoding="utf-8").write(HOSTILE)
    out = os.path.join(TMP, "hostile.html")
    rc, _, err = run([BIN, prof, "-o", out])
    if not check("hostile profile rendered", rc == 0, err):
        return
    src = open(out, encoding="utf-8").read()
    t = parse(out)
    check("no element the text asked for (<script>, <img>, <b>)",
          len(t.scripts) == 1 and not tags(t, "b") and
          all(e[1].get("class") == "photo" for e in tags(t, "img")),
          [e[0] for e in t.elems if e[0] in ("script", "b", "img")])
    check("no attribute the text asked for (onerror)", not any(
        k.startswith("on") for e in t.elems for k in e[1]), "onerror")
    hrefs = [e[1].get("href") for e in tags(t, "a")]
    check("links only http, https, mailto, tel: javascript: and data: dropped",
          all(re.match(r"(https?|mailto|tel):", h) for h in hrefs) and
          not any(h.lower().startswith(("javascript:", "data:")) for h in hrefs), hrefs)
    text = "".join(t.text)
    check("the text itself kept, escaped: <script>, quotes, &",
          "Eve <script>alert(1)</script> O'Brien & \"Co\"" in text and
          "[click]" not in text and "click and data and ok" in text.replace("  ", " "),
          re.findall(r"Eve.{0,60}", text)[:1] + re.findall(r".{0,10}click.{0,40}", text)[:1])
    check("an https link with < > kept, percent-encoded",
          "https://example.org/a?b=%3Cc%3E" in hrefs, hrefs)
    check("a connection's URL with an unbalanced ')' is one link, all of it, and none of it "
          "shown as text", "https://blog.example/)](javascript:alert(3)" in hrefs and
          "alert(3)" not in text, (hrefs, re.findall(r".{0,20}alert\(3.{0,20}", text)))
    bad = [h for h in hrefs if re.search(r'[\s"<>\\^`{|}]', h)]
    check("no space, quote, < > or other byte a URL may not hold in an href", not bad, bad)
    try:
        ld = json.loads(t.scripts[0][1])
        check("the JSON-LD parses, the name whole, no '</' in it",
              ld["name"].startswith("Eve <script>") and "</" not in t.scripts[0][1], ld["name"])
    except ValueError as e:
        check("the JSON-LD parses", False, e)


def writes():
    he = os.path.join(PROFILES, "he.yaml")
    p = subprocess.run([BIN, he, "-o", "-", "--format", "html"], capture_output=True,
                       timeout=120)
    out = p.stdout.decode("utf-8", "replace")
    check("-o - --format html: the page on the standard output, nothing on stderr",
          p.returncode == 0 and out.startswith("<!DOCTYPE html>") and
          out.rstrip().endswith("</html>") and not p.stderr, (p.returncode, p.stderr[:300]))
    d = tempfile.mkdtemp(dir=TMP)
    prof = os.path.join(d, "me.html")
    shutil.copy(he, prof)
    before = open(prof, "rb").read()
    rc, _, err = run([BIN, prof, "-o", prof])
    check("an output that is an input is refused (exit 2), the file untouched",
          rc == 2 and open(prof, "rb").read() == before, (rc, err))
    rc, _, err = run([BIN, he, os.path.join(PROFILES, "li.yaml"), "--merge",
                      os.path.join(d, "all.html")])
    check("--merge all.html is a usage error naming --merge", rc == 2 and "--merge" in err,
          (rc, err))
    rc, _, err = run([BIN, he, "-o", os.path.join(d, "cv.htm")])
    check("-o cv.htm: not a format (exit 2), the extensions named",
          rc == 2 and ".html" in err, (rc, err))
    # --watch: the page follows the profile.
    prof = os.path.join(d, "w.yaml")
    shutil.copy(he, prof)
    out = os.path.join(d, "w.html")
    w = subprocess.Popen([BIN, "--watch", prof, "-o", out], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not os.path.exists(out):
            time.sleep(0.1)
        first = os.path.exists(out)
        time.sleep(0.5)
        text = open(prof, encoding="utf-8").read().replace("Jiaao He", "Jiaao Watched", 1)
        tmp = prof + ".tmp"
        open(tmp, "w", encoding="utf-8").write(text)
        os.replace(tmp, prof)
        ok = False
        while time.monotonic() < deadline and not ok:
            time.sleep(0.2)
            ok = "Jiaao Watched" in open(out, encoding="utf-8").read()
        check("--watch -o w.html: rendered, then again when the profile is saved",
              first and ok, (first, ok))
    finally:
        testlib.stop_group(w)


if __name__ == "__main__":
    sys.exit(testlib.main("htmlpage", [structure, coverage, jsonld, browser, justified_cjk, cjk_word,
                                       contact_rows, axe,
                                       safety, writes],
                          tmp=TMP,
                          keep_failed=True))
