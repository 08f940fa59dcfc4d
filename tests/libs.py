#!/usr/bin/env python3
"""The system libraries only some runs need, opened with dlopen when first
needed (module.h's cv_lib): libbtparse (.bib files), libhyphen (pattern
files with more than patterns, German's), FriBidi (right-to-left lines),
json-c, libjpeg, lcms2, ICU's i18n library, poppler-glib.  This suite runs the optimised ./cvpdf, which
make check builds too, since that is what is installed; the binary given on
the command line is not used.

Usage: tests/libs.py [CVPDF] [-k PATTERN] [--list]

  not_linked  ./cvpdf's dynamic section needs none of them
  opened      a profile with a .bib file opens libbtparse, a German one
              libhyphen, an Arabic one FriBidi; an English one without a
              .bib file opens none of them
  missing     with the library made unreadable (/dev/null bound over it in
              a private mount namespace): a .bib file is an error naming
              the Debian package libbtparse2, and no PDF is written; a
              German profile without libhyphen renders, with a note naming
              libhyphen0; without FriBidi an Arabic profile is an error
              naming libfribidi0 and an English one in the same batch
              renders; a profile needing none of them renders as before

The last line is "libs: N passed, M failed".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import testlib
from testlib import ROOT, check, read_dump

TMP = tempfile.mkdtemp(prefix="cvpdf-libs-")
RELEASE = os.path.join(ROOT, "cvpdf")
LAZY = ("libbtparse", "libhyphen", "libfribidi", "libjson-c", "libjpeg", "liblcms2", "libicui18n",
        "libpoppler-glib")
ENV = dict(os.environ, CVPDF_DATADIR=ROOT)


def have_release():
    return check("./cvpdf is built (make check builds it)", os.access(RELEASE, os.X_OK), RELEASE)


def profile(name):
    """A copy of profiles/NAME (and a .bib beside it) in TMP: its path."""
    src = os.path.join(ROOT, "profiles", name)
    dst = os.path.join(TMP, name)
    shutil.copy(src, dst)
    bib = os.path.splitext(src)[0] + ".bib"
    if os.path.exists(bib):
        shutil.copy(bib, os.path.join(TMP, os.path.basename(bib)))
    return dst


def opened_libs(args):
    """Run ./cvpdf with the dynamic loader saying which files it opens:
    (exit status, stderr without the loader's lines, the libraries opened)."""
    env = dict(ENV, LD_DEBUG="files")
    p = subprocess.run([RELEASE] + args, capture_output=True, env=env, cwd=TMP, timeout=120)
    err = p.stderr.decode("utf-8", "replace")
    libs = set(m.group(1) for m in re.finditer(r"file=(\S+?\.so[.\d]*) \[\d+\];", err))
    rest = "\n".join(l for l in err.splitlines() if not re.match(r"\s*\d+:", l))
    return p.returncode, rest, libs


def not_linked():
    if not have_release():
        return
    rc, out, err = testlib.run(["readelf", "-d", RELEASE])
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.*?)\]", out)
    check("readelf reads ./cvpdf's dynamic section", rc == 0 and needed, err)
    for lib in LAZY:
        check("./cvpdf is not linked with %s" % lib,
              not any(n.startswith(lib + ".") or n.startswith(lib + "-") for n in needed),
              needed)


def opened():
    if not have_release():
        return
    src = profile("chaoyang-he.yaml")
    rc, err, libs = opened_libs(["--dump", src])
    check("a .bib file: libbtparse opened", rc == 0 and any("libbtparse" in l for l in libs),
          err[-500:] + " " + " ".join(sorted(libs)))
    rc, err, libs = opened_libs(["--dump", profile("weber-de.yaml")])
    check("German: libhyphen opened", rc == 0 and any("libhyphen" in l for l in libs),
          err[-500:] + " " + " ".join(sorted(libs)))
    rc, err, libs = opened_libs(["-q", profile("fang.yaml"), "-o", os.path.join(TMP, "f.pdf")])
    check("English, no .bib file: none opened",
          rc == 0 and not any(n in l for l in libs for n in ("libbtparse", "libhyphen",
                                                             "libfribidi")),
          err[-500:] + " " + " ".join(sorted(libs)))
    ar = os.path.join(TMP, "ar.yaml")
    shutil.copy(os.path.join(ROOT, "tests", "data", "scripts", "ar.yaml"), ar)
    rc, err, libs = opened_libs(["--dump", ar])
    check("Arabic: FriBidi opened", rc == 0 and any("libfribidi" in l for l in libs),
          err[-500:] + " " + " ".join(sorted(libs)))


