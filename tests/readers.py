#!/usr/bin/env python3
"""Text extraction in four independent PDF readers, PDF/A-1b, qpdf.

Usage: tests/readers.py CVPDF_BINARY [-k PATTERN] [--list]     (CVPDF_READERS_VERBOSE=1: every deviation)

Every profile in profiles/ (with layouts/zh.yaml for *-zh.yaml and the
default layout otherwise, as `make demo` sets them) and a few generated ones
(accents and ligature-prone words, curly quotes, dashes, a Chinese name, a
long multi-page résumé) is rendered and read back by

  pdftotext   poppler, default mode
  mutool      MuPDF, `mutool draw -F txt`
  pdfminer    /usr/bin/pdf2txt (python3-pdfminer), default layout analysis
  pdfbox      PDFBox 2 ExtractText, default mode (content-stream order)

The expected text is `cvpdf --dump`'s.  Runs on one baseline of one region
make a visual line, read left to right; a gap wider than 1pt between two
runs starts a new *fragment* (so a right-aligned date and a bullet are
fragments of their own), otherwise the runs join with no space.  Lines are
read in draw order, except that on every page the running header comes
first and the running footer last.  Only whitespace is normalised.  The
line breaker's hyphens are not marked in the dump, so a line that ends in
"xx-" followed by a line of the same region that starts with "yy" is
looked up in the profile's source: "xxyy" there means the hyphen was
inserted, "xx-yy" that it was typed (both or neither: either, with a
note).  The pair is one word: a reader may give it as "xx-" "yy" (hyphen
and line break kept) or as the word ("xxyy"; "xx-yy" for a typed hyphen).

Checks, per PDF:
  draw    the dump (which is the PDF's drawing order) draws every line left
          to right, a line's runs together, and the running header before
          the body: stream-order readers (mutool, PDFBox) depend on it.
  qpdf    qpdf --check is clean.
and per reader and PDF:
  words   the multiset of words equals the dump's, exactly.
  order   every fragment comes out whole, and the fragments in reading
          order.  What is out of order is what the heaviest increasing
          subsequence leaves out (a line's main fragment outweighs all the
          dates and bullets of the page, so it is they that move).  KNOWN
          below lists, per reader, the kinds of deviation that its own
          layout analysis makes whatever the PDF does: they are tolerated
          within bounds and counted in a "note:" line; any other fails.
  stderr  exit 0 and nothing on stderr (mutool's "warning: ICC support is
          not available", printed before it opens any file, and the JVM's
          start-up notices are not about the PDF and are ignored).
Then PDFBox Preflight (Validator_A1b, every file in one JVM) on every profile
rendered with --pdfa (read back by the four readers as well), and, for
information, on one PDF rendered without it.

The last line is "readers: N passed, M failed".
"""
import collections
import concurrent.futures
import glob
import os
import random
import re
import shutil
import sys
import tempfile
import time
import unicodedata
import xml.etree.ElementTree as ET

import testlib
from testlib import BIN, ROOT, check, read_dump, run

TMP = tempfile.mkdtemp(prefix="cvpdf-readers-")
VERBOSE = bool(os.environ.get("CVPDF_READERS_VERBOSE"))
JOBS = max(2, os.cpu_count() or 2)
JAVA_DIR = "/usr/share/java"
# Debian's libpdfbox2-java, libactivation-java, libjaxb-api-java and the
# commons-logging they depend on.
EXTRACT_JARS = ["pdfbox2.jar", "fontbox2.jar", "pdfbox2-tools.jar", "commons-logging.jar"]
PREFLIGHT_JARS = ["pdfbox2.jar", "fontbox2.jar", "preflight.jar", "xmpbox.jar",
                  "commons-logging.jar", "javax.activation.jar", "jaxb-api.jar"]
READERS = ["pdftotext", "mutool", "pdfminer", "pdfbox"]

# Deviations from reading order that a reader's layout analysis makes
# whatever the PDF draws (measured on the lab's profiles):
#   right   a fragment after its line's main one, or a line of its own that
#           starts right of the middle of its region (a date, the place
#           under it), read elsewhere on its page, in order among the other
#           such fragments.  pdftotext makes the side column a block of its
#           own and prints it after (sometimes before) the entry's lines;
#           pdfminer makes each a text box and prints most of them after
#           the page's main text.
#   side-order  pdftotext also prints some of those out of order among
#           themselves: layouts/zh.yaml, fang-zh page 1, the places of
#           three entries come after the dates of the next ones.
#   head    pdfminer (boxes_flow 0.5) orders the text boxes of a group by
#           0.5*x0 - 1.5*(y0 + y1): a short centred line (the name) sorts
#           after a wider line below it (the headline) when it starts more
#           than three times the distance between them further right.
KNOWN = {"pdftotext": {"right", "side-order"}, "pdfminer": {"right", "head"}}

