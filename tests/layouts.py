#!/usr/bin/env python3
"""Layouts, page furniture, fit-to-pages, --explain and the photo.

Usage: tests/layouts.py CVPDF_BINARY [-k PATTERN] [--list]

Every lab profile is rendered in every layout and read back with poppler
(pdftotext, pdfinfo, pdftoppm) and qpdf; the sidebar layout's text must
come out of pdftotext one column at a time.  The last line is
"layouts: N passed, M failed".
"""
import glob
import html
import os
import re
import shutil
import sys
import tempfile

import testlib
from testlib import BIN, ROOT, check, read_dump, run, words_bbox

TMP = tempfile.mkdtemp(prefix="cvpdf-layouts-")
PROFILES = sorted(glob.glob(os.path.join(ROOT, "profiles", "*.yaml")))
LAYOUTS = ["onecolumn", "compact", "sidebar"]


def layout_path(name):
    return os.path.join(ROOT, "layouts", name + ".yaml")


def default_layout(prof):
    return layout_path("zh" if prof.endswith("-zh.yaml") else "onecolumn")


def stem(path):
    return os.path.basename(path)[:-5]


def dump(prof, layout, *extra):
    rc, out, err = run([BIN, "--dump", "-l", layout, prof] + list(extra))
    return rc, out, err


def npages(pdf):
    rc, out, _ = run(["pdfinfo", pdf])
    m = re.search(r"^Pages:\s+(\d+)", out, re.M)
    return int(m.group(1)) if m else 0


def norm(s):
    return re.sub(r"\s+", "", s).lower()


def page_text(pdf, page):
    rc, out, _ = run(["pdftotext", "-f", str(page), "-l", str(page), pdf, "-"])
    return out


def ppm(pdf, page, dpi):
    """Rasterise one page; return (width, height, bytes of RGB)."""
    base = os.path.join(TMP, "r")
    run(["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", pdf, base])
    data = open(base + ".ppm", "rb").read()
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", data)
    w, h = int(m.group(1)), int(m.group(2))
    return w, h, data[m.end():]


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


# ---- every profile in every layout ------------------------------------------

def all_layouts_test():
    for prof in PROFILES:
        for lay in LAYOUTS + (["zh"] if prof.endswith("-zh.yaml") else []):
            name = "%s/%s" % (stem(prof), lay)
            pdf = os.path.join(TMP, "%s-%s.pdf" % (stem(prof), lay))
            rc, out, err = run([BIN, "-l", layout_path(lay), "-o", pdf, prof])
            check("%s renders with nothing on stderr" % name, rc == 0 and err == "", err[:300])
            if rc != 0:
                continue
            rc, out, err = run(["qpdf", "--check", pdf])
            check("%s passes qpdf --check" % name, rc == 0, out[-300:] + err)
            # Every page has ink in its text block, and none is nearly empty
            # except the last (no half-empty pages from the keep rules).
            n = npages(pdf)
            rc, d, _ = dump(prof, layout_path(lay))
            pages = read_dump(d)
            check("%s: dump and PDF agree on the page count" % name, len(pages) == n,
                  "%d vs %d" % (len(pages), n))
            sparse = []
            for i, pg in enumerate(pages[:-1]):
                body = [r for r in pg["runs"] if any(
                    k in pg["region"] and inside(r, pg["region"][k])
                    for k in ("main", "sidebar"))]
                low = min((r["y"] for r in body), default=1e9)
                reg = pg["region"].get("main")
                if reg and low > reg[1] + (reg[3] - reg[1]) * 0.25:
                    sparse.append("page %d ends at y=%.0f" % (i + 1, low))
            check("%s: no page but the last is less than three-quarters full" % name,
                  not sparse, "; ".join(sparse))
            for p in range(1, n + 1):
                w, h, px = ppm(pdf, p, 40)
                dark = sum(1 for i in range(0, len(px), 3) if px[i] < 200)
                if dark < 200:
                    check("%s: page %d has ink" % (name, p), False, "%d dark pixels" % dark)
                    break
            else:
                check("%s: every page has ink" % name, True)


def inside(r, box, tol=0.05):
    x0, y0, x1, y1 = box
    return x0 - tol <= r["x"] and r["x"] + r["w"] <= x1 + tol and y0 - tol <= r["y"] <= y1 + tol


# ---- the sidebar -------------------------------------------------------------

