/* pdf_tags.c - the structure tree of a tagged PDF.  See pdf_tags.h.
 *
 * While the pages are drawn, the tree is kept here, in plain C: one
 * element per structure node of each résumé (plus the Link and Span
 * elements that drawing makes), each with its kids in reading order:
 * child elements, marked-content references (page, MCID) and object
 * references to link annotations.  A container's children are put in when
 * the résumé begins, in the order of tags.h; a leaf's content as it is
 * drawn, which is its reading order (flow.c draws an item's lines from the
 * top, each from the left).  Only at the end are the PDF objects made:
 * elements with no content anywhere beneath them are left out, so a
 * section title that set no line or an entry with nothing drawn leaves no
 * empty element.
 */
#include "pdf_tags.h"
#include "arena.h"
#include "pdf_meta.h"

#include <stdlib.h>
#include <string.h>

#include <hpdf_doc.h>
#include <hpdf_objects.h>
#include <hpdf_pages.h>
#include <hpdf_utils.h>

/* Grow arr (n used, cap allocated) to take one more. */
#define GROW(arr, n, cap)                                                    \
    do {                                                                     \
        if ((n) == (cap)) {                                                  \
            (cap) = (cap) ? (cap) * 2 : 8;                                   \
            (arr) = cv_xrealloc((arr), (cap) * sizeof *(arr));               \
        }                                                                    \
    } while (0)

enum { K_ELEM, K_MCR, K_OBJR };

typedef struct kid {
    int kind;
    int v;                   /* K_ELEM: an element; K_MCR: an MCID */
    size_t page;             /* K_MCR: index in pt->pages */
    HPDF_Annotation an;      /* K_OBJR */
} kid;

typedef struct elem {
    const char *type;        /* static */
    int parent;              /* -1: the top */
    char *alt, *lang;        /* malloc'd, or NULL */
    char *actual;            /* /ActualText: malloc'd, or NULL */
    kid *kids;
    size_t n, cap;
    bool full;               /* has content, here or beneath */
    bool has_bbox;
    float bbox[4];           /* the Layout attribute BBox (a Figure) */
    HPDF_Dict d;
    struct cv_pdftags *pt;   /* whose element it is (write_elem) */
} elem;

typedef struct pgrec {
    HPDF_Page page;
    int *owner;              /* the element of each MCID */
    size_t n, cap;
    int *links;              /* the Link element of each link, -1: none yet */
    size_t nlinks, clinks;
} pgrec;

typedef struct annrec {
    HPDF_Annotation an;
    int elem;
} annrec;

struct cv_pdftags {
    HPDF_Doc pdf;
    bool book;
    bool lean;               /* no optional /Type in elements (PDF/A-1) */
    elem *e;
    size_t n, cap;
    int top;                 /* a book's Document, -1 */
    int base;                /* node k of the current résumé is element base + k */
    pgrec *pages;
    size_t npages, cpages;
    annrec *ann;
    size_t nann, cann;
    HPDF_Dict root;          /* the StructTreeRoot, once made */
    cv_buf out;              /* write_elem's and write_nums' bytes */
};

cv_pdftags *cv_pdftags_new(HPDF_Doc pdf, bool book)
{
    cv_pdftags *pt = cv_xcalloc(1, sizeof *pt);
    pt->pdf = pdf;
    pt->book = book;
    pt->top = -1;
    return pt;
}

void cv_pdftags_lean(cv_pdftags *pt)
{
    pt->lean = true;
}

static char *dup(const char *s)
{
    return s ? cv_xstrdup(s) : NULL;
}

static int new_elem(cv_pdftags *pt, const char *type, int parent, const char *lang)
{
    GROW(pt->e, pt->n, pt->cap);
    pt->e[pt->n] = (elem){.type = type, .parent = parent, .lang = dup(lang)};
    return (int)pt->n++;
}

static void add_kid(cv_pdftags *pt, int to, kid k)
{
    elem *e = &pt->e[to];
    GROW(e->kids, e->n, e->cap);
    e->kids[e->n++] = k;
}

/* A new element under `parent`, as its last child. */
static int child(cv_pdftags *pt, int parent, const char *type, const char *lang)
{
    int c = new_elem(pt, type, parent, lang);
    add_kid(pt, parent, (kid){.kind = K_ELEM, .v = c});
    return c;
}

