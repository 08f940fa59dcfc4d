/* style.c - layouts: load, extend, check, resolve.  See style.h.
 *
 * Most keys are plain values, described once in the `keys` table below
 * (section, key, kind, where in cv_style it goes); the loader walks the
 * table, so adding a layout knob is one line.  The few structured keys
 * (page size and margins, fonts, templates) have their own readers.
 */
#include "style.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "markup.h"
#include "yml.h"

enum kind { LEN, NUM, BOOL, COLOR, STR, ALIGN, BREAKING, COUNT, FRACTION, NAMES, SIDE, PHOTOPOS,
             PHONEFMT, WEBFONTS,
            EM, FAMILY, MONTHS };

#define MAX_LAYOUT_STRING 1024

typedef struct key {
    const char *section, *name;
    enum kind kind;
    size_t off;
    float lo, hi;            /* LEN: the range allowed, in points (0, 0: 0-400pt) */
    const char *about;       /* what it does, in a phrase: the schema's description */
} key;

#define K(sec, name, kind, field, about) \
    {sec, name, kind, offsetof(cv_style, field), 0, 0, about}
/* A type size: 4-72pt, or up to `hi` for a name set large. */
#define KS(sec, name, field, hi, about) \
    {sec, name, LEN, offsetof(cv_style, field), 4, hi, about}
