/* rcvold.c - older RenderCV files as RenderCV 2.8's.  See rcvold.h.
 *
 * Each older model is a table of rules: an option's path in that
 * version's `design:` (or locale, or settings), the path or paths it has
 * in RenderCV 2.8 and how its value changes on the way (a length loses
 * the space 1.x allowed in "2 cm", a `disable_` flag is negated, ...).
 * The tables were written from each release's documented options; the
 * values are the file's own nodes, so that later messages point into it.
 */
#include "rcvold.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

/* ---- Trees ------------------------------------------------------------- */

/* The node at dotted `path`, or NULL. */
static const cv_yml *at(const cv_yml *m, const char *path)
{
    char key[64];
    while (m && *path) {
        const char *dot = strchr(path, '.');
        size_t n = dot ? (size_t)(dot - path) : strlen(path);
        if (n >= sizeof key || m->kind != CV_YML_MAP)
            return NULL;
        memcpy(key, path, n);
        key[n] = 0;
        m = cv_yml_get(m, key);
        path = dot ? dot + 1 : path + n;
    }
    return m;
}

/* ---- Conversions ------------------------------------------------------- */

typedef enum {
    SAME,      /* as written */
    LEN,       /* a length: "2 cm" -> "2cm" */
    NOT,       /* a boolean negated (disable_...) */
    SIZE1,     /* 1.x page_size: a4paper, letterpaper */
    ALIGN1,    /* 1.x text_alignment: left-aligned */
    SEP1,      /* 1.x separator: LaTeX math "$|$" */
    TYPE2,     /* 2.0 section title type: with-partial-line */
    FONT1,     /* 1.x font: LaTeX families */
    TODAY,     /* a template: TODAY -> CURRENT_DATE, FULL_MONTH_NAME -> MONTH_NAME */
    YEARS,     /* moderncv's show_only_years: true -> single_date YEAR */
    DROP,      /* no counterpart in 2.8: a warning names it */
    ROW1,      /* 2.0 main column, first row: joined with the second */
    ROW2,      /* 2.0 main column, second row */
    LEAD2      /* 2.0 list spacing, which replaced the leading: less the leading */
} conv;

typedef struct rule {
    const char *from;
    conv c;
    const char *to[4];
} rule;

/* RenderCV 1.0 to 1.18: design: (every theme's keys; moderncv's date_width,
 * content_scale, show_only_years, disable_page_numbers). */
static const rule rules1[] = {
    {"theme", SAME, {"theme"}},
    {"font", FONT1, {"typography.font_family"}},
    {"font_size", LEN, {"typography.font_size.body"}},
    {"header_font_size", LEN, {"typography.font_size.name"}},
    {"page_size", SIZE1, {"page.size"}},
    {"color", SAME, {"colors.name", "colors.connections", "colors.section_titles",
                     "colors.links"}},
    {"disable_page_numbering", NOT, {"page.show_footer"}},
    {"disable_page_numbers", NOT, {"page.show_footer"}},
    {"page_numbering_style", TODAY, {"templates.footer"}},
    {"show_last_updated_date", SAME, {"page.show_top_note"}},
    {"disable_last_updated_date", NOT, {"page.show_top_note"}},
    {"last_updated_date_style", TODAY, {"templates.top_note"}},
    {"text_alignment", ALIGN1, {"typography.alignment"}},
    {"seperator_between_connections", SEP1, {"header.connections.separator"}},
    {"use_icons_for_connections", SAME, {"header.connections.show_icons"}},
    {"disable_external_link_icons", NOT, {"links.show_external_link_icon"}},
    {"show_timespan_in", SAME, {"sections.show_time_spans_in"}},
    {"date_width", LEN, {"entries.date_and_location_width"}},
    {"content_scale", DROP, {0}},
    {"show_only_years", YEARS, {"templates.single_date"}},
    {"margins.page.top", LEN, {"page.top_margin"}},
    {"margins.page.bottom", LEN, {"page.bottom_margin"}},
    {"margins.page.left", LEN, {"page.left_margin"}},
    {"margins.page.right", LEN, {"page.right_margin"}},
    {"margins.section_title.top", LEN, {"section_titles.space_above"}},
    {"margins.section_title.bottom", LEN, {"section_titles.space_below"}},
    {"margins.entry_area.left_and_right", LEN, {"entries.side_space"}},
    {"margins.entry_area.vertical_between", LEN, {"sections.space_between_regular_entries"}},
    {"margins.entry_area.date_and_location_width", LEN, {"entries.date_and_location_width"}},
    {"margins.entry_area.education_degree_width", LEN, {"entries.degree_width"}},
    {"margins.entry_area.bullet_width", DROP, {0}},
    {"margins.highlights_area.top", LEN, {"entries.highlights.space_above"}},
    {"margins.highlights_area.left", LEN, {"entries.highlights.space_left"}},
    {"margins.highlights_area.vertical_between_bullet_points", LEN,
     {"entries.highlights.space_between_items"}},
    {"margins.header.vertical_between_name_and_connections", LEN, {"header.space_below_name"}},
    {"margins.header.bottom", LEN, {"header.space_below_connections"}},
    {"margins.header.horizontal_between_connections", LEN,
     {"header.connections.space_between_connections"}},
    {NULL, SAME, {0}}};

/* RenderCV 2.0 to 2.3: design: (a key not listed, such as one of 2.8's,
 * is kept where it is and checked as 2.8's).  Its gaps between entries,
 * above highlights and between them replaced the leading (Typst's list
 * spacing, par spacing 0pt); 2.8's are added to it (LEAD2). */
