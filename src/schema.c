/* schema.c - JSON Schemas (draft 2020-12) for profiles and layouts.  See
 * schema.h.
 *
 * The schema is written as compact JSON into a string buffer, from the
 * loaders' key tables, then indented by pretty() for people and diffs.
 * Which keys exist comes only from those tables; what sort of value each
 * takes is the layout table's own type (style.h), the field table's
 * (fields.h), or, for the few header, settings and locale keys that have
 * no type in their loaders' tables, the small table below.  A key without
 * a type there gets `{"$comment": "untyped"}`, and a unit test checks that
 * none does.
 */
#include "schema.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "bib.h"
#include "color.h"
#include "datadir.h"
#include "doc.h"
#include "fields.h"
#include "lang.h"
#include "social.h"
#include "style.h"

typedef struct out {
    cv_arena *a;
    cv_strbuf b;
} out;

static void put(out *o, const char *s)
{
    cv_strbuf_put(o->a, &o->b, s, strlen(s));
}

static void putf(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put(o, cv_arena_vprintf(o->a, fmt, ap));
    va_end(ap);
}

/* `s` as a JSON string. */
static void put_str(out *o, const char *s)
{
    put(o, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putf(o, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            putf(o, "\\u%04x", *s);
        else
            cv_strbuf_put(o->a, &o->b, s, 1);
    }
    put(o, "\"");
}

/* ---- Layouts ------------------------------------------------------------ */

#define LENGTH_RE "^([0-9]+(\\\\.[0-9]*)?|\\\\.[0-9]+) *(pt|mm|cm|in)?$"
/* Every pattern has a patternErrorMessage (an extension of the YAML and
 * JSON language servers; validators ignore it): a mistake is said in
 * words, never as the regular expression. */
#define SAYS(msg) ", \"patternErrorMessage\": \"" msg "\""
#define SCALAR "[\"string\", \"number\"]"

/* A case-blind pattern for the words: a4 -> [aA]4. */
static void put_words_ci(out *o, const char *const *words)
{
    put(o, "\"^(");
    for (size_t i = 0; words[i]; i++) {
        if (i)
            put(o, "|");
        for (const char *p = words[i]; *p; p++) {
            char c = *p;
            if (c >= 'a' && c <= 'z')
                putf(o, "[%c%c]", c, c - 'a' + 'A');
            else if (c == '-' || (c >= '0' && c <= '9'))
                putf(o, "%c", c);
            else
                putf(o, "\\\\%c", c);
        }
    }
    put(o, ")$\"");
}

/* A length's schema; its description (what a length is) is the caller's. */
static void put_length(out *o, float lo, float hi)
{
    putf(o, "\"anyOf\": [{\"type\": \"number\", \"minimum\": %g, \"maximum\": %g}, "
         "{\"type\": \"string\", \"pattern\": \"" LENGTH_RE "\""
         SAYS("a length: a number with pt, mm, cm or in, such as 10pt or 18mm") "}], "
         "\"examples\": [\"%s\"]", lo, hi, lo > 10 ? "12pt" : "10pt");
}

/* The value of layout key `k`: "{", its description (the key's own
 * phrase, then how such a value is written), its type, "}". */
static void put_layout_value(out *o, const cv_layout_key *k, cv_arena *a)
{
    const char *hint = NULL;
    switch (k->type) {
    case CV_LT_LENGTH:
        hint = cv_arena_printf(a, "a length: 10pt, 18mm, 1.5cm, 0.75in or a number of points "
                               "(%g-%gpt)", k->lo, k->hi);
        break;
    case CV_LT_NUMBER:
        hint = cv_arena_printf(a, "a number from %g to %g", k->lo, k->hi);
        break;
    case CV_LT_COUNT:
        hint = cv_arena_printf(a, "a whole number from %g to %g", k->lo, k->hi);
        break;
    case CV_LT_FRACTION: hint = "a fraction: 0.85 or 85%"; break;
    case CV_LT_EM: hint = "a width in em from 0 to 1: 0.25em, 0.25, or 0 for none"; break;
    case CV_LT_BOOL: hint = "true or false"; break;
    case CV_LT_COLOR:
        hint = "a colour: a CSS name (navy), \"#rrggbb\", \"#rgb\" (with or without #, with "
               "alpha: 4 or 8 digits), rgb(r, g, b), rgba(), hsl(h, s%, l%) or hsla(); quote a "
               "# colour, as # starts a YAML comment";
        break;
    case CV_LT_STRING: hint = "a string; quote it if it has leading or trailing spaces"; break;
    case CV_LT_NAMES: hint = "section names (keys or titles, any case), or one name"; break;
    case CV_LT_FAMILY: hint = "a font family (fonts/, then fontconfig) or a font file"; break;
    case CV_LT_FAMILIES: hint = "font families (or font files), or one"; break;
    case CV_LT_LINES:
        hint = "template lines: placeholders in capitals (COMPANY, DATE), markup around them";
        break;
    case CV_LT_LAYOUT: hint = "a shipped layout's name or a path"; break;
    case CV_LT_MONTHS: hint = "twelve month names, January's first, or null"; break;
    default: break;
    }
    put(o, "{\"description\": ");
    const char *about = k->about ? k->about : "";
    put_str(o, hint ? cv_arena_printf(a, "%s; %s", about, hint) : about);
    put(o, ", ");
    switch (k->type) {
    case CV_LT_LENGTH:
        put_length(o, k->lo, k->hi);
        break;
    case CV_LT_NUMBER:
        putf(o, "\"type\": \"number\", \"minimum\": %g, \"maximum\": %g, \"examples\": [1.25]",
             k->lo, k->hi);
        break;
    case CV_LT_COUNT:
        putf(o, "\"type\": \"integer\", \"minimum\": %g, \"maximum\": %g, \"examples\": [2]",
             k->lo, k->hi);
        break;
    case CV_LT_FRACTION:
        put(o, "\"anyOf\": [{\"type\": \"number\", \"exclusiveMinimum\": 0, \"maximum\": 1}, "
            "{\"type\": \"string\", \"pattern\": \"^([0-9]+(\\\\.[0-9]*)?|\\\\.[0-9]+)%$\""
            SAYS("a fraction: 0.85, or a percentage such as 85%") "}], \"examples\": [0.85]");
        break;
    case CV_LT_EM:
        put(o, "\"anyOf\": [{\"type\": \"number\", \"minimum\": 0, \"maximum\": 1}, "
            "{\"type\": \"string\", \"pattern\": \"^([0-9]+(\\\\.[0-9]*)?|\\\\.[0-9]+)em$\""
            SAYS("a width in em, such as 0.25em") "}], \"examples\": [\"0.25em\"]");
        break;
    case CV_LT_BOOL:
        put(o, "\"type\": \"boolean\", \"examples\": [true]");
        break;
    case CV_LT_COLOR:
        /* RenderCV's colours (color.h): hex with or without #, the
         * functional forms, and the CSS names in any case. */
        put(o, "\"type\": \"string\", \"pattern\": \"^ *(?:(?:#|0[xX])?(?:[0-9a-fA-F]{3,4}|"
            "[0-9a-fA-F]{6}|[0-9a-fA-F]{8})|(?:[rR][gG][bB][aA]?|[hH][sS][lL][aA]?)"
            "\\\\([^)]*\\\\)");
        for (size_t i = 0; cv_color_name_at(i); i++) {
            put(o, "|");
            for (const char *p = cv_color_name_at(i); *p; p++)
                putf(o, "[%c%c]", *p, toupper((unsigned char)*p));
        }
        put(o, ") *$\"" SAYS("a colour: a CSS name such as navy, \\\"#rrggbb\\\", \\\"#rgb\\\", "
                             "rgb(r, g, b) or hsl(h, s%, l%), quoted")
            ", \"examples\": [\"#1f3a5f\"]");
        break;
    case CV_LT_STRING:
        put(o, "\"type\": [\"string\", \"number\", \"null\"], \"maxLength\": 1024, "
            "\"examples\": [\"x\"]");
        break;
    case CV_LT_CHOICE:
        put(o, "\"enum\": [");
        for (size_t i = 0; k->words[i]; i++) {
            put(o, i ? ", " : "");
            put_str(o, k->words[i]);
        }
        put(o, "]");
        break;
    case CV_LT_NAMES:
        put(o, "\"anyOf\": [{\"type\": [\"string\", \"number\", \"null\"]}, {\"type\": \"array\", "
            "\"maxItems\": 32, \"items\": {\"type\": " SCALAR "}}], \"examples\": [[\"skills\"]]");
        break;
    case CV_LT_PAGE_SIZE:
        put(o, "\"anyOf\": [{\"type\": \"string\", \"pattern\": ");
        put_words_ci(o, k->words);
        put(o, ", \"patternErrorMessage\": \"a page size: ");
        for (size_t i = 0; k->words[i]; i++)
            putf(o, "%s%s", i ? ", " : "", k->words[i]);
        put(o, " (any case), or [width, height]\"");
        put(o, "}, {\"type\": \"array\", \"minItems\": 2, \"maxItems\": 2, \"items\": {");
        put_length(o, 216, 14400);
        put(o, ", \"description\": \"a length: 10pt, 18mm, 1.5cm, 0.75in or a number of points "
            "(216-14400pt)\"}}], \"examples\": [\"a4\"]");
        break;
    case CV_LT_FAMILY:
        put(o, "\"type\": [\"string\", \"null\"], \"examples\": [\"Lato\"]");
        break;
    case CV_LT_FAMILIES:
        putf(o, "\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"array\", \"maxItems\": %d, "
             "\"items\": {\"type\": \"string\"}}], \"examples\": [[\"WenQuanYi Micro Hei\"]]",
             CV_MAX_CHAIN - 1);
        break;
    case CV_LT_LINES:
        putf(o, "\"anyOf\": [{\"type\": [\"string\", \"number\", \"null\"]}, {\"type\": "
             "\"array\", \"maxItems\": %d, \"items\": {\"type\": " SCALAR "}}], "
             "\"examples\": [[\"**NAME**\"]]", CV_MAX_TMPL);
        break;
    case CV_LT_LAYOUT: {
        put(o, "\"type\": \"string\", \"examples\": [");
        const char **names = cv_layout_names(a);
        for (size_t i = 0; names[i]; i++) {
            put(o, i ? ", " : "");
            put_str(o, names[i]);
        }
        put(o, "]");
        break;
    }
    case CV_LT_MONTHS:
        put(o, "\"anyOf\": [{\"type\": \"null\"}, {\"type\": \"array\", \"minItems\": 12, "
            "\"maxItems\": 12, \"items\": {\"type\": " SCALAR "}}], \"examples\": "
            "[[\"Jan\", \"Feb\", \"Mar\", \"Apr\", \"May\", \"June\", \"July\", \"Aug\", "
            "\"Sept\", \"Oct\", \"Nov\", \"Dec\"]]");
        break;
    case CV_LT_NULL:
        put(o, "\"type\": \"null\"");
        break;
    case CV_LT_UNKNOWN:
        put(o, "\"$comment\": \"untyped\"");
        break;
    }
    put(o, "}");
}

/* The mapping at `prefix` ("" the root, "page." ...): the rows below it,
 * each key once, in the order of its first row. */
static void put_layout_map(out *o, const cv_layout_key *k, size_t n, const char *prefix,
                           const char *head)
{
    size_t pl = strlen(prefix);
    putf(o, "{%s\"type\": \"object\", \"additionalProperties\": false, \"properties\": {",
         head);
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(k[i].path, prefix, pl))
            continue;
        const char *name = k[i].path + pl;
        size_t nl = strcspn(name, ".");
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strncmp(k[j].path, prefix, pl) && !strncmp(k[j].path + pl, name, nl) &&
                   (k[j].path[pl + nl] == '.' || !k[j].path[pl + nl]);
        if (seen)
            continue;
        char *key = cv_arena_strndup(o->a, name, nl);
        char *sub = cv_arena_printf(o->a, "%s%s.", prefix, key);
        const cv_layout_key *leaf = NULL;
        bool inner = false;
        for (size_t j = 0; j < n; j++) {
            if (!strncmp(k[j].path, prefix, pl) && !strcmp(k[j].path + pl, key))
                leaf = &k[j];
            inner |= !strncmp(k[j].path, sub, strlen(sub));
        }
        put(o, first ? "" : ", ");
        first = false;
        put_str(o, key);
        put(o, ": ");
        /* A value that may also be a mapping has its phrase once, over both. */
        if (leaf && inner) {
            put(o, "{\"description\": ");
            put_str(o, leaf->about ? leaf->about : "");
            put(o, ", \"anyOf\": [");
        }
        if (leaf)
            put_layout_value(o, leaf, o->a);
        if (leaf && inner)
            put(o, ", ");
        if (inner) {
            const char *about = cv_style_map_about(o->a, cv_arena_strndup(o->a, sub,
                                                                          strlen(sub) - 1));
            out lead = {o->a, {0}};
            if (about && !leaf) {
                put(&lead, "\"description\": ");
                put_str(&lead, about);
                put(&lead, ", ");
            }
            put_layout_map(o, k, n, sub, lead.b.s ? lead.b.s : "");
        }
        if (leaf && inner)
            put(o, "]}");
    }
    put(o, "}}");
}

