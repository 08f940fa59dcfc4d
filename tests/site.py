#!/usr/bin/env python3
"""--site DIR/ (issue 29): a lab's website from its profiles.

Usage: tests/site.py CVPDF_BINARY [-k PATTERN] [--list]   (tests/run.sh passes build/san/cvpdf)

  cards       DIR/index.html has a card per profile, in the order given: the
              name, headline, current position, links, the photo as a PNG
              data: URI; the lab's name, address and website from the
              --defaults file's lab:; every link to a file of the site
              resolves to a file there; each PDF reads back (pdftotext)
  pages       (HTML back end, after the merge of h-html) each card links
              DIR/NAME.html, which exists and names the person
  broken      a broken profile among good ones: its error at file:line:col,
              exit 1, its card alone missing, the others written
  foreign     an index.html cvpdf did not write, or a directory in its
              place, is never written over (exit 2, nothing rendered); one
              it wrote is replaced; a profile called index is refused
  safe        the page is escaped (a lab name with <script>), has a
              Content-Security-Policy and no script, links only http(s),
              mailto and tel besides its own files, lang on <html>, a
              viewport, and `tidy` (Debian's tidy) reports nothing
  browser     in headless chromium: axe-core (npm) finds no violation in
              the lab page, and at 375 px it scrolls nothing sideways
  usage       --site with -o, --merge, --dump, --watch: usage errors; a bad
              lab: key is an error at its line; --defaults with lab: still
              renders a single PDF

The last line is "site: N passed, M failed".
"""
import base64
import html
import html.parser
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

import testlib
from testlib import BIN, ROOT, check, run

TMP = tempfile.mkdtemp(prefix="cvpdf-site-")
PROFILES = ["he", "fang-zh", "li", "chaoyang-he"]
LAB = """lab:
  name: PACMAN Lab
  address: Department of Computer Science and Technology, Tsinghua University
  url: https://pacman.cs.tsinghua.edu.cn/
"""


class Page(html.parser.HTMLParser):
    """The cards (each: its h2 text, its links, its img src), every href and
    src, the <html> attributes, the scripts and the meta tags."""

    def __init__(self):
        super().__init__()
        self.cards, self.hrefs, self.srcs, self.metas, self.scripts = [], [], [], [], 0
        self.html_attrs, self.h1, self._in = {}, "", None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.html_attrs = a
        if tag == "li" and "card" in (a.get("class") or "").split():
            self.cards.append({"name": "", "links": [], "img": None, "text": "",
                               "lang": a.get("lang")})
        if tag == "a":
            self.hrefs.append(a.get("href"))
            if self.cards:
                self.cards[-1]["links"].append(a.get("href"))
        if tag == "img":
            self.srcs.append(a.get("src"))
            if self.cards:
                self.cards[-1]["img"] = a.get("src")
        if tag == "meta":
            self.metas.append(a)
        if tag == "script":
            self.scripts += 1
        if tag in ("h1", "h2"):
            self._in = tag

    def handle_endtag(self, tag):
        if tag == self._in:
            self._in = None

    def handle_data(self, data):
        if self._in == "h2" and self.cards:
            self.cards[-1]["name"] += data
        if self._in == "h1":
            self.h1 += data
        if self.cards:
            self.cards[-1]["text"] += data


def parse(path):
    p = Page()
    p.feed(open(path, encoding="utf-8").read())
    return p


def prof(name):
    return os.path.join(ROOT, "profiles", name + ".yaml")


def site(out, profiles, extra=()):
    return run([BIN, "-q", "--site", out] + list(extra) + profiles)


def lab_file():
    path = os.path.join(TMP, "lab.yaml")
    open(path, "w").write(LAB)
    return path


def photo_profile():
    """he.yaml with the test photo beside it."""
    d = os.path.join(TMP, "withphoto")
    os.makedirs(d, exist_ok=True)
    shutil.copy(os.path.join(ROOT, "tests", "data", "photo.jpg"), d)
    text = open(prof("he"), encoding="utf-8").read()
    text = text.replace("  name: Jiaao He\n", "  name: Jiaao He\n  photo: photo.jpg\n", 1)
    path = os.path.join(d, "he.yaml")
    open(path, "w", encoding="utf-8").write(text)
    return path


