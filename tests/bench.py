#!/usr/bin/env python3
"""make bench: how fast cvpdf is, how much memory it takes, how big its PDFs are.

What it reports (docs/performance.md explains the figures and the method):

  1. The machine: CPU model, cores, kernel, compiler and library versions.
  2. One résumé, the way a user runs it: `cvpdf -q profiles/fang.yaml -o X`
     as a fresh process, RUNS times; the median (and the spread) of the wall
     time, the peak resident memory (from wait4's rusage), the PDF size;
     then the same résumé as an HTML page (-o X.html), its time beside the
     PDF's (issue 29).
  3. The same for every profile (*-zh.yaml with layouts/zh.yaml, as `make
     demo` renders them, the others with the default layout); then each
     profile's PDF size tagged, untagged, --pdfa and --pdfa --pdfua, and
     the sizes over every profile x layout, tagged and untagged (issue 28).
  4. A batch: the default-layout profiles, repeated to BATCH résumés, in one
     process pinned to one core (taskset -c 0), BATCH_RUNS times; the median
     résumés per second and the peak memory.
  5. The same batch on every core, as -j 0 (in cvpdf's own process), -j 1
     (one worker process) and -j 2 (two workers, the default on two cores),
     and for reference two -j 0 processes with half the batch each at once
     (the most two processes get from this machine); JOBS_RUNS rounds, the
     four in turn in each; the median rates and -j 2 against -j 0.
  6. Large inputs, just under the 16 MB input limit (issue 13): one 15 MB
     word, one 15 MB paragraph, 15 MB of Chinese in one paragraph and 15 MB
     of ordinary bullets, made by tests/patho/gen.py; each once, its wall
     time, its peak memory and that memory per MB of input.

  7. --watch (issue 17): `cvpdf --watch profiles/fang.yaml` (a copy) as
     an editor saves it (a new file renamed over the old one), WATCH_RUNS
     times: the median time from the rename to cvpdf's "rendered again"
     line, written once the new output is in place; for the PDF and for
     PNG pages.

  8. Instructions (callgrind, when valgrind is there): fang.yaml fresh, its
     HTML page (issue 29), and per résumé of 20 in one process (he, fang,
     li, chaoyang-he, five times each, -j 0).

Timing is reported, never asserted: the targets are printed beside the
figures for reference only.  Environment: CVPDF=path/to/cvpdf to measure
another build, RUNS, BATCH, BATCH_RUNS, JOBS_RUNS to change the counts, LARGE_MB to
change the size of the large inputs (0 leaves them out), WATCH_RUNS the saves
timed under --watch, CALLGRIND=0 to leave the instruction counts out.
"""
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.abspath(os.environ.get("CVPDF", os.path.join(ROOT, "cvpdf")))
RUNS = int(os.environ.get("RUNS", 31))
BATCH = int(os.environ.get("BATCH", 100))
BATCH_RUNS = int(os.environ.get("BATCH_RUNS", 5))
JOBS_RUNS = int(os.environ.get("JOBS_RUNS", 9))
LARGE_MB = float(os.environ.get("LARGE_MB", 15))
WATCH_RUNS = int(os.environ.get("WATCH_RUNS", 21))
HEADLINE = "profiles/fang.yaml"
# The goals the figures are read against (not checked).
TARGET_MS, TARGET_MIB, TARGET_SCALE = 15, 16, 1.8
TARGET_RATE = 250                             # résumés/s with -j 0 (issue 24; 100 before)
TARGET_WATCH_MS = 50
TARGET_FRESH_MI, TARGET_BATCH_MI = 80, 35    # millions of instructions (issue 24)
CALLGRIND = os.environ.get("CALLGRIND", "1") != "0"


def layout_args(prof):
    return ["-l", "layouts/zh.yaml"] if prof.endswith("-zh.yaml") else []


