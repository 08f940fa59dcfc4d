/* shape.c - the shaper: HarfBuzz shaping and the caches layout needs.
 * See shape.h.
 *
 * ---- Glyphs and advances ----
 *
 * Itemising asks for the glyph of every code point in several faces of the
 * fallback chain, and shaping for the advance of every glyph twice; both go
 * through small per-face tables instead of FreeType's cmap and hmtx code.
 * Glyph ids and advances (in font units) fit 16 bits in a TrueType font;
 * 0xFFFF marks an entry not looked up yet.  Both tables are split in pages
 * of 256 entries, allocated as they are needed (a CJK face has 50,000
 * glyphs, of which a résumé uses a few dozen).
 *
 * ---- Shaping ----
 *
 * HarfBuzz is the slowest part of setting text: a few thousand instructions
 * a glyph with Lato's GSUB and GPOS, while words repeat all through a
 * résumé (and a batch).  So results are cached per face, and what is
 * cached is, where the font allows it, a word rather than a whole run.
 *
 * A run is cut into segments after each space (U+0020) that is followed by
 * something that starts a cluster of its own: "Built a  fast" is "Built ",
 * "a  ", "fast".  Shaping a segment alone gives exactly the glyphs and
 * positions it has inside the run when nothing in the font's layout can
 * reach across a space:
 *
 *   - the run's segment properties are used for every segment (its script
 *     is guessed from the whole run, as hb_buffer_guess_segment_properties
 *     does), and only scripts HarfBuzz sets with its default shaper are cut;
 *   - every lookup the shape plan can apply (without U+2044, which turns on
 *     the fraction features; runs with it are never cut), and every lookup
 *     those call, leaves the space glyph out of all its glyph sets -- so no
 *     substitution or positioning matches across it -- with two harmless
 *     exceptions: pair adjustments that move only the first glyph of the
 *     pair and skip nothing (kerning, as in Lato, where the space has kerning
 *     pairs), and single-glyph substitutions that no feature applies;
 *   - no lookup skips base glyphs (the space could be skipped over) and
 *     the space is not classed as a mark or ligature; no AAT tables, no
 *     'rand' feature, and no legacy 'kern' table in use.
 *
 * Then kerning across a cut comes only from pair adjustments of the space
 * with the first glyph after it, the same whatever precedes the space.  It
 * is cached per (script, glyph) as the space's extra advance and added to
 * the space that ends the segment before.  The glyph after the space is
 * the one GSUB gave in the segment; when shaping " X" alone does not give
 * that glyph the run is shaped whole.
 *
 * Missing segments of a run are shaped together in one buffer (in run
 * order, each but the last ending with a space) -- the same decomposition
 * makes that exact too, and it observes the kerning across each cut for
 * free.  When HarfBuzz does not give one glyph per code point in a segment,
 * it would not for the whole run either, and the run gets no kerning at
 * all, as before (libharu draws code points, not glyphs).  Fonts and
 * scripts that fail the checks are shaped run by run, still cached.
 *
 * Whether a font and script may be cut is decided once per face and script
 * by reading the font's GSUB and GPOS lookups (below: HarfBuzz tells which
 * lookups a plan applies and which glyphs a lookup touches, but not which
 * lookups a context lookup calls, so that part walks the tables itself).
 *
 * ---- Where the state lives ----
 *
 * Every table above is per face, in a face_cache made the first time the
 * shaper meets the face id; the scratch arrays for one run are the
 * shaper's, shared by all faces.
 */
#include "shape.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <hb-aat.h>
#include <hb-ot.h>
#include <hb.h>

#include "arena.h"
#include "unicode.h"

#define UNKNOWN 0xFFFFu
#define MAX_SCRIPTS 8
#define CACHE_BYTES (4u << 20)   /* per face; then the shaping cache starts over */

/* A cached shaping: a segment (in `script`) or a whole run. */
typedef struct shaped {
    uint64_t hash;
    bool whole;              /* a whole run, segment properties guessed */
    bool ok;                 /* one glyph per code point, in order */
    hb_script_t script;
    unsigned first;          /* segments: the glyph of the first code point */
    size_t n;
    uint32_t *cps;
    int32_t *delta;          /* HarfBuzz's advance minus the nominal, font units */
} shaped;

/* Where a run's words may be set from kerning pairs (see "Kerning pairs"
 * below), for one script: the glyphs some lookup of the plan other than
 * kerning may start at, and the (glyph, next glyph) conditions of chain
 * rules that need a glyph after their one input glyph. */
typedef struct pair_plan {
    hb_set_t *start;
    hb_blob_t *gpos;         /* for direct: the GPOS table */
    bool direct;             /* kerning read off the kerning lookups */
    unsigned *kern;          /* the kerning lookups of the plan */
    size_t nkern;
    /* For direct: per first glyph, the kerning subtables that cover it
     * (kern_first()), as a start in `subs` (+ 1; 0: not known yet), in
     * pages of 256 glyphs. */
    uint32_t *first[256];
    struct kern_sub {
        uint32_t at;         /* the subtable's offset in GPOS; 0 ends a list */
        uint32_t ci;         /* the glyph's coverage index there */
        uint32_t lookup;     /* which of `kern` */
    } *subs;
    size_t nsubs, csubs;
    /* Per BMP code point: 0 not known, else PLAIN_* bits (plain_cp()). */
    uint8_t *plain[256];
    size_t nchain;
    struct chain_cond {
        hb_set_t *in, *next;
    } *chain;
} pair_plan;

typedef struct cut_verdict {
    hb_script_t script;
    bool ok;
    signed char pairs;       /* -1 not known yet; 0 no; 1 yes, by `plan` */
    pair_plan plan;
} cut_verdict;

/* What the shaper knows of one face. */
/* A map of 64-bit keys (never 0) to kerning values, open addressed, at
 * most half full: the space and pair kerning caches of a face. */
typedef struct kmap {
    uint64_t *key;
    int32_t *val;
    size_t cap, count;
} kmap;

/* The value of `key` in m; with `add`, made (0) when absent, the table
 * grown first (from `first_cap` slots) when it would be over half full;
 * NULL when absent and not added. */
static int32_t *kmap_slot(kmap *m, uint64_t key, bool add, size_t first_cap)
{
    if (add && 2 * (m->count + 1) > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : first_cap, ocap = m->cap;
        uint64_t *ok = m->key;
        int32_t *ov = m->val;
        m->key = cv_xrealloc(NULL, cap * sizeof *m->key);
        m->val = cv_xrealloc(NULL, cap * sizeof *m->val);
        memset(m->key, 0, cap * sizeof *m->key);
        m->cap = cap;
        for (size_t i = 0; i < ocap; i++)
            if (ok[i]) {
                size_t j = (ok[i] * 0x9E3779B97F4A7C15u) >> 40 & (cap - 1);
                while (m->key[j])
                    j = (j + 1) & (cap - 1);
                m->key[j] = ok[i];
                m->val[j] = ov[i];
            }
        free(ok);
        free(ov);
    }
    if (!m->cap)
        return NULL;
    size_t j = (key * 0x9E3779B97F4A7C15u) >> 40 & (m->cap - 1);
    while (m->key[j] && m->key[j] != key)
        j = (j + 1) & (m->cap - 1);
    if (!m->key[j]) {
        if (!add)
            return NULL;
        m->key[j] = key;
        m->val[j] = 0;
        m->count++;
    }
    return &m->val[j];
}

typedef struct face_cache {
    const cv_face *face;
    uint16_t *cmap[256];     /* BMP code point -> glyph, in pages of 256 */
    uint16_t *adv[256];      /* glyph -> advance in font units, likewise */
    unsigned nglyphs, space; /* glyph count; the glyph of U+0020 */
    /* Shaping. */
    cv_arena *arena;         /* the entries; emptied when it holds too much */
    shaped **tab;            /* open addressing, a power of two in size */
    size_t cap, count;
    kmap gap;                /* kerning of a space before a glyph (script, glyph) */
    cut_verdict split[MAX_SCRIPTS];   /* may runs in this script be cut? */
    size_t nsplit;
    kmap pair;               /* kerning of a glyph before a glyph (script, glyph, glyph) */
} face_cache;

struct cv_shaper {
    const cv_fontset *fs;
    face_cache **faces;      /* by face id; NULL until first used */
    size_t nfaces;
    /* Scratch for one run. */
    size_t scap;
    size_t *seg;
    shaped **segent, **pend, **pend2;
    uint32_t *cps;
    int32_t *delta, *d2;
    unsigned *glyph;
    /* Clusters of complex scripts (cv_shape_complex): code point
     * CV_CLUSTER_BASE + i is cl[i]. */
    struct cluster {
        int face;
        unsigned gid;
        char *text;
        /* Where HarfBuzz put the glyph (cv_shape_rtl), thousandths of an
         * em: its offset from the pen, and its advance less the glyph's
         * own; all 0 for cv_shape_complex's. */
        int16_t dx, dy, dadv;
    } *cl;
    size_t ncl, ccl;
};

