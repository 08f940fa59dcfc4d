/* test_yml.c - the YAML loader: tree shape, positions, strictness, limits. */
#include "harness.h"
#include "yml.h"
#include "color.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static cv_arena *A;
#include "errcheck.h"

/* Load `s` (of `len` bytes, or strlen) into a fresh error state. */
static cv_yml *load_n(const char *s, size_t len)
{
    cv_error_init(&E);
    return cv_yml_load(A, "t.yaml", s, len, &E);
}

static cv_yml *load(const char *s)
{
    return load_n(s, strlen(s));
}

TEST(tree_and_positions)
{
    cv_yml *r = load("name: Ada\nlist:\n  - one\n  - 2\nmap: {a: 1}\n");
    CHECK(r && r->kind == CV_YML_MAP && r->n == 3);
    if (!r)
        return;
    CHECK_STR(r->keys[0]->str, "name");
    CHECK(r->keys[0]->pos.line == 1 && r->keys[0]->pos.col == 1);
    cv_yml *name = cv_yml_get(r, "name");
    CHECK_STR(name->str, "Ada");
    CHECK(name->pos.line == 1 && name->pos.col == 7);
    CHECK_STR(name->pos.file, "t.yaml");
    cv_yml *list = cv_yml_get(r, "list");
    CHECK(list->kind == CV_YML_SEQ && list->n == 2);
    CHECK(list->items[1]->pos.line == 4 && list->items[1]->pos.col == 5);
    CHECK_STR(list->items[1]->str, "2");
    CHECK(cv_yml_get(cv_yml_get(r, "map"), "a") != NULL);
    CHECK(cv_yml_get(r, "nope") == NULL);
    CHECK(cv_yml_get(name, "x") == NULL);
}

TEST(plain_and_null)
{
    cv_yml *r = load("a: 2020\nb: \"2020\"\nc: !!str 2020\nd:\ne: ~\nf: null\ng: 'null'\n"
                     "h: NULL\ni: nil\n");
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK(cv_yml_get(r, "a")->plain);
    CHECK(!cv_yml_get(r, "b")->plain);
    CHECK(!cv_yml_get(r, "c")->plain);
    CHECK(cv_yml_is_null(cv_yml_get(r, "d")));
    CHECK(cv_yml_is_null(cv_yml_get(r, "e")));
    CHECK(cv_yml_is_null(cv_yml_get(r, "f")));
    CHECK(!cv_yml_is_null(cv_yml_get(r, "g")));
    CHECK(cv_yml_is_null(cv_yml_get(r, "h")));
    CHECK(!cv_yml_is_null(cv_yml_get(r, "i")));
    CHECK(!cv_yml_is_null(NULL));
    CHECK_STR(cv_yml_kind_name(CV_YML_SEQ), "a list");
    CHECK_STR(cv_yml_kind_name(CV_YML_MAP), "a mapping");
    CHECK_STR(cv_yml_kind_name(CV_YML_SCALAR), "a string");
}

TEST(duplicate_key)
{
    CHECK(load("cv:\n  name: A\n  email: a@b.c\n  name: B\n") == NULL);
    CHECK_STR(errstr(), "4:3: duplicate key 'name' (first defined at line 2)");
    /* The same key in two different mappings is fine. */
    CHECK(load("a: {x: 1}\nb: {x: 2}\n") != NULL);
}

TEST(non_scalar_key)
{
    CHECK(load("? [a, b]\n: 1\n") == NULL);
    CHECK(has(errstr(), "1:3: a mapping key must be a string, not a list"));
    CHECK(load("{a: 1}: 2\n") == NULL);
    CHECK(has(E.msg, "not a mapping"));
}

TEST(nul_byte)
{
    const char s[] = "a: 1\nb: x\0y\n";
    CHECK(load_n(s, sizeof s - 1) == NULL);
    CHECK_STR(errstr(), "2:5: the file contains a NUL byte (is it a text file?)");
    /* Columns count characters, not bytes. */
    const char t[] = "a: \xC3\xA9\xC3\xA9\0";
    CHECK(load_n(t, sizeof t - 1) == NULL);
    CHECK(E.pos.line == 1 && E.pos.col == 6);
}

TEST(escaped_nul_in_string)
{
    CHECK(load("a: \"x\\0y\"\n") == NULL);
    CHECK(has(errstr(), "1:4: a string may not contain a NUL"));
}

