/* lang.c - RenderCV's `locale:`, the language table and section titles.
 *
 * RenderCV 2 names a profile's language, its month names and its words
 * under `locale:`; RenderCV 1 used other keys for the month names
 * (`abbreviations_for_months`, `full_names_of_months`), and both are read.
 * Keys RenderCV has but cvpdf does not use (`page_numbering_template`, ...)
 * are accepted and ignored, so a RenderCV file loads unchanged.  A
 * language is an ISO 639 code or one of RenderCV's English language names.
 *
 * Localising (cv_locale_localize) fills what the profile left out: the
 * month names and the date order from CLDR (cldr.c), then the words from
 * cvpdf's locale file, locales/NAME.yaml in the data directory, read with
 * the same reader as the profile's `locale:` plus the keys only a locale
 * file has (hyphenation, direction).  A word still English is one the
 * profile did not set: its pointer is the English default's.
 *
 * Section titles follow RenderCV's rule: a snake_case key is title-cased
 * word by word; anything else is already a title.  The first letter of a
 * word is title-cased by ICU with the profile's language (unicode.h):
 * "éducation" -> "Éducation", Turkish "iletişim" -> "İletişim".
 */
#include "lang.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cldr.h"
#include "text.h"
#include "unicode.h"

static const cv_locale english = {
    .language = "en",
    .month_abbr = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                   "Dec"},
    .month_full = {"January", "February", "March", "April", "May", "June", "July", "August",
                   "September", "October", "November", "December"},
    .present = "present",
    .to = "\xE2\x80\x93", /* en dash */
    .phone_format = "national",
    .date_template = "MONTH_ABBREVIATION YEAR",
    .last_updated = "Last updated in",
    .degree_with_area = "DEGREE in AREA",
    .contact = "Contact",
    .resume = "R\xC3\xA9sum\xC3\xA9",
    .year = "year",
    .years = "years",
    .month = "month",
    .months = "months",
    .hyphenation = "en_US",
};

const cv_locale *cv_locale_english(void)
{
    return &english;
}

/* RenderCV's language names (locale.language) and their ISO 639-1 codes;
 * the first name of a code names its locale file. */
static const char *const languages[][2] = {
    {"english", "en"}, {"arabic", "ar"}, {"danish", "da"}, {"dutch", "nl"},
    {"french", "fr"}, {"german", "de"}, {"hebrew", "he"}, {"hindi", "hi"},
    {"hungarian", "hu"}, {"indonesian", "id"}, {"indonesia", "id"}, {"italian", "it"},
    {"japanese", "ja"}, {"korean", "ko"}, {"mandarin_chinese", "zh"},
    {"norwegian_bokm\xC3\xA5l", "nb"}, {"norwegian_nynorsk", "nn"}, {"persian", "fa"},
    {"polish", "pl"}, {"portuguese", "pt"}, {"russian", "ru"}, {"spanish", "es"},
    {"swedish", "sv"}, {"turkish", "tr"}, {"vietnamese", "vi"},
};

/* An ISO 639 code with optional subtags: "en", "zh-Hans", "pt_BR". */
static bool is_lang_code(const char *s)
{
    size_t n = 0;
    while (s[n] >= 'a' && s[n] <= 'z')
        n++;
    if (n < 2 || n > 3)
        return false;
    for (s += n; *s;) {
        if (*s != '-' && *s != '_')
            return false;
        size_t k = 0;
        for (s++; isalnum((unsigned char)s[k]); k++)
            ;
        if (k < 2 || k > 8)
            return false;
        s += k;
    }
    return true;
}

#define NLANGUAGES (sizeof languages / sizeof *languages)

const char *cv_locale_language(const char *name)
{
    for (size_t i = 0; i < NLANGUAGES; i++)
        if (strcasecmp(name, languages[i][0]) == 0)
            return languages[i][1];
    return is_lang_code(name) ? name : NULL;
}

const char *cv_locale_name(const char *code)
{
    size_t n = strcspn(code, "-_");
    for (size_t i = 0; i < NLANGUAGES; i++)
        if (strlen(languages[i][1]) == n && strncmp(code, languages[i][1], n) == 0)
            return languages[i][0];
    return NULL;
}

/* A list of 12 month names into out[0..12). */
static bool months(cv_arena *a, const cv_yml *n, const char *field, const char **out,
                   cv_error *err)
{
    if (cv_text_absent(n))
        return true;
    if (n->kind != CV_YML_SEQ || n->n != 12)
        return cv_error_at(err, n->pos, "'%s' must be a list of 12 names, got %s%s", field,
                           n->kind == CV_YML_SEQ ? "" : cv_yml_kind_name(n->kind),
                           n->kind == CV_YML_SEQ ? cv_arena_printf(a, "%zu", n->n) : "");
    for (size_t i = 0; i < 12; i++) {
        cv_text t;
        if (!cv_text_read(a, n->items[i], field, &t, err))
            return false;
        if (!t.s)
            return cv_error_at(err, n->items[i]->pos, "empty month name in '%s'", field);
        out[i] = t.s;
    }
    return true;
}

