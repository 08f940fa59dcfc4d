/* yml.c - YAML text to a small tree of cv_yml nodes, through libyaml.
 *
 * We use libyaml's event API rather than its document loader.  Events
 * arrive in source order (stream start, document start, scalar, mapping
 * start, ..., mapping end), and we build the tree with an explicit stack of
 * open containers.  Seeing each event as it comes lets us be strict where a
 * résumé needs it, and stop early where a hostile file would cost us:
 *
 *   - A mapping key is checked against the keys already in its mapping the
 *     moment it arrives, through one hash table keyed by (mapping, text), so
 *     `duplicate key 'name' (first defined at line 3)` costs O(1) per key.
 *   - A key that is a list or a mapping is refused at its start event.
 *   - Nesting is refused when the stack would grow past CV_YML_MAX_DEPTH,
 *     before libyaml has read the rest of a 100,000-bracket file.
 *   - An alias shares its anchored node (never copies it).  Sharing makes a
 *     "billion laughs" file cheap to load but not to walk, so every node
 *     carries what its subtree would cost when expanded: its node count, the
 *     alias references inside it, and its height.  An alias adds its
 *     anchor's figures to the enclosing containers; we refuse a file whose
 *     expanded alias references exceed CV_YML_MAX_ALIASES, whose aliases
 *     expand to more than MAX_EXPANDED nodes, or whose expanded depth
 *     exceeds CV_YML_MAX_DEPTH.  An alias to a container that is still open
 *     (a recursive structure) is refused: it would make the tree a cycle.
 *   - YAML 1.1 merge keys (`<<: *defaults`) are applied when their mapping
 *     closes; keys written in the mapping win over merged ones.
 *
 * Before libyaml sees the buffer we check for NUL bytes and UTF-16 or
 * UTF-32 text (with a byte order mark, or UTF-16 without one), which
 * libyaml would either reject with a vague message or accept in a form the
 * rest of cvpdf cannot use.
 *
 * Positions: libyaml marks are 0-based; mark_pos() is the one place that
 * turns them into our 1-based cv_pos.  Reader errors (bad UTF-8, control
 * characters) come with a byte offset instead, which offset_pos() turns
 * into a line and a column counted in characters, as libyaml counts them.
 */
#include "yml.h"
#include "color.h"
#include "file.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "unicode.h"

#define MAX_FILE_SIZE (16 * 1024 * 1024)
#define MAX_FILE_SIZE_NAME "16 MB"
/* What aliases may add: 100 copies of a 1000-bullet entry.  Each node costs
 * a few KB by the time it is laid out, and a small file must not make a
 * 20,000-page, 2 GB résumé (990 aliases of such an entry did, in 20 s). */
#define MAX_EXPANDED 100000

/* ---- A small open-addressing hash table in the arena ------------------ */

/* Keyed by (owner, text): owner NULL for anchors, the mapping node for
 * duplicate-key detection. */
typedef struct slot {
    const void *owner;
    const char *key;
    size_t len;
    void *val;
} slot;

typedef struct table {
    slot *slots;
    size_t cap, n;
} table;

static uint64_t hash(const void *owner, const char *s, size_t len)
{
    uint64_t h = 1469598103934665603u ^ (uint64_t)(uintptr_t)owner;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211u;
    }
    return h ^ (h >> 29);
}

static slot *find(table *t, const void *owner, const char *s, size_t len)
{
    if (!t->cap)
        return NULL;
    size_t i = hash(owner, s, len) & (t->cap - 1);
    while (t->slots[i].key) {
        slot *sl = &t->slots[i];
        if (sl->owner == owner && sl->len == len && memcmp(sl->key, s, len) == 0)
            return sl;
        i = (i + 1) & (t->cap - 1);
    }
    return NULL;
}

/* Insert or overwrite. */
static void put(cv_arena *a, table *t, const void *owner, const char *s, size_t len,
                void *val)
{
    slot *sl = find(t, owner, s, len);
    if (sl) {
        sl->val = val;
        return;
    }
    /* Grow at half load: rehash everything into a table twice the size. */
    if (2 * (t->n + 1) > t->cap) {
        table nt = {NULL, t->cap ? t->cap * 2 : 64, 0};
        nt.slots = cv_arena_alloc(a, nt.cap * sizeof *nt.slots);
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].key)
                put(a, &nt, t->slots[i].owner, t->slots[i].key, t->slots[i].len,
                    t->slots[i].val);
        *t = nt;
    }
    size_t i = hash(owner, s, len) & (t->cap - 1);
    while (t->slots[i].key)
        i = (i + 1) & (t->cap - 1);
    t->slots[i] = (slot){owner, s, len, val};
    t->n++;
}

/* ---- Loader state ------------------------------------------------------ */

/* What a subtree costs once its aliases are expanded. */
typedef struct cost {
    size_t nodes;    /* nodes */
    size_t aliases;  /* alias references */
    int height;      /* container levels (a scalar is 0) */
} cost;

typedef struct anchor {
    cv_yml *node;
    cost c;
    bool open;       /* container still being read */
} anchor;

/* An open container. */
typedef struct frame {
    cv_yml *node;
    size_t cap;
    cv_yml *key;     /* mapping: the key whose value is awaited */
    anchor *anc;     /* its anchor, completed when it closes */
    cost c;
    bool merge;      /* mapping has a plain '<<' key */
    size_t replace;  /* JSON: 1 + the index of the pair a duplicate key replaces */
} frame;

typedef struct loader {
    cv_arena *a;             /* nodes, arrays, tables */
    cv_arena *strings;       /* scalar values, which may outlive the nodes */
    cv_error *err;
    const char *file;
    const char *buf;
    size_t len;
    frame stack[CV_YML_MAX_DEPTH + 1];
    int depth;
    cv_yml *root;
    table anchors, keys;
    size_t aliases, expanded;
    bool json;               /* a .json file: a duplicate key's last value wins */
} loader;

/* The one conversion from libyaml's 0-based marks. */
static cv_pos mark_pos(const loader *L, yaml_mark_t m)
{
    return (cv_pos){L->file, (int)m.line + 1, (int)m.column + 1};
}

/* Line and column (in characters) of byte `off`; libyaml counts a CR LF
 * pair, a lone CR and a LF as one line break each. */
static cv_pos offset_pos(const loader *L, size_t off)
{
    int line = 1, col = 1;
    for (size_t i = 0; i < off && i < L->len; i++) {
        unsigned char c = (unsigned char)L->buf[i];
        if (c == '\n' || (c == '\r' && (i + 1 >= L->len || L->buf[i + 1] != '\n'))) {
            line++;
            col = 1;
        } else if (!cv_utf8_is_cont(c) && c != '\r') {
            col++;
        }
    }
    return (cv_pos){L->file, line, col};
}

