#!/usr/bin/env python3
"""The loop a new user lives in (issue 17): `cvpdf new`, layouts by name,
--list-layouts and --datadir, the JSON Schemas, the man pages, shell
completion, make install/uninstall, and the messages a first résumé meets.

Usage: tests/newuser.py CVPDF_BINARY [-k PATTERN] [--list]   (tests/run.sh passes build/san/cvpdf)

The schemas are checked three ways: they are valid draft 2020-12 schemas
(python3-jsonschema), every shipped profile and layout validates and bad
examples do not, and they hold exactly the keys the loaders accept: for
every mapping of a schema, cvpdf's "unknown key ... (expected one of: ...)"
message for a nonsense key lists the schema's keys there, and a profile and
a layout with every key of the schemas set load without an error.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

import testlib
from testlib import ROOT, check, npm_tool, run

import jsonschema
import yaml

BIN = testlib.BIN
TMP = tempfile.mkdtemp(prefix="cvpdf-newuser-")
LAYOUTS = sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "layouts")) if f.endswith(".yaml"))


class Loader(yaml.SafeLoader):
    """YAML as cvpdf reads it: a date stays a string (2019-07-15)."""


Loader.yaml_implicit_resolvers = {
    k: [(tag, r) for tag, r in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}


def load_yaml(path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=Loader)


def schema(which):
    rc, out, err = run([BIN, "--schema", which])
    assert rc == 0, err
    return json.loads(out)


def cvpdf(args, cwd=None, env=None):
    p = subprocess.run([BIN] + args, capture_output=True, cwd=cwd or TMP, timeout=120,
                       env=env)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def write(name, text):
    path = os.path.join(TMP, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def pdftext(pdf):
    return run(["pdftotext", "-layout", pdf, "-"])[1]


# ---- cvpdf new ---------------------------------------------------------------

def new_profile():
    d = os.path.join(TMP, "new")
    os.makedirs(d)
    rc, out, err = cvpdf(["new", "Meiling Zhou"], cwd=d)
    prof = os.path.join(d, "Meiling_Zhou_CV.yaml")
    check("new: writes Meiling_Zhou_CV.yaml and says how to render it",
          rc == 0 and os.path.isfile(prof) and "cvpdf Meiling_Zhou_CV.yaml" in out, err)
    if not os.path.isfile(prof):
        return
    text = open(prof, encoding="utf-8").read()
    first = text.splitlines()[0]
    m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    copy = os.path.join(testlib.XDG_DATA_HOME, "cvpdf", "schema", "profile.json")
    check("new: its first line names the user's copy of the profile schema, which holds "
          "the binary's own", m and os.path.isfile(copy) and
          os.path.samefile(m.group(1), copy) and
          open(copy, encoding="utf-8").read() == run([BIN, "--schema", "profile"])[1], first)
    rc, out, err = cvpdf(["--strict", "Meiling_Zhou_CV.yaml"], cwd=d)
    pdf = os.path.join(d, "Meiling_Zhou_CV.pdf")
    check("new: the starter renders as it is, without a warning (--strict)",
          rc == 0 and os.path.isfile(pdf) and err == "", err)
    if os.path.isfile(pdf):
        txt = pdftext(pdf)
        titles = ["Meiling Zhou", "SUMMARY", "EXPERIENCE", "EDUCATION", "PROJECTS",
                  "PUBLICATIONS", "SKILLS", "AWARDS", "TALKS", "PATENTS"]
        check("new: the PDF shows the name and a section of each entry type",
              all(t in txt for t in titles), [t for t in titles if t not in txt])
    v = jsonschema.Draft202012Validator(schema("profile"))
    errs = [e.message for e in v.iter_errors(load_yaml(prof))]
    check("new: the starter validates against the profile schema", not errs, errs[:3])
    pointers = re.findall(r"^#.*(?:\n#.*)*", text, re.M)[0]
    m = re.search(r"man 5 cvpdf-profile, and in\n#\s+(\S+)", pointers)
    check("new: the starter points to cvpdf-profile(5) and the docs, as they are here",
          m and os.path.samefile(m.group(1), os.path.join(ROOT, "docs", "profiles.md")),
          pointers)

    before = os.stat(prof)
    rc, out, err = cvpdf(["new", "Meiling Zhou"], cwd=d)
    check("new: a second time exits 1, saying it never writes over a file",
          rc == 1 and "never writes over a file" in err and os.stat(prof) == before, err)

    rc, out, err = cvpdf(["new", "Bo Li", "--layout", "sidebar"], cwd=d)
    lay = os.path.join(d, "Bo_Li_layout.yaml")
    check("new --layout sidebar: writes a profile and a layout that extends sidebar",
          rc == 0 and os.path.isfile(lay) and
          load_yaml(lay) == {"extends": "sidebar"} and
          "cvpdf Bo_Li_CV.yaml -l Bo_Li_layout.yaml" in out, out + err)
    rc, out, err = cvpdf(["--strict", "--dump", "Bo_Li_CV.yaml", "-l", "Bo_Li_layout.yaml"],
                         cwd=d)
    rc2, out2, _ = cvpdf(["--dump", "Bo_Li_CV.yaml", "-l", "sidebar"], cwd=d)
    check("new --layout: the layout renders as the shipped sidebar does",
          rc == 0 and rc2 == 0 and out == out2 and "region side" in out, err)
    errs = list(jsonschema.Draft202012Validator(schema("layout")).iter_errors(load_yaml(lay)))
    check("new --layout: the layout validates against the layout schema", not errs, errs[:2])

    rc, out, err = cvpdf(["new", "Ada", "--layout", "sidebr"], cwd=d)
    check("new --layout with an unknown name: usage error, nothing written",
          rc == 2 and "did you mean 'sidebar'?" in err and
          not os.path.exists(os.path.join(d, "Ada_CV.yaml")), err)
    rc, out, err = cvpdf(["new"], cwd=d)
    check("new without a name: usage error", rc == 2 and "no name given" in err, err)


def new_names():
    """Issue 25: `new` refuses a name that would not make a profile that
    renders, and says so on one clean line."""
    d = os.path.join(TMP, "new-names")
    os.makedirs(d)

    def new(*args):
        p = subprocess.run([BIN.encode()] + [b"new"] + [a if isinstance(a, bytes) else a.encode()
                                                         for a in args],
                           capture_output=True, cwd=d, timeout=120)
        return p.returncode, p.stdout, p.stderr
    for label, name in (("invalid UTF-8", b"Ann\xffLee"), ("NEL (U+0085)", "Ann\u0085Lee"),
                        ("U+2028", "Ann\u2028Lee"), ("U+2029", "Ann\u2029Lee"),
                        ("a C1 control (U+009B)", "Ann\u009bLee")):
        rc, out, err = new(name)
        clean = not re.search(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]|\xff",
                              err)
        check("new with %s in the name: usage error, one clean line, nothing written" % label,
              rc == 2 and clean and err.count(b"\n") == 1 and not os.listdir(d), (rc, err))
    rc, out, err = new("Zoë Ångström")
    check("new with accents in the name: written", rc == 0 and
          os.path.isfile(os.path.join(d, "Zoë_Ångström_CV.yaml")), err)
    rc, out, err = new("-dash")
    check("new -dash: the unknown option is -d, not 'new', with the way to give such a name",
          rc == 2 and b"unknown option '-d'" in err and b"'new'" not in err and
          b"cvpdf new -- -NAME" in err, err)
    rc, out, err = new("--layout", "a\nb", "Ann Lee")
    check("new --layout with a newline: escaped, one line of message",
          rc == 2 and b"--layout a\\nb:" in err and err.count(b"\n") == 1, err)
    rc, out, err = new("--", "-dash")
    check("new -- -dash: written, and how to render it says ./-dash_CV.yaml",
          rc == 0 and b"cvpdf ./-dash_CV.yaml" in out, out + err)
    rc, _, err = cvpdf(["--dump", "./-dash_CV.yaml"], cwd=d)
    check("new -- -dash: it renders", rc == 0, err)
    # Issue 30: the command it suggests works pasted into a POSIX shell.
    bindir = os.path.join(TMP, "newbin")
    os.makedirs(bindir, exist_ok=True)
    if not os.path.exists(os.path.join(bindir, "cvpdf")):
        os.symlink(BIN, os.path.join(bindir, "cvpdf"))
    env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"])
    for name, layout in (("José Núñez-O'Brien", None), ("Ann $(touch pwned) Lee", "sidebar"),
                         ("-Bo \"Li\"", None)):
        args = [b"new"] + ([b"--layout", layout.encode()] if layout else []) + [b"--",
                                                                                  name.encode()]
        p = subprocess.run([BIN.encode()] + args, capture_output=True, cwd=d, timeout=120)
        lines = p.stdout.decode().splitlines()
        cmd = lines[-1].strip() if lines else ""
        r = subprocess.run(["sh", "-c", cmd + " --dump"], capture_output=True, cwd=d, env=env,
                           timeout=120)
        out = r.stdout.decode("utf-8", "replace")
        check("new %s: the suggested command (%s) works pasted into sh" % (name, cmd),
              p.returncode == 0 and cmd.startswith("cvpdf ") and r.returncode == 0 and
              "page 1 " in out and
              not os.path.exists(os.path.join(d, "pwned")) and
              (not layout or "region side" in out), (p.stderr, cmd, r.stderr))


# ---- What a run says, and where its output goes (issue 30) -------------------

def on_tty(args, cwd, env=None):
    """Run cvpdf with its standard error on a pseudo-terminal (as a user's
    shell has it): (status, what the terminal showed)."""
    import pty
    master, slave = pty.openpty()
    p = subprocess.Popen([BIN] + args, cwd=cwd, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            b = os.read(master, 65536)
        except OSError:         # EIO: the other end is closed
            break
        if not b:
            break
        chunks.append(b)
    os.close(master)
    rc = p.wait(timeout=120)
    return rc, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def pdf_pages(pdf):
    rc, out, _ = run(["pdfinfo", pdf])
    m = re.search(r"^Pages:\s+(\d+)", out, re.M)
    return int(m.group(1)) if rc == 0 and m else -1


def says_what_happened():
    d = os.path.join(TMP, "said")
    os.makedirs(os.path.join(d, "sub"))
    rc, _, err = cvpdf(["new", "Sam Roe"], cwd=os.path.join(d, "sub"))
    check("said: a starter to render", rc == 0, err)
    rc, shown = on_tty(["sub/Sam_Roe_CV.yaml"], d)
    pdf = os.path.join(d, "sub", "Sam_Roe_CV.pdf")
    n = pdf_pages(pdf) if os.path.isfile(pdf) else -1
    m = re.fullmatch(r"wrote sub/Sam_Roe_CV\.pdf: (\d+) pages?, \d+ ms\n", shown)
    check("on a terminal: one line, 'wrote sub/Sam_Roe_CV.pdf: N pages, T ms'",
          rc == 0 and m and int(m.group(1)) == n and n >= 1, (rc, shown, n))
    check("no -o: the PDF is written beside its profile (sub/), not in the current directory",
          os.path.isfile(pdf) and not os.path.exists(os.path.join(d, "Sam_Roe_CV.pdf")),
          sorted(os.listdir(d)))
    rc, shown = on_tty(["-q", "sub/Sam_Roe_CV.yaml"], d)
    check("on a terminal with -q: nothing said", rc == 0 and shown == "", shown)
    rc, out, err = cvpdf(["sub/Sam_Roe_CV.yaml"], cwd=d)
    check("stderr not a terminal: nothing said", rc == 0 and err == "", err)
    rc, shown = on_tty(["sub/Sam_Roe_CV.yaml", "-o", "cv.png", "--dpi", "30"], d)
    pngs = sorted(f for f in os.listdir(d) if f.endswith(".png"))
    want = "wrote %s: %d page%s, " % (", ".join("cv-%d.png" % k for k in range(1, n + 1)), n,
                                      "" if n == 1 else "s")
    check("-o cv.png on a terminal: the pages' files named, each one written",
          rc == 0 and shown.startswith(want) and shown.endswith(" ms\n") and
          shown.count("\n") == 1 and pngs == ["cv-%d.png" % k for k in range(1, n + 1)],
          (shown, pngs))
    shutil.copy(os.path.join(d, "sub", "Sam_Roe_CV.yaml"), os.path.join(d, "two.yaml"))
    rc, shown = on_tty(["sub/Sam_Roe_CV.yaml", "two.yaml", "-j", "1"], d)
    check("a batch on a terminal: its progress lines, no 'wrote' line",
          rc == 0 and "[1/2] ok" in shown and "[2/2] ok" in shown and "wrote" not in shown
          and os.path.isfile(os.path.join(d, "two.pdf")), shown)
    rc, shown = on_tty(["sub/Sam_Roe_CV.yaml", "two.yaml", "--merge", "book.pdf"], d)
    check("--merge on a terminal: the book's line",
          rc == 0 and "wrote book.pdf: %d pages, " % (2 * n) in shown, shown)
    # -o - on a terminal: a PDF or an HTML page is refused by its name;
    # Markdown is text, and shown.
    import pty
    for fmt, want in (("pdf", "will not write a PDF to a terminal"),
                      ("html", "will not write an HTML page to a terminal"),
                      ("md", None)):
        master, slave = pty.openpty()
        p = subprocess.Popen([BIN, "-q", "sub/Sam_Roe_CV.yaml", "--format", fmt, "-o", "-"],
                             cwd=d, stdin=subprocess.DEVNULL, stdout=slave,
                             stderr=subprocess.PIPE)
        os.close(slave)
        chunks = []
        while True:
            try:
                b = os.read(master, 65536)
            except OSError:
                break
            if not b:
                break
            chunks.append(b)
        os.close(master)
        err = p.stderr.read().decode("utf-8", "replace")
        rc = p.wait(timeout=120)
        shown = b"".join(chunks).decode("utf-8", "replace")
        if want:
            check("-o - --format %s on a terminal: refused, 'will not write %s'" %
                  (fmt, want.split(" write ")[1]), rc == 1 and want in err, (rc, err))
        else:
            check("-o - --format md on a terminal: the Markdown shown",
                  rc == 0 and shown.startswith("# Sam Roe"), (rc, err, shown[:100]))
    os.makedirs(os.path.join(d, "out"))
    rc, out, err = cvpdf(["sub/Sam_Roe_CV.yaml", "-o", "out/"], cwd=d)
    check("-o DIR/ unchanged: DIR/<stem>.pdf",
          rc == 0 and os.path.isfile(os.path.join(d, "out", "Sam_Roe_CV.pdf")), err)
    rc, out, err = cvpdf([os.path.join(d, "sub", "Sam_Roe_CV.yaml"), "--format", "svg"],
                         cwd=os.path.join(d, "out"))
    check("no -o, an absolute profile path: its pages beside it",
          rc == 0 and os.path.isfile(os.path.join(d, "sub", "Sam_Roe_CV-1.svg")), err)


def set_values():
    """--set PATH=VALUE: a value of the profile or the layout, checked as if
    it were in the file, with errors that name the option."""
    d = os.path.join(TMP, "set")
    os.makedirs(d)
    rc, _, err = cvpdf(["new", "Ann Lee"], cwd=d)
    prof = "Ann_Lee_CV.yaml"
    rc, base, err = cvpdf(["--dump", prof], cwd=d)
    rc, out, err = cvpdf(["--dump", prof, "--set", "layout.page.size=letter"], cwd=d)
    check("--set layout.page.size=letter: letter pages (the file says nothing of it)",
          rc == 0 and "page 1 612.00x792.00" in out and "612.00x792.00" not in base, err)
    rc, out, err = cvpdf(["--dump", prof, "--set", "cv.name=Zed Quux", "--set",
                          "cv.name=Zora Quux"], cwd=d)
    check("--set cv.name twice: the last wins",
          rc == 0 and "\"Zora Quux\"" in out and "Zed" not in out and "\"Ann Lee\"" in base, err)
    rc, out, err = cvpdf(["--dump", prof, "--set", "cv.location=Lyon: Part-Dieu #3"], cwd=d)
    check("--set: a plain value is taken as written (': ' and '#' are no YAML there)",
          rc == 0 and "Lyon: Part-Dieu #3" in out, err)
    rc, out, err = cvpdf(["--dump", prof, "--set", 'cv.location="Quoted \\u00e9"'], cwd=d)
    check("--set: a quoted value is read as YAML", rc == 0 and "Quoted é" in out, err)
    rc, out, err = cvpdf(["--dump", prof, "--set",
                          "cv.sections.Extra=[{label: Languages, details: Welsh}]"], cwd=d)
    check("--set: flow YAML sets a whole section",
          rc == 0 and "Extra" in out and "Welsh" in out, err)
    rc, out, err = cvpdf([prof, "--set", "layout.page.size=b9"], cwd=d)
    check("--set layout.page.size=b9: exit 1, the error names the option, nothing written",
          rc == 1 and err.startswith("--set layout.page.size=b9: error: unknown page size 'b9'")
          and not os.path.exists(os.path.join(d, "Ann_Lee_CV.pdf")), err)
    rc, out, err = cvpdf([prof, "--set", "cv.phnoe=1"], cwd=d)
    check("--set cv.phnoe: unknown key, did you mean 'phone', at the option",
          rc == 1 and "--set cv.phnoe=1: error: unknown key 'phnoe' in cv (did you mean "
          "'phone'?)" in err, err)
    rc, out, err = cvpdf([prof, "--set", "cv.name=[a"], cwd=d)
    check("--set with broken flow YAML: exit 1 at the option",
          rc == 1 and err.startswith("--set cv.name=[a: error: "), err)
    for bad, why in (("cv", "expected PATH=VALUE"), ("cv..x=1", "a key of the PATH is empty"),
                     ("=1", "PATH before '=' is empty"), ("layout=x", "give a key of the layout")):
        rc, out, err = cvpdf([prof, "--set", bad], cwd=d)
        check("--set %s: usage error, exit 2" % bad,
              rc == 2 and ("cvpdf: --set %s: " % bad) in err and why in err, err)
    # Bytes a YAML file may not hold (they went into the HTML and Markdown
    # as they were, exit 0): refused, escaped in the message.
    for bad, shown, why in ((b"cv.name=ab\xffc", "cv.name=ab\\xFFc", "not UTF-8"),
                            (b"cv.name=a\x01b", "cv.name=a\\x01b", "control character")):
        rc, out, err = cvpdf([prof, "--set", bad, "-o", "bad.md"], cwd=d)
        check("--set %s: usage error, exit 2, nothing written" % shown,
              rc == 2 and ("cvpdf: --set %s: " % shown) in err and why in err and
              not os.path.exists(os.path.join(d, "bad.md")), err)
    defs = write("set/defs.yaml", "cv:\n  location: From the defaults\n")
    rc, out, err = cvpdf(["--dump", prof, "--defaults", defs, "--set",
                          "cv.location=From the option"], cwd=d)
    check("--set wins over the profile and --defaults",
          rc == 0 and "From the option" in out and "From the defaults" not in out, err)
    rc, base_md, err = cvpdf([prof, "-o", "-", "--format", "md"], cwd=d)
    for empty in ("cv.email=", "cv.email=null", "cv.email=~"):
        rc, out, err = cvpdf([prof, "-o", "-", "--format", "md", "--set", empty,
                              "--defaults", defs], cwd=d)
        check("--set %s: no email, as 'email:' in the file says (not the file's kept)" % empty,
              rc == 0 and "mailto:" not in out and "mailto:" in base_md, (err, out[:300]))
    rc, out, err = cvpdf([prof, "-o", "-", "--format", "md", "--set", "cv.email=",
                          "--set", "cv.email=x@example.com"], cwd=d)
    check("--set cv.email= then cv.email=x@example.com: the last wins",
          rc == 0 and "mailto:x@example.com" in out, err)
    rc, out, err = cvpdf([prof, "--set", "layout.page.size="], cwd=d)
    check("--set layout.page.size=: as 'size:' in the layout, an error at the option",
          rc == 1 and err.startswith("--set layout.page.size=: error: unknown page size"), err)
    rc, out, err = cvpdf(["--dump", prof, "-l", "sidebar", "--set", "layout.page.size=a5"],
                         cwd=d)
    check("--set layout.* with -l NAME: over that layout",
          rc == 0 and "page 1 419.53x595.28" in out and "region side" in out, err)


def open_output():
    """--open: xdg-open (a fake one, first on PATH) once on the written
    output; with --watch once, and the rendering goes on."""
    import time
    d = os.path.join(TMP, "open")
    bindir = os.path.join(d, "fakebin")
    os.makedirs(bindir)
    log = os.path.join(d, "opened.log")
    fake = os.path.join(bindir, "xdg-open")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\nprintf '%%s\\n' \"$*\" >> '%s'\n" % log)
    os.chmod(fake, 0o755)
    env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"])
    rc, _, err = cvpdf(["new", "Ann Lee"], cwd=d)

    def opened(want=1, wait=10.0):
        end = time.time() + wait
        while time.time() < end:
            lines = open(log).read().splitlines() if os.path.exists(log) else []
            if len(lines) >= want:
                return lines
            time.sleep(0.05)
        return open(log).read().splitlines() if os.path.exists(log) else []
    rc, _, err = cvpdf(["Ann_Lee_CV.yaml", "--open"], cwd=d, env=env)
    check("--open: xdg-open once on the written PDF",
          rc == 0 and opened() == ["Ann_Lee_CV.pdf"] and
          os.path.isfile(os.path.join(d, "Ann_Lee_CV.pdf")), (rc, err, opened()))
    os.unlink(log)
    os.makedirs(os.path.join(d, "pages"))
    rc, _, err = cvpdf(["Ann_Lee_CV.yaml", "--open", "-o", "pages/cv.png", "--dpi", "20"],
                       cwd=d, env=env)
    check("--open with PNG pages: the first page", rc == 0 and opened() == ["pages/cv-1.png"],
          (rc, err, opened()))
    if os.path.exists(log):
        os.unlink(log)
    rc, _, err = cvpdf(["Ann_Lee_CV.yaml", "--open", "--dump"], cwd=d, env=env)
    check("--open --dump: usage error", rc == 2 and "--open opens one output" in err, err)
    rc, _, err = cvpdf(["Ann_Lee_CV.yaml", "--open"], cwd=d,
                       env=dict(os.environ, PATH=os.path.join(d, "nowhere")))
    check("--open without xdg-open: exit 1, saying so (the PDF written)",
          rc == 1 and "cvpdf: error: --open: cannot run xdg-open Ann_Lee_CV.pdf: No such file"
          in err and os.path.isfile(os.path.join(d, "Ann_Lee_CV.pdf")), err)
    pdf = os.path.join(d, "Ann_Lee_CV.pdf")
    os.unlink(pdf)
    p = subprocess.Popen([BIN, "Ann_Lee_CV.yaml", "--open", "--watch"], cwd=d, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        first = opened()
        before = os.stat(pdf).st_mtime_ns if os.path.exists(pdf) else 0
        prof = os.path.join(d, "Ann_Lee_CV.yaml")
        text = open(prof, encoding="utf-8").read()
        end = time.time() + 20
        again = False
        n = 0
        while time.time() < end and not again:
            n += 1
            with open(prof, "w", encoding="utf-8") as f:
                f.write(text.replace("Ann Lee", "Ann Lee%s" % ("x" * n), 1))
            t = time.time() + 2
            while time.time() < t and not again:
                again = os.path.exists(pdf) and os.stat(pdf).st_mtime_ns != before
                time.sleep(0.05)
        time.sleep(0.5)
        check("--open --watch: opened once, and rendered again after a change, not opened "
              "again", first == ["Ann_Lee_CV.pdf"] and again and
              opened(2, 0.1) == ["Ann_Lee_CV.pdf"], (first, again, opened(2, 0.1)))
    finally:
        p.terminate()
        p.wait(timeout=30)


def import_command():
    """`cvpdf import`: its own --help, --section NAME ready to paste under
    cv: sections:, a note where a field is dropped."""
    d = os.path.join(TMP, "import")
    os.makedirs(d)
    rc, out, err = cvpdf(["import", "--help"], cwd=d)
    rc2, general, _ = cvpdf(["--help"], cwd=d)
    check("import --help: its own usage, not the general one",
          rc == 0 and out.startswith("Usage: cvpdf import FILE.bib [--section NAME]") and
          "--section NAME" in out and out != general, out[:200])
    write("import/refs.bib",
          "@article{lee2021,\n  title = {On Fast Things},\n  author = {Lee, Ann and Roe, Sam},\n"
          "  journal = {J. Speed},\n  year = {2021},\n  abstract = {We go fast.},\n"
          "  isbn = {978-3-16-148410-0},\n}\n"
          "@inproceedings{roe2019,\n  title = {Slow Things},\n  author = {Roe, Sam},\n"
          "  booktitle = {Proc. Slowness},\n  year = {2019},\n}\n")
    rc, out, err = cvpdf(["import", "refs.bib", "--section", "Selected papers"], cwd=d)
    check("import --section: the section, indented as under cv: sections:",
          rc == 0 and "\n    \"Selected papers\":\n      # not imported" in out and
          "\n      - title: \"Slow Things\"\n        authors:\n          - \"Sam Roe\"\n" in out,
          out + err)
    check("import: a note names the fields left out, above their entry only",
          "      # not imported from @article{lee2021}: abstract, isbn (a publication has "
          "no field for them)\n      - title: \"On Fast Things\"" in out and
          out.count("not imported") == 1, out)
    prof = write("import/me.yaml", "cv:\n  name: Ann Lee\n  sections:\n" + out)
    rc, dump, err = cvpdf(["--dump", prof], cwd=d)
    check("import --section: pasted under cv: sections:, it renders as written",
          rc == 0 and "selected papers" in dump.lower() and "On Fast Things" in dump and
          "Slow Things" in dump, err)
    rc, out, err = cvpdf(["import", "refs.bib", "--sectoin", "x"], cwd=d)
    check("import with an unknown option: usage error naming it",
          rc == 2 and "cvpdf import: unknown option '--sectoin'" in err and
          "cvpdf import --help" in err, err)
    rc, out, err = cvpdf(["import"], cwd=d)
    check("import without a file: usage error", rc == 2 and "no .bib file given" in err, err)


def deps_weights():
    """Issue 30: `make demo` installs what building and rendering need, `make
    check` adds the tests' packages; not root, each prints the exact apt-get
    line."""
    env = dict(os.environ, CVPDF_DPKG_QUERY="false", CVPDF_DEPS_UID="1000")
    lines = {}
    for weight in ("", "check"):
        p = subprocess.run(["sh", os.path.join(ROOT, "tests", "deps.sh")] +
                           ([weight] if weight else []), capture_output=True, env=env,
                           timeout=60)
        err = p.stderr.decode()
        m = re.search(r"^  sudo apt-get install -y --no-install-recommends (.+)$", err, re.M)
        lines[weight] = m.group(1).split() if m else []
        check("deps.sh %s not root, nothing installed: exit 1 with the apt-get line" %
              (weight or "(demo)"), p.returncode == 1 and m, err)
    light, full = set(lines[""]), set(lines["check"])
    test_only = {"default-jdk-headless", "default-jre-headless", "libpdfbox2-java",
                 "mupdf-tools", "qpdf", "python3-pdfminer", "poppler-utils",
                 "python3-jsonschema"}
    check("make demo's packages: building and rendering, none of the test tools",
          {"gcc", "libhpdf-dev", "libpoppler-glib-dev", "fonts-lato"} <= light and
          not light & test_only, sorted(light & test_only))
    check("make check's packages: make demo's and the test tools",
          light < full and test_only <= full, sorted(test_only - full))
    rc, out, err = run(["apt-cache", "show", "--no-all-versions"] + sorted(full))
    named = set(re.findall(r"^Package: (\S+)$", out, re.M))
    check("every package deps.sh names is one Debian knows", rc == 0 and full <= named,
          sorted(full - named) or err[-300:])
    rc, demo, _ = run(["make", "-n", "--no-print-directory", "demo"])
    rc2, chk, _ = run(["make", "-n", "--no-print-directory", "check", "T=cli"])
    check("make demo runs deps.sh light, make check deps.sh check",
          "sh tests/deps.sh\n" in demo and "sh tests/deps.sh check\n" in chk, demo + chk)


# ---- Layouts by name -----------------------------------------------------------

def layouts_by_name():
    prof = os.path.join(ROOT, "profiles", "he.yaml")
    for name in LAYOUTS:
        rc, a, err = cvpdf(["--dump", prof, "-l", name])
        rc2, b, _ = cvpdf(["--dump", prof, "-l", os.path.join(ROOT, "layouts", name + ".yaml")])
        check("-l %s is layouts/%s.yaml" % (name, name), rc == 0 and rc2 == 0 and a == b, err)
    rc, out, err = cvpdf(["--dump", prof, "-l", "sidebr"])
    check("-l sidebr: exit 1, naming the shipped layouts and the closest",
          rc == 1 and "there is no layout named 'sidebr' (did you mean 'sidebar'?)" in err and
          "cvpdf ships " + ", ".join(LAYOUTS[:-1]) + " and " + LAYOUTS[-1] in err and
          err.count("error:") == 1, err)

    # extends: NAME from a folder of the user's own.
    own = write("mine/cv-layout.yaml", "extends: sidebar\n")
    rc, a, err = cvpdf(["--dump", prof, "-l", own])
    rc2, b, _ = cvpdf(["--dump", prof, "-l", "sidebar"])
    check("extends: sidebar in a folder of one's own finds the shipped layout",
          rc == 0 and a == b, err)
    # The user's own sidebar.yaml extending sidebar: the shipped one, not itself.
    own = write("mine/sidebar.yaml", "extends: sidebar\nfont: {size: 9pt}\n")
    rc, a, err = cvpdf(["--dump", prof, "-l", own])
    check("a file sidebar.yaml that extends: sidebar extends the shipped one",
          rc == 0 and "region side" in a, err)
    # A sibling of that name still wins over the shipped one.
    write("sib/compact.yaml", "extends: onecolumn\npage: {size: letter}\n")
    lay = write("sib/mine.yaml", "extends: compact\n")
    rc, a, err = cvpdf(["--dump", prof, "-l", lay])
    check("extends: compact finds compact.yaml beside the layout first",
          rc == 0 and a.startswith("page 1 612.00x792.00"), a[:40] + err)
    lay = write("mine/bad.yaml", "extends: sidebr\n")
    rc, a, err = cvpdf(["--dump", prof, "-l", lay])
    check("extends: an unknown name: an error at the extends line with the names there are",
          rc == 1 and re.search(r"bad\.yaml:1:10: error: cannot open '.*sidebr\.yaml'; there "
                                r"is no layout named 'sidebr' \(did you mean 'sidebar'\?\)", err),
          err)
    # A file by exactly the name in the current directory is a path.
    shutil.copy(os.path.join(ROOT, "layouts", "compact.yaml"), os.path.join(TMP, "sidebar"))
    with open(os.path.join(TMP, "sidebar"), "a") as f:
        f.write("\n# ok\n")
    rc, a, err = cvpdf(["--dump", prof, "-l", "sidebar"], cwd=TMP)
    check("-l NAME: a file of exactly that name in the current directory wins",
          rc == 0 and "region side" not in a, err)
    os.unlink(os.path.join(TMP, "sidebar"))


def list_and_datadir():
    rc, out, err = cvpdf(["--list-layouts"])
    lines = out.splitlines()
    names = [l.split()[0] for l in lines if l.strip()]
    check("--list-layouts: every shipped layout, once, sorted", rc == 0 and names == LAYOUTS,
          out + err)
    check("--list-layouts: each with a one-line description ending in a full stop",
          all(len(l.split(None, 1)) == 2 and l.rstrip().endswith((".", ")")) for l in lines),
          out)
    rc, out, err = cvpdf(["--datadir"])
    check("--datadir: the build tree's data", rc == 0 and
          os.path.realpath(out.strip()) == os.path.realpath(ROOT), out + err)

    # A lone copied binary: say how to point it at its data.
    lone = os.path.join(TMP, "lone")
    os.makedirs(lone)
    shutil.copy(BIN, lone)
    exe = os.path.join(lone, os.path.basename(BIN))
    prof = os.path.join(ROOT, "profiles", "he.yaml")
    env = {k: v for k, v in os.environ.items() if k != "CVPDF_DATADIR"}
    # As if nothing were installed (an install's data is hidden).
    p = subprocess.run(testlib.uninstalled([exe, "--dump", prof], exe), capture_output=True,
                       env=env, cwd=lone)
    err = p.stderr.decode()
    check("lone binary: exit 1, saying to set CVPDF_DATADIR",
          p.returncode == 1 and "set CVPDF_DATADIR" in err and
          err.count("error:") == 1, err)
    p = subprocess.run(testlib.uninstalled([exe, "--datadir"], exe), capture_output=True,
                       env=env, cwd=lone)
    check("lone binary: --datadir prints the compiled-in one and exits 1 with the hint",
          p.returncode == 1 and b"CVPDF_DATADIR" in p.stderr, p.stderr)
    env["CVPDF_DATADIR"] = ROOT
    p = subprocess.run([exe, "--dump", prof, "-l", "compact"], capture_output=True, env=env,
                       cwd=lone)
    check("lone binary with CVPDF_DATADIR: renders, layouts by name too",
          p.returncode == 0 and p.stdout.startswith(b"page 1"), p.stderr)


# ---- JSON Schemas ------------------------------------------------------------

def schema_files():
    for which in ("profile", "layout"):
        rc, out, err = run([BIN, "--schema", which])
        with open(os.path.join(ROOT, "schema", which + ".json"), encoding="utf-8") as f:
            committed = f.read()
        check("schema/%s.json is what cvpdf --schema %s prints (make schema)" % (which, which),
              rc == 0 and out == committed, err)
        try:
            jsonschema.Draft202012Validator.check_schema(json.loads(out))
            ok, why = True, ""
        except Exception as e:
            ok, why = False, str(e)[:300]
        check("the %s schema is a valid draft 2020-12 schema" % which, ok, why)
        found = []

        def walk(n, path):
            if isinstance(n, dict):
                if "pattern" in n:
                    found.append((path, n.get("patternErrorMessage", "")))
                for k, v in n.items():
                    walk(v, path + "/" + k)
            elif isinstance(n, list):
                for i, v in enumerate(n):
                    walk(v, "%s/%d" % (path, i))
        walk(json.loads(out) if rc == 0 else {}, "")
        raw = [p for p, msg in found if not msg or re.search(r"[\^$\\]|\[[^\]]*-", msg)]
        check("every pattern of the %s schema says its mistake in words "
              "(patternErrorMessage), not as the regular expression" % which,
              len(found) > 3 and not raw, raw[:5])
    prof = schema("profile")
    bare = ["cv." + k for k, v in prof["$defs"]["cv"]["properties"].items()
            if "description" not in v]
    bare += ["%s.%s" % (d, k) for d, node in prof["$defs"].items() if d.endswith("_entry")
             for k, v in node.get("properties", {}).items() if "description" not in v]
    texts = {v.get("description") for d, node in prof["$defs"].items() if d.endswith("_entry")
             for v in node.get("properties", {}).values()}
    check("every key of cv: and of each entry type has its own description for an editor's "
          "hover", not bare and len(texts) > 15, bare)
    rc, out, err = run([BIN, "--schema", "nope"])
    check("--schema nope: usage error", rc == 2 and "'profile' or 'layout'" in err, err)


def shipped_validate():
    for which, d in (("profile", "profiles"), ("layout", "layouts")):
        v = jsonschema.Draft202012Validator(schema(which))
        for f in sorted(os.listdir(os.path.join(ROOT, d))):
            if f.endswith(".yaml"):
                errs = ["%s: %s" % (list(e.absolute_path), e.message[:120])
                        for e in v.iter_errors(load_yaml(os.path.join(ROOT, d, f)))]
                check("%s/%s validates against the %s schema" % (d, f, which), not errs,
                      errs[:3])


# (A cv without a name, no cv at all, an empty section and an entry with
# another type's key are valid RenderCV, and cvpdf accepts them: issue 14,
# tests/rendercv.py and tests/rcv_accept.py.)
BAD_PROFILES = {
    "unknown top key": "cv: {name: A}\ncolour: x\n",
    "misspelt cv key": "cv: {name: A, emial: a@b.co}\n",
    "misspelt .bib section option": "cv: {name: A, sections: {P: {bib: a.bib, sortt: x}}}\n",
    "website not a URL": "cv: {name: A, website: example.com}\n",
    "sections a list": "cv: {name: A, sections: [x]}\n",
    "mixed entry types": "cv: {name: A, sections: {s: [{label: a, details: b}, {bullet: c}]}}\n",
    "experience without position": "cv: {name: A, sections: {s: [{company: a}]}}\n",
    "social without username": "cv: {name: A, social_networks: [{network: GitHub}]}\n",
    "month names not 12": "cv: {name: A}\nlocale: {month_names: [a, b]}\n",
    "highlights a mapping": "cv: {name: A, sections: {s: [{name: a, highlights: {x: y}}]}}\n",
    "start_date in words": "cv: {name: A, sections: {s: [{company: a, position: b, "
                           "start_date: March 2021}]}}\n",
    "end_date with a one-digit month": "cv: {name: A, sections: {s: [{company: a, position: b, "
                                       "start_date: 2021-03, end_date: 2022-7}]}}\n",
    "end_date Present": "cv: {name: A, sections: {s: [{company: a, position: b, "
                        "start_date: 2021-03, end_date: Present}]}}\n",
    "start_date present": "cv: {name: A, sections: {s: [{company: a, position: b, "
                          "start_date: present}]}}\n",
    "current_date a month": "cv: {name: A}\nsettings: {current_date: '2024-05'}\n",
    "current_date in words": "cv: {name: A}\nsettings: {current_date: March 2024}\n",
    "bib sort a bad word": "cv: {name: A, sections: {P: {bib: a.bib, sort: newer}}}\n",
}

BAD_LAYOUTS = {
    "unknown top key": "colours: {text: '#000'}\n",
    "misspelt key": "font: {szie: 10pt}\n",
    "unquoted colour": "colors:\n  text: #ff0000\n",
    "bad colour": "colors: {text: 'redd'}\n",
    "length without unit": "font: {size: 10px}\n",
    "type size too big": "font: {size: 200}\n",
    "bad choice": "header: {align: middle}\n",
    "bad page size": "page: {size: a3}\n",
    "three page sides": "page: {size: [100mm, 200mm, 3mm]}\n",
    "bad margin key": "page: {margins: {top: 1cm, inner: 2cm}}\n",
    "unknown template": "templates: {job: {main: [x]}}\n",
    "five template lines": "templates: {normal: {main: [a, b, c, d, e]}}\n",
    "fraction above 1": "fit: {font_floor: 1.5}\n",
    "count not whole": "pagination: {orphans: 1.5}\n",
    "bool as word": "text: {justify: maybe}\n",
}


def bad_examples():
    """Each bad example fails the schema, and cvpdf refuses it too."""
    for which, cases in (("profile", BAD_PROFILES), ("layout", BAD_LAYOUTS)):
        v = jsonschema.Draft202012Validator(schema(which))
        for name, text in cases.items():
            path = write("bad/%s-%s.yaml" % (which, name.replace(" ", "-")), text)
            errs = list(v.iter_errors(yaml.load(text, Loader=Loader)))
            if which == "profile":
                rc, _, err = cvpdf(["--dump", path])
            else:
                rc, _, err = cvpdf(["--dump", os.path.join(ROOT, "profiles", "he.yaml"),
                                    "-l", path])
            check("bad %s (%s): the schema says no, and so does cvpdf" % (which, name),
                  errs and rc == 1 and "error:" in err,
                  "schema: %d errors; cvpdf %d %s" % (len(errs), rc, err.strip()[:200]))


def objects(node, path, defs):
    """Each closed mapping of a schema, as (path, its properties)."""
    if "$ref" in node:
        node = defs[node["$ref"].split("/")[-1]]
    out = []
    for b in node.get("anyOf", []) + node.get("allOf", []):
        out += objects(b, path, defs)
    if "items" in node and isinstance(node["items"], dict):
        out += objects(node["items"], path + ["[]"], defs)
    if node.get("additionalProperties") is False and "properties" in node:
        out.append((path, node["properties"]))
        for k, v in node["properties"].items():
            out += objects(v, path + [k], defs)
    return out


def expected_keys(err):
    """The key list of cvpdf's "unknown key ... (expected one of: ...)"."""
    m = re.search(r"unknown key 'zqxjkvwz' in .*? \(expected one of: (.*)\)\n", err)
    if not m or m.group(1).endswith("..."):
        return None
    return set(m.group(1).split(", "))