static const hb_feature_t no_ligatures[] = {
    {HB_TAG('l', 'i', 'g', 'a'), 0, 0, ~0u},
    {HB_TAG('c', 'l', 'i', 'g'), 0, 0, ~0u},
    {HB_TAG('c', 'a', 'l', 't'), 0, 0, ~0u},
    {HB_TAG('d', 'l', 'i', 'g'), 0, 0, ~0u},
    /* Only for the analysis below: without U+2044 these never apply. */
    {HB_TAG('f', 'r', 'a', 'c'), 0, 0, ~0u},
    {HB_TAG('n', 'u', 'm', 'r'), 0, 0, ~0u},
    {HB_TAG('d', 'n', 'o', 'm'), 0, 0, ~0u},
};
#define NFEATS 4

/* ---- The shaper and its faces ---------------------------------------- */

cv_shaper *cv_shaper_new(const cv_fontset *fs)
{
    cv_shaper *sh = cv_xrealloc(NULL, sizeof *sh);
    memset(sh, 0, sizeof *sh);
    sh->fs = fs;
    return sh;
}

static void face_cache_free(face_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < 256; i++) {
        free(c->cmap[i]);
        free(c->adv[i]);
    }
    cv_arena_free(c->arena);
    free(c->tab);
    free(c->gap.key);
    free(c->gap.val);
    free(c->pair.key);
    free(c->pair.val);
    for (size_t i = 0; i < c->nsplit; i++) {
        pair_plan *pp = &c->split[i].plan;
        hb_set_destroy(pp->start);
        hb_blob_destroy(pp->gpos);
        free(pp->kern);
        for (size_t k = 0; k < 256; k++) {
            free(pp->first[k]);
            free(pp->plain[k]);
        }
        free(pp->subs);
        for (size_t k = 0; k < pp->nchain; k++) {
            hb_set_destroy(pp->chain[k].in);
            hb_set_destroy(pp->chain[k].next);
        }
        free(pp->chain);
    }
    free(c);
}

void cv_shaper_free(cv_shaper *sh)
{
    if (!sh)
        return;
    for (size_t i = 0; i < sh->nfaces; i++)
        face_cache_free(sh->faces[i]);
    free(sh->faces);
    free(sh->seg);
    free(sh->segent);
    free(sh->pend);
    free(sh->pend2);
    free(sh->cps);
    free(sh->delta);
    free(sh->d2);
    free(sh->glyph);
    for (size_t i = 0; i < sh->ncl; i++)
        free(sh->cl[i].text);
    free(sh->cl);
    free(sh);
}

/* The entry for key k (< 0x10000) of a two-level table, allocating its
 * page of 256 on first use. */
static uint16_t *page_slot(uint16_t **pages, unsigned k)
{
    uint16_t *page = pages[k >> 8];
    if (!page) {
        page = pages[k >> 8] = cv_xrealloc(NULL, 256 * sizeof *page);
        memset(page, 0xFF, 256 * sizeof *page);
    }
    return &page[k & 0xFF];
}

static unsigned glyph_of(face_cache *c, uint32_t cp)
{
    if (cp > 0xFFFF)
        return cv_face_glyph(c->face, cp);
    uint16_t *g = page_slot(c->cmap, cp);
    if (*g == UNKNOWN) {
        unsigned id = cv_face_glyph(c->face, cp);
        if (id >= UNKNOWN)
            return id;
        *g = (uint16_t)id;
    }
    return *g;
}

/* The advance of a glyph in font units, as FreeType reads it; 0 when it
 * cannot (a glyph id out of range). */
static long advance_units(face_cache *c, unsigned gid)
{
    uint16_t *a = gid < c->nglyphs ? page_slot(c->adv, gid) : NULL;
    if (a && *a != UNKNOWN)
        return *a;
    long adv = cv_face_advance_units(c->face, gid);
    if (a && adv >= 0 && adv < (long)UNKNOWN)
        *a = (uint16_t)adv;
    return adv;
}

/* cv_face_advance(), cached: thousandths of an em, truncated as libharu
 * truncates. */
static int advance_em(face_cache *c, unsigned gid)
{
    return (int)(advance_units(c, gid) * 1000 / c->face->upem);
}

/* The shaper's cache of face `id`, made on first use; NULL when the fontset
 * has no such face. */
static face_cache *face_slow(cv_shaper *sh, int id)
{
    const cv_face *f = cv_fontset_face(sh->fs, id);
    if (!f)
        return NULL;
    if ((size_t)id >= sh->nfaces) {
        size_t n = cv_fontset_count(sh->fs);
        sh->faces = cv_xrealloc(sh->faces, n * sizeof *sh->faces);
        memset(sh->faces + sh->nfaces, 0, (n - sh->nfaces) * sizeof *sh->faces);
        sh->nfaces = n;
    }
    face_cache *c = cv_xrealloc(NULL, sizeof *c);
    memset(c, 0, sizeof *c);
    c->face = f;
    c->nglyphs = f->nglyphs < UNKNOWN ? f->nglyphs : 0;
    c->arena = cv_arena_new();
    c->space = glyph_of(c, ' ');
    return sh->faces[id] = c;
}

static inline face_cache *face_of(cv_shaper *sh, int id)
{
    if (id >= 0 && (size_t)id < sh->nfaces && sh->faces[id])
        return sh->faces[id];
    return face_slow(sh, id);
}

unsigned cv_shape_glyph(cv_shaper *sh, int face, uint32_t cp)
{
    if (cp >= CV_CLUSTER_BASE) {
        size_t i = cp - CV_CLUSTER_BASE;
        return i < sh->ncl && sh->cl[i].face == face ? sh->cl[i].gid : 0;
    }
    face_cache *c = face_of(sh, face);
    return c ? glyph_of(c, cp) : 0;
}

int cv_shape_advance(cv_shaper *sh, int face, unsigned gid)
{
    face_cache *c = face_of(sh, face);
    return c ? advance_em(c, gid) : 0;
}

/* ---- HarfBuzz -------------------------------------------------------- */

static void scratch_grow(cv_shaper *sh, size_t n)
{
    if (n <= sh->scap)
        return;
    size_t cap = sh->scap ? sh->scap : 64;
    while (cap < n)
        cap *= 2;
    sh->seg = cv_xrealloc(sh->seg, (cap + 1) * sizeof *sh->seg);
    sh->segent = cv_xrealloc(sh->segent, cap * sizeof *sh->segent);
    sh->pend = cv_xrealloc(sh->pend, cap * sizeof *sh->pend);
    sh->pend2 = cv_xrealloc(sh->pend2, cap * sizeof *sh->pend2);
    sh->cps = cv_xrealloc(sh->cps, cap * sizeof *sh->cps);
    sh->delta = cv_xrealloc(sh->delta, cap * sizeof *sh->delta);
    sh->d2 = cv_xrealloc(sh->d2, cap * sizeof *sh->d2);
    sh->glyph = cv_xrealloc(sh->glyph, cap * sizeof *sh->glyph);
    sh->scap = cap;
}

/* Shape `cps` with HarfBuzz as cvpdf always has: left to right, ligatures
 * off, segment properties guessed, or `script` when given.  On success (one
 * glyph per code point, in order) delta[i] is the glyph's advance minus its
 * nominal advance and glyph[i] the glyph after substitution. */
static bool hb_run(face_cache *c, const uint32_t *cps, size_t n, const hb_script_t *script,
                   int32_t *delta, unsigned *glyph)
{
    hb_buffer_t *buf = hb_buffer_create();
    hb_buffer_add_codepoints(buf, cps, (int)n, 0, (int)n);
    if (script) {
        hb_buffer_set_script(buf, *script);
        hb_buffer_set_language(buf, hb_language_get_default());
    }
    hb_buffer_guess_segment_properties(buf);
    hb_buffer_set_direction(buf, HB_DIRECTION_LTR);
    hb_shape(c->face->hb, buf, no_ligatures, NFEATS);
    unsigned len;
    hb_glyph_info_t *info = hb_buffer_get_glyph_infos(buf, &len);
    hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(buf, NULL);
    bool ok = len == n;
    for (unsigned i = 0; ok && i < len; i++)
        ok = info[i].cluster == i;
    for (unsigned i = 0; ok && i < len; i++) {
        delta[i] = (int32_t)(pos[i].x_advance - advance_units(c, info[i].codepoint));
        if (glyph)
            glyph[i] = info[i].codepoint;
    }
    hb_buffer_destroy(buf);
    return ok;
}

/* ---- The shaping cache ----------------------------------------------- */

static uint64_t hash_cps(const uint32_t *cps, size_t n, bool whole, hb_script_t script)
{
    uint64_t h = 14695981039346656037u ^ ((uint64_t)script << 1 | whole);
    for (size_t i = 0; i < n; i++)
        h = (h ^ cps[i]) * 1099511628211u;
    return h ^ (h >> 29);
}

static shaped **slot_of(face_cache *c, uint64_t h, bool whole, hb_script_t script,
                        const uint32_t *cps, size_t n)
{
    for (size_t i = h & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
        shaped *e = c->tab[i];
        if (!e || (e->hash == h && e->whole == whole && e->script == script && e->n == n &&
                   !memcmp(e->cps, cps, n * sizeof *cps)))
            return &c->tab[i];
    }
}