/* The byte at a libyaml mark (line and column), or NUL past the end. */
static char byte_at(const loader *L, yaml_mark_t m)
{
    size_t i = 0, line = 0, col = 0;
    while (i < L->len && line < m.line) {
        char c = L->buf[i++];
        if (c == '\n' || (c == '\r' && (i >= L->len || L->buf[i] != '\n')))
            line++;
    }
    while (i < L->len && col < m.column) {
        i = cv_utf8_next(L->buf, L->len, i);
        col++;
    }
    return i < L->len ? L->buf[i] : '\0';
}

static cv_yml *new_node(loader *L, cv_yml_kind kind, cv_pos pos)
{
    cv_yml *n = cv_arena_alloc(L->a, sizeof *n);
    n->kind = kind;
    n->pos = pos;
    return n;
}

static bool expecting_key(const loader *L)
{
    if (L->depth == 0)
        return false;
    const frame *f = &L->stack[L->depth - 1];
    return f->node->kind == CV_YML_MAP && !f->key;
}

static void grow(loader *L, frame *f)
{
    cv_yml *p = f->node;
    if (p->n < f->cap)
        return;
    size_t nc = f->cap ? f->cap * 2 : 8;
    p->items = cv_arena_realloc(L->a, p->items, f->cap * sizeof *p->items,
                                nc * sizeof *p->items);
    if (p->kind == CV_YML_MAP)
        p->keys = cv_arena_realloc(L->a, p->keys, f->cap * sizeof *p->keys,
                                   nc * sizeof *p->keys);
    f->cap = nc;
}

/* Attach a finished node (or a shared, aliased one) to the open container,
 * or make it the root. */
static bool add(loader *L, cv_yml *node, cost c, cv_pos pos)
{
    if (L->depth == 0) {
        L->root = node;
        return true;
    }
    frame *f = &L->stack[L->depth - 1];
    f->c.nodes += c.nodes;
    f->c.aliases += c.aliases;
    if (c.height + 1 > f->c.height)
        f->c.height = c.height + 1;
    cv_yml *p = f->node;

    /* A sequence item. */
    if (p->kind == CV_YML_SEQ) {
        grow(L, f);
        p->items[p->n++] = node;
        return true;
    }

    /* A mapping key: a string that the mapping has not seen yet. */
    if (!f->key) {
        if (node->kind != CV_YML_SCALAR)
            return cv_error_at(L->err, pos, "a mapping key must be a string, not %s",
                               cv_yml_kind_name(node->kind));
        slot *first = find(&L->keys, p, node->str, node->len);
        if (first && L->json) {
            /* JSON Resume's tools (JavaScript's JSON.parse) take the last. */
            cv_warn(L->err, pos, "duplicate key '%s' (first defined at line %d): the last "
                    "one is used, as JSON Resume's tools use it", node->str,
                    ((cv_yml *)first->val)->pos.line);
            for (size_t i = 0; i < p->n; i++)
                if (p->keys[i]->len == node->len && !memcmp(p->keys[i]->str, node->str, node->len))
                    f->replace = i + 1;
            f->key = node;
            return true;
        }
        if (first)
            return cv_error_at(L->err, pos, "duplicate key '%s' (first defined at line %d)",
                               node->str, ((cv_yml *)first->val)->pos.line);
        put(L->a, &L->keys, p, node->str, node->len, node);
        if (node->plain && strcmp(node->str, "<<") == 0)
            f->merge = true;
        f->key = node;
        return true;
    }

    /* A mapping value completes a pair (or replaces a JSON duplicate's). */
    if (f->replace) {
        p->keys[f->replace - 1] = f->key;
        p->items[f->replace - 1] = node;
        f->replace = 0;
        f->key = NULL;
        return true;
    }
    grow(L, f);
    p->keys[p->n] = f->key;
    p->items[p->n] = node;
    p->n++;
    f->key = NULL;
    return true;
}

/* Define (or redefine: the latest definition wins) an anchor. */
static anchor *define(loader *L, const yaml_char_t *name, cv_yml *node, bool open)
{
    anchor *an = cv_arena_alloc(L->a, sizeof *an);
    an->node = node;
    an->open = open;
    an->c = (cost){1, 0, 0};
    const char *s = cv_arena_strdup(L->a, (const char *)name);
    put(L->a, &L->anchors, NULL, s, strlen(s), an);
    return an;
}

static bool on_scalar(loader *L, const yaml_event_t *ev)
{
    cv_pos pos = mark_pos(L, ev->start_mark);
    size_t len = ev->data.scalar.length;
    const char *v = (const char *)ev->data.scalar.value;

    /* "\0" escapes in quoted strings would end our C strings early. */
    if (memchr(v, '\0', len))
        return cv_error_at(L->err, pos, "a string may not contain a NUL character (\\0)");
    /* Nor may other controls that escapes ("\x07", "\e") let through
     * libyaml's reader: they would reach terminals, PDF strings and text.
     * Tabs and line feeds are text. */
    for (size_t i = 0; i < len; i++) {
        /* By bytes: C0 controls and DEL are one byte, C1 controls
         * (U+0080-U+009F) are 0xC2 and a byte 0x80-0x9F, which is their
         * code point; no other sequence holds these bytes. */
        unsigned char b = (unsigned char)v[i];
        unsigned cp = b < 0x20 && b != '\t' && b != '\n' ? b
                      : b == 0x7F                       ? b
                      : b == 0xC2 && i + 1 < len && (unsigned char)v[i + 1] >= 0x80 &&
                              (unsigned char)v[i + 1] < 0xA0
                          ? (unsigned char)v[i + 1]
                          : 0;
        if (cp)
            return cv_error_at(L->err, pos, "a string may not contain the control character "
                               "U+%04X (written as an escape?)", cp);
    }

    cv_yml *n = new_node(L, CV_YML_SCALAR, pos);
    n->str = cv_arena_strndup(L->strings, v, len);
    n->len = len;
    n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
               !(ev->data.scalar.tag &&
                 strcmp((const char *)ev->data.scalar.tag, YAML_STR_TAG) == 0);
    if (ev->data.scalar.anchor)
        define(L, ev->data.scalar.anchor, n, false);
    return add(L, n, (cost){1, 0, 0}, pos);
}

