/* docinfo.c - the PDF's document information.  See docinfo.h. */
#include "docinfo.h"

#include <string.h>

#include "markup.h"

/* Does s[0..n) end (start, `front`) with a separator a title puts
 * between the name and the rest?  Its length then, else 0. */
static size_t separator(const char *s, size_t n, bool front)
{
    static const char *const seps[] = {" ", "-", "|", ":", ",", "/", "\xC2\xB7",
                                       "\xE2\x80\x93", "\xE2\x80\x94", "\xE2\x80\xA2"};
    for (size_t i = 0; i < sizeof seps / sizeof *seps; i++) {
        size_t k = strlen(seps[i]);
        if (k <= n && !memcmp(front ? s : s + n - k, seps[i], k))
            return k;
    }
    return 0;
}

/* A title template without its NAME, and the separators that set the name
 * off ("NAME — Résumé" -> "Résumé", "NAME - CV" -> "CV"): a profile may
 * have no name, and a title is not to start with a dash. */
static const char *without_name(cv_arena *a, const char *tmpl)
{
    const char *p = tmpl ? strstr(tmpl, "NAME") : NULL;
    if (!p)
        return tmpl;
    size_t l = (size_t)(p - tmpl), k;
    while ((k = separator(tmpl, l, false)))
        l -= k;
    const char *r = p + 4;
    size_t rn = strlen(r);
    while ((k = separator(r, rn, true)))
        r += k, rn -= k;
    return cv_arena_printf(a, "%.*s%s%s", (int)l, tmpl, l && rn ? " " : "", r);
}

static const char *replace_name(cv_arena *a, const char *tmpl, const char *name)
{
    if (tmpl && !*name)
        return without_name(a, tmpl);
    const char *p = tmpl ? strstr(tmpl, "NAME") : NULL;
    if (!p)
        return tmpl;          /* `pdf: title: ~` (NULL): no title */
    return cv_arena_printf(a, "%.*s%s%s", (int)(p - tmpl), tmpl, name, p + 4);
}

/* RenderCV's settings.pdf_title: NAME, CURRENT_DATE and the date
 * placeholders of the day (doc->today, YYYY-MM-DD; empty when no date is
 * known), through date.h's one expander. */
static const char *pdf_title(cv_arena *a, const cv_doc *doc, const char *name)
{
    int y = 0, m = 0, dd = 0;
    bool day = doc->today && cv_date_shape(doc->today, &y, &m, &dd) == CV_DATE_DAY &&
               m >= 1 && m <= 12;
    cv_date today = {.kind = CV_DATE_DAY, .year = y, .month = m, .day = dd};
    cv_date month = {.kind = CV_DATE_MONTH, .year = y, .month = m};
    const char *const extra[][2] = {
        {"NAME", name},
        {"CURRENT_DATE", day ? cv_date_format(a, &month, &doc->locale) : ""},
        {NULL, NULL}};
    return cv_date_expand(a, *name ? doc->pdf_title.s : without_name(a, doc->pdf_title.s),
                          day ? &today : NULL, &doc->locale, extra);
}

void cv_display_set_info(cv_arena *a, cv_display *d, const cv_doc *doc, const cv_style *st)
{
    const char *name = doc->name.s ? cv_markup_strip(a, doc->name.s) : NULL;
    if (name && !name[strspn(name, " ")])
        name = NULL;                    /* "" or spaces: no name, no author */
    d->author = name;
    /* RenderCV's settings.pdf_title ("NAME - CV") wins over the layout's. */
    d->title = doc->pdf_title.s
                   ? pdf_title(a, doc, name ? name : "")
                   : replace_name(a, cv_locale_layout_text(a, &doc->locale, st->title_template),
                                  name ? name : "");
    d->subject = doc->headline.s ? cv_markup_strip(a, doc->headline.s) : NULL;
    /* The section titles, as far as 1,000 bytes go: keywords, not a table
     * of contents (and libharu's strings end at 65,535 bytes). */
    enum { KW_MAX = 1000 };
    char *kw = cv_arena_alloc(a, KW_MAX + 1);
    size_t n = 0;
    for (size_t i = 0; i < doc->nsections; i++) {
        const char *t = doc->sections[i].title;
        size_t tl = strlen(t);
        if (n + 2 + tl > KW_MAX)
            break;
        if (n) {
            memcpy(kw + n, ", ", 2);
            n += 2;
        }
        memcpy(kw + n, t, tl);
        n += tl;
    }
    kw[n] = 0;
    d->keywords = n ? kw : NULL;
    d->lang = doc->locale.language;
    d->pdfa = st->pdfa;
    d->pdfua = st->pdfua;
    d->untagged = !st->tagged;
}
