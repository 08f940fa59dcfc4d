/* Unit tests for pdf_tags.c: the structure tree built in a libharu
 * document, read back from its objects -- elements in reading order (the
 * `last` node after its siblings), empty ones left out, MCIDs per page in
 * the parent tree, Link elements with their annotation, Spans with /Lang,
 * the role map, /MarkInfo, /Tabs, and a book's Parts. */
#include "harness.h"

#include <string.h>

#include <hpdf.h>
#include <hpdf_objects.h>
#include <hpdf_pages.h>

#include "pdf_tags.h"

/* The value of `key` in d, through a reference. */
static void *item(HPDF_Dict d, const char *key)
{
    for (HPDF_UINT i = 0; d && i < d->list->count; i++) {
        HPDF_DictElement e = HPDF_List_ItemAt(d->list, i);
        if (strcmp(e->key, key))
            continue;
        void *v = e->value;
        if (((HPDF_Obj_Header *)v)->obj_class == HPDF_OCLASS_PROXY)
            v = ((HPDF_Proxy)v)->obj;
        return v;
    }
    return NULL;
}

static void *deref(void *v)
{
    if (v && ((HPDF_Obj_Header *)v)->obj_class == HPDF_OCLASS_PROXY)
        v = ((HPDF_Proxy)v)->obj;
    return v;
}

static unsigned cls(void *v)
{
    return v ? ((HPDF_Obj_Header *)deref(v))->obj_class & HPDF_OCLASS_ANY : 0;
}

static const char *name_of(HPDF_Dict d, const char *key)
{
    HPDF_Name n = item(d, key);
    return n && cls(n) == HPDF_OCLASS_NAME ? n->value : "";
}

/* Kid i of /K (an array, or one object as kid 0). */
static void *kid(HPDF_Dict d, HPDF_UINT i, HPDF_UINT *n)
{
    void *k = item(d, "K");
    if (cls(k) == HPDF_OCLASS_ARRAY) {
        HPDF_Array a = k;
        *n = a->list->count;
        return i < *n ? deref(HPDF_List_ItemAt(a->list, i)) : NULL;
    }
    *n = k ? 1 : 0;
    return i == 0 ? k : NULL;
}

static const char *kid_type(HPDF_Dict d, HPDF_UINT i)
{
    HPDF_UINT n;
    void *k = kid(d, i, &n);
    return cls(k) == HPDF_OCLASS_DICT ? name_of(k, "S") : "";
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

    HPDF_Dict root = item(pdf->catalog, "StructTreeRoot");
    CHECK(root && !strcmp(name_of(root, "Type"), "StructTreeRoot"));
    HPDF_Dict mark = item(pdf->catalog, "MarkInfo");
    CHECK(mark && cls(item(mark, "Marked")) == HPDF_OCLASS_BOOLEAN);
    HPDF_UINT n;
    HPDF_Dict doc = kid(root, 0, &n);
    CHECK(n == 1 && doc && !strcmp(name_of(doc, "S"), "Document"));
    /* Header, Sect, then the Sidebar (read last). */
    CHECK(!strcmp(kid_type(doc, 0), "Header"));
    CHECK(!strcmp(kid_type(doc, 1), "Sect"));
    CHECK(!strcmp(kid_type(doc, 2), "Sidebar"));
    /* The Sect: H2, the P (the empty one left out), the Figure. */
    HPDF_Dict s = kid(doc, 1, &n);
    CHECK(n == 3 && !strcmp(kid_type(s, 0), "H2") && !strcmp(kid_type(s, 1), "P") &&
          !strcmp(kid_type(s, 2), "Figure"));
    HPDF_Dict pp = kid(s, 1, &n);
    /* MCID 3, the Link, the Span, MCID 0 of page 2 (an MCR). */
    void *k0 = kid(pp, 0, &n);
    CHECK(n == 4 && cls(k0) == HPDF_OCLASS_NUMBER);
    CHECK(!strcmp(kid_type(pp, 1), "Link") && !strcmp(kid_type(pp, 2), "Span"));
    HPDF_Dict mcr = kid(pp, 3, &n);
    CHECK(cls(mcr) == HPDF_OCLASS_DICT && !strcmp(name_of(mcr, "Type"), "MCR") &&
          deref(item(mcr, "Pg")) == p2);
    CHECK(deref(item(pp, "Pg")) == p1 && deref(item(pp, "P")) == s);
    HPDF_Dict link = kid(pp, 1, &n);
    /* Two MCIDs and the annotation's OBJR. */
    HPDF_Dict objr = kid(link, 2, &n);
    CHECK(n == 3);
    CHECK(cls(objr) == HPDF_OCLASS_DICT && !strcmp(name_of(objr, "Type"), "OBJR") &&
          deref(item(objr, "Obj")) == an);
    HPDF_Dict span = kid(pp, 2, &n);
    HPDF_String lang = item(span, "Lang");
    CHECK(lang && !strcmp((const char *)lang->value, "zh"));
    HPDF_Dict figd = kid(s, 2, &n);
    HPDF_String alt = item(figd, "Alt");
    CHECK(alt && !strcmp((const char *)alt->value, "Ada Lovelace"));
    HPDF_Dict attr = item(figd, "A");
    HPDF_Array box = attr ? item(attr, "BBox") : NULL;
    CHECK(attr && !strcmp(name_of(attr, "O"), "Layout") && box && box->list->count == 4);
    /* The annotation: in the parent tree, described. */
    CHECK(cls(item(an, "StructParent")) == HPDF_OCLASS_NUMBER && item(an, "Contents"));
    /* Pages: /StructParents 0 and 1, /Tabs /S; the annotation's key 2. */
    HPDF_Number k1 = item(p1, "StructParents"), k2 = item(p2, "StructParents");
    HPDF_Number ka = item(an, "StructParent");
    CHECK(k1 && k2 && ka && k1->value == 0 && k2->value == 1 && ka->value == 2);
    CHECK(!strcmp(name_of(p1, "Tabs"), "S") && !strcmp(name_of(p2, "Tabs"), "S"));
    HPDF_Dict ptree = item(root, "ParentTree");
    HPDF_Array nums = item(ptree, "Nums");
    CHECK(nums && nums->list->count == 6);
    HPDF_Array arr1 = nums ? deref(HPDF_List_ItemAt(nums->list, 1)) : NULL;
    CHECK(arr1 && arr1->list->count == 8 && deref(HPDF_List_ItemAt(arr1->list, 4)) == link &&
          deref(HPDF_List_ItemAt(arr1->list, 3)) == pp);
    HPDF_Number next = item(root, "ParentTreeNextKey");
    CHECK(next && next->value == 3);
    HPDF_Dict rm = item(root, "RoleMap");
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
    HPDF_Dict root = item(pdf->catalog, "StructTreeRoot");
    HPDF_UINT n;
    HPDF_Dict doc = kid(root, 0, &n);
    CHECK(n == 1 && !strcmp(name_of(doc, "S"), "Document"));
    for (HPDF_UINT i = 0; i < 2; i++) {
        HPDF_Dict part = kid(doc, i, &n);
        CHECK(n == 2 && part && !strcmp(name_of(part, "S"), "Part"));
        HPDF_String l = item(part, "Lang");
        CHECK(l && !strcmp((const char *)l->value, langs[i]));
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
    CHECK(!item(pdf->catalog, "StructTreeRoot") && !item(pdf->catalog, "MarkInfo"));
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