def own_file(href):
    return href and not re.match(r"(?i)(https?|mailto|tel):", href)


def cards():
    out = os.path.join(TMP, "lab") + "/"
    profiles = [photo_profile()] + [prof(n) for n in PROFILES[1:]]
    rc, _, se = site(out, profiles, ["--defaults", lab_file()])
    index = os.path.join(out, "index.html")
    if not check("cards: the site is written", rc == 0 and os.path.exists(index), (rc, se)):
        return
    p = parse(index)
    names = [c["name"].split("\n")[0].strip() for c in p.cards]
    check("cards: a card per profile, in the order given",
          names == ["Jiaao He", "方佳瑞 Jiarui Fang", "Shen Li", "Chaoyang He"], names)
    check("cards: the lab's name as the page's heading and title",
          p.h1 == "PACMAN Lab" and "<title>PACMAN Lab</title>" in open(index).read(), p.h1)
    page = open(index, encoding="utf-8").read()
    check("cards: the lab's address and website",
          "Department of Computer Science and Technology, Tsinghua University" in page and
          'href="https://pacman.cs.tsinghua.edu.cn/"' in page, page[:2000])
    he = p.cards[0] if p.cards else {"text": "", "links": [], "img": None}
    check("cards: the headline and the current position (the first ongoing experience)",
          "PhD Candidate, Institute of High-Performance Computing" in he["text"] and
          "PhD Student" in he["text"] and "PACMAN Lab, Dept. CS, Tsinghua Univ." in he["text"],
          he["text"])
    check("cards: the links: email, social network",
          "mailto:laekov.h@gmail.com" in he["links"] and
          "https://orcid.org/0000-0001-8578-5158" in he["links"], he["links"])
    img = he["img"] or ""
    ok = img.startswith("data:image/png;base64,")
    png = base64.b64decode(img.split(",", 1)[1]) if ok else b""
    w, h = struct.unpack(">II", png[16:24]) if png[:8] == b"\x89PNG\r\n\x1a\n" else (0, 0)
    check("cards: the photo a PNG data: URI at most 192 pixels a side",
          ok and 0 < w <= 192 and 0 < h <= 192, (img[:40], w, h))
    check("cards: a card without a photo shows initials", "photo initials" in page and
          ">SL<" in page, page[-3000:])
    check("cards: the Chinese card says its language", p.cards[1].get("lang") == "zh"
          if len(p.cards) > 1 else False, [c.get("lang") for c in p.cards])
    own = [h for h in p.hrefs if own_file(h)]
    missing = [h for h in own if not os.path.isfile(os.path.join(out, html.unescape(h)))]
    check("cards: every link to a file of the site resolves", own and not missing,
          (own, missing))
    pdfs = ["./he.pdf", "./fang-zh.pdf", "./li.pdf", "./chaoyang-he.pdf"]
    check("cards: each card links its PDF",
          [next((x for x in c["links"] if x.endswith(".pdf")), None) for c in p.cards] == pdfs,
          [c["links"] for c in p.cards])
    rc, text, _ = run(["pdftotext", os.path.join(out, "li.pdf"), "-"])
    check("cards: a PDF of the site reads back", rc == 0 and "Shen Li" in text, text[:200])


def initials():
    """A card without a photo: two initials of a Latin or Hebrew name, one
    of a Chinese or Arabic name (two Arabic letters would join into a word:
    ل and ا make لا, "no")."""
    names = {"ar": ("\u0644\u064a\u0644\u0649 \u0639\u0628\u062f \u0627\u0644\u0647\u0627\u0634\u0645\u064a",
                    "arabic", "\u0644"),
             "he": ("\u05e0\u05d5\u05e2\u05d4 \u05dc\u05d5\u05d9", "hebrew", "\u05e0\u05dc"),
             "en": ("Ada Lovelace", "english", "AL")}
    paths = []
    for key, (name, lang, _) in names.items():
        path = os.path.join(TMP, "init-%s.yaml" % key)
        open(path, "w", encoding="utf-8").write(
            "cv:\n  name: %s\n  email: x@example.org\nlocale:\n  language: %s\n" % (name, lang))
        paths.append(path)
    out = os.path.join(TMP, "initials") + "/"
    rc, _, se = site(out, paths)
    page = open(os.path.join(out, "index.html"), encoding="utf-8").read() if rc == 0 else ""
    got = re.findall(r'class="photo initials"[^>]*>([^<]*)<', page)
    check("initials: Arabic one letter, Hebrew and Latin two (first and last word)",
          got == [v[2] for v in names.values()], (rc, se, got))


