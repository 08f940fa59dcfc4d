/* draw_raster.c - PNG and SVG pages: cvpdf's own PDF, drawn by poppler
 * (draw_raster.h).
 *
 * Each page is drawn into memory first (cairo writes PNG and SVG through a
 * stream callback), then marked as cvpdf's (a PNG tEXt chunk "Software" =
 * "cvpdf VERSION" after the header; an XML comment after the SVG's XML
 * declaration), then written to an unnamed temporary file through a cv_out
 * (output.h).  Only when every page is in its temporary file are the files
 * put in place, with the signals that would end the process held off, and
 * then the pages of an earlier, longer run are swept.
 *
 * The PNG is drawn on white paper, as pdftoppm draws, with grey-level
 * antialiasing and unhinted glyph outlines, so that it agrees with
 * pdftoppm's rendering of the same PDF to within antialiasing.
 */
#include "draw_raster.h"

#include <ctype.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cairo-svg.h>
#include <cairo.h>
#include <png.h>
#include <poppler.h>
#include <setjmp.h>

#include "arena.h"

/* The largest side of a PNG page, in pixels (cairo's limit is 32,767; a
 * page of 16,384 pixels square is already a gigabyte). */
#define MAX_SIDE 16384

static const char *const exts[] = {NULL, "pdf", "png", "svg", "html", "md"};

/* ---- poppler and cairo, opened when first needed ------------------------ */

/* poppler-glib is opened with dlopen when a PNG or SVG page is first drawn,
 * not linked: linked, it and the fifty libraries it needs (cairo, GLib,
 * NSS, X11, libtiff…) cost every run of cvpdf, PDFs too, some 7 ms of
 * dynamic loading, more than typesetting a résumé.  cairo and GLib are
 * among the libraries it needs, so one handle reaches every function.
 * The headers still type each pointer. */
#ifndef CV_POPPLER_GLIB_SONAME
#define CV_POPPLER_GLIB_SONAME "libpoppler-glib.so.8"
#endif

#define RASTER_FUNCTIONS(X)                                                                   \
    X(g_bytes_new_static) X(g_bytes_unref) X(g_error_free) X(g_object_unref)                 \
    X(poppler_document_new_from_bytes) X(poppler_document_get_n_pages)                        \
    X(poppler_document_get_page) X(poppler_page_get_size) X(poppler_page_render)              \
    X(cairo_image_surface_create) X(cairo_image_surface_get_width)                            \
    X(cairo_image_surface_get_height) X(cairo_image_surface_get_stride)                       \
    X(cairo_image_surface_get_data) X(cairo_svg_surface_create_for_stream)                    \
    X(cairo_svg_surface_set_document_unit) X(cairo_create) X(cairo_destroy) X(cairo_status)   \
    X(cairo_status_to_string) X(cairo_set_source_rgb) X(cairo_paint) X(cairo_scale)           \
    X(cairo_font_options_create) X(cairo_font_options_set_hint_style)                         \
    X(cairo_font_options_set_hint_metrics) X(cairo_font_options_set_antialias)                \
    X(cairo_set_font_options) X(cairo_font_options_destroy) X(cairo_surface_flush)            \
    X(cairo_surface_finish) X(cairo_surface_status) X(cairo_surface_destroy)

#define RASTER_POINTER(f) __typeof__(f) *f;
static struct {
    RASTER_FUNCTIONS(RASTER_POINTER)
} R;

/* Open poppler-glib and find every function, once; false (with the reason
 * in err) when it is not installed or lacks one. */
