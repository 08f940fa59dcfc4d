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
    /* placeholder  key                type                 kinds                flags */
    {"TEXT",        NULL,              CV_FIELD_TEXT,       K(TEXT),             0, AT(text)},
    {"TEXT",        "bullet",          CV_FIELD_TEXT,       K(BULLET),           REQ, AT(text)},
    {"TEXT",        "number",          CV_FIELD_TEXT,       K(NUMBERED),         REQ, AT(text)},
    {"TEXT",        "reversed_number", CV_FIELD_TEXT,       K(REVERSED),         REQ, AT(text)},
    {"LABEL",       "label",           CV_FIELD_TEXT,       K(ONELINE),          REQ, AT(label)},
    {"DETAILS",     "details",         CV_FIELD_TEXT,       K(ONELINE),          REQ, AT(details)},
    {"INSTITUTION", "institution",     CV_FIELD_TEXT,       K(EDUCATION),        REQ,
     AT(institution)},
    {"AREA",        "area",            CV_FIELD_TEXT,       K(EDUCATION),        REQ, AT(area)},
    {"DEGREE",      "degree",          CV_FIELD_TEXT,       K(EDUCATION),        TELLS, AT(degree)},
    {"COMPANY",     "company",         CV_FIELD_TEXT,       K(EXPERIENCE),       REQ, AT(company)},
    {"POSITION",    "position",        CV_FIELD_TEXT,       K(EXPERIENCE),       REQ, AT(position)},
    {"TITLE",       "title",           CV_FIELD_TEXT,       K(PUBLICATION),      REQ, AT(title)},
    {"AUTHORS",     "authors",         CV_FIELD_AUTHORS,    K(PUBLICATION),      REQ, 0},
    {"JOURNAL",     "journal",         CV_FIELD_TEXT,       K(PUBLICATION),      TELLS,
     AT(journal)},
    {"DOI",         "doi",             CV_FIELD_DOI,        K(PUBLICATION),      TELLS, AT(doi)},
    {"URL",         "url",             CV_FIELD_URL,        K(PUBLICATION),      0, AT(url)},
    {"NAME",        "name",            CV_FIELD_TEXT,       K(NORMAL),           REQ, AT(name)},
    {"LOCATION",    "location",        CV_FIELD_TEXT,       DATED,               0, AT(location)},
    {"DATE",        "date",            CV_FIELD_DATE,       DATED | K(PUBLICATION),
     CV_FIELD_RANGE, AT(date)},
    {"START_DATE",  "start_date",      CV_FIELD_DATE,       DATED,               0, AT(start_date)},
    {"END_DATE",    "end_date",        CV_FIELD_DATE,       DATED,               0, AT(end_date)},
    {"TIME_SPAN",   NULL,              CV_FIELD_SPAN,       DATED,               0, 0},
    {"SUMMARY",     "summary",         CV_FIELD_TEXT,       DATED | K(PUBLICATION), 0, AT(summary)},
    {NULL,          "highlights",      CV_FIELD_HIGHLIGHTS, DATED,               0, 0},
    {NULL,          "tags",            CV_FIELD_TAGS,       ALL_BUT_TEXT,        0, 0},
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
