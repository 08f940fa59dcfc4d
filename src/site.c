/* site.c - `--site DIR/`: the lab page and each person's files (site.h). */
#include "site.h"

#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doc.h"
#include "error.h"
#include "image.h"
#include "markup.h"
#include "output.h"
#include "photo.h"
#include "stop.h"
#include "template.h"
#include "unicode.h"

/* Each person's HTML page, where the HTML back end (html.h) is built in. */
#if defined(__has_include)
#if __has_include("html.h")
#define SITE_HTML 1
#endif
#endif
#ifndef SITE_HTML
#define SITE_HTML 0
#endif

/* ---- HTML text ----------------------------------------------------------- */

static void put(cv_arena *a, cv_strbuf *b, const char *s)
{
    cv_strbuf_put(a, b, s, strlen(s));
}

/* `s` escaped for HTML text and attribute values. */
static void esc(cv_arena *a, cv_strbuf *b, const char *s)
{
    for (const char *p = s; *p; p++) {
        const char *e = *p == '&' ? "&amp;" : *p == '<' ? "&lt;" : *p == '>' ? "&gt;"
                        : *p == '"' ? "&quot;" : *p == '\'' ? "&#39;" : NULL;
        if (e)
            put(a, b, e);
        else if ((unsigned char)*p < 0x20 || *p == 0x7F)
            put(a, b, " ");
        else
            cv_strbuf_put(a, b, p, 1);
    }
}

/* A URL in an attribute: a space, a control character and "<>\\^`{|} and
 * DEL percent-encoded (a valid URL for tidy and the WHATWG parser); & as
 * &amp;. */
static void esc_url(cv_arena *a, cv_strbuf *b, const char *u)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; *u; u++) {
        unsigned char c = (unsigned char)*u;
        if (c <= 0x20 || c == 0x7F || strchr("\"<>\\^`{|}", c)) {
            char e[3] = {'%', hex[c >> 4], hex[c & 15]};
            cv_strbuf_put(a, b, e, 3);
        } else if (c == '&') {
            put(a, b, "&amp;");
        } else if (c == '\'') {
            put(a, b, "&#39;");
        } else {
            cv_strbuf_put(a, b, u, 1);
        }
    }
}

/* Profile text as shown: its markup stripped. */
static void text(cv_arena *a, cv_strbuf *b, const char *s)
{
    esc(a, b, cv_markup_strip(a, s));
}

/* A file name as a relative URL: every byte but unreserved ones
 * percent-encoded ("ana maria.pdf" -> "ana%20maria.pdf"). */
static const char *href_of(cv_arena *a, const char *name)
{
    static const char hex[] = "0123456789ABCDEF";
    char *o = cv_arena_alloc(a, 3 * strlen(name) + 1), *q = o;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~", *p))
            *q++ = (char)*p;
        else
            *q++ = '%', *q++ = hex[*p >> 4], *q++ = hex[*p & 15];
    }
    *q = 0;
    /* "./" keeps a name like "a:b.pdf" from reading as a scheme. */
    return cv_arena_printf(a, "./%s", o);
}

/* ---- the photo: a small PNG as a data: URI ------------------------------- */

typedef struct pngbuf {
    cv_arena *a;
    cv_strbuf b;
} pngbuf;

static void png_out(png_structp png, png_bytep data, png_size_t n)
{
    pngbuf *pb = png_get_io_ptr(png);
    cv_strbuf_put(pb->a, &pb->b, (const char *)data, n);
}

static void png_flush(png_structp png)
{
    (void)png;
}

static void png_quiet(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

static void png_nowarn(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* `im` as PNG bytes in `a`; NULL when libpng fails. */
static const char *png_of(cv_arena *a, const cv_image *im, size_t *len)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_quiet, png_nowarn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    pngbuf pb = {a, {0}};
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return NULL;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return NULL;
    }
    png_set_write_fn(png, &pb, png_out, png_flush);
    png_set_IHDR(png, info, im->width, im->height, 8,
                 im->channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (unsigned y = 0; y < im->height; y++)
        png_write_row(png, (png_const_bytep)(im->pixels + (size_t)y * im->width * im->channels));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *len = pb.b.n;
    return pb.b.s;
}

static const char *base64(cv_arena *a, const unsigned char *s, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *o = cv_arena_alloc(a, (n + 2) / 3 * 4 + 1), *q = o;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)s[i] << 16 | (i + 1 < n ? (unsigned)s[i + 1] << 8 : 0) |
                     (i + 2 < n ? s[i + 2] : 0);
        *q++ = t[v >> 18 & 63];
        *q++ = t[v >> 12 & 63];
        *q++ = i + 1 < n ? t[v >> 6 & 63] : '=';
        *q++ = i + 2 < n ? t[v & 63] : '=';
    }
    *q = 0;
    return o;
}

