#!/usr/bin/env python3
"""A checker of our own for the machine-checkable rules of tagged PDF and
PDF/UA-1 (ISO 14289-1) that cvpdf claims, reading the PDF with pdfminer.

    python3 tests/pdfua_check.py [--pdfua] FILE.pdf...

prints one line per problem ("FILE: RULE: what") and exits 1 if there is
any.  tests/tagged.py calls problems(path, pdfua) for every PDF it makes.
The rules, by the names docs/accessibility.md lists them under:

  tagged       catalog /MarkInfo <</Marked true>> (and not /Suspects true);
               a /StructTreeRoot with /K, a /ParentTree and
               /ParentTreeNextKey above every key used
  content      in every page's content: BDC/BMC and EMC balanced; no text
               (Tj TJ ' ") and no image or form (Do) outside a marked
               sequence with an MCID or an /Artifact one; nothing with an
               MCID inside an artifact; MCIDs unique on a page
  parenttree   each page with MCIDs has /StructParents, and the parent
               tree's array for it names, for every MCID, the element whose
               /K holds that MCID on that page; every element's MCIDs are
               drawn on their page
  elements     every /S is a standard type or role-mapped (without a cycle)
               to one; each element's /P is the element whose /K holds it;
               L holds only LI (or Caption, L), LI only Lbl and LBody
  headings     the first heading is H1 (in each Part) and no level is
               skipped (H1 then H3)
  figures      every Figure has a non-empty /Alt and a Layout /BBox
  annots       every link annotation has /StructParent, the parent tree
               maps it to a Link element whose /K holds an OBJR to it, and
               /Contents; pages with annotations have /Tabs /S
  fonts        every font is embedded (FontFile, FontFile2 or FontFile3)
               and every Type0 font has a /ToUnicode map
  cidset       a CIDFont's /CIDSet lists exactly the CIDs its embedded
               program has (read with fontTools: a CFF program's charset,
               a TrueType program's glyphs through its /CIDToGIDMap),
               whatever made the subset keep them (components of composite
               glyphs, what the CJK subsetter keeps)
  lang         the catalog has a non-empty /Lang, or (a CV book of several
               languages) every Part has one
  pdfua        (--pdfua) XMP metadata with pdfuaid:part 1 and a dc:title;
               Info /Title; /ViewerPreferences /DisplayDocTitle true
"""
import re
import sys

from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdfinterp import PDFContentParser
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser
from pdfminer.pdftypes import PDFObjRef, PDFStream, resolve1
from pdfminer.psparser import PSKeyword, PSLiteral

# ISO 32000-1, 14.8.4.
STANDARD = set("""Document Part Art Sect Div BlockQuote Caption TOC TOCI Index NonStruct
Private P H H1 H2 H3 H4 H5 H6 L LI Lbl LBody Table TR TH TD THead TBody TFoot Span Quote
Note Reference BibEntry Code Link Annot Ruby RB RT RP Warichu WT WP Figure Formula
Form""".split())


def name(v):
    v = resolve1(v)
    if isinstance(v, PSLiteral):
        n = v.name
        return n.decode("latin-1") if isinstance(n, bytes) else n
    if isinstance(v, bytes):
        return v.decode("latin-1")
    return v


def text(v):
    """A PDF text string as str (UTF-16 with a BOM, or PDFDocEncoding ~ Latin-1)."""
    v = resolve1(v)
    if isinstance(v, bytes):
        if v.startswith(b"\xfe\xff"):
            return v[2:].decode("utf-16-be", "replace")
        return v.decode("latin-1")
    return v if isinstance(v, str) else None


def objid(v):
    return v.objid if isinstance(v, PDFObjRef) else id(v)


def as_list(v):
    """An array's items, or a single object as a list of one; references
    to dictionaries are kept as references (their object number counts)."""
    r = resolve1(v)
    if r is None:
        return []
    if isinstance(r, list):
        return r
    return [v]


