#!/usr/bin/env python3
"""Tagged PDF and PDF/UA-1 (issue 18), read back with poppler, pdfminer and
PDFBox.

Usage: tests/tagged.py CVPDF_BINARY [-k PATTERN] [--list]

  order        pdfinfo -struct-text on every profile in every layout: the
               name is the H1; the sections' H2 titles come in the
               profile's order, the sidebar's as one group (before the main
               column when it stands left, after when right); every summary,
               highlight and text entry is found, whole and in the
               profile's order, in the text of its section's element
  sidebar      the sidebar on the right is read after the main column;
               with single_block: false the order holds as well
  coverage     every drawn run is in the tree or an artifact: the tree's
               characters are exactly those of the --dump's runs outside
               the running header and footer, and pdftotext's those of all
               runs (counted as multisets, white space aside, and hyphens
               in pdftotext's case: it joins words hyphenated at line ends)
  rules        tests/pdfua_check.py passes on every PDF above, and catches
               a PDF whose MCIDs, /Alt and /MarkInfo are broken
  pdfua        --pdfua and `pdf: pdfua: true`: the PDF/UA rules too, and
               every profile (and Arabic, Devanagari) with --pdfa --pdfua,
               its CIDSets against the glyphs of the embedded programs; PDF
               1.7 alone, 1.4 with --pdfa; without it no pdfuaid;
               `pdf: tagged: false` writes no tree (unless --pdfua)
  pdfa2        --pdfa=2b, 2u, 2a: PDF 1.7 with object streams, the XMP's
               pdfaid part 2 and conformance, qpdf --check and every rule
               of pdfua_check (an exact CIDSet); 2a tags a layout that says
               tagged: false; --pdfa=3b is a usage error; --pdfa=1b is
               --pdfa (PDF/A-1b cannot be validated beyond Preflight here)
  packed       every PDF but PDF/A-1 is packed by cvpdf's own writer
               (pdf_pack.c): PDF 1.7, object streams, a cross-reference
               stream and no table, qpdf --check clean; every object of
               the file libharu wrote (CVPDF_TEST_UNPACKED) is in the
               packed one with the same number and value, streams byte for
               byte (qpdf's JSON), and pdfminer finds each; the trailer's
               /Root, /Info and /ID kept; tagged and untagged, a photo,
               CJK, Arabic; two packs are byte-identical
  lang         方佳瑞 in an English résumé is a Span /Lang (zh), the
               document /Lang (en); a Chinese résumé has /Lang (zh) and no
               Span for its Chinese
  photo        the photo is a Figure whose /Alt is "Photo of NAME" (in the
               profile's language where cvpdf knows its words), or the
               profile's photo_alt
  whole        words hyphenated at a line's end read whole in the
               structure text (the lab's profiles, sidebar); a paragraph of
               Arabic or Devanagari reads word for word; the fields of a
               Chinese entry are parted; titles drawn in capitals carry
               /ActualText with the words as written
  merge        --merge: one Document, a Part per person in order, each
               with its H1 and /Lang; the rules hold
  fit          --fit-pages: the rules hold and the order is kept
  preflight    PDFBox Preflight passes --pdfa, --pdfa --pdfua, a photo and
               a book
  pdfbox       PDFBox's structure API (tests/java/TagTree.java, compiled
               with javac) reads the same elements and text as poppler
  same         tagging moves nothing: the tagged PDF and the untagged one
               (`pdf: tagged: false`, the PDF cvpdf wrote before tagging)
               read the same in pdftotext -layout and rasterise to the same
               pixels; two renders are byte-identical
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import testlib
from testlib import BIN, ROOT, check, need_pdfminer, read_dump, read_dumps, run

need_pdfminer("tagged")
import yaml  # noqa: E402
from pdfminer.pdfdocument import PDFDocument  # noqa: E402
from pdfminer.pdfparser import PDFParser  # noqa: E402
from pdfminer.pdftypes import resolve1  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pdfua_check  # noqa: E402

TMP = tempfile.mkdtemp(prefix="cvpdf-tagged-")
PROFILES = sorted(os.path.join(ROOT, "profiles", p) for p in os.listdir(os.path.join(ROOT, "profiles"))
                  if p.endswith(".yaml"))
LAYOUTS = sorted(os.path.join(ROOT, "layouts", p) for p in os.listdir(os.path.join(ROOT, "layouts"))
                 if p.endswith(".yaml"))
ENV = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
JAVA_DIR = "/usr/share/java"
PREFLIGHT_JARS = ["pdfbox2.jar", "fontbox2.jar", "preflight.jar", "xmpbox.jar",
                  "commons-logging.jar", "javax.activation.jar", "jaxb-api.jar"]
MADE = []          # (pdf, pdfua) of every PDF made, for the rules group


def stem(p):
    return os.path.splitext(os.path.basename(p))[0]


def render(profile, out, *args):
    p = subprocess.run([BIN, "-q", profile, "-o", out] + list(args), capture_output=True,
                       env=ENV, cwd=ROOT, timeout=300)
    ok = p.returncode == 0 and os.path.exists(out)
    if ok:
        MADE.append((out, "--pdfua" in args))
    return ok, p.stderr.decode("utf-8", "replace")


# ------------------------------------------------------------ the tree

class Node:
    def __init__(self, type_, depth):
        self.type, self.depth, self.kids, self.texts = type_, depth, [], []

    def text(self):
        """Everything beneath, in reading order."""
        out = []
        for k in self.kids:
            out.append(k if isinstance(k, str) else k.text())
        return "".join(out)

    def walk(self):
        yield self
        for k in self.kids:
            if isinstance(k, Node):
                yield from k.walk()


_STRUCT_TEXT = {}       # (pdf, size, mtime): pdfinfo -struct-text's output


def struct_tree(pdf):
    """pdfinfo -struct-text as a tree of Nodes (strings for the text); read
    once per PDF (order and coverage both read each)."""
    st = os.stat(pdf)
    key = (pdf, st.st_size, st.st_mtime_ns)
    if key not in _STRUCT_TEXT:
        _STRUCT_TEXT[key] = run(["pdfinfo", "-struct-text", pdf])[1]
    out = _STRUCT_TEXT[key]
    root = Node("(root)", -1)
    stack = [root]
    for ln in out.splitlines():
        if not ln.strip():
            continue
        ind = (len(ln) - len(ln.lstrip(" "))) // 2
        s = ln.strip()
        while stack[-1].depth >= ind:
            stack.pop()
        if s.startswith('"') and s.endswith('"') and len(s) >= 2:
            stack[-1].kids.append(s[1:-1])
        elif s.startswith("Object "):
            continue
        else:
            n = Node(s.split(" ")[0], ind)
            stack[-1].kids.append(n)
            stack.append(n)
    return root


def norm(s):
    """Letters and digits only, lower case: what must match whatever the
    line breaks, hyphens, letter-spacing and capitals."""
    return "".join(c for c in s.lower() if c.isalnum())


def strip_markup(s):
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)
    return s.replace("**", "").replace("*", "").replace("`", "")


def profile_sections(profile):
    """[(title, [texts that must read in order])] of a profile."""
    with open(profile, encoding="utf-8") as f:
        cv = yaml.safe_load(f)["cv"]
    out = []
    for key, entries in (cv.get("sections") or {}).items():
        if not entries:
            continue
        texts = []
        # A section read from a .bib file ({bib: FILE, ...}): its title only.
        for e in (entries if isinstance(entries, list) else []):
            if isinstance(e, str):
                texts.append(e)
            elif isinstance(e, dict):
                if e.get("summary"):
                    texts.append(str(e["summary"]))
                texts += [h if isinstance(h, str) else str(h.get("text", ""))
                          for h in e.get("highlights") or [] if h]
        out.append((key, [strip_markup(t) for t in texts]))
    return out, cv


def sections_of(tree):
    """[(H2 text, Sect node, in the sidebar?)] in reading order."""
    out = []
    for n in tree.walk():
        if n.type != "Sect":
            continue
        h = [k for k in n.kids if isinstance(k, Node) and k.type == "H2"]
        if h:
            # A section of the sidebar is a Sect inside a Sect (the Sidebar)
            # under the Document: depth 2, the main column's depth 1.
            out.append((h[0].text(), n, n.depth >= 2))
    return out


def title_norm(key):
    return norm(key.replace("_", " "))


def order_checks(name, pdf, profile, layout):
    tree = struct_tree(pdf)
    secs, cv = profile_sections(profile)
    h1 = [n for n in tree.walk() if n.type == "H1"]
    check("order %s: the name is the H1" % name,
          len(h1) == 1 and norm(strip_markup(cv["name"])) in norm(h1[0].text()),
          [n.text() for n in h1])
    got = sections_of(tree)
    want = [title_norm(k) for k, _ in secs]
    side = [norm(t) for t, _, s in got if s]
    main = [norm(t) for t, _, s in got if not s]

    def subseq(a, b):
        it = iter(b)
        return all(x in it for x in a)
    known = [t for t in side + main if t in want]
    check("order %s: every section's title, once" % name,
          sorted(known) == sorted(want), "tree %s, profile %s" % (side + main, want))
    check("order %s: main column's sections in profile order" % name,
          subseq([t for t in main if t in want], want), main)
    check("order %s: sidebar's sections in profile order" % name,
          subseq([t for t in side if t in want], want), side)
    # The sidebar is one group, before or after the main column.
    seq = [s for _, _, s in got]
    changes = sum(1 for a, b in zip(seq, seq[1:]) if a != b)
    check("order %s: the sidebar's sections are one group" % name, changes <= 1, seq)
    with open(layout, encoding="utf-8") as f:
        lay = f.read()
    if side and main:
        left = not re.search(r"^\s*side:\s*right", lay, re.M)
        check("order %s: sidebar read %s the main column" % (name, "before" if left else "after"),
              seq[0] == left, seq)
    # Texts in order in their section.
    by_title = {norm(t): n for t, n, _ in got}
    missing = []
    for key, texts in secs:
        n = by_title.get(title_norm(key))
        if n is None:
            continue
        body = norm(n.text())
        pos = 0
        for t in texts:
            k = body.find(norm(t), pos)
            if norm(t) and k < 0:
                missing.append((key, t[:60]))
            elif norm(t):
                pos = k + len(norm(t))
    check("order %s: every text whole and in order in its section" % name, not missing,
          missing[:3])


def chars(s):
    return collections.Counter(c for c in s if not c.isspace())


def runs_of(dump):
    """[(page, in the running header or footer, text)] of a testlib.Dump."""
    runs = []
    for pg in dump:
        furniture = [g[1:] for g in pg["regions"] if g.name in ("page_header", "page_footer")]
        for r in pg["runs"]:
            x, y = r["x"], r["y"]
            furn = any(x0 - 0.5 <= x <= x1 + 0.5 and y0 - 0.5 <= y <= y1 + 0.5
                       for x0, y0, x1, y1 in furniture)
            runs.append((pg["n"], furn, r["text"]))
    return runs


def dump_runs(profile, layout, *args):
    """[(page, in the running header or footer, text)] from --dump."""
    p = subprocess.run([BIN, "-q", profile, "-l", layout, "--dump"] + list(args),
                       capture_output=True, env=ENV, cwd=ROOT, timeout=300)
    return runs_of(read_dump(p.stdout.decode("utf-8")))


def dump_runs_all(layout):
    """dump_runs(profile, layout) of every profile, from one batch (cvpdf
    -j 1: the same dumps as single runs); each alone when the batch fails."""
    p = subprocess.run([BIN, "-q", "-j", "1", "-l", layout, "--dump"] + PROFILES,
                       capture_output=True, env=ENV, cwd=ROOT, timeout=300)
    dumps = read_dumps(p.stdout.decode("utf-8")) if p.returncode == 0 else []
    if len(dumps) != len(PROFILES):
        return {prof: dump_runs(prof, layout) for prof in PROFILES}
    return {prof: runs_of(d) for prof, d in zip(PROFILES, dumps)}


def render_all(layout, pdfs):
    """render(profile, pdfs[profile], "-l", layout) of every profile, from one
    batch (cvpdf -j 1 -o DIR/: the same bytes as single runs); each alone
    when the batch fails: {profile: (ok, stderr)}."""
    d = os.path.join(TMP, "batch-" + stem(layout))
    p = subprocess.run([BIN, "-q", "-j", "1", "-l", layout, "-o", d + "/"] + PROFILES,
                       capture_output=True, env=ENV, cwd=ROOT, timeout=300)
    made = [os.path.join(d, stem(prof) + ".pdf") for prof in PROFILES]
    if p.returncode != 0 or not all(os.path.exists(m) for m in made):
        return {prof: render(prof, pdfs[prof], "-l", layout) for prof in PROFILES}
    for prof, m in zip(PROFILES, made):
        os.replace(m, pdfs[prof])
        MADE.append((pdfs[prof], False))
    return {prof: (True, p.stderr.decode("utf-8", "replace")) for prof in PROFILES}


# -------------------------------------------------------------- groups

def order():
    for layout in LAYOUTS:
        pdfs = {profile: os.path.join(TMP, "%s-%s.pdf" % (stem(layout), stem(profile)))
                for profile in PROFILES}
        made = render_all(layout, pdfs)
        for profile in PROFILES:
            name = "%s/%s" % (stem(layout), stem(profile))
            pdf = pdfs[profile]
            ok, err = made[profile]
            if check("order %s: renders" % name, ok, err[-300:]):
                order_checks(name, pdf, profile, layout)


def variant(tag, body):
    """A layout extending sidebar.yaml with `body` (YAML) added."""
    p = os.path.join(TMP, "layout-%s.yaml" % tag)
    with open(p, "w") as f:
        f.write("extends: %s\n%s" % (os.path.join(ROOT, "layouts", "sidebar.yaml"), body))
    return p


def sidebar():
    """The sidebar on the right is read after the main column; with
    single_block: false (the main column's spacing) the tree's order is
    the same."""
    for tag, body in (("right", "columns:\n  sidebar:\n    side: right\n"),
                      ("spaced", "columns:\n  sidebar:\n    single_block: false\n")):
        lay = variant(tag, body)
        for profile in PROFILES:
            name = "sidebar-%s/%s" % (tag, stem(profile))
            pdf = os.path.join(TMP, "%s-%s.pdf" % (tag, stem(profile)))
            ok, err = render(profile, pdf, "-l", lay)
            if check("order %s: renders" % name, ok, err[-300:]):
                order_checks(name, pdf, profile, lay if tag == "right" else
                             os.path.join(ROOT, "layouts", "sidebar.yaml"))


def coverage():
    for layout in LAYOUTS:
        dumps = dump_runs_all(layout)
        for profile in PROFILES:
            name = "%s/%s" % (stem(layout), stem(profile))
            pdf = os.path.join(TMP, "%s-%s.pdf" % (stem(layout), stem(profile)))
            if not os.path.exists(pdf) and not render(profile, pdf, "-l", layout)[0]:
                check("coverage %s: renders" % name, False)
                continue
            runs = dumps[profile]
            # A hyphen a line break added is an artifact (issue 28): hyphens
            # are not counted (the group `whole` checks those words).
            tree = chars(struct_tree(pdf).text().replace("-", ""))
            body = chars("".join(t for _, f, t in runs if not f).replace("-", ""))
            check("coverage %s: the tree holds every run but the running header and footer"
                  % name, tree == body,
                  "only in the tree: %s; only drawn: %s" % (dict(tree - body), dict(body - tree)))
            # pdftotext joins a word hyphenated at a line's end, dropping
            # the hyphen: hyphens are not counted.
            rc, txt, _ = run(["pdftotext", "-enc", "UTF-8", pdf, "-"])
            # It marks right-to-left text with bidi embeddings that are drawn
            # nowhere: not counted either.
            txt = re.sub("[\u200e\u200f\u202a-\u202e\u2066-\u2069]", "", txt.replace("-", ""))
            every = chars("".join(t for _, _, t in runs).replace("-", ""))
            check("coverage %s: pdftotext reads every run, nothing more" % name,
                  chars(txt) == every,
                  "pdftotext only: %s; dump only: %s" % (dict(chars(txt) - every),
                                                         dict(every - chars(txt))))


def rules():
    if not MADE:
        for profile in PROFILES:
            pdf = os.path.join(TMP, "rules-%s.pdf" % stem(profile))
            render(profile, pdf)
    for pdf, ua in MADE:
        probs = pdfua_check.problems(pdf, ua)
        check("rules %s%s" % (stem(pdf), " (pdfua)" if ua else ""), not probs, probs[:5])
        # qpdf reads every file whole; object streams and a cross-reference
        # stream, PDF 1.7, in all but PDF/A-1 (issue 28).
        rc, out, err = run(["qpdf", "--check", pdf])
        ver = pdf_version(pdf)
        raw = open(pdf, "rb").read()
        packed = b"/ObjStm" in raw and b"/XRef" in raw
        check("rules %s: qpdf --check passes; %s" % (
            stem(pdf), "PDF 1.4, no object streams" if ver == "%PDF-1.4" else
            "PDF 1.7 with object streams"), rc == 0 and (
            (ver == "%PDF-1.4" and not packed) or (ver == "%PDF-1.7" and packed)),
            (rc, ver, packed, err[-200:]))
    # The checker can fail: MCIDs renamed, /Alt and /MarkInfo broken.
    src = os.path.join(TMP, "selftest.pdf")
    photo = photo_profile("selftest", None)
    render(photo, src, "-l", os.path.join(ROOT, "layouts", "sidebar.yaml"))
    qdf = os.path.join(TMP, "selftest.qdf")
    run(["qpdf", "--qdf", "--object-streams=disable", src, qdf])
    data = open(qdf, "rb").read()
    broken = data.replace(b"/MCID ", b"/MCXX ").replace(b"/Alt ", b"/Xlt ") \
        .replace(b"/Marked true", b"/Marked fals")
    bad = os.path.join(TMP, "broken.pdf")
    open(os.path.join(TMP, "broken.qdf"), "wb").write(broken)
    run(["fix-qdf", os.path.join(TMP, "broken.qdf")], timeout=60)
    subprocess.run("fix-qdf %s > %s" % (os.path.join(TMP, "broken.qdf"), bad), shell=True)
    got = {r for r, _ in pdfua_check.problems(bad)}
    check("rules: the checker catches untagged text, a Figure without /Alt, no /MarkInfo",
          {"content", "figures", "tagged"} <= got, got)
    check("rules: without --pdfua, the PDF/UA identification is missing",
          "pdfua" in {r for r, _ in pdfua_check.problems(src, True)})


def pdf_version(pdf):
    with open(pdf, "rb") as f:
        return f.read(8).decode("latin-1")


def pdfua():
    he = os.path.join(ROOT, "profiles", "he.yaml")
    a = os.path.join(TMP, "ua.pdf")
    ok, err = render(he, a, "--pdfua")
    if check("pdfua: --pdfua renders", ok, err):
        check("pdfua: --pdfua passes the rules", not pdfua_check.problems(a, True),
              pdfua_check.problems(a, True)[:5])
        check("pdfua: PDF 1.7 alone", pdf_version(a) == "%PDF-1.7", pdf_version(a))
    b = os.path.join(TMP, "uaa.pdf")
    ok, err = render(he, b, "--pdfua", "--pdfa")
    if check("pdfua: --pdfua --pdfa renders", ok, err):
        check("pdfua: --pdfua --pdfa passes the rules", not pdfua_check.problems(b, True))
        check("pdfua: PDF 1.4 with PDF/A-1", pdf_version(b) == "%PDF-1.4", pdf_version(b))
    # Every profile (and the scripts no profile has) with --pdfa --pdfua:
    # every rule, the CIDSet against the embedded program among them.
    extra = []
    for tag, body, txt in (("ar", AR, AR_TEXT), ("hi", HI, HI_TEXT)):
        extra.append(os.path.join(TMP, "cidset-%s.yaml" % tag))
        with open(extra[-1], "w", encoding="utf-8") as f:
            f.write(body % txt)
    for profile in PROFILES + extra:
        pdf = os.path.join(TMP, "uaa-%s.pdf" % stem(profile))
        ok, err = render(profile, pdf, "--pdfua", "--pdfa")
        probs = pdfua_check.problems(pdf, True) if ok else [err]
        check("pdfua: %s --pdfa --pdfua passes the rules, its CIDSets exact" % stem(profile),
              not probs, probs[:5])
    # The CIDSet check can fail: a CIDSet that leaves out a component glyph.
    if os.path.exists(b):
        check("pdfua: the CIDSet check catches a CIDSet that leaves out glyphs",
              cidset_broken(b), "")
    # pdf: tagged: false: no structure, no marked content; --pdfua wins.
    lay = os.path.join(TMP, "untagged.yaml")
    with open(lay, "w") as f:
        f.write("extends: %s\npdf:\n  tagged: false\n" % os.path.join(ROOT, "layouts", "onecolumn.yaml"))
    u = os.path.join(TMP, "untagged.pdf")
    if check("pdfua: tagged: false renders", render(he, u, "-l", lay)[0]):
        cat = open_pdf(u).catalog
        rc, raw, _ = run(["qpdf", "--qdf", "--object-streams=disable", u, "-"])
        check("pdfua: tagged: false writes no structure tree and no marked content",
              "StructTreeRoot" not in cat and "MarkInfo" not in cat and " BDC" not in raw)
        ok, _ = render(he, u, "-l", lay, "--pdfua")
        check("pdfua: tagged: false with --pdfua is tagged all the same",
              ok and not pdfua_check.problems(u, True))
    lay = os.path.join(TMP, "ua-layout.yaml")
    with open(lay, "w") as f:
        f.write("extends: %s\npdf:\n  pdfua: true\n  title: ~\n"
                % os.path.join(ROOT, "layouts", "sidebar.yaml"))
    c = os.path.join(TMP, "ua-layout.pdf")
    ok, err = render(he, c, "-l", lay)
    if check("pdfua: pdf: pdfua: true in a layout renders", ok, err):
        probs = pdfua_check.problems(c, True)
        check("pdfua: the layout's pdfua passes the rules (a title even with title: ~)",
              not probs, probs[:5])


def xmp_of(pdf):
    md = resolve1(open_pdf(pdf).catalog.get("Metadata"))
    return md.get_data().decode("utf-8", "replace") if md is not None else ""


def pdfa2():
    """--pdfa=2b, 2u, 2a: PDF 1.7 packed into object streams, the XMP
    identification, every rule and an exact CIDSet; 2a tags even a layout
    that says tagged: false; a level we do not write is a usage error."""
    for stem_ in ("fang", "fang-zh", "he", "sato-ja"):
        profile = os.path.join(ROOT, "profiles", stem_ + ".yaml")
        for level in ("2b", "2u", "2a"):
            pdf = os.path.join(TMP, "a%s-%s.pdf" % (level, stem_))
            ok, err = render(profile, pdf, "--pdfa=" + level)
            if not check("pdfa2 %s --pdfa=%s: renders" % (stem_, level), ok, err):
                continue
            raw = open(pdf, "rb").read()
            xmp = xmp_of(pdf)
            probs = pdfua_check.problems(pdf, False)
            rc = run(["qpdf", "--check", pdf])[0]
            check("pdfa2 %s --pdfa=%s: PDF 1.7 with object streams, qpdf --check, every rule"
                  % (stem_, level),
                  raw.startswith(b"%PDF-1.7") and b"/ObjStm" in raw and rc == 0 and not probs,
                  (raw[:8], rc, probs[:3]))
            check("pdfa2 %s --pdfa=%s: the XMP says part 2, conformance %s"
                  % (stem_, level, level[1].upper()),
                  "<pdfaid:part>2</pdfaid:part>" in xmp and
                  "<pdfaid:conformance>%s</pdfaid:conformance>" % level[1].upper() in xmp)
    he = os.path.join(ROOT, "profiles", "he.yaml")
    lay = os.path.join(TMP, "untagged-a2.yaml")
    with open(lay, "w") as f:
        f.write("extends: %s\npdf:\n  tagged: false\n" % os.path.join(ROOT, "layouts",
                                                                     "onecolumn.yaml"))
    pdf = os.path.join(TMP, "a2a-untagged.pdf")
    ok, err = render(he, pdf, "-l", lay, "--pdfa=2a", "--pdfua")
    probs = pdfua_check.problems(pdf, True) if ok else [err]
    xmp = xmp_of(pdf) if ok else ""
    check("pdfa2: --pdfa=2a --pdfua tags a layout that says tagged: false, passes the PDF/UA "
          "rules, declares pdfuaid", not probs and "<pdfuaid:part>1</pdfuaid:part>" in xmp
          and "pdfaExtension:schemas" in xmp, probs[:3])
    bad = os.path.join(TMP, "a3b.pdf")
    p = subprocess.run([BIN, "-q", he, "--pdfa=3b", "-o", bad], capture_output=True, env=ENV,
                       cwd=ROOT, timeout=60)
    check("pdfa2: --pdfa=3b is a usage error, nothing written",
          p.returncode == 2 and b"--pdfa=3b: expected 1b, 2b, 2u or 2a" in p.stderr
          and not os.path.exists(bad), p.stderr)
    pdf = os.path.join(TMP, "a1b.pdf")
    ok, _ = render(he, pdf, "--pdfa=1b")
    check("pdfa2: --pdfa=1b is --pdfa: PDF 1.4, part 1 B, no object streams",
          ok and open(pdf, "rb").read(8) == b"%PDF-1.4" and b"/ObjStm" not in
          open(pdf, "rb").read() and "<pdfaid:part>1</pdfaid:part>" in xmp_of(pdf))


def cidset_broken(pdf):
    """Does pdfua_check see a CIDSet with its last byte cleared?"""
    doc = open_pdf(pdf)
    for xref in doc.xrefs:
        for oid in xref.get_objids():
            try:
                o = doc.getobj(oid)
            except Exception:
                continue
            if isinstance(o, dict) and o.get("Type") is not None and \
                    pdfua_check.name(o.get("Type")) == "Font" and o.get("DescendantFonts"):
                for cf in pdfua_check.as_list(o.get("DescendantFonts")):
                    cf = resolve1(cf)
                    desc = resolve1(cf.get("FontDescriptor"))
                    cs = resolve1(desc.get("CIDSet"))
                    if cs is None:
                        continue
                    data = bytearray(cs.get_data())
                    data[-1] = 0
                    cs.data, cs.rawdata = bytes(data), None
                    cs.attrs.pop("Filter", None)
                    return pdfua_check.cidset_problem(cf) is not None
    return False


def lang():
    fang = os.path.join(ROOT, "profiles", "fang.yaml")
    pdf = os.path.join(TMP, "lang-en.pdf")
    render(fang, pdf)
    spans = lang_spans(pdf)
    check("lang: 方佳瑞 is a Span /Lang (zh) in an English résumé",
          ("Span", "zh") in spans, spans)
    check("lang: the document is /Lang (en)", doc_lang(pdf) == "en", doc_lang(pdf))
    zh = os.path.join(ROOT, "profiles", "fang-zh.yaml")
    pdf = os.path.join(TMP, "lang-zh.pdf")
    render(zh, pdf, "-l", os.path.join(ROOT, "layouts", "zh.yaml"))
    check("lang: a Chinese résumé is /Lang (zh)", doc_lang(pdf) == "zh", doc_lang(pdf))
    check("lang: ... with no Span (zh) for its Chinese",
          ("Span", "zh") not in lang_spans(pdf), lang_spans(pdf))


def open_pdf(pdf):
    return PDFDocument(PDFParser(open(pdf, "rb")))


def doc_lang(pdf):
    return pdfua_check.text(open_pdf(pdf).catalog.get("Lang"))


def elements(pdf):
    doc = open_pdf(pdf)
    root = resolve1(doc.catalog.get("StructTreeRoot"))
    todo = list(pdfua_check.as_list(root.get("K"))) if root else []
    out = []
    while todo:
        d = resolve1(todo.pop(0))
        if isinstance(d, dict) and "S" in d:
            out.append(d)
            todo.extend(pdfua_check.as_list(d.get("K")))
    return out


def lang_spans(pdf):
    return [(pdfua_check.name(d.get("S")), pdfua_check.text(d.get("Lang")))
            for d in elements(pdf) if d.get("Lang")]


def photo_profile(tag, alt):
    src = open(os.path.join(ROOT, "profiles", "he.yaml"), encoding="utf-8").read()
    extra = "  photo: %s\n" % os.path.join(ROOT, "tests", "data", "photo.png")
    if alt:
        extra += "  photo_alt: %s\n" % alt
    p = os.path.join(TMP, "photo-%s.yaml" % tag)
    with open(p, "w", encoding="utf-8") as f:
        f.write(re.sub(r"^cv:\n", "cv:\n" + extra, src, count=1, flags=re.M))
    return p


def photo():
    for layout in ("onecolumn", "sidebar"):
        for alt in (None, "Jiaao He, smiling"):
            prof = photo_profile("%s-%d" % (layout, bool(alt)), alt)
            pdf = os.path.join(TMP, "photo-%s-%d.pdf" % (layout, bool(alt)))
            ok, err = render(prof, pdf, "-l", os.path.join(ROOT, "layouts", layout + ".yaml"))
            if not check("photo %s: renders" % layout, ok, err):
                continue
            figs = [pdfua_check.text(d.get("Alt")) for d in elements(pdf)
                    if pdfua_check.name(d.get("S")) == "Figure"]
            check("photo %s: one Figure, /Alt %s" % (layout, alt or "Photo of the name"),
                  figs == [alt or "Photo of Jiaao He"], figs)
    # In the profile's language where we know its words.
    src = open(os.path.join(ROOT, "profiles", "fang-zh.yaml"), encoding="utf-8").read()
    prof = os.path.join(TMP, "photo-zh.yaml")
    with open(prof, "w", encoding="utf-8") as f:
        f.write(re.sub(r"^cv:\n", "cv:\n  photo: %s\n" % os.path.join(ROOT, "tests", "data",
                                                                     "photo.png"),
                       src, count=1, flags=re.M))
    pdf = os.path.join(TMP, "photo-zh.pdf")
    ok, err = render(prof, pdf)
    figs = [pdfua_check.text(d.get("Alt")) for d in elements(pdf)
            if pdfua_check.name(d.get("S")) == "Figure"] if ok else err
    check("photo zh: /Alt in Chinese", figs == ["方佳瑞的照片"], figs)


# ------------------------------------------------------------ reads whole

DUMP_TEXT = re.compile(r'^text (\S+) (\S+) w=\S+ .*?"(.*)"$')
LAB = ["he", "li", "levi-he", "chaoyang-he"]
# Scripts no lab profile has, with a paragraph long enough to wrap.
AR = (u"cv:\n  name: سارة الحسيني\n  sections:\n    الخبرة:\n      - company: جامعة العلوم\n"
      u"        position: أستاذة مساعدة\n        start_date: 2020-09\n        highlights:\n"
      u"          - \"%s\"\nlocale:\n  language: arabic\n")
HI = (u"cv:\n  name: प्रिया शर्मा\n  sections:\n    अनुभव:\n      - company: भारतीय विज्ञान संस्थान\n"
      u"        position: शोधकर्ता\n        start_date: 2019-07\n        highlights:\n"
      u"          - \"%s\"\nlocale:\n  language: hindi\n")
AR_TEXT = " ".join([u"عبدالله باحثة في معالجة اللغات الطبيعية"] * 8)
HI_TEXT = " ".join([u"भारतीय विज्ञान संस्थान शोध प्रणालियों पर"] * 8)


def whole():
    """Words hyphenated at a line's end read whole in the structure tree;
    every line ends with a word separator in Latin, Arabic and Devanagari;
    the fields of a Chinese entry are parted; titles drawn in capitals
    carry the words as written."""
    words = 0
    # The layouts that hyphenate the lab's profiles most (narrow columns,
    # large type): line breaking takes few hyphens, so several are read.
    for lay, stem_ in [(lay, stem_) for lay in ("sidebar", "classic", "moderncv")
                       for stem_ in LAB]:
        layout = os.path.join(ROOT, "layouts", lay + ".yaml")
        profile = os.path.join(ROOT, "profiles", stem_ + ".yaml")
        pdf = os.path.join(TMP, "whole-%s-%s.pdf" % (lay, stem_))
        ok, err = render(profile, pdf, "-l", layout)
        if not check("whole %s %s: renders" % (lay, stem_), ok, err):
            continue
        p = subprocess.run([BIN, "-q", profile, "-l", layout, "--dump"], capture_output=True,
                           env=ENV, cwd=ROOT, timeout=300)
        lines = [DUMP_TEXT.match(l) for l in p.stdout.decode("utf-8").splitlines()]
        lines = [m for m in lines if m]
        tree = struct_tree(pdf).text()
        bad = []
        for a, b in zip(lines, lines[1:]):
            head = re.search(r"([A-Za-z]+)-$", a.group(3))
            tail = re.match(r"([a-z]+)", b.group(3))
            if not head or not tail or a.group(1) != b.group(1):
                continue
            words += 1
            w = head.group(1) + tail.group(1)
            if w not in tree or head.group(1) + "-" + tail.group(1) in tree:
                bad.append(w)
        check("whole %s %s: every word hyphenated at a line's end reads whole" % (lay, stem_),
              not bad, bad)
        # The words of every entry's fields, as the profile has them.
        if stem_ == "he" and lay == "sidebar":
            secs, _ = profile_sections(profile)
            h2 = [pdfua_check.text(d.get("ActualText")) for d in elements(pdf)
                  if pdfua_check.name(d.get("S")) == "H2"]
            want = {title_norm(k) for k, _ in secs}
            check("whole he: every H2 drawn in capitals has /ActualText, its title as written",
                  all(t and t != t.upper() for t in h2) and want <= {norm(t) for t in h2},
                  (h2, sorted(want)))
    check("whole: the lab's profiles have words hyphenated at line ends", words >= 10, words)
    for tag, body, text in (("ar", AR, AR_TEXT), ("hi", HI, HI_TEXT)):
        prof = os.path.join(TMP, "whole-%s.yaml" % tag)
        with open(prof, "w", encoding="utf-8") as f:
            f.write(body % text)
        pdf = os.path.join(TMP, "whole-%s.pdf" % tag)
        ok, err = render(prof, pdf)
        if not check("whole %s: renders" % tag, ok, err):
            continue
        bodies = [n.text() for n in struct_tree(pdf).walk() if n.type == "LBody"]
        check("whole %s: a paragraph of several lines reads word for word" % tag,
              [b.split() for b in bodies] == [text.split()], bodies)
    pdf = os.path.join(TMP, "whole-zh.pdf")
    ok, err = render(os.path.join(ROOT, "profiles", "fang-zh.yaml"), pdf)
    if check("whole zh: renders", ok, err):
        glued = []
        for n in struct_tree(pdf).walk():
            strs = [k for k in n.kids if isinstance(k, str)]
            if n.type == "P" and len(strs) == len(n.kids) and len(strs) > 1:
                glued += [s for s in strs[:-1] if not s[-1:].isspace()]
        check("whole zh: the fields of an entry are parted by a space", not glued, glued)
        t = struct_tree(pdf).text()
        check("whole zh: the date and the place read apart", u"至今 中国北京" in t
              and u"至今中国北京" not in t)


def merge():
    out = os.path.join(TMP, "book.pdf")
    profs = [os.path.join(ROOT, "profiles", p) for p in ("he.yaml", "li.yaml", "fang-zh.yaml")]
    p = subprocess.run([BIN, "-q", "--merge", out] + profs, capture_output=True, env=ENV,
                       cwd=ROOT, timeout=300)
    if not check("merge: renders", p.returncode == 0, p.stderr[-300:]):
        return
    MADE.append((out, False))
    tree = struct_tree(out)
    docs = [k for k in tree.kids if isinstance(k, Node)]
    parts = [k for k in docs[0].kids if isinstance(k, Node)] if docs else []
    check("merge: one Document of three Parts",
          len(docs) == 1 and docs[0].type == "Document" and [k.type for k in parts] == ["Part"] * 3,
          [k.type for k in parts])
    names = []
    for prof in profs:
        with open(prof, encoding="utf-8") as f:
            names.append(norm(strip_markup(yaml.safe_load(f)["cv"]["name"])))
    h1s = [[norm(n.text()) for n in part.walk() if n.type == "H1"] for part in parts]
    check("merge: each Part has its person's H1, in order",
          len(h1s) == 3 and all(len(h) == 1 and nm in h[0] for h, nm in zip(h1s, names)), h1s)
    langs = [pdfua_check.text(d.get("Lang")) for d in elements(out)
             if pdfua_check.name(d.get("S")) == "Part"]
    check("merge: each Part has its /Lang", langs == ["en", "en", "zh"], langs)


def fit():
    fang = os.path.join(ROOT, "profiles", "fang.yaml")
    pdf = os.path.join(TMP, "fit3.pdf")
    ok, err = render(fang, pdf, "--fit-pages", "3")
    if check("fit: --fit-pages 3 renders", ok, err):
        order_checks("fit", pdf, fang, os.path.join(ROOT, "layouts", "onecolumn.yaml"))


def preflight():
    cp = ":".join(os.path.join(JAVA_DIR, j) for j in PREFLIGHT_JARS)
    if not all(os.path.exists(os.path.join(JAVA_DIR, j)) for j in PREFLIGHT_JARS):
        check("preflight: PDFBox jars are installed", False, "run tests/deps.sh")
        return
    pdfs = []
    for args, tag in ((["--pdfa"], "a"), (["--pdfa", "--pdfua"], "aua")):
        for profile in PROFILES:
            pdf = os.path.join(TMP, "pf-%s-%s.pdf" % (tag, stem(profile)))
            if render(profile, pdf, *args)[0]:
                pdfs.append(pdf)
        sb = os.path.join(TMP, "pf-%s-sidebar-photo.pdf" % tag)
        if render(photo_profile("pf" + tag, None), sb, "-l",
                  os.path.join(ROOT, "layouts", "sidebar.yaml"), *args)[0]:
            pdfs.append(sb)
    book = os.path.join(TMP, "pf-book.pdf")
    subprocess.run([BIN, "-q", "--pdfa", "--pdfua", "--merge", book] + PROFILES, env=ENV,
                   cwd=ROOT, capture_output=True, timeout=300)
    pdfs.append(book)
    lst = os.path.join(TMP, "preflight.list")
    with open(lst, "w") as f:
        f.write("\n".join(pdfs) + "\n")
    run(["java", "-cp", cp, "org.apache.pdfbox.preflight.Validator_A1b", "xml", "group", lst],
        timeout=600)
    xml = lst + ".preflight.xml"
    if not check("preflight: a report", os.path.exists(xml)):
        return
    res = {p.get("name"): ((p.findtext("isValid") or "").strip() == "true",
                           [(e.findtext("code"), e.findtext("details")) for e in p.iter("error")])
           for p in ET.parse(xml).getroot().iter("preflight")}
    for pdf in pdfs:
        v = res.get(os.path.basename(pdf))
        check("preflight %s is valid PDF/A-1b" % stem(pdf), v and v[0], v and v[1][:3])


def flat(tree_lines):
    """(the elements' types with their depths, the text as letters and
    digits) of a tree printed as pdfinfo -struct-text or TagTree prints it."""
    types, text = [], []
    for ln in tree_lines:
        s = ln.strip()
        if not s or s.startswith("Object "):
            continue
        if s.startswith('"') and s.endswith('"'):
            text.append(s[1:-1])
        else:
            types.append((len(ln) - len(ln.lstrip(" ")), s.split(" ")[0]))
    return types, norm("".join(text))


def pdfbox():
    """PDFBox's structure API (tests/java/TagTree.java) reads the same tree
    as poppler: the same elements, role-mapped, and the same text."""
    jars = ["pdfbox2.jar", "fontbox2.jar", "commons-logging.jar"]
    cp = ":".join(os.path.join(JAVA_DIR, j) for j in jars)
    classes = os.path.join(TMP, "java")
    os.makedirs(classes, exist_ok=True)
    rc, _, err = run(["javac", "-d", classes, "-cp", cp,
                      os.path.join(ROOT, "tests", "java", "TagTree.java")], timeout=300)
    if not check("pdfbox: TagTree.java compiles", rc == 0, err[-300:]):
        return
    pdfs = []
    for layout in ("onecolumn", "sidebar"):
        for profile in PROFILES:
            pdf = os.path.join(TMP, "pb-%s-%s.pdf" % (layout, stem(profile)))
            if render(profile, pdf, "-l", os.path.join(ROOT, "layouts", layout + ".yaml"))[0]:
                pdfs.append(pdf)
    book = os.path.join(TMP, "pb-book.pdf")
    subprocess.run([BIN, "-q", "--merge", book] + PROFILES, env=ENV, cwd=ROOT,
                   capture_output=True, timeout=300)
    pdfs.append(book)
    rc, out, err = run(["java", "-cp", classes + ":" + cp, "TagTree"] + pdfs, timeout=600)
    got = {}
    for chunk in out.split("### ")[1:]:
        path, _, body = chunk.partition("\n")
        got[path] = flat(body.splitlines())
    for pdf in pdfs:
        rc, pop, _ = run(["pdfinfo", "-struct-text", pdf])
        want = flat(pop.splitlines())
        have = got.get(pdf)
        check("pdfbox %s: the same elements as poppler" % stem(pdf),
              have and have[0] == want[0],
              have and next(((a, b) for a, b in zip(have[0], want[0]) if a != b),
                            (len(have[0]), len(want[0]))))
        check("pdfbox %s: the same text as poppler" % stem(pdf),
              have and have[1] == want[1] and len(want[1]) > 100,
              have and (len(have[1]), len(want[1])))


def same():
    """Tagging moves nothing: the tagged PDF and the untagged one
    (`pdf: tagged: false`) read the same in pdftotext and rasterise to the
    same pixels."""
    import glob
    import hashlib
    for layout in ("onecolumn", "sidebar"):
        lay = os.path.join(TMP, "same-untagged-%s.yaml" % layout)
        with open(lay, "w") as f:
            f.write("extends: %s\npdf:\n  tagged: false\n"
                    % os.path.join(ROOT, "layouts", layout + ".yaml"))
        for profile in PROFILES:
            name = "%s/%s" % (layout, stem(profile))
            t = os.path.join(TMP, "same-t-%s-%s.pdf" % (layout, stem(profile)))
            u = os.path.join(TMP, "same-u-%s-%s.pdf" % (layout, stem(profile)))
            if not (render(profile, t, "-l", os.path.join(ROOT, "layouts", layout + ".yaml"))[0]
                    and render(profile, u, "-l", lay)[0]):
                check("same %s: renders" % name, False)
                continue
            texts = [run(["pdftotext", "-layout", x, "-"])[1] for x in (t, u)]
            check("same %s: pdftotext -layout reads the tagged PDF as the untagged" % name,
                  texts[0] == texts[1])
            sums = []
            for x in (t, u):
                run(["pdftoppm", "-r", "40", "-png", x, x[:-4]])
                pngs = sorted(glob.glob(x[:-4] + "-*.png"))
                sums.append([hashlib.md5(open(p, "rb").read()).hexdigest() for p in pngs])
            check("same %s: the tagged PDF's pages are the untagged one's, pixel for pixel"
                  % name, sums[0] == sums[1] and sums[0], (len(sums[0]), len(sums[1])))
    he = os.path.join(ROOT, "profiles", "he.yaml")
    a, b = os.path.join(TMP, "same-a.pdf"), os.path.join(TMP, "same-b.pdf")
    render(he, a, "--pdfua")
    render(he, b, "--pdfua")
    check("same: two renders are byte-identical",
          open(a, "rb").read() == open(b, "rb").read())


# ------------------------------------------------------------ packed

def qpdf_objects(pdf):
    """qpdf's JSON of every object in pdf (streams with their raw data),
    and its trailer; ({}, {}) when qpdf cannot read it."""
    rc, out, _ = run(["qpdf", "--json=2", "--json-key=qpdf", "--json-stream-data=inline",
                      "--decode-level=none", pdf])
    if rc != 0:
        return {}, {}
    objs = json.loads(out)["qpdf"][1]
    return objs, objs.get("trailer", {}).get("value", {})


def packed():
    """cvpdf packs libharu's classic file itself (src/pdf_pack.c): each
    case is rendered as libharu wrote it (CVPDF_TEST_UNPACKED) and packed,
    and every object of the one is found in the other."""
    ar = os.path.join(TMP, "packed-ar.yaml")
    with open(ar, "w", encoding="utf-8") as f:
        f.write(AR % AR_TEXT)
    untag = os.path.join(TMP, "packed-untagged.yaml")
    with open(untag, "w") as f:
        f.write("extends: %s\npdf:\n  tagged: false\n" % os.path.join(ROOT, "layouts",
                                                                     "onecolumn.yaml"))
    fang = os.path.join(ROOT, "profiles", "fang.yaml")
    zh = os.path.join(ROOT, "profiles", "fang-zh.yaml")
    cases = [("tagged", fang, []), ("untagged", fang, ["-l", untag]),
             ("photo", photo_profile("packed", None), []),
             ("photo-untagged", photo_profile("packed", None), ["-l", untag]),
             ("cjk", zh, ["-l", os.path.join(ROOT, "layouts", "zh.yaml")]),
             ("cjk-untagged", zh, ["-l", untag]),
             ("arabic", ar, []), ("arabic-untagged", ar, ["-l", untag]),
             ("pdfua", fang, ["--pdfua"]), ("pdfa2", fang, ["--pdfa=2u"])]
    for name, profile, args in cases:
        pk, raw = os.path.join(TMP, "packed-%s.pdf" % name), os.path.join(TMP, "raw-%s.pdf" % name)
        # Not through render(): the untagged files are not for the rules.
        ok = all(subprocess.run([BIN, "-q", profile, "-o", out] + args, capture_output=True,
                                env=dict(ENV, **extra), cwd=ROOT, timeout=300).returncode == 0
                 and os.path.exists(out)
                 for out, extra in ((pk, {}), (raw, {"CVPDF_TEST_UNPACKED": "1"})))
        if not check("packed %s: renders, packed and as libharu wrote it" % name, ok):
            continue
        a, b = open(pk, "rb").read(), open(raw, "rb").read()
        check("packed %s: libharu's file is classic (a table, a trailer, no object stream)" % name,
              b"\nxref" in b and b"\ntrailer" in b and b"/ObjStm" not in b)
        rc, out, err = run(["qpdf", "--check", pk])
        check("packed %s: PDF 1.7, object streams, a cross-reference stream and no table; "
              "qpdf --check clean" % name,
              a.startswith(b"%PDF-1.7\n%") and b"/Type/ObjStm" in a and b"/Type/XRef" in a and
              b"\nxref" not in a and b"trailer" not in a and rc == 0 and
              "No syntax or stream encoding errors" in out, out[-300:] + err)
        po, pt = qpdf_objects(pk)
        ro, rt = qpdf_objects(raw)
        missing = [k for k in ro if k != "trailer" and po.get(k) != ro[k]]
        check("packed %s: every object libharu wrote (%d) is in the packed file, the same "
              "number and value, streams byte for byte" % (name, len(ro) - 1),
              len(ro) > 20 and not missing, missing[:5])
        check("packed %s: the trailer's /Root, /Info and /ID kept" % name,
              all(pt.get(k) == rt.get(k) and rt.get(k) for k in ("/Root", "/Info", "/ID")),
              (pt, rt))
        with open(pk, "rb") as f:
            doc = PDFDocument(PDFParser(f))
            ids = [int(k.split()[0][4:]) for k in ro if k != "trailer"]
            lost = [i for i in ids if doc.getobj(i) is None]
            streams = sum(1 for x in doc.xrefs for _ in x.get_objids())
        check("packed %s: pdfminer reads each object from the cross-reference stream" % name,
              not lost and streams >= len(ids), lost[:5])
        pk2 = os.path.join(TMP, "packed2-%s.pdf" % name)
        subprocess.run([BIN, "-q", profile, "-o", pk2] + args, capture_output=True, env=ENV,
                       cwd=ROOT, timeout=300)
        check("packed %s: two packs are byte-identical" % name, open(pk2, "rb").read() == a)


if __name__ == "__main__":
    sys.exit(testlib.main("tagged", [order, sidebar, coverage, pdfua, pdfa2, packed, lang, photo, whole, merge, fit, rules,
                                     preflight, pdfbox, same], tmp=TMP))
