#!/usr/bin/env python3
"""arch.py - the module graph, read from the real #includes.

docs/architecture.md has a row per module with the project modules it
reads; this suite checks that column against what include/X.h and src/X.c
really include (arena.h and error.h, which every module may use, left out),
that no two modules include each other and no longer circle runs through
the includes, that the back ends never reach the profile's schema or the
setting stages, and that no module but the Unicode module decodes UTF-8 or
keeps its own table of code point ranges where the issue says it must not.

    python3 tests/arch.py            the checks (make check runs them)
    python3 tests/arch.py --fix      rewrite the "reads" column from the code
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
FIX = "--fix" in sys.argv
if FIX:
    sys.argv.remove("--fix")
import testlib  # noqa: E402
from testlib import check  # noqa: E402

ROOT = testlib.ROOT
DOC = os.path.join(ROOT, "docs", "architecture.md")
SUPPORT = {"arena", "error"}        # every module may read these: not listed
# What a back end (the display list drawn or printed) may never reach:
# the profile's schema and the stages that set it.
SCHEMA = {"doc", "fields", "design", "lang", "social", "date", "text", "jsonresume", "bib"}
SETTING = {"style", "ctx", "wrap", "compose", "flow", "fit", "template", "markup"}
BACKENDS = ["draw_dump", "draw_hpdf", "draw_raster", "pdf_tags", "pdf_meta", "pdf_font", "pdf_pack"]
# Nor the shaper and the engine: a back end stands on the display list
# (glyphs, and the complex-script glyphs it carries) and the faces.
MEASURING = {"shape", "engine", "hyph", "kp", "bidi", "cjk"}


def modules():
    """Every module: a header in include/ (main has only src/main.c)."""
    mods = sorted(f[:-2] for f in os.listdir(os.path.join(ROOT, "include")) if f.endswith(".h"))
    return mods + ["main"]


def includes(mod, mods):
    """The project modules mod's header and source include directly."""
    found = set()
    for path in ("include/%s.h" % mod, "src/%s.c" % mod):
        p = os.path.join(ROOT, path)
        if os.path.exists(p):
            found |= set(re.findall(r'^#include "(\w+)\.h"', open(p, encoding="utf-8").read(),
                                    re.M))
    found.discard(mod)
    return {m for m in found if m in mods}


def header_closure(mod, mods):
    """What including mod's header brings in, transitively."""
    seen, todo = set(), [mod]
    while todo:
        m = todo.pop()
        p = os.path.join(ROOT, "include", m + ".h")
        if not os.path.exists(p):
            continue
        for d in re.findall(r'^#include "(\w+)\.h"', open(p, encoding="utf-8").read(), re.M):
            if d in mods and d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def cycles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


ROW = re.compile(r"^\| (?:\*\*)?`?(\w+)(?:\.h`|\.c)(?:\*\*)? \|([^|]*)\|([^|]*)\|([^|]*)\|\s*$")


def table_rows():
    """{module: (line index, reads cell)} of the module table."""
    rows = {}
    lines = open(DOC, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        m = ROW.match(line)
        if m:
            rows[m.group(1)] = (i, m.group(3))
    return rows, lines


def cell_modules(cell, mods):
    """The module names a reads cell lists (library names are not modules)."""
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_+-]*", cell)
    return {w for w in words if w in mods}


def fix_cell(cell, real, mods):
    """The cell with its module names replaced by `real`, its other words
    (the libraries: ICU, libyaml, ...) kept after them."""
    words = [w.strip() for w in cell.split(",")]
    libs = [w for w in words if w and w not in mods]
    return " " + ", ".join(sorted(real) + libs) + " "


def graph_test():
    mods = modules()
    graph = {m: includes(m, mods) for m in mods}
    found = cycles(graph)
    check("no two modules include each other, no circle of includes",
          not found, "; ".join(" <-> ".join(c) for c in found))
    check("the graph was read (every module found, some includes)",
          len(mods) > 40 and sum(len(v) for v in graph.values()) > 100, len(mods))


def table_test():
    mods = modules()
    rows, lines = table_rows()
    missing = [m for m in mods if m not in rows]
    check("docs/architecture.md has a row for every module", not missing, missing)
    extra = [m for m in rows if m not in mods]
    check("docs/architecture.md has no row for a module that is gone", not extra, extra)
    wrong = []
    for m in mods:
        if m not in rows:
            continue
        i, cell = rows[m]
        real = includes(m, mods) - SUPPORT
        said = cell_modules(cell, mods) - SUPPORT
        if real != said:
            wrong.append("%s: reads %s, the table says %s" % (m, sorted(real), sorted(said)))
            if FIX:
                parts = lines[i].split("|")
                parts[3] = fix_cell(cell, real, mods)
                lines[i] = "|".join(parts)
    if FIX and wrong:
        open(DOC, "w", encoding="utf-8").write("\n".join(lines))
        print("arch: rewrote %d rows of docs/architecture.md" % len(wrong))
    else:
        check("the table's 'reads' column is what each module includes",
              not wrong, "\n  " + "\n  ".join(wrong))


def backend_test():
    mods = modules()
    for be in BACKENDS:
        reach = set()
        for d in includes(be, mods):
            reach |= {d} | header_closure(d, mods)
        bad = sorted(reach & (SCHEMA | SETTING | MEASURING))
        check("back end %s never reaches the profile's schema, the setting stages nor "
              "the shaper" % be, not bad, bad)
        src = open(os.path.join(ROOT, "src", be + ".c"), encoding="utf-8").read()
        calls = sorted(set(re.findall(r"\bcv_(?:shape|engine)_\w+", src)))
        check("back end %s calls neither the shaper nor the engine" % be, not calls, calls)
    check("display.h includes no stage above it (wrap, style, doc, shape)",
          not (header_closure("display", mods) & (SCHEMA | SETTING | {"shape", "engine"})),
          sorted(header_closure("display", mods)))


# Signs of a module doing the Unicode module's work: UTF-8 continuation
# bytes tested by hand, the C library's wide-character case and classes
# (which follow setlocale), and the first code points of the CJK blocks.
HAND_UNICODE = re.compile(r"&\s*0xC0\)\s*[!=]=\s*0x80|\btow(?:upper|lower)\b|\bmbrtowc\b|"
                          r"\bwcrtomb\b|\bisw[a-z]+\(|<wctype\.h>|"
                          r"\b0x(?:2E80|3040|30A0|4E00|AC00)\b")


def unicode_test():
    hits = []
    for d in ("src", "include"):
        for f in sorted(os.listdir(os.path.join(ROOT, d))):
            if not f.endswith((".c", ".h")) or f in ("unicode.c", "unicode.h"):
                continue
            for n, line in enumerate(open(os.path.join(ROOT, d, f), encoding="utf-8"), 1):
                if HAND_UNICODE.search(line):
                    hits.append("%s/%s:%d: %s" % (d, f, n, line.strip()))
    check("only unicode.c decodes UTF-8 by hand, maps case or names CJK ranges",
          not hits, "\n  " + "\n  ".join(hits))
    check("the pattern finds what it looks for",
          HAND_UNICODE.search("(s[i] & 0xC0) == 0x80") and HAND_UNICODE.search("towupper(c)")
          and HAND_UNICODE.search("cp >= 0x4E00") and not HAND_UNICODE.search("cp < 0x80"))


if __name__ == "__main__":
    sys.exit(testlib.main("arch", [graph_test, table_test, backend_test, unicode_test]))
