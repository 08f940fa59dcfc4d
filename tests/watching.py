#!/usr/bin/env python3
"""--watch (issue 17): render, then render again at every change of an input.

Usage: tests/watching.py CVPDF_BINARY [-k PATTERN] [--list]   (tests/run.sh passes build/san/cvpdf)

One `cvpdf --watch` runs in a temporary directory on a profile with a
photo, a layout that extends another, and a --defaults file, and is read
line by line (its stderr) while the test edits them:

  edits       the profile written in place, saved by rename (as most
              editors save), saved as vim does (the old file renamed to a
              backup, a new one written, the backup removed): each time
              "changed; rendered again" and the PDF says the new text
  errors      a broken profile: its error (file:line:col) and "the last
              good output is kept", the PDF byte for byte the same, the
              process alive; fixed, rendered again
  inputs      the layout's base (what it extends), the defaults, the photo
              (touched): each renders again, the base's page size shows
  stop        SIGINT (Ctrl-C) ends it with the signal's status, nothing
              left behind; --watch with '-' or -o - is a usage error
  png         --watch -o cv.png: the PNG pages follow the profile, a page
              fewer when it shrinks
  timeout     (issue 25) a render past --timeout (CVPDF_TEST_FAULT=hang) is
              an error like any other: reported, the process still
              watching, and again after the next change
  symlink     (issue 25) a save that turns the profile into a symlink: the
              edits of its target are followed

Every wait has a timeout, and the process is killed at the end whatever
happened: the suite never hangs.  The last line is "watching: N passed, M
failed".
"""
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import testlib
from testlib import BIN, ROOT, check, run

TMP = tempfile.mkdtemp(prefix="cvpdf-watch-")
WAIT = 90                # seconds for one render under ASan on a busy machine
PHOTO = os.path.join(ROOT, "tests", "data", "photo.png")

PROFILE = testlib.ADA.replace("  name: Ada Lovelace\n", "  name: {name}\n  photo: me.png\n")


