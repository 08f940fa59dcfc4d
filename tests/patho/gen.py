#!/usr/bin/env python3
"""Pathological but valid profiles (and layouts) for tests/patho/run.py.

Each generator takes a size n and returns the text of a profile; run.py
writes it, runs cvpdf on it under a time limit and checks the result.  With
a directory argument this writes every case at its default size there
(for looking at them, or for `make bench`):

    python3 tests/patho/gen.py /tmp/patho
"""
import json
import os
import random
import sys

HEAD = "cv:\n  name: Ada Lovelace\n  sections:\n"


def q(s):
    """A YAML double-quoted string (JSON's escapes are YAML's)."""
    return json.dumps(s, ensure_ascii=False)


def words(rnd, n):
    """n pseudo-English words (deterministic)."""
    syl = ["ta", "ko", "ri", "men", "sul", "par", "ex", "lo", "vin", "dra", "tion", "al",
           "com", "pu", "ter", "ing", "an", "gle", "ver", "sa"]
    return [("".join(rnd.choice(syl) for _ in range(rnd.randrange(1, 5))))
            for _ in range(n)]


def bullets(n):
    """One entry with n highlights."""
    rnd = random.Random(1)
    s = HEAD + "    experience:\n      - company: Engines\n        position: P\n" \
        "        start_date: 1842-09\n        highlights:\n"
    for i in range(n):
        s += "          - %s\n" % q("Bullet %d: %s" % (i, " ".join(words(rnd, 12))))
    return s


def bullet_entries(n):
    """A section of n one-line bullet entries."""
    return HEAD + "    awards:\n" + "".join("      - bullet: Award number %d\n" % i
                                         for i in range(n))


def long_word(n):
    """A highlight holding one n-character word (no break point in it)."""
    w = "".join("abcdefghijklmnopqrstuvwxyz"[i % 26] for i in range(n))
    return HEAD + "    experience:\n      - company: Engines\n        position: P\n" \
        "        highlights:\n          - %s\n          - after the long word\n" % q(w)


