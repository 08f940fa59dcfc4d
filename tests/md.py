#!/usr/bin/env python3
"""-o cv.md (issue 29): the profile as CommonMark, read back by cmark.

Usage: tests/md.py CVPDF_BINARY [-k PATTERN] [--list]   (tests/run.sh passes build/san/cvpdf)

  words       he, fang, fang-zh (zh layout), li, chaoyang-he and RenderCV's
              sample: the Markdown rendered by `cmark` (Debian's cmark) shows
              every word of cvpdf's PDF of the same profile (pdftotext), and
              no word the PDF does not have; its <h2>s are the sections, in
              the PDF's order
  structure   the name an <h1>, the contact links, an entry's lines with
              hard breaks, highlights nested as lists in lists, bullet and
              numbered entries as lists (reversed_number counting down)
  escapes     text that Markdown would read as syntax (* _ ` # - + 1. < > &
              [ ] and a leading "> ") shows literally; emphasis and links
              from the profile's markup are emphasis and links; a
              javascript: link is text alone
  output      -o - with --format md, the same bytes as the file; never over
              an input; --merge with .md is a usage error; a profile error
              writes nothing
  watch       --watch -o cv.md: an edit of the profile is in the Markdown

The last line is "md: N passed, M failed".
"""
import html
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata

import testlib
from testlib import BIN, ROOT, check, run

TMP = tempfile.mkdtemp(prefix="cvpdf-md-")
CASES = [("he", "profiles/he.yaml", "onecolumn"),
         ("fang", "profiles/fang.yaml", "onecolumn"),
         ("fang-zh", "profiles/fang-zh.yaml", "zh"),
         ("li", "profiles/li.yaml", "onecolumn"),
         ("chaoyang-he", "profiles/chaoyang-he.yaml", "onecolumn"),
         ("rendercv-sample", "tests/data/rendercv/sample.yaml", "onecolumn")]