class Watcher:
    """A `cvpdf --watch` whose stderr lines are read as they come."""

    def __init__(self, args, cwd, env=None):
        self.proc = subprocess.Popen([BIN, "--watch"] + args, cwd=cwd,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     start_new_session=True,
                                     env=dict(os.environ, **env) if env else None)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stderr:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def wait_for(self, pattern, secs=WAIT):
        """The lines up to the first matching `pattern`, or None after secs
        (or at the process's end)."""
        got, deadline = [], time.monotonic() + secs
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return None
            got.append(line)
            self.seen.append(line)
            if re.search(pattern, line):
                return got

    def stop(self, sig=signal.SIGINT, secs=30):
        """Send sig; the exit status (None when it had to be killed)."""
        if self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, sig)
            except ProcessLookupError:
                pass
        try:
            return self.proc.wait(timeout=secs)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            return None

    def kill(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            self.proc.wait()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def save_by_rename(path, text):
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    write(tmp, text)
    os.replace(tmp, path)


def save_like_vim(path, text):
    os.rename(path, path + "~")
    write(path, text)
    os.unlink(path + "~")


def text_of(pdf):
    rc, out, _ = run(["pdftotext", pdf, "-"])
    return out if rc == 0 else ""


def leftovers(d):
    return [f for f in os.listdir(d) if f.startswith(".cvpdf-")]


def setup(name):
    d = os.path.join(TMP, name)
    os.makedirs(d)
    write(os.path.join(d, "p.yaml"), PROFILE.format(name="Ada Lovelace"))
    shutil.copy(PHOTO, os.path.join(d, "me.png"))
    shutil.copy(os.path.join(ROOT, "layouts", "onecolumn.yaml"), os.path.join(d, "base.yaml"))
    write(os.path.join(d, "l.yaml"), "extends: base\n")
    write(os.path.join(d, "d.yaml"), "cv:\n  location: The Old Lab\n")
    return d


# One watcher for the edits, errors, inputs and stop groups, in that order.
STATE = {}


def watcher():
    if "w" not in STATE:
        d = setup("main")
        STATE["d"] = d
        STATE["w"] = Watcher(["p.yaml", "-l", "l.yaml", "--defaults", "d.yaml", "-o", "cv.pdf"],
                             d)
        got = STATE["w"].wait_for(r"watching \d+ files")
        STATE["started"] = got
    return STATE["w"], STATE["d"]


def rendered(w, name, label):
    got = w.wait_for(r"^(\./)?%s: note: changed; (rendered again|not rendered)" % re.escape(name))
    ok = got is not None and "rendered again" in got[-1]
    check("%s: \"%s: changed; rendered again\"" % (label, name), ok, got or w.seen[-5:])
    return got


def edits():
    w, d = watcher()
    got = STATE["started"]
    check("first render, then watching the profile, layout, base, defaults and photo (5 files)",
          got is not None and re.search(r"rendered; watching 5 files", got[-1]),
          got or w.seen[-5:])
    pdf = os.path.join(d, "cv.pdf")
    check("first render: the PDF", "Ada Lovelace" in text_of(pdf) and "The Old Lab" in text_of(pdf))
    write(os.path.join(d, "p.yaml"), PROFILE.format(name="Ada King"))
    rendered(w, "p.yaml", "written in place")
    check("written in place: the PDF has the new name", "Ada King" in text_of(pdf))
    save_by_rename(os.path.join(d, "p.yaml"), PROFILE.format(name="Ada Byron"))
    rendered(w, "p.yaml", "saved by rename")
    check("saved by rename: the PDF has the new name", "Ada Byron" in text_of(pdf))
    save_like_vim(os.path.join(d, "p.yaml"), PROFILE.format(name="Augusta Ada"))
    rendered(w, "p.yaml", "saved as vim saves")
    check("saved as vim saves: the PDF has the new name", "Augusta Ada" in text_of(pdf))


def errors():
    w, d = watcher()
    pdf = os.path.join(d, "cv.pdf")
    before = open(pdf, "rb").read()
    save_by_rename(os.path.join(d, "p.yaml"), PROFILE.format(name="Broken").replace(
        "  email:", "  emial:"))
    got = w.wait_for(r"^p\.yaml: note: changed; (rendered again|not rendered)")
    check("a broken profile: its error, at file:line:col",
          got is not None and any(re.match(r"p\.yaml:4:3: error: .*emial", l) for l in got),
          got or w.seen[-5:])
    check("a broken profile: \"the last good output is kept\"",
          got is not None and "the last good output is kept" in got[-1], got)
    check("a broken profile: the PDF byte for byte the same", open(pdf, "rb").read() == before)
    check("a broken profile: still watching", w.proc.poll() is None, w.proc.returncode)
    check("a broken profile: nothing left beside the PDF", not leftovers(d), leftovers(d))
    write(os.path.join(d, "p.yaml"), PROFILE.format(name="Ada Fixed"))
    rendered(w, "p.yaml", "fixed")
    check("fixed: the PDF has the new name", "Ada Fixed" in text_of(pdf))


def inputs():
    w, d = watcher()
    pdf = os.path.join(d, "cv.pdf")
    base = open(os.path.join(d, "base.yaml"), encoding="utf-8").read()
    base, n = re.subn(r"^(\s*size:\s*)a4\b", r"\1letter", base, count=1, flags=re.M | re.I)
    if not n:
        base += "\npage: {size: letter}\n"
    save_by_rename(os.path.join(d, "base.yaml"), base)
    rendered(w, "base.yaml", "the layout's base")
    rc, info, _ = run(["pdfinfo", pdf])
    check("the layout's base: its page size, letter", "612 x 792 pts" in info, info)
    save_by_rename(os.path.join(d, "d.yaml"), "cv:\n  location: The New Lab\n")
    rendered(w, "d.yaml", "the defaults")
    check("the defaults: the PDF has the new location", "The New Lab" in text_of(pdf))
    os.utime(os.path.join(d, "me.png"))
    rendered(w, "me.png", "the photo (touched)")
    # A file beside them that is no input: nothing.
    write(os.path.join(d, "notes.txt"), "x\n")
    got = w.wait_for(r"changed;", secs=2)
    check("another file of the directory: no render", got is None, got)


def stop():
    w, d = watcher()
    rc = w.stop(signal.SIGINT)
    check("SIGINT (Ctrl-C): ends by the signal", rc in (-signal.SIGINT, 128 + signal.SIGINT),
          "rc %s" % rc)
    check("SIGINT: nothing left behind", not leftovers(d), leftovers(d))
    check("SIGINT: the last PDF whole", text_of(os.path.join(d, "cv.pdf")) != "")
    d2 = setup("usage")
    for args in (["-", "-o", "x.pdf"], ["p.yaml", "-o", "-"]):
        rc, _, err = run([BIN, "--watch"] + args, cwd=d2, timeout=60)
        check("--watch %s: usage error" % " ".join(args), rc == 2 and "--watch" in err, (rc, err))


def png():
    d = setup("png")
    long_profile = PROFILE.format(name="Ada Lovelace") + "".join(
        "          - %s\n" % ("A highlight that takes room on the page, number %d." % i)
        for i in range(120))
    write(os.path.join(d, "p.yaml"), long_profile)
    w = Watcher(["p.yaml", "-o", "cv.png", "--dpi", "36"], d)
    try:
        got = w.wait_for(r"watching \d+ files")
        pages = sorted(f for f in os.listdir(d) if re.match(r"cv-\d+\.png$", f))
        check("png: the first render's pages", got is not None and len(pages) >= 2, (got, pages))
        write(os.path.join(d, "p.yaml"), PROFILE.format(name="Ada Lovelace"))
        rendered(w, "p.yaml", "png: shrunk")
        now = sorted(f for f in os.listdir(d) if re.match(r"cv-\d+\.png$", f))
        check("png: one page now, the others swept", now == ["cv-1.png"], now)
    finally:
        w.kill()


def timeout():
    d = setup("timeout")
    w = Watcher(["p.yaml", "-o", "cv.pdf", "--timeout", "1"], d,
                env={"CVPDF_TEST_FAULT": "hang:p.yaml"})
    try:
        got = w.wait_for(r"watching \d+ files")
        check("timeout: the first render gives up, then watching",
              got is not None and any("gave up after 1 s (--timeout)" in l for l in got)
              and "failed; watching" in got[-1], got or w.seen[-5:])
        check("timeout: still running", w.proc.poll() is None, w.proc.returncode)
        write(os.path.join(d, "p.yaml"), PROFILE.format(name="Ada King"))
        got = w.wait_for(r"^p\.yaml: note: changed; (rendered again|not rendered)")
        check("timeout: after a change, given up again and \"not rendered\"",
              got is not None and any("gave up after 1 s" in l for l in got)
              and "not rendered" in got[-1], got or w.seen[-5:])
        check("timeout: still running after the second", w.proc.poll() is None,
              w.proc.returncode)
        check("timeout: nothing written", not os.path.exists(os.path.join(d, "cv.pdf")))
    finally:
        w.kill()


def symlink():
    d = setup("symlink")
    os.makedirs(os.path.join(d, "real"))
    shutil.copy(PHOTO, os.path.join(d, "real", "me.png"))
    w = Watcher(["p.yaml", "-o", "cv.pdf"], d)
    pdf = os.path.join(d, "cv.pdf")
    try:
        got = w.wait_for(r"watching \d+ files")
        check("symlink: first render", got is not None and "rendered; watching" in got[-1],
              got or w.seen[-5:])
        target = os.path.join(d, "real", "p.yaml")
        write(target, PROFILE.format(name="Ada Linked"))
        os.symlink("real/p.yaml", os.path.join(d, ".p.yaml.tmp"))
        os.replace(os.path.join(d, ".p.yaml.tmp"), os.path.join(d, "p.yaml"))
        rendered(w, "p.yaml", "symlink: the profile saved as a symlink")
        check("symlink: the PDF has the target's name", "Ada Linked" in text_of(pdf))
        time.sleep(0.3)
        write(target, PROFILE.format(name="Ada Edited"))
        rendered(w, "p.yaml", "symlink: its target edited in place")
        check("symlink: the PDF has the edited name", "Ada Edited" in text_of(pdf))
    finally:
        w.kill()


def cleanup():
    if "w" in STATE:
        STATE["w"].kill()


if __name__ == "__main__":
    sys.exit(testlib.main("watching", [edits, errors, inputs, stop, png, timeout,
                                              symlink], tmp=TMP, after=cleanup))
