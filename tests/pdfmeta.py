#!/usr/bin/env python3
"""What a cvpdf PDF says about itself, read back with independent tools.

Usage: tests/pdfmeta.py CVPDF_BINARY [-k PATTERN] [--list]

pdfinfo (poppler) reads the Info dictionary; pdfminer reads the catalog,
bookmarks, link annotations and page labels; qpdf --json confirms the page
labels.  The checks:

  info         title from the layout's template ("Name — Résumé", and a
               custom one), author, subject (headline), keywords, creator
               "cvpdf VERSION", each through the UTF-8 encoder (Chinese
               names); /Lang from the profile's locale; DisplayDocTitle
  bookmarks    one per section, in profile order, Chinese titles exact,
               each pointing at the page where pdftotext finds the title
  links        every e-mail (mailto:), phone (tel:), website, social
               network (profile URL), DOI (https://doi.org/...) and URL is
               a link annotation without a border, printable (/F 4), over
               the words it links
  labels       page labels 1, 2, ... on every page
  reproducible two renders (at different times, to different paths) are
               byte-identical; without SOURCE_DATE_EPOCH no date is
               written, with it both dates are that instant, in Info and
               in the PDF/A XMP packet; a bad SOURCE_DATE_EPOCH is a usage
               error

Every check prints "ok NAME" or "FAIL NAME: why"; the last line is
"pdfmeta: N passed, M failed".
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import testlib
from testlib import BIN, ROOT, check, need_pdfminer, read_dump, run, words_bbox

need_pdfminer("pdfmeta")
from pdfminer.pdfdocument import PDFDocument, PDFNoOutlines
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser
from pdfminer.pdftypes import resolve1
from pdfminer.psparser import PSLiteral

TMP = tempfile.mkdtemp(prefix="cvpdf-meta-")
ZH_LAYOUT = os.path.join(ROOT, "layouts", "zh.yaml")
VERSION = re.search(r"^VERSION = (\S+)", open(os.path.join(ROOT, "Makefile")).read(), re.M).group(1)


def env_without_date(**extra):
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    env.update(extra)
    return env


def render(profile, out, *args, env=None):
    p = subprocess.run([BIN, "-q", profile, "-o", out] + list(args), capture_output=True,
                       env=env or env_without_date(), cwd=ROOT)
    return p.returncode, p.stderr.decode("utf-8", "replace")


def plain(pdf):
    """The PDF's objects as text: qpdf's QDF, object streams unpacked (every
    file but a PDF/A-1 one has them)."""
    return subprocess.run(["qpdf", "--qdf", "--object-streams=disable", pdf, "-"],
                          capture_output=True).stdout


def pdfinfo(pdf):
    _, out, _ = run(["pdfinfo", "-enc", "UTF-8", pdf])
    info = {}
    for line in out.splitlines():
        k, _, v = line.partition(":")
        info[k.strip()] = v.strip()
    return info


def text(v):
    """A PDF string as Python text (UTF-16 with BOM, or PDFDocEncoding)."""
    v = resolve1(v)
    if isinstance(v, bytes):
        if v.startswith(b"\xfe\xff"):
            return v[2:].decode("utf-16-be")
        return v.decode("latin-1")
    if isinstance(v, PSLiteral):
        return v.name
    return v


class Pdf:
    """The parts of a PDF the checks need, read by pdfminer."""

    def __init__(self, path):
        self.f = open(path, "rb")
        self.doc = PDFDocument(PDFParser(self.f))
        self.catalog = resolve1(self.doc.catalog)
        self.pages = list(PDFPage.create_pages(self.doc))
        self.page_ids = [p.pageid for p in self.pages]

    def outlines(self):
        """(level, title, destination) of every bookmark; [] when the PDF
        has no /Outlines (any other error is one)."""
        try:
            return [(lvl, title, dest) for lvl, title, dest, _, _ in self.doc.get_outlines()]
        except PDFNoOutlines:
            return []

    def links(self):
        """(page index, uri, rect, annotation dict) of every link."""
        out = []
        for i, p in enumerate(self.pages):
            for a in resolve1(p.annots) or []:
                a = resolve1(a)
                if text(a.get("Subtype")) != "Link":
                    continue
                act = resolve1(a.get("A")) or {}
                uri = resolve1(act.get("URI"))
                out.append((i, uri.decode("latin-1") if isinstance(uri, bytes) else uri,
                            [float(resolve1(x)) for x in resolve1(a["Rect"])], a))
        return out

    def close(self):
        self.f.close()


def section_titles(pdf_words, title, pdf=None):
    """Pages (0-based) where pdftotext finds the words of `title`."""
    want = [w.lower() for w in title.split()]
    found = []
    if pdf and re.search("[\u0590-\u08ff]", title):
        # Right-to-left glyphs are drawn in logical order, each where it
        # shows, which -bbox takes for one word a letter: read each page.
        for i in range(len(pdf_words)):
            _, t, _ = run(["pdftotext", "-f", str(i + 1), "-l", str(i + 1), pdf, "-"])
            if title in re.sub("[\u200e\u200f\u202a-\u202e]", "", t):
                found.append(i)
        return found
    for i, (_, _, words) in enumerate(pdf_words):
        ws = [w[4].lower() for w in words]
        for k in range(len(ws) - len(want) + 1):
            # (A right-to-left title's words come in visual order.)
            if ws[k:k + len(want)] in (want, want[::-1]):
                found.append(i)
                break
    return found


# RenderCV's language names and their codes, as src/lang.c has them.
CODES = {"english": "en", "arabic": "ar", "danish": "da", "dutch": "nl", "french": "fr",
         "german": "de", "hebrew": "he", "hindi": "hi", "hungarian": "hu", "indonesian": "id",
         "italian": "it", "japanese": "ja", "korean": "ko", "mandarin_chinese": "zh",
         "norwegian_bokmål": "nb", "norwegian_nynorsk": "nn", "persian": "fa",
         "portuguese": "pt", "russian": "ru", "spanish": "es", "turkish": "tr",
         "vietnamese": "vi"}


def locale_of(profile):
    """(language name, /Lang code, the word for "Résumé") of a profile, from
    its locale.language and cvpdf's locale file for it."""
    m = re.search(r"^locale:\n(?:  .*\n)*?  language:\s*(\S+)", open(profile, encoding="utf-8").read(),
                  re.M)
    name = m.group(1) if m else "english"
    code = CODES.get(name, name)
    resume = "Résumé"
    path = os.path.join(ROOT, "locales", name + ".yaml")
    if os.path.exists(path):
        r = re.search(r'^resume:\s*"([^"]*)"', open(path, encoding="utf-8").read(), re.M)
        resume = r.group(1) if r else resume
    return name, code, resume


