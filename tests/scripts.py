#!/usr/bin/env python3
"""Languages and scripts (issue 15, items 5-8): RenderCV's locale catalogue,
right-to-left résumés, hyphenation per language, the script profiles.

Usage: tests/scripts.py CVPDF_BINARY [-k PATTERN] [--list]

  catalogue    every RenderCV language renders with no note: its month
               names (from CLDR), its date order (2023年11月), its
               "present", its degree-with-area phrase, the sidebar's
               "Contact" and /Lang; the profile's own words win; an
               unknown language is a note, never an error
  hyphenation  German words are hyphenated by German patterns (capitalised
               nouns too), Japanese never, English as before
  rtl          profiles/levi-he.yaml and generated Arabic and Persian
               résumés: no character dropped, set right to left (titles
               flush right, dates left, bullets right of their text), and
               read back in logical order by pdftotext and MuPDF, Latin
               names inside Hebrew in their own order
  arabic       Arabic and Persian shaped by HarfBuzz, rasterised: joined
               letters make fewer connected inks than the same letters
               apart, as many as hb-view draws for the word; harakat add
               ink above and below; lam-alef, ZWNJ (a non-joiner, no box)
               and Persian letters; digits and Latin numbers in bidi order;
               read back by pdftotext and MuPDF in logical order (poppler
               puts each haraka before its letter: noted), by PDFBox in
               visual order (noted); qpdf --check
  devanagari   Hindi text is shaped (conjuncts, the i-matra before its
               consonant), not dropped, and reads back in logical order
  profiles     the German, Japanese and Hebrew profiles render cleanly in
               every layout, read back by pdftotext, and have ink on every
               page (pdftoppm)
  casing       under LC_ALL=C, section titles in capitals (onecolumn) by the
               profile's language: Turkish "İSTANBUL İLETİŞİM", German
               "STRASSE", French "EXPÉRIENCE À L’ÉTRANGER"; snake_case keys
               title-cased by it ("İletişim Bilgileri") where capitals are
               off (classic)

Every check prints "ok NAME" or "FAIL NAME: why"; the last line is
"scripts: N passed, M failed".
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import testlib
from testlib import BIN, ROOT, check, run

TMP = tempfile.mkdtemp(prefix="cvpdf-scripts-")
LAYOUTS = os.path.join(ROOT, "layouts")

LANGUAGES = ["english", "arabic", "danish", "dutch", "french", "german", "hebrew", "hindi",
             "hungarian", "indonesian", "italian", "japanese", "korean", "mandarin_chinese",
             "norwegian_bokmål", "norwegian_nynorsk", "persian", "portuguese", "russian",
             "spanish", "turkish", "vietnamese"]
CODES = {"english": "en", "arabic": "ar", "danish": "da", "dutch": "nl", "french": "fr",
         "german": "de", "hebrew": "he", "hindi": "hi", "hungarian": "hu", "indonesian": "id",
         "italian": "it", "japanese": "ja", "korean": "ko", "mandarin_chinese": "zh",
         "norwegian_bokmål": "nb", "norwegian_nynorsk": "nn", "persian": "fa",
         "portuguese": "pt", "russian": "ru", "spanish": "es", "turkish": "tr",
         "vietnamese": "vi"}


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def dump(profile, layout="onecolumn", *args):
    rc, out, err = run([BIN, "--dump", "-l", os.path.join(LAYOUTS, layout + ".yaml"), profile]
                       + list(args))
    return rc, out, err


def texts(dump_text):
    """[(x, y, w, font, text)] of a dump's text lines."""
    return [(r["x"], r["y"], r["w"], r["font"], r["text"])
            for pg in testlib.read_dump(dump_text) for r in pg["runs"]]


def pdf(profile, layout="onecolumn", *args):
    out = os.path.join(TMP, os.path.basename(profile).replace(".yaml", "") + "-" + layout +
                       ".pdf")
    rc, _, err = run([BIN, "-l", os.path.join(LAYOUTS, layout + ".yaml"), "-o", out, profile]
                     + list(args))
    return rc, out, err


def pdftotext(path, *args):
    return run(["pdftotext", "-enc", "UTF-8"] + list(args) + [path, "-"])[1]


def mutool(path):
    return run(["mutool", "draw", "-q", "-F", "txt", path])[1]


def plain(s):
    """Text without bidi controls, whitespace collapsed."""
    s = re.sub("[\u200e\u200f\u202a-\u202e\u2066-\u2069]", "", s)
    return re.sub(r"\s+", " ", s)


def catalogue_profile(lang, extra=""):
    return write("cat-%s.yaml" % lang, """cv:
  name: Test Person
  email: t@example.org
  sections:
    education:
      - institution: Uni
        area: AREAWORD
        degree: DEGREEWORD
        start_date: 2019-10
        end_date: 2023-11
      - institution: Uni2
        area: Physics
        degree: BSc
        start_date: 2023-11
        end_date: present
locale:
  language: %s
%s""" % (lang, extra))