static void layout_schema(out *o)
{
    const cv_layout_key *k;
    size_t n = cv_style_keys(o->a, &k);
    put_layout_map(o, k, n, "", "\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
                   "\"title\": \"cvpdf layout\", \"description\": \"How a résumé looks: page, "
                   "fonts, colours, spacing, templates (docs/layouts.md, man cvpdf-layout). "
                   "Every key is optional.\", ");
}

/* ---- Profiles ----------------------------------------------------------- */

/* The values of the header, settings and locale keys, which their
 * loaders read one by one, by part and key; "*" is any key of the part. */
static const struct {
    const char *part, *key, *schema;
} typed[] = {
    {"", "cv", "{\"$ref\": \"#/$defs/cv\", \"description\": \"the résumé's content: the "
               "header's name and contact details, then its sections\"}"},
    {"", "locale", "{\"$ref\": \"#/$defs/locale\", \"description\": \"the language the "
                   "résumé is written in, and the words and date format cvpdf writes "
                   "itself\"}"},
    {"", "settings", "{\"$ref\": \"#/$defs/settings\", \"description\": \"words in bold, "
                     "the last updated date, the PDF's title and page breaks by section\"}"},
    {"", "design", "{\"type\": [\"object\", \"null\"], \"description\": \"RenderCV's "
                   "design: a theme (classic, engineeringresumes, engineeringclassic, sb2nov, "
                   "moderncv, harvard, ink, opal, ember) and options over it, as layout keys "
                   "(docs/rendercv.md); -l wins\"}"},
    {"", "rendercv_settings", "{\"type\": [\"object\", \"null\"], \"description\": "
                              "\"ignored, apart from its bold_keywords\"}"},
    {"cv", "name", "{\"$ref\": \"#/$defs/text\", \"description\": \"your name, the "
                   "résumé's title; the PDF's author\"}"},
    {"cv", "native_name", "{\"$ref\": \"#/$defs/text\", \"description\": \"the name in "
                          "another script, beside or under the name\"}"},
    {"cv", "headline", "{\"$ref\": \"#/$defs/text\", \"description\": \"a line under the "
                       "name, such as Software Engineer\"}"},
    {"cv", "location", "{\"$ref\": \"#/$defs/text\", \"description\": \"where you live "
                       "or work, shown among the contact details\"}"},
    {"cv", "email", "{\"$ref\": \"#/$defs/texts\", \"description\": \"an address, or a list "
                    "(every one is shown)\"}"},
    {"cv", "phone", "{\"anyOf\": [{\"$ref\": \"#/$defs/text\"}, {\"type\": \"array\", "
                    "\"items\": {\"$ref\": \"#/$defs/text\"}}], \"description\": \"with its "
                    "country code, or a list\", \"examples\": [\"+1 609 555 0100\"]}"},
    {"cv", "website", "{\"anyOf\": [{\"$ref\": \"#/$defs/url\"}, {\"type\": \"array\", "
                      "\"items\": {\"$ref\": \"#/$defs/url\"}}], \"description\": \"your "
                      "web site, a full address (https://...), or a list\"}"},
    {"cv", "photo", "{\"type\": \"string\", \"description\": \"a JPEG or PNG, relative to "
                    "the profile\"}"},
    {"cv", "photo_alt", "{\"$ref\": \"#/$defs/text\", \"description\": \"the photo's "
                        "alternate text in the tagged PDF (default: the name)\"}"},
    {"cv", "social_networks", "{\"type\": [\"array\", \"null\"], \"maxItems\": 60, "
                              "\"items\": {\"$ref\": \"#/$defs/social_network\"}, "
                              "\"description\": \"your profiles: a network and a username "
                              "each, shown with its icon\"}"},
    {"cv", "sections", "{\"type\": [\"object\", \"null\"], \"additionalProperties\": "
                       "{\"$ref\": \"#/$defs/section\"}, \"description\": \"the "
                       "résumé's sections, in order; each key is a title (experience -> "
                       "Experience), each value a list of entries of one type or a .bib "
                       "file\"}"},
    {"cv", "custom_connections", "{\"type\": [\"array\", \"null\"], \"maxItems\": 30, "
                                 "\"items\": {\"type\": \"object\", \"additionalProperties\": "
                                 "false, \"required\": [\"placeholder\", \"fontawesome_icon\"], "
                                 "\"properties\": {\"placeholder\": {\"$ref\": "
                                 "\"#/$defs/text\", \"description\": \"the text the "
                                 "contact line shows\"}, \"url\": {\"$ref\": "
                                 "\"#/$defs/url\", \"description\": \"where the "
                                 "connection links to (optional)\"}, "
                                 "\"fontawesome_icon\": {\"type\": \"string\", "
                                 "\"description\": \"the Font Awesome icon's name shown "
                                 "before it with header.icons, such as calendar-days\"}}}, "
                                 "\"description\": \"more contact lines: a text, a link "
                                 "and a Font Awesome icon each\"}"},
    {"settings", "bold_keywords", "{\"$ref\": \"#/$defs/strings\", \"description\": "
                                  "\"words set in bold wherever they appear\"}"},
    /* What doc.c takes: a day, YYYY-MM-DD, or today in any case. */
    {"settings", "current_date", "{\"type\": \"string\", \"pattern\": \"^([1-9][0-9]{3}-"
                                 "(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])|[tT][oO][dD][aA][yY])$\""
                                 SAYS("a day, YYYY-MM-DD such as 2026-03-15, or today") ", "
                                 "\"description\": \"the last updated date of a running "
                                 "header or footer, and the end of a span to present: "
                                 "YYYY-MM-DD or today (--date wins)\", \"examples\": "
                                 "[\"2026-03-15\"]}"},
    {"settings", "render_command", "{\"type\": [\"object\", \"null\"], \"description\": "
                                   "\"RenderCV's; its design and locale files replace the "
                                   "profile's, its paths are RenderCV's\"}"},
    {"settings", "pdf_title", "{\"$ref\": \"#/$defs/text\", \"description\": \"the PDF's "
                              "title: NAME, CURRENT_DATE, YEAR, MONTH_NAME, ...\"}"},
    {"settings", "page_break_before", "{\"$ref\": \"#/$defs/texts\", \"description\": "
                                      "\"sections (by key or title) that start a new "
                                      "page\"}"},
    {"settings", "keep_together", "{\"$ref\": \"#/$defs/texts\", \"description\": "
                                  "\"sections (by key or title) kept on one page\"}"},
    {"locale", "language", "{\"$ref\": \"#/$defs/text\", \"description\": \"the "
                           "résumé's language: an ISO 639 code (de, zh-Hans) or a RenderCV "
                           "name (german); sets the PDF's language, the words, hyphenation "
                           "and right-to-left setting (default en)\", \"examples\": "
                           "[\"de\"]}"},
    {"locale", "present", "{\"$ref\": \"#/$defs/text\", \"description\": \"the word "
                          "shown for an ongoing end date (default present)\"}"},
    {"locale", "to", "{\"$ref\": \"#/$defs/text\", \"description\": \"what goes between "
                     "a start and an end date, a space each side (default an en dash; '' for "
                     "none)\"}"},
    {"locale", "date_template", "{\"$ref\": \"#/$defs/text\", \"description\": \"how a "
                                "month or day date is shown: MONTH_ABBREVIATION, MONTH_NAME, "
                                "MONTH, MONTH_IN_TWO_DIGITS, YEAR, YEAR_IN_TWO_DIGITS, DAY, "
                                "DAY_IN_TWO_DIGITS (default MONTH_ABBREVIATION YEAR)\"}"},
    {"locale", "phone_number_format", "{\"enum\": [\"national\", \"international\", "
     "\"E164\", null], \"description\": \"accepted as RenderCV 1's; the format is the "
     "design's header.connections.phone_number_format, as in RenderCV 2\"}"},
    {"locale", "month_abbreviations", "{\"$ref\": \"#/$defs/months\", \"description\": "
                                      "\"the 12 months' short names (default Jan ... "
                                      "Dec)\"}"},
    {"locale", "abbreviations_for_months", "{\"$ref\": \"#/$defs/months\", "
                                           "\"description\": \"RenderCV 1's name for "
                                           "month_abbreviations: the 12 months' short "
                                           "names\"}"},
    {"locale", "month_names", "{\"$ref\": \"#/$defs/months\", \"description\": \"the 12 "
                              "months' full names (default January ... December)\"}"},
    {"locale", "full_names_of_months", "{\"$ref\": \"#/$defs/months\", \"description\": "
                                       "\"RenderCV 1's name for month_names: the 12 months' "
                                       "full names\"}"},
    {"locale", "month", "{\"$ref\": \"#/$defs/text\", \"description\": \"the time span's "
                        "word for one month (default month)\"}"},
    {"locale", "months", "{\"$ref\": \"#/$defs/text\", \"description\": \"the time "
                         "span's word for several months (default months)\"}"},
    {"locale", "year", "{\"$ref\": \"#/$defs/text\", \"description\": \"the time span's "
                       "word for one year (default year)\"}"},
    {"locale", "years", "{\"$ref\": \"#/$defs/text\", \"description\": \"the time span's "
                        "word for several years (default years)\"}"},
    {"locale", "last_updated", "{\"$ref\": \"#/$defs/text\", \"description\": \"the "
                               "phrase of a layout's LAST_UPDATED, before the date (default "
                               "Last updated in)\"}"},
    {"locale", "phrases", "{\"type\": [\"object\", \"null\"], \"additionalProperties\": "
                          "false, \"description\": \"RenderCV 2's phrases; cvpdf uses "
                          "degree_with_area\", \"properties\": {\"degree_with_area\": "
                          "{\"$ref\": \"#/$defs/text\", \"description\": \"RenderCV 2's "
                          "place for locale.degree_with_area: what replaces DEGREE in "
                          "AREA\"}}}"},
    {"locale", "page_numbering_template", "{\"$ref\": \"#/$defs/text\", \"description\": "
                                          "\"RenderCV's page numbering: accepted and "
                                          "ignored (a layout's page_footer sets it)\"}"},
    {"locale", "last_updated_date_template", "{\"$ref\": \"#/$defs/text\", "
                                             "\"description\": \"RenderCV's last updated "
                                             "line: accepted and ignored (a layout's "
                                             "page_header sets it)\"}"},
    {"locale", "degree_with_area", "{\"$ref\": \"#/$defs/text\", \"description\": \"what "
                                   "replaces DEGREE in AREA where a layout's template writes "
                                   "it (AREA DEGREE in Chinese and Japanese)\"}"},
    {"locale", "contact", "{\"$ref\": \"#/$defs/text\", \"description\": \"the "
                          "sidebar's Contact title, when the layout leaves it English\"}"},
    {"locale", "resume", "{\"$ref\": \"#/$defs/text\", \"description\": \"the word "
                         "Résumé in the layout's PDF title\"}"},
    /* The options of a .bib section (bib.h); the words of those that take
     * one of a set are cv_bib_option_words()'. */
    {"bib", "bib", "{\"type\": \"string\", \"description\": \"the .bib file, relative "
                   "to the profile\"}"},
    {"bib", "keys", "{\"$ref\": \"#/$defs/texts\", \"description\": \"only the entries "
                    "of these BibTeX keys\"}"},
    {"bib", "types", "{\"$ref\": \"#/$defs/texts\", \"description\": \"only entries of "
                     "these BibTeX types (article, inproceedings)\"}"},
    {"bib", "years", "{\"anyOf\": [{\"type\": \"integer\"}, {\"type\": \"string\"}, "
                     "{\"type\": \"object\", \"additionalProperties\": false, "
                     "\"properties\": {\"from\": {\"type\": [\"integer\", "
                     "\"string\"], \"description\": \"the first year kept\"}, "
                     "\"to\": {\"type\": [\"integer\", \"string\"], \"description\": "
                     "\"the last year kept\"}}}], \"description\": \"only entries of "
                     "these years: 2018, 2018-2024, or {from: 2018, to: 2024}\"}"},
    {"bib", "keywords", "{\"$ref\": \"#/$defs/texts\", \"description\": \"only entries "
                        "whose keywords field has one of these\"}"},
    {"bib", "selected", "{\"$ref\": \"#/$defs/texts\", \"description\": \"keys of the "
                        "selected entries, listed first, marked or alone (selected_as)\"}"},
    {"bib", "selected_as", "{\"description\": \"what selected does: first (listed first), "
                           "mark (the mark before the title) or only (the rest left out)\"}"},
    {"bib", "mark", "{\"$ref\": \"#/$defs/text\", \"description\": \"with selected_as: "
                    "mark, what goes before a selected entry's title (default a star)\"}"},
    {"bib", "sort", "{\"description\": \"the order: newest first, oldest first, or none "
                    "(the file's)\"}"},
    {"bib", "group_by", "{\"description\": \"one section per year or per type of "
                        "publication, or none\"}"},
    {"bib", "limit", "{\"type\": \"integer\", \"minimum\": 1, \"maximum\": 100000, "
                     "\"description\": \"at most this many entries, after sorting\"}"},
    {"bib", "names", "{\"description\": \"how authors' names are written: first-last, "
                     "last-first, initials or last-initials\"}"},
    {"bib", "notes", "{\"type\": [\"object\", \"null\"], \"additionalProperties\": "
                     "{\"$ref\": \"#/$defs/text\"}, \"description\": \"a note per "
                     "BibTeX key, shown as the entry's summary\"}"},
};

