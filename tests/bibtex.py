#!/usr/bin/env python3
"""Publications from a .bib (issue 19), checked against an independent
reader of the same file (python3-bibtexparser) and an independent reader of
the PDF (pdftotext).

Usage: tests/bibtex.py CVPDF_BINARY [-k PATTERN] [--list]

  readback   every entry of tests/data/bib/cases.bib that cvpdf does not
             warn about, as bibtexparser reads it: its title, each author
             and its venue are in the PDF's text (pdftotext), in every layout
  warnings   the broken entry, the duplicate key and the entry without a
             title are warned about with their line and column; the PDF is
             still made (exit 0); --strict makes them errors (exit 1, no PDF)
  owner      the owner's name is bold wherever it is in an author list,
             whatever form the .bib gives it ("Fang, Jiarui", "J. Fang")
  profile    profiles/chaoyang-he.yaml (its publications in
             profiles/chaoyang-he.bib) gives the PDF, byte for byte, of the
             same profile with the publications written as YAML
  import     cvpdf import prints YAML that cvpdf loads as the same entries
             (the same --dump); a missing file is an error, exit 1
  generated  2,000 generated entries (tests/bibgen.py): every title comes
             back through pdftotext; import lists them all
  errors     a bad option, a missing .bib, a .bib that is a directory:
             file:line:col: error, exit 1, nothing written
  safety     an output named like the .bib is refused; the .bib untouched
  bounded    (issue 25) 50,000 nested \textbf{ in a title: import and a
             render finish (no stack overflow), the title's text kept;
             @string macros doubling 39 times, a 8 MB macro used in 100
             entries, 100,000 @strings: a positioned error and exit 1 in
             import and in a render (never libbtparse's exit), and --merge
             keeps the other profile

Every check prints "ok NAME" or "FAIL NAME: why"; the last line is
"bibtex: N passed, M failed".
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata

import testlib
from testlib import check, run, BIN, ROOT

# bibtexparser is Debian's python3-bibtexparser, for the system python3.
try:
    import bibtexparser
    from bibtexparser.bparser import BibTexParser
    from bibtexparser.customization import convert_to_unicode, splitname
except ImportError:
    testlib.reexec_system_python("bibtex")
    print("FAIL: bibtexparser is not installed (run tests/deps.sh: python3-bibtexparser)")
    print("bibtex: 0 passed, 1 failed")
    sys.exit(1)

sys.path.insert(0, os.path.join(ROOT, "tests"))
import bibgen  # noqa: E402

TMP = tempfile.mkdtemp(prefix="cvpdf-bib-")
CASES = os.path.join(ROOT, "tests", "data", "bib", "cases.bib")
LAYOUTS = sorted(os.path.join(ROOT, "layouts", f) for f in os.listdir(os.path.join(ROOT, "layouts"))
                 if f.endswith(".yaml"))


def norm(s):
    """Letters and digits only, Latin script, case folded: what survives
    line breaks, hyphenation, ligatures and punctuation on both sides."""
    s = unicodedata.normalize("NFKC", s)
    s = re.sub(r"\\[a-zA-Z]+", "", s)            # TeX commands bibtexparser leaves
    return "".join(c for c in s.casefold()
                   if c.isalnum() and ord(c) < 0x370)


RAW_NAMES = {}          # (key, "author") -> the field as written


def tidy(record):
    """bibtexparser's TeX to Unicode, after the commands it would take for
    accents (url as u, log as l) are written out."""
    for k in ("author", "editor"):             # split before braces go
        if k in record:
            RAW_NAMES.setdefault((record["ID"], k), record[k])
    for k, v in list(record.items()):
        if k in ("ID", "ENTRYTYPE"):
            continue
        v = re.sub(r"\\(textbf|textit|emph|url|href)\b", "", v)
        v = re.sub(r"\\(log|max|min|sin|cos|exp)\b", r" \1", v)
        record[k] = v.replace("$", "")
    return convert_to_unicode(record)


def bibtex_entries(path):
    """The file as bibtexparser reads it: {key: fields}, TeX to Unicode,
    @string and crossref resolved its own way."""
    parser = BibTexParser(common_strings=True)
    parser.ignore_nonstandard_types = False
    parser.customization = tidy
    try:
        parser.add_missing_from_crossref = True
    except AttributeError:
        pass
    with open(path, encoding="utf-8") as f:
        db = bibtexparser.load(f, parser=parser)
    out = {}
    for e in db.entries:                # BibTeX keeps the first of a key
        out.setdefault(e["ID"], e)
    return out


def profile(path, bib, extra="", name="Jiarui Fang"):
    with open(path, "w", encoding="utf-8") as f:
        f.write("cv:\n  name: %s\n  sections:\n    publications:\n      bib: %s\n%s"
                % (name, bib, extra))
    return path


def pdf_text(pdf):
    rc, out, err = run(["pdftotext", "-enc", "UTF-8", pdf, "-"])
    return out


def skipped_keys(stderr):
    """Keys cvpdf said it leaves out (and why): {key: message}."""
    keys = {}
    for m in re.finditer(r"entry '([^']+)' (?:\(line \d+\) is skipped|has no title)", stderr):
        keys[m.group(1)] = m.group(0)
    for m in re.finditer(r"duplicate key '([^']+)'", stderr):
        keys.setdefault(m.group(1) + "#dup", m.group(0))
    return keys


def venue_of(e):
    for f in ("journal", "booktitle", "howpublished", "school", "institution", "publisher"):
        v = e.get(f)
        if v and not v.startswith("\\url") and not v.startswith("http"):
            return v
    return None


def authors_of(e):
    """Each author as "First von Last, Jr" (bibtexparser's split)."""
    src = RAW_NAMES.get((e["ID"], "author")) or RAW_NAMES.get((e["ID"], "editor")) or ""
    out = []
    # " and " outside braces separates the names.
    parts, depth, cur = [], 0, ""
    for tok in re.split(r"(\{|\}|\s+and\s+)", src.strip()):
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
        if depth == 0 and re.fullmatch(r"\s+and\s+", tok or ""):
            parts.append(cur)
            cur = ""
        else:
            cur += tok or ""
    parts.append(cur)
    for a in parts:
        a = a.strip()
        if not a:
            continue
        if a == "others":
            out.append("et al.")
            continue
        if a.startswith("{") and a.endswith("}"):
            out.append(convert_to_unicode({"n": a[1:-1]})["n"])
            continue
        p = splitname(a, strict_mode=False)
        name = " ".join(p["first"] + p["von"] + p["last"] + p["jr"])
        out.append(convert_to_unicode({"n": name})["n"])
    return out


def readback():
    """Every entry bibtexparser sees, minus those cvpdf warned about and
    the crossref'd proceedings, in the PDF: title, authors, venue."""
    entries = bibtex_entries(CASES)
    prof = profile(os.path.join(TMP, "cases.yaml"), CASES)
    for layout in LAYOUTS:
        lname = os.path.basename(layout)
        pdf = os.path.join(TMP, "cases-%s.pdf" % lname)
        rc, out, err = run([BIN, prof, "-l", layout, "-o", pdf])
        check("readback %s: rendered" % lname, rc == 0 and os.path.exists(pdf), err[-300:])
        if rc:
            continue
        text = norm(pdf_text(pdf))
        skipped = skipped_keys(err)
        parents = {e.get("crossref", "").lower() for e in entries.values()}
        n = 0
        for key, e in entries.items():
            if key in skipped or key.lower() in parents or not e.get("title"):
                continue
            n += 1
            t = norm(e["title"])
            check("readback %s: title of %s" % (lname, key), t in text,
                  "'%s' not in the PDF" % e["title"])
            for a in authors_of(e):
                check("readback %s: author %s of %s" % (lname, a, key), norm(a) in text,
                      "not in the PDF")
            v = venue_of(e)
            if v:
                check("readback %s: venue of %s" % (lname, key), norm(v) in text,
                      "'%s' not in the PDF" % v)
        check("readback %s: entries compared" % lname, n >= 10, "only %d" % n)


def warnings():
    prof = profile(os.path.join(TMP, "w.yaml"), CASES)
    pdf = os.path.join(TMP, "w.pdf")
    rc, out, err = run([BIN, prof, "-o", pdf])
    check("warnings: exit 0 and a PDF", rc == 0 and os.path.exists(pdf), err)
    want = [r"cases\.bib:112:3: warning: entry 'broken2016' \(line 109\) is skipped: syntax error",
            r"cases\.bib:97:1: warning: duplicate key 'fang2022chunk' \(first at line 9, column 1\)",
            r"cases\.bib:103:1: warning: entry 'notitle2020' has no title"]
    for w in want:
        check("warnings: said: " + w[:40], re.search(w, err), err)
    check("warnings: nothing from libbtparse itself", "junk" not in err and "bib, line" not in err,
          err)
    check("warnings: every line through the sink", all(re.match(r"\S+:\d+:\d+: (warning|note): ", l)
                                                       for l in err.splitlines()), err)
    pdf2 = os.path.join(TMP, "strict.pdf")
    rc, out, err = run([BIN, "--strict", prof, "-o", pdf2])
    check("warnings: --strict: exit 1, no PDF", rc == 1 and not os.path.exists(pdf2), err)
    check("warnings: --strict: an error with the position", "cases.bib:112:3: error:" in err, err)


def unclosed_comment():
    """An @comment never closed: BibTeX skips the word alone and reads the
    entries after it; libbtparse would read the rest of the file into it."""
    bib = os.path.join(TMP, "unclosed.bib")
    with open(bib, "w") as f:
        f.write("@article{before2020,\n  title={Before The Comment},\n  author={Doe, Jane},\n"
                "  year={2020}\n}\n\n  @Comment{ this note is never closed\n\n"
                "@article{after2021,\n  title={After The Comment},\n  author={Doe, Jane},\n"
                "  year={2021}\n}\n@comment{a closed one {nested}}\n"
                "@article{last2019, title={Last Of All}, author={Roe, R}, year={2019}}\n")
    prof = profile(os.path.join(TMP, "unclosed.yaml"), bib)
    pdf = os.path.join(TMP, "unclosed.pdf")
    rc, out, err = run([BIN, prof, "-o", pdf])
    text = norm(pdf_text(pdf)) if rc == 0 else ""
    check("unclosed @comment: exit 0, every entry after it kept",
          rc == 0 and all(norm(t) in text for t in ("Before The Comment", "After The Comment",
                                                    "Last Of All")), (rc, err, text[:300]))
    check("unclosed @comment: said once, at its '@'",
          len(re.findall(r"unclosed\.bib:7:3: warning: this @comment is never closed", err)) == 1
          and len(err.strip().splitlines()) == 1, err)


def stray_at_signs():
    """An '@' that starts no entry is text between entries, as BibTeX reads
    it; one with a name after it is said.  Entries written '@ article{',
    '@article {' and '@article' then a new line and '{' still count."""
    bib = os.path.join(TMP, "stray.bib")
    with open(bib, "w") as f:
        f.write("@ article{spaced2020, title={Spaced Out}, author={Doe, J}, year={2020}}\n"
                "Write to me@example.org \"any time\".\n"
                "@article\n{newline2021, title={On A New Line}, author={Doe, J}, year={2021}}\n"
                "@misc \"not an entry\"\n"
                "@book{last2019, title={Last Book}, author={Roe, R}, year={2019}}\n")
    prof = profile(os.path.join(TMP, "stray.yaml"), bib)
    pdf = os.path.join(TMP, "stray.pdf")
    rc, out, err = run([BIN, prof, "-o", pdf])
    text = norm(pdf_text(pdf)) if rc == 0 else ""
    check("stray '@'s: exit 0, the three entries kept",
          rc == 0 and all(norm(t) in text for t in ("Spaced Out", "On A New Line", "Last Book")),
          (rc, err, text[:300]))
    check("stray '@'s: the first with a name is said, at its place",
          re.search(r"stray\.bib:2:12: warning: this '@' starts no entry", err), err)


def gives_up_alone():
    """A .bib that libbtparse gives up on (it calls exit(): an entry it
    cannot recover from) costs its own profile, with an error at the file;
    the batch in one process (-j 0, --merge) goes on.  Before, the run
    ended there, every other profile lost (found by fuzz_bib)."""
    d = os.path.join(TMP, "givesup")
    os.makedirs(d)
    with open(os.path.join(d, "bad.bib"), "w") as f:
        f.write('@t{0,r{},e={{{}}}{}@a""')
    bad = profile(os.path.join(d, "bad.yaml"), os.path.join(d, "bad.bib"), name="Bad Bib")
    good = profile(os.path.join(d, "good.yaml"), CASES, name="Good Person")
    want = r"bad\.bib:1:1: error: libbtparse cannot read this file: after the entry at line 1"
    rc, out, err = run([BIN, "-q", "-j", "0", "-o", os.path.join(d, "out") + "/", bad, good])
    made = sorted(os.listdir(os.path.join(d, "out"))) if os.path.isdir(os.path.join(d, "out")) else []
    check("a .bib libbtparse gives up on, -j 0: exit 1, its error, the other profile made",
          rc == 1 and re.search(want, err) and made == ["good.pdf"], (rc, err[-300:], made))
    book = os.path.join(d, "book.pdf")
    rc, out, err = run([BIN, "-q", "--merge", book, good, bad])
    check("... and with --merge: exit 1, the error, the other profile in the book",
          rc == 1 and re.search(want, err) and "Good Person" in pdf_text(book), (rc, err[-300:]))
    # Started with SIGCHLD ignored (a parent may leave it so, and exec keeps
    # it): the child that reads the .bib first was reaped unseen, the file
    # passed for one read whole, and libbtparse ended the run (exit 1 from
    # its guard, good.pdf never made).
    out = os.path.join(d, "out-ign")
    p = subprocess.run([BIN, "-q", "-j", "0", "-o", out + "/", bad, good], capture_output=True,
                       cwd=ROOT, timeout=300, preexec_fn=lambda: signal.signal(
                           signal.SIGCHLD, signal.SIG_IGN))
    err = p.stderr.decode("utf-8", "replace")
    made = sorted(os.listdir(out)) if os.path.isdir(out) else []
    check("... and started with SIGCHLD ignored: the same error, the other profile made",
          p.returncode == 1 and re.search(want, err) and made == ["good.pdf"]
          and "ended the process" not in err, (p.returncode, err[-300:], made))


def two_files_one_process():
    """Several .bib files read in one process (a batch with -j 0, --merge):
    a file ending in text after its last entry left libbtparse remembering
    it, and the next file made it call exit() (found by fuzz_bib)."""
    d = os.path.join(TMP, "twofiles")
    os.makedirs(d)
    texts = ["@article{one2020, title={First File}, author={Doe, J}, year={2020}}\n"
             "text after the last entry = 22\n",
             "= 22",
             "@article{two2021, title={Second File}, author={Roe, R}, year={2021}}\n"]
    profs = []
    for i, t in enumerate(texts):
        with open(os.path.join(d, "r%d.bib" % i), "w") as f:
            f.write(t)
        profs.append(profile(os.path.join(d, "p%d.yaml" % i), os.path.join(d, "r%d.bib" % i),
                             name="Person %d" % i))
    book = os.path.join(d, "book.pdf")
    rc, out, err = run([BIN, "-q", "--merge", book] + profs)
    text = norm(pdf_text(book)) if rc == 0 else ""
    check("three .bib files in one process: exit 0, every entry",
          rc == 0 and norm("First File") in text and norm("Second File") in text,
          (rc, err[-400:]))
    rc, out, err = run([BIN, "-q", "-j", "0", "-o", os.path.join(d, "out") + "/"] + profs)
    check("three .bib files in one -j 0 batch: exit 0", rc == 0, (rc, err[-400:]))


def owner():
    bib = os.path.join(TMP, "owner.bib")
    with open(bib, "w") as f:
        f.write("@article{a, author = {Fang, Jiarui and Bob Li}, title = {First}, year = 2020}\n"
                "@article{b, author = {Li, Bob and J. Fang}, title = {Second}, year = 2019}\n"
                "@article{c, author = {Fang, J. and Li, B.}, title = {Third}, year = 2018}\n"
                "@article{d, author = {Jun Fang and Li, Bob}, title = {Fourth}, year = 2017}\n")
    prof = profile(os.path.join(TMP, "owner.yaml"), "owner.bib")
    rc, out, err = run([BIN, "--dump", prof])
    check("owner: rendered", rc == 0, err)
    bold = re.findall(r"Lato-Bold[^\n]*?\"([^\"]*Fang[^\"]*)\"", out) or \
        [l for l in out.splitlines() if "Fang" in l and "Bold" in l]
    lines = [l for l in out.splitlines() if "Fang" in l]
    check("owner: the owner bold in three forms", sum("Bold" in l for l in lines) >= 3, "\n".join(lines))
    check("owner: Jun Fang is someone else",
          any("Jun Fang" in l and "Bold" not in l for l in lines) or
          not any("Jun Fang" in l and "Bold" in l for l in lines), "\n".join(lines))


def profile_moved():
    """chaoyang-he: the .bib version and the YAML version give one PDF."""
    with open(os.path.join(ROOT, "profiles", "chaoyang-he.yaml"), encoding="utf-8") as f:
        src = f.read()
    check("profile: chaoyang-he.yaml reads chaoyang-he.bib", "bib: chaoyang-he.bib" in src)
    entries = bibtex_entries(os.path.join(ROOT, "profiles", "chaoyang-he.bib"))
    notes = {"so2022lightsecagg": "Jinhyun So, Chaoyang He, and Chien-Sheng Yang are co-first "
             "authors.", "he2020fedml": "**Best Paper Award**", "he2022ssfl": "**Best Paper Award**"}
    # The same publications written as YAML, from bibtexparser's reading.
    yaml = ["    Selected Publications (2020–Present):"]
    for key, e in entries.items():
        venue = venue_of(e).replace("--", "–")
        title = re.sub(r"[{}]", "", e["title"])
        yaml.append("      - title: \"%s\"" % title)
        yaml.append("        authors:")
        for a in authors_of(e):
            yaml.append("          - %s" % a)
        yaml.append("        journal: \"%s\"" % venue)
        yaml.append("        date: %s" % e["year"])
        if e.get("eprint"):
            yaml.append("        url: https://arxiv.org/abs/%s" % e["eprint"])
        if key in notes:
            yaml.append("        summary: \"%s\"" % notes[key])
    start = src.index("    Selected Publications (2020–Present):\n")
    end = src.index("    patents:\n")
    as_yaml = src[:start] + "\n".join(yaml) + "\n" + src[end:]
    y = os.path.join(TMP, "chaoyang-he-yaml.yaml")
    with open(y, "w", encoding="utf-8") as f:
        f.write(as_yaml)
    for layout in LAYOUTS:
        lname = os.path.basename(layout)
        a, b = os.path.join(TMP, "he-bib.pdf"), os.path.join(TMP, "he-yaml.pdf")
        rc1, _, e1 = run([BIN, os.path.join(ROOT, "profiles", "chaoyang-he.yaml"), "-l", layout,
                          "-o", a])
        rc2, _, e2 = run([BIN, y, "-l", layout, "-o", b])
        same = rc1 == 0 and rc2 == 0 and open(a, "rb").read() == open(b, "rb").read()
        check("profile: %s: the .bib and the YAML give the same bytes" % lname, same, e1 + e2)


def import_yaml():
    rc, out, err = run([BIN, "import", CASES])
    check("import: exit 0", rc == 0, err)
    check("import: a publications list", out.count("\n  - title: ") == 11, out[:400])
    # Put it under sections: and render both ways: the same --dump.
    body = "".join("    " + l + "\n" for l in out.splitlines() if not l.startswith("#"))
    y = os.path.join(TMP, "imported.yaml")
    with open(y, "w", encoding="utf-8") as f:
        f.write("cv:\n  name: Jiarui Fang\n  sections:\n" + body)
    rc1, d1, e1 = run([BIN, "--dump", y])
    rc2, d2, e2 = run([BIN, "--dump", profile(os.path.join(TMP, "direct.yaml"), CASES)])
    check("import: the YAML loads", rc1 == 0, e1)
    check("import: the same --dump as the .bib", rc2 == 0 and d1 == d2,
          "dumps differ" if d1 != d2 else e2)
    # A note ("Best Paper Award") is kept, as the entry's summary.
    nb = os.path.join(TMP, "note.bib")
    with open(nb, "w", encoding="utf-8") as f:
        f.write("@inproceedings{k1,\n  title = {Quick Sorting},\n  author = {Doe, Jane},\n"
                "  booktitle = {Proc. of Sorts},\n  year = {2021},\n"
                "  note = {Best Paper Award}\n}\n")
    rc, out, err = run([BIN, "import", nb])
    check("import: the note is the summary",
          rc == 0 and '    summary: "Best Paper Award"\n' in out, out + err)
    y = os.path.join(TMP, "noted.yaml")
    with open(y, "w", encoding="utf-8") as f:
        f.write("cv:\n  name: Jane Doe\n  sections:\n" +
                "".join("    " + l + "\n" for l in out.splitlines() if not l.startswith("#")))
    pdf = os.path.join(TMP, "noted.pdf")
    rc, _, err = run([BIN, "-o", pdf, y])
    check("import: the note is on the page", rc == 0 and "Best Paper Award" in pdf_text(pdf),
          err)
    rc, out, err = run([BIN, "import", os.path.join(TMP, "nope.bib")])
    check("import: a missing file: exit 1", rc == 1 and "cannot open" in err and not out, err)
    rc, out, err = run([BIN, "import"])
    check("import: no file: usage, exit 2", rc == 2, err)


def generated():
    bib = os.path.join(TMP, "g.bib")
    with open(bib, "w", encoding="utf-8") as f:
        f.write(bibgen.bib(2000))
    rc, out, err = run([BIN, "import", bib], timeout=600)
    check("generated: import lists 2,000", rc == 0 and out.count("\n  - title: ") == 2000,
          err[-300:])
    prof = profile(os.path.join(TMP, "g.yaml"), "g.bib", name="Ada Lovelace")
    pdf = os.path.join(TMP, "g.pdf")
    rc, out, err = run([BIN, "-q", prof, "-o", pdf], timeout=600)
    check("generated: rendered", rc == 0, err[-300:])
    if rc:
        return
    text = norm(pdf_text(pdf))
    entries = bibtex_entries(bib)
    missing = [k for k, e in entries.items()
               if e["ENTRYTYPE"] != "proceedings" and norm(e["title"]) not in text]
    check("generated: every title in the PDF", not missing, "missing: %s" % missing[:5])
    rc, dump, err = run([BIN, "--dump", prof], timeout=600)
    check("generated: the owner bold in all 2,000",
          len(re.findall(r"Ada Lovelace", dump)) >= 2000, "")


def errors():
    cases = [
        ("    publications:\n      bib: cases.bib\n      sort: sideways\n",
         r"p\.yaml:6:13: error: 'sort' is 'sideways'"),
        ("    publications:\n      bib: missing.bib\n", r"p\.yaml:5:12: error: cannot open"),
        ("    publications:\n      bib: cases.bib\n      limit: -3\n", r"p\.yaml:6:14: error: 'limit'"),
        ("    publications:\n      bib: cases.bib\n      years: later\n", r"p\.yaml:6:14: error: 'years'"),
        ("    publications:\n      bib: .\n", r"error: cannot"),
    ]
    d = os.path.join(TMP, "err")
    os.makedirs(d, exist_ok=True)
    shutil.copy(CASES, d)
    for i, (body, want) in enumerate(cases):
        p = os.path.join(d, "p.yaml")
        with open(p, "w") as f:
            f.write("cv:\n  name: X\n  sections:\n" + body)
        pdf = os.path.join(d, "out%d.pdf" % i)
        rc, out, err = run([BIN, "-q", p, "-o", pdf])
        check("errors: %d: exit 1, the position" % i, rc == 1 and re.search(want, err), err)
        check("errors: %d: nothing written" % i, not os.path.exists(pdf))


def children_of(pid):
    """The processes whose parent is pid, from /proc."""
    return [q for q, pp in testlib.parent_pids().items() if pp == pid]


def child_dies_first():
    """The child that reads a .bib first is stopped and waited for when the
    run is: SIGTERM while it reads leaves no process behind.  Before, it was
    killed by PR_SET_PDEATHSIG only once its parent had gone, an orphan
    that init had to reap.  This process is made a subreaper, so that an
    orphan comes here, where the test sees it."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_CHILD_SUBREAPER = 36
    d = os.path.join(TMP, "childfirst")
    os.makedirs(d)
    with open(os.path.join(d, "big.bib"), "w") as f:
        for i in range(40000):
            f.write("@article{k%d, author={Doe, Jane}, title={Title %d}, year=2001}\n" % (i, i))
    prof = profile(os.path.join(d, "p.yaml"), "big.bib")
    check("child_dies_first: this process is a subreaper",
          libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    try:
        for sig in (signal.SIGTERM, signal.SIGINT):
            p = subprocess.Popen([BIN, "-q", "-j", "0", "-o", os.path.join(d, "p.pdf"), prof],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            t0, kids = time.monotonic(), []
            while not kids and p.poll() is None and time.monotonic() - t0 < 60:
                kids = children_of(p.pid)
            p.send_signal(sig)
            err = p.communicate(timeout=60)[1].decode("utf-8", "replace")
            time.sleep(0.2)
            orphans = children_of(os.getpid())     # come here when orphaned
            for pid in orphans:
                os.waitpid(pid, 0)
            check("child_dies_first: %s while the .bib is read: the run ends by it, the "
                  "child first, no temporary file" % signal.Signals(sig).name,
                  kids and p.returncode == -sig and not orphans
                  and not [f for f in os.listdir(d) if f.startswith(".cvpdf-")],
                  (kids, p.returncode, orphans, err[-300:]))
    finally:
        libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def child_killed():
    """The child that reads a .bib first ended by a signal (the kernel's
    out-of-memory killer sends SIGKILL; here the test does): an error that
    says so, not a syntax error that is not there; the run goes on.
    Before, the message was "it gives up, on a syntax error it cannot
    recover from"."""
    d = os.path.join(TMP, "childkilled")
    os.makedirs(d)
    with open(os.path.join(d, "big.bib"), "w") as f:
        for i in range(40000):
            f.write("@article{k%d, author={Doe, Jane}, title={Title %d}, year=2001}\n" % (i, i))
    prof = profile(os.path.join(d, "p.yaml"), "big.bib")
    good = profile(os.path.join(d, "good.yaml"), CASES, name="Good Person")
    out = os.path.join(d, "out")
    p = subprocess.Popen([BIN, "-q", "-j", "0", "-o", out + "/", prof, good],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t0, kids = time.monotonic(), []
    while not kids and p.poll() is None and time.monotonic() - t0 < 60:
        kids = children_of(p.pid)
    for k in kids:
        os.kill(k, signal.SIGKILL)
    err = p.communicate(timeout=120)[1].decode("utf-8", "replace")
    made = sorted(os.listdir(out)) if os.path.isdir(out) else []
    check("child_killed: the .bib's reader killed: exit 1, an error that says so, the other "
          "profile made", kids and p.returncode == 1 and made == ["good.pdf"] and re.search(
              r"big\.bib:\d+:1: error: libbtparse cannot read this file: the process reading "
              r"it ended by a signal \(Killed\)", err) and "syntax error" not in err,
          (kids, p.returncode, made, err[-300:]))


def timeout_said():
    """--timeout while libbtparse parses (descriptor 2 is then a temporary
    file that keeps its messages): the timeout's message still reaches the
    real stderr.  Before, it went into that file: exit 1 and not a word.
    The timer is the test's SIGALRM, sent once descriptor 2 is the file."""
    d = os.path.join(TMP, "timeoutsaid")
    os.makedirs(d)
    with open(os.path.join(d, "big.bib"), "w") as f:
        for i in range(40000):
            f.write("@article{k%d, author={Doe, Jane}, title={Title %d}, year=2001}\n" % (i, i))
    prof = profile(os.path.join(d, "p.yaml"), "big.bib")
    p = subprocess.Popen([BIN, "-q", "-j", "0", "--timeout", "300", "-o",
                          os.path.join(d, "p.pdf"), prof], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    fd2 = "/proc/%d/fd/2" % p.pid
    t0, caught = time.monotonic(), False
    while p.poll() is None and time.monotonic() - t0 < 120:
        try:
            caught = "(deleted)" in os.readlink(fd2)
        except OSError:
            pass
        if caught:
            p.send_signal(signal.SIGALRM)
            break
    err = p.communicate(timeout=60)[1].decode("utf-8", "replace")
    check("timeout_said: --timeout while libbtparse parses: exit 1, the message said",
          caught and p.returncode == 1 and re.search(
              r"p\.yaml: error: gave up after 300 s \(--timeout\); nothing written", err)
          and not os.path.exists(os.path.join(d, "p.pdf")), (caught, p.returncode, err[-300:]))


def safety():
    d = os.path.join(TMP, "safe")
    os.makedirs(d, exist_ok=True)
    bib = os.path.join(d, "refs.bib")
    shutil.copy(CASES, bib)
    before = open(bib, "rb").read()
    prof = profile(os.path.join(d, "p.yaml"), "refs.bib")
    # -o refs.bib is refused by its extension (a usage error) before any
    # input is read; through a symlink named .pdf, by being an input.
    rc, out, err = run([BIN, "-q", prof, "-o", bib])
    check("safety: -o over the .bib is refused", rc == 2 and "extension" in err, err)
    link = os.path.join(d, "out.pdf")
    os.symlink("refs.bib", link)
    rc, out, err = run([BIN, "-q", prof, "-o", link])
    check("safety: an output over the .bib (a symlink to it) is refused",
          rc == 2 and "input" in err, err)
    check("safety: the .bib untouched", open(bib, "rb").read() == before)


def bounded():
    d = os.path.join(TMP, "bounded")
    os.makedirs(d, exist_ok=True)

    def bib(name, text):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        return os.path.join(d, name)

    deep = bib("deep.bib", "@article{deep, title={" + "\\textbf{" * 50000 + "Deepest" +
               "}" * 50000 + "}, author={Ada Lovelace}, year=2020}\n")
    rc, out, err = run([BIN, "import", deep], timeout=120)
    check("bounded: 50,000 nested \\textbf{: import exit 0 with the title",
          rc == 0 and "Deepest" in out, "rc %s: %s" % (rc, err[-300:]))
    prof = profile(os.path.join(d, "deep.yaml"), "deep.bib")
    pdf = os.path.join(d, "deep.pdf")
    rc, out, err = run([BIN, "-q", prof, "-o", pdf], timeout=120)
    check("bounded: 50,000 nested \\textbf{: rendered, the title in the PDF",
          rc == 0 and "Deepest" in pdf_text(pdf), "rc %s: %s" % (rc, err[-300:]))
    dbl = bib("double.bib", '@string{a0 = "xx"}\n' + "".join(
        "@string{a%d = a%d # a%d}\n" % (i, i - 1, i - 1) for i in range(1, 40)) +
        "@article{k, title=a39, author={A B}, year=2020}\n")
    many = bib("many.bib", '@string{a0 = "xx"}\n' + "".join(
        "@string{a%d = a%d # a%d}\n" % (i, i - 1, i - 1) for i in range(1, 22)) + "".join(
        "@article{k%d, title=a21, author={A B}, year=2020}\n" % j for j in range(100)))
    strings = bib("strings.bib", "".join('@string{m%d = "v"}\n' % i for i in range(100000)) +
                  "@article{k, title={T}, author={A B}, year=2020}\n")
    cases = [("macros doubling 39 times", dbl, r"^.*double\.bib:2[0-9]:1: error: @string 'a2\d' "
              r"expands to more than 16 MB"),
             ("an 8 MB macro in 100 entries", many, r"^.*many\.bib:\d+:1: error: with its "
              r"@string macros expanded, the file comes to more than 16 MB"),
             ("100,000 @strings", strings, r"^.*strings\.bib:\d+:1: error: too many @string "
              r"macros")]
    for label, path, want in cases:
        rc, out, err = run([BIN, "import", path], timeout=120)
        check("bounded: %s: import exit 1, positioned" % label,
              rc == 1 and re.search(want, err, re.M), "rc %s: %s" % (rc, err[-300:]))
        name = os.path.basename(path)
        prof = profile(os.path.join(d, name + ".yaml"), name)
        pdf = os.path.join(d, name + ".pdf")
        rc, out, err = run([BIN, "-q", prof, "-o", pdf], timeout=120)
        check("bounded: %s: a render, exit 1, positioned, nothing written" % label,
              rc == 1 and re.search(want, err, re.M) and not os.path.exists(pdf),
              "rc %s: %s" % (rc, err[-300:]))
    good = profile(os.path.join(d, "good.yaml"), "deep.bib", name="Good Person")
    book = os.path.join(d, "book.pdf")
    rc, out, err = run([BIN, "-q", os.path.join(d, "strings.bib.yaml"), good, "--merge", book],
                       timeout=180)
    check("bounded: --merge with 100,000 @strings in one profile: exit 1, the other kept",
          rc == 1 and re.search(cases[2][2], err, re.M) and "Good Person" in pdf_text(book),
          "rc %s: %s" % (rc, err[-300:]))


if __name__ == "__main__":
    sys.exit(testlib.main("bibtex", [readback, warnings, unclosed_comment, stray_at_signs, gives_up_alone, child_dies_first, child_killed, timeout_said, two_files_one_process, owner, profile_moved, import_yaml,
                                  generated, errors, safety, bounded], tmp=TMP))
