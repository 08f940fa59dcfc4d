#!/usr/bin/env python3
"""Bad input: every way a profile, a layout, a font, a photo or the output
can be broken, each answered the same way.

Usage: tests/badinput.py CVPDF_BINARY [-k PATTERN] [--list]   (tests/run.sh passes build/san/cvpdf)

The corpus is generated into a temporary directory.  Every case runs
`cvpdf ... -o out/existing.pdf` in a directory of its own, where
out/existing.pdf is a file made beforehand, and checks that

  - the exit status is 1 (2 only for usage errors);
  - stderr holds exactly one error, shaped `FILE:LINE:COL: error: MSG` (or
    `FILE: error: MSG` where no line applies), naming the right file and a
    sensible place, and every other line is a diagnostic of the same shape;
  - the message says what is wrong (a suggestion for an unknown key, ...);
  - there is no crash and no sanitizer report;
  - out/existing.pdf has the same bytes, inode and mtime, and nothing else
    appeared in out/ (no temporary file left behind).

Some cases need privileges the test may not have: reading a file mode 000
is refused only to a non-root user (as root, those cases run cvpdf as
`nobody`), a read-only output directory is made with `chattr +i` and a
read-only bind mount, and a full disk with RLIMIT_FSIZE (`ulimit -f`) and a
64 KB tmpfs.  A case that cannot be set up is reported as "skip ...: why",
not counted.  The last line is "badinput: N passed, M failed".
"""
import gzip
import os
import random
import re
import resource
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import zlib

import testlib
from testlib import BIN, ROOT, check

TMP = tempfile.mkdtemp(prefix="cvpdf-badinput-")
os.chmod(TMP, 0o755)            # the `nobody` cases walk into it
ONECOLUMN = os.path.join(ROOT, "layouts", "onecolumn.yaml")
EXISTING = b"%PDF-1.4\n% the previous, good PDF: it must survive every failed run\n"
MTIME = 1000000000 * 10**9      # 2001-09-09, in ns: any rewrite would show
TIMEOUT = 60                    # seconds per run (ASan build)
SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|"
                       r"runtime error:|ERROR: |Segmentation fault|core dumped")
DIAG = re.compile(r"^(?P<file>.+?)(?::(?P<line>\d+):(?P<col>\d+))?: "
                  r"(?P<kind>error|warning|note): (?P<msg>.+)$")
SUMMARY = re.compile(r"^cvpdf: \d+ rendered, \d+ failed$")
skipped = []

GOOD = testlib.ADA

GOOD_LAYOUT = "extends: %s\n" % ONECOLUMN


def skip(name, why):
    skipped.append(name)
    print("skip %s: %s" % (name, why))


# ---------------------------------------------------------------- running

def as_nobody():
    """preexec_fn: drop root to nobody, so that file modes apply."""
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)


def fsize_limit(n):
    def f():
        resource.setrlimit(resource.RLIMIT_FSIZE, (n, n))
    return f


def cvpdf(args, cwd, preexec=None, env=None, timeout=TIMEOUT):
    """Run cvpdf; (exit status, stdout, stderr), status None on a timeout."""
    e = dict(os.environ)
    e.update(env or {})
    try:
        p = subprocess.run([BIN] + args, cwd=cwd, capture_output=True, timeout=timeout,
                           preexec_fn=preexec, env=e)
    except subprocess.TimeoutExpired:
        return None, "", "(timed out after %d s)" % timeout
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def case_dir(name):
    d = os.path.join(TMP, re.sub(r"[^\w.-]", "_", name))
    os.makedirs(os.path.join(d, "out"))
    os.chmod(d, 0o755)
    return d


def plant(outdir, fname="existing.pdf"):
    """The previous PDF: its bytes, inode and mtime must survive."""
    path = os.path.join(outdir, fname)
    with open(path, "wb") as f:
        f.write(EXISTING)
    os.utime(path, ns=(MTIME, MTIME))
    st = os.stat(path)
    return path, (st.st_ino, st.st_mtime_ns, st.st_size)


def untouched(path, sig):
    try:
        st = os.stat(path)
        data = open(path, "rb").read()
    except OSError as e:
        return "gone: %s" % e
    if data != EXISTING:
        return "its bytes changed (%d bytes now)" % len(data)
    if (st.st_ino, st.st_mtime_ns, st.st_size) != sig:
        return "replaced or touched (inode/mtime changed)"
    return ""


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def judge(name, rc, err, file, pos, msg, want_rc=1, nerrors=1):
    """The checks every failing run shares: status, the error's shape, file,
    place and message, and no sanitizer report."""
    lines = [l for l in err.splitlines() if l.strip()]
    check("%s: exit %d" % (name, want_rc), rc == want_rc, "rc %s: %s" % (rc, err.strip()[:600]))
    check("%s: no crash or sanitizer report" % name,
          rc is not None and rc >= 0 and not SANITIZER.search(err), err.strip()[-1500:])
    if want_rc == 2:
        return
    odd = [l for l in lines if not DIAG.match(l) and not SUMMARY.match(l)]
    errors = [DIAG.match(l) for l in lines if DIAG.match(l) and DIAG.match(l).group("kind") == "error"]
    shape = not odd and len(errors) == nerrors
    check("%s: stderr is %d `file:line:col: error:` line%s and diagnostics only" %
          (name, nerrors, "" if nerrors == 1 else "s"), shape, repr(err[:800]))
    if not errors:
        return
    e = next((x for x in errors if x.group("file") == file), errors[0])
    where = "%s:%s:%s" % (e.group("file"), e.group("line"), e.group("col"))
    ok = e.group("file") == file
    if pos == 0:                       # no line: `file: error:`
        ok = ok and e.group("line") is None
    elif pos is not None:
        line, col = pos
        ok = ok and e.group("line") is not None and (
            (line is None or int(e.group("line")) == line) and
            (col is None or int(e.group("col")) == col))
    check("%s: error at %s%s" % (name, file, "" if pos in (0, None) else
                                 ":%s:%s" % pos), ok, "got %s" % where)
    check("%s: message matches /%s/" % (name, msg), re.search(msg, e.group("msg")),
          e.group("msg"))


def bad(name, pos, msg, profile=GOOD, layout=None, files=None, file=None, args=None,
        preexec=None, env=None, prof_name="p.yaml", want_rc=1, setup=None, nerrors=1):
    """One bad input.  `profile` and `layout` are the text (str or bytes) of
    p.yaml and l.yaml (None: no layout option, the default layout); `files`
    more files to write {relative path: data}; `file` the file the error
    must name (default: the layout when one is given and the profile is the
    good one, else the profile); `pos` (line, col) with None for 'any',
    or 0 for the `file: error:` form; `msg` a regex."""
    d = case_dir(name)
    if setup:
        setup(d)
    if profile is not None:
        write(os.path.join(d, prof_name), profile)
    argv = [prof_name]
    if layout is not None:
        write(os.path.join(d, "l.yaml"), layout)
        argv += ["-l", "l.yaml"]
    for rel, data in (files or {}).items():
        write(os.path.join(d, rel), data)
    if file is None:
        file = "l.yaml" if layout is not None and profile == GOOD else prof_name
    out = os.path.join(d, "out")
    if preexec is as_nobody:
        os.chown(out, 65534, 65534)
    existing, sig = plant(out)
    rc, _, err = cvpdf(argv + (args or []) + ["-o", "out/existing.pdf"], d, preexec, env)
    judge(name, rc, err, file, pos, msg, want_rc, nerrors)
    why = untouched(existing, sig)
    extra = sorted(set(os.listdir(out)) - {"existing.pdf"})
    check("%s: existing output untouched, nothing else in out/" % name, not why and not extra,
          why or "left: %s" % extra)
    return d