TEST(invalid_utf8)
{
    CHECK(load("a: ok\nb: caf\xE9 au lait\n") == NULL);
    CHECK(has(errstr(), "2:7: invalid UTF-8"));
    CHECK(load("a: \xFF\n") == NULL);
    CHECK(has(errstr(), "1:4: invalid UTF-8"));
    /* A surrogate and a code point past U+10FFFF, encoded as UTF-8. */
    CHECK(load("a: x\xED\xA0\x80\n") == NULL);
    CHECK(has(errstr(), "1:5: invalid UTF-8 (it encodes U+D800, which is not a character)"));
    CHECK(load("a: \xF4\x90\x80\x80\n") == NULL);
    CHECK(has(errstr(), "1:4: invalid UTF-8 (it encodes U+110000"));
}

TEST(control_character)
{
    CHECK(load("a: b\x07\n") == NULL);
    CHECK(has(errstr(), "1:5: control characters are not allowed (U+0007)"));
}

/* Escapes let controls past libyaml's reader: the loader refuses them in
 * values and keys (they would reach the terminal and the PDF), but keeps
 * tabs and line feeds. */
TEST(escaped_control_character)
{
    CHECK(load("name: \"A\\x07\\e[31mB\"\n") == NULL);
    CHECK(has(errstr(), "1:7: a string may not contain the control character U+0007"));
    CHECK(load("a: \"x\\u0085y\"\n") == NULL);
    CHECK(has(errstr(), "U+0085"));
    CHECK(load("\"\\e[2J\": b\n") == NULL);
    CHECK(has(errstr(), "U+001B"));
    CHECK(load("a: \"x\\x7Fy\"\n") == NULL);
    CHECK(load("a: \"tab\\there\\nline\"\nb: \"\\u00A0\u00e9\"\n") != NULL);
}

TEST(utf16)
{
    const char s[] = "\xFF\xFE" "a\0:\0 \0b\0";
    CHECK(load_n(s, sizeof s - 1) == NULL);
    CHECK(has(errstr(), "1:1: the file is UTF-16 encoded"));
    const char le[] = "a\0:\0 \0b\0", be[] = "\0a\0:\0 \0b";
    CHECK(load_n(le, sizeof le - 1) == NULL);
    CHECK(has(errstr(), "1:1: the file looks UTF-16 encoded"));
    CHECK(load_n(be, sizeof be - 1) == NULL);
    CHECK(has(errstr(), "1:1: the file looks UTF-16 encoded"));
    const char u32[] = "\xFF\xFE\0\0a\0\0\0";
    CHECK(load_n(u32, sizeof u32 - 1) == NULL);
    CHECK(has(errstr(), "1:1: the file is UTF-32 encoded"));
}

TEST(empty)
{
    CHECK(load("") == NULL);
    CHECK_STR(errstr(), "1:1: the file is empty (it holds no YAML data)");
    CHECK_STR(E.pos.file, "t.yaml");
    CHECK(load("# just a comment\n\n   # another\n") == NULL);
    CHECK(has(errstr(), "1:1: the file is empty"));
    CHECK(load("---\n") == NULL);
    CHECK(has(errstr(), "1:1: the file is empty"));
    CHECK(load("~\n") == NULL);
    CHECK(has(E.msg, "empty"));
}

TEST(two_documents)
{
    CHECK(load("a: 1\n---\nb: 2\n") == NULL);
    CHECK(has(errstr(), "2:1: a second YAML document"));
    CHECK(load("---\na: 1\n...\n") != NULL);
}