def cmark(md):
    """CommonMark to HTML with Debian's cmark (raw HTML left out, as it does
    by default)."""
    p = subprocess.run(["cmark"], input=md.encode(), capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr.decode()
    return p.stdout.decode()


def html_text(h):
    """The text an HTML page shows (tags out, entities read)."""
    return html.unescape(re.sub(r"<[^>]+>", "", h))


def is_cjk(ch):
    return unicodedata.east_asian_width(ch) in "WF" and ch.isalnum()


def words(text):
    """The words of a text, compared without case, accents as written
    (NFKC), CJK characters one by one; a word broken by a hyphen at a
    line's end (pdftotext: "compu-\\nter") counts whole and as its parts."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"(\w)-\n\s*(\w)", "\\1\x00\\2", text)
    out = set()
    for w in re.findall(r"[\w\x00]+", text):
        parts = [w.replace("\x00", "")] + (w.split("\x00") if "\x00" in w else [])
        for p in parts:
            run_ = ""
            for ch in p:
                if is_cjk(ch):
                    if run_:
                        out.add(run_)
                    out.add(ch)
                    run_ = ""
                else:
                    run_ += ch
            if run_:
                out.add(run_)
    out.discard("")
    return out


def render(profile, layout, fmt, out):
    rc, so, se = run([BIN, "-q", "-l", layout, os.path.join(ROOT, profile), "-o", out])
    assert rc == 0, se
    return out


def pdf_text(pdf):
    rc, out, _ = run(["pdftotext", "-enc", "UTF-8", pdf, "-"])
    assert rc == 0
    # The running footer ("1 / 2") and header (the name) are no part of
    # the profile's text.
    return "\n".join(l for l in out.split("\n") if not re.fullmatch(r"\s*\d+\s*/\s*\d+\s*", l))


def md_words():
    for name, profile, layout in CASES:
        md = render(profile, layout, "md", os.path.join(TMP, name + ".md"))
        pdf = render(profile, layout, "pdf", os.path.join(TMP, name + ".pdf"))
        page = cmark(open(md, encoding="utf-8").read())
        shown = html_text(page)
        pt = pdf_text(pdf)
        mw, pw = words(shown), words(pt)
        # A word hyphenated at a line's end in the PDF counts whole.
        missing = sorted(w for w in pw - mw)
        extra = sorted(w for w in mw - pw)
        check("words: %s: every word of the PDF is in the Markdown" % name, not missing,
              "missing %s" % missing[:20])
        check("words: %s: no word the PDF does not have" % name, not extra,
              "extra %s" % extra[:20])
        check("words: %s: no Markdown syntax left in the text" % name,
              not re.search(r"\*\*|\\[\\*_`#\[\]<>]|\]\(", shown), shown[:200])
        # The sections, in order: each <h2> where the PDF has it.
        titles = [html.unescape(t) for t in re.findall(r"<h2>(.*?)</h2>", page)]
        flat = unicodedata.normalize("NFKC", pt).lower()
        at, order_ok = -1, bool(titles)
        for t in titles:
            k = flat.find(unicodedata.normalize("NFKC", t).lower(), at + 1)
            order_ok = order_ok and k > at
            at = k
        check("words: %s: %d sections, in the PDF's order" % (name, len(titles)), order_ok,
              titles)


SPECIAL = r"""cv:
  name: "Ada *Star* Lovelace"
  headline: "C# and C++ <b>bold</b> & R&D &amp; 100% [not a link] and `code`"
  email: ada@example.com
  website: https://example.com/ada_(math)
  social_networks:
    - network: GitHub
      username: ada_l
  custom_connections:
    - placeholder: Blog
      url: "https://blog.example/)](javascript:alert(3)"
      fontawesome_icon: link
  sections:
    notes:
      - "# not a heading"
      - "- not a bullet"
      - "+ not a bullet either"
      - "1. not a list"
      - "2020) not a list"
      - "> not a quote"
      - "=== not a heading underline"
      - "snake_case_name and 2 * 3 * 4 and a\\b"
      - "**Label：**CJK punctuation before a letter"
      - "**bold** and *italic* and [a link](https://example.org/x?a=1&b=2) and ***both***"
      - "[bad](javascript:alert(1)) stays text"
      - "Wow![no image](https://example.org/x.png) and \\\\![nor this](https://example.org/y.png)"
    experience:
      - company: "**Engines** Ltd"
        position: Programmer
        start_date: 1842-09
        end_date: present
        location: London
        summary: "Wrote *notes* on the engine."
        highlights:
          - "First program"
          - bullet: "Nested one"
          - "Second"
    list:
      - bullet: alpha
      - bullet: beta
    counted:
      - number: one
      - number: two
    down:
      - reversed_number: three
      - reversed_number: two
      - reversed_number: one
"""


def escapes():
    prof = os.path.join(TMP, "special.yaml")
    text = SPECIAL.replace("""          - bullet: "Nested one"\n""", "")
    # nested highlights as RenderCV writes them: a sub-list after an item
    text = text.replace('          - "First program"\n',
                        '          - "First program"\n          - - "Nested one"\n')
    open(prof, "w", encoding="utf-8").write(text)
    out = os.path.join(TMP, "special.md")
    rc, _, se = run([BIN, "-q", prof, "-o", out])
    if not check("escapes: the profile renders", rc == 0, se):
        return
    md = open(out, encoding="utf-8").read()
    page = cmark(md)
    shown = html_text(page)
    for literal in ["# not a heading", "- not a bullet", "+ not a bullet either",
                    "1. not a list", "2020) not a list", "> not a quote",
                    "=== not a heading underline", "snake_case_name and 2 * 3 * 4 and a\\b",
                    "C# and C++ <b>bold</b> & R&D &amp; 100% [not a link] and code",
                    "Label：CJK punctuation before a letter"]:
        check("escapes: shown as written: %r" % literal, literal in shown, shown[:600])
    check("escapes: the name's markup left out, as in the PDF; no other heading",
          len(re.findall(r"<h1>", page)) == 1 and "<h1>Ada Star Lovelace</h1>" in page,
          re.findall(r"<h\d>.*?</h\d>", page))
    check("escapes: no blockquote, no list made of text",
          "<blockquote>" not in page and "<ol>\n<li>not" not in page, page[:800])
    check("escapes: `code` a code span", "<code>code</code>" in page, page)
    check("escapes: emphasis that ends in punctuation before a letter still closes",
          "<strong>Label</strong>：CJK" in page, page)
    check("escapes: bold, italic and both",
          "<strong>bold</strong>" in page and "<em>italic</em>" in page and
          re.search(r"<(em|strong)><(em|strong)>both</\2></\1>", page), page)
    check("escapes: the link with its query", '<a href="https://example.org/x?a=1&amp;b=2">'
          'a link</a>' in page, page)
    check("escapes: no javascript: link", not re.search(r'href="\s*javascript', page, re.I)
          and "bad stays text" in shown, page)
    check("escapes: a '!' before a link no image, the link kept",
          "<img" not in page and "Wow!<a href=\"https://example.org/x.png\">no image</a>" in page
          and "\\!<a href=\"https://example.org/y.png\">nor this</a>" in page,
          re.findall(r".{0,40}example\.org/[xy].{0,40}", page))
    check("escapes: the email a mailto link",
          '<a href="mailto:ada@example.com">ada@example.com</a>' in page, page)
    check("escapes: the website a link, its parentheses kept",
          '<a href="https://example.com/ada_(math)">' in page, page)
    check("escapes: a connection's URL with an unbalanced ')' one link, all of it",
          '<a href="https://blog.example/)%5D(javascript:alert(3)">Blog</a>' in page and
          "alert(3)" not in shown, re.findall(r".{0,60}blog\.example.{0,60}", page))
    check("escapes: the social network a link",
          '<a href="https://github.com/ada_l">' in page, page)
    check("structure: the company in bold, the dates and place on one line",
          "<strong>Engines Ltd</strong>" in page and
          re.search(r"Sept?\.?\u00a01842\u00a0– present · <em>London</em>", page), page)
    check("structure: an entry's lines joined by hard breaks", "<br />" in page, page)
    check("structure: the summary a paragraph with its emphasis",
          "<p>Wrote <em>notes</em> on the engine.</p>" in page, page)
    check("structure: nested highlights a list in a list item",
          re.search(r"<li>First program\n<ul>\n<li>Nested one</li>\n</ul>\n</li>", page), page)
    check("structure: bullet entries one list",
          "<ul>\n<li>alpha</li>\n<li>beta</li>\n</ul>" in page, page)
    check("structure: numbered entries one ordered list",
          "<ol>\n<li>one</li>\n<li>two</li>\n</ol>" in page, page)
    starts = re.findall(r'<ol start="(\d+)">\n<li>(\w+)</li>', page)
    check("structure: reversed_number counts down",
          starts == [("3", "three"), ("2", "two")] and "<ol>\n<li>one</li>" in page,
          starts)
    check("structure: sections in the profile's order",
          re.findall(r"<h2>(.*?)</h2>", page) == ["Notes", "Experience", "List", "Counted",
                                                    "Down"], re.findall(r"<h2>.*?</h2>", page))


def output():
    prof = os.path.join(ROOT, "profiles", "he.yaml")
    out = os.path.join(TMP, "he-o.md")
    rc, _, se = run([BIN, "-q", prof, "-o", out])
    rc2, so, se2 = run([BIN, "-q", prof, "--format", "md", "-o", "-"])
    check("output: -o - --format md writes the same Markdown", rc == 0 and rc2 == 0 and
          so == open(out, encoding="utf-8").read(), se + se2)
    d = os.path.join(TMP, "dir")
    rc, _, se = run([BIN, "-q", "--format", "md", "-o", d + "/", prof,
                     os.path.join(ROOT, "profiles", "li.yaml")])
    check("output: -o DIR/ --format md writes DIR/NAME.md", rc == 0 and
          sorted(os.listdir(d)) == ["he.md", "li.md"], (rc, se, os.listdir(d) if
                                                          os.path.isdir(d) else None))
    # Never over an input.
    copy = os.path.join(TMP, "in.md")
    shutil.copy(prof, copy)
    before = open(copy, "rb").read()
    rc, _, se = run([BIN, "-q", copy, "-o", copy])
    check("output: an input is never overwritten", rc == 2 and
          open(copy, "rb").read() == before and "input" in se, (rc, se))
    rc, _, se = run([BIN, "-q", prof, "--merge", os.path.join(TMP, "all.md")])
    check("output: --merge with .md is a usage error", rc == 2 and "--merge" in se and
          not os.path.exists(os.path.join(TMP, "all.md")), (rc, se))
    bad = os.path.join(TMP, "bad.yaml")
    open(bad, "w").write("cv:\n  name: X\n  emial: x\n")
    target = os.path.join(TMP, "bad.md")
    open(target, "w").write("previous\n")
    rc, _, se = run([BIN, "-q", bad, "-o", target])
    check("output: a broken profile: file:line:col, exit 1, the previous file kept",
          rc == 1 and re.search(r"bad\.yaml:3:3: error", se) and
          open(target).read() == "previous\n", (rc, se))
    left = [f for f in os.listdir(TMP) if f.startswith(".cvpdf-")]
    check("output: no temporary file left", not left, left)


def watch():
    d = os.path.join(TMP, "watch")
    os.makedirs(d)
    prof = os.path.join(d, "me.yaml")
    open(prof, "w").write("cv:\n  name: Ada Lovelace\n  headline: First words\n")
    out = os.path.join(d, "me.md")
    p = subprocess.Popen([BIN, "--watch", prof, "-o", out], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        def wait_text(s, secs=90):
            end = time.monotonic() + secs
            while time.monotonic() < end:
                if os.path.exists(out) and s in open(out, encoding="utf-8").read():
                    return True
                time.sleep(0.2)
            return False
        check("watch: the first Markdown written", wait_text("First words"))
        time.sleep(0.5)
        tmp = prof + ".new"
        open(tmp, "w").write("cv:\n  name: Ada Lovelace\n  headline: Second words\n")
        os.rename(tmp, prof)
        check("watch: an edit of the profile is in the Markdown", wait_text("Second words"))
    finally:
        testlib.stop_group(p)


if __name__ == "__main__":
    if not shutil.which("cmark"):
        print("FAIL: cmark is not installed (run tests/deps.sh check as root)")
        print("md: 0 passed, 1 failed")
        sys.exit(1)
    sys.exit(testlib.main("md", [md_words, escapes, output, watch], tmp=TMP))