def pages():
    """Each person's HTML page: needs the HTML back end (h-html's html.c)."""
    out = os.path.join(TMP, "pages") + "/"
    rc, _, se = site(out, [prof(n) for n in PROFILES])
    index = os.path.join(out, "index.html")
    p = parse(index) if os.path.exists(index) else Page()
    for n, c in zip(PROFILES, p.cards):
        want = "./%s.html" % n
        check("pages: the card of %s links %s" % (n, want), want in c["links"], c["links"])
        path = os.path.join(out, n + ".html")
        ok = os.path.isfile(path)
        check("pages: %s.html is written" % n, ok, os.listdir(out))
        if ok:
            check("pages: %s.html names the person" % n,
                  c["name"].split()[0] in open(path, encoding="utf-8").read(), n)
    check("pages: the run succeeded with every card", rc == 0 and len(p.cards) == len(PROFILES),
          (rc, se))
    # A profile without a name (RenderCV allows it): its card is headed by
    # its file's name, not an empty heading holding an empty link.
    d = os.path.join(TMP, "nameless")
    os.makedirs(d, exist_ok=True)
    nameless = os.path.join(d, "m-wu.yaml")
    open(nameless, "w").write("cv:\n  headline: Postdoc\n  sections:\n    A: [x]\n")
    out = os.path.join(TMP, "nameless-site") + "/"
    rc, _, se = site(out, [nameless])
    page = open(os.path.join(out, "index.html"), encoding="utf-8").read() \
        if os.path.exists(os.path.join(out, "index.html")) else ""
    check("pages: a nameless profile's card is headed by its file name, the link not empty",
          rc == 0 and '<h2><a href="./m-wu.html">m-wu</a></h2>' in page and
          "></a>" not in page, re.findall(r"<h2>.*?</h2>", page) or (rc, se))


def broken():
    out = os.path.join(TMP, "broken") + "/"
    bad = os.path.join(TMP, "bad.yaml")
    open(bad, "w").write("cv:\n  name: Broken Person\n  emial: x@example.com\n")
    rc, _, se = site(out, [prof("he"), bad, prof("li")])
    check("broken: exit 1, the error at its file:line:col",
          rc == 1 and re.search(r"bad\.yaml:3:3: error: unknown key 'emial'", se), (rc, se))
    index = os.path.join(out, "index.html")
    p = parse(index) if os.path.exists(index) else Page()
    names = [c["name"].strip() for c in p.cards]
    check("broken: the others' cards, in order, and not the broken one's",
          names == ["Jiaao He", "Shen Li"], names)
    check("broken: the others' PDFs written, none for the broken one",
          os.path.isfile(os.path.join(out, "he.pdf")) and
          os.path.isfile(os.path.join(out, "li.pdf")) and
          not os.path.exists(os.path.join(out, "bad.pdf")), os.listdir(out))
    rc, _, se = site(out, [bad])
    p2 = parse(index)
    check("broken: every profile failing leaves the last good page as it was",
          rc == 1 and "nothing to write" in se and
          [c["name"].strip() for c in p2.cards] == ["Jiaao He", "Shen Li"], (rc, se))