/* The person's photo as a data: URI, or NULL (none, or it cannot be read:
 * the PDF reported that already). */
static const char *photo_uri(cv_arena *a, const cv_doc *doc, const cv_style *st)
{
    cv_error quiet;
    cv_error_init(&quiet);
    quiet.quiet = true;
    const cv_image *im = doc->photo.s ? cv_photo_load(a, doc, st, &quiet) : NULL;
    if (!im || quiet.set)
        return NULL;
    im = cv_image_fit(a, im, 192, 192);
    size_t len = 0;
    const char *png = png_of(a, im, &len);
    return png ? cv_arena_printf(a, "data:image/png;base64,%s",
                                 base64(a, (const unsigned char *)png, len))
               : NULL;
}

/* ---- a card -------------------------------------------------------------- */

/* The first experience entry that goes on to the present, or NULL. */
static const cv_entry *current(const cv_doc *doc)
{
    for (size_t s = 0; s < doc->nsections; s++)
        for (size_t i = 0; i < doc->sections[s].nentries; i++) {
            const cv_entry *e = &doc->sections[s].entries[i];
            if (e->kind == CV_ENTRY_EXPERIENCE && (e->end_date.kind == CV_DATE_PRESENT ||
                                                   e->date.kind == CV_DATE_PRESENT))
                return e;
        }
    return NULL;
}

/* Up to two initials of the name, for a card without a photo: the first
 * character of the first and of the last word (of a CJK name, its first
 * character; of an Arabic one too: two Arabic letters side by side join
 * into a word -- ليلى الهاشمي would show "لا", "no"). */
static const char *initials(cv_arena *a, const char *name)
{
    const char *first = name, *last = NULL;
    while (*first == ' ')
        first++;
    for (const char *p = first; *p; p++)
        if (*p == ' ' && p[1] && p[1] != ' ')
            last = p + 1;
    char *o = cv_arena_alloc(a, 16);
    size_t n = 0;
    uint32_t cp = 0;
    size_t k = *first ? cv_utf8_decode(first, strlen(first), &cp) : 0;
    memcpy(o, first, k), n = k;
    if (last && !cv_unicode_cjk(cp) && cv_script_of(cp) != CV_SCRIPT_ARABIC) { /* 佐藤 美咲: 佐 */
        k = cv_utf8_decode(last, strlen(last), &cp);
        memcpy(o + n, last, k), n += k;
    }
    o[n] = 0;
    return cv_upper(a, o, NULL);
}

static void put_link(cv_arena *a, cv_strbuf *b, const char *url, const char *shown,
                 const char *label)
{
    if (!url || !cv_markup_web_link(url))
        return;
    put(a, b, "<li><a href=\"");
    esc_url(a, b, url);
    put(a, b, "\"");
    if (label) {
        put(a, b, " aria-label=\"");
        esc(a, b, label);
        put(a, b, "\"");
    }
    put(a, b, ">");
    esc(a, b, shown);
    put(a, b, "</a></li>");
}

/* `stem`: the profile's file name without its extension, the card's
 * heading when the profile has no name (RenderCV allows that): an empty
 * heading holding an empty link names no one. */
