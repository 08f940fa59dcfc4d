#!/usr/bin/env python3
"""make bench: how fast cvpdf is, how much memory it takes, how big its PDFs are.

For each profile: RUNS fresh processes (the way a user runs cvpdf), the
median wall time, the peak resident memory (from wait4's rusage) and the
PDF size; *-zh.yaml profiles with layouts/zh.yaml, as `make demo` renders
them, the others with the default layout.  Then one process rendering every
default-layout profile BATCH times over, for résumés per second.  Timing is
reported, never asserted.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "cvpdf")
RUNS, BATCH = 21, 25


def layout_args(prof):
    return ["-l", "layouts/zh.yaml"] if prof.endswith("-zh.yaml") else []


def timed(args):
    t0 = time.perf_counter()
    p = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("cvpdf failed: %s" % " ".join(args))
    return wall, ru.ru_maxrss      # seconds, KiB


def main():
    tmp = tempfile.mkdtemp(prefix="cvpdf-bench-")
    profiles = sorted(os.path.join("profiles", p) for p in os.listdir(os.path.join(ROOT, "profiles"))
                      if p.endswith(".yaml"))
    print("cvpdf bench: %d runs per profile, fresh process each (%s, %d cores)"
          % (RUNS, os.uname().machine, os.cpu_count()))
    print("%-26s %10s %10s %9s %6s" % ("profile", "median ms", "peak MiB", "PDF KiB", "pages"))
    for prof in profiles:
        out = os.path.join(tmp, os.path.basename(prof)[:-5] + ".pdf")
        samples = [timed([BIN, "-q", prof, "-o", out] + layout_args(prof)) for _ in range(RUNS)]
        med = statistics.median(s[0] for s in samples) * 1000
        rss = max(s[1] for s in samples) / 1024
        pages = subprocess.run(["pdfinfo", out], capture_output=True, text=True).stdout
        npages = next((l.split()[1] for l in pages.splitlines() if l.startswith("Pages:")), "?")
        label = prof + (" [zh]" if layout_args(prof) else "")
        print("%-26s %10.1f %10.1f %9.1f %6s" % (label, med, rss, os.path.getsize(out) / 1024, npages))
    batch = [p for p in profiles if not layout_args(p)] * BATCH
    # Distinct output names are required, so link the profiles under new names.
    d = os.path.join(tmp, "b")
    os.makedirs(d)
    names = []
    for i, p in enumerate(batch):
        names.append(os.path.join(d, "%03d-%s" % (i, os.path.basename(p))))
        os.symlink(os.path.join(ROOT, p), names[-1])
    walls = []
    for _ in range(3):
        wall, rss = timed(["taskset", "-c", "0", BIN, "-q", "-o", os.path.join(tmp, "bo") + "/"] + names)
        walls.append(wall)
    wall = statistics.median(walls)
    print("batch: %d résumés in one process on one core: %.0f ms, %.0f résumés/s, peak %.1f MiB"
          % (len(batch), wall * 1000, len(batch) / wall, rss / 1024))
    subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
