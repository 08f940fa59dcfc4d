/* Unit tests for pdf_meta.c: the document information written into a
 * libharu document, read back from its objects and from the saved bytes --
 * the Info dictionary (UTF-16 for a UTF-8 title, plain strings for ASCII,
 * dates only from SOURCE_DATE_EPOCH), /Lang, DisplayDocTitle and /ID; for
 * PDF/A-1b an unfiltered XMP packet with every value escaped and an sRGB
 * output intent whose ICC profile has its date pinned. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#include <hpdf.h>
#include <hpdf_objects.h>

#include "pdf_meta.h"

/* The value of `key` in d, through a reference, if it is of class cls. */
static void *item(HPDF_Dict d, const char *key, HPDF_UINT16 cls)
{
    for (HPDF_UINT i = 0; d && i < d->list->count; i++) {
        HPDF_DictElement e = HPDF_List_ItemAt(d->list, i);
        if (strcmp(e->key, key))
            continue;
        void *v = e->value;
        if (((HPDF_Obj_Header *)v)->obj_class == HPDF_OCLASS_PROXY)
            v = ((HPDF_Proxy)v)->obj;
        return (((HPDF_Obj_Header *)v)->obj_class & HPDF_OCLASS_ANY) == cls ? v : NULL;
    }
    return NULL;
}

/* A string object's bytes as a C string ("" when absent). */
static const char *string_of(HPDF_Dict d, const char *key)
{
    HPDF_String s = item(d, key, HPDF_OCLASS_STRING);
    return s ? (const char *)s->value : "";
}

static const char *name_of(HPDF_Dict d, const char *key)
{
    HPDF_Name n = item(d, key, HPDF_OCLASS_NAME);
    return n ? n->value : "";
}

/* A stream's bytes as written, before any filter; malloc'd, NUL-ended. */
static unsigned char *bytes_of(HPDF_Dict s, size_t *n)
{
    *n = 0;
    if (!s || !s->stream)
        return NULL;
    HPDF_UINT size = HPDF_Stream_Size(s->stream), got = size;
    unsigned char *b = calloc(size + 1, 1);
    if (!b || HPDF_Stream_Seek(s->stream, 0, HPDF_SEEK_SET) != HPDF_OK) {
        free(b);
        return NULL;
    }
    HPDF_STATUS r = size ? HPDF_Stream_Read(s->stream, b, &got) : HPDF_OK;
    if ((r != HPDF_OK && r != HPDF_STREAM_EOF) || got != size) {
        free(b);
        return NULL;
    }
    *n = size;
    return b;
}

/* A one-page document set up as draw_hpdf.c sets it up, with m written
 * into it, or NULL. */
static HPDF_Doc doc_with(const cv_pdfmeta *m)
{
    HPDF_Doc pdf = HPDF_New(NULL, NULL);
    cv_error err;
    cv_error_init(&err);
    if (pdf) {
        HPDF_SetCompressionMode(pdf, HPDF_COMP_ALL);
        HPDF_UseUTFEncodings(pdf);
    }
    if (!pdf || !HPDF_AddPage(pdf) || !cv_pdfmeta_write(pdf, m, &err)) {
        fprintf(stderr, "  cv_pdfmeta_write: %s\n", err.msg);
        if (pdf)
            HPDF_Free(pdf);
        return NULL;
    }
    return pdf;
}

/* The whole PDF as saved; malloc'd, NUL-ended. */
static char *saved(HPDF_Doc pdf, size_t *n)
{
    *n = 0;
    if (HPDF_SaveToStream(pdf) != HPDF_OK)
        return NULL;
    HPDF_UINT32 size = HPDF_GetStreamSize(pdf), got = size;
    char *b = calloc(size + 1, 1);
    if (!b || HPDF_ResetStream(pdf) != HPDF_OK ||
        (HPDF_ReadFromStream(pdf, (HPDF_BYTE *)b, &got) != HPDF_OK &&
         HPDF_GetError(pdf) != HPDF_STREAM_EOF) || got != size) {
        free(b);
        return NULL;
    }
    HPDF_ResetError(pdf);
    *n = size;
    return b;
}