static void card(cv_arena *a, cv_strbuf *b, const cv_doc *doc, const cv_style *st,
                 const char *lab_lang, const char *pdf, const char *html, const char *stem)
{
    const char *name = doc->name.s ? cv_markup_strip(a, doc->name.s) : "";
    if (!name[strspn(name, " \t\n")])
        name = stem;
    const char *lang = doc->locale.language;
    put(a, b, "<li class=\"card\"");
    if (lang && *lang && strcmp(lang, lab_lang)) {
        put(a, b, " lang=\"");
        esc(a, b, lang);
        put(a, b, "\"");
        if (doc->locale.rtl)
            put(a, b, " dir=\"rtl\"");
    }
    put(a, b, ">\n");
    const char *uri = photo_uri(a, doc, st);
    if (uri) {
        put(a, b, "<img class=\"photo\" width=\"80\" height=\"80\" src=\"");
        put(a, b, uri);
        put(a, b, "\" alt=\"");
        esc(a, b, doc->photo_alt.s ? doc->photo_alt.s : name);
        put(a, b, "\">\n");
    } else {
        put(a, b, "<div class=\"photo initials\" aria-hidden=\"true\">");
        esc(a, b, initials(a, name));
        put(a, b, "</div>\n");
    }
    put(a, b, "<div class=\"who\">\n<h2>");
    if (html) {
        put(a, b, "<a href=\"");
        esc(a, b, html);
        put(a, b, "\">");
    }
    esc(a, b, name);
    if (doc->native_name.s) {
        put(a, b, " <span class=\"native\">");
        esc(a, b, doc->native_name.s);
        put(a, b, "</span>");
    }
    put(a, b, html ? "</a></h2>\n" : "</h2>\n");
    if (doc->headline.s) {
        put(a, b, "<p class=\"headline\">");
        text(a, b, doc->headline.s);
        put(a, b, "</p>\n");
    }
    const cv_entry *now = current(doc);
    if (now) {
        put(a, b, "<p class=\"now\">");
        text(a, b, now->position.s ? now->position.s : "");
        if (now->position.s && now->company.s)
            put(a, b, " · ");
        put(a, b, "<span class=\"org\">");
        text(a, b, now->company.s ? now->company.s : "");
        put(a, b, "</span></p>\n");
    }
    /* The links: every email, website and social network. */
    cv_strbuf l = {0};
    const cv_text *emails = doc->nemails ? doc->emails : &doc->email;
    size_t ne = doc->nemails ? doc->nemails : doc->email.s != NULL;
    for (size_t i = 0; i < ne; i++)
        put_link(a, &l, cv_arena_printf(a, "mailto:%s", emails[i].s), emails[i].s, NULL);
    const cv_text *webs = doc->nwebsites ? doc->websites : &doc->website;
    size_t nw = doc->nwebsites ? doc->nwebsites : doc->website.s != NULL;
    for (size_t i = 0; i < nw; i++)
        put_link(a, &l, webs[i].s, cv_template_url_shown(a, webs[i].s), NULL);
    for (size_t i = 0; i < doc->nsocials; i++) {
        const cv_social *s = &doc->socials[i];
        put_link(a, &l, s->url, s->network.s,
             cv_arena_printf(a, "%s: %s", s->network.s, s->label ? s->label : s->username.s));
    }
    if (l.n) {
        put(a, b, "<ul class=\"links\">");
        cv_strbuf_put(a, b, l.s, l.n);
        put(a, b, "</ul>\n");
    }
    put(a, b, "<p class=\"files\">");
    if (html) {
        put(a, b, "<a href=\"");
        esc(a, b, html);
        put(a, b, "\">Web page</a> ");
    }
    put(a, b, "<a href=\"");
    esc(a, b, pdf);
    put(a, b, "\">PDF</a></p>\n</div>\n</li>\n");
}

/* ---- the page ------------------------------------------------------------ */