def sidebar_order_test():
    """pdftotext (default mode) reads the sidebar layout one column at a time:
    on each page, the words that belong to one column only come out as at
    most two runs (one column, then the other), never interleaved line by
    line; and each column's words keep their order."""
    for prof in PROFILES:
        pdf = os.path.join(TMP, "%s-sidebar.pdf" % stem(prof))
        if not os.path.exists(pdf):
            continue
        rc, d, _ = dump(prof, layout_path("sidebar"))
        pages = read_dump(d)
        bad = []
        for i, pg in enumerate(pages):
            cols = {}
            for col in ("main", "sidebar"):
                box = pg["region"].get(col)
                runs = sorted((r for r in pg["runs"] if box and inside(r, box)),
                              key=lambda r: (-r["y"], r["x"]))
                cols[col] = [w for r in runs for w in norm_words(r["text"])]
            every = {}
            for r in pg["runs"]:
                for w in norm_words(r["text"]):
                    every[w] = every.get(w, 0) + 1
            # Words found once on the page, in one column: where they come
            # out of pdftotext tells which column it is reading.
            only = {c: {w for w in ws if every.get(w) == 1} for c, ws in cols.items()}
            labels = []
            for w in norm_words(page_text(pdf, i + 1)):
                c = "main" if w in only["main"] else "sidebar" if w in only["sidebar"] else None
                if c and (not labels or labels[-1][0] != c):
                    labels.append((c, w))
            if len(labels) > 2:
                bad.append("page %d: %s" % (i + 1, " | ".join("%s@%s" % l for l in labels[:6])))
        check("%s/sidebar: pdftotext reads the columns one after the other" % stem(prof),
              not bad, "; ".join(bad[:3]))


def norm_words(text):
    return [w for w in re.split(r"[\s,;:()]+", text.lower()) if len(w) > 2]


def sidebar_sections_test():
    """Sections named in columns.sidebar.sections are in the sidebar, the rest
    in the main column; contact details head the sidebar."""
    prof = os.path.join(ROOT, "profiles", "fang.yaml")
    rc, d, _ = dump(prof, layout_path("sidebar"))
    pages = read_dump(d)
    p1 = pages[0]
    side, main = p1["region"]["sidebar"], p1["region"]["main"]
    check("sidebar: the sidebar is left of the main column", side[2] < main[0])

    def where(text):
        for pg in pages:
            for r in pg["runs"]:
                if r["text"] == text:
                    return "sidebar" if inside(r, pg["region"]["sidebar"]) else \
                           "main" if inside(r, pg["region"]["main"]) else "other"
        return None
    check("sidebar: SKILLS is in the sidebar", where("SKILLS") == "sidebar", where("SKILLS"))
    check("sidebar: WORK EXPERIENCE is in the main column",
          where("WORK EXPERIENCE") == "main", where("WORK EXPERIENCE"))
    check("sidebar: the contact block is in the sidebar", where("CONTACT") == "sidebar")
    check("sidebar: the e-mail is in the sidebar, not the header",
          any("fangjiarui123@gmail.com" in r["text"] and inside(r, side) for r in p1["runs"]) and
          not any("fangjiarui123" in r["text"] for r in p1["runs"] if r["y"] > side[3]))


def sidebar_main_test():
    """A profile whose every section the sidebar takes (skills, awards,
    languages) does not leave the main column empty beside them: its
    sections are in the main column, the contact block stays in the
    sidebar; the web page puts them in <main> likewise."""
    prof = os.path.join(TMP, "side-only.yaml")
    with open(prof, "w", encoding="utf-8") as f:
        f.write("cv:\n  name: Sam Side\n  email: sam@example.org\n  sections:\n"
                "    skills:\n      - label: Languages\n        details: C, Rust, Python\n"
                "    awards:\n      - bullet: Best Paper Award, EuroSys 2022\n"
                "    languages:\n      - label: English\n        details: native\n")
    rc, d, err = dump(prof, layout_path("sidebar"))
    pages = read_dump(d) if rc == 0 else []
    if not check("side-only: renders", pages, err):
        return
    p1 = pages[0]
    main, side = p1["region"].get("main"), p1["region"].get("sidebar")
    where = {r["text"]: ("main" if main and inside(r, main) else
                         "sidebar" if side and inside(r, side) else "other") for r in p1["runs"]}
    check("side-only: SKILLS, AWARDS and LANGUAGES in the main column, not beside an empty one",
          [where.get(t) for t in ("SKILLS", "AWARDS", "LANGUAGES")] == ["main"] * 3, where)
    check("side-only: the contact block still in the sidebar",
          where.get("CONTACT") == "sidebar" and where.get("sam@example.org") == "sidebar", where)
    page = os.path.join(TMP, "side-only.html")
    rc, _, err = run([BIN, "-q", "-l", layout_path("sidebar"), "-o", page, prof])
    src = open(page, encoding="utf-8").read() if rc == 0 else ""
    m = re.search(r"<main>(.*?)</main>", src, re.S)
    check("side-only: the web page's <main> holds the sections",
          m and all(t in m.group(1) for t in ("SKILLS", "AWARDS", "LANGUAGES")),
          (rc, err, m.group(1)[:300] if m else src[:300]))