static shaped *lookup(face_cache *c, bool whole, hb_script_t script,
                      const uint32_t *cps, size_t n, bool *added)
{
    if (2 * (c->count + 1) > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 1024;
        shaped **old = c->tab;
        size_t ocap = c->cap;
        c->tab = cv_xrealloc(NULL, cap * sizeof *c->tab);
        memset(c->tab, 0, cap * sizeof *c->tab);
        c->cap = cap;
        for (size_t i = 0; i < ocap; i++)
            if (old[i])
                *slot_of(c, old[i]->hash, old[i]->whole, old[i]->script, old[i]->cps,
                         old[i]->n) = old[i];
        free(old);
    }
    uint64_t h = hash_cps(cps, n, whole, script);
    shaped **s = slot_of(c, h, whole, script, cps, n);
    *added = !*s;
    if (*s)
        return *s;
    shaped *e = cv_arena_alloc(c->arena, sizeof *e);
    *e = (shaped){.hash = h, .whole = whole, .script = script, .n = n};
    e->cps = cv_arena_alloc(c->arena, n * sizeof *e->cps);
    memcpy(e->cps, cps, n * sizeof *cps);
    e->delta = cv_arena_alloc(c->arena, n * sizeof *e->delta);
    c->count++;
    return *s = e;
}

static int32_t *gap_slot(face_cache *c, hb_script_t script, unsigned glyph, bool add)
{
    /* Script tags are four ASCII letters: bit 63 is free to mark a key. */
    uint64_t key = (uint64_t)1 << 63 | (uint64_t)script << 24 | glyph;
    return kmap_slot(&c->gap, key, add, 256);
}

/* ---- May a run in this font and script be cut into words? ------------ */

typedef struct otb {
    const unsigned char *p;
    size_t len;
} otb;

static bool u16(otb t, size_t off, unsigned *v)
{
    if (off + 2 > t.len)
        return false;
    *v = (unsigned)t.p[off] << 8 | t.p[off + 1];
    return true;
}

static bool u32(otb t, size_t off, size_t *v)
{
    unsigned hi, lo;
    if (!u16(t, off, &hi) || !u16(t, off + 2, &lo))
        return false;
    *v = (size_t)hi << 16 | lo;
    return true;
}

typedef struct lookup_info {
    unsigned type, flag;
    bool first_only;         /* GPOS pair adjustment: ValueFormat2 is 0 everywhere */
} lookup_info;

/* The lookups a (chain) context rule at `r` calls, into `out`. */
static bool rule_calls(otb t, size_t r, bool chain, hb_set_t *out)
{
    unsigned n, g;
    size_t o = r;
    if (chain) {
        if (!u16(t, o, &n))
            return false;
        o += 2 + 2 * (size_t)n;                  /* backtrack */
        if (!u16(t, o, &g) || g == 0)
            return false;
        o += 2 + 2 * (size_t)(g - 1);            /* input */
        if (!u16(t, o, &n))
            return false;
        o += 2 + 2 * (size_t)n;                  /* lookahead */
        if (!u16(t, o, &n))
            return false;
        o += 2;
    } else {
        if (!u16(t, o, &g) || g == 0 || !u16(t, o + 2, &n))
            return false;
        o += 4 + 2 * (size_t)(g - 1);
    }
    for (unsigned k = 0; k < n; k++) {
        unsigned l;
        if (!u16(t, o + 4 * (size_t)k + 2, &l))
            return false;
        hb_set_add(out, l);
    }
    return true;
}

/* The rules of a format 1 or 2 (chain) context subtable at `s`, whose count
 * of rule sets is at s + at. */
static bool ruleset_calls(otb t, size_t s, size_t at, bool chain, hb_set_t *out)
{
    unsigned nsets;
    if (!u16(t, s + at, &nsets))
        return false;
    for (unsigned i = 0; i < nsets; i++) {
        unsigned so, nrules;
        if (!u16(t, s + at + 2 + 2 * (size_t)i, &so))
            return false;
        if (!so)
            continue;
        if (!u16(t, s + so, &nrules))
            return false;
        for (unsigned j = 0; j < nrules; j++) {
            unsigned ro;
            if (!u16(t, s + so + 2 + 2 * (size_t)j, &ro) || !rule_calls(t, s + so + ro, chain, out))
                return false;
        }
    }
    return true;
}

/* Where lookup `idx` of a GSUB or GPOS table starts. */
static bool lookup_at(otb t, unsigned idx, size_t *l)
{
    unsigned ll, count, lo;
    if (!u16(t, 8, &ll) || !u16(t, ll, &count) || idx >= count ||
        !u16(t, ll + 2 + 2 * (size_t)idx, &lo))
        return false;
    *l = (size_t)ll + lo;
    return true;
}

/* Subtable k of the lookup at `l`, of type `type`: its own type, through
 * an extension subtable (GSUB 7, GPOS 9), and where it starts. */
static bool subtable(otb t, size_t l, unsigned type, unsigned k, bool gpos, unsigned *st,
                     size_t *at)
{
    unsigned so;
    if (!u16(t, l + 6 + 2 * (size_t)k, &so))
        return false;
    size_t s = l + so;
    *st = type;
    if (type == (gpos ? 9u : 7u)) {
        size_t eo;
        if (!u16(t, s + 2, st) || !u32(t, s + 4, &eo))
            return false;
        s += eo;
    }
    *at = s;
    return true;
}

/* Lookup `idx` of GSUB or GPOS: its type (through extensions), flags, and
 * the lookups its subtables call (context lookups) into `calls`. */
static bool read_lookup(otb t, bool gpos, unsigned idx, lookup_info *li, hb_set_t *calls)
{
    size_t l;
    unsigned nsub;
    if (!lookup_at(t, idx, &l) || !u16(t, l, &li->type) || !u16(t, l + 2, &li->flag) ||
        !u16(t, l + 4, &nsub))
        return false;
    unsigned ext = gpos ? 9 : 7, type = 0;
    li->first_only = true;
    for (unsigned k = 0; k < nsub; k++) {
        unsigned st, fmt;
        size_t s;
        if (!subtable(t, l, li->type, k, gpos, &st, &s))
            return false;
        if ((type && st != type) || st == ext || !u16(t, s, &fmt))
            return false;
        type = st;
        bool context = st == (gpos ? 7u : 5u), chain = st == (gpos ? 8u : 6u);
        if (gpos && st == 2) {
            unsigned vf2;
            if (!u16(t, s + 6, &vf2))
                return false;
            li->first_only &= vf2 == 0;
        } else if ((context || chain) && (fmt == 1 || fmt == 2)) {
            size_t at = fmt == 1 ? 4 : context ? 6 : 10;
            if (!ruleset_calls(t, s, at, chain, calls))
                return false;
        } else if (context && fmt == 3) {
            unsigned g, n;
            if (!u16(t, s + 2, &g) || !u16(t, s + 4, &n))
                return false;
            for (unsigned i = 0; i < n; i++) {
                unsigned x;
                if (!u16(t, s + 6 + 2 * (size_t)g + 4 * (size_t)i + 2, &x))
                    return false;
                hb_set_add(calls, x);
            }
        } else if (chain && fmt == 3) {
            size_t o = s + 2;
            unsigned n;
            for (int part = 0; part < 3; part++) {
                if (!u16(t, o, &n))
                    return false;
                o += 2 + 2 * (size_t)n;
            }
            if (!u16(t, o, &n))
                return false;
            for (unsigned i = 0; i < n; i++) {
                unsigned x;
                if (!u16(t, o + 2 + 4 * (size_t)i + 2, &x))
                    return false;
                hb_set_add(calls, x);
            }
        } else if (context || chain) {
            return false;
        }
    }
    if (type)
        li->type = type;
    li->first_only &= li->type == 2 && gpos;
    return true;
}

/* Does GSUB or GPOS list `feature`?  Read off the table's FeatureList (as
 * hb_ot_layout_table_get_feature_tags() would give it, without building
 * HarfBuzz's accelerator of the table for it). */
static bool has_feature(hb_face_t *face, hb_tag_t table, hb_tag_t feature)
{
    hb_blob_t *blob = hb_face_reference_table(face, table);
    unsigned blen;
    const char *data = hb_blob_get_data(blob, &blen);
    otb t = {(const unsigned char *)data, blen};
    unsigned fl, n, hi, lo;
    bool found = false;
    if (u16(t, 6, &fl) && fl && u16(t, fl, &n))
        for (unsigned i = 0; !found && i < n; i++)
            found = u16(t, fl + 2 + 6 * (size_t)i, &hi) &&
                    u16(t, fl + 4 + 6 * (size_t)i, &lo) &&
                    ((hb_tag_t)hi << 16 | lo) == feature;
    hb_blob_destroy(blob);
    return found;
}