# ---- a profile with every kind of link -------------------------------------

LINKS_PROFILE = """\
cv:
  name: Zoë Łukasiewicz-Ørsted
  headline: Research Engineer & "Typesetter" <PDF>
  location: Kraków, Poland
  email: zoe@example.org
  phone: "+48 12 345 67 89"
  website: https://zoe.example.org/
  social_networks:
    - network: LinkedIn
      username: zoe-l
    - network: GitHub
      username: zoel
    - network: ORCID
      username: 0000-0002-1825-0097
    - network: Google Scholar
      username: AbCdEfGhIj
    - network: Mastodon
      username: "@zoe@sigmoid.social"
  sections:
    publications:
      - title: A Paper with a DOI
        authors: ["Zoë Łukasiewicz-Ørsted", "Ada Lovelace"]
        journal: Journal of Links
        date: 2023-05
        doi: 10.1145/3368089.3409697
      - title: A Paper with a URL
        authors: ["Zoë Łukasiewicz-Ørsted"]
        journal: arXiv
        date: 2024-01
        url: https://arxiv.org/abs/2401.00001
    experience:
      - company: Example Corp
        position: Engineer
        start_date: 2020-01
        end_date: present
        highlights:
          - "Wrote the [typesetter](https://example.com/typesetter) and its tests."
"""