def nest(path, leaf):
    """A YAML value with `leaf` at `path` (keys, or "[]" for a list item)."""
    for k in reversed(path):
        leaf = [leaf] if k == "[]" else {k: leaf}
    return leaf


def layout_keys_match():
    s = schema("layout")
    prof = os.path.join(ROOT, "profiles", "he.yaml")
    objs = objects(s, [], s.get("$defs", {}))
    check("layout schema: its mappings are found", len(objs) > 20, len(objs))
    for path, props in objs:
        doc = nest(path, {"zqxjkvwz": 1})
        lay = write("keys/layout-%s.yaml" % "-".join(path or ["root"]), yaml.safe_dump(doc))
        rc, _, err = cvpdf(["--dump", prof, "-l", lay])
        got = expected_keys(err)
        check("layout %s: the loader accepts exactly the schema's keys" % (".".join(path) or
                                                                            "(top)"),
              rc == 1 and got == set(props),
              "loader %s, schema %s: %s" % (sorted(got or []), sorted(props), err[:300]))


def example(node, defs):
    """A value the schema allows, from its examples, enum or type."""
    if "$ref" in node:
        return example(defs[node["$ref"].split("/")[-1]], defs)
    if "examples" in node:
        return node["examples"][0]
    if "enum" in node:
        return node["enum"][0]
    if "anyOf" in node:
        return example(node["anyOf"][0], defs)
    t = node.get("type")
    t = t[0] if isinstance(t, list) else t
    if t == "object":
        return {k: example(v, defs) for k, v in node.get("properties", {}).items()}
    if t == "array":
        return [example(node.get("items", {}), defs)] * node.get("minItems", 1)
    return {"string": "x", "number": 1, "integer": 1, "boolean": True, "null": None}.get(t, "x")


