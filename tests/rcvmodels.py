#!/usr/bin/env python3
"""RenderCV's "full" and "minimal" test models, rebuilt as RenderCV 2.8
YAML files for tests/rcv_accept.py (issue 26, items 5 and 9).

RenderCV renders two models in each of its nine themes for its own tests:
a minimal one (a name and a one-line section) and a full one that holds
every combination of each entry type's optional fields (32 publications,
64 experience, 128 education and 64 normal entries, and a few of the other
types).  This module writes files of the same structure: the same entry
types, the same fields set in the same combinations, values of the same
lengths.  The long filler is H. Rackham's 1914 English translation of
Cicero's "de Finibus" (the usual public-domain filler), cut to the lengths
RenderCV's model uses, so that the page counts of the two can be compared;
the numbers to compare with are in rcv_accept.py (RENDERCV_MODEL_PAGES),
counted with pdfinfo in RenderCV 2.8's reference PDFs.

    python3 tests/rcvmodels.py full|minimal PHOTO  > model.yaml
"""
import itertools
import json
import sys

RACKHAM = ("But I must explain to you how all this mistaken idea of denouncing pleasure"
           " and praising pain was born and I will give you a complete account of the"
           " system, and expound the actual teachings of the great explorer of the"
           " truth, the master-builder of human happiness.")
PAIN = ("Nor again is there anyone who loves or pursues or desires to obtain pain of"
        " itself, because it is pain, but because occasionally circumstances occur in"
        " which toil and pain can procure him some great pleasure.")
LEAD = "Did *this* and this is a **bold** [link](https://example.com). "

VALUES = {
    "institution": "Boğaziçi University",
    "location": "Istanbul, Turkey",
    "degree": "BS",
    "area": "Mechanical Engineering",
    "start_date": "2015-09",
    "end_date": "2020-06",
    "date": "2021-09",
    "summary": LEAD + RACKHAM,
    "highlights": [LEAD + RACKHAM,
                   "Did that. " + " - ".join([PAIN] * 3),
                   "Did that. " + PAIN],
    "company": "Some Company",
    "position": "Software Engineer",
    "name": "My Project",
    "title": ("Magneto-Thermal Thin Shell Approximation for 3D Finite Element"
              " Analysis of No-Insulation Coils"),
    "authors": ["J. Doe", "***H. Tom***", "S. Doe", "A. Andsurname", "S. Doe",
                "A. Andsurname"],
    "journal": "IEEE Transactions on Applied Superconductivity",
    "doi": "10.1007/978-3-319-69626-3_101-1",
    "url": "https://example.com",
}

# Each type's required fields, then its optional ones in the order RenderCV's
# models declare them (the order its combinations follow).
DATED = ["date", "start_date", "end_date", "location", "summary", "highlights"]
TYPES = {
    "publication": (["title", "authors"], ["summary", "doi", "url", "journal", "date"]),
    "experience": (["company", "position"], DATED),
    "education": (["institution", "area"], ["degree"] + DATED),
    "normal": (["name"], DATED),
}

NETWORKS = [("LinkedIn", "johndoe"), ("GitHub", "johndoe"), ("IMDB", "nm0000001"),
            ("Instagram", "johndoe"), ("ORCID", "0000-0000-0000-0000"),
            ("Google Scholar", "F8IyYrQAAAAJ"), ("Mastodon", "@johndoe@example.com"),
            ("StackOverflow", "12323/johndoe"), ("GitLab", "johndoe"),
            ("ResearchGate", "johndoe"), ("YouTube", "johndoe"), ("Telegram", "johndoe"),
            ("WhatsApp", "+14155552671"), ("X", "johndoe"),
            ("Bluesky", "johndoe.bsky.social"), ("Reddit", "johndoe")]


def q(s):
    return json.dumps(s, ensure_ascii=False)


def combinations(kind):
    """Every entry of a type: required fields alone, then each subset of the
    optional ones, smallest subsets first."""
    req, opt = TYPES[kind]
    out = [list(req)]
    for n in range(1, len(opt) + 1):
        out += [req + list(c) for c in itertools.combinations(opt, n)]
    return out


def entry(fields):
    lines = []
    for i, f in enumerate(fields):
        v = VALUES[f]
        lead = "      - " if i == 0 else "        "
        if isinstance(v, list):
            lines.append("%s%s:" % (lead, f))
            lines += ["          - %s" % q(x) for x in v]
        else:
            lines.append("%s%s: %s" % (lead, f, q(v)))
    return lines


def full(photo):
    out = ["cv:", "  name: John Doe", "  headline: AI Researcher and Entrepreneur",
           "  location: Istanbul, Turkey", "  email: john_doe@example.com",
           "  photo: %s" % q(photo), "  phone: \"+905419999999\"",
           "  website: https://example.com", "  social_networks:"]
    for net, user in NETWORKS:
        out += ["    - network: %s" % net, "      username: %s" % q(user)]
    out += ["  sections:", "    Text Entries:",
            "      - %s" % q("This is a *TextEntry*. It is only a text and can be useful"
                             " for sections like **Summary**. To showcase the TextEntry"
                             " completely, this sentence is added, but it doesn't"
                             " contain any information."),
            "      - %s" % q("Another text entry with *markdown* and **bold** text. This"
                             " is the second text entry."),
            "      - %s" % q("Third text with [link](https://example.com) and more"
                             " content.")]
    for title, kind in [("Publication Entries", "publication"),
                        ("Experience Entries", "experience"),
                        ("Education Entries", "education"), ("Normal Entries", "normal")]:
        out.append("    %s:" % title)
        for fields in combinations(kind):
            out += entry(fields)
    out += ["    One Line Entries:"]
    out += ["      - label: Programming", "        details: Python, C++, JavaScript, MATLAB"] * 2
    out += ["    Bullet Entries:"] + ["      - bullet: This is a bullet entry."] * 2
    out += ["    Numbered Entries:"] + ["      - number: This is a numbered entry."] * 2
    out += ["    Reversed Numbered Entries:"]
    out += ["      - reversed_number: This is a reversed numbered entry."] * 3
    out += ["    A Section & with % Special Characters:",
            "      - name: A Section & with % Special Characters"]
    out += ["settings:", "  current_date: 2025-11-30"]
    return "\n".join(out) + "\n"


def minimal():
    return ("cv:\n  name: John Doe\n  sections:\n    Experience:\n"
            "      - Software Engineer at Company X, 2020-2023\n"
            "settings:\n  current_date: 2025-11-30\n")


if __name__ == "__main__":
    sys.stdout.write(full(sys.argv[2]) if sys.argv[1] == "full" else minimal())