EXPECTED_LINKS = [
    "mailto:zoe@example.org",
    "tel:+48123456789",
    "https://zoe.example.org/",
    "https://linkedin.com/in/zoe-l",
    "https://github.com/zoel",
    "https://orcid.org/0000-0002-1825-0097",
    "https://scholar.google.com/citations?user=AbCdEfGhIj",
    "https://sigmoid.social/@zoe",
    "https://doi.org/10.1145/3368089.3409697",
    "https://arxiv.org/abs/2401.00001",
    "https://example.com/typesetter",
]


def profiles():
    out = []
    for p in sorted(os.listdir(os.path.join(ROOT, "profiles"))):
        if p.endswith(".yaml"):
            path = os.path.join(ROOT, "profiles", p)
            out.append((path, ["-l", ZH_LAYOUT] if p.endswith("-zh.yaml") else []))
    return out


def yaml_field(path, key):
    m = re.search(r"^  %s:\s*(.+)$" % key, open(path, encoding="utf-8").read(), re.M)
    return m.group(1).strip().strip('"') if m else None


def info_test():
    for path, args in profiles():
        stem = os.path.basename(path)[:-5]
        out = os.path.join(TMP, stem + ".pdf")
        rc, err = render(path, out, *args)
        if not check("%s: renders" % stem, rc == 0, err):
            continue
        info = pdfinfo(out)
        name = yaml_field(path, "name")
        layout = args[1] if args else os.path.join(ROOT, "layouts", "onecolumn.yaml")
        tmpl = re.search(r"^pdf:\n(?:  .*\n)*?  title:\s*\"(.+)\"", open(layout, encoding="utf-8").read(),
                         re.M).group(1)
        lang_name, code, resume = locale_of(path)
        check("%s: title is the layout's '%s'" % (stem, tmpl),
              info.get("Title") == tmpl.replace("NAME", name).replace("Résumé", resume),
              info.get("Title"))
        check("%s: author is the name" % stem, info.get("Author") == name, info.get("Author"))
        headline = yaml_field(path, "headline")
        check("%s: subject is the headline" % stem,
              headline is None or info.get("Subject") == headline.replace("**", ""),
              "%r vs %r" % (info.get("Subject"), headline))
        check("%s: keywords are set" % stem, bool(info.get("Keywords")), info)
        check("%s: creator is cvpdf %s" % (stem, VERSION), info.get("Creator") == "cvpdf " + VERSION,
              info.get("Creator"))
        check("%s: no dates without SOURCE_DATE_EPOCH" % stem,
              "CreationDate" not in info and "ModDate" not in info, info)
        pdf = Pdf(out)
        lang = text(pdf.catalog.get("Lang"))
        check("%s: /Lang is %s" % (stem, code), lang == code, repr(lang))
        vp = resolve1(pdf.catalog.get("ViewerPreferences")) or {}
        check("%s: DisplayDocTitle" % stem, resolve1(vp.get("DisplayDocTitle")) is True, vp)

        # Bookmarks: one per section, in profile order, at the right page.
        sections = re.findall(r"^    (\S[^:\n]*):\s*$", open(path, encoding="utf-8").read(), re.M)
        outl = pdf.outlines()
        titles = [t for _, t, _ in outl]
        _, dump, _ = run([BIN, path, "--dump"] + args)
        marks = [m.title for pg in read_dump(dump) for m in pg["marks"]]
        check("%s: one bookmark per section (%d)" % (stem, len(sections)),
              len(outl) == len(sections) and titles == marks, "%r vs %r" % (titles, sections))
        check("%s: bookmarks are top level" % stem, all(lvl == 1 for lvl, _, _ in outl), outl)
        words = words_bbox(out)
        bad = []
        for lvl, t, dest in outl:
            dest = resolve1(dest)
            page = pdf.page_ids.index(dest[0].objid)
            where = section_titles(words, t, out)
            if page not in where:
                bad.append((t, page, where))
        check("%s: each bookmark points at its title's page" % stem, not bad, bad)
        if stem.endswith("-zh"):
            check("%s: Chinese bookmark titles" % stem,
                  any(re.search(r"[\u4e00-\u9fff]", t) for t in titles), titles)
        # Page labels.
        labels = resolve1(pdf.catalog.get("PageLabels"))
        nums = resolve1(labels.get("Nums")) if labels else None
        check("%s: page labels from 1" % stem,
              bool(nums) and nums[0] == 0 and text(resolve1(nums[1]).get("S")) == "D"
              and resolve1(resolve1(nums[1]).get("St", 1)) == 1, labels)
        _, js, _ = run(["qpdf", "--json", "--json-key=pagelabels", out])
        try:
            pl = json.loads(js).get("pagelabels", [])
        except ValueError:
            pl = []
        check("%s: qpdf reads the page labels" % stem,
              len(pl) == 1 and pl[0]["label"].get("/S") == "/D", pl)
        # Every link: no border, printable.
        links = pdf.links()
        bad = [(u, a.get("Border")) for _, u, _, a in links
               if [resolve1(x) for x in resolve1(a.get("Border", [1]))] != [0, 0, 0]
               or resolve1(a.get("F")) != 4]
        check("%s: every link borderless and printable (%d links)" % (stem, len(links)),
              not bad, bad)
        emails = re.findall(r"^  email:\s*(\S+)", open(path, encoding="utf-8").read(), re.M)
        uris = {u for _, u, _, _ in links}
        check("%s: the e-mail is a mailto: link" % stem,
              all("mailto:" + e in uris for e in emails), uris)
        pdf.close()

    # The layout's title template.
    lay = os.path.join(TMP, "title.yaml")
    with open(lay, "w") as f:
        f.write("extends: %s\npdf:\n  title: \"CV of NAME (2026)\"\n"
                % os.path.join(ROOT, "layouts", "onecolumn.yaml"))
    out = os.path.join(TMP, "title.pdf")
    rc, err = render(os.path.join(ROOT, "profiles", "li.yaml"), out, "-l", lay)
    check("pdf.title template", rc == 0 and pdfinfo(out).get("Title") == "CV of Shen Li (2026)",
          err + str(pdfinfo(out).get("Title")))


