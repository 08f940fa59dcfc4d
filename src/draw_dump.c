/* draw_dump.c - the display list as text, the oracle of the layout tests.
 *
 *   page 1 595.28x841.89
 *   region main 51.02 51.02 544.25 720.00
 *   rule 51.02 700.00 544.25 700.00 w=0.60 #1f3a5f
 *   image 51.02 700.00 85.04 113.39 300x400 rgb photo.png
 *   text 51.02 780.40 w=120.55 Lato-Bold 24 #1f3a5f "Jiarui Fang"
 *   link 51.02 690.00 120.00 700.00 mailto:someone@example.com
 *
 * A page's regions come first: the rectangles its content must stay in
 * ("head", "main", "sidebar", "page_header", "page_footer").  Then its
 * rules, images, text runs and links, in the order the PDF backend draws
 * them.  Coordinates are PDF points from the
 * bottom-left corner, two decimals.  A synthetic-bold run is marked "+bold".
 * An image line gives its bottom-left corner, its placed width and height,
 * the size in pixels of the picture embedded (after any downscaling), gray
 * or rgb, and the base name of its file.
 *
 * With --dump=glyphs each text line is followed by the x of every glyph's
 * origin, computed the way a PDF viewer places the glyphs of the TJ array
 * that draw_hpdf.c writes for the run:
 *
 *   text 20.00 361.90 w=33.96 Lato-Bold 20 #000080 "Ave"
 *     at 20.00 33.04 43.28
 */
#include "draw_dump.h"
#include "unicode.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void put_utf8(FILE *out, uint32_t cp)
{
    if (cp == '"' || cp == '\\')
        fprintf(out, "\\%c", (char)cp);
    else {
        char b[CV_UTF8_MAX];
        fwrite(b, 1, cv_utf8_encode(cp, b), out);
    }
}

static void dump(const cv_display *d, const cv_fontset *fs, bool glyphs, FILE *out)
{
    for (size_t p = 0; p < d->npages; p++) {
        const cv_page *pg = &d->pages[p];
        fprintf(out, "page %zu %.2fx%.2f\n", p + 1, d->width, d->height);
        for (size_t i = 0; i < pg->nregions; i++) {
            const cv_region *g = &pg->regions[i];
            fprintf(out, "region %s %.2f %.2f %.2f %.2f\n", g->name, g->x0, g->y0, g->x1, g->y1);
        }
        for (size_t i = 0; i < d->nmarks; i++)
            if (d->marks[i].page == p)
                fprintf(out, "mark %.2f %s\n", d->marks[i].y, d->marks[i].title);
        for (size_t i = 0; i < pg->nrules; i++) {
            const cv_rule *r = &pg->rules[i];
            fprintf(out, "rule %.2f %.2f %.2f %.2f w=%.2f #%06x\n", r->x0, r->y0, r->x1,
                    r->y1, r->width, r->color);
        }
        for (size_t i = 0; i < pg->nimgs; i++) {
            const cv_img *im = &pg->imgs[i];
            const char *path = im->im && im->im->path ? im->im->path : "?";
            const char *base = strrchr(path, '/');
            fprintf(out, "image %.2f %.2f %.2f %.2f %ux%u %s %s\n", im->x, im->y, im->w, im->h,
                    im->im ? im->im->width : 0, im->im ? im->im->height : 0,
                    im->im && im->im->channels == 1 ? "gray" : "rgb", base ? base + 1 : path);
        }
        for (size_t i = 0; i < pg->nruns; i++) {
            const cv_run *r = &pg->runs[i];
            const cv_face *f = cv_fontset_face(fs, r->face);
            fprintf(out, "text %.2f %.2f w=%.2f %s%s %g #%06x \"", r->x, r->y, r->width,
                    f ? f->psname : "?", r->synth_bold ? "+bold" : "", r->size, r->color);
            for (size_t k = 0; k < r->n; k++) {
                /* A complex script's glyph as the text it stands for. */
                const cv_cluster *cl = cv_display_cluster(d, r->g[k].cp);
                const char *t = cl ? cl->text : NULL;
                if (t)
                    fputs(t, out);
                else
                    put_utf8(out, r->g[k].cp);
            }
            fputs("\"\n", out);
            if (!glyphs)
                continue;
            /* Glyph displacement in text space: (w - TJ) / 1000 * size. */
            fputs("  at", out);
            double x = r->x;
            for (size_t k = 0; k < r->n; k++) {
                fprintf(out, " %.2f", x);
                x += (r->g[k].w + cv_run_tj(r, k)) * (double)r->size / 1000.0;
            }
            fputc('\n', out);
        }
        for (size_t i = 0; i < pg->nlinks; i++) {
            const cv_link *l = &pg->links[i];
            fprintf(out, "link %.2f %.2f %.2f %.2f %s\n", l->x0, l->y0, l->x1, l->y1, l->uri);
        }
    }
}

void cv_draw_dump(const cv_display *d, const cv_fontset *fs, FILE *out)
{
    dump(d, fs, false, out);
}

void cv_draw_dump_glyphs(const cv_display *d, const cv_fontset *fs, FILE *out)
{
    dump(d, fs, true, out);
}