static bool lookups_keep_off_space(const face_cache *c, hb_shape_plan_t *plan, bool gpos)
{
    hb_face_t *face = c->face->hb_face;
    hb_tag_t tag = gpos ? HB_OT_TAG_GPOS : HB_OT_TAG_GSUB;
    hb_blob_t *blob = hb_face_reference_table(face, tag);
    unsigned blen;
    const char *data = hb_blob_get_data(blob, &blen);
    otb t = {(const unsigned char *)data, blen};
    unsigned space = c->space;
    hb_set_t *plan_set = hb_set_create(), *todo = hb_set_create(), *seen = hb_set_create();
    hb_set_t *sets[4] = {hb_set_create(), hb_set_create(), hb_set_create(), hb_set_create()};
    hb_ot_shape_plan_collect_lookups(plan, tag, plan_set);
    hb_set_union(todo, plan_set);
    bool ok = true;
    /* The plan's lookups and every lookup they call, transitively. */
    for (hb_codepoint_t idx; ok && !hb_set_is_empty(todo);) {
        idx = hb_set_get_min(todo);
        hb_set_del(todo, idx);
        if (hb_set_has(seen, idx))
            continue;
        hb_set_add(seen, idx);
        lookup_info li;
        hb_set_t *calls = hb_set_create();
        ok = read_lookup(t, gpos, idx, &li, calls);
        hb_set_subtract(calls, seen);
        hb_set_union(todo, calls);
        hb_set_destroy(calls);
        if (!ok || (li.flag & 0x0002)) {         /* IgnoreBaseGlyphs: might skip a space */
            ok = false;
            break;
        }
        if (li.first_only && !(li.flag & 0xFF1E))
            continue;                            /* kerning: see above */
        bool single = gpos ? li.type == 1 : li.type <= 3;
        if (single && !hb_set_has(plan_set, idx))
            continue;                            /* acts where it is called: not on a space */
        for (int k = 0; k < 4; k++)
            hb_set_clear(sets[k]);
        hb_ot_layout_lookup_collect_glyphs(face, tag, idx, sets[0], sets[1], sets[2], sets[3]);
        for (int k = 0; k < 4; k++)
            ok &= !hb_set_has(sets[k], space);
    }
    for (int k = 0; k < 4; k++)
        hb_set_destroy(sets[k]);
    hb_set_destroy(plan_set);
    hb_set_destroy(todo);
    hb_set_destroy(seen);
    hb_blob_destroy(blob);
    return ok;
}

static bool may_cut(const face_cache *c, hb_script_t script)
{
    switch (script) {
    case HB_SCRIPT_INVALID: case HB_SCRIPT_COMMON: case HB_SCRIPT_LATIN:
    case HB_SCRIPT_GREEK: case HB_SCRIPT_CYRILLIC: case HB_SCRIPT_HAN:
    case HB_SCRIPT_HIRAGANA: case HB_SCRIPT_KATAKANA: case HB_SCRIPT_BOPOMOFO:
        break;
    default:
        return false;                            /* shapers that look further */
    }
    hb_face_t *face = c->face->hb_face;
    unsigned space = c->space;
    if (!space || hb_aat_layout_has_substitution(face) || hb_aat_layout_has_positioning(face) ||
        hb_aat_layout_has_tracking(face) || !hb_ot_layout_has_positioning(face) ||
        has_feature(face, HB_OT_TAG_GSUB, HB_TAG('r', 'a', 'n', 'd')))
        return false;
    hb_blob_t *kern = hb_face_reference_table(face, HB_TAG('k', 'e', 'r', 'n'));
    bool old_kern = hb_blob_get_length(kern) > 0;
    hb_blob_destroy(kern);
    if (old_kern && !has_feature(face, HB_OT_TAG_GPOS, HB_TAG('k', 'e', 'r', 'n')))
        return false;                            /* HarfBuzz would apply the 'kern' table */
    hb_ot_layout_glyph_class_t gc = hb_ot_layout_get_glyph_class(face, space);
    if (gc != HB_OT_LAYOUT_GLYPH_CLASS_UNCLASSIFIED && gc != HB_OT_LAYOUT_GLYPH_CLASS_BASE_GLYPH)
        return false;
    hb_segment_properties_t props = HB_SEGMENT_PROPERTIES_DEFAULT;
    props.direction = HB_DIRECTION_LTR;
    props.script = script;
    props.language = hb_language_get_default();
    hb_shape_plan_t *plan = hb_shape_plan_create_cached(
        face, &props, no_ligatures, sizeof no_ligatures / sizeof *no_ligatures, NULL);
    bool ok = lookups_keep_off_space(c, plan, false) && lookups_keep_off_space(c, plan, true);
    hb_shape_plan_destroy(plan);
    return ok;
}

static bool cut_ok(face_cache *c, hb_script_t script)
{
    for (size_t i = 0; i < c->nsplit; i++)
        if (c->split[i].script == script)
            return c->split[i].ok;
    if (c->nsplit == MAX_SCRIPTS)
        return false;        /* too many scripts to remember: shape whole runs */
    bool ok = may_cut(c, script);
    c->split[c->nsplit++] = (cut_verdict){script, ok, -1, {0}};
    return ok;
}

static void cut_forbid(face_cache *c, hb_script_t script)
{
    for (size_t i = 0; i < c->nsplit; i++)
        if (c->split[i].script == script)
            c->split[i].ok = false;
}

/* The script hb_buffer_guess_segment_properties() gives a run. */
static hb_script_t run_script(const uint32_t *cps, size_t n)
{
    hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
    for (size_t i = 0; i < n; i++) {
        hb_script_t s = hb_unicode_script(uf, cps[i]);
        if (s != HB_SCRIPT_COMMON && s != HB_SCRIPT_INHERITED && s != HB_SCRIPT_UNKNOWN)
            return s;
    }
    return HB_SCRIPT_INVALID;
}

/* Does `cp` begin a cluster of its own in HarfBuzz, one no lookup skips?
 * Not a mark, a format or other default-ignorable character, nor one of
 * the half-width kana sound marks HarfBuzz joins to what precedes. */
static bool starts_cluster(uint32_t cp)
{
    if (cp < 0x300)
        return cp > ' ' && cp != 0x7F && !(cp >= 0x80 && cp <= 0xA0) && cp != 0xAD;
    if (cp == 0x115F || cp == 0x1160 || cp == 0x3164 || cp == 0xFFA0 || cp == 0xFF9E ||
        cp == 0xFF9F || (cp >= 0x180B && cp <= 0x180F) || (cp >= 0x17B4 && cp <= 0x17B5) ||
        (cp >= 0x2060 && cp <= 0x206F) || (cp >= 0xFE00 && cp <= 0xFE0F) || cp > 0xFFFF)
        return false;
    switch (hb_unicode_general_category(hb_unicode_funcs_get_default(), cp)) {
    case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_FORMAT:
    case HB_UNICODE_GENERAL_CATEGORY_CONTROL:
    case HB_UNICODE_GENERAL_CATEGORY_UNASSIGNED:
    case HB_UNICODE_GENERAL_CATEGORY_SURROGATE:
        return false;
    default:
        return true;
    }
}

/* ---- Kerning pairs ---------------------------------------------------
 *
 * HarfBuzz costs a few thousand instructions a glyph even where all it
 * does to a word is kern it.  Where a face can be cut (above) and, for a
 * word, no lookup of the plan but kerning can apply, the word's advances
 * are the sum of its pairs' kerning, and each pair's is what HarfBuzz
 * gives the two code points alone, cached per (script, glyph, glyph).
 *
 * Kerning here is a GPOS pair adjustment that moves only the first glyph
 * (ValueFormat2 0 in every subtable: HarfBuzz then goes on from the second
 * glyph, so every adjacent pair is tried) and does not skip base glyphs.
 * Every other lookup of the plan, GSUB or GPOS, can only start at a glyph
 * of its subtables' (first input, or mark) coverage: a word none of whose
 * glyphs is in one is left alone by them.  A chain rule with one input
 * glyph and a lookahead needs, besides, the next glyph in its first
 * lookahead coverage (as Lato's dotless i before a mark): such a rule
 * excludes a word only when both are there.  A word is set from pairs when
 * besides every code point is a space, a no-break space or starts a
 * cluster of its own (starts_cluster(): no mark, no default-ignorable,
 * nothing HarfBuzz's normaliser would touch), has a glyph, the one HarfBuzz's cmap gives, and
 * that glyph is a base glyph or unclassified in GDEF (no mark zeroing, no
 * lookup flag that skips it).  Other words are shaped by HarfBuzz as
 * before.  The pair shaping checks itself: both glyphs as expected and the
 * second one unmoved, or pairs are given up for the face and script. */

static bool coverage_into(otb t, size_t o, hb_set_t *out)
{
    unsigned fmt, n;
    if (!u16(t, o, &fmt) || !u16(t, o + 2, &n))
        return false;
    for (unsigned i = 0; i < n; i++) {
        unsigned a, b;
        if (fmt == 1 && u16(t, o + 4 + 2 * (size_t)i, &a))
            hb_set_add(out, a);
        else if (fmt == 2 && u16(t, o + 4 + 6 * (size_t)i, &a) &&
                 u16(t, o + 6 + 6 * (size_t)i, &b) && a <= b)
            hb_set_add_range(out, a, b);
        else
            return false;
    }
    return true;
}

