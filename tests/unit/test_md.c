/* Unit tests for md.c: the Markdown of small profiles, byte for byte -
 * the header, an entry's lines, the escapes at a line's start and inside
 * it, emphasis at spaces and punctuation, links kept and dropped, nested
 * and numbered lists. */
#include "harness.h"

#include <string.h>

#include "fixture.h"
#include "md.h"

static cv_style ST;

static const char *md_of(cv_arena *a, const char *yaml)
{
    return cv_md_text(a, fx_doc(a, yaml), fx_ctx(&ST));
}

TEST(md_header_and_entry)
{
    cv_arena *a = cv_arena_new();
    const char *m = md_of(a, "cv:\n  name: Ada Lovelace\n  headline: Analyst\n"
                             "  email: ada@example.com\n  sections:\n    experience:\n"
                             "      - company: Engines\n        position: Programmer\n"
                             "        date: '2020-07'\n        location: London\n"
                             "        highlights:\n          - Notes\n          - - Note G\n");
    CHECK_STR(m, "# Ada Lovelace\n\nAnalyst\n\n"
                 "[ada@example.com](mailto:ada@example.com)\n\n"
                 "## Experience\n\n"
                 "**Engines**\\\n*Programmer*\\\nJul 2020 · *London*\n\n"
                 "- Notes\n  - Note G\n");
    cv_arena_free(a);
}

TEST(md_escapes)
{
    cv_arena *a = cv_arena_new();
    const char *m = md_of(a, "cv:\n  name: 'C# <x>'\n  sections:\n    notes:\n"
                             "      - '- dash'\n      - '1. one'\n      - '#tag'\n"
                             "      - 'a_b [c] <d> &amp; R&D \\\\ e'\n");
    CHECK_STR(m, "# C\\# \\<x\\>\n\n## Notes\n\n"
                 "\\- dash\n\n1\\. one\n\n\\#tag\n\n"
                 "a\\_b \\[c\\] \\<d\\> \\&amp; R&D \\\\ e\n");
    cv_arena_free(a);
}

TEST(md_emphasis_and_links)
{
    cv_arena *a = cv_arena_new();
    const char *m = md_of(a, "cv:\n  name: X\n  sections:\n    s:\n"
                             "      - '**bold **then plain, **bold** then plain'\n"
                             "      - '**标签：**CN1'\n"
                             "      - '[ok](https://a.example/(x)) [no](javascript:x) [m](mailto:a@b.c)'\n"
                             "      - '`co*de`'\n");
    CHECK_STR(m, "# X\n\n## S\n\n"
                 "\\*\\*bold \\*\\*then plain, **bold** then plain\n\n"
                 "**标签**：CN1\n\n"
                 "[ok](https://a.example/\\(x\\)) no [m](mailto:a@b.c)\n\n"
                 "`co*de`\n");
    cv_arena_free(a);
}

TEST(md_lists)
{
    cv_arena *a = cv_arena_new();
    const char *m = md_of(a, "cv:\n  name: X\n  sections:\n    b:\n"
                             "      - bullet: '+ plus'\n      - bullet: two\n"
                             "    n:\n      - number: a\n      - number: b\n"
                             "    r:\n      - reversed_number: c\n      - reversed_number: d\n");
    CHECK_STR(m, "# X\n\n## B\n\n- \\+ plus\n- two\n\n"
                 "## N\n\n1. a\n2. b\n\n"
                 "## R\n\n2. c\n1) d\n");
    cv_arena_free(a);
}

int main(void)
{
    fx_setup();
    fx_style("layouts/onecolumn.yaml", &ST);
    RUN(md_header_and_entry);
    RUN(md_escapes);
    RUN(md_emphasis_and_links);
    RUN(md_lists);
    fx_teardown();
    return harness_report("md");
}
