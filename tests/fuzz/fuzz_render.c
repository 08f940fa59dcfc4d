/* fuzz_render.c - a whole render: profile bytes -> load -> photo -> fit ->
 * compose -> flow -> furnish -> cv_draw_dump (to /dev/null).
 *
 * The layouts are loaded once, as cvpdf loads its layout once per batch.
 * The default is layouts/onecolumn.yaml; a first line such as
 *
 *   # fuzz: layout=sidebar fit=1 strict glyphs explain date=2024-05-01
 *
 * (a YAML comment, so the rest is still a plain profile) picks another
 * layout (onecolumn, onecolumn-letter, compact, sidebar, zh, spec) and
 * turns on cvpdf's options (cli.h).  The profile is named tests/data/fuzz.yaml,
 * so `photo: photo.png` or `photo.jpg` finds the test pictures.  Seeds:
 * every profile in every layout (tests/fuzz/run.sh).
 */
#include "fuzz.h"

#include "yml.h"

static const char *const names[] = {"onecolumn", "onecolumn-letter", "compact",
                                    "sidebar",   "zh",               "spec"};
#define NLAYOUTS (sizeof names / sizeof *names)
static cv_style layouts[NLAYOUTS];

static void init(void)
{
    static cv_arena *keep;
    if (keep)
        return;
    keep = cv_arena_new();
    for (size_t i = 0; i < NLAYOUTS; i++) {
        const char *path = i == NLAYOUTS - 1
                               ? cv_arena_printf(keep, "%s/tests/spec/layout.yaml", fuzz_root())
                               : cv_arena_printf(keep, "%s/layouts/%s.yaml", fuzz_root(),
                                                 names[i]);
        cv_error err = fuzz_err();
        if (!cv_style_load(keep, path, fuzz_engine(), &layouts[i], &err) || err.set) {
            fprintf(stderr, "fuzz: cannot load %s: %s\n", path, err.msg);
            abort();
        }
    }
}

/* The options on a first line `# fuzz: ...`. */
static const cv_style *options(cv_arena *a, const char *s, size_t n, fuzz_opts *o)
{
    const cv_style *st = &layouts[0];
    static const char tag[] = "# fuzz:";
    if (n < sizeof tag - 1 || memcmp(s, tag, sizeof tag - 1))
        return st;
    const char *nl = memchr(s, '\n', n);
    char *line = cv_arena_strndup(a, s + sizeof tag - 1,
                                  (size_t)((nl ? nl : s + n) - s) - (sizeof tag - 1));
    for (char *w = strtok(line, " \t\r"); w; w = strtok(NULL, " \t\r")) {
        if (!strncmp(w, "layout=", 7)) {
            for (size_t i = 0; i < NLAYOUTS; i++)
                if (!strcmp(w + 7, names[i]))
                    st = &layouts[i];
        } else if (!strncmp(w, "fit=", 4)) {
            long p = strtol(w + 4, NULL, 10);
            o->fit_pages = p >= 1 && p <= 100 ? p : 0;    /* as cli.c accepts */
        } else if (!strncmp(w, "date=", 5)) {
            int y, m, d, k = 0;                           /* as cli.c accepts */
            if (sscanf(w + 5, "%4d-%2d-%2d%n", &y, &m, &d, &k) == 3 && !w[5 + k] &&
                m >= 1 && m <= 12 && d >= 1 && d <= 31)
                o->date = w + 5;
        } else if (!strcmp(w, "strict")) {
            o->strict = true;
        } else if (!strcmp(w, "glyphs")) {
            o->glyphs = true;
        } else if (!strcmp(w, "explain")) {
            o->explain = true;
        }
    }
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init();
    cv_arena *a = cv_arena_new();
    const char *s = (const char *)data;
    fuzz_opts o = {0};
    const cv_style *st = options(a, s, size, &o);
    cv_error err = fuzz_err();
    const char *file = cv_arena_printf(a, "%s/tests/data/fuzz.yaml", fuzz_root());
    cv_yml *root = cv_yml_load(a, file, s, size, &err);
    cv_doc *doc = root ? cv_doc_load(a, root, file, &err) : NULL;
    if (doc && !err.set)
        fuzz_render(a, doc, st, &o, &err);
    if (err.set)
        fuzz_format_error(&err);
    cv_arena_free(a);
    return 0;
}
