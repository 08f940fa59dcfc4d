/* tags.c - the logical structure of a résumé.  See tags.h. */
#include "tags.h"

#include <string.h>

#include "unicode.h"

cv_tags *cv_tags_new(cv_arena *a, const char *lang)
{
    cv_tags *t = cv_arena_alloc(a, sizeof *t);
    cv_snode none = {0};
    CV_PUSH(a, t->nodes, t->n, t->cap, none);
    int root = cv_tags_add(a, t, 0, "Document");
    t->nodes[root].lang = lang;
    return t;
}

int cv_tags_add(cv_arena *a, cv_tags *t, int parent, const char *type)
{
    cv_snode s = {.type = type, .parent = parent};
    CV_PUSH(a, t->nodes, t->n, t->cap, s);
    return (int)(t->n - 1);
}

/* ISO 32000-1, 14.8.4: the standard structure types. */
static const char *const standard[] = {
    "Document", "Part", "Art", "Sect", "Div", "BlockQuote", "Caption", "TOC", "TOCI",
    "Index", "NonStruct", "Private", "P", "H", "H1", "H2", "H3", "H4", "H5", "H6", "L",
    "LI", "Lbl", "LBody", "Table", "TR", "TH", "TD", "THead", "TBody", "TFoot", "Span",
    "Quote", "Note", "Reference", "BibEntry", "Code", "Link", "Annot", "Ruby", "RB", "RT",
    "RP", "Warichu", "WT", "WP", "Figure", "Formula", "Form", NULL};

/* cvpdf's own types and what they stand for. */
static const char *const own[][2] = {
    {"Header", "Sect"},       /* name, headline, contact details */
    {"Sidebar", "Sect"},      /* the sidebar column */
    {"Entry", "Div"},         /* an entry: its header lines, summary, highlights */
    {NULL, NULL}};

bool cv_tags_standard(const char *type)
{
    for (size_t i = 0; type && standard[i]; i++)
        if (!strcmp(type, standard[i]))
            return true;
    return false;
}

const char *cv_tags_role(const char *type)
{
    if (cv_tags_standard(type))
        return type;
    for (size_t i = 0; type && own[i][0]; i++)
        if (!strcmp(type, own[i][0]))
            return own[i][1];
    return NULL;
}

/* The script of a code point, as the language it implies: 'h' Han, 'k'
 * kana, 'g' Hangul, 'c' Cyrillic, 'e' Greek, 0 none. */
static char script(uint32_t c)
{
    switch (cv_script_resolve(c)) {     /* script.h: "ー" is kana, "、" none */
    case CV_SCRIPT_HAN: return 'h';
    case CV_SCRIPT_KANA: return 'k';
    case CV_SCRIPT_HANGUL: return 'g';
    case CV_SCRIPT_CYRILLIC: return 'c';
    case CV_SCRIPT_GREEK: return 'e';
    default: return 0;
    }
}

/* Does the document's language (its primary subtag) match `code`? */
static bool same(const char *doc_lang, const char *code)
{
    size_t n = strlen(code);
    return doc_lang && !strncmp(doc_lang, code, n) && (!doc_lang[n] || doc_lang[n] == '-');
}

const char *cv_tags_lang_of(const uint32_t *cps, size_t n, const char *doc_lang)
{
    char first = 0;
    bool kana = false;
    for (size_t i = 0; i < n; i++) {
        char s = script(cps[i]);
        if (s && !first)
            first = s;
        kana = kana || s == 'k';
    }
    const char *code = NULL;
    switch (first) {
    case 'h': code = kana ? "ja" : "zh"; break;
    case 'k': code = "ja"; break;
    case 'g': code = "ko"; break;
    case 'c': code = "ru"; break;
    case 'e': code = "el"; break;
    default: return NULL;
    }
    /* Han is also Japanese (and Korean) writing. */
    if (same(doc_lang, code) || (first == 'h' && (same(doc_lang, "ja") || same(doc_lang, "ko"))))
        return NULL;
    /* Cyrillic is also Ukrainian, Bulgarian, Serbian...: none of them is
     * said to be Russian. */
    if (first == 'c' && (same(doc_lang, "uk") || same(doc_lang, "bg") || same(doc_lang, "sr") ||
                         same(doc_lang, "mk") || same(doc_lang, "be") || same(doc_lang, "kk")))
        return NULL;
    return code;
}