# Lines on stderr that say nothing about the PDF.
NOISE = [
    re.compile(r"^warning: ICC support is not available$"),         # mutool, every run
    re.compile(r"^Picked up _?JAVA_(TOOL_)?OPTIONS: "),            # the JVM
    re.compile(r"^(OpenJDK|Java HotSpot)\(TM\)? 64-Bit Server VM warning: .*"
               r"(CDS|[Ss]haring|class data)"),                     # the JVM's class-data cache
]


def stem(path):
    return os.path.basename(path)[:-5]


def show(s, n=70):
    """A piece of text for a message: quoted, cut, invisible characters named."""
    s = "".join(c if unicodedata.category(c)[0] not in "CZ" or c == " "
                else "<U+%04X>" % ord(c) for c in s)
    return "'" + (s if len(s) <= n else s[:n - 3] + "...") + "'"


# ------------------------------------------------------------- profiles

ACCENTS = """\
cv:
  name: "Zoë Łódź-Škoda"
  headline: "“Office” affine & efficient — Ærø œuvre – naïve façade"
  location: "Łódź, Poland"
  email: zoe.skoda@example.com
  website: https://example.com/zoe
  sections:
    summary:
      - "The office’s affine “fluffy” waffle shuffle: efficient, effortless — and official. Œuvre of Ærø’s fjord; ‘single’ quotes, 2019–2021 and 1–2 pages — an em dash. Škoda, Dvořák, Kraków, Gdańsk, Øresund, Ångström, Zürich, São Paulo, crème brûlée, café, résumé. A **bold**face word, an *ital*ic one and a [linked office](https://example.com/office) affluent officer."
    Łódź & Škoda Projects:
      - company: Škoda Auto
        position: "Ærø “Office” Manager — Fjord Affairs"
        location: Mladá Boleslav
        start_date: 2019-03
        end_date: 2021-11
        highlights:
          - "Shuffled the affine offload of the office’s efficient workflow; filled 50 fluffy waffles."
          - "Ran the “Œuvre” flagship — official, difficult, fine."
      - company: Łódzkie Fjords
        position: Officer
        start_date: 2016-01
        end_date: present
        summary: "Naïve façade, coöperation and reëlection; fiancée’s office."
    education:
      - institution: Uniwersytet Łódzki
        area: Affine Geometry
        degree: MSc
        location: Łódź
        start_date: 2014-10
        end_date: 2016-06
    publications:
      - title: "Efficient “Affine” Offloading — A Fjord’s Œuvre"
        authors: ["Zoë Łódź-Škoda", "Ærø Fløde", "Jürgen Groß"]
        journal: Journal of Official Shuffles
        doi: 10.1234/office.2021.42
        date: 2021
    skills:
      - label: Languages
        details: "Polski, Čeština, Dansk, Français (naïf), Deutsch (ß)"
      - label: Tools
        details: "Office, Affinity, Figma – mostly"
"""

CJK_NAME = """\
cv:
  name: Wang Xiaoming
  native_name: 王小明
  headline: "Research Scientist — 北京大学 (Peking University)"
  location: 中国北京 Beijing
  email: xiaoming.wang@example.com
  sections:
    summary:
      - "I worked at 腾讯 (Tencent) in 深圳 and at 字节跳动 in 北京 on training systems. 王小明 is my name in Chinese."
    experience:
      - company: 腾讯 Tencent
        position: Senior Researcher
        location: 深圳 Shenzhen
        start_date: 2019-07
        end_date: 2022-02
        highlights:
          - "Built the 混合精度 (mixed precision) pipeline for the 微信 team."
    publications:
      - title: "Scaling Up: 大规模 Training"
        authors: ["Xiaoming Wang", "李华", "Hua Li"]
        journal: Proceedings of Something
        date: 2022
"""

# Long, hyphenation-prone words (and typed compounds) for the long profile.
LONG_WORDS = (
    "internationalization characterization implementation synchronization "
    "parallelization optimization reproducibility heterogeneous communication "
    "infrastructure experimentation representation approximation configuration "
    "decentralization interoperability responsibilities visualization "
    "distributed accelerators benchmarking orchestration transformation "
    "state-of-the-art large-scale fine-tuning high-performance low-latency "
    "the of and a to in for with on by systems models training kernels memory "
    "throughput latency compilers schedulers datasets pipelines clusters").split()


