#!/usr/bin/env python3
"""Safety (issue 13): nothing lost, nothing forged.  cvpdf never writes over
what it does not own, leaves nothing behind when killed, and keeps every
message and byte clean.

Usage: tests/safety.py CVPDF_BINARY [-k PATTERN] [--list]   (tests/run.sh passes build/san/cvpdf)

  inputs     -o (and --merge) naming a file the run reads: the default
             layout, a copy of it given with -l, a layout's extends: base,
             the profile's photo, a font file named in the layout, the
             --defaults file, the hyphenation patterns, and a hard link or a
             symlink to each; a batch output that is a hard link to an input.
             Each refused with an error, the input byte for byte as it was.
             As root, and again as nobody in a directory nobody may write
             (where a rename over a root's file would succeed).
  links      -o a symlink: its target is replaced, the link stays a link; a
             dangling link creates its target; nothing left beside either
  special    -o a FIFO (with a reader) and a character device made with
             mknod in the temporary directory: written straight through,
             still a FIFO / a device afterwards
  devns      in a private mount namespace with a tmpfs over /dev (so a
             failure cannot touch the machine's /dev): -o /dev/null and
             --explain -o /dev/null keep /dev/null a device; -o /dev/stdout
             into a pipe delivers the PDF and keeps the link; as root and
             as nobody.  Skipped (not failed) where unshare is not allowed.
  stdio      -o - writes the PDF to stdout, and is refused on a terminal;
             - as a profile reads stdin, relative photo paths from the
             current directory, errors as <stdin>:LINE:COL
  modes      a 0600 PDF stays 0600 when rendered again; umask 077 gives a
             0600 PDF; as root a file owned by nobody keeps its owner
  names      --merge with two profiles of one file name; a profile given
             twice renders once
  signals    SIGINT, SIGTERM, SIGHUP to a single run and to a batch parent,
             SIGKILL to the process group, SIGKILL to the parent alone: no
             .cvpdf-* file, no worker left, death by that signal, every PDF
             left whole; --timeout 1 on a single run (CVPDF_TEST_FAULT=hang)
  emptylinks [y](), [y]( ), [y](TAB): rendered, a valid PDF
  layouterr  layout values out of range in a layout extending a base:
             one positioned error naming the child file
  race       two batches started together on a new output folder
  messages   keys, usernames and file names with newlines and escapes:
             one diagnostic line per problem, no raw control byte; a name
             with BEL and ESC written as YAML escapes is refused
  dates      malformed --date and SOURCE_DATE_EPOCH: usage errors (exit 2)
  misc       -o new/sub/, -o "", --defaults with cv: [1, 2]
  bigphoto   a 6000x6000 16-bit PNG photo renders
  planned    (issue 25) inputs known before the first write, in the parent:
             a batch output that is a symlink to another profile's .bib
             (-j 2, both orders), to a locale file of the data directory,
             to the phone module (lib/cvpdf/cvpdf-phone.so beside a copy of
             the binary); --format png -j 2 where one profile's photo is
             another's first page (o/q-1.png): exit 2, each input intact; a
             profile read from a pipe (/dev/fd/N) whose photo another
             output links to, refused the same way; --merge of a pipe and a
             file renders both
  noblock    (issue 25) a layout, an extends: base, --defaults, a .bib and a
             render_command locale file that are FIFOs: an error, no hang;
             -o f.png a FIFO or a device, a FIFO named like page 2: exit 2,
             with --timeout 0 too; --timeout 1 bounds reading a standard
             input that never ends; a PNG set of 60 pages under a limit of
             32 open files; a user's own x-1.png replaced with a note

Everything happens in one temporary directory, removed at the end; every
run has a time limit.  The last line is "safety: N passed, M failed".
"""
import os
import pty
import random
import re
import select
import shutil
import signal
import stat
import struct
import subprocess
import tempfile
import time
import zlib

import testlib
from testlib import BIN, ROOT, check

TMP = tempfile.mkdtemp(prefix="cvpdf-safety-")
os.chmod(TMP, 0o755)            # nobody walks into it
TIMEOUT = 60                    # seconds per run (sanitizer build, a loaded machine)
NOBODY, NOGROUP = 65534, 65534
SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|"
                       r"runtime error:|Segmentation fault|core dumped")
DIAG = re.compile(r"^(?P<file>.+?)(?::(?P<line>\d+):(?P<col>\d+))?: "
                  r"(?P<kind>error|warning|note): (?P<msg>.+)$")
CONTROL = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]")

PROFILE = testlib.ADA
PHOTO_PROFILE = PROFILE.replace("  email:", "  photo: me.png\n  email:")
PHOTO = os.path.join(ROOT, "tests", "data", "photo.png")
LATO = os.path.join(ROOT, "fonts", "Lato-Regular.ttf")
HYPH = "/usr/share/hyphen/hyph_en_US.dic"

# A data directory of our own (CVPDF_DATADIR): its layouts/onecolumn.yaml is
# "the default layout" that -o may name without risking the tree's copy.
DATA = os.path.join(TMP, "data")
shutil.copytree(os.path.join(ROOT, "layouts"), os.path.join(DATA, "layouts"))
shutil.copytree(os.path.join(ROOT, "fonts"), os.path.join(DATA, "fonts"))
shutil.copytree(os.path.join(ROOT, "locales"), os.path.join(DATA, "locales"))
ONECOLUMN = os.path.join(DATA, "layouts", "onecolumn.yaml")
ENV = {"CVPDF_DATADIR": DATA}


# ---------------------------------------------------------------- helpers

def as_nobody():
    """preexec_fn: drop root to nobody, so that file modes apply."""
    os.setgroups([])
    os.setgid(NOGROUP)
    os.setuid(NOBODY)


def can_be_nobody():
    if os.geteuid() != 0:
        return False
    try:
        r = subprocess.run(["id", "-u"], preexec_fn=as_nobody, capture_output=True, timeout=10)
        return r.returncode == 0 and r.stdout.strip() == b"65534"
    except (OSError, subprocess.SubprocessError):
        return False


NOBODY_OK = can_be_nobody()


def cvpdf(args, cwd, env=None, stdin=None, preexec=None, timeout=TIMEOUT, umask=None):
    """Run cvpdf; (exit status, stdout bytes, stderr text); status None on a
    timeout.  A sanitizer report is a failed check of its own."""
    e = dict(os.environ)
    e.pop("CVPDF_TEST_FAULT", None)
    e.update(ENV)
    e.update(env or {})

    def pre():
        if umask is not None:
            os.umask(umask)
        if preexec:
            preexec()
    try:
        p = subprocess.run([BIN] + args, cwd=cwd, capture_output=True, timeout=timeout,
                           input=stdin, env=e, preexec_fn=pre)
    except subprocess.TimeoutExpired:
        check("cvpdf %s finishes within %d s" % (" ".join(map(repr, args)), timeout), False,
              "timed out")
        return None, b"", "(timed out)"
    err = p.stderr.decode("utf-8", "replace")
    if SANITIZER.search(err):
        check("no sanitizer report: cvpdf %s" % " ".join(map(repr, args)), False, err[-2000:])
    return p.returncode, p.stdout, err