static bool on_start(loader *L, const yaml_event_t *ev, cv_yml_kind kind)
{
    cv_pos pos = mark_pos(L, ev->start_mark);
    if (expecting_key(L))
        return cv_error_at(L->err, pos, "a mapping key must be a string, not %s",
                           cv_yml_kind_name(kind));
    if (L->depth >= CV_YML_MAX_DEPTH)
        return cv_error_at(L->err, pos, "lists and mappings nest deeper than %d levels",
                           CV_YML_MAX_DEPTH);
    const yaml_char_t *name = kind == CV_YML_MAP ? ev->data.mapping_start.anchor
                                                 : ev->data.sequence_start.anchor;
    frame *f = &L->stack[L->depth++];
    memset(f, 0, sizeof *f);
    f->node = new_node(L, kind, pos);
    f->c = (cost){1, 0, 1};
    if (name)
        f->anc = define(L, name, f->node, true);
    return true;
}

/* Apply `<<` merge keys: each mapping named by a '<<' value lends the keys
 * this mapping lacks, at the place of the '<<' key; earlier sources win. */
typedef struct pairs {
    cv_yml **keys, **items;
    size_t n, cap;
} pairs;

static void pair(cv_arena *a, pairs *p, cv_yml *k, cv_yml *v)
{
    if (p->n == p->cap) {
        size_t nc = p->cap ? p->cap * 2 : 8;
        p->keys = cv_arena_realloc(a, p->keys, p->cap * sizeof *p->keys, nc * sizeof *p->keys);
        p->items = cv_arena_realloc(a, p->items, p->cap * sizeof *p->items,
                                    nc * sizeof *p->items);
        p->cap = nc;
    }
    p->keys[p->n] = k;
    p->items[p->n++] = v;
}

static bool merge(loader *L, cv_yml *m)
{
    pairs out = {0};
    for (size_t i = 0; i < m->n; i++) {
        cv_yml *k = m->keys[i], *v = m->items[i];
        if (!(k->plain && strcmp(k->str, "<<") == 0)) {
            pair(L->a, &out, k, v);
            continue;
        }

        /* The '<<' value: one mapping or a list of mappings. */
        size_t nsrc = v->kind == CV_YML_SEQ ? v->n : 1;
        for (size_t s = 0; s < nsrc; s++) {
            cv_yml *src = v->kind == CV_YML_SEQ ? v->items[s] : v;
            if (src->kind != CV_YML_MAP)
                return cv_error_at(L->err, src->pos, "'<<' merges mappings; this is %s",
                                   cv_yml_kind_name(src->kind));
            for (size_t j = 0; j < src->n; j++) {
                cv_yml *sk = src->keys[j];
                if (find(&L->keys, m, sk->str, sk->len))
                    continue;
                put(L->a, &L->keys, m, sk->str, sk->len, sk);
                pair(L->a, &out, sk, src->items[j]);
            }
        }
    }
    m->keys = out.keys;
    m->items = out.items;
    m->n = out.n;
    return true;
}

static bool on_end(loader *L, const yaml_event_t *ev)
{
    frame f = L->stack[--L->depth];
    if (f.merge && !merge(L, f.node))
        return false;
    if (f.anc) {
        f.anc->c = f.c;
        f.anc->open = false;
    }
    return add(L, f.node, f.c, mark_pos(L, ev->start_mark));
}

static bool on_alias(loader *L, const yaml_event_t *ev)
{
    cv_pos pos = mark_pos(L, ev->start_mark);
    const char *name = (const char *)ev->data.alias.anchor;
    slot *sl = find(&L->anchors, NULL, name, strlen(name));
    if (!sl)
        return cv_error_at(L->err, pos, "alias '*%s' names no anchor ('&%s' must come first)",
                           name, name);
    anchor *an = sl->val;
    if (an->open)
        return cv_error_at(L->err, pos, "alias '*%s' refers to a list or mapping that contains it",
                           name);

    /* Count what the alias costs once expanded. */
    L->aliases += 1 + an->c.aliases;
    L->expanded += an->c.nodes;
    if (L->aliases > CV_YML_MAX_ALIASES)
        return cv_error_at(L->err, pos,
                           "too many alias references (more than %d, counting aliases "
                           "inside aliased nodes)", CV_YML_MAX_ALIASES);
    if (L->expanded > MAX_EXPANDED)
        return cv_error_at(L->err, pos, "aliases expand to more than %d nodes", MAX_EXPANDED);
    if (L->depth + an->c.height > CV_YML_MAX_DEPTH)
        return cv_error_at(L->err, pos,
                           "alias '*%s' makes lists and mappings nest deeper than %d levels",
                           name, CV_YML_MAX_DEPTH);
    if (an->node->kind != CV_YML_SCALAR && expecting_key(L))
        return cv_error_at(L->err, pos, "a mapping key must be a string, not %s",
                           cv_yml_kind_name(an->node->kind));
    cost c = an->c;
    c.aliases += 1;
    return add(L, an->node, c, pos);
}

/* Turn libyaml's error into `problem (context) hint` at the right place. */
static void syntax_error(loader *L, const yaml_parser_t *p)
{
    switch (p->error) {
    case YAML_MEMORY_ERROR:
        cv_error_at(L->err, (cv_pos){L->file, 0, 0}, "out of memory while reading YAML");
        return;
    case YAML_READER_ERROR: {
        /* A bad trailing byte is reported at itself; point at the start
         * of the character it breaks. */
        size_t off = p->problem_offset;
        if (strstr(p->problem, "trailing")) {
            const unsigned char *b = (const unsigned char *)L->buf;
            size_t j = off;
            while (j > 0 && off - j < 3 && off <= L->len && cv_utf8_is_cont(b[j - 1]))
                j--;
            if (j > 0 && cv_utf8_is_lead(b[j - 1]))
                off = j - 1;
        }
        cv_pos pos = offset_pos(L, off);
        if (strstr(p->problem, "UTF-8"))
            cv_error_at(L->err, pos, "invalid UTF-8 (%s); save the file as UTF-8", p->problem);
        else if (strstr(p->problem, "invalid Unicode character") && p->problem_value >= 0)
            /* A surrogate or a code point past U+10FFFF, encoded as UTF-8. */
            cv_error_at(L->err, pos, "invalid UTF-8 (it encodes U+%04X, which is not a "
                        "character); save the file as UTF-8", (unsigned)p->problem_value);
        else if (p->problem_value >= 0)
            cv_error_at(L->err, pos, "%s (U+%04X)", p->problem, (unsigned)p->problem_value);
        else
            cv_error_at(L->err, pos, "%s", p->problem);
        return;
    }
    default:
        break;
    }

    cv_pos pos = mark_pos(L, p->problem_mark);
    const char *problem = p->problem ? p->problem : "invalid YAML";
    char ctx[160] = "";
    if (p->context && !strstr(p->context, "scanning for the next token")) {
        cv_pos at = mark_pos(L, p->context_mark);
        snprintf(ctx, sizeof ctx, " (%s at line %d, column %d)", p->context, at.line, at.col);
    }

    /* A hint for the mistakes people make most. */
    const char *hint = "";
    char c = byte_at(L, p->problem_mark);
    if (strstr(problem, "cannot start any token")) {
        if (c == '\t')
            hint = "; indent with spaces, not tabs";
        else if (c == '@' || c == '`')
            hint = "; quote a value that starts with '@' or '`'";
    } else if (strstr(problem, "mapping values are not allowed")) {
        hint = "; quote a value that contains ': ', or check the indentation";
    } else if (strstr(problem, "did not find expected key") ||
               strstr(problem, "did not find expected '-'")) {
        hint = "; check the indentation";
    } else if (p->context && strstr(p->context, "quoted scalar")) {
        /* libyaml's other problems inside quotes are its escapes: a
         * Windows path in double quotes ("C:\path"), a \ud800. */
        if (strstr(problem, "unknown escape") || strstr(problem, "hexdecimal"))
            hint = "; in double quotes a backslash starts an escape: write \\\\ for a "
                   "backslash, or use single quotes";
        else if (strstr(problem, "Unicode character escape"))
            hint = "; a \\u or \\U escape must name a character (not a surrogate half "
                   "such as \\ud800)";
        else
            hint = "; a quoted string is not closed";
    }
    cv_error_at(L->err, pos, "%s%s%s", problem, ctx, hint);
}

