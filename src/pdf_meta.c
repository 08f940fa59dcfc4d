/* pdf_meta.c - what a PDF says about itself.
 *
 * Always: the Info dictionary through libharu's UTF-8 encoder (title,
 * author, subject, keywords, creator, and the dates only when
 * SOURCE_DATE_EPOCH gives them), /Lang, DisplayDocTitle, and an /ID
 * derived from the content, so the same input gives the same bytes.
 *
 * For PDF/A-1b (LIBHARU-NOTES §4): an XMP packet repeating the Info
 * values with every value escaped, pdfaid part 1 conformance B, and an
 * sRGB output intent whose ICC profile lcms2 builds (its creation date is
 * pinned, so it is reproducible too).  libharu's own
 * HPDF_PDFA_SetPDFAConformance is not used: it writes unescaped XMP and a
 * clock-based /ID.
 *
 * For PDF/UA-1 (with or without PDF/A): the XMP packet, with pdfuaid part
 * 1 (declared as a PDF/A extension schema when both are asked for).
 *
 * Every file that is not PDF/A-1 is then packed (pdf_pack.h): libharu's
 * bytes rewritten as PDF 1.7 with object streams and a cross-reference
 * stream, the streams as they are.
 */
#include "pdf_meta.h"
#include "arena.h"
#include "module.h"
#include "unicode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hpdf_doc.h>
#include <hpdf_objects.h>
#include <lcms2.h>

/* lcms2 is opened with dlopen when a PDF/A file first needs its sRGB
 * profile, not linked: linked, it costs every run 0.5 M instructions of
 * dynamic loading for what only --pdfa uses. */
#ifndef CV_LCMS2_SONAME
#define CV_LCMS2_SONAME "liblcms2.so.2"
#endif
#define LCMS_FUNCTIONS(X) \
    X(cmsCreate_sRGBProfile) X(cmsSetProfileVersion) X(cmsSaveProfileToMem) X(cmsCloseProfile)
CV_LIB_DEFINE(lcms_lib, L, LCMS_FUNCTIONS, CV_LCMS2_SONAME, "liblcms2-2");

char *cv_xml_escape(const char *s)
{
    size_t n = 0;
    for (const char *p = s; *p; p++)
        n += *p == '&' ? 5 : *p == '<' || *p == '>' ? 4 : *p == '"' ? 6 : 1;
    char *o = cv_xmalloc(n + 1), *q = o;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        const char *e = *p == '&' ? "&amp;" : *p == '<' ? "&lt;" : *p == '>' ? "&gt;"
                      : *p == '"' ? "&quot;" : NULL;
        if (e) {
            memcpy(q, e, strlen(e));
            q += strlen(e);
        } else if (*p < 0x20 && *p != '\t' && *p != '\n') {
            *q++ = ' ';         /* not allowed in XML 1.0 */
        } else {
            *q++ = (char)*p;
        }
    }
    *q = 0;
    return o;
}

/* pre, the value escaped, post. */
static void sval(cv_buf *b, const char *pre, const char *v, const char *post)
{
    char *e = cv_xml_escape(v);
    cv_buf_puts(b, pre);
    cv_buf_puts(b, e);
    cv_buf_puts(b, post);
    free(e);
}

static bool to_tm(long long epoch, struct tm *tm)
{
    time_t t = (time_t)epoch;
    return epoch >= 0 && gmtime_r(&t, tm);
}