TEST(syntax_errors)
{
    CHECK(load("name: Ada: Lovelace\n") == NULL);
    CHECK_STR(errstr(), "1:10: mapping values are not allowed in this context; quote a value "
                        "that contains ': ', or check the indentation");
    CHECK(load("a:\n\t- b\n") == NULL);
    CHECK(has(errstr(), "2:1: found character that cannot start any token"));
    CHECK(has(E.msg, "indent with spaces, not tabs"));
    CHECK(load("a: [1, 2\n") == NULL);
    CHECK(has(E.msg, "(while parsing a flow sequence at line 1, column 4)"));
    CHECK(load("email: @ada\n") == NULL);
    CHECK(has(errstr(), "1:8: found character that cannot start any token"));
    CHECK(has(E.msg, "quote a value that starts with '@'"));
    CHECK(load("a:\n  b: 1\n c: 2\n") == NULL);
    CHECK(has(E.msg, "check the indentation"));
    CHECK(load("a: \"open\n") == NULL);
    CHECK(has(E.msg, "a quoted string is not closed"));
    /* A closed string with a bad escape is not called unclosed. */
    CHECK(load("a: \"C:\\path\"\n") == NULL);
    CHECK(has(errstr(), "1:7: found unknown escape character"));
    CHECK(has(E.msg, "write \\\\ for a backslash, or use single quotes"));
    CHECK(!has(E.msg, "not closed"));
    CHECK(load("a: \"x \\ud800\"\n") == NULL);
    CHECK(has(E.msg, "must name a character") && !has(E.msg, "not closed"));
}

TEST(aliases_share)
{
    cv_yml *r = load("base: &b {x: 1}\none: *b\ntwo: *b\n");
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK(cv_yml_get(r, "one") == cv_yml_get(r, "base"));
    CHECK(cv_yml_get(r, "two") == cv_yml_get(r, "base"));
    CHECK(load("a: *nope\n") == NULL);
    CHECK(has(errstr(), "1:4: alias '*nope' names no anchor"));
    /* In a profile, *nope is text, as RenderCV 2.7+ reads it. */
    static const char prof[] = "a: *nope\n";
    cv_yml *t = cv_yml_load_profile(A, A, "p.yaml", prof, sizeof prof - 1, &E);
    CHECK(t && !strcmp(cv_yml_get(t, "a")->str, "*nope"));
    CHECK(load("a: &x [1, *x]\n") == NULL);
    CHECK(has(errstr(), "1:11: alias '*x' refers to a list or mapping that contains it"));
}

/* RenderCV 2.7+: a value starting with `*` is text; cvpdf keeps an alias
 * whose anchor comes first. */