static bool contains(const char *hay, size_t n, const char *needle)
{
    return hay && memmem(hay, n, needle, strlen(needle)) != NULL;
}

static const unsigned char ID[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                     0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF};

TEST(xml_escape)
{
    char *e = cv_xml_escape("R&D <lab> \"x\" 'y' \xC3\xA9\t\n\x01\x1F end");
    CHECK_STR(e, "R&amp;D &lt;lab&gt; &quot;x&quot; 'y' \xC3\xA9\t\n   end");
    free(e);
    e = cv_xml_escape("");
    CHECK_STR(e, "");
    free(e);
    e = cv_xml_escape("&&");
    CHECK_STR(e, "&amp;&amp;");
    free(e);
}

/* A UTF-8 title is written as UTF-16BE with a byte-order mark; ASCII
 * values as plain strings, escaped.  /Lang, DisplayDocTitle and /ID;
 * no dates, no XMP and no output intent without being asked. */
TEST(info_dictionary)
{
    cv_pdfmeta m = {.title = "Ji\xC4\x81rui F\xC3\xA1ng \xE2\x80\x94 CV", /* ā á — */
                    .author = "Ada (A.) Lovelace", .subject = "R\xC3\xA9sum\xC3\xA9",
                    .keywords = "cv, pdf", .creator = "cvpdf 0.1.0", .lang = "zh", .id = ID};
    HPDF_Doc pdf = doc_with(&m);
    CHECK(pdf != NULL);
    if (!pdf)
        return;
    CHECK_STR(string_of(pdf->catalog, "Lang"), "zh");
    HPDF_Dict vp = item(pdf->catalog, "ViewerPreferences", HPDF_OCLASS_DICT);
    HPDF_Boolean ddt = item(vp, "DisplayDocTitle", HPDF_OCLASS_BOOLEAN);
    CHECK(ddt && ddt->value);
    CHECK(!item(pdf->catalog, "Metadata", HPDF_OCLASS_DICT));
    CHECK(!item(pdf->catalog, "OutputIntents", HPDF_OCLASS_ARRAY));

    size_t n;
    char *b = saved(pdf, &n);
    CHECK(b && !strncmp(b, "%PDF-1.7\n", 9));     /* 1.4 only for PDF/A-1 */
    /* J i ā r u i space F á n g space — space C V */
    CHECK(contains(b, n, "/Title <FEFF004A006901010072007500690020004600E1006E0067"
                         "00202014002000430056>"));
    CHECK(contains(b, n, "/Subject <FEFF005200E900730075006D00E9>"));
    CHECK(contains(b, n, "/Author (Ada \\050A.\\051 Lovelace)"));  /* ( ) escaped */
    CHECK(contains(b, n, "/Keywords (cv, pdf)"));
    CHECK(contains(b, n, "/Creator (cvpdf 0.1.0)"));
    CHECK(contains(b, n, "/ID [ <00112233445566778899AABBCCDDEEFF> "
                         "<00112233445566778899AABBCCDDEEFF> ]"));
    CHECK(!contains(b, n, "/CreationDate") && !contains(b, n, "/ModDate"));
    CHECK(!contains(b, n, "/Metadata") && !contains(b, n, "/OutputIntents"));
    free(b);
    HPDF_Free(pdf);

    /* No language, empty values: nothing written for them. */
    cv_pdfmeta bare = {.title = "", .lang = ""};
    pdf = doc_with(&bare);
    CHECK(pdf != NULL);
    if (!pdf)
        return;
    b = saved(pdf, &n);
    CHECK(b && !contains(b, n, "/Lang") && !contains(b, n, "/Title") &&
          !contains(b, n, "/ID") && contains(b, n, "/DisplayDocTitle true"));
    free(b);
    HPDF_Free(pdf);
}