def foreign():
    out = os.path.join(TMP, "foreign")
    os.makedirs(out)
    index = os.path.join(out, "index.html")
    open(index, "w").write("<html><body>the lab's own page</body></html>\n")
    rc, _, se = site(out + "/", [prof("li")])
    check("foreign: an index.html cvpdf did not write is refused (exit 2)",
          rc == 2 and "not written by cvpdf" in se, (rc, se))
    check("foreign: it is left as it was, nothing rendered",
          open(index).read() == "<html><body>the lab's own page</body></html>\n" and
          not os.path.exists(os.path.join(out, "li.pdf")), os.listdir(out))
    # One cvpdf wrote is replaced.
    out2 = os.path.join(TMP, "again") + "/"
    rc1, _, _ = site(out2, [prof("li")])
    rc2, _, se = site(out2, [prof("he")])
    p = parse(os.path.join(out2, "index.html"))
    check("foreign: a page cvpdf wrote is written again",
          rc1 == 0 and rc2 == 0 and [c["name"].strip() for c in p.cards] == ["Jiaao He"],
          (rc1, rc2, se))
    out3 = os.path.join(TMP, "dirindex")
    os.makedirs(os.path.join(out3, "index.html"))
    rc, _, se = site(out3, [prof("li")])
    check("foreign: a directory called index.html is refused", rc == 2 and
          os.path.isdir(os.path.join(out3, "index.html")), (rc, se))
    idx = os.path.join(TMP, "index.yaml")
    shutil.copy(prof("li"), idx)
    rc, _, se = site(os.path.join(TMP, "idx") + "/", [idx])
    check("foreign: a profile called index is refused", rc == 1 and "index" in se, (rc, se))
    left = [f for d in (out, out2) for f in os.listdir(d) if f.startswith(".cvpdf-")]
    check("foreign: no temporary file left", not left, left)


def safe():
    out = os.path.join(TMP, "safe") + "/"
    lab = os.path.join(TMP, "evil.yaml")
    open(lab, "w").write('lab:\n  name: "<script>alert(1)</script> & Co"\n'
                         '  address: "1 <b>Main</b> St"\n')
    rc, _, se = site(out, [prof("he"), prof("fang-zh")], ["--defaults", lab])
    index = os.path.join(out, "index.html")
    if not check("safe: written", rc == 0 and os.path.exists(index), (rc, se)):
        return
    text = open(index, encoding="utf-8").read()
    p = parse(index)
    check("safe: the lab's name escaped, no script anywhere",
          p.scripts == 0 and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in text and
          "<b>" not in text, p.scripts)
    csp = [m.get("content", "") for m in p.metas
           if (m.get("http-equiv") or "").lower() == "content-security-policy"]
    check("safe: a Content-Security-Policy that allows no script",
          csp and "default-src 'none'" in csp[0] and "script-src" not in csp[0], csp)
    check("safe: lang on <html>", bool(p.html_attrs.get("lang")), p.html_attrs)
    check("safe: a viewport for phones", any(m.get("name") == "viewport" for m in p.metas),
          p.metas)
    check("safe: the cards wrap into one column below 30rem (375 px)",
          re.search(r"@media \(max-width:30rem\)", text) and "minmax(min(100%," in text, "")
    bad = [h for h in p.hrefs if not own_file(h) and
           not re.match(r"(https?|mailto|tel):", h or "")]
    bad += [s for s in p.srcs if not (s or "").startswith("data:image/png;base64,")]
    check("safe: links only http(s), mailto, tel and the site's files", not bad, bad)
    rc, so, se = run(["tidy", "-q", "-e", index])
    check("safe: tidy reports nothing", rc == 0 and not se.strip(), (rc, se))


# In a real browser (Debian's chromium, headless; axe-core from npm, as
# tests/htmlpage.py): the lab page at 375 px scrolls nothing sideways, and
# axe-core finds no violation.  Scripts run only in a test copy whose CSP
# allows them; cvpdf's page has none.
AXE = os.path.join(testlib.npm_tool("axe-core") or os.path.join(testlib.NPM_DIR, "axe-core"),
                   "axe.min.js")
REPORT = """addEventListener('load', function () {
  var d = document.documentElement, out = {sw: d.scrollWidth, cw: d.clientWidth,
                                          vw: innerWidth};
  var done = function (v) { out.axe = v; parent.postMessage(JSON.stringify(out), '*');
    var p = document.createElement('pre'); p.id = 'cvpdf-report';
    p.textContent = JSON.stringify(out); document.body.appendChild(p); };
  if (window.axe)
    axe.run(document, {resultTypes: ['violations']}).then(function (r) {
      done(r.violations.map(function (v) { return v.id; })); });
  else
    done(null);
});"""
FRAME = """<!DOCTYPE html><html><body style="margin:0">
<iframe src="%s" style="width:375px;height:900px;border:0"></iframe>
<script>addEventListener('message', function (e) {
  var p = document.createElement('pre'); p.id = 'cvpdf-report';
  p.textContent = e.data; document.body.appendChild(p); });</script></body></html>"""