/* The words and templates under `locale:`; `to` may be empty (no
 * separator). */
static bool read_words(cv_arena *a, const cv_yml *n, cv_locale *loc, cv_error *err)
{
    const struct {
        const char *key;
        const char **field;
    } words[] = {{"present", &loc->present},
                 {"to", &loc->to},
                 {"date_template", &loc->date_template},
                 {"phone_number_format", &loc->phone_format},
                 {"last_updated", &loc->last_updated},
                 {"degree_with_area", &loc->degree_with_area},
                 {"contact", &loc->contact},
                 {"resume", &loc->resume},
                 {"year", &loc->year},
                 {"years", &loc->years},
                 {"month", &loc->month},
                 {"months", &loc->months}};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        const cv_yml *v = cv_yml_get(n, words[i].key);
        cv_text t;
        if (!cv_text_read(a, v, words[i].key, &t, err))
            return false;
        if (t.s)
            *words[i].field = t.s;
        else if (v && strcmp(words[i].key, "to") == 0)
            *words[i].field = "";
    }
    /* RenderCV 2 keeps the degree's phrase under `phrases:`. */
    const cv_yml *ph = cv_yml_get(n, "phrases");
    static const char *const phrase_keys[] = {"degree_with_area", NULL};
    if (ph && !cv_text_absent(ph) && ph->kind != CV_YML_MAP)
        return cv_error_at(err, ph->pos, "'phrases' must be a mapping (degree_with_area), "
                           "not %s", cv_yml_kind_name(ph->kind));
    if (ph && ph->kind == CV_YML_MAP &&
        !cv_yml_check_keys(ph, phrase_keys, "locale.phrases", err))
        return false;
    if (ph && ph->kind == CV_YML_MAP) {
        cv_text t;
        if (!cv_text_read(a, cv_yml_get(ph, "degree_with_area"), "degree_with_area", &t, err))
            return false;
        if (t.s)
            loc->degree_with_area = t.s;
    }
    return true;
}

/* The language as written, `t`, into loc->language; an unknown one is a
 * note with the closest RenderCV name, and the résumé stays English. */
static void set_language(const cv_text *t, cv_locale *loc, cv_error *err)
{
    const char *code = cv_locale_language(t->s);
    if (code) {
        loc->language = code;
        return;
    }
    const char *names[NLANGUAGES + 1];
    for (size_t i = 0; i < NLANGUAGES; i++)
        names[i] = languages[i][0];
    names[NLANGUAGES] = NULL;
    const char *s = cv_suggest(t->s, names);
    cv_note(err, t->pos,
            "unknown language '%s'%s%s%s: the words stay English; use an ISO 639 code such "
            "as 'de' or a RenderCV language name", t->s, s ? " (did you mean '" : "",
            s ? s : "", s ? "'?)" : "");
}

/* When a language other than English would still show an English word
 * (neither the profile, CLDR nor a locale file gave it), say so once. */
static void note_untranslated(const cv_locale *loc, cv_pos pos, const cv_error *err)
{
    const char *tmpl = loc->date_template;
    bool english_months =
        (strstr(tmpl, "MONTH_ABBREVIATION") && loc->month_abbr[0] == english.month_abbr[0]) ||
        ((strstr(tmpl, "MONTH_NAME") || strstr(tmpl, "FULL_MONTH_NAME")) &&
         loc->month_full[0] == english.month_full[0]);
    bool english_words = loc->present == english.present || english_months;
    if (strcmp(loc->language, "en") == 0 || strncmp(loc->language, "en-", 3) == 0 ||
        strncmp(loc->language, "en_", 3) == 0 || !english_words)
        return;
    char msg[300];
    if (english_months)
        snprintf(msg, sizeof msg,
                 "cvpdf knows no words for language '%s'; dates stay in English unless "
                 "'locale' gives month_names, month_abbreviations and present", loc->language);
    else        /* CLDR named the months: only the words are English ("maj 2020 – present") */
        snprintf(msg, sizeof msg,
                 "cvpdf knows no words for language '%s'; the months are named in it (CLDR), "
                 "but 'present' stays in English unless 'locale' gives present",
                 loc->language);
    cv_note(err, pos, "%s", msg);
}

static const char *const locale_keys[] = {
    "language", "present", "to", "date_template", "phone_number_format",
    "month_abbreviations", "abbreviations_for_months", "month_names",
    "full_names_of_months", "month", "months", "year", "years", "last_updated",
    "phrases", "page_numbering_template", "last_updated_date_template",
    "degree_with_area", "contact", "resume", NULL};