def library_path(soname_start):
    """The file the dynamic loader opens for the 64-bit library whose soname
    starts `soname_start` (ldconfig's cache): its real path, or None."""
    rc, out, _ = testlib.run(["ldconfig", "-p"])
    for line in out.splitlines():
        m = re.match(r"\s*%s\.so\.\d+ \(.*x86-64.*\) => (\S+)" % re.escape(soname_start), line)
        if m:
            return os.path.realpath(m.group(1))
    return None


def without(path, argv):
    """(exit status, stdout, stderr) of argv run where `path` reads as an
    empty file (/dev/null bound over it in a private mount namespace)."""
    script = 'mount --bind /dev/null "%s" && exec "$@"' % path
    p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh"] +
                       argv, capture_output=True, env=ENV, cwd=TMP, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def can_hide(path):
    rc, _, _ = without(path, ["true"])
    return rc == 0


def missing():
    if not have_release():
        return
    bt = library_path("libbtparse")
    if not check("ldconfig knows libbtparse", bt, bt):
        return
    if not can_hide(bt):
        print("note: unshare -m and a bind mount are not permitted here: the missing "
              "libraries are not tried")
        return
    src = profile("chaoyang-he.yaml")
    pdf = os.path.join(TMP, "he.pdf")
    rc, out, err = without(bt, [RELEASE, src, "-o", pdf])
    e = [l for l in err.splitlines() if ": error: " in l]
    check("no libbtparse: the .bib file is an error naming the Debian package",
          rc == 1 and len(e) == 1 and "chaoyang-he.bib" in e[0] and "libbtparse2" in e[0] and
          "libbtparse.so" in e[0], err)
    check("no libbtparse: no PDF written", not os.path.exists(pdf), pdf)
    pdf = os.path.join(TMP, "fang.pdf")
    rc, out, err = without(bt, [RELEASE, "-q", profile("fang.yaml"), "-o", pdf])
    check("no libbtparse: a profile without a .bib file renders",
          rc == 0 and os.path.exists(pdf) and os.path.getsize(pdf) > 1000, err)

    hy = library_path("libhyphen")
    if not check("ldconfig knows libhyphen", hy, hy):
        return
    src = profile("weber-de.yaml")
    rc, out, err = without(hy, [RELEASE, "--dump", src])
    notes = [l for l in err.splitlines() if "libhyphen" in l]
    check("no libhyphen: the German profile renders, with one note naming libhyphen0",
          rc == 0 and len(notes) == 1 and "libhyphen0" in notes[0] and "hyph_de" in notes[0]
          and read_dump(out), err)
    rc, out2, err = testlib.run([RELEASE, "--dump", src], cwd=TMP, env=ENV)
    check("with libhyphen, German words are hyphenated where without it they are not",
          rc == 0 and out2 != out and
          sum(r["text"].endswith("-") for pg in read_dump(out2) for r in pg["runs"]) >
          sum(r["text"].endswith("-") for pg in read_dump(out) for r in pg["runs"]), err)

    fb = library_path("libfribidi")
    if not check("ldconfig knows libfribidi", fb, fb):
        return
    ar = os.path.join(TMP, "ar.yaml")
    shutil.copy(os.path.join(ROOT, "tests", "data", "scripts", "ar.yaml"), ar)
    outdir = os.path.join(TMP, "rtl") + "/"
    rc, out, err = without(fb, [RELEASE, "-j", "0", ar, profile("fang.yaml"), "-o", outdir])
    e = [l for l in err.splitlines() if ": error: " in l]
    check("no FriBidi: the Arabic profile is an error naming libfribidi0",
          rc == 1 and len(e) == 1 and e[0].startswith(ar + ": error: ") and
          "libfribidi0" in e[0], err)
    check("no FriBidi: no Arabic PDF; the English one of the same batch is written",
          not os.path.exists(outdir + "ar.pdf") and os.path.exists(outdir + "fang.pdf"),
          sorted(os.listdir(outdir)) if os.path.isdir(outdir) else outdir)


if __name__ == "__main__":
    sys.exit(testlib.main("libs", [not_linked, opened, missing], tmp=TMP))