def write(path, data, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    if mode is not None:
        os.chmod(path, mode)


def read(path):
    with open(path, "rb") as f:
        return f.read()


_n = [0]


def case_dir(name, owner=None):
    """A fresh directory; owner=NOBODY makes it nobody's (and writable only by nobody)."""
    _n[0] += 1
    d = os.path.join(TMP, "%03d-%s" % (_n[0], re.sub(r"[^\w.-]", "_", name)[:40]))
    os.makedirs(d)
    os.chmod(d, 0o755)
    if owner is not None:
        os.chown(d, owner, owner)
    return d


def leftovers(*dirs):
    out = []
    for d in dirs:
        if os.path.isdir(d):
            out += [os.path.join(d, f) for f in os.listdir(d) if f.startswith(".cvpdf-")]
    return out


def is_pdf(path):
    try:
        return read(path)[:5] == b"%PDF-" and \
            subprocess.run(["qpdf", "--check", path], capture_output=True,
                           timeout=TIMEOUT).returncode in (0, 3)
    except (OSError, subprocess.SubprocessError):
        return False


def has_error(err):
    return any(DIAG.match(l) and DIAG.match(l).group("kind") == "error"
               for l in err.splitlines())


def clean_bytes(err):
    """No control byte in stderr but the newlines ending lines."""
    return not CONTROL.search(err.encode("utf-8", "surrogateescape"))


def short(err, n=600):
    err = err.strip()
    return err if len(err) <= n else "..." + err[-n:]


def group_members(pgid):
    """The live processes (not zombies) of process group pgid."""
    out = subprocess.run(["ps", "-e", "-o", "pid=,pgid=,stat="], capture_output=True,
                         text=True, timeout=30).stdout
    return [int(pid) for pid, g, st in (l.split()[:3] for l in out.splitlines() if l.strip())
            if int(g) == pgid and not st.startswith("Z")]


def children_of(pid):
    """Live processes whose parent is pid (from /proc)."""
    kids = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                s = f.read()
        except OSError:
            continue
        fields = s[s.rfind(")") + 2:].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            kids.append(int(p))
    return kids


def wait_until(cond, secs):
    deadline = time.monotonic() + secs
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


# ------------------------------------------------------ outputs over inputs

def input_cases(d):
    """Lay out in d every kind of input a run reads; return the cases
    (label, cvpdf args without -o, the input's path, env)."""
    write(os.path.join(d, "p.yaml"), PROFILE)
    write(os.path.join(d, "ph.yaml"), PHOTO_PROFILE)
    shutil.copy(PHOTO, os.path.join(d, "me.png"))
    shutil.copy(ONECOLUMN, os.path.join(d, "mine.yaml"))          # the default, given with -l
    shutil.copy(ONECOLUMN, os.path.join(d, "base.yaml"))          # an extends: base
    write(os.path.join(d, "child.yaml"), "extends: base\nfont: {size: 9.5pt}\n")
    shutil.copy(LATO, os.path.join(d, "f.ttf"))
    write(os.path.join(d, "fl.yaml"), "extends: %s\nfont: {family: f.ttf}\n" % ONECOLUMN)
    write(os.path.join(d, "d.yaml"), "cv:\n  location: The Lab\n")
    cases = [
        ("the default layout", ["p.yaml"], ONECOLUMN, {}),
        ("a copy of the default layout given with -l", ["p.yaml", "-l", "mine.yaml"],
         os.path.join(d, "mine.yaml"), {}),
        ("a layout's extends: base", ["p.yaml", "-l", "child.yaml"],
         os.path.join(d, "base.yaml"), {}),
        ("the profile's photo", ["ph.yaml"], os.path.join(d, "me.png"), {}),
        ("a font file named in the layout", ["p.yaml", "-l", "fl.yaml"],
         os.path.join(d, "f.ttf"), {}),
        ("the --defaults file", ["p.yaml", "--defaults", "d.yaml"],
         os.path.join(d, "d.yaml"), {}),
    ]
    if os.path.exists(HYPH):
        shutil.copy(HYPH, os.path.join(d, "hyph.dic"))
        cases.append(("the hyphenation patterns (CVPDF_HYPHEN_DICT)", ["p.yaml"],
                      os.path.join(d, "hyph.dic"),
                      {"CVPDF_HYPHEN_DICT": os.path.join(d, "hyph.dic")}))
    return cases


def refused(label, d, args, out, victim, env, preexec=None, merge=False):
    """Run with -o out (or --merge out): refused, victim unchanged."""
    before = read(victim)
    ino = os.stat(victim).st_ino
    out_was_link = os.path.islink(out)
    argv = args + (["--merge", out] if merge else ["-o", out])
    rc, _, err = cvpdf(argv, d, env=env, preexec=preexec)
    ok = rc not in (0, None) and has_error(err)
    check("%s: refused with an error" % label, ok, "rc %s: %s" % (rc, short(err)))
    same = os.path.exists(victim) and read(victim) == before and os.stat(victim).st_ino == ino
    check("%s: the input is byte-identical" % label, same,
          "the input was replaced (now %d bytes, starts %r)"
          % (len(read(victim)), read(victim)[:8]) if os.path.exists(victim) else "gone")
    if out_was_link:
        check("%s: the symlink is still a symlink" % label, os.path.islink(out))
    left = leftovers(d, os.path.dirname(victim))
    check("%s: no temporary file left" % label, not left, left)
    if not same:                    # put it back for the cases after this one
        if os.path.islink(victim) or os.path.exists(victim):
            os.unlink(victim)
        write(victim, before)
    return ok and same


def outputs_over_inputs(nobody):
    who = " (as nobody)" if nobody else ""
    d = case_dir("inputs-nobody" if nobody else "inputs", NOBODY if nobody else None)
    preexec = as_nobody if nobody else None
    for label, args, victim, env in input_cases(d):
        # The run reads the files as nobody; nobody owns the directory, the
        # files stay root's: only cvpdf's own check can stop a rename.
        if nobody and victim == ONECOLUMN:
            # The default layout of a data directory nobody can write into.
            data = os.path.join(d, "data")
            os.makedirs(data)
            shutil.copytree(os.path.join(DATA, "layouts"), os.path.join(data, "layouts"))
            os.symlink(os.path.join(DATA, "fonts"), os.path.join(data, "fonts"))
            for dd in (data, os.path.join(data, "layouts")):
                os.chown(dd, NOBODY, NOGROUP)
            victim = os.path.join(data, "layouts", "onecolumn.yaml")
            env = dict(env, CVPDF_DATADIR=data)
        refused("-o %s%s" % (label, who), d, args, victim, victim, env, preexec)
        hard = os.path.join(d, "hard.out")
        os.link(victim, hard)
        refused("-o a hard link to %s%s" % (label, who), d, args, hard, victim, env, preexec)
        os.unlink(hard)
        sym = os.path.join(d, "sym.pdf")
        os.symlink(victim, sym)
        refused("-o a symlink to %s%s" % (label, who), d, args, sym, victim, env, preexec)
        os.unlink(sym)
        rel = os.path.join(d, "sub", "rel.pdf")
        os.makedirs(os.path.dirname(rel), exist_ok=True)
        if nobody:
            os.chown(os.path.dirname(rel), NOBODY, NOGROUP)
        os.symlink(os.path.relpath(victim, os.path.dirname(rel)), rel)
        refused("-o a relative symlink in another directory to %s%s" % (label, who), d, args,
                rel, victim, env, preexec)
        os.unlink(rel)
        if "photo" in label or label == "the default layout":
            refused("--merge %s%s" % (label, who), d, args, victim, victim, env, preexec,
                    merge=True)
            os.symlink(victim, sym)
            refused("--merge a symlink to %s%s" % (label, who), d, args, sym, victim, env,
                    preexec, merge=True)
            os.unlink(sym)
    # A batch whose DIR/<name>.pdf is a hard link to the photo.
    out = os.path.join(d, "book")
    os.makedirs(out)
    if nobody:
        os.chown(out, NOBODY, NOGROUP)
    os.link(os.path.join(d, "me.png"), os.path.join(out, "ph.pdf"))
    before = read(os.path.join(d, "me.png"))
    rc, _, err = cvpdf(["ph.yaml", "p.yaml", "-o", "book/"], d, preexec=preexec)
    check("a batch output that is a hard link to the photo: an error%s" % who,
          rc not in (0, None) and has_error(err), "rc %s: %s" % (rc, short(err)))
    check("a batch output that is a hard link to the photo: the photo is intact%s" % who,
          read(os.path.join(d, "me.png")) == before)


def inputs_test():
    outputs_over_inputs(False)
    if NOBODY_OK:
        outputs_over_inputs(True)
    else:
        print("note: not root, or cannot switch to nobody: every case as nobody is skipped")


# ------------------------------------------------------------------ links

def links_test():
    for nobody in ([False, True] if NOBODY_OK else [False]):
        who = " (as nobody)" if nobody else ""
        d = case_dir("links", NOBODY if nobody else None)
        pre = as_nobody if nobody else None
        write(os.path.join(d, "p.yaml"), PROFILE)
        real = os.path.join(d, "real")
        os.makedirs(real)
        links = os.path.join(d, "links")
        os.makedirs(links)
        for x in (real, links):
            if nobody:
                os.chown(x, NOBODY, NOGROUP)
        target = os.path.join(real, "t.pdf")
        write(target, b"old contents\n")
        if nobody:
            os.chown(target, NOBODY, NOGROUP)
        os.symlink("../real/t.pdf", os.path.join(links, "cv.pdf"))
        rc, _, err = cvpdf(["p.yaml", "-o", "links/cv.pdf"], d, preexec=pre)
        check("-o a symlink to a file: exit 0%s" % who, rc == 0, short(err))
        check("-o a symlink to a file: the target is now the PDF%s" % who, is_pdf(target),
              read(target)[:16])
        check("-o a symlink to a file: the symlink is still a symlink to it%s" % who,
              os.path.islink(os.path.join(links, "cv.pdf")) and
              os.readlink(os.path.join(links, "cv.pdf")) == "../real/t.pdf")
        check("-o a symlink to a file: nothing left beside link or target%s" % who,
              sorted(os.listdir(links)) == ["cv.pdf"] and sorted(os.listdir(real)) == ["t.pdf"],
              (os.listdir(links), os.listdir(real)))
        # A chain of two links.
        os.symlink("links/cv.pdf", os.path.join(d, "chain.pdf"))
        write(target, b"old again\n")
        rc, _, err = cvpdf(["p.yaml", "-o", "chain.pdf"], d, preexec=pre)
        check("-o a symlink to a symlink: the last target is the PDF, both links kept%s" % who,
              rc == 0 and is_pdf(target) and os.path.islink(os.path.join(d, "chain.pdf")) and
              os.path.islink(os.path.join(links, "cv.pdf")), short(err))
        # A dangling link: its target is created.
        os.symlink("../real/new.pdf", os.path.join(links, "dangling.pdf"))
        rc, _, err = cvpdf(["p.yaml", "-o", "links/dangling.pdf"], d, preexec=pre)
        new = os.path.join(real, "new.pdf")
        check("-o a dangling symlink: exit 0, its target created as the PDF%s" % who,
              rc == 0 and os.path.isfile(new) and is_pdf(new), short(err))
        check("-o a dangling symlink: still a symlink%s" % who,
              os.path.islink(os.path.join(links, "dangling.pdf")))
        check("-o a dangling symlink: no temporary file left%s" % who,
              not leftovers(links, real), leftovers(links, real))


def twolinks_test():
    """Two outputs of a batch that are one file: out/a.pdf a symlink to
    out/b.pdf (or to ./b.pdf, a dangling link to it, a chain) while b.pdf is
    b's own output.  Before, both were rendered into b.pdf and the run said
    "2 rendered, 0 failed": one résumé lost.  Now refused before anything
    is written (exit 1); hard links are not one file (each name is
    replaced by its own file), nor are two different names."""
    d = case_dir("twolinks")
    write(os.path.join(d, "a.yaml"), PROFILE)
    write(os.path.join(d, "b.yaml"), PROFILE)
    out = os.path.join(d, "out")
    for label, link in (("a symlink", "b.pdf"), ("a symlink by another path", "../out/./b.pdf"),
                        ("a chain of symlinks", "c.pdf")):
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        write(os.path.join(out, "b.pdf"), b"the last b\n")
        os.symlink(link, os.path.join(out, "a.pdf"))
        if link == "c.pdf":
            os.symlink("b.pdf", os.path.join(out, "c.pdf"))
        for j in ("0", "2"):
            rc, _, err = cvpdf(["-j", j, "-o", "out/", "a.yaml", "b.yaml"], d)
            check("two outputs that are one file (%s), -j %s: refused, exit 1, b.pdf as it "
                  "was" % (label, j), rc == 1 and read(os.path.join(out, "b.pdf")) ==
                  b"the last b\n" and re.search(r"a\.yaml and b\.yaml would both be written "
                                                r"to one file", err), short(err))
        os.remove(os.path.join(out, "b.pdf"))
        rc, _, err = cvpdf(["-j", "2", "-o", "out/", "a.yaml", "b.yaml"], d)
        check("two outputs that are one file (%s, b.pdf not made yet): refused" % label,
              rc == 1 and not os.path.exists(os.path.join(out, "b.pdf")), short(err))
    shutil.rmtree(out)
    os.makedirs(out)
    write(os.path.join(out, "b.pdf"), b"the last b\n")
    os.link(os.path.join(out, "b.pdf"), os.path.join(out, "a.pdf"))
    rc, _, err = cvpdf(["-j", "2", "-o", "out/", "a.yaml", "b.yaml"], d)
    check("two hard links as outputs: both written, each its own file",
          rc == 0 and is_pdf(os.path.join(out, "a.pdf")) and is_pdf(os.path.join(out, "b.pdf"))
          and os.stat(os.path.join(out, "a.pdf")).st_ino !=
          os.stat(os.path.join(out, "b.pdf")).st_ino, short(err))
    check("two outputs that are one file: nothing left behind", not leftovers(out, d),
          leftovers(out, d))


# ---------------------------------------------------------- FIFO, device

def special_test():
    d = case_dir("special")
    write(os.path.join(d, "p.yaml"), PROFILE)
    fifo = os.path.join(d, "pipe.pdf")
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE)
    rc, _, err = cvpdf(["p.yaml", "-o", "pipe.pdf"], d, timeout=30)
    try:
        got, _ = reader.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        reader.kill()
        got, _ = reader.communicate()
    check("-o a FIFO: exit 0", rc == 0, short(err))
    check("-o a FIFO: the reader gets the PDF", got.startswith(b"%PDF-") and b"%%EOF" in got[-32:],
          got[:16])
    check("-o a FIFO: still a FIFO", stat.S_ISFIFO(os.lstat(fifo).st_mode))
    check("-o a FIFO: no temporary file left", not leftovers(d), leftovers(d))

    dev = os.path.join(d, "null")
    try:
        os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError) as e:
        print("note: cannot mknod a character device (%s): the device cases are skipped" % e)
        return
    os.chmod(dev, 0o666)
    for extra in ([], ["--explain"]):
        rc, _, err = cvpdf(["p.yaml"] + extra + ["-o", "null"], d)
        st = os.lstat(dev)
        name = "%s-o a character device (1,3)" % ("--explain " if extra else "")
        check(name + ": exit 0", rc == 0, short(err))
        check(name + ": still the character device 1,3",
              stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3),
              oct(st.st_mode))
        check(name + ": no temporary file left", not leftovers(d), leftovers(d))


