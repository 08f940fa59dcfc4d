/* fuzz_layout.c - the layout loader: bytes -> a layout file -> cv_style_load,
 * with the real fonts; a layout that loads then sets a small résumé (every
 * entry type, CJK, links, the photo) to the dump backend, so that numbers
 * the loader accepts (a margin wider than the page, a huge font, a zero
 * sidebar) must not break composing or pagination either.
 *
 * cv_style_load() reads a path and follows `extends:`, so each input is
 * written to fuzz.yaml in a private temporary directory that also holds
 * links to the layouts in layouts/ and tests/spec/layout.yaml: `extends: onecolumn`
 * works as beside the real layouts.  Seeds: those layouts.
 */
#include "fuzz.h"

#include <dirent.h>
#include <limits.h>
#include <unistd.h>

#include "yml.h"

static const char profile[] =
    "cv:\n"
    "  name: Ada Lovelace\n"
    "  native_name: 方佳瑞\n"
    "  headline: Analyst *and* **programmer**\n"
    "  location: London\n"
    "  email: ada@example.com\n"
    "  phone: \"+44 20 7946 0000\"\n"
    "  website: https://example.com/ada\n"
    "  photo: photo.png\n"
    "  social_networks:\n"
    "    - {network: GitHub, username: ada}\n"
    "  sections:\n"
    "    summary:\n"
    "      - Wrote the first published algorithm for a machine, with notes longer than "
    "the paper they annotate; see [the notes](https://example.com/notes).\n"
    "    experience:\n"
    "      - company: Analytical Engine Co.\n"
    "        position: Programmer\n"
    "        location: London\n"
    "        start_date: 1842-07\n"
    "        end_date: present\n"
    "        highlights:\n"
    "          - Translated Menabrea's memoir, adding seven notes A to G\n"
    "          - \"Computed Bernoulli numbers: "
    "https://en.wikipedia.org/wiki/Note_G_of_the_analytical_engine_memoir\"\n"
    "    education:\n"
    "      - institution: 北京大学\n"
    "        area: Mathematics\n"
    "        degree: PhD\n"
    "        date: 1840\n"
    "    publications:\n"
    "      - title: Sketch of the Analytical Engine\n"
    "        authors: [L. F. Menabrea, '*Ada Lovelace*']\n"
    "        journal: Scientific Memoirs\n"
    "        doi: 10.1000/182\n"
    "        date: 1843-10\n"
    "    skills:\n"
    "      - label: Languages\n"
    "        details: English, French, 中文\n"
    "    awards:\n"
    "      - bullet: Honorary member, hyphenation-incomprehensibilities society\n"
    "      - bullet: Second bullet\n"
    "    talks:\n"
    "      - number: First numbered\n"
    "    projects:\n"
    "      - name: Difference engine\n"
    "        summary: A summary.\n"
    "        highlights: [one, two]\n";

static char dir[64];
static char *layout_path;
static const cv_doc *doc;

static void cleanup(void)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static void link_in(const char *rel, const char *as)
{
    char src[PATH_MAX], abs[PATH_MAX], dst[PATH_MAX];
    snprintf(src, sizeof src, "%s/%s", fuzz_root(), rel);
    if (!realpath(src, abs))
        return;
    snprintf(dst, sizeof dst, "%s/%s", dir, as);
    if (symlink(abs, dst) != 0)
        perror(dst);
}

static void init(void)
{
    static cv_arena *keep;
    if (keep)
        return;
    keep = cv_arena_new();
    snprintf(dir, sizeof dir, "/tmp/cvpdf-fuzz-layout-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("fuzz: mkdtemp");
        abort();
    }
    atexit(cleanup);
    static const char *const names[] = {"onecolumn", "onecolumn-letter", "compact",
                                        "sidebar", "zh"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char rel[64], as[64];
        snprintf(rel, sizeof rel, "layouts/%s.yaml", names[i]);
        snprintf(as, sizeof as, "%s.yaml", names[i]);
        link_in(rel, as);
    }
    link_in("tests/spec/layout.yaml", "layout.yaml");
    link_in("tests/data/photo.png", "photo.png");
    link_in("tests/data/photo.jpg", "photo.jpg");
    layout_path = cv_arena_printf(keep, "%s/fuzz.yaml", dir);

    /* The résumé, named as if beside the layout (for its photo). */
    const char *file = cv_arena_printf(keep, "%s/profile.yaml", dir);
    cv_error err = fuzz_err();
    cv_yml *root = cv_yml_load(keep, file, profile, sizeof profile - 1, &err);
    doc = root ? cv_doc_load(keep, root, file, &err) : NULL;
    if (!doc || err.set) {
        fprintf(stderr, "fuzz: the built-in profile does not load: %s\n", err.msg);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    init();
    FILE *f = fopen(layout_path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(layout_path);
        abort();
    }
    cv_arena *a = cv_arena_new();
    cv_error err = fuzz_err();
    cv_style st;
    if (cv_style_load(a, layout_path, fuzz_engine(), &st, &err) && !err.set) {
        fuzz_opts o = {.explain = true, .date = "2024-05-01"};
        fuzz_render(a, doc, &st, &o, &err);
    }
    if (err.set)
        fuzz_format_error(&err);
    cv_arena_free(a);
    return 0;
}
