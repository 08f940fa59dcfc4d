/* migrate.c - `cvpdf migrate FILE` (migrate.h): the file read as for
 * rendering, then written as RenderCV 2.8's YAML. */
#include "migrate.h"

#include <ctype.h>
#include <string.h>

#include "doc.h"
#include "jsonresume.h"
#include "jsonsyntax.h"
#include "phone.h"
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
    cv_yml_put_quoted(out, s);
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
                cv_yml_put_quoted(out, k->str);
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

static cv_yml *container(cv_arena *a, cv_yml_kind k, cv_pos pos, size_t cap)
{
    cv_yml *n = cv_arena_alloc(a, sizeof *n);
    *n = (cv_yml){.kind = k, .pos = pos};
    n->items = cv_arena_alloc(a, sizeof *n->items * (cap ? cap : 1));
    if (k == CV_YML_MAP)
        n->keys = cv_arena_alloc(a, sizeof *n->keys * (cap ? cap : 1));
    return n;
}

static void push(cv_arena *a, cv_yml *m, const char *key, cv_pos kpos, cv_yml *v)
{
    if (m->kind == CV_YML_MAP)
        m->keys[m->n] = cv_yml_scalar(a, key ? key : "", kpos, true);
    m->items[m->n++] = v;
}

/* A .bib section (cvpdf's `bib:`) as the publication entries it gives. */
static cv_yml *bib_entries(cv_arena *a, const cv_section *s, cv_pos pos)
{
    cv_yml *seq = container(a, CV_YML_SEQ, pos, s->nentries);
    for (size_t i = 0; i < s->nentries; i++) {
        const cv_entry *e = &s->entries[i];
        cv_yml *m = container(a, CV_YML_MAP, pos, 7);
        push(a, m, "title", pos, cv_yml_scalar(a, e->title.s ? e->title.s : "", pos, false));
        if (e->nauthors) {
            cv_yml *au = container(a, CV_YML_SEQ, pos, e->nauthors);
            for (size_t j = 0; j < e->nauthors; j++)
                push(a, au, NULL, pos, cv_yml_scalar(a, e->authors[j].s, pos, false));
            push(a, m, "authors", pos, au);
        }
        if (e->summary.s)
            push(a, m, "summary", pos, cv_yml_scalar(a, e->summary.s, pos, false));
        if (e->journal.s)
            push(a, m, "journal", pos, cv_yml_scalar(a, e->journal.s, pos, false));
        const cv_date *d = &e->date;
        if (d->kind == CV_DATE_YEAR)
            push(a, m, "date", pos, cv_yml_scalar(a, cv_arena_printf(a, "%04d", d->year), pos, true));
        else if (d->kind == CV_DATE_MONTH)
            push(a, m, "date", pos,
                 cv_yml_scalar(a, cv_arena_printf(a, "%04d-%02d", d->year, d->month), pos, false));
        else if (d->kind == CV_DATE_TEXT)
            push(a, m, "date", pos, cv_yml_scalar(a, d->text, pos, false));
        if (e->doi.s)
            push(a, m, "doi", pos, cv_yml_scalar(a, e->doi.s, pos, false));
        if (e->url.s)
            push(a, m, "url", pos, cv_yml_scalar(a, e->url.s, pos, false));
        push(a, seq, NULL, pos, m);
    }
    return seq;
}

/* `m` without the keys RenderCV 2.8 refuses there (cvpdf's own), each
 * named in a warning. */
static cv_yml *without(cv_arena *a, const cv_yml *m, const char *const *drop, const char *where,
                       cv_error *err)
{
    if (!m || m->kind != CV_YML_MAP)
        return (cv_yml *)m;
    cv_yml *n = container(a, CV_YML_MAP, m->pos, m->n);
    for (size_t i = 0; i < m->n; i++) {
        bool gone = false;
        for (size_t k = 0; drop[k] && !gone; k++)
            gone = !strcmp(drop[k], m->keys[i]->str);
        if (gone)
            cv_warn(err, m->keys[i]->pos, "'%s.%s' is cvpdf's own: RenderCV 2.8 has no such "
                    "key; left out", where, m->keys[i]->str);
        else
            push(a, n, m->keys[i]->str, m->keys[i]->pos, m->items[i]);
    }
    return n;
}

/* The parts of `root` that are cvpdf's additions, made RenderCV 2.8's:
 * cvpdf's own keys left out (with a warning), a custom connection
 * without a URL given `url: null`, a .bib section written out as its
 * entries, a phone number RenderCV refuses (a JSON Resume's may be
 * written any way) left out. */