# --------------------------------------------- /dev in a private namespace

def unshare_ok():
    try:
        r = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                            "mount -t tmpfs none /dev && echo ok"],
                           capture_output=True, timeout=20)
        return r.returncode == 0 and r.stdout.strip() == b"ok"
    except (OSError, subprocess.SubprocessError):
        return False


def in_devns(d, script, nobody=False, timeout=TIMEOUT):
    """Run a shell script in a private mount namespace whose /dev is a tmpfs
    holding only null (1,3), stdout and stderr (-> /proc/self/fd/N); as
    nobody when asked (after the mounts).  $CVPDF is the binary.
    (status, stdout bytes, stderr text)."""
    run_as = "setpriv --reuid=%d --regid=%d --clear-groups " % (NOBODY, NOGROUP) if nobody else ""
    setup = ("mount -t tmpfs -o mode=755 none /dev && mknod /dev/null c 1 3 && "
             "chmod 666 /dev/null && ln -s /proc/self/fd/1 /dev/stdout && "
             "ln -s /proc/self/fd/2 /dev/stderr && exec %ssh -c \"$SCRIPT\"" % run_as)
    e = dict(os.environ)
    e.pop("CVPDF_TEST_FAULT", None)
    e.update(ENV)
    e["CVPDF"] = BIN
    e["SCRIPT"] = script
    try:
        p = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", setup],
                           cwd=d, capture_output=True, env=e, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, b"", "(timed out)"
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def devns_test():
    if not unshare_ok():
        print("note: unshare -m with a tmpfs over /dev is not permitted here: "
              "the /dev/null and /dev/stdout cases are skipped")
        return
    real_null = os.stat("/dev/null")
    for nobody in ([False, True] if NOBODY_OK else [False]):
        who = " (as nobody)" if nobody else ""
        d = case_dir("devns")
        write(os.path.join(d, "p.yaml"), PROFILE)
        for extra in ("", "--explain "):
            rc, out, err = in_devns(d, '$CVPDF p.yaml %s-o /dev/null >/dev/null; echo "rc=$?"; '
                                       'stat -c "%%F %%t,%%T" /dev/null' % extra, nobody)
            o = out.decode("utf-8", "replace")
            check("%s-o /dev/null: exit 0%s" % (extra, who), "rc=0" in o, o + short(err))
            check("%s-o /dev/null: /dev/null is still the character device%s" % (extra, who),
                  "character special file 1,3" in o, o + short(err))
        # -o /dev/stdout with the standard output a pipe (the runner's own, as
        # a shell pipeline makes it): the bytes come through.
        rc, out, err = in_devns(d, '{ $CVPDF p.yaml -o /dev/stdout; echo "rc=$?" >&2; } | cat; '
                                   'stat -c "%F" /dev/stdout >&2', nobody)
        check("-o /dev/stdout into a pipe: exit 0%s" % who, "rc=0" in err, short(err))
        check("-o /dev/stdout into a pipe: the PDF comes through the pipe%s" % who,
              out.startswith(b"%PDF-") and b"%%EOF" in out[-32:], out[:32])
        check("-o /dev/stdout into a pipe: /dev/stdout is still a symlink%s" % who,
              "symbolic link" in err, short(err))
        check("-o /dev/stdout: nothing left in the current directory%s" % who,
              sorted(os.listdir(d)) == ["p.yaml"], os.listdir(d))
    st = os.stat("/dev/null")
    check("the machine's /dev/null is untouched", stat.S_ISCHR(st.st_mode) and
          st.st_rdev == real_null.st_rdev and st.st_ino == real_null.st_ino)


