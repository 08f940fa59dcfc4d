"""What the Python test suites share: the checks' tally and running cvpdf.

Each suite is its own process, so the tally is per suite; the suite prints
"NAME: N passed, M failed" at the end (summary()), which tests/run.sh adds up.
"""
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
passed = failed = 0


def check(name, cond, why=""):
    """Count and print one check: "ok NAME" or "FAIL NAME: why".  Returns
    whether it passed."""
    global passed, failed
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
    import sys
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


def run(args, cwd=ROOT, timeout=300):
    """Run a command; return (exit status, stdout, stderr) as text."""
    p = subprocess.run(args, capture_output=True, cwd=cwd, timeout=timeout)
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