static const key keys[] = {
    KS("font", "size", size, 72,
      "the body text's size: summaries, bullets, text entries and the entries' main lines"),
    K("font", "line_spacing", NUM, line_spacing,
      "line height as a multiple of the text size (1.25 by default, 0.5-4)"),
    K("colors", "text", COLOR, text_color,
      "colour of the body text, the entries' main lines and the contact line"),
    K("colors", "muted", COLOR, muted_color, "colour of the headline"),
    K("colors", "link", COLOR, link_color,
      "colour of links in body text, the headline and entries (not the contact line)"),
    K("font", "lining_figures", BOOL, lining_figures,
      "digits as the face's lining figures (OpenType lnum), for a face whose default "
      "figures are old-style"),
    K("font", "fit_ascenders", BOOL, fit_ascenders,
      "a line is never shorter than the main face's ascender plus descender; false: lines "
      "by line_spacing alone, as Typst sets them"),
    K("text", "justify", BOOL, justify,
      "justify paragraphs (summaries, bullets, text, one-line and numbered entries); their "
      "last lines stay at natural width"),
    K("text", "hyphenate", BOOL, hyphenate,
      "hyphenate long words in paragraphs by the patterns of the profile's language"),
    K("text", "smart_quotes", BOOL, smart_quotes,
      "turn straight quotes and apostrophes into the typographic quotes of the profile's "
      "language"),
    K("text", "line_breaking", BREAKING, greedy,
      "how paragraphs are broken into lines: optimal (Knuth-Plass, the whole paragraph at "
      "once) or greedy (first fit)"),
    K("text", "cjk_latin_space", EM, cjk_latin_space,
      "the gap set between a Han, kana or Hangul character and an adjacent Latin letter or "
      "digit"),
    K("header", "align", ALIGN, header_align, "alignment of the name, headline and contact lines"),
    KS("header", "name_size", name_size, 144, "size of the name (cv.name)"),
    K("header", "name_bold", BOOL, name_bold, "set the name in bold"),
    K("header", "name_color", COLOR, name_color, "colour of the name"),
    K("header", "name_font", FAMILY, role_family[CV_ROLE_NAME],
      "the name's font family (default: font.family); null for the body's"),
    K("header", "name_small_caps", BOOL, name_small_caps,
      "set the name's lowercase letters as small capitals"),
    K("header", "headline_font", FAMILY, role_family[CV_ROLE_HEADLINE],
      "the headline's font family (default: font.family)"),
    K("header", "headline_bold", BOOL, headline_bold, "set the headline in bold"),
    K("header", "headline_small_caps", BOOL, headline_small_caps,
      "set the headline's lowercase letters as small capitals"),
    K("header", "contact_font", FAMILY, role_family[CV_ROLE_CONTACT],
      "the contact line's font family (default: font.family); icons still come from "
      "font.fallback"),
    K("header", "contact_bold", BOOL, contact_bold, "set the contact line in bold"),
    K("header", "contact_small_caps", BOOL, contact_small_caps,
      "set the contact line's lowercase letters as small capitals"),
    K("header", "native_name_beside", BOOL, native_name_beside,
      "show cv.native_name after the name, an en space between; false hides it"),
    KS("header", "headline_size", headline_size, 72, "size of the headline (cv.headline)"),
    KS("header", "contact_size", contact_size, 72,
      "size of the contact line (location, email, phone, website, social networks)"),
    K("header", "contact_separator", STR, contact_separator,
      "the text printed literally between contact items (default: two spaces, a middle dot, "
      "two spaces)"),
    K("header", "phone_format", PHONEFMT, phone_format,
      "how phone numbers are shown: as written, or formatted by libphonenumber (national, "
      "international, E164)"),
    K("header", "icons", BOOL, contact_icons,
      "an icon (Fork Awesome) before each contact detail, as RenderCV shows them; the icon "
      "face must be in font.fallback"),
    K("header", "contact_urls", BOOL, contact_urls,
      "show each social network as its profile URL without the scheme, not as Network: "
      "username"),
    K("header", "contact_color", COLOR, contact_color,
      "colour of the contact line (default: colors.text)"),
    K("header", "space_after", LEN, header_gap,
      "space below the header, above the first section title"),
    KS("section_title", "size", title_size, 72, "size of the section titles"),
    K("section_title", "bold", BOOL, title_bold, "set section titles in bold"),
    K("section_title", "uppercase", BOOL, title_uppercase,
      "upper-case section titles by the rules of the profile's language, letter-spaced"),
    K("section_title", "small_caps", BOOL, title_small_caps,
      "set the titles' lowercase letters as small capitals (the face's own, or smaller "
      "capitals)"),
    K("section_title", "font", FAMILY, role_family[CV_ROLE_TITLE],
      "the section titles' font family (default: font.family)"),
    K("section_title", "color", COLOR, title_color, "colour of the section titles"),
    K("section_title", "rule", BOOL, title_rule, "draw a horizontal rule under each section title"),
    K("section_title", "align", ALIGN, title_align,
      "where a section title sits across the measure"),
    K("section_title", "rule_beside", BOOL, title_rule_beside,
      "the rule runs on from the title's end to the edge of the measure (RenderCV's partial "
      "line), not under it"),
    K("section_title", "rule_width", LEN, rule_width, "thickness of the title's rule"),
    K("section_title", "rule_color", COLOR, rule_color, "colour of the title's rule"),
    K("section_title", "rule_gap", LEN, rule_gap,
      "distance from the title's baseline down to its rule"),
    K("section_title", "space_before", LEN, title_space_before,
      "space above each section title, dropped at the top of a page"),
    K("section_title", "space_after", LEN, title_space_after,
      "space between a section title and the section's first entry"),
    K("entry", "space_between", LEN, entry_gap,
      "space between education, experience, publication and normal entries"),
    K("entry", "side_gap", LEN, side_gap,
      "space between an entry's main lines and its side (date) column"),
    K("entry", "side_width", LEN, side_width,
      "width of a side column running beside the whole entry, as RenderCV's date column; 0: "
      "as wide as its longest line, beside the header only"),
    K("entry", "side_left", BOOL, side_left,
      "with side_width, put the side column on the left (RenderCV's moderncv)"),
    K("entry", "text_space_between", LEN, text_gap,
      "space between text entries (plain strings); unset: 0.6 x entry.space_between"),
    K("entry", "side_color", COLOR, side_color, "colour of the side column's text"),
    KS("entry", "side_size", side_size, 72, "size of the side column's text"),
    K("entry", "block_gap", LEN, block_gap,
      "space between an entry's header lines, its summary and its first bullet"),
    K("bullets", "glyph", STR, bullet, "the mark before each top-level bullet"),
    K("bullets", "sub_glyph", STR, sub_bullet,
      "the mark before each nested bullet, at every deeper level"),
    K("bullets", "indent", LEN, bullet_indent,
      "where the bullet mark sits, from the left edge of its block"),
    K("bullets", "text_indent", LEN, bullet_text_indent,
      "where a bullet's text starts (a hanging indent), from the left edge of its block"),
    K("bullets", "sub_indent", LEN, sub_indent,
      "how far each level of nested bullets moves right of its parent's block"),
    KS("bullets", "size", bullet_size, 72,
       "the type size of the top-level mark (unset: the text's), placed as Typst places a "
       "list marker: the tops of its capitals level with the text's"),
    K("bullets", "raise", LEN, bullet_raise, "how far the top-level mark is raised"),
    K("bullets", "text_gap", LEN, bullet_text_gap,
      "space between a mark and its text, which then starts after the mark's own width "
      "(RenderCV's space_between_bullet_and_text); unset: text_indent"),
    K("bullets", "space_between", LEN, bullet_gap,
      "space between bullets, nested ones too, and between entries of bullet and numbered "
      "sections"),
    K("pdf", "title", STR, title_template,
      "the PDF's document title, shown in viewers' title bars; NAME is replaced by cv.name"),
    K("pdf", "pdfa", BOOL, pdfa, "write PDF/A-1b, as --pdfa does"),
    K("pdf", "pdfua", BOOL, pdfua,
      "write PDF/UA-1, as --pdfua does: a tagged PDF with its identification and a title"),
    K("pdf", "tagged", BOOL, tagged,
      "write a tagged PDF, whose structure tree gives the reading order, headings, lists "
      "and links"),
    K("pagination", "entry_lines", COUNT, entry_lines,
      "an entry of at most this many lines is never split across pages"),
    K("pagination", "orphans", COUNT, orphans,
      "lines of a split paragraph or bullet that must stay at the foot of a page (1-100)"),
    K("pagination", "widows", COUNT, widows,
      "lines of a split paragraph or bullet that must go to the head of the next page "
      "(1-100)"),
    K("pagination", "title_lines", COUNT, title_lines,
      "lines of its section a section title keeps with it on its page, besides the first "
      "entry's header"),
    K("pagination", "page_break_before", NAMES, break_before, "sections that start on a new page"),
    K("pagination", "keep_together", NAMES, keep_together,
      "sections never split across pages (unless taller than a page)"),
    K("pagination", "fill_pages", BOOL, fill_pages,
      "stretch the gaps of every page but the last so that it ends at the bottom margin"),
    K("pagination", "pull_back_last_page", BOOL, pull_back,
      "when the last page is less than pull_back_below full, set the résumé in one page "
      "fewer by tightening the spacing"),
    K("pagination", "pull_back_below", FRACTION, pull_back_below,
      "how full the last page must be for the résumé to keep it (default 0.25)"),
    K("columns.sidebar", "side", SIDE, sidebar_left, "which side of the page the sidebar is on"),
    K("columns.sidebar", "width", LEN, sidebar_w,
      "the sidebar's width (at most 60% of the measure)"),
    K("columns.sidebar", "gap", LEN, sidebar_gap, "space between the sidebar and the main column"),
    K("columns.sidebar", "sections", NAMES, sidebar_sections,
      "the sections that go in the sidebar, in profile order"),
    K("columns.sidebar", "contact", BOOL, sidebar_contact,
      "put the contact details at the top of the sidebar, one per line, not under the name"),
    K("columns.sidebar", "contact_title", STR, contact_title,
      "the title above the sidebar's contact details (default Contact, in the profile's "
      "language); empty for none"),
    K("columns.sidebar", "stack_side", BOOL, sidebar_stack,
      "in the sidebar, an entry's side lines go under its main lines, not in a column to "
      "the right"),
    K("columns.sidebar", "justify", BOOL, sidebar_justify,
      "justify the sidebar's text (by default it is set ragged-right)"),
    K("columns.sidebar", "single_block", BOOL, sidebar_single_block,
      "set all of the sidebar in the body size on one baseline grid, so that text "
      "extractors read it as one block"),
    K("columns.sidebar", "widen_main", BOOL, sidebar_widen,
      "the main column takes the full width from the first page without sidebar"),
    K("columns.sidebar", "line_spacing", NUM, sidebar_line_spacing,
      "the sidebar's line spacing under single_block (at most 1.45)"),
    K("columns.sidebar", "rule_width", LEN, sidebar_rule_width,
      "thickness of a vertical rule between the columns; 0 for none"),
    K("columns.sidebar", "rule_color", COLOR, sidebar_rule_color,
      "colour of the vertical rule between the columns"),
/* The running header's and footer's keys; `what` is "header" or "footer". */
#define RUNNING(sec, f, what)                                                            \
    K(sec, "left", STR, f.slot[0], "text at the left of the running " what ", a template"), \
    K(sec, "center", STR, f.slot[1], "text at the centre of the running " what ", a template"), \
    K(sec, "right", STR, f.slot[2], "text at the right of the running " what ", a template"), \
    K(sec, "first_page", BOOL, f.first_page, "show the running " what " on page 1 too"),  \
    K(sec, "single_page", BOOL, f.single_page,                                           \
      "show the running " what " when the résumé has one page too"),                     \
    KS(sec, "size", f.size, 72, "size of the running " what "'s text"),                  \
    K(sec, "only_first_page", BOOL, f.only_first_page,                                   \
      "show the running " what " on page 1 alone (with first_page)"),                    \
    K(sec, "color", COLOR, f.color, "colour of the running " what "'s text")
    RUNNING("page_header", page_header, "header"),
    RUNNING("page_footer", page_footer, "footer"),
#undef RUNNING
    K("photo", "width", LEN, photo_w,
      "the photo's width; its height follows the picture's aspect ratio"),
    K("photo", "height", LEN, photo_h,
      "the photo's greatest height: a tall picture is made narrower to fit"),
    K("photo", "position", PHOTOPOS, photo_where,
      "where the photo goes: right or left of the header, or at the top of the sidebar"),
    K("photo", "gap", LEN, photo_gap, "space between the photo and the header's text"),
    K("", "fit_pages", COUNT, fit_pages,
      "shrink the résumé to fit this many pages, as --fit-pages does (0: off)"),
    K("fit", "spacing_floor", FRACTION, fit_spacing_floor,
      "the least spacing fitting may leave, as a fraction of the layout's"),
    K("fit", "font_floor", FRACTION, fit_font_floor,
      "the least font size fitting may leave, as a fraction of the layout's"),
    K("fit", "margin_floor", LEN, fit_margin_floor, "the least margin fitting may leave"),
    /* RenderCV's design options (docs/rendercv.md). */
    K("links", "underline", BOOL, link_underline,
      "underline links in the text (not the contact line's)"),
    K("links", "external_icon", BOOL, link_icon,
      "an external-link icon after each link in the text (not the contact line's)"),
    K("header", "contact_links", BOOL, contact_links,
      "make each contact detail a link (mailto:, tel:, its address); false: plain text"),
    K("header", "contact_network_names", BOOL, contact_network_names,
      "without icons, show each social network as Network: username; false: the username "
      "alone"),
    K("header", "contact_gap", LEN, contact_gap,
      "space between contact items, the separator in its middle (RenderCV's "
      "space_between_connections); unset: the separator as written"),
    K("header", "space_below_name", LEN, name_gap, "space between the name and the headline"),
    K("header", "space_below_headline", LEN, headline_gap,
      "space between the headline and the contact line"),
    K("photo", "space_left", LEN, photo_space_left,
      "room left of the photo (RenderCV's header.photo_space_left)"),
    K("entry", "side_align", ALIGN, side_align,
      "how the side lines sit in the side column (RenderCV's "
      "date_and_location_column_alignment)"),
    K("entry", "side_space", LEN, side_space,
      "inset of every entry on both sides of the measure; section titles are not inset "
      "(RenderCV's side_space)"),
    K("entry", "degree_width", LEN, degree_width,
      "width of the degree column left of education entries' main lines, its gap included; "
      "0: none"),
    K("entry", "summary_space_before", LEN, summary_gap,
      "space between an entry's header lines and its summary (default: block_gap)"),
    K("entry", "summary_indent", LEN, summary_indent, "the left indent of an entry's summary"),
    K("pagination", "keep_sections", BOOL, keep_sections,
      "keep every section on one page, as keep_together would (RenderCV's allow_page_break: "
      "false)"),
    K("pagination", "keep_entries", BOOL, keep_entries,
      "keep every entry on one page, however long (RenderCV's entries.allow_page_break: "
      "false)"),
    K("section_title", "rule_baseline", BOOL, rule_baseline,
      "with rule_beside, the rules sit on the title's baseline, not at half its x-height"),
    /* RenderCV's date templates and time spans (design: templates and
     * sections.show_time_spans_in). */
    K("dates", "single", STR, date_single,
      "the template of one date: MONTH_NAME, MONTH_ABBREVIATION, MONTH, "
      "MONTH_IN_TWO_DIGITS, YEAR, YEAR_IN_TWO_DIGITS, DAY, DAY_IN_TWO_DIGITS (RenderCV's "
      "templates.single_date); empty: the language's form"),
    K("dates", "range", STR, date_range,
      "the template of a date range from START_DATE and END_DATE (RenderCV's "
      "templates.date_range)"),
    K("dates", "time_span", STR, time_span,
      "the template of a time span: HOW_MANY_YEARS YEARS HOW_MANY_MONTHS MONTHS (RenderCV's "
      "templates.time_span); \"\": none"),
    K("dates", "show_time_spans_in", NAMES, time_spans_in,
      "sections whose entries show how long they lasted under their dates (RenderCV's "
      "sections.show_time_spans_in)"),
    K("dates", "english_month_abbreviations", MONTHS, english_abbr,
      "the twelve month abbreviations of an English profile whose locale gives none "
      "(RenderCV's Jan, Feb ... June, July, Sept)"),
    K("html", "fonts", WEBFONTS, html_system_fonts,
      "the faces of an HTML page: embed (the layout's, subset, as WOFF2) or system (the "
      "reader's own, by name)"),
};
#undef K

