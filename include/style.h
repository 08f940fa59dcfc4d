/* style.h - a layout file resolved into numbers, colours, faces and templates.
 *
 * cv_style_load() reads a layout (YAML), following `extends:` to its base
 * layout and merging the two (the child's keys win, mappings merge key by
 * key), checks every key (unknown keys are errors with a suggestion),
 * converts lengths ("18mm", "10pt", "0.75in", "2cm"; a bare number is
 * points), and opens the font faces it names in the fontset.
 *
 * The layout's keys are documented in docs/layouts.md.  Every value has a
 * default, so a layout of just `{}` is a valid one.
 *
 * A resolved cv_style is the layout: what the file says, resolved once per
 * run and shared by every profile and worker.  Nothing writes to it after
 * it is loaded, and it holds no engine and nothing about a profile: those
 * are ctx.h's.  The face ids it holds name faces of the engine it was
 * loaded with.
 */
#ifndef CV_STYLE_H
#define CV_STYLE_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "fields.h"
#include "error.h"
#include "engine.h"
#include "fontset.h"

#define CV_MAX_TMPL 4

enum { CV_ALIGN_LEFT, CV_ALIGN_CENTER, CV_ALIGN_RIGHT };
enum { CV_PHOTO_RIGHT, CV_PHOTO_LEFT, CV_PHOTO_SIDEBAR };
/* header.phone_format: phone numbers as written, or formatted (phone.h). */
enum { CV_PHONE_AS_WRITTEN, CV_PHONE_NATIONAL, CV_PHONE_INTERNATIONAL, CV_PHONE_E164 };
/* The parts of the page that may have a family of their own
 * (header.name_font, header.headline_font, header.contact_font,
 * section_title.font): ctx.h's cv_ctx_role(). */
enum { CV_ROLE_NAME, CV_ROLE_HEADLINE, CV_ROLE_CONTACT, CV_ROLE_TITLE, CV_NROLES };
#define CV_MAX_NAMES 32

/* A list of section names from the layout (`keep_together: [skills]`):
 * matched against a section's key or title, ignoring case. */
typedef struct cv_names {
    const char *s[CV_MAX_NAMES];
    cv_pos pos[CV_MAX_NAMES];
    size_t n;
} cv_names;

/* The running header or footer: three template slots (NAME, PAGE_NUMBER,
 * TOTAL_PAGES, CURRENT_DATE, LAST_UPDATED, EMAIL, ...), in the margin. */
typedef struct cv_running {
    const char *slot[3];     /* left, center, right */
    bool first_page;         /* also on page 1 */
    bool single_page;        /* also when the résumé has one page */
    bool only_first_page;    /* on page 1 alone (RenderCV's top note) */
    float size;
    unsigned color;
} cv_running;

/* Per-entry-type templates: lines for the main (left) column and the side
 * (right-aligned) column.  Placeholders are upper-case field names
 * (COMPANY, POSITION, DATE, ...); markup is allowed around them. */
typedef struct cv_template {
    const char *main[CV_MAX_TMPL];
    size_t nmain;
    const char *side[CV_MAX_TMPL];
    size_t nside;
    const char *degree[CV_MAX_TMPL];   /* a column left of the main lines (entry.degree_width) */
    size_t ndegree;
} cv_template;

