"""What the Python test suites share: the checks' tally and running cvpdf.

Each suite is its own process, so the tally is per suite; the suite prints
"NAME: N passed, M failed" at the end (summary()), which tests/run.sh adds up.
"""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
passed = failed = 0


def check(name, cond, why=""):
    """Count and print one check: "ok NAME" or "FAIL NAME: why"."""
    global passed, failed
    if cond:
        passed += 1
        print("ok", name)
    else:
        failed += 1
        print("FAIL %s: %s" % (name, why))


def run(args, cwd=ROOT, timeout=300):
    """Run a command; return (exit status, stdout, stderr) as text."""
    p = subprocess.run(args, capture_output=True, cwd=cwd, timeout=timeout)
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def summary(suite):
    """Print the suite's last line; return its exit status."""
    print("%s: %d passed, %d failed" % (suite, passed, failed))
    return 1 if failed else 0
