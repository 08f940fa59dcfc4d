#!/usr/bin/env python3
"""Pagination tests for cvpdf: properties of `cvpdf --dump --explain`.

Usage: tests/pages.py CVPDF_BINARY [-k PATTERN] [--list]

0. Self-test: hand-made dumps that break a rule (a title stranded at the
   foot of a page, a widowed line, overlapping runs, ...), and cvpdf run
   with the keep rules relaxed, must make the checker complain.
1. Property test: profiles generated from a fixed list of seeds, for the
   onecolumn, sidebar and compact layouts.  Every generated word is unique
   and Capitalised (never hyphenated), so each line of the dump maps back
   to the title, entry header, summary or bullet it came from.  Checked per
   profile: no two text runs overlap; every run lies in a region of its
   page, the right one; no line is wider than its region; every keep rule
   of include/flow.h holds at every page break, except where --explain
   notes that a rule gave way; no space is left above the first line of a
   page; --explain names the item each page starts with; every word
   appears exactly once, in profile order within its column.
2. Heading-at-the-foot sweep: every profile in profiles/ (zh.yaml for the
   *-zh ones, onecolumn otherwise, and sidebar for all), pushed down by a
   filler section (in each column) of 0..K one-line bullets, K a page's
   worth, with the top margin +0 and +2.5mm (half a bullet's step), so that
   every title of pages 1 and 2 passes the foot of a page.  No title may end
   a page or keep less of its first entry than the rule says; no runs
   overlap or leave their regions.
3. A profile bisected so that, without the keep rules, the title of its
   second section would be the last line of page 1: the title must start
   page 2 with its first entry, and --explain must name the rule.

Every check prints "ok NAME" or "FAIL NAME: why"; the last line is
"pages: N passed, M failed".
"""
import concurrent.futures
import os
import shutil
import random
import re
import sys
import tempfile
import threading
import time

import testlib
from testlib import BIN, ROOT, check, read_dump, run

TMP = tempfile.mkdtemp(prefix="cvpdf-pages-")
LAYOUTS = os.path.join(ROOT, "layouts")
JOBS = max(2, os.cpu_count() or 2)
TIMEOUT = 60

# The keep rules of include/flow.h, weakest first, with the names --explain
# gives them (src/flow.c, cv_keep_rule()).
SECTION, ENTRY, LINES, HEADER, TITLE, HEAD = 1, 2, 3, 4, 5, 6
RULE = {SECTION: "keep_together: the section stays on one page",
        ENTRY: "a short entry is never split",
        LINES: "widows and orphans: a paragraph keeps two lines on each side",
        HEADER: "an entry's header stays with its first line",
        TITLE: "a section title stays with its first entry",
        HEAD: "the header is not split"}
LEVEL = {v: k for k, v in RULE.items()}
# The layouts' pagination numbers (layouts/onecolumn.yaml, inherited).
ENTRY_LINES, ORPHANS, WIDOWS, TITLE_LINES = 4, 2, 2, 2

NAME = "Zed Quorum"
EMAIL = "zed@example.com"
PHONE = "+44 20 1234 5678"
RESERVED = {"Zed", "Quorum", "Remote", "Contact"}


def norm(s):
    return re.sub(r"\s+", " ", s).strip().upper()


def sidebar_keys():
    """The section keys layouts/sidebar.yaml sends to the sidebar."""
    text = open(os.path.join(LAYOUTS, "sidebar.yaml"), encoding="utf-8").read()
    m = re.search(r"^    sections:\s*\n((?:\s+- .*\n|\s*#.*\n)+)", text, re.M)
    return [k.strip().strip('"') for k in re.findall(r"^\s+- (.*?)\s*(?:#.*)?$", m.group(1), re.M)]


SIDEBAR_KEYS = sidebar_keys()


# ---------------------------------------------------------------- the dump

BREAK_RE = re.compile(r"  page (\d+)(?:, (main column|sidebar))?: starts with (.*?): "
                      r"(the page is full.*|page_break_before .*|no break allowed on the page.*|"
                      r"the sidebar has ended, so the main column takes the full width)$")


def parse(out):
    """--dump --explain output: (explain, pages), the pages as
    testlib.read_dump reads them (a run also has its box).  explain has
    npages, breaks {(column, page): (what, reason)}, notes and any other
    lines."""
    ex = {"npages": None, "breaks": {}, "notes": [], "other": []}
    pages = read_dump(out, other=True)
    for pg in pages:
        for r in pg["runs"]:
            x, y, w, size = r["x"], r["y"], r["w"], r["size"]
            r["box"] = (x, y - 0.22 * size, x + w, y + 0.75 * size)
    for line in pages.other:
        m = BREAK_RE.match(line)
        if line.startswith("  note: "):
            ex["notes"].append(line[8:])
        elif m:
            col = "sidebar" if m.group(2) == "sidebar" else "main"
            ex["breaks"][(col, int(m.group(1)))] = (m.group(3), m.group(4))
        elif re.match(r".*: (\d+) pages?$", line) and ex["npages"] is None:
            ex["npages"] = int(re.match(r".*: (\d+) pages?$", line).group(1))
        else:
            ex["other"].append(line)
    return ex, pages


def gave_way(ex, col, page):
    """The strength of the rule that gave way to start `page` of `col`, 0
    when none did."""
    b = ex["breaks"].get((col, page))
    m = re.match(r"no break allowed on the page; gave way: (.*)$", b[1]) if b else None
    return LEVEL.get(m.group(1), 0) if m else 0


def inside(box, reg, tol):
    return (box[0] >= reg[1] - tol and box[2] <= reg[3] + tol and
            box[1] >= reg[2] - tol and box[3] <= reg[4] + tol)


class Line:
    """Runs of one region on one baseline, left to right."""
    __slots__ = ("page", "region", "y", "runs", "text", "x0", "x1", "elem", "size")

    def __init__(self, page, region, y, runs):
        self.page, self.region, self.y = page, region, y
        self.runs = sorted(runs, key=lambda r: r["x"])
        t = ""
        for i, r in enumerate(self.runs):
            if i and not t.endswith(" ") and not r["text"].startswith(" ") and \
                    r["x"] - (self.runs[i - 1]["x"] + self.runs[i - 1]["w"]) > 1.0:
                t += " "
            t += r["text"]
        self.text = t
        self.x0 = min(r["x"] for r in runs)
        self.x1 = max(r["x"] + r["w"] for r in runs)
        self.size = max(r["size"] for r in runs)
        self.elem = None

    def __repr__(self):
        return "p%d %s y=%.2f %r" % (self.page, self.region, self.y, self.text[:70])


