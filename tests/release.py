#!/usr/bin/env python3
"""The optimised ./cvpdf through suites that every other run gives the
sanitizer build (make check).

The sanitizer build is compiled at -O1 with ASan and UBSan; the binary a
user runs is -O2.  A bug that shows only there (the compiler merging two
identical strings a loader told apart by address gave a non-English
RenderCV file with `design:` the language's own date form) passes every
suite run on build/san/cvpdf.  So these suites, fast on the optimised
binary (about 15 s together), also run on it: e2e (the spec examples),
rcv_accept and rendercv (RenderCV's files of every era), layouts, scripts,
typo and cjkpdf.

Usage: tests/release.py CVPDF_BINARY (ignored: always ./cvpdf, which
make check builds) [-k PATTERN]
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASE = os.path.join(ROOT, "cvpdf")
SUITES = ["e2e", "rcv_accept", "rendercv", "layouts", "scripts", "typo", "cjkpdf"]


def main():
    if not os.access(RELEASE, os.X_OK):
        print("FAIL ./cvpdf is not built (make cvpdf)")
        print("release: 0 passed, 1 failed")
        return 1
    passed = failed = 0
    for s in SUITES:
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tests", s + ".py"), RELEASE]
                           + sys.argv[2:], capture_output=True, text=True, cwd=ROOT)
        out = p.stdout + p.stderr
        m = re.search(r"(\d+) passed, (\d+) failed\s*$", out)
        if not m:
            print("FAIL %s on ./cvpdf did not end with its count (exit %d):\n%s"
                  % (s, p.returncode, out[-2000:]))
            failed += 1
            continue
        np_, nf = int(m.group(1)), int(m.group(2))
        for line in out.splitlines():
            if line.startswith("FAIL"):
                print("%s (./cvpdf): %s" % (s, line))
        if p.returncode != 0 and nf == 0:
            print("FAIL %s on ./cvpdf exited %d with nothing failed" % (s, p.returncode))
            nf = 1
        passed += np_
        failed += nf
        print("ok %s on ./cvpdf: %d passed, %d failed" % (s, np_, nf))
    print("release: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