static const char *const top_keys[] = {
    "extends", "page", "font", "colors", "text", "header", "section_title",
    "entry", "bullets", "templates", "pdf", "pagination", "columns", "page_header",
    "page_footer", "photo", "fit_pages", "fit", "links", "dates", "html", NULL};

/* Template keys, indexed like cv_entry_kind. */
static const char *const tmpl_names[CV_ENTRY_NKINDS + 1] = {
    "text", "bullet", "numbered", "reversed_numbered", "one_line", "education",
    "experience", "publication", "normal", NULL};

/* The words of a choice, in the order of the value each gives. */
static const char *const choice_words[][5] = {
    [ALIGN] = {"left", "center", "right", NULL},
    [SIDE] = {"right", "left", NULL},
    [PHOTOPOS] = {"right", "left", "sidebar", NULL},
    [PHONEFMT] = {"as_written", "national", "international", "E164", NULL},
    [BREAKING] = {"optimal", "greedy", NULL},
    [WEBFONTS] = {"embed", "system", NULL},
};

/* The keys of the structured readers: page, page.margins, font and a
 * template. */
static const char *const page_keys[] = {"size", "margins", NULL};
static const char *const margin_keys[] = {"top", "bottom", "left", "right", NULL};
static const char *const font_keys[] = {"family", "fallback", "mono", "size", "line_spacing",
                                        "lining_figures", "fit_ascenders",
                                        NULL};
static const char *const tmpl_keys[] = {"main", "side", "degree", NULL};

/* Page sizes by name (any case). */
static const struct page_size {
    const char *name;
    float w, h;
} page_sizes[] = {
    {"a4", 595.276f, 841.89f}, {"letter", 612, 792}, {"us-letter", 612, 792},
    {"a5", 419.528f, 595.276f}, {"legal", 612, 1008},
};

void cv_style_defaults(cv_style *st)
{
    memset(st, 0, sizeof *st);
    st->mono = -1;
    for (int r = 0; r < CV_NROLES; r++)
        for (int s = 0; s < 4; s++)
            st->role_face[r][s] = -1;
    st->page_w = 595.276f;               /* A4 */
    st->page_h = 841.89f;
    st->margin_top = st->margin_bottom = 51.02f;    /* 18 mm */
    st->margin_left = st->margin_right = 51.02f;
    st->size = 10;
    st->line_spacing = 1.25f;
    st->fit_ascenders = true;
    st->text_color = 0x1A1A1A;
    st->muted_color = 0x4D4D4D;
    st->link_color = 0x1F3A5F;
    st->justify = true;
    st->hyphenate = true;
    st->cjk_latin_space = 0.25f;
    st->smart_quotes = true;
    st->header_align = CV_ALIGN_CENTER;
    st->name_size = 24;
    st->name_bold = true;
    st->name_color = 0x1F3A5F;
    st->native_name_beside = true;
    st->headline_size = 11;
    st->contact_size = 9;
    st->contact_separator = "  \xC2\xB7  ";     /* middle dot */
    st->header_gap = 6;
    st->title_size = 11;
    st->title_bold = true;
    st->title_uppercase = true;
    st->title_color = 0x1F3A5F;
    st->title_rule = true;
    st->rule_width = 0.6f;
    st->rule_color = 0x1F3A5F;
    st->rule_gap = 3;
    st->title_space_before = 12;
    st->title_space_after = 5;
    st->entry_gap = 7;
    st->side_gap = 12;
    st->text_gap = -1;          /* unset: 0.6 x entry.space_between */
    st->contact_color = 0xFFFFFFFFu;    /* unset: colors.text */
    st->side_color = 0x4D4D4D;
    st->side_size = 9.5f;
    st->block_gap = 2;
    st->bullet = "\xE2\x80\xA2";                 /* • */
    st->sub_bullet = "\xE2\x80\x93";             /* – */
    st->bullet_indent = 3;
    st->bullet_text_indent = 12;
    st->bullet_text_gap = -1;                   /* unset: bullet_text_indent */
    st->sub_indent = 12;
    st->bullet_gap = 1.5f;
    st->title_template = "NAME \xE2\x80\x94 R\xC3\xA9sum\xC3\xA9";
    st->entry_lines = 4;
    st->orphans = st->widows = 2;
    st->title_lines = 2;
    st->pull_back = true;
    st->pull_back_below = 0.25f;
    st->sidebar_left = true;
    st->sidebar_w = 170;                 /* 60 mm */
    st->sidebar_gap = 20;
    st->sidebar_stack = true;
    st->sidebar_single_block = true;
    st->sidebar_widen = true;
    st->tagged = true;
    st->sidebar_line_spacing = 1.4f;
    st->sidebar_rule_color = 0xC8CED6;
    st->contact_title = "Contact";
    st->page_header = st->page_footer = (cv_running){.size = 8, .color = 0x4D4D4D};
    st->photo_w = 85.04f;                /* 30 mm */
    st->photo_gap = 12;
    st->fit_spacing_floor = 0.4f;
    st->fit_font_floor = 0.85f;
    st->fit_margin_floor = 28.35f;       /* 10 mm */
    st->contact_links = true;
    st->contact_network_names = true;
    st->contact_gap = st->name_gap = st->headline_gap = st->summary_gap = -1;   /* unset */
    st->side_align = CV_ALIGN_RIGHT;

    static const struct { cv_entry_kind k; const char *m[3], *s[2]; } t[] = {
        {CV_ENTRY_EDUCATION, {"**INSTITUTION**", "*DEGREE in AREA*"}, {"DATE", "*LOCATION*"}},
        {CV_ENTRY_EXPERIENCE, {"**COMPANY**", "*POSITION*"}, {"DATE", "*LOCATION*"}},
        {CV_ENTRY_PUBLICATION, {"**TITLE**", "AUTHORS", "*JOURNAL* \xC2\xB7 DOI \xC2\xB7 URL"}, {"DATE"}},
        {CV_ENTRY_NORMAL, {"**NAME**"}, {"DATE", "*LOCATION*"}},
        {CV_ENTRY_ONELINE, {"**LABEL:** DETAILS"}, {0}},
        {CV_ENTRY_TEXT, {"TEXT"}, {0}},
        {CV_ENTRY_BULLET, {"TEXT"}, {0}},
        {CV_ENTRY_NUMBERED, {"TEXT"}, {0}},
        {CV_ENTRY_REVERSED, {"TEXT"}, {0}},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        cv_template *tp = &st->tmpl[t[i].k];
        for (size_t j = 0; j < 3 && t[i].m[j]; j++)
            tp->main[tp->nmain++] = t[i].m[j];
        for (size_t j = 0; j < 2 && t[i].s[j]; j++)
            tp->side[tp->nside++] = t[i].s[j];
    }
}

