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
counted.  --list prints the groups.  With TEST_TIMES set in the
environment, each group's wall time is printed ("# SUITE: GROUP 1.2s").
"""
import argparse
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import time
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

# `cvpdf new` writes the user's copy of the JSON Schemas under
# $XDG_DATA_HOME/cvpdf (src/starter.c): in a test, a directory of the
# run's own, never the real home.
import atexit  # noqa: E402
import tempfile  # noqa: E402
XDG_DATA_HOME = tempfile.mkdtemp(prefix="cvpdf-xdg-")
os.environ["XDG_DATA_HOME"] = XDG_DATA_HOME
atexit.register(shutil.rmtree, XDG_DATA_HOME, True)

# A suite started in the background by a shell without job control (as
# tests/run.sh runs them side by side) inherits SIGINT and SIGQUIT ignored,
# and so would every cvpdf it starts: the checks of what Ctrl-C does
# would fail.  Take them back (exec resets a handler, not an ignored
# signal, to the default).
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
if signal.getsignal(signal.SIGQUIT) == signal.SIG_IGN:
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


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


def reexec_system_python(suite):
    """Run this suite again under Debian's /usr/bin/python3, once, when the
    python3 running it is another (pyenv, a virtualenv) that does not see
    Debian's python3-* modules; return when that cannot help."""
    sysp = "/usr/bin/python3"
    flag = "CVPDF_REEXEC_" + suite.upper()
    if os.path.exists(sysp) and not os.environ.get(flag) and \
            os.path.realpath(sys.executable) != os.path.realpath(sysp):
        os.environ[flag] = "1"
        sys.stdout.flush()
        shutil.rmtree(XDG_DATA_HOME, True)      # exec runs no atexit handler
        os.execv(sysp, [sysp] + sys.argv)


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
    reexec_system_python(suite)
    print("FAIL: pdfminer is not installed (run tests/deps.sh as root: python3-pdfminer)")
    print("%s: 0 passed, 1 failed" % suite)
    sys.exit(1)


# The smallest good profile, for the suites that test what happens around a
# render (bad input, safe outputs, --watch) rather than the page itself.
ADA = """cv:
  name: Ada Lovelace
  email: ada@example.com
  sections:
    experience:
      - company: Analytical Engines
        position: Programmer
        start_date: 1842-09
        end_date: 1843-10
        highlights:
          - Wrote the first published program
"""


def read_pgm(path):
    """(width, height, pixels) of a binary grey PGM (P5, 8 bits), as
    pdftoppm -gray and mutool draw -c gray write it."""
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while pos < len(data) and not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1:pos + 1 + w * h]


NPM_DIR = os.path.join(ROOT, "build", "npm", "node_modules")


def npm_tool(name):
    """The path of a test tool that tests/deps.sh installs from npm into
    build/npm: a command of its .bin (yaml-language-server), else the
    package's directory (axe-core).  None when it is not there: the caller
    counts that as a failed check, never a skip."""
    for p in (os.path.join(NPM_DIR, ".bin", name), os.path.join(NPM_DIR, name)):
        if os.path.exists(p):
            return p
    return None


def stop_group(p):
    """Stop the process group a test started (start_new_session=True), as
    Ctrl-C would, and wait for it; killed when it does not end within 30 s."""
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGINT)
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()


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
            t0 = time.monotonic()
            try:
                g()
            except Exception as e:          # a crash in one group is one failure
                traceback.print_exc(file=sys.stdout)
                check("%s ran to the end" % g.__name__, False,
                      "%s: %s" % (type(e).__name__, e), _always=True)
            if os.environ.get("TEST_TIMES"):
                print("# %s: %s %.1fs" % (suite, g.__name__, time.monotonic() - t0))
    finally:
        if after:
            after()
        if tmp and not (keep_failed and failed):
            shutil.rmtree(tmp, ignore_errors=True)
    if ARGS.pattern and passed + failed == 0:
        print("no group or check of %s matches %r" % (suite, ARGS.pattern))
    return summary(suite)


# ---- cvpdf --dump, read back ------------------------------------------------
#
# The one reader of `cvpdf --dump` (and --dump=glyphs) text for every suite;
# its format is src/draw_dump.c's.  A line it cannot read is an error
# (DumpError), never skipped: a check on the dump can only pass on a dump it
# has read whole.

class DumpError(ValueError):
    """A line of --dump output that is not what src/draw_dump.c writes."""