TEST(star_values)
{
    static const char text[] = "headline: *Researcher* of things  # a comment\n"
                     "list:\n  - *not_an_alias\n  - &k kept\n  - *k\n  - *k, and more\n"
                     "  - key: *Bold* \"quoted\" \\ text\n"
                     "block: |\n  *stays* as written\n  - *also\n"
                     "after: *k\n";
    cv_yml *r = cv_yml_load_profile(A, A, "p.yaml", text, sizeof text - 1, &E);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_STR(cv_yml_get(r, "headline")->str, "*Researcher* of things");
    const cv_yml *l = cv_yml_get(r, "list");
    CHECK(l && l->n == 5);
    if (!l || l->n != 5)
        return;
    CHECK_STR(l->items[0]->str, "*not_an_alias");
    CHECK(!l->items[0]->plain);
    CHECK(l->items[2] == l->items[1]);          /* an alias still */
    CHECK_STR(l->items[3]->str, "*k, and more");
    CHECK_STR(cv_yml_get(l->items[4], "key")->str, "*Bold* \"quoted\" \\ text");
    CHECK_STR(cv_yml_get(r, "block")->str, "*stays* as written\n- *also\n");
    CHECK(cv_yml_get(r, "after") == l->items[1]);
    /* Positions stay those of the file. */
    CHECK(cv_yml_get(r, "headline")->pos.line == 1 && cv_yml_get(r, "headline")->pos.col == 11);
    /* A plain value over several lines stays one value; no line moves. */
    static const char more[] = "a: *x* in\n  two \"q\"  # c\nb: *y\n";
    cv_yml *m = cv_yml_load_profile(A, A, "p.yaml", more, sizeof more - 1, &E);
    CHECK(m && !strcmp(cv_yml_get(m, "a")->str, "*x* in two \"q\""));
    CHECK(m && !strcmp(cv_yml_get(m, "b")->str, "*y") && cv_yml_get(m, "b")->pos.line == 3);
    /* In a flow collection too: `[*a]` without `&a` is text, a known
     * anchor's alias stays one, an item that goes on after the name is text. */
    static const char flow[] = "k: &k kept\nf: [*a, *k, *b* c, \"*q\", &m n, *m]  # c\n"
                               "g: {x: *nope, y: *k}\nh: [*k,*k]\n";
    cv_yml *fl = cv_yml_load_profile(A, A, "p.yaml", flow, sizeof flow - 1, &E);
    CHECK(fl != NULL);
    if (!fl)
        return;
    const cv_yml *f = cv_yml_get(fl, "f");
    CHECK(f && f->n == 6);
    if (!f || f->n != 6)
        return;
    CHECK_STR(f->items[0]->str, "*a");
    CHECK(f->items[1] == cv_yml_get(fl, "k"));
    CHECK_STR(f->items[2]->str, "*b* c");
    CHECK_STR(f->items[3]->str, "*q");
    CHECK(f->items[5] == f->items[4]);
    CHECK(f->items[0]->pos.line == 2 && f->items[0]->pos.col == 5);
    CHECK_STR(cv_yml_get(cv_yml_get(fl, "g"), "x")->str, "*nope");
    CHECK(cv_yml_get(cv_yml_get(fl, "g"), "y") == cv_yml_get(fl, "k"));
    const cv_yml *h = cv_yml_get(fl, "h");
    CHECK(h && h->n == 2 && h->items[0] == cv_yml_get(fl, "k"));
    /* A flow collection over several lines: each line's items. */
    static const char multi[] = "k: &k kept\nf: [a,\n  *nope, *k,\n  {x: *y z}]\n";
    cv_yml *ml = cv_yml_load_profile(A, A, "p.yaml", multi, sizeof multi - 1, &E);
    CHECK(ml != NULL);
    const cv_yml *mf = ml ? cv_yml_get(ml, "f") : NULL;
    CHECK(mf && mf->n == 4);
    if (!mf || mf->n != 4)
        return;
    CHECK_STR(mf->items[1]->str, "*nope");
    CHECK(mf->items[1]->pos.line == 3 && mf->items[1]->pos.col == 3);
    CHECK(mf->items[2] == cv_yml_get(ml, "k"));
    CHECK_STR(cv_yml_get(mf->items[3], "x")->str, "*y z");
    /* A line of a quoted or plain value that goes on over several lines is
     * not a value of its own, though it starts with `*` (RenderCV's own
     * examples of 1.x and 2.0 to 2.3: `- bullet: 'entry types: *A*,` then
     * `  *B*, and *C*.'`). */
    static const char cont[] = "s: 'types: *A*,\n  *B*, it''s *C*.'\n"
                               "d:\n  \"types: *A*,\n  *B* \\\" *C*.\"\n"
                               "p: plain *A*\n  *B* text\n\n  *C*\n"
                               "l:\n  - first\n    *B*\n  - *own\n"
                               "m: # c\n  *x*\n";
    cv_yml *ct = cv_yml_load_profile(A, A, "p.yaml", cont, sizeof cont - 1, &E);
    CHECK(ct != NULL);
    if (!ct) {
        fprintf(stderr, "  %s\n", errstr());
        return;
    }
    CHECK_STR(cv_yml_get(ct, "s")->str, "types: *A*, *B*, it's *C*.");
    CHECK_STR(cv_yml_get(ct, "d")->str, "types: *A*, *B* \" *C*.");
    CHECK_STR(cv_yml_get(ct, "p")->str, "plain *A* *B* text\n*C*");
    CHECK(cv_yml_get(ct, "p")->plain);
    const cv_yml *cl = cv_yml_get(ct, "l");
    CHECK(cl && cl->n == 2 && !strcmp(cl->items[0]->str, "first *B*") &&
          !strcmp(cl->items[1]->str, "*own"));
    CHECK_STR(cv_yml_get(ct, "m")->str, "*x*");
    CHECK(cv_yml_get(ct, "m")->pos.line == 15);
}

TEST(billion_laughs)
{
    const char *s = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
                    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
                    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
                    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
                    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
                    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
                    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
                    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
                    "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n";
    CHECK(load(s) == NULL);
    CHECK(has(E.msg, "too many alias references (more than 1000"));
    CHECK(E.pos.line == 5);

    /* Plain alias use, many times over, up to the limit. */
    char many[16000];
    int n = snprintf(many, sizeof many, "x: &x 1\nl: [");
    for (int i = 0; i < CV_YML_MAX_ALIASES; i++)
        n += snprintf(many + n, sizeof many - (size_t)n, "%s*x", i ? "," : "");
    snprintf(many + n, sizeof many - (size_t)n, "]\n");
    CHECK(load(many) != NULL);
    snprintf(many + n, sizeof many - (size_t)n, ",*x]\n");
    CHECK(load(many) == NULL);
    CHECK(has(E.msg, "too many alias references"));
}

