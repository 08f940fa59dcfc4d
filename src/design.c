/* design.c - RenderCV's `design:` translated into layout keys.  See design.h.
 *
 * The translation is one table, `opts`: each RenderCV option (its path in
 * `design:`) with what it becomes - one or more layout keys (those that
 * need more than a copy, such as the phone and date formats and the time
 * spans, made by keep()), or nothing (named in a note).  The theme alone
 * is kept in cv_design: every other option reaches the page as a layout
 * key.  Values are copied as they are, apart from three
 * conversions: lengths in `em` become points (the layout has no em), fonts
 * RenderCV names but Debian lacks become the nearest face we have, and
 * RenderCV's entry templates (one string of lines, SUMMARY and HIGHLIGHTS
 * among them) become a layout's `main:` and `side:` lines.
 */
#include "design.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "yml.h"

const char *const cv_design_themes[] = {
    "classic", "engineeringresumes", "engineeringclassic", "sb2nov", "moderncv",
    "harvard", "ink", "opal", "ember", NULL};

/* ---- Building a layout tree ------------------------------------------- */

static cv_yml *scalar(cv_arena *a, const char *s, cv_pos pos)
{
    return cv_yml_scalar(a, s, pos, false);
}

/* An empty template: "" (a null would let the theme's show through). */
static cv_yml *null_at(cv_arena *a, cv_pos pos)
{
    return scalar(a, "", pos);
}

/* A copy of `v` in the arena: the profile's tree is freed once the
 * document is read, the layout tree lives with the document.  (Scalars'
 * strings are already in the profile's arena, yml.h.) */
static cv_yml *copy(cv_arena *a, const cv_yml *v)
{
    cv_yml *n = cv_arena_alloc(a, sizeof *n);
    *n = *v;
    if (v->n) {
        n->items = cv_arena_alloc(a, sizeof *n->items * v->n);
        for (size_t i = 0; i < v->n; i++)
            n->items[i] = copy(a, v->items[i]);
        if (v->kind == CV_YML_MAP) {
            n->keys = cv_arena_alloc(a, sizeof *n->keys * v->n);
            for (size_t i = 0; i < v->n; i++)
                n->keys[i] = copy(a, v->keys[i]);
        }
    }
    return n;
}

/* A list of the strings s[0..n), at pos. */
static cv_yml *list(cv_arena *a, const char *const *s, size_t n, cv_pos pos)
{
    cv_yml *l = cv_arena_alloc(a, sizeof *l);
    *l = (cv_yml){.kind = CV_YML_SEQ, .pos = pos, .n = n};
    l->items = cv_arena_alloc(a, sizeof *l->items * n);
    for (size_t i = 0; i < n; i++)
        l->items[i] = scalar(a, s[i], pos);
    return l;
}

/* Set the dotted `path` ("page.margins.top") of the tree to v. */
static void put(cv_arena *a, cv_yml *root, const char *path, cv_yml *v)
{
    cv_yml_put(a, root, path, v->pos, v);
}

/* ---- Values ------------------------------------------------------------ */

/* A RenderCV length; `em` becomes points of the body size. */
static cv_yml *length(cv_arena *a, const cv_yml *v, float body)
{
    if (v->kind != CV_YML_SCALAR)
        return (cv_yml *)v;
    char *end;
    double x = strtod(v->str, &end);
    while (*end == ' ')
        end++;
    if (end != v->str && !strcmp(end, "em"))
        return scalar(a, cv_arena_printf(a, "%.3fpt", x * body), v->pos);
    return (cv_yml *)v;
}

/* Faces RenderCV names and what cvpdf uses: the face itself where Debian
 * packages it or fonts/ has it, else the nearest one that is (docs/rendercv.md
 * lists them). */
static const char *const fonts[][2] = {
    {"Source Sans 3", "Source Sans 3"},     {"Source Sans Pro", "Source Sans 3"},
    {"XCharter", "XCharter"},        {"Charter", "XCharter"},
    {"Raleway", "Raleway"},          {"Fontin", "Source Sans 3"},   /* no free copy to ship */
    {"Ubuntu", "Ubuntu"},            {"Gentium Book Plus", "Gentium Book Plus"},
    {"EB Garamond", "EB Garamond"},  /* fonts-ebgaramond (CFF outlines) */
    {"New Computer Modern", "CMU Serif"},   {"Computer Modern", "CMU Serif"},
    {"Latin Modern Roman", "CMU Serif"},    {"Open Sans", "Lato"},
    {"Roboto", "Lato"},              {"Lato", "Lato"},
    {"Poppins", "Lato"},             {"Open Sauce Sans", "Lato"},
    {"Mukta", "Noto Sans"},          {"Noto Sans", "Noto Sans"},
    {"Libertinus Serif", "EB Garamond"},    /* an old-style serif with a short line box */
    {"DejaVu Sans Mono", "DejaVu Sans Mono"},
};

/* Cap heights (em) of the faces the themes set their body in, for Typst's
 * leading (typography.line_spacing runs from a baseline to the next line's
 * cap height), and each theme's body face. */
