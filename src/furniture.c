/* furniture.c - the running header and footer.  See furniture.h.
 *
 * Each slot is one line, in the margin with its middle a third of the way
 * from the text; the left and right slots may take half the measure, the
 * centre one all of it.  The running header's runs go first on the page,
 * so that text extraction reads it first.
 */
#include "furniture.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "flow.h"
#include "markup.h"
#include "template.h"
#include "wrap.h"

/* "2026-11-21" -> "Nov 2026" with the profile's locale. */
static const char *format_date(cv_arena *a, const char *iso, const cv_doc *doc)
{
    cv_date d = {.kind = CV_DATE_DAY};
    if (!iso || sscanf(iso, "%d-%d-%d", &d.year, &d.month, &d.day) != 3 || d.month < 1 ||
        d.month > 12)
        return NULL;
    return cv_markup_escape(a, cv_date_format(a, &d, &doc->locale));
}

void cv_furnish(cv_arena *a, cv_display *d, const cv_doc *doc, const cv_ctx *pc,
                const char *date, cv_error *err)
{
    const cv_style *st = pc->lay;
    const cv_running *run[2] = {&st->page_header, &st->page_footer};
    float width = st->page_w - st->margin_left - st->margin_right;
    const char *shown = format_date(a, date, doc);
    for (int k = 0; k < 2; k++) {
        const cv_running *r = run[k];
        if (!r->slot[0] && !r->slot[1] && !r->slot[2])
            continue;
        if (d->npages == 1 && !r->single_page)
            continue;
        /* In the margin, its middle a third of the way from the text. */
        const cv_face *f = cv_fontset_face(pc->eng->fonts, pc->chain[0][0]);
        float cap = f->ascender * r->size / 1000.0f * 0.7f;
        float base = k ? st->margin_bottom * 0.5f - cap / 2
                       : st->page_h - st->margin_top * 0.5f - cap / 2;
        cv_textfmt tf = {.size = r->size, .color = r->color, .link_color = r->color};
        for (size_t p = 0; p < d->npages; p++) {
            if ((p == 0 && !r->first_page) || (p > 0 && r->only_first_page))
                continue;
            cv_pagevars fu = {p + 1, d->npages, shown};
            cv_page *pg = &d->pages[p];
            bool any = false;
            size_t first = pg->nruns;
            for (int slot = 0; slot < 3; slot++) {
                if (!r->slot[slot])
                    continue;
                cv_span *sp;
                size_t n = cv_template_expand_page(a, r->slot[slot], doc, &fu, &sp);
                if (!n)
                    continue;
                cv_line *lines;
                size_t nl = cv_wrap(a, pc, sp, n, &tf, width / (slot == 1 ? 1 : 2),
                                    (cv_pos){st->file, 0, 0}, &lines, p ? NULL : err);
                if (!nl)
                    continue;
                const cv_line *ln = &lines[0];
                float x = st->margin_left + (slot == 0 ? 0
                                             : slot == 1 ? (width - ln->width) / 2
                                                         : width - ln->width);
                cv_page_put_line(a, pg, ln, x, base);
                any = true;
            }
            /* The running header is read first: move its runs to the front. */
            if (any && !k && first) {
                size_t n = pg->nruns - first;
                cv_run *tmp = cv_arena_alloc(a, n * sizeof *tmp);
                memcpy(tmp, pg->runs + first, n * sizeof *tmp);
                memmove(pg->runs + n, pg->runs, first * sizeof *tmp);
                memcpy(pg->runs, tmp, n * sizeof *tmp);
            }
            if (any && k)
                cv_page_add_region(pg, "page_footer", st->margin_left, 0,
                                   st->page_w - st->margin_right, st->margin_bottom);
            else if (any)
                cv_page_add_region(pg, "page_header", st->margin_left,
                                   st->page_h - st->margin_top, st->page_w - st->margin_right,
                                   st->page_h);
        }
    }
}