static const rule rules2[] = {
    {"page.show_page_numbering", SAME, {"page.show_footer"}},
    {"page.show_last_updated_date", SAME, {"page.show_top_note"}},
    {"colors.text", SAME, {"colors.body"}},
    {"colors.last_updated_date_and_page_numbering", SAME, {"colors.footer", "colors.top_note"}},
    {"text.font_family", SAME, {"typography.font_family.body"}},
    {"text.font_size", SAME, {"typography.font_size.body"}},
    {"text.leading", SAME, {"typography.line_spacing"}},
    {"text.alignment", SAME, {"typography.alignment"}},
    {"text.date_and_location_column_alignment", SAME,
     {"typography.date_and_location_column_alignment"}},
    {"links.use_external_link_icon", SAME, {"links.show_external_link_icon"}},
    {"header.name_font_size", SAME, {"typography.font_size.name"}},
    {"header.name_bold", SAME, {"typography.bold.name"}},
    {"header.small_caps_for_name", SAME, {"typography.small_caps.name"}},
    {"header.name_font_family", SAME, {"typography.font_family.name"}},
    {"header.connections_font_family", SAME, {"typography.font_family.connections"}},
    {"header.vertical_space_between_name_and_connections", SAME, {"header.space_below_name"}},
    {"header.vertical_space_between_connections_and_first_section", SAME,
     {"header.space_below_connections"}},
    {"header.horizontal_space_between_connections", SAME,
     {"header.connections.space_between_connections"}},
    {"header.separator_between_connections", SAME, {"header.connections.separator"}},
    {"header.use_icons_for_connections", SAME, {"header.connections.show_icons"}},
    {"header.use_urls_as_placeholders_for_connections", SAME,
     {"header.connections.display_urls_instead_of_usernames"}},
    {"header.make_connections_links", SAME, {"header.connections.hyperlink"}},
    {"section_titles.type", TYPE2, {"section_titles.type"}},
    {"section_titles.line_type", TYPE2, {"section_titles.type"}},
    {"section_titles.font_size", SAME, {"typography.font_size.section_titles"}},
    {"section_titles.bold", SAME, {"typography.bold.section_titles"}},
    {"section_titles.small_caps", SAME, {"typography.small_caps.section_titles"}},
    {"section_titles.font_family", SAME, {"typography.font_family.section_titles"}},
    {"section_titles.vertical_space_above", SAME, {"section_titles.space_above"}},
    {"section_titles.vertical_space_below", SAME, {"section_titles.space_below"}},
    {"entries.left_and_right_margin", SAME, {"entries.side_space"}},
    {"entries.horizontal_space_between_columns", SAME, {"entries.space_between_columns"}},
    {"entries.vertical_space_between_entries", LEAD2,
     {"sections.space_between_regular_entries"}},
    {"entries.allow_page_break_in_entries", SAME, {"entries.allow_page_break"}},
    {"entries.allow_page_break_in_sections", SAME, {"sections.allow_page_break"}},
    {"entries.show_time_spans_in", SAME, {"sections.show_time_spans_in"}},
    {"highlights.bullet", SAME, {"entries.highlights.bullet"}},
    {"highlights.nested_bullet", SAME, {"entries.highlights.nested_bullet"}},
    {"highlights.top_margin", LEAD2, {"entries.highlights.space_above"}},
    {"highlights.left_margin", SAME, {"entries.highlights.space_left"}},
    {"highlights.vertical_space_between_highlights", LEAD2,
     {"entries.highlights.space_between_items"}},
    {"highlights.horizontal_space_between_bullet_and_highlight", SAME,
     {"entries.highlights.space_between_bullet_and_text"}},
    {"highlights.summary_left_margin", SAME, {"entries.summary.space_left"}},
    {"entry_types.one_line_entry.template", SAME, {"templates.one_line_entry.main_column"}},
    {"entry_types.education_entry.main_column_first_row_template", ROW1,
     {"templates.education_entry.main_column"}},
    {"entry_types.education_entry.main_column_second_row_template", ROW2,
     {"templates.education_entry.main_column"}},
    {"entry_types.education_entry.degree_column_template", SAME,
     {"templates.education_entry.degree_column"}},
    {"entry_types.education_entry.degree_column_width", SAME, {"entries.degree_width"}},
    {"entry_types.education_entry.date_and_location_column_template", SAME,
     {"templates.education_entry.date_and_location_column"}},
    {"entry_types.normal_entry.main_column_first_row_template", ROW1,
     {"templates.normal_entry.main_column"}},
    {"entry_types.normal_entry.main_column_second_row_template", ROW2,
     {"templates.normal_entry.main_column"}},
    {"entry_types.normal_entry.date_and_location_column_template", SAME,
     {"templates.normal_entry.date_and_location_column"}},
    {"entry_types.experience_entry.main_column_first_row_template", ROW1,
     {"templates.experience_entry.main_column"}},
    {"entry_types.experience_entry.main_column_second_row_template", ROW2,
     {"templates.experience_entry.main_column"}},
    {"entry_types.experience_entry.date_and_location_column_template", SAME,
     {"templates.experience_entry.date_and_location_column"}},
    {"entry_types.publication_entry.main_column_first_row_template", ROW1,
     {"templates.publication_entry.main_column"}},
    {"entry_types.publication_entry.main_column_second_row_template", ROW2,
     {"templates.publication_entry.main_column"}},
    {"entry_types.publication_entry.main_column_second_row_without_journal_template", DROP,
     {0}},
    {"entry_types.publication_entry.main_column_second_row_without_url_template", DROP, {0}},
    {"entry_types.publication_entry.date_and_location_column_template", SAME,
     {"templates.publication_entry.date_and_location_column"}},
    {NULL, SAME, {0}}};

/* rendercv_settings (1.14 to 2.3) as settings. */
static const rule rules_settings[] = {
    {"date", SAME, {"current_date"}},
    {"bold_keywords", SAME, {"bold_keywords"}},
    {"sort_entries", DROP, {0}},
    {"render_command.output_folder_name", SAME, {"render_command.output_folder"}},
    {"render_command.pdf_path", SAME, {"render_command.pdf_path"}},
    {"render_command.typst_path", SAME, {"render_command.typst_path"}},
    {"render_command.markdown_path", SAME, {"render_command.markdown_path"}},
    {"render_command.html_path", SAME, {"render_command.html_path"}},
    {"render_command.png_path", SAME, {"render_command.png_path"}},
    {"render_command.dont_generate_html", SAME, {"render_command.dont_generate_html"}},
    {"render_command.dont_generate_markdown", SAME, {"render_command.dont_generate_markdown"}},
    {"render_command.dont_generate_png", SAME, {"render_command.dont_generate_png"}},
    {"render_command.dont_generate_pdf", SAME, {"render_command.dont_generate_pdf"}},
    {"render_command.design", SAME, {"render_command.design"}},
    {"render_command.locale", SAME, {"render_command.locale"}},
    {"render_command.locale_catalog", SAME, {"render_command.locale"}},
    {"render_command.latex_path", DROP, {0}},
    {"render_command.use_local_latex_command", DROP, {0}},
    {"render_command.watch", DROP, {0}},
    {"render_command.rendercv_settings", DROP, {0}},
    {NULL, SAME, {0}}};

/* The first row of each 2.0 entry template (classic's), for a file that
 * gives only the second. */
static const char *const row1_default[][2] = {
    {"education_entry", "**INSTITUTION**, AREA"}, {"normal_entry", "**NAME**"},
    {"experience_entry", "**COMPANY**, POSITION"}, {"publication_entry", "**TITLE**"}};

typedef struct up {
    cv_arena *a;
    cv_error *err;
    cv_yml *out;            /* the 2.8 design / settings being built */
    cv_strbuf said;         /* "a → b, ..." for the note */
    const char *prefix;     /* "design", "rendercv_settings" */
    const char *to_prefix;  /* "design", "settings" */
    bool strict_keys;       /* 1.x: an unknown key is an error */
    /* 2.0 main columns: first and second rows, by entry type. */
    const cv_yml *row[4][2];
    int more;               /* renames left out of the note */
    float body, lead;       /* 2.0: text.font_size, text.leading in points (LEAD2) */
} up;

static void said(up *u, const char *from, const char *to)
{
    if (u->said.n > 560) {
        u->more++;
        return;
    }
    if (u->said.n)
        cv_strbuf_put(u->a, &u->said, ", ", 2);
    bool same = !strcmp(u->prefix, u->to_prefix);
    const char *s = to ? cv_arena_printf(u->a, "%s.%s \xE2\x86\x92 %s%s%s", u->prefix, from,
                                         same ? "" : u->to_prefix, same ? "" : ".", to)
                       : cv_arena_printf(u->a, "%s.%s dropped", u->prefix, from);
    cv_strbuf_put(u->a, &u->said, s, strlen(s));
}

