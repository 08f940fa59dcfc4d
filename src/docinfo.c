/* docinfo.c - the PDF's document information.  See docinfo.h. */
#include "docinfo.h"

#include <string.h>

#include "markup.h"

static const char *replace_name(cv_arena *a, const char *tmpl, const char *name)
{
    const char *p = tmpl ? strstr(tmpl, "NAME") : NULL;
    if (!p)
        return tmpl;          /* `pdf: title: ~` (NULL): no title */
    return cv_arena_printf(a, "%.*s%s%s", (int)(p - tmpl), tmpl, name, p + 4);
}

/* RenderCV's settings.pdf_title: NAME and the placeholders of the day
 * (doc->today, YYYY-MM-DD; empty when no date is known). */
static const char *pdf_title(cv_arena *a, const cv_doc *doc, const char *name)
{
    static const char *const ph[] = {
        "NAME", "CURRENT_DATE", "MONTH_NAME", "MONTH_ABBREVIATION", "MONTH_IN_TWO_DIGITS",
        "MONTH", "DAY_IN_TWO_DIGITS", "DAY", "YEAR_IN_TWO_DIGITS", "YEAR", NULL};
    int y = 0, m = 0, dd = 0;
    bool day = doc->today && cv_date_shape(doc->today, &y, &m, &dd) == CV_DATE_DAY &&
               m >= 1 && m <= 12;
    const cv_locale *loc = &doc->locale;
    cv_strbuf b = {0};
    for (const char *p = doc->pdf_title.s; *p;) {
        size_t k = 0;
        while (ph[k] && strncmp(p, ph[k], strlen(ph[k])))
            k++;
        if (!ph[k]) {
            cv_strbuf_put(a, &b, p++, 1);
            continue;
        }
        const char *v = "";
        if (k == 0)
            v = name;
        else if (day) {
            cv_date cd = {.kind = CV_DATE_MONTH, .year = y, .month = m};
            v = k == 1   ? cv_date_format(a, &cd, loc)
              : k == 2   ? (loc->month_full[m - 1] ? loc->month_full[m - 1]
                                                   : cv_locale_english()->month_full[m - 1])
              : k == 3   ? (loc->month_abbr[m - 1] ? loc->month_abbr[m - 1]
                                                   : cv_locale_english()->month_abbr[m - 1])
              : k == 4   ? cv_arena_printf(a, "%02d", m)
              : k == 5   ? cv_arena_printf(a, "%d", m)
              : k == 6   ? cv_arena_printf(a, "%02d", dd)
              : k == 7   ? cv_arena_printf(a, "%d", dd)
              : k == 8   ? cv_arena_printf(a, "%02d", y % 100)
                         : cv_arena_printf(a, "%d", y);
        }
        cv_strbuf_put(a, &b, v, strlen(v));
        p += strlen(ph[k]);
    }
    return b.s ? b.s : "";
}

void cv_display_set_info(cv_arena *a, cv_display *d, const cv_doc *doc, const cv_style *st)
{
    const char *name = doc->name.s ? cv_markup_strip(a, doc->name.s) : NULL;
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