def good(name, profile=GOOD, layout=None, files=None, args=None, text=None):
    """A control: an odd but valid input renders (valid PDF, expected text)."""
    d = case_dir(name)
    write(os.path.join(d, "p.yaml"), profile)
    argv = ["p.yaml"]
    if layout is not None:
        write(os.path.join(d, "l.yaml"), layout)
        argv += ["-l", "l.yaml"]
    for rel, data in (files or {}).items():
        write(os.path.join(d, rel), data)
    rc, _, err = cvpdf(argv + (args or []) + ["-o", "out/new.pdf"], d)
    pdf = os.path.join(d, "out", "new.pdf")
    ok = rc == 0 and os.path.exists(pdf) and not SANITIZER.search(err)
    if ok:
        q = subprocess.run(["qpdf", "--check", pdf], capture_output=True)
        ok = q.returncode == 0
        if ok and text:
            t = subprocess.run(["pdftotext", pdf, "-"], capture_output=True).stdout.decode()
            ok = text in t
    check("%s: renders a valid PDF" % name, ok, "rc %s: %s" % (rc, err.strip()[:500]))
    return d


# ------------------------------------------------------------- YAML files

def billion_laughs(tail):
    s = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for prev, cur in zip("abcdefgh", "bcdefghi"):
        s += "%s: &%s [%s]\n" % (cur, cur, ",".join(["*" + prev] * 9))
    return s + tail


def yaml_cases(kind):
    """The YAML-level corpus, for a profile (kind 'p') or a layout ('l').
    Each: (name, text, pos, msg).  Positions assume the text as written."""
    good_text = GOOD if kind == "p" else GOOD_LAYOUT
    top = "cv:\n  name: A B\n" if kind == "p" else GOOD_LAYOUT
    n = top.count("\n")               # the cases' own lines start at n + 1
    rnd = random.Random(20240501)
    junk_nul = bytes(rnd.randrange(256) for _ in range(4096))
    junk_hi = bytes(rnd.randrange(0x80, 0x100) for _ in range(4096))
    png = open(os.path.join(ROOT, "tests", "data", "photo.png"), "rb").read()
    elf = open("/bin/sh", "rb").read()[:65536]
    deep_flow = "x: " + "[" * 100000 + "]" * 100000 + "\n"
    deep_block = "".join("  " * i + "k%d:\n" % i for i in range(200)) + "  " * 200 + "v\n"
    many_aliases = "s: &s x\nl: [" + ", ".join(["*s"] * 1001) + "]\n"
    wide = "w: &w [" + ", ".join(["x"] * 10000) + "]\nl: [" + ", ".join(["*w"] * 20) + "]\n"
    deep_anchor = "a: &a " + "[" * 40 + "]" * 40 + "\nb: " + "[" * 30 + "*a" + "]" * 30 + "\n"
    c = [
        # malformed YAML
        ("unclosed-flow", top + "x: [a, b\ny: 1\n", (n + 2, 2), r"expected ',' or '\]'"),
        ("unclosed-quote", top + 'x: "abc\ny: 1\n', (n + 3, 1), r"quoted string is not closed"),
        ("tab-indent", top + "x:\n\ty: 1\n", (n + 2, 1), r"indent with spaces, not tabs"),
        ("colon-in-value", top + "x: Note: this\n", (n + 1, 8),
         r"quote a value that contains ': '"),
        ("bad-indent", top + "x:\n    y: 1\n   z: 2\n", (n + 3, 4), r"check the indentation"),
        ("at-sign", top + "x: @ada\n", (n + 1, 4), r"quote a value that starts with '@'"),
        ("second-document", top + "---\nx: 1\n", (n + 1, 1),
         r"second YAML document"),
        ("key-is-a-list", top + "? [a, b]\n: c\n", (n + 1, 3), r"key must be a string"),
        # encodings
        ("invalid-utf8-ff", raw(top + "x: A\xffB\n"), (n + 1, 5), r"invalid UTF-8"),
        ("latin1", raw(top + "x: Ren\xe9 Descartes\n"), (n + 1, 7), r"invalid UTF-8.*save the file as UTF-8"),
        ("utf8-truncated-seq", raw(top + "x: Ad\xc3 a\n"), (n + 1, 6), r"invalid UTF-8"),
        ("utf8-overlong", raw(top + "x: a\xc0\xafb\n"), (n + 1, 5), r"invalid UTF-8"),
        ("utf8-surrogate", raw(top + "x: a\xed\xa0\x80b\n"), (n + 1, 5), r"invalid UTF-8"),
        ("utf8-above-10ffff", raw(top + "x: a\xf4\x90\x80\x80b\n"), (n + 1, 5), r"invalid UTF-8"),
        ("utf8-cut-at-eof", raw(top + "x: abc\xe2\x82"), (n + 1, 7), r"invalid UTF-8"),
        ("utf8-in-comment", raw("# caf\xe9\n" + top), (1, 6), r"invalid UTF-8"),
        ("control-char", top + "x: a\x01b\n", (n + 1, 5), r"control characters|U\+0001"),
        ("utf16-bom", good_text.encode("utf-16"), (1, 1), r"UTF-16"),
        ("utf16-no-bom", good_text.encode("utf-16-le"), (1, 1), r"looks UTF-16"),
        # NUL
        ("nul-in-value", top + "x: a\x00b\n", (n + 1, 5), r"NUL byte"),
        ("nul-first-byte", "\x00" + good_text, (1, 1), r"NUL byte"),
        ("nul-in-comment", top + "# a\x00b\n", (n + 1, 4), r"NUL byte"),
        ("nul-escape", top + 'x: "a\\0b"\n', (n + 1, 4), r"NUL character"),
        # empty
        ("empty", "", (1, 1), r"empty"),
        ("only-newlines", "\n\n\n", (1, 1), r"empty"),
        ("only-comments", "# nothing\n# here\n", (1, 1), r"empty"),
        ("only-bom", b"\xef\xbb\xbf", (1, 1), r"empty"),
        ("lone-document-marker", "---\n...\n", (1, 1), r"empty"),
        ("lone-null", "~\n", (1, 1), r"empty"),
        # binary junk
        ("junk-random", junk_nul, (None, None), r"NUL byte|invalid UTF-8"),
        ("junk-high-bytes", junk_hi, (1, 1), r"invalid UTF-8"),
        ("junk-png", png, (None, None), r"NUL byte|invalid UTF-8"),
        ("junk-gzip", gzip.compress(good_text.encode(), mtime=0), (1, None), r"invalid UTF-8|NUL byte"),
        ("junk-elf", elf, (1, None), r"NUL byte|control char|invalid UTF-8"),
        # limits
        ("billion-laughs", billion_laughs(top), (5, 8), r"too many alias references"),
        ("alias-count", top + many_aliases, (n + 2, 4005), r"too many alias references \(more than 1000"),
        ("alias-expansion", top + wide, (n + 2, 41), r"expand to more than 100000 nodes"),
        ("alias-recursive", top + "r: &r [a, *r]\n", (n + 1, 11), r"contains it"),
        ("alias-depth", top + deep_anchor, (n + 2, 34), r"nest deeper than 64"),
        ("nesting-flow-100000", top + deep_flow, (n + 1, 67), r"nest deeper than 64 levels"),
        ("nesting-block-200", top + deep_block, (n + 65, 129), r"nest deeper than 64 levels"),
    ]
    # A profile reads `[*nope]` as text, as RenderCV 2.7+ does (issue 26);
    # a layout still calls it an alias of no anchor.
    if kind == "l":
        c.append(("undefined-alias", top + "x: [*nope]\n", (n + 1, 5),
                  r"alias '\*nope' names no anchor"))
    return [(n, t if isinstance(t, bytes) else t.encode("utf-8"), p, m) for n, t, p, m in c]