void cv_pdftags_begin(cv_pdftags *pt, const cv_tags *t, const char *lang)
{
    if (pt->book && pt->top < 0)
        pt->top = new_elem(pt, "Document", -1, NULL);
    pt->base = (int)pt->n - 1;
    for (size_t k = 1; k < t->n; k++) {
        const cv_snode *s = &t->nodes[k];
        bool root = k == CV_TAG_ROOT;
        int e = new_elem(pt, root && pt->book ? "Part" : s->type,
                         root ? pt->top : pt->base + s->parent,
                         root ? (pt->book ? lang : NULL) : s->lang);
        pt->e[e].alt = dup(s->alt);
        pt->e[e].actual = dup(s->actual);
    }
    if (pt->book)
        add_kid(pt, pt->top, (kid){.kind = K_ELEM, .v = pt->base + CV_TAG_ROOT});
    /* Children in the order they were made, those read last after. */
    for (int last = 0; last < 2; last++)
        for (size_t k = CV_TAG_ROOT + 1; k < t->n; k++)
            if (t->nodes[k].last == (bool)last)
                add_kid(pt, pt->base + t->nodes[k].parent,
                        (kid){.kind = K_ELEM, .v = pt->base + (int)k});
}

void cv_pdftags_page(cv_pdftags *pt, HPDF_Page page)
{
    GROW(pt->pages, pt->npages, pt->cpages);
    pt->pages[pt->npages++] = (pgrec){.page = page};
}

/* The Link element of the current page's link `link`, made under `parent`
 * when it is first met. */
static int link_elem(cv_pdftags *pt, int link, int parent)
{
    pgrec *pg = &pt->pages[pt->npages - 1];
    while (pg->nlinks <= (size_t)link) {
        GROW(pg->links, pg->nlinks, pg->clinks);
        pg->links[pg->nlinks++] = -1;
    }
    if (pg->links[link] < 0)
        pg->links[link] = child(pt, parent, "Link", NULL);
    return pg->links[link];
}

int cv_pdftags_mc(cv_pdftags *pt, int node, int link, const char *lang, const char **type)
{
    int owner = pt->base + node;
    if (link >= 0) {
        owner = link_elem(pt, link, owner);
        if (lang && !pt->e[owner].lang)
            pt->e[owner].lang = dup(lang);
    } else if (lang) {
        /* A Span in the other language: the previous one, if it is the
         * node's last kid and in the same language. */
        elem *o = &pt->e[owner];
        const kid *k = o->n ? &o->kids[o->n - 1] : NULL;
        if (k && k->kind == K_ELEM && !strcmp(pt->e[k->v].type, "Span") && pt->e[k->v].lang &&
            !strcmp(pt->e[k->v].lang, lang))
            owner = k->v;
        else
            owner = child(pt, owner, "Span", lang);
    }
    pgrec *pg = &pt->pages[pt->npages - 1];
    GROW(pg->owner, pg->n, pg->cap);
    int mcid = (int)pg->n;
    pg->owner[pg->n++] = owner;
    add_kid(pt, owner, (kid){.kind = K_MCR, .v = mcid, .page = pt->npages - 1});
    *type = pt->e[owner].type;
    return mcid;
}

void cv_pdftags_bbox(cv_pdftags *pt, int node, float x0, float y0, float x1, float y1)
{
    elem *e = &pt->e[pt->base + node];
    e->has_bbox = true;
    e->bbox[0] = x0, e->bbox[1] = y0, e->bbox[2] = x1, e->bbox[3] = y1;
}

/* A PDF text string: plain when ASCII, else UTF-16 (pdf_meta.h). */
static void *text(HPDF_Doc pdf, const char *s)
{
    return cv_pdfmeta_text(pdf, s);
}

bool cv_pdftags_annot(cv_pdftags *pt, int link, HPDF_Annotation an, const char *contents)
{
    int e = link_elem(pt, link, pt->base + CV_TAG_ROOT);
    add_kid(pt, e, (kid){.kind = K_OBJR, .an = an});
    GROW(pt->ann, pt->nann, pt->cann);
    pt->ann[pt->nann++] = (annrec){an, e};
    return !contents || !*contents ||
           HPDF_Dict_Add(an, "Contents", text(pt->pdf, contents)) == HPDF_OK;
}

static HPDF_Dict indirect(HPDF_Doc pdf)
{
    HPDF_Dict d = HPDF_Dict_New(pdf->mmgr);
    if (d && HPDF_Xref_Add(pdf->xref, d) != HPDF_OK)
        return NULL;           /* HPDF_Xref_Add freed it */
    return d;
}