/* NUL bytes and UTF-16/32 byte order marks, before libyaml sees them. */
static bool precheck(loader *L)
{
    const unsigned char *b = (const unsigned char *)L->buf;
    if (L->len >= 4 && ((!b[0] && !b[1] && b[2] == 0xFE && b[3] == 0xFF) ||
                        (b[0] == 0xFF && b[1] == 0xFE && !b[2] && !b[3])))
        return cv_error_at(L->err, (cv_pos){L->file, 1, 1},
                           "the file is UTF-32 encoded; save it as UTF-8");
    if (L->len >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF)))
        return cv_error_at(L->err, (cv_pos){L->file, 1, 1},
                           "the file is UTF-16 encoded; save it as UTF-8");
    /* UTF-16 without a byte order mark: a 0 byte after (or before) each
     * of the first two characters. */
    if (L->len >= 4 && ((b[0] && !b[1] && b[2] && !b[3]) || (!b[0] && b[1] && !b[2] && b[3])))
        return cv_error_at(L->err, (cv_pos){L->file, 1, 1},
                           "the file looks UTF-16 encoded (every other byte is 0); "
                           "save it as UTF-8");
    const char *nul = memchr(L->buf, '\0', L->len);
    if (nul)
        return cv_error_at(L->err, offset_pos(L, (size_t)(nul - L->buf)),
                           "the file contains a NUL byte (is it a text file?)");
    return true;
}

cv_yml *cv_yml_load(cv_arena *a, const char *file, const char *buf, size_t len,
                    cv_error *err)
{
    return cv_yml_load_in(a, a, file, buf, len, err);
}

/* ---- Values that start with `*` ---------------------------------------- */

/* RenderCV 2.7 and later read `*` as text, never as an alias
 * (`headline: *Researcher*`, `- *not_an_alias`).  cvpdf keeps an alias
 * whose anchor the file defines before it (`&base` ... `*base`) and quotes
 * every other value that starts with `*`, on its line, before libyaml
 * reads the file, in block and in flow collections (also one that runs
 * over several lines).  Block scalars (`|`, `>`) are left as they are.
 * Returns the text to parse (buf itself when nothing changes). */
static bool anchor_char(char c)
{
    return c && !strchr(" \t\r\n,[]{}", c);
}

/* Is the anchor n..e one the file has defined so far? */
static bool known_anchor(const char *const *anchors, size_t nanch, const char *n, const char *e)
{
    for (size_t i = 0; i < nanch; i++)
        if (strlen(anchors[i]) == (size_t)(e - n) && !memcmp(anchors[i], n, (size_t)(e - n)))
            return true;
    return false;
}

/* A flow collection's line from v (its `[` or `{`, or the first item of a
 * line inside it) to eol, into out: each item that starts with `*` and is
 * not an alias of a known anchor (`[*a]` with no `&a` before it, `[*bold*
 * text, x]`) quoted up to the next `,`, `]`, `}` or comment, as the block
 * case is; anchors inside it are remembered.  *depth is the flow nesting
 * at the line's start and at its end.  Returns whether anything was
 * quoted. */
static bool flow_stars(cv_arena *a, cv_strbuf *out, const char *v, const char *eol,
                       const char ***anchors, size_t *nanch, size_t *cap, int *depth)
{
    bool changed = false, item = true;
    const char *p = v;
    while (p < eol) {
        char ch = *p;
        if (ch == '"' || ch == '\'') {
            const char *q = p + 1;
            while (q < eol && *q != ch)
                q += *q == '\\' && ch == '"' && q + 1 < eol ? 2 : 1;
            q = q < eol ? q + 1 : eol;
            cv_strbuf_put(a, out, p, (size_t)(q - p));
            p = q;
            item = false;
            continue;
        }
        if (ch == '#' && p > v && (p[-1] == ' ' || p[-1] == '\t'))
            break;
        if (ch == '[' || ch == '{' || ch == ',' ||
            (ch == ':' && (p + 1 == eol || p[1] == ' '))) {
            *depth += ch == '[' || ch == '{';
            cv_strbuf_put(a, out, p, 1);
            p++;
            item = true;
            continue;
        }
        if (ch == ']' || ch == '}')
            *depth -= *depth > 0;
        if (ch == ' ' || ch == '\t' || ch == ']' || ch == '}' || ch == '\r') {
            cv_strbuf_put(a, out, p, 1);
            p++;
            continue;
        }
        if (item && ch == '&') {
            const char *n = p + 1, *e = n;
            while (e < eol && anchor_char(*e))
                e++;
            CV_PUSH(a, *anchors, *nanch, *cap, cv_arena_strndup(a, n, (size_t)(e - n)));
            cv_strbuf_put(a, out, p, (size_t)(e - p));
            p = e;
            continue;
        }
        if (item && ch == '*') {
            const char *n = p + 1, *e = n;
            while (e < eol && anchor_char(*e))
                e++;
            const char *r = e;
            while (r < eol && (*r == ' ' || *r == '\t'))
                r++;
            bool ends = r == eol || strchr(",]}\r", *r) || (*r == '#' && r > e);
            if (e > n && ends && known_anchor(*anchors, *nanch, n, e)) {
                cv_strbuf_put(a, out, p, (size_t)(e - p));
                p = e;
                item = false;
                continue;
            }
            /* A plain scalar in a flow collection ends at , ] } or a comment. */
            const char *s = p;
            while (s < eol && !strchr(",]}\r", *s) && !(*s == '#' && (s[-1] == ' ' || s[-1] == '\t')))
                s++;
            while (s > p && (s[-1] == ' ' || s[-1] == '\t'))
                s--;
            cv_strbuf_put(a, out, "\"", 1);
            for (const char *q = p; q < s; q++) {
                if (*q == '"' || *q == '\\')
                    cv_strbuf_put(a, out, "\\", 1);
                cv_strbuf_put(a, out, q, 1);
            }
            cv_strbuf_put(a, out, "\"", 1);
            p = s;
            item = false;
            changed = true;
            continue;
        }
        cv_strbuf_put(a, out, p, 1);
        p++;
        item = false;
    }
    cv_strbuf_put(a, out, p, (size_t)(eol - p));
    return changed;
}