/* `s` with every `from` replaced by `to`. */
static const char *replace(cv_arena *a, const char *s, const char *from, const char *to)
{
    cv_strbuf b = {0};
    size_t fl = strlen(from);
    for (const char *p = s; *p;) {
        if (!strncmp(p, from, fl)) {
            cv_strbuf_put(a, &b, to, strlen(to));
            p += fl;
        } else {
            cv_strbuf_put(a, &b, p++, 1);
        }
    }
    return b.s ? b.s : "";
}

/* A Typst length ("0.2cm", "0.6em") in points, em of `body` points. */
static bool typst_pt(const char *s, float body, float *pt)
{
    char unit[4] = {0};
    float x;
    int n = 0;
    if (!s || sscanf(s, "%f%3[a-z]%n", &x, unit, &n) != 2 || s[n])
        return false;
    static const struct { const char *u; float k; } units[] = {
        {"pt", 1}, {"cm", 28.3465f}, {"mm", 2.83465f}, {"in", 72}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (!strcmp(unit, units[i].u))
            return *pt = x * units[i].k, true;
    if (!strcmp(unit, "em"))
        return *pt = x * body, true;
    return false;
}

static cv_yml *convert(up *u, conv c, const cv_yml *v)
{
    cv_arena *a = u->a;
    if (v->kind != CV_YML_SCALAR || cv_yml_is_null(v))
        return (cv_yml *)v;
    const char *s = v->str;
    switch (c) {
    case LEN: {
        /* "2 cm", "30 pt": the number and its unit together */
        cv_strbuf b = {0};
        for (const char *p = s; *p; p++)
            if (*p != ' ')
                cv_strbuf_put(a, &b, p, 1);
        return cv_yml_scalar(a, b.s ? b.s : "", v->pos, false);
    }
    case NOT:
        if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE"))
            return cv_yml_scalar(a, "false", v->pos, true);
        if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE"))
            return cv_yml_scalar(a, "true", v->pos, true);
        return (cv_yml *)v;
    case SIZE1:
        return !strcmp(s, "a4paper") ? cv_yml_scalar(a, "a4", v->pos, false)
               : !strcmp(s, "letterpaper") ? cv_yml_scalar(a, "us-letter", v->pos, false)
                                           : (cv_yml *)v;
    case ALIGN1:
        return !strcmp(s, "left-aligned") ? cv_yml_scalar(a, "left", v->pos, false) : (cv_yml *)v;
    case SEP1: {
        /* LaTeX: "$|$" is a bar, "\\textbullet" a bullet. */
        const char *t = replace(a, replace(a, s, "$", ""), "\\textbullet{}", "\xE2\x80\xA2");
        t = replace(a, t, "\\textbullet", "\xE2\x80\xA2");
        return cv_yml_scalar(a, t, v->pos, false);
    }
    case TYPE2: {
        const char *t = !strcmp(s, "with-parial-line") ? "with_partial_line"
                                                        : replace(a, s, "-", "_");
        return cv_yml_scalar(a, t, v->pos, false);
    }
    case FONT1: {
        static const char *const f[][2] = {{"Latin Modern Serif", "New Computer Modern"},
                                           {"Latin Modern Sans Serif", "New Computer Modern"},
                                           {"Latin Modern Mono", "DejaVu Sans Mono"},
                                           {"Charter", "XCharter"}};
        for (size_t i = 0; i < sizeof f / sizeof *f; i++)
            if (!strcmp(s, f[i][0]))
                return cv_yml_scalar(a, f[i][1], v->pos, false);
        return (cv_yml *)v;
    }
    case TODAY:
        return cv_yml_scalar(a, replace(a, replace(a, s, "FULL_MONTH_NAME", "MONTH_NAME"), "TODAY",
                                 "CURRENT_DATE"),
                      v->pos, false);
    case LEAD2: {
        /* 2.0 to 2.3 set the items of a list this far apart instead of
         * the leading; 2.8 sets them this far more than the leading. */
        float pt;
        if (!typst_pt(s, u->body, &pt))
            return (cv_yml *)v;
        float d = pt - u->lead;         /* never below 0: lists closer than lines */
        return cv_yml_scalar(a, d < 0.005f ? "0pt" : cv_arena_printf(a, "%.2fpt", d), v->pos,
                             false);
    }
    default:
        return (cv_yml *)v;
    }
}

static const rule *find_rule(const rule *rs, const char *path)
{
    for (; rs->from; rs++)
        if (!strcmp(rs->from, path))
            return rs;
    return NULL;
}

/* Is `path` a group of the table (a prefix of some rule's path)? */
static bool is_group(const rule *rs, const char *path)
{
    size_t n = strlen(path);
    for (; rs->from; rs++)
        if (!strncmp(rs->from, path, n) && rs->from[n] == '.')
            return true;
    return false;
}

/* Groups only RenderCV 2.0 to 2.3 had: every key in them is in rules2. */
static bool group2(const char *path)
{
    static const char *const g[] = {"text", "highlights", "entry_types", NULL};
    for (size_t i = 0; g[i]; i++) {
        size_t n = strlen(g[i]);
        if (!strncmp(path, g[i], n) && (!path[n] || path[n] == '.'))
            return true;
    }
    return false;
}

static bool walk(up *u, const rule *rs, const cv_yml *m, const char *path)
{
    if (u->strict_keys || group2(path)) {
        /* The keys this version had at `path`. */
        const char *allowed[48];
        size_t na = 0, pl = strlen(path);
        for (const rule *r = rs; r->from && na < 47; r++) {
            const char *p = r->from;
            if (pl && (strncmp(p, path, pl) || p[pl] != '.'))
                continue;
            const char *k = pl ? p + pl + 1 : p;
            const char *dot = strchr(k, '.');
            const char *name = dot ? cv_arena_strndup(u->a, k, (size_t)(dot - k)) : k;
            bool dup = false;
            for (size_t i = 0; i < na; i++)
                dup |= !strcmp(allowed[i], name);
            if (!dup)
                allowed[na++] = name;
        }
        allowed[na] = NULL;
        const char *what = cv_arena_printf(u->a, "%s%s%s (a RenderCV %s design)", u->prefix,
                                           pl ? "." : "", path,
                                           u->strict_keys ? "1.x" : "2.0\xE2\x80\x93" "2.3");
        if (!cv_yml_check_keys(m, allowed, what, u->err))
            return false;
    }
    for (size_t i = 0; i < m->n; i++) {
        const cv_yml *k = m->keys[i], *v = m->items[i];
        const char *sub = *path ? cv_arena_printf(u->a, "%s.%s", path, k->str) : k->str;
        const rule *r = find_rule(rs, sub);
        if (!r && is_group(rs, sub) && v->kind == CV_YML_MAP) {
            if (!walk(u, rs, v, sub))
                return false;
            continue;
        }
        if (!r && is_group(rs, sub) && cv_yml_is_null(v))
            continue;
        if (!r) {
            /* Kept where it is (2.0: a key of 2.8's); checked later. */
            if (v->kind == CV_YML_MAP && !cv_yml_is_null(v)) {
                for (size_t j = 0; j < v->n; j++)
                    cv_yml_put(u->a, u->out, cv_arena_printf(u->a, "%s.%s", sub, v->keys[j]->str),
                        v->keys[j]->pos, v->items[j]);
                if (!v->n)
                    cv_yml_put(u->a, u->out, sub, k->pos, (cv_yml *)v);
            } else {
                cv_yml_put(u->a, u->out, sub, k->pos, (cv_yml *)v);
            }
            continue;
        }
        if (r->c == DROP) {
            if (!cv_yml_is_null(v)) {
                cv_warn(u->err, k->pos, "'%s.%s' has no counterpart in RenderCV 2.8: ignored",
                        u->prefix, sub);
                said(u, sub, NULL);
            }
            continue;
        }
        if (r->c == ROW1 || r->c == ROW2) {
            const char *type = sub + strlen("entry_types.");
            for (int t = 0; t < 4; t++)
                if (!strncmp(type, row1_default[t][0], strlen(row1_default[t][0])))
                    u->row[t][r->c == ROW2] = v;
            said(u, sub, r->to[0]);
            continue;
        }
        if (r->c == YEARS) {
            bool on = v->kind == CV_YML_SCALAR && !strcmp(v->str, "true");
            if (on)
                cv_yml_put(u->a, u->out, r->to[0], k->pos, cv_yml_scalar(u->a, "YEAR", v->pos, false));
            said(u, sub, r->to[0]);
            continue;
        }
        cv_yml *nv = convert(u, r->c, v);
        for (int t = 0; t < 4 && r->to[t]; t++)
            cv_yml_put(u->a, u->out, r->to[t], k->pos, nv);
        if (strcmp(sub, r->to[0]) || strcmp(u->prefix, u->to_prefix))
            said(u, sub, r->to[0]);
    }
    return true;
}

/* 2.0's two rows of a main column as 2.8's one. */
static void join_rows(up *u)
{
    static const char *const second_default[] = {"SUMMARY\nHIGHLIGHTS", "SUMMARY\nHIGHLIGHTS",
                                                 "SUMMARY\nHIGHLIGHTS", "AUTHORS\nURL (JOURNAL)"};
    for (int t = 0; t < 4; t++) {
        const cv_yml *r1 = u->row[t][0], *r2 = u->row[t][1];
        if (!r1 && !r2)
            continue;
        const cv_yml *any = r1 ? r1 : r2;
        const char *s1 = r1 && r1->kind == CV_YML_SCALAR && !cv_yml_is_null(r1) ? r1->str
                         : r1 ? "" : row1_default[t][1];
        const char *s2 = r2 && r2->kind == CV_YML_SCALAR && !cv_yml_is_null(r2) ? r2->str
                         : r2 ? "" : second_default[t];
        const char *s = cv_arena_printf(u->a, "%s%s%s", s1, *s1 && *s2 ? "\n" : "", s2);
        cv_yml_put(u->a, u->out, cv_arena_printf(u->a, "templates.%s.main_column", row1_default[t][0]),
            any->pos, cv_yml_scalar(u->a, s, any->pos, false));
    }
}

/* The lines of a template (what 2.0's Typst templates counted). */
static int template_lines(const cv_yml *v)
{
    if (!v || v->kind != CV_YML_SCALAR || !v->str)
        return 1;
    int n = 0;
    for (const char *p = v->str; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\r'))
            len--;
        n += len > 0;
        p = e ? e + 1 : p + strlen(p);
    }
    return n;
}

/* 2.0 to 2.3 set an entry's second row beside a date and location column
 * that has more lines than its first row, whatever short_second_row said:
 * short_second_row: false becomes true when the entry types the design
 * gives have such columns (most of them). */
static void short_rows(up *u, const cv_yml *design)
{
    const cv_yml *ssr = at(design, "entries.short_second_row");
    if (!ssr || ssr->kind != CV_YML_SCALAR || strcmp(ssr->str, "false"))
        return;
    int more = 0, not = 0;
    for (int t = 0; t < 4; t++) {
        const char *type = row1_default[t][0];
        const cv_yml *dt = at(design, cv_arena_printf(u->a, "entry_types.%s."
                                                       "date_and_location_column_template",
                                                       type));
        if (!dt || dt->kind != CV_YML_SCALAR)
            continue;
        const cv_yml *fr = at(design, cv_arena_printf(u->a, "entry_types.%s."
                                                       "main_column_first_row_template", type));
        if (template_lines(dt) > template_lines(fr))
            more++;
        else
            not++;
    }
    if (more > not) {
        cv_yml_put(u->a, u->out, "entries.short_second_row", ssr->pos,
                   cv_yml_scalar(u->a, "true", ssr->pos, true));
        said(u, "entries.short_second_row", "entries.short_second_row (true: 2.0 to 2.3 set "
             "the second row beside a longer date column)");
    }
}

/* typography.font_family: a mapping with only `body` is one family. */
static void fold_fonts(up *u)
{
    const cv_yml *ff = at(u->out, "typography.font_family");
    if (ff && ff->kind == CV_YML_MAP && ff->n == 1 && !strcmp(ff->keys[0]->str, "body"))
        cv_yml_put(u->a, u->out, "typography.font_family", ff->pos, ff->items[0]);
}

/* ---- Which version ----------------------------------------------------- */

static const char *const keys1[] = {
    "font", "font_size", "page_size", "color", "disable_page_numbering",
    "page_numbering_style", "show_last_updated_date", "header_font_size", "text_alignment",
    "margins", "show_timespan_in", "date_width", "content_scale", "show_only_years",
    "disable_page_numbers", "last_updated_date_style", "disable_external_link_icons",
    "disable_last_updated_date", "seperator_between_connections",
    "use_icons_for_connections", NULL};

static bool has_any(const cv_yml *m, const char *const *keys)
{
    if (!m || m->kind != CV_YML_MAP)
        return false;
    for (size_t i = 0; keys[i]; i++)
        if (cv_yml_get(m, keys[i]))
            return true;
    return false;
}

static bool is_design1(const cv_yml *d)
{
    return has_any(d, keys1);
}

static bool is_design2(const cv_yml *d)
{
    static const char *const top[] = {"text", "highlights", "entry_types", NULL};
    if (has_any(d, top))
        return true;
    for (const rule *r = rules2; r->from; r++)
        if (!strncmp(r->from, "page.", 5) || !strncmp(r->from, "colors.", 7) ||
            !strncmp(r->from, "links.", 6) || !strncmp(r->from, "header.", 7) ||
            !strncmp(r->from, "section_titles.", 15) || !strncmp(r->from, "entries.", 8))
            if (at(d, r->from) && strcmp(r->from, "section_titles.type"))
                return true;
    const cv_yml *t = at(d, "section_titles.type");
    return t && t->kind == CV_YML_SCALAR && t->str && strchr(t->str, '-');
}

/* Locale keys RenderCV 2.8 has in design: (and cvpdf reads in locale:). */
static const char *const locale_old[] = {
    "to", "date_template", "date_style", "phone_number_format", "page_numbering_template",
    "last_updated_date_template", "abbreviations_for_months", "full_names_of_months", NULL};

static const char *const known_top[] = {"cv", "design", "locale", "settings",
                                        "rendercv_settings", "locale_catalog", NULL};

static bool known(const char *k)
{
    for (size_t i = 0; known_top[i]; i++)
        if (!strcmp(known_top[i], k))
            return true;
    return false;
}

/* A top-level key RenderCV 2.4 to 2.6 ignored and cvpdf takes with a
 * warning: one no version knew, in a RenderCV file (a `cv` and one of
 * design, locale, settings), that is not a misspelling of a key (`cvv`,
 * `desing`: an error with a suggestion). */
static bool ignorable(const cv_yml *root, const char *k)
{
    return !known(k) && cv_yml_get(root, "cv") && !cv_suggest(k, known_top) &&
           (cv_yml_get(root, "design") || cv_yml_get(root, "locale") ||
            cv_yml_get(root, "settings"));
}

static cv_pos key_pos(const cv_yml *m, const char *k)
{
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->keys[i]->str, k))
            return m->keys[i]->pos;
    return m->pos;
}

