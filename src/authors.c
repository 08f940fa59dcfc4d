/* authors.c - the profile's owner in author lists.  See authors.h.
 *
 * A name is split into its family name, its given names and their
 * initials, each squashed to lower-case ASCII letters without dots,
 * hyphens or spaces.  Two names are the same person when their family
 * names agree and the given names agree, whole or as initials ("J." or
 * "J.-R." for Jia-Rui); an author list may also write a Chinese name
 * family first ("Fang Jiarui").  A name with no parts to split (方佳瑞)
 * matches only whole.
 */
#include "authors.h"

#include <ctype.h>
#include <string.h>

#include "markup.h"

/* Lower-case ASCII letters of s[0..n), dropping '.', '-' and spaces. */
static void squash(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '.' || c == '-' || c == ' ' || c == 0xE2)
            continue;            /* 0xE2: the lead byte of the marks below */
        out[k++] = (char)tolower(c);
    }
    out[k] = 0;
}

/* Footnote marks (* † ‡ digits) are dropped before anything else. */
bool cv_authors_split(const char *s, bool family_first, cv_person *pn)
{
    char buf[160];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 1 < sizeof buf; p++) {
        if (*p == '*' || *p == '#' || isdigit(*p) || *p == '^')
            continue;
        if (!strncmp((const char *)p, "†", strlen("†")) ||
            !strncmp((const char *)p, "‡", strlen("‡"))) {
            p += strlen("†") - 1;
            continue;
        }
        buf[n++] = (char)(*p == '\t' ? ' ' : *p);
    }
    while (n && buf[n - 1] == ' ')
        n--;
    buf[n] = 0;
    char *b = buf;
    while (*b == ' ')
        b++;
    memset(pn, 0, sizeof *pn);
    squash(b, strlen(b), pn->whole, sizeof pn->whole);
    const char *comma = strchr(b, ',');
    const char *fam, *giv;
    size_t fl, gl;
    if (comma) {
        fam = b, fl = (size_t)(comma - b);
        giv = comma + 1, gl = strlen(giv);
    } else {
        const char *sp = family_first ? strchr(b, ' ') : strrchr(b, ' ');
        if (!sp)
            return false;         /* one word: only the whole name can match */
        if (family_first) {
            fam = b, fl = (size_t)(sp - b);
            giv = sp + 1, gl = strlen(giv);
        } else {
            fam = sp + 1, fl = strlen(fam);
            giv = b, gl = (size_t)(sp - b);
        }
    }
    squash(fam, fl, pn->family, sizeof pn->family);
    squash(giv, gl, pn->given, sizeof pn->given);
    /* Initials: the first letter of each part of the given names, where
     * parts are separated by spaces, dots or hyphens ("Jia-Rui", "J.-R."). */
    size_t k = 0;
    bool start = true;
    for (size_t i = 0; i < gl && k + 1 < sizeof pn->initials; i++) {
        char c = giv[i];
        if (c == ' ' || c == '.' || c == '-') {
            start = true;
        } else if (start) {
            pn->initials[k++] = (char)tolower((unsigned char)c);
            start = false;
        }
    }
    return pn->family[0] && pn->given[0];
}

/* `s` without markup; `s` itself when it has none to remove (most names:
 * nothing is allocated). */
static const char *plain(cv_arena *a, const char *s)
{
    return strpbrk(s, "*[]\\") ? cv_markup_strip(a, s) : s;
}

void cv_authors_owner(cv_owner *o, cv_arena *a, const cv_doc *doc)
{
    const char *names[2] = {doc->name.s, doc->native_name.s};
    memset(o, 0, sizeof *o);
    for (int i = 0; i < 2; i++) {
        o->present[i] = names[i] != NULL;
        if (names[i])
            o->split[i] = cv_authors_split(plain(a, names[i]), false, &o->names[i]);
    }
}

/* Does author `au` (split given name last, and `rev` family name first
 * when the name may be written so) name person `me`? */
static bool same(const cv_person *me, const cv_person *au, const cv_person *rev)
{
    for (int r = 0; r < 1 + (rev != NULL); r++) {
        const cv_person *x = r ? rev : au;
        if (strcmp(x->family, me->family))
            continue;
        if (!strcmp(x->given, me->given))
            return true;
        /* Initials only ("J." or "J. R." or "J.-R." for Jia-Rui): each
         * part of the given names is one letter. */
        bool initials = strlen(x->initials) == strlen(x->given);
        if (initials && (!strcmp(x->given, me->initials) ||
                         (!x->given[1] && x->given[0] == me->initials[0])))
            return true;
    }
    return false;
}

bool cv_authors_match(const cv_owner *o, const char *author)
{
    cv_person au, rev;
    bool au_ok = cv_authors_split(author, false, &au);
    bool rev_ok = au_ok && !strchr(author, ',') && cv_authors_split(author, true, &rev);
    for (int i = 0; i < 2; i++) {
        const cv_person *me = &o->names[i];
        if (!o->present[i])
            continue;
        if (me->whole[0] && !strcmp(me->whole, au.whole))
            return true;          /* also 方佳瑞, where there are no parts */
        if (o->split[i] && au_ok && same(me, &au, rev_ok ? &rev : NULL))
            return true;
    }
    return false;
}

const char *cv_authors_markup(cv_arena *a, const cv_text *authors, size_t n,
                              const cv_owner *o)
{
    if (!n)
        return NULL;
    /* Which authors are the owner, then the string in one piece: an author
     * list of 60 names is one allocation, not 60 growing copies. */
    bool *mine = cv_arena_alloc(a, n * sizeof *mine);
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        const char *au = authors[i].s;
        const char *p = plain(a, au);
        /* Already marked up by hand ("**J. Fang**"): left as written. */
        mine[i] = !strcmp(p, au) && cv_authors_match(o, p);
        len += (i ? 2 : 0) + strlen(au) + (mine[i] ? 4 : 0);
        for (const char *q = au; *q; q++)
            len += *q == ' ';        /* a no-break space takes two bytes */
    }
    char *s = cv_arena_alloc(a, len + 1), *q = s;
    for (size_t i = 0; i < n; i++) {
        const char *au = authors[i].s;
        size_t l = strlen(au);
        if (i)
            memcpy(q, ", ", 2), q += 2;
        if (mine[i])
            memcpy(q, "**", 2), q += 2;
        /* A name is never split between lines: its spaces are no-break
         * spaces (wrap.h breaks there only when the name is wider than
         * the line, and draws them as spaces). */
        for (size_t k = 0; k < l; k++)
            if (au[k] == ' ')
                memcpy(q, "\xC2\xA0", 2), q += 2;
            else
                *q++ = au[k];
        if (mine[i])
            memcpy(q, "**", 2), q += 2;
    }
    *q = 0;
    return s;
}