# ---- running header and footer ----------------------------------------------

def furniture_test():
    prof = os.path.join(ROOT, "profiles", "he.yaml")
    pdf = os.path.join(TMP, "he-furn.pdf")
    rc, _, err = run([BIN, "-o", pdf, "--date", "2026-11-21", prof])
    n = npages(pdf)
    check("furniture: he has several pages", rc == 0 and n > 1, err)
    for p in range(1, n + 1):
        words = words_bbox(pdf)[p - 1]
        ph = words[1]
        bottom = " ".join(w for x0, y0, x1, y1, w in words[2] if y0 > ph - 45)
        top = " ".join(w for x0, y0, x1, y1, w in words[2] if y1 < 45)
        check("furniture: page %d has '%d / %d' at its foot" % (p, p, n),
              "%d / %d" % (p, n) in bottom, bottom)
        check("furniture: page %d's foot has the date" % p, "Last updated in Nov 2026" in bottom,
              bottom)
        if p == 1:
            check("furniture: no running name on page 1", "Jiaao" not in top, top)
        else:
            check("furniture: page %d has the name at its head" % p, top == "Jiaao He", top)
    # No date without --date or SOURCE_DATE_EPOCH; the epoch sets it.
    env = dict(os.environ)
    env.pop("SOURCE_DATE_EPOCH", None)
    rc, d, _ = dump(prof, layout_path("onecolumn"))
    check("furniture: no 'Last updated' without a date", "Last updated" not in d)
    import subprocess
    p = subprocess.run([BIN, "--dump", prof], capture_output=True,
                       env=dict(env, SOURCE_DATE_EPOCH="1767225600"))  # 2026-01-01
    check("furniture: SOURCE_DATE_EPOCH gives the date",
          "Last updated in Jan 2026" in p.stdout.decode(), p.stderr.decode())
    # A one-page résumé has no "1 / 1".
    li = os.path.join(ROOT, "profiles", "li.yaml")
    rc, d, _ = dump(li, layout_path("compact"), "--date", "2026-11-21")
    check("furniture: a one-page résumé has no page number",
          len(read_dump(d)) == 1 and not re.search(r"1\s+/\s+1", d) and "Last updated" not in d)
    rc, _, err = run([BIN, "--dump", "--date", "2026-13-01", li])
    check("furniture: --date checks its value", rc == 2 and "YYYY-MM-DD" in err, err)
    # The Chinese résumé's footer uses its locale's months.
    zh = os.path.join(ROOT, "profiles", "fang-zh.yaml")
    rc, d, _ = dump(zh, layout_path("zh"), "--date", "2026-11-21")
    foot = "".join(r["text"] for r in sorted(read_dump(d)[0]["runs"], key=lambda r: r["x"])
                   if r["y"] < 30)
    check("furniture: the date and phrase in the profile's locale", "更新于 2026年11月" in foot,
          foot)


# ---- fit to pages ------------------------------------------------------------