typedef struct cv_style {
    const char *file;

    /* Page, in points. */
    float page_w, page_h;
    float margin_top, margin_bottom, margin_left, margin_right;

    /* Fonts: chain[s][0..nchain) are face ids for style s (CV_STYLE_* bits:
     * 0 regular, 1 bold, 2 italic, 3 bold italic); synth[s][k] says the
     * face must be emboldened. */
    int chain[4][CV_MAX_CHAIN];
    bool synth[4][CV_MAX_CHAIN];
    size_t nchain;
    int mono;                /* font.mono: the face of `code`; -1: the text's own */
    /* Per-role families (CV_ROLE_*): the name the layout gives (NULL: the
     * body's family), where, and the faces of each style (-1: none). */
    const char *role_family[CV_NROLES];
    cv_pos role_pos[CV_NROLES];
    int role_face[CV_NROLES][4];
    bool role_synth[CV_NROLES][4];
    float size, line_spacing;

    /* Colours 0xRRGGBB. */
    unsigned text_color, muted_color, link_color;
    bool justify;
    bool smart_quotes;            /* straight quotes made typographic (quotes.h) */
    bool hyphenate;          /* text.hyphenate: Latin words in body text */
    bool greedy;             /* text.line_breaking: greedy (true) or optimal */
    float cjk_latin_space;   /* text.cjk_latin_space: em between Han or kana
                                and Latin letters or digits (0: none) */

    /* Header. */
    int header_align;
    float name_size, headline_size, contact_size, header_gap;
    bool name_bold, native_name_beside;
    bool headline_bold, contact_bold;     /* header.headline_bold, contact_bold */
    /* Small capitals (the face's smcp glyphs, else capitals set smaller):
     * header.name_small_caps, headline_small_caps, contact_small_caps. */
    bool name_small_caps, headline_small_caps, contact_small_caps;
    /* font.lining_figures: digits as the face's lining figures (lnum), for
     * a face whose default figures are old-style (EB Garamond). */
    bool lining_figures;
    /* font.fit_ascenders: a line is never shorter than the main face's
     * ascender plus descender; false: line_spacing alone, as Typst sets it. */
    bool fit_ascenders;
    unsigned name_color;
    const char *contact_separator;
    int phone_format;             /* header.phone_format: CV_PHONE_* */
    bool contact_icons;           /* header.icons: Fork Awesome icons before contacts */
    bool contact_urls;            /* header.contact_urls: networks as their URLs */
    unsigned contact_color;       /* > 0xFFFFFF: colors.text */

    /* Section titles. */
    float title_size, title_space_before, title_space_after;
    bool title_bold, title_uppercase, title_rule;
    bool title_small_caps;        /* section_title.small_caps */
    int title_align;              /* CV_ALIGN_* */
    bool title_rule_beside;       /* the rule runs on from the title, not under it */
    float rule_width, rule_gap;
    unsigned title_color, rule_color;

    /* Entries. */
    float entry_gap, side_gap, block_gap;
    float side_width;        /* > 0: a side column this wide beside the whole entry */
    bool side_left;          /* with side_width: that column on the left */
    float text_gap;          /* between text entries; < 0: 0.6 x entry_gap */
    unsigned side_color;
    float side_size;

    /* Bullets (highlights and bullet entries). */
    const char *bullet, *sub_bullet;
    cv_pos bullet_pos, sub_bullet_pos;  /* in the layout, for diagnostics */
    float bullet_indent, bullet_text_indent, bullet_gap, sub_indent;
    float bullet_size;       /* the top-level mark's type size; 0: the text's */
    float bullet_raise;      /* the top-level mark raised by this */
    float bullet_text_gap;   /* the text this far after its mark; < 0: at bullet_text_indent */

    cv_template tmpl[CV_ENTRY_NKINDS];

    /* Pagination (flow.h describes the rules). */
    float entry_lines, orphans, widows, title_lines;
    bool fill_pages;              /* stretch gaps so pages end at the margin */
    bool pull_back;               /* a nearly empty last page is pulled back (fit.h) */
    float pull_back_below;        /* ... when it is less full than this */
    cv_names break_before, keep_together;

    /* The sidebar: a second column beside the main one. */
    bool sidebar, sidebar_left, sidebar_contact, sidebar_stack, sidebar_justify;
    bool sidebar_single_block;
    bool sidebar_widen;           /* the main column takes the full width after the sidebar */
    float sidebar_line_spacing;
    float sidebar_w, sidebar_gap, sidebar_rule_width;
    unsigned sidebar_rule_color;
    cv_names sidebar_sections;
    const char *contact_title;    /* the sidebar's contact block */

    /* Running header and footer. */
    cv_running page_header, page_footer;

    /* The photo. */
    int photo_where;              /* CV_PHOTO_* */
    float photo_w, photo_h, photo_gap;   /* photo_h 0: the image's aspect */

    /* Fit to pages: shrink spacing, then type, then margins, down to these. */
    float fit_pages;              /* 0: off */
    float fit_spacing_floor, fit_font_floor, fit_margin_floor;

    /* PDF metadata. */
    const char *title_template;   /* "NAME — Résumé" */
    bool pdfa;                    /* pdf.pdfa: write PDF/A-1b */
    bool pdfua;                   /* pdf.pdfua: write PDF/UA-1 */
    bool tagged;                  /* pdf.tagged: write tagged PDF (default) */

    /* Keys RenderCV's design options map onto (docs/rendercv.md); each
     * also a plain layout key (docs/layouts.md). */
    bool link_underline;          /* links.underline */
    bool link_icon;               /* links.external_icon: U+F08E after each link */
    bool contact_links;           /* header.contact_links: false, plain text */
    bool contact_network_names;   /* header.contact_network_names: "GitHub: ada" without
                                     icons; false, "ada" (RenderCV's themes) */
    float contact_gap;            /* header.contact_gap: < 0, the separator's own spaces */
    float name_gap, headline_gap; /* header.space_below_name, _headline; < 0: 2pt, 4pt */
    float photo_space_left;       /* photo.space_left */
    int side_align;               /* entry.side_align: CV_ALIGN_* */
    float side_space;             /* entry.side_space: entries inset both sides */
    float degree_width;           /* entry.degree_width: templates' degree column */
    float summary_gap;            /* entry.summary_space_before; < 0: block_gap */
    float summary_indent;         /* entry.summary_indent */
    bool keep_sections;           /* pagination.keep_sections: a section on one page */
    bool keep_entries;            /* pagination.keep_entries: an entry on one page */
    bool rule_baseline;           /* section_title.rule_baseline: partial rules on it */

    /* Dates (dates.*, docs/layouts.md): RenderCV's date templates and time
     * spans, which render.c lays over the profile's locale (lang.h's
     * cv_locale_dates) before it is localised.  NULL: the locale's. */
    const char *date_single;      /* dates.single: "MONTH_NAME YEAR" */
    const char *date_range;       /* dates.range: "START_DATE to END_DATE" */
    const char *time_span;        /* dates.time_span; NULL: years and months */
    cv_names time_spans_in;       /* dates.show_time_spans_in */
    const char *english_abbr[12]; /* dates.english_month_abbreviations */
    bool html_system_fonts;       /* html.fonts: system, the reader's faces in an HTML
                                     page (html.h), not the layout's embedded */
} cv_style;