/* ---- RenderCV 2.3's cv.sort_entries ------------------------------------ */

/* A date as YYYYMMDD for sorting, as RenderCV 2.3 read it: YYYY-MM-DD,
 * YYYY-MM (the 1st), YYYY (January 1st), present (later than any); -1 for
 * none or text. */
static long sort_date(const cv_yml *v)
{
    if (!v || v->kind != CV_YML_SCALAR || !v->str)
        return -1;
    if (!strcmp(v->str, "present"))
        return 99991231;
    int y = 0, m = 1, d = 1, n = 0;
    size_t len = strlen(v->str);
    if ((len == 10 && sscanf(v->str, "%4d-%2d-%2d%n", &y, &m, &d, &n) == 3 && n == 10) ||
        (len == 7 && sscanf(v->str, "%4d-%2d%n", &y, &m, &n) == 2 && n == 7) ||
        (len == 4 && sscanf(v->str, "%4d%n", &y, &n) == 1 && n == 4))
        return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= 31 ? y * 10000L + m * 100 + d : -1;
    return -1;
}

/* An entry's (end, start) for sorting: `date` for both when given. */
static void sort_key(const cv_yml *e, bool newest_first, long k[2])
{
    long none = newest_first ? -2 : 999999999;
    const cv_yml *d = e->kind == CV_YML_MAP ? cv_yml_get(e, "date") : NULL;
    if (d && !cv_yml_is_null(d)) {
        k[0] = k[1] = sort_date(d);
    } else {
        k[0] = e->kind == CV_YML_MAP ? sort_date(cv_yml_get(e, "end_date")) : -1;
        k[1] = e->kind == CV_YML_MAP ? sort_date(cv_yml_get(e, "start_date")) : -1;
    }
    for (int i = 0; i < 2; i++)
        if (k[i] < 0)
            k[i] = none;
}

