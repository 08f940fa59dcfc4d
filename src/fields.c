/* fields.c - the one table of entry fields.  See fields.h. */
#include "fields.h"

#include <string.h>

#define K(k) CV_KIND(CV_ENTRY_##k)
/* Education, experience and normal entries: dated, located, with highlights. */
#define DATED (K(EDUCATION) | K(EXPERIENCE) | K(NORMAL))
#define ALL_BUT_TEXT (~K(TEXT) & (CV_KIND(CV_ENTRY_NKINDS) - 1))
#define REQ (CV_FIELD_REQUIRED | CV_FIELD_TELLS)     /* required, and tells the kind */
#define TELLS CV_FIELD_TELLS
#define AT(member) offsetof(cv_entry, member)

static const cv_field table[] = {
    /* placeholder  key                type                 kinds                flags, offset,
     * what it holds */
    {"TEXT",        NULL,              CV_FIELD_TEXT,       K(TEXT),             0, AT(text),
     "a paragraph of text, with **bold**, *italic* and [links](https://...)"},
    {"TEXT",        "bullet",          CV_FIELD_TEXT,       K(BULLET),           REQ, AT(text),
     "one line of a bulleted list"},
    {"TEXT",        "number",          CV_FIELD_TEXT,       K(NUMBERED),         REQ, AT(text),
     "one item of a numbered list (1., 2., ...)"},
    {"TEXT",        "reversed_number", CV_FIELD_TEXT,       K(REVERSED),         REQ, AT(text),
     "one item of a list numbered from the last down"},
    {"LABEL",       "label",           CV_FIELD_TEXT,       K(ONELINE),          REQ, AT(label),
     "the label of a one-line entry, such as Languages"},
    {"DETAILS",     "details",         CV_FIELD_TEXT,       K(ONELINE),          REQ, AT(details),
     "what follows the label on its line, such as English, German"},
    {"INSTITUTION", "institution",     CV_FIELD_TEXT,       K(EDUCATION),        REQ,
     AT(institution),
     "the school or university"},
    {"AREA",        "area",            CV_FIELD_TEXT,       K(EDUCATION),        REQ, AT(area),
     "the field of study, such as Computer Science"},
    {"DEGREE",      "degree",          CV_FIELD_TEXT,       K(EDUCATION),        TELLS, AT(degree),
     "the degree, such as BS or PhD"},
    {"COMPANY",     "company",         CV_FIELD_TEXT,       K(EXPERIENCE),       REQ, AT(company),
     "the employer or organisation"},
    {"POSITION",    "position",        CV_FIELD_TEXT,       K(EXPERIENCE),       REQ, AT(position),
     "the job title"},
    {"TITLE",       "title",           CV_FIELD_TEXT,       K(PUBLICATION),      REQ, AT(title),
     "the publication's title"},
    {"AUTHORS",     "authors",         CV_FIELD_AUTHORS,    K(PUBLICATION),      REQ, 0,
     "the authors, each as written; yours is set in bold when it matches the name"},
    {"JOURNAL",     "journal",         CV_FIELD_TEXT,       K(PUBLICATION),      TELLS,
     AT(journal),
     "where it appeared: a journal, conference or publisher"},
    {"DOI",         "doi",             CV_FIELD_DOI,        K(PUBLICATION),      TELLS, AT(doi),
     "its DOI (10.1234/abcd); the DOI is the link"},
    {"URL",         "url",             CV_FIELD_URL,        K(PUBLICATION),      0, AT(url),
     "a link to it, shown when there is no DOI"},
    {"NAME",        "name",            CV_FIELD_TEXT,       K(NORMAL),           REQ, AT(name),
     "the entry's heading: a project, an award, a talk"},
    {"LOCATION",    "location",        CV_FIELD_TEXT,       DATED,               0, AT(location),
     "where, such as Berlin or Remote"},
    {"DATE",        "date",            CV_FIELD_DATE,       DATED | K(PUBLICATION),
     CV_FIELD_RANGE, AT(date),
     "a single date (YYYY, YYYY-MM, YYYY-MM-DD) or free text such as Fall 2023; it "
     "replaces start_date and end_date"},
    {"START_DATE",  "start_date",      CV_FIELD_DATE,       DATED,               0, AT(start_date),
     "when it began: YYYY, YYYY-MM or YYYY-MM-DD"},
    {"END_DATE",    "end_date",        CV_FIELD_DATE,       DATED,               0, AT(end_date),
     "when it ended: YYYY, YYYY-MM, YYYY-MM-DD or present"},
    {"TIME_SPAN",   NULL,              CV_FIELD_SPAN,       DATED,               0, 0, NULL},
    {"SUMMARY",     "summary",         CV_FIELD_TEXT,       DATED | K(PUBLICATION), 0, AT(summary),
     "a paragraph under the entry's heading"},
    {NULL,          "highlights",      CV_FIELD_HIGHLIGHTS, DATED,               0, 0,
     "a list of achievements, each a bullet (a nested list indents)"},
    {NULL,          "tags",            CV_FIELD_TAGS,       ALL_BUT_TEXT,        0, 0,
     "RenderCV's tags: read and ignored"},
};