def links_test():
    d = os.path.join(TMP, "links")
    os.makedirs(d)
    prof = os.path.join(d, "zoe.yaml")
    with open(prof, "w", encoding="utf-8") as f:
        f.write(LINKS_PROFILE)
    out = os.path.join(d, "zoe.pdf")
    rc, err = render(prof, out)
    if not check("links: renders", rc == 0, err):
        return
    pdf = Pdf(out)
    links = pdf.links()
    uris = [u for _, u, _, _ in links]
    for want in EXPECTED_LINKS:
        check("links: %s" % want, want in uris, uris)
    check("links: no border, printable",
          all([resolve1(x) for x in resolve1(a["Border"])] == [0, 0, 0] and resolve1(a["F"]) == 4
              for _, _, _, a in links), [a for _, _, _, a in links][:2])
    # Each link lies over words: the centre of some word's box is inside it.
    words = words_bbox(out)
    bad = []
    for page, uri, (x0, y0, x1, y1), _ in links:
        w, h, ws = words[page]
        if not any(x0 - 1 <= (a + c) / 2 <= x1 + 1 and y0 - 1 <= h - (b + dd) / 2 <= y1 + 1
                   for a, b, c, dd, _ in ws):
            bad.append(uri)
    check("links: every link rectangle covers text", not bad, bad)
    info = pdfinfo(out)
    check("links: Info title with non-ASCII name",
          info.get("Title") == "Zo\u00eb \u0141ukasiewicz-\u00d8rsted \u2014 R\u00e9sum\u00e9",
          info.get("Title"))
    check("links: subject with & < > and quotes",
          info.get("Subject") == 'Research Engineer & "Typesetter" <PDF>', info.get("Subject"))
    pdf.close()


