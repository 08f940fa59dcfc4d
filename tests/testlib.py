"""What the Python test suites share: one command line, one runner, the
checks' tally and running cvpdf.

Every suite is run the same way:

    python3 tests/SUITE.py [CVPDF] [-k PATTERN] [--list]

CVPDF is the binary under test (default ./cvpdf; make check passes
build/san/cvpdf).  A suite is a list of groups, functions that make
checks; its last lines are

    if __name__ == "__main__":
        sys.exit(testlib.main("SUITE", [group, group, ...], tmp=TMP))

main() runs the groups in order (an exception in one is one failed check,
and the rest still run), removes TMP and prints "SUITE: N passed, M
failed", the line tests/run.sh adds up.  -k PATTERN (or the environment
variable TEST_FILTER) is a case-insensitive regular expression: the groups
whose name it matches run whole; when it matches no group's name, every
group runs and only the checks whose name it matches are printed and
counted.  --list prints the groups.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
passed = failed = 0


def _args():
    ap = argparse.ArgumentParser(
        usage="%(prog)s [CVPDF] [-k PATTERN] [--list]",
        description="A cvpdf test suite: prints \"ok NAME\" or \"FAIL NAME: why\" per check "
                    "and ends with \"SUITE: N passed, M failed\".")
    ap.add_argument("cvpdf", nargs="?", default=os.path.join(ROOT, "cvpdf"),
                    help="the binary to test (default: ./cvpdf)")
    ap.add_argument("-k", dest="pattern", default=os.environ.get("TEST_FILTER", ""),
                    help="run the groups whose name matches PATTERN (a case-insensitive "
                         "regular expression) or, when none does, count only the checks "
                         "whose name matches (default: $TEST_FILTER)")
    ap.add_argument("--list", action="store_true", help="list the groups and exit")
    return ap.parse_args()


ARGS = _args()
BIN = os.path.abspath(ARGS.cvpdf)


def _compile(pattern):
    try:
        return re.compile(pattern, re.I)
    except re.error:
        return re.compile(re.escape(pattern), re.I)


# With -k matching no group: the checks whose name matches (None: all).
_only = None


def check(name, cond, why="", _always=False):
    """Count and print one check: "ok NAME" or "FAIL NAME: why".  Returns
    whether it passed (also when -k leaves it out of the tally)."""
    global passed, failed
    if _only and not _always and not _only.search(name):
        return bool(cond)
    if cond:
        passed += 1
        print("ok", name)
    else:
        failed += 1
        print("FAIL %s: %s" % (name, why))
    return bool(cond)


def need_pdfminer(suite):
    """Make sure pdfminer imports: Debian's python3-pdfminer is installed
    for the system interpreter, and a python3 from pyenv or a virtualenv
    earlier in PATH does not see it, so re-run the suite under
    /usr/bin/python3.  When that cannot help, print a failed check and exit."""
    try:
        import pdfminer  # noqa: F401
        return
    except ImportError:
        pass
    sysp = "/usr/bin/python3"
    flag = "CVPDF_REEXEC_" + suite.upper()
    if os.path.exists(sysp) and not os.environ.get(flag) and \
            os.path.realpath(sys.executable) != os.path.realpath(sysp):
        os.environ[flag] = "1"
        sys.stdout.flush()
        os.execv(sysp, [sysp] + sys.argv)
    print("FAIL: pdfminer is not installed (run tests/deps.sh as root: python3-pdfminer)")
    print("%s: 0 passed, 1 failed" % suite)
    sys.exit(1)


def run(args, cwd=ROOT, timeout=300, env=None):
    """Run a command; return (exit status, stdout, stderr) as text."""
    p = subprocess.run(args, capture_output=True, cwd=cwd, timeout=timeout, env=env)
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def words_bbox(pdf):
    """pdftotext -bbox: [(page width, page height, [(x0, y0, x1, y1, word)])]."""
    rc, out, _ = run(["pdftotext", "-bbox", pdf, "-"])
    pages = []
    for m in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', out, re.S):
        words = [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>',
            m.group(3))]
        pages.append((float(m.group(1)), float(m.group(2)), words))
    return pages


def summary(suite):
    """Print the suite's last line; return its exit status."""
    print("%s: %d passed, %d failed" % (suite, passed, failed))
    return 1 if failed else 0


def main(suite, groups, tmp=None, keep_failed=False, after=None):
    """Run a suite's groups (functions of no arguments, in order) as the
    command line selects, then after() and remove `tmp` (kept when a check
    failed, with keep_failed); print the suite's last line and return its
    exit status."""
    global _only
    try:
        if ARGS.list:
            for g in groups:
                print(g.__name__)
            return 0
        if not os.access(BIN, os.X_OK):
            print("FAIL: no binary at", BIN)
            print("%s: 0 passed, 1 failed" % suite)
            return 1
        run_groups = groups
        if ARGS.pattern:
            pat = _compile(ARGS.pattern)
            run_groups = [g for g in groups if pat.search(g.__name__)]
            if not run_groups:
                run_groups, _only = groups, pat
        for g in run_groups:
            try:
                g()
            except Exception as e:          # a crash in one group is one failure
                traceback.print_exc(file=sys.stdout)
                check("%s ran to the end" % g.__name__, False,
                      "%s: %s" % (type(e).__name__, e), _always=True)
    finally:
        if after:
            after()
        if tmp and not (keep_failed and failed):
            shutil.rmtree(tmp, ignore_errors=True)
    if ARGS.pattern and passed + failed == 0:
        print("no group or check of %s matches %r" % (suite, ARGS.pattern))
    return summary(suite)