/* Where lookup `idx` of the plan may start (see above), into pp. */
static bool lookup_starts(otb t, bool gpos, unsigned idx, pair_plan *pp)
{
    lookup_info li;
    hb_set_t *calls = hb_set_create();
    bool ok = read_lookup(t, gpos, idx, &li, calls);
    hb_set_destroy(calls);
    if (!ok)
        return false;
    if (li.first_only && !(li.flag & 0x0002)) {
        pp->kern = cv_xrealloc(pp->kern, (pp->nkern + 1) * sizeof *pp->kern);
        pp->kern[pp->nkern++] = idx;
        return true;                             /* kerning: the pairs */
    }
    size_t l;
    unsigned nsub, type;
    if (!lookup_at(t, idx, &l) || !u16(t, l, &type) || !u16(t, l + 4, &nsub))
        return false;
    for (unsigned k = 0; k < nsub; k++) {
        unsigned st, fmt, co;
        size_t s;
        if (!subtable(t, l, type, k, gpos, &st, &s) || !u16(t, s, &fmt))
            return false;
        bool context = st == (gpos ? 7u : 5u), chain = st == (gpos ? 8u : 6u);
        if (chain && fmt == 3) {
            unsigned nb, ni, na, c0, l0;
            size_t o = s + 2;
            if (!u16(t, o, &nb))
                return false;
            o += 2 + 2 * (size_t)nb;
            if (!u16(t, o, &ni) || ni == 0 || !u16(t, o + 2, &c0))
                return false;
            o += 2 + 2 * (size_t)ni;
            if (!u16(t, o, &na))
                return false;
            if (ni == 1 && na >= 1 && !(li.flag & 0x0002)) {
                if (!u16(t, o + 2, &l0))
                    return false;
                pp->chain = cv_xrealloc(pp->chain, (pp->nchain + 1) * sizeof *pp->chain);
                struct chain_cond *cc = &pp->chain[pp->nchain++];
                cc->in = hb_set_create();
                cc->next = hb_set_create();
                if (!coverage_into(t, s + c0, cc->in) || !coverage_into(t, s + l0, cc->next))
                    return false;
            } else if (!coverage_into(t, s + c0, pp->start)) {
                return false;
            }
        } else if (context && fmt == 3) {
            unsigned g;
            if (!u16(t, s + 2, &g) || g == 0 || !u16(t, s + 6, &co) ||
                !coverage_into(t, s + co, pp->start))
                return false;
        } else {
            /* Every other subtable has its (first input, or mark) coverage
             * at offset 2. */
            if (!u16(t, s + 2, &co) || !coverage_into(t, s + co, pp->start))
                return false;
        }
    }
    return true;
}

static bool plan_starts(const face_cache *c, hb_shape_plan_t *plan, bool gpos, pair_plan *pp)
{
    hb_tag_t tag = gpos ? HB_OT_TAG_GPOS : HB_OT_TAG_GSUB;
    hb_blob_t *blob = hb_face_reference_table(c->face->hb_face, tag);
    unsigned blen;
    const char *data = hb_blob_get_data(blob, &blen);
    otb t = {(const unsigned char *)data, blen};
    hb_set_t *lookups = hb_set_create();
    hb_ot_shape_plan_collect_lookups(plan, tag, lookups);
    bool ok = true;
    for (hb_codepoint_t idx = HB_SET_VALUE_INVALID; ok && hb_set_next(lookups, &idx);)
        ok = lookup_starts(t, gpos, idx, pp);
    hb_set_destroy(lookups);
    hb_blob_destroy(blob);
    return ok;
}

/* The pair plan of `script` in this face (its slot in c->split), or NULL
 * when its words are all for HarfBuzz. */
static pair_plan *pairs_of(face_cache *c, hb_script_t script, unsigned *slot)
{
    for (size_t i = 0; i < c->nsplit; i++) {
        cut_verdict *v = &c->split[i];
        if (v->script != script)
            continue;
        if (!v->ok)
            return NULL;
        *slot = (unsigned)i;
        if (v->pairs < 0) {
            pair_plan *pp = &v->plan;
            pp->start = hb_set_create();
            hb_segment_properties_t props = HB_SEGMENT_PROPERTIES_DEFAULT;
            props.direction = HB_DIRECTION_LTR;
            props.script = script;
            props.language = hb_language_get_default();
            hb_shape_plan_t *plan = hb_shape_plan_create_cached(
                c->face->hb_face, &props, no_ligatures,
                sizeof no_ligatures / sizeof *no_ligatures, NULL);
            v->pairs = plan_starts(c, plan, false, pp) && plan_starts(c, plan, true, pp);
            hb_shape_plan_destroy(plan);
            /* Device tables apply only at a ppem or with variations. */
            unsigned xp = 0, yp = 0;
            hb_font_get_ppem(c->face->hb, &xp, &yp);
            pp->direct = v->pairs && !xp && !yp && !hb_ot_var_has_data(c->face->hb_face);
            if (pp->direct)
                pp->gpos = hb_face_reference_table(c->face->hb_face, HB_OT_TAG_GPOS);
        }
        return v->pairs ? &v->plan : NULL;
    }
    return NULL;
}

static bool starts_cluster(uint32_t cp);

enum { PLAIN = 1, NOT_PLAIN = 2, CHAIN_IN = 4 };

/* What code point cp is for pairs: PLAIN (and CHAIN_IN when its glyph may
 * start a chain rule with a lookahead) or NOT_PLAIN. */
static unsigned plain_slow(face_cache *c, const pair_plan *pp, uint32_t cp)
{
    /* A no-break space is an ordinary character to HarfBuzz when the font
     * has a glyph for it (checked below); starts_cluster() leaves it out
     * only because a word is not cut after it. */
    if (cp != ' ' && cp != 0xA0 && !starts_cluster(cp))
        return NOT_PLAIN;
    unsigned g = glyph_of(c, cp);
    hb_codepoint_t hg;
    if (!g || hb_set_has(pp->start, g) || !hb_font_get_nominal_glyph(c->face->hb, cp, &hg) ||
        hg != g)
        return NOT_PLAIN;
    hb_ot_layout_glyph_class_t gc = hb_ot_layout_get_glyph_class(c->face->hb_face, g);
    if (gc != HB_OT_LAYOUT_GLYPH_CLASS_UNCLASSIFIED && gc != HB_OT_LAYOUT_GLYPH_CLASS_BASE_GLYPH)
        return NOT_PLAIN;
    for (size_t k = 0; k < pp->nchain; k++)
        if (hb_set_has(pp->chain[k].in, g))
            return PLAIN | CHAIN_IN;
    return PLAIN;
}

static unsigned plain_cp(face_cache *c, pair_plan *pp, uint32_t cp)
{
    if (cp > 0xFFFF)
        return plain_slow(c, pp, cp);
    uint8_t *page = pp->plain[cp >> 8];
    if (!page) {
        page = pp->plain[cp >> 8] = cv_xrealloc(NULL, 256);
        memset(page, 0, 256);
    }
    if (!page[cp & 0xFF])
        page[cp & 0xFF] = (uint8_t)plain_slow(c, pp, cp);
    return page[cp & 0xFF];
}

/* May segment e be set from pairs? */
static bool plain_word(face_cache *c, pair_plan *pp, const shaped *e)
{
    unsigned prev = 0;
    for (size_t i = 0; i < e->n; i++) {
        unsigned p = plain_cp(c, pp, e->cps[i]);
        if (p & NOT_PLAIN)
            return false;
        if (prev & CHAIN_IN) {
            unsigned a = glyph_of(c, e->cps[i - 1]), b = glyph_of(c, e->cps[i]);
            for (size_t k = 0; k < pp->nchain; k++)
                if (hb_set_has(pp->chain[k].in, a) && hb_set_has(pp->chain[k].next, b))
                    return false;
        }
        prev = p;
    }
    return true;
}

/* The coverage index of glyph g in the coverage table at o; -1 when not
 * covered, -2 when the table cannot be read. */
static long coverage_index(otb t, size_t o, unsigned g)
{
    unsigned fmt, n;
    if (!u16(t, o, &fmt) || !u16(t, o + 2, &n))
        return -2;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        unsigned a, b, ix;
        if (fmt == 1) {
            if (!u16(t, o + 4 + 2 * mid, &a))
                return -2;
            if (g == a)
                return (long)mid;
            b = a;
        } else if (fmt == 2) {
            if (!u16(t, o + 4 + 6 * mid, &a) || !u16(t, o + 6 + 6 * mid, &b) ||
                !u16(t, o + 8 + 6 * mid, &ix))
                return -2;
            if (g >= a && g <= b)
                return (long)ix + (long)(g - a);
        } else {
            return -2;
        }
        if (g < a)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

/* The class of glyph g in the class definition at o; -1 when it cannot be
 * read. */
static long class_of(otb t, size_t o, unsigned g)
{
    unsigned fmt, a, n;
    if (!u16(t, o, &fmt))
        return -1;
    if (fmt == 1) {
        unsigned k;
        if (!u16(t, o + 2, &a) || !u16(t, o + 4, &n))
            return -1;
        if (g < a || g - a >= n)
            return 0;
        return u16(t, o + 6 + 2 * (size_t)(g - a), &k) ? (long)k : -1;
    }
    if (fmt != 2 || !u16(t, o + 2, &n))
        return -1;
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        unsigned b, k;
        if (!u16(t, o + 4 + 6 * mid, &a) || !u16(t, o + 6 + 6 * mid, &b) ||
            !u16(t, o + 8 + 6 * mid, &k))
            return -1;
        if (g >= a && g <= b)
            return k;
        if (g < a)
            hi = mid;
        else
            lo = mid + 1;
    }
    return 0;
}