/* Load and resolve the layout at `path`.  Returns false with err set. */
bool cv_style_load(cv_arena *a, const char *path, cv_engine *eng, cv_style *st,
                   cv_error *err);
/* The same with the layout tree `over` (design.h's translation of a
 * profile's design:) laid over the file's, as a child over what it
 * extends; `over` may be NULL.  A family `over` names that is not
 * installed is a warning (RenderCV accepts any name), and the file's
 * family for that part stays. */
bool cv_style_load_over(cv_arena *a, const char *path, const cv_yml *over, cv_engine *eng,
                        cv_style *st, cv_error *err);
/* The sorts of value a layout key takes, for the JSON Schema (schema.h). */
typedef enum cv_layout_type {
    CV_LT_UNKNOWN,        /* a key the loader checks but this list has no type for */
    CV_LT_LENGTH,         /* "10pt", "18mm", "1.5cm", "0.75in" or points: lo-hi points */
    CV_LT_NUMBER,         /* a number, lo-hi */
    CV_LT_COUNT,          /* a whole number, lo-hi */
    CV_LT_FRACTION,       /* 0.85 or "85%": above lo, at most hi */
    CV_LT_EM,             /* "0.25em", 0.25 or 0: a fraction of the type size, 0-1 */
    CV_LT_BOOL,
    CV_LT_COLOR,          /* "#rrggbb", "#rgb" or "rgb(r, g, b)" */
    CV_LT_STRING,         /* text, or null */
    CV_LT_CHOICE,         /* one of `words` */
    CV_LT_NAMES,          /* section names: one, a list, or null */
    CV_LT_PAGE_SIZE,      /* one of `words`, any case, or [width, height] lengths */
    CV_LT_FAMILY,         /* a font family, or a font file */
    CV_LT_FAMILIES,       /* a font family (or file), or a list of them */
    CV_LT_LINES,          /* template lines: one, a list of at most 4, or null */
    CV_LT_LAYOUT,         /* a layout name or path (extends) */
    CV_LT_NULL,           /* null: a mapping that may also be left empty */
    CV_LT_MONTHS          /* twelve month names, or null */
} cv_layout_type;

typedef struct cv_layout_key {
    const char *path;              /* "section_title.size", "page.margins.top" */
    cv_layout_type type;
    const char *const *words;      /* CHOICE, PAGE_SIZE: NULL-terminated */
    float lo, hi;                  /* LENGTH, NUMBER, COUNT, FRACTION */
    const char *about;             /* what it does, in a phrase (the schema's description) */
} cv_layout_key;

/* Every value the loader reads, from the tables it checks keys with: a
 * row per key path.  A mapping that may also be one value (page.margins:
 * 18mm) or null (columns.sidebar: ~) has a row of its own as well as its
 * keys' rows.  Returns how many; *out is valid until cv_arena_free(a). */
size_t cv_style_keys(cv_arena *a, const cv_layout_key **out);

/* The keys `paths` (NULL-terminated: "header.phone_format") of the layout
 * tree `over` read into *st over what it holds; a path `over` lacks leaves
 * st's value.  render.c keeps so, under -l, what a profile's design: says
 * of its content (phone and date formats).  False with err set, at the
 * value, for a bad one. */
bool cv_style_read_keys(const cv_yml *over, const char *const *paths, cv_style *st,
                        cv_error *err);

/* What the layout's mapping at `path` ("page", "templates.experience")
 * holds, in a phrase; NULL for a path that is no mapping of the loader's.
 * Valid until cv_arena_free(a). */
const char *cv_style_map_about(cv_arena *a, const char *path);

/* The built-in defaults (what an empty layout gives), fonts not opened. */
void cv_style_defaults(cv_style *st);

#endif