def chromium_report(url):
    prof = tempfile.mkdtemp(prefix="chromium-", dir=TMP)
    try:
        p = subprocess.run([shutil.which("chromium") or "/usr/bin/chromium", "--headless",
                            "--no-sandbox", "--disable-gpu", "--no-first-run",
                            "--hide-scrollbars", "--user-data-dir=" + prof,
                            "--window-size=1280,900", "--virtual-time-budget=20000",
                            "--dump-dom", url], capture_output=True, timeout=180)
    finally:
        shutil.rmtree(prof, ignore_errors=True)
    import json
    m = re.search(r'<pre id="cvpdf-report">(.*?)</pre>', p.stdout.decode("utf-8", "replace"),
                  re.S)
    return json.loads(html.unescape(m.group(1))) if m else None


def browser():
    out = os.path.join(TMP, "browser") + "/"
    lab = lab_file()
    rc, _, se = site(out, [photo_profile(), prof("fang-zh"), prof("levi-he"), prof("li")],
                     ["--defaults", lab])
    index = os.path.join(out, "index.html")
    if not check("browser: written", rc == 0 and os.path.exists(index), (rc, se)):
        return
    if not check("axe-core installed (sh tests/deps.sh check)", os.path.exists(AXE), AXE):
        return
    src = open(index, encoding="utf-8").read()
    lib = open(AXE, encoding="utf-8").read().replace("</script", "<\\/script")
    src = src.replace("default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';")
    copy = os.path.join(out, "test-copy.html")
    open(copy, "w", encoding="utf-8").write(
        src.replace("</body>", "<script>%s\n%s</script>\n</body>" % (lib, REPORT)))
    r = chromium_report("file://" + copy)
    check("browser: axe-core reports no violation in the lab page", r and r["axe"] == [],
          r and r["axe"])
    frame = os.path.join(out, "test-frame.html")
    open(frame, "w", encoding="utf-8").write(FRAME % "test-copy.html")
    r = chromium_report("file://" + frame)
    check("browser: at 375 px no horizontal scrolling (scrollWidth %s, clientWidth %s)"
          % (r and r["sw"], r and r["cw"]), r and r["vw"] == 375 and r["sw"] <= r["cw"],
          r)


def usage():
    out = os.path.join(TMP, "usage") + "/"
    for extra in (["-o", "x.pdf"], ["--merge", "x.pdf"], ["--dump"], ["--watch"]):
        rc, _, se = site(out, [prof("li")], extra)
        check("usage: --site with %s is a usage error" % extra[0], rc == 2 and
              extra[0].lstrip("-") in se, (rc, se))
    check("usage: nothing written", not os.path.exists(out), "")
    lab = os.path.join(TMP, "badlab.yaml")
    open(lab, "w").write("lab:\n  name: X\n  adress: Y\n")
    rc, _, se = site(os.path.join(TMP, "badlab") + "/", [prof("li")], ["--defaults", lab])
    check("usage: an unknown lab: key is an error at its line", rc == 1 and
          re.search(r"badlab\.yaml:3:3: error: .*adress", se), (rc, se))
    lab = os.path.join(TMP, "urllab.yaml")
    open(lab, "w").write("lab:\n  url: javascript:alert(1)\n")
    rc, _, se = site(os.path.join(TMP, "urllab") + "/", [prof("li")], ["--defaults", lab])
    check("usage: a lab url that is no http(s) URL is an error", rc == 1 and
          re.search(r"urllab\.yaml:2:8: error", se), (rc, se))
    pdf = os.path.join(TMP, "one.pdf")
    rc, _, se = run([BIN, "-q", "--defaults", lab_file(), prof("li"), "-o", pdf])
    check("usage: --defaults with lab: still renders a PDF", rc == 0 and os.path.exists(pdf),
          (rc, se))


if __name__ == "__main__":
    if not shutil.which("tidy"):
        print("FAIL: tidy is not installed (run tests/deps.sh check as root)")
        print("site: 0 passed, 1 failed")
        sys.exit(1)
    sys.exit(testlib.main("site", [cards, initials, pages, broken, foreign, safe, browser, usage], tmp=TMP))