/* SOURCE_DATE_EPOCH 1700000000 is 2023-11-14 22:13:20 UTC, in Info and in
 * the XMP packet. */
TEST(dates)
{
    cv_pdfmeta m = {.title = "T", .has_date = true, .epoch = 1700000000, .pdfa = true};
    HPDF_Doc pdf = doc_with(&m);
    CHECK(pdf != NULL);
    if (!pdf)
        return;
    size_t n;
    char *b = saved(pdf, &n);
    CHECK(contains(b, n, "/CreationDate (D:20231114221320+00'00')"));
    CHECK(contains(b, n, "/ModDate (D:20231114221320+00'00')"));
    CHECK(contains(b, n, "<xmp:CreateDate>2023-11-14T22:13:20+00:00</xmp:CreateDate>"));
    CHECK(contains(b, n, "<xmp:ModifyDate>2023-11-14T22:13:20+00:00</xmp:ModifyDate>"));
    free(b);
    HPDF_Free(pdf);
}

/* PDF/A-1b: the XMP packet repeats Info with every value escaped, is not
 * filtered, and says part 1, conformance B. */
TEST(xmp_packet)
{
    cv_pdfmeta m = {.title = "R&D <lab> \xC3\xA9", .author = "A \"B\" & C",
                    .subject = "x<y", .keywords = "a&b", .creator = "cvpdf", .lang = "en",
                    .pdfa = true, .id = ID};
    HPDF_Doc pdf = doc_with(&m);
    CHECK(pdf != NULL);
    if (!pdf)
        return;
    HPDF_Dict md = item(pdf->catalog, "Metadata", HPDF_OCLASS_DICT);
    CHECK(md != NULL);
    CHECK_STR(name_of(md, "Type"), "Metadata");
    CHECK_STR(name_of(md, "Subtype"), "XML");
    CHECK(md && md->filter == HPDF_STREAM_FILTER_NONE);
    size_t xn;
    char *x = (char *)bytes_of(md, &xn);
    static const char begin[] = "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n";
    CHECK(x && !strncmp(x, begin, strlen(begin)));
    CHECK(x && xn > 20 && !strcmp(x + xn - 19, "<?xpacket end=\"w\"?>"));
    CHECK(contains(x, xn, "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">"
                          "R&amp;D &lt;lab&gt; \xC3\xA9</rdf:li></rdf:Alt></dc:title>"));
    CHECK(contains(x, xn, "<dc:creator><rdf:Seq><rdf:li>A &quot;B&quot; &amp; C"
                          "</rdf:li></rdf:Seq></dc:creator>"));
    CHECK(contains(x, xn, ">x&lt;y</rdf:li></rdf:Alt></dc:description>"));
    CHECK(contains(x, xn, "<pdf:Keywords>a&amp;b</pdf:Keywords>"));
    CHECK(contains(x, xn, "<xmp:CreatorTool>cvpdf</xmp:CreatorTool>"));
    CHECK(contains(x, xn, "<pdf:Producer>"));
    CHECK(contains(x, xn, "<pdfaid:part>1</pdfaid:part>") &&
          contains(x, xn, "<pdfaid:conformance>B</pdfaid:conformance>"));
    CHECK(!contains(x, xn, "R&D") && !contains(x, xn, "<lab>") && !contains(x, xn, "x<y") &&
          !contains(x, xn, "a&b"));
    /* No dates without SOURCE_DATE_EPOCH. */
    CHECK(!contains(x, xn, "CreateDate") && !contains(x, xn, "ModifyDate"));

    /* Saved as is: the packet appears verbatim in the file. */
    size_t n;
    char *b = saved(pdf, &n);
    CHECK(x && b && memmem(b, n, x, xn));
    free(b);
    free(x);
    HPDF_Free(pdf);
}

/* PDF/UA-1: pdfuaid part 1 in the XMP packet; alone no pdfaid, no output
 * intent and PDF 1.7; with PDF/A both, and pdfuaid declared as an extension
 * schema. */
