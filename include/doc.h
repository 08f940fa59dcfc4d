/* doc.h - the résumé as data: what a person did, not how it looks.
 *
 * cv_doc_load() turns a profile's YAML tree (RenderCV's `cv:` vocabulary)
 * into a cv_doc.  All strings are raw: inline markup (`**bold**`,
 * `*italic*`, `[text](url)`) is kept as written and parsed later by
 * markup.h, so that every string still knows its source position.
 *
 * Accepted top-level keys: `cv` (required), `locale`, `settings`, `design`
 * (RenderCV's look: translated by design.h into layout keys, kept in
 * cv_doc.design for render.c), `rendercv_settings` (RenderCV 1; only its
 * `bold_keywords` are used).  A JSON Resume is translated first
 * (jsonresume.h); settings.render_command's design and locale files
 * replace the profile's.
 *
 * The parts of a cv_doc with rules of their own come from their own
 * modules, included here: cv_text (text.h), cv_date (date.h), cv_locale and
 * section titles (lang.h), cv_social (social.h), and the entries and
 * sections (fields.h).
 *
 * Everything returned is allocated in the arena and valid until
 * cv_arena_free().
 */
#ifndef CV_DOC_H
#define CV_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "date.h"
#include "design.h"
#include "error.h"
#include "fields.h"
#include "lang.h"
#include "social.h"
#include "text.h"
#include "yml.h"

/* The header's groups of connections (cv_doc.contact_order). */
enum { CV_CONTACT_LOCATION, CV_CONTACT_EMAIL, CV_CONTACT_PHONE, CV_CONTACT_WEBSITE,
       CV_CONTACT_CUSTOM, CV_CONTACT_SOCIAL };

typedef struct cv_doc {
    const char *file;
    cv_text name;          /* may be absent, as in RenderCV: no name line */
    cv_text native_name;   /* our addition: the name in its native script */
    cv_text headline, location, email, phone, website, photo;
    cv_text photo_alt;     /* our addition: the photo's alternate text (tagged PDF) */
    /* Every email, phone and website (RenderCV allows lists); email, phone
     * and website above are the first of each. */
    cv_text *emails, *phones, *websites;
    size_t nemails, nphones, nwebsites;
    /* cv.custom_connections: text shown, optional link, optional icon. */
    struct cv_connection { cv_text text, url, icon; } *connections;
    size_t nconnections;
    /* Upper-cased keys of every entry's extras (placeholders known to
     * templates, empty in entries without them). */
    const char **extra_phs;
    size_t nextra_phs;
    cv_social *socials;
    size_t nsocials;
    /* The order the header's connections are written in the cv, as RenderCV
     * shows them: CV_CONTACT_* values, ncontact_order of them (0: cvpdf's
     * order, location, email, phone, website, custom, social). */
    unsigned char contact_order[6];
    size_t ncontact_order;
    cv_section *sections;
    size_t nsections;
    cv_locale locale;            /* locale:, as read; render.c lays the layout's
                                    dates.* over it, then localises it (lang.h) */
    cv_text *bold_keywords;      /* settings.bold_keywords */
    size_t nbold_keywords;
    /* settings.page_break_before and settings.keep_together (ours): section
     * names, as in the layout's pagination: keys. */
    cv_text *break_before, *keep_together;
    size_t nbreak_before, nkeep_together;
    cv_text current_date;        /* settings.current_date: "last updated" */
    bool date_today;             /* settings.current_date: today (the clock) */
    bool rendercv_file;          /* recognisably RenderCV's: settings:, or an older
                                    RenderCV's parts (rcvold.h) */
    const char *today;           /* YYYY-MM-DD of the run, when known (render.c
                                    sets it: --date, current_date, ...); for
                                    time spans that end at present */
    cv_text pdf_title;           /* settings.pdf_title ("NAME - CV") */
    /* design: (RenderCV) translated to layout keys by design.h, over the
     * layout of its theme (layouts/THEME.yaml); design.layout NULL
     * without design:. */
    cv_design design;
} cv_doc;

/* Build a cv_doc from the root of a profile.  On failure returns NULL and
 * `err` holds `file:line:col` and a message such as
 *   unknown key 'emial' in cv (did you mean 'email'?)
 *   'cv' needs a 'name'
 *   invalid date '2023-13': month must be between 1 and 12
 *   expected a list of entries for section 'experience', got a string
 *   entry has fields of more than one type ... / cannot tell the entry type
 */
cv_doc *cv_doc_load(cv_arena *a, const cv_yml *root, const char *file, cv_error *err);
/* The keys the loader accepts at the top of a profile (part ""), in `cv`
 * and in `settings`: NULL-terminated and constant; NULL for another part.
 * (An entry's keys are fields.h's; a locale's lang.h's.) */
const char *const *cv_doc_keys(const char *part);

/* Convenience: read + parse + load a profile file. */
cv_doc *cv_doc_load_file(cv_arena *a, const char *path, cv_error *err);
/* The same with `defaults` (--defaults, may be NULL) merged under the
 * profile's YAML (cv_yml_merge(): the profile wins). */
cv_doc *cv_doc_load_with(cv_arena *a, const char *path, const cv_yml *defaults, cv_error *err);
/* The same from `len` bytes of YAML in memory (the standard input), named
 * `file` in messages; relative paths in it (the photo) are taken from the
 * current directory when `file` has no '/'. */
cv_doc *cv_doc_load_text(cv_arena *a, const char *file, const char *text, size_t len,
                         const cv_yml *defaults, cv_error *err);
/* The same two with `over` (--set, sets.h; may be NULL) laid over the
 * profile's YAML (cv_yml_merge(): `over` wins), as if written in it. */
cv_doc *cv_doc_load_over(cv_arena *a, const char *path, const cv_yml *defaults,
                         const cv_yml *over, cv_error *err);
cv_doc *cv_doc_load_text_over(cv_arena *a, const char *file, const char *text, size_t len,
                              const cv_yml *defaults, const cv_yml *over, cv_error *err);
/* Read --defaults: a file shaped like a profile (the same top-level keys,
 * `cv` optional), to be merged under each profile by cv_doc_load_with().
 * Only its shape is checked here; its values are checked with each
 * profile's.  Returns NULL with err set when it cannot be read or is not
 * such a mapping (a warning under --strict counts). */
cv_yml *cv_doc_load_defaults(cv_arena *a, const char *path, cv_error *err);

/* The defaults' `lab:` (ours; --site's lab page): its name, its address
 * and its website (an http(s) URL), each optional.  cv_doc_load_defaults()
 * checks it and leaves it out of what is merged under each profile. */
typedef struct cv_lab {
    cv_text name, address, url;
} cv_lab;
/* Read `lab:` from the defaults file `path` into *lab (all absent when it
 * has none).  False with err set when the file cannot be read or `lab:`
 * is not as above. */
bool cv_doc_load_lab(cv_arena *a, const char *path, cv_lab *lab, cv_error *err);

/* The entry's dates as shown (cv_date_range()): "Jul 2019 – Feb 2022",
 * "2019 – present", or the single `date`; NULL when the entry has no date
 * at all. */
const char *cv_entry_date_range(cv_arena *a, const cv_entry *e, const cv_locale *loc);

#endif