TEST(expanded_size)
{
    /* Few alias references, but each expands to a big list. */
    size_t cap = 600000;
    char *s = malloc(cap);
    size_t n = (size_t)snprintf(s, cap, "big: &b [");
    for (int i = 0; i < 10000; i++)
        n += (size_t)snprintf(s + n, cap - n, "%s1", i ? "," : "");
    n += (size_t)snprintf(s + n, cap - n, "]\nl: [");
    for (int i = 0; i < 11; i++)
        n += (size_t)snprintf(s + n, cap - n, "%s*b", i ? "," : "");
    snprintf(s + n, cap - n, "]\n");
    CHECK(load(s) == NULL);
    CHECK(has(E.msg, "aliases expand to more than 100000 nodes"));
    free(s);
}

TEST(deep_nesting)
{
    char s[200];
    memset(s, '[', CV_YML_MAX_DEPTH);
    memset(s + CV_YML_MAX_DEPTH, ']', CV_YML_MAX_DEPTH);
    s[2 * CV_YML_MAX_DEPTH] = '\0';
    CHECK(load(s) != NULL);

    memset(s, '[', CV_YML_MAX_DEPTH + 1);
    memset(s + CV_YML_MAX_DEPTH + 1, ']', CV_YML_MAX_DEPTH + 1);
    s[2 * CV_YML_MAX_DEPTH + 2] = '\0';
    CHECK(load(s) == NULL);
    CHECK_STR(errstr(), "1:65: lists and mappings nest deeper than 64 levels");

    /* An unterminated flood stops at the limit, not at the end. */
    char *flood = malloc(200001);
    memset(flood, '[', 200000);
    flood[200000] = '\0';
    CHECK(load(flood) == NULL);
    CHECK(has(E.msg, "deeper than 64"));
    free(flood);

    /* Depth through an alias counts the aliased node's own depth. */
    char t[400];
    int n = snprintf(t, sizeof t, "a: &a ");
    for (int i = 0; i < 40; i++)
        t[n++] = '[';
    for (int i = 0; i < 40; i++)
        t[n++] = ']';
    n += snprintf(t + n, sizeof t - (size_t)n, "\nb: ");
    for (int i = 0; i < 30; i++)
        t[n++] = '[';
    n += snprintf(t + n, sizeof t - (size_t)n, "*a");
    for (int i = 0; i < 30; i++)
        t[n++] = ']';
    t[n] = '\0';
    CHECK(load(t) == NULL);
    CHECK(has(E.msg, "alias '*a' makes lists and mappings nest deeper than 64"));
}

TEST(merge_keys)
{
    cv_yml *r = load("base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n  z: 4\n");
    CHECK(r != NULL);
    if (!r)
        return;
    cv_yml *m = cv_yml_get(r, "m");
    CHECK(m->n == 3);
    CHECK_STR(cv_yml_get(m, "x")->str, "1");
    CHECK_STR(cv_yml_get(m, "y")->str, "3");
    CHECK_STR(cv_yml_get(m, "z")->str, "4");
    CHECK(cv_yml_get(m, "<<") == NULL);
    CHECK_STR(m->keys[0]->str, "x");

    CHECK(load("a: &a {p: 1}\nb: &b {p: 2, q: 3}\nm: {<<: [*a, *b]}\n") != NULL);
    CHECK_STR(cv_yml_get(cv_yml_get(load("a: &a {p: 1}\nb: &b {p: 2, q: 3}\nm: {<<: [*a, *b]}\n"),
                                    "m"), "p")->str, "1");
    CHECK(load("m: {<<: 3}\n") == NULL);
    CHECK(has(errstr(), "1:9: '<<' merges mappings; this is a string"));
    CHECK(load("m: {a: 1, a: 2}\n") == NULL);
    CHECK(has(E.msg, "duplicate key 'a'"));
}

static char tmpdir[64];

static const char *write_tmp(const char *name, const char *data, size_t len)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, len, f);
        fclose(f);
    }
    return path;
}