def reproducible_test():
    prof = os.path.join(ROOT, "profiles", "fang.yaml")
    a, b = os.path.join(TMP, "r1"), os.path.join(TMP, "r2")
    os.makedirs(a)
    os.makedirs(b)
    pa, pb = os.path.join(a, "fang.pdf"), os.path.join(b, "other-name.pdf")
    render(prof, pa)
    time.sleep(1.1)
    render(prof, pb)
    same = open(pa, "rb").read() == open(pb, "rb").read()
    check("reproducible: two renders, 1 s apart, other paths: identical bytes", same,
          "%d vs %d bytes" % (os.path.getsize(pa), os.path.getsize(pb)))
    data = open(pa, "rb").read()
    check("reproducible: no date in the file", b"CreationDate" not in data
          and b"ModDate" not in data and b"xmp:CreateDate" not in data)
    check("reproducible: a trailer /ID", re.search(rb"/ID *\[", data) is not None)
    # A different profile gives a different /ID.
    pc = os.path.join(a, "li.pdf")
    render(os.path.join(ROOT, "profiles", "li.yaml"), pc)
    ida = re.search(rb"/ID *\[ *<([0-9A-Fa-f]+)>", data)
    idc = re.search(rb"/ID *\[ *<([0-9A-Fa-f]+)>", open(pc, "rb").read())
    check("reproducible: /ID depends on the content",
          ida and idc and ida.group(1) != idc.group(1))

    # SOURCE_DATE_EPOCH: 2023-11-14T22:13:20Z.
    env = env_without_date(SOURCE_DATE_EPOCH="1700000000")
    for pdfa in (False, True):
        tag = "--pdfa" if pdfa else "plain"
        p1, p2 = os.path.join(a, "e1.pdf"), os.path.join(b, "e2.pdf")
        extra = ["--pdfa"] if pdfa else []
        render(prof, p1, *extra, env=env)
        time.sleep(1.1)
        render(prof, p2, *extra, env=env)
        check("reproducible (%s): SOURCE_DATE_EPOCH, identical bytes" % tag,
              open(p1, "rb").read() == open(p2, "rb").read())
        d1 = plain(p1)
        check("reproducible (%s): CreationDate and ModDate from SOURCE_DATE_EPOCH" % tag,
              d1.count(b"D:20231114221320+00'00'") == 2, re.findall(rb"D:\d+[^)]*", d1))
        if pdfa:
            check("reproducible (pdfa): the XMP dates agree",
                  d1.count(b"2023-11-14T22:13:20+00:00") == 2)
        info = pdfinfo(p1)
        check("reproducible (%s): pdfinfo reads the creation date" % tag,
              "2023" in info.get("CreationDate", ""), info.get("CreationDate"))
    # The date changes the file only through the dates.
    p3 = os.path.join(a, "e3.pdf")
    render(prof, p3, env=env_without_date(SOURCE_DATE_EPOCH="1600000000"))
    check("reproducible: another SOURCE_DATE_EPOCH, another date",
          b"D:20200913122640+00'00'" in plain(p3))
    p = subprocess.run([BIN, prof, "-o", os.path.join(a, "bad.pdf")], capture_output=True,
                       env=env_without_date(SOURCE_DATE_EPOCH="yesterday"))
    check("reproducible: a bad SOURCE_DATE_EPOCH is a usage error",
          p.returncode == 2 and b"SOURCE_DATE_EPOCH" in p.stderr
          and not os.path.exists(os.path.join(a, "bad.pdf")), p.stderr)


if __name__ == "__main__":
    sys.exit(testlib.main("pdfmeta", [info_test, links_test, reproducible_test], tmp=TMP))