# ------------------------------------------------------------ stdin, stdout

def stdio_test():
    d = case_dir("stdio")
    write(os.path.join(d, "p.yaml"), PROFILE)
    rc, out, err = cvpdf(["p.yaml", "-o", "-"], d)
    check("-o - writes the PDF to stdout", rc == 0 and out.startswith(b"%PDF-") and
          b"%%EOF" in out[-32:], "rc %s %r %s" % (rc, out[:16], short(err)))
    check("-o - leaves no file named '-'", not os.path.exists(os.path.join(d, "-")))

    # -o - on a terminal: refused, nothing sent to it.
    m, s = pty.openpty()
    e = dict(os.environ, **ENV)
    try:
        p = subprocess.run([BIN, "p.yaml", "-o", "-"], cwd=d, stdin=subprocess.DEVNULL,
                           stdout=s, stderr=subprocess.PIPE, env=e, timeout=TIMEOUT)
        rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = None, "(timed out)"
    os.close(s)
    got = b""
    while select.select([m], [], [], 0.2)[0]:
        try:
            chunk = os.read(m, 65536)
        except OSError:
            break
        if not chunk:
            break
        got += chunk
    os.close(m)
    check("-o - on a terminal: refused with an error", rc not in (0, None) and has_error(err),
          "rc %s: %s" % (rc, short(err)))
    check("-o - on a terminal: no PDF bytes reach the terminal", b"%PDF" not in got, got[:40])

    # '-' as the profile: standard input; relative paths from the current directory.
    sub = os.path.join(d, "cwd")
    os.makedirs(sub)
    shutil.copy(PHOTO, os.path.join(sub, "me.png"))
    rc, _, err = cvpdf(["-", "-o", "in.pdf"], sub, stdin=PHOTO_PROFILE.encode())
    pdf = os.path.join(sub, "in.pdf")
    check("- as a profile reads the standard input", rc == 0 and is_pdf(pdf), short(err))
    imgs = subprocess.run(["pdfimages", "-list", pdf], capture_output=True, text=True,
                          timeout=30).stdout if os.path.exists(pdf) else ""
    check("- as a profile: its relative photo path resolves from the current directory",
          len([l for l in imgs.splitlines()[2:] if l.strip()]) >= 1, imgs + short(err))
    rc, _, err = cvpdf(["-", "-o", "in2.pdf"], d, stdin=PHOTO_PROFILE.encode())
    check("- as a profile: a photo missing from the current directory is an error at <stdin>",
          rc == 1 and re.search(r"^<stdin>:\d+:\d+: error: .*me\.png", err, re.M), short(err))
    rc, _, err = cvpdf(["-", "-o", "bad.pdf"], d, stdin=b"cv:\n  name: Ada\n  email: [\n")
    check("- as a profile: an error in it is <stdin>:LINE:COL",
          rc == 1 and re.search(r"^<stdin>:\d+:\d+: error: ", err, re.M) and
          not os.path.exists(os.path.join(d, "bad.pdf")), short(err))
    rc, out, err = cvpdf(["-", "-o", "-"], d, stdin=PROFILE.encode())
    check("- -o -: standard input to standard output", rc == 0 and out.startswith(b"%PDF-"),
          short(err))


# ------------------------------------------------------------------ modes

def modes_test():
    for nobody in ([False, True] if NOBODY_OK else [False]):
        who = " (as nobody)" if nobody else ""
        pre = as_nobody if nobody else None
        d = case_dir("modes", NOBODY if nobody else None)
        write(os.path.join(d, "p.yaml"), PROFILE)
        pdf = os.path.join(d, "cv.pdf")
        rc, _, err = cvpdf(["p.yaml", "-o", "cv.pdf"], d, preexec=pre)
        os.chmod(pdf, 0o600)
        if nobody:
            os.chown(pdf, NOBODY, NOGROUP)
        rc, _, err = cvpdf(["p.yaml", "-o", "cv.pdf"], d, preexec=pre)
        m = stat.S_IMODE(os.stat(pdf).st_mode)
        check("a 0600 PDF stays 0600 after a re-render%s" % who, rc == 0 and m == 0o600,
              "rc %s mode %o %s" % (rc, m, short(err)))
        rc, _, err = cvpdf(["p.yaml", "-o", "new.pdf"], d, preexec=pre, umask=0o077)
        new = os.path.join(d, "new.pdf")
        m = stat.S_IMODE(os.stat(new).st_mode) if os.path.exists(new) else None
        check("umask 077: a new PDF is 0600%s" % who, rc == 0 and m == 0o600,
              "rc %s mode %s %s" % (rc, m and oct(m), short(err)))
        rc, _, err = cvpdf(["p.yaml", "-o", "dir/"], d, preexec=pre, umask=0o077)
        new = os.path.join(d, "dir", "p.pdf")
        m = stat.S_IMODE(os.stat(new).st_mode) if os.path.exists(new) else None
        check("umask 077: a new PDF in a new -o DIR/ is 0600%s" % who, rc == 0 and m == 0o600,
              "rc %s mode %s %s" % (rc, m and oct(m), short(err)))
        check("no temporary file left%s" % who, not leftovers(d), leftovers(d))
    if os.geteuid() == 0:
        d = case_dir("owner")
        write(os.path.join(d, "p.yaml"), PROFILE)
        pdf = os.path.join(d, "cv.pdf")
        write(pdf, b"%PDF-1.4 nobody's\n", 0o640)
        os.chown(pdf, NOBODY, NOGROUP)
        rc, _, err = cvpdf(["p.yaml", "-o", "cv.pdf"], d)
        st = os.stat(pdf)
        check("as root: a PDF owned by nobody keeps its owner and group after a re-render",
              rc == 0 and (st.st_uid, st.st_gid) == (NOBODY, NOGROUP) and is_pdf(pdf),
              "rc %s uid %d gid %d %s" % (rc, st.st_uid, st.st_gid, short(err)))
        check("as root: ... and its mode 0640", stat.S_IMODE(st.st_mode) == 0o640,
              oct(st.st_mode))


# --------------------------------------------------------- --merge, twice

def names_test():
    d = case_dir("names")
    for sub in ("a", "b"):
        write(os.path.join(d, sub, "cv.yaml"), PROFILE.replace("Ada Lovelace", "Person " + sub))
    rc, _, err = cvpdf(["--merge", "lab.pdf", "a/cv.yaml", "b/cv.yaml"], d)
    pdf = os.path.join(d, "lab.pdf")
    check("--merge lab.pdf a/cv.yaml b/cv.yaml: exit 0, one PDF", rc == 0 and is_pdf(pdf),
          short(err))
    if os.path.exists(pdf):
        txt = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True,
                             timeout=30).stdout
        check("--merge of two cv.yaml: both people in the book",
              "Person a" in txt and "Person b" in txt, txt[:200])
    write(os.path.join(d, "p.yaml"), PROFILE)
    rc, out, err = cvpdf(["p.yaml", "p.yaml", "--dump", "-o", "x.pdf"], d)
    check("a profile given twice: exit 0", rc == 0, short(err))
    check("a profile given twice renders once (--dump prints it once)",
          out.decode("utf-8", "replace").count("Ada Lovelace") ==
          cvpdf(["p.yaml", "--dump", "-o", "y.pdf"], d)[1].decode("utf-8", "replace")
          .count("Ada Lovelace"), short(err))
    rc, out, err = cvpdf(["p.yaml", "./p.yaml", "-o", "out/"], d)
    check("a profile given twice (as p.yaml and ./p.yaml): exit 0, one PDF",
          rc == 0 and os.listdir(os.path.join(d, "out")) == ["p.pdf"], short(err))
    m = re.search(r"cvpdf: (\d+) rendered, (\d+) failed", err)
    check("a profile given twice: the summary counts it rendered once",
          not m or m.group(1) == "1", short(err))


# ---------------------------------------------------------------- signals

def hang_env(profile):
    return {"CVPDF_TEST_FAULT": "hang:" + profile}


def start(args, cwd, env):
    e = dict(os.environ)
    e.pop("CVPDF_TEST_FAULT", None)
    e.update(ENV)
    e.update(env)
    return subprocess.Popen([BIN] + args, cwd=cwd, env=e, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)


