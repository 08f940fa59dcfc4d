/* render.c - one profile through the pipeline, and the CV book (render.h). */
#include "render.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "bib.h"
#include "bidi.h"
#include "cjk.h"
#include "compose.h"
#include "ctx.h"
#include "datadir.h"
#include "doc.h"
#include "docinfo.h"
#include "draw_dump.h"
#include "draw_hpdf.h"
#include "fit.h"
#include "flow.h"
#include "furniture.h"
#include "html.h"
#include "jsonsyntax.h"
#include "lang.h"
#include "md.h"
#include "output.h"
#include "phone.h"
#include "photo.h"
#include "stop.h"
#include "woff2_shim.h"
#include "wrap.h"

/* --explain: where each page starts, and why. */
static void explain(const char *profile, const cv_display *d, const cv_composed *c,
                    const cv_flowlog *log, const char *pulled)
{
    static const char *const cols[] = {"main column", "sidebar"};
    printf("%s: %zu page%s\n", profile, d->npages, d->npages == 1 ? "" : "s");
    if (pulled)
        printf("  last page: %s\n", pulled);
    for (size_t i = 0; i < log->nbreaks; i++) {
        const cv_break *b = &log->breaks[i];
        printf("  page %zu%s%s: starts with %s: %s\n", b->page + 1, c->ncols > 1 ? ", " : "",
               c->ncols > 1 ? cols[b->col] : "", c->col[b->col].items[b->item].what,
               b->reason);
    }
    for (size_t i = 0; i < log->nnotes; i++)
        printf("  note: %s\n", log->notes[i]);
}

/* --fit-pages (or the layout's fit_pages): the style to render with, which
 * is `st` itself when there is nothing to fit, or `fitted`.  *fitting says
 * whether a page count was asked for (without one, a nearly empty last
 * page may be pulled back once the résumé is composed). */
static const cv_style *fit(cv_arena *a, const cv_renderer *r, const cv_ctx *pc,
                           const char *profile, const cv_doc *doc, const cv_image *photo,
                           cv_style *fitted, bool *fitting, cv_error *err)
{
    const cv_style *st = pc->lay;
    long pages = r->opt->fit_pages >= 0 ? r->opt->fit_pages : (long)st->fit_pages;
    const char *what;
    *fitting = pages > 0;
    if (pages <= 0)
        return st;
    if (!cv_fit(a, doc, pc, photo, (size_t)pages, fitted, &what, err))
        return st;
    if (what)
        cv_note(err, (cv_pos){profile, 0, 0}, "fitted to %ld page%s: %s", pages,
                pages == 1 ? "" : "s", what);
    return fitted;
}

/* "Last updated": --date, the profile's settings.current_date, or
 * SOURCE_DATE_EPOCH (into buf), so that output never depends on the clock
 * - unless the profile asks for it with `current_date: today`. */
static const char *last_updated(const cv_options *o, const cv_doc *doc, char buf[16])
{
    if (o->date)
        return o->date;
    if (doc->current_date.s)
        return doc->current_date.s;
    time_t tt = o->has_epoch ? (time_t)o->epoch : doc->date_today ? time(NULL) : 0;
    struct tm tm;
    if ((o->has_epoch || doc->date_today) && gmtime_r(&tt, &tm) &&
        strftime(buf, 16, "%Y-%m-%d", &tm))
        return buf;
    return NULL;
}

/* The style of a profile with RenderCV's design: its theme's layout
 * (layouts/THEME.yaml beside the default layout) with the translated
 * options over it; a layout given with -l wins.  NULL with err set when
 * the translated options do not resolve. */