#define NFIELDS (sizeof table / sizeof *table)
_Static_assert(NFIELDS <= CV_MAX_FIELDS, "CV_MAX_FIELDS is too small");
_Static_assert(CV_ENTRY_NKINDS <= 32, "cv_field.kinds has a bit per kind");

const cv_field *cv_fields(size_t *n)
{
    *n = NFIELDS;
    return table;
}

const cv_field *cv_field_by_key(const char *key)
{
    for (size_t i = 0; i < NFIELDS; i++)
        if (table[i].key && !strcmp(table[i].key, key))
            return &table[i];
    return NULL;
}

const cv_field *cv_field_by_placeholder(const char *ph, size_t len)
{
    for (size_t i = 0; i < NFIELDS; i++)
        if (table[i].placeholder && strlen(table[i].placeholder) == len &&
            !memcmp(table[i].placeholder, ph, len))
            return &table[i];
    return NULL;
}

const cv_field *cv_field_next(cv_entry_kind k, const cv_field *f)
{
    for (f = f ? f + 1 : table; f < table + NFIELDS; f++)
        if (f->key && cv_field_in(f, k))
            return f;
    return NULL;
}

const cv_text *cv_field_text(const cv_entry *e, const cv_field *f)
{
    bool text = f->type == CV_FIELD_TEXT || f->type == CV_FIELD_DOI || f->type == CV_FIELD_URL;
    return text ? (const cv_text *)((const char *)e + f->offset) : NULL;
}

const cv_date *cv_field_date(const cv_entry *e, const cv_field *f)
{
    return f->type == CV_FIELD_DATE ? (const cv_date *)((const char *)e + f->offset) : NULL;
}

void *cv_field_slot(cv_entry *e, const cv_field *f)
{
    bool has = f->type == CV_FIELD_TEXT || f->type == CV_FIELD_DOI ||
               f->type == CV_FIELD_URL || f->type == CV_FIELD_DATE;
    return has ? (char *)e + f->offset : NULL;
}

size_t cv_field_keys(cv_entry_kind k, unsigned flags, const char **keys)
{
    size_t n = 0;
    for (size_t i = 0; i < NFIELDS; i++)
        if (table[i].key && (k == CV_ENTRY_NKINDS || cv_field_in(&table[i], k)) &&
            (table[i].flags & flags) == flags)
            keys[n++] = table[i].key;
    keys[n] = NULL;
    return n;
}

const char *cv_entry_kind_name(cv_entry_kind k)
{
    static const char *const names[CV_ENTRY_NKINDS] = {
        [CV_ENTRY_TEXT] = "text entry",
        [CV_ENTRY_BULLET] = "bullet entry",
        [CV_ENTRY_NUMBERED] = "numbered entry",
        [CV_ENTRY_REVERSED] = "reversed numbered entry",
        [CV_ENTRY_ONELINE] = "one-line entry",
        [CV_ENTRY_EDUCATION] = "education entry",
        [CV_ENTRY_EXPERIENCE] = "experience entry",
        [CV_ENTRY_PUBLICATION] = "publication entry",
        [CV_ENTRY_NORMAL] = "normal entry",
    };
    return (unsigned)k < CV_ENTRY_NKINDS ? names[k] : "entry";
}