static bool open_poppler(const char *path, cv_error *err)
{
    static void *lib;
    static char why[256];
    if (lib)
        return true;
    if (*why)
        return cv_error_at(err, (cv_pos){path, 0, 0}, "%s", why);
    void *h = dlopen(CV_POPPLER_GLIB_SONAME, RTLD_NOW | RTLD_LOCAL);
    const char *missing = NULL;
#define RASTER_FIND(f)                                                                        \
    if (h && !missing && !(*(void **)&R.f = dlsym(h, #f)))                                    \
        missing = #f;
    RASTER_FUNCTIONS(RASTER_FIND)
#undef RASTER_FIND
    if (!h || missing) {
        const char *e = dlerror();
        snprintf(why, sizeof why, "PNG and SVG pages need poppler-glib, which cannot be "
                 "loaded (%s%s%s); install the Debian package libpoppler-glib8",
                 h ? "it has no " : "", h ? missing : e ? e : CV_POPPLER_GLIB_SONAME,
                 "");
        if (h)
            dlclose(h);
        return cv_error_at(err, (cv_pos){path, 0, 0}, "%s", why);
    }
    lib = h;
    return true;
}

cv_format cv_format_named(const char *name)
{
    for (int f = CV_FORMAT_PDF; f <= CV_FORMAT_MD; f++)
        if (!strcasecmp(name, exts[f]))
            return (cv_format)f;
    return CV_FORMAT_NONE;
}

/* The extension of `path`'s last component, without its dot, or NULL. */
static const char *extension(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? dot + 1 : NULL;
}

cv_format cv_format_of(const char *path)
{
    const char *ext = extension(path);
    return ext ? cv_format_named(ext) : CV_FORMAT_NONE;
}

const char *cv_format_ext(cv_format f)
{
    return f >= CV_FORMAT_PDF && f <= CV_FORMAT_MD ? exts[f] : NULL;
}

char *cv_raster_page_name(cv_arena *a, const char *path, size_t page)
{
    const char *ext = extension(path);
    size_t stem = ext ? (size_t)(ext - 1 - path) : strlen(path);
    return cv_arena_printf(a, "%.*s-%zu%s%s", (int)stem, path, page, ext ? "." : "",
                           ext ? ext : "");
}

/* ---- One page in memory ------------------------------------------------ */

typedef cv_buf membuf;    /* arena.h's */

static cairo_status_t to_membuf(void *arg, const unsigned char *p, unsigned int n)
{
    cv_buf_put(arg, p, n);
    return CAIRO_STATUS_SUCCESS;
}

/* cvpdf's mark on its pages: a PNG tEXt chunk Software = "cvpdf VERSION"
 * before the image data, an XML comment after the SVG's first line (its
 * XML declaration). */
static const char png_key[] = "Software";
static const char png_value[] = "cvpdf " CV_VERSION;
static const char svg_mark[] = "<!-- made by cvpdf " CV_VERSION " -->\n";

/* The SVG page with cvpdf's mark in it. */
static void mark_svg(membuf *b)
{
    membuf m = {0};
    const char *nl = memchr(b->s, '\n', b->n);
    size_t at = nl ? (size_t)(nl - b->s) + 1 : 0;
    cv_buf_put(&m, b->s, at);
    cv_buf_put(&m, svg_mark, sizeof svg_mark - 1);
    cv_buf_put(&m, b->s + at, b->n - at);
    free(b->s);
    *b = m;
}

static void png_put(png_structp png, png_bytep p, size_t n)
{
    cv_buf_put(png_get_io_ptr(png), p, n);
}

static void png_flush_none(png_structp png)
{
}

static void png_fail(png_structp png, png_const_charp msg)
{
    png_longjmp(png, 1);
}

static void png_warned(png_structp png, png_const_charp msg)
{
}

/* The image surface `s` (CAIRO_FORMAT_RGB24) as an 8-bit RGB PNG in b,
 * with cvpdf's mark.  Written with libpng rather than cairo's own writer
 * for speed, which --watch feels at every save: a page of text is mostly
 * white, and zlib's level 1 without a filter packs it about as tight as
 * cairo's defaults (level 6, adaptive filters; fang's five pages: 1.24 MB
 * against 1.29 MB) in a third of the time.  False on a libpng failure
 * (which valid sizes never cause; libpng reports it by longjmp, caught
 * here: only `png`, `info` and `row` live across it, all set before
 * setjmp()). */
static bool write_png(cairo_surface_t *s, membuf *b)
{
    int w = R.cairo_image_surface_get_width(s), h = R.cairo_image_surface_get_height(s);
    int stride = R.cairo_image_surface_get_stride(s);
    const unsigned char *px = R.cairo_image_surface_get_data(s);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_fail,
                                              png_warned);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    unsigned char *row = cv_xmalloc((size_t)w * 3);
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(row);
        return false;
    }
    png_set_write_fn(png, b, png_put, png_flush_none);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 1);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_text text = {.compression = PNG_TEXT_COMPRESSION_NONE, .key = (char *)png_key,
                     .text = (char *)png_value, .text_length = sizeof png_value - 1};
    png_set_text(png, info, &text, 1);
    png_write_info(png, info);
    for (int y = 0; y < h; y++) {
        const uint32_t *src = (const uint32_t *)(const void *)(px + (size_t)y * (size_t)stride);
        for (int x = 0; x < w; x++) {
            row[3 * x] = (unsigned char)(src[x] >> 16);
            row[3 * x + 1] = (unsigned char)(src[x] >> 8);
            row[3 * x + 2] = (unsigned char)src[x];
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    return true;
}

/* Is the file at `name` a page cvpdf wrote in format `fmt`? */
static bool is_ours(const char *name, cv_format fmt)
{
    unsigned char head[256];
    /* Never blocking on a FIFO: a regular file only. */
    int fd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return false;
    ssize_t got = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, head, sizeof head) : -1;
    close(fd);
    if (got < 0)
        return false;
    size_t n = (size_t)got;
    if (fmt == CV_FORMAT_SVG) {
        static const char mark_start[] = "<!-- made by cvpdf ";
        return memmem(head, n, mark_start, sizeof mark_start - 1) != NULL;
    }
    if (n < 8 || memcmp(head, "\x89PNG\r\n\x1a\n", 8))
        return false;
    /* The chunks before the image data: one is tEXt Software=cvpdf... */
    for (size_t at = 8; at + 8 <= n;) {
        size_t len = (size_t)head[at] << 24 | (size_t)head[at + 1] << 16 |
                     (size_t)head[at + 2] << 8 | head[at + 3];
        const unsigned char *type = head + at + 4, *data = head + at + 8;
        if (!memcmp(type, "IDAT", 4) || len > n)
            return false;
        if (!memcmp(type, "tEXt", 4) && at + 8 + len <= n && len >= sizeof png_key + 5 &&
            !memcmp(data, png_key, sizeof png_key) &&
            !memcmp(data + sizeof png_key, "cvpdf", 5))
            return true;
        at += 12 + len;
    }
    return false;
}

/* May page `name` of `path` be written?  Not when it is no regular file (a
 * FIFO would block, a device would be written into; plan.c refuses those
 * found before the run).  A regular file cvpdf did not write is replaced,
 * with a note.  False with err set. */
static bool page_ok(const char *name, const char *path, cv_format fmt, cv_error *err)
{
    struct stat st;
    char shown[512];
    if (stat(name, &st) != 0)
        return true;
    if (!S_ISREG(st.st_mode))
        return cv_error_at(err, (cv_pos){path, 0, 0}, "%s is %s, not a page file; pages are "
                           "files of their own, never written into one",
                           cv_escape(name, shown, sizeof shown),
                           S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode)
                           ? "a directory" : "a device or socket");
    if (!is_ours(name, fmt))
        cv_note(err, (cv_pos){path, 0, 0}, "%s was not written by cvpdf; it is replaced by "
                "a page of this output", cv_escape(name, shown, sizeof shown));
    return true;
}