/* cv.sections with each section's entries sorted by date, as RenderCV 2.3
 * sorted them (stable: equal dates keep the file's order). */
static cv_yml *sorted_sections(cv_arena *a, const cv_yml *secs, bool newest_first)
{
    cv_yml *out = cv_yml_map(a, secs->pos);
    for (size_t i = 0; i < secs->n; i++) {
        const cv_yml *l = secs->items[i];
        if (l->kind != CV_YML_SEQ || l->n < 2) {
            cv_yml_map_add(a, out, secs->keys[i]->str, secs->keys[i]->pos, (cv_yml *)l);
            continue;
        }
        cv_yml *s = cv_arena_alloc(a, sizeof *s);
        *s = *l;
        s->items = cv_arena_alloc(a, sizeof *s->items * l->n);
        long (*keys)[2] = cv_arena_alloc(a, sizeof *keys * l->n);
        for (size_t j = 0; j < l->n; j++) {
            /* Insertion: after every entry that sorts before or with it. */
            long k[2];
            sort_key(l->items[j], newest_first, k);
            size_t at = j;
            while (at > 0) {
                long *p = keys[at - 1];
                int c = p[0] != k[0] ? (p[0] < k[0] ? -1 : 1) : p[1] != k[1] ? (p[1] < k[1] ? -1 : 1) : 0;
                if (newest_first ? c >= 0 : c <= 0)
                    break;
                s->items[at] = s->items[at - 1];
                keys[at][0] = p[0];
                keys[at][1] = p[1];
                at--;
            }
            s->items[at] = l->items[j];
            keys[at][0] = k[0];
            keys[at][1] = k[1];
        }
        cv_yml_map_add(a, out, secs->keys[i]->str, secs->keys[i]->pos, s);
    }
    return out;
}

/* ---- RenderCV 1.0 to 1.3's one-line entries ---------------------------- */

/* Is e a one-line entry as RenderCV 1.0 to 1.3 wrote it: `name` and
 * `details`, no `label` (1.4 renamed `name` to `label`)? */
static bool oneline_name(const cv_yml *e)
{
    return e && e->kind == CV_YML_MAP && cv_yml_get(e, "details") && cv_yml_get(e, "name") &&
           !cv_yml_get(e, "label");
}

/* The first such entry of cv's sections, or NULL. */
static const cv_yml *first_oneline_name(const cv_yml *cv)
{
    const cv_yml *secs = cv && cv->kind == CV_YML_MAP ? cv_yml_get(cv, "sections") : NULL;
    if (!secs || secs->kind != CV_YML_MAP)
        return NULL;
    for (size_t i = 0; i < secs->n; i++)
        if (secs->items[i]->kind == CV_YML_SEQ)
            for (size_t j = 0; j < secs->items[i]->n; j++)
                if (oneline_name(secs->items[i]->items[j]))
                    return secs->items[i]->items[j];
    return NULL;
}

/* Put `t` first in the list of what was translated, *said ("a, b"). */
static void said_first(cv_arena *a, cv_strbuf *said, const char *t)
{
    cv_strbuf s = {0};
    cv_strbuf_put(a, &s, t, strlen(t));
    if (said->n) {
        cv_strbuf_put(a, &s, ", ", 2);
        cv_strbuf_put(a, &s, said->s, said->n);
    }
    *said = s;
}

/* cv with each such entry's `name` as its `label`, in its place. */
static cv_yml *oneline_labels(cv_arena *a, const cv_yml *cv)
{
    cv_yml *c = cv_yml_map(a, cv->pos);
    for (size_t i = 0; i < cv->n; i++) {
        const cv_yml *v = cv->items[i];
        if (!strcmp(cv->keys[i]->str, "sections") && v->kind == CV_YML_MAP) {
            cv_yml *secs = cv_yml_map(a, v->pos);
            for (size_t j = 0; j < v->n; j++) {
                const cv_yml *l = v->items[j];
                if (l->kind == CV_YML_SEQ) {
                    cv_yml *nl = cv_arena_alloc(a, sizeof *nl);
                    *nl = *l;
                    nl->items = cv_arena_alloc(a, sizeof *nl->items * (l->n ? l->n : 1));
                    for (size_t k = 0; k < l->n; k++) {
                        const cv_yml *e = l->items[k];
                        if (!oneline_name(e)) {
                            nl->items[k] = (cv_yml *)e;
                            continue;
                        }
                        cv_yml *ne = cv_yml_map(a, e->pos);
                        for (size_t m = 0; m < e->n; m++)
                            cv_yml_map_add(a, ne, strcmp(e->keys[m]->str, "name")
                                                          ? e->keys[m]->str : "label",
                                           e->keys[m]->pos, e->items[m]);
                        nl->items[k] = ne;
                    }
                    l = nl;
                }
                cv_yml_map_add(a, secs, v->keys[j]->str, v->keys[j]->pos, (cv_yml *)l);
            }
            v = secs;
        }
        cv_yml_map_add(a, c, cv->keys[i]->str, cv->keys[i]->pos, (cv_yml *)v);
    }
    return c;
}

/* ---- RenderCV 1.x's highlights: " - " is text ------------------------ */