def every_key_accepted():
    s = schema("layout")
    defs = s.get("$defs", {})
    lay = example(s, defs)
    # The mappings that may also be one value: their mapping form.
    lay["page"]["margins"] = example(s["properties"]["page"]["properties"]["margins"]["anyOf"][1],
                                     defs)
    lay["columns"]["sidebar"] = example(
        s["properties"]["columns"]["properties"]["sidebar"]["anyOf"][1], defs)
    # A date column 10pt wide would stack every word of every date.
    lay["entry"]["side_width"] = "4cm"
    # So would a degree column 10pt wide, for every line of the templates.
    lay["entry"]["degree_width"] = "0"
    path = write("keys/every-layout-key.yaml", yaml.safe_dump(lay, allow_unicode=True))
    errs = list(jsonschema.Draft202012Validator(s).iter_errors(lay))
    rc, _, err = cvpdf(["--dump", os.path.join(ROOT, "profiles", "he.yaml"), "-l", path])
    check("a layout with every key of the schema validates and loads", not errs and rc == 0,
          "%s %s" % ([e.message for e in errs[:2]], err[:400]))

    s = schema("profile")
    defs = s["$defs"]
    shutil.copy(os.path.join(ROOT, "tests", "data", "photo.png"), os.path.join(TMP, "keys"))
    cv = example(defs["cv"], defs)
    cv.update(custom_connections=[{"placeholder": "x", "url": "https://example.com",
                                   "fontawesome_icon": "x"}])
    cv.update(email="a@example.com", website="https://example.com", photo="photo.png",
              social_networks=[{"network": "GitHub", "username": "ab",
                                "url": "https://example.com/ab", "fontawesome_icon": "x"}])
    kinds = [k for k in defs if k.endswith("_entry")]
    cv["sections"] = {}
    for k in kinds:
        entry = example(defs[k], defs)
        if isinstance(entry, dict):
            entry = {f: v for f, v in entry.items()}
            for f in ("date", "start_date", "end_date"):
                if f in entry:
                    entry[f] = "2020"
            if "doi" in entry:
                entry["doi"] = "10.1234/x"
            if "url" in entry:
                entry["url"] = "https://example.com"
        cv["sections"][k] = [entry]
    locale = {k: example(v, defs) for k, v in
              defs["locale"]["anyOf"][1]["properties"].items()}
    locale.update(language="en", date_template="MONTH_ABBREVIATION YEAR")
    settings = {k: example(v, defs) for k, v in
                defs["settings"]["anyOf"][1]["properties"].items()}
    settings.update(current_date="2024-01-01", page_break_before=["x"], keep_together=["x"])
    settings.update(render_command={"pdf_path": "x.pdf"})
    doc = {"cv": cv, "locale": locale, "settings": settings, "design": {"theme": "classic"},
           "rendercv_settings": {"bold_keywords": ["x"]}}
    check("the profile example has a section of every entry type",
          len(kinds) == 9 and set(doc) == set(s["properties"]), kinds)
    path = write("keys/every-profile-key.yaml", yaml.safe_dump(doc, allow_unicode=True))
    errs = list(jsonschema.Draft202012Validator(s).iter_errors(doc))
    rc, _, err = cvpdf(["--dump", path], cwd=os.path.join(TMP, "keys"))
    check("a profile with every key of the schema validates and loads",
          not errs and rc == 0 and "error" not in err,
          "%s %s" % ([e.message for e in errs[:2]], err[-900:]))