static const struct { const char *family; float cap; } caps[] = {
    {"Source Sans 3", 0.66f}, {"XCharter", 0.671f}, {"Raleway", 0.71f}, {"Lato", 0.717f},
    {"Ubuntu", 0.693f},       {"CMU Serif", 0.683f}, {"EB Garamond", 0.65f},
};
static const char *const theme_body[][2] = {
    {"classic", "Source Sans 3"}, {"moderncv", "Source Sans 3"},
    {"engineeringresumes", "XCharter"}, {"harvard", "XCharter"},
    {"engineeringclassic", "Raleway"}, {"sb2nov", "CMU Serif"},
    {"ink", "EB Garamond"}, {"opal", "Lato"}, {"ember", "Ubuntu"},
};

static const char *font_for(const char *name);

/* The cap height of the body face a design sets (its font_family, else its
 * theme's); 0.7 em for a face not listed. */
static float body_cap(const cv_yml *design, const char *theme)
{
    const cv_yml *ff = cv_yml_get(cv_yml_get(design, "typography"), "font_family");
    if (ff && ff->kind == CV_YML_MAP)
        ff = cv_yml_get(ff, "body");
    const char *fam = ff && ff->kind == CV_YML_SCALAR && ff->str ? font_for(ff->str) : NULL;
    for (size_t i = 0; !fam && i < sizeof theme_body / sizeof *theme_body; i++)
        if (!strcmp(theme, theme_body[i][0]))
            fam = theme_body[i][1];
    for (size_t i = 0; fam && i < sizeof caps / sizeof *caps; i++)
        if (!strcasecmp(fam, caps[i].family))
            return caps[i].cap;
    return 0.7f;
}

static const char *font_for(const char *name)
{
    for (size_t i = 0; i < sizeof fonts / sizeof *fonts; i++)
        if (!strcasecmp(name, fonts[i][0]))
            return fonts[i][1];
    return name;            /* fontconfig may have it; style.c says if not */
}