def catalogue():
    en_dates = ["Oct 2019", "Nov 2023"]
    for lang in LANGUAGES:
        prof = catalogue_profile(lang)
        rc, out, err = dump(prof, "sidebar")
        check("%s renders with nothing on stderr" % lang, rc == 0 and not err.strip(),
              err.strip()[:300])
        t = " ".join(x[4] for x in texts(out))
        if lang not in ("english", "indonesian"):
            check("%s dates are not in English" % lang,
                  not any(d in t for d in en_dates), t[:300])
            check("%s says 'present' in its own words" % lang,
                  not re.search(r"\bpresent\b", t), t[:300])
        check("%s keeps the degree and its area" % lang,
              "DEGREEWORD" in t and "AREAWORD" in t, t[:300])
        if lang != "english":
            check("%s: the sidebar's 'Contact' is translated" % lang,
                  not re.search(r"\bCONTACT\b", t.upper()) or lang in ("dutch", "french"),
                  t[:200])
        rc, path, err = pdf(prof)
        q = run(["qpdf", "--qdf", "--object-streams=disable", path, path + ".q"])
        raw = open(path + ".q", "rb").read().decode("latin-1") if q[0] == 0 else ""
        check("%s: /Lang is %s" % (lang, CODES[lang]), "/Lang (%s)" % CODES[lang] in raw,
              re.findall(r"/Lang \([^)]*\)", raw))

    # Dates in each language's order, words from the locale files.
    zh = dump(catalogue_profile("mandarin_chinese"))[1]
    t = " ".join(x[4] for x in texts(zh))
    flat = t.replace(" ", "")
    check("mandarin_chinese dates read 2019年10月 – 2023年11月",
          "2019年10月–2023年11月" in flat, t[:300])
    check("mandarin_chinese ongoing dates end in 至今", "2023年11月–至今" in flat, t[:300])
    check("mandarin_chinese puts the area before the degree", "AREAWORD DEGREEWORD" in t, t)
    de = " ".join(x[4] for x in texts(dump(catalogue_profile("german"))[1]))
    check("german dates read Okt. 2019 – Nov. 2023 and heute",
          "Okt. 2019 – Nov. 2023" in de and "heute" in de, de[:300])
    hu = " ".join(x[4] for x in texts(dump(catalogue_profile("hungarian"))[1]))
    check("hungarian dates put the year first", "2019. okt. – 2023. nov." in hu, hu[:300])
    ja = "".join(x[4] for x in texts(dump(catalogue_profile("japanese"))[1])).replace(" ", "")
    check("japanese dates read 2023年11月 – 現在", "2023年11月–現在" in ja, ja[:300])

    # Time spans in the language's words (a layout that shows TIME_SPAN).
    lay = write("span.yaml", "extends: %s\ntemplates:\n  education:\n    main: [\"INSTITUTION\"]\n"
                "    side: [\"DATE\", \"TIME_SPAN\"]\n" % os.path.join(LAYOUTS, "onecolumn.yaml"))
    for lang, want in [("german", "4 Jahre 1 Monat"), ("mandarin_chinese", "4年1个月"),
                       ("english", "4 years 1 month")]:
        rc, out, err = run([BIN, "--dump", "-l", lay, catalogue_profile(lang)])
        t = "".join(x[4] for x in texts(out))
        check("%s: TIME_SPAN reads %s" % (lang, want), want.replace(" ", "") in t.replace(" ", ""),
              t[:300] + err)

    # The profile's words win; an unknown language is a note.
    prof = catalogue_profile("german", "  present: jetzt\n  phrases:\n"
                             "    degree_with_area: DEGREE im Fach AREA\n")
    t = " ".join(x[4] for x in texts(dump(prof)[1]))
    check("the profile's present and degree phrase win over the locale file",
          "jetzt" in t and "DEGREEWORD im Fach AREAWORD" in t, t[:300])
    rc, out, err = dump(catalogue_profile("klingon"))
    check("an unknown language is a note, not an error",
          rc == 0 and "note: unknown language 'klingon'" in err and "error" not in err, err)
    rc, out, err = dump(catalogue_profile("sv"))
    check("a language with no locale file: CLDR's months and one note",
          rc == 0 and "okt. 2019" in out and "note: cvpdf knows no words for language 'sv'" in err,
          err + out[:200])


def hyphenation():
    words = ("Die Entwicklung verteilter Datenbanksysteme für Unternehmensanwendungen "
             "erfordert Übertragungsgeschwindigkeiten und Zuverlässigkeitsanforderungen, "
             "die über herkömmliche Lösungsansätze hinausgehen. Außerdem müssen "
             "Verschlüsselungsverfahren berücksichtigt werden. ") * 2
    for lang, expect in [("german", True), ("japanese", False)]:
        prof = write("hy-%s.yaml" % lang, "cv:\n  name: A\n  sections:\n    skills:\n      - \"%s\"\n"
                     "locale:\n  language: %s\n" % (words, lang))
        rc, out, err = dump(prof, "sidebar")
        ends = [x[4] for x in texts(out) if x[4].endswith("-")]
        check("%s: %s" % (lang, "words are hyphenated" if expect else "nothing is hyphenated"),
              rc == 0 and bool(ends) == expect, "%s %s" % (ends, err))
        if expect:
            check("german: a capitalised noun is hyphenated",
                  any(re.match(r"^[A-ZÄÖÜ]", e.split()[-1]) for e in ends), ends)