def long_url(n):
    """A link whose text is an n-character URL (breakable only after / . -),
    and one whose URL is 8000 bytes (just under the limit)."""
    u = "https://example.com/" + "/".join("seg%d" % i for i in range(n // 6))
    v = "https://example.com/" + "x" * 7980
    return HEAD + "    text:\n      - %s\n      - %s\n" % (
        q("[%s](https://example.com/) end" % u), q("[long link](%s) last" % v))


def url_too_long(n):
    """A link whose URL is n bytes: over the 8192-byte limit."""
    return HEAD + "    text:\n      - %s\n" % q("[a](https://example.com/%s)" % ("x" * n))


def deep_highlights(n):
    """Highlights nested n levels deep (the limit is 8)."""
    t = "deep"
    for i in range(n - 1):
        t = "[x%d, %s]" % (i, t)
    return HEAD + "    experience:\n      - company: C\n        position: P\n" \
        "        highlights: %s\n" % t


def alias_amplification(n):
    """A 1000-bullet entry repeated n times through aliases: a small file
    that would stand for a huge résumé."""
    s = HEAD + "    experience:\n      - company: C\n        position: P\n" \
        "        highlights: &h\n"
    s += "".join("          - Highlight number %d with a few words\n" % i for i in range(1000))
    for i in range(n):
        s += "      - company: C%d\n        position: P\n        highlights: *h\n" % i
    return s


def cjk_kinsoku(n):
    """n CJK prolonged sound marks: kinsoku forbids a break before each, so
    the whole run has no break opportunity at all."""
    return HEAD + "    summary:\n      - %s\n" % q("\u30fc" * n + " after")


def publications(n, authors=60):
    """n publications, each with a long author list that includes the owner."""
    rnd = random.Random(2)
    s = HEAD + "    publications:\n"
    for i in range(n):
        names = ["%s %s" % (w.capitalize(), v.capitalize())
                 for w, v in zip(words(rnd, authors), words(rnd, authors))]
        names[i % authors] = "Ada Lovelace"
        s += "      - title: %s\n        authors: [%s]\n        journal: J. Patho %d\n" \
             "        date: %d\n" % (q("Paper %d: %s" % (i, " ".join(words(rnd, 8)))),
                                   ", ".join(q(a) for a in names), i, 1900 + i % 120)
    return s


def paragraph(nbytes):
    """One text entry of about nbytes bytes: a single paragraph."""
    rnd = random.Random(3)
    out, size = [], 0
    while size < nbytes:
        w = words(rnd, 1)[0]
        out.append(w)
        size += len(w) + 1
    return HEAD + "    summary:\n      - %s\n" % q(" ".join(out) + " theend")


def cjk(n):
    """n CJK characters without a space or any other break."""
    rnd = random.Random(4)
    common = "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长"
    t = "".join(rnd.choice(common) for _ in range(n))
    return "locale:\n  language: zh\n  present: 至今\n" + HEAD + "    summary:\n      - %s\n" % q(t)


def line_feeds(n):
    """A paragraph of n line feeds between two words: the look back from
    each mandatory break once cost the square of n."""
    return HEAD + "    text:\n      - %s\n" % q("first" + "\n" * n + "after")


def spaces(n):
    """n spaces between two words: a window of a long paragraph with no
    line in it."""
    return HEAD + "    text:\n      - %s\n" % q("first" + " " * n + "after")


def mixed_faces(n):
    """n Latin letters each followed by a Chinese character: a run and a
    font change every character."""
    return "locale:\n  language: zh\n  present: 至今\n" + HEAD + \
        "    summary:\n      - %s\n" % q("a中" * n + " end")


def sections(n):
    """n sections of one entry each."""
    return HEAD + "".join("    section_%d:\n      - bullet: Entry of section %d\n" % (i, i)
                          for i in range(n))


def stars(n):
    """Markup that CommonMark implementations have been quadratic on:
    unmatched openers and closers, nested brackets."""
    t = "**a " * n + "b" + " a*" * n
    return HEAD + "    text:\n      - %s\n      - %s\n      - %s\n" % (
        q(t), q("[" * n + "x" + "](http://e.com)" * 2), q("*" * n + "x"))


def missing_glyphs(n):
    """n characters that no bundled font has (Thai): one warning per
    distinct character, never one per occurrence."""
    t = "".join(chr(0x0E01 + i % 40) for i in range(n))
    return HEAD + "    text:\n      - %s\n" % q(t + " visible")


def social(n):
    """n social networks: n links in the header (60 is the limit)."""
    return "cv:\n  name: Ada Lovelace\n  social_networks:\n" + "".join(
        "    - network: GitHub\n      username: ada%d\n" % i for i in range(n))


def keywords(n):
    """n bold keywords over a text that contains many of them."""
    rnd = random.Random(5)
    kws = sorted(set(words(rnd, n)))
    text = " ".join(words(rnd, 3000))
    return "settings:\n  bold_keywords: [%s]\n" % ", ".join(q(k) for k in kws) + HEAD + \
        "    text:\n      - %s\n" % q(text)


# name: (generator, default size, what the PDF must contain)
CASES = {
    "bullets": (bullets, 10000, "Bullet 9999:"),
    "bullet-entries": (bullet_entries, 10000, "Award number 9999"),
    "long-word": (long_word, 5000, "after the long word"),
    "long-word-1mb": (long_word, 1000000, "after the long word"),
    "long-url": (long_url, 100000, "last"),
    "publications": (publications, 2000, "Paper 1999:"),
    "paragraph-1mb": (paragraph, 1000000, "theend"),
    "cjk-20000": (cjk, 20000, None),
    "cjk-no-break-20000": (cjk_kinsoku, 20000, "after"),
    "cjk-1mb": (cjk, 333333, None),
    "line-feeds": (line_feeds, 300000, "after"),
    "spaces": (spaces, 1000000, "after"),
    "mixed-faces": (mixed_faces, 250000, "end"),
    "sections": (sections, 10000, "Entry of section 9999"),
    "markup-stars": (stars, 20000, None),
    "missing-glyphs": (missing_glyphs, 20000, "visible"),
    "social-networks": (social, 60, "ada59"),
    "bold-keywords": (keywords, 2000, None),
}


# Stopped at a documented limit: name: (generator, size, the error's message)
ERRORS = {
    "url-too-long": (url_too_long, 100000, r"URL longer than 8192 bytes"),
    "highlights-20-levels": (deep_highlights, 20, r"highlights nest more than 8 levels"),
    "social-networks-61": (social, 61, r"at most 60 social networks"),
    "alias-amplification": (alias_amplification, 990, r"aliases expand to more than 100000"),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "patho-cases"
    os.makedirs(out, exist_ok=True)
    for name, (gen, n, _) in list(CASES.items()) + list(ERRORS.items()):
        with open(os.path.join(out, name + ".yaml"), "w", encoding="utf-8") as f:
            f.write(gen(n))
    print("wrote %d cases to %s" % (len(CASES) + len(ERRORS), out))


if __name__ == "__main__":
    main()
