/* Unit tests for pdf_tags.c: the structure tree built in a libharu
 * document, read back from the bytes libharu writes -- elements in reading order (the
 * `last` node after its siblings), empty ones left out, MCIDs per page in
 * the parent tree, Link elements with their annotation, Spans with /Lang,
 * the role map, /MarkInfo, /Tabs, and a book's Parts. */
#include "harness.h"

#include <string.h>

#include <hpdf.h>
#include <hpdf_objects.h>
#include <hpdf_pages.h>

#include "pdf_tags.h"

/* The document as libharu writes it, read back by a small reader of
 * PDF objects: the tree is checked in the bytes written, not in libharu's
 * objects (most of an element's entries are written by pdf_tags.c's own
 * write functions). */
typedef struct val val;
struct val {
    char k;                  /* 'd' dict, 'a' array, 'n' name, 'i' integer,
                                'f' real, 'r' reference, 's' string,
                                'b' boolean, 'z' null */
    const char *s;           /* a name's, a string's or a real's text */
    long i;                  /* an integer; a reference's object number */
    long o;                  /* the object number of an indirect object */
    const char **key;        /* a dictionary's keys */
    val **v;                 /* its values, or an array's */
    size_t n;
};

static struct {
    char *s;
    size_t n;
    cv_arena *a;
} doc;

static void save(HPDF_Doc pdf, cv_arena *a)
{
    CHECK(HPDF_SaveToStream(pdf) == HPDF_OK);
    HPDF_UINT32 n = HPDF_GetStreamSize(pdf);
    doc.s = cv_arena_alloc(a, (size_t)n + 1);
    HPDF_ResetStream(pdf);
    HPDF_STATUS r = HPDF_ReadFromStream(pdf, (HPDF_BYTE *)doc.s, &n);
    CHECK(r == HPDF_OK || r == HPDF_STREAM_EOF);
    doc.n = n;
    doc.a = a;
}

static bool ws(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0;
}

static bool delim(char c)
{
    return ws(c) || strchr("()<>[]{}/%", c);
}

static void skip(const char **p, const char *e)
{
    while (*p < e && ws(**p))
        (*p)++;
}

static val *mk(char k)
{
    val *v = cv_arena_alloc(doc.a, sizeof *v);
    memset(v, 0, sizeof *v);
    v->k = k;
    return v;
}