/* The line from `line` to `eol` (and its newline, before `end`) into out,
 * with flow_stars() applied from `from`, where a flow collection's items
 * are: true when that changed it. */
static bool flow_line(cv_arena *a, cv_strbuf *out, const char *line, const char *from,
                      const char *eol, const char *end, const char ***anchors, size_t *nanch,
                      size_t *cap, int *depth)
{
    cv_strbuf items = {0};
    if (!flow_stars(a, &items, from, eol, anchors, nanch, cap, depth)) {
        cv_strbuf_put(a, out, line, (size_t)(eol - line) + (eol < end));
        return false;
    }
    cv_strbuf_put(a, out, line, (size_t)(from - line));
    cv_strbuf_put(a, out, items.s, items.n);
    cv_strbuf_put(a, out, eol, eol < end);
    return true;
}

/* Just after the quoted scalar that opens at q (its closing quote), or
 * end when it never closes: '' is a quote inside '...', \ escapes inside
 * "...". */
static const char *quoted_end(const char *q, const char *end)
{
    for (const char *p = q + 1; p < end; p++) {
        if (*q == '"' && *p == '\\' && p + 1 < end)
            p++;
        else if (*p == *q && *q == '\'' && p + 1 < end && p[1] == '\'')
            p++;
        else if (*p == *q)
            return p + 1;
    }
    return end;
}

static const char *star_values(cv_arena *a, const char *buf, size_t *len)
{
    if (!memchr(buf, '*', *len))
        return buf;
    cv_strbuf out = {0};
    const char **anchors = NULL;
    size_t nanch = 0, cap = 0;
    bool changed = false;
    long block = -1;                    /* the indent a block scalar's lines exceed */
    long plain = -1;                    /* the indent a plain value's next lines exceed */
    int flow = 0;                       /* flow collections open at a line's start */
    const char *end = buf + *len;
    for (const char *line = buf; line < end;) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol)
            eol = end;
        const char *p = line;
        while (p < eol && *p == ' ')
            p++;
        long indent = p - line;
        bool blank = p == eol || *p == '\r' || *p == '#';
        if (block >= 0 && (blank || indent > block)) {
            cv_strbuf_put(a, &out, line, (size_t)(eol - line) + (eol < end));
            line = eol + 1;
            continue;
        }
        block = -1;
        /* A line that goes on with the plain value of the line before
         * (more indented than its key or dash; empty lines between are
         * part of it, a comment ends it) is that value's text. */
        if (plain >= 0 && !blank && indent > plain) {
            cv_strbuf_put(a, &out, line, (size_t)(eol - line) + (eol < end));
            line = eol + 1;
            continue;
        }
        if (!(p == eol || *p == '\r'))
            plain = -1;
        if (flow > 0 && !blank) {
            /* A line inside a flow collection: its items. */
            changed |= flow_line(a, &out, line, p, eol, end, &anchors, &nanch, &cap, &flow);
            line = eol + 1;
            continue;
        }
        const char *v = p;      /* where a value may start */
        long owner = indent;    /* the indent of the key or dash owning it */
        for (;;) {
            if (v >= eol)
                break;
            if (*v == '-' && (v + 1 == eol || v[1] == ' ')) {
                owner = v - line;
                v++;
                while (v < eol && *v == ' ')
                    v++;
                continue;
            }
            /* key: value (a key without quotes or in them) */
            const char *k = v;
            if (*k == '"' || *k == '\'') {
                const char *q = k + 1;
                while (q < eol && *q != *k)
                    q += *q == '\\' && *k == '"' && q + 1 < eol ? 2 : 1;
                k = q < eol ? q + 1 : eol;
            }
            const char *c = k;
            while (c < eol && !(*c == ':' && (c + 1 == eol || c[1] == ' ' || c[1] == '\r')) &&
                   *v != '*' && *v != '&' && *v != '[' && *v != '{' && *v != '"' && *v != '\'')
                c++;
            if (c < eol && *c == ':' && c > v && *v != '*') {
                owner = v - line;
                v = c + 1;
                while (v < eol && *v == ' ')
                    v++;
                continue;
            }
            break;
        }
        /* An anchor: remember its name (then the value after it). */
        while (v < eol && *v == '&') {
            const char *n = v + 1, *e = n;
            while (e < eol && anchor_char(*e))
                e++;
            CV_PUSH(a, anchors, nanch, cap, cv_arena_strndup(a, n, (size_t)(e - n)));
            v = e;
            while (v < eol && *v == ' ')
                v++;
        }
        if (v < eol && (*v == '|' || *v == '>'))
            block = owner;
        if (v < eol && (*v == '[' || *v == '{')) {
            changed |= flow_line(a, &out, line, v, eol, end, &anchors, &nanch, &cap, &flow);
            line = eol + 1;
            continue;
        }
        /* A quoted value that goes on over lines: those lines are its text. */
        if (v < eol && (*v == '"' || *v == '\'')) {
            const char *qe = quoted_end(v, end);
            if (qe > eol) {
                const char *ne = memchr(qe - 1, '\n', (size_t)(end - (qe - 1)));
                ne = ne ? ne : end;
                cv_strbuf_put(a, &out, line, (size_t)(ne - line) + (ne < end));
                line = ne + 1;
                continue;
            }
        }
        /* A plain value may go on over the lines after it. */
        if (v < eol && !strchr("|>[{'\"*&!#%@`\r", *v))
            plain = owner;
        bool quote = false;
        if (v < eol && *v == '*') {
            const char *n = v + 1, *e = n;
            while (e < eol && anchor_char(*e))
                e++;
            const char *r = e;
            while (r < eol && (*r == ' ' || *r == '\r'))
                r++;
            bool known = known_anchor(anchors, nanch, n, e);
            quote = !(known && e > n && (r == eol || (*r == '#' && r[-1] == ' ')));
        }
        if (!quote) {
            cv_strbuf_put(a, &out, line, (size_t)(eol - line) + (eol < end));
            line = eol + 1;
            continue;
        }
        /* The plain scalar runs to a comment or the line's end. */
        const char *e = v;
        while (e < eol && !(*e == '#' && e[-1] == ' ') && *e != '\r')
            e++;
        while (e > v && e[-1] == ' ')
            e--;
        cv_strbuf_put(a, &out, line, (size_t)(v - line));
        cv_strbuf_put(a, &out, "\"", 1);
        for (const char *q = v; q < e; q++) {
            if (*q == '"' || *q == '\\')
                cv_strbuf_put(a, &out, "\\", 1);
            cv_strbuf_put(a, &out, q, 1);
        }
        /* A plain scalar goes on over lines indented more than its owner
         * (and not a comment): they stay inside the quotes, where YAML
         * folds the line breaks into spaces, so no line moves. */
        while (eol < end && !(e < eol && *e == '#')) {
            const char *nl = eol + 1, *ne = memchr(nl, '\n', (size_t)(end - nl));
            if (!ne)
                ne = end;
            const char *q = nl;
            while (q < ne && *q == ' ')
                q++;
            if (q == ne || *q == '\r' || *q == '#' || q - nl <= owner)
                break;
            const char *qe = q;
            while (qe < ne && !(*qe == '#' && qe[-1] == ' ') && *qe != '\r')
                qe++;
            while (qe > q && qe[-1] == ' ')
                qe--;
            cv_strbuf_put(a, &out, e, (size_t)(eol - e) + 1);   /* the line's end */
            cv_strbuf_put(a, &out, nl, (size_t)(q - nl));
            for (const char *c = q; c < qe; c++) {
                if (*c == '"' || *c == '\\')
                    cv_strbuf_put(a, &out, "\\", 1);
                cv_strbuf_put(a, &out, c, 1);
            }
            e = qe;
            eol = ne;
        }
        cv_strbuf_put(a, &out, "\"", 1);
        cv_strbuf_put(a, &out, e, (size_t)(eol - e) + (eol < end));
        changed = true;
        line = eol + 1;
    }
    if (!changed)
        return buf;
    *len = out.n;
    return out.s;
}