static const char style[] =
    ":root{--ink:#1d2433;--muted:#5b6474;--line:#e3e7ee;--accent:#1f5fa8;--bg:#f5f7fa}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.5 system-ui,-apple-system,"
    "'Segoe UI',Roboto,'Noto Sans','Noto Sans CJK SC',sans-serif}\n"
    "header.lab{background:#fff;border-bottom:1px solid var(--line);padding:2.5rem 1rem 2rem;"
    "text-align:center}\n"
    "header.lab h1{margin:0;font-size:2rem;line-height:1.2;letter-spacing:-.01em}\n"
    "header.lab p{margin:.4rem 0 0;color:var(--muted)}\n"
    "main{max-width:72rem;margin:0 auto;padding:2rem 1rem 3rem}\n"
    ".people{list-style:none;margin:0;padding:0;display:grid;gap:1.25rem;"
    "grid-template-columns:repeat(auto-fill,minmax(min(100%,20rem),1fr))}\n"
    ".card{background:#fff;border:1px solid var(--line);border-radius:12px;padding:1.25rem;"
    "display:flex;gap:1rem;align-items:flex-start;box-shadow:0 1px 2px rgba(16,24,40,.05)}\n"
    ".photo{flex:none;width:80px;height:80px;border-radius:50%;object-fit:cover;"
    "background:#dfe7f2}\n"
    ".initials{display:flex;align-items:center;justify-content:center;font-size:1.7rem;"
    "font-weight:600;color:var(--accent)}\n"
    ".who{min-width:0;flex:1}\n"
    ".who h2{margin:0;font-size:1.2rem;line-height:1.3}\n"
    ".who h2 a{color:inherit;text-decoration:none}\n"
    ".who h2 a:hover,.who h2 a:focus{color:var(--accent);text-decoration:underline}\n"
    ".native{font-weight:400;color:var(--muted)}\n"
    ".headline{margin:.3rem 0 0;color:var(--muted);font-size:.95rem}\n"
    ".now{margin:.5rem 0 0;font-size:.95rem}\n"
    ".org{font-weight:600}\n"
    ".links{list-style:none;margin:.6rem 0 0;padding:0;display:flex;flex-wrap:wrap;"
    "gap:.2rem .9rem;font-size:.875rem}\n"
    "a{color:var(--accent);overflow-wrap:anywhere}\n"
    ".files{margin:.8rem 0 0;display:flex;gap:.5rem}\n"
    ".files a{display:inline-block;padding:.2rem .75rem;border:1px solid var(--accent);"
    "border-radius:999px;font-size:.85rem;text-decoration:none}\n"
    ".files a:hover,.files a:focus{background:var(--accent);color:#fff}\n"
    "footer{text-align:center;color:var(--muted);font-size:.8rem;padding:0 1rem 2rem}\n"
    "@media (max-width:30rem){.card{flex-direction:column;align-items:center;"
    "text-align:center}.links,.files{justify-content:center}}\n"
    "@media print{body{background:#fff}.card{break-inside:avoid;box-shadow:none}}\n";

static void head(cv_arena *a, cv_strbuf *b, const cv_lab *lab, const char *lang)
{
    const char *title = lab->name.s ? cv_markup_strip(a, lab->name.s) : "People";
    put(a, b, "<!DOCTYPE html>\n<html lang=\"");
    esc(a, b, lang);
    put(a, b, "\">\n<head>\n<meta charset=\"utf-8\">\n"
              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
              "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
              "img-src data:; style-src 'unsafe-inline'; base-uri 'none'; "
              "form-action 'none'\">\n"
              CV_SITE_GENERATOR " " CV_VERSION " --site\">\n<title>");
    esc(a, b, title);
    put(a, b, "</title>\n<style>\n");
    put(a, b, style);
    put(a, b, "</style>\n</head>\n<body>\n<header class=\"lab\">\n<h1>");
    esc(a, b, title);
    put(a, b, "</h1>\n");
    if (lab->address.s) {
        put(a, b, "<p class=\"address\">");
        text(a, b, lab->address.s);
        put(a, b, "</p>\n");
    }
    if (lab->url.s && cv_markup_web_link(lab->url.s)) {
        put(a, b, "<p><a href=\"");
        esc_url(a, b, lab->url.s);
        put(a, b, "\">");
        esc(a, b, cv_template_url_shown(a, lab->url.s));
        put(a, b, "</a></p>\n");
    }
    put(a, b, "</header>\n<main>\n<ul class=\"people\">\n");
}

/* ---- checks before anything is written ------------------------------------ */

/* The page at `path` may be written: it does not exist, or it is a regular
 * file cvpdf wrote (its generator mark in its first 4 KB).  Else 2 after
 * saying why. */
static int ours(const char *path, FILE *diag)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0;
    char shown[512];
    cv_escape(path, shown, sizeof shown);
    if (!S_ISREG(st.st_mode)) {
        fprintf(diag, "%s: error: --site: this is %s, not a page cvpdf wrote; it will not be "
                "written over (remove it, or choose another directory)\n", shown,
                S_ISDIR(st.st_mode) ? "a directory" : S_ISLNK(st.st_mode) ? "a symbolic link"
                : "no regular file");
        return 2;
    }
    char buf[4097];
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = 0;
    if (n > 0 && strstr(buf, CV_SITE_GENERATOR))
        return 0;
    fprintf(diag, "%s: error: --site: this file was not written by cvpdf; it will not be "
            "written over (remove it, or choose another directory)\n", shown);
    return 2;
}

