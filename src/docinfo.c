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

void cv_display_set_info(cv_arena *a, cv_display *d, const cv_doc *doc, const cv_style *st)
{
    const char *name = doc->name.s ? cv_markup_strip(a, doc->name.s) : NULL;
    d->author = name;
    /* RenderCV's settings.pdf_title ("NAME - CV") wins over the layout's. */
    d->title = replace_name(a, doc->pdf_title.s ? doc->pdf_title.s : st->title_template,
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
}