static const char *typed_schema(const char *part, const char *key)
{
    for (size_t i = 0; i < sizeof typed / sizeof *typed; i++)
        if (!strcmp(typed[i].part, part) && !strcmp(typed[i].key, key))
            return typed[i].schema;
    for (size_t i = 0; i < sizeof typed / sizeof *typed; i++)
        if (!strcmp(typed[i].part, part) && !strcmp(typed[i].key, "*"))
            return typed[i].schema;
    return "{\"$comment\": \"untyped\"}";
}

/* A closed mapping of `keys`, each typed as above; `required` (or NULL)
 * is a JSON list. */
static void put_keys(out *o, const char *part, const char *const *keys, const char *required,
                     const char *head)
{
    putf(o, "{%s\"type\": \"object\", \"additionalProperties\": false, ", head);
    if (required)
        putf(o, "\"required\": %s, ", required);
    put(o, "\"properties\": {");
    for (size_t i = 0; keys[i]; i++) {
        put(o, i ? ", " : "");
        put_str(o, keys[i]);
        putf(o, ": %s", typed_schema(part, keys[i]));
    }
    put(o, "}}");
}

static const char *field_schema(const char *key, cv_field_type t)
{
    /* start_date and end_date take a date only (date.h), `date` free text too. */
    if (t == CV_FIELD_DATE && (!strcmp(key, "start_date") || !strcmp(key, "end_date")))
        return !strcmp(key, "start_date") ? "{\"$ref\": \"#/$defs/start_date\"}"
                                          : "{\"$ref\": \"#/$defs/end_date\"}";
    switch (t) {
    case CV_FIELD_TEXT: return "{\"$ref\": \"#/$defs/text\"}";
    case CV_FIELD_DOI:
        return "{\"type\": \"string\", \"description\": \"10.1234/abcd, or https://doi.org/... "
               "or doi:...; the DOI is the link, and a url beside it is not shown\"}";
    case CV_FIELD_URL: return "{\"$ref\": \"#/$defs/url\"}";
    case CV_FIELD_DATE: return "{\"$ref\": \"#/$defs/date\"}";
    case CV_FIELD_AUTHORS: return "{\"$ref\": \"#/$defs/strings\"}";
    case CV_FIELD_HIGHLIGHTS: return "{\"$ref\": \"#/$defs/highlights\"}";
    case CV_FIELD_TAGS: return "{\"description\": \"RenderCV's tags: ignored\"}";
    case CV_FIELD_SPAN: break;          /* no key: never in a profile */
    }
    return "{\"$comment\": \"untyped\"}";
}