def raw(s):
    """A str whose \x80-\xff characters stand for those bytes."""
    return s.encode("latin-1")


def yaml_tests(kind):
    for name, data, pos, msg in yaml_cases(kind):
        label = "%s %s" % ("profile" if kind == "p" else "layout", name)
        if kind == "p":
            bad(label, pos, msg, profile=data)
        else:
            bad(label, pos, msg, layout=data)


# ------------------------------------------------------ profile semantics

def entry(extra, base="      - company: C\n        position: P\n"):
    return "cv:\n  name: A B\n  sections:\n    exp:\n" + base + extra


def profile_tests():
    cases = [
        # wrong types
        ("top-level list", "- a\n- b\n", (1, 1), r"mapping"),
        ("top-level string", "hello\n", (1, 1), r"mapping|cv"),
        ("cv is a string", "cv: hello\n", (1, 5), r"cv.*mapping|mapping"),
        ("cv is a list", "cv: [a, b]\n", (1, 5), r"mapping"),
        ("name is a list", "cv:\n  name: [A, B]\n", (2, 9), r"string.*list|list"),
        ("name is a mapping", "cv:\n  name: {a: b}\n", (2, 9), r"mapping"),
        ("sections is a list", "cv:\n  name: A\n  sections: [a]\n", (3, 13), r"mapping|list"),
        ("section is a string", "cv:\n  name: A\n  sections:\n    x: hello\n", (4, 8),
         r"list of entries.*string"),
        ("highlights is a mapping", entry("        highlights: {a: b}\n"), (7, 21), r"list|mapping"),
        ("highlight is a mapping", entry("        highlights:\n          - Note: x\n"),
         (8, 13), r"highlight must be a string, not a mapping"),
        ("social_networks is a string", "cv:\n  name: A\n  social_networks: gh\n", (3, 20),
         r"list"),
        ("email is a mapping", "cv:\n  name: A\n  email: {a: b}\n", (3, 10), r"mapping|string"),
        ("start_date is a list", entry("        start_date: [2020]\n"), (7, 21), r"date.*list"),
        ("authors is a mapping", "cv:\n  name: A\n  sections:\n    p:\n      - title: T\n"
         "        authors: {a: b}\n", (6, 18), r"list of strings, not a mapping"),
        ("month_names has 11", "locale:\n  month_names: [a,b,c,d,e,f,g,h,i,j,k]\ncv:\n  name: A\n",
         (2, 16), r"12"),
        ("bold_keywords is a mapping", "settings:\n  bold_keywords: {a: b}\ncv:\n  name: A\n",
         (2, 18), r"list|mapping"),
        ("no cv", "name: A\n", (None, None), r"cv"),
        # (RenderCV accepts a cv without a name, and keeps any other key of
        # an entry for its templates: neither is bad input.)
        ("custom connection without placeholder", "cv:\n  name: A\n  custom_connections:\n"
         "    - fontawesome_icon: phone\n", (4, 7), r"needs a 'placeholder'"),
        ("design: unknown theme", "cv:\n  name: A\ndesign:\n  theme: clasic\n", (4, 10),
         r"unknown theme 'clasic' \(did you mean 'classic'\?\)"),
        ("design: unknown key", "cv:\n  name: A\ndesign:\n  page: {sise: a4}\n", (4, 10),
         r"unknown key 'sise' in design.page \(did you mean 'size'\?\)"),
        ("design: colour", "cv:\n  name: A\ndesign:\n  colors: {name: blu}\n", (4, 18),
         r"colour"),
        ("render_command design file missing", "cv:\n  name: A\nsettings:\n"
         "  render_command: {design: nothere.yaml}\n", (4, 28), r"nothere.yaml"),
        ("resume.json: work is an object", '{"basics": {"name": "A"},\n "work": {}}\n', (2, 10),
         r"'work' must be a list"),
        # unknown keys, with a suggestion where one is close
        ("unknown top-level key", "cvv:\n  name: A\n", (1, 1), r"did you mean 'cv'"),
        ("unknown cv key", "cv:\n  name: A\n  emial: a@b.cd\n", (3, 3),
         r"unknown key 'emial' in cv \(did you mean 'email'\?\)"),
        ("unknown network key", "cv:\n  name: A\n  social_networks:\n    - netwrok: GitHub\n"
         "      username: a\n", (4, 7), r"did you mean 'network'"),
        ("unknown locale key", "locale:\n  langauge: de\ncv:\n  name: A\n", (2, 3),
         r"did you mean 'language'"),
        ("unknown settings key", "settings:\n  bold_keyword: [a]\ncv:\n  name: A\n", (2, 3),
         r"did you mean 'bold_keywords'"),
        ("unknown key, nothing close", "cv:\n  name: A\n  zzzzzzzz: 1\n", (3, 3),
         r"unknown key 'zzzzzzzz'.*(expected one of|did you mean)"),
        ("unknown network", "cv:\n  name: A\n  social_networks:\n    - network: Linkedn\n"
         "      username: a\n", (4, 16), r"did you mean 'LinkedIn'"),
        # duplicate keys
        ("duplicate cv key", "cv:\n  name: A\n  name: B\n", (3, 3),
         r"duplicate key 'name' \(first defined at line 2\)"),
        ("duplicate top-level key", "cv:\n  name: A\ncv:\n  name: B\n", (3, 1), r"duplicate key 'cv'"),
        ("duplicate quoted key", "cv:\n  name: A\n  \"name\": B\n", (3, 3), r"duplicate key 'name'"),
        ("duplicate flow key", "cv: {name: A, name: B}\n", (1, 15), r"duplicate key 'name'"),
        ("duplicate section", "cv:\n  name: A\n  sections:\n    x: [a]\n    x: [b]\n", (5, 5),
         r"duplicate key 'x' \(first defined at line 4\)"),
        ("duplicate entry key", entry("        position: Q\n"), (7, 9), r"duplicate key 'position'"),
        # dates
        ("month 13", entry("        start_date: 2023-13\n"), (7, 21),
         r"invalid start_date '2023-13': month must be between 1 and 12"),
        ("month 0", entry("        start_date: 2023-00\n"), (7, 21), r"month must be between 1 and 12"),
        ("30 February", entry("        start_date: 2023-02-30\n"), (7, 21),
         r"day must be between 1 and 28 for February 2023"),
        ("29 February, not a leap year", entry("        start_date: 2023-02-29\n"), (7, 21),
         r"between 1 and 28"),
        ("29 February 1900", entry("        start_date: 1900-02-29\n"), (7, 21),
         r"between 1 and 28"),
        ("31 April", entry("        start_date: 2023-04-31\n"), (7, 21), r"between 1 and 30"),
        ("day 32", entry("        start_date: 2023-01-32\n"), (7, 21), r"day must be between 1 and 31"),
        ("year 999", entry("        start_date: 999\n"), (7, 21), r"YYYY"),
        ("five-digit year", entry("        date: 20233\n"), (7, 15), r"YYYY"),
        ("date 2023-13", entry("        date: 2023-13\n"), (7, 15), r"month must be between 1 and 12"),
        ("end before start", entry("        start_date: 2022\n        end_date: 2021-05\n"), (8, 19),
         r"before start_date"),
        ("start is present", entry("        start_date: present\n"), (7, 21), r"start date must be a date"),
        ("start is a word", entry("        start_date: spring\n"), (7, 21), r"use YYYY"),
        ("publication date 2023-02-30", "cv:\n  name: A\n  sections:\n    p:\n      - title: T\n"
         "        authors: [A]\n        date: 2023-02-30\n", (7, 15), r"day must be between"),
        ("current_date 2023-13-01", "settings:\n  current_date: 2023-13-01\ncv:\n  name: A\n",
         (2, 17), r"invalid current_date '2023-13-01': month must be between 1 and 12"),
        ("current_date 2023-02-29", "settings:\n  current_date: 2023-02-29\ncv:\n  name: A\n",
         (2, 17), r"day must be between 1 and 28"),
        ("current_date 2023-05", "settings:\n  current_date: 2023-05\ncv:\n  name: A\n",
         (2, 17), r"invalid current_date '2023-05': use YYYY-MM-DD"),
        # other values
        ("bad email", "cv:\n  name: A\n  email: ada.example.com\n", (3, 10), r"invalid email"),
        ("bad website", "cv:\n  name: A\n  website: example.com\n", (3, 12), r"http"),
    ]
    for name, text, pos, msg in cases:
        bad("profile %s" % name, pos, msg, profile=text)
    # A character no font has is a warning (the rest renders), an error
    # under --strict.
    bad("profile emoji under --strict", (2, None), r"no font has U\+1F600",
        profile="cv:\n  name: A \U0001F600\n", args=["--strict"])
    good("profile emoji without --strict (a warning)", "cv:\n  name: Ada \U0001F600\n",
         text="Ada")
    good("profile 29 February 2024 renders", entry("        start_date: 2024-02-29\n"))
    good("profile 'Fall 2023' is a date as text", entry("        date: Fall 2023\n"),
         text="Fall 2023")
    good("profile anchors and merge keys render",
         "cv:\n  name: A B\n  sections:\n    exp:\n      - &e\n        company: C\n"
         "        position: P\n      - <<: *e\n        position: Q\n", text="Q")
    nested = "deep"
    for i in range(55):
        nested = "[x%d, %s]" % (i, nested)
    bad("profile highlights nested 56 levels deep", (7, None),
        r"highlights nest more than 8 levels deep",
        profile=entry("        highlights: %s\n" % nested))
    nested = "deep"
    for i in range(7):
        nested = "[x%d, %s]" % (i, nested)
    good("profile highlights nested 8 levels deep", entry("        highlights: %s\n" % nested),
         text="deep")

    # Files that cannot be read.
    bad("profile missing", 0, r"cannot open 'p\.yaml': No such file", profile=None)
    bad("profile is a directory", 0, r"Is a directory", profile=None,
        setup=lambda d: os.makedirs(os.path.join(d, "p.yaml")))
    bad("profile path through a file", 0, r"Not a directory", profile=None,
        prof_name="p.yaml/x.yaml", file="p.yaml/x.yaml",
        setup=lambda d: write(os.path.join(d, "p.yaml"), GOOD))
    bad("profile symlink loop", 0, r"symbolic links", profile=None,
        setup=lambda d: os.symlink("p.yaml", os.path.join(d, "p.yaml")))
    big = "cv:\n  name: A\n" + ("#" + "x" * 99 + "\n") * 500000
    bad("profile 50 MB", 0, r"larger than 16 MB", profile=big)
    # Devices of our own (mknod in the case directory), never the machine's.
    def node(name, minor):
        return lambda d: os.mknod(os.path.join(d, name), 0o666 | stat.S_IFCHR,
                                  os.makedev(1, minor))
    bad("profile a zero device", 0, r"larger than 16 MB", profile=None, prof_name="zero",
        file="zero", setup=node("zero", 5))
    bad("profile a null device", (1, 1), r"empty", profile=None, prof_name="null",
        file="null", setup=node("null", 3))
    fifo_tests()
    unreadable("profile", lambda d: write(os.path.join(d, "p.yaml"), GOOD), "p.yaml", [],
               r"cannot open 'p\.yaml': Permission denied")


