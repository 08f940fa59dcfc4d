#!/usr/bin/env python3
"""The release binary's phone module (src/phone.c): libphonenumber's shim,
build/cvpdf-phone.so, opened with dlopen the first time a number is checked
or formatted.  The sanitizer build links the shim in (LeakSanitizer and
dlopen'ed C++ libraries do not mix), so this suite runs the optimised
./cvpdf, which make check builds too; the binary given on the command line
is not used.

Usage: tests/phone_module.py [CVPDF] [-k PATTERN] [--list]

  opened     ./cvpdf formats a number in RenderCV's three formats and
             refuses numbers RenderCV refuses: the module was opened
  missing    a copy of ./cvpdf with no module beside it (and any install
             hidden): a profile with a phone number is an error at the
             number naming what to install (the Debian package
             libphonenumber8, the module's directory); no PDF; a profile
             without a number still renders
  broken     a module that cannot be opened (a library it needs is gone)
             or that is no cvpdf module: an error naming its path and why

The last line is "phone_module: N passed, M failed".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import testlib
from testlib import ROOT, check, read_dump

TMP = tempfile.mkdtemp(prefix="cvpdf-phone-")
RELEASE = os.path.join(ROOT, "cvpdf")
NUMBER = "+1 609 555 0100"


def profile(name, phone=NUMBER, fmt="national"):
    """A RenderCV profile with `phone` on line 3, column 10."""
    path = os.path.join(TMP, name + ".yaml")
    with open(path, "w", encoding="utf-8") as f:
        f.write("cv:\n  name: Ada Phone\n")
        if phone is not None:
            f.write('  phone: "%s"\n' % phone)
        f.write("design:\n  header:\n    connections:\n      phone_number_format: %s\n" % fmt)
    return path


def cvpdf(exe, args, hide=False):
    """Run `exe` with the source tree's data; with hide, as if cvpdf were
    not installed on this machine (testlib.uninstalled)."""
    env = dict(os.environ, CVPDF_DATADIR=ROOT)
    argv = [exe] + args
    if hide:
        argv = testlib.uninstalled(argv, exe)
    p = subprocess.run(argv, capture_output=True, env=env, cwd=TMP, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def shown(out):
    """The text of the dump's runs, joined."""
    return "".join(r["text"] for pg in read_dump(out) for r in pg["runs"])


def lone(name):
    """A copy of ./cvpdf alone in a directory of its own: its path."""
    d = os.path.join(TMP, name)
    os.makedirs(d)
    exe = os.path.join(d, "cvpdf")
    shutil.copy(RELEASE, exe)
    return exe


def errors(err):
    return [l for l in err.splitlines() if ": error: " in l]


def have_release():
    return check("./cvpdf is built (make check builds it)", os.access(RELEASE, os.X_OK), RELEASE)


def opened():
    if not have_release():
        return
    for fmt, want in (("national", "(609) 555-0100"), ("international", "+1 609-555-0100"),
                      ("E164", "+16095550100")):
        rc, out, err = cvpdf(RELEASE, ["--dump", profile("ok-" + fmt, fmt=fmt)])
        check("./cvpdf formats %s as %s: %s (the module opened)" % (NUMBER, fmt, want),
              rc == 0 and want in shown(out), err + out[-300:])
    for number, why in (("+1 555 555 5555", "numbering plan"), ("609 555 0100", "country code")):
        src = profile("bad", number)
        rc, out, err = cvpdf(RELEASE, ["--dump", src])
        e = errors(err)
        check("./cvpdf refuses %r at its place: %s" % (number, why),
              rc == 1 and len(e) == 1 and e[0].startswith(src + ":3:10: error: invalid phone "
                                                          "number") and why in e[0], err)


def missing():
    if not have_release():
        return
    exe = lone("missing")
    src = profile("missing")
    pdf = os.path.join(TMP, "missing.pdf")
    rc, out, err = cvpdf(exe, [src, "-o", pdf], hide=True)
    e = errors(err)
    libdir = testlib.compiled_dirs(exe)[1]
    check("no module: the number is an error at its place",
          rc == 1 and len(e) == 1 and
          e[0].startswith(src + ":3:10: error: cannot check the phone number '%s': " % NUMBER),
          err)
    check("no module: the error names the module, where it was looked for and the package",
          e and "cvpdf-phone.so" in e[0] and libdir in e[0] and "libphonenumber8" in e[0], err)
    check("no module: no PDF written", not os.path.exists(pdf), pdf)
    rc, out, err = cvpdf(exe, ["--dump", profile("none", None)], hide=True)
    check("no module: a profile without a number renders", rc == 0 and "Ada Phone" in shown(out),
          err)


def build_module(path, source, *libs):
    rc, _, err = testlib.run(["cc", "-shared", "-fPIC", "-o", path, source] + list(libs), cwd=TMP)
    return check("a stand-in module builds: %s" % os.path.basename(path), rc == 0, err)


def broken():
    if not have_release():
        return
    c = os.path.join(TMP, "stub.c")
    with open(c, "w") as f:
        f.write("int cvpdf_phone_stub(void) { return 0; }\n")
    # A module that needs a library that is gone, as when libphonenumber is
    # not installed.
    exe = lone("broken")
    dep = os.path.join(TMP, "dep")
    os.makedirs(dep)
    mod = os.path.join(os.path.dirname(exe), "cvpdf-phone.so")
    if not (build_module(os.path.join(dep, "libcvpdfgone.so"), c) and
            build_module(mod, c, "-L" + dep, "-Wl,--no-as-needed",
                                      "-lcvpdfgone")):
        return
    os.remove(os.path.join(dep, "libcvpdfgone.so"))
    src = profile("broken")
    rc, out, err = cvpdf(exe, ["--dump", src], hide=True)
    e = errors(err)
    check("a module that cannot be opened: an error at the number naming its path, why and "
          "the package", rc == 1 and len(e) == 1 and e[0].startswith(src + ":3:10: error: ") and
          mod in e[0] and "libcvpdfgone.so" in e[0] and "libphonenumber8" in e[0], err)
    # A library of that name that is not cvpdf's module.
    exe = lone("stranger")
    mod = os.path.join(os.path.dirname(exe), "cvpdf-phone.so")
    if not build_module(mod, c):
        return
    rc, out, err = cvpdf(exe, ["--dump", src], hide=True)
    e = errors(err)
    check("a library that is not the module: an error naming it",
          rc == 1 and len(e) == 1 and mod in e[0] and "not a cvpdf phone module" in e[0], err)
    # WhatsApp numbers are checked by the same module.
    wa = os.path.join(TMP, "whatsapp.yaml")
    with open(wa, "w", encoding="utf-8") as f:
        f.write("cv:\n  name: Ada Phone\n  social_networks:\n    - network: WhatsApp\n"
                "      username: \"%s\"\n" % NUMBER)
    rc, out, err = cvpdf(exe, ["--dump", wa], hide=True)
    e = errors(err)
    check("a WhatsApp number without the module: an error naming it",
          rc == 1 and len(e) == 1 and mod in e[0], err)
    rc, out, err = cvpdf(RELEASE, ["--dump", wa])
    check("a WhatsApp number with the module: accepted", rc == 0 and not errors(err), err)


if __name__ == "__main__":
    sys.exit(testlib.main("phone_module", [opened, missing, broken], tmp=TMP))
