/* flow.c - cutting the vertical list into pages.  See flow.h.
 *
 * Greedy page filling with backtracking to the last legal break: items are
 * added while they fit; when one does not, the page ends after the last
 * item that allows a break after it (keep_with_next false) and the items
 * after it move to the next page.  If no item on the page allows a break
 * (a keep chain longer than a page, which only absurd inputs make), the
 * page is cut where it overflows.  Space above the first item of a page is
 * dropped, as TeX discards glue at a break.
 */
#include "flow.h"

#include <string.h>

static cv_page *new_page(cv_arena *a, cv_display *d)
{
    cv_page p = {0};
    CV_PUSH(a, d->pages, d->npages, d->cpages, p);
    return &d->pages[d->npages - 1];
}

static void place(cv_arena *a, cv_page *pg, const cv_vitem *it, float left, float top)
{
    for (size_t i = 0; i < it->npieces; i++) {
        const cv_piece *p = &it->pieces[i];
        float x = left + p->dx, y = top - p->dy;
        for (size_t r = 0; r < p->line->nruns; r++) {
            cv_run run = p->line->runs[r];
            run.x += x;
            run.y = y;
            CV_PUSH(a, pg->runs, pg->nruns, pg->cruns, run);
        }
        for (size_t l = 0; l < p->line->nlinks; l++) {
            cv_link lk = p->line->links[l];
            lk.x0 += x, lk.x1 += x, lk.y0 += y, lk.y1 += y;
            CV_PUSH(a, pg->links, pg->nlinks, pg->clinks, lk);
        }
    }
    for (size_t i = 0; i < it->nrules; i++) {
        const cv_vrule *r = &it->rules[i];
        cv_rule rule = {left + r->x0, top - r->dy, left + r->x1, top - r->dy, r->width,
                        r->color};
        CV_PUSH(a, pg->rules, pg->nrules, pg->crules, rule);
    }
}

cv_display *cv_flow(cv_arena *a, const cv_vlist *vl, const cv_style *st)
{
    cv_display *d = cv_arena_alloc(a, sizeof *d);
    d->width = st->page_w;
    d->height = st->page_h;
    float avail = st->page_h - st->margin_top - st->margin_bottom;
    size_t i = 0;
    do {
        /* Decide where this page ends. */
        size_t start = i, end = vl->n;
        float y = 0;
        for (size_t j = start; j < vl->n; j++) {
            const cv_vitem *it = &vl->items[j];
            float h = (j == start ? 0 : it->space_before) + it->height;
            if (j > start && y + h > avail + 0.01f) {
                size_t b = j;
                while (b > start + 1 && vl->items[b - 1].keep_with_next)
                    b--;
                end = vl->items[b - 1].keep_with_next ? j : b;
                break;
            }
            y += h;
        }
        /* Place its items. */
        cv_page *pg = new_page(a, d);
        float top = st->page_h - st->margin_top;
        y = 0;
        for (size_t j = start; j < end; j++) {
            const cv_vitem *it = &vl->items[j];
            if (j > start)
                y += it->space_before;
            place(a, pg, it, st->margin_left, top - y);
            y += it->height;
        }
        i = end;
    } while (i < vl->n);
    return d;
}

static const char *replace_name(cv_arena *a, const char *tmpl, const char *name)
{
    const char *p = strstr(tmpl, "NAME");
    if (!p)
        return tmpl;
    return cv_arena_printf(a, "%.*s%s%s", (int)(p - tmpl), tmpl, name, p + 4);
}

void cv_display_set_info(cv_arena *a, cv_display *d, const cv_doc *doc, const cv_style *st)
{
    const char *name = cv_markup_strip(a, doc->name.s);
    d->author = name;
    d->title = replace_name(a, st->title_template, name);
    d->subject = doc->headline.s ? cv_markup_strip(a, doc->headline.s) : NULL;
    const char *kw = "";
    for (size_t i = 0; i < doc->nsections; i++)
        kw = cv_arena_printf(a, "%s%s%s", kw, i ? ", " : "", doc->sections[i].title);
    d->keywords = *kw ? kw : NULL;
}