class Checker:
    def __init__(self, path, pdfua):
        self.path = path
        self.pdfua = pdfua
        self.errs = []
        f = open(path, "rb")
        self.doc = PDFDocument(PDFParser(f))
        self.cat = self.doc.catalog
        self.pages = list(PDFPage.create_pages(self.doc))

    def err(self, rule, msg):
        self.errs.append((rule, msg))

    # -- the structure tree -------------------------------------------
    def walk(self):
        """Every element: (ref, dict, parent ref); also the MCIDs each
        element holds per page {(page objid, mcid): element objid}."""
        root = resolve1(self.cat.get("StructTreeRoot"))
        self.elems = []
        self.mcr = {}
        self.objr = {}
        if not isinstance(root, dict):
            return
        rolemap = resolve1(root.get("RoleMap")) or {}
        self.rolemap = {k: name(v) for k, v in rolemap.items()}
        stack = [(k, None, None) for k in as_list(root.get("K"))]
        seen = set()
        while stack:
            ref, parent, ppg = stack.pop(0)
            d = resolve1(ref)
            if not isinstance(d, dict):
                continue
            oid = objid(ref)
            if oid in seen:
                self.err("elements", "element %s is reached twice" % oid)
                continue
            seen.add(oid)
            self.elems.append((oid, d, parent))
            pg = d.get("Pg", ppg)
            kids = []
            for k in as_list(d.get("K")):
                kv = resolve1(k)
                if isinstance(kv, int):
                    self.mcr.setdefault((objid(pg), kv), []).append(oid)
                elif isinstance(kv, dict) and name(kv.get("Type")) == "MCR":
                    self.mcr.setdefault((objid(kv.get("Pg", pg)), resolve1(kv.get("MCID"))),
                                        []).append(oid)
                elif isinstance(kv, dict) and name(kv.get("Type")) == "OBJR":
                    self.objr[objid(kv.get("Obj"))] = oid
                elif isinstance(kv, dict):
                    kids.append((k, oid, pg))
            stack[0:0] = kids
        self.by_id = {oid: (d, parent) for oid, d, parent in self.elems}

    def role(self, s):
        seen = set()
        while s not in STANDARD:
            if s in seen or s not in self.rolemap:
                return None
            seen.add(s)
            s = self.rolemap[s]
        return s

    def check_tagged(self):
        mi = resolve1(self.cat.get("MarkInfo")) or {}
        if resolve1(mi.get("Marked")) is not True:
            self.err("tagged", "no /MarkInfo <</Marked true>>")
        if resolve1(mi.get("Suspects")) is True:
            self.err("tagged", "/Suspects true")
        root = resolve1(self.cat.get("StructTreeRoot"))
        if not isinstance(root, dict) or not root.get("K"):
            self.err("tagged", "no /StructTreeRoot with /K")
            return
        pt = resolve1(root.get("ParentTree"))
        self.ptree = {}
        if not isinstance(pt, dict):
            self.err("tagged", "no /ParentTree")
            return
        # A flat number tree, or one with /Kids.
        todo = [pt]
        while todo:
            n = resolve1(todo.pop())
            nums = resolve1(n.get("Nums")) or []
            for i in range(0, len(nums) - 1, 2):
                self.ptree[resolve1(nums[i])] = nums[i + 1]
            todo.extend(as_list(n.get("Kids")))
        nk = resolve1(root.get("ParentTreeNextKey"))
        if self.ptree and (not isinstance(nk, int) or nk <= max(self.ptree)):
            self.err("tagged", "/ParentTreeNextKey %r is not above the keys used" % nk)

    def check_elements(self):
        heads = {}
        for oid, d, parent in self.elems:
            s = name(d.get("S"))
            std = self.role(s)
            if not std:
                self.err("elements", "type %r is neither standard nor role-mapped to one" % s)
            p = d.get("P")
            if parent is not None and objid(p) != parent:
                self.err("elements", "a %s's /P is not the element holding it" % s)
            kids = [resolve1(k) for k in as_list(d.get("K"))]
            kid_types = [self.role(name(k.get("S"))) for k in kids
                         if isinstance(k, dict) and "S" in k]
            if std == "L" and any(t not in ("LI", "Caption", "L") for t in kid_types):
                self.err("elements", "an L holds %s" % kid_types)
            if std == "LI" and any(t not in ("Lbl", "LBody") for t in kid_types):
                self.err("elements", "an LI holds %s" % kid_types)
            if std == "Figure" and not (text(d.get("Alt")) or "").strip():
                self.err("figures", "a Figure without /Alt")
            attrs = [resolve1(x) for x in as_list(d.get("A"))]
            if std == "Figure" and not any(isinstance(x, dict) and name(x.get("O")) == "Layout"
                                           and len(resolve1(x.get("BBox")) or []) == 4
                                           for x in attrs):
                self.err("figures", "a Figure without a Layout /BBox")
            # Headings, per Part (or the document).
            if std and re.fullmatch(r"H[1-6]", std):
                part = oid
                while part is not None and self.role(name(self.by_id[part][0].get("S"))) \
                        not in ("Part", "Document"):
                    part = self.by_id[part][1]
                heads.setdefault(part, []).append(int(std[1]))
        for part, levels in heads.items():
            if levels[0] != 1:
                self.err("headings", "the first heading is H%d" % levels[0])
            for a, b in zip(levels, levels[1:]):
                if b > a + 1:
                    self.err("headings", "H%d follows H%d" % (b, a))

    # -- content -------------------------------------------------------
    def check_content(self):
        for pno, page in enumerate(self.pages, 1):
            pid = page.pageid
            ops = PDFContentParser(page.contents)
            stack = []          # ("art" | "mc" | "other")
            mcids = set()
            bad_text = bad_do = 0
            operands = []
            while True:
                try:
                    _, obj = ops.nextobject()
                except Exception:
                    break
                if not isinstance(obj, PSKeyword):
                    operands.append(obj)
                    continue
                op = obj.name.decode("latin-1") if isinstance(obj.name, bytes) else obj.name
                if op == "BI":          # inline image: skip to EI (cvpdf writes none)
                    operands = []
                    continue
                if op in ("BMC", "BDC"):
                    tag = name(operands[0]) if operands else None
                    props = resolve1(operands[1]) if op == "BDC" and len(operands) > 1 else {}
                    mcid = props.get("MCID") if isinstance(props, dict) else None
                    if tag == "Artifact":
                        stack.append("art")
                    elif mcid is not None:
                        if "art" in stack:
                            self.err("content", "page %d: MCID %d inside an artifact" % (pno, mcid))
                        if mcid in mcids:
                            self.err("content", "page %d: MCID %d used twice" % (pno, mcid))
                        mcids.add(mcid)
                        stack.append("mc")
                    else:
                        stack.append("other")
                elif op == "EMC":
                    if not stack:
                        self.err("content", "page %d: EMC without BMC/BDC" % pno)
                    else:
                        stack.pop()
                elif op in ("Tj", "TJ", "'", '"'):
                    if "art" not in stack and "mc" not in stack:
                        bad_text += 1
                elif op == "Do":
                    if "art" not in stack and "mc" not in stack:
                        bad_do += 1
                operands = []
            if stack:
                self.err("content", "page %d: %d marked sequences not closed" % (pno, len(stack)))
            if bad_text:
                self.err("content", "page %d: %d text operators neither tagged nor artifacts"
                         % (pno, bad_text))
            if bad_do:
                self.err("content", "page %d: %d images neither tagged nor artifacts"
                         % (pno, bad_do))
            self.check_parents(pno, page, mcids)

    def check_parents(self, pno, page, mcids):
        pid = page.pageid
        held = {m: e for (p, m), e in self.mcr.items() if p == pid}
        for m in mcids:
            if m not in held:
                self.err("parenttree", "page %d: MCID %d is in no element" % (pno, m))
            elif len(held[m]) > 1:
                self.err("parenttree", "page %d: MCID %d is in %d elements" % (pno, m, len(held[m])))
        for m in held:
            if m not in mcids:
                self.err("parenttree", "page %d: an element holds MCID %d, not drawn" % (pno, m))
        if not mcids:
            return
        sp = resolve1(page.attrs.get("StructParents"))
        if not isinstance(sp, int) or sp not in self.ptree:
            self.err("parenttree", "page %d: no /StructParents in the parent tree" % pno)
            return
        arr = as_list(self.ptree[sp])
        for m in mcids:
            if m >= len(arr) or m not in held or objid(arr[m]) != held[m][0]:
                self.err("parenttree", "page %d: the parent tree's entry for MCID %d is not "
                         "its element" % (pno, m))

    # -- annotations, fonts, language, PDF/UA ---------------------------
    def check_annots(self):
        for pno, page in enumerate(self.pages, 1):
            annots = as_list(page.attrs.get("Annots"))
            if annots and name(page.attrs.get("Tabs")) != "S":
                self.err("annots", "page %d has annotations and no /Tabs /S" % pno)
            for ref in annots:
                a = resolve1(ref)
                if name(a.get("Subtype")) != "Link":
                    continue
                sp = resolve1(a.get("StructParent"))
                e = self.ptree.get(sp) if isinstance(sp, int) else None
                if e is None:
                    self.err("annots", "page %d: a link without /StructParent" % pno)
                    continue
                ed = resolve1(e)
                if self.role(name(ed.get("S"))) != "Link":
                    self.err("annots", "page %d: a link's element is a %s" % (pno, name(ed.get("S"))))
                if self.objr.get(objid(ref)) != objid(e):
                    self.err("annots", "page %d: a link's element has no OBJR to it" % pno)
                if not (text(a.get("Contents")) or "").strip():
                    self.err("annots", "page %d: a link without /Contents" % pno)

    def check_fonts(self):
        seen = set()
        for page in self.pages:
            res = resolve1(page.resources) or {}
            for ref in (resolve1(res.get("Font")) or {}).values():
                if objid(ref) in seen:
                    continue
                seen.add(objid(ref))
                f = resolve1(ref)
                fonts = [f] + [resolve1(x) for x in as_list(f.get("DescendantFonts"))]
                desc = [resolve1(x.get("FontDescriptor")) for x in fonts if x.get("FontDescriptor")]
                if not any(d.get(k) for d in desc for k in ("FontFile", "FontFile2", "FontFile3")):
                    self.err("fonts", "font %s is not embedded" % name(f.get("BaseFont")))
                if name(f.get("Subtype")) == "Type0" and not f.get("ToUnicode"):
                    self.err("fonts", "font %s has no /ToUnicode" % name(f.get("BaseFont")))
                for cidfont in fonts[1:]:
                    why = cidset_problem(cidfont)
                    if why:
                        self.err("cidset", "font %s: %s" % (name(cidfont.get("BaseFont")), why))

    def check_lang(self):
        if (text(self.cat.get("Lang")) or "").strip():
            return
        parts = [d for _, d, _ in self.elems if name(d.get("S")) == "Part"]
        if not parts or any(not (text(d.get("Lang")) or "").strip() for d in parts):
            self.err("lang", "no /Lang in the catalog (nor on every Part)")

    def check_pdfua(self):
        md = resolve1(self.cat.get("Metadata"))
        xmp = md.get_data().decode("utf-8", "replace") if isinstance(md, PDFStream) else ""
        if not re.search(r"<pdfuaid:part>\s*1\s*</pdfuaid:part>|pdfuaid:part=\"1\"", xmp):
            self.err("pdfua", "no pdfuaid:part 1 in the XMP metadata")
        if not re.search(r"<dc:title>.*?<rdf:li[^>]*>[^<]+</rdf:li>", xmp, re.S):
            self.err("pdfua", "no dc:title in the XMP metadata")
        info = resolve1(self.doc.info[0]) if self.doc.info else {}
        if not (text(info.get("Title")) or "").strip():
            self.err("pdfua", "no Info /Title")
        vp = resolve1(self.cat.get("ViewerPreferences")) or {}
        if resolve1(vp.get("DisplayDocTitle")) is not True:
            self.err("pdfua", "no /ViewerPreferences /DisplayDocTitle true")

    def run(self):
        self.ptree = {}
        self.walk()
        self.check_tagged()
        self.check_elements()
        self.check_content()
        self.check_annots()
        self.check_fonts()
        self.check_lang()
        if self.pdfua:
            self.check_pdfua()
        return self.errs