def rtl_checks(name, path, logical, latin=()):
    rc, out, err = dump(path)
    check("%s renders with no character dropped" % name,
          rc == 0 and "no font has" not in err and "warning" not in err, err[:300])
    ts = texts(out)
    m = re.search(r"^page 1 (\S+)x", out, re.M)
    width = float(m.group(1)) if m else 595.28
    # Dates (digits in Lato beside Hebrew or Arabic) on the left half.
    dates = [x for x in ts if re.fullmatch(r"\d{4}", x[4].strip())]
    check("%s: dates are on the left" % name, dates and all(x[0] < width / 2 for x in dates),
          dates[:4])
    bullets = [x for x in ts if x[4] == "•"]
    check("%s: bullets are on the right" % name,
          not bullets or all(x[0] > width / 2 for x in bullets), bullets[:3])
    rc, p, err = pdf(path)
    t1, t2 = plain(pdftotext(p)), plain(mutool(p))
    for s in logical:
        check("%s: pdftotext reads %r in logical order" % (name, s), s in t1, t1[:400])
        check("%s: MuPDF reads %r in logical order" % (name, s), s in t2, t2[:400])
    for s in latin:
        check("%s: the Latin %r reads in order" % (name, s), s in t1 and s in t2, t1[:300])
    check("%s: no presentation form reaches the text" % name,
          not re.search("[\ufb50-\ufdff\ufe70-\ufefe]", t1 + t2), "")


def rtl():
    he = os.path.join(ROOT, "profiles", "levi-he.yaml")
    rtl_checks("hebrew", he, ["נועה לוי", "מהנדסת תוכנה בכירה", "דוקטורט במדעי המחשב",
                              "היום"],
               ["Elastic Pipeline Parallelism for Heterogeneous Clusters", "PyTorch"])
    # Section titles hang from the right margin.
    rc, out, _ = dump(he)
    ts = texts(out)
    t = [x for x in ts if x[4] == "השכלה"[::-1]]
    check("hebrew: a section title ends at the right margin",
          t and abs(t[0][0] + t[0][2] - 544.25) < 0.5, t)
    # The name's letters stay below the top margin (16mm), though
    # pdftotext's box for them, by the face's ascent, reaches into it.
    rc, p, _ = pdf(he)
    base = os.path.join(TMP, "he-top")
    run(["pdftoppm", "-r", "144", "-gray", "-f", "1", "-l", "1", "-x", "0", "-y", "0", "-W",
         "1190", "-H", str(int((16 / 25.4 * 72 - 1) * 2)), "-singlefile", p, base])
    data = open(base + ".pgm", "rb").read().split(maxsplit=4)[4]
    check("hebrew: no ink in the top margin", not any(b < 200 for b in data),
          sum(1 for b in data if b < 200))
    ar = write("ar.yaml", """cv:
  name: سارة الحسيني
  headline: باحثة في معالجة اللغات الطبيعية
  email: sara@example.org
  sections:
    الخبرة:
      - company: جامعة العلوم والتكنولوجيا
        position: أستاذة مساعدة
        start_date: 2020-09
        highlights:
          - "تطوير نماذج لغوية للهجات العربية باستخدام PyTorch وتدريبها على بيانات متعددة."
locale:
  language: arabic
""")
    rtl_checks("arabic", ar, ["سارة الحسيني", "باحثة في معالجة اللغات الطبيعية",
                             "تطوير نماذج لغوية"], ["PyTorch"])
    fa = write("fa.yaml", """cv:
  name: مریم احمدی
  headline: مهندس نرم‌افزار
  sections:
    سوابق:
      - company: شرکت داده‌پردازان
        position: برنامه‌نویس ارشد
        start_date: 2018-01
        end_date: 2022-06
        highlights:
          - "طراحی سامانه‌های توزیع‌شده با زبان Go برای پردازش داده‌های بزرگ."
locale:
  language: persian
""")
    rtl_checks("persian", fa, ["مریم احمدی", "سامانه"], ["Go"])
    # Arabic is shaped by HarfBuzz from the font's own tables: no
    # presentation form is drawn in its place.
    rc, out, _ = dump(ar, "onecolumn", "--dump=glyphs")
    check("arabic is shaped with HarfBuzz, not drawn as presentation forms",
          rc == 0 and not re.search("[\ufb50-\ufdff\ufe70-\ufefe]", out), out[:200])


# ----------------------------------------------------------------- Arabic

AR_PROFILE = open(os.path.join(ROOT, "tests", "data", "scripts", "ar.yaml"),
                  encoding="utf-8").read()

FA_PROFILE = open(os.path.join(ROOT, "tests", "data", "scripts", "fa.yaml"),
                  encoding="utf-8").read()

MARKS = re.compile("[\u064b-\u065f\u0670]")


def raster(pdf, dpi, name):
    base = os.path.join(TMP, name)
    run(["pdftoppm", "-r", str(dpi), "-gray", "-f", "1", "-l", "1", "-singlefile", pdf, base])
    return testlib.read_pgm(base + ".pgm")