const char *const *cv_locale_keys(void)
{
    return locale_keys;
}

bool cv_locale_read(cv_arena *a, const cv_yml *n, cv_locale *loc, cv_error *err)
{
    const char *const *keys = locale_keys;
    *loc = english;
    if (cv_text_absent(n))
        return true;
    if (n->kind != CV_YML_MAP)
        return cv_error_at(err, n->pos, "'locale' must be a mapping, not %s",
                           cv_yml_kind_name(n->kind));
    if (!cv_yml_check_keys(n, keys, "locale", err))
        return false;

    /* Month names under RenderCV 2's keys or RenderCV 1's. */
    if (!months(a, cv_yml_get(n, "month_abbreviations"), "month_abbreviations",
                loc->month_abbr, err) ||
        !months(a, cv_yml_get(n, "abbreviations_for_months"), "abbreviations_for_months",
                loc->month_abbr, err) ||
        !months(a, cv_yml_get(n, "month_names"), "month_names", loc->month_full, err) ||
        !months(a, cv_yml_get(n, "full_names_of_months"), "full_names_of_months",
                loc->month_full, err) ||
        !read_words(a, n, loc, err))
        return false;

    /* The language, as an ISO code or one of RenderCV's names. */
    cv_text t;
    if (!cv_text_read(a, cv_yml_get(n, "language"), "language", &t, err))
        return false;
    if (t.s)
        set_language(&t, loc, err);
    loc->pos = t.s ? t.pos : n->pos;
    return true;
}

/* A word of `from` into `to` where `to` still has English's. */
#define TAKE(f) do { if (to->f == english.f && from->f) to->f = from->f; } while (0)

static void take_words(cv_locale *to, const cv_locale *from)
{
    TAKE(present); TAKE(to); TAKE(date_template); TAKE(last_updated);
    TAKE(degree_with_area); TAKE(contact); TAKE(resume); TAKE(year); TAKE(years);
    TAKE(month); TAKE(months); TAKE(hyphenation);
    for (int m = 0; m < 12; m++) {
        TAKE(month_abbr[m]);
        TAKE(month_full[m]);
    }
}

/* cvpdf's locale file `path` into *out (English where it says nothing).
 * False with err set when it exists and is malformed; *found says whether
 * it exists. */
static bool read_file(cv_arena *a, const char *path, cv_locale *out, bool *found,
                      cv_error *err)
{
    static const char *const keys[] = {
        "language", "present", "to", "date_template", "month_abbreviations", "month_names",
        "last_updated", "degree_with_area", "contact", "resume", "year", "years", "month",
        "months", "hyphenation", "direction", NULL};
    *out = english;
    *found = access(path, R_OK) == 0;
    if (!*found)
        return true;
    size_t len;
    char *text = cv_yml_read_regular(a, path, &len, err);
    cv_yml *root = text ? cv_yml_load(a, path, text, len, err) : NULL;
    if (!root)
        return false;
    if (root->kind != CV_YML_MAP)
        return cv_error_at(err, root->pos, "a locale file is a mapping, not %s",
                           cv_yml_kind_name(root->kind));
    if (!cv_yml_check_keys(root, keys, "the locale file", err) ||
        !months(a, cv_yml_get(root, "month_abbreviations"), "month_abbreviations",
                out->month_abbr, err) ||
        !months(a, cv_yml_get(root, "month_names"), "month_names", out->month_full, err) ||
        !read_words(a, root, out, err))
        return false;
    cv_text h, d;
    if (!cv_text_read(a, cv_yml_get(root, "hyphenation"), "hyphenation", &h, err) ||
        !cv_text_read(a, cv_yml_get(root, "direction"), "direction", &d, err))
        return false;
    if (h.s && (strchr(h.s, '/') || strchr(h.s, '.')))
        return cv_error_at(err, h.pos, "'hyphenation' names a dictionary such as 'de_DE' "
                           "(/usr/share/hyphen/hyph_de_DE.dic), not a path");
    out->hyphenation = h.s ? h.s : cv_yml_get(root, "hyphenation") ? "" : NULL;
    if (d.s && strcmp(d.s, "rtl") && strcmp(d.s, "ltr"))
        return cv_error_at(err, d.pos, "'direction' is 'ltr' or 'rtl', not '%s'", d.s);
    out->rtl = d.s && strcmp(d.s, "rtl") == 0;
    return true;
}