def geometry(pages):
    """Overlaps, regions and line widths.  Returns (problems by category,
    the lines of every page in reading order)."""
    prob = {"overlap": [], "region": [], "width": []}
    lines = []
    for pg in pages:
        regs = pg["regions"]
        byreg = {}
        for r in pg["runs"]:
            reg = next((g for g in regs if inside(r["box"], g, 0.05)), None)
            if reg is None:
                prob["region"].append("page %d: run outside every region: %s"
                                      % (pg["n"], r["line"]))
                # Group it with the region its baseline is in, if any.
                reg = next((g for g in regs if g[1] - 1 <= r["x"] <= g[3] + 1 and
                            g[2] - 1 <= r["y"] <= g[4] + 1), ("none", 0, 0, 0, 0))
            byreg.setdefault((reg[0], round(r["y"], 2)), []).append(r)
        plines = [Line(pg["n"], k[0], k[1], v) for k, v in byreg.items()]
        plines.sort(key=lambda ln: (-ln.y, ln.x0))
        for ln in plines:
            reg = next((g for g in regs if g[0] == ln.region), None)
            if reg and ln.x1 - ln.x0 > reg[3] - reg[1] + 0.05:
                prob["width"].append("page %d: line %.2f wide in %s %.2f wide: %r" % (
                    pg["n"], ln.x1 - ln.x0, ln.region, reg[3] - reg[1], ln.text))
        lines.extend(plines)
        # Overlaps: sweep the runs by the bottom of their boxes.
        runs = sorted(pg["runs"], key=lambda r: r["box"][1])
        for i, a in enumerate(runs):
            ab = a["box"]
            for b in runs[i + 1:]:
                bb = b["box"]
                if bb[1] >= ab[3] - 0.3:
                    break
                if min(ab[2], bb[2]) - max(ab[0], bb[0]) > 0.3 and \
                        min(ab[3], bb[3]) - max(ab[1], bb[1]) > 0.3:
                    prob["overlap"].append("page %d:\n      %s\n      %s"
                                           % (pg["n"], a["line"], b["line"]))
    return prob, lines


# ------------------------------------------------------------ the model

class Elem:
    """What a line of the dump comes from: a section title, an entry's
    header block, a paragraph (summary, bullet, one-line or text entry),
    the headline or the contact details."""
    __slots__ = ("kind", "col", "sec", "entry", "words", "text")

    def __init__(self, kind, col, sec=None, entry=-1, words=(), text=None):
        self.kind, self.col, self.sec, self.entry = kind, col, sec, entry
        self.words, self.text = list(words), text

    def __repr__(self):
        if self.kind == "title":
            return "the title of section '%s'" % self.sec.title
        if self.sec is not None:
            return "%s of entry %d of section '%s' (%s...)" % (
                self.kind, self.entry + 1, self.sec.title, " ".join(self.words[:3]))
        return self.kind


class Section:
    def __init__(self, key, kind, col):
        self.key, self.kind, self.col = key, kind, col
        self.title = key if re.search(r"[A-Z ]", key) else \
            " ".join(w[:1].upper() + w[1:] for w in key.split("_") if w)
        self.title_elem = Elem("title", col, self, -1, (), self.title)
        self.entries = []            # [(header Elem or None, [paragraph Elems])]
        self.yaml = []               # the entries as YAML lines
        self.keep_together = self.break_before = False

    def elems(self):
        out = [self.title_elem]
        for h, paras in self.entries:
            out += ([h] if h else []) + paras
        return out


class Model:
    def __init__(self, layout):
        self.layout = layout
        self.sidebar = layout == "sidebar"
        self.sections = []
        self.headline = Elem("headline", "head")
        self.contact_col = "sidebar" if self.sidebar else "head"
        self.contact_title = "Contact" if self.sidebar else None
        self.contact = Elem("contact", self.contact_col)
        self.wordmap = {}

    def index(self):
        self.wordmap = {}
        for e in [self.headline] + [e for s in self.sections for e in s.elems()]:
            for w in e.words:
                assert w not in self.wordmap, w
                self.wordmap[w] = e

    def col_elems(self, col):
        return [e for s in self.sections if s.col == col for e in s.elems()]


# ---------------------------------------------------------- the checker

def attribute(lines, model, prob):
    """Set line.elem for every line; return {column: [lines in order]}."""
    cols = {"main": [], "sidebar": []}
    titles = {}
    for s in model.sections:
        titles.setdefault((s.col, norm(s.title)), s.title_elem)
    prev = {}
    for ln in lines:
        owners = []
        for t in re.findall(r"[A-Za-z]+", ln.text):
            e = model.wordmap.get(t)
            if e is not None and e not in owners:
                owners.append(e)
        if len(owners) > 1:
            prob["attribution"].append("one line mixes %s: %r" % (
                " and ".join(map(repr, owners)), ln))
        if owners:
            ln.elem = owners[0]
        elif ln.region in ("main", "sidebar"):
            t = norm(ln.text)
            if (ln.region, t) in titles:
                ln.elem = titles[(ln.region, t)]
            elif model.contact_col == ln.region and (
                    EMAIL in ln.text or "1234" in ln.text or
                    (model.contact_title and t == norm(model.contact_title))):
                ln.elem = model.contact
            else:
                # A date or place line of an entry header (stacked in the
                # sidebar): part of the header just above it.
                p = prev.get((ln.page, ln.region))
                if p is not None and p.elem is not None and p.elem.kind == "header":
                    ln.elem = p.elem
                else:
                    prob["attribution"].append("line of no entry: %r" % ln)
        elif ln.region == "head":
            if EMAIL in ln.text or "1234" in ln.text:
                ln.elem = model.contact
            elif ln.text.strip() != NAME:
                prob["attribution"].append("unexpected line in the head: %r" % ln)
        elif ln.region == "page_header":
            if ln.text.strip() != NAME:
                prob["attribution"].append("unexpected running header: %r" % ln)
        elif ln.region == "page_footer":
            if not re.match(r"^\d+\s+/\s+\d+", ln.text.strip()):
                prob["attribution"].append("unexpected running footer: %r" % ln)
        # Where it is.
        want = ln.elem.col if ln.elem is not None else None
        if ln.text.strip() == NAME:
            want = "head" if ln.page == 1 else "page_header"
        if want and ln.region != want:
            prob["region"].append("%r is in region %s, not %s" % (ln, ln.region, want))
        if ln.region in cols:
            cols[ln.region].append(ln)
            prev[(ln.page, ln.region)] = ln
    return cols


class Item:
    """An unbreakable piece of a column: a title line, a whole entry header,
    a paragraph line or a contact line."""
    __slots__ = ("elem", "page", "lines")

    def __init__(self, elem, page, lines):
        self.elem, self.page, self.lines = elem, page, lines


def items_of(col_lines, prob):
    items = []
    for ln in col_lines:
        e = ln.elem
        if e is None:
            continue
        if e.kind == "header" and items and items[-1].elem is e and items[-1].page == ln.page:
            items[-1].lines.append(ln)
            continue
        if e.kind == "header" and any(it.elem is e for it in items[-3:]):
            prob["keep"].append("entry header split: %r" % ln)
        items.append(Item(e, ln.page, [ln]))
    return items


def what(e):
    """How --explain names the item an element starts with."""
    if e.kind == "title":
        return "the title of section '%s'" % e.sec.title
    if e.kind == "contact":
        return "the contact details"
    return "entry %d of section '%s'" % (e.entry + 1, e.sec.title)