# The runner: fork, exec, wait4, N times, printing each run's wall time and
# peak RSS.  Measuring from Python itself would be wrong for memory: a child
# forked from Python carries Python's own resident size (~15 MiB) into its
# ru_maxrss at exec, whatever cvpdf then uses.  A small C program's does
# not, and it adds no interpreter time to the wall clock either.
RUNNER_C = r"""
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    for (int i = 0; i < n; i++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        pid_t pid = fork();
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            dup2(null, 1);
            dup2(null, 2);
            execv(argv[2], argv + 2);
            _exit(127);
        }
        int status;
        struct rusage ru;
        if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
            return 1;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        printf("%.6f %ld %d\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
               ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128);
    }
    return 0;
}
"""
RUNNER = None


def build_runner(tmp):
    global RUNNER
    src, exe = os.path.join(tmp, "runner.c"), os.path.join(tmp, "runner")
    with open(src, "w") as f:
        f.write(RUNNER_C)
    cc = os.environ.get("CC", "cc")
    if subprocess.run([cc, "-O2", "-o", exe, src]).returncode == 0:
        RUNNER = exe


def timed(args, n):
    """n runs of args: [(seconds, peak KiB)]."""
    args = [shutil.which(args[0]) or args[0]] + args[1:]
    if RUNNER:
        out = subprocess.run([RUNNER, str(n)] + args, cwd=ROOT, capture_output=True,
                             text=True).stdout.split("\n")
        runs = [l.split() for l in out if l]
        if len(runs) != n or any(r[2] != "0" for r in runs):
            sys.exit("cvpdf failed: %s" % " ".join(args))
        return [(float(r[0]), int(r[1])) for r in runs]
    res = []                       # no C compiler: Python's RSS is included
    for _ in range(n):
        t0 = time.perf_counter()
        p = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("cvpdf failed: %s" % " ".join(args))
        res.append((time.perf_counter() - t0, ru.ru_maxrss))
    return res


def first_line(args):
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=10).stdout
        return out.strip().splitlines()[0] if out.strip() else "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    libs = []
    for pkg in ("harfbuzz", "freetype2", "yaml-0.1", "libunibreak", "zlib"):
        v = first_line(["pkg-config", "--modversion", pkg])
        if v != "?":
            libs.append("%s %s" % (pkg, v))
    hpdf = first_line(["dpkg-query", "-W", "-f", "${Version}", "libhpdf-2.3.0"])
    if hpdf != "?":
        libs.append("libharu %s" % hpdf)
    print("machine:  %s, %d cores (%d usable), %s" % (cpu, os.cpu_count(), usable,
                                                      platform.machine()))
    print("kernel:   %s %s" % (platform.system(), platform.release()))
    print("compiler: %s (CFLAGS as built by make)" % first_line([os.environ.get("CC", "cc"),
                                                                 "--version"]))
    print("libs:     %s" % ", ".join(libs))
    print("binary:   %s" % os.path.relpath(BIN, ROOT))
    if not RUNNER:
        print("note:     no C compiler for the runner: peak RSS includes Python's own")


def spread(xs):
    """Median, and the 10th and 90th percentiles (nearest rank)."""
    s = sorted(xs)
    pick = lambda q: s[min(len(s) - 1, int(q * len(s)))]
    return statistics.median(s), pick(0.1), pick(0.9)


def fresh(prof, tmp):
    out = os.path.join(tmp, os.path.basename(prof)[:-5] + ".pdf")
    args = [BIN, "-q", prof, "-o", out] + layout_args(prof)
    timed(args, 1)                 # warm the page cache; not counted
    samples = timed(args, RUNS)
    med, lo, hi = spread([s[0] * 1000 for s in samples])
    rss = max(s[1] for s in samples) / 1024
    info = subprocess.run(["pdfinfo", out], capture_output=True, text=True).stdout
    pages = next((l.split()[1] for l in info.splitlines() if l.startswith("Pages:")), "?")
    return med, lo, hi, rss, os.path.getsize(out) / 1024, pages