Region = collections.namedtuple("Region", "name x0 y0 x1 y1")
Rule = collections.namedtuple("Rule", "x0 y0 x1 y1 w color")
Link = collections.namedtuple("Link", "x0 y0 x1 y1 uri")
Mark = collections.namedtuple("Mark", "y title")

_NUM = r"(-?[0-9]+(?:\.[0-9]+)?)"
_COLOR = r"#([0-9a-f]{6})"
_PAGE_RE = re.compile(r"page ([0-9]+) %sx%s$" % (_NUM, _NUM))
_REGION_RE = re.compile(r"region (\S+) %s %s %s %s$" % ((_NUM,) * 4))
_MARK_RE = re.compile(r"mark %s (.*)$" % _NUM)
_RULE_RE = re.compile(r"rule %s %s %s %s w=%s %s$" % ((_NUM,) * 5 + (_COLOR,)))
_IMAGE_RE = re.compile(r"image %s %s %s %s ([0-9]+)x([0-9]+) (gray|rgb) (.+)$" % ((_NUM,) * 4))
# The run's text is quoted, with " and \ escaped by a backslash.
_TEXT_RE = re.compile(r'text %s %s w=%s (\S+?)(\+bold)? %s %s "((?:[^"\\]|\\["\\])*)"$'
                      % (_NUM, _NUM, _NUM, _NUM, _COLOR))
_LINK_RE = re.compile(r"link %s %s %s %s (\S+)$" % ((_NUM,) * 4))
_AT_RE = re.compile(r"  at((?: %s)*)$" % _NUM)
_UNESCAPE_RE = re.compile(r'\\(["\\])')
_KINDS = ("page ", "region ", "mark ", "rule ", "image ", "text ", "link ", "  at")


class Dump(list):
    """The pages of one --dump: a list of dicts, one a page, with
        n, w, h     the page's number and size in points
        regions     [Region(name, x0, y0, x1, y1)], in the dump's order
        region      {name: (x0, y0, x1, y1)}
        marks       [Mark(y, title)] (the bookmarks on the page)
        rules       [Rule(x0, y0, x1, y1, w, color)]
        images      [{x, y, w, h, px: (width, height), mode, file}]
        runs        [{x, y, w, font, face, bold, size, color, text, line, at}]
        links       [Link(x0, y0, x1, y1, uri)]
    A run's font is its face's PostScript name as the dump writes it (with
    "+bold" for synthetic bold), face the name alone, bold whether it is
    synthetic bold, color "#rrggbb", text the run's text unescaped, line
    the dump's line, at the glyphs' origins of --dump=glyphs (else None).
    other: the lines that are not the dump's (--explain's), in order."""

    def __init__(self):
        super().__init__()
        self.other = []


def _fail(lineno, line, what):
    raise DumpError("--dump line %d: %s: %r" % (lineno, what, line[:200]))


def parent_pids():
    """{pid: its parent's pid} of every process, read from /proc (a process
    that ends while it is read is left out)."""
    parent = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open("/proc/%s/stat" % d) as f:
                    st = f.read()
            except OSError:
                continue
            parent[int(d)] = int(st[st.rindex(")") + 2:].split()[1])
    return parent