def check_dump(out, model):
    """Every property of one --dump --explain output of a generated profile.
    Returns {category: [problems]}."""
    ex, pages = parse(out)
    prob, lines = geometry(pages)
    prob.update({"attribution": [], "keep": [], "explain": [], "words": []})
    if ex["npages"] != len(pages):
        prob["explain"].append("--explain says %s pages, the dump has %d"
                               % (ex["npages"], len(pages)))
    if ex["other"]:
        prob["explain"].append("unexpected lines: %s" % ex["other"][:3])
    cols = attribute(lines, model, prob)
    # Space above an item is dropped when it starts a page: the first line
    # of a column's page sits at the top of its region (measured: 0.14 to
    # 0.19 of the type size below it; an entry's gap would add 4pt or more).
    prob["top"] = []
    for col, col_lines in cols.items():
        for i, ln in enumerate(col_lines):
            if i and col_lines[i - 1].page == ln.page:
                continue
            reg = next(g for g in pages[ln.page - 1]["regions"] if g[0] == col)
            gap = reg[4] - (ln.y + 0.75 * ln.size)
            if gap > 0.3 * ln.size:
                prob["top"].append("page %d: the %s column starts %.2fpt below its top: %r"
                                   % (ln.page, col, gap, ln))
    # Sizes of the body text (for counting an entry header's lines).
    sizes = [ln.size for ln in lines if ln.elem is not None and ln.elem.kind == "para"]
    body = max(set(sizes), key=sizes.count) if sizes else 10.0

    ignored = set()
    for n in ex["notes"]:
        m = re.match(r"keep_together ignored for section '(.*)': it is taller than a page$", n)
        if m:
            ignored.add(m.group(1))
        elif not n.startswith("a keep rule gave way before "):
            prob["explain"].append("unexpected note: %s" % n)
    for col, col_lines in cols.items():
        items = items_of(col_lines, prob)
        pos = {}
        for i, it in enumerate(items):
            pos.setdefault(id(it.elem), []).append(i)
        keep = [0] * len(items)

        def mark(i, k):
            keep[i] = max(keep[i], k)

        for s in model.sections:
            if s.col != col:
                continue
            sec_items = [i for e in s.elems() for i in pos.get(id(e), [])]
            if not sec_items:
                continue
            for i in pos.get(id(s.title_elem), []):
                mark(i, TITLE)
            # The title keeps its first entry's header and TITLE_LINES lines
            # of the section, across entries; a header counts when it is all
            # its entry has.  The section's last WIDOWS lines stay together.
            def nlines(i, alone):
                it = items[i]
                if it.elem.kind != "header":
                    return 1
                if not alone:
                    return 0
                return int(sum(min(ln.size, body) for ln in it.lines) / body + 0.5)
            seq = []
            for h, paras in s.entries:
                content = [i for e in paras for i in pos.get(id(e), [])]
                hi = pos.get(id(h), []) if h else []
                seq += [(i, nlines(i, not content)) for i in hi + content]
            n = 0
            for i, k in seq:
                if n >= TITLE_LINES:
                    break
                if i > 0:
                    mark(i - 1, TITLE)
                n += k
            n = 0
            for j in range(len(seq) - 1, 0, -1):
                i, _ = seq[j]
                n += nlines(i, True)
                if n >= WIDOWS:
                    break
                mark(seq[j - 1][0], LINES)
            for h, paras in s.entries:
                hi = pos.get(id(h), []) if h else []
                content = [i for e in paras for i in pos.get(id(e), [])]
                if hi and content:
                    mark(hi[0], HEADER)
                for e in paras:
                    pl = pos.get(id(e), [])
                    for k in range(1, len(pl)):
                        if k < ORPHANS or len(pl) - k < WIDOWS:
                            mark(pl[k - 1], LINES)
                nl = len(content)
                if hi:
                    nl += int(sum(min(ln.size, body) for ln in items[hi[0]].lines) / body + 0.5)
                allit = hi + content
                if nl <= ENTRY_LINES:
                    for i in allit[:-1]:
                        mark(i, ENTRY)
            if s.keep_together and s.title not in ignored:
                for i in sec_items[:-1]:
                    mark(i, SECTION)
            if s.break_before and sec_items:
                i = pos[id(s.title_elem)][0]
                if i > 0 and items[i - 1].page == items[i].page:
                    prob["keep"].append("page_break_before: the title of section '%s' is not "
                                        "the first thing of its column on page %d: %r after %r"
                                        % (s.title, items[i].page, items[i].lines[0],
                                           items[i - 1].lines[-1]))
            if s.title in ignored:
                # The note says the section is taller than a page: it must
                # at least come close to filling one.
                pages_of = {}
                for i in sec_items:
                    for ln in items[i].lines:
                        lo, hi2 = pages_of.get(ln.page, (1e9, -1e9))
                        pages_of[ln.page] = (min(lo, ln.y - 0.22 * ln.size),
                                             max(hi2, ln.y + 0.75 * ln.size))
                h = sum(b - a for a, b in pages_of.values())
                full = max(g[4] - g[2] for pg in pages for g in pg["regions"] if g[0] == col)
                if h < 0.85 * full:
                    prob["keep"].append("--explain says section '%s' is taller than a page, "
                                        "but it is %.0fpt high on a %.0fpt page"
                                        % (s.title, h, full))
        # The sidebar's contact block: its title stays with its first line.
        for i, it in enumerate(items[:-1]):
            if it.elem.kind == "contact" and model.contact_title and \
                    norm(it.lines[0].text) == norm(model.contact_title):
                mark(i, TITLE)
        # Every page break of the column.
        for i in range(len(items) - 1):
            a, b = items[i], items[i + 1]
            if a.page == b.page:
                continue
            if b.page != a.page + 1:
                prob["keep"].append("%s column: nothing on page %d between %r and %r"
                                    % (col, a.page + 1, a.lines[-1], b.lines[0]))
            if keep[i] and gave_way(ex, col, b.page) < keep[i]:
                prob["keep"].append(
                    "%s column, break before page %d violates '%s':\n      page %d ends "
                    "with %r\n      page %d starts with %r" % (
                        col, b.page, RULE[keep[i]], a.page, a.lines[-1], b.page, b.lines[0]))
            # --explain names the item the page starts with, and why.
            br = ex["breaks"].get((col, b.page))
            if br is None:
                prob["explain"].append("no --explain line for page %d of the %s column"
                                       % (b.page, col))
            elif br[0] != what(b.elem):
                prob["explain"].append("page %d, %s: --explain says it starts with %s, the dump "
                                       "with %s" % (b.page, col, br[0], what(b.elem)))
            elif br[1].startswith("page_break_before") and not (
                    b.elem.kind == "title" and b.elem.sec.break_before):
                prob["explain"].append("page %d, %s: reason %r" % (b.page, col, br[1]))
        for (c, p), br in ex["breaks"].items():
            if c == col and not any(items[i].page != items[i + 1].page and
                                    items[i + 1].page == p for i in range(len(items) - 1)):
                prob["explain"].append("--explain has page %d of the %s column starting "
                                       "with %s; the dump does not" % (p, col, br[0]))
    check_words(cols, lines, model, prob)
    return prob


def check_words(cols, lines, model, prob):
    count = {}
    for ln in lines:
        for t in re.findall(r"[A-Za-z]+", ln.text):
            if t in model.wordmap:
                count[t] = count.get(t, 0) + 1
    missing = [w for w in model.wordmap if w not in count]
    twice = [w for w, n in count.items() if n > 1]
    if missing:
        prob["words"].append("%d words missing, e.g. %s (%r)" % (
            len(missing), missing[0], model.wordmap[missing[0]]))
    if twice:
        prob["words"].append("%d words more than once, e.g. %s" % (len(twice), twice[0]))
    seqs = dict(cols)
    seqs["head"] = [ln for ln in lines if ln.region == "head"]
    for col, col_lines in seqs.items():
        got = [(t, ln) for ln in col_lines for t in re.findall(r"[A-Za-z]+", ln.text)
               if t in model.wordmap]
        want = model.headline.words if col == "head" else \
            [w for e in model.col_elems(col) for w in e.words]
        for k in range(max(len(got), len(want))):
            g = got[k][0] if k < len(got) else "<end>"
            w = want[k] if k < len(want) else "<end>"
            if g != w:
                prob["words"].append("%s: word %d is %s, want %s (%r) on %r" % (
                    col, k + 1, g, w, model.wordmap.get(w),
                    got[k][1] if k < len(got) else None))
                break