/* Draw page `pg` (numbered `k` from 1) into b.  False with err set. */
static bool draw_page(PopplerPage *pg, size_t k, cv_format fmt, double dpi, const char *path,
                      membuf *b, cv_error *err)
{
    double w, h;
    R.poppler_page_get_size(pg, &w, &h);
    cairo_surface_t *s;
    if (fmt == CV_FORMAT_PNG) {
        /* As pdftoppm sizes its pages: the page in pixels, rounded up. */
        double pw = ceil(w * dpi / 72 - 1e-6), ph = ceil(h * dpi / 72 - 1e-6);
        if (pw > MAX_SIDE || ph > MAX_SIDE)
            return cv_error_at(err, (cv_pos){path, 0, 0}, "page %zu would be %.0f x %.0f "
                               "pixels at %g dpi, more than the %d a side a PNG page may "
                               "have; lower --dpi", k, pw, ph, dpi, MAX_SIDE);
        s = R.cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)pw, (int)ph);
    } else {
        s = R.cairo_svg_surface_create_for_stream(to_membuf, b, w, h);
        R.cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PT);
    }
    cairo_t *cr = R.cairo_create(s);
    if (fmt == CV_FORMAT_PNG) {
        R.cairo_set_source_rgb(cr, 1, 1, 1);
        R.cairo_paint(cr);
        R.cairo_scale(cr, dpi / 72, dpi / 72);
        cairo_font_options_t *fo = R.cairo_font_options_create();
        R.cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
        R.cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
        R.cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
        R.cairo_set_font_options(cr, fo);
        R.cairo_font_options_destroy(fo);
    }
    R.poppler_page_render(pg, cr);
    cairo_status_t st = R.cairo_status(cr);
    R.cairo_destroy(cr);
    R.cairo_surface_flush(s);
    if (st == CAIRO_STATUS_SUCCESS && fmt == CV_FORMAT_PNG && !write_png(s, b))
        st = CAIRO_STATUS_WRITE_ERROR;
    R.cairo_surface_finish(s);
    if (st == CAIRO_STATUS_SUCCESS)
        st = R.cairo_surface_status(s);
    R.cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS)
        return cv_error_at(err, (cv_pos){path, 0, 0}, "cannot draw page %zu as %s: %s", k,
                           fmt == CV_FORMAT_PNG ? "PNG" : "SVG", R.cairo_status_to_string(st));
    if (fmt == CV_FORMAT_SVG)
        mark_svg(b);
    return true;
}