static unsigned popcount16(unsigned v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* The XAdvance of the value record at o in format vf. */
static bool x_advance(otb t, size_t o, unsigned vf, int32_t *adv)
{
    unsigned v;
    if (!(vf & 0x0004)) {
        *adv = 0;
        return true;
    }
    if (!u16(t, o + 2 * popcount16(vf & 0x0003), &v))
        return false;
    *adv = (int16_t)v;
    return true;
}

static void add_sub(pair_plan *pp, uint32_t at, uint32_t ci, uint32_t lookup)
{
    if (pp->nsubs == pp->csubs) {
        pp->csubs = pp->csubs ? 2 * pp->csubs : 256;
        pp->subs = cv_xrealloc(pp->subs, pp->csubs * sizeof *pp->subs);
    }
    pp->subs[pp->nsubs++] = (struct kern_sub){at, ci, lookup};
}

/* The kerning subtables that cover glyph ga, in lookup and subtable
 * order, with ga's coverage index: a list in pp->subs ending with at 0,
 * made on first use; its start, or -1 when GPOS cannot be read. */
static long kern_first(pair_plan *pp, otb t, unsigned ga)
{
    uint32_t *page = pp->first[ga >> 8];
    if (!page) {
        page = pp->first[ga >> 8] = cv_xrealloc(NULL, 256 * sizeof *page);
        memset(page, 0, 256 * sizeof *page);
    }
    if (page[ga & 0xFF])
        return (long)page[ga & 0xFF] - 1;
    size_t start = pp->nsubs;
    unsigned ll;
    if (!u16(t, 8, &ll))
        return -1;
    for (size_t i = 0; i < pp->nkern; i++) {
        unsigned lo, nsub, type;
        if (!u16(t, ll + 2 + 2 * (size_t)pp->kern[i], &lo))
            return -1;
        size_t l = (size_t)ll + lo;
        if (!u16(t, l, &type) || !u16(t, l + 4, &nsub))
            return -1;
        for (unsigned k = 0; k < nsub; k++) {
            unsigned so, st = type, co, vf2;
            if (!u16(t, l + 6 + 2 * (size_t)k, &so))
                return -1;
            size_t s = l + so;
            if (st == 9) {
                size_t eo;
                if (!u16(t, s + 2, &st) || !u32(t, s + 4, &eo))
                    return -1;
                s += eo;
            }
            if (st != 2 || s == 0 || s > UINT32_MAX || !u16(t, s + 2, &co) ||
                !u16(t, s + 6, &vf2) || vf2 != 0)
                return -1;
            long ci = coverage_index(t, s + co, ga);
            if (ci == -2)
                return -1;
            if (ci >= 0)
                add_sub(pp, (uint32_t)s, (uint32_t)ci, (uint32_t)i);
        }
    }
    add_sub(pp, 0, 0, 0);
    page[ga & 0xFF] = (uint32_t)start + 1;
    return (long)start;
}

/* The kerning of ga before gb read off the plan's kerning lookups as
 * HarfBuzz applies them: in each lookup, the first subtable that applies
 * (format 1: the pair is listed; format 2: both classes in range). */
static bool direct_kern(pair_plan *pp, unsigned ga, unsigned gb, int32_t *kern)
{
    unsigned blen;
    const char *data = hb_blob_get_data(pp->gpos, &blen);
    otb t = {(const unsigned char *)data, blen};
    long first = kern_first(pp, t, ga);
    if (first < 0)
        return false;
    int32_t sum = 0;
    long done = -1;                      /* the lookup that applied last */
    for (size_t j = (size_t)first; pp->subs[j].at; j++) {
        const struct kern_sub *ks = &pp->subs[j];
        if ((long)ks->lookup == done)
            continue;
        size_t s = ks->at;
        unsigned fmt, vf1;
        if (!u16(t, s, &fmt) || !u16(t, s + 4, &vf1))
            return false;
        size_t rec = 2 + 2 * (size_t)popcount16(vf1);
        int32_t adv;
        if (fmt == 1) {
            unsigned nsets, pso, n;
            if (!u16(t, s + 8, &nsets))
                return false;
            if (ks->ci >= nsets)
                continue;
            if (!u16(t, s + 10 + 2 * (size_t)ks->ci, &pso) || !u16(t, s + pso, &n))
                return false;
            size_t ps = s + pso + 2, a = 0, b = n;
            bool found = false;
            while (a < b) {
                size_t mid = (a + b) / 2;
                unsigned g2;
                if (!u16(t, ps + mid * rec, &g2))
                    return false;
                if (g2 == gb) {
                    if (!x_advance(t, ps + mid * rec + 2, vf1, &adv))
                        return false;
                    found = true;
                    break;
                }
                if (gb < g2)
                    b = mid;
                else
                    a = mid + 1;
            }
            if (!found)
                continue;
        } else if (fmt == 2) {
            unsigned cd1, cd2, n1, n2;
            if (!u16(t, s + 8, &cd1) || !u16(t, s + 10, &cd2) || !u16(t, s + 12, &n1) ||
                !u16(t, s + 14, &n2))
                return false;
            long k1 = class_of(t, s + cd1, ga), k2 = class_of(t, s + cd2, gb);
            if (k1 < 0 || k2 < 0)
                return false;
            if ((unsigned long)k1 >= n1 || (unsigned long)k2 >= n2)
                continue;
            size_t r = rec - 2;          /* format 2 records have no glyph id */
            if (!x_advance(t, s + 16 + ((size_t)k1 * n2 + (size_t)k2) * r, vf1, &adv))
                return false;
        } else {
            return false;
        }
        sum += adv;
        done = (long)ks->lookup;         /* the lookup applied */
    }
    *kern = sum;
    return true;
}

/* The kerning of glyph ga (code point a) before gb (b), font units, as
 * HarfBuzz gives the pair alone; false when that is not a plain pair. */
static bool pair_kern(face_cache *c, pair_plan *pp, unsigned slot, hb_script_t script,
                      uint32_t a, uint32_t b, unsigned ga, unsigned gb, int32_t *kern)
{
    uint64_t key = (uint64_t)(slot + 1) << 40 | (uint64_t)ga << 20 | gb;
    const int32_t *known = kmap_slot(&c->pair, key, false, 0);
    if (known) {
        *kern = *known;
        return true;
    }
    uint32_t pair[2] = {a, b};
    int32_t d[2];
    unsigned gl[2];
    if (pp->direct && direct_kern(pp, ga, gb, &d[0]))
        ;
    else if (!hb_run(c, pair, 2, &script, d, gl) || gl[0] != ga || gl[1] != gb || d[1] != 0)
        return false;
    *kmap_slot(&c->pair, key, true, 1024) = d[0];
    *kern = d[0];
    return true;
}

/* hb_run()'s delta and glyph for `cps` (plain words, see above) from
 * pairs; false when a pair was not plain after all. */
static bool pair_run(face_cache *c, pair_plan *pp, unsigned slot, hb_script_t script,
                     const uint32_t *cps, size_t n, int32_t *delta, unsigned *glyph)
{
    for (size_t i = 0; i < n; i++)
        glyph[i] = glyph_of(c, cps[i]);
    for (size_t i = 0; i + 1 < n; i++)
        if (!pair_kern(c, pp, slot, script, cps[i], cps[i + 1], glyph[i], glyph[i + 1],
                       &delta[i]))
            return false;
    if (n)
        delta[n - 1] = 0;
    return true;
}

/* ---- Shaping a run --------------------------------------------------- */

enum { WHOLE, KERNED, UNKERNED };

/* Shape segments grp[0, np) (`total` code points) together, by HarfBuzz
 * or, with pp, from pairs; false when that showed the font cannot be cut
 * after all. */
static bool shape_group(cv_shaper *sh, face_cache *c, hb_script_t script, shaped **pend,
                        size_t np, size_t total, pair_plan *pp, unsigned slot)
{
    uint32_t *all = sh->cps;
    size_t o = 0;
    for (size_t k = 0; k < np; k++) {
        memcpy(all + o, pend[k]->cps, pend[k]->n * sizeof *all);
        o += pend[k]->n;
    }
    bool together;
    if (pp && pair_run(c, pp, slot, script, all, total, sh->d2, sh->glyph)) {
        together = true;
    } else {
        if (pp)
            c->split[slot].pairs = 0;            /* HarfBuzz disagreed: no more pairs */
        together = hb_run(c, all, total, &script, sh->d2, sh->glyph);
    }
    o = 0;
    for (size_t k = 0; k < np; k++) {
        shaped *e = pend[k];
        size_t m = e->n;
        if (together) {
            memcpy(e->delta, sh->d2 + o, m * sizeof *e->delta);
            e->first = sh->glyph[o];
            e->ok = true;
            if (k + 1 < np) {
                /* The space ending it, kerned with the next one's first glyph. */
                *gap_slot(c, script, sh->glyph[o + m], true) = e->delta[m - 1];
                e->delta[m - 1] = 0;
            }
        } else {
            /* Some segment has glyphs that do not map one to one. */
            e->ok = hb_run(c, e->cps, m, &script, e->delta, sh->glyph);
            e->first = sh->glyph[0];
        }
        /* A segment's final space is kerned only by what follows it. */
        if (e->ok && e->cps[m - 1] == ' ' && e->delta[m - 1] != 0)
            return false;
        o += m;
    }
    return true;
}

/* Shape the run's segments not cached yet (sh->pend[0, np), `total` code
 * points): those that may be set from pairs together that way, the others
 * together by HarfBuzz; false when that showed the font cannot be cut
 * after all. */
static bool shape_pending(cv_shaper *sh, face_cache *c, hb_script_t script, size_t np,
                          size_t total)
{
    unsigned slot = 0;
    pair_plan *pp = pairs_of(c, script, &slot);
    if (!pp)
        return shape_group(sh, c, script, sh->pend, np, total, NULL, 0);
    size_t nplain = 0, nother = 0, tplain = 0;
    for (size_t k = 0; k < np; k++) {
        shaped *e = sh->pend[k];
        if (plain_word(c, pp, e)) {
            sh->pend[nplain++] = e;
            tplain += e->n;
        } else {
            sh->pend2[nother++] = e;
        }
    }
    if (nplain && !shape_group(sh, c, script, sh->pend, nplain, tplain, pp, slot))
        return false;
    return !nother ||
           shape_group(sh, c, script, sh->pend2, nother, total - tplain, NULL, 0);
}

/* The space's extra advance before glyph `first` (code point `cp`). */
static bool space_gap(face_cache *c, hb_script_t script, uint32_t cp, unsigned first,
                      int32_t *gap)
{
    int32_t *g = gap_slot(c, script, first, false);
    if (g) {
        *gap = *g;
        return true;
    }
    uint32_t pair[2] = {' ', cp};
    int32_t d[2];
    unsigned gl[2];
    if (!hb_run(c, pair, 2, &script, d, gl) || gl[1] != first)
        return false;
    *gap_slot(c, script, first, true) = *gap = d[0];
    return true;
}

static int shape_cut(cv_shaper *sh, face_cache *c, const uint32_t *cps, size_t n,
                     int32_t *delta)
{
    hb_script_t script = run_script(cps, n);
    if (!cut_ok(c, script))
        return WHOLE;
    size_t nseg = 0;
    for (size_t i = 0; i < n; i++) {
        if (cps[i] == 0x2044)
            return WHOLE;                        /* fractions */
        if (i == 0 || (cps[i - 1] == ' ' && cps[i] != ' ' && starts_cluster(cps[i])))
            sh->seg[nseg++] = i;
    }
    sh->seg[nseg] = n;

    size_t np = 0, total = 0;
    for (size_t s = 0; s < nseg; s++) {
        size_t b = sh->seg[s], m = sh->seg[s + 1] - b;
        bool added;
        shaped *e = lookup(c, false, script, cps + b, m, &added);
        if (added) {
            sh->pend[np++] = e;
            total += m;
        }
        sh->segent[s] = e;
    }
    if (np && !shape_pending(sh, c, script, np, total)) {
        cut_forbid(c, script);
        return WHOLE;
    }

    int verdict = KERNED;
    for (size_t s = 0; s < nseg; s++) {
        size_t b = sh->seg[s], m = sh->seg[s + 1] - b;
        const shaped *e = sh->segent[s];
        if (!e->ok)
            verdict = UNKERNED;
        if (verdict != KERNED)
            continue;
        memcpy(delta + b, e->delta, m * sizeof *delta);
        if (s + 1 < nseg) {
            int32_t gap;
            if (!space_gap(c, script, cps[b + m], sh->segent[s + 1]->first, &gap))
                return WHOLE;
            delta[b + m - 1] += gap;
        }
    }
    return verdict;
}

static bool shape_whole(cv_shaper *sh, face_cache *c, const uint32_t *cps, size_t n,
                        int32_t *delta)
{
    bool added;
    shaped *e = lookup(c, true, HB_SCRIPT_INVALID, cps, n, &added);
    if (added)
        e->ok = hb_run(c, cps, n, NULL, e->delta, sh->glyph);
    if (e->ok)
        memcpy(delta, e->delta, n * sizeof *delta);
    return e->ok;
}

void cv_shape_run(cv_shaper *sh, int face, const uint32_t *cps, size_t n, int16_t *w,
                  int16_t *kern)
{
    face_cache *c = face_of(sh, face);
    if (!c) {
        memset(w, 0, n * sizeof *w);
        memset(kern, 0, n * sizeof *kern);
        return;
    }
    bool clusters = false;
    for (size_t i = 0; i < n; i++) {
        size_t k = cps[i] - CV_CLUSTER_BASE;
        clusters |= cps[i] >= CV_CLUSTER_BASE;
        w[i] = (int16_t)advance_em(c, cps[i] >= CV_CLUSTER_BASE ? cv_shape_glyph(sh, face, cps[i])
                                                                : glyph_of(c, cps[i]));
        /* A glyph placed by cv_shape_rtl: HarfBuzz's advance for it. */
        kern[i] = cps[i] >= CV_CLUSTER_BASE && k < sh->ncl ? sh->cl[k].dadv : 0;
    }
    if (n < 2 || clusters)      /* shaped already (cv_shape_complex) */
        return;

    /* Kerning only: one glyph per code point is required, because the PDF
     * backend writes code points (libharu maps them to glyphs itself). */
    if (cv_arena_used(c->arena) > CACHE_BYTES) {
        cv_arena_reset(c->arena);
        memset(c->tab, 0, c->cap * sizeof *c->tab);
        c->count = 0;
    }
    scratch_grow(sh, n + 2);
    int32_t *delta = sh->delta;
    int how = shape_cut(sh, c, cps, n, delta);
    if (how == UNKERNED || (how == WHOLE && !shape_whole(sh, c, cps, n, delta)))
        return;
    for (size_t i = 0; i < n; i++)
        if (delta[i])
            kern[i] = (int16_t)lround(delta[i] * 1000.0 / c->face->upem);
}

/* ---- Complex scripts ------------------------------------------------- */

const char *cv_shape_cluster_text(const cv_shaper *sh, uint32_t cp)
{
    size_t i = cp - CV_CLUSTER_BASE;
    return cp >= CV_CLUSTER_BASE && i < sh->ncl ? sh->cl[i].text : NULL;
}

/* Is `c` a combining mark? */
static bool is_mark(uint32_t c)
{
    switch (hb_unicode_general_category(hb_unicode_funcs_get_default(), c)) {
    case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK: return true;
    default: return false;
    }
}

bool cv_shape_cluster_mark(const cv_shaper *sh, uint32_t cp)
{
    const char *t = cv_shape_cluster_text(sh, cp);
    uint32_t c;
    if (!t || !*t)
        return false;
    cv_utf8_decode(t, strlen(t), &c);
    return is_mark(c);
}


bool cv_shape_cluster_offset(const cv_shaper *sh, uint32_t cp, int *dx, int *dy)
{
    size_t i = cp - CV_CLUSTER_BASE;
    *dx = *dy = 0;
    if (cp < CV_CLUSTER_BASE || i >= sh->ncl)
        return false;
    *dx = sh->cl[i].dx;
    *dy = sh->cl[i].dy;
    return *dx || *dy;
}

/* The code point of glyph `gid` of `face` standing for `text` (len bytes),
 * placed at `pos` (dx, dy, dadv: struct cluster's), made on first use; 0
 * when the table is full. */
static uint32_t cluster_at(cv_shaper *sh, int face, unsigned gid, const char *text, size_t len,
                           const int16_t pos[3])
{
    for (size_t i = 0; i < sh->ncl; i++)
        if (sh->cl[i].face == face && sh->cl[i].gid == gid && sh->cl[i].dx == pos[0] &&
            sh->cl[i].dy == pos[1] && sh->cl[i].dadv == pos[2] &&
            strlen(sh->cl[i].text) == len && !memcmp(sh->cl[i].text, text, len))
            return CV_CLUSTER_BASE + (uint32_t)i;
    if (sh->ncl == CV_CLUSTER_MAX)
        return 0;
    if (sh->ncl == sh->ccl) {
        sh->ccl = sh->ccl ? 2 * sh->ccl : 64;
        sh->cl = cv_xrealloc(sh->cl, sh->ccl * sizeof *sh->cl);
    }
    char *t = cv_xmalloc(len + 1);
    memcpy(t, text, len);
    t[len] = 0;
    sh->cl[sh->ncl] = (struct cluster){face, gid, t, pos[0], pos[1], pos[2]};
    return CV_CLUSTER_BASE + (uint32_t)sh->ncl++;
}

static uint32_t cluster_cp(cv_shaper *sh, int face, unsigned gid, const char *text, size_t len)
{
    static const int16_t none[3] = {0, 0, 0};
    return cluster_at(sh, face, gid, text, len, none);
}

uint32_t cv_shape_cluster(cv_shaper *sh, int face, unsigned gid, const char *text)
{
    return cluster_cp(sh, face, gid, text, strlen(text));
}

/* The glyph face `face` sets for `cp` with one feature on, when it differs
 * from its glyph without it; 0 otherwise. */
static unsigned variant(cv_shaper *sh, int face, uint32_t cp, hb_tag_t tag)
{
    const cv_face *f = cv_fontset_face(sh->fs, face);
    face_cache *c = face_of(sh, face);
    if (!f || !c || cp >= CV_CLUSTER_BASE)
        return 0;
    unsigned plain = glyph_of(c, cp);
    if (!plain)
        return 0;
    hb_buffer_t *buf = hb_buffer_create();
    hb_buffer_add_utf32(buf, &cp, 1, 0, 1);
    hb_buffer_guess_segment_properties(buf);
    const hb_feature_t feature = {tag, 1, 0, ~0u};
    hb_shape((hb_font_t *)f->hb, buf, &feature, 1);
    unsigned ng;
    hb_glyph_info_t *gi = hb_buffer_get_glyph_infos(buf, &ng);
    unsigned g = ng == 1 && gi[0].codepoint != plain ? gi[0].codepoint : 0;
    hb_buffer_destroy(buf);
    return g;
}

unsigned cv_shape_small_cap(cv_shaper *sh, int face, uint32_t cp)
{
    return variant(sh, face, cp, HB_TAG('s', 'm', 'c', 'p'));
}

unsigned cv_shape_lining_figure(cv_shaper *sh, int face, uint32_t cp)
{
    return variant(sh, face, cp, HB_TAG('l', 'n', 'u', 'm'));
}

/* Thousandths of an em for `v` font units of face `f`, within int16_t. */
static int16_t em_of(const cv_face *f, hb_position_t v)
{
    long e = lround((double)v * 1000.0 / f->upem);
    return (int16_t)(e < -32000 ? -32000 : e > 32000 ? 32000 : e);
}

/* Is `cp` a character HarfBuzz removes from a right-to-left run
 * (HB_BUFFER_FLAG_REMOVE_DEFAULT_IGNORABLES): a joiner, or a bidi mark
 * or embedding inside an Arabic word? */
static bool hidden(uint32_t cp)
{
    return cp == 0x200C || cp == 0x200D || cp == 0x200E || cp == 0x200F || cp == 0x061C ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* A cluster of cv_shape_rtl: characters [c0, c1) of cps[], drawn as glyphs
 * gi[0, ng) with their positions gp[] (ng no more than the characters), in
 * the order of the text.  Glyph j stands for the j-th character that is
 * not a joiner (ZWNJ, ZWJ: HarfBuzz draws them as nothing); each other
 * character -- a joiner, the alef of lam-alef -- is a ghost: the face's
 * space glyph `ghost`, of no width and no ink, a thousandth of an em
 * before the pen (the next ghost two), that carries the character.  So every glyph stands for
 * one character and a reader that orders glyphs by where they lie (poppler
 * puts a glyph that stands for several right-to-left letters backwards)
 * reads them in order; the ghost lies before the glyph its character
 * follows.  False when the table of cluster code points is full. */
static bool rtl_cluster(cv_shaper *sh, int face, const uint32_t *cps, size_t c0, size_t c1,
                        const hb_glyph_info_t *gi, const hb_glyph_position_t *gp, size_t ng,
                        unsigned ghost, uint32_t *out)
{
    const cv_face *f = cv_fontset_face(sh->fs, face);
    face_cache *fc = face_of(sh, face);
    size_t visible = 0;
    for (size_t k = c0; k < c1; k++)
        visible += !hidden(cps[k]);
    size_t j = 0;
    int ghosts = 0;
    for (size_t k = c0; k < c1; k++) {
        char text[8];
        size_t len = cv_utf8_encode(cps[k], text);
        bool joiner = hidden(cps[k]);
        if (j < ng && (!joiner || visible < ng)) {
            const hb_glyph_position_t *p = &gp[j];
            unsigned gid = gi[j].codepoint;
            int16_t pos[3] = {em_of(f, p->x_offset), em_of(f, p->y_offset),
                              em_of(f, p->x_advance - hb_font_get_glyph_h_advance(
                                                          (hb_font_t *)f->hb, gid))};
            /* A letter of no advance where HarfBuzz left it (Noto Naskh's
             * alef of lam-alef) lies like a ghost, just before the pen. */
            if (!p->x_advance && !p->x_offset && !p->y_offset && !is_mark(cps[k]))
                pos[0] = -1;
            out[k] = cluster_at(sh, face, gid, text, len, pos);
            if (!out[k] || !gid)
                return false;
            j++;
            ghosts = 0;
        } else {
            /* Ghosts after one glyph lie a thousandth of an em apart, the
             * first nearest it. */
            int16_t pos[3] = {(int16_t)-++ghosts, 0, (int16_t)-advance_em(fc, ghost)};
            out[k] = cluster_at(sh, face, ghost, text, len, pos);
            if (!out[k])
                return false;
        }
    }
    return true;
}

/* cv_shape_complex and cv_shape_rtl: all[at, at + n) shaped, the rest of
 * all[0, nall) its context.  `rtl` shapes right to left in the
 * text's script and language `lang` (NULL: none), with default ignorables
 * (ZWNJ, ZWJ) removed and each glyph's position kept in its cluster code
 * point; otherwise as HarfBuzz guesses, positions dropped. */
static bool shape_clusters(cv_shaper *sh, int face, const uint32_t *all, size_t nall, size_t at,
                           size_t n, bool rtl, const char *lang, uint32_t *out)
{
    const cv_face *f = cv_fontset_face(sh->fs, face);
    if (!f || n == 0 || n > 4096 || at > nall || n > nall - at || nall > INT32_MAX)
        return false;
    const uint32_t *cps = all + at;
    hb_buffer_t *buf = hb_buffer_create();
    /* The text around the run is context: a letter joins one in another
     * face (a word half bold). */
    hb_buffer_add_utf32(buf, all, (int)nall, (unsigned)at, (int)n);
    if (rtl) {
        /* Everything said, nothing guessed: the process's locale is no
         * part of a résumé. */
        hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
        hb_script_t script = HB_SCRIPT_COMMON;
        for (size_t i = 0; i < n && (script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED);
             i++)
            script = hb_unicode_script(uf, cps[i]);
        hb_buffer_set_script(buf, script);
        hb_buffer_set_language(buf, hb_language_from_string(lang && *lang ? lang : "und", -1));
        hb_buffer_set_direction(buf, HB_DIRECTION_RTL);
        hb_buffer_set_flags(buf, HB_BUFFER_FLAG_REMOVE_DEFAULT_IGNORABLES);
    } else {
        hb_buffer_guess_segment_properties(buf);
        hb_buffer_set_direction(buf, HB_DIRECTION_LTR);
    }
    hb_buffer_set_cluster_level(buf, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES);
    hb_shape((hb_font_t *)f->hb, buf, NULL, 0);
    /* Right to left, HarfBuzz gives the glyphs in visual order: they are
     * read backwards, in the order of the text (bidi.c puts each line in
     * visual order again), a cluster's base before its marks. */
    unsigned ng;
    hb_glyph_info_t *gi0 = hb_buffer_get_glyph_infos(buf, &ng);
    hb_glyph_position_t *gp0 = hb_buffer_get_glyph_positions(buf, NULL);
    hb_glyph_info_t *gi = gi0;
    hb_glyph_position_t *gp = gp0;
    if (rtl) {
        gi = cv_xmalloc((ng + 1) * sizeof *gi);
        gp = cv_xmalloc((ng + 1) * sizeof *gp);
        for (unsigned k = 0; k < ng; k++) {
            gi[k] = gi0[ng - 1 - k];
            gp[k] = gp0[ng - 1 - k];
        }
    }
    for (unsigned k = 0; k < ng; k++)     /* clusters count from the run's start */
        gi[k].cluster -= (unsigned)at;
    bool ok = true;
    face_cache *fc = face_of(sh, face);
    unsigned ghost = fc ? glyph_of(fc, ' ') : 0;
    /* Each cluster: its glyphs [g0, g1) for its characters [c0, c1). */
    for (unsigned g0 = 0; ok && g0 < ng;) {
        unsigned g1 = g0 + 1;
        while (g1 < ng && gi[g1].cluster == gi[g0].cluster)
            g1++;
        size_t c0 = gi[g0].cluster, c1 = g1 < ng ? gi[g1].cluster : n;
        if (c1 <= c0 || c1 > n || g1 - g0 > c1 - c0) {
            ok = false;         /* more glyphs than characters: not here */
            break;
        }
        if (rtl && ghost) {
            ok = rtl_cluster(sh, face, cps, c0, c1, gi + g0, gp + g0, g1 - g0, ghost, out);
            g0 = g1;
            continue;
        }
        /* Glyph j stands for character c0 + j, the last for the rest: the
         * text reads in order whatever the glyphs are. */
        for (size_t j = 0; j < c1 - c0; j++) {
            if (j >= g1 - g0) {
                out[c0 + j] = 0xFEFF;
                continue;
            }
            size_t e = j + 1 == g1 - g0 ? c1 : c0 + j + 1;
            char text[64];
            size_t len = 0;
            for (size_t k = c0 + j; k < e && len + 4 < sizeof text; k++)
                len += cv_utf8_encode(cps[k], text + len);
            unsigned gid = gi[g0 + j].codepoint;
            int16_t pos[3] = {0, 0, 0};
            if (rtl) {
                const hb_glyph_position_t *p = &gp[g0 + j];
                pos[0] = em_of(f, p->x_offset);
                pos[1] = em_of(f, p->y_offset);
                pos[2] = em_of(f, p->x_advance - hb_font_get_glyph_h_advance((hb_font_t *)f->hb, gid));
            } else if (gid == ghost && !gp[g0 + j].x_advance) {
                /* A joiner (ZWJ, ZWNJ) HarfBuzz hid as the space glyph
                 * with no advance: drawn as nothing, not as a space. */
                pos[2] = (int16_t)-advance_em(fc, ghost);
            }
            out[c0 + j] = cluster_at(sh, face, gid, text, len, pos);
            ok &= out[c0 + j] != 0 && gid != 0;
        }
        g0 = g1;
    }
    if (rtl) {
        free(gi);
        free(gp);
    }
    hb_buffer_destroy(buf);
    return ok;
}

bool cv_shape_complex(cv_shaper *sh, int face, const uint32_t *cps, size_t n, uint32_t *out)
{
    return shape_clusters(sh, face, cps, n, 0, n, false, NULL, out);
}

bool cv_shape_rtl(cv_shaper *sh, int face, const uint32_t *text, size_t len, size_t at,
                  size_t n, const char *lang, uint32_t *out)
{
    return shape_clusters(sh, face, text, len, at, n, true, lang, out);
}