# ------------------------------------------------------ profile generator

CONS, VOWELS = "bdfgklmnprstvz", "aeiou"


class Gen:
    """A random profile for a layout, and its model."""

    def __init__(self, seed, layout):
        self.rng = random.Random(seed * 7919 + len(layout))
        self.used = set(RESERVED)
        self.m = Model(layout)

    def word(self):
        r = self.rng
        while True:
            w = "".join(r.choice(CONS) + r.choice(VOWELS) for _ in range(r.randint(2, 5)))
            w = w.capitalize()
            if w not in self.used:
                self.used.add(w)
                return w

    def words(self, lo, hi, skew=2.0):
        n = lo + int((hi - lo + 1) * self.rng.random() ** skew)
        return [self.word() for _ in range(min(n, hi))]

    def date(self):
        return "%d-%02d" % (self.rng.randint(1990, 2015), self.rng.randint(1, 12))

    def para(self, sec, entry, words):
        return Elem("para", sec.col, sec, entry, words)

    def entry(self, sec, i):
        r, y = self.rng, []
        kind = sec.kind
        q = lambda ws: '"%s"' % " ".join(ws)
        header = None
        paras = []
        if kind in ("experience", "education", "publication", "normal"):
            if kind == "experience":
                a, b = self.words(1, 4), self.words(1, 4)
                y += ["- company: " + q(a), "  position: " + q(b)]
                hw = a + b
            elif kind == "education":
                a, d, b = self.words(1, 4), [self.word()], self.words(1, 3)
                y += ["- institution: " + q(a), "  area: " + q(b)]
                if r.random() < 0.7:
                    y.append("  degree: " + q(d))
                else:
                    d = []
                hw = a + d + b
            elif kind == "publication":
                a = self.words(1, 12)
                authors = [self.words(2, 2) for _ in range(r.randint(1, 6))]
                y += ["- title: " + q(a),
                      "  authors: [%s]" % ", ".join(q(x) for x in authors)]
                hw = a + [w for x in authors for w in x]
                if r.random() < 0.7:
                    j = self.words(1, 4)
                    y.append("  journal: " + q(j))
                    hw += j
            else:
                a = self.words(1, 5)
                y.append("- name: " + q(a))
                hw = a
            header = Elem("header", sec.col, sec, i, hw)
            if kind == "publication":
                y.append('  date: "%s"' % self.date())
            elif kind == "normal":
                if r.random() < 0.6:
                    y.append('  date: "%s"' % self.date())
            else:
                s = self.date()
                y.append('  start_date: "%s"' % s)
                if r.random() < 0.8:
                    e = "%d-%s" % (int(s[:4]) + r.randint(1, 5), s[5:])
                    y.append('  end_date: "%s"' % (e if r.random() < 0.8 else "present"))
                if kind != "publication" and r.random() < 0.3:
                    y.append('  location: "Remote"')
            if r.random() < 0.3:
                w = self.words(1, 70)
                y.append("  summary: " + q(w))
                paras.append(self.para(sec, i, w))
            nb = 0 if kind == "publication" else r.randint(0, 8)
            if nb:
                y.append("  highlights:")
            for _ in range(nb):
                w = self.words(1, 70)
                y.append("    - " + q(w))
                paras.append(self.para(sec, i, w))
                if r.random() < 0.12:
                    for k in range(r.randint(1, 3)):
                        w = self.words(1, 40)
                        y.append(("    - - " if k == 0 else "      - ") + q(w))
                        paras.append(self.para(sec, i, w))
        elif kind == "one_line":
            a, b = self.words(1, 3), self.words(1, 70)
            y += ["- label: " + q(a), "  details: " + q(b)]
            if self.m.sidebar:           # "**LABEL**" over "DETAILS"
                paras += [self.para(sec, i, a), self.para(sec, i, b)]
            else:                        # "**LABEL:** DETAILS"
                paras.append(self.para(sec, i, a + b))
        elif kind == "bullet":
            w = self.words(1, 70)
            y.append("- bullet: " + q(w))
            paras.append(self.para(sec, i, w))
        else:
            w = self.words(1, 70)
            y.append("- " + q(w))
            paras.append(self.para(sec, i, w))
        sec.entries.append((header, paras))
        sec.yaml += y

    def profile(self):
        r, m = self.rng, self.m
        keys = ["experience", "education", "publications", "projects", "skills", "awards",
                "languages", "talks", "teaching", "service"]
        usual = {"experience": "experience", "education": "education",
                 "publications": "publication", "projects": "normal", "skills": "one_line",
                 "awards": "bullet", "languages": "one_line", "talks": "normal",
                 "teaching": "text", "service": "bullet"}
        kinds = ["experience", "education", "publication", "normal", "one_line", "bullet",
                 "text"]
        m.headline.words = self.words(1, 6)
        chosen = r.sample(keys, r.randint(1, 9))
        # A profile whose every section the sidebar names has them all in
        # the main column (compose.c: the main column is never empty).
        all_side = all(key in SIDEBAR_KEYS for key in chosen)
        for key in chosen:
            kind = usual[key] if r.random() < 0.7 else r.choice(kinds)
            col = "sidebar" if m.sidebar and key in SIDEBAR_KEYS and not all_side else "main"
            s = Section(key, kind, col)
            for i in range(1 + int(12 * r.random() ** 1.5)):
                self.entry(s, i)
            s.keep_together = r.random() < 0.15
            s.break_before = r.random() < 0.1
            m.sections.append(s)
        m.index()
        y = ["cv:", '  name: "%s"' % NAME, '  headline: "%s"' % " ".join(m.headline.words),
             '  email: "%s"' % EMAIL, '  phone: "%s"' % PHONE, "  sections:"]
        for s in m.sections:
            y.append("    %s:" % s.key)
            y += ["      " + ln for ln in s.yaml]
        kt = [s.key for s in m.sections if s.keep_together]
        bb = [s.key for s in m.sections if s.break_before]
        if kt or bb:
            y.append("settings:")
            if bb:
                y.append("  page_break_before: [%s]" % ", ".join('"%s"' % k for k in bb))
            if kt:
                y.append("  keep_together: [%s]" % ", ".join('"%s"' % k for k in kt))
        return "\n".join(y) + "\n"


def no_pull_back(layout, widen=True):
    """`layout` without the last-page rule (tested on its own in pull_back()):
    the sweeps check where the keep rules break the pages as they are.  With
    widen False, a sidebar layout keeps its main column narrow after the
    sidebar too (the foot tests expect the keep rules' own reasons)."""
    narrow = not widen and "sidebar" in os.path.basename(layout)
    path = os.path.join(TMP, "nopull-%x%s.yaml" % (hash(layout) & 0xffffffff,
                                                    "-narrow" if narrow else ""))
    with NOPULL_LOCK:
        if not os.path.exists(path):
            write(path, "extends: %s\npagination: {pull_back_last_page: false}\n%s"
                  % (os.path.abspath(layout),
                     "columns: {sidebar: {widen_main: false}}\n" if narrow else ""))
    return path