/* ---- the elements' dictionaries ----
 * libharu makes an object of every key, number, array and dictionary it
 * is given (a dictionary entry alone is a zeroed 140-byte allocation) and
 * writes each with calls of a few bytes: for a tagged résumé's few hundred
 * elements, their kids and the parent tree, that cost more than 2 M
 * instructions to build, write and free.  So each element is an empty
 * indirect dictionary (it takes its object number in the same order)
 * whose write_fn writes its entries the way libharu writes them: each
 * "/Key value" and a line feed, arrays "[ a b ]", references "N G R",
 * dictionaries "<<\n/Key value\n>>".  Text strings and the Layout
 * attribute, which few elements have, are libharu's own objects, made and
 * written on the spot. */

static inline __attribute__((always_inline)) void out(cv_pdftags *pt, const char *p, size_t n)
{
    memcpy(cv_buf_room(&pt->out, n), p, n);
    pt->out.n += n;
}

#define OUT(pt, lit) out((pt), "" lit, sizeof(lit) - 1)

/* An integer as libharu writes it (HPDF_IToA). */
static void out_int(cv_pdftags *pt, long v)
{
    char t[24], *e = t + sizeof t, *p = cv_pdf_int(e, v);
    out(pt, p, (size_t)(e - p));
}

/* A reference to an indirect object: "N G R". */
static void out_ref(cv_pdftags *pt, const void *obj)
{
    const HPDF_Obj_Header *h = obj;
    out_int(pt, (long)(h->obj_id & 0x00FFFFFF));
    OUT(pt, " ");
    out_int(pt, h->gen_no);
    OUT(pt, " R");
}

/* A name as libharu writes it (HPDF_Stream_WriteEscapeName). */
static void out_name(cv_pdftags *pt, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strnlen(s, HPDF_LIMIT_MAX_NAME_LEN);
    char *o = cv_buf_room(&pt->out, 1 + 3 * n), *o0 = o;
    *o++ = '/';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (HPDF_NEEDS_ESCAPE(c)) {
            *o++ = '#';
            *o++ = hex[c >> 4];
            *o++ = hex[c & 15];
        } else {
            *o++ = (char)c;
        }
    }
    pt->out.n += (size_t)(o - o0);
}

/* The bytes so far, into the stream. */
static HPDF_STATUS out_flush(cv_pdftags *pt, HPDF_Stream stream)
{
    HPDF_STATUS r = pt->out.n ? HPDF_Stream_Write(stream, (HPDF_BYTE *)pt->out.s,
                                                 (HPDF_UINT)pt->out.n)
                             : HPDF_OK;
    pt->out.n = 0;
    return r;
}

/* "/Key value\n" for a value of libharu's own (freed after). */
static HPDF_STATUS out_obj(cv_pdftags *pt, HPDF_Stream stream, const char *key, void *obj)
{
    if (!obj)
        return HPDF_FAILD_TO_ALLOC_MEM;
    out_name(pt, key);
    OUT(pt, " ");
    HPDF_STATUS r = out_flush(pt, stream);
    if (r == HPDF_OK)
        r = HPDF_Obj_WriteValue(obj, stream, NULL);
    HPDF_Obj_Free(pt->pdf->mmgr, obj);
    if (r == HPDF_OK)
        OUT(pt, "\n");
    return r;
}

/* A kid of an element whose /Pg is `pg`: an element, an MCID on that
 * page, or a marked-content or object reference. */
static void out_kid(cv_pdftags *pt, const kid *k, HPDF_Page pg)
{
    if (k->kind == K_ELEM) {
        out_ref(pt, pt->e[k->v].d);
    } else if (k->kind == K_MCR && pt->pages[k->page].page == pg) {
        out_int(pt, k->v);
    } else if (k->kind == K_MCR) {
        OUT(pt, "<<\n/Type /MCR\n/Pg ");
        out_ref(pt, pt->pages[k->page].page);
        OUT(pt, "\n/MCID ");
        out_int(pt, k->v);
        OUT(pt, "\n>>");
    } else {
        OUT(pt, "<<\n/Type /OBJR\n/Obj ");
        out_ref(pt, k->an);
        OUT(pt, "\n>>");
    }
}

