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

typedef struct pname {
    char given[64], initials[16], family[64], whole[160];
} pname;

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

/* Split a name into family name, given names and their initials: "Family,
 * Given" or "Given Family" -- or, when `family_first`, "Family Given" (the
 * Chinese order).  Footnote marks (* † ‡ digits) are dropped. */
static bool split_name(const char *s, bool family_first, pname *pn)
{
    char buf[160];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 1 < sizeof buf; p++) {
        if (*p == '*' || *p == '#' || isdigit(*p) || *p == '^')
            continue;
        if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA0 || p[2] == 0xA1)) {
            p += 2;               /* † ‡ */
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

bool cv_authors_is_owner(const char *author, const cv_doc *doc, cv_arena *a)
{
    const char *names[2] = {doc->name.s, doc->native_name.s};
    for (int i = 0; i < 2; i++) {
        if (!names[i])
            continue;
        pname me, au, au_rev;
        bool me_ok = split_name(cv_markup_strip(a, names[i]), false, &me);
        bool au_ok = split_name(author, false, &au);
        if (me.whole[0] && !strcmp(me.whole, au.whole))
            return true;          /* also 方佳瑞, where there are no parts */
        if (!me_ok || !au_ok)
            continue;
        bool rev_ok = !strchr(author, ',') && split_name(author, true, &au_rev);
        for (int r = 0; r < 1 + rev_ok; r++) {
            const pname *x = r ? &au_rev : &au;
            if (strcmp(x->family, me.family))
                continue;
            if (!strcmp(x->given, me.given))
                return true;
            /* Initials only ("J." or "J. R." or "J.-R." for Jia-Rui): each
             * part of the given names is one letter. */
            bool initials = strlen(x->initials) == strlen(x->given);
            if (initials && (!strcmp(x->given, me.initials) ||
                             (!x->given[1] && x->given[0] == me.initials[0])))
                return true;
        }
    }
    return false;
}