static const cv_style *design_style(cv_arena *a, const cv_renderer *r, const cv_doc *doc,
                                    cv_style *own, cv_error *err)
{
    const cv_design *dz = &doc->design;
    if (!dz->layout) {
        /* RenderCV would lay such a file out in its classic theme: say so. */
        if (!r->opt->layout && doc->rendercv_file)
            cv_note(err, (cv_pos){doc->file, 1, 1}, "no 'design:' and no -l: laid out with "
                    "cvpdf's default layout, onecolumn; for RenderCV's look (its classic "
                    "theme) add 'design: {theme: classic}' or run with -l classic");
        return r->style;
    }
    if (r->opt->layout) {
        cv_note(err, dz->pos, "the layout given with -l is used; 'design' is ignored");
        /* But not how the file's phone numbers and dates read (RenderCV's
         * phone_number_format, national by default; its date templates,
         * time spans and English month abbreviations): that is its
         * content's, not its look's. */
        static const char *const content[] = {
            "header.phone_format", "dates.single", "dates.range", "dates.time_span",
            "dates.show_time_spans_in", "dates.english_month_abbreviations", NULL};
        *own = *r->style;
        /* --set layout.* wins over the file's, as everywhere. */
        return cv_style_read_keys(dz->layout, content, own, err) &&
                       (!r->layout_sets ||
                        cv_style_read_keys(r->layout_sets, content, own, err))
                   ? own
                   : NULL;
    }
    char *dir = cv_arena_strdup(a, r->style->file);
    char *slash = strrchr(dir, '/');
    const char *path = slash ? (*slash = 0, cv_arena_printf(a, "%s/%s.yaml", dir, dz->theme))
                             : cv_arena_printf(a, "%s.yaml", dz->theme);
    /* --set layout.* wins over the profile's design:. */
    const cv_yml *over = r->layout_sets ? cv_yml_merge(a, dz->layout, r->layout_sets)
                                        : dz->layout;
    return cv_style_load_over(a, path, over, r->eng, own, err) ? own : NULL;
}

/* What cv_render_read_pipes() read of `profile` (one of r->opt->profiles,
 * by address), or NULL. */
static const cv_pretext *pretext(const cv_renderer *r, const char *profile)
{
    for (int i = 0; r->pre && i < r->opt->nprofiles; i++)
        if (r->opt->profiles[i] == profile)
            return r->pre[i].text || r->pre[i].fail ? &r->pre[i] : NULL;
    return NULL;
}