def inks(img, box, dark=140):
    """Connected inks (8-neighbour) in box (x0, y0, x1, y1) of img, and the
    top and bottom rows that have ink."""
    w, h, px = img
    x0, y0, x1, y1 = [int(round(v)) for v in box]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    seen, count, top, bottom = set(), 0, None, None
    for y in range(y0, y1):
        for x in range(x0, x1):
            if px[y * w + x] >= dark or (x, y) in seen:
                continue
            count += 1
            stack = [(x, y)]
            seen.add((x, y))
            while stack:
                cx, cy = stack.pop()
                top = cy if top is None else min(top, cy)
                bottom = cy if bottom is None else max(bottom, cy)
                for nx in (cx - 1, cx, cx + 1):
                    for ny in (cy - 1, cy, cy + 1):
                        if x0 <= nx < x1 and y0 <= ny < y1 and (nx, ny) not in seen and \
                                px[ny * w + nx] < dark:
                            seen.add((nx, ny))
                            stack.append((nx, ny))
    return count, top, bottom


def ink_spans(img, box, dark=140):
    """[(x0, x1)] of each connected ink in box: its leftmost and rightmost
    columns."""
    w, h, px = img
    x0, y0, x1, y1 = [int(round(v)) for v in box]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    seen, spans = set(), []
    for y in range(y0, y1):
        for x in range(x0, x1):
            if px[y * w + x] >= dark or (x, y) in seen:
                continue
            stack, lo, hi = [(x, y)], x, x
            seen.add((x, y))
            while stack:
                cx, cy = stack.pop()
                lo, hi = min(lo, cx), max(hi, cx)
                for nx in (cx - 1, cx, cx + 1):
                    for ny in (cy - 1, cy, cy + 1):
                        if x0 <= nx < x1 and y0 <= ny < y1 and (nx, ny) not in seen and \
                                px[ny * w + nx] < dark:
                            seen.add((nx, ny))
                            stack.append((nx, ny))
            spans.append((lo, hi))
    return spans


def word_box(run_, page_h, dpi, below=0.6):
    """A dump run's box in pixels: its advance, an em above the baseline
    and `below` em under it, a point to spare on either side."""
    x, y, w, size = run_[0], run_[1], run_[2], run_[5]
    k = dpi / 72.0
    return ((x - 1) * k, (page_h - y - 1.15 * size) * k, (x + w + 1) * k,
            (page_h - y + below * size) * k)


def ar_runs(dump_text):
    """[(x, y, w, font, logical text, size)]: a right-to-left run's glyphs
    are in visual order in the dump, one character each."""
    out = []
    for r in (r for pg in testlib.read_dump(dump_text) for r in pg["runs"]):
        t = r["text"]
        if re.search("[\u0620-\u065f\u066e-\u06d3]", t):     # letters, not digits
            t = t[::-1]
        out.append((r["x"], r["y"], r["w"], r["font"], t, r["size"]))
    return out


def hb_view_inks(font, size, text, name):
    """The inks hb-view (HarfBuzz's own renderer) draws for text, at 300 dpi."""
    pdf = os.path.join(TMP, name + "-hb.pdf")
    rc, _, err = run(["hb-view", "--font-size=%g" % size, "--margin=8", "-O", "pdf", "-o", pdf,
                      font, text])
    if rc:
        return None
    img = raster(pdf, 300, name + "-hb")
    return inks(img, (0, 0, img[0], img[1]))[0]