def read_dumps(text, other=False):
    """Read the --dump text of one or more profiles (a batch prints one
    dump after another, each from "page 1"): a list of Dump.  Every line
    must be one of the dump's, else DumpError; with other=True, lines that
    are none of its kinds (--explain's, a batch's summary) are kept in the
    .other of the dump they come before (the last dump for trailing ones)."""
    dumps = []
    pending = []                    # other lines before the next dump's first page
    page = None
    last_run = None
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.startswith(_KINDS):
            if not other:
                _fail(lineno, line, "not a line of --dump")
            pending.append(line)
            continue
        kind = line[:line.find(" ", 1)] if not line.startswith("  at") else "at"
        if kind == "page":
            m = _PAGE_RE.match(line)
            if not m:
                _fail(lineno, line, "a page line of --dump this reader cannot read")
            n = int(m.group(1))
            if n == 1 or not dumps:
                if n != 1:
                    _fail(lineno, line, "the first page is not page 1")
                dumps.append(Dump())
                dumps[-1].other.extend(pending)
                pending = []
            elif n != len(dumps[-1]) + 1:
                _fail(lineno, line, "page %d after page %d" % (n, len(dumps[-1])))
            elif pending:
                dumps[-1].other.extend(pending)
                pending = []
            page = {"n": n, "w": float(m.group(2)), "h": float(m.group(3)), "regions": [],
                    "region": {}, "marks": [], "rules": [], "images": [], "runs": [],
                    "links": []}
            dumps[-1].append(page)
            last_run = None
            continue
        if page is None:
            _fail(lineno, line, "a line of --dump before its first page")
        if kind == "text":
            m = _TEXT_RE.match(line)
            if not m:
                _fail(lineno, line, "a text line of --dump this reader cannot read")
            t = m.group(8)
            last_run = {"x": float(m.group(1)), "y": float(m.group(2)),
                        "w": float(m.group(3)),
                        "font": m.group(4) + (m.group(5) or ""), "face": m.group(4),
                        "bold": bool(m.group(5)), "size": float(m.group(6)),
                        "color": "#" + m.group(7),
                        "text": _UNESCAPE_RE.sub(r"\1", t) if "\\" in t else t,
                        "line": line, "at": None}
            page["runs"].append(last_run)
            continue
        if kind == "at":
            m = _AT_RE.match(line)
            if not m or last_run is None or last_run["at"] is not None:
                _fail(lineno, line, "a glyph line of --dump=glyphs not after a text line")
            last_run["at"] = [float(v) for v in m.group(1).split()]
            continue
        last_run = None
        if kind == "region":
            m = _REGION_RE.match(line)
            if not m:
                _fail(lineno, line, "a region line of --dump this reader cannot read")
            g = Region(m.group(1), *(float(m.group(i)) for i in range(2, 6)))
            page["regions"].append(g)
            page["region"][g.name] = tuple(g[1:])
        elif kind == "mark":
            m = _MARK_RE.match(line)
            if not m:
                _fail(lineno, line, "a mark line of --dump this reader cannot read")
            page["marks"].append(Mark(float(m.group(1)), m.group(2)))
        elif kind == "rule":
            m = _RULE_RE.match(line)
            if not m:
                _fail(lineno, line, "a rule line of --dump this reader cannot read")
            page["rules"].append(Rule(*(float(m.group(i)) for i in range(1, 6)),
                                      "#" + m.group(6)))
        elif kind == "image":
            m = _IMAGE_RE.match(line)
            if not m:
                _fail(lineno, line, "an image line of --dump this reader cannot read")
            page["images"].append({"x": float(m.group(1)), "y": float(m.group(2)),
                                   "w": float(m.group(3)), "h": float(m.group(4)),
                                   "px": (int(m.group(5)), int(m.group(6))),
                                   "mode": m.group(7), "file": m.group(8)})
        elif kind == "link":
            m = _LINK_RE.match(line)
            if not m:
                _fail(lineno, line, "a link line of --dump this reader cannot read")
            page["links"].append(Link(*(float(m.group(i)) for i in range(1, 5)), m.group(5)))
        else:
            _fail(lineno, line, "not a line of --dump")
    if pending:
        if not dumps:
            dumps.append(Dump())
        dumps[-1].other.extend(pending)
    return dumps


def read_dump(text, other=False):
    """Read the --dump text of one profile: a Dump (see read_dumps).  Text
    with no page at all is an empty Dump; with more than one dump in it,
    DumpError."""
    dumps = read_dumps(text, other)
    if len(dumps) > 1:
        raise DumpError("--dump text of %d profiles where one was expected" % len(dumps))
    return dumps[0] if dumps else Dump()


# ---- a binary as if cvpdf were not installed --------------------------------

def compiled_dirs(binary):
    """The data and module directories compiled into `binary`
    (PREFIX/share/cvpdf, PREFIX/lib/cvpdf), read from `binary --datadir`
    with CVPDF_DATADIR unset, run where no data is beside it."""
    env = {k: v for k, v in os.environ.items() if k != "CVPDF_DATADIR"}
    p = subprocess.run([binary, "--datadir"], capture_output=True, env=env, cwd="/")
    data = p.stdout.decode().strip().splitlines()[-1] if p.stdout.strip() else ""
    if not data.endswith("/share/cvpdf"):
        raise RuntimeError("%s --datadir: %r" % (binary, p.stdout + p.stderr))
    return data, os.path.join(os.path.dirname(os.path.dirname(data)), "lib", "cvpdf")


def uninstalled(argv, binary):
    """argv, to run so that the directories compiled into `binary`
    (compiled_dirs) hold nothing, whatever is installed on this machine:
    those that exist are covered by an empty tmpfs in a private mount
    namespace (unshare -m, as root).  argv as it is when neither exists."""
    hide = [d for d in compiled_dirs(binary) if os.path.isdir(d)]
    if not hide:
        return list(argv)
    script = "".join('mount -t tmpfs cvpdf-test "%s" && ' % d for d in hide) + 'exec "$@"'
    return ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh"] + list(argv)