def fifo_tests():
    """A profile read from a pipe (as `<(...)` gives) is held to the same
    size limit while it is read."""
    name = "profile 50 MB through a pipe"
    d = case_dir(name)
    fifo = os.path.join(d, "p.yaml")
    os.mkfifo(fifo)

    def feed():
        try:
            with open(fifo, "wb") as f:
                f.write(b"cv:\n  name: A\n")
                line = b"#" + b"x" * 99 + b"\n"
                for _ in range(500):
                    f.write(line * 1000)
        except OSError:
            pass                       # cvpdf stopped reading: the point
    t = threading.Thread(target=feed, daemon=True)
    t.start()
    existing, sig = plant(os.path.join(d, "out"))
    rc, _, err = cvpdf(["p.yaml", "-o", "out/existing.pdf"], d)
    judge(name, rc, err, "p.yaml", 0, r"larger than 16 MB")
    check("%s: existing output untouched" % name, not untouched(existing, sig))
    if t.is_alive():                   # unblock the writer if cvpdf never opened it
        try:
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        except OSError:
            pass
    t.join(5)


def can_drop_root():
    if os.geteuid() != 0:
        return True
    try:
        r = subprocess.run(["id", "-u"], preexec_fn=as_nobody, capture_output=True)
        return r.returncode == 0 and r.stdout.strip() == b"65534"
    except (OSError, subprocess.SubprocessError):
        return False


def unreadable(what, make, fname, args, msg, file=None, pos=0, layout=None, profile=GOOD):
    """A file mode 000.  Root reads it anyway, so as root cvpdf runs as
    nobody (whose fonts/ and layouts/ must be world-readable, as installed)."""
    name = "%s unreadable (mode 000)" % what
    if not can_drop_root():
        skip(name, "running as root and cannot switch to nobody")
        return

    def setup(d):
        make(d)
        os.chmod(os.path.join(d, fname), 0)
    bad(name, pos, msg, profile=profile if what != "profile" else None, layout=layout,
        file=file or fname, args=args, setup=setup,
        preexec=as_nobody if os.geteuid() == 0 else None)


# ---------------------------------------------------------- layout values

def layout_tests():
    L = GOOD_LAYOUT
    cases = [
        ("top-level list", "- a\n", (1, 1), r"mapping"),
        ("page is a number", L + "page: 5\n", (2, 7), r"mapping|expected"),
        ("font size is a word", L + "font:\n  size: big\n", (3, 9), r"length|invalid"),
        ("colour is a word", L + "colors:\n  text: reddish\n", (3, 9), r"invalid colou?r"),
        ("justify is a number", L + "text:\n  justify: 3\n", (3, 12), r"true or false"),
        ("unknown top-level key", L + "colours:\n  text: '#000000'\n", (2, 1),
         r"did you mean 'colors'"),
        ("unknown nested key", L + "section_title:\n  colour: '#000000'\n", (3, 3),
         r"did you mean 'color'"),
        ("duplicate key", L + "page:\n  size: a4\n  size: letter\n", (4, 3),
         r"duplicate key 'size' \(first defined at line 3\)"),
        ("unknown page size", L + "page:\n  size: b5\n", (3, 9), r"unknown page size 'b5'"),
        ("extends a missing file", "extends: nope\n", (1, 10), r"cannot open.*nope\.yaml"),
        ("extends itself", "extends: l\n", (1, 10), r"more than 8 layouts deep"),
        ("missing font family", L + "font:\n  family: No Such Family\n", (3, 11),
         r"no font of family 'No Such Family'"),
        ("missing fallback family", L + "font:\n  fallback: [No Such Family]\n", (3, 14),
         r"no font of family"),
    ]
    for name, text, pos, msg in cases:
        # `extends: l` reaches l.yaml again, and names it as -l does (not
        # ./l.yaml: a base beside a layout in the current directory is
        # named as the user would write it).
        bad("layout %s" % name, pos, msg, layout=text,
            file="l.yaml" if name == "extends itself" else None)
    # The error is in the base file: it is the one named.
    bad("layout extends a file with invalid UTF-8", (1, 4), r"invalid UTF-8",
        layout="extends: base\n", files={"base.yaml": b"a: \xff\n"}, file="base.yaml")
    bad("layout missing", 0, r"cannot open 'l\.yaml': No such file", layout=None,
        args=["-l", "l.yaml"], file="l.yaml")
    bad("layout is a directory", 0, r"Is a directory", args=["-l", "l.yaml"], file="l.yaml",
        setup=lambda d: os.makedirs(os.path.join(d, "l.yaml")))
    bad("layout 50 MB", 0, r"larger than 16 MB",
        layout=GOOD_LAYOUT + ("#" + "x" * 99 + "\n") * 500000)
    unreadable("layout", lambda d: write(os.path.join(d, "l.yaml"), GOOD_LAYOUT), "l.yaml",
               ["-l", "l.yaml"], r"cannot open 'l\.yaml': Permission denied")