static bool get_len(const cv_yml *n, float *out, cv_error *err)
{
    const char *s;
    if (!cv_yml_str(n, &s, err))
        return false;
    if (!cv_parse_length(s, out))
        return cv_error_at(err, n->pos, "invalid length '%s' (use e.g. 10pt, 18mm, "
                           "1.5cm or 0.75in)", s);
    return true;
}

/* Whether `base` is a file other than `path` (`extends: sidebar` in the
 * user's own sidebar.yaml means the shipped one). */
static bool beside(const char *path, const char *base)
{
    struct stat a, b;
    return stat(base, &b) == 0 && !(stat(path, &a) == 0 && a.st_dev == b.st_dev &&
                                     a.st_ino == b.st_ino);
}

/* Load `path` and, recursively, what it extends. */
static cv_yml *load_tree(cv_arena *a, const cv_engine *eng, const char *path, int depth,
                         cv_error *err)
{
    cv_inputs *in = eng->inputs;
    cv_inputs_add(in, path, "a layout");
    size_t len;
    char *buf = cv_yml_read_regular(a, path, &len, err);
    if (!buf)
        return NULL;
    cv_yml *root = cv_yml_load(a, path, buf, len, err);
    if (!root)
        return NULL;
    if (root->kind != CV_YML_MAP) {
        cv_error_at(err, root->pos, "a layout must be a mapping of settings");
        return NULL;
    }
    cv_yml *ext = cv_yml_get(root, "extends");
    if (!ext)
        return root;
    const char *name;
    if (!cv_yml_str(ext, &name, err))
        return NULL;
    if (depth >= 8) {
        cv_error_at(err, ext->pos, "'extends' goes more than 8 layouts deep "
                    "(a cycle?)");
        return NULL;
    }
    /* `extends: onecolumn` is onecolumn.yaml beside this file, else the
     * shipped layout of that name (eng->find_layout); any other relative value is
     * a path relative to this file, with ".yaml" added when it has no
     * .yaml/.yml suffix; an absolute path is used as is. */
    char *dir = cv_arena_strdup(a, path);
    dir = dirname(dir);
    size_t nl = strlen(name);
    bool has_ext = (nl >= 5 && !strcmp(name + nl - 5, ".yaml")) ||
                   (nl >= 4 && !strcmp(name + nl - 4, ".yml"));
    /* Named as a user would write it: "base.yaml" or "sub/base.yaml",
     * not "././base.yaml" (`-l ./my.yaml` with `extends: ./base.yaml`). */
    const char *rel = name;
    while (rel[0] == '.' && rel[1] == '/')
        for (rel += 2; *rel == '/';)
            rel++;
    const char *base_path = name[0] == '/' ? name
                          : !strcmp(dir, ".")
                              ? cv_arena_printf(a, "%s%s", rel, has_ext ? "" : ".yaml")
                              : cv_arena_printf(a, "%s/%s%s", dir, rel, has_ext ? "" : ".yaml");
    const char *why = NULL;
    const char *shipped = eng->find_layout && !beside(path, base_path)
                              ? eng->find_layout(a, name, &why) : NULL;
    if (shipped)
        base_path = shipped;
    else if (why && access(base_path, F_OK) != 0)
        return cv_error_at(err, ext->pos, "cannot open '%s'; %s", base_path, why), NULL;
    cv_error sub;
    cv_error_init(&sub);
    cv_yml *base = load_tree(a, eng, base_path, depth + 1, &sub);
    if (!base) {
        if (sub.pos.line == 0)     /* the base file itself is missing */
            cv_error_at(err, ext->pos, "%s", sub.msg);
        else
            *err = sub;
        return NULL;
    }
    return (cv_yml *)cv_yml_merge(a, base, root);
}

static bool read_page(cv_arena *a, const cv_yml *page, cv_style *st, cv_error *err)
{
    if (!cv_yml_check_keys(page, page_keys, "page", err))
        return false;
    cv_yml *size = cv_yml_get(page, "size");
    if (size && size->kind == CV_YML_SCALAR) {
        size_t i = 0, n = sizeof page_sizes / sizeof *page_sizes;
        while (i < n && strcasecmp(size->str, page_sizes[i].name))
            i++;
        if (i == n)
            return cv_error_at(err, size->pos, "unknown page size '%s' (use a4, "
                               "letter, a5, legal or [width, height])", size->str);
        st->page_w = page_sizes[i].w, st->page_h = page_sizes[i].h;
    } else if (size && size->kind == CV_YML_SEQ && size->n == 2) {
        if (!get_len(size->items[0], &st->page_w, err) ||
            !get_len(size->items[1], &st->page_h, err))
            return false;
        /* From 3 inches a side (a margin and a column of text) to the 200
         * inches a PDF page may have. */
        for (int i = 0; i < 2; i++) {
            float v = i ? st->page_h : st->page_w;
            if (v < 216 || v > 14400)
                return cv_error_at(err, size->items[i]->pos, "a page %s must be 3-200 inches "
                                   "(216-14400pt), not %.6gpt", i ? "height" : "width", v);
        }
    } else if (size) {
        return cv_error_at(err, size->pos, "page size must be a name or [width, height]");
    }
    cv_yml *m = cv_yml_get(page, "margins");
    if (m && m->kind == CV_YML_SCALAR) {
        float v;
        if (!get_len(m, &v, err))
            return false;
        st->margin_top = st->margin_bottom = st->margin_left = st->margin_right = v;
    } else if (m && m->kind == CV_YML_MAP) {
        const char *const *mk = margin_keys;
        if (!cv_yml_check_keys(m, mk, "page.margins", err))
            return false;
        float *dst[] = {&st->margin_top, &st->margin_bottom, &st->margin_left,
                        &st->margin_right};
        for (int i = 0; i < 4; i++) {
            cv_yml *v = cv_yml_get(m, mk[i]);
            if (v && !get_len(v, dst[i], err))
                return false;
        }
    } else if (m) {
        return cv_error_at(err, m->pos, "margins must be a length or a mapping "
                           "of top, bottom, left, right");
    }
    if (st->margin_left + st->margin_right > st->page_w - 72 ||
        st->margin_top + st->margin_bottom > st->page_h - 72)
        /* Blame what this layout wrote, not what it inherited. */
        return cv_error_at(err, (m && (!size || !strcmp(m->pos.file, st->file)) ? m
                                 : size ? size : page)->pos,
                           "the margins leave less than one inch of page");
    (void)a;
    return true;
}

static bool read_templates(cv_arena *a, const cv_yml *t, cv_style *st, cv_error *err)
{
    if (t->kind != CV_YML_MAP)
        return cv_error_at(err, t->pos, "'templates' must be a mapping of entry types");
    if (!cv_yml_check_keys(t, tmpl_names, "templates", err))
        return false;
    for (size_t k = 0; k < CV_ENTRY_NKINDS; k++) {
        cv_yml *e = cv_yml_get(t, tmpl_names[k]);
        if (!e)
            continue;
        const char *const *ek = tmpl_keys;
        if (e->kind != CV_YML_MAP || !cv_yml_check_keys(e, ek, tmpl_names[k], err))
            return e->kind == CV_YML_MAP ? false
                   : cv_error_at(err, e->pos, "a template is a mapping with 'main' "
                                 "and 'side' lists");
        for (int side = 0; side < 3; side++) {
            cv_yml *l = cv_yml_get(e, ek[side]);
            if (!l)
                continue;
            const char **dst = side == 2 ? st->tmpl[k].degree
                               : side ? st->tmpl[k].side : st->tmpl[k].main;
            size_t *n = side == 2 ? &st->tmpl[k].ndegree
                        : side ? &st->tmpl[k].nside : &st->tmpl[k].nmain;
            if (l->kind == CV_YML_SCALAR) {
                if (!cv_yml_str(l, &dst[0], err))
                    return false;
                *n = cv_yml_is_null(l) ? 0 : 1;
                continue;
            }
            if (l->kind != CV_YML_SEQ)
                return cv_error_at(err, l->pos, "'%s' must be a list of template lines",
                                   ek[side]);
            if (l->n > CV_MAX_TMPL)
                return cv_error_at(err, l->items[CV_MAX_TMPL]->pos,
                                   "at most %d template lines", CV_MAX_TMPL);
            *n = 0;
            for (size_t i = 0; i < l->n; i++)
                if (!cv_yml_str(l->items[i], &dst[(*n)++], err))
                    return false;
        }
    }
    (void)a;
    return true;
}