def fresh_html(prof, tmp):
    """The same as fresh(), writing the HTML page (its faces subset and
    compressed as WOFF2)."""
    out = os.path.join(tmp, os.path.basename(prof)[:-5] + ".html")
    args = [BIN, "-q", prof, "-o", out] + layout_args(prof)
    timed(args, 1)
    samples = timed(args, RUNS)
    med, lo, hi = spread([s[0] * 1000 for s in samples])
    return med, lo, hi, max(s[1] for s in samples) / 1024, os.path.getsize(out) / 1024


def sizes(profiles, tmp):
    """Each profile's PDF tagged (packed: object streams, PDF 1.7), untagged
    (`pdf: tagged: false`, packed too), --pdfa (PDF/A-1: no object streams)
    and --pdfa --pdfua, in every layout: what tagging costs (issue 28)."""
    layouts = sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "layouts"))
                     if f.endswith(".yaml"))
    print("PDF sizes, KiB (tagged and untagged are packed into object streams):")
    print("  %-26s %9s %9s %9s %12s" % ("profile (default layout)", "tagged", "untagged",
                                        "--pdfa", "--pdfa-pdfua"))
    total = {"tagged": 0, "untagged": 0}
    for prof in profiles:
        row = []
        for extra in ([], ["untagged"], ["--pdfa"], ["--pdfa", "--pdfua"]):
            row.append(pdf_size(prof, None, extra, tmp))
        print("  %-26s %9.1f %9.1f %9.1f %12.1f" % (prof, *row))
    for prof in profiles:
        for lay in layouts:
            total["tagged"] += pdf_size(prof, lay, [], tmp)
            total["untagged"] += pdf_size(prof, lay, ["untagged"], tmp)
    print("  every profile x layout: tagged %.0f KiB, untagged %.0f KiB: tagging costs %.0f KiB"
          % (total["tagged"], total["untagged"], total["tagged"] - total["untagged"]))


def pdf_size(prof, layout, extra, tmp):
    """The size in KiB of prof's PDF in `layout` (None: its own), with the
    options `extra` (\"untagged\": a layout that says pdf: tagged: false)."""
    out = os.path.join(tmp, "size.pdf")
    lay = layout_args(prof) if layout is None else ["-l", layout]
    if "untagged" in extra:
        base = lay[1] if lay else "onecolumn"
        base = os.path.join(ROOT, base if base.endswith(".yaml") else "layouts/%s.yaml" % base)
        path = os.path.join(tmp, "untagged-%s" % os.path.basename(base))
        with open(path, "w") as f:
            f.write("extends: %s\npdf:\n  tagged: false\n" % base)
        lay, extra = ["-l", path], []
    r = subprocess.run([BIN, "-q", prof, "-o", out] + lay + extra, capture_output=True,
                       cwd=ROOT)
    return os.path.getsize(out) / 1024 if r.returncode == 0 and os.path.exists(out) else 0.0


def copies(names, n, d):
    """n copies of the profiles `names` in turn, in directory d, under distinct
    names (an output name each), with the .bib files of profiles/ beside them;
    made once.  Copies, not links: cvpdf renders a file given twice, by any
    name, once."""
    out = [os.path.join(d, "%03d-%s" % (i, os.path.basename(names[i % len(names)])))
           for i in range(n)]
    if not os.path.isdir(d):
        os.makedirs(d)
        for i, o in enumerate(out):
            shutil.copyfile(os.path.join(ROOT, names[i % len(names)]), o)
        for f in os.listdir(os.path.join(ROOT, "profiles")):
            if f.endswith(".bib"):
                shutil.copyfile(os.path.join(ROOT, "profiles", f), os.path.join(d, f))
    return out


def batch_names(profiles, tmp):
    """BATCH copies of the default-layout profiles (copies())."""
    plain = [p for p in profiles if not layout_args(p)]
    return plain, copies(plain, BATCH, os.path.join(tmp, "b"))


