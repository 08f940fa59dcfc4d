#!/usr/bin/env python3
"""make bench, side by side with Typst 0.14: the same person's résumé.

The profile is written as a Typst document of our own (a plain one-column
résumé: name, contacts, a heading per section, each entry's main line in
bold with its dates at the right, details, bullets), set in the same Lato
faces cvpdf uses, and compiled by Typst 0.14 (typst-ts-node-compiler 0.7.0,
which bundles typst 0.14.2; tests/deps.sh bench installs it from npm into
build/npm).  Each run is a cold Node process that loads the compiler,
compiles and writes the PDF; the time Typst takes is measured inside that
process, from before the compiler is loaded to the PDF written, so that
Node's own start is not charged to Typst.  cvpdf runs as a cold process
too, with `-o FILE`.  Medians of alternating runs.  A report: nothing here
fails the build.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "cvpdf")
NPM = os.path.join(ROOT, "build", "npm", "node_modules")
COMPILER = os.path.join(NPM, "@myriaddreamin", "typst-ts-node-compiler")
RUNS = 15
PROFILE = "fang"
TARGET = 16

SPECIAL = re.compile(r'([\\#$@<>`*_\[\]~"=/+-])')

NODE_RUN = r"""
const t0 = process.hrtime.bigint();
const fs = require("fs");
const {NodeCompiler} = require(process.argv[2]);
const c = NodeCompiler.create({workspace: process.argv[3],
                               fontArgs: [{fontPaths: [process.argv[4]]}]});
const pdf = c.pdf({mainFileContent: fs.readFileSync(process.argv[5], "utf8")});
fs.writeFileSync(process.argv[6], pdf);
const t1 = process.hrtime.bigint();
process.stdout.write(String(Number(t1 - t0) / 1e6) + "\n");
"""


def esc(s):
    """Profile text as Typst markup: markdown's **bold**, *italic* and
    [text](url) become Typst's, everything else is literal."""
    out, pos = [], 0
    for m in re.finditer(r"\*\*(.+?)\*\*|\*(.+?)\*|\[([^\]]+)\]\(([^)]+)\)", s):
        out.append(SPECIAL.sub(r"\\\1", s[pos:m.start()]))
        if m.group(1) is not None:
            out.append("#strong[%s]" % esc(m.group(1)))
        elif m.group(2) is not None:
            out.append("#emph[%s]" % esc(m.group(2)))
        else:
            out.append('#link("%s")[%s]' % (m.group(4).replace('"', '\\"'), esc(m.group(3))))
        pos = m.end()
    out.append(SPECIAL.sub(r"\\\1", s[pos:]))
    return "".join(out)


def dates(e):
    if "date" in e:
        return str(e["date"])
    if "start_date" in e:
        return "%s – %s" % (e["start_date"], e.get("end_date", "present"))
    return ""


MAIN = ("company", "institution", "name", "title", "label")
REST = ("position", "degree", "area", "journal", "details")


def entry(e):
    if isinstance(e, str):
        return esc(e) + "\n\n"
    main = next((e[k] for k in MAIN if k in e), "")
    rest = ", ".join(esc(str(e[k])) for k in REST if k in e)
    right = ", ".join(x for x in (dates(e), esc(str(e.get("location", "")))) if x)
    s = "#grid(columns: (1fr, auto), column-gutter: 8pt, [#strong[%s]%s], [%s])\n" % (
        esc(str(main)), (", " + rest) if rest else "", right)
    if "authors" in e:
        s += "#block[%s]\n" % esc(", ".join(e["authors"]))
    if "url" in e:
        s += '#link("%s")\n' % e["url"]
    if "summary" in e:
        s += "#block[%s]\n" % esc(e["summary"])
    for h in e.get("highlights", []):
        s += "- %s\n" % esc(h)
    return s + "\n"


def typst_source(profile):
    cv = yaml.safe_load(open(profile, encoding="utf-8"))["cv"]
    s = ['#set page(paper: "a4", margin: 2cm)',
         '#set text(font: "Lato", size: 10pt)',
         '#set par(justify: true)',
         '#show heading: set text(size: 13pt)',
         "#align(center)[#text(size: 24pt)[#strong[%s]]]" % esc(cv["name"]),
         "#align(center)[%s]" % " | ".join(esc(str(cv[k])) for k in
                                          ("headline", "location", "email") if k in cv), ""]
    for title, entries in cv["sections"].items():
        s.append("= %s\n" % esc(title.replace("_", " ").title()))
        s.extend(entry(e) for e in entries)
    return "\n".join(s)


def median_ms(cmd, n):
    xs = []
    for _ in range(n):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        xs.append((time.perf_counter() - t) * 1e3)
    return statistics.median(xs)


def main():
    if not os.path.isdir(COMPILER):
        print("Typst side by side: left out (no typst-ts-node-compiler in build/npm; "
              "run sh tests/deps.sh bench)")
        return 0
    with tempfile.TemporaryDirectory(prefix="cvpdf-typst-") as tmp:
        prof = os.path.join(ROOT, "profiles", PROFILE + ".yaml")
        typ = os.path.join(tmp, PROFILE + ".typ")
        with open(typ, "w", encoding="utf-8") as f:
            f.write(typst_source(prof))
        js = os.path.join(tmp, "run.js")
        with open(js, "w") as f:
            f.write(NODE_RUN)
        out = os.path.join(tmp, "typst.pdf")
        faces = os.path.join(tmp, "fonts")         # Lato alone: Typst reads every face given
        os.mkdir(faces)
        for f in os.listdir(os.path.join(ROOT, "fonts")):
            if f.startswith("Lato-") and f.endswith(".ttf"):
                os.symlink(os.path.join(ROOT, "fonts", f), os.path.join(faces, f))
        node = ["node", js, COMPILER, tmp, faces, typ, out]
        cv = [BIN, "-q", prof, "-o", os.path.join(tmp, "cvpdf.pdf")]
        typst_in, typst_wall, ours = [], [], []
        for _ in range(RUNS):
            t = time.perf_counter()
            p = subprocess.run(node, check=True, capture_output=True, text=True)
            typst_wall.append((time.perf_counter() - t) * 1e3)
            typst_in.append(float(p.stdout.strip()))
            t = time.perf_counter()
            subprocess.run(cv, check=True)
            ours.append((time.perf_counter() - t) * 1e3)
        pages = subprocess.run(["pdfinfo", out], capture_output=True, text=True).stdout
        m = re.search(r"^Pages:\s+(\d+)", pages, re.M)
        ours_pages = re.search(r"^Pages:\s+(\d+)", subprocess.run(
            ["pdfinfo", cv[-1]], capture_output=True, text=True).stdout, re.M).group(1)
        t_in, t_wall, t_ours = (statistics.median(x) for x in (typst_in, typst_wall, ours))
        print("Typst 0.14 side by side (%s.yaml as a Typst document, Lato; cold processes, "
              "median of %d):" % (PROFILE, RUNS))
        print("  Typst compile      %7.1f ms  (inside a cold Node process; %.1f ms with "
              "Node's start), %s pages" % (t_in, t_wall, m.group(1) if m else "?"))
        print("  cvpdf              %7.1f ms  (the whole process), %s pages" % (t_ours, ours_pages))
        print("  cvpdf is %.1fx faster than Typst's compile alone   target >= %dx"
              % (t_in / t_ours, TARGET))
    return 0


if __name__ == "__main__":
    sys.exit(main())