def signal_it(proc, sig, group=False):
    """Send sig to proc (or its process group); False when it had ended."""
    try:
        (os.killpg if group else os.kill)(proc.pid, sig)
        return True
    except ProcessLookupError:
        return False


def finish(proc, secs=30):
    try:
        _, err = proc.communicate(timeout=secs)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        _, err = proc.communicate()
        return None, err.decode("utf-8", "replace")
    return proc.returncode, err.decode("utf-8", "replace")


def batch_dir(name, n=150):
    """A directory with n small profiles and one that will hang; returns
    (dir, profile names, the hanging one, the output dir)."""
    d = case_dir(name)
    names = []
    srcs = sorted(p for p in os.listdir(os.path.join(ROOT, "profiles"))
                  if p.endswith(".yaml") and not p.endswith("-zh.yaml"))
    for i in range(n):
        nm = "%02d-%s" % (i, srcs[i % len(srcs)])
        shutil.copy(os.path.join(ROOT, "profiles", srcs[i % len(srcs)]), os.path.join(d, nm))
        names.append(nm)
    for b in os.listdir(os.path.join(ROOT, "profiles")):     # the .bib files profiles read
        if b.endswith(".bib"):
            shutil.copy(os.path.join(ROOT, "profiles", b), d)
    # The hang first: one worker stays busy while the other renders the rest,
    # long enough for the signal to find it writing.
    return d, names, names[0], os.path.join(d, "out")


def pdfs_whole(out):
    bad = [f for f in os.listdir(out) if f.endswith(".pdf") and
           not is_pdf(os.path.join(out, f))] if os.path.isdir(out) else []
    return bad


def signals_test():
    sigs = [("SIGINT", signal.SIGINT), ("SIGTERM", signal.SIGTERM), ("SIGHUP", signal.SIGHUP)]
    # A single run, hanging (CVPDF_TEST_FAULT) so that the signal finds it running.
    for sname, sig in sigs:
        d = case_dir("single-" + sname)
        write(os.path.join(d, "p.yaml"), PROFILE)
        write(os.path.join(d, "cv.pdf"), b"%PDF-1.4 the previous one\n")
        proc = start(["p.yaml", "--timeout", "0", "-o", "cv.pdf"], d, hang_env("p.yaml"))
        time.sleep(1.0)
        alive = proc.poll() is None and signal_it(proc, sig)
        rc, err = finish(proc)
        check("single run, %s: it was running when signalled" % sname, alive, short(err))
        check("single run, %s: dies by the signal (status 128+%d)" % (sname, sig),
              rc in (-sig, 128 + sig), "rc %s: %s" % (rc, short(err)))
        check("single run, %s: no .cvpdf-* file, the previous PDF untouched" % sname,
              not leftovers(d) and read(os.path.join(d, "cv.pdf")) ==
              b"%PDF-1.4 the previous one\n", leftovers(d))
        check("single run, %s: no process left in its group" % sname,
              wait_until(lambda: not group_members(proc.pid), 2), group_members(proc.pid))

    # A batch parent: one worker hangs, the other renders; the signal comes
    # at a random moment while it writes.
    rnd = random.Random(13)
    for sname, sig in sigs:
        d, names, hang, out = batch_dir("batch-" + sname)
        proc = start(["-q", "-j", "2", "--timeout", "0", "-o", "out/"] + names, d,
                     hang_env(hang))
        wait_until(lambda: len(group_members(proc.pid)) >= 3, 20)
        kids = children_of(proc.pid)
        wait_until(lambda: os.path.isdir(out) and len(os.listdir(out)) >= 2, 20)
        time.sleep(rnd.uniform(0.0, 0.5))
        alive = signal_it(proc, sig)
        rc, err = finish(proc)
        check("batch, %s to the parent: it was running when signalled" % sname, alive,
              short(err))
        print("note: batch, %s: %d of %d PDFs written when the signal came"
              % (sname, len([f for f in os.listdir(out) if f.endswith(".pdf")]), len(names)))
        check("batch, %s to the parent: it had workers" % sname, len(kids) >= 2, kids)
        check("batch, %s to the parent: dies by the signal (status 128+%d)" % (sname, sig),
              rc in (-sig, 128 + sig), "rc %s: %s" % (rc, short(err)))
        left = group_members(proc.pid)
        check("batch, %s to the parent: no worker left when it has exited" % sname,
              not left, left)
        check("batch, %s to the parent: no .cvpdf-* file" % sname, not leftovers(out, d),
              leftovers(out, d))
        check("batch, %s to the parent: every PDF left is whole" % sname, not pdfs_whole(out),
              pdfs_whole(out))
        for pid in left:
            os.kill(pid, signal.SIGKILL)

    # SIGKILL to the whole process group, mid-batch.
    d, names, hang, out = batch_dir("batch-killpg")
    proc = start(["-q", "-j", "2", "--timeout", "0", "-o", "out/"] + names, d, hang_env(hang))
    wait_until(lambda: os.path.isdir(out) and len(os.listdir(out)) >= 2, 20)
    time.sleep(rnd.uniform(0.0, 0.5))
    alive = signal_it(proc, signal.SIGKILL, group=True)
    rc, err = finish(proc)
    check("batch, SIGKILL to the process group: it was running when killed", alive, short(err))
    check("batch, SIGKILL to the process group: no process left",
          wait_until(lambda: not group_members(proc.pid), 5), group_members(proc.pid))
    check("batch, SIGKILL to the process group: no .cvpdf-* file", not leftovers(out, d),
          leftovers(out, d))
    check("batch, SIGKILL to the process group: every PDF left is whole", not pdfs_whole(out),
          pdfs_whole(out))

    # SIGKILL to the parent alone: its workers go shortly after.
    d, names, hang, out = batch_dir("batch-killparent", 6)
    proc = start(["-q", "-j", "2", "--timeout", "0", "-o", "out/"] + names, d, hang_env(hang))
    wait_until(lambda: len(group_members(proc.pid)) >= 3, 20)
    kids = children_of(proc.pid)
    signal_it(proc, signal.SIGKILL)
    finish(proc)
    gone = wait_until(lambda: not group_members(proc.pid), 5)
    check("batch, SIGKILL to the parent alone: it had workers", len(kids) >= 2, kids)
    check("batch, SIGKILL to the parent alone: no worker running 5 s later", gone,
          group_members(proc.pid))
    check("batch, SIGKILL to the parent alone: no .cvpdf-* file", not leftovers(out, d),
          leftovers(out, d))
    for pid in group_members(proc.pid):
        os.kill(pid, signal.SIGKILL)

    # --timeout on a single run.
    d = case_dir("single-timeout")
    write(os.path.join(d, "p.yaml"), PROFILE)
    t0 = time.monotonic()
    rc, _, err = cvpdf(["p.yaml", "--timeout", "1", "-o", "cv.pdf"], d, env=hang_env("p.yaml"),
                       timeout=30)
    secs = time.monotonic() - t0
    check("single run, --timeout 1 on a hang: exit 1, 'gave up after 1 s'",
          rc == 1 and re.search(r"^p\.yaml: error: gave up after 1 s", err, re.M),
          "rc %s: %s" % (rc, short(err)))
    check("single run, --timeout 1: gives up within 10 s", secs < 10, secs)
    check("single run, --timeout 1: no PDF, no temporary file",
          not os.path.exists(os.path.join(d, "cv.pdf")) and not leftovers(d), os.listdir(d))


# ------------------------------------------------------------- empty links

def emptylinks_test():
    d = case_dir("emptylinks")
    for label, link in (("[y]()", "[y]()"), ("[y]( )", "[y]( )"), ("[y](TAB)", "[y](\\t)")):
        write(os.path.join(d, "p.yaml"), PROFILE.replace(
            "Wrote the first published program", '"Wrote %s the first program"' % link))
        pdf = os.path.join(d, "e.pdf")
        if os.path.exists(pdf):
            os.unlink(pdf)
        rc, _, err = cvpdf(["p.yaml", "-o", "e.pdf"], d)
        check("an empty link target %s: exit 0" % label, rc == 0, short(err))
        qp = subprocess.run(["qpdf", "--check", pdf], capture_output=True, timeout=30) \
            if os.path.exists(pdf) else None
        check("an empty link target %s: qpdf --check passes" % label,
              qp is not None and qp.returncode == 0,
              qp and qp.stdout.decode("utf-8", "replace")[-300:])
        check("an empty link target %s: no libharu error" % label, "libharu" not in err, err)


# ---------------------------------------------------------- layout errors