TEST(read_file)
{
    size_t len = 0;
    cv_error_init(&E);
    char *p = cv_yml_read_file(A, "/nonexistent/profile.yaml", &len, &E);
    CHECK(p == NULL);
    CHECK_STR(E.msg, "cannot open '/nonexistent/profile.yaml': No such file or directory");
    CHECK(E.pos.line == 0 && E.pos.col == 0);
    CHECK_STR(E.pos.file, "/nonexistent/profile.yaml");

    cv_error_init(&E);
    CHECK(cv_yml_read_file(A, tmpdir, &len, &E) == NULL);
    CHECK(has(E.msg, "Is a directory"));

    const char *path = write_tmp("ok.yaml", "a: 1\n", 5);
    cv_error_init(&E);
    p = cv_yml_read_file(A, path, &len, &E);
    CHECK(p && len == 5 && strcmp(p, "a: 1\n") == 0);
    CHECK(!E.set);

    /* A sparse file just over the limit. */
    path = write_tmp("big.yaml", "", 0);
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0 && ftruncate(fd, 16 * 1024 * 1024 + 1) == 0);
    if (fd >= 0)
        close(fd);
    cv_error_init(&E);
    CHECK(cv_yml_read_file(A, path, &len, &E) == NULL);
    CHECK(has(E.msg, "is larger than 16 MB"));

    /* A pipe-like file without a size: /dev/null reads as empty. */
    cv_error_init(&E);
    p = cv_yml_read_file(A, "/dev/null", &len, &E);
    CHECK(p && len == 0 && *p == '\0');
}

TEST(typed_getters)
{
    cv_yml *r = load("s: text\nn: -1.5e2\nbad: 12px\nhex: 0x1F\nb1: yes\nb2: False\n"
                     "l: [1]\nnul: ~\nempty:\nnan: .nan\n");
    CHECK(r != NULL);
    if (!r)
        return;
    const char *s = NULL;
    double d = 0;
    bool b = false;
    CHECK(cv_yml_str(cv_yml_get(r, "s"), &s, &E) && strcmp(s, "text") == 0);
    CHECK(cv_yml_str(cv_yml_get(r, "n"), &s, &E) && strcmp(s, "-1.5e2") == 0);
    CHECK(cv_yml_num(cv_yml_get(r, "n"), &d, &E));
    CHECK_NUM(d, -150, 1e-9);
    CHECK(!E.set);

    CHECK(!cv_yml_num(cv_yml_get(r, "bad"), &d, &E));
    CHECK_STR(errstr(), "3:6: expected a number, got '12px'");
    cv_error_init(&E);
    CHECK(!cv_yml_num(cv_yml_get(r, "hex"), &d, &E));
    cv_error_init(&E);
    CHECK(!cv_yml_num(cv_yml_get(r, "nan"), &d, &E));
    cv_error_init(&E);
    CHECK(!cv_yml_num(cv_yml_get(r, "l"), &d, &E));
    CHECK_STR(errstr(), "7:4: expected a number, got a list");
    cv_error_init(&E);
    CHECK(!cv_yml_str(cv_yml_get(r, "l"), &s, &E));
    CHECK_STR(E.msg, "expected a string, got a list");
    cv_error_init(&E);
    CHECK(cv_yml_str(cv_yml_get(r, "nul"), &s, &E) && strcmp(s, "") == 0);
    s = NULL;
    CHECK(cv_yml_str(cv_yml_get(r, "empty"), &s, &E) && s && strcmp(s, "") == 0);
    CHECK(!E.set);
    CHECK(!cv_yml_num(cv_yml_get(r, "empty"), &d, &E));
    CHECK(has(E.msg, "expected a number, got an empty value"));

    cv_error_init(&E);
    CHECK(cv_yml_bool(cv_yml_get(r, "b1"), &b, &E) && b);
    CHECK(cv_yml_bool(cv_yml_get(r, "b2"), &b, &E) && !b);
    CHECK(!cv_yml_bool(cv_yml_get(r, "s"), &b, &E));
    CHECK(has(E.msg, "expected true or false, got 'text'"));
}