static const cv_yml *for_rendercv(cv_arena *a, const cv_yml *root, const cv_doc *d,
                                  cv_error *err)
{
    static const char *const cv_own[] = {"native_name", "photo_alt", NULL};
    static const char *const net_own[] = {"url", "fontawesome_icon", NULL};
    static const char *const settings_own[] = {"page_break_before", "keep_together", NULL};
    static const char *const none[] = {NULL};
    cv_yml *out = container(a, CV_YML_MAP, root->pos, root->n);
    for (size_t i = 0; i < root->n; i++) {
        const char *k = root->keys[i]->str;
        const cv_yml *v = root->items[i];
        if (!strcmp(k, "settings"))
            v = without(a, v, settings_own, "settings", err);
        if (!strcmp(k, "cv") && v->kind == CV_YML_MAP) {
            cv_yml *cv = without(a, v, cv_own, "cv", err);
            /* A key of an older RenderCV's file that the check took with a
             * warning (doc.h: RenderCV 1.13 to 2.6 took keys of their own
             * in cv) is left out: 2.8 refuses it. */
            const char *const *known = cv_doc_keys("cv");
            cv_yml *kept = container(a, CV_YML_MAP, cv->pos, cv->n);
            for (size_t j = 0; j < cv->n; j++)
                for (size_t q = 0; known[q]; q++)
                    if (!strcmp(known[q], cv->keys[j]->str)) {
                        /* A JSON Resume's image that is no file here (the
                         * check said so): RenderCV would refuse it. */
                        const cv_yml *pv = cv->items[j];
                        if (!strcmp(known[q], "photo") && !d->photo.s &&
                            pv->kind == CV_YML_SCALAR && pv->str &&
                            strncmp(pv->str, "http://", 7) && strncmp(pv->str, "https://", 8))
                            break;
                        push(a, kept, cv->keys[j]->str, cv->keys[j]->pos, cv->items[j]);
                        break;
                    }
            cv = kept;
            for (size_t j = 0; j < cv->n; j++) {
                const char *ck = cv->keys[j]->str;
                cv_yml *cvv = cv->items[j];
                if (!strcmp(ck, "social_networks") && cvv->kind == CV_YML_SEQ) {
                    cv_yml *seq = container(a, CV_YML_SEQ, cvv->pos, cvv->n);
                    for (size_t q = 0; q < cvv->n; q++)
                        push(a, seq, NULL, cvv->pos,
                             without(a, cvv->items[q], net_own, "social_networks[]", err));
                    cv->items[j] = seq;
                } else if (!strcmp(ck, "custom_connections") && cvv->kind == CV_YML_SEQ) {
                    cv_yml *seq = container(a, CV_YML_SEQ, cvv->pos, cvv->n);
                    for (size_t q = 0; q < cvv->n; q++) {
                        cv_yml *c = without(a, cvv->items[q], none, "", err);
                        if (c && c->kind == CV_YML_MAP && !cv_yml_get(c, "url")) {
                            cv_yml *c2 = container(a, CV_YML_MAP, c->pos, c->n + 1);
                            for (size_t r = 0; r < c->n; r++)
                                push(a, c2, c->keys[r]->str, c->keys[r]->pos, c->items[r]);
                            push(a, c2, "url", c->pos, cv_yml_scalar(a, "null", c->pos, true));
                            c = c2;
                        }
                        push(a, seq, NULL, cvv->pos, c);
                    }
                    cv->items[j] = seq;
                } else if (!strcmp(ck, "phone")) {
                    const char *why;
                    if (cvv->kind == CV_YML_SCALAR && cvv->str && *cvv->str &&
                        !cv_phone_valid(cvv->str, &why)) {
                        cv_warn(err, cvv->pos, "phone number '%s': %s; RenderCV refuses it, so "
                                "it is left out", cvv->str, why);
                        cv->items[j] = cv_yml_scalar(a, "", cvv->pos, true);
                    }
                } else if (!strcmp(ck, "sections") && cvv->kind == CV_YML_MAP) {
                    cv_yml *secs = container(a, CV_YML_MAP, cvv->pos, cvv->n);
                    for (size_t q = 0; q < cvv->n; q++) {
                        cv_yml *sv = cvv->items[q];
                        const char *sk = cvv->keys[q]->str;
                        if (sv->kind == CV_YML_MAP && cv_yml_get(sv, "bib"))
                            for (size_t r = 0; r < d->nsections; r++)
                                if (!strcmp(d->sections[r].key, sk) && d->sections[r].bib)
                                    sv = bib_entries(a, &d->sections[r], sv->pos);
                        push(a, secs, sk, cvv->keys[q]->pos, sv);
                    }
                    cv->items[j] = secs;
                }
            }
            v = cv;
        }
        push(a, out, k, root->keys[i]->pos, (cv_yml *)v);
    }
    return out;
}

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
    cv_doc *d = root ? cv_doc_load(a, root, path, err) : NULL;
    if (d && !err->set) {
        cv_error quiet = *err;
        quiet.quiet = true;
        if (root->kind == CV_YML_MAP && cv_jsonresume_is(root))
            root = cv_jsonresume_translate(a, root, &quiet);
        const cv_yml *mig = root ? cv_rcv_upgrade(a, root, true, NULL, &quiet) : NULL;
        if (mig)
            mig = for_rendercv(a, mig, d, err);
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