def profile_keys_match():
    s = schema("profile")
    defs = s["$defs"]
    # Each mapping, with the bogus key and what it needs around it.
    cases = [("(top)", {"cv": {"name": "A"}, "zqxjkvwz": 1}, s["properties"]),
             ("cv", {"cv": {"name": "A", "zqxjkvwz": 1}}, defs["cv"]["properties"]),
             ("settings", {"cv": {"name": "A"}, "settings": {"zqxjkvwz": 1}},
              defs["settings"]["anyOf"][1]["properties"]),
             ("locale", {"cv": {"name": "A"}, "locale": {"zqxjkvwz": 1}},
              defs["locale"]["anyOf"][1]["properties"]),
             ("social network", {"cv": {"name": "A", "social_networks": [
                 {"network": "GitHub", "username": "a", "zqxjkvwz": 1}]}},
              defs["social_network"]["properties"])]
    for k, d in defs.items():
        if k.endswith("_entry") and d.get("type") == "object":
            entry = {f: (["x"] if f == "authors" else "x") for f in d["required"]}
            entry["zqxjkvwz"] = 1
            cases.append((d["title"], {"cv": {"name": "A", "sections": {"s": [entry]}}},
                          d["properties"]))
    check("profile schema: every entry type has a mapping", len(cases) == 5 + 8, len(cases))
    for name, doc, props in cases:
        path = write("keys/profile-%s.yaml" % name.replace(" ", "-"), yaml.safe_dump(doc))
        rc, _, err = cvpdf(["--dump", path])
        got = expected_keys(err)
        if name.endswith("entry"):
            # An entry keeps any other key for templates, as RenderCV does
            # (issue 14), and its schema says so.
            d = defs[name.replace(" ", "_")]
            check("profile %s: the loader keeps an extra key, as the schema allows" % name,
                  rc == 0 and d.get("additionalProperties") is True, err[:300])
            continue
        check("profile %s: the loader accepts exactly the schema's keys" % name,
              rc == 1 and got == set(props),
              "loader %s, schema %s: %s" % (sorted(got or []), sorted(props), err[:300]))