/* An element's dictionary (its write_fn): /Type, /S, /P, /Pg, /K, /Alt,
 * /ActualText, /Lang, /A. */
static HPDF_STATUS write_elem(HPDF_Dict d, HPDF_Stream stream)
{
    const elem *e = d->attr;
    cv_pdftags *pt = e->pt;
    HPDF_Doc pdf = pt->pdf;
    pt->out.n = 0;
    if (!pt->lean)
        OUT(pt, "/Type /StructElem\n");
    OUT(pt, "/S ");
    out_name(pt, e->type);
    OUT(pt, "\n/P ");
    out_ref(pt, e->parent >= 0 ? (void *)pt->e[e->parent].d : (void *)pt->root);
    OUT(pt, "\n");
    HPDF_Page pg = NULL;
    size_t nk = 0;
    for (size_t k = 0; k < e->n; k++) {
        if (e->kids[k].kind == K_MCR && !pg)
            pg = pt->pages[e->kids[k].page].page;
        nk += e->kids[k].kind != K_ELEM || pt->e[e->kids[k].v].full;
    }
    if (pg) {
        OUT(pt, "/Pg ");
        out_ref(pt, pg);
        OUT(pt, "\n");
    }
    if (nk > 1)
        OUT(pt, "/K [ ");
    else if (nk)
        OUT(pt, "/K ");
    for (size_t k = 0; k < e->n; k++) {
        const kid *kd = &e->kids[k];
        if (kd->kind == K_ELEM && !pt->e[kd->v].full)
            continue;
        out_kid(pt, kd, pg);
        if (nk > 1)
            OUT(pt, " ");
    }
    if (nk > 1)
        OUT(pt, "]\n");
    else if (nk)
        OUT(pt, "\n");
    HPDF_STATUS r = HPDF_OK;
    if (e->alt)
        r = out_obj(pt, stream, "Alt", text(pdf, e->alt));
    if (r == HPDF_OK && e->actual)
        r = out_obj(pt, stream, "ActualText", text(pdf, e->actual));
    if (r == HPDF_OK && e->lang)
        r = out_obj(pt, stream, "Lang", HPDF_String_New(pdf->mmgr, e->lang, NULL));
    if (r == HPDF_OK && e->has_bbox) {
        HPDF_Dict attr = HPDF_Dict_New(pdf->mmgr);
        HPDF_Array box = attr ? HPDF_Array_New(pdf->mmgr) : NULL;
        bool named = box && HPDF_Dict_AddName(attr, "O", "Layout") == HPDF_OK;
        if (box && !named)
            HPDF_Array_Free(box);
        /* (HPDF_Dict_Add frees what it fails to add) */
        bool ok = named && HPDF_Dict_Add(attr, "BBox", box) == HPDF_OK;
        for (int k = 0; ok && k < 4; k++)
            ok = HPDF_Array_AddReal(box, e->bbox[k]) == HPDF_OK;
        if (!ok && attr) {
            HPDF_Dict_Free(attr);
            attr = NULL;
        }
        r = out_obj(pt, stream, "A", attr);
    }
    return r == HPDF_OK ? out_flush(pt, stream) : r;
}

/* The parent tree's dictionary (its write_fn): /Nums, each page's key
 * and the elements of its MCIDs, then each annotation's key and
 * element. */
static HPDF_STATUS write_nums(HPDF_Dict d, HPDF_Stream stream)
{
    cv_pdftags *pt = d->attr;
    pt->out.n = 0;
    OUT(pt, "/Nums [ ");
    int key = 0;
    for (size_t p = 0; p < pt->npages; p++) {
        const pgrec *pg = &pt->pages[p];
        if (!pg->n)
            continue;
        out_int(pt, key++);
        OUT(pt, " [ ");
        for (size_t m = 0; m < pg->n; m++) {
            out_ref(pt, pt->e[pg->owner[m]].d);
            OUT(pt, " ");
        }
        OUT(pt, "] ");
    }
    for (size_t i = 0; i < pt->nann; i++) {
        out_int(pt, key++);
        OUT(pt, " ");
        out_ref(pt, pt->e[pt->ann[i].elem].d);
        OUT(pt, " ");
    }
    OUT(pt, "]\n");
    return out_flush(pt, stream);
}

