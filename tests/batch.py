#!/usr/bin/env python3
"""Batch mode, the CV book (--merge) and shared defaults (--defaults).

Usage: tests/batch.py CVPDF_BINARY [-k PATTERN] [--list]

  workers   a batch of good, broken, crashing and hanging profiles: each
            failure costs that profile alone, with its name in the message;
            the others are rendered; exit 1; "N rendered, M failed"; a
            crashed or killed worker leaves no temporary file and an
            existing PDF untouched; -j 1, -j 4 and -j 0 give the same bytes
  lifetime  long-lived workers: with -j 1, a worker that crashes or hangs
            mid-batch is replaced and the profiles after it render; the
            messages of two profiles never interleave; killing the parent
            with SIGKILL leaves no worker running (its process group empties)
  progress  on a terminal a line per finished profile with a running count;
            none when not a terminal or with -q
  names     two profiles writing the same output: an error before anything
            is rendered
  merge     one PDF, résumés in the order given, a bookmark per person with
            their sections beneath, page labels per person, every page;
            a broken profile is left out of the book and reported
  defaults  values from --defaults appear where a profile has none; the
            profile's own values win; an error in the defaults names them
  nproc     a limit on processes lets 3 of -j 8's workers start: they
            render every profile
  stop      Ctrl-Z longer than --timeout, then fg: nothing given up
  stopped_worker  SIGTERM while a worker is stopped: cvpdf ends, no worker left
  escaped   a crashing or hanging profile's file name is escaped in messages

The crash and the hang are made by the CVPDF_TEST_FAULT hook in batch.c
(crash:PROFILE or hang:PROFILE), as a bug would make them.

Every check prints "ok NAME" or "FAIL NAME: why"; the last line is
"batch: N passed, M failed".
"""
import glob
import os
import pty
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import testlib
from testlib import BIN, ROOT, check, need_pdfminer, run

need_pdfminer("batch")
from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdfparser import PDFParser

TMP = tempfile.mkdtemp(prefix="cvpdf-batch-")
PROFILES = sorted(os.path.join("profiles", p) for p in os.listdir(os.path.join(ROOT, "profiles"))
                  if p.endswith(".yaml") and not p.endswith("-zh.yaml"))


def cvpdf(args, env=None, timeout=300):
    e = dict(os.environ)
    e.pop("CVPDF_TEST_FAULT", None)
    e.update(env or {})
    t0 = time.monotonic()
    p = subprocess.run([BIN] + args, capture_output=True, cwd=ROOT, env=e, timeout=timeout)
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"), time.monotonic() - t0)


def leftovers(d):
    return [f for f in os.listdir(d) if f.startswith(".cvpdf-")]