# ---- Messages ----------------------------------------------------------------

def messages():
    prof = os.path.join(ROOT, "profiles", "he.yaml")
    lay = write("msg/colour.yaml", "colors:\n  text: #f00\n")
    rc, _, err = cvpdf(["--dump", prof, "-l", lay])
    check("unquoted #f00: the message says to quote it",
          rc == 1 and re.search(r"colour\.yaml:2:\d+: error: the colour is empty: put it in "
                                r"quotes \(\"#1f3a5f\"\), as an unquoted # starts a YAML "
                                r"comment", err), err)

    p = write("msg/mixed.yaml", "cv:\n  name: A\n  sections:\n    s:\n"
              "      - label: a\n        details: b\n      - bullet: c\n")
    rc, _, err = cvpdf(["--dump", p])
    check("a section of one-line entries: a bullet there is told the section's type and "
          "what it needs",
          rc == 1 and "has the keys of a bullet entry, but section 's' is of one-line entries"
          in err and "need 'label' and 'details'" in err and "an one" not in err, err)

    p = write("msg/social.yaml", "cv:\n  name: A\n  social_networks:\n"
              "    - network: GitHub\n      username: https://github.com/ab\n"
              "    - network: Twitter\n      username: \"@ab\"\n")
    rc, out, err = cvpdf(["--dump", p])
    links = re.findall(r"^link .* (\S+)$", out, re.M)
    check("a GitHub URL as the username: the username, with a note",
          rc == 0 and "https://github.com/ab" in links and
          re.search(r"social\.yaml:5:17: note: GitHub username given as a URL: cvpdf uses "
                    r"'ab'", err), "%s %s" % (links, err))
    check("a Twitter @ab links to x.com/ab", "https://x.com/ab" in links, links)
    check("the header shows ab, not the URL",
          "GitHub: ab" in out and "https://github.com/https" not in out, out[:600])

    thai = "สวัสดีครับ"
    p = write("msg/thai.yaml", "cv:\n  name: A\n  sections:\n    s:\n"
              "      - \"Hello %s and %s again, then ภาษาไทย.\"\n" % (thai, thai))
    rc, _, err = cvpdf(["--dump", p])
    warns = [l for l in err.splitlines() if "warning" in l]
    check("Thai words: one warning per word, with the hint to add a fallback font",
          rc == 0 and len(warns) == 2 and
          "no font has the characters of '%s' (U+0E2A...): add a font that has them to "
          "font.fallback in the layout" % thai in warns[0] and "ภาษาไทย" in warns[1], err)
    rc, _, err = cvpdf(["--dump", "--strict", p])
    check("Thai words under --strict: an error", rc == 1 and "error: no font has" in err, err)

    p = write("msg/doi.yaml", "cv:\n  name: A\n  sections:\n    p:\n"
              "      - title: T\n        authors: [A]\n        doi: 10.1/x\n"
              "        url: https://example.com/t\n"
              "      - title: U\n        authors: [A]\n        doi: 10.1/y\n"
              "        url: https://example.com/u\n")
    rc, out, err = cvpdf(["--dump", p])
    check("a publication's url beside a doi: one note saying the DOI is the link",
          rc == 0 and err.count("note:") == 1 and
          "doi.yaml:8:14: note: a publication with a 'doi' links to the DOI; its 'url' is not "
          "shown" in err and "example.com/t" not in out, err)

    # A layout extending one beside it, as users write it: the message names
    # the base as they would, not '././base.yaml'.
    d = os.path.dirname(write("msg/ext/base.yaml", "colors:\n  name: red\n"))
    write("msg/ext/my.yaml", "extends: ./base.yaml\n")
    write("msg/ext/sub/l.yaml", "extends: ../base\n")
    for lay, shown in (("my.yaml", "base.yaml"), ("./my.yaml", "base.yaml"),
                       ("sub/l.yaml", "sub/../base.yaml")):
        rc, _, err = cvpdf(["--dump", prof, "-l", lay], cwd=d)
        check("-l %s extending %s: the error at %s:2:3" % (lay, "base", shown),
              rc == 1 and err.startswith(shown + ":2:3: error: unknown key 'name'"), err)


