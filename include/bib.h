/* bib.h - publications from a BibTeX file.
 *
 * A profile's section may name a .bib file instead of listing entries:
 *
 *   sections:
 *     publications: refs.bib              # every entry, newest first
 *     selected_publications:
 *       bib: refs.bib                     # relative to the profile
 *       keys: [he2021, so2022]            # only these (default: all)
 *       types: [article, inproceedings]   # only these BibTeX types
 *       years: 2018-2024                  # or 2018, or {from: 2018, to: 2024}
 *       keywords: [federated]             # entries whose `keywords` has one
 *       selected: [he2021]                # listed first (or marked, below)
 *       selected_as: first                # first | mark | only
 *       mark: "★"                         # what selected_as: mark puts before the title
 *       sort: newest                      # newest | oldest | none (the file's order)
 *       group_by: type                    # year | type: one section per group
 *       limit: 10
 *       names: first-last                 # first-last | last-first | initials | last-initials
 *       notes: {he2021: "**Best Paper Award**"}
 *
 * The file is read with libbtparse (@string macros, `#` concatenation,
 * comments, preambles; `crossref` is resolved here) and every entry becomes
 * an ordinary publication entry (doc.h): its TeX turned into text and
 * cvpdf's markup (accents, dashes, \textbf, \emph, \url, simple math), its
 * names split by BibTeX's rules ("von" parts, "Jr", {Corporate Names},
 * "others" as "et al."), its venue, volume, number and pages as JOURNAL,
 * year and month as DATE, doi, url, and an arXiv eprint as links.
 *
 * Problems in the .bib are warnings at the .bib's line and column (a
 * syntax error skips that entry alone; the rest of the file is read); a
 * bad option in the profile, or a file that cannot be read, is an error at
 * the profile's node.  libbtparse's own messages are taken from stderr and
 * said again through the sink (error.h).
 *
 * Everything returned is allocated in the arena: valid until
 * cv_arena_free().
 */
#ifndef CV_BIB_H
#define CV_BIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "arena.h"
#include "fields.h"
#include "error.h"
#include "yml.h"

/* Does section value `n` name a .bib (a string ending in ".bib", or a
 * mapping with a `bib` key)? */
bool cv_bib_is_source(const cv_yml *n);

/* The keys a .bib section's mapping may have (NULL-terminated). */
const char *const *cv_bib_option_keys(void);

/* The words option `key` of a .bib section takes ("sort": newest, oldest,
 * none), the default first; NULL for an option that is not one of a set. */
const char *const *cv_bib_option_words(const char *key);

/* The section(s) that section `key` (its YAML key node) with value `n` (a
 * cv_bib_is_source()) makes: one, or one per group with `group_by`.
 * `profile` is the profile's path (relative .bib paths are taken from its
 * directory); `lang` its language, for the title (cv_section_title).
 * Appends to *secs (grown in the arena, *cap its room).  Returns false
 * with err set. */
bool cv_bib_sections(cv_arena *a, const cv_yml *key, const cv_yml *n, const char *profile,
                     const char *lang, cv_section **secs, size_t *nsecs, size_t *cap,
                     cv_error *err);

/* The entries of the .bib at `path`, all of them, newest first, as
 * publication entries (names given first).  Returns false with err set
 * when the file cannot be read. */
bool cv_bib_read(cv_arena *a, const char *path, cv_entry **out, size_t *n, cv_error *err);

/* `cvpdf import FILE [--section NAME]`: the .bib's entries as RenderCV
 * YAML on `out`: a top-level `publications:` list (section NULL), or the
 * section `section`, indented to paste under a profile's `cv: sections:`.
 * Above an entry whose .bib entry has fields a publication has no place
 * for (abstract, isbn, ...), a comment names them ("# not imported from
 * @article{key}: abstract, isbn ...").  Returns false with err set. */
bool cv_bib_import(const char *path, const char *section, FILE *out, cv_error *err);

/* TeX (a BibTeX field's value) as cvpdf markup: accents, dashes, quotes,
 * \textbf / \emph as ** / *, \url and \href as links, $math$ as text.
 * Commands it does not know are dropped (their arguments kept) and named
 * in *unknown (NULL when none; may be NULL).  Allocated in `a`. */
char *cv_bib_tex(cv_arena *a, const char *tex, const char **unknown);
/* The same as plain text (no markup, nothing escaped). */
char *cv_bib_tex_plain(cv_arena *a, const char *tex, const char **unknown);

#endif