/* s with each " - " as "\u00A0- ": RenderCV 2.3 and later make a
 * sub-bullet of what follows " - " in a highlight, 1.x printed it ("10 -
 * 15 students"); a no-break space before the dash looks the same and is
 * not split, by cvpdf or by RenderCV 2.8 reading the migrated file. */
static const char *dash_text(cv_arena *a, const char *s)
{
    cv_strbuf b = {0};
    for (const char *p = s;;) {
        const char *q = strstr(p, " - ");
        if (!q) {
            cv_strbuf_put(a, &b, p, strlen(p));
            break;
        }
        cv_strbuf_put(a, &b, p, (size_t)(q - p));
        cv_strbuf_put(a, &b, "\xC2\xA0- ", 4);
        p = q + 3;
    }
    return b.s;
}

/* cv with " - " in every highlight kept as text (dash_text); *n counts the
 * highlights changed.  Unchanged parts are shared. */
static const cv_yml *dash_highlights(cv_arena *a, const cv_yml *cv, int *n)
{
    const cv_yml *secs = cv && cv->kind == CV_YML_MAP ? cv_yml_get(cv, "sections") : NULL;
    if (!secs || secs->kind != CV_YML_MAP)
        return cv;
    cv_yml *ns = cv_yml_map(a, secs->pos);
    for (size_t i = 0; i < secs->n; i++) {
        const cv_yml *l = secs->items[i];
        cv_yml *nl = NULL;
        for (size_t j = 0; l->kind == CV_YML_SEQ && j < l->n; j++) {
            const cv_yml *e = l->items[j];
            const cv_yml *h = e->kind == CV_YML_MAP ? cv_yml_get(e, "highlights") : NULL;
            if (!h || h->kind != CV_YML_SEQ)
                continue;
            cv_yml *nh = NULL;
            for (size_t k = 0; k < h->n; k++) {
                const cv_yml *t = h->items[k];
                if (t->kind != CV_YML_SCALAR || !t->str || !strstr(t->str, " - "))
                    continue;
                if (!nh) {
                    nh = cv_arena_alloc(a, sizeof *nh);
                    *nh = *h;
                    nh->items = cv_arena_alloc(a, sizeof *nh->items * h->n);
                    memcpy(nh->items, h->items, sizeof *nh->items * h->n);
                }
                cv_yml *nt = cv_yml_scalar(a, dash_text(a, t->str), t->pos, t->plain);
                nh->items[k] = nt;
                (*n)++;
            }
            if (!nh)
                continue;
            if (!nl) {
                nl = cv_arena_alloc(a, sizeof *nl);
                *nl = *l;
                nl->items = cv_arena_alloc(a, sizeof *nl->items * l->n);
                memcpy(nl->items, l->items, sizeof *nl->items * l->n);
            }
            cv_yml *ne = cv_yml_map(a, e->pos);
            for (size_t m = 0; m < e->n; m++)
                cv_yml_map_add(a, ne, e->keys[m]->str, e->keys[m]->pos,
                               strcmp(e->keys[m]->str, "highlights") ? e->items[m] : nh);
            nl->items[j] = ne;
        }
        cv_yml_map_add(a, ns, secs->keys[i]->str, secs->keys[i]->pos,
                       nl ? nl : (cv_yml *)l);
    }
    cv_yml *c = cv_yml_map(a, cv->pos);
    for (size_t i = 0; i < cv->n; i++)
        cv_yml_map_add(a, c, cv->keys[i]->str, cv->keys[i]->pos,
                       strcmp(cv->keys[i]->str, "sections") ? cv->items[i] : ns);
    return c;
}

/* ---- RenderCV 1.x's LaTeX math: $...$ is 2.x's $$...$$ ---------------- */

/* Is p..e (between single dollars) LaTeX math rather than two prices
 * ("$5 and $10")?  A command, ^ or _ in it, and no space just inside. */
static bool latex_math(const char *p, const char *e)
{
    if (e <= p || p[0] == ' ' || e[-1] == ' ')
        return false;
    for (const char *q = p; q < e; q++)
        if (*q == '\\' || *q == '^' || *q == '_')
            return true;
    return false;
}

/* s with each LaTeX $...$ written $$...$$, or NULL when it has none. */
static const char *math_dollars(cv_arena *a, const char *s)
{
    if (!strchr(s, '$'))
        return NULL;
    cv_strbuf b = {0};
    bool changed = false;
    for (const char *p = s; *p;) {
        if (p[0] == '$' && p[1] == '$') {           /* 2.x's already */
            cv_strbuf_put(a, &b, p, 2);
            p += 2;
            continue;
        }
        const char *e = p[0] == '$' && (p == s || p[-1] != '\\') ? strchr(p + 1, '$') : NULL;
        if (e && latex_math(p + 1, e)) {
            cv_strbuf_put(a, &b, "$$", 2);
            cv_strbuf_put(a, &b, p + 1, (size_t)(e - p - 1));
            cv_strbuf_put(a, &b, "$$", 2);
            p = e + 1;
            changed = true;
            continue;
        }
        cv_strbuf_put(a, &b, p, 1);
        p++;
    }
    return changed ? b.s : NULL;
}

/* v (a part of cv) with its strings' LaTeX math made 2.x's; *n counts
 * the strings changed.  Unchanged parts are shared. */
static cv_yml *math_tree(cv_arena *a, const cv_yml *v, int *n)
{
    if (v->kind == CV_YML_SCALAR) {
        const char *t = v->str ? math_dollars(a, v->str) : NULL;
        if (!t)
            return (cv_yml *)v;
        (*n)++;
        return cv_yml_scalar(a, t, v->pos, v->plain);
    }
    if (v->kind != CV_YML_SEQ && v->kind != CV_YML_MAP)
        return (cv_yml *)v;
    cv_yml *c = NULL;
    for (size_t i = 0; i < v->n; i++) {
        cv_yml *x = math_tree(a, v->items[i], n);
        if (x == v->items[i])
            continue;
        if (!c) {
            c = cv_arena_alloc(a, sizeof *c);
            *c = *v;
            c->items = cv_arena_alloc(a, sizeof *c->items * v->n);
            memcpy(c->items, v->items, sizeof *c->items * v->n);
        }
        c->items[i] = x;
    }
    return c ? c : (cv_yml *)v;
}

/* ---- Locale ------------------------------------------------------------ */

/* locale_catalog (1.x) and locale (2.0) as 2.8's locale, and the parts
 * 2.8 has in design: into `design` (when to_design). */