# ---- Man pages, completion, install ---------------------------------------------

def man_pages():
    pages = ["man/cvpdf.1", "man/cvpdf-profile.5", "man/cvpdf-layout.5"]
    text = {}
    for p in pages:
        rc, out, err = run(["groff", "-man", "-ww", "-z", os.path.join(ROOT, p)])
        check("%s: groff -man -ww finds nothing to warn about" % p, rc == 0 and not err, err)
        rc, out, err = run(["groff", "-man", "-Tutf8", os.path.join(ROOT, p)])
        text[p] = re.sub(".\b", "", out)
    rc, helptext, _ = run([BIN, "--help"])
    opts = sorted(set(re.findall(r"--[a-z][a-z-]+", helptext)))
    missing = [o for o in opts if o not in text["man/cvpdf.1"].replace("‐", "-")]
    check("cvpdf(1) describes every option of --help", len(opts) > 15 and not missing, missing)
    words = set(re.findall(r"[a-z_]+", text["man/cvpdf-layout.5"].replace("‐", "-")))
    lay = schema("layout")
    keys = {k for _, props in objects(lay, [], {}) for k in props}
    check("cvpdf-layout(5) names every layout key", not keys - words, sorted(keys - words))
    prof = schema("profile")
    keys = {k for _, props in objects(prof, [], prof["$defs"]) for k in props}
    for d in prof["$defs"].values():
        keys |= set(d.get("properties", {}))
        for b in d.get("anyOf", []):
            keys |= set(b.get("properties", {}))
    words = set(re.findall(r"[a-z_]+", text["man/cvpdf-profile.5"].replace("‐", "-")))
    check("cvpdf-profile(5) names every profile key", not keys - words, sorted(keys - words))


def comp_dir():
    """A directory with a .bib, a YAML and a JSON file, and a subdirectory."""
    d = os.path.join(TMP, "comp")
    if not os.path.isdir(d):
        os.makedirs(os.path.join(d, "sub"))
        for f in ("refs.bib", "rx.yaml", "resume.json"):
            open(os.path.join(d, f), "w").close()
    return d


def completion():
    rc, helptext, _ = run([BIN, "--help"])
    opts = sorted(set(re.findall(r"--[a-z][a-z-]+", helptext)))
    for f in ("completion/cvpdf.bash", "completion/_cvpdf"):
        body = open(os.path.join(ROOT, f)).read()
        missing = [o for o in opts if o not in body]
        check("%s completes every option of --help" % f, not missing, missing)
    bindir = os.path.join(TMP, "bin")
    os.makedirs(bindir, exist_ok=True)
    link = os.path.join(bindir, "cvpdf")
    if not os.path.exists(link):
        os.symlink(BIN, link)
    script = ('source "%s/completion/cvpdf.bash"\n'
              'COMP_WORDS=(cvpdf -l ""); COMP_CWORD=2; _cvpdf; echo "A ${COMPREPLY[*]}"\n'
              'COMP_WORDS=(cvpdf --sch); COMP_CWORD=1; _cvpdf; echo "B ${COMPREPLY[*]}"\n'
              'COMP_WORDS=(cvpdf new Ab --layout s); COMP_CWORD=4; _cvpdf; '
              'echo "C ${COMPREPLY[*]}"\n'
              'cd "%s/profiles"; COMP_WORDS=(cvpdf fa); COMP_CWORD=1; _cvpdf; '
              'echo "D ${COMPREPLY[*]}"\n'
              'cd "%s"; COMP_WORDS=(cvpdf im); COMP_CWORD=1; _cvpdf; echo "E ${COMPREPLY[*]}"\n'
              'COMP_WORDS=(cvpdf import ""); COMP_CWORD=2; _cvpdf; echo "F ${COMPREPLY[*]}"\n'
              'COMP_WORDS=(cvpdf import r.bib --s); COMP_CWORD=3; _cvpdf; '
              'echo "G ${COMPREPLY[*]}"\n'
              'COMP_WORDS=(cvpdf --se); COMP_CWORD=1; _cvpdf; echo "H ${COMPREPLY[*]}"\n'
              'COMP_WORDS=(cvpdf me.yaml --set la); COMP_CWORD=3; _cvpdf; '
              'echo "I ${COMPREPLY[*]}"\n'
              'COMP_WORDS=(cvpdf r); COMP_CWORD=1; _cvpdf; echo "J ${COMPREPLY[*]}"\n'
              % (ROOT, ROOT, comp_dir()))
    env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"])
    p = subprocess.run(["bash", "-c", script], capture_output=True, env=env, timeout=60)
    got = dict(l.split(" ", 1) for l in p.stdout.decode().splitlines() if " " in l)
    check("bash: -l completes the shipped layouts' names",
          set(LAYOUTS) <= set(got.get("A", "").split()), got)
    check("bash: --sch completes to --schema", got.get("B", "").split() == ["--schema"], got)
    check("bash: new --layout s completes sb2nov and sidebar",
          got.get("C", "").split() == ["sb2nov", "sidebar"], got)
    check("bash: profiles complete as YAML files",
          sorted(got.get("D", "").split()) == ["fang-zh.yaml", "fang.yaml"], got)
    check("bash: im completes to the command import", got.get("E", "").split() == ["import"],
          got)
    check("bash: import completes .bib files (and directories), not YAML or JSON",
          sorted(got.get("F", "").split()) == ["refs.bib", "sub/"], got)
    check("bash: import r.bib --s completes --section", got.get("G", "").split() == ["--section"],
          got)
    check("bash: --se completes --set", got.get("H", "").split() == ["--set"], got)
    check("bash: --set la completes the first key layout.", got.get("I", "").split() ==
          ["layout."], got)
    check("bash: profiles complete as YAML and JSON files, not .bib",
          sorted(got.get("J", "").split()) == ["resume.json", "rx.yaml"], got)
    rc, _, err = run(["zsh", "-n", os.path.join(ROOT, "completion/_cvpdf")])
    check("zsh: the completion function parses", rc == 0, err)


def comp_bin():
    """A directory holding `cvpdf`, a link to the binary, for PATH."""
    bindir = os.path.join(TMP, "bin")
    os.makedirs(bindir, exist_ok=True)
    link = os.path.join(bindir, "cvpdf")
    if not os.path.exists(link):
        os.symlink(BIN, link)
    return bindir