static cv_yml *load_text(cv_arena *a, cv_arena *strings, const char *file, const char *buf,
                         size_t len, int mode, cv_error *err);

enum { STRICT, PROFILE, JSON };

cv_yml *cv_yml_load_in(cv_arena *a, cv_arena *strings, const char *file, const char *buf,
                       size_t len, cv_error *err)
{
    return load_text(a, strings, file, buf, len, STRICT, err);
}

cv_yml *cv_yml_load_json(cv_arena *a, cv_arena *strings, const char *file, const char *buf,
                         size_t len, cv_error *err)
{
    return load_text(a, strings, file, buf, len, JSON, err);
}

cv_yml *cv_yml_load_profile(cv_arena *a, cv_arena *strings, const char *file, const char *buf,
                            size_t len, cv_error *err)
{
    return load_text(a, strings, file, buf, len, PROFILE, err);
}

static cv_yml *load_text(cv_arena *a, cv_arena *strings, const char *file, const char *buf,
                         size_t len, int mode, cv_error *err)
{
    loader *L = cv_arena_alloc(a, sizeof *L);
    L->a = a;
    L->strings = strings;
    L->err = err;
    L->file = file ? file : "<input>";
    if (mode == PROFILE && len <= MAX_FILE_SIZE)
        buf = star_values(a, buf, &len);
    L->json = mode == JSON;
    L->buf = buf;
    L->len = len;
    if (len > MAX_FILE_SIZE) {
        cv_error_at(err, (cv_pos){L->file, 0, 0}, "'%s' is larger than %s, the limit for an input file",
                    L->file, MAX_FILE_SIZE_NAME);
        return NULL;
    }
    if (!precheck(L))
        return NULL;

    yaml_parser_t parser;
    yaml_event_t ev;
    if (!yaml_parser_initialize(&parser)) {
        cv_error_at(err, (cv_pos){L->file, 0, 0}, "cannot initialise the YAML parser");
        return NULL;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);

    /* One event at a time; every path out of the loop deletes the event. */
    bool ok = true, done = false;
    int ndocs = 0;
    while (ok && !done) {
        if (!yaml_parser_parse(&parser, &ev)) {
            syntax_error(L, &parser);
            ok = false;
            break;
        }
        switch (ev.type) {
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (++ndocs > 1)
                ok = cv_error_at(err, mark_pos(L, ev.start_mark),
                                 "a second YAML document ('---' starts one); "
                                 "a file holds one document");
            break;
        case YAML_SCALAR_EVENT:
            ok = on_scalar(L, &ev);
            break;
        case YAML_SEQUENCE_START_EVENT:
            ok = on_start(L, &ev, CV_YML_SEQ);
            break;
        case YAML_MAPPING_START_EVENT:
            ok = on_start(L, &ev, CV_YML_MAP);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            ok = on_end(L, &ev);
            break;
        case YAML_ALIAS_EVENT:
            ok = on_alias(L, &ev);
            break;
        default:
            break;
        }
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    if (!ok)
        return NULL;

    /* A file of nothing but comments, or a lone `---` or `~`. */
    if (!L->root || cv_yml_is_null(L->root)) {
        cv_error_at(err, (cv_pos){L->file, 1, 1}, "the file is empty (it holds no YAML data)");
        return NULL;
    }
    return L->root;
}

static char *read_input(cv_arena *a, const char *path, bool regular, size_t *len,
                        cv_error *err)
{
    cv_pos pos = {path, 0, 0};      /* the caller's: it outlives `a` */
    cv_file f;
    if (!cv_file_read(a, path, MAX_FILE_SIZE, regular, &f)) {
        switch (f.status) {
        case CV_FILE_NOT_REGULAR:
            cv_error_at(err, pos, "'%s' is not a regular file (a FIFO, socket or device); "
                        "it is not read", path);
            break;
        case CV_FILE_DIR:
            cv_error_at(err, pos, "cannot read '%s': %s", path, strerror(EISDIR));
            break;
        case CV_FILE_OPEN:
            cv_error_at(err, pos, "cannot open '%s': %s", path, strerror(f.err));
            break;
        case CV_FILE_TOO_BIG:
            cv_error_at(err, pos, "'%s' is larger than %s, the limit for an input file", path,
                        MAX_FILE_SIZE_NAME);
            break;
        default:
            cv_error_at(err, pos, "cannot read '%s': %s", path, strerror(f.err ? f.err : EIO));
            break;
        }
        return NULL;
    }
    if (len)
        *len = f.len;
    return f.data;
}

char *cv_yml_read_file(cv_arena *a, const char *path, size_t *len, cv_error *err)
{
    return read_input(a, path, false, len, err);
}

char *cv_yml_read_regular(cv_arena *a, const char *path, size_t *len, cv_error *err)
{
    return read_input(a, path, true, len, err);
}

/* ---- Lookups and typed getters ---------------------------------------- */

cv_yml *cv_yml_get(const cv_yml *map, const char *key)
{
    if (!map || map->kind != CV_YML_MAP)
        return NULL;
    for (size_t i = 0; i < map->n; i++)
        if (strcmp(map->keys[i]->str, key) == 0)
            return map->items[i];
    return NULL;
}

bool cv_yml_is_null(const cv_yml *node)
{
    if (!node || node->kind != CV_YML_SCALAR || !node->plain)
        return false;
    const char *s = node->str;
    return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
           !strcmp(s, "NULL");
}

const char *cv_yml_kind_name(cv_yml_kind kind)
{
    switch (kind) {
    case CV_YML_SCALAR:
        return "a string";
    case CV_YML_SEQ:
        return "a list";
    case CV_YML_MAP:
        return "a mapping";
    }
    return "a node";
}

/* "expected X, got a list" for a node of the wrong kind or a null. */
static bool wrong(const cv_yml *node, const char *want, cv_error *err)
{
    if (!node)
        return cv_error_at(err, (cv_pos){0}, "expected %s, got nothing", want);
    if (node->kind != CV_YML_SCALAR)
        return cv_error_at(err, node->pos, "expected %s, got %s", want,
                           cv_yml_kind_name(node->kind));
    if (!*node->str)
        return cv_error_at(err, node->pos, "expected %s, got an empty value", want);
    return cv_error_at(err, node->pos, "expected %s, got '%s'", want, node->str);
}

/* Any scalar is a string (`2020` is "2020"); a null (`~`, `null`, nothing)
 * is the empty string, so callers can test cv_yml_is_null() themselves. */
bool cv_yml_str(const cv_yml *node, const char **out, cv_error *err)
{
    if (!node || node->kind != CV_YML_SCALAR)
        return wrong(node, "a string", err);
    *out = cv_yml_is_null(node) ? "" : node->str;
    return true;
}

bool cv_yml_num(const cv_yml *node, double *out, cv_error *err)
{
    if (!node || node->kind != CV_YML_SCALAR)
        return wrong(node, "a number", err);

    /* [+-] digits [. digits] [e [+-] digits]: no hex, inf or nan. */
    const char *s = node->str, *p = s;
    if (*p == '+' || *p == '-')
        p++;
    int digits = 0;
    while (isdigit((unsigned char)*p))
        p++, digits++;
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p))
            p++, digits++;
    }
    if (digits && (*p == 'e' || *p == 'E')) {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!isdigit((unsigned char)*p))
            return wrong(node, "a number", err);
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (!digits || *p)
        return wrong(node, "a number", err);
    double v = strtod(s, NULL);
    if (!isfinite(v))
        return cv_error_at(err, node->pos, "number '%s' is out of range", s);
    *out = v;
    return true;
}

