/* sets.c - --set PATH=VALUE (sets.h). */
#include "sets.h"

#include <string.h>

#include "unicode.h"

bool cv_sets_check(const char *arg, FILE *diag)
{
    const char *eq = strchr(arg, '=');
    const char *why = !eq ? "expected PATH=VALUE, as in --set cv.phone=\"+1 415 555 0132\""
                      : eq == arg ? "the PATH before '=' is empty"
                                  : NULL;
    for (const char *p = arg; !why && p < eq; p++)
        if (*p == '.' && (p == arg || p + 1 == eq || p[1] == '.'))
            why = "a key of the PATH is empty (two dots, or a dot at an end)";
    if (!why && !strncmp(arg, "layout=", 7))
        why = "give a key of the layout, as in --set layout.page.size=letter (-l names the "
              "layout file)";
    /* What a YAML file may not hold, the option may not either: it went
     * into the HTML and Markdown as it was (and mangled into the PDF). */
    if (!why && !cv_utf8_valid(arg, strlen(arg), NULL))
        why = "it is not UTF-8 text (the profile's encoding)";
    /* The controls yml.c refuses in a file's strings: C0 but tab and line
     * feed, DEL, and C1 (0xC2 and a byte 0x80-0x9F, in valid UTF-8). */
    for (const unsigned char *p = (const unsigned char *)arg; !why && *p; p++)
        if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7F ||
            (*p == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0))
            why = "it holds a control character, which a profile or a layout may not";
    if (why) {
        char shown[512];
        fprintf(diag, "cvpdf: --set %s: %s\nTry 'cvpdf --help'.\n",
                cv_escape(arg, shown, sizeof shown), why);
    }
    return !why;
}

/* Every node of `n` positioned at `pos`: messages name the option. */
static void place(cv_yml *n, cv_pos pos)
{
    n->pos = pos;
    for (size_t i = 0; i < n->n; i++) {
        if (n->keys)
            place(n->keys[i], pos);
        place(n->items[i], pos);
    }
}

static cv_yml *scalar(cv_arena *a, const char *s, size_t len, cv_pos pos)
{
    cv_yml *n = cv_arena_alloc(a, sizeof *n);
    *n = (cv_yml){.kind = CV_YML_SCALAR, .pos = pos, .str = cv_arena_strndup(a, s, len),
                  .len = len, .plain = true};
    return n;
}

/* The tree of one PATH=VALUE, from the key `from` of the path on. */
static cv_yml *one(cv_arena *a, const char *arg, const char *from, cv_pos pos, cv_error *err)
{
    const char *eq = strchr(arg, '='), *value = eq + 1;
    cv_yml *leaf;
    if (strchr("[{\"'", *value) && *value) {
        leaf = cv_yml_load(a, pos.file, value, strlen(value), err);
        if (!leaf) {
            err->pos = pos;     /* the option, not a line of it */
            return NULL;
        }
        place(leaf, pos);
    } else {
        leaf = scalar(a, value, strlen(value), pos);
    }
    /* From the last key to the first, each a mapping of one key. */
    const char *end = eq;
    while (end > from) {
        const char *dot = end;
        while (dot > from && dot[-1] != '.')
            dot--;
        cv_yml *m = cv_arena_alloc(a, sizeof *m);
        *m = (cv_yml){.kind = CV_YML_MAP, .pos = pos, .n = 1};
        m->keys = cv_arena_alloc(a, sizeof *m->keys);
        m->items = cv_arena_alloc(a, sizeof *m->items);
        m->keys[0] = scalar(a, dot, (size_t)(end - dot), pos);
        m->items[0] = leaf;
        leaf = m;
        end = dot > from ? dot - 1 : from;
    }
    return leaf;
}

const cv_yml *cv_sets_tree(cv_arena *a, char *const *sets, int n, bool layout,
                           cv_error *err)
{
    const cv_yml *tree = NULL;
    for (int i = 0; i < n; i++) {
        bool of_layout = !strncmp(sets[i], "layout.", 7);
        if (of_layout != layout)
            continue;
        char shown[512];
        cv_escape(sets[i], shown, sizeof shown);
        cv_pos pos = {cv_arena_printf(a, "--set %s", shown), 0, 0};
        cv_yml *t = one(a, sets[i], sets[i] + (layout ? 7 : 0), pos, err);
        if (!t)
            return NULL;
        tree = tree ? cv_yml_merge(a, tree, t) : t;
    }
    return tree;
}