static void push(val *to, const char *key, val *v)
{
    const char **keys = cv_arena_alloc(doc.a, (to->n + 1) * sizeof *keys);
    val **vals = cv_arena_alloc(doc.a, (to->n + 1) * sizeof *vals);
    if (to->n) {
        memcpy(keys, to->key, to->n * sizeof *keys);
        memcpy(vals, to->v, to->n * sizeof *vals);
    }
    keys[to->n] = key;
    vals[to->n++] = v;
    to->key = keys;
    to->v = vals;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                          : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static val *parse(const char **p, const char *e)
{
    skip(p, e);
    if (*p >= e)
        return NULL;
    const char *q = *p;
    if (q + 1 < e && q[0] == '<' && q[1] == '<') {
        val *d = mk('d');
        *p += 2;
        for (;;) {
            skip(p, e);
            if (*p + 1 < e && (*p)[0] == '>' && (*p)[1] == '>') {
                *p += 2;
                return d;
            }
            val *k = parse(p, e);
            val *v = k && k->k == 'n' ? parse(p, e) : NULL;
            if (!v)
                return NULL;
            push(d, k->s, v);
        }
    }
    if (*q == '[') {
        val *a = mk('a');
        (*p)++;
        for (;;) {
            skip(p, e);
            if (*p < e && **p == ']') {
                (*p)++;
                return a;
            }
            val *v = parse(p, e);
            if (!v)
                return NULL;
            push(a, NULL, v);
        }
    }
    if (*q == '<' || *q == '(') {
        char *t = cv_arena_alloc(doc.a, (size_t)(e - q) + 1), *o = t;
        if (*q == '<') {
            for (q++; q < e && *q != '>'; q += 2)
                *o++ = (char)(hexval(q[0]) * 16 + hexval(q[1]));
            q++;
        } else {
            int depth = 0;
            for (; q < e; q++) {
                if (*q == '\\' && q + 3 < e && q[1] >= '0' && q[1] <= '7') {
                    *o++ = (char)((q[1] - '0') * 64 + (q[2] - '0') * 8 + (q[3] - '0'));
                    q += 3;
                } else if (*q == '\\') {
                    q++;
                    *o++ = *q == 'n' ? '\n' : *q == 'r' ? '\r' : *q;
                } else if (*q == '(' && depth++ == 0) {
                    continue;
                } else if (*q == ')' && --depth == 0) {
                    q++;
                    break;
                } else {
                    *o++ = *q;
                }
            }
        }
        *o = 0;
        val *v = mk('s');
        v->s = t;
        v->i = o - t;
        *p = q;
        return v;
    }
    const char *t = q + (*q == '/');
    while (t < e && !delim(*t))
        t++;
    char *w = cv_arena_alloc(doc.a, (size_t)(t - q) + 1);
    memcpy(w, q, (size_t)(t - q));
    *p = t;
    if (*q == '/') {
        val *v = mk('n');
        v->s = w + 1;
        return v;
    }
    if (!strcmp(w, "true") || !strcmp(w, "false")) {
        val *v = mk('b');
        v->s = w;
        return v;
    }
    if (!strcmp(w, "null"))
        return mk('z');
    char *end;
    long n = strtol(w, &end, 10);
    if (*end) {
        val *v = mk('f');
        v->s = w;
        return v;
    }
    /* "N G R" */
    const char *r = *p;
    char *gend;
    skip(&r, e);
    strtol(r, &gend, 10);
    if (gend > r) {
        const char *rr = gend;
        skip(&rr, e);
        if (rr < e && *rr == 'R' && (rr + 1 == e || delim(rr[1]))) {
            *p = rr + 1;
            val *v = mk('r');
            v->i = n;
            return v;
        }
    }
    val *v = mk('i');
    v->i = n;
    return v;
}

/* Object `num` as written. */
static val *obj(long num)
{
    char pat[32];
    int k = snprintf(pat, sizeof pat, "\n%ld 0 obj", num);
    const char *at = memmem(doc.s, doc.n, pat, (size_t)k);
    if (!at)
        return NULL;
    const char *p = at + k;
    val *v = parse(&p, doc.s + doc.n);
    if (v)
        v->o = num;
    return v;
}

static long num_of(const void *o)
{
    return (long)(((const HPDF_Obj_Header *)o)->obj_id & 0x00FFFFFF);
}

static val *deref(val *v)
{
    return v && v->k == 'r' ? obj(v->i) : v;
}

/* The value of `key` in d, through a reference. */
static val *item(val *d, const char *key)
{
    for (size_t i = 0; d && d->k == 'd' && i < d->n; i++)
        if (!strcmp(d->key[i], key))
            return deref(d->v[i]);
    return NULL;
}

static char cls(val *v)
{
    return v ? v->k : 0;
}

static const char *name_of(val *d, const char *key)
{
    val *n = item(d, key);
    return n && n->k == 'n' ? n->s : "";
}

/* Kid i of /K (an array, or one object as kid 0). */
static val *kid(val *d, size_t i, size_t *n)
{
    val *k = item(d, "K");
    if (cls(k) == 'a') {
        *n = k->n;
        return i < *n ? deref(k->v[i]) : NULL;
    }
    *n = k ? 1 : 0;
    return i == 0 ? k : NULL;
}

static const char *kid_type(val *d, size_t i)
{
    size_t n;
    val *k = kid(d, i, &n);
    return cls(k) == 'd' ? name_of(k, "S") : "";
}

/* Document > Header > H1; Sidebar (read last) > P; Sect > H2, P (empty),
 * P with a link and a span in Chinese.  Two pages. */
TEST(one_resume)
{
    HPDF_Doc pdf = HPDF_New(NULL, NULL);
    cv_arena *a = cv_arena_new();
    cv_tags *t = cv_tags_new(a, "en");
    int head = cv_tags_add(a, t, CV_TAG_ROOT, "Header");
    int h1 = cv_tags_add(a, t, head, "H1");
    int side = cv_tags_add(a, t, CV_TAG_ROOT, "Sidebar");
    t->nodes[side].last = true;
    int sp = cv_tags_add(a, t, side, "P");
    int sect = cv_tags_add(a, t, CV_TAG_ROOT, "Sect");
    int h2 = cv_tags_add(a, t, sect, "H2");
    int empty = cv_tags_add(a, t, sect, "P");
    int p = cv_tags_add(a, t, sect, "P");
    int fig = cv_tags_add(a, t, sect, "Figure");
    t->nodes[fig].alt = "Ada Lovelace";
    (void)empty;

    cv_pdftags *pt = cv_pdftags_new(pdf, false);
    cv_pdftags_begin(pt, t, "en");
    HPDF_Page p1 = HPDF_AddPage(pdf), p2;
    cv_pdftags_page(pt, p1);
    const char *type;
    CHECK(cv_pdftags_mc(pt, h1, -1, NULL, &type) == 0 && !strcmp(type, "H1"));
    CHECK(cv_pdftags_mc(pt, sp, -1, NULL, &type) == 1 && !strcmp(type, "P"));
    CHECK(cv_pdftags_mc(pt, h2, -1, NULL, &type) == 2);
    CHECK(cv_pdftags_mc(pt, p, -1, NULL, &type) == 3);
    CHECK(cv_pdftags_mc(pt, p, 0, NULL, &type) == 4 && !strcmp(type, "Link"));
    CHECK(cv_pdftags_mc(pt, p, 0, NULL, &type) == 5 && !strcmp(type, "Link"));
    CHECK(cv_pdftags_mc(pt, p, -1, "zh", &type) == 6 && !strcmp(type, "Span"));
    CHECK(cv_pdftags_mc(pt, p, -1, "zh", &type) == 7);     /* the same Span */
    HPDF_Rect r = {0, 0, 10, 10};
    HPDF_Annotation an = HPDF_Page_CreateURILinkAnnot(p1, r, "https://x.org");
    CHECK(cv_pdftags_annot(pt, 0, an, "x.org"));
    p2 = HPDF_AddPage(pdf);
    cv_pdftags_page(pt, p2);
    CHECK(cv_pdftags_mc(pt, p, -1, NULL, &type) == 0);      /* MCIDs from 0 again */
    CHECK(cv_pdftags_mc(pt, fig, -1, NULL, &type) == 1 && !strcmp(type, "Figure"));
    cv_pdftags_bbox(pt, fig, 10, 20, 110, 140);
    CHECK(cv_pdftags_finish(pt));

    save(pdf, a);
    val *cat = obj(num_of(pdf->catalog));
    val *root = item(cat, "StructTreeRoot");
    CHECK(root && !strcmp(name_of(root, "Type"), "StructTreeRoot"));
    val *mark = item(cat, "MarkInfo");
    CHECK(mark && cls(item(mark, "Marked")) == 'b');
    size_t n;
    val *doc_ = kid(root, 0, &n);
    CHECK(n == 1 && doc_ && !strcmp(name_of(doc_, "S"), "Document"));
    /* /Type, /S, /P: the root. */
    CHECK(doc_ && !strcmp(name_of(doc_, "Type"), "StructElem") && doc_->n > 2 &&
          !strcmp(doc_->key[2], "P") && doc_->v[2]->k == 'r' && doc_->v[2]->i == root->o);
    /* Header, Sect, then the Sidebar (read last). */
    CHECK(!strcmp(kid_type(doc_, 0), "Header"));
    CHECK(!strcmp(kid_type(doc_, 1), "Sect"));
    CHECK(!strcmp(kid_type(doc_, 2), "Sidebar"));
    /* The Sect: H2, the P (the empty one left out), the Figure. */
    val *s = kid(doc_, 1, &n);
    CHECK(n == 3 && !strcmp(kid_type(s, 0), "H2") && !strcmp(kid_type(s, 1), "P") &&
          !strcmp(kid_type(s, 2), "Figure"));
    val *pp = kid(s, 1, &n);
    /* MCID 3, the Link, the Span, MCID 0 of page 2 (an MCR). */
    val *k0 = kid(pp, 0, &n);
    CHECK(n == 4 && cls(k0) == 'i' && k0->i == 3);
    CHECK(!strcmp(kid_type(pp, 1), "Link") && !strcmp(kid_type(pp, 2), "Span"));
    val *mcr = kid(pp, 3, &n);
    val *mcr_pg = item(mcr, "Pg"), *mcid = item(mcr, "MCID");
    CHECK(cls(mcr) == 'd' && !strcmp(name_of(mcr, "Type"), "MCR") && mcr_pg &&
          mcr_pg->o == num_of(p2) && mcid && mcid->k == 'i' && mcid->i == 0);
    val *pp_pg = item(pp, "Pg"), *pp_p = item(pp, "P");
    CHECK(pp_pg && pp_pg->o == num_of(p1) && pp_p && s && pp_p->o == s->o);
    val *link = kid(pp, 1, &n);
    /* Two MCIDs and the annotation's OBJR. */
    val *objr = kid(link, 2, &n);
    CHECK(n == 3);
    val *objr_obj = item(objr, "Obj");
    CHECK(cls(objr) == 'd' && !strcmp(name_of(objr, "Type"), "OBJR") && objr_obj &&
          objr_obj->o == num_of(an));
    val *span = kid(pp, 2, &n);
    val *lang = item(span, "Lang");
    CHECK(lang && lang->k == 's' && !strcmp(lang->s, "zh"));
    val *figd = kid(s, 2, &n);
    val *alt = item(figd, "Alt");
    CHECK(alt && alt->k == 's' && !strcmp(alt->s, "Ada Lovelace"));
    val *attr = item(figd, "A");
    val *box = attr ? item(attr, "BBox") : NULL;
    CHECK(attr && !strcmp(name_of(attr, "O"), "Layout") && box && box->k == 'a' && box->n == 4);
    CHECK(box && box->n == 4 && box->v[0]->i == 10 && box->v[1]->i == 20 &&
          box->v[2]->i == 110 && box->v[3]->i == 140);
    /* The annotation: in the parent tree, described. */
    val *and_ = obj(num_of(an));
    CHECK(cls(item(and_, "StructParent")) == 'i' && item(and_, "Contents"));
    /* Pages: /StructParents 0 and 1, /Tabs /S; the annotation's key 2. */
    val *pg1 = obj(num_of(p1)), *pg2 = obj(num_of(p2));
    val *k1 = item(pg1, "StructParents"), *k2 = item(pg2, "StructParents");
    val *ka = item(and_, "StructParent");
    CHECK(k1 && k2 && ka && k1->i == 0 && k2->i == 1 && ka->i == 2);
    CHECK(!strcmp(name_of(pg1, "Tabs"), "S") && !strcmp(name_of(pg2, "Tabs"), "S"));
    val *ptree = item(root, "ParentTree");
    val *nums = item(ptree, "Nums");
    CHECK(nums && nums->k == 'a' && nums->n == 6);
    val *arr1 = nums && nums->n == 6 ? deref(nums->v[1]) : NULL;
    CHECK(arr1 && arr1->k == 'a' && arr1->n == 8 && arr1->v[4]->k == 'r' && link &&
          arr1->v[4]->i == link->o && arr1->v[3]->i == pp->o);
    CHECK(nums && nums->n == 6 && nums->v[0]->i == 0 && nums->v[2]->i == 1 &&
          nums->v[4]->i == 2 && nums->v[5]->k == 'r' && nums->v[5]->i == link->o);
    val *next = item(root, "ParentTreeNextKey");
    CHECK(next && next->i == 3);
    val *rm = item(root, "RoleMap");
    CHECK(rm && !strcmp(name_of(rm, "Sidebar"), "Sect") && !strcmp(name_of(rm, "Header"), "Sect"));
    CHECK(rm && !item(rm, "P"));
    cv_pdftags_free(pt);
    cv_arena_free(a);
    HPDF_Free(pdf);
}

/* A book: one Document, a Part per résumé with its /Lang. */
TEST(book)
{
    HPDF_Doc pdf = HPDF_New(NULL, NULL);
    cv_arena *a = cv_arena_new();
    cv_pdftags *pt = cv_pdftags_new(pdf, true);
    const char *langs[] = {"en", "zh"};
    for (int i = 0; i < 2; i++) {
        cv_tags *t = cv_tags_new(a, langs[i]);
        int h = cv_tags_add(a, t, CV_TAG_ROOT, "H1");
        cv_pdftags_begin(pt, t, langs[i]);
        cv_pdftags_page(pt, HPDF_AddPage(pdf));
        const char *type;
        CHECK(cv_pdftags_mc(pt, h, -1, NULL, &type) == 0);
    }
    CHECK(cv_pdftags_finish(pt));
    save(pdf, a);
    val *cat = obj(num_of(pdf->catalog));
    val *root = item(cat, "StructTreeRoot");
    size_t n;
    val *doc_ = kid(root, 0, &n);
    CHECK(n == 1 && !strcmp(name_of(doc_, "S"), "Document"));
    for (size_t i = 0; i < 2; i++) {
        val *part = kid(doc_, i, &n);
        CHECK(n == 2 && part && !strcmp(name_of(part, "S"), "Part"));
        val *l = item(part, "Lang");
        CHECK(l && l->k == 's' && !strcmp(l->s, langs[i]));
        CHECK(!strcmp(kid_type(part, 0), "H1"));
    }
    /* No own types: no role map. */
    CHECK(!item(root, "RoleMap"));
    cv_pdftags_free(pt);
    cv_arena_free(a);
    HPDF_Free(pdf);
}

/* Nothing drawn in the structure: no tree at all. */
TEST(nothing_tagged)
{
    HPDF_Doc pdf = HPDF_New(NULL, NULL);
    cv_arena *a = cv_arena_new();
    cv_tags *t = cv_tags_new(a, "en");
    cv_tags_add(a, t, CV_TAG_ROOT, "P");
    cv_pdftags *pt = cv_pdftags_new(pdf, false);
    cv_pdftags_begin(pt, t, "en");
    cv_pdftags_page(pt, HPDF_AddPage(pdf));
    CHECK(cv_pdftags_finish(pt));
    save(pdf, a);
    val *cat = obj(num_of(pdf->catalog));
    CHECK(cat && !item(cat, "StructTreeRoot") && !item(cat, "MarkInfo"));
    cv_pdftags_free(pt);
    cv_pdftags_free(NULL);
    cv_arena_free(a);
    HPDF_Free(pdf);
}

int main(void)
{
    RUN(one_resume);
    RUN(book);
    RUN(nothing_tagged);
    return harness_report("pdf_tags");
}
