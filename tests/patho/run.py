#!/usr/bin/env python3
"""Pathological but valid inputs: each must render, or stop at a documented
limit with a clear error, within a time limit.

Usage: tests/patho/run.py CVPDF_BINARY [-k PATTERN] [--list]   (tests/run.sh passes build/san/cvpdf)

The cases come from gen.py (10,000 bullets, a 5,000-character word and a
1,000,000-character one, 2,000 publications with 60 authors each, a 1 MB
paragraph, 20,000 Chinese characters and 1 MB of them, 20,000 characters
with no break opportunity at all, 300,000 line feeds, ...).  Each
runs once under a time limit (LIMIT seconds: the slowest case, 2,000
publications, took 2 to 6 s under ASan+UBSan on a 2-core machine while the
code changed, so the limit leaves room for a loaded machine).  The ratio
check below is what catches a quadratic step: nested emphasis went from
2.7 s at 20,000 to 15 s at 40,000 before it was fixed.  A
case that renders must pass `qpdf --check`, `pdftotext` must find its
sample text, and stderr must hold no sanitizer report and a bounded number
of warnings.  The ERRORS cases must stop at their documented limit.

Then a few cases run at size N and 4N with the optimised ./cvpdf when it
exists (the sanitizer build otherwise): linear work takes about 4 times as
long, quadratic 16 times, so the test demands less than 7 times.  The time
is the CPU time of the process (user and system), not the wall clock, so
that other processes (make check runs suites side by side) slow neither;
N is the best of three runs, 4N one run (a slow 4N can only fail the
check, and a failure measures again, both best of three).  Timings proper
belong in `make bench`; this only catches an algorithm that is not linear.
The last line is "patho: N passed, M failed".
"""
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import gen  # noqa: E402
import testlib  # noqa: E402
from testlib import BIN, ROOT, check  # noqa: E402

FAST = os.path.join(ROOT, "cvpdf")
TMP = tempfile.mkdtemp(prefix="cvpdf-patho-")
LIMIT = 30                 # seconds per case
MAX_WARNINGS = 100         # a warning per distinct problem, not per character
SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|"
                       r"runtime error:|Segmentation fault")
# name: size N.  Sizes are chosen so that N takes about 0.1 s or more with
# ./cvpdf; what start-up costs can only make the ratio smaller.
LINEAR = {
    "bullets": 5000,
    "publications": 500,
    "paragraph-1mb": 250000,
    "markup-stars": 10000,
    "cjk-20000": 40000,
    "cjk-no-break-20000": 40000,
    "long-word": 50000,
    "line-feeds": 50000,
    "spaces": 250000,
    "mixed-faces": 40000,
    "sections": 1000,
    "bold-keywords": 1000,
}
RATIO = 7.0


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(binary, path, timeout, cpu=False):
    """(exit status or None on timeout, stderr, seconds): wall-clock
    seconds, or with cpu the process's CPU seconds."""
    out = path[:-5] + ".pdf"
    t, c = time.monotonic(), children_cpu()

    def took():
        return children_cpu() - c if cpu else time.monotonic() - t
    try:
        # cvpdf's own limit (--timeout, 10 s by default) is the test's.
        p = subprocess.run([binary, path, "-o", out, "--timeout", str(timeout)],
                           capture_output=True, timeout=timeout + 10)
    except subprocess.TimeoutExpired:
        return None, "(killed after %d s)" % timeout, took()
    return p.returncode, p.stderr.decode("utf-8", "replace"), took()


def write(name, text):
    path = os.path.join(TMP, name + ".yaml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def render_cases():
    for name, (g, n, sample) in gen.CASES.items():
        path = write(name, g(n))
        rc, err, secs = run(BIN, path, LIMIT)
        label = "%s (%d, %.1f MB)" % (name, n, os.path.getsize(path) / 1e6)
        check("%s: renders within %d s (%.2f s)" % (label, LIMIT, secs), rc == 0,
              "rc %s: %s" % (rc, err.strip()[-600:]))
        check("%s: no sanitizer report" % label, rc is not None and rc >= 0 and
              not SANITIZER.search(err), err.strip()[-1500:])
        nwarn = err.count(": warning: ")
        check("%s: at most %d warnings (%d)" % (label, MAX_WARNINGS, nwarn),
              nwarn <= MAX_WARNINGS, err[:300])
        if rc != 0:
            continue
        pdf = path[:-5] + ".pdf"
        q = subprocess.run(["qpdf", "--check", pdf], capture_output=True)
        check("%s: qpdf --check" % label, q.returncode == 0, q.stdout.decode()[-300:])
        text = subprocess.run(["pdftotext", pdf, "-"], capture_output=True).stdout.decode(
            "utf-8", "replace")
        want = sample or first_text(g(n))
        check("%s: pdftotext finds %r" % (label, want), want in text.replace("\n", ""),
              text[:200])
        os.remove(pdf)


def first_text(profile):
    """The first 8 characters of the case's first text entry."""
    m = re.search(r'^      - "(.{8})', profile, re.M)
    return m.group(1) if m else "Ada Lovelace"


def error_cases():
    for name, (g, n, msg) in gen.ERRORS.items():
        path = write(name, g(n))
        rc, err, secs = run(BIN, path, LIMIT)
        errs = [l for l in err.splitlines() if ": error: " in l]
        check("%s: stops within %d s (%.2f s) with exit 1 and one error" % (name, LIMIT, secs),
              rc == 1 and len(errs) == 1, "rc %s: %s" % (rc, err.strip()[-600:]))
        check("%s: the error is '%s' at a line of the profile" % (name, msg),
              errs and re.match(re.escape(path) + r":\d+:\d+: error: ", errs[0]) and
              re.search(msg, errs[0]), errs)


def best_of(binary, path, k=3):
    """The least CPU time of k runs (None and stderr when one fails)."""
    best = None
    for _ in range(k):
        rc, err, secs = run(binary, path, 120, cpu=True)
        if rc != 0:
            return None, err
        best = secs if best is None else min(best, secs)
    return best, ""


def linear_cases():
    binary = FAST if os.access(FAST, os.X_OK) else BIN
    for name, n in LINEAR.items():
        g = gen.CASES[name][0]
        small = write("%s-n" % name, g(n))
        big = write("%s-4n" % name, g(4 * n))
        t1, e1 = best_of(binary, small)
        t4, e4 = best_of(binary, big, 1)
        if t1 is None or t4 is None:
            check("%s: N=%d and 4N render for the timing" % (name, n), False, (e1 + e4)[-400:])
            continue
        # Retry once before failing: another process may have slowed a run.
        if t4 / t1 >= RATIO:
            t1, _ = best_of(binary, small)
            t4, _ = best_of(binary, big)
        check("%s: 4x the input takes %.1fx the time (%.2f s -> %.2f s; limit %.0fx, %s)" %
              (name, t4 / t1, t1, t4, RATIO, os.path.relpath(binary, ROOT)), t4 / t1 < RATIO)


if __name__ == "__main__":
    sys.exit(testlib.main("patho", [render_cases, error_cases, linear_cases], tmp=TMP))