def fit_test():
    li = os.path.join(ROOT, "profiles", "li.yaml")
    pdf = os.path.join(TMP, "li-fit.pdf")
    rc, _, _ = run([BIN, "-o", pdf, li])
    before = npages(pdf)
    rc, out, err = run([BIN, "-o", pdf, "--fit-pages", "1", li])
    check("fit: li (2 pages) fits on 1 page", rc == 0 and before == 2 and npages(pdf) == 1,
          "%d pages before, rc %d: %s" % (before, rc, err))
    check("fit: it says what it changed", re.search(r"fitted to 1 page: spacing at \d+%", err),
          err)
    rc, d, _ = dump(li, layout_path("onecolumn"), "--fit-pages", "1")
    pages = read_dump(d)
    sizes = {r["size"] for pg in pages for r in pg["runs"]}
    check("fit: the type never goes below 85% of the layout's",
          min(sizes) >= 0.85 * 8 - 0.01, sorted(sizes))
    # A layout key does the same.
    lay = write("fit1.yaml", "extends: %s\nfit_pages: 1\n" % layout_path("onecolumn"))
    rc, d, err = dump(li, lay)
    check("fit: fit_pages in a layout", rc == 0 and len(read_dump(d)) == 1, err)
    # --fit-pages on a résumé that cannot fit: exit 1, the overflow named,
    # nothing written, an existing output left as it was.
    fang = os.path.join(ROOT, "profiles", "fang.yaml")
    out_pdf = os.path.join(TMP, "keep.pdf")
    with open(out_pdf, "wb") as f:
        f.write(b"previous")
    rc, _, err = run([BIN, "-o", out_pdf, "--fit-pages", "1", fang])
    check("fit: fang cannot fit on one page: exit 1", rc == 1, err)
    check("fit: the message says how many lines overflow and where",
          re.search(r"fang\.yaml: error: does not fit in 1 page .*: \d+ lines overflow, in "
                    r"'[^']+'", err), err)
    check("fit: the existing output is untouched",
          open(out_pdf, "rb").read() == b"previous")
    rc, _, err = run([BIN, "--fit-pages", "0", fang])
    check("fit: --fit-pages 0 is a usage error", rc == 2, err)
    # Each lab profile, one page shorter than it is: either fitted exactly,
    # or refused with the overflow named.
    for prof in PROFILES:
        lay = default_layout(prof)
        pdf = os.path.join(TMP, "fit-%s.pdf" % stem(prof))
        rc, _, _ = run([BIN, "-l", lay, "-o", pdf, prof])
        n = npages(pdf)
        for target in range(max(1, n - 1), n + 1):
            os.unlink(pdf)
            rc, _, err = run([BIN, "-l", lay, "-o", pdf, "--fit-pages", str(target), prof])
            if rc == 0:
                check("fit: %s in %d pages" % (stem(prof), target),
                      npages(pdf) <= target, "%d pages" % npages(pdf))
            else:
                check("fit: %s refused %d pages with a reason" % (stem(prof), target),
                      rc == 1 and "lines overflow" in err and not os.path.exists(pdf), err)


# ---- --explain and pagination keys -------------------------------------------

def explain_test():
    he = os.path.join(ROOT, "profiles", "he.yaml")
    rc, out, err = run([BIN, "--explain", "-o", os.path.join(TMP, "x.pdf"), he])
    m = re.search(r"he\.yaml: (\d+) pages", out)
    breaks = re.findall(r"^  page (\d+): starts with (.+?): (.+)$", out, re.M)
    check("explain: a line per page break", m and len(breaks) == int(m.group(1)) - 1,
          out)
    check("explain: every break has a reason",
          all(r for _, _, r in breaks) and any("page is full" in r for _, _, r in breaks),
          out)
    # page_break_before from the profile; the reason is given.
    text = open(he, encoding="utf-8").read().replace(
        "cv:\n", "settings:\n  page_break_before: [Teaching]\n  keep_together: [hobbies]\ncv:\n", 1)
    prof = write("he-pbb.yaml", text)
    rc, out, err = run([BIN, "--explain", "--dump", prof])
    check("explain: page_break_before names the section",
          re.search(r"starts with the title of section 'Teaching': page_break_before", out), out[:600])
    pages = read_dump(out, other=True)
    where = [i for i, pg in enumerate(pages) for r in pg["runs"] if r["text"] == "TEACHING"]
    first = where and sorted(pages[where[0]]["runs"], key=lambda r: -r["y"])
    body = [r for r in (first or []) if r["y"] < pages[where[0]]["region"]["main"][3] + 0.1]
    check("page_break_before: TEACHING starts its page", body and body[0]["text"] == "TEACHING",
          body[:1])
    hob = [i for i, pg in enumerate(pages) for r in pg["runs"]
           if r["text"] in ("HOBBIES", "Outdoor Activities", "Auto Racing")]
    check("keep_together: Hobbies on one page", len(set(hob)) == 1, hob)
    # A name that is no section: a warning at its place.
    text2 = text.replace("[Teaching]", "[Teachin]")
    rc, out, err = run([BIN, "--dump", write("he-bad.yaml", text2)])
    check("settings.page_break_before: an unknown section is a warning with its position",
          re.search(r"he-bad\.yaml:\d+:\d+: warning: page_break_before: there is no section "
                    r"'Teachin'", err), err)
    # Layout keys are checked.
    lay = write("bad-pag.yaml", "pagination:\n  orphan: 2\n")
    rc, _, err = run([BIN, "--dump", "-l", lay, he])
    check("pagination: unknown key with a suggestion",
          rc == 1 and "bad-pag.yaml:2:3: error: unknown key 'orphan'" in err and
          "orphans" in err, err)

# ---- the photo ---------------------------------------------------------------

def pixel(pdf, page, dpi, x, y):
    """The RGB of the point (x, y) in PDF points (from the bottom-left)."""
    w, h, px = ppm(pdf, page, dpi)
    c, r = int(x * dpi / 72), int(h - y * dpi / 72)
    i = (r * w + c) * 3
    return tuple(px[i:i + 3])