/* "one-line entry" -> "one-line_entry" */
static const char *kind_def(cv_arena *a, cv_entry_kind k)
{
    char *s = cv_arena_strdup(a, cv_entry_kind_name(k));
    for (char *p = s; *p; p++)
        if (*p == ' ')
            *p = '_';
    return s;
}

static void put_entry(out *o, cv_entry_kind k)
{
    putf(o, "\"%s\": ", kind_def(o->a, k));
    if (k == CV_ENTRY_TEXT) {
        put(o, "{\"title\": \"text entry\", \"$ref\": \"#/$defs/text\"}");
        return;
    }
    /* Other keys are kept for templates (REVENUE for revenue:), as RenderCV. */
    putf(o, "{\"title\": \"%s\", \"type\": \"object\", \"additionalProperties\": true, "
         "\"required\": [", cv_entry_kind_name(k));
    const char *keys[CV_MAX_FIELDS + 1];
    size_t n = cv_field_keys(k, CV_FIELD_REQUIRED, keys);
    for (size_t i = 0; i < n; i++) {
        put(o, i ? ", " : "");
        put_str(o, keys[i]);
    }
    put(o, "], \"properties\": {");
    bool first = true;
    for (const cv_field *f = cv_field_next(k, NULL); f; f = cv_field_next(k, f)) {
        put(o, first ? "" : ", ");
        first = false;
        put_str(o, f->key);
        /* The field table's own words for it (fields.h), unless its type
         * says more already. */
        const char *fs = field_schema(f->key, f->type);
        if (f->about && !strstr(fs, "\"description\"")) {
            put(o, ": {\"description\": ");
            put_str(o, f->about);
            putf(o, ", %s", fs + 1);
        } else {
            putf(o, ": %s", fs);
        }
    }
    put(o, "}}");
}

