#!/usr/bin/env python3
"""The release binary's WOFF2 module (src/woff2.c): libwoff2's shim,
build/cvpdf-woff2.so, opened with dlopen the first time an HTML page embeds
a face.  The sanitizer build links the shim in (as it does the phone shim),
so this suite runs the optimised ./cvpdf, which make check builds too; the
binary given on the command line is not used.

Usage: tests/woff2_module.py [CVPDF] [-k PATTERN] [--list]

  unlinked   ./cvpdf does not need libwoff2enc (nor Brotli's encoder) to
             start: they are the module's
  opened     ./cvpdf writes an HTML page whose faces are WOFF2 (the module
             opened); twice the same page, byte for byte (the padding after
             the last table is zeroed, not what malloc gave)
  missing    a copy of ./cvpdf with no module beside it (and any install
             hidden): the page is written without its faces, with a
             warning per face; the PDF is unchanged

The last line is "woff2_module: N passed, M failed".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import testlib
from testlib import ROOT, check

TMP = tempfile.mkdtemp(prefix="cvpdf-woff2-")
RELEASE = os.path.join(ROOT, "cvpdf")
PROFILE = os.path.join(ROOT, "profiles", "he.yaml")
WOFF2 = re.compile(r'src:url\(data:font/woff2;base64,d09GMg[A-Za-z0-9+/=]*\) format\("woff2"\)')


def cvpdf(exe, args, hide=False):
    """Run `exe` with the source tree's data; with hide, as if cvpdf were
    not installed on this machine (testlib.uninstalled)."""
    env = dict(os.environ, CVPDF_DATADIR=ROOT, SOURCE_DATE_EPOCH="1700000000")
    argv = [exe] + args
    if hide:
        argv = testlib.uninstalled(argv, exe)
    p = subprocess.run(argv, capture_output=True, env=env, cwd=TMP, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def have_release():
    return check("./cvpdf is built (make check builds it)", os.access(RELEASE, os.X_OK), RELEASE)


def unlinked():
    if not have_release():
        return
    p = subprocess.run(["readelf", "-d", RELEASE], capture_output=True, text=True)
    needed = re.findall(r"\(NEEDED\).*\[(.+)\]", p.stdout)
    check("readelf lists ./cvpdf's libraries", p.returncode == 0 and needed, p.stderr)
    check("./cvpdf does not link libwoff2enc or libbrotlienc",
          needed and not [n for n in needed if "woff2" in n or "brotlienc" in n], needed)


def opened():
    if not have_release():
        return
    pages = []
    for i in range(2):
        out = os.path.join(TMP, "opened%d.html" % i)
        rc, _, err = cvpdf(RELEASE, ["-q", PROFILE, "-o", out])
        page = open(out, encoding="utf-8").read() if os.path.exists(out) else ""
        pages.append(page)
    check("./cvpdf writes the page with its faces as WOFF2 (the module opened)",
          rc == 0 and len(WOFF2.findall(pages[0])) >= 2, err)
    check("the same page twice, byte for byte", pages[0] and pages[0] == pages[1])


def missing():
    if not have_release():
        return
    d = os.path.join(TMP, "lone")
    os.makedirs(d)
    exe = os.path.join(d, "cvpdf")
    shutil.copy(RELEASE, exe)
    out = os.path.join(TMP, "missing.html")
    rc, _, err = cvpdf(exe, [PROFILE, "-o", out], hide=True)
    page = open(out, encoding="utf-8").read() if os.path.exists(out) else ""
    warns = [l for l in err.splitlines() if ": warning: " in l]
    check("no module: the page is written, without embedded faces",
          rc == 0 and "<html" in page and "font/woff2" not in page, err)
    check("no module: one warning for the page, naming the module and what to install",
          len(warns) == 1 and "cvpdf-woff2.so" in warns[0] and "libwoff1" in warns[0] and
          "embeds no face" in warns[0], err)
    pdf0, pdf1 = os.path.join(TMP, "with.pdf"), os.path.join(TMP, "without.pdf")
    r0 = cvpdf(RELEASE, ["-q", PROFILE, "-o", pdf0])
    r1 = cvpdf(exe, ["-q", PROFILE, "-o", pdf1], hide=True)
    check("no module: the PDF is the same as with it",
          r0[0] == 0 and r1[0] == 0 and open(pdf0, "rb").read() == open(pdf1, "rb").read(),
          r0[2] + r1[2])


if __name__ == "__main__":
    sys.exit(testlib.main("woff2_module", [unlinked, opened, missing], tmp=TMP))