/* DIR/NAME.html beside DIR/NAME.pdf. */
static const char *html_path(cv_arena *a, const char *pdf)
{
    size_t n = strlen(pdf);
    return cv_arena_printf(a, "%.*s.html", (int)(n > 4 ? n - 4 : n), pdf);
}

static const char *index_path(cv_arena *a, const char *dir)
{
    size_t n = strlen(dir);
    return cv_arena_printf(a, "%s%sindex.html", dir, n && dir[n - 1] == '/' ? "" : "/");
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int cv_site_check(cv_arena *a, const cv_options *o, const cv_plan *p, FILE *diag)
{
    for (int i = 0; i < p->n; i++)
        if (!strcmp(cv_plan_stem(a, o->profiles[i]), "index")) {
            char shown[512];
            fprintf(diag, "%s: error: --site: a profile called index would have the lab "
                    "page's name (index.html); rename it\n",
                    cv_escape(o->profiles[i], shown, sizeof shown));
            return 1;
        }
    int status = ours(index_path(a, o->site), diag);
    for (int i = 0; i < p->n && !status && SITE_HTML; i++)
        status = ours(html_path(a, p->outs[i]), diag);
    return status;
}

/* ---- the run --------------------------------------------------------------- */

int cv_site_run(const cv_renderer *r, const cv_plan *p)
{
    const cv_options *o = r->opt;
    cv_arena *a = cv_arena_new();
    cv_error err;
    cv_error_init_for(&err, &r->eng->diag);
    cv_lab lab = {0};
    if (o->defaults && !cv_doc_load_lab(a, o->defaults, &lab, &err)) {
        cv_error_print(&err);
        cv_arena_free(a);
        return o->nprofiles;
    }
    cv_renderer web = *r;
    web.format = CV_FORMAT_HTML;
    const char *lang = "en";
    cv_strbuf cards = {0};
    int failed = 0;
    for (int i = 0; i < o->nprofiles; i++) {
        const char *prof = o->profiles[i], *pdf = p->outs[i];
        const char *html = SITE_HTML ? html_path(a, pdf) : NULL;
        /* As a batch in this process (-j 0): the profile's time is bounded. */
        cv_stop_timeout(o->timeout, prof);
        bool ok = cv_render_one(r, prof, pdf) && (!html || cv_render_one(&web, prof, html));
        cv_arena *pa = cv_arena_new();
        cv_error quiet;
        cv_error_init(&quiet);
        quiet.quiet = true;         /* its warnings were given with its PDF */
        const cv_doc *doc = ok ? cv_render_load(pa, r, prof, &quiet) : NULL;
        cv_stop_timeout(0, NULL);
        if (doc) {
            const char *file = base(pdf), *dot = strrchr(file, '.');
            card(a, &cards, doc, r->style, lang, href_of(a, file),
                 html ? href_of(a, base(html)) : NULL,
                 cv_arena_strndup(a, file, dot ? (size_t)(dot - file) : strlen(file)));
        }
        else
            failed++;
        if (o->progress)
            fprintf(stderr, "[%d/%d] %s %s\n", i + 1, o->nprofiles, doc ? "ok  " : "FAIL", prof);
        cv_arena_free(pa);
    }
    const char *index = index_path(a, o->site);
    char shown[512];
    cv_escape(index, shown, sizeof shown);
    if (failed == o->nprofiles) {       /* the last good page stays */
        fprintf(stderr, "%s: error: nothing to write: no profile rendered\n", shown);
        cv_arena_free(a);
        return failed;
    }
    cv_strbuf page = {0};
    head(a, &page, &lab, lang);
    if (cards.n)
        cv_strbuf_put(a, &page, cards.s, cards.n);
    put(a, &page, "</ul>\n</main>\n<footer>Made with cvpdf</footer>\n</body>\n</html>\n");
    cv_out *out = cv_out_open(index, r->eng->inputs, &err);
    bool written = out != NULL;
    if (written && !cv_out_write(out, page.s, page.n, &err)) {
        cv_out_abort(out);
        written = false;
    } else if (written) {
        written = cv_out_commit(out, &err);
    }
    if (!written) {
        cv_error_print(&err);
        failed = o->nprofiles;
    } else if (!o->quiet) {
        fprintf(stderr, "cvpdf: %s: %d card%s, %d failed\n", shown,
                o->nprofiles - failed, o->nprofiles - failed == 1 ? "" : "s", failed);
    }
    cv_arena_free(a);
    return failed;
}