/* ---- The set of pages ------------------------------------------------- */

/* Remove the pages after `last` that an earlier, longer run left. */
static void sweep(cv_arena *a, const char *path, cv_format fmt, size_t last,
                  const cv_inputs *inputs, cv_error *err)
{
    for (size_t k = last + 1;; k++) {
        char *name = cv_raster_page_name(a, path, k);
        struct stat st;
        bool there = lstat(name, &st) == 0;
        const char *why = !there ? NULL
                        : cv_inputs_find(inputs, name) ? "it is an input of this run"
                        : !S_ISREG(st.st_mode) || !is_ours(name, fmt)
                            ? "it is not a page cvpdf wrote"
                        : unlink(name) != 0 ? "it cannot be removed" : NULL;
        if (why) {
            char shown[512];
            cv_note(err, (cv_pos){path, 0, 0}, "%s is left as it is: the output now has %zu "
                    "page%s, but %s", cv_escape(name, shown, sizeof shown), last,
                    last == 1 ? "" : "s", why);
            there = false;
        }
        if (!there)
            return;
    }
}

bool cv_raster_write(cv_arena *a, const void *pdf, size_t len, cv_format fmt, double dpi,
                     const char *path, const cv_inputs *inputs, cv_error *err)
{
    if (fmt != CV_FORMAT_PNG && fmt != CV_FORMAT_SVG)
        return cv_error_at(err, (cv_pos){path, 0, 0}, "not a PNG or SVG output");
    if (!strcmp(path, "-"))
        return cv_error_at(err, (cv_pos){path, 0, 0}, "%s pages are files of their own; "
                           "they cannot go to the standard output", exts[fmt]);
    /* Not a file written, but a slip all the same (`-o me.png`, the photo). */
    const char *what = cv_inputs_find(inputs, path);
    if (what)
        return cv_error_at(err, (cv_pos){path, 0, 0}, "this is an input (%s); give the "
                           "%s pages another name", what, fmt == CV_FORMAT_PNG ? "PNG" : "SVG");
    if (!open_poppler(path, err))
        return false;
    GBytes *bytes = R.g_bytes_new_static(pdf, len);
    GError *gerr = NULL;
    PopplerDocument *doc = R.poppler_document_new_from_bytes(bytes, NULL, &gerr);
    R.g_bytes_unref(bytes);
    if (!doc) {
        cv_error_at(err, (cv_pos){path, 0, 0}, "poppler cannot read the PDF made for it: %s",
                    gerr ? gerr->message : "unknown error");
        if (gerr)
            R.g_error_free(gerr);
        return false;
    }
    int n = R.poppler_document_get_n_pages(doc);
    cv_out **outs = cv_xcalloc(n > 0 ? (size_t)n : 1, sizeof *outs);
    bool ok = n > 0 || cv_error_at(err, (cv_pos){path, 0, 0}, "nothing to write: no page");
    for (int i = 0; ok && i < n; i++) {
        membuf b = {0};
        PopplerPage *pg = R.poppler_document_get_page(doc, i);
        ok = pg && draw_page(pg, (size_t)i + 1, fmt, dpi, path, &b, err);
        if (pg)
            R.g_object_unref(pg);
        const char *name = ok ? cv_raster_page_name(a, path, (size_t)i + 1) : NULL;
        ok = ok && page_ok(name, path, fmt, err) &&
             (outs[i] = cv_out_open(name, inputs, err)) != NULL &&
             cv_out_write(outs[i], b.s, b.n, err) && cv_out_park(outs[i], err);
        free(b.s);
    }
    R.g_object_unref(doc);
    if (!ok) {
        for (int i = 0; i < n; i++)
            cv_out_abort(outs[i]);
        free(outs);
        return false;
    }
    /* Every page is written: put them all in place, uninterrupted. */
    sigset_t old;
    cv_out_block_signals(&old);
    for (int i = 0; i < n; i++)
        ok = cv_out_commit(outs[i], err) && ok;
    sigprocmask(SIG_SETMASK, &old, NULL);
    free(outs);
    if (ok)
        sweep(a, path, fmt, (size_t)n, inputs, err);
    return ok;
}