# What <TAB> offers after each command line, in bash and in zsh, in
# comp_dir(): (line, what must be offered, what must not).
TAB_CASES = [
    ("cvpdf -l ", set(LAYOUTS) | {"rx.yaml"}, {"refs.bib", "resume.json"}),
    ("cvpdf --layout=sb", {"sb2nov"}, {"sidebar", "ink"}),
    ("cvpdf import ", {"refs.bib"}, {"rx.yaml", "resume.json"}),
    ("cvpdf import refs.bib --s", {"--section"}, {"--set"}),
    ("cvpdf import refs.bib --section ", {"publications"}, {"refs.bib"}),
    ("cvpdf ", {"new", "import", "migrate", "rx.yaml", "resume.json"}, {"refs.bib"}),
    ("cvpdf r", {"rx.yaml", "resume.json"}, {"refs.bib"}),
    ("cvpdf --sch", {"--schema"}, set()),
    ("cvpdf --schema ", {"profile", "layout"}, set()),
    ("cvpdf --dump=", {"glyphs"}, {"rx.yaml"}),
    ("cvpdf --set la", {"layout."}, set()),
    ("cvpdf new Ab --layout s", {"sb2nov", "sidebar"}, {"rx.yaml"}),
    ("cvpdf migrate ", {"rx.yaml", "resume.json"}, {"refs.bib"}),
]


def check_tab_cases(shell, got):
    for line, want, unwanted in TAB_CASES:
        offered = got.get(line)
        check("%s: %r<TAB> offers %s" % (shell, line, ", ".join(sorted(want))),
              offered is not None and want <= offered and not offered & unwanted,
              sorted(offered) if offered is not None else "no answer")


def bash_completion_real():
    """The bash completion as bash-completion (Debian's package) runs it:
    _init_completion splits --option=value and the command line is read
    from COMP_LINE and COMP_POINT."""
    lib = "/usr/share/bash-completion/bash_completion"
    check("bash-completion is installed (tests/deps.sh check)", os.path.exists(lib), lib)
    if not os.path.exists(lib):
        return
    script = ['source %s' % lib, 'source "%s/completion/cvpdf.bash"' % ROOT,
              'complete -p cvpdf || echo "NOT REGISTERED"',
              # As readline splits a line: at spaces, and around "=".
              't() { COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; local l=${1//=/ = }; '
              'read -ra COMP_WORDS <<< "$l"; [[ $1 == *[\\ =] ]] && COMP_WORDS+=(""); '
              'COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); '
              '_cvpdf cvpdf "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; '
              'printf "%s|" "$1"; printf "%s " "${COMPREPLY[@]}"; echo; }']
    for line, _, _ in TAB_CASES:
        script.append("t %s" % shlex.quote(line))
    env = dict(os.environ, PATH=comp_bin() + ":" + os.environ["PATH"])
    p = subprocess.run(["bash", "-c", "\n".join(script)], capture_output=True, env=env,
                       cwd=comp_dir(), timeout=60)
    out = p.stdout.decode()
    check("bash-completion: complete -p cvpdf names _cvpdf",
          re.search(r"^complete .*-F _cvpdf cvpdf$", out, re.M) and "NOT REGISTERED" not in out,
          out[:300])
    got = {}
    for l in out.splitlines():
        if "|" in l:
            line, words = l.split("|", 1)
            got[line] = {w.rstrip("/") for w in words.split()}
    check_tab_cases("bash-completion", got)


def zsh_completion():
    """The zsh completion in a real interactive zsh on a terminal (a pty),
    with compinit: each line of TAB_CASES is typed and <TAB> pressed; a
    wrapper of compadd writes every match the completion system adds to a
    file, which is read when the widget is done."""
    import pty
    import select
    import time
    zsh = shutil.which("zsh")
    check("zsh is installed (tests/deps.sh check)", zsh, zsh)
    if not zsh:
        return
    home = os.path.join(TMP, "zhome")
    os.makedirs(home, exist_ok=True)
    cap = os.path.join(home, "matches")
    with open(os.path.join(home, ".zshrc"), "w") as f:
        f.write(r"""
fpath=(%s/completion $fpath)
autoload -Uz compinit && compinit -u -d %s/zcompdump
# Every match added, to $CAPTURE (as zsh's own tests and zsh-capture-completion do).
compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
    builtin compadd "$@"; return $?
  fi
  local -a __hits; local h
  builtin compadd -A __hits "$@"
  for h in $__hits; do print -r -- "M $h" >> $CAPTURE; done
  builtin compadd "$@"
}
_capture() { : >| $CAPTURE; zle complete-word; print -r -- END >> $CAPTURE; }
zle -N _capture
bindkey '^I' _capture
PS1='%%%% '
print READY
""" % (ROOT, home))
    env = dict(os.environ, PATH=comp_bin() + ":" + os.environ["PATH"], ZDOTDIR=home,
               HOME=home, CAPTURE=cap, TERM="dumb")
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.chdir(comp_dir())
            os.execvpe(zsh, [zsh, "-i"], env)
        finally:
            os._exit(127)

    def read(until, t):
        buf, end = b"", time.time() + t
        while time.time() < end and not until(buf):
            r, _, _ = select.select([fd], [], [], 0.1)
            if r:
                try:
                    buf += os.read(fd, 4096)
                except OSError:
                    break
        return buf

    got = {}
    try:
        ready = read(lambda b: b"READY" in b, 30)
        check("zsh: an interactive zsh starts with compinit and the completion",
              b"READY" in ready, ready[-300:])
        for line, _, _ in TAB_CASES:
            if os.path.exists(cap):
                os.remove(cap)
            os.write(fd, line.encode() + b"\t")
            end = time.time() + 30
            while time.time() < end:
                read(lambda b: False, 0.1)
                if os.path.exists(cap) and open(cap).read().endswith("END\n"):
                    got[line] = {l[2:].rstrip("/") for l in open(cap).read().splitlines()
                                 if l.startswith("M ")}
                    break
            os.write(fd, b"\x15")          # ^U: the line is cleared
            read(lambda b: False, 0.2)
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)
    check_tab_cases("zsh", got)


def lazy_libraries():
    """poppler-glib and libphonenumber, lcms2, ICU's i18n library, json-c,
    libjpeg and libwoff2's encoder are opened when first needed, not linked:
    linked, they cost every run milliseconds (docs/performance.md); libqpdf is
    no longer used."""
    rc, out, err = run(["readelf", "-d", os.path.join(ROOT, "cvpdf")])
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)
    heavy = [n for n in needed if re.match(r"lib(poppler|cairo|phonenumber|protobuf|gobject"
                                           r"|qpdf|lcms2|icui18n|icuuc|stdc\+\+|json-c|jpeg"
                                           r"|woff2enc|brotlienc)", n)]
    check("cvpdf links neither poppler, cairo, libphonenumber, lcms2, ICU (its common or i18n "
          "library), the C++ runtime, json-c, libjpeg, libwoff2enc nor libqpdf (opened when "
          "needed, or not used)",
          rc == 0 and "libharfbuzz.so.0" in " ".join(needed) and not heavy,
          "%s %s" % (heavy, err))