NOPULL_LOCK = threading.Lock()


def cvpdf(profile, layout, extra=(), pull_back=False, widen=True):
    """--dump --explain of a profile: (exit status, stdout, stderr)."""
    if not pull_back:
        layout = no_pull_back(layout, widen)
    try:
        return run([BIN, "--dump", "--explain", "-q", "-l", layout] + list(extra) + [profile],
                   timeout=TIMEOUT)
    except Exception as e:          # a timeout
        return -1, "", str(e)


def cvpdf_batch(profiles, layout, widen=True):
    """cvpdf(profile, layout, widen=widen) of each profile, from one cvpdf
    process (a batch, -j 1: each profile still in a process of its own,
    forked): a list of (exit status, stdout, stderr).  A batch's output is
    each profile's --explain and --dump one after another, the same bytes
    as its own run's; split at each profile's first --explain line.  When
    the batch fails or does not split so, every profile is run alone."""
    lay = no_pull_back(layout, widen)
    try:
        rc, out, err = run([BIN, "--dump", "--explain", "-q", "-j", "1", "--timeout",
                            str(TIMEOUT), "-l", lay] + list(profiles),
                           timeout=TIMEOUT * len(profiles))
    except Exception:                # a timeout
        rc = -1
    starts = []
    if rc == 0:
        at = 0
        for p in profiles:
            head = re.compile(r"^%s: \d+ pages?$" % re.escape(p), re.M)
            m = head.search(out, at)
            if not m:
                break
            starts.append(m.start())
            at = m.end()
    if rc != 0 or len(starts) != len(profiles) or starts[0] != 0:
        return [cvpdf(p, layout, widen=widen) for p in profiles]
    ends = starts[1:] + [len(out)]
    return [(0, out[a:b], "") for a, b in zip(starts, ends)]


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def report(prob, limit=3):
    out = []
    for cat, ps in prob.items():
        for p in ps[:limit]:
            out.append("[%s] %s" % (cat, p))
        if len(ps) > limit:
            out.append("[%s] ... %d more" % (cat, len(ps) - limit))
    return "\n    ".join(out)


# ------------------------------------------------------------ self-test

def self_test():
    """The checker must complain about a stranded title and an overlap."""
    m = Model("onecolumn")
    s = Section("experience", "experience", "main")
    h = Elem("header", "main", s, 0, ["Bakalo", "Tikopa"])
    p1 = Elem("para", "main", s, 0, ["Lamoru", "Venisa", "Dorupe"])
    s.entries.append((h, [p1]))
    m.sections.append(s)
    m.headline.words = ["Simoka"]
    m.index()
    head = ["region head 51.02 736.14 544.25 796.54",
            "text 229.96 773.86 w=135.36 Lato-Bold 24 #1f3a5f \"Zed Quorum\"",
            "text 263.20 755.34 w=40.00 Lato-Regular 11 #4d4d4d \"Simoka\""]

    def page(n, body, first=False):
        top = 724.14 if first else 796.54
        return (["page %d 595.28x841.89" % n] + (head if first else []) +
                ["region main 51.02 45.35 544.25 %.2f" % top,
                 "region page_footer 51.02 0.00 544.25 45.35"] + body +
                ["text 289.14 20.42 w=16.99 Lato-Regular 8 #4d4d4d \"%d / 2\"" % n])

    title = "text 51.02 %.2f w=69.51 Lato-Bold 11 #1f3a5f \"EXPERIENCE\""
    hdr = ["text 51.02 %.2f w=70.67 Lato-Bold 10 #1a1a1a \"Bakalo\"",
           "text 51.02 %.2f w=58.76 Lato-Italic 10 #1a1a1a \"Tikopa\""]
    par = ["text 51.02 %.2f w=60 Lato-Regular 10 #1a1a1a \"Lamoru Venisa\"",
           "text 51.02 %.2f w=30 Lato-Regular 10 #1a1a1a \"Dorupe\""]
    good = ["x: 1 page"] + page(1, [title % 713.74, hdr[0] % 695.39, hdr[1] % 682.59,
                                     par[0] % 667.79, par[1] % 654.99], True)
    prob = check_dump("\n".join(good), m)
    check("self-test: a good hand-made dump passes the checker", not any(prob.values()),
          report(prob))
    stranded = ["x: 2 pages",
                "  page 2: starts with entry 1 of section 'Experience': the page is full"] + \
        page(1, [title % 55.0], True) + \
        page(2, [hdr[0] % 780.0, hdr[1] % 767.2, par[0] % 752.4, par[1] % 739.6])
    prob = check_dump("\n".join(stranded), m)
    check("self-test: the checker reports a title stranded at the foot of a page",
          any("section title stays with its first entry" in p for p in prob["keep"]),
          report(prob))
    widow = ["x: 2 pages",
             "  page 2: starts with entry 1 of section 'Experience': the page is full"] + \
        page(1, [title % 713.74, hdr[0] % 695.39, hdr[1] % 682.59, par[0] % 667.79], True) + \
        page(2, [par[1] % 780.0])
    prob = check_dump("\n".join(widow), m)
    check("self-test: the checker reports a widowed line of a short entry",
          any("break before page 2 violates" in p for p in prob["keep"]), report(prob))
    overlap = ["x: 1 page"] + page(1, [title % 713.74, hdr[0] % 695.39, hdr[1] % 688.0,
                                        par[0] % 667.79, par[1] % 654.99], True)
    prob = check_dump("\n".join(overlap), m)
    check("self-test: the checker reports overlapping runs", len(prob["overlap"]) == 1,
          report(prob))
    outside = ["x: 1 page"] + page(1, [title % 713.74, hdr[0] % 695.39, hdr[1] % 682.59,
                                        par[0] % 667.79, par[1] % 40.0], True)
    prob = check_dump("\n".join(outside), m)
    check("self-test: the checker reports a run outside its region",
          any("outside every region" in p for p in prob["region"]), report(prob))
    swapped = ["x: 1 page"] + page(1, [title % 713.74, hdr[0] % 695.39, hdr[1] % 682.59,
                                        par[1] % 667.79, par[0] % 654.99], True)
    prob = check_dump("\n".join(swapped), m)
    check("self-test: the checker reports words out of order", prob["words"], report(prob))
    # An allowed violation: --explain says the title rule gave way there.
    allowed = ["x: 2 pages", "  page 2: starts with entry 1 of section 'Experience': no break "
               "allowed on the page; gave way: a section title stays with its first entry",
               "  note: a keep rule gave way before entry 1 of section 'Experience': no "
               "break on the page was allowed"] + stranded[2:]
    prob = check_dump("\n".join(allowed), m)
    check("self-test: a rule that --explain says gave way is allowed", not prob["keep"],
          report(prob))
    # The sweep's checks, which know the titles only.
    secs = [("experience", "experience")]
    prob, _, _ = title_checks("\n".join(stranded), secs, None)
    check("self-test: the sweep reports a title at the foot of a page",
          any("ends page 1" in p for p in prob["title"]), report(prob))
    short = ["x: 2 pages",
             "  page 2: starts with entry 1 of section 'Experience': the page is full"] + \
        page(1, [title % 713.74, hdr[0] % 695.39], True) + \
        page(2, [hdr[1] % 780.0, par[0] % 767.2, par[1] % 752.4])
    prob, _, _ = title_checks("\n".join(short), secs, None)
    check("self-test: the sweep reports a title kept with too little of its entry",
          any("keeps 1 line of its first entry" in p for p in prob["title"]), report(prob))
    prob, _, _ = title_checks("\n".join(good), secs, None)
    check("self-test: the sweep passes a good dump", not any(prob.values()), report(prob))
    # Against cvpdf with the keep rules relaxed (entry_lines 0, orphans and
    # widows 1, title_lines 0), the checker must find broken rules.
    lay = write(os.path.join(TMP, "relaxed.yaml"),
                "extends: %s\npagination: {entry_lines: 0, orphans: 1, widows: 1, "
                "title_lines: 0}\n" % os.path.join(LAYOUTS, "onecolumn.yaml"))
    caught = 0
    for seed in SEEDS[:12]:
        g = Gen(seed, "onecolumn")
        path = write(os.path.join(TMP, "relaxed-%d.yaml" % seed), g.profile())
        rc, out, err = cvpdf(path, lay)
        prob = check_dump(out, g.m)
        caught += bool(prob["keep"]) and not any(v for k, v in prob.items() if k != "keep")
    check("self-test: with the keep rules relaxed, the checker finds broken ones",
          caught >= 3, "%d of 12 profiles" % caught)
    print("# self-test: relaxed keep rules caught in %d of 12 profiles" % caught)