def instructions(args, tmp):
    """Instructions cvpdf executes for `args` (callgrind: they do not drift
    with the machine's load as times do), or None without valgrind."""
    if not shutil.which("valgrind"):
        return None
    out = os.path.join(tmp, "callgrind.out")
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, BIN]
                       + args, capture_output=True, text=True)
    m = re.search(r"^(?:summary|totals): (\d+)", open(out).read() if os.path.exists(out)
                  else "", re.M)
    os.remove(out) if os.path.exists(out) else None
    return int(m.group(1)) if r.returncode == 0 and m else None


def print_instructions(tmp):
    """fang.yaml fresh, as a PDF and as an HTML page, and the batch of issue 24 (he, fang, li and
    chaoyang-he, five times each, chaoyang-he.bib beside them, -j 0), counted
    by callgrind."""
    if not CALLGRIND or not shutil.which("valgrind"):
        print("instructions (callgrind): left out (no valgrind, or CALLGRIND=0)")
        return
    print("instructions (callgrind; a count, not a time):")
    def mi(n, per):
        return "%8.1f M" % (n / per / 1e6) if n else "  failed"
    n = instructions(["-q", os.path.join(ROOT, HEADLINE), "-o", os.path.join(tmp, "cg.pdf")],
                     tmp)
    print("  %-34s %s   target <= %d M" % ("fang.yaml, fresh process", mi(n, 1),
                                            TARGET_FRESH_MI))
    h = instructions(["-q", os.path.join(ROOT, HEADLINE), "-o", os.path.join(tmp, "cg.html")],
                     tmp)
    print("  %-34s %s   (issue 29: target <= the PDF's)" % ("fang.yaml as an HTML page", mi(h, 1)))
    four = ["profiles/%s.yaml" % p for p in ("he", "fang", "li", "chaoyang-he")]
    names = copies(four, 20, os.path.join(tmp, "cg20"))
    n = instructions(["-q", "-j", "0", "-o", os.path.join(tmp, "cg20o") + "/"] + names, tmp)
    print("  %-34s %s   target <= %d M" % ("20 résumés in one process, each", mi(n, 20),
                                            TARGET_BATCH_MI))
    # The batch above is the four profiles five times: from the second
    # time on, a résumé finds its paragraphs set (wrap.h's shared cache).
    # The four once each, for what distinct résumés cost.
    n = instructions(["-q", "-j", "0", "-o", os.path.join(tmp, "cg4o") + "/"] + names[:4], tmp)
    print("  %-34s %s   (the same four once each: no copies)"
          % ("4 résumés in one process, each", mi(n, 4)))


def batch(profiles, tmp):
    plain, names = batch_names(profiles, tmp)
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    # One process: where batches run in worker processes (-j), -j 0 keeps
    # them in cvpdf's own, as the goal is stated.
    helptext = subprocess.run([BIN, "--help"], capture_output=True, text=True).stdout
    jobs = ["-j", "0"] if "--jobs" in helptext else []
    args = pin + [BIN, "-q"] + jobs + ["-o", os.path.join(tmp, "bo") + "/"] + names
    timed(args, 1)                 # warm up
    runs = timed(args, BATCH_RUNS)
    rates = [BATCH / w for w, _ in runs]
    med, lo, hi = spread(rates)
    return len(plain), med, lo, hi, max(r for _, r in runs) / 1024, bool(pin), jobs


def batch_jobs(profiles, tmp):
    """The batch on every core: -j 0, -j 1 and -j 2, and, for reference, two
    -j 0 processes on half the batch each at once (what two processes get
    from this machine, whatever cvpdf does).  The four take turns, run after
    run, so that a change in the machine's load is spread over all of them.
    Returns {mode: (median, 10th, 90th percentile)} in résumés/s."""
    _, names = batch_names(profiles, tmp)
    half = BATCH // 2

    def cmd(jobs, part, out):
        return [BIN, "-q", "-j", str(jobs), "-o", os.path.join(tmp, out) + "/"] + part

    modes = {0: cmd(0, names, "bj0"), 1: cmd(1, names, "bj1"), 2: cmd(2, names, "bj2"),
             "halves": ["sh", "-c", "%s & %s & wait" % (
                 " ".join(shlex.quote(a) for a in cmd(0, names[:half], "bh1")),
                 " ".join(shlex.quote(a) for a in cmd(0, names[half:], "bh2")))]}
    rates = {m: [] for m in modes}
    for m, args in modes.items():
        timed(args, 1)             # warm up
    for _ in range(JOBS_RUNS):
        for m, args in modes.items():
            rates[m].append(BATCH / timed(args, 1)[0][0])
    return {m: spread(r) for m, r in rates.items()}