def install():
    dest = os.path.join(TMP, "destdir")
    prefix = "/opt/cvpdf-test"
    make = ["make", "--no-print-directory", "-s", "DESTDIR=" + dest, "PREFIX=" + prefix]
    rc, out, err = run(make + ["install"])
    root = dest + prefix
    want = ["bin/cvpdf", "share/cvpdf/layouts/sidebar.yaml", "share/cvpdf/schema/profile.json",
            "share/cvpdf/schema/layout.json", "share/man/man1/cvpdf.1",
            "share/man/man5/cvpdf-profile.5", "share/man/man5/cvpdf-layout.5",
            "share/bash-completion/completions/cvpdf", "share/zsh/site-functions/_cvpdf",
            "share/cvpdf/fonts/Lato-Regular.ttf", "lib/cvpdf/cvpdf-phone.so",
            "lib/cvpdf/cvpdf-woff2.so",
            "share/doc/cvpdf/profiles.md", "share/doc/cvpdf/layouts.md",
            "share/doc/cvpdf/README.md", "share/doc/cvpdf/rendercv/classic.png"]
    missing = [w for w in want if not os.path.isfile(os.path.join(root, w))]
    check("make install DESTDIR= PREFIX=: everything under DESTDIR/PREFIX",
          rc == 0 and not missing and not os.path.exists(prefix), "%s %s" % (missing, err))
    exe = os.path.join(root, "bin", "cvpdf")
    env = {k: v for k, v in os.environ.items() if k != "CVPDF_DATADIR"}
    p = subprocess.run([exe, "--datadir"], capture_output=True, env=env)
    check("the installed binary finds its data under the moved prefix",
          p.returncode == 0 and p.stdout.decode().strip() == os.path.join(root, "share/cvpdf"),
          p.stdout + p.stderr)
    d = os.path.join(TMP, "installed")
    os.makedirs(d)
    p = subprocess.run([exe, "new", "Ada Lovelace"], capture_output=True, env=env, cwd=d)
    line = open(os.path.join(d, "Ada_Lovelace_CV.yaml")).readline() if p.returncode == 0 else ""
    # The modeline names the user's copy, which outlives a move or a
    # reinstall; without a home it can write to, the installed file.
    copy = os.path.join(os.path.realpath(testlib.XDG_DATA_HOME), "cvpdf", "schema",
                        "profile.json")
    check("the installed cvpdf new names the user's copy of the schema, the installed one's "
          "text", line.strip() == "# yaml-language-server: $schema=%s" % copy and
          open(copy, encoding="utf-8").read() ==
          open(os.path.join(root, "share/cvpdf/schema/profile.json"), encoding="utf-8").read(),
          line + p.stderr.decode())
    d2 = os.path.join(TMP, "installed-nohome")
    os.makedirs(d2)
    ro = os.path.join(d2, "ro")
    with open(ro, "w"):
        pass
    env2 = dict(env, XDG_DATA_HOME=ro)           # under a file: no copy can be written
    p2 = subprocess.run([exe, "new", "Ada Lovelace"], capture_output=True, env=env2, cwd=d2)
    line2 = open(os.path.join(d2, "Ada_Lovelace_CV.yaml")).readline() if p2.returncode == 0 \
        else ""
    check("without a home to write to, cvpdf new names the installed schema",
          line2.strip() == "# yaml-language-server: $schema=%s/share/cvpdf/schema/profile.json"
          % root, line2 + p2.stderr.decode())
    text = open(os.path.join(d, "Ada_Lovelace_CV.yaml")).read() if p.returncode == 0 else ""
    check("the installed cvpdf new points to cvpdf-profile(5) and the installed docs",
          "# Every key is in man 5 cvpdf-profile, and in\n#   %s/share/doc/cvpdf/profiles.md\n"
          % os.path.realpath(root) in text, text[:600])
    rc, out, err = run(["man", "-l", os.path.join(root, "share/man/man5/cvpdf-profile.5")])
    check("man -l shows the installed cvpdf-profile(5) the starter names",
          rc == 0 and "cvpdf" in out, err)
    p = subprocess.run([exe, "Ada_Lovelace_CV.yaml", "-l", "sidebar"], capture_output=True,
                       env=env, cwd=d)
    check("the installed binary renders the starter with -l sidebar",
          p.returncode == 0 and os.path.isfile(os.path.join(d, "Ada_Lovelace_CV.pdf")),
          p.stderr)
    # The modules opened when first needed: libphonenumber's shim from the
    # moved prefix's lib/cvpdf, poppler-glib from the system.
    with open(os.path.join(d, "phone.yaml"), "w") as f:
        f.write("cv:\n  name: Ada Lovelace\n  phone: \"+1 415 555 0132\"\n"
                "design:\n  theme: classic\n  header:\n    connections:\n"
                "      phone_number_format: international\n")
    p = subprocess.run([exe, "-q", "phone.yaml", "-o", "phone.pdf"], capture_output=True,
                       env=env, cwd=d)
    rc, out, err = run(["pdftotext", os.path.join(d, "phone.pdf"), "-"]) \
        if p.returncode == 0 else (1, "", p.stderr.decode())
    check("the installed binary formats phone numbers (lib/cvpdf/cvpdf-phone.so)",
          rc == 0 and "+1 415-555-0132" in out, out + err)
    p = subprocess.run([exe, "-q", "phone.yaml", "-o", "phone.png"], capture_output=True,
                       env=env, cwd=d)
    check("the installed binary writes PNG pages (poppler-glib, opened when needed)",
          p.returncode == 0 and open(os.path.join(d, "phone-1.png"), "rb").read(8)
          == b"\x89PNG\r\n\x1a\n", p.stderr)
    rc, out, err = run(["man", "-l", os.path.join(root, "share/man/man1/cvpdf.1")])
    check("man -l shows the installed cvpdf(1)", rc == 0 and "cvpdf new" in out, err)
    rc, out, err = run(make + ["uninstall"])
    left = [os.path.join(r, f) for r, _, fs in os.walk(dest) for f in fs]
    check("make uninstall DESTDIR= PREFIX=: removes every file it installed",
          rc == 0 and not left, left[:5])


def lsp_session(server, path, line, col, hover=None):
    """Open `path` in a YAML language server (LSP over stdio): its
    diagnostics as [(line, message)] and the completion labels at line:col
    (1-based line, 0-based column); with `hover` (line, col), the hover
    text there as a third item."""
    import queue
    import threading
    import time
    p = subprocess.Popen([server, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    q = queue.Queue()

    def reader():
        while True:
            hdr = b""
            while not hdr.endswith(b"\r\n\r\n"):
                c = p.stdout.read(1)
                if not c:
                    return
                hdr += c
            n = int(re.search(rb"Content-Length: *(\d+)", hdr, re.I).group(1))
            q.put(json.loads(p.stdout.read(n)))

    def send(msg):
        b = json.dumps(dict(msg, jsonrpc="2.0")).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
        p.stdin.flush()

    def wait(pred, t=20):
        end = time.time() + t
        while time.time() < end:
            try:
                m = q.get(timeout=0.5)
            except queue.Empty:
                continue
            if pred(m):
                return m
        return None

    threading.Thread(target=reader, daemon=True).start()
    try:
        uri = "file://" + os.path.abspath(path)
        send({"id": 1, "method": "initialize",
              "params": {"processId": None, "rootUri": None, "capabilities": {}}})
        wait(lambda m: m.get("id") == 1)
        send({"method": "initialized", "params": {}})
        send({"method": "workspace/didChangeConfiguration", "params": {"settings": {"yaml": {
            "validate": True, "completion": True, "schemaStore": {"enable": False}}}}})
        send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1,
            "text": open(path, encoding="utf-8").read()}}})
        # The last diagnostics published (the schema is read after the
        # first ones): until none comes for 3 seconds, 12 at most.
        diags = []
        end = time.time() + 12
        while time.time() < end:
            m = wait(lambda m: m.get("method") == "textDocument/publishDiagnostics", 3)
            if not m:
                break
            diags = [(d["range"]["start"]["line"] + 1, d["message"])
                     for d in m["params"]["diagnostics"]]
        send({"id": 2, "method": "textDocument/completion", "params": {
            "textDocument": {"uri": uri}, "position": {"line": line - 1, "character": col}}})
        r = wait(lambda m: m.get("id") == 2) or {}
        res = r.get("result") or []
        items = res["items"] if isinstance(res, dict) else res
        labels = sorted(i["label"] for i in items)
        if not hover:
            return diags, labels
        send({"id": 3, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri},
            "position": {"line": hover[0] - 1, "character": hover[1]}}})
        r = wait(lambda m: m.get("id") == 3) or {}
        c = (r.get("result") or {}).get("contents") or ""
        return diags, labels, c.get("value", "") if isinstance(c, dict) else str(c)
    finally:
        p.kill()
        p.wait()


def editor_server():
    """A real YAML language server reads the schema that cvpdf new's first
    line names: completion and diagnostics.  The server is the one
    tests/deps.sh check installs from npm into build/npm
    ($YAML_LANGUAGE_SERVER may name another); without it the check fails."""
    server = os.environ.get("YAML_LANGUAGE_SERVER") or npm_tool("yaml-language-server")
    if not check("yaml-language-server is installed (tests/deps.sh check, from npm)", server):
        return
    d = os.path.join(TMP, "editor")
    os.makedirs(d)
    rc, _, err = cvpdf(["new", "Ed Itor", "--layout", "compact"], cwd=d)
    prof = os.path.join(d, "Ed_Itor_CV.yaml")
    text = open(prof, encoding="utf-8").read().replace(
        "  headline: Software Engineer\n", "  headline: Software Engineer\n  emial: x\n  \n")
    with open(os.path.join(d, "bad_CV.yaml"), "w", encoding="utf-8") as f:
        f.write(text)
    line = text[:text.index("  emial")].count("\n") + 2
    diags, compl = lsp_session(server, os.path.join(d, "Ed_Itor_CV.yaml"), 1, 0)
    check("language server: the starter profile has no diagnostics", rc == 0 and not diags,
          diags)
    diags, compl = lsp_session(server, os.path.join(d, "bad_CV.yaml"), line, 2)
    check("language server: a misspelt cv key is flagged",
          any("emial" in m for _, m in diags), diags)
    check("language server: completes the cv keys not yet written",
          {"native_name", "photo"} <= set(compl) and "name" not in compl, compl)
    lay = os.path.join(d, "Ed_Itor_layout.yaml")
    with open(lay, "a") as f:
        f.write("colors:\n  lnk: \"#000\"\nheader:\n  align: middle\n")
    with open(lay, encoding="utf-8") as f:
        at = f.read().splitlines().index("  align: middle") + 1
    diags, compl, hover = lsp_session(server, lay, 1, 0, hover=(at, 4))
    check("language server: the layout's unknown key and bad choice are flagged",
          any("lnk" in m for _, m in diags) and any("left" in m for _, m in diags), diags)
    check("language server: hovering a layout key shows its own words (style.c's table)",
          "alignment of the name, headline and contact lines" in hover, hover)
    at = text.splitlines().index("  headline: Software Engineer") + 1
    diags, compl, hover = lsp_session(server, prof, 1, 0, hover=(at, 4))
    check("language server: hovering a cv key shows its own words",
          "a line under the name" in hover, hover)


def docs():
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    start = readme.find("cvpdf new")
    check("README starts a new user with cvpdf new, before the options",
          0 <= start < readme.find("## Usage"), start)
    rc, listed, err = run([BIN, "--list-layouts"])
    block = "".join("    " + l + "\n" for l in listed.splitlines())
    check("README shows the layout list as cvpdf --list-layouts prints it",
          rc == 0 and len(listed.splitlines()) == len(LAYOUTS) and block in readme,
          listed)
    check("README tells a user who is not root to install under $HOME/.local",
          "make install PREFIX=$HOME/.local" in readme)
    notes = open(os.path.join(ROOT, "docs", "release-notes.md"), encoding="utf-8").read()
    check("docs/release-notes.md says the output now goes beside its profile",
          "`cvpdf sub/me.yaml` now writes `sub/me.pdf`" in notes)
    ed = open(os.path.join(ROOT, "docs", "editors.md"), encoding="utf-8").read()
    check("docs/editors.md covers VS Code and Neovim",
          "VS Code" in ed and "Neovim" in ed and "yaml-language-server" in ed)


if __name__ == "__main__":
    sys.exit(testlib.main("newuser", [
        new_profile, new_names, says_what_happened, set_values, open_output,
        import_command, deps_weights, layouts_by_name, list_and_datadir, schema_files, shipped_validate,
        bad_examples, layout_keys_match, profile_keys_match, every_key_accepted, messages,
        man_pages, completion, bash_completion_real, zsh_completion, lazy_libraries, install, editor_server, docs], tmp=TMP))