def arabic():
    ar = write("ar-shaped.yaml", AR_PROFILE)
    rc, out, err = dump(ar)
    check("arabic profile renders with no warning", rc == 0 and not err.strip(), err[:300])
    runs = ar_runs(out)
    m = re.search(r"^page 1 (\S+)x(\S+)", out, re.M)
    page_h = float(m.group(2)) if m else 841.89
    rc, p, err = pdf(ar)
    img = raster(p, 300, "ar-page")

    def find(word):
        return next((r for r in runs if r[4] == word), None)

    def ink_of(word):
        """Inks, and the top and bottom of the ink in pixels from the
        baseline (up is negative)."""
        r = find(word)
        if not r:
            return (0, None, None)
        n, top, bottom = inks(img, word_box(r, page_h, 300))
        base = (page_h - r[1]) * 300 / 72.0
        return (n, None if top is None else top - base, None if bottom is None else bottom - base)

    # Joined: the letters of تطوير set apart are more inks than the word.
    joined = ink_of("تطوير")[0]
    apart = sum(ink_of(c)[0] for c in "تطوير")
    check("arabic: joined letters are fewer inks than the same letters apart",
          0 < joined < apart, (joined, apart))
    # As many inks as HarfBuzz's own renderer draws with the same font.
    font = run(["fc-match", "-f", "%{file}", "Noto Sans Arabic:bold"])[1].strip()
    name = find("الحسيني")
    if not shutil.which("hb-view"):
        check("hb-view is installed (libharfbuzz-bin, tests/deps.sh)", False, "")
    elif name:
        mine = inks(img, word_box(name, page_h, 300, below=0.4))[0]
        theirs = hb_view_inks(font, name[5], "الحسيني", "name")
        check("arabic: the name's inks are hb-view's (%s)" % os.path.basename(font),
              theirs is not None and mine == theirs, (mine, theirs))
    # Harakat: more inks, above and below the letters.
    plain_w, vocal_w = ink_of("محمد"), ink_of("مُحَمَّدٌ")
    plain_i, vocal_i = ink_of("علم"), ink_of("عِلْمٌ")
    check("arabic: harakat are drawn (more inks than the bare word)",
          vocal_w[0] > plain_w[0] and vocal_i[0] > plain_i[0],
          (plain_w, vocal_w, plain_i, vocal_i))
    check("arabic: marks above reach higher than the bare word",
          vocal_w[1] is not None and plain_w[1] is not None and vocal_w[1] < plain_w[1],
          (plain_w, vocal_w))
    # The kasra under the ain, the word's rightmost letter: ink below the
    # baseline there, none in the bare word.
    def ink_under_first(word):
        r = find(word)
        if not r:
            return None
        k, base = 300 / 72.0, (page_h - r[1]) * 300 / 72.0
        return inks(img, ((r[0] + 0.65 * r[2]) * k, base + 0.1 * r[5] * k,
                          (r[0] + r[2]) * k, base + 0.6 * r[5] * k))[0]
    check("arabic: the kasra is drawn below its letter",
          ink_under_first("علم") == 0 and (ink_under_first("عِلْمٌ") or 0) >= 1,
          (ink_under_first("علم"), ink_under_first("عِلْمٌ")))
    # A word half bold joins across the change of face: one ink runs
    # from the bold lam well into the regular meem (two words shaped apart
    # would be two inks that meet at most at the edge).
    bold, regular = find("كل"), find("مة")
    if bold and regular and abs(bold[1] - regular[1]) < 0.1:
        k = 300 / 72.0
        edge = bold[0] * k
        spans = ink_spans(img, ((regular[0] - 1) * k, (page_h - bold[1] - 1.15 * bold[5]) * k,
                                (bold[0] + bold[2] + 1) * k, (page_h - bold[1] + 0.6 * bold[5]) * k))
        check("arabic: a word half bold joins across the bold",
              any(lo < edge - 2 * k and hi > edge + 2 * k for lo, hi in spans), (edge, spans))
    else:
        check("arabic: a word half bold joins across the bold", False, (bold, regular))
    # Lam-alef is one ligature: a glyph for the lam, a ghost of no width
    # for the alef.
    rc, gl, _ = dump(ar, "onecolumn", "--dump=glyphs")
    mm = re.search(r'"(الإ|اله)"\n  at((?: \S+)+)', gl)
    check("arabic: lam-alef is one ligature (a ghost of no width for the alef)",
          mm is not None and len(set(mm.group(2).split())) < len(mm.group(2).split()),
          mm.group(0) if mm else gl[:200])
    # Digits: Arabic-Indic and European numbers read left to right inside
    # the right-to-left line, which is set right to left.
    line = [r for r in runs if abs(r[1] - (find("2024") or (0, -1))[1]) < 0.1]
    xs = {r[4]: r[0] for r in line}
    check("arabic: 2024 and ١٢٣ sit in bidi order in the line",
          all(k in xs for k in ("نشرت", "١٢٣", "في", "2024", "مع")) and
          xs["مع"] < xs["2024"] < xs["في"] < xs["١٢٣"] < xs["نشرت"], xs)
    t1, t2 = plain(pdftotext(p)), plain(mutool(p))
    for s in ["سارة الحسيني", "باحثة في معالجة اللغات الطبيعية", "تطوير نماذج لغوية",
              "لا إله إلا الله", "محمد علم"]:
        check("arabic: pdftotext reads %r" % s, s in t1, t1[:400])
        check("arabic: MuPDF reads %r" % s, s in t2, t2[:400])
    # Numbers in right-to-left text: MuPDF exactly; poppler's own bidi
    # moves the spaces beside a number (the same before HarfBuzz shaped
    # Arabic), so its letters and digits are compared without them.
    s = "لا إله إلا الله، نشرت ١٢٣ ورقة في 2024 مع ٥ باحثين."
    check("arabic: MuPDF reads the numbers in bidi order", s in t2, t2[:400])
    check("arabic: pdftotext reads the numbers in bidi order (spaces aside)",
          "".join(s.split()) in "".join(t1.split()), t1[:400])
    check("arabic: MuPDF reads the harakat in order", "مُحَمَّدٌ عِلْمٌ" in t2, t2[-200:])
    bare = MARKS.sub("", t1)
    check("arabic: pdftotext keeps vocalised words whole, letters in order",
          "محمد علم" in bare.replace("محمد علم", "", 1) or bare.count("محمد علم") >= 2, t1[-200:])
    print("note: pdftotext reads %r for 'مُحَمَّدٌ عِلْمٌ': poppler puts each haraka before its "
          "letter (it reads the characters of one /ActualText backwards in right-to-left "
          "lines)" % next((w for w in t1.split(" • ") if "عِ" in w or "ِع" in w),
                          t1[-40:]).strip())
    rc, qout, qerr = run(["qpdf", "--check", p])
    check("arabic: qpdf --check", rc == 0 and "No syntax or stream encoding errors" in qout,
          (qout + qerr)[-300:])
    pdfbox(p, "arabic", ["محمد علم", "تطوير نماذج لغوية"])
    # PDF/A: the marks' text rise and character spacing, the /ActualText
    # sequences and the ghosts keep the file valid.
    rc, pa, err = pdf(ar, "onecolumn", "--pdfa")
    preflight(pa, "arabic --pdfa")

    # Another font with its own OpenType tables: Noto Naskh Arabic, whose
    # lam-alef and "الله" are glyphs of no advance and ligatures of three.
    lay = write("naskh.yaml", "extends: onecolumn\nfont:\n  fallback: [Noto Naskh Arabic]\n")
    rc, out, err = run([BIN, "--dump", "-l", lay, ar])
    check("arabic in Noto Naskh Arabic renders with no warning",
          rc == 0 and "NotoNaskhArabic" in out and not err.strip(), err[:300])
    pn = os.path.join(TMP, "ar-naskh.pdf")
    run([BIN, "-l", lay, "-o", pn, ar])
    t1, t2 = plain(pdftotext(pn)), plain(mutool(pn))
    for s_ in ["لا إله إلا الله", "تطوير نماذج لغوية", "سارة الحسيني"]:
        check("arabic in Naskh: pdftotext and MuPDF read %r" % s_, s_ in t1 and s_ in t2,
              (t1[:300], t2[:300]))
    # A font that draws a letter with several glyphs (Noto Nastaliq Urdu's
    # dots): unjoined, said.
    lay = write("nastaliq.yaml", "extends: onecolumn\nfont:\n  fallback: [Noto Nastaliq Urdu]\n")
    rc, out, err = run([BIN, "--dump", "-l", lay, ar])
    if "NotoNastaliqUrdu" in out:
        check("a Nastaliq font is set unjoined with a warning that names it",
              rc == 0 and "NotoNastaliqUrdu-Regular draws Arabic letters with more glyphs" in err,
              err[:300])

    # An Arabic phrase in an English résumé: set right to left in its
    # left-to-right line, its runs drawn in the order of the text, so MuPDF
    # reads its words in order too.
    en = write("en-ar.yaml", "cv:\n  name: Sara Husseini\n  headline: \"Researcher \u2014 "
               "سارة الحسيني \u2014 NLP\"\n  sections:\n    experience:\n      - company: U\n"
               "        position: P\n        start_date: 2020-09\n        highlights:\n"
               "          - \"Models for **كل**مة dialects and Persian نرم\u200cافزار in 2024.\"\n")
    rc, pe, err = pdf(en)
    t1, t2 = plain(pdftotext(pe)), plain(mutool(pe))
    for s_ in ["سارة الحسيني", "كلمة", "نرم\u200cافزار"]:
        check("english with Arabic: pdftotext and MuPDF read %r" % s_, s_ in t1 and s_ in t2,
              (t1[:300], t2[:300]))
    check("english with Arabic: MuPDF reads the phrase in its place",
          "Researcher — سارة الحسيني — NLP" in t2, t2[:300])

    fa = write("fa-shaped.yaml", FA_PROFILE)
    rc, out, err = dump(fa)
    check("persian profile renders with no warning", rc == 0 and not err.strip(), err[:300])
    rc, p, err = pdf(fa)
    t1, t2 = plain(pdftotext(p)), plain(mutool(p))
    for s in ["مریم احمدی", "مهندس نرم\u200cافزار", "شرکت داده\u200cپردازان",
              "پژوهشگر چگونه ژاله می\u200cخواهم", "سامانه\u200cهای توزیع\u200cشده"]:
        check("persian: pdftotext reads %r (ZWNJ kept)" % s, s in t1, t1[:400])
        check("persian: MuPDF reads %r (ZWNJ kept)" % s, s in t2, t2[:400])
    s = "می\u200cخواهم ۱۴۰۲ و ۲۵ مقاله."
    check("persian: MuPDF reads Persian digits in bidi order", s in t2, t2[:400])
    check("persian: pdftotext reads Persian digits in bidi order (spaces aside)",
          "".join(s.split()) in "".join(t1.split()), t1[:400])
    # ZWNJ: no box, and نرم‌افزار is two inks groups more than نرمافزار
    # would be joined -- the meem ends, the alef stands alone.
    runs = ar_runs(out)
    img = raster(p, 300, "fa-page")
    r = next((r for r in runs if r[4] == "نرم\u200cافزار"), None)
    mine = inks(img, word_box(r, page_h, 300))[0] if r else 0
    font = run(["fc-match", "-f", "%{file}", "Noto Sans Arabic"])[1].strip()
    if shutil.which("hb-view") and r:
        theirs = hb_view_inks(font, r[5], "نرم\u200cافزار", "zwnj")
        joined = hb_view_inks(font, r[5], "نرمافزار", "nozwnj")
        check("persian: ZWNJ parts the word as hb-view does, and draws no box",
              theirs is not None and mine == theirs and joined is not None and mine > joined,
              (mine, theirs, joined))
    rc, qout, qerr = run(["qpdf", "--check", p])
    check("persian: qpdf --check", rc == 0 and "No syntax or stream encoding errors" in qout,
          (qout + qerr)[-300:])
    pdfbox(p, "persian", ["مریم احمدی"])