# ------------------------------------------------------ 1. property test

SEEDS = list(range(1, 41))


def property_test():
    jobs = []
    for layout in ("onecolumn", "sidebar", "compact"):
        for seed in SEEDS:
            g = Gen(seed, layout)
            text = g.profile()
            path = write(os.path.join(TMP, "gen-%s-%d.yaml" % (layout, seed)), text)
            jobs.append((layout, seed, path, g.m))
    t0 = time.time()
    # Batches of 20 profiles of one layout (cvpdf_batch).
    groups = [list(range(i, min(i + 20, len(jobs)))) for i in range(0, len(jobs), 20)]
    assert all(jobs[g[0]][0] == jobs[g[-1]][0] for g in groups)
    results = []
    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        for res in pool.map(lambda g: cvpdf_batch(
                [jobs[i][2] for i in g], os.path.join(LAYOUTS, jobs[g[0]][0] + ".yaml")), groups):
            results.extend(res)
    stats = {"pages": 0, "breaks": 0, "keep_together": 0, "page_break_before": 0,
             "moved": 0}
    for (layout, seed, path, m), (rc, out, err) in zip(jobs, results):
        name = "generated %s seed %d" % (layout, seed)
        if rc != 0:
            check(name + ": cvpdf exits 0", False, "exit %d: %s (profile %s)"
                  % (rc, err.strip()[-600:], path))
            continue
        prob = check_dump(out, m)
        ex, _ = parse(out)
        stats["pages"] += ex["npages"] or 0
        stats["breaks"] += len(ex["breaks"])
        stats["moved"] += sum("moved over" in b[1] for b in ex["breaks"].values())
        stats["keep_together"] += sum(s.keep_together for s in m.sections)
        stats["page_break_before"] += sum(s.break_before for s in m.sections)
        for cats, label in ((("overlap",), "no two text runs overlap"),
                            (("region", "attribution"), "every line in its region"),
                            (("width",), "no line wider than its region"),
                            (("keep",), "keep rules hold at every page break"),
                            (("top",), "no space above the first line of a page"),
                            (("explain",), "--explain names every page's first item"),
                            (("words",), "every word once, in order")):
            sub = {c: prob[c] for c in cats}
            check("%s: %s" % (name, label), not any(sub.values()),
                  "profile %s, layout layouts/%s.yaml\n    %s" % (path, layout, report(sub)))
    print("# property test: %d profiles, %d pages, %d page breaks (%d moved items over a "
          "keep rule), %d keep_together and %d page_break_before sections, %.1fs"
          % (len(jobs), stats["pages"], stats["breaks"], stats["moved"],
             stats["keep_together"], stats["page_break_before"], time.time() - t0))
    check("property test exercises page breaks and the keep rules",
          stats["breaks"] > 100 and stats["moved"] > 20 and stats["keep_together"] > 0 and
          stats["page_break_before"] > 0, str(stats))


# ------------------------------------------------ 2. titles at the foot

SMALL = set("a and as at but by for from if in into like near nor of off on onto or over so "
            "than that to upon when with yet".split())


def key_title(key):
    """A section key as RenderCV (and cvpdf) titles it."""
    if re.search(r"[A-Z ]", key):
        return key
    ws = [w for w in key.split("_") if w]
    return " ".join(w if i and w in SMALL else w[:1].upper() + w[1:] for i, w in enumerate(ws))


def real_sections(text):
    """[(key, first entry's kind)] of a profile, read from its YAML text."""
    out, inside = [], False
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^  sections:\s*$", line):
            inside = True
            continue
        if inside and re.match(r"^  ?\S", line):
            break
        m = re.match(r"^    ([^\s#-][^:]*|\"[^\"]+\"):\s*$", line) if inside else None
        if not m:
            continue
        key = m.group(1).strip('"')
        kind = "text"
        for nxt in lines[i + 1:]:
            if re.match(r"^      bib:\s", nxt):       # publications from a .bib
                kind = "publication"
                break
            e = re.match(r"^      - (?:([a-z_]+):\s)?", nxt)
            if e:
                k = e.group(1)
                kind = {"company": "experience", "position": "experience",
                        "institution": "education", "area": "education",
                        "title": "publication", "authors": "publication", "name": "normal",
                        "label": "one_line", "details": "one_line", "bullet": "bullet",
                        "number": "bullet", "reversed_number": "bullet"}.get(k, "text")
                break
        out.append((key, kind))
    return out


def layout_top(path):
    """The top margin of a layout (or of the one it extends), in mm."""
    text = open(path, encoding="utf-8").read()
    m = re.search(r"^  margins:\s*\n(?:    .*\n)*?    top:\s*([0-9.]+)\s*(mm|pt)", text, re.M)
    if m:
        return float(m.group(1)) * (1 if m.group(2) == "mm" else 25.4 / 72)
    base = re.search(r"^extends:\s*(\S+)", text, re.M).group(1)
    return layout_top(os.path.join(os.path.dirname(path), base + ".yaml"))