/* /RoleMap: each of cvpdf's own types used, to its standard type. */
static HPDF_Dict role_map(cv_pdftags *pt)
{
    HPDF_Dict rm = HPDF_Dict_New(pt->pdf->mmgr);
    for (size_t i = 0; rm && i < pt->n; i++) {
        const char *t = pt->e[i].type;
        if (!pt->e[i].full || cv_tags_standard(t) || HPDF_Dict_GetItem(rm, t, HPDF_OCLASS_NAME))
            continue;
        const char *role = cv_tags_role(t);
        if (HPDF_Dict_AddName(rm, t, role ? role : "NonStruct") != HPDF_OK)
            return NULL;
    }
    return rm;
}

bool cv_pdftags_finish(cv_pdftags *pt)
{
    HPDF_Doc pdf = pt->pdf;
    /* What has content; children come after their parents. */
    bool any = false;
    for (size_t i = pt->n; i-- > 0;) {
        elem *e = &pt->e[i];
        for (size_t k = 0; k < e->n && !e->full; k++)
            e->full = e->kids[k].kind != K_ELEM;
        if (e->full && e->parent >= 0)
            pt->e[e->parent].full = true;
        any = any || e->full;
    }
    if (!any)
        return true;
    HPDF_Dict root = indirect(pdf);
    if (!root || HPDF_Dict_AddName(root, "Type", "StructTreeRoot") != HPDF_OK)
        return false;
    pt->root = root;
    for (size_t i = 0; i < pt->n; i++)
        if (pt->e[i].full) {
            if (!(pt->e[i].d = indirect(pdf)))
                return false;
            pt->e[i].pt = pt;
            pt->e[i].d->attr = &pt->e[i];
            pt->e[i].d->write_fn = write_elem;
        }
    HPDF_Array tops = HPDF_Array_New(pdf->mmgr);
    if (!tops || HPDF_Dict_Add(root, "K", tops) != HPDF_OK)
        return false;
    for (size_t i = 0; i < pt->n; i++)
        if (pt->e[i].full && pt->e[i].parent < 0 && HPDF_Array_Add(tops, pt->e[i].d) != HPDF_OK)
            return false;

    /* The parent tree (write_nums): each page's MCIDs, then each
     * annotation. */
    HPDF_Dict ptree = indirect(pdf);
    if (!ptree)
        return false;
    ptree->attr = pt;
    ptree->write_fn = write_nums;
    int key = 0;
    bool ok = true;
    for (size_t p = 0; ok && p < pt->npages; p++) {
        pgrec *pg = &pt->pages[p];
        ok = HPDF_Dict_AddName(pg->page, "Tabs", "S") == HPDF_OK;
        if (!pg->n || !ok)
            continue;
        ok = HPDF_Dict_AddNumber(pg->page, "StructParents", key) == HPDF_OK;
        key++;
    }
    for (size_t i = 0; ok && i < pt->nann; i++) {
        ok = HPDF_Dict_AddNumber(pt->ann[i].an, "StructParent", key) == HPDF_OK;
        key++;
    }
    ok = ok && HPDF_Dict_Add(root, "ParentTree", ptree) == HPDF_OK &&
         HPDF_Dict_AddNumber(root, "ParentTreeNextKey", key) == HPDF_OK;
    HPDF_Dict rm = ok ? role_map(pt) : NULL;
    if (!rm)
        return false;
    if (!rm->list->count)
        HPDF_Dict_Free(rm);             /* no type of our own used */
    else if (HPDF_Dict_Add(root, "RoleMap", rm) != HPDF_OK)
        return false;
    HPDF_Dict mark = HPDF_Dict_New(pdf->mmgr);
    return mark && HPDF_Dict_AddBoolean(mark, "Marked", HPDF_TRUE) == HPDF_OK &&
           HPDF_Dict_Add(pdf->catalog, "MarkInfo", mark) == HPDF_OK &&
           HPDF_Dict_Add(pdf->catalog, "StructTreeRoot", root) == HPDF_OK;
}

void cv_pdftags_free(cv_pdftags *pt)
{
    if (!pt)
        return;
    for (size_t i = 0; i < pt->n; i++) {
        free(pt->e[i].kids);
        free(pt->e[i].alt);
        free(pt->e[i].actual);
        free(pt->e[i].lang);
    }
    for (size_t p = 0; p < pt->npages; p++) {
        free(pt->pages[p].owner);
        free(pt->pages[p].links);
    }
    free(pt->e);
    free(pt->pages);
    free(pt->ann);
    free(pt->out.s);
    free(pt);
}