def long_profile(seed=7):
    rnd = random.Random(seed)

    def sentence(n):
        w = [rnd.choice(LONG_WORDS) for _ in range(n)]
        return " ".join(w).capitalize() + "."

    out = ["cv:", "  name: Avery Longfellow", "  headline: \"%s\"" % sentence(6)[:-1],
           "  email: avery@example.com", "  sections:", "    summary:"]
    for _ in range(2):
        out.append("      - \"%s\"" % " ".join(sentence(rnd.randint(8, 16)) for _ in range(5)))
    out.append("    experience:")
    for i in range(14):
        y = 2023 - i
        out += ["      - company: \"%s Laboratories %d\"" % (rnd.choice(LONG_WORDS).capitalize(), i),
                "        position: \"%s\"" % sentence(3)[:-1],
                "        location: Remote",
                "        start_date: %d-%02d" % (y - 1, rnd.randint(1, 12)),
                "        end_date: %d-%02d" % (y, rnd.randint(1, 12)),
                "        summary: \"%s\"" % " ".join(sentence(rnd.randint(6, 14)) for _ in range(3)),
                "        highlights:"]
        out += ["          - \"%s\"" % sentence(rnd.randint(10, 24)) for _ in range(3)]
    out.append("    publications:")
    for i in range(25):
        out += ["      - title: \"%s\"" % sentence(rnd.randint(6, 14))[:-1],
                "        authors: [\"Avery Longfellow\", \"%s Smith\", \"B. Jones\"]"
                % rnd.choice(["Alex", "Sam", "Kim"]),
                "        journal: \"%s Conference\"" % rnd.choice(LONG_WORDS).capitalize(),
                "        date: %d" % (2023 - i // 3)]
    out.append("    awards:")
    out += ["      - bullet: \"%s\"" % sentence(rnd.randint(4, 12)) for _ in range(12)]
    return "\n".join(out) + "\n"


RTL_RE = re.compile(r"^\s*language:\s*(hebrew|arabic|persian|he|ar|fa)\s*$", re.M)


def profiles():
    """[(name, profile path, layout path)]: the lab's, then generated ones."""
    lay = lambda n: os.path.join(ROOT, "layouts", n + ".yaml")
    out = []
    for p in sorted(glob.glob(os.path.join(ROOT, "profiles", "*.yaml"))):
        # A right-to-left résumé's dump is in visual order, the readers'
        # text in logical order: tests/scripts.py reads those back.
        with open(p, encoding="utf-8") as f:
            if RTL_RE.search(f.read()):
                continue
        out.append((stem(p), p, lay("zh" if p.endswith("-zh.yaml") else "onecolumn")))
    gen = os.path.join(TMP, "gen")
    os.makedirs(gen)
    for name, text, layout in [("gen-accents", ACCENTS, "onecolumn"),
                               ("gen-cjk-name", CJK_NAME, "onecolumn"),
                               ("gen-long", long_profile(), "onecolumn"),
                               ("gen-accents-zh", ACCENTS, "zh")]:
        path = os.path.join(gen, name + ".yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        out.append((name, path, lay(layout)))
    return out


# ------------------------------------------------------- the expected text

class Frag:
    """A piece of a visual line with no gap in it: what a reader must give
    whole.  tokens are its words once line-end hyphens are joined."""
    __slots__ = ("i", "page", "region", "line", "first", "right", "x", "text", "tokens",
                 "bullet")

    def __repr__(self):
        return "p%d %s" % (self.page, show(" ".join(self.tokens)))


def expected(dump_text, source):
    """(fragments in reading order, hyphen pairs {(a, b): (kind, joined word)},
    notes on hyphens, what the dump draws out of reading order, the lines
    as a faultless reader prints them)."""
    frags, lines = [], []
    # What the PDF draws out of reading order: (how many, examples).
    drawn, late, regions = [0, []], [0, []], [0, []]

    def note(what, msg):
        what[0] += 1
        if len(what[1]) < 3:
            what[1].append(msg)

    for pn, pg in enumerate(read_dump(dump_text), 1):
        bykey, order, page_lines, closed, prev = {}, [], [], set(), None
        mid = {g[0]: (g[1] + g[3]) / 2 for g in pg["regions"]}
        for r in pg["runs"]:
            reg = next((g[0] for g in pg["regions"] if g[1] - 1 <= r["x"] <= g[3] + 1 and
                        g[2] - 1 <= r["y"] <= g[4] + 1), "?")
            key = (reg, round(r["y"], 1))
            if key not in bykey:
                bykey[key] = []
                order.append(key)
            elif key in closed and r["text"].strip():
                # Drawn after a later line: stream-order readers put it there.
                note(late, "p%d: %s (on the line of %s) drawn after %s" % (
                    pn, show(r["text"], 30), show(bykey[key][0]["text"], 40),
                    show(prev["text"], 40)))
            if prev is not None and prev_key != key:
                closed.add(prev_key)
            bykey[key].append(r)
            if r["text"].strip():
                prev, prev_key = r, key
        for key in order:
            runs = sorted(bykey[key], key=lambda r: r["x"])
            if runs != bykey[key]:
                note(drawn, "p%d: %s drawn after %s" % (
                    pn, show(bykey[key][-1]["text"]), show(bykey[key][0]["text"], 50)))
            pieces = [[runs[0]]]
            for a, b in zip(runs, runs[1:]):
                if b["x"] - (a["x"] + a["w"]) > 1.0:
                    pieces.append([b])
                else:
                    pieces[-1].append(b)
            ln = []
            for k, pc in enumerate(pieces):
                f = Frag()
                f.page, f.region, f.x = pn, key[0], pc[0]["x"]
                f.line = (pn, key)
                f.text = "".join(r["text"] for r in pc)
                f.tokens = f.text.split()
                if f.tokens:
                    ln.append(f)
            # A bullet: one glyph, not a letter or digit, first on a line
            # that goes on.  The line's main fragment is the first that is
            # not a bullet; those after it are "right" (a date, a place).
            # A line of its own that starts right of the middle of its
            # region is "right" too (the place under a date).
            for k, f in enumerate(ln):
                f.bullet = k == 0 and len(ln) > 1 and len(f.text.strip()) == 1 and \
                    not f.text.strip().isalnum()
                f.first = k == (1 if ln[0].bullet else 0)
                f.right = k > (1 if ln[0].bullet else 0) or f.x > mid.get(key[0], 1e9)
            if ln:
                page_lines.append((pn, key[0], ln))
        # Reading order: the running header, the head, the body in draw
        # order, the running footer.  (Whether the PDF draws them in this
        # order is the "draws its text in reading order" check.)
        rank = {"page_header": 0, "head": 1, "page_footer": 3}
        ranks = [rank.get(pl[1], 2) for pl in page_lines]
        if ranks != sorted(ranks):
            k = next(k for k in range(1, len(ranks)) if ranks[k] < ranks[k - 1])
            note(regions, "p%d: %s %s drawn after %s %s" % (
                pn, page_lines[k][1], show(page_lines[k][2][0].text, 40),
                page_lines[k - 1][1], show(page_lines[k - 1][2][-1].text, 40)))
        page_lines.sort(key=lambda pl: rank.get(pl[1], 2))
        lines.extend(page_lines)
    # The text as a reader that gets everything right would print it (the
    # self-test's input).
    plain = ["  ".join(" ".join(f.tokens) for f in ln) for _, _, ln in lines]
    # Line-end hyphens: join "xx-" + "yy" of consecutive lines of a region.
    src = " ".join(source.split())
    pairs, notes = {}, []
    for (p0, r0, l0), (p1, r1, l1) in zip(lines, lines[1:]):
        a = next(f for f in l0 if f.first)
        b = next(f for f in l1 if f.first)
        t = a.tokens[-1] if a.tokens else ""
        if p0 != p1 or r0 != r1 or len(t) < 2 or not t.endswith("-") or not b.tokens:
            continue
        u = b.tokens[0]
        core_a, core_b = t[:-1].lstrip("([“‘\"'"), u.rstrip(".,;:)]”’\"'!?")
        inserted = (core_a + core_b) in src
        typed = (core_a + "-" + core_b) in src
        kind = "typed" if typed and not inserted else "inserted" if inserted and not typed \
            else "either"
        if kind == "either":
            notes.append("hyphen %s + %s: %s in the source" % (
                show(t), show(u), "both forms" if typed else "neither form"))
        joined = t + u if kind == "typed" else t[:-1] + u
        pairs[(t, u)] = (kind, joined)
        a.tokens[-1] = joined
        b.tokens.pop(0)
    frags = [f for _, _, ln in lines for f in ln if f.tokens]
    for i, f in enumerate(frags):
        f.i = i
    issues = []
    if drawn[0]:
        issues.append("%d lines drawn out of left-to-right order, e.g. %s"
                      % (drawn[0], "; ".join(drawn[1])))
    if late[0]:
        issues.append("%d runs drawn after a line below theirs, e.g. %s"
                      % (late[0], "; ".join(late[1])))
    if regions[0]:
        issues.append("%d pages draw a region out of reading order (running header, head, "
                      "body, running footer), e.g. %s" % (regions[0], "; ".join(regions[1])))
    return frags, pairs, notes, issues, plain


def reader_tokens(text, pairs):
    """A reader's words, with line-end hyphen pairs joined as in expected()."""
    toks = text.split()
    singles = {}
    for (t, u), (kind, joined) in pairs.items():
        if kind == "either":
            singles[t + u] = joined
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if i + 1 < len(toks) and (t, toks[i + 1]) in pairs:
            out.append(pairs[(t, toks[i + 1])][1])
            i += 2
            continue
        out.append(singles.get(t, t))
        i += 1
    return out


# ------------------------------------------------------------- comparing

def match(frags, toks):
    """Lay the fragments over the reader's words, left to right: at each
    word, the longest fragment not yet used that the words spell out, the
    first in reading order of those (identical fragments, such as two
    dates "2022", are taken in reading order).  Returns (fragment indices
    in the order read, [(position, word)] of words no fragment covers,
    fragments never found whole)."""
    byfirst = collections.defaultdict(list)
    for f in frags:
        byfirst[f.tokens[0]].append(f.i)
    used = [False] * len(frags)
    order, stray = [], []
    i = 0
    while i < len(toks):
        pick = None
        for fi in byfirst.get(toks[i], ()):
            t = frags[fi].tokens
            if not used[fi] and toks[i:i + len(t)] == t and \
                    (pick is None or len(t) > len(frags[pick].tokens)):
                pick = fi
        if pick is None:
            stray.append((i, toks[i]))
            i += 1
            continue
        used[pick] = True
        order.append(pick)
        i += len(frags[pick].tokens)
    missing = [f for f in frags if not used[f.i]]
    return order, stray, missing


def heaviest_increasing(seq, weight):
    """The subsequence of seq (distinct ints) that is increasing and has the
    largest total weight; returns it as a set."""
    n = max(seq) + 2 if seq else 1
    tree = [(0, -1)] * (n + 1)          # Fenwick tree of (best weight, position)

    def query(k):                        # best over values < k
        best = (0, -1)
        while k > 0:
            best = max(best, tree[k])
            k -= k & -k
        return best

    def update(k, v):
        k += 1
        while k <= n:
            tree[k] = max(tree[k], v)
            k += k & -k

    prev, best = [-1] * len(seq), (0, -1)
    for p, v in enumerate(seq):
        w, q = query(v)
        prev[p] = q
        cur = (w + weight(v), p)
        update(v, cur)
        best = max(best, cur)
    keep, p = set(), best[1]
    while p >= 0:
        keep.add(seq[p])
        p = prev[p]
    return keep


def deviations(frags, order):
    """Fragments read out of order, each as (kind, message).  What is out of
    order is what is left over by the heaviest increasing subsequence of
    the fragments as read, a line's main fragment weighing more than all
    the dates and bullets of the page, so that it is they that move.
    kind: "bullet" (a bullet glyph, read away from its line's text),
    "right" (a fragment after its line's main one, or a line of its own
    right of the middle: a date or a place, still on its own page and in
    order among the other "right" ones that moved), "side-order" (the same,
    but out of order among them), "furniture" (the running header or footer), "head" (a line of
    the head, the name, headline and contact details, read elsewhere in
    the head), "other"."""
    weight = lambda fi: (len(frags[fi].tokens) + (1000 if frags[fi].first else 0)
                         if not frags[fi].bullet else 0.5)
    keep = heaviest_increasing(order, weight)
    moved = [fi for fi in order if fi not in keep]
    rights = [fi for fi in moved if frags[fi].right]
    rights_ok = heaviest_increasing(rights, lambda fi: 1) if rights else set()
    out = []
    for k, fi in enumerate(order):
        if fi in keep:
            continue
        f = frags[fi]
        before = frags[order[k - 1]] if k else None
        want = frags[fi - 1] if fi else None
        kind = "bullet" if f.bullet else "right" if f.right else \
            "furniture" if f.region in ("page_header", "page_footer") else \
            "head" if f.region == "head" else "other"
        if kind == "right" and before and before.page != f.page:
            kind = "other"
        elif kind == "right" and fi not in rights_ok:
            kind = "side-order"
        if kind == "head" and before and before.region != "head":
            kind = "other"
        out.append((kind, "%s read after %s, not after %s" % (
            f, before if before else "<start>", want if want else "<start>")))
    return out


def evaluate(reader, frags, toks):
    """(words ok, why, order ok, why, deviations) of one reader's words."""
    exp_words = collections.Counter(t for f in frags for t in f.tokens)
    got_words = collections.Counter(toks)
    missing = exp_words - got_words
    extra = got_words - exp_words
    order, stray, lost = match(frags, toks)
    wwhy = ""
    if missing or extra:
        ctx = ["%s in '...%s...'" % (show(t, 30), " ".join(toks[max(0, i - 3):i + 3]))
               for i, t in stray if t in extra][:3]
        wwhy = "missing %d: %s; extra %d: %s" % (
            sum(missing.values()), ", ".join(show(w, 30) for w in list(missing)[:8]),
            sum(extra.values()), ", ".join(show(w, 30) for w in list(extra)[:8]))
        if ctx:
            wwhy += "; e.g. " + "; ".join(ctx)
    devs = deviations(frags, order)
    known = KNOWN.get(reader, set())
    bad = [(k, m) for k, m in devs if k not in known]
    owhy = []
    if lost:
        owhy.append("%d fragments not read whole, e.g. %s" % (
            len(lost), "; ".join(map(repr, lost[:3]))))
    if bad:
        kinds = collections.Counter(k for k, _ in bad)
        owhy.append("%d out of order (%s), e.g. %s" % (
            len(bad), ", ".join("%d %s" % (n, k) for k, n in sorted(kinds.items())),
            "; ".join(m for _, m in bad[:3])))
    if VERBOSE:
        for f in lost:
            devs = devs + [("lost", repr(f))]
    return not missing and not extra, wwhy, not lost and not bad, " | ".join(owhy), devs


def compare(reader, name, frags, toks, tolerated):
    """The words and order checks of one reader on one PDF."""
    wok, wwhy, ook, owhy, devs = evaluate(reader, frags, toks)
    known = KNOWN.get(reader, set())
    check("%s %s: every word of the résumé, and only those" % (reader, name), wok, wwhy)
    check("%s %s: every line whole, in reading order%s" % (
        reader, name, " (but %s)" % ", ".join(sorted(known)) if known else ""), ook, owhy)
    if VERBOSE:
        for k, m in devs:
            print("  %s %s %s: %s" % (reader, name, k, m))
    tolerated[reader] += [(name, k, m) for k, m in devs if k in known]


def self_test(frags, pairs, plain):
    """The comparison itself, on the long profile's text as a faultless
    reader would print it, and on that text spoilt the ways readers spoil it."""
    def ev(reader, lines):
        return evaluate(reader, frags, reader_tokens("\n".join(lines), pairs))

    r = ev("mutool", plain)
    check("self-test: the dump's own text passes", r[0] and r[2], r[1] + r[3])
    # A right-aligned date read after the line below: tolerated for
    # pdftotext, an error for mutool.
    k = next(i for i, ln in enumerate(plain) if "  " in ln)
    main, date = plain[k].rsplit("  ", 1)
    moved = plain[:k] + [main, plain[k + 1], date] + plain[k + 2:]
    r, t = ev("mutool", moved), ev("pdftotext", moved)
    check("self-test: a date read after the next line is out of order, tolerated for pdftotext",
          r[0] and not r[2] and "1 right" in r[3] and t[0] and t[2], r[3] + t[3])
    # The bullet glued to the end of its text, as PDFBox reads it.
    k = next(i for i, ln in enumerate(plain) if ln.startswith("•  "))
    glued = plain[:k] + [plain[k][3:] + "•"] + plain[k + 1:]
    r = ev("pdfbox", glued)
    check("self-test: a bullet glued to its text is a wrong word", not r[0] and not r[2], r[1])
    # An inserted hyphen joined the way pdftotext does, and kept.
    k = next(i for i, ln in enumerate(plain) if ln.endswith("-"))
    joined = plain[:k] + [plain[k][:-1] + plain[k + 1]] + plain[k + 2:]
    r, t = ev("pdftotext", joined), ev("mutool", plain)
    check("self-test: a line-end hyphen reads as the word, joined or not",
          r[0] and r[2] and t[0] and t[2], r[1] + r[3] + t[1] + t[3])
    # A word dropped, a space lost, a line missing.
    k = next(i for i, ln in enumerate(plain) if ln.count(" ") > 5)
    for what, text in [("a word dropped", plain[:k] + [plain[k].split(" ", 1)[1]] + plain[k + 1:]),
                       ("two words run together",
                        plain[:k] + [plain[k].replace(" ", "", 1)] + plain[k + 1:]),
                       ("a line missing", plain[:k] + plain[k + 1:])]:
        r = ev("mutool", text)
        check("self-test: %s is caught" % what, not r[0], r[1])


# ------------------------------------------------------------- the readers

def java_cp(jars):
    paths = [os.path.join(JAVA_DIR, j) for j in jars]
    missing = [p for p in paths if not os.path.exists(p)]
    return ":".join(paths), missing


def read(reader, pdf):
    """(exit status, text, stderr lines that are not noise)."""
    if reader == "pdftotext":
        cmd = ["pdftotext", "-enc", "UTF-8", pdf, "-"]
    elif reader == "mutool":
        cmd = ["mutool", "draw", "-q", "-F", "txt", pdf]
    elif reader == "pdfminer":
        cmd = [PDF2TXT, pdf]
    else:
        cmd = ["java", "-cp", java_cp(EXTRACT_JARS)[0], "org.apache.pdfbox.tools.ExtractText",
               "-console", "-encoding", "UTF-8", pdf]
    rc, out, err = run(cmd, timeout=120)
    errs = [ln for ln in err.splitlines() if ln.strip() and not any(n.match(ln) for n in NOISE)]
    return rc, out, errs


# Debian's, for the system python3 that has python3-pdfminer.
PDF2TXT = "/usr/bin/pdf2txt" if os.path.exists("/usr/bin/pdf2txt") else \
    shutil.which("pdf2txt") or shutil.which("pdf2txt.py") or "pdf2txt"


def tools_present():
    ok = True
    for tool, pkg in [("pdftotext", "poppler-utils"), ("mutool", "mupdf-tools"),
                      (PDF2TXT, "python3-pdfminer"), ("java", "default-jre-headless"),
                      ("qpdf", "qpdf")]:
        if not shutil.which(tool):
            check("%s is installed" % tool, False, "run tests/deps.sh as root (%s)" % pkg)
            ok = False
    for jars in (EXTRACT_JARS, PREFLIGHT_JARS):
        _, missing = java_cp(jars)
        if missing:
            check("PDFBox jars are installed", False, "missing %s: run tests/deps.sh as root "
                  "(libpdfbox2-java libactivation-java libjaxb-api-java)" % " ".join(missing))
            return False
    return ok


# -------------------------------------------------------------- preflight

def preflight(pdfs):
    """Validate every PDF in one JVM (Validator_A1b's "xml group" mode):
    {basename: (valid, [(code, details, count)])}, or a string on failure."""
    lst = os.path.join(TMP, "preflight.list")
    with open(lst, "w", encoding="utf-8") as f:
        f.write("\n".join(pdfs) + "\n")
    rc, out, err = run(["java", "-cp", java_cp(PREFLIGHT_JARS)[0],
                        "org.apache.pdfbox.preflight.Validator_A1b", "xml", "group", lst],
                       timeout=300)
    xml = lst + ".preflight.xml"
    if not os.path.exists(xml):
        return "Validator_A1b wrote no report (exit %d): %s" % (rc, (out + err)[-500:])
    res = {}
    for p in ET.parse(xml).getroot().iter("preflight"):
        valid = (p.findtext("isValid") or "").strip() == "true"
        errs = [(e.findtext("code"), e.findtext("details"), int(e.get("count", "1")))
                for e in p.iter("error")]
        exc = p.findtext("exceptionThrown")
        if exc:
            errs.append(("exception", exc.strip()[:300], 1))
        res[p.get("name")] = (valid, errs)
    return res


def preflight_summary(errs):
    """One line per distinct error: code, details (page numbers dropped), count."""
    agg = collections.OrderedDict()
    for code, details, n in errs:
        d = re.sub(r" on page \d+$", "", details or "")
        agg[(code, d)] = agg.get((code, d), 0) + n
    return ["%s %s (x%d)" % (c, d, n) for (c, d), n in
            sorted(agg.items(), key=lambda kv: (kv[0][0] or "", kv[0][1]))]


# ------------------------------------------------------------------- main

def readers():
    """The whole suite is one group (filter it by check name with -k)."""
    if tools_present():
        suite()


def suite():
    t0 = time.time()
    rc, helptext, _ = run([BIN, "--help"])
    has_pdfa = "--pdfa" in helptext
    work = []                   # (name, pdf, frags, pairs)
    pdfa = []                   # (name, pdf)
    for name, prof, lay in profiles():
        pdf = os.path.join(TMP, name + ".pdf")
        rc, _, err = run([BIN, "-l", lay, "-o", pdf, prof])
        ok = rc == 0 and os.path.exists(pdf)
        check("%s renders with nothing on stderr" % name, ok and not err.strip(), err.strip()[:300])
        if not ok:
            continue
        rc, d, err = run([BIN, "-q", "-l", lay, "--dump", prof])
        frags, pairs, notes, issues, plain = expected(d, open(prof, encoding="utf-8").read())
        for n in notes:
            print("note: %s: %s (read either way)" % (name, n))
        check("%s: the PDF draws its text in reading order (--dump)" % name, not issues,
              " | ".join(issues))
        work.append((name, pdf, frags, pairs))
        if name == "gen-long":
            self_test(frags, pairs, plain)
        if has_pdfa:
            apdf = os.path.join(TMP, "pdfa", name + ".pdf")
            os.makedirs(os.path.dirname(apdf), exist_ok=True)
            rc, _, err = run([BIN, "--pdfa", "-l", lay, "-o", apdf, prof])
            ok = rc == 0 and os.path.exists(apdf)
            check("%s renders with --pdfa with nothing on stderr" % name, ok and not err.strip(),
                  err.strip()[:300])
            if ok:
                pdfa.append((name, apdf))
                work.append((name + " --pdfa", apdf, frags, pairs))
    if has_pdfa:
        # Also PDF/A: a CV book of the lab, and a sidebar résumé with a photo.
        book = os.path.join(TMP, "pdfa", "book.pdf")
        rc, _, err = run([BIN, "-q", "--pdfa", "--merge", book] +
                         sorted(glob.glob(os.path.join(ROOT, "profiles", "*.yaml"))))
        if check("the lab's CV book renders with --pdfa", rc == 0 and os.path.exists(book), err):
            pdfa.append(("book", book))
        pd = os.path.join(TMP, "photo")
        os.makedirs(pd, exist_ok=True)
        shutil.copy(os.path.join(ROOT, "tests", "data", "photo.png"), pd)
        with open(os.path.join(ROOT, "profiles", "li.yaml"), encoding="utf-8") as f:
            text = f.read().replace("cv:\n", "cv:\n  photo: photo.png\n", 1)
        with open(os.path.join(pd, "li.yaml"), "w", encoding="utf-8") as f:
            f.write(text)
        ppdf = os.path.join(TMP, "pdfa", "photo.pdf")
        rc, _, err = run([BIN, "-q", "--pdfa", "-l", os.path.join(ROOT, "layouts", "sidebar.yaml"),
                          "-o", ppdf, os.path.join(pd, "li.yaml")])
        if check("a sidebar résumé with a photo renders with --pdfa", rc == 0, err):
            pdfa.append(("photo", ppdf))
    t_render = time.time()

    # Preflight runs in its own JVM while the readers run.
    pool = concurrent.futures.ThreadPoolExecutor(JOBS)
    normal_pdf = os.path.join(TMP, "normal", "he-normal.pdf")
    os.makedirs(os.path.dirname(normal_pdf))
    src = next((pdf for name, pdf, _, _ in work if name == "he"), work[0][1] if work else None)
    pf_files = [p for _, p in pdfa]
    if src:
        shutil.copy(src, normal_pdf)
        pf_files.append(normal_pdf)
    pf_job = pool.submit(preflight, pf_files) if pf_files else None
    jobs = {(reader, name): pool.submit(read, reader, pdf)
            for name, pdf, _, _ in work for reader in READERS}
    qjobs = {name: pool.submit(run, ["qpdf", "--check", pdf]) for name, pdf, _, _ in work}

    tolerated = collections.defaultdict(list)
    for reader in READERS:
        for name, pdf, frags, pairs in work:
            rc, text, errs = jobs[(reader, name)].result()
            check("%s %s: exits 0 with nothing on stderr" % (reader, name), rc == 0 and not errs,
                  "exit %d: %s" % (rc, " | ".join(errs[:5])))
            compare(reader, name, frags, reader_tokens(text, pairs), tolerated)
    for name, pdf, _, _ in work:
        rc, out, err = qjobs[name].result()
        check("qpdf --check %s" % name,
              rc == 0 and "No syntax or stream encoding errors" in out and not err.strip(),
              (out + err).strip()[-300:])

    for reader in READERS:
        tol = tolerated[reader]
        if tol:
            kinds = collections.Counter(k for _, k, _ in tol)
            print("note: %s reads %s out of order in %d of %d PDFs (its own layout analysis; "
                  "tolerated), e.g. %s: %s" % (
                      reader, ", ".join("%d %s" % (n, k) for k, n in sorted(kinds.items())),
                      len(set(n for n, _, _ in tol)), len(work), tol[0][0], tol[0][2]))

    pf = pf_job.result() if pf_job else {}
    if isinstance(pf, str):
        check("PDFBox Preflight runs", False, pf)
        pf = {}
    if not has_pdfa:
        check("every profile with --pdfa is a valid PDF/A-1b file (PDFBox Preflight)", False,
              "--pdfa missing: `cvpdf --help` does not mention it")
    for name, apdf in pdfa:
        r = pf.get(os.path.basename(apdf))
        if r is None:
            check("%s --pdfa: a valid PDF/A-1b file (Preflight)" % name, False, "not in the report")
            continue
        check("%s --pdfa: a valid PDF/A-1b file (Preflight)" % name, r[0] and not r[1],
              "; ".join(preflight_summary(r[1])[:12]))
    r = pf.get(os.path.basename(normal_pdf))
    if r is not None:
        print("info: Preflight on he.pdf rendered without --pdfa: %s" %
              ("a valid PDF/A-1b file" if r[0] else "not PDF/A-1b:"))
        for line in preflight_summary(r[1]):
            print("info:   %s" % line)
    t_end = time.time()
    print("info: %d PDFs; rendering %.1fs, the readers, qpdf and Preflight (in parallel) "
          "%.1fs; total %.1fs" % (len(work), t_render - t0, t_end - t_render, t_end - t0))
    pool.shutdown()


if __name__ == "__main__":
    sys.exit(testlib.main("readers", [readers], tmp=TMP))