bool cv_yml_bool(const cv_yml *node, bool *out, cv_error *err)
{
    static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
    static const char *const no[] = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
    if (!node || node->kind != CV_YML_SCALAR)
        return wrong(node, "true or false", err);
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        if (!strcmp(node->str, yes[i])) {
            *out = true;
            return true;
        }
        if (!strcmp(node->str, no[i])) {
            *out = false;
            return true;
        }
    }
    return wrong(node, "true or false", err);
}

bool cv_yml_color(const cv_yml *node, unsigned *out, cv_error *err)
{
    if (!node || node->kind != CV_YML_SCALAR)
        return wrong(node, "a colour (#rrggbb, #rgb or rgb(r, g, b))", err);
    const char *s = node->str;
    size_t n = strlen(s);
    /* `color: #f00` is an empty value and a comment. */
    if (!n)
        return cv_error_at(err, node->pos, "the colour is empty: put it in quotes (\"#1f3a5f\"), "
                           "as an unquoted # starts a YAML comment");

    /* RenderCV's colours: CSS names, hex, rgb(), hsl() (color.h). */
    if (cv_color_parse(s, out))
        return true;
    return cv_error_at(err, node->pos,
                       "invalid colour '%s': use a CSS colour name (navy), #rrggbb, #rgb, "
                       "rgb(r, g, b) with 0-255 or hsl(h, s%%, l%%)", s);
}

/* ---- Key checks and suggestions --------------------------------------- */

/* Optimal string alignment distance (Damerau-Levenshtein where a
 * transposed pair is one edit), ASCII case-insensitive. */
static size_t osa(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 64 || m > 64)
        return (size_t)-1;
    size_t d[65][65];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++) {
        for (size_t j = 1; j <= m; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            size_t sub = ca != cb;
            size_t v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + sub < v)
                v = d[i - 1][j - 1] + sub;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    }
    return d[n][m];
}

const char *cv_suggest(const char *word, const char *const *candidates)
{
    if (!word || !*word || !candidates)
        return NULL;
    size_t limit = strlen(word) / 3;
    if (limit < 1)
        limit = 1;
    const char *best = NULL;
    size_t bestd = (size_t)-1;
    for (size_t i = 0; candidates[i]; i++) {
        size_t d = osa(word, candidates[i]);
        if (d <= limit && d < bestd) {
            best = candidates[i];
            bestd = d;
        }
    }
    return best;
}

bool cv_yml_check_keys(const cv_yml *map, const char *const *allowed, const char *what,
                       cv_error *err)
{
    if (!map || map->kind != CV_YML_MAP)
        return true;
    for (size_t i = 0; i < map->n; i++) {
        const cv_yml *k = map->keys[i];
        bool known = false;
        for (size_t j = 0; allowed[j] && !known; j++)
            known = strcmp(k->str, allowed[j]) == 0;
        if (known)
            continue;
        const char *s = cv_suggest(k->str, allowed);
        if (s)
            return cv_error_at(err, k->pos, "unknown key '%s' in %s (did you mean '%s'?)",
                               k->str, what, s);

        /* No close match: list what is allowed, as far as it fits. */
        char list[700] = "";
        size_t used = 0;
        for (size_t j = 0; allowed[j]; j++) {
            int w = snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "", allowed[j]);
            if (w < 0 || (size_t)w >= sizeof list - used) {
                snprintf(list + used, sizeof list - used, ", ...");
                break;
            }
            used += (size_t)w;
        }
        return cv_error_at(err, k->pos, "unknown key '%s' in %s (expected one of: %s)", k->str,
                           what, list);
    }
    return true;
}