# ------------------------------------------------------------------- fonts

def ttf_variants():
    """Broken copies of Lato Regular: {name: (bytes, must it fail?)}.  A
    font damaged where FreeType and HarfBuzz can read past it may render;
    what it must never do is crash or write a broken PDF."""
    src = open(os.path.join(ROOT, "fonts", "Lato-Regular.ttf"), "rb").read()
    n = struct.unpack(">H", src[4:6])[0]
    tab = {}
    for i in range(n):
        tag, _, off, ln = struct.unpack(">4sIII", src[12 + 16 * i:28 + 16 * i])
        tab[tag.decode("latin-1")] = (12 + 16 * i, off, ln)

    def patch(off, fmt, val, data=src):
        d = bytearray(data)
        struct.pack_into(fmt, d, off, val)
        return bytes(d)
    rnd = random.Random(7)
    v = {
        "empty": (b"", True),
        "text": (b"this is not a font\n" * 20, True),
        "png": (open(os.path.join(ROOT, "tests", "data", "photo.png"), "rb").read(), True),
        "cut-12-bytes": (src[:12], True),
        "cut-200-bytes": (src[:200], True),
        "cut-5pc": (src[:len(src) // 20], True),
        "cut-half": (src[:len(src) // 2], True),
        "cut-90pc": (src[:len(src) * 9 // 10], False),
        "units-per-em-0": (patch(tab["head"][1] + 18, ">H", 0), True),
        "no-glyf": (src[:tab["glyf"][0]] + b"glyx" + src[tab["glyf"][0] + 4:], True),
        "cff-header": (b"OTTO" + src[4:], True),
        "hmetrics-overflow": (patch(tab["hhea"][1] + 34, ">H", 0xFFFF), False),
        "numglyphs-65535": (patch(tab["maxp"][1] + 4, ">H", 0xFFFF), False),
        "cmap-offset-out-of-file": (patch(tab["cmap"][0] + 8, ">I", 0x7FFFFFF0), False),
        "numtables-65535": (patch(4, ">H", 0xFFFF), False),
    }
    d = bytearray(src)
    o, ln = tab["loca"][1], tab["loca"][2]
    for i in range(0, ln, 2):
        d[o + i:o + i + 2] = struct.pack(">H", rnd.randrange(65536))
    v["loca-scrambled"] = (bytes(d), False)
    d = bytearray(src)
    o, ln = tab["glyf"][1], tab["glyf"][2]
    for _ in range(3000):
        d[o + rnd.randrange(ln)] = rnd.randrange(256)
    v["glyf-junk"] = (bytes(d), False)
    return v


def font_tests():
    lay = GOOD_LAYOUT + "font:\n  family: f.ttf\n  fallback: []\n"
    for name, (data, must_fail) in ttf_variants().items():
        label = "font file %s" % name
        if must_fail:
            bad(label, (3, 11), r"f\.ttf", layout=lay, files={"f.ttf": data})
            continue
        # May render; if it does, the PDF must be sound.  Either way no crash.
        d = case_dir(label)
        write(os.path.join(d, "p.yaml"), GOOD)
        write(os.path.join(d, "l.yaml"), lay)
        write(os.path.join(d, "f.ttf"), data)
        existing, sig = plant(os.path.join(d, "out"))
        rc, _, err = cvpdf(["p.yaml", "-l", "l.yaml", "-o", "out/existing.pdf"], d)
        if rc == 1:
            judge(label, rc, err, "l.yaml" if "l.yaml" in err else "./f.ttf", None, r"f\.ttf|font")
            check("%s: existing output untouched" % label, not untouched(existing, sig))
        else:
            q = subprocess.run(["qpdf", "--check", os.path.join(d, "out", "existing.pdf")],
                               capture_output=True)
            check("%s: no crash; an error or a PDF that passes qpdf --check" % label,
                  rc == 0 and q.returncode == 0 and not SANITIZER.search(err),
                  "rc %s: %s %s" % (rc, err.strip()[-800:], q.stdout.decode()[-300:]))
    bad("font file missing", (3, 11), r"cannot open font '\./f\.ttf': No such file", layout=lay)
    bad("font file is a directory", (3, 11), r"is a directory", layout=lay,
        setup=lambda d: os.makedirs(os.path.join(d, "f.ttf")))
    bad("font file is a FIFO", (3, 11), r"not a regular file", layout=lay,
        setup=lambda d: os.mkfifo(os.path.join(d, "f.ttf")))
    bad("fallback font file missing", (3, 14), r"cannot open font '\./g\.ttf'",
        layout=GOOD_LAYOUT + "font:\n  fallback: [g.ttf]\n")
    unreadable("font file",
               lambda d: shutil.copy(os.path.join(ROOT, "fonts", "Lato-Regular.ttf"),
                                     os.path.join(d, "f.ttf")),
               "f.ttf", [], r"cannot open font '\./f\.ttf': Permission denied",
               file="l.yaml", pos=(3, 11), layout=lay)
    good("font file (the bundled Lato) renders", layout=lay,
         files={"f.ttf": open(os.path.join(ROOT, "fonts", "Lato-Regular.ttf"), "rb").read()},
         text="Ada Lovelace")

    # Something that is not a font file in the data directory's fonts/: a
    # FIFO named like a font must not block the run.
    name = "a FIFO named x.ttf in the data directory's fonts/"
    d = case_dir(name)
    data = os.path.join(d, "data")
    os.makedirs(os.path.join(data, "fonts"))
    shutil.copytree(os.path.join(ROOT, "layouts"), os.path.join(data, "layouts"))
    for f in os.listdir(os.path.join(ROOT, "fonts")):
        os.symlink(os.path.join(ROOT, "fonts", f), os.path.join(data, "fonts", f))
    os.mkfifo(os.path.join(data, "fonts", "x.ttf"))
    write(os.path.join(d, "p.yaml"), GOOD)
    rc, _, err = cvpdf(["p.yaml", "-o", "out/x.pdf"], d, env={"CVPDF_DATADIR": data}, timeout=15)
    check("%s: the run finishes (renders, or an error naming it)" % name,
          rc == 0 or (rc == 1 and "x.ttf" in err), "rc %s: %s" % (rc, err.strip()[-500:]))


# ------------------------------------------------------------------ photos

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def photo_tests():
    png = open(os.path.join(ROOT, "tests", "data", "photo.png"), "rb").read()
    jpg = open(os.path.join(ROOT, "tests", "data", "photo.jpg"), "rb").read()
    # A PNG that claims 100000 x 100000 pixels (a decompression bomb's header).
    huge_png = (b"\x89PNG\r\n\x1a\n" +
                png_chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0)) +
                png_chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + png_chunk(b"IEND", b""))
    # Flip bytes in the middle of the PNG's image data (its CRC no longer fits).
    i = png.find(b"IDAT")
    bad_crc = bytearray(png)
    for k in range(i + 20, i + 60):
        bad_crc[k] ^= 0x5A
    # JPEG: garbage over the scan data, and a start-of-frame claiming 60000 x 60000.
    sos = jpg.find(b"\xff\xda")
    jpg_junk = bytearray(jpg)
    rnd = random.Random(3)
    for k in range(sos + 40, min(len(jpg) - 2, sos + 400)):
        jpg_junk[k] = rnd.randrange(256)
    sof = max(jpg.find(b"\xff\xc0"), jpg.find(b"\xff\xc2"))
    jpg_huge = bytearray(jpg)
    struct.pack_into(">HH", jpg_huge, sof + 5, 60000, 60000)
    cases = {
        "missing.png": (None, r"cannot open photo 'missing\.png': No such file"),
        "cut.png": (png[:len(png) // 2], r"truncated"),
        "cut-header.png": (png[:20], r"truncated|damaged"),
        "cut.jpg": (jpg[:len(jpg) // 2], r"truncated"),
        "cut-header.jpg": (jpg[:10], r"truncated|damaged"),
        "crc.png": (bytes(bad_crc), r"damaged|CRC"),
        "huge.png": (huge_png, r"100000x100000 pixels"),
        "huge.jpg": (bytes(jpg_huge), r"60000x60000 pixels|damaged"),
        "text.jpg": (b"not a picture\n", r"not a PNG or JPEG"),
        "tiff.png": (b"II*\0" + b"\0" * 40, r"TIFF"),     # GIF, WebP, SVG: a warning
        "empty.png": (b"", r"empty"),
        "adir.png": ("dir", r"is a directory"),
        "fifo.png": ("fifo", r"not a regular file"),
    }
    for fname, (data, msg) in cases.items():
        def setup(d, fname=fname, data=data):
            p = os.path.join(d, fname)
            if data == "dir":
                os.makedirs(p)
            elif data == "fifo":
                os.mkfifo(p)
            elif data is not None:
                write(p, data)
        bad("photo %s" % fname, (3, 10), msg, profile="cv:\n  name: A B\n  photo: %s\n" % fname,
            setup=setup)
    # Garbage in a JPEG's scan: libjpeg may decode it as a (wrong) picture;
    # an error or a sound PDF, never a crash.
    d = case_dir("photo junk-in-scan.jpg")
    write(os.path.join(d, "p.yaml"), "cv:\n  name: A B\n  photo: j.jpg\n")
    write(os.path.join(d, "j.jpg"), bytes(jpg_junk))
    rc, _, err = cvpdf(["p.yaml", "-o", "out/x.pdf"], d)
    check("photo junk-in-scan.jpg: an error at the photo line, or a PDF; no crash",
          (rc == 1 and re.search(r"^p\.yaml:3:10: error: .*j\.jpg", err, re.M)) or
          (rc == 0 and not SANITIZER.search(err)), "rc %s: %s" % (rc, err[-800:]))
    unreadable("photo", lambda d: write(os.path.join(d, "ph.png"), png), "ph.png", [],
               r"cannot open photo 'ph\.png': Permission denied", file="p.yaml", pos=(3, 10),
               profile="cv:\n  name: A B\n  photo: ph.png\n")


# ------------------------------------------------------------------ output

def output_tests():
    prof = GOOD
    # A directory that does not exist.
    name = "output in a missing directory"
    d = case_dir(name)
    write(os.path.join(d, "p.yaml"), prof)
    rc, _, err = cvpdf(["p.yaml", "-o", "nodir/x.pdf"], d)
    judge(name, rc, err, "nodir/x.pdf", 0, r"cannot write 'nodir/x\.pdf': No such file")
    check("%s: nothing created" % name, not os.path.exists(os.path.join(d, "nodir")))

    name = "output path through a file"
    d = case_dir(name)
    write(os.path.join(d, "p.yaml"), prof)
    write(os.path.join(d, "f"), "x")
    rc, _, err = cvpdf(["p.yaml", "-o", "f/x.pdf"], d)
    judge(name, rc, err, "f/x.pdf", 0, r"Not a directory")

    # An output that is one of the inputs: refused, the input kept.
    for what, args, victim in (("the profile", ["-o", "p.yaml"], "p.yaml"),
                               ("the layout", ["-l", "l.yaml", "-o", "l.yaml"], "l.yaml")):
        name = "output names %s itself" % what
        d = case_dir(name)
        write(os.path.join(d, "p.yaml"), prof)
        write(os.path.join(d, "l.yaml"), GOOD_LAYOUT)
        before = open(os.path.join(d, victim), "rb").read()
        rc, _, err = cvpdf(["p.yaml"] + args, d)
        check("%s: refused (exit 1 or 2, an error), %s kept" % (name, victim),
              rc in (1, 2) and "error" in err and
              open(os.path.join(d, victim), "rb").read() == before,
              "rc %s: %s; %s now starts %r" % (rc, err.strip(), victim,
                                               open(os.path.join(d, victim), "rb").read()[:8]))

    # Read-only directories: root ignores the mode, not an immutable
    # directory or a read-only mount.
    readonly_chattr()
    readonly_bind()
    if can_drop_root():
        name = "output directory mode 555 (as nobody)" if os.geteuid() == 0 else \
               "output directory mode 555"
        d = case_dir(name)
        write(os.path.join(d, "p.yaml"), prof)
        out = os.path.join(d, "out")
        existing, sig = plant(out)
        os.chmod(out, 0o555)
        rc, _, err = cvpdf(["p.yaml", "-o", "out/existing.pdf"], d,
                           as_nobody if os.geteuid() == 0 else None)
        os.chmod(out, 0o755)
        judge(name, rc, err, "out/existing.pdf", 0, r"Permission denied")
        check("%s: existing output untouched, no temporary file" % name,
              not untouched(existing, sig) and os.listdir(out) == ["existing.pdf"],
              untouched(existing, sig) + str(os.listdir(out)))
    else:
        skip("output directory mode 555", "cannot switch to nobody")

    # Full disk: a file size limit (EFBIG) and a tiny tmpfs (ENOSPC).
    # (The last limit lies inside the file: its PDF, packed into object
    # streams, is some 10.7 KB.)
    for limit in (1, 4096, 8000):
        name = "output over RLIMIT_FSIZE %d bytes" % limit
        d = case_dir(name)
        write(os.path.join(d, "p.yaml"), prof)
        out = os.path.join(d, "out")
        existing, sig = plant(out)
        rc, _, err = cvpdf(["p.yaml", "-o", "out/existing.pdf"], d, fsize_limit(limit))
        judge(name, rc, err, "out/existing.pdf", 0, r"cannot write.*File too large")
        check("%s: existing output untouched, no temporary file" % name,
              not untouched(existing, sig) and os.listdir(out) == ["existing.pdf"],
              untouched(existing, sig) + str(os.listdir(out)))
    tmpfs_full()


def mounted(cmd):
    r = subprocess.run(cmd, capture_output=True)
    return r.returncode == 0, r.stderr.decode().strip()


def readonly_chattr():
    name = "output directory immutable (chattr +i)"
    d = case_dir(name)
    write(os.path.join(d, "p.yaml"), GOOD)
    out = os.path.join(d, "out")
    existing, sig = plant(out)
    ok, why = mounted(["chattr", "+i", out])
    if not ok:
        skip(name, "chattr +i refused: %s" % why)
        return
    try:
        rc, _, err = cvpdf(["p.yaml", "-o", "out/existing.pdf"], d)
    finally:
        subprocess.run(["chattr", "-i", out])
    judge(name, rc, err, "out/existing.pdf", 0, r"cannot write.*(Operation not permitted|Permission denied)")
    check("%s: existing output untouched, no temporary file" % name,
          not untouched(existing, sig) and os.listdir(out) == ["existing.pdf"])


def readonly_bind():
    name = "output directory on a read-only bind mount"
    d = case_dir(name)
    write(os.path.join(d, "p.yaml"), GOOD)
    out = os.path.join(d, "out")
    existing, sig = plant(out)
    ok, why = mounted(["mount", "--bind", out, out])
    if not ok:
        skip(name, "mount --bind refused: %s" % why)
        return
    try:
        ok, why = mounted(["mount", "-o", "remount,ro,bind", out])
        if not ok:
            skip(name, "remount read-only refused: %s" % why)
            return
        rc, _, err = cvpdf(["p.yaml", "-o", "out/existing.pdf"], d)
        judge(name, rc, err, "out/existing.pdf", 0, r"cannot write.*Read-only file system")
        check("%s: existing output untouched, no temporary file" % name,
              not untouched(existing, sig) and os.listdir(out) == ["existing.pdf"])
    finally:
        subprocess.run(["umount", out])


def tmpfs_full():
    name = "output on a full 64 KB tmpfs"
    d = case_dir(name)
    write(os.path.join(d, "p.yaml"), GOOD)
    out = os.path.join(d, "out")
    ok, why = mounted(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", out])
    if not ok:
        skip(name, "mount -t tmpfs refused: %s" % why)
        return
    try:
        existing, sig = plant(out)
        # Fill it up, then free 8 KB: less than the PDF needs, so a write
        # fails half-way through.
        fd = os.open(os.path.join(out, "fill"), os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            while os.write(fd, b"\0" * 4096) > 0:
                pass
        except OSError:
            pass
        os.ftruncate(fd, max(0, os.fstat(fd).st_size - 8192))
        os.close(fd)
        st = os.statvfs(out)
        free = st.f_bavail * st.f_frsize
        rc, _, err = cvpdf(["p.yaml", "-o", "out/existing.pdf"], d)
        judge(name, rc, err, "out/existing.pdf", 0, r"cannot write.*No space left on device")
        check("%s: existing output untouched, no temporary file (%d bytes were free)" %
              (name, free), not untouched(existing, sig) and
              sorted(os.listdir(out)) == ["existing.pdf", "fill"], str(os.listdir(out)))
    finally:
        subprocess.run(["umount", out])


# ------------------------------------------------------------------- batch

def batch_tests():
    name = "batch with broken profiles among good ones"
    d = case_dir(name)
    write(os.path.join(d, "a.yaml"), GOOD)
    write(os.path.join(d, "b-utf8.yaml"), b"cv:\n  name: A\xff\n")
    write(os.path.join(d, "c.yaml"), GOOD.replace("Ada Lovelace", "Charles Babbage"))
    write(os.path.join(d, "d-laughs.yaml"), billion_laughs("cv:\n  name: A\n"))
    write(os.path.join(d, "e-photo.yaml"), "cv:\n  name: A\n  photo: nope.png\n")
    write(os.path.join(d, "f.yaml"), GOOD.replace("Ada Lovelace", "Mary Somerville"))
    out = os.path.join(d, "out")
    old = {s: plant(out, s + ".pdf") for s in ("b-utf8", "d-laughs", "e-photo", "g-missing")}
    names = ["a.yaml", "b-utf8.yaml", "c.yaml", "d-laughs.yaml", "e-photo.yaml",
             "g-missing.yaml", "f.yaml"]
    rc, _, err = cvpdf(names + ["-o", "out/"], d)
    judge(name, rc, err, "b-utf8.yaml", (2, 10), r"invalid UTF-8", nerrors=4)
    files = [m.group("file") for m in map(DIAG.match, err.splitlines()) if m and m.group("kind") == "error"]
    check("%s: one error per broken profile" % name,
          sorted(files) == ["b-utf8.yaml", "d-laughs.yaml", "e-photo.yaml", "g-missing.yaml"],
          str(files))
    check("%s: a summary line '3 rendered, 4 failed'" % name,
          re.search(r"^cvpdf: 3 rendered, 4 failed$", err, re.M), err)
    for s, who in (("a", "Ada Lovelace"), ("c", "Charles Babbage"), ("f", "Mary Somerville")):
        pdf = os.path.join(out, s + ".pdf")
        t = subprocess.run(["pdftotext", pdf, "-"], capture_output=True).stdout.decode() \
            if os.path.exists(pdf) else ""
        check("%s: %s.pdf rendered" % (name, s), who in t)
    for s, (path, sig) in old.items():
        check("%s: %s.pdf (a broken one's) untouched" % (name, s), not untouched(path, sig))
    left = sorted(f for f in os.listdir(out) if f.startswith("."))
    check("%s: no temporary file" % name, not left, str(left))

    # With a broken layout nothing is rendered.
    name = "batch with a broken layout"
    d = case_dir(name)
    write(os.path.join(d, "a.yaml"), GOOD)
    write(os.path.join(d, "b.yaml"), GOOD)
    write(os.path.join(d, "l.yaml"), GOOD_LAYOUT + "colours: {}\n")
    rc, _, err = cvpdf(["a.yaml", "b.yaml", "-l", "l.yaml", "-o", "out/"], d)
    judge(name, rc, err, "l.yaml", (2, 1), r"did you mean 'colors'")
    check("%s: nothing written" % name, os.listdir(os.path.join(d, "out")) == [])


def defaults_tests():
    """--defaults FILE is a profile too: its errors name it."""
    for name, data, pos, msg in (
            ("invalid UTF-8", b"cv:\n  location: \xff\n", (2, 13), r"invalid UTF-8"),
            ("billion laughs", billion_laughs("cv:\n  location: X\n"), (5, 8), r"too many alias"),
            ("unknown key", "cv:\n  emial: a@b.cd\n", (2, 3), r"did you mean 'email'"),
            ("missing", None, 0, r"cannot open 'd\.yaml'")):
        files = {"d.yaml": data} if data is not None else {}
        bad("defaults %s" % name, pos, msg, files=files, args=["--defaults", "d.yaml"],
            file="d.yaml")


def usage_tests():
    for name, args in (("unknown option", ["--frobnicate"]),
                       ("--fit-pages 0", ["--fit-pages", "0"]),
                       ("--date 2023-13-01", ["--date", "2023-13-01"]),
                       ("--dump=what", ["--dump=what"])):
        bad("usage %s" % name, None, "", args=args, want_rc=2)
    name = "usage SOURCE_DATE_EPOCH=yesterday"
    bad(name, None, "", env={"SOURCE_DATE_EPOCH": "yesterday"}, want_rc=2)


def stdout_tests():
    """--dump writes to stdout; a failed write there is an error too."""
    name = "--dump to a full stdout (a full device of the test's own)"
    d = case_dir(name)
    write(os.path.join(d, "p.yaml"), GOOD)
    node = os.path.join(d, "full")
    try:
        os.mknod(node, 0o600 | stat.S_IFCHR, os.makedev(1, 7))
    except OSError as e:
        skip(name, "mknod refused: %s" % e)
        return
    with open(node, "w") as full:
        p = subprocess.run([BIN, "--dump", "p.yaml"], cwd=d, stdout=full,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
    err = p.stderr.decode("utf-8", "replace")
    check("%s: exit 1 with an error saying so" % name,
          p.returncode == 1 and re.search(r"error: .*(No space left|write)", err),
          "rc %d: %s" % (p.returncode, err.strip()))


def profile_yaml_tests():
    yaml_tests("p")


def layout_yaml_tests():
    yaml_tests("l")


def after():
    """Make TMP removable again (some tests take permissions away) and say
    what was skipped."""
    for root, dirs, _ in os.walk(TMP):
        for x in dirs:
            try:
                os.chmod(os.path.join(root, x), 0o755)
            except OSError:
                pass
    if skipped:
        print("skipped %d: %s" % (len(skipped), "; ".join(skipped)))


# ------------------------------------------------------ JSON Resume (issue 25)

def max_rss_kb(argv, cwd):
    """The peak memory of one run, in a fresh process of its own (so that
    no earlier child's peak is counted)."""
    probe = ("import resource, subprocess, sys\n"
             "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
             "stderr=subprocess.DEVNULL)\n"
             "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    p = subprocess.run([sys.executable, "-c", probe] + argv, cwd=cwd, capture_output=True,
                       timeout=600)
    rc, kb = p.stdout.split()
    return int(rc), int(kb)


def json_tests():
    import json
    d = case_dir("json resume")
    hl = ["highlight number %d" % i for i in range(20000)]
    with open(os.path.join(d, "big.json"), "w") as f:
        json.dump({"basics": {"name": "Ada Lovelace"},
                   "work": [{"name": "Analytical Engines", "position": "Programmer",
                             "startDate": "2020-01", "highlights": hl}]}, f)
    write(os.path.join(d, "big.yaml"), "cv:\n  name: Ada Lovelace\n  sections:\n"
          "    experience:\n      - company: Analytical Engines\n        position: Programmer\n"
          "        start_date: 2020-01\n        highlights:\n" +
          "".join("          - %s\n" % h for h in hl))
    rj, kj = max_rss_kb([BIN, "--dump", "big.json"], d)
    ry, ky = max_rss_kb([BIN, "--dump", "big.yaml"], d)
    check("JSON Resume with 20,000 highlights: the JSON and YAML forms within 1.5x in memory",
          rj == 0 and ry == 0 and kj <= 1.5 * ky and ky <= 1.5 * kj,
          "rc %d/%d, JSON %d KB, YAML %d KB" % (rj, ry, kj, ky))
    # An astral character as JSON escapes it (json.dumps): a surrogate pair.
    text = json.dumps({"basics": {"name": "Ada \U0001F600 Lovelace"},
                       "work": [{"name": "Engines", "position": "P", "startDate": "2020",
                                 "highlights": ["a \\ud83d b", "x \U0001F680 y"]}]})
    check("json.dumps escapes astral characters as surrogate pairs", "\\ud83d\\ude00" in text)
    write(os.path.join(d, "emoji.json"), text)
    rc, _, err = cvpdf(["--dump", "emoji.json"], d)
    check("JSON Resume with \\ud83d\\ude00: read, the pair decoded as U+1F600 and U+1F680",
          rc == 0 and "U+1F600" in err and "U+1F680" in err and "U+D83D" not in err,
          "rc %s: %s" % (rc, err[:500]))


# ------------------------------------------------ limits of our own (issue 25)

def thin_png(w, h):
    raw = b"".join(b"\0" + b"\x80" * (3 * w) for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
            png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b""))


def limits_tests():
    many = "cv:\n  name: Ada Lovelace\n  sections:\n    notes:\n" + "".join(
        "      - item number %d of the long list\n" % i for i in range(33000))
    bad("33,000 one-line entries in one section", 0,
        r"section 'Notes' holds more than 30000 items", profile=many)
    tiny = ("extends: onecolumn\npage:\n  size: [8in, 3in]\n  margins: {top: 0.2in, "
            "bottom: 0.2in, left: 0.3in, right: 0.3in}\nfont:\n  size: 60pt\n")
    pages = "cv:\n  name: Ada\n  sections:\n" + "".join(
        "    s%d:\n" % k + "".join("      - it %d\n" % i for i in range(4000)) for k in range(6))
    bad("12,000 pages", 0, r"the résumé has 12001 pages, more than the 10000 cvpdf writes; "
        r"it passes them in section 'S\d'", profile=pages, layout=tiny, file="p.yaml")
    for w, h in ((1, 600), (600, 1), (2, 3000)):
        good("a %dx%d photo" % (w, h), profile=GOOD.replace("cv:\n", "cv:\n  photo: me.png\n", 1),
             files={"me.png": thin_png(w, h)})


# ------------------------------------------------------ smaller items (issue 25)

def small_tests():
    tall = ("cv:\n  name: Ada\n  sections:\n    publications:\n      - title: \"" +
            " ".join("word%d" % i for i in range(1500)) + "\"\n        authors: [Ada]\n"
            "        date: 2020\n")
    # A section key YAML reads as null is no title (RenderCV refuses it).
    for key in ("null", "~", "Null"):
        bad("a section titled %s" % key, (4, 5), r"a section's title is null",
            profile="cv:\n  name: Ada\n  sections:\n    %s:\n      - x\n" % key)
    # An entry taller than a page is set across pages, a line an item
    # (compose.c): nothing to say, even under --strict, and its last word
    # is on a page.
    good("--strict: an entry taller than a page", profile=tall, args=["--strict"],
         text="word1499")
    bad("pagination: orphans: 0", (3, 12), r"orphans must be a whole number from 1 to 100",
        layout=GOOD_LAYOUT + "pagination:\n  orphans: 0\n")
    bad("pagination: widows: 0", (3, 11), r"widows must be a whole number from 1 to 100",
        layout=GOOD_LAYOUT + "pagination:\n  widows: 0\n")
    # A warning quoting U+2028 (which ends a line for many readers) escapes it
    # (a name with Typst markup, quoted in its warning).
    d = case_dir("a warning quoting U+2028")
    write(os.path.join(d, "p.yaml"), GOOD.replace("name: Ada Lovelace",
                                                  'name: "Ada #emph[Love\\u2028lace]"'))
    rc, _, err = cvpdf(["p.yaml", "-o", "out/new.pdf"], d)
    check("a warning quoting U+2028: escaped as \\u2028, never raw",
          rc == 0 and "\\u2028" in err and "\u2028" not in err, "rc %s: %r" % (rc, err[:300]))
    # A 5,000-byte output name: the error keeps its reason.
    d = case_dir("a 5000-byte output name")
    write(os.path.join(d, "p.yaml"), GOOD)
    rc, _, err = cvpdf(["p.yaml", "-o", "a" * 4996 + ".pdf"], d)
    check("a 5,000-byte output name: exit 1, the reason at the end of one line",
          rc == 1 and err.rstrip("\n").endswith("File name too long") and err.count("\n") == 1,
          "rc %s: %r" % (rc, err[-300:]))


if __name__ == "__main__":
    sys.exit(testlib.main("badinput", [profile_yaml_tests, layout_yaml_tests, profile_tests,
                                       layout_tests, font_tests, photo_tests, output_tests,
                                       batch_tests, defaults_tests, usage_tests, stdout_tests,
                                       json_tests, limits_tests, small_tests],
                          tmp=TMP, after=after))
