/* migrate.c - `cvpdf migrate FILE` (migrate.h): the file read as for
 * rendering, then written as RenderCV 2.8's YAML. */
#include "migrate.h"

#include <ctype.h>
#include <string.h>

#include "doc.h"
#include "jsonresume.h"
#include "jsonsyntax.h"
#include "rcvold.h"
#include "yml.h"

/* ---- Writing YAML ------------------------------------------------------ */

/* Would a plain scalar `s` read back as something other than this text
 * (a number, a boolean, null, a date), under YAML 1.1 or 1.2? */
static bool looks_typed(const char *s)
{
    static const char *const words[] = {
        "null", "Null", "NULL", "~", "true", "True", "TRUE", "false", "False", "FALSE",
        "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
        "y", "Y", "n", "N", ".inf", ".Inf", ".INF", "-.inf", "+.inf", ".nan", ".NaN", ".NAN",
        "<<", "=", NULL};
    for (size_t i = 0; words[i]; i++)
        if (!strcmp(s, words[i]))
            return true;
    const char *p = s;
    if (*p == '-' || *p == '+')
        p++;
    if (*p == '.')
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    /* Numbers in any base, dates, times, sexagesimals: digits and these. */
    for (; *p; p++)
        if (!isxdigit((unsigned char)*p) && !strchr("-+.:_ TtZzxXoO", *p))
            return false;
    return true;
}

static bool plain_ok(const char *s)
{
    size_t n = strlen(s);
    if (!n || strchr("-?:,[]{}#&*!|>'\"%@` \t", s[0]) || s[n - 1] == ' ' || s[n - 1] == ':')
        return n && s[0] == '-' && n > 1 && s[1] != ' ' && s[n - 1] != ' ' &&
               s[n - 1] != ':' && plain_ok(s + 1) && !strchr("-", s[1]);
    for (const char *p = s; *p; p++) {
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return false;
        if ((*p == ':' && (p[1] == ' ' || !p[1])) || (*p == '#' && p[-1] == ' '))
            return false;
    }
    /* Characters YAML readers treat specially even inside a scalar. */
    return !strstr(s, "\xEF\xBB\xBF") && !strstr(s, "\xC2\x85") && !strstr(s, "\xE2\x80\xA8") &&
           !strstr(s, "\xE2\x80\xA9");
}

static void quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\x%02x", *p);
        else if (p[0] == 0xC2 && p[1] == 0x85)
            fputs("\\N", out), p++;
        else if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9))
            fputs(p[2] == 0xA8 ? "\\L" : "\\P", out), p += 2;
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* Returns whether it ended the line (a literal block does). */
static bool write_scalar(FILE *out, const cv_yml *n, int indent)
{
    const char *s = n->str ? n->str : "";
    if (n->plain && (!*s || plain_ok(s))) {
        fputs(s, out);
        return false;
    }
    if (!n->plain && plain_ok(s) && !looks_typed(s)) {
        fputs(s, out);
        return false;
    }
    /* Text of several lines as a literal block, where it reads back the same. */
    size_t len = strlen(s);
    if (!n->plain && strchr(s, '\n') && s[0] != ' ' && s[0] != '\n' &&
        !(len >= 2 && s[len - 1] == '\n' && s[len - 2] == '\n')) {
        bool ok = true;
        for (const char *p = s; *p; p++)
            if (((unsigned char)*p < 0x20 && *p != '\n') || (*p == ' ' && p[1] == '\n') ||
                (*p == '\n' && p[1] == ' ' && p == s))
                ok = false;
        if (ok && !strstr(s, "\xC2\x85") && !strstr(s, "\xE2\x80\xA8") &&
            !strstr(s, "\xE2\x80\xA9")) {
            fputs(s[len - 1] == '\n' ? "|\n" : "|-\n", out);
            for (const char *p = s; *p;) {
                const char *e = strchr(p, '\n');
                size_t k = e ? (size_t)(e - p) : strlen(p);
                if (k)
                    fprintf(out, "%*s%.*s", indent + 2, "", (int)k, p);
                fputc('\n', out);
                p = e ? e + 1 : p + k;
                if (!*p)
                    break;
            }
            return true;
        }
    }
    quoted(out, s);
    return false;
}

static void write_node(FILE *out, const cv_yml *n, int indent, bool inline_first);

/* The value after "key:" or "-". */
static void write_value(FILE *out, const cv_yml *v, int indent)
{
    if (v->kind == CV_YML_SCALAR) {
        if (!(v->plain && !v->len))
            fputc(' ', out);
        if (!write_scalar(out, v, indent))
            fputc('\n', out);
    } else if (!v->n) {
        fputs(v->kind == CV_YML_MAP ? " {}\n" : " []\n", out);
    } else if (v->kind == CV_YML_SEQ) {
        fputc('\n', out);
        write_node(out, v, indent + 2, false);
    } else {
        fputc('\n', out);
        write_node(out, v, indent + 2, false);
    }
}

static void write_node(FILE *out, const cv_yml *n, int indent, bool inline_first)
{
    for (size_t i = 0; i < n->n; i++) {
        if (!(inline_first && i == 0))
            fprintf(out, "%*s", indent, "");
        const cv_yml *v = n->items[i];
        if (n->kind == CV_YML_MAP) {
            const cv_yml *k = n->keys[i];
            if (plain_ok(k->str) && !looks_typed(k->str))
                fputs(k->str, out);
            else
                quoted(out, k->str);
            fputc(':', out);
            write_value(out, v, indent);
        } else if (v->kind == CV_YML_MAP && v->n) {
            fputs("- ", out);
            write_node(out, v, indent + 2, true);
        } else {
            fputc('-', out);
            write_value(out, v, indent);
        }
    }
}

void cv_yaml_write(FILE *out, const cv_yml *root)
{
    if (root->kind == CV_YML_SCALAR) {
        if (!write_scalar(out, root, 0))
            fputc('\n', out);
        return;
    }
    write_node(out, root, 0, false);
}

/* ---- cvpdf migrate ----------------------------------------------------- */

bool cv_migrate(const char *path, FILE *out, cv_error *err)
{
    cv_arena *a = cv_arena_new();
    size_t len;
    char *data = cv_yml_read_file(a, path, &len, err);
    bool json = data && cv_json_is(path, data, len);
    if (json && !cv_json_check(path, data, len, err))
        data = NULL;
    const cv_yml *root = !data ? NULL
                         : json ? cv_yml_load_json(a, a, path, data, len, err)
                                : cv_yml_load_profile(a, a, path, data, len, err);
    bool ok = false;
    /* The file is read as for rendering first: what cvpdf refuses is not
     * migrated, and its warnings are said once. */
    if (root && cv_doc_load(a, root, path, err) && !err->set) {
        cv_error quiet = *err;
        quiet.quiet = true;
        if (root->kind == CV_YML_MAP && cv_jsonresume_is(root))
            root = cv_jsonresume_translate(a, root, &quiet);
        const cv_yml *mig = root ? cv_rcv_upgrade(a, root, true, NULL, &quiet) : NULL;
        if (mig) {
            cv_yaml_write(out, mig);
            ok = fflush(out) == 0 && !ferror(out);
            if (!ok)
                cv_error_at(err, (cv_pos){path, 0, 0}, "cannot write the migrated file");
        } else if (quiet.set) {
            *err = quiet;
            err->quiet = false;
        }
    }
    cv_arena_free(a);
    return ok;
}