static HPDF_Dict write_xmp(HPDF_Doc pdf, const cv_pdfmeta *m, const char *producer)
{
    cv_buf b = {0};
    cv_buf_puts(&b, "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
             "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
             "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
             "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n"
             "<dc:format>application/pdf</dc:format>\n");
    if (m->title)
        sval(&b, "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">", m->title,
             "</rdf:li></rdf:Alt></dc:title>\n");
    if (m->author)
        sval(&b, "<dc:creator><rdf:Seq><rdf:li>", m->author, "</rdf:li></rdf:Seq></dc:creator>\n");
    if (m->subject)
        sval(&b, "<dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">", m->subject,
             "</rdf:li></rdf:Alt></dc:description>\n");
    cv_buf_puts(&b, "</rdf:Description>\n"
             "<rdf:Description rdf:about=\"\" xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\">\n");
    if (producer)
        sval(&b, "<pdf:Producer>", producer, "</pdf:Producer>\n");
    if (m->keywords)
        sval(&b, "<pdf:Keywords>", m->keywords, "</pdf:Keywords>\n");
    cv_buf_puts(&b, "</rdf:Description>\n"
             "<rdf:Description rdf:about=\"\" xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\">\n");
    if (m->creator)
        sval(&b, "<xmp:CreatorTool>", m->creator, "</xmp:CreatorTool>\n");
    struct tm tm;
    if (m->has_date && to_tm(m->epoch, &tm)) {
        char date[40];
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S+00:00", &tm);
        sval(&b, "<xmp:CreateDate>", date, "</xmp:CreateDate>\n");
        sval(&b, "<xmp:ModifyDate>", date, "</xmp:ModifyDate>\n");
    }
    cv_buf_puts(&b, "</rdf:Description>\n");
    if (m->pdfa) {
        char id[200];
        snprintf(id, sizeof id, "<pdfaid:part>%d</pdfaid:part>\n"
                 "<pdfaid:conformance>%c</pdfaid:conformance>\n", m->pdfa_part == 2 ? 2 : 1,
                 m->pdfa_part == 2 && m->pdfa_conformance == 'a'   ? 'A'
                 : m->pdfa_part == 2 && m->pdfa_conformance == 'u' ? 'U'
                                                                   : 'B');
        cv_buf_puts(&b, "<rdf:Description rdf:about=\"\" xmlns:pdfaid=\"http://www.aiim.org/pdfa/ns/id/\">\n");
        cv_buf_puts(&b, id);
        cv_buf_puts(&b, "</rdf:Description>\n");
    }
    if (m->pdfua)
        cv_buf_puts(&b, "<rdf:Description rdf:about=\"\" xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\">\n"
                 "<pdfuaid:part>1</pdfuaid:part>\n</rdf:Description>\n");
    /* PDF/A accepts only the schemas it knows and those the packet
     * declares: declare pdfuaid. */
    if (m->pdfa && m->pdfua)
        cv_buf_puts(&b, "<rdf:Description rdf:about=\"\"\n"
                 " xmlns:pdfaExtension=\"http://www.aiim.org/pdfa/ns/extension/\"\n"
                 " xmlns:pdfaSchema=\"http://www.aiim.org/pdfa/ns/schema#\"\n"
                 " xmlns:pdfaProperty=\"http://www.aiim.org/pdfa/ns/property#\">\n"
                 "<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType=\"Resource\">\n"
                 "<pdfaSchema:schema>PDF/UA identification</pdfaSchema:schema>\n"
                 "<pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>\n"
                 "<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>\n"
                 "<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType=\"Resource\">\n"
                 "<pdfaProperty:name>part</pdfaProperty:name>\n"
                 "<pdfaProperty:valueType>Integer</pdfaProperty:valueType>\n"
                 "<pdfaProperty:category>internal</pdfaProperty:category>\n"
                 "<pdfaProperty:description>The part of ISO 14289 the file conforms to</pdfaProperty:description>\n"
                 "</rdf:li></rdf:Seq></pdfaSchema:property>\n"
                 "</rdf:li></rdf:Bag></pdfaExtension:schemas>\n</rdf:Description>\n");
    cv_buf_puts(&b, "</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>");

    /* PDF/A-1 wants the packet unfiltered, so any tool can find it. */
    HPDF_Dict s = HPDF_DictStream_New(pdf->mmgr, pdf->xref);
    bool ok = s && HPDF_Dict_AddName(s, "Type", "Metadata") == HPDF_OK &&
              HPDF_Dict_AddName(s, "Subtype", "XML") == HPDF_OK &&
              HPDF_Stream_Write(s->stream, (const HPDF_BYTE *)b.s, (HPDF_UINT)b.n) == HPDF_OK;
    free(b.s);
    return ok ? s : NULL;
}

/* sRGB as an ICC v2 profile made by lcms2 (about 3 KB, well under a
 * millisecond), with the creation date in its header pinned for
 * reproducible output.  malloc'd; NULL when lcms2 fails or cannot be
 * loaded. */
static unsigned char *srgb_profile(size_t *len)
{
    if (!cv_lib_open(&lcms_lib))
        return NULL;
    cmsHPROFILE p = L.cmsCreate_sRGBProfile();
    if (!p)
        return NULL;
    L.cmsSetProfileVersion(p, 2.1);
    cmsUInt32Number k = 0;
    unsigned char *buf = NULL;
    if (L.cmsSaveProfileToMem(p, NULL, &k) && k > 36 && (buf = cv_xmalloc(k)) &&
        L.cmsSaveProfileToMem(p, buf, &k)) {
        /* dateTimeNumber at bytes 24..35: 2000-01-01 00:00:00. */
        static const unsigned char date[12] = {0x07, 0xD0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0};
        memcpy(buf + 24, date, sizeof date);
        *len = k;
    } else {
        free(buf);
        buf = NULL;
    }
    L.cmsCloseProfile(p);
    return buf;
}

