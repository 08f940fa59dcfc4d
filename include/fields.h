/* fields.h - the entry model and the one table of entry fields.
 *
 * The kinds of entry (cv_entry_kind), an entry (cv_entry) and a section of
 * them (cv_section) are declared here, below doc.h, so that the modules
 * that make or read entries without a whole profile (bib.h, style.h's
 * templates, template.h) need not know the profile's schema.
 *
 * Every field an entry of the profile can have is one row: its YAML key,
 * the placeholder a layout's template shows it with, its type, and the
 * entry kinds (cv_entry_kind) that have it.  The loader (doc.c)
 * checks and reads an entry's keys from it, the templates (template.c)
 * fill their placeholders from it, and a unit test checks that
 * docs/profiles.md and docs/layouts.md describe every row.  A new field is
 * a new member of cv_entry and a new row here.
 *
 * A key that only one kind has and that tells the kind
 * (CV_FIELD_TELLS: `company` is an experience) decides an entry's kind;
 * the others (`location`, `date`, ...) are shared.  The rows are in the
 * order the loader reads and lists keys in (its messages depend on it).
 *
 * The table is constant: nothing here allocates or fails.
 */
#ifndef CV_FIELDS_H
#define CV_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "date.h"
#include "error.h"
#include "text.h"

/* ---- The entry model: kinds, entries, sections ----------------------- */

typedef enum {
    CV_ENTRY_TEXT,             /* a bare string */
    CV_ENTRY_BULLET,           /* bullet: */
    CV_ENTRY_NUMBERED,         /* number: */
    CV_ENTRY_REVERSED,         /* reversed_number: */
    CV_ENTRY_ONELINE,          /* label: + details: */
    CV_ENTRY_EDUCATION,        /* institution: + area: (+ degree:) */
    CV_ENTRY_EXPERIENCE,       /* company: + position: */
    CV_ENTRY_PUBLICATION,      /* title: + authors: */
    CV_ENTRY_NORMAL,           /* name: */
    CV_ENTRY_NKINDS
} cv_entry_kind;

/* A highlight bullet; `sub` holds its nested bullets (one level or more). */
typedef struct cv_highlight {
    cv_text text;
    struct cv_highlight *sub;
    size_t nsub;
} cv_highlight;

/* A key RenderCV allows on any entry beyond its type's fields (`revenue:
 * 12M`): shown by templates as the upper-cased key (REVENUE). */
typedef struct cv_extra {
    const char *key;         /* as written */
    const char *ph;          /* "REVENUE" */
    cv_text value;
} cv_extra;

typedef struct cv_entry {
    cv_entry_kind kind;
    cv_pos pos;
    /* TEXT: the string; BULLET/NUMBERED/REVERSED: its value. */
    cv_text text;
    /* ONELINE */
    cv_text label, details;
    /* EDUCATION */
    cv_text institution, area, degree;
    /* EXPERIENCE */
    cv_text company, position;
    /* PUBLICATION */
    cv_text title, journal, doi, url;
    cv_text *authors;
    size_t nauthors;
    /* NORMAL */
    cv_text name;
    /* Shared by EDUCATION, EXPERIENCE, PUBLICATION, NORMAL */
    cv_text location, summary;
    cv_date date, start_date, end_date;
    cv_highlight *highlights;
    size_t nhighlights;
    cv_extra *extras;        /* keys beyond the kind's fields, scalars only */
    size_t nextras;
} cv_entry;

typedef struct cv_section {
    const char *key;     /* as written in the profile */
    const char *title;   /* "selected_honors" -> "Selected Honors" */
    cv_pos pos;
    cv_entry_kind kind;  /* every entry of a section has the same kind */
    cv_entry *entries;
    size_t nentries;
    const char *bib;     /* the .bib the entries come from (bib.h), or NULL */
} cv_section;

/* ---- The table of fields ------------------------------------------------ */

typedef enum cv_field_type {
    CV_FIELD_TEXT,           /* a string with inline markup (a cv_text) */
    CV_FIELD_DOI,            /* a DOI, kept bare ("10.1145/..."), shown as a link */
    CV_FIELD_URL,            /* an http(s) URL, shown as a link without its scheme */
    CV_FIELD_DATE,           /* a date (a cv_date) */
    CV_FIELD_AUTHORS,        /* a list of author names */
    CV_FIELD_HIGHLIGHTS,     /* a list of bullets, nested */
    CV_FIELD_TAGS,           /* accepted and ignored (RenderCV's tags) */
    CV_FIELD_SPAN            /* no key: how long start_date to end_date lasts */
} cv_field_type;

enum {
    CV_FIELD_REQUIRED = 1,   /* an entry of the kind must have it */
    CV_FIELD_TELLS = 2,      /* the key tells the entry's kind (it has one) */
    CV_FIELD_RANGE = 4       /* DATE: the entry's date, or its start - end range */
};

/* The bit of kind k in cv_field.kinds. */
#define CV_KIND(k) (1u << (k))

typedef struct cv_field {
    const char *placeholder; /* "COMPANY"; NULL: not shown by templates */
    const char *key;         /* "company"; NULL: a bare string (the text entry) */
    cv_field_type type;
    unsigned kinds;          /* CV_KIND() of each kind that has it */
    unsigned flags;          /* CV_FIELD_* */
    size_t offset;           /* of its cv_text (TEXT, DOI, URL) or cv_date (DATE) in
                                cv_entry; 0 for the others */
} cv_field;

/* The table, in order; *n is its length. */
const cv_field *cv_fields(size_t *n);

/* The row of a YAML key, or NULL when no kind has the key. */
const cv_field *cv_field_by_key(const char *key);

/* The first row whose placeholder is the `len` bytes at `ph`, or NULL.
 * Several rows may share a placeholder (TEXT is the value of `bullet`,
 * `number`, `reversed_number` and of a bare string): they share the
 * value too. */
const cv_field *cv_field_by_placeholder(const char *ph, size_t len);

/* The row after `f` (the first when f is NULL) whose key kind k has, or
 * NULL after the last: `for (f = cv_field_next(k, NULL); f; f = cv_field_next(k, f))`. */
const cv_field *cv_field_next(cv_entry_kind k, const cv_field *f);

static inline bool cv_field_in(const cv_field *f, cv_entry_kind k)
{
    return (f->kinds & CV_KIND(k)) != 0;
}

/* The field's value in `e`: a cv_text for TEXT, DOI and URL, a cv_date
 * for DATE; NULL for the other types. */
const cv_text *cv_field_text(const cv_entry *e, const cv_field *f);
const cv_date *cv_field_date(const cv_entry *e, const cv_field *f);
/* The same, to fill in (the loader). */
void *cv_field_slot(cv_entry *e, const cv_field *f);

/* The YAML keys of kind k (of any kind when k is CV_ENTRY_NKINDS) whose
 * flags include all of `flags` (0: every key), in table order, into
 * keys[] with a NULL after the last; keys has room for CV_MAX_FIELDS + 1.
 * Returns how many. */
#define CV_MAX_FIELDS 32
size_t cv_field_keys(cv_entry_kind k, unsigned flags, const char **keys);

/* "education entry", for messages; a static string. */
const char *cv_entry_kind_name(cv_entry_kind k);

#endif