static void profile_schema(out *o)
{
    put_keys(o, "", cv_doc_keys(""), NULL,       /* as RenderCV: no cv, an empty CV */
             "\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
             "\"title\": \"cvpdf profile\", \"description\": \"A résumé's content in "
             "RenderCV's format (docs/profiles.md, man cvpdf-profile).\", ");
    o->b.s[--o->b.n] = 0;       /* the closing brace: $defs follow */
    put(o, ", \"$defs\": {");
    put(o, "\"text\": {\"type\": \"string\", \"description\": \"text, with **bold**, "
        "*italic* and [links](https://...)\"}, ");
    put(o, "\"texts\": {\"anyOf\": [{\"$ref\": \"#/$defs/text\"}, {\"type\": \"array\", "
        "\"items\": {\"$ref\": \"#/$defs/text\"}}]}, ");
    put(o, "\"strings\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/text\"}}, ");
    put(o, "\"url\": {\"type\": \"string\", \"pattern\": \"^[hH][tT][tT][pP][sS]?://\""
        SAYS("a full address, starting with https:// or http://") ", \"examples\": "
        "[\"https://example.com\"]}, ");
    put(o, "\"date\": {\"type\": [\"string\", \"integer\"], \"description\": \"YYYY, YYYY-MM "
        "or YYYY-MM-DD; end_date may be present; date may be free text\", \"examples\": "
        "[\"2024-05\", \"present\"]}, ");
    /* What cv_date_read() takes without free text: a year 1000-9999 (a YAML
     * integer or a string), YYYY-MM or YYYY-MM-DD with two-digit months and
     * days; end_date also present, in lower case. */
#define YEAR_RE "[1-9][0-9]{3}"
#define EXACT_DATE_RE "^" YEAR_RE "(-(0[1-9]|1[0-2])(-(0[1-9]|[12][0-9]|3[01]))?)?$"
#define EXACT_DATES "{\"type\": \"integer\", \"minimum\": 1000, \"maximum\": 9999}, " \
                    "{\"type\": \"string\", \"pattern\": \"" EXACT_DATE_RE "\"" \
                    SAYS("a date: YYYY, YYYY-MM or YYYY-MM-DD, with two-digit months and " \
                         "days, such as 2021-03") "}"
    put(o, "\"start_date\": {\"anyOf\": [" EXACT_DATES "], \"description\": \"when it "
        "began: YYYY, YYYY-MM or YYYY-MM-DD (two-digit months and days), as 2021-03; not "
        "free text such as March 2021\", \"examples\": [\"2021-03\"]}, ");
    put(o, "\"end_date\": {\"anyOf\": [" EXACT_DATES ", {\"const\": \"present\"}], "
        "\"description\": \"when it ended: YYYY, YYYY-MM or YYYY-MM-DD (two-digit months "
        "and days), or present (lower case); not free text\", \"examples\": "
        "[\"present\"]}, ");
    put(o, "\"months\": {\"type\": \"array\", \"minItems\": 12, \"maxItems\": 12, \"items\": "
        "{\"$ref\": \"#/$defs/text\"}}, ");
    put(o, "\"highlights\": {\"type\": [\"array\", \"null\"], \"items\": {\"anyOf\": "
        "[{\"$ref\": \"#/$defs/text\"}, {\"$ref\": \"#/$defs/highlights\"}]}}, ");
    put(o, "\"cv\": ");
    put_keys(o, "cv", cv_doc_keys("cv"), NULL, "");
    put(o, ", \"settings\": {\"anyOf\": [{\"type\": \"null\"}, ");
    put_keys(o, "settings", cv_doc_keys("settings"), NULL, "");
    put(o, "]}, \"locale\": {\"anyOf\": [{\"type\": \"null\"}, ");
    put_keys(o, "locale", cv_locale_keys(), NULL, "");
    put(o, "]}, \"social_network\": {\"type\": \"object\", \"additionalProperties\": false, "
        "\"required\": [\"network\", \"username\"], \"properties\": {");
    const char *const *sk = cv_social_keys();
    for (size_t i = 0; sk[i]; i++) {
        put(o, i ? ", " : "");
        put_str(o, sk[i]);
        if (!strcmp(sk[i], "network")) {
            put(o, ": {\"anyOf\": [{\"enum\": [");
            for (size_t j = 0; cv_social_network_at(j); j++) {
                put_str(o, cv_social_network_at(j));
                put(o, ", ");
            }
            put(o, "\"Twitter\"]}, {\"type\": \"string\", \"description\": \"any other "
                "network, with a url\"}], \"description\": \"the network: one cvpdf knows "
                "(its icon and profile address), or any other with a url\"}");
        } else if (!strcmp(sk[i], "username")) {
            put(o, ": {\"$ref\": \"#/$defs/text\", \"description\": \"the username alone, "
                "not the profile's URL\"}");
        } else if (!strcmp(sk[i], "url")) {
            put(o, ": {\"$ref\": \"#/$defs/url\", \"description\": \"the profile's "
                "address: needed for a network cvpdf does not know; for a known one, it "
                "replaces the address made from the username\"}");
        } else if (!strcmp(sk[i], "fontawesome_icon")) {
            put(o, ": {\"type\": \"string\", \"description\": \"RenderCV's icon for the "
                "network: accepted and ignored\"}");
        } else {
            put(o, ": {\"$comment\": \"untyped\"}");
        }
    }
    /* A section: entries of one type, or publications from a .bib file
     * (its path, or a mapping of bib.h's options). */
    put(o, "}}, \"section\": {\"anyOf\": [{\"type\": \"array\", "
        "\"description\": \"entries of one type (an empty section shows its title)\", "
        "\"anyOf\": [{\"maxItems\": 0}, ");
    for (int k = 0; k < CV_ENTRY_NKINDS; k++)
        putf(o, "%s{\"items\": {\"$ref\": \"#/$defs/%s\"}}", k ? ", " : "",
             kind_def(o->a, (cv_entry_kind)k));
    put(o, "]}, {\"type\": \"string\", \"pattern\": \"\\\\.[bB][iI][bB]$\""
        SAYS("a .bib file's name, or a list of entries") ", "
        "\"description\": \"publications from this .bib file, beside the profile\"}, "
        "{\"type\": \"object\", \"required\": [\"bib\"], \"additionalProperties\": false, "
        "\"description\": \"publications from a .bib file, chosen and ordered "
        "(docs/profiles.md)\", \"properties\": {");
    const char *const *bk = cv_bib_option_keys();
    for (size_t i = 0; bk[i]; i++) {
        putf(o, "%s\"%s\": ", i ? ", " : "", bk[i]);
        const char *s = typed_schema("bib", bk[i]);
        const char *const *w = cv_bib_option_words(bk[i]);
        if (w) {                        /* {"description": ..., "enum": [...]} */
            cv_strbuf_put(o->a, &o->b, s, strlen(s) - 1);
            put(o, ", \"enum\": [");
            for (size_t j = 0; w[j]; j++) {
                put(o, j ? ", " : "");
                put_str(o, w[j]);
            }
            put(o, "]}");
        } else {
            put(o, s);
        }
    }
    put(o, "}}]}");
    for (int k = 0; k < CV_ENTRY_NKINDS; k++) {
        put(o, ", ");
        put_entry(o, (cv_entry_kind)k);
    }
    put(o, "}}");
}