def program_cids(cidfont):
    """The CIDs the embedded program of a CIDFont has, read with fontTools:
    a FontFile3 (CFF) program's charset CIDs; a FontFile2 (TrueType)
    program's glyph ids below its maxp glyph count, through the
    /CIDToGIDMap (a stream: every CID whose glyph the program has).  None
    when the font has no program of these kinds."""
    import io
    from fontTools.cffLib import CFFFontSet
    from fontTools.ttLib import TTFont
    desc = resolve1(cidfont.get("FontDescriptor")) or {}
    ff2, ff3 = resolve1(desc.get("FontFile2")), resolve1(desc.get("FontFile3"))
    if isinstance(ff3, PDFStream):
        cff = CFFFontSet()
        cff.decompile(io.BytesIO(ff3.get_data()), None)
        top = cff[cff.fontNames[0]]
        cids = set()
        for g in top.charset:
            cids.add(int(g[3:]) if g.startswith("cid") else (0 if g == ".notdef" else None))
        if None in cids:                    # a name-keyed CFF: CIDs are glyph ids
            cids = set(range(len(top.charset)))
        return cids
    if isinstance(ff2, PDFStream):
        n = TTFont(io.BytesIO(ff2.get_data()), lazy=True)["maxp"].numGlyphs
        gmap = resolve1(cidfont.get("CIDToGIDMap"))
        if isinstance(gmap, PDFStream):
            b = gmap.get_data()
            return {c for c in range(len(b) // 2) if (b[2 * c] << 8 | b[2 * c + 1]) < n}
        return set(range(n))
    return None


def cidset_problem(cidfont):
    """Why a CIDFont's /CIDSet is not exactly the CIDs of its program
    (PDF/A-2 6.2.11.4.2, PDF/UA-1 7.21.4.2), or None."""
    desc = resolve1(cidfont.get("FontDescriptor")) or {}
    cs = resolve1(desc.get("CIDSet"))
    if not isinstance(cs, PDFStream):
        return None
    data = cs.get_data()
    listed = {i for i in range(len(data) * 8) if data[i // 8] & (0x80 >> (i % 8))}
    have = program_cids(cidfont)
    if have is None:
        return "a /CIDSet but no FontFile2 or FontFile3 to hold its glyphs"
    if listed != have:
        return "CIDSet lists %d CIDs, the program has %d (missing %s, extra %s)" % (
            len(listed), len(have), sorted(have - listed)[:10], sorted(listed - have)[:10])
    return None


def problems(path, pdfua=False):
    """[(rule, message)] for the PDF at `path`; [] when it passes."""
    return Checker(path, pdfua).run()


if __name__ == "__main__":
    args = sys.argv[1:]
    ua = "--pdfua" in args
    bad = 0
    for p in [a for a in args if a != "--pdfua"]:
        for rule, msg in problems(p, ua):
            print("%s: %s: %s" % (p, rule, msg))
            bad += 1
    sys.exit(1 if bad else 0)