/* ---- Defaults ----------------------------------------------------------- */

typedef struct keyidx {
    const char *key;
    size_t i;
} keyidx;

static int cmp_keyidx(const void *x, const void *y)
{
    return strcmp(((const keyidx *)x)->key, ((const keyidx *)y)->key);
}

/* The keys of `map` with their positions, sorted: lookups in O(log n). */
static keyidx *sorted_keys(cv_arena *a, const cv_yml *map)
{
    keyidx *k = cv_arena_alloc(a, (map->n + 1) * sizeof *k);
    for (size_t i = 0; i < map->n; i++)
        k[i] = (keyidx){map->keys[i]->str, i};
    qsort(k, map->n, sizeof *k, cmp_keyidx);
    return k;
}

static const keyidx *find_key(const keyidx *sorted, size_t n, const char *key)
{
    keyidx probe = {key, 0};
    return bsearch(&probe, sorted, n, sizeof *sorted, cmp_keyidx);
}

const cv_yml *cv_yml_merge(cv_arena *a, const cv_yml *under, const cv_yml *over)
{
    /* A null keeps what is under it (`settings:` left empty keeps the
     * defaults'), but not one from --set, at the option (line 0): there
     * `--set cv.email=` means what `email:` in the file means. */
    if (!over || (under && cv_yml_is_null(over) && over->pos.line > 0))
        return under ? under : over;
    if (!under || under->kind != CV_YML_MAP || over->kind != CV_YML_MAP)
        return over;
    cv_yml *m = cv_arena_alloc(a, sizeof *m);
    *m = *over;
    m->n = 0;
    m->keys = cv_arena_alloc(a, (over->n + under->n + 1) * sizeof *m->keys);
    m->items = cv_arena_alloc(a, (over->n + under->n + 1) * sizeof *m->items);
    /* Keys are unique in a mapping (the loader checks that). */
    keyidx *uk = sorted_keys(a, under), *ok = sorted_keys(a, over);
    for (size_t i = 0; i < over->n; i++) {
        const keyidx *hit = find_key(uk, under->n, over->keys[i]->str);
        m->keys[m->n] = over->keys[i];
        m->items[m->n++] = (cv_yml *)cv_yml_merge(a, hit ? under->items[hit->i] : NULL,
                                                  over->items[i]);
    }
    for (size_t i = 0; i < under->n; i++)
        if (!find_key(ok, over->n, under->keys[i]->str)) {
            m->keys[m->n] = under->keys[i];
            m->items[m->n++] = under->items[i];
        }
    return m;
}

bool cv_parse_length(const char *s, float *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || v < 0)
        return false;
    while (*end == ' ')
        end++;
    double f = 1;
    if (!*end || !strcmp(end, "pt"))
        f = 1;
    else if (!strcmp(end, "mm"))
        f = 72 / 25.4;
    else if (!strcmp(end, "cm"))
        f = 72 / 2.54;
    else if (!strcmp(end, "in"))
        f = 72;
    else
        return false;
    v *= f;
    if (v > 14400)          /* PDF's page limit: 200 inches */
        return false;
    *out = (float)v;
    return true;
}

void cv_yml_put_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20 || *p == 0x7F)
            fprintf(out, "\\x%02X", *p);
        else if (p[0] == 0xC2 && p[1] == 0x85)              /* NEL */
            fputs("\\N", out), p++;
        else if (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9))
            fputs(p[2] == 0xA8 ? "\\L" : "\\P", out), p += 2;   /* U+2028, U+2029 */
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* ---- Building trees ---------------------------------------------------- */

cv_yml *cv_yml_scalar(cv_arena *a, const char *s, cv_pos pos, bool plain)
{
    cv_yml *n = cv_arena_alloc(a, sizeof *n);
    *n = (cv_yml){.kind = CV_YML_SCALAR, .pos = pos, .str = s, .len = strlen(s), .plain = plain};
    return n;
}

cv_yml *cv_yml_map(cv_arena *a, cv_pos pos)
{
    cv_yml *m = cv_arena_alloc(a, sizeof *m);
    *m = (cv_yml){.kind = CV_YML_MAP, .pos = pos};
    return m;
}

void cv_yml_map_add(cv_arena *a, cv_yml *m, const char *key, cv_pos kpos, cv_yml *v)
{
    cv_yml **keys = cv_arena_alloc(a, sizeof *keys * (m->n + 1));
    cv_yml **items = cv_arena_alloc(a, sizeof *items * (m->n + 1));
    if (m->n) {
        memcpy(keys, m->keys, sizeof *keys * m->n);
        memcpy(items, m->items, sizeof *items * m->n);
    }
    keys[m->n] = cv_yml_scalar(a, key, kpos, true);
    items[m->n] = v;
    m->keys = keys;
    m->items = items;
    m->n++;
}

/* A shallow copy of a mapping, so that adding to it leaves the tree it
 * came from as it was. */
static cv_yml *map_copy(cv_arena *a, const cv_yml *m)
{
    cv_yml *n = cv_yml_map(a, m->pos);
    for (size_t i = 0; i < m->n; i++)
        cv_yml_map_add(a, n, m->keys[i]->str, m->keys[i]->pos, m->items[i]);
    return n;
}

void cv_yml_put(cv_arena *a, cv_yml *root, const char *path, cv_pos kpos, cv_yml *v)
{
    cv_yml *m = root;
    for (;;) {
        const char *dot = strchr(path, '.');
        char *key = cv_arena_strndup(a, path, dot ? (size_t)(dot - path) : strlen(path));
        size_t i = 0;
        while (i < m->n && strcmp(m->keys[i]->str, key))
            i++;
        if (!dot) {
            if (i < m->n)
                m->items[i] = v;
            else
                cv_yml_map_add(a, m, key, kpos, v);
            return;
        }
        if (i == m->n || m->items[i]->kind != CV_YML_MAP) {
            cv_yml *sub = cv_yml_map(a, kpos);
            if (i < m->n)
                m->items[i] = sub;
            else
                cv_yml_map_add(a, m, key, kpos, sub);
            m = sub;
        } else {
            m = m->items[i] = map_copy(a, m->items[i]);
        }
        path = dot + 1;
    }
}

