/* fuzz_profile.c - the profile loader: bytes -> cv_yml_load -> cv_doc_load.
 *
 * A profile that loads is then walked the way compose.c and template.c read it: every
 * string through the markup parser, every date through the locale's
 * formatting, every section key through its title.  Seeds: the profiles in profiles/
 * and the profiles of tests/spec/ (tests/fuzz/run.sh).  Loaded as cvpdf loads a profile
 * (cv_doc_load_text()): JSON Resume files and older RenderCV files too.
 */
#include "fuzz.h"

#include "doc.h"
#include "markup.h"
#include "yml.h"

static void text(cv_arena *a, cv_text t)
{
    if (t.s) {
        cv_span *sp;
        cv_markup_parse(a, t.s, 0, &sp);
    }
}

static void highlights(cv_arena *a, const cv_highlight *h, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        text(a, h[i].text);
        highlights(a, h[i].sub, h[i].nsub);
    }
}

static void walk(cv_arena *a, const cv_doc *doc)
{
    text(a, doc->name);
    text(a, doc->native_name);
    text(a, doc->headline);
    text(a, doc->location);
    for (size_t i = 0; i < doc->nsocials; i++) {
        const cv_social *s = &doc->socials[i];
        if (!s->network.s || !s->username.s || !s->url || !s->label)
            abort();
    }
    for (size_t i = 0; i < doc->nsections; i++) {
        const cv_section *s = &doc->sections[i];
        cv_section_title(a, s->key, doc->locale.language);
        for (size_t j = 0; j < s->nentries; j++) {
            const cv_entry *e = &s->entries[j];
            cv_entry_date_range(a, e, &doc->locale);
            const cv_text *f[] = {&e->text,    &e->label,   &e->details, &e->institution,
                                  &e->area,    &e->degree,  &e->company, &e->position,
                                  &e->title,   &e->journal, &e->name,    &e->location,
                                  &e->summary};
            for (size_t k = 0; k < sizeof f / sizeof *f; k++)
                text(a, *f[k]);
            for (size_t k = 0; k < e->nauthors; k++)
                text(a, e->authors[k]);
            highlights(a, e->highlights, e->nhighlights);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cv_arena *a = cv_arena_new();
    cv_error err = fuzz_err();
    /* As a profile is read: YAML (plain values starting with * as text, an
     * older RenderCV's file translated) or, starting with {", JSON. */
    cv_doc *doc = cv_doc_load_text(a, "fuzz.yaml", (const char *)data, size, NULL, &err);
    if (doc)
        walk(a, doc);
    if (err.set)
        fuzz_format_error(&err);
    cv_arena_free(a);
    return 0;
}
