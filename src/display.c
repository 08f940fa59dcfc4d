/* display.c - building the display list (display.h). */
#include "display.h"

#include <math.h>

cv_page *cv_display_page(cv_arena *a, cv_display *d)
{
    cv_page p = {0};
    CV_PUSH(a, d->pages, d->npages, d->cpages, p);
    return &d->pages[d->npages - 1];
}

void cv_page_put_line(cv_arena *a, cv_page *pg, const cv_line *ln, float x, float y)
{
    unsigned line = ++pg->nlines;
    for (size_t r = 0; r < ln->nruns; r++) {
        cv_run run = ln->runs[r];
        run.x += x;
        run.y += y;          /* a run may sit above its line's baseline (compose.c) */
        run.line = line;
        CV_PUSH(a, pg->runs, pg->nruns, pg->cruns, run);
    }
    for (size_t l = 0; l < ln->nlinks; l++) {
        cv_link lk = ln->links[l];
        lk.x0 += x, lk.x1 += x, lk.y0 += y, lk.y1 += y;
        lk.line = line;
        CV_PUSH(a, pg->links, pg->nlinks, pg->clinks, lk);
    }
}

void cv_page_add_region(cv_page *pg, const char *name, float x0, float y0, float x1, float y1)
{
    if (pg->nregions < CV_MAX_REGIONS)
        pg->regions[pg->nregions++] = (cv_region){name, x0, y0, x1, y1};
}

double cv_run_tj(const cv_run *r, size_t k)
{
    /* Tenths of a thousandth of an em are finer than print. */
    float adj = r->g[k].adj;
    if (k + 1 >= r->n || fabsf(adj) < 0.05f)
        return 0;
    return round((double)adj * 10) / 10;
}

int cv_cluster_order(const void *a, const void *b)
{
    uint32_t x = ((const cv_cluster *)a)->cp, y = ((const cv_cluster *)b)->cp;
    return (x > y) - (x < y);
}

const cv_cluster *cv_cluster_find(const cv_cluster *cl, size_t n, uint32_t cp)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cl[mid].cp < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && cl[lo].cp == cp ? &cl[lo] : NULL;
}

const cv_cluster *cv_display_cluster(const cv_display *d, uint32_t cp)
{
    return cv_cluster_find(d->clusters, d->nclusters, cp);
}