def near(c, want, tol=40):
    return all(abs(a - b) <= tol for a, b in zip(c, want))


def photo_test():
    d = os.path.join(TMP, "photo")
    os.makedirs(d)
    for f in ("photo.png", "photo.jpg"):
        shutil.copy(os.path.join(ROOT, "tests", "data", f), d)
    li = open(os.path.join(ROOT, "profiles", "li.yaml"), encoding="utf-8").read()
    cases = [("png", "onecolumn", (255, 255, 255)), ("jpg", "onecolumn", (232, 220, 200)),
             ("png", "sidebar", (255, 255, 255)), ("jpg", "compact", (232, 220, 200))]
    for ext, lay, background in cases:
        name = "photo %s in %s" % (ext, lay)
        prof = os.path.join(d, "li-%s.yaml" % ext)
        with open(prof, "w", encoding="utf-8") as f:
            f.write(li.replace("cv:\n", "cv:\n  photo: photo.%s\n" % ext, 1))
        pdf = os.path.join(d, "li-%s-%s.pdf" % (ext, lay))
        rc, _, err = run([BIN, "-l", layout_path(lay), "-o", pdf, prof])
        check("%s: renders with nothing on stderr" % name, rc == 0 and err == "", err)
        rc, dd, _ = dump(prof, layout_path(lay))
        pg = read_dump(dd)[0]
        ims = pg["images"]
        check("%s: one image on page 1" % name, len(ims) == 1 and ims[0]["file"] ==
              "photo." + ext, ims)
        if len(ims) != 1:
            continue
        im = ims[0]
        region = pg["region"]["sidebar" if lay == "sidebar" else "head"]
        check("%s: inside the %s" % (name, "sidebar" if lay == "sidebar" else "header"),
              region[0] - 0.05 <= im["x"] and im["x"] + im["w"] <= region[2] + 0.05 and
              region[1] - 0.05 <= im["y"] and im["y"] + im["h"] <= region[3] + 0.05,
              (im, region))
        check("%s: keeps its aspect ratio" % name, abs(im["h"] / im["w"] - 160 / 120) < 0.01, im)
        # No text on the photo.
        over = [r["text"] for r in pg["runs"] if r["x"] < im["x"] + im["w"] and
                r["x"] + r["w"] > im["x"] and im["y"] < r["y"] < im["y"] + im["h"]]
        check("%s: no text over it" % name, not over, over)
        # Ink: the head is blue, the shoulders navy, the corners the
        # background (transparency flattened on white).
        sx, sy = im["w"] / 120, im["h"] / 160
        at = lambda px, py: pixel(pdf, 1, 144, im["x"] + px * sx, im["y"] + im["h"] - py * sy)
        check("%s: the head is blue" % name, near(at(60, 58), (0x2E, 0x6D, 0xB4)), at(60, 58))
        check("%s: the shoulders are navy" % name, near(at(60, 150), (0x1F, 0x3A, 0x5F)),
              at(60, 150))
        check("%s: the corner is the background" % name, near(at(6, 6), background, 12),
              at(6, 6))
    # Broken photos: an error at the photo: line naming the file, exit 1, no
    # PDF written, an existing PDF untouched.
    png = open(os.path.join(ROOT, "tests", "data", "photo.png"), "rb").read()
    jpg = open(os.path.join(ROOT, "tests", "data", "photo.jpg"), "rb").read()
    bad = {"missing.png": None, "cut.png": png[:len(png) // 2], "cut.jpg": jpg[:len(jpg) // 2],
           "text.jpg": b"not a picture\n", "empty.png": b"", "adir.png": "dir"}
    for fname, data in bad.items():
        path = os.path.join(d, fname)
        if data == "dir":
            os.makedirs(path)
        elif data is not None:
            with open(path, "wb") as f:
                f.write(data)
        prof = os.path.join(d, "bad-%s.yaml" % fname.replace(".", "-"))
        with open(prof, "w", encoding="utf-8") as f:
            f.write("cv:\n  name: A B\n  photo: %s\n" % fname)
        out = os.path.join(d, "bad.pdf")
        with open(out, "wb") as f:
            f.write(b"previous")
        rc, _, err = run([BIN, "-o", out, prof])
        check("photo %s: an error at its line naming the file, exit 1" % fname,
              rc == 1 and re.search(re.escape(prof) + r":3:\d+: error: .*" + re.escape(fname),
                                    err), "rc %d: %s" % (rc, err))
        check("photo %s: the existing PDF is untouched" % fname,
              open(out, "rb").read() == b"previous")



def fill_test():
    """pagination.fill_pages stretches the gaps so every page but the last
    ends at the bottom margin; by default nothing is stretched."""
    he = os.path.join(ROOT, "profiles", "he.yaml")
    lay = write("fill.yaml", "extends: %s\npagination: {fill_pages: true}\n" %
                layout_path("onecolumn"))
    feet = {}
    for name, l in (("default", layout_path("onecolumn")), ("fill", lay)):
        rc, d, err = dump(he, l)
        pages = read_dump(d)
        feet[name] = [min(r["y"] for r in pg["runs"] if inside(r, pg["region"]["main"]))
                      for pg in pages]
    f = feet["fill"]
    check("fill_pages: every page but the last ends on the same baseline",
          len(f) > 2 and max(f[:-1]) - min(f[:-1]) < 0.5, f)
    check("fill_pages: the page count is unchanged", len(f) == len(feet["default"]), feet)
    check("fill_pages: off by default (the pages end where they end)",
          max(feet["default"][:-1]) - min(feet["default"][:-1]) > 2, feet["default"])


def contact_whole_test():
    """Beside a photo the contact line is narrow: an item ("GitHub: name")
    moves to the next line whole, never split after "GitHub:"."""
    d = os.path.join(TMP, "contact")
    os.makedirs(d)
    shutil.copy(os.path.join(ROOT, "tests", "data", "photo.png"), d)
    bad, lines = [], 0
    for k in range(12, 26):
        user = "mzhou-sys" + "x" * k
        prof = os.path.join(d, "c%d.yaml" % k)
        with open(prof, "w", encoding="utf-8") as f:
            f.write("cv:\n  name: Ming Zhou\n  photo: photo.png\n  headline: Systems\n"
                    "  location: Beijing, China\n  email: mingzhou@example.edu\n"
                    "  phone: \"+86 138 0000 0000\"\n  website: https://mzhou.example.org/\n"
                    "  social_networks:\n    - network: GitHub\n      username: %s\n"
                    "    - network: LinkedIn\n      username: ming-zhou-systems\n"
                    "  sections:\n    summary:\n      - I build systems.\n" % user)
        items = ["Beijing, China", "mingzhou@example.edu", "+86 138 0000 0000",
                 "mzhou.example.org", "GitHub: " + user, "LinkedIn: ming-zhou-systems"]
        for lay in ("onecolumn", "compact"):
            rc, out, _ = dump(prof, layout_path(lay))
            pg = read_dump(out)[0]
            head = pg["region"]["head"]
            texts = [r["text"] for r in pg["runs"] if r["size"] < 9.5 and
                     head[1] <= r["y"] <= head[3]]
            lines += len(texts)
            got = [t.strip() for line in texts for t in line.split("\u00b7")]
            if rc != 0 or sorted(got) != sorted(items):
                bad.append("%s, %s: %s" % (lay, user, texts))
    check("contact line: every item whole on one line, beside a photo", not bad and lines,
          bad[:3])


def running_header_bold_keywords_test():
    """The owner's name in bold_keywords: bold in the text, not in the
    running header of page 2."""
    he = open(os.path.join(ROOT, "profiles", "he.yaml"), encoding="utf-8").read()
    assert "bold_keywords" not in he and "\nsettings:" not in he
    prof = write("he-bold.yaml", he.replace("cv:\n", "settings:\n  bold_keywords: [Jiaao He]\n"
                                            "cv:\n", 1))
    rc, out, _ = dump(prof, layout_path("onecolumn"))
    pages = read_dump(out)
    runs = [r for r in pages[1]["runs"] if r["text"] == "Jiaao He"] if len(pages) > 1 else []
    header = [r["line"] for r in runs if r["y"] > 800]
    check("running header: not bold when the name is a bold keyword",
          rc == 0 and header and all(r["font"] == "Lato-Regular" and r["size"] == 8
                                     for r in runs if r["y"] > 800), header)
    check("running header: the keyword is bold in the text", "Lato-Bold 10 #1a1a1a \"Jiaao He\"" in
          out, rc)


def widen_main_test():
    """Sidebar layout: once the sidebar has ended, the main column takes the
    full width (fang's sidebar ends on page 2), the rule stops with the
    sidebar, every word is set once; widen_main: false keeps it narrow."""
    prof = os.path.join(ROOT, "profiles", "fang.yaml")
    lay = layout_path("sidebar")
    narrow = write("sidebar-narrow.yaml", "extends: %s\ncolumns: {sidebar: {widen_main: false}}\n"
                   % lay)
    rc, out, _ = dump(prof, lay, "--explain")
    rc2, out2, _ = dump(prof, narrow)
    pages, pages2 = read_dump(out, other=True), read_dump(out2)
    check("widen_main: fewer pages than with the narrow column",
          rc == 0 and rc2 == 0 and len(pages) < len(pages2), (len(pages), len(pages2)))
    side_pages = [i for i, p in enumerate(pages) if "sidebar" in p["region"]]
    last = max(side_pages) if side_pages else None
    check("widen_main: the sidebar has a region on its pages only",
          side_pages == list(range(last + 1)) and last + 1 < len(pages), side_pages)
    ok = True
    for i, p in enumerate(pages):
        m = p["region"]["main"]
        full = i > last
        ok &= (m[0] < 60) == full                  # the left margin, not the sidebar's edge
        rules = [r for r in p["rules"] if r.x0 == r.x1]      # vertical: the column rule
        ok &= bool(rules) != full
        if full:
            body = [r for r in p["runs"] if m[1] <= r["y"] <= m[3]]
            ok &= max(r["x"] + r["w"] for r in body) - min(r["x"] for r in body) > 400
    check("widen_main: full-width pages after the sidebar, the rule only beside it", ok,
          [p["region"] for p in pages])
    # The letters of the columns (hyphens and spaces aside: lines break
    # elsewhere), not of the running header and footer.
    def letters(o):
        s = "".join(r["text"] for p in read_dump(o, other=True) for r in p["runs"]
                    if any(k in ("main", "sidebar") and g[1] - 1 <= r["y"] <= g[3] + 1
                           for k, g in p["region"].items()))
        return sorted(s.replace("-", "").replace(" ", ""))
    w1, w2 = letters(out), letters(out2)
    check("widen_main: the same text as the narrow column, once",
          w1 == w2, (len(w1), len(w2)))
    check("widen_main: --explain names it",
          "the sidebar has ended, so the main column takes the full width" in out, rc)


def smart_quotes_test():
    """Straight quotes are typographic in the PDF's text (pdftotext reads
    them back so); text.smart_quotes: false keeps them as typed."""
    prof = write("quotes.yaml", "cv:\n  name: Ada\n  sections:\n    about:\n"
                 "      - \"Wrote \\\"Distributed Systems\\\" at d'Informatique.\"\n")
    off = write("quotes-off.yaml", "extends: %s\ntext: {smart_quotes: false}\n"
                % layout_path("onecolumn"))
    pdf = os.path.join(TMP, "quotes.pdf")
    rc, _, err = run([BIN, "-o", pdf, prof])
    text = page_text(pdf, 1) if rc == 0 else err
    check("smart quotes: pdftotext reads the typographic quotes",
          "\u201cDistributed Systems\u201d at d\u2019Informatique" in text, text)
    rc, out, _ = dump(prof, off)
    check("smart quotes: text.smart_quotes: false keeps them straight",
          rc == 0 and '\\"Distributed Systems\\" at d\'Informatique' in out, out[-300:])
    # An address keeps its apostrophe: pat.o'brien@example.com is the
    # address, pat.o’brien@… another (copied from the PDF or the web page,
    # it bounced); the name and the prose still get theirs.
    ob = write("obrien.yaml", "cv:\n  name: Pat O'Brien\n  email: pat.o'brien@example.com\n"
               "  website: https://example.com/o'brien\n  sections:\n    about:\n"
               "      - \"I'm [here](https://example.com/o'brien/x)\"\n")
    pdf = os.path.join(TMP, "obrien.pdf")
    rc, _, err = run([BIN, "-o", pdf, ob])
    text = page_text(pdf, 1) if rc == 0 else err
    check("smart quotes: the email and the website keep their straight apostrophe; the name, "
          "the prose and a link's words do not",
          "pat.o'brien@example.com" in text and "example.com/o'brien" in text and
          "Pat O\u2019Brien" in text and "I\u2019m here" in text, text)
    page = os.path.join(TMP, "obrien.html")
    rc, _, err = run([BIN, "-o", page, ob])
    src = html.unescape(open(page, encoding="utf-8").read()) if rc == 0 else err
    check("smart quotes: the web page's email and website keep it too",
          ">pat.o'brien@example.com</a>" in src and ">example.com/o'brien</a>" in src,
          re.findall(r">[^<]*brien[^<]*<", src, re.I))
    check("smart quotes: the web page's name as the PDF's, O\u2019Brien",
          "<h1>Pat O\u2019Brien</h1>" in src, re.findall(r"<h1>.*?</h1>", src))
    md = os.path.join(TMP, "obrien.md")
    rc, _, err = run([BIN, "-o", md, ob])
    text = open(md, encoding="utf-8").read() if rc == 0 else err
    check("smart quotes: the Markdown's name as the PDF's, O\u2019Brien",
          text.startswith("# Pat O\u2019Brien\n"), text[:200])


DATED = """cv:
  name: Ada
  sections:
    work_history:
      - company: Harborlight
        position: Engineer
        start_date: 2021-02
      - company: Quayside
        position: Engineer
        start_date: 2017-09
        end_date: 2020-06
      - company: Tideway
        position: Advisor
        date: 2023-10
    education:
      - institution: Coimbra
        area: Informatics
        start_date: 2015-09
        end_date: 2017-07
"""


def dates_test():
    """The dates.* keys of a plain layout (no design:) change the dates on
    the page: the date and range templates, time spans in the sections
    named, English month abbreviations; the profile's locale: wins, and a
    layout's template holds in every language."""
    prof = write("dated.yaml", DATED)
    german = write("dated-de.yaml", DATED + "locale:\n  language: german\n")
    german_own = write("dated-de-own.yaml", DATED + "locale:\n  language: german\n"
                       "  date_template: MONTH/YEAR\n  to: bis\n")

    def texts(p, lay, *extra):
        rc, out, err = dump(p, lay, "--date", "2024-05-15", *extra)
        d = read_dump(out) if rc == 0 else []
        return rc, [r["text"] for pg in d for r in pg["runs"]], err

    rc, base, err = texts(prof, layout_path("onecolumn"))
    check("dates: onecolumn's dates are the locale's",
          rc == 0 and "Feb 2021 \u2013 present" in base and
          "Sep 2017 \u2013 Jun 2020" in base and "Oct 2023" in base and
          not any("year" in t for t in base), (err, base))

    lay = write("dates.yaml", "extends: %s\ndates:\n  single: MONTH_NAME YEAR\n"
                "  range: START_DATE until END_DATE\n"
                "  show_time_spans_in: [Work History]\n"
                "  time_span: (HOW_MANY_YEARS YEARS, HOW_MANY_MONTHS MONTHS)\n"
                % layout_path("onecolumn"))
    rc, t, err = texts(prof, lay)
    check("dates.single and dates.range: 'February 2021 until present'",
          rc == 0 and "February 2021 until present" in t and
          "September 2017 until June 2020" in t and "October 2023" in t and
          "September 2015 until July 2017" in t, (err, t))
    check("dates.show_time_spans_in [Work History] and dates.time_span: a span under "
          "each range of work_history, none under a single date or in education",
          "(3 years, 4 months)" in t and "(2 years, 10 months)" in t and
          len([x for x in t if x.startswith("(") and "year" in x]) == 2, t)
    rc, t, err = texts(german, lay)
    check("dates.single holds over the language's own form (German: 'Februar 2021')",
          rc == 0 and any(x.startswith("Februar 2021 until") for x in t), (err, t))
    rc, t, err = texts(german_own, lay)
    check("dates: the profile's locale: date_template and to win over the layout's",
          rc == 0 and "2/2021 bis heute" in t, (err, t))

    lay2 = write("dates2.yaml", "extends: %s\ndates:\n"
                 "  range: END_DATE (since START_DATE)\n"
                 "  english_month_abbreviations: [Jan, Feb, Mar, Apr, May, June, July, Aug,"
                 " Sept, Oct, Nov, Dec]\n" % layout_path("onecolumn"))
    rc, t, err = texts(prof, lay2)
    check("dates.range of another shape and dates.english_month_abbreviations: "
          "'present (since Feb 2021)', 'June 2020 (since Sept 2017)'",
          rc == 0 and "present (since Feb 2021)" in t and "June 2020 (since Sept 2017)" in t,
          (err, t))
    rc, t, err = texts(german, lay2)
    check("dates.english_month_abbreviations: a German profile keeps its own (Juni)",
          rc == 0 and any("Juni 2020" in x for x in t) and not any("June" in x for x in t),
          (err, t))
    bad = write("dates-bad.yaml", "dates:\n  english_month_abbreviations: [Jan, Feb]\n")
    rc, out, err = dump(prof, bad)
    check("dates.english_month_abbreviations of 2 names: an error at its line",
          rc == 1 and "dates-bad.yaml:2:32: error: dates.english_month_abbreviations must "
          "be a list of 12 names" in err, err)


if __name__ == "__main__":
    sys.exit(testlib.main("layouts", [all_layouts_test, sidebar_order_test,
                                      sidebar_sections_test, sidebar_main_test,
                                      furniture_test, fit_test,
                                      explain_test, photo_test, fill_test,
                                      contact_whole_test, running_header_bold_keywords_test,
                                      widen_main_test, smart_quotes_test, dates_test],
                          tmp=TMP))