static cv_yml *upgrade_locale(up *u, const cv_yml *cat, const cv_yml *loc, cv_yml *design,
                              bool to_design, bool migrate)
{
    cv_arena *a = u->a;
    cv_yml *out = cv_yml_map(a, loc ? loc->pos : cat->pos);
    const cv_yml *parts[2] = {cat, loc};
    for (int p = 0; p < 2; p++) {
        const cv_yml *m = parts[p];
        if (!m || m->kind != CV_YML_MAP)
            continue;
        u->prefix = p ? "locale" : "locale_catalog";
        for (size_t i = 0; i < m->n; i++) {
            const char *k = m->keys[i]->str;
            cv_pos kp = m->keys[i]->pos;
            cv_yml *v = m->items[i];
            const char *to = NULL, *dto = NULL;
            conv c = SAME;
            if (!strcmp(k, "abbreviations_for_months"))
                to = "month_abbreviations";
            else if (!strcmp(k, "full_names_of_months"))
                to = "month_names";
            else if (!strcmp(k, "date_style") || !strcmp(k, "date_template"))
                to = "date_template", dto = "templates.single_date", c = TODAY;
            else if (!strcmp(k, "to"))
                to = "to", dto = "templates.date_range";
            else if (!strcmp(k, "phone_number_format"))
                to = k, dto = "header.connections.phone_number_format";
            else if (!strcmp(k, "page_numbering_template") ||
                     (!p && !strcmp(k, "page_numbering_style")))        /* 1.18 */
                to = "page_numbering_template", dto = "templates.footer", c = TODAY;
            else if (!strcmp(k, "last_updated_date_template") ||
                     (!p && !strcmp(k, "last_updated_date_style")))     /* 1.18 */
                to = "last_updated_date_template", dto = "templates.top_note", c = TODAY;
            else if (migrate && !strcmp(k, "degree_with_area"))
                to = "phrases.degree_with_area";
            else if (migrate && (!strcmp(k, "contact") || !strcmp(k, "resume"))) {
                cv_warn(u->err, kp, "'locale.%s' is cvpdf's own: RenderCV 2.8 has no such "
                        "key; left out", k);
                continue;
            } else if (migrate && !strcmp(k, "language") && v->kind == CV_YML_SCALAR &&
                       v->str) {
                const char *code = cv_locale_language(v->str);
                const char *name = code ? cv_locale_name(code) : NULL;
                if (name && strcmp(name, v->str)) {
                    cv_yml_put(a, out, "language", kp, cv_yml_scalar(a, name, v->pos, false));
                    u->to_prefix = "locale";
                    said(u, "language", "language");
                    continue;
                }
                to = k;
            } else
                to = k;
            cv_yml *nv = convert(u, c, v);
            if (dto && to_design && !cv_yml_is_null(v)) {
                if (!strcmp(k, "to") && nv->kind == CV_YML_SCALAR)
                    nv = cv_yml_scalar(a, cv_arena_printf(a, "START_DATE %s END_DATE", nv->str),
                                v->pos, false);
                cv_yml_put(a, design, dto, kp, nv);
                u->to_prefix = "design";
                said(u, k, dto);
            } else {
                cv_yml_put(a, out, to, kp, nv);
                u->to_prefix = "locale";
                if (p == 0 || strcmp(k, to))
                    said(u, k, to);
            }
        }
    }
    return out;
}

/* ---- The whole file ---------------------------------------------------- */