static bool add_output_intent(HPDF_Doc pdf)
{
    size_t len = 0;
    unsigned char *icc = srgb_profile(&len);
    HPDF_MMgr mm = pdf->mmgr;
    HPDF_Dict prof = icc ? HPDF_DictStream_New(mm, pdf->xref) : NULL;
    bool wrote = prof && HPDF_Stream_Write(prof->stream, icc, (HPDF_UINT)len) == HPDF_OK;
    free(icc);
    if (!wrote)
        return false;
    prof->filter = HPDF_STREAM_FILTER_FLATE_DECODE;
    HPDF_Dict oi = HPDF_Dict_New(mm);
    HPDF_Array arr = HPDF_Array_New(mm);
    if (!oi || !arr) {
        if (oi)
            HPDF_Dict_Free(oi);
        if (arr)
            HPDF_Array_Free(arr);
        return false;
    }
    const char *cond = "sRGB IEC61966-2.1";
    bool ok = HPDF_Dict_AddNumber(prof, "N", 3) == HPDF_OK &&
              HPDF_Dict_AddName(oi, "Type", "OutputIntent") == HPDF_OK &&
              HPDF_Dict_AddName(oi, "S", "GTS_PDFA1") == HPDF_OK &&
              HPDF_Dict_Add(oi, "OutputConditionIdentifier", HPDF_String_New(mm, cond, NULL)) == HPDF_OK &&
              HPDF_Dict_Add(oi, "Info", HPDF_String_New(mm, cond, NULL)) == HPDF_OK &&
              HPDF_Dict_Add(oi, "RegistryName", HPDF_String_New(mm, "http://www.color.org", NULL)) == HPDF_OK &&
              HPDF_Dict_Add(oi, "DestOutputProfile", prof) == HPDF_OK;
    if (!ok) {
        HPDF_Dict_Free(oi);
        HPDF_Array_Free(arr);
        return false;
    }
    return HPDF_Array_Add(arr, oi) == HPDF_OK &&
           HPDF_Dict_Add(pdf->catalog, "OutputIntents", arr) == HPDF_OK;
}

/* `s` as libharu writes a string through its UTF-8 encoder -- <FEFF and
 * the UTF-16BE code units in hex> -- but as a binary string, made without
 * the encoder (libharu builds its tables for 1.4 M instructions); NULL
 * when `s` has a code point the encoder would not give as one unit (beyond
 * the BMP, a surrogate, or malformed: U+FFFD), when it would be longer than
 * libharu's strings may be (the encoder's string may still be written), or
 * libharu is out of memory. */
static HPDF_Binary utf16_string(HPDF_MMgr mm, const char *s)
{
    size_t len = strlen(s), n = 2;
    if (2 * len + 2 > HPDF_LIMIT_MAX_STRING_LEN)
        return NULL;
    unsigned char *u = cv_xmalloc(2 * len + 2);
    u[0] = 0xFE;
    u[1] = 0xFF;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        i += cv_utf8_decode(s + i, len - i, &cp);
        if (cp > 0xFFFF || cp == 0xFFFD || (cp >= 0xD800 && cp <= 0xDFFF)) {
            free(u);
            return NULL;
        }
        u[n++] = (unsigned char)(cp >> 8);
        u[n++] = (unsigned char)cp;
    }
    HPDF_Binary b = HPDF_Binary_New(mm, u, (HPDF_UINT)n);
    free(u);
    return b;
}

void *cv_pdfmeta_text(HPDF_Doc pdf, const char *s)
{
    bool ascii = true;
    for (const char *p = s; *p && ascii; p++)
        ascii = (unsigned char)*p < 0x80;
    if (ascii)
        return HPDF_String_New(pdf->mmgr, s, NULL);
    HPDF_Binary u = utf16_string(pdf->mmgr, s);
    return u ? (void *)u : (void *)HPDF_String_New(pdf->mmgr, s, HPDF_GetEncoder(pdf, "UTF-8"));
}

