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
  devanagari   Hindi text is shaped (conjuncts, the i-matra before its
               consonant), not dropped, and reads back in logical order
  profiles     the German, Japanese and Hebrew profiles render cleanly in
               every layout, read back by pdftotext, and have ink on every
               page (pdftoppm)

Every check prints "ok NAME" or "FAIL NAME: why"; the last line is
"scripts: N passed, M failed".
"""
import os
import re
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
    out = []
    for m in re.finditer(r'^text (\S+) (\S+) w=(\S+) (\S+) \S+ #\w+ "(.*)"$', dump_text, re.M):
        out.append((float(m.group(1)), float(m.group(2)), float(m.group(3)), m.group(4),
                    m.group(5)))
    return out


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


def devanagari():
    hi = write("hi.yaml", """cv:
  name: प्रिया शर्मा
  headline: सॉफ्टवेयर इंजीनियर
  sections:
    अनुभव:
      - company: भारतीय विज्ञान संस्थान
        position: शोधकर्ता
        start_date: 2019-07
locale:
  language: hindi
""")
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


if __name__ == "__main__":
    sys.exit(testlib.main("scripts", [catalogue, hyphenation, rtl, devanagari, profiles],
                          tmp=TMP, keep_failed=True))