TEST(colors)
{
    cv_yml *r = load("a: '#1a2B3c'\nb: '#fff'\nc: rgb(0, 79, 144)\nd: rgb(0,79,256)\n"
                     "e: '#12345'\nf: blue\ng: 'rgb( 1 ,2, 3 )'\n");
    CHECK(r != NULL);
    if (!r)
        return;
    unsigned c = 0;
    CHECK(cv_yml_color(cv_yml_get(r, "a"), &c, &E) && c == 0x1A2B3C);
    CHECK(cv_yml_color(cv_yml_get(r, "b"), &c, &E) && c == 0xFFFFFF);
    CHECK(cv_yml_color(cv_yml_get(r, "c"), &c, &E) && c == 0x004F90);
    CHECK(cv_yml_color(cv_yml_get(r, "g"), &c, &E) && c == 0x010203);
    CHECK(!E.set);
    CHECK(!cv_yml_color(cv_yml_get(r, "d"), &c, &E));
    CHECK(has(errstr(), "4:4: invalid colour 'rgb(0,79,256)'"));
    cv_error_init(&E);
    CHECK(!cv_yml_color(cv_yml_get(r, "e"), &c, &E));
    cv_error_init(&E);
    CHECK(cv_yml_color(cv_yml_get(r, "f"), &c, &E) && c == 0x0000FF);
}

/* RenderCV's colours (pydantic's Color): names in any case, hex with or
 * without #, 3/4/6/8 digits, rgb/rgba/hsl/hsla in both syntaxes. */
TEST(rendercv_colors)
{
    static const struct {
        const char *s;
        unsigned rgb;
    } ok[] = {
        {"black", 0x000000}, {"Black", 0x000000}, {"grey", 0x808080}, {"GRAY", 0x808080},
        {"darkblue", 0x00008B}, {"RebeccaPurple", 0x663399}, {"7fffd4", 0x7FFFD4},
        {"#7FFFD4", 0x7FFFD4}, {"0x7fffd4", 0x7FFFD4}, {"abc", 0xAABBCC}, {"#abc", 0xAABBCC},
        {"#000f", 0x000000}, {"#0000", 0xFFFFFF}, {"#00000080", 0x7F7F7F},
        {"rgb(34 51 59)", 0x22333B}, {"rgb(34, 51, 59)", 0x22333B},
        {"rgba(0, 0, 0, 0.5)", 0x808080}, {"rgba(0 0 0 / 50%)", 0x808080},
        {"rgb(100%, 0%, 0%)", 0xFF0000}, {"hsl(270, 60%, 70%)", 0xB285E0},
        {"hsl(270 60% 70%)", 0xB285E0}, {"hsl(0, 100%, 50%)", 0xFF0000},
        {"hsl(120deg, 100%, 25%)", 0x008000}, {"hsla(240, 100%, 50%, 1)", 0x0000FF},
        {"hsl(0.5turn 100% 50%)", 0x00FFFF}, {" navy ", 0x000080}, {"rgb(127.5, 0, 0)", 0x800000},
    };
    static const char *const bad[] = {"blak", "#12345", "rgb(0, 79, 256)", "rgb(1 2, 3)",
                                      "rgb(1, 2)", "hsl(10, 20, 30)", "rgba(0, 0, 0, 2)",
                                      "#ggg", "rgb(1, 2, 3) x", "rgb(1 2 3 , 4)"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        unsigned c = 1;
        bool yes = cv_color_parse(ok[i].s, &c);
        CHECK(yes && c == ok[i].rgb);
        if (!yes || c != ok[i].rgb)
            fprintf(stderr, "  colour '%s': %d %06x, want %06x\n", ok[i].s, yes, c, ok[i].rgb);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        unsigned c;
        CHECK(!cv_color_parse(bad[i], &c));
        if (cv_color_parse(bad[i], &c))
            fprintf(stderr, "  '%s' taken as %06x\n", bad[i], c);
    }
}

TEST(suggest)
{
    static const char *const keys[] = {"name", "email", "phone", "website", "social_networks",
                                       NULL};
    CHECK_STR(cv_suggest("emial", keys), "email");
    CHECK_STR(cv_suggest("Email", keys), "email");
    CHECK_STR(cv_suggest("naem", keys), "name");
    CHECK_STR(cv_suggest("webiste", keys), "website");
    CHECK_STR(cv_suggest("social_network", keys), "social_networks");
    CHECK(cv_suggest("xyz", keys) == NULL);
    CHECK(cv_suggest("headline", keys) == NULL);
    CHECK(cv_suggest("", keys) == NULL);
    /* Short words allow one edit: "nam" is close, "nm" is two away from "name". */
    CHECK_STR(cv_suggest("nam", keys), "name");
    CHECK(cv_suggest("nm", keys) == NULL);
}