def watch_latency(tmp, out):
    """Save a copy of HEADLINE by rename WATCH_RUNS times under `cvpdf
    --watch -o out`; ([(ms from the rename to the "rendered again" line,
    ms cvpdf says the render took)], CPU ms per save), or None when it did
    not work.  The CPU time (from /proc/PID/stat, in clock ticks, summed
    over every save) is what the figures would be on an idle machine."""
    import queue
    import threading
    d = os.path.join(tmp, "watch")
    os.makedirs(d, exist_ok=True)
    prof = os.path.join(d, "fang.yaml")
    text = open(os.path.join(ROOT, HEADLINE), encoding="utf-8").read()
    with open(prof, "w", encoding="utf-8") as f:
        f.write(text)
    p = subprocess.Popen([BIN, "--watch", "fang.yaml", "-o", out], cwd=d,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    lines = queue.Queue()

    def read():
        for raw in p.stderr:
            lines.put(raw.decode("utf-8", "replace"))
        lines.put(None)

    def until(pattern, secs=30):
        deadline = time.monotonic() + secs
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                return None
            if line is None:
                return None
            m = re.search(pattern, line)
            if m:
                return m
        return None

    threading.Thread(target=read, daemon=True).start()
    res = []

    def cpu_ticks():
        try:
            with open("/proc/%d/stat" % p.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            return None

    try:
        if not until(r"watching \d+ file"):
            return None
        for i in range(WATCH_RUNS + 1):
            if i == 1:
                ticks0 = cpu_ticks()
            tmpname = os.path.join(d, ".fang.yaml.swp")
            with open(tmpname, "w", encoding="utf-8") as f:
                f.write(text + "# save %d\n" % i)
            t0 = time.perf_counter()
            os.replace(tmpname, prof)
            m = until(r"changed; (?:rendered again in (\d+) ms|not rendered)")
            t1 = time.perf_counter()
            if not m or m.group(1) is None:
                return None
            if i:                       # the first one warms up
                res.append(((t1 - t0) * 1000, float(m.group(1))))
            time.sleep(0.05)
        ticks1 = cpu_ticks()
    finally:
        p.kill()
        p.wait()
    cpu = None
    if ticks0 is not None and ticks1 is not None:
        cpu = (ticks1 - ticks0) * 1000 / os.sysconf("SC_CLK_TCK") / WATCH_RUNS
    return res, cpu


def print_watch(tmp):
    print("--watch: %s saved by rename (a copy), %d saves, save -> new output"
          % (HEADLINE, WATCH_RUNS))
    for label, out in (("PDF", "fang.pdf"), ("PNG pages", "fang.png")):
        got = watch_latency(tmp, out)
        if not got:
            print("  %-10s did not work" % label)
            continue
        res, cpu = got
        med, lo, hi = spread([r[0] for r in res])
        # The target is the PDF's; PNG pages are cairo's rasterising on top.
        print("  %-10s %6.1f ms median (10%%-90%%: %.1f-%.1f ms), rendering %.1f ms of it;"
              " CPU %s per save%s"
              % (label, med, lo, hi, statistics.median(r[1] for r in res),
                 "%.1f ms" % cpu if cpu is not None else "?",
                 "   target <= %d ms" % TARGET_WATCH_MS if label == "PDF" else ""))


def large_inputs(nbytes):
    """The large cases: (name, profile text), each about nbytes long."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "patho"))
    import gen
    per_bullet = len(gen.bullets(200)) / 200      # about 120 bytes
    return [
        ("one word", lambda: gen.long_word(nbytes)),
        ("one paragraph", lambda: gen.paragraph(nbytes)),
        ("Chinese, one paragraph", lambda: gen.cjk(nbytes // 3)),
        # At most 25,000: a part of more than 30,000 items is refused (the
        # limits of docs/profiles.md), so this case is smaller than the rest.
        ("bullets (25,000)", lambda: gen.bullets(min(int(nbytes / per_bullet), 25000))),
    ]


def large(tmp):
    nbytes = int(LARGE_MB * 1e6)
    print("large inputs, fresh process, one run each (nothing fails here):")
    print("  %-24s %9s %8s %10s %12s %6s" % ("case", "input MB", "wall s", "peak MiB",
                                              "MiB per MB", "pages"))
    for name, make in large_inputs(nbytes):
        path = os.path.join(tmp, "large.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(make())
        size = os.path.getsize(path) / 1e6
        out = os.path.join(tmp, "large.pdf")
        (wall, kib), = timed([BIN, "-q", path, "-o", out], 1)
        info = subprocess.run(["pdfinfo", out], capture_output=True, text=True).stdout
        pages = next((l.split()[1] for l in info.splitlines() if l.startswith("Pages:")), "?")
        print("  %-24s %9.1f %8.2f %10.1f %12.1f %6s" % (name, size, wall, kib / 1024,
                                                        kib / 1024 / size, pages))
        os.remove(path)
        os.remove(out)


def publications(tmp):
    """The 2,000-publication profile of tests/patho (long author lists with
    the owner's name in each): peak memory, against the 64 MB goal."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "patho"))
    import gen
    path = os.path.join(tmp, "publications.yaml")
    with open(path, "w", encoding="utf-8") as f:
        f.write(gen.publications(2000))
    out = os.path.join(tmp, "publications.pdf")
    (wall, kib), = timed([BIN, "-q", path, "-o", out], 1)
    print("2,000 publications (tests/patho), fresh process: %.2f s, peak %.1f MiB "
          "(goal: 64 MB or less), %.1f MB of input" % (wall, kib / 1024,
                                                      os.path.getsize(path) / 1e6))
    os.remove(path)
    os.remove(out)


def bib_publications(tmp):
    """Publications from a generated .bib (tests/bibgen.py): cvpdf import
    and a whole PDF, at 1,000 and 2,000 entries; the ratios show whether
    time and memory grow linearly."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import bibgen
    print("publications from a .bib (tests/bibgen.py), fresh process, one run each:")
    print("  %-8s %9s %12s %12s %10s %10s" % ("entries", "bib MB", "import s", "import MiB",
                                               "PDF s", "PDF MiB"))
    rows = []
    for n in (1000, 2000):
        bib = os.path.join(tmp, "g%d.bib" % n)
        with open(bib, "w", encoding="utf-8") as f:
            f.write(bibgen.bib(n))
        prof = os.path.join(tmp, "g%d.yaml" % n)
        with open(prof, "w", encoding="utf-8") as f:
            f.write("cv:\n  name: Ada Lovelace\n  sections:\n    publications: g%d.bib\n" % n)
        out = os.path.join(tmp, "g%d.pdf" % n)
        (iw, ik), = timed([BIN, "import", bib], 1)
        (pw, pk), = timed([BIN, "-q", prof, "-o", out], 1)
        rows.append((iw, ik, pw, pk))
        print("  %-8d %9.2f %12.2f %12.1f %10.2f %10.1f" % (n, os.path.getsize(bib) / 1e6, iw,
                                                          ik / 1024, pw, pk / 1024))
        for f in (bib, prof, out):
            os.remove(f)
    (a, b) = rows
    print("  2,000 / 1,000: import %.2fx time, PDF %.2fx time, %.2fx peak memory "
          "(linear: about 2x, memory less as it includes the fonts)"
          % (b[0] / a[0], b[2] / a[2], b[3] / a[3]))


def main():
    if not os.access(BIN, os.X_OK):
        sys.exit("no %s: run make first" % BIN)
    tmp = tempfile.mkdtemp(prefix="cvpdf-bench-")
    build_runner(tmp)
    profiles = sorted(os.path.join("profiles", p) for p in os.listdir(os.path.join(ROOT, "profiles"))
                      if p.endswith(".yaml"))
    print("cvpdf bench (a report: nothing here fails)")
    machine()
    print()

    med, lo, hi, rss, kib, pages = fresh(HEADLINE, tmp)
    print("one résumé, fresh process: cvpdf -q %s -o FILE, %d runs" % (HEADLINE, RUNS))
    print("  wall      %6.1f ms median (10%%-90%%: %.1f-%.1f ms)   target <= %d ms"
          % (med, lo, hi, TARGET_MS))
    print("  memory    %6.1f MiB peak RSS                      target <= %d MiB"
          % (rss, TARGET_MIB))
    print("  PDF       %6.1f KiB, %s pages" % (kib, pages))
    hmed, hlo, hhi, hrss, hkib = fresh_html(HEADLINE, tmp)
    print("  HTML      %6.1f ms median (10%%-90%%: %.1f-%.1f ms), %.1f MiB peak, %.1f KiB "
          "(-o FILE.html, issue 29: target <= the PDF's %.1f ms)"
          % (hmed, hlo, hhi, hrss, hkib, med))
    print()

    print_watch(tmp)
    print()

    print_instructions(tmp)
    print()

    nplain, rate, rlo, rhi, brss, pinned, jobs = batch(profiles, tmp)
    print("batch: %d résumés (%d profiles repeated) in one process%s%s, %d runs"
          % (BATCH, nplain, " (-j 0)" if jobs else "",
             " on one core (taskset -c 0)" if pinned else "", BATCH_RUNS))
    print("  rate      %6.1f résumés/s median (10%%-90%%: %.1f-%.1f)  target >= %d/s"
          % (rate, rlo, rhi, TARGET_RATE))
    print("  per résumé %5.2f ms;  peak RSS %.1f MiB" % (1000 / rate, brss))
    print()

    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    print("batch: the same %d résumés on every core (%d usable), %d runs each, in turns"
          % (BATCH, usable, JOBS_RUNS))
    rates = batch_jobs(profiles, tmp)
    for m, what in ((0, "in cvpdf's own process"), (1, "one worker process"),
                    (2, "two worker processes")):
        med, lo, hi = rates[m]
        print("  -j %d      %6.1f résumés/s median (10%%-90%%: %.1f-%.1f)  %s"
              % (m, med, lo, hi, what))
    med, lo, hi = rates["halves"]
    print("  2 x -j 0  %6.1f résumés/s median (10%%-90%%: %.1f-%.1f)  two at once, half each"
          % (med, lo, hi))
    print("  -j 2 is %.2fx -j 0 (target >= %.1fx on two cores); the machine gives two"
          " processes %.2fx" % (rates[2][0] / rates[0][0], TARGET_SCALE,
                                rates["halves"][0] / rates[0][0]))
    print()

    print("every profile, fresh process, %d runs each:" % RUNS)
    print("  %-26s %10s %10s %9s %6s" % ("profile", "median ms", "peak MiB", "PDF KiB", "pages"))
    for prof in profiles:
        med, lo, hi, rss, kib, pages = fresh(prof, tmp)
        label = prof + (" [zh]" if layout_args(prof) else "")
        print("  %-26s %10.1f %10.1f %9.1f %6s" % (label, med, rss, kib, pages))
    print()
    sizes(profiles, tmp)
    if LARGE_MB > 0:
        print()
        large(tmp)
    print()
    publications(tmp)
    print()
    bib_publications(tmp)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