/* ---- Output --------------------------------------------------------------- */

/* Compact JSON (", " and ": " between items) indented two spaces a
 * level; a list of scalars stays on one line. */
static const char *pretty(cv_arena *a, const char *s)
{
    out o = {a, {0}};
    bool open_line[64];         /* per level: items on lines of their own */
    int depth = 0;
    bool in_str = false;
    for (const char *p = s; *p; p++) {
        char c = *p;
        if (in_str) {
            cv_strbuf_put(a, &o.b, p, 1);
            if (c == '\\' && p[1])
                cv_strbuf_put(a, &o.b, ++p, 1);
            else if (c == '"')
                in_str = false;
            continue;
        }
        bool lines = depth > 0 && depth <= 64 && open_line[depth - 1];
        if (c == '"') {
            in_str = true;
            cv_strbuf_put(a, &o.b, p, 1);
        } else if ((c == '{' || c == '[') && depth < 64) {
            bool own = c == '{' ? p[1] != '}' : p[1] == '{' || p[1] == '[';
            open_line[depth++] = own;
            if (own)
                putf(&o, "%c\n%*s", c, depth * 2, "");
            else
                cv_strbuf_put(a, &o.b, p, 1);
        } else if (c == '}' || c == ']') {
            depth--;
            if (lines)
                putf(&o, "\n%*s%c", depth * 2, "", c);
            else
                cv_strbuf_put(a, &o.b, p, 1);
        } else if (c == ',' && lines) {
            putf(&o, ",\n%*s", depth * 2, "");
            p += p[1] == ' ';
        } else {
            cv_strbuf_put(a, &o.b, p, 1);
        }
    }
    put(&o, "\n");
    return o.b.s;
}

const char *cv_schema_json(cv_arena *a, const char *which)
{
    out o = {a, {0}};
    if (!strcmp(which, "profile"))
        profile_schema(&o);
    else if (!strcmp(which, "layout"))
        layout_schema(&o);
    else
        return NULL;
    return pretty(a, o.b.s);
}

bool cv_schema_write(cv_arena *a, const char *which, FILE *fp)
{
    const char *json = cv_schema_json(a, which);
    if (!json)
        return false;
    fputs(json, fp);
    return true;
}