/* A family written as a file name (with a '/', or ending in .ttf, .ttc or
 * .otf) names a font file rather than a family. */
static bool is_font_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') ||
           (n > 4 && (!strcasecmp(s + n - 4, ".ttf") || !strcasecmp(s + n - 4, ".ttc") ||
                      !strcasecmp(s + n - 4, ".otf") || !strcasecmp(s + n - 4, ".otc")));
}

/* Open the font file `name` (relative to the layout file that names it, at
 * `pos`): its first face, for every style.  The file is checked first so
 * the message says what is wrong with it, and a FIFO never blocks the run. */
static int font_file(cv_arena *a, cv_fontset *fs, const char *name, cv_pos pos, cv_error *err)
{
    const char *path = name;
    if (name[0] != '/' && pos.file)
        path = cv_arena_printf(a, "%s/%s", dirname(cv_arena_strdup(a, pos.file)), name);
    struct stat sb;
    int fd = -1;
    if (stat(path, &sb) != 0 || (S_ISREG(sb.st_mode) &&
                                 (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0))
        cv_error_at(err, pos, "cannot open font '%s': %s", path, strerror(errno));
    else if (!S_ISREG(sb.st_mode))
        cv_error_at(err, pos, "font '%s' is %s, not a font file", path,
                    S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
    if (fd < 0)
        return -1;
    close(fd);
    return cv_fontset_open_file(fs, path, 0, pos, err);
}

static bool read_fonts(cv_arena *a, const cv_yml *font, cv_fontset *fs, cv_style *st,
                       cv_error *err)
{
    const char *family = "Lato";
    cv_pos fam_pos = {st->file, 0, 0};
    const cv_yml *fallback = NULL;
    if (font) {
        if (!cv_yml_check_keys(font, font_keys, "font", err))
            return false;
        cv_yml *f = cv_yml_get(font, "family");
        if (f) {
            if (!cv_yml_str(f, &family, err))
                return false;
            fam_pos = f->pos;
        }
        fallback = cv_yml_get(font, "fallback");
        if (fallback && fallback->kind == CV_YML_SCALAR) {
            /* one family: treat as a list of one */
        } else if (fallback && fallback->kind != CV_YML_SEQ) {
            return cv_error_at(err, fallback->pos, "'fallback' must be a list of families");
        }
    }
    const char *names[CV_MAX_CHAIN];
    cv_pos pos[CV_MAX_CHAIN];
    size_t n = 0;
    names[n] = family, pos[n++] = fam_pos;
    /* The default CJK fallback: Noto Sans CJK (real bold; optional, so a
     * system without it still renders), then the bundled WenQuanYi. */
    bool default_chain = !font || !cv_yml_get(font, "fallback");
    if (default_chain && cv_fontset_find_lazy(fs, "Noto Sans CJK SC", false, false,
                                              &(bool){false}, fam_pos, &(cv_error){0}) >= 0)
        names[n] = "Noto Sans CJK SC", pos[n++] = fam_pos;
    if (!font)
        names[n] = "WenQuanYi Micro Hei", pos[n++] = fam_pos;
    else if (fallback && fallback->kind == CV_YML_SCALAR)
        names[n] = fallback->str, pos[n++] = fallback->pos;
    else if (fallback)
        for (size_t i = 0; i < fallback->n; i++) {
            if (n == CV_MAX_CHAIN)
                return cv_error_at(err, fallback->items[i]->pos,
                                   "at most %d fallback families", CV_MAX_CHAIN - 1);
            if (!cv_yml_str(fallback->items[i], &names[n], err))
                return false;
            pos[n++] = fallback->items[i]->pos;
        }
    else if (!cv_yml_get(font, "fallback"))
        names[n] = "WenQuanYi Micro Hei", pos[n++] = fam_pos;
    /* A font file serves every style; bold is synthesised when it is not. */
    int file_id[CV_MAX_CHAIN];
    for (size_t i = 0; i < n; i++) {
        file_id[i] = is_font_path(names[i]) ? font_file(a, fs, names[i], pos[i], err) : -2;
        if (file_id[i] == -1)
            return false;
    }
    for (int s = 0; s < 4; s++)
        for (size_t i = 0; i < n; i++) {
            if (file_id[i] >= 0) {
                st->chain[s][i] = file_id[i];
                st->synth[s][i] = (s & CV_STYLE_BOLD) && !cv_fontset_face(fs, file_id[i])->bold;
                continue;
            }
            /* Fallback faces are opened when a character first needs
             * them: a CJK collection costs milliseconds a face. */
            st->chain[s][i] = (i ? cv_fontset_find_lazy : cv_fontset_find)(
                fs, names[i], s & CV_STYLE_BOLD, s & CV_STYLE_ITALIC, &st->synth[s][i],
                pos[i], err);
            if (st->chain[s][i] < 0)
                return false;
        }
    st->nchain = n;

    /* font.mono, for `code`: DejaVu Sans Mono unless the layout names
     * another; a default that is not installed leaves code in the text's
     * face, a named one that is not is an error. */
    const cv_yml *mono = font ? cv_yml_get(font, "mono") : NULL;
    const char *mname = "DejaVu Sans Mono";
    st->mono = -1;
    if (mono && cv_yml_is_null(mono))
        return true;
    if (mono && !cv_yml_str(mono, &mname, err))
        return false;
    cv_error quiet;
    cv_error_init_silent(&quiet);
    bool synth;
    st->mono = is_font_path(mname)
                   ? font_file(a, fs, mname, mono->pos, mono ? err : &quiet)
                   : cv_fontset_find(fs, mname, false, false, &synth,
                                     mono ? mono->pos : (cv_pos){st->file, 0, 0},
                                     mono ? err : &quiet);
    if (st->mono < 0)
        st->mono = -1;
    return !err->set;
}

/* The roles' own families (header.name_font, ...): each style's face,
 * found as font.family's are; a font file serves every style. */
static bool read_role_fonts(cv_arena *a, cv_fontset *fs, cv_style *st, cv_error *err)
{
    for (int r = 0; r < CV_NROLES; r++) {
        const char *name = st->role_family[r];
        for (int s = 0; s < 4; s++)
            st->role_face[r][s] = -1, st->role_synth[r][s] = false;
        if (!name)
            continue;
        int file = is_font_path(name) ? font_file(a, fs, name, st->role_pos[r], err) : -2;
        if (file == -1)
            return false;
        for (int s = 0; s < 4; s++) {
            if (file >= 0) {
                st->role_face[r][s] = file;
                st->role_synth[r][s] = (s & CV_STYLE_BOLD) && !cv_fontset_face(fs, file)->bold;
                continue;
            }
            st->role_face[r][s] = cv_fontset_find(fs, name, s & CV_STYLE_BOLD,
                                                  s & CV_STYLE_ITALIC, &st->role_synth[r][s],
                                                  st->role_pos[r], err);
            if (st->role_face[r][s] < 0)
                return false;
        }
    }
    return true;
}

static bool read_names(const cv_yml *v, cv_names *out, cv_error *err)
{
    out->n = 0;
    if (cv_yml_is_null(v))
        return true;
    if (v->kind == CV_YML_SCALAR) {
        out->pos[0] = v->pos;
        out->n = 1;
        return cv_yml_str(v, &out->s[0], err);
    }
    if (v->kind != CV_YML_SEQ)
        return cv_error_at(err, v->pos, "expected a list of section names");
    if (v->n > CV_MAX_NAMES)
        return cv_error_at(err, v->items[CV_MAX_NAMES]->pos, "at most %d section names",
                           CV_MAX_NAMES);
    for (size_t i = 0; i < v->n; i++) {
        out->pos[i] = v->items[i]->pos;
        if (!cv_yml_str(v->items[i], &out->s[i], err))
            return false;
    }
    out->n = v->n;
    return true;
}

/* One value of the keys table into `dst`. */
static bool read_value(const key *k, const cv_yml *v, void *dst, cv_error *err)
{
    double num;
    const char *s;
    switch (k->kind) {
    case LEN: {
        float lo = k->lo, hi = k->hi ? k->hi : 400;
        if (!get_len(v, dst, err))
            return false;
        float got = *(float *)dst;
        if (got < lo || got > hi) {
            const char *dot = *k->section ? "." : "";
            if (k->lo > 0)
                return cv_error_at(err, v->pos, "%s%s%s must be %g-%gpt (a type size), not "
                                   "%.6gpt", k->section, dot, k->name, lo, hi, got);
            return cv_error_at(err, v->pos, "%s%s%s must be at most %gpt (%.0f mm), not "
                               "%.6gpt", k->section, dot, k->name, hi, hi * 25.4 / 72, got);
        }
        return true;
    }
    case NUM:
        if (!cv_yml_num(v, &num, err))
            return false;
        if (num < 0.5 || num > 4)
            return cv_error_at(err, v->pos, "%s must be between 0.5 and 4", k->name);
        *(float *)dst = (float)num;
        return true;
    case COUNT:
        if (!cv_yml_num(v, &num, err))
            return false;
        if (num < 0 || num > 100 || num != floor(num))
            return cv_error_at(err, v->pos, "%s must be a whole number from 0 to 100",
                               k->name);
        if (num < 1 && (!strcmp(k->name, "orphans") || !strcmp(k->name, "widows")))
            return cv_error_at(err, v->pos, "%s must be a whole number from 1 to 100 (a "
                               "split paragraph keeps at least one line on each page)",
                               k->name);
        *(float *)dst = (float)num;
        return true;
    case EM: {               /* 0.25em, 0.25 or 0: a fraction of the type size */
        if (v->kind == CV_YML_SCALAR && v->str) {
            char *end;
            num = strtod(v->str, &end);
            if (end == v->str || (*end && strcmp(end, "em")))
                num = -1;
        } else {
            num = -1;
        }
        if (!(num >= 0 && num <= 1))
            return cv_error_at(err, v->pos, "%s must be a width in em from 0 to 1, "
                               "such as 0.25em (0 for none)", k->name);
        *(float *)dst = (float)num;
        return true;
    }
    case FRACTION: {
        if (!cv_yml_str(v, &s, err))
            return false;
        char *end;
        num = strtod(s, &end);
        if (end != s && *end == '%' && !end[1])
            num /= 100;
        else if (end == s || *end)
            num = -1;
        if (!(num > 0 && num <= 1))
            return cv_error_at(err, v->pos, "%s must be a fraction such as 0.85 or 85%%",
                               k->name);
        *(float *)dst = (float)num;
        return true;
    }
    case BOOL:
        return cv_yml_bool(v, dst, err);
    case COLOR:
        return cv_yml_color(v, dst, err);
    case STR:
        if (cv_yml_is_null(v)) {
            *(const char **)dst = NULL;
            return true;
        }
        if (!cv_yml_str(v, dst, err))
            return false;
        /* Each becomes text on every page or a string in the PDF. */
        if (strlen(*(const char **)dst) > MAX_LAYOUT_STRING)
            return cv_error_at(err, v->pos, "%s%s%s is longer than %d bytes", k->section,
                               *k->section ? "." : "", k->name, MAX_LAYOUT_STRING);
        return true;
    case NAMES:
        return read_names(v, dst, err);
    case MONTHS: {           /* twelve names; null: none */
        const char **m = dst;
        if (cv_yml_is_null(v)) {
            memset(m, 0, 12 * sizeof *m);
            return true;
        }
        if (v->kind != CV_YML_SEQ || v->n != 12)
            return cv_error_at(err, v->pos, "%s.%s must be a list of 12 names, January's "
                               "first", k->section, k->name);
        for (size_t i = 0; i < 12; i++)
            if (!cv_yml_str(v->items[i], &m[i], err))
                return false;
        return true;
    }
    case FAMILY:             /* a family or a font file; null: the body's */
        if (cv_yml_is_null(v)) {
            *(const char **)dst = NULL;
            return true;
        }
        if (!cv_yml_str(v, dst, err))
            return false;
        if (!**(const char **)dst || strlen(*(const char **)dst) > 256)
            return cv_error_at(err, v->pos, "%s.%s must be a font family or a font file",
                               k->section, k->name);
        return true;
    case PHONEFMT:
        if (cv_yml_is_null(v)) {                /* RenderCV's null: as written */
            *(int *)dst = CV_PHONE_AS_WRITTEN;
            return true;
        }
        /* fall through */
    case ALIGN:
    case SIDE:
    case PHOTOPOS:
    case BREAKING:
    case WEBFONTS: {
        static const char *const hint[] = {
            [ALIGN] = "align must be left, center or right",
            [SIDE] = "side must be left or right",
            [PHOTOPOS] = "position must be right, left or sidebar",
            [BREAKING] = "line_breaking must be optimal (Knuth-Plass) or greedy (first fit)",
            [PHONEFMT] = "phone_format must be as_written, national, international or E164",
            [WEBFONTS] = "html.fonts must be embed (the layout's faces in the page) or "
                         "system (the reader's)",
        };
        if (!cv_yml_str(v, &s, err))
            return false;
        for (int i = 0; choice_words[k->kind][i]; i++)
            if (!strcmp(s, choice_words[k->kind][i])) {
                if (k->kind == ALIGN || k->kind == PHOTOPOS || k->kind == PHONEFMT)
                    *(int *)dst = i;
                else
                    *(bool *)dst = i == 1;
                return true;
            }
        return cv_error_at(err, v->pos, "%s", hint[k->kind]);
    }
    }
    return false;
}

bool cv_style_read_keys(const cv_yml *over, const char *const *paths, cv_style *st,
                        cv_error *err)
{
    for (size_t p = 0; paths[p]; p++) {
        const char *dot = strrchr(paths[p], '.');
        const key *k = NULL;
        for (size_t j = 0; j < sizeof keys / sizeof *keys && !k; j++)
            if (dot && strlen(keys[j].section) == (size_t)(dot - paths[p]) &&
                !strncmp(keys[j].section, paths[p], (size_t)(dot - paths[p])) &&
                !strcmp(keys[j].name, dot + 1))
                k = &keys[j];
        /* The value at the dotted path, mapping by mapping. */
        const cv_yml *v = k ? over : NULL;
        for (const char *seg = paths[p]; v && seg;) {
            const char *end = strchr(seg, '.');
            char name[64];
            snprintf(name, sizeof name, "%.*s", end ? (int)(end - seg) : (int)strlen(seg), seg);
            v = v->kind == CV_YML_MAP ? cv_yml_get(v, name) : NULL;
            seg = end ? end + 1 : NULL;
        }
        if (v && !read_value(k, v, (char *)st + k->off, err))
            return false;
    }
    return true;
}

/* Check and read the mapping at `path` ("" for the root, "columns.sidebar"
 * for a nested one) against the keys table, and its sub-mappings. */
static bool read_section(cv_arena *a, const cv_yml *node, const char *path, cv_style *st,
                         cv_error *err)
{
    size_t pl = strlen(path);
    const char *allowed[64];
    size_t na = 0;
    if (!pl)
        for (size_t i = 0; top_keys[i]; i++)
            allowed[na++] = top_keys[i];
    else if (!strcmp(path, "font"))
        for (size_t i = 0; font_keys[i]; i++)
            allowed[na++] = font_keys[i];
    for (size_t k = 0; k < sizeof keys / sizeof *keys && na < 62; k++) {
        const char *sec = keys[k].section;
        if (pl && !strcmp(sec, path)) {
            bool dup = false;
            for (size_t j = 0; j < na && !dup; j++)
                dup = !strcmp(allowed[j], keys[k].name);
            if (!dup)
                allowed[na++] = keys[k].name;
        } else if (!strncmp(sec, path, pl) && (!pl || sec[pl] == '.') && sec[0]) {
            /* A sub-mapping: its first name below `path`. */
            const char *sub = sec + pl + (pl ? 1 : 0);
            size_t sl = strcspn(sub, ".");
            bool seen = false;
            for (size_t j = 0; j < na; j++)
                seen |= !strncmp(allowed[j], sub, sl) && !allowed[j][sl];
            if (!seen)
                allowed[na++] = cv_arena_strndup(a, sub, sl);
        }
    }
    allowed[na] = NULL;
    char what[64];
    snprintf(what, sizeof what, pl ? "'%s'" : "the layout", path);
    if (!cv_yml_check_keys(node, allowed, what, err))
        return false;
    for (size_t i = 0; i < node->n; i++) {
        const char *name = node->keys[i]->str;
        cv_yml *v = node->items[i];
        const key *k = NULL;
        for (size_t j = 0; j < sizeof keys / sizeof *keys && !k; j++)
            if (!strcmp(keys[j].section, path) && !strcmp(keys[j].name, name))
                k = &keys[j];
        if (k) {
            if (!read_value(k, v, (char *)st + k->off, err))
                return false;
            /* Glyphs the layout chooses are checked when they are set:
             * keep where they came from. */
            if (k->off == offsetof(cv_style, bullet))
                st->bullet_pos = v->pos;
            else if (k->off == offsetof(cv_style, sub_bullet))
                st->sub_bullet_pos = v->pos;
            else if (k->kind == FAMILY)
                st->role_pos[(k->off - offsetof(cv_style, role_family)) /
                             sizeof st->role_family[0]] = v->pos;
            continue;
        }
        if (!pl && (!strcmp(name, "extends") || !strcmp(name, "templates") ||
                    !strcmp(name, "page")))
            continue;            /* read by their own readers */
        if (!strcmp(path, "font") && (!strcmp(name, "family") || !strcmp(name, "fallback") ||
                                      !strcmp(name, "mono")))
            continue;
        if (!strcmp(path, "columns") && !strcmp(name, "sidebar") && cv_yml_is_null(v))
            continue;            /* `sidebar: ~` in a child layout: one column */
        if (v->kind != CV_YML_MAP)
            return cv_error_at(err, v->pos, "'%s' must be a mapping", name);
        char *sub = pl ? cv_arena_printf(a, "%s.%s", path, name) : cv_arena_strdup(a, name);
        if (!read_section(a, v, sub, st, err))
            return false;
        if (!strcmp(sub, "columns.sidebar"))
            st->sidebar = true;
    }
    return true;
}

bool cv_style_load(cv_arena *a, const char *path, cv_engine *eng, cv_style *st,
                   cv_error *err)
{
    return cv_style_load_over(a, path, NULL, eng, st, err);
}

/* A copy of mapping `m` in the arena whose key `name` holds `v` instead, or
 * is left out when `v` is NULL. */
static cv_yml *with_item(cv_arena *a, const cv_yml *m, const char *name, cv_yml *v)
{
    cv_yml *c = cv_arena_alloc(a, sizeof *c);
    *c = *m;
    c->keys = cv_arena_alloc(a, sizeof *c->keys * (m->n ? m->n : 1));
    c->items = cv_arena_alloc(a, sizeof *c->items * (m->n ? m->n : 1));
    c->n = 0;
    for (size_t i = 0; i < m->n; i++) {
        bool hit = !strcmp(m->keys[i]->str, name);
        if (hit && !v)
            continue;
        c->keys[c->n] = m->keys[i];
        c->items[c->n++] = hit ? v : m->items[i];
    }
    return c;
}

/* A design's family that is not installed is a warning, as Typst's unknown
 * fonts are, and the theme's own family stays: `over` without that key. */
static const cv_yml *installed_families(cv_arena *a, const cv_yml *over, cv_fontset *fs,
                                        cv_error *err)
{
    static const char *const parts[][2] = {
        {"font", "family"}, {"header", "name_font"}, {"header", "headline_font"},
        {"header", "contact_font"}, {"section_title", "font"}};
    cv_pos said[5];
    const char *said_name[5];
    size_t nsaid = 0;
    for (size_t k = 0; k < sizeof parts / sizeof *parts; k++) {
        const cv_yml *sec = cv_yml_get(over, parts[k][0]);
        const cv_yml *v = sec ? cv_yml_get(sec, parts[k][1]) : NULL;
        if (!v || v->kind != CV_YML_SCALAR || cv_yml_is_null(v) || is_font_path(v->str))
            continue;
        cv_error quiet;
        cv_error_init_silent(&quiet);
        bool synth;
        if (cv_fontset_find_lazy(fs, v->str, false, false, &synth, v->pos, &quiet) >= 0)
            continue;
        /* One family for every part (a string), or the same family named
         * for several parts, is one warning. */
        bool dup = false;
        for (size_t i = 0; i < nsaid; i++)
            dup |= (said[i].line == v->pos.line && said[i].col == v->pos.col) ||
                   !strcmp(said_name[i], v->str);
        if (!dup)
            cv_warn(err, v->pos, "no font of family '%s' in fonts/ or through fontconfig: the "
                    "theme's face stands in", v->str);
        said_name[nsaid] = v->str;
        said[nsaid++] = v->pos;
        over = with_item(a, over, parts[k][0], with_item(a, sec, parts[k][1], NULL));
    }
    return over;
}

bool cv_style_load_over(cv_arena *a, const char *path, const cv_yml *over, cv_engine *eng,
                        cv_style *st, cv_error *err)
{
    cv_fontset *fs = eng->fonts;
    cv_style_defaults(st);
    st->file = path;
    st->bullet_pos = st->sub_bullet_pos = (cv_pos){path, 0, 0};
    cv_yml *root = load_tree(a, eng, path, 0, err);
    if (!root)
        return false;
    if (over && over->kind == CV_YML_MAP)
        over = installed_families(a, over, fs, err);
    if (over)
        root = (cv_yml *)cv_yml_merge(a, root, over);
    if (!cv_yml_check_keys(root, top_keys, "the layout", err))
        return false;

    if (!read_section(a, root, "", st, err))
        return false;
    if (st->widows < 1)
        st->widows = 1;
    if (st->orphans < 1)
        st->orphans = 1;
    cv_yml *page = cv_yml_get(root, "page");
    if (page && page->kind != CV_YML_MAP)
        return cv_error_at(err, page->pos, "'page' must be a mapping");
    if (page && !read_page(a, page, st, err))
        return false;
    cv_yml *t = cv_yml_get(root, "templates");
    if (t && !read_templates(a, t, st, err))
        return false;
    return read_fonts(a, cv_yml_get(root, "font"), fs, st, err) &&
           read_role_fonts(a, fs, st, err);
}

/* ---- The keys, for the JSON Schema --------------------------------------- */

/* The structured readers' values, by path. */
static const struct {
    const char *path;
    cv_layout_type type;
    const char *about;
} structured[] = {
    {"extends", CV_LT_LAYOUT, "start from another layout and change only the keys set here"},
    {"page.size", CV_LT_PAGE_SIZE, "the paper: a4, letter (us-letter), a5 or legal, or [width, "
                                   "height]"},
    {"page.margins", CV_LT_LENGTH, "the page margins: one length for all four, or a mapping "
                                   "of the sides to change"},
    {"page.margins.top", CV_LT_LENGTH, "the top margin; the running header sits in it"},
    {"page.margins.bottom", CV_LT_LENGTH, "the bottom margin; the running footer sits in it"},
    {"page.margins.left", CV_LT_LENGTH, "the left margin"},
    {"page.margins.right", CV_LT_LENGTH, "the right margin"},
    {"font.family", CV_LT_FAMILY, "the main font family (fonts/, then fontconfig) or a font "
                                  "file"},
    {"font.fallback", CV_LT_FAMILIES, "families tried in turn for characters the main family "
                                      "lacks (at most 7; [] for none)"},
    {"font.mono", CV_LT_FAMILY, "the face of `code` spans (default: DejaVu Sans Mono); null for "
                                "the text's face"},
    {"columns.sidebar", CV_LT_NULL, "a second column beside the main one, for the sections it "
                                    "names; null for one column"},
};

/* The mappings' own phrases, by path. */
static const struct {
    const char *path, *about;
} maps[] = {
    {"page", "the paper size and margins"},
    {"font", "the body text's font: family, fallback, size, line spacing"},
    {"colors", "the colours of the text, the headline and links"},
    {"text", "how paragraphs are set: justification, hyphenation, quotes, line breaking"},
    {"header", "the name, headline and contact line at the top of page 1"},
    {"section_title", "how section titles look: size, face, colour, rule, spacing"},
    {"entry", "spacing and the side (date) column of entries"},
    {"bullets", "the marks, indents and spacing of highlights and bullet entries"},
    {"templates", "how each entry type is composed of its fields (docs/layouts.md, Templates)"},
    {"pdf", "the PDF's title and its PDF/A, PDF/UA and tagging"},
    {"pagination", "where pages break: keep rules, sections on a new page, the last page"},
    {"columns", "columns beside the main one"},
    {"page_header", "a running header in the top margin, with left, centre and right slots"},
    {"page_footer", "a running footer in the bottom margin, with left, centre and right slots"},
    {"photo", "where the profile's photo (cv.photo) goes and how large it is"},
    {"fit", "how far fit_pages may shrink the spacing, type and margins"},
    {"dates", "how dates, date ranges and time spans read (RenderCV's date templates)"},
    {"links", "how links in the text are marked"},
    {"html", "what an HTML page (-o cv.html) does otherwise than the PDF"},
};

/* An entry type's template: the entry it composes, by tmpl_names. */
static const char *const tmpl_about[CV_ENTRY_NKINDS] = {
    "a text entry (a plain string)", "a bullet entry (bullet:)",
    "a numbered entry (number:)", "a reversed numbered entry (reversed_number:)",
    "a one-line entry (label + details)", "an education entry (institution + area)",
    "an experience entry (company + position)", "a publication entry (title + authors)",
    "a normal entry (name)"};

const char *cv_style_map_about(cv_arena *a, const char *path)
{
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
        if (!strcmp(maps[i].path, path))
            return maps[i].about;
    for (size_t k = 0; tmpl_names[k]; k++)
        if (!strncmp(path, "templates.", 10) && !strcmp(path + 10, tmpl_names[k]))
            return cv_arena_printf(a, "how %s is composed: its main, side and degree lines",
                                   tmpl_about[k]);
    return NULL;
}

static void add_key(cv_arena *a, cv_layout_key **arr, size_t *n, size_t *cap,
                    cv_layout_key k)
{
    CV_PUSH(a, *arr, *n, *cap, k);
}

/* The row of a structured reader's value `path` (its type UNKNOWN when the
 * table above lacks it). */
static cv_layout_key structured_key(const char *path)
{
    cv_layout_key k = {path, CV_LT_UNKNOWN, NULL, 0, 0, NULL};
    for (size_t i = 0; i < sizeof structured / sizeof *structured; i++)
        if (!strcmp(structured[i].path, path))
            k.type = structured[i].type, k.about = structured[i].about;
    if (k.type == CV_LT_LENGTH)
        k.hi = 400;
    return k;
}

static bool in_table(const char *section, const char *name)
{
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!strcmp(keys[i].section, section) && !strcmp(keys[i].name, name))
            return true;
    return false;
}

size_t cv_style_keys(cv_arena *a, const cv_layout_key **out)
{
    cv_layout_key *arr = NULL;
    size_t n = 0, cap = 0;
    static const cv_layout_type types[] = {
        [LEN] = CV_LT_LENGTH, [NUM] = CV_LT_NUMBER, [BOOL] = CV_LT_BOOL,
        [COLOR] = CV_LT_COLOR, [STR] = CV_LT_STRING, [ALIGN] = CV_LT_CHOICE,
        [BREAKING] = CV_LT_CHOICE, [COUNT] = CV_LT_COUNT, [FRACTION] = CV_LT_FRACTION,
        [NAMES] = CV_LT_NAMES, [SIDE] = CV_LT_CHOICE, [PHOTOPOS] = CV_LT_CHOICE, [PHONEFMT] = CV_LT_CHOICE,
        [WEBFONTS] = CV_LT_CHOICE,
        [EM] = CV_LT_EM, [FAMILY] = CV_LT_FAMILY, [MONTHS] = CV_LT_MONTHS};

    /* The keys table, with read_value()'s ranges. */
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const key *k = &keys[i];
        cv_layout_key r = {*k->section ? cv_arena_printf(a, "%s.%s", k->section, k->name)
                                       : k->name, types[k->kind], NULL, 0, 0, k->about};
        if (k->kind == LEN)
            r.lo = k->lo, r.hi = k->hi ? k->hi : 400;
        else if (k->kind == NUM)
            r.lo = 0.5f, r.hi = 4;
        else if (k->kind == COUNT)      /* orphans and widows: at least 1 (read_value()) */
            r.lo = !strcmp(k->name, "orphans") || !strcmp(k->name, "widows") ? 1 : 0,
            r.hi = 100;
        else if (k->kind == FRACTION)
            r.lo = 0, r.hi = 1;
        else if (r.type == CV_LT_CHOICE)
            r.words = choice_words[k->kind];
        add_key(a, &arr, &n, &cap, r);
    }

    /* The structured readers' keys. */
    static const struct {
        const char *section;
        const char *const *names;
    } lists[] = {{"page", page_keys}, {"page.margins", margin_keys}, {"font", font_keys}};
    for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
        for (size_t i = 0; lists[l].names[i]; i++) {
            if (in_table(lists[l].section, lists[l].names[i]))
                continue;
            const char *path = cv_arena_printf(a, "%s.%s", lists[l].section, lists[l].names[i]);
            cv_layout_key r = structured_key(path);
            if (!strcmp(lists[l].section, "page.margins"))
                r.type = CV_LT_LENGTH, r.hi = 400;
            if (r.type == CV_LT_PAGE_SIZE) {
                size_t np = sizeof page_sizes / sizeof *page_sizes;
                const char **w = cv_arena_alloc(a, (np + 1) * sizeof *w);
                for (size_t j = 0; j < np; j++)
                    w[j] = page_sizes[j].name;
                r.words = w;
            }
            add_key(a, &arr, &n, &cap, r);
        }
    static const char *const tmpl_key_about[] = {
        "the main lines of %s, left (up to 4)",
        "the side lines of %s, in the side column: dates, places (up to 4)",
        "the lines of %s's degree column, left of its main lines (with entry.degree_width)"};
    for (size_t k = 0; tmpl_names[k]; k++)
        for (size_t i = 0; tmpl_keys[i]; i++)
            add_key(a, &arr, &n, &cap,
                    (cv_layout_key){cv_arena_printf(a, "templates.%s.%s", tmpl_names[k],
                                                    tmpl_keys[i]), CV_LT_LINES, NULL, 0, 0,
                                    cv_arena_printf(a, tmpl_key_about[i], tmpl_about[k])});
    add_key(a, &arr, &n, &cap, structured_key("columns.sidebar"));

    /* Top-level keys that are neither a mapping of the rows above nor in
     * them: their own rows. */
    for (size_t i = 0; top_keys[i]; i++) {
        size_t tl = strlen(top_keys[i]);
        bool found = false;
        for (size_t j = 0; j < n && !found; j++)
            found = !strncmp(arr[j].path, top_keys[i], tl) &&
                    (arr[j].path[tl] == '.' || !arr[j].path[tl]);
        if (!found)
            add_key(a, &arr, &n, &cap, structured_key(top_keys[i]));
    }
    *out = arr;
    return n;
}