TEST(pdfua_packet)
{
    for (int a = 0; a < 2; a++) {
        cv_pdfmeta m = {.title = "T", .lang = "en", .pdfa = a, .pdfua = true, .id = ID};
        HPDF_Doc pdf = doc_with(&m);
        CHECK(pdf != NULL);
        if (!pdf)
            return;
        size_t xn;
        char *x = (char *)bytes_of(item(pdf->catalog, "Metadata", HPDF_OCLASS_DICT), &xn);
        CHECK(x && contains(x, xn, "<pdfuaid:part>1</pdfuaid:part>"));
        CHECK(x && contains(x, xn, "<dc:title>"));
        CHECK(x && !contains(x, xn, "<pdfaid:part>") == !a);
        CHECK(x && contains(x, xn, "<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>") == a);
        CHECK((item(pdf->catalog, "OutputIntents", HPDF_OCLASS_ARRAY) != NULL) == a);
        CHECK(pdf->pdf_version == (a ? HPDF_VER_14 : HPDF_VER_17));
        free(x);
        HPDF_Free(pdf);
    }
}

/* The sRGB output intent: GTS_PDFA1 with an ICC v2.1 RGB display profile
 * made by lcms2, its creation date pinned to 2000-01-01. */
TEST(output_intent)
{
    cv_pdfmeta m = {.title = "T", .pdfa = true};
    HPDF_Doc pdf = doc_with(&m);
    CHECK(pdf != NULL);
    if (!pdf)
        return;
    HPDF_Array oi = item(pdf->catalog, "OutputIntents", HPDF_OCLASS_ARRAY);
    CHECK(oi && oi->list->count == 1);
    HPDF_Dict d = oi && oi->list->count ? HPDF_List_ItemAt(oi->list, 0) : NULL;
    CHECK_STR(name_of(d, "Type"), "OutputIntent");
    CHECK_STR(name_of(d, "S"), "GTS_PDFA1");
    CHECK_STR(string_of(d, "OutputConditionIdentifier"), "sRGB IEC61966-2.1");
    CHECK_STR(string_of(d, "RegistryName"), "http://www.color.org");
    HPDF_Dict prof = item(d, "DestOutputProfile", HPDF_OCLASS_DICT);
    HPDF_Number nc = item(prof, "N", HPDF_OCLASS_NUMBER);
    CHECK(nc && nc->value == 3);
    size_t n;
    unsigned char *icc = bytes_of(prof, &n);
    CHECK(icc && n > 128);
    if (icc && n > 128) {
        unsigned long size = (unsigned long)icc[0] << 24 | icc[1] << 16 | icc[2] << 8 | icc[3];
        CHECK(size == n);
        CHECK(icc[8] == 2 && icc[9] == 0x10);              /* version 2.1 */
        CHECK(!memcmp(icc + 12, "mntrRGB XYZ ", 12));     /* display, RGB, PCS XYZ */
        static const unsigned char date[12] = {0x07, 0xD0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0};
        CHECK(!memcmp(icc + 24, date, 12));
        CHECK(!memcmp(icc + 36, "acsp", 4));
    }
    free(icc);

    /* The same metadata gives the same bytes (nothing from the clock). */
    size_t n1, n2;
    char *b1 = saved(pdf, &n1);
    HPDF_Doc again = doc_with(&m);
    char *b2 = again ? saved(again, &n2) : NULL;
    CHECK(b1 && b2 && n1 == n2 && !memcmp(b1, b2, n1));
    free(b1);
    free(b2);
    if (again)
        HPDF_Free(again);
    HPDF_Free(pdf);
}

int main(void)
{
    RUN(xml_escape);
    RUN(info_dictionary);
    RUN(dates);
    RUN(xmp_packet);
    RUN(pdfua_packet);
    RUN(output_intent);
    return harness_report("pdf_meta");
}