bool cv_locale_localize(cv_arena *a, cv_locale *loc, const char *dir, cv_error *err)
{
    const char *lang = loc->language;
    if (!strcmp(lang, "en") || !strncmp(lang, "en-", 3) || !strncmp(lang, "en_", 3))
        return true;
    /* Not English: English's hyphenation patterns are no use. */
    if (loc->hyphenation == english.hyphenation)
        loc->hyphenation = "";
    const char *name = cv_locale_name(lang);
    if (name && dir) {
        cv_locale file;
        bool found;
        if (!read_file(a, cv_arena_printf(a, "%s/%s.yaml", dir, name), &file, &found, err))
            return false;
        if (found) {
            if (loc->hyphenation && !*loc->hyphenation)
                loc->hyphenation = file.hyphenation;
            take_words(loc, &file);
            loc->rtl = file.rtl;
        }
    }
    cv_cldr c;
    if (cv_cldr_dates(a, lang, &c)) {
        cv_locale from = english;
        for (int m = 0; m < 12; m++) {
            from.month_abbr[m] = c.month_abbr[m];
            from.month_full[m] = c.month_full[m];
        }
        from.date_template = c.date_template;
        take_words(loc, &from);
    }
    if (!loc->hyphenation || loc->hyphenation == english.hyphenation)
        loc->hyphenation = "";
    note_untranslated(loc, loc->pos, err);
    return true;
}

void cv_locale_dates(cv_arena *a, cv_locale *loc, const char *single, const char *range,
                     const char *const *english_abbr)
{
    if (english_abbr && english_abbr[0] && !strcmp(loc->language, "en") &&
        loc->month_abbr[5] == english.month_abbr[5])
        for (int i = 0; i < 12; i++)
            loc->month_abbr[i] = english_abbr[i];
    /* The layout's template is a string of its own (not English's), which
     * localising keeps: a RenderCV file's dates follow its design in every
     * language, not the language's own date form.  Copied: English's is
     * told by its address, and a compiler merges equal string literals
     * (design.c's default "MONTH_ABBREVIATION YEAR" is English's own). */
    if (single && *single && loc->date_template == english.date_template)
        loc->date_template = cv_arena_strdup(a, single);
    if (!range)
        return;
    /* START_DATE x END_DATE: x is the word between the dates. */
    const char *s = strstr(range, "START_DATE"), *e = s ? strstr(s + 10, "END_DATE") : NULL;
    if (loc->to == english.to && s == range && e && !e[8]) {
        const char *p = s + 10, *q = e;
        while (p < q && *p == ' ')
            p++;
        while (q > p && q[-1] == ' ')
            q--;
        loc->to = p < q ? cv_arena_strndup(a, p, (size_t)(q - p)) : "";
    }
    /* Any other shape is filled in as written (date.h's cv_date_range). */
    size_t n = strlen(range);
    if (!(!strncmp(range, "START_DATE", 10) && n >= 18 && !strcmp(range + n - 8, "END_DATE") &&
          !strstr(range + 10, "START_DATE") && strstr(range + 10, "END_DATE") == range + n - 8))
        loc->range = range;
}

const char *cv_locale_layout_text(cv_arena *a, const cv_locale *loc, const char *s)
{
    if (!s)
        return NULL;
    if (loc->contact != english.contact && strcmp(s, english.contact) == 0)
        return loc->contact;
    const char *p = strstr(s, english.resume);
    if (p && loc->resume != english.resume)
        return cv_arena_printf(a, "%.*s%s%s", (int)(p - s), s, loc->resume,
                               p + strlen(english.resume));
    return s;
}

/* Words RenderCV leaves in lower case inside a title. */
static bool small_word(const char *word)
{
    static const char *const small[] = {
        "a", "and", "as", "at", "but", "by", "for", "from", "if", "in", "into", "like",
        "near", "nor", "of", "off", "on", "onto", "or", "over", "so", "than", "that", "to",
        "upon", "when", "with", "yet", NULL};
    for (const char *const *w = small; *w; w++)
        if (strcmp(word, *w) == 0)
            return true;
    return false;
}

const char *cv_section_title(cv_arena *a, const char *key, const char *lang)
{
    /* A key with a space or a capital is a title already. */
    size_t len = strlen(key);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        i += cv_utf8_decode(key + i, len - i, &cp);
        if (cp == ' ' || cv_unicode_upper(cp))
            return key;
    }

    /* snake_case: words split on '_', each capitalised but the small ones
     * (the first word always is), by the language's rules (unicode.h). */
    cv_strbuf b = {0};
    const char *w = key;
    bool first = true;
    for (;;) {
        const char *end = strchr(w, '_');
        size_t n = end ? (size_t)(end - w) : strlen(w);
        if (n) {
            if (b.n)
                cv_strbuf_put(a, &b, " ", 1);
            char word[32];
            bool is_small = false;
            if (n < sizeof word) {
                memcpy(word, w, n);
                word[n] = '\0';
                is_small = !first && small_word(word);
            }
            const char *t = is_small ? w : cv_title(a, w, n, lang);
            cv_strbuf_put(a, &b, t, is_small ? n : strlen(t));
            first = false;
        }
        if (!end)
            break;
        w = end + 1;
    }
    return b.s ? b.s : key;
}
