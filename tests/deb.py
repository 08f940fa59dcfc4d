#!/usr/bin/env python3
"""The Debian package (issue 30): `make deb` builds it with debhelper and
lintian finds no error in it; it holds the binary, its data, the man
pages, bash and zsh completion and the docs; and the packaged binary,
extracted with dpkg-deb -x (not installed), renders a starter profile.

Usage: tests/deb.py [CVPDF] [-k PATTERN] [--list]   (the binary is not
used: the package builds its own)
"""
import os
import re
import subprocess
import sys
import tempfile

import testlib
from testlib import ROOT, check, run

TMP = tempfile.mkdtemp(prefix="cvpdf-deb-")
STATE = {}


def build():
    p = subprocess.run(["make", "--no-print-directory", "deb"], cwd=ROOT, capture_output=True,
                       timeout=1800)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    debs = [l for l in out.splitlines() if re.fullmatch(r"build/deb/cvpdf_\S+\.deb", l)]
    deb = os.path.join(ROOT, debs[-1]) if debs else None
    check("make deb: built, and lintian --fail-on error passes",
          p.returncode == 0 and deb and os.path.isfile(deb), (out + err)[-2000:])
    STATE["deb"] = deb
    if deb:
        rc, info, err = run(["dpkg-deb", "--field", deb, "Package", "Version", "Depends"])
        check("the package's control: cvpdf, its version, poppler-glib among its Depends",
              rc == 0 and "Package: cvpdf" in info and "libpoppler-glib8" in info and
              re.search(r"^Version: \d", info, re.M), info + err)


def contents():
    deb = STATE.get("deb")
    if not check("contents: a package to read", deb):
        return
    rc, out, err = run(["dpkg-deb", "-c", deb])
    files = {re.sub(r"^\./", "", l.split()[-1]) for l in out.splitlines() if l}
    want = ["usr/bin/cvpdf", "usr/lib/cvpdf/cvpdf-phone.so", "usr/lib/cvpdf/cvpdf-woff2.so",
            "usr/share/cvpdf/layouts/onecolumn.yaml", "usr/share/cvpdf/layouts/sidebar.yaml",
            "usr/share/cvpdf/fonts/Lato-Regular.ttf", "usr/share/cvpdf/schema/profile.json",
            "usr/share/cvpdf/locales/german.yaml",
            "usr/share/man/man1/cvpdf.1.gz", "usr/share/man/man5/cvpdf-profile.5.gz",
            "usr/share/man/man5/cvpdf-layout.5.gz",
            "usr/share/bash-completion/completions/cvpdf", "usr/share/zsh/site-functions/_cvpdf",
            "usr/share/doc/cvpdf/copyright", "usr/share/doc/cvpdf/changelog.gz",
            "usr/share/doc/cvpdf/profiles.md", "usr/share/doc/cvpdf/layouts.md"]
    missing = [w for w in want if w not in files]
    check("the package holds the binary, data, man pages, completion and docs",
          rc == 0 and not missing, missing or err)
    stray = [f for f in files if f.startswith(("usr/local", "build", "home", "tmp", "root"))]
    check("and nothing outside /usr", rc == 0 and not stray, stray)


def packaged_binary():
    deb = STATE.get("deb")
    if not check("packaged binary: a package to extract", deb):
        return
    root = os.path.join(TMP, "root")
    rc, out, err = run(["dpkg-deb", "-x", deb, root])
    exe = os.path.join(root, "usr", "bin", "cvpdf")
    check("dpkg-deb -x extracts it", rc == 0 and os.access(exe, os.X_OK), err)
    env = {k: v for k, v in os.environ.items() if k != "CVPDF_DATADIR"}
    p = subprocess.run([exe, "--datadir"], capture_output=True, env=env, timeout=60)
    check("the extracted binary finds the packaged data beside it",
          p.returncode == 0 and p.stdout.decode().strip() ==
          os.path.join(root, "usr", "share", "cvpdf"), p.stdout + p.stderr)
    d = os.path.join(TMP, "work")
    os.makedirs(d)
    p = subprocess.run([exe, "new", "Ada Lovelace"], capture_output=True, env=env, cwd=d,
                       timeout=60)
    p2 = subprocess.run([exe, "--strict", "Ada_Lovelace_CV.yaml", "-l", "sidebar"],
                        capture_output=True, env=env, cwd=d, timeout=120)
    pdf = os.path.join(d, "Ada_Lovelace_CV.pdf")
    rc, text, err = run(["pdftotext", pdf, "-"]) if p2.returncode == 0 else (1, "", "")
    text_yaml = open(os.path.join(d, "Ada_Lovelace_CV.yaml")).read() if p.returncode == 0 else ""
    check("the packaged starter points to the packaged docs",
          "# Every key is in man 5 cvpdf-profile, and in\n#   %s\n" %
          os.path.join(os.path.realpath(root), "usr/share/doc/cvpdf/profiles.md") in text_yaml,
          text_yaml[:600])
    check("the packaged binary renders its starter, phone number and all, in a shipped layout",
          p.returncode == 0 and p2.returncode == 0 and "Ada Lovelace" in text and
          "+49 30 1234567" in text, (p.stderr + p2.stderr).decode() + err)


if __name__ == "__main__":
    sys.exit(testlib.main("deb", [build, contents, packaged_binary], tmp=TMP))