TEST(check_keys)
{
    static const char *const keys[] = {"name", "email", NULL};
    cv_yml *r = load("name: A\nemial: a@b.c\n");
    CHECK(r && !cv_yml_check_keys(r, keys, "cv", &E));
    CHECK_STR(errstr(), "2:1: unknown key 'emial' in cv (did you mean 'email'?)");
    r = load("name: A\nzzz: 1\n");
    CHECK(r && !cv_yml_check_keys(r, keys, "cv", &E));
    CHECK_STR(errstr(), "2:1: unknown key 'zzz' in cv (expected one of: name, email)");
    r = load("name: A\nemail: x\n");
    CHECK(r && cv_yml_check_keys(r, keys, "cv", &E));
    CHECK(!E.set);
}

TEST(first_error_wins)
{
    cv_error_init(&E);
    cv_error_at(&E, (cv_pos){"f", 1, 1}, "first");
    cv_yml *r = cv_yml_load(A, "t.yaml", "a: b: c", 7, &E);
    CHECK(r == NULL);
    CHECK_STR(E.msg, "first");
}

/* --defaults: the profile over the defaults, key by key. */
TEST(merge_defaults)
{
    cv_yml *under = load("cv:\n  location: Lab\n  website: https://lab.example/\n"
                         "locale:\n  present: now\nsettings:\n  current_date: 2026-01-01\n");
    cv_yml *over = load("cv:\n  name: Ada\n  location: Home\nsettings:\n");
    CHECK(under && over);
    if (!under || !over)
        return;
    const cv_yml *m = cv_yml_merge(A, under, over);
    CHECK(m && m->kind == CV_YML_MAP && m->n == 3);
    /* The profile's keys first, in its order, then the defaults' others. */
    CHECK_STR(m->keys[0]->str, "cv");
    CHECK_STR(m->keys[1]->str, "settings");
    CHECK_STR(m->keys[2]->str, "locale");
    const cv_yml *cv = cv_yml_get(m, "cv");
    CHECK(cv && cv->n == 3);
    CHECK_STR(cv_yml_get(cv, "name")->str, "Ada");
    CHECK_STR(cv_yml_get(cv, "location")->str, "Home");          /* the profile wins */
    CHECK_STR(cv_yml_get(cv, "website")->str, "https://lab.example/");
    /* Positions still name their own lines. */
    CHECK(cv_yml_get(cv, "website")->pos.line == 3);
    /* An empty `settings:` in the profile takes the defaults'. */
    const cv_yml *st = cv_yml_get(m, "settings");
    CHECK(st && st->kind == CV_YML_MAP && cv_yml_get(st, "current_date"));
    /* A scalar over a mapping: the scalar. */
    cv_yml *sc = load("cv: x\n");
    const cv_yml *m2 = cv_yml_merge(A, under, sc);
    CHECK(m2 && cv_yml_get(m2, "cv")->kind == CV_YML_SCALAR);
    CHECK(cv_yml_merge(A, NULL, over) == over && cv_yml_merge(A, under, NULL) == under);
}

int main(void)
{
    A = cv_arena_new();
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cvpdf_test_yml_XXXXXX");
    if (!mkdtemp(tmpdir))
        return 2;
    RUN(tree_and_positions);
    RUN(merge_defaults);
    RUN(plain_and_null);
    RUN(duplicate_key);
    RUN(non_scalar_key);
    RUN(nul_byte);
    RUN(escaped_nul_in_string);
    RUN(invalid_utf8);
    RUN(control_character);
    RUN(escaped_control_character);
    RUN(utf16);
    RUN(empty);
    RUN(two_documents);
    RUN(syntax_errors);
    RUN(aliases_share);
    RUN(billion_laughs);
    RUN(expanded_size);
    RUN(deep_nesting);
    RUN(merge_keys);
    RUN(read_file);
    RUN(typed_getters);
    RUN(colors);
    RUN(rendercv_colors);
    RUN(star_values);
    RUN(suggest);
    RUN(check_keys);
    RUN(first_error_wins);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    cv_arena_free(A);
    return harness_report("yml");
}