const cv_yml *cv_rcv_upgrade(cv_arena *a, const cv_yml *root, bool migrate, cv_rcv_era *era,
                             cv_error *err)
{
    cv_rcv_era e = CV_RCV_CURRENT;
    if (era)
        *era = e;
    if (!root || root->kind != CV_YML_MAP)
        return root;
    const cv_yml *design = cv_yml_get(root, "design");
    const cv_yml *cat = cv_yml_get(root, "locale_catalog");
    const cv_yml *loc = cv_yml_get(root, "locale");
    const cv_yml *rs = cv_yml_get(root, "rendercv_settings");
    bool d1 = is_design1(design), d2 = !d1 && is_design2(design);
    bool old_locale = has_any(loc, locale_old);
    static const char *const rc1[] = {"latex_path", "use_local_latex_command",
                                      "locale_catalog", NULL};
    /* cv.sort_entries: RenderCV 2.3's, gone since. */
    const cv_yml *cv0 = cv_yml_get(root, "cv");
    bool cv_sort = cv0 && cv0->kind == CV_YML_MAP && cv_yml_get(cv0, "sort_entries");
    /* One-line entries of `name` and `details`: RenderCV 1.0 to 1.3's. */
    const cv_yml *one_name = d1 || (!d2 && !rs) ? first_oneline_name(cv0) : NULL;
    /* cv.label: the person's title in RenderCV 1.0 to 1.17, 2.5's headline. */
    const cv_yml *cv_label = cv0 && cv0->kind == CV_YML_MAP && !cv_yml_get(cv0, "headline") &&
                             (d1 || (!d2 && !rs)) ? cv_yml_get(cv0, "label") : NULL;
    bool extra = false;
    for (size_t i = 0; i < root->n; i++)
        extra |= ignorable(root, root->keys[i]->str);
    /* locale_catalog beside a design of 2.4's shape: a file RenderCV 2.4
     * to 2.6 read (and ignored the catalog of); cvpdf still takes it. */
    bool modern = design && design->kind == CV_YML_MAP && !d1 && !d2 && design->n > 0 &&
                  !(design->n == 1 && cv_yml_get(design, "theme"));
    if (d1 || has_any(at(rs, "render_command"), rc1) || (cat && !d2 && !modern) ||
        ((one_name || cv_label) && !modern && !cat))
        e = CV_RCV_1X;
    else if (d2 || rs || cv_sort)
        e = CV_RCV_20;
    else if (extra || cat)
        e = CV_RCV_24;
    if (era)
        *era = e;
    if (e == CV_RCV_CURRENT && !migrate)
        return root;

    up u = {a, err, NULL, {0}, "design", "design", false, {{0}}, 0, 10, 6};
    cv_yml *out = cv_yml_map(a, root->pos);
    cv_pos first = root->pos;
    /* design: */
    cv_yml *nd = cv_yml_map(a, design ? design->pos : root->pos);
    if (design && design->kind == CV_YML_MAP && (d1 || d2)) {
        /* 2.0's body size and leading (10pt and 0.6em unless given). */
        u.body = 10;
        u.lead = 6;
        const cv_yml *fs = at(design, "text.font_size"), *ld = at(design, "text.leading");
        if (fs && fs->kind == CV_YML_SCALAR)
            typst_pt(fs->str, 10, &u.body);
        u.lead = 0.6f * u.body;
        if (ld && ld->kind == CV_YML_SCALAR)
            typst_pt(ld->str, u.body, &u.lead);
        u.out = nd;
        u.strict_keys = d1;
        if (!walk(&u, d1 ? rules1 : rules2, design, ""))
            return NULL;
        join_rows(&u);
        if (d2)
            short_rows(&u, design);
        fold_fonts(&u);
        first = design->keys[0]->pos;
    } else if (design && design->kind == CV_YML_MAP) {
        for (size_t i = 0; i < design->n; i++)
            cv_yml_map_add(a, nd, design->keys[i]->str, design->keys[i]->pos, design->items[i]);
    } else if (design && !cv_yml_is_null(design)) {
        nd = (cv_yml *)design;          /* not a mapping: design.c says so */
    }
    if (migrate && nd->kind == CV_YML_MAP && !cv_yml_get(nd, "theme"))
        cv_yml_put(a, nd, "theme", nd->pos, cv_yml_scalar(a, "classic", nd->pos, false));
    /* locale_catalog and locale: */
    cv_yml *nl = NULL;
    if (cat || (loc && loc->kind == CV_YML_MAP && (old_locale || migrate))) {
        if (cat && (cv_yml_is_null(cat) || cat->kind == CV_YML_MAP))
            first = design && (d1 || d2) ? first : key_pos(root, "locale_catalog");
        else if (cat)
            return cv_error_at(err, cat->pos, "'locale_catalog' must be a mapping, not %s",
                               cv_yml_kind_name(cat->kind)), NULL;
        if (cat) {
            if (u.said.n)
                cv_strbuf_put(a, &u.said, ", ", 2);
            static const char lc[] = "locale_catalog \xE2\x86\x92 locale";
            cv_strbuf_put(a, &u.said, lc, sizeof lc - 1);
        }
        nl = upgrade_locale(&u, cat, loc && loc->kind == CV_YML_MAP ? loc : NULL, nd,
                            design || migrate, migrate);
        if (migrate && !cv_yml_get(nl, "language") && nl->n)
            cv_yml_put(a, nl, "language", nl->pos, cv_yml_scalar(a, "english", nl->pos, false));
    }
    /* rendercv_settings and settings: */
    cv_yml *ns = NULL;
    const cv_yml *st = cv_yml_get(root, "settings");
    if (rs && rs->kind == CV_YML_MAP) {
        ns = cv_yml_map(a, rs->pos);
        u.out = ns;
        u.prefix = "rendercv_settings";
        u.to_prefix = "settings";
        u.strict_keys = false;
        if (!walk(&u, rules_settings, rs, ""))
            return NULL;
        if (st && st->kind == CV_YML_MAP)
            for (size_t i = 0; i < st->n; i++)
                cv_yml_put(a, ns, st->keys[i]->str, st->keys[i]->pos, st->items[i]);
    }
    /* The root, in 2.8's order: cv, design, locale, settings. */
    const cv_yml *cvn = cv_yml_get(root, "cv");
    if (cv_sort) {
        /* Sorted here, as RenderCV 2.3 sorted them: what migrate writes is
         * in that order, and RenderCV 2.8 keeps it. */
        const cv_yml *how = cv_yml_get(cvn, "sort_entries");
        bool newest = how->kind == CV_YML_SCALAR && !strcmp(how->str, "reverse-chronological");
        bool sort = newest || (how->kind == CV_YML_SCALAR && !strcmp(how->str, "chronological"));
        if (!sort && !(how->kind == CV_YML_SCALAR && !strcmp(how->str, "none")))
            return cv_error_at(err, how->pos, "sort_entries is reverse-chronological, "
                               "chronological or none (RenderCV 2.3)"), NULL;
        cv_yml *c = cv_yml_map(a, cvn->pos);
        for (size_t i = 0; i < cvn->n; i++)
            if (!strcmp(cvn->keys[i]->str, "sections") && sort &&
                cvn->items[i]->kind == CV_YML_MAP)
                cv_yml_map_add(a, c, "sections", cvn->keys[i]->pos,
                        sorted_sections(a, cvn->items[i], newest));
            else if (strcmp(cvn->keys[i]->str, "sort_entries"))
                cv_yml_map_add(a, c, cvn->keys[i]->str, cvn->keys[i]->pos, cvn->items[i]);
        const char *t = sort ? "cv.sort_entries: each section's entries sorted by date, as "
                               "RenderCV 2.3 did"
                             : "cv.sort_entries dropped";
        if (u.said.n)
            cv_strbuf_put(a, &u.said, ", ", 2);
        cv_strbuf_put(a, &u.said, t, strlen(t));
        cvn = c;
    }
    if (one_name && e == CV_RCV_1X) {
        /* Named first: the list of design keys may be cut short. */
        said_first(a, &u.said, "one-line entries' name \xE2\x86\x92 label");
        cvn = oneline_labels(a, cvn);
    }
    if (cv_label && e == CV_RCV_1X) {
        cv_yml *c = cv_yml_map(a, cvn->pos);
        for (size_t i = 0; i < cvn->n; i++)
            cv_yml_map_add(a, c, strcmp(cvn->keys[i]->str, "label") ? cvn->keys[i]->str
                                                                    : "headline",
                           cvn->keys[i]->pos, cvn->items[i]);
        cvn = c;
        said_first(a, &u.said, "cv.label \xE2\x86\x92 cv.headline");
    }
    int dashes = 0, maths = 0;
    if (e == CV_RCV_1X && cvn)
        cvn = dash_highlights(a, cvn, &dashes);
    if (e == CV_RCV_1X && cvn)
        cvn = math_tree(a, cvn, &maths);
    if (maths) {
        if (u.said.n)
            cv_strbuf_put(a, &u.said, ", ", 2);
        static const char t[] = "LaTeX's $...$ math \xE2\x86\x92 $$...$$";
        cv_strbuf_put(a, &u.said, t, sizeof t - 1);
    }
    if (dashes) {
        if (u.said.n)
            cv_strbuf_put(a, &u.said, ", ", 2);
        static const char t[] = "' - ' in highlights kept as text (2.3 and later make a "
                                "sub-bullet of it)";
        cv_strbuf_put(a, &u.said, t, sizeof t - 1);
    }
    for (size_t i = 0; i < root->n; i++)
        if (!strcmp(root->keys[i]->str, "cv"))
            cv_yml_map_add(a, out, "cv", root->keys[i]->pos, (cv_yml *)cvn);
    if (design || migrate)
        cv_yml_map_add(a, out, "design", design ? key_pos(root, "design") : root->pos, nd);
    if (nl && (nl->n || loc))
        cv_yml_map_add(a, out, "locale", loc ? loc->pos : cat->pos, nl);
    else if (loc)
        cv_yml_map_add(a, out, "locale", key_pos(root, "locale"), (cv_yml *)loc);
    if (ns)
        cv_yml_map_add(a, out, "settings", rs->pos, ns);
    else if (st)
        cv_yml_map_add(a, out, "settings", key_pos(root, "settings"), (cv_yml *)st);
    else if (rs)
        cv_yml_map_add(a, out, "rendercv_settings", rs->pos, (cv_yml *)rs);
    for (size_t i = 0; i < root->n; i++) {
        if (ignorable(root, root->keys[i]->str))
            cv_warn(err, root->keys[i]->pos, "unknown key '%s' in the profile: ignored, as "
                    "RenderCV 2.4 to 2.6 ignored it (RenderCV 2.7 and later refuse it)",
                    root->keys[i]->str);
        else if (!known(root->keys[i]->str))    /* refused by doc.c, with a suggestion */
            cv_yml_map_add(a, out, root->keys[i]->str, root->keys[i]->pos, root->items[i]);
    }
    /* The note goes where the file shows its version. */
    if (!(design && (d1 || d2)) && !cat) {
        if (rs)
            first = key_pos(root, "rendercv_settings");
        else if (old_locale)
            first = key_pos(root, "locale");
        else if (cv_label)
            first = key_pos(cv0, "label");
        else if (one_name)
            first = one_name->pos;
        else
            for (size_t i = root->n; i-- > 0;)
                if (ignorable(root, root->keys[i]->str))
                    first = root->keys[i]->pos;
    }
    static const char *const names[] = {"", "1.x", "2.0\xE2\x80\x93" "2.3",
                                        "2.4\xE2\x80\x93" "2.6"};
    if (e != CV_RCV_CURRENT && !migrate)
        cv_note(err, first, "read as a RenderCV %s file%s%s%s (`cvpdf migrate FILE` prints it "
                "as RenderCV 2.8 writes it)", names[e], u.said.n ? ": " : "",
                u.said.n ? u.said.s : "",
                u.more ? cv_arena_printf(a, " and %d more", u.more) : "");
    return out;
}