def preflight(p, name):
    """PDFBox Preflight (PDF/A-1b), as tests/readers.py runs it."""
    jars = [os.path.join("/usr/share/java", j) for j in
            ["pdfbox2.jar", "fontbox2.jar", "preflight.jar", "xmpbox.jar", "commons-logging.jar",
             "javax.activation.jar", "jaxb-api.jar"]]
    if not all(os.path.exists(j) for j in jars):
        check("PDFBox Preflight jars are installed (tests/deps.sh)", False, "")
        return
    rc, out, err = run(["java", "-cp", ":".join(jars), "org.apache.pdfbox.preflight.Validator_A1b",
                        p], timeout=180)
    check("%s: a valid PDF/A-1b file (Preflight)" % name,
          rc == 0 and "is a valid PDF/A-1b file" in out, (out + err)[-400:])


def pdfbox(p, name, words):
    """PDFBox 2's ExtractText (as tests/readers.py runs it) prints a
    right-to-left line in visual order, left to right: the words come out
    reversed, Hebrew as well.  Checked as that, and said."""
    jars = [os.path.join("/usr/share/java", j) for j in
            ["pdfbox2.jar", "fontbox2.jar", "pdfbox2-tools.jar", "commons-logging.jar"]]
    if not all(os.path.exists(j) for j in jars):
        check("PDFBox jars are installed (tests/deps.sh)", False, "")
        return
    rc, out, err = run(["java", "-cp", ":".join(jars), "org.apache.pdfbox.tools.ExtractText",
                        "-console", "-encoding", "UTF-8", p], timeout=120)
    text = plain(out)
    logical = all(w in text for w in words)
    visual = all(w[::-1] in text for w in words)
    check("%s: PDFBox reads every letter (in logical or visual order)" % name,
          rc == 0 and (logical or visual), text[:300])
    if visual and not logical:
        print("note: %s: PDFBox 2 ExtractText prints right-to-left lines in visual order "
              "(reversed), as it does for Hebrew" % name)