def workers_test():
    d = os.path.join(TMP, "w")
    os.makedirs(d)
    broken = os.path.join(TMP, "broken.yaml")
    with open(broken, "w") as f:
        f.write("cv:\n  name: Broken\n  sections:\n    experience:\n      - company: [\n")
    crash, hang = PROFILES[0], PROFILES[1]
    good = PROFILES[2:]
    # Existing PDFs of the profiles that will fail stay as they were.
    keep = {}
    for p in (crash, hang):
        out = os.path.join(d, os.path.basename(p)[:-5] + ".pdf")
        with open(out, "wb") as f:
            f.write(b"%PDF-1.4 the last good one\n")
        keep[out] = (open(out, "rb").read(), os.stat(out).st_mtime_ns)
    args = ["-j", "2", "--timeout", "3", "-o", d + "/"] + PROFILES + [broken]
    rc, out, err, secs = cvpdf(args, env={"CVPDF_TEST_FAULT": "crash:" + crash})
    check("workers: a crash costs one profile: exit 1", rc == 1, err)
    check("workers: the crash is reported with the profile's name",
          # (Under AddressSanitizer the segfault becomes an abort.)
          re.search(r"^%s: error: cvpdf crashed on this profile \((Segmentation fault|Aborted)\)"
                    % re.escape(crash), err, re.M), err)
    check("workers: the broken profile's own error is reported",
          re.search(r"^%s:\d+:\d+: error: " % re.escape(broken), err, re.M), err)
    check("workers: summary line", "cvpdf: %d rendered, 2 failed" % (len(PROFILES) - 1) in err, err)
    for p in PROFILES[1:]:
        pdf = os.path.join(d, os.path.basename(p)[:-5] + ".pdf")
        check("workers: %s rendered beside the crash" % p,
              os.path.exists(pdf) and run(["qpdf", "--check", pdf])[0] == 0)
    out_crash = os.path.join(d, os.path.basename(crash)[:-5] + ".pdf")
    check("workers: the crashed profile's existing PDF is untouched",
          (open(out_crash, "rb").read(), os.stat(out_crash).st_mtime_ns) == keep[out_crash])
    check("workers: no temporary file left", not leftovers(d), leftovers(d))

    # A hang: killed at --timeout, the others finish.
    d2 = os.path.join(TMP, "h")
    os.makedirs(d2)
    out_hang = os.path.join(d2, os.path.basename(hang)[:-5] + ".pdf")
    shutil.copy(os.path.join(d, os.path.basename(hang)[:-5] + ".pdf"), out_hang)
    before = open(out_hang, "rb").read()
    rc, out, err, secs = cvpdf(["-j", "2", "--timeout", "1.5", "-o", d2 + "/"] + PROFILES,
                               env={"CVPDF_TEST_FAULT": "hang:" + hang})
    check("workers: a hang is killed at --timeout: exit 1", rc == 1, err)
    check("workers: the hang is reported with the profile's name",
          re.search(r"^%s: error: gave up after 1.5 s \(--timeout\)" % re.escape(hang), err, re.M),
          err)
    check("workers: the batch does not wait much past the time limit", secs < 60, secs)
    check("workers: the others rendered beside the hang",
          all(os.path.exists(os.path.join(d2, os.path.basename(p)[:-5] + ".pdf"))
              for p in PROFILES if p != hang))
    check("workers: the hung profile's existing PDF is untouched",
          open(out_hang, "rb").read() == before)
    check("workers: no temporary file left after a kill", not leftovers(d2), leftovers(d2))

    # Workers or not, the same bytes.
    outs = {}
    for j in ("1", "4", "0"):
        dj = os.path.join(TMP, "j" + j)
        rc, _, err, _ = cvpdf(["-q", "-j", j, "-o", dj + "/"] + PROFILES)
        check("workers: -j %s renders everything" % j, rc == 0, err)
        outs[j] = {p: open(os.path.join(dj, p), "rb").read() for p in sorted(os.listdir(dj))}
    check("workers: -j 1, -j 4 and -j 0 give identical PDFs",
          outs["1"] == outs["4"] == outs["0"] and len(outs["1"]) == len(PROFILES))

    # Usage errors.
    for bad in (["-j", "-1"], ["-j", "x"], ["--timeout", "-2"], ["--timeout", "soon"]):
        rc, _, err, _ = cvpdf(bad + [PROFILES[0], "-o", os.path.join(TMP, "u.pdf")])
        check("workers: %s is a usage error" % " ".join(bad), rc == 2 and "Try" in err, err)


def group_members(pgid):
    """The live processes (not zombies) of process group pgid."""
    out = subprocess.run(["ps", "-e", "-o", "pid=,pgid=,stat="], capture_output=True,
                         text=True).stdout
    return [int(pid) for pid, g, st in (l.split()[:3] for l in out.splitlines() if l.strip())
            if int(g) == pgid and not st.startswith("Z")]