def layouterr_test():
    d = case_dir("layouterr")
    write(os.path.join(d, "p.yaml"), PROFILE)
    write(os.path.join(d, "base", "onecolumn.yaml"), read(ONECOLUMN))
    cases = [
        ("header: {name_size: 3000pt}", "header:\n  name_size: 3000pt\n", 3, "name_size"),
        ("font: {size: 0}", "font:\n  size: 0\n", 3, "size"),
        ("page: {size: [1mm, 1mm]}", "page:\n  size: [1mm, 1mm]\n", 3, "size"),
        ("photo: {width: 14400pt}", "photo:\n  width: 14400pt\n", 3, "width"),
        ("a 100 KB pdf: title:", 'pdf:\n  title: "%s"\n' % ("x" * 100000), 3, "title"),
    ]
    for label, body, line, key in cases:
        child = os.path.join(d, "child.yaml")
        write(child, "extends: base/onecolumn\n" + body)
        prof = "ph.yaml" if "photo" in label else "p.yaml"
        if prof == "ph.yaml":
            write(os.path.join(d, prof), PHOTO_PROFILE)
            shutil.copy(PHOTO, os.path.join(d, "me.png"))
        rc, _, err = cvpdf([prof, "-l", "child.yaml", "-o", "l.pdf"], d)
        errs = [DIAG.match(l) for l in err.splitlines() if DIAG.match(l) and
                DIAG.match(l).group("kind") == "error"]
        check("layout %s: exit 1, one error" % label, rc == 1 and len(errs) == 1,
              "rc %s: %s" % (rc, short(err)))
        e = errs[0] if errs else None
        check("layout %s: the error is at child.yaml:%d:COL" % (label, line),
              e is not None and e.group("file") == "child.yaml" and e.group("line") == str(line),
              short(err))
        check("layout %s: no libharu message, no PDF" % label,
              "libharu" not in err and not os.path.exists(os.path.join(d, "l.pdf")), short(err))


# ------------------------------------------------------------------- race

def race_test():
    base = case_dir("race")
    write(os.path.join(base, "a.yaml"), PROFILE)
    write(os.path.join(base, "b.yaml"), PROFILE.replace("Ada", "Bea"))
    fails = []
    for trial in range(6):
        out = "new%d/" % trial
        procs = [start(["-q", "-j", "2", "-o", out, "a.yaml", "b.yaml"], base, {})
                 for _ in range(2)]
        for p in procs:
            rc, err = finish(p, TIMEOUT)
            if rc != 0:
                fails.append("trial %d: rc %s: %s" % (trial, rc, short(err, 200)))
        made = sorted(os.listdir(os.path.join(base, out))) if \
            os.path.isdir(os.path.join(base, out)) else []
        if made != ["a.pdf", "b.pdf"]:
            fails.append("trial %d: %s" % (trial, made))
    check("two batches started together on a new output folder: both succeed (6 trials)",
          not fails, fails)


# --------------------------------------------------------------- messages

def one_diag(label, d, args, file_re, line=None, env=None):
    rc, _, err = cvpdf(args, d, env=env)
    lines = [l for l in err.split("\n") if l]
    check("%s: exit 1" % label, rc == 1, "rc %s: %s" % (rc, short(err)))
    check("%s: exactly one diagnostic line" % label,
          len(lines) == 1 and DIAG.match(lines[0]) and
          re.match(file_re, lines[0]) is not None, repr(err))
    check("%s: no raw control byte on stderr" % label, clean_bytes(err), repr(err))
    return err


def messages_test():
    d = case_dir("messages")
    write(os.path.join(d, "k.yaml"),
          'cv:\n  name: Ada\n  "email\\nfake.yaml:1:1: error: injected": x\n')
    err = one_diag("a key with a newline and a forged diagnostic", d,
                   ["k.yaml", "-o", "k.pdf"], r"k\.yaml:3:\d+: error: ")
    check("a key with a forged diagnostic: no line starts with fake.yaml",
          not re.search(r"^fake\.yaml", err, re.M), repr(err))
    write(os.path.join(d, "u.yaml"),
          'cv:\n  name: Ada\n  social_networks:\n    - network: GitHub\n'
          '      username: "a)\\n(b"\n')
    one_diag("a username a)\\n(b", d, ["u.yaml", "-o", "u.pdf"], r"u\.yaml:5:\d+: error: ")
    write(os.path.join(d, "a\nb.yaml"), "cv:\n  name: [\n")
    one_diag("a profile file named a\\nb.yaml", d, ["a\nb.yaml", "-o", "ab.pdf"],
             r"a.*b\.yaml:\d+:\d+: error: ")
    write(os.path.join(d, "e.yaml"), 'cv:\n  name: Ada\n  "\\e[2J": x\n')
    one_diag("a key \\e[2J", d, ["e.yaml", "-o", "e.pdf"], r"e\.yaml:3:\d+: error: ")
    # Of the same kinds: a layout file named with a newline and an error in it.
    write(os.path.join(d, "l\nx.yaml"), "extends: %s\nfont: {size: 0}\n" % ONECOLUMN)
    write(os.path.join(d, "p.yaml"), PROFILE)
    one_diag("a layout file named l\\nx.yaml with an error", d,
             ["p.yaml", "-l", "l\nx.yaml", "-o", "lx.pdf"], r"l.*x\.yaml:2:\d+: error: ")
    one_diag("a missing profile named with OSC and BEL", d,
             ["no\x1b]0;title\x07such.yaml", "-o", "n.pdf"], r"no.*such\.yaml: error: ")
    one_diag("-o into a missing directory named with ESC and a newline", d,
             ["p.yaml", "-o", "no\x1b[2Jdir\nx/cv.pdf"], r"no.*: error: ")
    # A hang named with a newline: the timeout message.
    write(os.path.join(d, "h\nx.yaml"), PROFILE)
    rc, _, err = cvpdf(["h\nx.yaml", "--timeout", "1", "-o", "h.pdf"], d,
                       env=hang_env("h\nx.yaml"), timeout=30)
    check("the --timeout message for a file named h\\nx.yaml: one line, no control byte",
          rc == 1 and len([l for l in err.split("\n") if l]) == 1 and clean_bytes(err),
          repr(err))
    # Usage errors echo what was given: escaped too.
    for label, args, env in (
            ("--date with ESC", ["p.yaml", "--date", "2023\x1b[2J\n", "-o", "x.pdf"], None),
            ("SOURCE_DATE_EPOCH with ESC", ["p.yaml", "-o", "x.pdf"],
             {"SOURCE_DATE_EPOCH": "5\x1b[2J"}),
            ("--timeout with ESC", ["p.yaml", "--timeout", "x\x1b[2J", "-o", "x.pdf"], None),
            ("-j with ESC", ["p.yaml", "-j", "x\x1b[2J", "-o", "x.pdf"], None),
            ("--fit-pages with ESC", ["p.yaml", "--fit-pages", "x\x1b[2J", "-o", "x.pdf"], None),
            ("--dump= with ESC", ["p.yaml", "--dump=x\x1b[2J", "-o", "x.pdf"], None),
            ("an unknown option with ESC", ["p.yaml", "--bogus\x1b[2J", "-o", "x.pdf"], None)):
        rc, _, err = cvpdf(args, d, env=env)
        check("usage error, %s: exit 2, no raw control byte on stderr" % label,
              rc == 2 and clean_bytes(err), "rc %s: %r" % (rc, err))

    # Control characters written as YAML escapes: refused, nothing written.
    write(os.path.join(d, "n.yaml"), 'cv:\n  name: "A\\x07\\x1b[31mB"\n')
    rc, _, err = cvpdf(["n.yaml", "-o", "n.pdf"], d)
    check('name: "A\\x07\\x1b[31mB": refused with a positioned error',
          rc == 1 and re.search(r"^n\.yaml:2:\d+: error: ", err, re.M), short(err))
    check('name: "A\\x07\\x1b[31mB": no PDF', not os.path.exists(os.path.join(d, "n.pdf")))
    check('name: "A\\x07\\x1b[31mB": no raw control byte on stderr', clean_bytes(err), repr(err))
    write(os.path.join(d, "n2.yaml"), 'cv:\n  name: Ada\n  headline: "x\\u009b31m y"\n')
    rc, _, err = cvpdf(["n2.yaml", "-o", "n2.pdf"], d)
    check("a headline with the C1 control U+009B: refused with a positioned error, no PDF",
          rc == 1 and re.search(r"^n2\.yaml:3:\d+: error: ", err, re.M) and
          not os.path.exists(os.path.join(d, "n2.pdf")), short(err))


# ------------------------------------------------------------------ dates