static bool ph_char(char c)
{
    return (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
}

/* One RenderCV entry template ("**COMPANY**, POSITION\nSUMMARY\nHIGHLIGHTS")
 * as layout lines: SUMMARY and HIGHLIGHTS lines are where cvpdf puts them
 * anyway, DEGREE_WITH_AREA is the locale's phrase, URL is LINK (RenderCV's
 * URL shows the DOI when there is one), `--` an en dash. */
static cv_yml *lines(cv_arena *a, const cv_yml *v)
{
    cv_yml *seq = cv_arena_alloc(a, sizeof *seq);
    seq->kind = CV_YML_SEQ;
    seq->pos = v->pos;
    if (v->kind != CV_YML_SCALAR || cv_yml_is_null(v))
        return seq;
    size_t cap = 0;
    for (const char *p = v->str; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        cv_strbuf b = {0};
        for (size_t i = 0; i < n; i++) {
            if (!strncmp(p + i, "DEGREE_WITH_AREA", 16)) {
                cv_strbuf_put(a, &b, "DEGREE in AREA", 14);
                i += 15;
            } else if (!strncmp(p + i, "URL", 3) && (i == 0 || !ph_char(p[i - 1])) &&
                       !ph_char(p[i + 3])) {
                cv_strbuf_put(a, &b, "LINK", 4);    /* RenderCV's URL: the DOI first */
                i += 2;
            } else if (!strncmp(p + i, "--", 2) && strncmp(p + i, "---", 3)) {
                cv_strbuf_put(a, &b, "\xE2\x80\x93", 3);
                i += 1;
            } else {
                cv_strbuf_put(a, &b, p + i, 1);
            }
        }
        const char *line = b.s ? b.s : "";
        while (*line == ' ')
            line++;
        if (*line && strcmp(line, "SUMMARY") && strcmp(line, "HIGHLIGHTS"))
            CV_PUSH(a, seq->items, seq->n, cap, scalar(a, line, v->pos));
        p = e ? e + 1 : p + n;
    }
    return seq;
}

/* ---- The table --------------------------------------------------------- */

enum act {
    TO,          /* copy to the layout keys (up to 3) */
    LEN,         /* a length, em converted, to the keys */
    FONT,        /* a family, or a mapping with `body` */
    ALIGN_BODY,  /* typography.alignment */
    SPACING,     /* typography.line_spacing: the leading in em */
    SIZE,        /* page.size */
    SHOW,        /* page.show_footer / show_top_note: false clears the slots */
    TITLE_TYPE,  /* section_titles.type */
    SEPARATOR,   /* header.connections.separator */
    BULLET,      /* a bullet mark: RenderCV's "●" is a 13pt "•" raised 0.6pt */
    TEMPLATE,    /* an entry template: main or side lines */
    DELTA,       /* a length as the theme's gap plus its difference from the theme's
                    RenderCV default (theme_gap) */
    NOT,         /* a bool, negated (allow_page_break: false keeps) */
    KEEP,        /* keep(): the theme (cv_design), or layout keys made there */
    NONE,        /* no counterpart: named in the note */
    GROUP        /* a mapping of further options */
};

typedef struct opt {
    const char *path;
    enum act act;
    const char *to[3];
} opt;

/* Points a LEN option loses (never below 0): RenderCV measures these gaps
 * from the text's edges, cvpdf from its line boxes. */
static float minus_of(const char *path)
{
    return !strcmp(path, "header.space_below_connections") ? 14
         : !strcmp(path, "section_titles.space_above") ? 6.2f
         : !strcmp(path, "section_titles.space_below") ? 7 : 0;
}

/* DELTA options: cvpdf's gap in the theme layouts (or its built-in one),
 * and RenderCV's default in each theme (classic's unless listed).  A
 * value moves the gap by its difference from RenderCV's default, never
 * below 0, so that RenderCV's default gives the theme's own look. */
static const struct theme_gap {
    const char *path;
    float base;                 /* points */
    const char *dflt[10];       /* "theme=length", the first without a theme: classic's */
} theme_gaps[] = {
    {"header.space_below_name", 2,
     {"0.7cm", "ember=0.5cm", "harvard=0.5cm", "ink=0.5cm", "opal=0.3cm"}},
    {"header.space_below_headline", 4,
     {"0.7cm", "ember=0.4cm", "harvard=0.5cm", "ink=0.4cm", "opal=0.3cm"}},
    {"header.photo_space_left", 0, {"0.4cm", "moderncv=0cm"}},
};

static float theme_default(const struct theme_gap *g, const char *theme)
{
    const char *v = g->dflt[0];
    size_t tl = strlen(theme);
    for (size_t i = 1; i < 10 && g->dflt[i]; i++)
        if (!strncmp(g->dflt[i], theme, tl) && g->dflt[i][tl] == '=')
            v = g->dflt[i] + tl + 1;
    float pt = 0;
    cv_parse_length(v, &pt);
    return pt;
}

static const opt opts[] = {
    {"theme", KEEP, {0}},
    {"page", GROUP, {0}},
    {"page.size", SIZE, {"page.size"}},
    {"page.top_margin", LEN, {"page.margins.top"}},
    {"page.bottom_margin", LEN, {"page.margins.bottom"}},
    {"page.left_margin", LEN, {"page.margins.left"}},
    {"page.right_margin", LEN, {"page.margins.right"}},
    {"page.show_footer", SHOW, {"page_footer"}},
    {"page.show_top_note", SHOW, {"page_header"}},
    {"colors", GROUP, {0}},
    {"colors.body", TO, {"colors.text", "entry.side_color"}},
    {"colors.name", TO, {"header.name_color"}},
    {"colors.headline", TO, {"colors.muted"}},
    {"colors.connections", TO, {"header.contact_color"}},
    {"colors.section_titles", TO, {"section_title.color", "section_title.rule_color"}},
    {"colors.links", TO, {"colors.link"}},
    {"colors.footer", TO, {"page_footer.color"}},
    {"colors.top_note", TO, {"page_header.color"}},
    {"typography", GROUP, {0}},
    {"typography.line_spacing", SPACING, {"font.line_spacing"}},
    {"typography.alignment", ALIGN_BODY, {0}},
    {"typography.date_and_location_column_alignment", TO, {"entry.side_align"}},
    {"typography.font_family", FONT, {0}},
    {"typography.font_size", GROUP, {0}},
    {"typography.font_size.body", LEN, {"font.size"}},
    {"typography.font_size.name", LEN, {"header.name_size"}},
    {"typography.font_size.headline", LEN, {"header.headline_size"}},
    {"typography.font_size.connections", LEN, {"header.contact_size"}},
    {"typography.font_size.section_titles", LEN, {"section_title.size"}},
    {"typography.small_caps", GROUP, {0}},
    {"typography.small_caps.name", TO, {"header.name_small_caps"}},
    {"typography.small_caps.headline", TO, {"header.headline_small_caps"}},
    {"typography.small_caps.connections", TO, {"header.contact_small_caps"}},
    {"typography.small_caps.section_titles", TO, {"section_title.small_caps"}},
    {"typography.bold", GROUP, {0}},
    {"typography.bold.name", TO, {"header.name_bold"}},
    {"typography.bold.headline", TO, {"header.headline_bold"}},
    {"typography.bold.connections", TO, {"header.contact_bold"}},
    {"typography.bold.section_titles", TO, {"section_title.bold"}},
    {"links", GROUP, {0}},
    {"links.underline", TO, {"links.underline"}},
    {"links.show_external_link_icon", TO, {"links.external_icon"}},
    {"header", GROUP, {0}},
    {"header.alignment", TO, {"header.align"}},
    {"header.photo_width", LEN, {"photo.width"}},
    {"header.photo_position", TO, {"photo.position"}},
    {"header.photo_space_left", DELTA, {"photo.space_left"}},
    {"header.photo_space_right", LEN, {"photo.gap"}},
    {"header.space_below_name", DELTA, {"header.space_below_name"}},
    {"header.space_below_headline", DELTA, {"header.space_below_headline"}},
    {"header.space_below_connections", LEN, {"header.space_after"}},
    {"header.connections", GROUP, {0}},
    {"header.connections.phone_number_format", KEEP, {0}},
    {"header.connections.hyperlink", TO, {"header.contact_links"}},
    {"header.connections.show_icons", TO, {"header.icons"}},
    {"header.connections.display_urls_instead_of_usernames", TO, {"header.contact_urls"}},
    {"header.connections.separator", SEPARATOR, {"header.contact_separator"}},
    {"header.connections.space_between_connections", LEN, {"header.contact_gap"}},
    {"section_titles", GROUP, {0}},
    {"section_titles.type", TITLE_TYPE, {"section_title.rule"}},
    {"section_titles.line_thickness", LEN, {"section_title.rule_width"}},
    {"section_titles.space_above", LEN, {"section_title.space_before"}},
    {"section_titles.space_below", LEN, {"section_title.space_after"}},
    {"sections", GROUP, {0}},
    {"sections.allow_page_break", NOT, {"pagination.keep_sections"}},
    {"sections.space_between_regular_entries", LEN, {"entry.space_between"}},
    {"sections.space_between_text_based_entries", LEN, {"entry.text_space_between"}},
    {"sections.show_time_spans_in", KEEP, {0}},
    {"entries", GROUP, {0}},
    {"entries.date_and_location_width", LEN, {"entry.side_width"}},
    {"entries.side_space", LEN, {"entry.side_space"}},
    {"entries.space_between_columns", LEN, {"entry.side_gap"}},
    {"entries.allow_page_break", NOT, {"pagination.keep_entries"}},
    {"entries.short_second_row", KEEP, {0}},
    {"entries.degree_width", KEEP, {0}},
    {"entries.summary", GROUP, {0}},
    {"entries.summary.space_above", LEN, {"entry.summary_space_before"}},
    {"entries.summary.space_left", LEN, {"entry.summary_indent"}},
    {"entries.highlights", GROUP, {0}},
    {"entries.highlights.bullet", BULLET, {"bullets.glyph"}},
    {"entries.highlights.nested_bullet", BULLET, {"bullets.sub_glyph"}},
    {"entries.highlights.space_left", LEN, {"bullets.indent"}},
    {"entries.highlights.space_above", LEN, {"entry.block_gap"}},
    {"entries.highlights.space_between_items", LEN, {"bullets.space_between"}},
    {"entries.highlights.space_between_bullet_and_text", LEN, {"bullets.text_gap"}},
    {"templates", GROUP, {0}},
    {"templates.footer", TO, {"page_footer.center"}},
    {"templates.top_note", TO, {"page_header.right"}},
    {"templates.single_date", KEEP, {0}},
    {"templates.date_range", KEEP, {0}},
    {"templates.time_span", KEEP, {0}},
    {"templates.one_line_entry", GROUP, {0}},
    {"templates.one_line_entry.main_column", TEMPLATE, {"templates.one_line.main"}},
    {"templates.education_entry", GROUP, {0}},
    {"templates.education_entry.main_column", TEMPLATE, {"templates.education.main"}},
    {"templates.education_entry.degree_column", TEMPLATE,
     {"templates.education.degree"}},
    {"templates.education_entry.date_and_location_column", TEMPLATE,
     {"templates.education.side"}},
    {"templates.normal_entry", GROUP, {0}},
    {"templates.normal_entry.main_column", TEMPLATE, {"templates.normal.main"}},
    {"templates.normal_entry.date_and_location_column", TEMPLATE, {"templates.normal.side"}},
    {"templates.experience_entry", GROUP, {0}},
    {"templates.experience_entry.main_column", TEMPLATE, {"templates.experience.main"}},
    {"templates.experience_entry.date_and_location_column", TEMPLATE,
     {"templates.experience.side"}},
    {"templates.publication_entry", GROUP, {0}},
    {"templates.publication_entry.main_column", TEMPLATE, {"templates.publication.main"}},
    {"templates.publication_entry.date_and_location_column", TEMPLATE,
     {"templates.publication.side"}},
};
#define NOPTS (sizeof opts / sizeof *opts)

typedef struct walk {
    cv_arena *a;
    cv_design *d;
    cv_yml *layout;
    float body;              /* the body size, for em */
    cv_strbuf unmapped;      /* options without a counterpart, for the note */
    int short_row;           /* entries.short_second_row: 1, -1, 0 unset */
    const char *theme;       /* design.theme, for DELTA's defaults */
    float cap;               /* the body face's cap height, em (SPACING) */
    float degree_w;          /* entries.degree_width, points */
    bool has_degree_w;
    cv_pos first_unmapped;
    cv_error *err;
    bool custom;             /* a custom theme's folder: classic's look */
} walk;

static const opt *find(const char *path)
{
    for (size_t i = 0; i < NOPTS; i++)
        if (!strcmp(opts[i].path, path))
            return &opts[i];
    return NULL;
}

static bool str_of(walk *w, const cv_yml *v, const char **out)
{
    if (cv_yml_is_null(v)) {
        *out = NULL;
        return true;
    }
    return cv_yml_str(v, out, w->err);
}

static void to_all(walk *w, const opt *o, cv_yml *v)
{
    v = copy(w->a, v);
    for (int i = 0; i < 3 && o->to[i]; i++)
        put(w->a, w->layout, o->to[i], v);
}

static bool apply(walk *w, const opt *o, const cv_yml *v)
{
    cv_arena *a = w->a;
    const char *s = NULL;
    switch (o->act) {
    case TO:
        if (!cv_yml_is_null(v))
            to_all(w, o, (cv_yml *)v);
        else if (!strncmp(o->path, "templates.", 10))
            to_all(w, o, null_at(a, v->pos));     /* an empty footer: none */
        return true;
    case LEN: {
        if (cv_yml_is_null(v))
            return true;
        cv_yml *l = length(a, v, w->body);
        float pt;
        float minus = minus_of(o->path);
        if (minus > 0 && l->kind == CV_YML_SCALAR && cv_parse_length(l->str, &pt))
            l = scalar(a, cv_arena_printf(a, "%.3fpt", pt > minus ? pt - minus : 0), v->pos);
        to_all(w, o, l);
        return true;
    }
    case SPACING: {
        if (!str_of(w, v, &s))
            return false;
        if (!s)
            return true;
        char *end;
        double x = strtod(s, &end);
        while (*end == ' ')
            end++;
        /* Typst's leading is the gap from one line's baseline to the
         * next line's cap height: a line is the body face's cap height
         * plus the leading. */
        double ls = !strcmp(end, "em") ? w->cap + x : !strcmp(end, "pt") ? w->cap + x / w->body
                                                                         : -1;
        if (ls <= 0 || end == s)
            return cv_error_at(w->err, v->pos, "line_spacing must be a length such as "
                               "0.6em, not '%s'", s);
        to_all(w, o, scalar(a, cv_arena_printf(a, "%.3f", ls), v->pos));
        return true;
    }
    case FONT: {
        /* One family for everything, or one per part: body, name,
         * headline, connections, section_titles (RenderCV's keys), each
         * onto its layout key; a part the mapping leaves out keeps the
         * theme's. */
        static const char *const keys[] = {"body", "name", "headline", "connections",
                                           "section_titles", NULL};
        static const char *const to[] = {"font.family", "header.name_font",
                                         "header.headline_font", "header.contact_font",
                                         "section_title.font"};
        if (v->kind == CV_YML_MAP &&
            !cv_yml_check_keys(v, keys, "typography.font_family", w->err))
            return false;
        for (size_t k = 0; keys[k]; k++) {
            const cv_yml *f = v->kind == CV_YML_MAP ? cv_yml_get(v, keys[k]) : v;
            if (!f)
                continue;
            if (!str_of(w, f, &s))
                return false;
            /* One family (a string) is every part's, whatever the theme
             * gave them. */
            if (s)
                put(a, w->layout, to[k], scalar(a, font_for(s), f->pos));
        }
        return true;
    }
    case ALIGN_BODY:
        if (!str_of(w, v, &s))
            return false;
        if (!s)
            return true;
        if (strcmp(s, "left") && strcmp(s, "justified") &&
            strcmp(s, "justified-with-no-hyphenation"))
            return cv_error_at(w->err, v->pos, "typography.alignment is left, justified or "
                               "justified-with-no-hyphenation, not '%s'", s);
        put(a, w->layout, "text.justify", scalar(a, strcmp(s, "left") ? "true" : "false",
                                                 v->pos));
        put(a, w->layout, "text.hyphenate",
            scalar(a, strcmp(s, "justified") ? "false" : "true", v->pos));
        return true;
    case SIZE:
        if (!str_of(w, v, &s))
            return false;
        if (s && !strcasecmp(s, "us-executive")) {
            cv_yml *seq = cv_arena_alloc(a, sizeof *seq);
            seq->kind = CV_YML_SEQ;
            seq->pos = v->pos;
            seq->items = cv_arena_alloc(a, sizeof *seq->items * 2);
            seq->items[0] = scalar(a, "7.25in", v->pos);
            seq->items[1] = scalar(a, "10.5in", v->pos);
            seq->n = 2;
            to_all(w, o, seq);
        } else if (s) {
            to_all(w, o, (cv_yml *)v);
        }
        return true;
    case SHOW: {
        bool on;
        if (cv_yml_is_null(v))
            return true;
        if (!cv_yml_bool(v, &on, w->err))
            return false;
        if (!on) {
            static const char *const slots[] = {"left", "center", "right"};
            for (int i = 0; i < 3; i++)
                put(a, w->layout, cv_arena_printf(a, "%s.%s", o->to[0], slots[i]),
                    null_at(a, v->pos));
        }
        return true;
    }
    case TITLE_TYPE: {
        static const char *const types[] = {
            "with_partial_line", "with_full_line", "without_line", "moderncv",
            "centered_without_line", "centered_with_partial_line",
            "centered_with_centered_partial_line", "centered_with_full_line", NULL};
        if (!str_of(w, v, &s))
            return false;
        if (!s)
            return true;
        bool ok = false;
        for (size_t i = 0; types[i]; i++)
            ok |= !strcmp(types[i], s);
        if (!ok)
            return cv_error_at(w->err, v->pos, "unknown section title type '%s' (one of: "
                               "with_partial_line, with_full_line, without_line, moderncv, "
                               "centered_without_line, centered_with_partial_line, "
                               "centered_with_centered_partial_line, "
                               "centered_with_full_line)", s);
        to_all(w, o, scalar(a, strstr(s, "without_line") ? "false" : "true", v->pos));
        put(a, w->layout, "section_title.align",
            scalar(a, !strncmp(s, "centered", 8) ? "center" : "left", v->pos));
        /* Partial lines run on from the title: after it (with_partial_line,
         * moderncv), or on both sides of a centred one, at its middle or
         * on its baseline (centered_with_partial_line). */
        put(a, w->layout, "section_title.rule_beside",
            scalar(a, strstr(s, "partial_line") || !strcmp(s, "moderncv") ? "true" : "false",
                   v->pos));
        put(a, w->layout, "section_title.rule_baseline",
            scalar(a, !strcmp(s, "centered_with_partial_line") ? "true" : "false", v->pos));
        /* moderncv: the date column left of every entry (RenderCV's grid of
         * date column and main column); the other types: on the right. */
        put(a, w->layout, "entry.side_left",
            scalar(a, !strcmp(s, "moderncv") ? "true" : "false", v->pos));
        return true;
    }
    case SEPARATOR:
        if (!str_of(w, v, &s))
            return false;
        /* RenderCV puts space_between_connections around the separator. */
        to_all(w, o, scalar(a, s && *s ? cv_arena_printf(a, "  %s  ", s) : "     ",
                            v->pos));
        return true;
    case BULLET:
        if (cv_yml_is_null(v))
            return true;
        /* RenderCV 2.8 draws "●" as text(13pt, [•], baseline: -0.6pt), its
         * other marks as text (Preamble.j2.typ); the top-level mark's size
         * and raise are the layout's, so any other mark resets them. */
        bool disc = v->kind == CV_YML_SCALAR && !strcmp(v->str, "\xE2\x97\x8F");    /* ● */
        to_all(w, o, disc ? scalar(a, "\xE2\x80\xA2", v->pos) : (cv_yml *)v);     /* • */
        if (!strcmp(o->to[0], "bullets.glyph")) {
            put(a, w->layout, "bullets.size",
                scalar(a, disc ? "13pt" : cv_arena_printf(a, "%gpt", w->body), v->pos));
            put(a, w->layout, "bullets.raise", scalar(a, disc ? "0.6pt" : "0pt", v->pos));
        }
        return true;
    case TEMPLATE:
        to_all(w, o, lines(a, v));
        return true;
    case DELTA: {
        if (cv_yml_is_null(v))
            return true;
        cv_yml *l = length(a, v, w->body);
        float pt;
        if (l->kind != CV_YML_SCALAR || !cv_parse_length(l->str, &pt))
            return cv_error_at(w->err, v->pos, "expected a length such as 0.5cm");
        for (size_t i = 0; i < sizeof theme_gaps / sizeof *theme_gaps; i++)
            if (!strcmp(theme_gaps[i].path, o->path)) {
                float x = theme_gaps[i].base + pt - theme_default(&theme_gaps[i], w->theme);
                to_all(w, o, scalar(a, cv_arena_printf(a, "%.3fpt", x > 0 ? x : 0), v->pos));
            }
        return true;
    }
    case NOT: {
        bool on;
        if (cv_yml_is_null(v))
            return true;
        if (!cv_yml_bool(v, &on, w->err))
            return false;
        to_all(w, o, scalar(a, on ? "false" : "true", v->pos));
        return true;
    }
    case KEEP:
    case NONE:
    case GROUP:
        return true;
    }
    return true;
}

static bool keep(walk *w, const char *path, const cv_yml *v)
{
    cv_design *d = w->d;
    const char *s;
    if (!strcmp(path, "theme")) {
        if (!cv_yml_str(v, &s, w->err))
            return false;
        for (size_t i = 0; cv_design_themes[i]; i++)
            if (!strcmp(cv_design_themes[i], s)) {
                d->theme = s;
                return true;
            }
        if (w->custom) {
            d->theme = "classic";
            return true;
        }
        const char *sug = cv_suggest(s, cv_design_themes);
        return cv_error_at(w->err, v->pos, "unknown theme '%s'%s%s%s (one of: classic, "
                           "engineeringresumes, engineeringclassic, sb2nov, moderncv, harvard, "
                           "ink, opal, ember)", s, sug ? " (did you mean '" : "",
                           sug ? sug : "", sug ? "'?)" : "");
    }
    if (!strcmp(path, "sections.show_time_spans_in")) {
        if (cv_yml_is_null(v))
            return true;
        if (v->kind != CV_YML_SEQ)
            return cv_error_at(w->err, v->pos, "show_time_spans_in must be a list of section "
                               "titles, not %s", cv_yml_kind_name(v->kind));
        for (size_t i = 0; i < v->n; i++)
            if (!cv_yml_str(v->items[i], &s, w->err))
                return false;
        put(w->a, w->layout, "dates.show_time_spans_in", copy(w->a, v));
        return true;
    }
    if (!strcmp(path, "entries.short_second_row")) {
        /* true: the date and location column runs beside the whole entry
         * (entry.side_width); false: beside its first lines only. */
        bool on;
        if (cv_yml_is_null(v))
            return true;
        if (!cv_yml_bool(v, &on, w->err))
            return false;
        w->short_row = on ? 1 : -1;     /* applied after the walk */
        return true;
    }
    if (!strcmp(path, "entries.degree_width")) {
        /* entry.degree_width holds the column and its gap: applied after
         * the walk, with space_between_columns. */
        if (!cv_yml_is_null(v)) {
            cv_yml *l = length(w->a, v, w->body);
            if (l->kind != CV_YML_SCALAR || !cv_parse_length(l->str, &w->degree_w))
                return cv_error_at(w->err, v->pos, "expected a length such as 1cm");
            w->has_degree_w = true;
        }
        return true;
    }
    if (!str_of(w, v, &s))
        return false;
    if (!strcmp(path, "header.connections.phone_number_format")) {
        if (s && strcmp(s, "national") && strcmp(s, "international") && strcmp(s, "E164"))
            return cv_error_at(w->err, v->pos, "phone_number_format is national, "
                               "international or E164, not '%s'", s);
        put(w->a, w->layout, "header.phone_format", scalar(w->a, s ? s : "as_written", v->pos));
    } else if (!strcmp(path, "templates.single_date")) {
        /* Empty: RenderCV's default, set after the walk. */
        if (s && *s)
            put(w->a, w->layout, "dates.single", scalar(w->a, s, v->pos));
    } else if (!strcmp(path, "templates.date_range")) {
        if (s)
            put(w->a, w->layout, "dates.range", scalar(w->a, s, v->pos));
    } else if (!strcmp(path, "templates.time_span")) {
        put(w->a, w->layout, "dates.time_span", scalar(w->a, s ? s : "", v->pos));
    }
    return true;
}

/* Walk the mapping `m` at `path` ("" for design: itself). */
static bool walk_map(walk *w, const cv_yml *m, const char *path)
{
    const char *allowed[40];
    size_t na = 0, pl = strlen(path);
    for (size_t i = 0; i < NOPTS && na < 39; i++) {
        const char *p = opts[i].path;
        if (pl ? !strncmp(p, path, pl) && p[pl] == '.' && !strchr(p + pl + 1, '.')
               : !strchr(p, '.'))
            allowed[na++] = p + (pl ? pl + 1 : 0);
    }
    allowed[na] = NULL;
    char what[80];
    snprintf(what, sizeof what, "design%s%s", pl ? "." : "", path);
    if (m->kind != CV_YML_MAP)
        return cv_error_at(w->err, m->pos, "'%s' must be a mapping, not %s", what,
                           cv_yml_kind_name(m->kind));
    if (!cv_yml_check_keys(m, allowed, what, w->err))
        return false;
    for (size_t i = 0; i < m->n; i++) {
        const char *sub = pl ? cv_arena_printf(w->a, "%s.%s", path, m->keys[i]->str)
                             : m->keys[i]->str;
        const opt *o = find(sub);
        const cv_yml *v = m->items[i];
        if (o->act == GROUP) {
            if (!cv_yml_is_null(v) && !walk_map(w, v, sub))
                return false;
            continue;
        }
        if (o->act == NONE && !cv_yml_is_null(v)) {
            if (!w->unmapped.n)
                w->first_unmapped = m->keys[i]->pos;
            if (w->unmapped.n)
                cv_strbuf_put(w->a, &w->unmapped, ", ", 2);
            cv_strbuf_put(w->a, &w->unmapped, sub, strlen(sub));
        }
        if (!(o->act == KEEP ? keep(w, sub, v) : apply(w, o, v)))
            return false;
    }
    return true;
}

/* Is `th` a custom theme, as RenderCV finds one: no theme of its own, a
 * name of lowercase letters and digits, and a folder of that name beside
 * the file that names it (the working directory for the standard input)? */
static bool custom_theme(cv_arena *a, const cv_yml *th)
{
    for (size_t i = 0; cv_design_themes[i]; i++)
        if (!strcmp(cv_design_themes[i], th->str))
            return false;
    for (const char *p = th->str; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
            return false;
    const char *file = th->pos.file, *slash = file ? strrchr(file, '/') : NULL;
    const char *dir = slash ? cv_arena_strndup(a, file, (size_t)(slash - file + 1)) : "";
    struct stat st;
    return *th->str && stat(cv_arena_printf(a, "%s%s", dir, th->str), &st) == 0 &&
           S_ISDIR(st.st_mode);
}

bool cv_design_read(cv_arena *a, const cv_yml *design, cv_design *out, cv_error *err)
{
    memset(out, 0, sizeof *out);
    out->theme = "classic";
    if (!design || cv_yml_is_null(design))
        return true;
    out->pos = design->pos;
    walk w = {a, out, cv_yml_map(a, design->pos), 10, {0}, 0, "classic", 0.7f, 0, false, {0},
              err, false};
    const cv_yml *th = cv_yml_get(design, "theme");
    if (th && th->kind == CV_YML_SCALAR && th->str)
        w.theme = th->str;
    if (th && th->kind == CV_YML_SCALAR && th->str && custom_theme(a, th)) {
        cv_warn(err, th->pos, "theme '%s' is a custom RenderCV theme (the folder '%s' beside "
                "the profile holds its templates), which cvpdf cannot run: classic's look, "
                "with this design's options over it", th->str, th->str);
        w.theme = "classic";
        w.custom = true;
    }
    w.cap = body_cap(design, w.theme);
    /* The body size first: em lengths are relative to it. */
    const cv_yml *fs = cv_yml_get(cv_yml_get(cv_yml_get(design, "typography"), "font_size"),
                                  "body");
    float body;
    if (fs && fs->kind == CV_YML_SCALAR && cv_parse_length(fs->str, &body) && body > 0)
        w.body = body;
    if (!walk_map(&w, design, ""))
        return false;
    /* short_second_row: true, the date and location column runs beside
     * the whole entry (entry.side_width); false, beside its first lines. */
    const cv_yml *ssr = cv_yml_get(cv_yml_get(design, "entries"), "short_second_row");
    /* Section titles of the moderncv type put the date column left of the
     * whole entry, whatever short_second_row says (RenderCV 2.0 to 2.8). */
    const cv_yml *tt = cv_yml_get(cv_yml_get(design, "section_titles"), "type");
    bool moderncv = tt && tt->kind == CV_YML_SCALAR && tt->str
                        ? !strcmp(tt->str, "moderncv")
                        : !strcmp(w.theme, "moderncv");
    if (w.short_row < 0 && !moderncv)
        put(a, w.layout, "entry.side_width", scalar(a, "0", ssr->pos));
    else if (w.short_row < 0 && !cv_yml_get(cv_yml_get(w.layout, "entry"), "side_width"))
        put(a, w.layout, "entry.side_width", scalar(a, "4.15cm", ssr->pos));
    else if (w.short_row > 0 && !cv_yml_get(cv_yml_get(w.layout, "entry"), "side_width"))
        put(a, w.layout, "entry.side_width", scalar(a, "4.15cm", ssr->pos));
    /* The degree column: entries.degree_width (1cm unless given) and the
     * gap after it (space_between_columns, 0.1cm unless given), when the
     * width or a degree_column template is given. */
    const cv_yml *tedu = cv_yml_get(cv_yml_get(design, "templates"), "education_entry");
    const cv_yml *dcol = cv_yml_get(tedu, "degree_column");
    if (w.has_degree_w || (dcol && !cv_yml_is_null(dcol))) {
        const cv_yml *sbc = cv_yml_get(cv_yml_get(design, "entries"), "space_between_columns");
        float gap = 2.835f, dwid = w.has_degree_w ? w.degree_w : 28.35f;
        if (sbc && sbc->kind == CV_YML_SCALAR) {
            cv_yml *l = length(a, sbc, w.body);
            if (l->kind == CV_YML_SCALAR)
                cv_parse_length(l->str, &gap);
        }
        put(a, w.layout, "entry.degree_width",
            scalar(a, cv_arena_printf(a, "%.3fpt", dwid + gap),
                   w.has_degree_w ? cv_yml_get(cv_yml_get(design, "entries"),
                                               "degree_width")->pos
                                  : dcol->pos));
    }
    /* RenderCV keeps a near-empty last page: so does a RenderCV file, for
     * RenderCV's page counts (the theme layouts pull one back for a
     * profile set in them with -l). */
    if (!cv_yml_get(cv_yml_get(w.layout, "pagination"), "pull_back_last_page"))
        put(a, w.layout, "pagination.pull_back_last_page", scalar(a, "false", design->pos));
    /* show_footer / show_top_note: false hide them whatever the templates say. */
    static const char *const shows[][2] = {{"show_footer", "page_footer"},
                                           {"show_top_note", "page_header"}};
    for (size_t k = 0; k < 2; k++) {
        const cv_yml *v = cv_yml_get(cv_yml_get(design, "page"), shows[k][0]);
        bool on = true;
        if (v && !cv_yml_is_null(v) && cv_yml_bool(v, &on, err) && !on) {
            static const char *const slots[] = {"left", "center", "right"};
            for (int i = 0; i < 3; i++)
                put(a, w.layout, cv_arena_printf(a, "%s.%s", shows[k][1], slots[i]),
                    null_at(a, v->pos));
        } else if (v && !cv_yml_is_null(v) && on && k == 0 &&
                   !cv_yml_get(cv_yml_get(design, "templates"), "footer") &&
                   (!strcmp(w.theme, "engineeringresumes") || !strcmp(w.theme, "opal"))) {
            /* show_footer: true asks for the footer in the themes that
             * have none: RenderCV's default footer, as classic sets it. */
            put(a, w.layout, "page_footer.center",
                scalar(a, "*NAME \xE2\x80\x93 PAGE_NUMBER/TOTAL_PAGES*", v->pos));
        }
    }
    /* RenderCV's default phone format, in every theme. */
    if (!cv_yml_get(cv_yml_get(cv_yml_get(design, "header"), "connections"),
                    "phone_number_format"))
        put(a, w.layout, "header.phone_format", scalar(a, "national", design->pos));
    /* RenderCV's dates, in every theme: its date template (in every
     * language: not the language's own form) and its English month
     * abbreviations (June, July, Sept). */
    if (!cv_yml_get(cv_yml_get(w.layout, "dates"), "single"))
        put(a, w.layout, "dates.single", scalar(a, "MONTH_ABBREVIATION YEAR", design->pos));
    static const char *const abbr[12] = {"Jan", "Feb", "Mar", "Apr", "May", "June",
                                         "July", "Aug", "Sept", "Oct", "Nov", "Dec"};
    put(a, w.layout, "dates.english_month_abbreviations", list(a, abbr, 12, design->pos));
    /* classic alone shows time spans by default, in experience. */
    if (!cv_yml_get(cv_yml_get(design, "sections"), "show_time_spans_in") &&
        !strcmp(out->theme, "classic")) {
        static const char *const exp[] = {"experience"};
        put(a, w.layout, "dates.show_time_spans_in", list(a, exp, 1, design->pos));
    }
    out->layout = w.layout;
    if (w.unmapped.n)
        cv_note(err, w.first_unmapped, "these design options have no effect in cvpdf yet "
                "(docs/rendercv.md): %s", w.unmapped.s);
    return true;
}