def lifetime_test():
    # One worker: after a crash or a hang mid-batch only a fresh worker can
    # render the rest.
    many = [PROFILES[i % len(PROFILES)] for i in range(9)]
    d = os.path.join(TMP, "life")
    os.makedirs(d)
    names = []
    for i, p in enumerate(many):
        names.append(os.path.join(d, "%d-%s" % (i, os.path.basename(p))))
        shutil.copy(os.path.join(ROOT, p), names[-1])
    for b in glob.glob(os.path.join(ROOT, "profiles", "*.bib")):    # what profiles read
        shutil.copy(b, d)
    mid = names[4]
    for fault, timeout, msg in (("crash", "10", r"cvpdf crashed on this profile \("),
                                ("hang", "3", r"gave up after 3 s \(--timeout\)")):
        out = os.path.join(d, fault)
        rc, _, err, _ = cvpdf(["-j", "1", "--timeout", timeout, "-o", out + "/"] + names,
                              env={"CVPDF_TEST_FAULT": "%s:%s" % (fault, mid)})
        check("lifetime: a %s mid-batch with -j 1: exit 1, reported once" % fault,
              rc == 1 and len(re.findall(r"^%s: error: %s" % (re.escape(mid), msg), err, re.M))
              == 1 and "cvpdf: 8 rendered, 1 failed" in err, err)
        made = sorted(os.listdir(out)) if os.path.isdir(out) else []
        want = sorted(os.path.basename(n)[:-5] + ".pdf" for n in names if n != mid)
        check("lifetime: the profiles after the %s render in a fresh worker" % fault,
              made == want, made)

    # A worker that exits without a word mid-profile (a library's exit(),
    # or a sanitizer's report, which names no profile: AddressSanitizer
    # told not to abort makes a crash such an exit): the profile is
    # reported once, by name.  Before, it was counted failed in silence.
    out = os.path.join(d, "silent")
    rc, _, err, _ = cvpdf(["-j", "1", "-o", out + "/"] + names,
                          env={"CVPDF_TEST_FAULT": "crash:" + mid,
                               "ASAN_OPTIONS": "abort_on_error=0:detect_leaks=0"})
    check("lifetime: a worker that exits mid-profile: exit 1, the profile named once",
          rc == 1 and len(re.findall(r"^%s: error: " % re.escape(mid), err, re.M)) == 1
          and "cvpdf: 8 rendered, 1 failed" in err, err[-600:])

    # Messages: every line of one profile's warnings together.
    warny = []
    for i in range(4):
        w = os.path.join(d, "warny%d.yaml" % i)
        with open(w, "w") as f:
            f.write("cv:\n  name: Warny %d\n  sections:\n    experience:\n      - company: X\n"
                    "        position: Y\nsettings:\n  page_break_before: [%s]\n"
                    % (i, ", ".join("nosuch%d" % k for k in range(1000))))
        warny.append(w)
    rc, _, err, _ = cvpdf(["-j", "2", "-o", os.path.join(d, "warny") + "/"] + warny)
    lines = [l for l in err.splitlines() if ": warning: " in l]
    runs = [l.split(":")[0] for i, l in enumerate(lines)
            if i == 0 or l.split(":")[0] != lines[i - 1].split(":")[0]]
    check("lifetime: 1,000 warnings from each of 4 profiles", rc == 0 and len(lines) == 4000,
          (rc, len(lines)))
    check("lifetime: one profile's messages never interleave with another's",
          sorted(runs) == sorted(warny), runs)

    # A worker holds the profile it renders and the next, sent ahead.  When
    # it crashes on the first, the second (never begun) is rendered by a
    # fresh worker, and its messages are told once, together.
    more = []
    for i in range(4, 8):
        w = os.path.join(d, "warny%d.yaml" % i)
        shutil.copy(warny[0], w)
        more.append(w)
    batch = [warny[0]] + warny[1:] + more
    rc, _, err, _ = cvpdf(["-j", "2", "-o", os.path.join(d, "ahead") + "/"] + batch,
                          env={"CVPDF_TEST_FAULT": "crash:" + batch[0]})
    lines = [l for l in err.splitlines() if ": warning: " in l]
    runs = [l.split(":")[0] for i, l in enumerate(lines)
            if i == 0 or l.split(":")[0] != lines[i - 1].split(":")[0]]
    made = sorted(os.listdir(os.path.join(d, "ahead")))
    check("lifetime: a crash costs only its profile, not the one sent ahead",
          rc == 1 and "cvpdf: 7 rendered, 1 failed" in err and
          made == sorted(os.path.basename(n)[:-5] + ".pdf" for n in batch[1:]), (rc, made, err[-300:]))
    check("lifetime: after the crash, each profile's 1,000 warnings once and together",
          len(lines) == 7000 and sorted(runs) == sorted(batch[1:]), (len(lines), runs))

    # Killing the parent with SIGKILL: its workers go too.  cvpdf runs in a
    # process group of its own, and one profile hangs so that a worker is
    # busy (the other waits for work) when the parent dies.
    e = dict(os.environ, CVPDF_TEST_FAULT="hang:" + names[0])
    proc = subprocess.Popen([BIN, "-q", "-j", "2", "--timeout", "0", "-o",
                             os.path.join(d, "orphans") + "/"] + names, cwd=d, env=e,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    pgid = proc.pid
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(group_members(pgid)) < 3:
        time.sleep(0.05)
    before = group_members(pgid)
    check("lifetime: a parent and two workers in one process group", len(before) == 3, before)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and group_members(pgid):
        time.sleep(0.05)
    left = group_members(pgid)
    check("lifetime: after SIGKILL to the parent no worker is left", not left, left)
    for pid in left:
        os.kill(pid, signal.SIGKILL)


def progress_test():
    d = os.path.join(TMP, "p")
    args = [BIN, "-j", "2", "-o", d + "/"] + PROFILES
    # On a terminal: stderr is a pty.
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execv(BIN, args)
    chunks = []
    while True:
        try:
            b = os.read(fd, 4096)
        except OSError:
            break
        if not b:
            break
        chunks.append(b)
    os.waitpid(pid, 0)
    tty = b"".join(chunks).decode("utf-8", "replace")
    lines = re.findall(r"^\[(\d+)/(\d+)\] ok +(\S+) -> (\S+)", tty, re.M)
    check("progress: one line per finished profile on a terminal", len(lines) == len(PROFILES),
          tty)
    check("progress: a running count", sorted(int(a) for a, _, _, _ in lines)
          == list(range(1, len(PROFILES) + 1)) and all(int(b) == len(PROFILES) for _, b, _, _ in lines),
          lines)
    check("progress: summary on a terminal",
          "%d rendered, 0 failed" % len(PROFILES) in tty, tty)
    rc, out, err, _ = cvpdf(["-j", "2", "-o", d + "/"] + PROFILES)
    check("progress: none when not a terminal", rc == 0 and "[1/" not in err
          and "%d rendered, 0 failed" % len(PROFILES) in err, err)
    rc, out, err, _ = cvpdf(["-q", "-j", "2", "-o", d + "/"] + PROFILES)
    check("progress: nothing at all with -q", rc == 0 and err == "", err)


def names_test():
    d = os.path.join(TMP, "n")
    os.makedirs(os.path.join(d, "a"))
    os.makedirs(os.path.join(d, "b"))
    a, b = os.path.join(d, "a", "he.yaml"), os.path.join(d, "b", "he.yaml")
    shutil.copy(os.path.join(ROOT, "profiles", "he.yaml"), a)
    shutil.copy(os.path.join(ROOT, "profiles", "li.yaml"), b)
    out = os.path.join(d, "out")
    rc, _, err, _ = cvpdf(["-o", out + "/", os.path.join(ROOT, "profiles", "li.yaml"), a, b])
    check("names: two profiles for one output name: exit 1", rc == 1, err)
    check("names: the message names both and the output", a in err and b in err
          and "he.pdf" in err, err)
    check("names: nothing rendered", not os.path.exists(out) or not os.listdir(out),
          os.listdir(out) if os.path.exists(out) else None)


def merge_test():
    book = os.path.join(TMP, "lab.pdf")
    order = [os.path.join("profiles", p) for p in ("li.yaml", "fang-zh.yaml", "he.yaml")]
    rc, _, err, _ = cvpdf(["--merge", book] + order)
    check("merge: writes the book", rc == 0 and os.path.exists(book), err)
    pages = []
    for p in order:        # one layout for the whole book: the default
        _, dump, _, _ = cvpdf(["--dump", p])
        pages.append(dump.count("\npage ") + dump.startswith("page "))
    _, info, _ = run(["pdfinfo", "-enc", "UTF-8", book])
    npages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    check("merge: every page of every résumé (%s)" % pages, npages == sum(pages), npages)
    check("merge: the title names everyone", "Shen Li, 方佳瑞, Jiaao He" in info, info)
    # In order: each person's name on their first page.
    firsts = []
    k = 1
    for n in pages:
        _, t, _ = run(["pdftotext", "-f", str(k), "-l", str(k), book, "-"])
        firsts.append(t)
        k += n
    check("merge: résumés in the order given",
          "Shen Li" in firsts[0] and "方佳瑞" in firsts[1] and "Jiaao He" in firsts[2],
          [f[:40] for f in firsts])
    with open(book, "rb") as f:
        doc = PDFDocument(PDFParser(f))
        outl = [(lvl, t) for lvl, t, _, _, _ in doc.get_outlines()]
    top = [t for lvl, t in outl if lvl == 1]
    check("merge: a bookmark per person, in order", top == ["Shen Li", "方佳瑞", "Jiaao He"], top)
    under = {}
    cur = None
    for lvl, t in outl:
        if lvl == 1:
            cur = t
            under[cur] = []
        else:
            under[cur].append(t)
    check("merge: each person's sections beneath them",
          "Experience" in under.get("Shen Li", []) and "工作经历" in under.get("方佳瑞", [])
          and "Publications" in under.get("Jiaao He", []), under)
    _, js, _ = run(["qpdf", "--json", "--json-key=pagelabels", book])
    labels = re.findall(r'"index": (\d+),\s*"label": \{\s*"/P": "u:([^"]*)"', js)
    starts = [0, pages[0], pages[0] + pages[1]]
    check("merge: page labels per person",
          [(int(i), p) for i, p in labels] == list(zip(starts, ["Shen Li ", "方佳瑞 ", "Jiaao He "])),
          labels)
    check("merge: the book passes qpdf --check", run(["qpdf", "--check", book])[0] == 0)
    # A broken profile is reported and left out.
    broken = os.path.join(TMP, "broken-book.yaml")
    with open(broken, "w") as f:
        f.write("cv:\n  name: X\n  email: [\n")
    book2 = os.path.join(TMP, "lab2.pdf")
    rc, _, err, _ = cvpdf(["--merge", book2, order[0], broken, order[2]])
    _, info2, _ = run(["pdfinfo", book2])
    check("merge: a broken profile: exit 1, reported, the others in the book",
          rc == 1 and broken in err and os.path.exists(book2)
          and int(re.search(r"^Pages:\s+(\d+)", info2, re.M).group(1)) == pages[0] + pages[2], err)
    rc, _, err, _ = cvpdf(["--merge", book2, "-o", TMP + "/", order[0]])
    check("merge: with -o is a usage error", rc == 2, err)
    # A résumé without a name (RenderCV allows it) adds no ", " to the
    # book's title, and is bookmarked by its title, not "?".
    nameless = os.path.join(TMP, "nameless.yaml")
    with open(nameless, "w") as f:
        f.write("cv:\n  headline: Anonymous\n  sections:\n    s:\n      - Text\n")
    book3 = os.path.join(TMP, "lab3.pdf")
    rc, _, err, _ = cvpdf(["--merge", book3, nameless, order[0]])
    _, info3, _ = run(["pdfinfo", "-enc", "UTF-8", book3])
    check("merge: a résumé without a name: the title names the others only",
          rc == 0 and re.search(r"^Title:\s+Résumés: Shen Li$", info3, re.M), info3)
    with open(book3, "rb") as f:
        top3 = [t for lvl, t, _, _, _ in PDFDocument(PDFParser(f)).get_outlines() if lvl == 1]
    check("merge: a résumé without a name is bookmarked by its title",
          top3 == ["Résumé", "Shen Li"], top3)


def defaults_test():
    d = os.path.join(TMP, "def")
    os.makedirs(d)
    lab = os.path.join(d, "lab.yaml")
    with open(lab, "w") as f:
        f.write("cv:\n  location: PACMAN Lab, Tsinghua University\n"
                "  website: https://pacman.example.org/\n"
                "locale:\n  present: ongoing\n"
                "settings:\n  current_date: 2026-11-21\n")
    own = os.path.join(d, "own.yaml")
    with open(own, "w") as f:
        f.write("cv:\n  name: Ada Own\n  location: Her Own Place\n"
                "  sections:\n    experience:\n      - company: X\n        position: Y\n"
                "        start_date: 2020-01\n        end_date: present\n")
    rc, dump, err, _ = cvpdf(["--dump", "--defaults", lab, "profiles/li.yaml"])
    check("defaults: render", rc == 0, err)
    check("defaults: the lab's address where the profile has none",
          "PACMAN Lab, Tsinghua University" in dump and "https://pacman.example.org/" in dump)
    check("defaults: the shared locale", "– ongoing" in dump)
    rc, dump, err, _ = cvpdf(["--dump", "--defaults", lab, own])
    check("defaults: the profile's own value wins",
          "Her Own Place" in dump and "PACMAN Lab" not in dump, dump[:300])
    check("defaults: the rest still comes from the defaults", "ongoing" in dump)
    # Several profiles with the same defaults, in worker processes.
    out = os.path.join(d, "out")
    rc, _, err, _ = cvpdf(["-q", "-j", "2", "--defaults", lab, "-o", out + "/"] + PROFILES)
    check("defaults: a batch", rc == 0 and len(os.listdir(out)) == len(PROFILES), err)
    bad = os.path.join(d, "bad.yaml")
    with open(bad, "w") as f:
        f.write("cv:\n  locaton: somewhere\n")
    rc, _, err, _ = cvpdf(["--defaults", bad, "profiles/li.yaml", "-o", os.path.join(d, "x.pdf")])
    check("defaults: an error in them names the defaults file and position",
          rc == 1 and re.search(r"^%s:2:3: error: unknown key 'locaton'.*did you mean 'location'"
                                % re.escape(bad), err, re.M)
          and not os.path.exists(os.path.join(d, "x.pdf")), err)
    rc, _, err, _ = cvpdf(["--defaults", os.path.join(d, "missing.yaml"), "profiles/li.yaml",
                           "-o", os.path.join(d, "x.pdf")])
    check("defaults: a missing defaults file", rc == 1 and "missing.yaml" in err, err)


def nproc_test():
    """A limit on processes (ulimit -u; a container's pids.max is the same
    to fork()) lets only some of -j 8's workers start: those render every
    profile.  Before, each worker that could not start cost a profile
    ("cannot start a worker"), 8 of 12 lost with 3 workers running.  Run
    as a user id of its own, so that no other process counts."""
    import resource
    uid = 47613
    d = os.path.join(TMP, "nproc")
    os.makedirs(os.path.join(d, "out"))
    os.chmod(TMP, 0o755)
    names = []
    for i in range(12):
        names.append(os.path.join(d, "p%02d.yaml" % i))
        with open(names[-1], "w") as f:
            f.write("cv:\n  name: Person %d\n  email: p%d@example.org\n" % (i, i))
    os.chown(os.path.join(d, "out"), uid, uid)

    def limited():
        os.setgid(uid)
        os.setuid(uid)
        resource.setrlimit(resource.RLIMIT_NPROC, (4, 4))
    e = dict(os.environ)
    e.pop("CVPDF_TEST_FAULT", None)
    p = subprocess.run([BIN, "-j", "8", "-o", os.path.join(d, "out") + "/"] + names,
                       capture_output=True, cwd=d, env=e, timeout=300, preexec_fn=limited)
    err = p.stderr.decode("utf-8", "replace")
    made = sorted(os.listdir(os.path.join(d, "out")))
    check("nproc: -j 8 with room for 3 workers: every profile rendered, exit 0",
          p.returncode == 0 and made == ["p%02d.pdf" % i for i in range(12)]
          and "cvpdf: 12 rendered, 0 failed" in err, (p.returncode, made, err[-400:]))


def descendants(pid):
    """{pid: depth} of every process under pid, from /proc."""
    parent = testlib.parent_pids()
    out = {}
    for q in parent:
        depth, r = 0, q
        while r in parent and r != pid and depth < 64:
            r, depth = parent[r], depth + 1
        if r == pid and q != pid:
            out[q] = depth
    return out


def stop_test():
    """Ctrl-Z (SIGTSTP to the process group) while a profile renders, and fg
    (SIGCONT) after longer than --timeout: the time stopped is not the
    profile's.  Before, the batch killed the profiles in flight the moment
    it was continued ("gave up after 4 s"), and -j 0 ended the run.  The
    profile is caught in flight by the child that reads its .bib."""
    d = os.path.join(TMP, "stop")
    os.makedirs(d)
    with open(os.path.join(d, "slow.bib"), "w") as f:
        for i in range(8000):
            f.write("@article{k%d, author={Doe, Jane and Roe, Rich}, title={Title %d}, "
                    "journal={J}, year=2001}\n" % (i, i))
    slow, small = os.path.join(d, "slow.yaml"), os.path.join(d, "small.yaml")
    with open(slow, "w") as f:
        f.write("cv:\n  name: Slow Person\n  sections:\n    publications:\n      bib: slow.bib\n")
    with open(small, "w") as f:
        f.write("cv:\n  name: Small Person\n")
    e = dict(os.environ)
    e.pop("CVPDF_TEST_FAULT", None)
    for j, depth in (("1", 2), ("0", 1)):
        caught, rc, err, made = False, None, "", []
        for attempt in range(4):
            out = os.path.join(d, "out%s-%d" % (j, attempt))
            p = subprocess.Popen([BIN, "-j", j, "--timeout", "4", "-o", out + "/", slow, small],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=d, env=e,
                                 preexec_fn=os.setpgrp)
            while p.poll() is None and not caught:
                caught = any(v == depth for v in descendants(p.pid).values())
            if caught:
                os.killpg(p.pid, signal.SIGTSTP)
                time.sleep(5)
                os.killpg(p.pid, signal.SIGCONT)
            err = p.communicate(timeout=120)[1].decode("utf-8", "replace")
            rc = p.returncode
            made = sorted(os.listdir(out)) if os.path.isdir(out) else []
            if caught:
                break
        check("stop: -j %s stopped (Ctrl-Z) longer than --timeout mid-profile, then "
              "continued: every profile rendered, exit 0" % j,
              caught and rc == 0 and made == ["slow.pdf", "small.pdf"], (caught, rc, made, err[-300:]))


def stopped_worker_test():
    """SIGTERM to cvpdf while one of its workers is stopped (kill -STOP, a
    debugger): the worker is continued so that it can end, and cvpdf ends
    by the signal with no worker left.  Before, cvpdf waited for the
    stopped worker forever."""
    names = [os.path.join(ROOT, p) for p in PROFILES]
    e = dict(os.environ, CVPDF_TEST_FAULT="hang:" + names[0])
    out = os.path.join(TMP, "stopped") + "/"
    proc = subprocess.Popen([BIN, "-q", "-j", "2", "--timeout", "0", "-o", out] + names,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=e,
                            start_new_session=True)
    kids = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and len(kids) < 2:
        kids = [k for k, v in descendants(proc.pid).items() if v == 1]
    for k in kids:
        os.kill(k, signal.SIGSTOP)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
        ended = True
    except subprocess.TimeoutExpired:
        ended = False
    left = group_members(proc.pid)
    check("stopped worker: SIGTERM ends cvpdf by it, no worker left",
          len(kids) == 2 and ended and proc.returncode == -signal.SIGTERM and not left,
          (kids, ended, proc.returncode, left))
    if not ended:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    for k in kids:
        try:
            os.kill(k, signal.SIGKILL)
        except ProcessLookupError:
            pass


def escaped_test():
    """A profile whose file name holds a newline and an escape, crashing or
    past --timeout in a worker: the message names it escaped, on one line;
    no forged diagnostic line, no raw escape.  Before, batch.c's own
    messages printed the name raw."""
    d = os.path.join(TMP, "escaped")
    os.makedirs(d)
    bad = os.path.join(d, "a\nfake.yaml:1:1: error: injected\x1b[31m.yaml")
    good = os.path.join(d, "b.yaml")
    for f in (bad, good):
        with open(f, "w") as fh:
            fh.write("cv:\n  name: Some One\n")
    for fault, timeout in (("crash", "10"), ("hang", "1")):
        rc, _, err, _ = cvpdf(["-j", "2", "--timeout", timeout, "-o", os.path.join(d, fault) + "/",
                               bad, good], env={"CVPDF_TEST_FAULT": "%s:%s" % (fault, bad)})
        check("escaped: a %s on a profile named with a newline and an escape: one line, "
              "escaped" % fault, rc == 1 and "\x1b" not in err and
              not re.search(r"^fake\.yaml:1:1", err, re.M) and
              len(re.findall(r"^%s\\nfake\.yaml:1:1: error: injected\\e\[31m\.yaml: error: "
                             % re.escape(os.path.join(d, "a")), err, re.M)) == 1, err)


if __name__ == "__main__":
    sys.exit(testlib.main("batch", [workers_test, lifetime_test, progress_test, names_test, merge_test,
                                    defaults_test, nproc_test, stop_test,
                                    stopped_worker_test, escaped_test], tmp=TMP))