void cv_render_read_pipes(cv_arena *a, cv_renderer *r)
{
    const cv_options *o = r->opt;
    cv_pretext *pre = cv_arena_alloc(a, ((size_t)o->nprofiles + 1) * sizeof *pre);
    memset(pre, 0, ((size_t)o->nprofiles + 1) * sizeof *pre);
    for (int i = 0; i < o->nprofiles; i++) {
        const char *p = o->profiles[i];
        struct stat st;
        if (!strcmp(p, "-") || stat(p, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
            continue;
        /* The same profile named twice is read once. */
        for (int j = 0; j < i && !pre[i].text && !pre[i].fail; j++)
            if (!strcmp(o->profiles[j], p))
                pre[i] = pre[j];
        if (pre[i].text || pre[i].fail)
            continue;
        cv_error e;
        cv_error_init(&e);
        e.quiet = true;
        size_t len = 0;
        cv_stop_timeout_about(p);       /* a FIFO may never be written */
        char *text = cv_yml_read_file(a, p, &len, &e);
        cv_stop_timeout_about("cvpdf");
        if (text)
            pre[i] = (cv_pretext){text, len, NULL};
        else
            pre[i] = (cv_pretext){NULL, 0, cv_arena_strdup(a, e.msg)};
    }
    r->pre = pre;
}

/* A profile loaded for rendering: the document, the layout it is set in
 * (the run's or its design:'s, in *own), its photo (NULL: none).  False
 * with err set. */
static bool load(cv_arena *a, const cv_renderer *r, const char *profile, cv_doc **docp,
                 const cv_style **basep, cv_style *own, const cv_image **photop,
                 cv_error *err)
{
    const cv_options *o = r->opt;
    const cv_pretext *pt = pretext(r, profile);
    if (pt && pt->fail)
        return cv_error_at(err, (cv_pos){profile, 0, 0}, "%s", pt->fail);
    cv_doc *doc = pt ? cv_doc_load_text_over(a, profile, pt->text, pt->len, r->defaults,
                                             r->sets, err)
                : strcmp(profile, "-")
                      ? cv_doc_load_over(a, profile, r->defaults, r->sets, err)
                      : cv_doc_load_text_over(a, "<stdin>", r->stdin_text ? r->stdin_text : "",
                                              r->stdin_len, r->defaults, r->sets, err);
    if (!doc || err->set)
        return false;
    for (size_t i = 0; i < doc->nsections; i++)      /* no output may overwrite a .bib */
        if (doc->sections[i].bib)
            cv_inputs_add(r->eng->inputs, doc->sections[i].bib, "a .bib file");
    char date[16];
    doc->today = last_updated(o, doc, date);
    if (doc->today)
        doc->today = cv_arena_strdup(a, doc->today);
    const cv_style *base = design_style(a, r, doc, own, err);
    if (!base || err->set)
        return false;
    /* The layout's date forms over the profile's locale, then the words
     * it still lacks in its language (lang.h). */
    cv_locale_dates(a, &doc->locale, base->date_single, base->date_range,
                    base->english_abbr);
    if (!cv_locale_localize(a, &doc->locale, r->eng->locales, err))
        return false;
    const cv_image *photo = cv_photo_load(a, doc, base, err);
    if (err->set)
        return false;
    *docp = doc;
    *basep = base;
    *photop = photo;
    return true;
}

cv_display *cv_render_lay_out(cv_arena *a, const cv_renderer *r, const char *profile,
                              cv_error *err)
{
    const cv_options *o = r->opt;
    cv_doc *doc;
    cv_style own;
    const cv_style *base;
    const cv_image *photo;
    if (!load(a, r, profile, &doc, &base, &own, &photo, err))
        return NULL;
    (void)cv_bidi_missing();    /* what an earlier profile lacked (checked below) */
    /* The profile's context: its language and direction, the layout's
     * faces in its region (JP for Japanese, ...); then fit. */
    cv_ctx own_cx, fit_cx, pb_cx;
    cv_ctx_init(&own_cx, r->eng, base, doc->locale.language, doc->locale.rtl);
    /* Each paragraph is set once, whatever spacing the compositions below
     * try (wrap.h's cv_setcache). */
    cv_setcache_trim(r->shared);        /* no other profile's lines are held now */
    own_cx.sc = cv_setcache_new(a, r->shared);
    const cv_ctx *pc = &own_cx;
    const char *pulled = NULL;
    bool fitting;
    cv_style *fitted = cv_arena_alloc(a, sizeof *fitted);
    const cv_style *lay = fit(a, r, pc, profile, doc, photo, fitted, &fitting, err);
    if (err->set)
        return NULL;
    pc = cv_ctx_with(pc, lay, &fit_cx);
    cv_composed c;
    if (!cv_fit_compose(a, doc, pc, photo, &c, err) || err->set)
        return NULL;
    /* The last-page rule (fit.h): a nearly empty last page pulled back by
     * tightening the spacing; *pulled says what was done, or why not, for
     * --explain. */
    cv_style *pb = cv_arena_alloc(a, sizeof *pb);
    if (!fitting && cv_fit_pull_back(a, doc, pc, photo, &c, pb, &pulled)) {
        pc = cv_ctx_with(pc, pb, &pb_cx);   /* again, quietly: its warnings were given */
        if (!cv_fit_trial(a, doc, pc, photo, &c))
            return NULL;
    }
    cv_flowlog log = {0};
    cv_display *d = cv_flow(a, &c, pc->lay, o->explain ? &log : NULL);
    if (o->explain)
        explain(profile, d, &c, &log, pulled);
    cv_furnish(a, d, doc, pc, doc->today, err);
    if (pc->rtl)
        cv_bidi_mirror(d);
    /* A line that needed FriBidi, when it could not be opened (bidi.h). */
    const char *no_bidi = cv_bidi_missing();
    if (no_bidi) {
        cv_error_at(err, (cv_pos){profile, 0, 0}, "%s", no_bidi);
        return NULL;
    }
    cv_display_set_info(a, d, doc, pc->lay);
    cv_wrap_clusters(a, pc, d);
    d->pdfa = d->pdfa || o->pdfa;
    if (o->pdfa && o->pdfa_part == 2) {
        d->pdfa_part = 2;
        d->pdfa_conformance = o->pdfa_conformance;
    }
    d->pdfua = d->pdfua || o->pdfua;
    d->has_date = o->has_epoch;
    d->epoch = o->epoch;
    return err->set ? NULL : d;
}

/* Every file this résumé was made from is an input of the run: the
 * profile, its photo, the fonts (the layout and defaults are noted when
 * they are read). */
static void note_inputs(cv_engine *eng, const char *profile, const cv_display *d)
{
    if (strcmp(profile, "-"))
        cv_inputs_add(eng->inputs, profile, "a profile");
    for (size_t p = 0; p < d->npages; p++)
        for (size_t i = 0; i < d->pages[p].nimgs; i++)
            cv_inputs_add(eng->inputs, d->pages[p].imgs[i].im->path, "a photo");
    cv_engine_note_fonts(eng);
}

/* A path named in `profile` (relative to its directory), noted as `what`. */
static void note_named(cv_arena *a, cv_inputs *in, const char *profile, const cv_yml *n,
                       const char *what)
{
    if (!n || n->kind != CV_YML_SCALAR || !*n->str)
        return;
    const char *path = n->str;
    if (path[0] != '/' && strchr(profile, '/'))
        path = cv_arena_printf(a, "%s/%s", dirname(cv_arena_strdup(a, profile)), path);
    cv_inputs_add(in, path, what);
}

/* Can `text` (len bytes) name no photo, .bib, design or locale file, by
 * its bytes alone?  Then note_profile() need not parse it (a third of a
 * résumé's YAML work).  True only when no key it looks for (photo, image,
 * bib; design and locale where render_command is written, the only key
 * they name files under: a profile's own `locale:` is its language) is
 * written as one -- the word, maybe a closing quote, blanks, a colon --
 * no value ends in .bib, and nothing could spell them otherwise: no
 * backslash (escapes), no anchor (aliases and merges), no NUL byte
 * (UTF-16). */
static bool names_nothing(const char *text, size_t len)
{
    static const char *const keys[] = {"photo", "image", "bib", "design", "locale"};
    const char *end = text + len;
    if (memchr(text, 0, len) || memchr(text, '\\', len))
        return false;
    for (const char *p = text; (p = memchr(p, '&', (size_t)(end - p))); p++)
        if (p + 1 < end && !strchr(" \t\r\n", p[1]) &&
            (p == text || strchr(" \t\r\n[{,:?-!", p[-1])))
            return false;                            /* maybe an anchor */
    for (const char *p = text; (p = memchr(p, '.', (size_t)(end - p))); p++)
        if (end - p >= 4 && !strncasecmp(p + 1, "bib", 3))
            return false;
    size_t nkeys = memmem(text, len, "render_command", 14) ? 5 : 3;
    /* Each colon, read backwards: blanks, maybe a quote, then a key's end
     * (one pass; a search for each key cost five). */
    for (const char *c = text; (c = memchr(c, ':', (size_t)(end - c))); c++) {
        const char *q = c;
        while (q > text && strchr(" \t\r\n", q[-1]))      /* no NUL: see above */
            q--;
        if (q > text && (q[-1] == '"' || q[-1] == '\''))
            q--;
        for (size_t k = 0; k < nkeys; k++) {
            size_t n = strlen(keys[k]);
            if ((size_t)(q - text) >= n && !memcmp(q - n, keys[k], n))
                return false;
        }
    }
    return true;
}

/* The photo and the .bib files `profile` names, read from its tree alone
 * (nothing is parsed but the YAML or JSON: a .bib is only named). */
static void note_profile(const cv_renderer *r, const char *profile, cv_inputs *in)
{
    /* A pipe (`<(...)`) was read ahead (cv_render_read_pipes()), and so
     * was the standard input (its photo is named from here: "-" has no
     * directory). */
    const cv_pretext *pt = pretext(r, profile);
    cv_pretext in_stdin = {r->stdin_text, r->stdin_len, NULL};
    if (!pt && !strcmp(profile, "-") && r->stdin_text)
        pt = &in_stdin;
    struct stat st;
    if (!pt && (!strcmp(profile, "-") || stat(profile, &st) != 0 || !S_ISREG(st.st_mode)))
        return;
    if (pt && !pt->text)
        return;
    cv_arena *a = cv_arena_new();
    cv_error quiet;
    cv_error_init(&quiet);
    quiet.quiet = true;
    size_t len = pt ? pt->len : 0;
    const char *text = pt ? pt->text : cv_yml_read_file(a, profile, &len, &quiet);
    if (text && !r->defaults && names_nothing(text, len)) {
        cv_arena_free(a);
        return;
    }
    if (text && cv_json_is(profile, text, len))         /* as cv_doc_load_with() reads it */
        text = cv_json_unpair(a, text, len, &len);
    const cv_yml *root = text ? cv_yml_load(a, profile, text, len, &quiet) : NULL;
    if (root && root->kind == CV_YML_MAP && r->defaults)
        root = cv_yml_merge(a, r->defaults, root);
    const cv_yml *cv = root ? cv_yml_get(root, "cv") : NULL;
    const cv_yml *basics = root ? cv_yml_get(root, "basics") : NULL;     /* JSON Resume */
    note_named(a, in, profile, cv_yml_get(cv, "photo"), "a photo");
    note_named(a, in, profile, cv_yml_get(basics, "image"), "a photo");
    const cv_yml *set = root ? cv_yml_get(root, "settings") : NULL;
    const cv_yml *rc = cv_yml_get(set, "render_command");      /* design: and locale: files */
    note_named(a, in, profile, cv_yml_get(rc, "design"), "a design file");
    note_named(a, in, profile, cv_yml_get(rc, "locale"), "a locale file");
    const cv_yml *secs = cv_yml_get(cv, "sections");
    for (size_t i = 0; secs && secs->kind == CV_YML_MAP && i < secs->n; i++) {
        const cv_yml *v = secs->items[i];
        if (cv_bib_is_source(v))
            note_named(a, in, profile, v->kind == CV_YML_MAP ? cv_yml_get(v, "bib") : v,
                       "a .bib file");
    }
    cv_arena_free(a);
}

void cv_render_note_all(const cv_renderer *r)
{
    cv_engine *eng = r->eng;
    const cv_options *o = r->opt;
    for (int i = 0; i < o->nprofiles; i++) {
        cv_inputs_add(eng->inputs, o->profiles[i], "a profile");
        note_profile(r, o->profiles[i], eng->inputs);
    }
    cv_arena *a = cv_arena_new();
    cv_datadir_note(a, eng->inputs);
    cv_arena_free(a);
    cv_phone_note_module(eng->inputs);
    cv_woff2_note_module(eng->inputs);
    cv_engine_note_fonts(eng);
}

/* The title of the section at (page, y) of d: the last bookmark at or
 * before it, or NULL. */
static const char *section_at(const cv_display *d, size_t page, float y)
{
    const char *t = NULL;
    for (size_t i = 0; i < d->nmarks; i++)
        if (d->marks[i].page < page || (d->marks[i].page == page && d->marks[i].y >= y))
            t = d->marks[i].title;
    return t;
}

/* Is node `n` `x` or inside it? */
static bool inside(const cv_tags *t, int n, int x)
{
    for (int hops = 0; n > 0 && hops < 1000; hops++, n = t->nodes[n].parent)
        if (n == x)
            return true;
    return false;
}

/* Is `d` within what libharu can write (CV_MAX_PAGES and the rest)?  False
 * with err set, naming the profile and the section. */
static bool within_limits(cv_arena *a, const char *profile, const cv_display *d,
                          cv_error *err)
{
    cv_pos at = {strcmp(profile, "-") ? profile : "<stdin>", 0, 0};
    if (d->npages > CV_MAX_PAGES) {
        const char *sec = section_at(d, CV_MAX_PAGES, 0);
        return cv_error_at(err, at, "the résumé has %zu pages, more than the %d cvpdf "
                           "writes; it passes them in %s%s%s", d->npages, CV_MAX_PAGES,
                           sec ? "section '" : "its first section", sec ? sec : "",
                           sec ? "'" : "");
    }
    const cv_tags *t = d->tags;
    if (!t)
        return true;
    size_t links = 0;
    for (size_t p = 0; p < d->npages; p++)
        links += d->pages[p].nlinks;
    if (d->npages + links > CV_MAX_MARKED)
        return cv_error_at(err, at, "the résumé has %zu pages and %zu links, more than the "
                           "%d together a tagged PDF of cvpdf's holds", d->npages, links,
                           CV_MAX_MARKED);
    size_t *kids = cv_arena_alloc(a, t->n * sizeof *kids);
    memset(kids, 0, t->n * sizeof *kids);
    int over = 0;
    for (size_t i = 2; i < t->n && !over; i++)
        if (t->nodes[i].parent > 0 && (size_t)t->nodes[i].parent < t->n &&
            ++kids[t->nodes[i].parent] > CV_MAX_CHILDREN)
            over = t->nodes[i].parent;
    if (!over)
        return true;
    const char *sec = NULL;
    for (size_t p = 0; p < d->npages && !sec; p++)
        for (size_t r = 0; r < d->pages[p].nruns && !sec; r++)
            if (inside(t, d->pages[p].runs[r].tag, over))
                sec = section_at(d, p, d->pages[p].runs[r].y);
    return cv_error_at(err, at, "%s%s%s holds more than %d items, more than one part of a "
                       "résumé may have in cvpdf's PDF; split it into sections",
                       sec ? "section '" : "a section", sec ? sec : "", sec ? "'" : "",
                       CV_MAX_CHILDREN);
}

/* Draw `d` to `out` in the run's format. */
static bool draw(cv_arena *a, const cv_renderer *r, const cv_display *d, const char *out,
                 cv_error *err)
{
    cv_engine *eng = r->eng;
    if (r->format != CV_FORMAT_PNG && r->format != CV_FORMAT_SVG)
        return cv_draw_pdf(d, eng->fonts, out, eng->inputs, err) && !err->set;
    char *pdf;
    size_t len;
    bool ok = cv_draw_pdf_bytes(d, eng->fonts, out, &pdf, &len, err) &&
              cv_raster_write(a, pdf, len, r->format, (double)r->opt->dpi, out, eng->inputs,
                              err) && !err->set;
    free(pdf);
    return ok;
}

/* The web formats (HTML, Markdown) are written from the profile, not from
 * the display list: loaded as for a PDF, then handed to their writer with
 * the profile's context (its language, direction and faces). */
static bool write_web(cv_arena *a, const cv_renderer *r, const char *profile, const char *out,
                      cv_error *err)
{
    cv_doc *doc;
    cv_style own;
    const cv_style *base;
    const cv_image *photo;
    if (!load(a, r, profile, &doc, &base, &own, &photo, err))
        return false;
    cv_ctx cx;
    cv_ctx_init(&cx, r->eng, base, doc->locale.language, doc->locale.rtl);
    if (strcmp(profile, "-"))
        cv_inputs_add(r->eng->inputs, profile, "a profile");
    if (photo)
        cv_inputs_add(r->eng->inputs, photo->path, "a photo");
    cv_engine_note_fonts(r->eng);
    if (r->format == CV_FORMAT_HTML)
        return cv_html_write(a, doc, &cx, photo, out, r->eng->inputs, err) && !err->set;
    return cv_md_write(a, doc, &cx, out, r->eng->inputs, err) && !err->set;
}

/* "wrote OUT: N pages, T ms" on stderr, for a run of one output on a
 * terminal (o->progress; a batch has its progress lines instead): PNG and
 * SVG pages by their files' names. */
static void say_written(const cv_renderer *r, const char *out, size_t npages,
                        const struct timespec *t0)
{
    const cv_options *o = r->opt;
    if (!o->progress || (o->nprofiles > 1 && !o->merge) || o->dump)
        return;
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
                (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
    char shown[512];
    fputs("wrote ", stderr);
    if (!strcmp(out, "-"))
        fputs("the standard output", stderr);
    else if (r->format != CV_FORMAT_PNG && r->format != CV_FORMAT_SVG)
        fputs(cv_escape(out, shown, sizeof shown), stderr);
    else {
        cv_arena *a = cv_arena_new();
        for (size_t k = 1; k <= npages; k++)
            fprintf(stderr, "%s%s", k > 1 ? ", " : "",
                    cv_escape(cv_raster_page_name(a, out, k), shown, sizeof shown));
        cv_arena_free(a);
    }
    if (r->format == CV_FORMAT_HTML || r->format == CV_FORMAT_MD)   /* no pages */
        fprintf(stderr, ", %.0f ms\n", ms);
    else
        fprintf(stderr, ": %zu page%s, %.0f ms\n", npages, npages == 1 ? "" : "s", ms);
}

cv_doc *cv_render_load(cv_arena *a, const cv_renderer *r, const char *profile, cv_error *err)
{
    cv_doc *doc;
    cv_style own;
    const cv_style *base;
    const cv_image *photo;
    return load(a, r, profile, &doc, &base, &own, &photo, err) ? doc : NULL;
}

bool cv_render_one(const cv_renderer *r, const char *profile, const char *out)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cv_engine *eng = r->eng;
    const cv_fontset *fonts = eng->fonts;
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init_for(&err, &r->eng->diag);
    bool ok = false;
    bool web = !r->opt->dump && (r->format == CV_FORMAT_HTML || r->format == CV_FORMAT_MD);
    cv_display *d = web ? NULL : cv_render_lay_out(a, r, profile, &err);
    if (web) {
        ok = write_web(a, r, profile, out, &err);
        if (ok)
            say_written(r, out, 1, &t0);
    } else if (d && r->opt->dump) {
        if (r->opt->dump > 1)
            cv_draw_dump_glyphs(d, fonts, stdout);
        else
            cv_draw_dump(d, fonts, stdout);
        ok = true;
    } else if (d && within_limits(a, profile, d, &err)) {
        note_inputs(eng, profile, d);
        ok = draw(a, r, d, out, &err);
        if (ok)
            say_written(r, out, d->npages, &t0);
    }
    if (!ok)
        cv_error_print(&err);
    cv_arena_free(a);
    return ok;
}

/* The book's title: "Résumés: Jiaao He, Shen Li, ...", at most about 1,000
 * bytes; `who` is the next person's name, `nth` how many came before. */
typedef struct title {
    char s[1100];
    size_t len;
    int names;               /* how many names it has */
} title;

static void title_add(title *t, const char *who, int nth)
{
    const char *sep = nth ? ", " : "";
    if (t->len < 1000 && t->len + strlen(who) < 1000)
        t->len += (size_t)snprintf(t->s + t->len, sizeof t->s - t->len, "%s%s", sep, who);
    else if (t->len < 1000)
        t->len = 1000 + (size_t)snprintf(t->s + t->len, sizeof t->s - t->len, "%s...", sep);
}

/* The book's first pass: lay out each profile, note the characters it
 * draws and its author.  good[i] says which ones to add.  Returns the
 * failures. */
static int book_note(const cv_renderer *r, cv_book *k, char **profiles, int n, bool *good,
                     title *t)
{
    int failed = 0;
    for (int i = 0; i < n; i++) {
        cv_arena *a = cv_arena_new();
        cv_error err;
        cv_error_init_for(&err, &r->eng->diag);
        const cv_display *d = cv_render_lay_out(a, r, profiles[i], &err);
        if (d && !within_limits(a, profiles[i], d, &err))
            d = NULL;
        if (d) {
            cv_book_note(k, d);
            good[i] = true;
            if (d->author)              /* a résumé without a name adds none */
                title_add(t, d->author, t->names++);
        } else {
            cv_error_print(&err);
            failed++;
        }
        if (r->opt->progress)
            fprintf(stderr, "[%d/%d] %s %s\n", i + 1, n, d ? "ok  " : "FAIL", profiles[i]);
        cv_arena_free(a);
    }
    return failed;
}

/* The second pass: lay out each good profile again and add its pages. */
static bool book_add(const cv_renderer *r, cv_book *k, char **profiles, int n,
                     const bool *good, size_t *npages, cv_error *err)
{
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        if (!good[i])
            continue;
        cv_arena *a = cv_arena_new();
        cv_error again;
        cv_error_init_for(&again, &r->eng->diag);
        again.quiet = true;             /* its warnings were printed already */
        const cv_display *d = cv_render_lay_out(a, r, profiles[i], &again);
        if (d) {
            note_inputs(r->eng, profiles[i], d);
            *npages += d->npages;
        }
        ok = d && cv_book_add(k, d, err);
        cv_arena_free(a);
    }
    return ok;
}

/* The book, as a PDF or as PNG or SVG pages. */
static bool book_write(cv_arena *a, const cv_renderer *r, cv_book *k, const char *name,
                       cv_error *err)
{
    const cv_inputs *inputs = r->eng->inputs;
    const char *path = r->opt->merge;
    if (r->format != CV_FORMAT_PNG && r->format != CV_FORMAT_SVG)
        return cv_book_write(k, name, path, inputs, err);
    char *pdf;
    size_t len;
    bool ok = cv_book_bytes(k, name, path, &pdf, &len, err) &&
              cv_raster_write(a, pdf, len, r->format, (double)r->opt->dpi, path, inputs, err);
    free(pdf);
    return ok;
}

/* Two passes, so that only one résumé is in memory at a time: the first
 * notes the characters each draws (each face is subset once, for
 * everyone), the second lays each out again and draws it. */
int cv_render_book(const cv_renderer *r, char **profiles, int n)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t npages = 0;
    bool *good = cv_xrealloc(NULL, (size_t)n * sizeof *good);
    memset(good, 0, (size_t)n * sizeof *good);
    cv_book *k = cv_book_new(r->eng->fonts, true);
    if (!k)
        abort();
    title t = {"R\xC3\xA9sum\xC3\xA9s: ", 0, 0};
    t.len = strlen(t.s);
    int failed = book_note(r, k, profiles, n, good, &t);
    if (!t.names)
        t.s[t.len - 2] = 0;                 /* "Résumés", no name to follow */
    cv_error err;
    cv_error_init_for(&err, &r->eng->diag);
    int ngood = n - failed;
    cv_arena *names = cv_arena_new();     /* PNG or SVG pages' names */
    if (ngood && (!book_add(r, k, profiles, n, good, &npages, &err) ||
                  !book_write(names, r, k, t.s, &err))) {
        cv_error_print(&err);
        failed = n;
    } else if (ngood) {
        say_written(r, r->opt->merge, npages, &t0);
    } else if (!ngood) {
        fprintf(stderr, "%s: error: nothing to write: no profile rendered\n", r->opt->merge);
    }
    cv_arena_free(names);
    cv_book_free(k);
    free(good);
    return failed;
}