def dates_test():
    d = case_dir("dates")
    write(os.path.join(d, "p.yaml"), PROFILE)
    for date in ("-001-01-01", "2023-+1-+1", " 2023-01-01", "0000-01-01", "2023-02-30",
                 "2023-1-01", "2023-01-01 "):
        rc, _, err = cvpdf(["p.yaml", "--date", date, "-o", "x.pdf"], d)
        check("--date %r: a usage error (exit 2)" % date, rc == 2, "rc %s: %s" % (rc, short(err)))
    for sde in (" 5", "+5", "5 ", "0x10"):
        rc, _, err = cvpdf(["p.yaml", "-o", "x.pdf"], d, env={"SOURCE_DATE_EPOCH": sde})
        check("SOURCE_DATE_EPOCH=%r: a usage error (exit 2)" % sde, rc == 2,
              "rc %s: %s" % (rc, short(err)))
    rc, _, err = cvpdf(["p.yaml", "--date", "2023-01-01", "-o", "x.pdf"], d,
                       env={"SOURCE_DATE_EPOCH": "5"})
    check("--date 2023-01-01, SOURCE_DATE_EPOCH=5: accepted", rc == 0, short(err))


# ------------------------------------------------------------------- misc

def misc_test():
    d = case_dir("misc")
    write(os.path.join(d, "p.yaml"), PROFILE)
    rc, _, err = cvpdf(["p.yaml", "-o", "new/sub/"], d)
    check("-o new/sub/ (missing parent): made, as mkdir -p makes it",
          rc == 0 and os.path.isfile(os.path.join(d, "new", "sub", "p.pdf")),
          "rc %s: %s" % (rc, short(err)))
    shutil.rmtree(os.path.join(d, "new"))
    write(os.path.join(d, "afile"), "")
    rc, _, err = cvpdf(["p.yaml", "-o", "afile/sub/"], d)
    check("-o afile/sub/ (a parent that is a file): an error: line",
          rc not in (0, None) and "error:" in err, "rc %s: %s" % (rc, short(err)))
    os.unlink(os.path.join(d, "afile"))
    rc, _, err = cvpdf(["p.yaml", "-o", ""], d)
    check('-o "": a usage error (exit 2)', rc == 2, "rc %s: %s" % (rc, short(err)))
    check('-o "": no ": error: cannot write \'\'" garbage',
          not re.search(r"^: ", err, re.M) and "cannot write ''" not in err, repr(err))
    check('-o "": no raw control byte, nothing created', clean_bytes(err) and
          sorted(os.listdir(d)) == ["p.yaml"], (repr(err), os.listdir(d)))
    os.makedirs(os.path.join(d, "loop"))
    os.symlink("l2", os.path.join(d, "loop", "l1"))
    os.symlink("l1", os.path.join(d, "loop", "l2"))
    rc, _, err = cvpdf(["p.yaml", "p.yaml", "-o", "loop/l1/"], d)
    check("-o a symlink loop as the folder: an error that is not 'File exists'",
          rc not in (0, None) and "error:" in err and "File exists" not in err, short(err))
    for label, text in (("cv: [1, 2]", "cv: [1, 2]\n"), ("cv: 5", "cv: 5\n"),
                        # Wrong values the profile overrides: still a broken file.
                        ("cv: {name: [1]}, the profile with a name",
                         "cv:\n  name: [1]\n"),
                        ("cv: {sections: [1]}, the profile with sections",
                         "cv:\n  sections: [1]\n")):
        write(os.path.join(d, "defaults.yaml"), text)
        rc, _, err = cvpdf(["p.yaml", "--defaults", "defaults.yaml", "-o", "x.pdf"], d)
        check("--defaults with %s: refused with a positioned error" % label,
              rc == 1 and re.search(r"^defaults\.yaml:\d+:\d+: error: ", err, re.M),
              "rc %s: %s" % (rc, short(err)))


# --------------------------------------------------------------- bigphoto

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def bigphoto_test():
    d = case_dir("bigphoto")
    w = h = 6000
    row = b"\0" + b"\0" * (w * 6)           # filter 0, RGB at 16 bits a sample
    c = zlib.compressobj(1)
    idat = b"".join([c.compress(row * 100) for _ in range(h // 100)] + [c.flush()])
    write(os.path.join(d, "big.png"), b"\x89PNG\r\n\x1a\n" +
          png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0)) +
          png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b""))
    write(os.path.join(d, "p.yaml"), PROFILE.replace("  email:", "  photo: big.png\n  email:"))
    t0 = time.monotonic()
    rc, _, err = cvpdf(["p.yaml", "-o", "big.pdf"], d, timeout=120)
    secs = time.monotonic() - t0
    pdf = os.path.join(d, "big.pdf")
    check("a 6000x6000 16-bit PNG photo renders", rc == 0 and is_pdf(pdf),
          "rc %s: %s" % (rc, short(err)))
    imgs = subprocess.run(["pdfimages", "-list", pdf], capture_output=True, text=True,
                          timeout=30).stdout if os.path.exists(pdf) else ""
    check("a 6000x6000 16-bit PNG photo: the picture is in the PDF",
          len([l for l in imgs.splitlines()[2:] if l.strip()]) == 1, imgs)
    print("note: the 6000x6000 16-bit PNG took %.1f s" % secs)


# ------------------------------------------------- inputs planned (issue 25)

def planned_refused(label, d, args, victim, env=None, binary=None):
    before = read(victim)
    if binary:
        global BIN
        saved, BIN = BIN, binary
    try:
        rc, _, err = cvpdf(args, d, env=env)
    finally:
        if binary:
            BIN = saved
    check("%s: exit 2 with an error" % label, rc == 2 and has_error(err),
          "rc %s: %s" % (rc, short(err)))
    check("%s: the input is byte-identical" % label, read(victim) == before,
          "now %d bytes, starts %r" % (len(read(victim)), read(victim)[:8]))
    check("%s: nothing written" % label, not [f for f in os.listdir(os.path.join(d, "o"))
                                               if not os.path.islink(os.path.join(d, "o", f))
                                               and f != "q-1.png"],
          os.listdir(os.path.join(d, "o")))


def planned_test():
    d = case_dir("planned")
    shutil.copy(os.path.join(ROOT, "profiles", "chaoyang-he.bib"), os.path.join(d, "refs.bib"))
    write(os.path.join(d, "p.yaml"), PROFILE + "    publications: refs.bib\n")
    write(os.path.join(d, "q.yaml"), PROFILE.replace("Ada Lovelace", "Q Person"))
    os.makedirs(os.path.join(d, "o"))
    link = os.path.join(d, "o", "q.pdf")
    os.symlink("../refs.bib", link)
    for order in (["p.yaml", "q.yaml"], ["q.yaml", "p.yaml"]):
        planned_refused("-j 2 -o o/ %s: o/q.pdf a symlink to p's .bib" % " ".join(order), d,
                        order + ["-j", "2", "-o", "o/"], os.path.join(d, "refs.bib"))
    os.unlink(link)
    german = os.path.join(DATA, "locales", "german.yaml")
    os.symlink(german, link)
    planned_refused("o/q.pdf a symlink to the data directory's locales/german.yaml", d,
                    ["p.yaml", "q.yaml", "-o", "o/"], german)
    os.unlink(link)
    # A copy of the binary with its phone module where an install keeps it.
    inst = os.path.join(d, "inst")
    os.makedirs(os.path.join(inst, "bin"))
    os.makedirs(os.path.join(inst, "lib", "cvpdf"))
    shutil.copy(BIN, os.path.join(inst, "bin", "cvpdf"))
    module = os.path.join(inst, "lib", "cvpdf", "cvpdf-phone.so")
    write(module, b"\x7fELF stand-in for the phone module\n")
    os.symlink(module, link)
    planned_refused("o/q.pdf a symlink to lib/cvpdf/cvpdf-phone.so", d,
                    ["p.yaml", "q.yaml", "-o", "o/"], module,
                    binary=os.path.join(inst, "bin", "cvpdf"))
    os.unlink(link)
    # A font a worker may open later (a script's face, found by fontconfig
    # only when a profile needs it) is never an output either: here a face
    # no profile of the run uses.
    spare = os.path.join(d, "Spare-Regular.otf")
    shutil.copy(os.path.join(ROOT, "fonts", "Lato-Regular.ttf"), spare)
    os.symlink(spare, link)
    for jobs in ("0", "2"):
        planned_refused("-j %s: o/q.pdf a symlink to a font file no profile uses" % jobs, d,
                        ["p.yaml", "q.yaml", "-j", jobs, "-o", "o/"], spare)
    os.unlink(link)
    # PNG pages are outputs too: r's photo is q's first page.
    shutil.copy(PHOTO, os.path.join(d, "o", "q-1.png"))
    write(os.path.join(d, "r.yaml"), PROFILE.replace("  email:", "  photo: o/q-1.png\n  email:"))
    for order in (["q.yaml", "r.yaml"], ["r.yaml", "q.yaml"]):
        planned_refused("--format png -j 2 %s: r's photo is o/q-1.png" % " ".join(order), d,
                        order + ["--format", "png", "-j", "2", "-o", "o/"],
                        os.path.join(d, "o", "q-1.png"))
    # A profile read from a pipe (as `<(...)` gives it): read once, ahead.
    shutil.copy(PHOTO, os.path.join(d, "me.png"))
    piped = PROFILE.replace("Ada Lovelace", "Piped Person").replace(
        "  email:", "  photo: %s\n  email:" % os.path.join(d, "me.png"))

    def through_pipe(args):
        r, w = os.pipe()
        os.write(w, piped.encode())
        os.close(w)
        try:
            p = subprocess.run([BIN] + [a.replace("PIPE", "/dev/fd/%d" % r) for a in args],
                               cwd=d, capture_output=True, timeout=TIMEOUT, pass_fds=(r,),
                               env=dict(os.environ, **ENV))
        finally:
            os.close(r)
        return p.returncode, p.stderr.decode("utf-8", "replace")
    os.symlink("../me.png", link)
    before = read(os.path.join(d, "me.png"))
    rc, err = through_pipe(["PIPE", "q.yaml", "-j", "2", "-o", "o/"])
    check("a profile from a pipe whose photo o/q.pdf links to: exit 2, the photo intact",
          rc == 2 and "this is an input (a photo)" in err and
          read(os.path.join(d, "me.png")) == before, "rc %s: %s" % (rc, short(err)))
    os.unlink(link)
    rc, err = through_pipe(["--merge", "book.pdf", "PIPE", "q.yaml"])
    text = subprocess.run(["pdftotext", os.path.join(d, "book.pdf"), "-"], capture_output=True,
                          timeout=TIMEOUT).stdout.decode() if rc == 0 else ""
    check("--merge of a profile from a pipe and a file: both in the book",
          rc == 0 and "Piped Person" in text and "Q Person" in text, "rc %s: %s" % (rc, short(err)))