def devanagari():
    hi = write("hi.yaml", open(os.path.join(ROOT, "tests", "data", "scripts", "hi.yaml"),
                               encoding="utf-8").read())
    rc, out, err = dump(hi)
    check("hindi renders with no character dropped",
          rc == 0 and "no font has" not in err, err[:300])
    check("hindi is set in Noto Sans Devanagari", "NotoSansDevanagari" in out, out[:300])
    rc, p, _ = pdf(hi)
    t = plain(pdftotext(p))
    check("hindi reads back (pdftotext)", "प्रिया शर्मा" in t and "भारतीय विज्ञान संस्थान" in t,
          t[:200])
    t = plain(mutool(p))
    check("hindi reads back (MuPDF)", "प्रिया शर्मा" in t and "भारतीय विज्ञान संस्थान" in t,
          t[:200])
    # Shaped: प्रिया is six characters but four glyphs (the i-matra, the
    # conjunct pra, ya, aa).
    rc, out, _ = dump(hi, "onecolumn", "--dump=glyphs")
    m = re.search(r'"प्रिया"\n  at((?: \S+)+)', out)
    check("hindi is shaped: प्रिया is four glyphs", m and len(m.group(1).split()) == 4,
          m.group(0) if m else out[:300])


def joiners():
    """ZWJ and ZWNJ: in Latin text (or between emoji no font has) nothing,
    where Lato's own glyphs for them are a visible box and mark; in Hindi
    shaped with the letters around them in their face, the half form of
    क्‍ष (ZWJ) and the explicit virama of क्‌ष (ZWNJ), the joiner of no
    width."""
    prof = write("joiners.yaml", "cv:\n  name: J\n  sections:\n    s:\n"
                 "      - \"a\u200db c\u200cd\"\n"
                 "      - \"\u0915\u094d\u200d\u0937 \u0915\u094d\u200c\u0937 \u0915\u094d\u0937\"\n")
    rc, out, err = dump(prof, "onecolumn", "--dump=glyphs")
    check("joiners render", rc == 0 and "no font has" not in err, err[:300])
    m = re.search(r'Lato-Regular 10 \S+ "([^"]*)"\n  at((?: \S+)+)', out)
    check("a ZWJ or ZWNJ between Latin letters is not drawn (4 glyphs for 'ab cd')",
          m and m.group(1).strip() == "ab cd" and len(m.group(2).split()) in (4, 5),
          m.group(0) if m else out[:400])
    runs = {t: (x, w, f) for x, y, w, f, t in texts(out)}
    half = runs.get("\u0915\u094d\u200d\u0937")
    check("क्‍ष (ZWJ) is shaped in Noto Sans Devanagari, joiner and all",
          half and "Devanagari" in half[2], sorted(runs)[:10])
    m = re.search('"\u0915\u094d\u200d\u0937"\n  at((?: \S+)+)', out)
    xs = [float(v) for v in m.group(1).split()] if m else []
    check("the ZWJ of क्‍ष takes no room (its glyph where the next one is)",
          len(xs) == 3 and xs[1] == xs[2], m.group(0) if m else out[:400])