def title_checks(out, secs, side_keys):
    """Geometry and the title rules on a dump of a real profile, whose words
    are not known: returns (problems, [(title line, its page's column
    region, pushed to the page's top?)])."""
    ex, pages = parse(out)
    prob, lines = geometry(pages)
    prob["title"] = []
    regions = {(pg["n"], g[0]): g for pg in pages for g in pg["regions"]}
    titles = {}
    side = lambda key: side_keys and (key.lower() in side_keys or
                                      key_title(key).lower() in side_keys)
    all_side = all(side(key) for key, _ in secs)
    for key, kind in secs:
        col = "sidebar" if side(key) and not all_side else "main"
        titles[(col, norm(key_title(key)))] = (key_title(key), kind)
    seen, situations = {}, []
    for col in ("main", "sidebar"):
        cl = [ln for ln in lines if ln.region == col]
        # A title may wrap: join it with the next line when that makes one.
        idx = []
        nt = [norm(ln.text) for ln in cl]
        for i, ln in enumerate(cl):
            if (col, nt[i]) in titles:
                idx.append((i, i, titles[(col, nt[i])]))
            elif i + 1 < len(cl) and (col, nt[i] + " " + nt[i + 1]) in titles:
                idx.append((i, i + 1, titles[(col, nt[i] + " " + nt[i + 1])]))
        for n, (i, j, (title, kind)) in enumerate(idx):
            seen[title] = seen.get(title, 0) + 1
            ln = cl[j]
            end = idx[n + 1][0] if n + 1 < len(idx) else len(cl)
            after = [x for x in cl[j + 1:end] if x.page == ln.page]
            rest = [x for x in cl[j + 1:end] if x.page != ln.page]
            reg = regions[(ln.page, col)]
            first = i == 0 or cl[i - 1].page != cl[i].page
            situations.append((ln, reg, first and ln.page > 1))
            if gave_way(ex, col, ln.page + 1) >= TITLE:
                continue
            if cl[i].page != ln.page:
                prob["title"].append("the title of section '%s' is split: %r / %r"
                                     % (title, cl[i], ln))
            if not after:
                nxt = cl[j + 1] if j + 1 < len(cl) else None
                prob["title"].append("the title of section '%s' ends page %d of the %s column "
                                     "(next: %r)" % (title, ln.page, col, nxt))
                continue
            br = ex["breaks"].get((col, ln.page + 1))
            need = 2 if kind in ("one_line", "bullet", "text") else 3
            if rest and br and br[0] == "entry 1 of section '%s'" % title and len(after) < need:
                prob["title"].append(
                    "the title of section '%s' keeps %d line%s of its first entry on page %d "
                    "(the header and %d content lines are due):\n      %s\n      page %d "
                    "starts with %r" % (
                        title, len(after), "" if len(after) == 1 else "s", ln.page,
                        TITLE_LINES, "\n      ".join(map(repr, [ln] + after)), ln.page + 1,
                        rest[0]))
    for (col, t), (title, kind) in titles.items():
        if seen.get(title, 0) != 1:
            prob["title"].append("section title '%s' is %d times in the %s column"
                                 % (title, seen.get(title, 0), col))
    return prob, situations, ex


MARGIN_STEPS = (0.0, 2.5)      # mm added to the top margin; the filler steps ~5mm


def foot_sweep():
    t0 = time.time()
    for b in os.listdir(os.path.join(ROOT, "profiles")):     # what profiles read, beside them
        if b.endswith(".bib"):
            shutil.copy(os.path.join(ROOT, "profiles", b), TMP)
    combos = []
    for name in sorted(os.listdir(os.path.join(ROOT, "profiles"))):
        if not name.endswith(".yaml"):
            continue
        # A right-to-left résumé's dump holds its titles in visual order
        # (tests/scripts.py looks at those).
        if re.search(r"^\s*language:\s*(hebrew|arabic|persian|he|ar|fa)\s*$",
                     open(os.path.join(ROOT, "profiles", name), encoding="utf-8").read(), re.M):
            continue
        base = "zh" if name.endswith("-zh.yaml") else "onecolumn"
        combos += [(name, base), (name, "sidebar")]
    side_keys = [k.lower() for k in SIDEBAR_KEYS]
    jobs = []
    for name, layout in combos:
        text = open(os.path.join(ROOT, "profiles", name), encoding="utf-8").read()
        secs = real_sections(text)
        keys = {k.lower() for k, _ in secs}
        side = next(k for k in side_keys if k not in keys and re.fullmatch(r"[a-z_]+", k)) \
            if layout == "sidebar" else None
        lay = os.path.join(LAYOUTS, layout + ".yaml")
        top = layout_top(lay)
        lays = []
        for dm in MARGIN_STEPS:
            lays.append(write(os.path.join(TMP, "foot-%s-%.1f.yaml" % (layout, dm)),
                              "extends: %s\npage: {margins: {top: %.2fmm}}\n" % (lay, top + dm)))
        gen = Gen(len(jobs), layout)
        fill = [gen.word() for _ in range(200)]

        def variant(k, text=text, side=side, fill=fill):
            if not k:
                return text
            y = ["    filler_main:"] + ['      - bullet: "%s"' % w for w in fill[:k]]
            if side:
                y += ["    %s:" % side] + ['      - bullet: "%s"' % w for w in fill[-k:]]
            return re.sub(r"^  sections:[ \t]*\n", lambda m: m.group(0) + "\n".join(y) + "\n",
                          text, count=1, flags=re.M)

        # How far one filler bullet pushes things down, and how many make a page.
        probe = write(os.path.join(TMP, "foot-probe.yaml"), variant(3))
        rc, out, err = cvpdf(probe, lay, widen=False)
        ex, pages = parse(out)
        ys = sorted({r["y"] for r in pages[0]["runs"] if r["text"] in fill[:3]}, reverse=True)
        full = max(reg[4] - reg[2] for pg in pages for reg in pg["regions"] if reg[0] == "main")
        pitch = ys[0] - ys[1] if len(ys) == 3 else 12.0
        kmax = int(full / pitch) + 2
        allsecs = secs + ([("filler_main", "bullet")] + ([(side, "bullet")] if side else []))
        for k in range(kmax + 1):
            path = write(os.path.join(TMP, "foot-%s-%s-%d.yaml" % (name[:-5], layout, k)),
                         variant(k))
            for dm, lp in zip(MARGIN_STEPS, lays):
                jobs.append((name, layout, k, dm, path, lp,
                             allsecs if k else secs))
    # One batch per profile, layout and margin (the filler's k = 0, 1, ...).
    groups = {}
    for i, j in enumerate(jobs):
        groups.setdefault((j[0], j[1], j[5]), []).append(i)
    results = [None] * len(jobs)
    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        for idx, res in zip(groups.values(), pool.map(
                lambda idx: cvpdf_batch([jobs[i][4] for i in idx], jobs[idx[0]][5], widen=False),
                groups.values())):
            for i, r in zip(idx, res):
                results[i] = r
    near = pushed = moved = 0
    bad = {}
    for (name, layout, k, dm, path, lp, secs), (rc, out, err) in zip(jobs, results):
        if rc != 0:
            bad.setdefault((name, layout), []).append("k=%d +%.1fmm: exit %d: %s (%s)" % (
                k, dm, rc, err.strip()[-300:], path))
            continue
        prob, sit, ex = title_checks(out, secs, side_keys if layout == "sidebar" else None)
        for ln, reg, top in sit:
            if top:
                pushed += 1
            elif ln.y - reg[2] < 0.15 * (reg[4] - reg[2]):
                near += 1
        moved += sum(b[0].startswith("the title of") and "moved over" in b[1]
                     for b in ex["breaks"].values())
        if any(prob.values()):
            bad.setdefault((name, layout), []).append(
                "filler k=%d, top margin +%.1fmm: profile %s, layout %s\n    %s"
                % (k, dm, path, lp, report(prob)))
    for name, layout in combos:
        n = sum(1 for j in jobs if j[0] == name and j[1] == layout)
        b = bad.get((name, layout), [])
        check("foot sweep %s with layouts/%s.yaml: %d variants, no title ends a page"
              % (name, layout, n), not b,
              "%d bad variants, e.g.\n    %s" % (len(b), "\n    ".join(b[:2])))
    print("# foot sweep: %d variants; titles in the bottom 15%% of a page: %d, at the top of a "
          "page after the first: %d (%d moved over by a keep rule); %.1fs"
          % (len(jobs), near, pushed, moved, time.time() - t0))
    check("foot sweep exercised titles near the foot of a page",
          near > 0 and pushed > 0 and moved > 0,
          "near %d, pushed %d, moved %d" % (near, pushed, moved))