# ----------------------------------------------- nothing blocks (issue 25)

def noblock_test():
    d = case_dir("noblock")
    write(os.path.join(d, "p.yaml"), PROFILE)
    os.mkfifo(os.path.join(d, "fifo.yaml"))
    os.mkfifo(os.path.join(d, "refs.bib"))
    write(os.path.join(d, "child.yaml"), "extends: fifo\n")
    write(os.path.join(d, "b.yaml"), PROFILE + "    publications: refs.bib\n")
    write(os.path.join(d, "lc.yaml"), PROFILE + "settings:\n  render_command:\n"
          "    locale: fifo.yaml\n")
    cases = [("-l a FIFO", ["p.yaml", "-l", "fifo.yaml"], r"^fifo\.yaml: error: .*not a regular"),
             ("an extends: base that is a FIFO", ["p.yaml", "-l", "child.yaml"],
              r"^child\.yaml:1:10: error: .*not a regular"),
             ("--defaults a FIFO", ["p.yaml", "--defaults", "fifo.yaml"],
              r"^fifo\.yaml: error: .*not a regular"),
             ("a .bib that is a FIFO", ["b.yaml"], r"^b\.yaml:\d+:\d+: error: .*not a regular"),
             ("a render_command locale file that is a FIFO", ["lc.yaml"],
              r"^lc\.yaml:\d+:\d+: error: .*not a regular")]
    for label, args, want in cases:
        for t in (["--timeout", "0"], []):
            rc, _, err = cvpdf(args + t + ["-o", "x.pdf"], d, timeout=30)
            check("%s%s: exit 1, positioned, no hang" % (label, " (--timeout 0)" if t else ""),
                  rc == 1 and re.search(want, err, re.M), "rc %s: %s" % (rc, short(err)))
    check("FIFO inputs: no x.pdf", not os.path.exists(os.path.join(d, "x.pdf")))
    os.mkfifo(os.path.join(d, "f.png"))
    rc, _, err = cvpdf(["p.yaml", "-o", "f.png"], d, timeout=30)
    check("-o f.png a FIFO: exit 2, no hang", rc == 2 and "files of their own" in err,
          "rc %s: %s" % (rc, short(err)))
    check("-o f.png a FIFO: still a FIFO", stat.S_ISFIFO(os.lstat(os.path.join(d, "f.png")).st_mode))
    try:
        os.mknod(os.path.join(d, "dev.svg"), stat.S_IFCHR | 0o666, os.makedev(1, 3))
        rc, _, err = cvpdf(["p.yaml", "-o", "dev.svg"], d, timeout=30)
        check("-o dev.svg a character device: exit 2", rc == 2 and "files of their own" in err,
              "rc %s: %s" % (rc, short(err)))
    except OSError as e:
        print("note: cannot mknod a character device (%s): that case is skipped" % e)
    os.mkfifo(os.path.join(d, "x-2.png"))
    for t in (["--timeout", "0"], ["--timeout", "20"]):
        rc, _, err = cvpdf(["p.yaml", "-o", "x.png"] + t, d, timeout=30)
        check("a FIFO x-2.png beside -o x.png %s: exit 2 naming x-2.png, no hang" % " ".join(t),
              rc == 2 and re.search(r"^x-2\.png: error: this is a FIFO", err, re.M),
              "rc %s: %s" % (rc, short(err)))
    check("a FIFO x-2.png: no page written", not os.path.exists(os.path.join(d, "x-1.png")))
    os.unlink(os.path.join(d, "x-2.png"))
    # A standard input that never ends: --timeout bounds loading.
    rfd, wfd = os.pipe()
    p = subprocess.Popen([BIN, "--timeout", "1", "-", "-o", "s.pdf"], cwd=d,
                         stdin=rfd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=dict(os.environ, **ENV))
    os.close(rfd)
    try:
        _, err = p.communicate(timeout=30)
        check("--timeout 1 with a standard input that never ends: exit 1 with the timeout's "
              "message, naming <stdin>", p.returncode == 1 and
              re.search(rb"^<stdin>: error: gave up after 1 s", err, re.M),
              "rc %s: %s" % (p.returncode, err[-300:]))
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        check("--timeout 1 with a standard input that never ends: ends", False, "hung")
    os.close(wfd)
    # A profile that is a FIFO nobody writes (read ahead, as <(...) is): the
    # message names it, alone or in a batch, not 'cvpdf'.
    for args in (["fifo.yaml", "-o", "f.pdf"], ["p.yaml", "fifo.yaml", "-o", "fo/"]):
        rc, _, err = cvpdf(["--timeout", "1"] + args, d, timeout=30)
        check("--timeout 1, %s: exit 1, the message names fifo.yaml" % " ".join(args),
              rc == 1 and re.search(r"^fifo\.yaml: error: gave up after 1 s", err, re.M),
              "rc %s: %s" % (rc, short(err)))
    # A user's own x-1.png: replaced, with a note.
    write(os.path.join(d, "x-1.png"), b"my own picture")
    rc, _, err = cvpdf(["p.yaml", "-o", "x.png"], d, timeout=60)
    check("a user's own x-1.png: replaced with a note", rc == 0 and
          re.search(r"^x\.png: note: x-1\.png was not written by cvpdf", err, re.M),
          "rc %s: %s" % (rc, short(err)))
    # Many pages, few descriptors: a page set holds no descriptor per page.
    long_profile = PROFILE + "    notes:\n" + "".join(
        "      - \"%s\"\n" % ("Paragraph %d. " % i + "word " * 60) for i in range(1500))
    write(os.path.join(d, "long.yaml"), long_profile)

    def few_files():
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))
    rc, _, err = cvpdf(["long.yaml", "--dpi", "18", "-o", "long.png"], d, preexec=few_files,
                       timeout=240)
    pages = [f for f in os.listdir(d) if re.match(r"long-\d+\.png$", f)]
    check("a PNG set of %d pages under a limit of 32 open files" % len(pages),
          rc == 0 and len(pages) > 100, "rc %s, %d pages: %s" % (rc, len(pages), short(err)))
    check("a PNG set under a limit of 32 open files: no temporary file left", not leftovers(d),
          leftovers(d))


if __name__ == "__main__":
    t0 = time.monotonic()
    status = testlib.main("safety", [inputs_test, links_test, twolinks_test, special_test, devns_test,
                                     stdio_test, modes_test, names_test, signals_test,
                                     emptylinks_test, layouterr_test, race_test, messages_test,
                                     dates_test, misc_test, bigphoto_test, planned_test,
                                     noblock_test],
                           tmp=TMP)
    raise SystemExit(status)