def bidi_marks():
    """A left-to-right mark after C++ in Hebrew keeps the pluses after the
    C (UAX #9 with the mark), and is drawn as nothing: Lato's own glyph for
    U+200E is a visible bar and arrow."""
    prof = write("lrm.yaml", "cv:\n  name: \u05d3\u05d5\u05d3\n  sections:\n    s:\n"
                 "      - \"\u05e9\u05e4\u05d4 C++\u200e \u05d5\u05e2\u05d5\u05d3\"\n"
                 "locale:\n  language: hebrew\n")
    rc, out, err = dump(prof, "onecolumn", "--dump=glyphs")
    check("a Hebrew line with an LRM renders", rc == 0 and not err.strip(), err[:300])
    m = re.search(r'text (\S+) \S+ w=(\S+) \S+ \S+ \S+ "C\+\+\u200e"\n  at((?: \S+)+)', out)
    xs = [float(v) for v in m.group(3).split()] if m else []
    check("C++ and its LRM are one run, C first (the mark orders the line)",
          len(xs) == 4 and xs[0] < xs[1] < xs[2], m.group(0) if m else out[-600:])
    check("the LRM takes no room: its glyph at the run's end",
          m and len(xs) == 4 and abs(xs[3] - (float(m.group(1)) + float(m.group(2)))) < 0.01,
          m.group(0) if m else "")
    # Inside an Arabic word an ALM or LRM is shaped with the letters, which
    # join across it, and takes no room: each word as wide as the plain one
    # (the ALM took a letter's glyph, the LRM cut the word in two).
    ar = write("alm.yaml", "cv:\n  name: A\n  sections:\n    s:\n"
               "      - \"\u0628\u0628\u0628 \u0628\u0628\u061c\u0628 "
               "\u0628\u0628\u200e\u0628\"\nlocale:\n  language: arabic\n")
    rc, out, err = dump(ar)
    widths = [w for x, y, w, f, t in texts(out) if "Arabic" in f]
    total = sum(widths)
    check("an ALM or LRM inside an Arabic word keeps it joined and takes no room",
          rc == 0 and widths and abs(total - 3 * widths[0]) < 0.05, (widths, err[:200]))


def profiles():
    for name in ["weber-de", "sato-ja", "levi-he"]:
        prof = os.path.join(ROOT, "profiles", name + ".yaml")
        for lay in ["onecolumn", "sidebar", "compact"]:
            rc, p, err = pdf(prof, lay)
            check("%s renders in %s with nothing on stderr" % (name, lay),
                  rc == 0 and not err.strip(), err.strip()[:300])
            if rc:
                continue
            base = p[:-4]
            run(["pdftoppm", "-r", "40", "-gray", p, base])
            pages = sorted(f for f in os.listdir(TMP) if f.startswith(os.path.basename(base))
                           and f.endswith(".pgm"))
            ink = []
            for f in pages:
                data = open(os.path.join(TMP, f), "rb").read()
                ink.append(sum(1 for b in data[20:] if b < 128))
            check("%s in %s has ink on every page" % (name, lay),
                  pages and all(ink), ink)
    t = plain(pdftotext(pdf(os.path.join(ROOT, "profiles", "weber-de.yaml"))[1]))
    check("weber-de reads back", "Leitende Softwareentwicklerin" in t and "heute" in t, t[:300])
    t = plain(pdftotext(pdf(os.path.join(ROOT, "profiles", "sato-ja.yaml"))[1])).replace(" ", "")
    check("sato-ja reads back", "株式会社ミライロボティクス" in t and "2021年4月–現在" in t, t[:300])


def casing():
    """Section titles in capitals and title case by the profile's language
    (ICU's full case mapping), the same under LC_ALL=C as any locale."""
    env = dict(os.environ, LC_ALL="C")
    env.pop("LANG", None)
    env.pop("LANGUAGE", None)
    cases = [
        ("tr", "istanbul iletişim", "iletişim_bilgileri",
         "İSTANBUL İLETİŞİM", "İletişim Bilgileri", ["ISTANBUL ILETIŞIM", "Iletişim"]),
        ("de", "Straße und Weg", "straße_und_weg",
         "STRASSE UND WEG", "Straße Und Weg", ["STRAßE", "STRAẞE"]),
        ("fr", "expérience à l’étranger", "éducation",
         "EXPÉRIENCE À L’ÉTRANGER", "Éducation", ["EXPéRIENCE", "éTRANGER"]),
    ]
    for lang, spaced, snake, upper, title, wrong in cases:
        prof = write("case-%s.yaml" % lang, """cv:
  name: Test Person
  sections:
    %s:
      - Line one.
    %s:
      - Line two.
locale:
  language: %s
""" % (spaced, snake, lang))
        for layout, want in (("onecolumn", [upper]), ("classic", [spaced, title])):
            out = os.path.join(TMP, "case-%s-%s.pdf" % (lang, layout))
            p = subprocess.run([BIN, "-l", os.path.join(LAYOUTS, layout + ".yaml"), "-o", out,
                                prof], capture_output=True, env=env, cwd=ROOT, timeout=120)
            check("casing %s in %s renders under LC_ALL=C" % (lang, layout),
                  p.returncode == 0, p.stderr.decode("utf-8", "replace"))
            t = plain(pdftotext(out)) if p.returncode == 0 else ""
            # Letter-spaced capitals may read back with spaces between letters.
            squeezed = t.replace(" ", "")
            for w in want:
                check("casing %s in %s: pdftotext reads %r" % (lang, layout, w),
                      w.replace(" ", "") in squeezed, t[:300])
            for w in wrong:
                check("casing %s in %s: not %r" % (lang, layout, w),
                      w.replace(" ", "") not in squeezed, t[:300])


if __name__ == "__main__":
    sys.exit(testlib.main("scripts", [catalogue, hyphenation, rtl, arabic, devanagari, joiners, bidi_marks, profiles,
                                      casing],
                          tmp=TMP, keep_failed=True))