# ------------------------------------- 3. a title bisected onto the foot

def foot_title():
    """Bisect the length of a filler section until, without the keep rules,
    the title of the section after it would be the last line of page 1."""
    for layout in ("onecolumn", "sidebar", "compact"):
        lay = os.path.join(LAYOUTS, layout + ".yaml")
        g = Gen(1000, layout)
        fill = [g.word() for _ in range(160)]
        company, position = g.words(2, 2), g.words(1, 1)
        bullets = [g.words(3, 3) for _ in range(3)]

        def make(n):
            m = Model(layout)
            m.headline.words = []
            f = Section("filler", "bullet", "main")
            for i in range(n):
                f.entries.append((None, [Elem("para", "main", f, i, [fill[i]])]))
            e = Section("experience", "experience", "main")
            e.entries.append((Elem("header", "main", e, 0, company + position),
                              [Elem("para", "main", e, 0, b) for b in bullets]))
            m.sections = [f, e] if n else [e]
            m.index()
            y = ["cv:", '  name: "%s"' % NAME, '  email: "%s"' % EMAIL, "  sections:"]
            if n:
                y += ["    filler:"] + ['      - bullet: "%s"' % w for w in fill[:n]]
            y += ["    experience:", '      - company: "%s"' % " ".join(company),
                  '        position: "%s"' % " ".join(position),
                  '        start_date: "2019-03"', "        highlights:"]
            y += ['          - "%s"' % " ".join(b) for b in bullets]
            path = write(os.path.join(TMP, "foot-title-%s-%d.yaml" % (layout, n)),
                         "\n".join(y) + "\n")
            rc, out, err = cvpdf(path, lay, widen=False)
            return m, path, rc, out, err

        def where(out, word):
            """(page, baseline, size) of the run holding a word."""
            for pg in parse(out)[1]:
                for r in pg["runs"]:
                    if word in r["text"].split():
                        return pg["n"], r["y"], r["size"]
            return None, None, None

        lo, hi = 0, len(fill)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if where(make(mid)[3], company[0])[0] == 1:
                lo = mid
            else:
                hi = mid
        # Measured with the title still on page 1: how far below the last
        # filler line the title's rule ends, and the header's glyphs.
        m, path, rc, out, err = make(lo)
        ex, pages = parse(out)
        main = next(reg for reg in pages[0]["regions"] if reg[0] == "main")
        _, ylast, _ = where(out, fill[lo - 1]) if lo else (None, None, None)
        rules = [r for r in pages[0]["rules"] if r[1] == r[3] and r[0] == main[1]]
        _, yhdr, size = where(out, position[0])
        found = None
        if ylast is not None and rules and yhdr is not None:
            rule = min((r for r in rules if r[1] < ylast), key=lambda r: -r[1], default=None)
            title_below = ylast - (rule[1] - rule[4]) if rule else None
            header_below = ylast - (yhdr - 0.22 * size)
            for n in range(lo + 1, lo + 6):
                m, path, rc, out, err = make(n)
                pg, y, _ = where(out, fill[n - 1])
                if pg == 1 and title_below is not None and \
                        y - title_below >= main[2] - 0.01 and y - header_below < main[2]:
                    found = n
                    break
        check("foot title %s: bisection finds a filler that leaves room for the title alone "
              "at the foot of page 1" % layout, found,
              "largest filler with the title on page 1: %d (%s)" % (lo, path))
        print("# foot title %s: the title stays on page 1 after up to %d filler lines; "
              "after %s it alone would fit there" % (layout, lo, found))
        if not found:
            continue
        ex, pages = parse(out)
        cl = [ln for ln in geometry(pages)[1] if ln.region == "main" and ln.page == 2]
        top = cl[0].text if cl else ""
        onpage2 = all(where(out, w)[0] == 2 for w in company + position + bullets[0] +
                      bullets[1])
        check("foot title %s: the title starts page 2 with its first entry" % layout,
              norm(top) == "EXPERIENCE" and onpage2,
              "filler %d (%s): page 2 starts with %r" % (found, path, top))
        br = ex["breaks"].get(("main", 2))
        check("foot title %s: --explain names the rule" % layout,
              br and br[0] == "the title of section 'Experience'" and
              re.match(r"the page is full; \d+ items? moved over: a section title stays with "
                       r"its first entry$", br[1]),
              "explain: %s (%s)" % (br, path))
        prob = check_dump(out, m)
        check("foot title %s: every property holds" % layout, not any(prob.values()),
              "%s\n    %s" % (path, report(prob)))


# ------------------------------------------------ 4. the last-page rule

def pull_back():
    """A résumé a few lines longer than a page: with the last-page rule (the
    default) those lines come back to page 1 by tightening the spacing
    alone, --explain says so, and pagination.pull_back_last_page: false
    turns it off."""
    for layout in ("onecolumn", "sidebar", "compact"):
        lay = os.path.join(LAYOUTS, layout + ".yaml")
        g = Gen(2000, layout)
        fill = [g.words(2, 2) for _ in range(200)]

        def make(n):
            y = ["cv:", '  name: "%s"' % NAME, "  sections:", "    filler:"]
            y += ['      - bullet: "%s"' % " ".join(w) for w in fill[:n]]
            return write(os.path.join(TMP, "pull-%s-%d.yaml" % (layout, n)), "\n".join(y) + "\n")

        def pages_of(out):
            return parse(out)[0]["npages"]

        # The fewest bullets that take two pages without the rule.
        lo, hi = 1, 200
        while lo < hi:
            mid = (lo + hi) // 2
            if pages_of(cvpdf(make(mid), lay)[1]) >= 2:
                hi = mid
            else:
                lo = mid + 1
        path = make(lo)
        rc, off, _ = cvpdf(path, lay)
        rc2, on, _ = cvpdf(path, lay, pull_back=True)
        check("pull back %s: without the rule, %d bullets take two pages" % (layout, lo),
              rc == 0 and pages_of(off) == 2, "%s: %s pages" % (path, pages_of(off)))
        ex, pages = parse(on)
        check("pull back %s: with it, one page" % layout, rc2 == 0 and ex["npages"] == 1,
              "%s: %s pages" % (path, ex["npages"]))
        check("pull back %s: --explain says so" % layout,
              any(re.match(r"  last page: the last page was \d+% full: 2 pages -> 1, spacing "
                           r"at \d+%$", o) for o in ex["other"]), "%s: %s" % (path, ex["other"]))
        sizes = lambda out: sorted({float(m) for m in re.findall(
            r"^text \S+ \S+ w=\S+ Lato-Regular (\S+) ", out, re.M)})
        # (The page footer, "1 / 2", goes with the second page.)
        check("pull back %s: the type keeps its sizes" % layout,
              sizes(on) and set(sizes(on)) <= set(sizes(off)),
              "%s: %s, were %s" % (path, sizes(on), sizes(off)))


if __name__ == "__main__":
    # TMP is kept for the messages when a check fails.
    sys.exit(testlib.main("pages", [self_test, property_test, foot_sweep, foot_title, pull_back],
                          tmp=TMP, keep_failed=True))