bool cv_pdfmeta_write(HPDF_Doc pdf, const cv_pdfmeta *m, cv_error *err)
{
    HPDF_MMgr mm = pdf->mmgr;
    /* DisplayDocTitle; PDF/A-1.  Other files are PDF 1.7 (/Tabs, object
     * streams: cv_pdf_pack). */
    pdf->pdf_version = m->pdfa && m->pdfa_part != 2 ? HPDF_VER_14 : HPDF_VER_17;
    const struct { HPDF_InfoType k; const char *key, *v; } info[] = {
        {HPDF_INFO_TITLE, "Title", m->title},          {HPDF_INFO_AUTHOR, "Author", m->author},
        {HPDF_INFO_SUBJECT, "Subject", m->subject},    {HPDF_INFO_KEYWORDS, "Keywords", m->keywords},
        {HPDF_INFO_CREATOR, "Creator", m->creator},
    };
    /* UTF-16 only where needed: ASCII is written as a plain string.  The
     * rest as libharu's UTF-8 encoder writes it, without the encoder when
     * utf16_string() can (the entry is made with a placeholder, to keep
     * libharu's order, then replaced). */
    HPDF_Encoder utf8 = pdf->cur_encoder;
    for (size_t i = 0; i < sizeof info / sizeof *info; i++)
        if (info[i].v && *info[i].v) {
            bool ascii = true;
            for (const char *p = info[i].v; *p && ascii; p++)
                ascii = (unsigned char)*p < 0x80;
            HPDF_Binary u = ascii ? NULL : utf16_string(mm, info[i].v);
            if (ascii || u) {
                pdf->cur_encoder = NULL;
                HPDF_SetInfoAttr(pdf, info[i].k, ascii ? info[i].v : "?");
                if (u && (!pdf->info || HPDF_Dict_Add(pdf->info, info[i].key, u) != HPDF_OK))
                    return cv_error_at(err, (cv_pos){0}, "libharu cannot set the PDF's %s",
                                       info[i].key);
                continue;
            }
            if (!utf8)
                utf8 = HPDF_GetEncoder(pdf, "UTF-8");
            pdf->cur_encoder = utf8;
            HPDF_SetInfoAttr(pdf, info[i].k, info[i].v);
        }
    pdf->cur_encoder = utf8;
    struct tm tm;
    if (m->has_date && to_tm(m->epoch, &tm)) {
        HPDF_Date d = {tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                       tm.tm_sec < 60 ? tm.tm_sec : 59, '+', 0, 0};
        HPDF_SetInfoDateAttr(pdf, HPDF_INFO_CREATION_DATE, d);
        HPDF_SetInfoDateAttr(pdf, HPDF_INFO_MOD_DATE, d);
    }

    bool ok = HPDF_GetError(pdf) == HPDF_OK;
    if (ok && m->lang && *m->lang)
        ok = HPDF_Dict_Add(pdf->catalog, "Lang", HPDF_String_New(mm, m->lang, NULL)) == HPDF_OK;
    HPDF_Dict vp = ok ? HPDF_Dict_New(mm) : NULL;
    ok = vp && HPDF_Dict_AddBoolean(vp, "DisplayDocTitle", HPDF_TRUE) == HPDF_OK &&
         HPDF_Dict_Add(pdf->catalog, "ViewerPreferences", vp) == HPDF_OK;

    if (ok && m->id) {
        HPDF_Array id = HPDF_Array_New(mm);
        ok = id && HPDF_Array_Add(id, HPDF_Binary_New(mm, (HPDF_BYTE *)m->id, 16)) == HPDF_OK &&
             HPDF_Array_Add(id, HPDF_Binary_New(mm, (HPDF_BYTE *)m->id, 16)) == HPDF_OK &&
             HPDF_Dict_Add(pdf->trailer, "ID", id) == HPDF_OK;
    }

    if (ok && (m->pdfa || m->pdfua)) {
        HPDF_Dict xmp = write_xmp(pdf, m, HPDF_GetInfoAttr(pdf, HPDF_INFO_PRODUCER));
        ok = xmp && HPDF_Dict_Add(pdf->catalog, "Metadata", xmp) == HPDF_OK;
        if (ok && m->pdfa && !cv_lib_open(&lcms_lib))
            return cv_error_at(err, (cv_pos){0}, "PDF/A needs lcms2 for its sRGB output "
                               "intent, which cannot be loaded (%s); install the Debian "
                               "package %s", lcms_lib.soname, lcms_lib.package);
        ok = ok && (!m->pdfa || add_output_intent(pdf));
    }
    if (!ok || HPDF_GetError(pdf) != HPDF_OK)
        return cv_error_at(err, (cv_pos){0}, "libharu failed writing the document "
                           "information (error 0x%04X)", (unsigned)HPDF_GetError(pdf));
    return true;
}
