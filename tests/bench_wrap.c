/* bench_wrap.c - shaping and line-breaking throughput on a long publication
 * list (run by `make bench` after the per-résumé benchmark).
 *
 *   build/bench_wrap [ENTRIES [REPS [LAYOUT]]]     (from the project root)
 *
 * Loads the layout (default layouts/onecolumn.yaml) and its fonts the way
 * cvpdf does, then generates ENTRIES publications (default 2000) from a
 * fixed seed: titles, long author lists with some Chinese names, venues
 * with DOIs, as the markup the layout's publication template expands to
 * ("**TITLE**", "AUTHORS" with the résumé owner in bold, "*JOURNAL* · DOI").
 * Each of those is one paragraph, set at the publication column's width.
 *
 * Passes over every paragraph, each repeated REPS times (median):
 *   shape         cv_measure (itemise + HarfBuzz, one line)
 *   shape+break   cv_wrap with the layout's text settings (hyphenation,
 *                 optimal or greedy breaking), ragged as entry headers are
 *                 set and justified as body text is; then justified with
 *                 greedy (first-fit) breaking, for comparison
 * The breaking share is the difference from shape.  Timing is reported,
 * never asserted.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "error.h"
#include "fontset.h"
#include "markup.h"
#include "style.h"
#include "ctx.h"
#include "wrap.h"

enum { MAX_REPS = 101 };

/* splitmix64: small, deterministic, the same on every machine. */
static uint64_t rng_state = 0x5EEDC0DEULL;
static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static unsigned pick(unsigned n) { return (unsigned)(rng() % n); }
#define PICK(arr) (arr[pick(sizeof arr / sizeof arr[0])])

static const char *const given[] = {
    "Jiaao", "Jidong", "Shengqi", "Jiarui", "Chaoyang", "Wei", "Yuxuan", "Haojie",
    "Xingcheng", "Mingshu", "Zixuan", "Qinghua", "Tianyu", "Ruoyu", "Xuehai", "Dahua",
    "Salman", "Mahdi", "Murali", "Tong", "Maria", "Anna", "James", "Olivier", "Sofía",
    "Björn", "Katarzyna", "Ramachandran", "Élodie", "Hiroshi", "Seung-won", "Aleksandr"};
static const char *const family[] = {
    "He", "Zhai", "Chen", "Fang", "Zhang", "Wang", "Li", "Liu", "Qian", "Lin", "Zheng",
    "Avestimehr", "Soltanolkotabi", "Annavaram", "García", "Müller", "Nakamura",
    "Kowalczyk", "Venkataraman", "Dubois", "Nguyen", "Johansson", "Park", "Smirnov",
    "Papadopoulos", "O'Connor", "Hernández-López"};
static const char *const han_family[] = {
    "王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱",
    "胡", "郭", "何", "林", "高", "罗", "郑", "梁", "谢", "宋", "唐", "韩", "方", "翟"};
static const char *const han_given[] = {
    "伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "涛",
    "明", "超", "秀", "平", "刚", "佳", "瑞", "嘉", "翔", "宇", "浩", "晨", "博", "季",
    "东", "澳", "清", "华"};
static const char *const words[] = {
    "Efficient", "Scalable", "Training", "Mixture-of-Experts", "Sparsely-Activated",
    "Heterogeneous", "Parallelization", "Communication", "Recommendation", "Models",
    "Transformers", "Federated", "Learning", "Graph", "Neural", "Networks", "via", "for",
    "with", "on", "and", "of", "the", "at", "Large-Scale", "Distributed", "Inference",
    "Memory", "Compression", "Quantization", "Accelerators", "GPU", "Clusters", "Adaptive",
    "Pipeline", "Systems", "Kernels", "Sparse", "Tensor", "Algebra", "Compilers",
    "Scheduling", "Optimization", "Towards", "Understanding", "Benchmarking",
    "Characterizing", "Supercomputers", "Exascale", "Hyperparameter", "Offline", "Online",
    "Internationalization", "Electroencephalography", "Fault-Tolerant", "Checkpointing",
    "Load-Balancing", "Asynchronous", "Stochastic", "Gradient", "Descent", "Edge", "Cloud",
    "Privacy-Preserving", "Zero-Knowledge", "Proofs", "Blockchains", "Trillion-Parameter",
    "Language", "Vision", "Multimodal", "Long-Context", "Attention", "Mechanisms"};
static const char *const prefixes[] = {
    "POSTER: ", "FastMoE: ", "SmartMoE: ", "FedML: ", "BaGuaLu: ", "PatrickStar: ",
    "TurboTransformers: ", "FasterMoE: ", "Elixir: ", "DSP: ", "xDiT: ", "PipeFusion: "};
static const char *const venues[] = {
    "PPoPP", "ASPLOS", "SC", "ICML", "NeurIPS", "ICLR", "MLSys", "OSDI", "ATC", "EuroSys",
    "CVPR", "AAAI",
    "Proceedings of the 29th ACM SIGPLAN Annual Symposium on Principles and Practice of "
    "Parallel Programming",
    "IEEE Transactions on Parallel and Distributed Systems",
    "MLSys – Fifth Conference on Machine Learning and Systems",
    "NeurIPS SpicyFL Workshop", "中国科学：信息科学"};

static const char *const owner = "Jiaao He";

/* A co-author: mostly Latin names, some in Chinese characters, some both. */
static const char *author(cv_arena *a)
{
    unsigned k = pick(20);
    if (k < 3)
        return cv_arena_printf(a, "%s%s%s", PICK(han_family), PICK(han_given),
                               pick(2) ? PICK(han_given) : "");
    if (k < 5)
        return cv_arena_printf(a, "%s %s (%s%s%s)", PICK(given), PICK(family),
                               PICK(han_family), PICK(han_given), PICK(han_given));
    return cv_arena_printf(a, "%s %s", PICK(given), PICK(family));
}

/* The three paragraphs of one publication entry, as markup. */
static void publication(cv_arena *a, const char **title, const char **authors,
                        const char **venue)
{
    cv_strbuf b = {0};
    cv_strbuf_put(a, &b, "**", 2);
    if (pick(3) == 0) {
        const char *p = PICK(prefixes);
        cv_strbuf_put(a, &b, p, strlen(p));
    }
    for (unsigned i = 0, n = 6 + pick(17); i < n; i++) {
        const char *w = PICK(words);
        bool ital = pick(25) == 0;
        if (i)
            cv_strbuf_put(a, &b, " ", 1);
        if (ital)
            cv_strbuf_put(a, &b, "*", 1);
        cv_strbuf_put(a, &b, w, strlen(w));
        if (ital)
            cv_strbuf_put(a, &b, "*", 1);
    }
    cv_strbuf_put(a, &b, "**", 2);
    *title = b.s;

    /* Mostly a handful of authors, a quarter 20 to 60; the owner once. */
    cv_strbuf c = {0};
    unsigned n = pick(4) == 0 ? 20 + pick(41) : 2 + pick(9), me = pick(n);
    for (unsigned i = 0; i < n; i++) {
        const char *au = i == me ? cv_arena_printf(a, "**%s**", owner) : author(a);
        if (i)
            cv_strbuf_put(a, &c, ", ", 2);
        cv_strbuf_put(a, &c, au, strlen(au));
    }
    *authors = c.s;

    const char *v = PICK(venues);
    unsigned year = 2000 + pick(25);
    const char *doi = cv_arena_printf(a, "10.%u/%u.%u", 1000 + pick(9000),
                                      3000000 + pick(999999), pick(99999));
    *venue = cv_arena_printf(a, "*%s %u* · [doi:%s](https://doi.org/%s)", v, year, doi, doi);
}

typedef struct para {
    cv_span *sp;
    size_t nsp;
} para;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *x, const void *y)
{
    double p = *(const double *)x, q = *(const double *)y;
    return (p > q) - (p < q);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct pass_result {
    double ms;           /* median wall time of one pass over every paragraph */
    size_t lines;
} pass_result;

/* measure: cv_measure only; else cv_wrap at `width`. */
static pass_result run_pass(const cv_ctx *st, const para *ps, size_t np,
                            const cv_textfmt *fmt, float width, bool measure, int reps)
{
    double t[MAX_REPS];
    pass_result r = {0};
    volatile float sink = 0;
    for (int rep = -1; rep < reps; rep++) {      /* rep -1 warms the caches */
        cv_arena *a = cv_arena_new();
        cv_error err;
        cv_error_init(&err);
        err.quiet = true;
        size_t lines = 0;
        double t0 = now();
        for (size_t i = 0; i < np; i++) {
            if (measure) {
                sink += cv_measure(a, st, ps[i].sp, ps[i].nsp, fmt);
                continue;
            }
            cv_line *ls;
            lines += cv_wrap(a, st, ps[i].sp, ps[i].nsp, fmt, width,
                             (cv_pos){"bench", (int)i + 1, 1}, &ls, &err);
        }
        double t1 = now();
        cv_arena_free(a);
        if (err.set) {
            cv_error_print(&err);
            exit(1);
        }
        if (rep >= 0)
            t[rep] = (t1 - t0) * 1000;
        r.lines = lines;
    }
    (void)sink;
    r.ms = median(t, reps);
    return r;
}

static size_t count_cps(const para *p)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nsp; i++)
        for (size_t k = 0; k < p->sp[i].len; k++)
            n += ((unsigned char)p->sp[i].text[k] & 0xC0) != 0x80;
    return n;
}

int main(int argc, char **argv)
{
    long nent = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    const char *layout = argc > 3 ? argv[3] : "layouts/onecolumn.yaml";
    if (nent < 1 || reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "usage: bench_wrap [ENTRIES [REPS (1-%d) [LAYOUT]]]\n", MAX_REPS);
        return 2;
    }

    /* Fonts and layout as cvpdf opens them (run from the project root). */
    cv_arena *keep = cv_arena_new();
    cv_error err;
    cv_error_init(&err);
    const char *dirs[] = {"fonts", NULL};
    cv_engine *eng = cv_engine_new(dirs, &err);
    cv_style st;
    if (!eng || !cv_style_load(keep, layout, eng, &st, &err)) {
        cv_error_print(&err);
        cv_engine_free(eng);
        cv_arena_free(keep);
        return 1;
    }
    cv_ctx cx;
    cv_ctx_init(&cx, eng, &st, NULL, false);

    /* The publication column, as compose.c sizes it: the page's measure
     * less the date column ("2024" in the side style) and the gap. */
    float width = st.page_w - st.margin_left - st.margin_right;
    cv_textfmt sf = {.size = st.side_size, .color = st.side_color,
                     .link_color = st.link_color};
    cv_span *dsp;
    size_t nd = cv_markup_parse(keep, "2024", 0, &dsp);
    float side_w = cv_measure(keep, &cx, dsp, nd, &sf);
    if (side_w > width * 0.4f)
        side_w = width * 0.4f;
    float main_w = width - side_w - st.side_gap;
    /* The body text format of compose.c, ragged as entry headers are. */
    cv_textfmt hf = {.size = st.size, .color = st.text_color, .link_color = st.link_color,
                     .hyphenate = st.hyphenate, .greedy = st.greedy};

    size_t np = (size_t)nent * 3, ncp = 0;
    para *ps = cv_arena_alloc(keep, np * sizeof *ps);
    for (size_t i = 0; i < (size_t)nent; i++) {
        const char *m[3];
        publication(keep, &m[0], &m[1], &m[2]);
        for (int k = 0; k < 3; k++) {
            para *p = &ps[i * 3 + k];
            p->nsp = cv_markup_parse(keep, m[k], 0, &p->sp);
            ncp += count_cps(p);
        }
    }

    /* Warnings (a word wider than the measure, a missing glyph) are counted
     * once, outside the timing. */
    cv_arena *a = cv_arena_new();
    cv_error_init(&err);
    err.quiet = true;
    for (size_t i = 0; i < np; i++) {
        cv_line *ls;
        cv_wrap(a, &cx, ps[i].sp, ps[i].nsp, &hf, main_w, (cv_pos){"bench", 1, 1}, &ls, &err);
    }
    cv_arena_free(a);

    enum { NPASS = 4 };
    static const char *const name[NPASS] = {"shape (cv_measure)", "shape+break ragged",
                                            "shape+break justified", "  greedy, justified"};
    cv_textfmt fmts[NPASS] = {hf, hf, hf, hf};
    fmts[2].justify = fmts[3].justify = true;
    fmts[3].greedy = true;
    pass_result r[NPASS];
    for (int m = 0; m < NPASS; m++)
        r[m] = run_pass(&cx, ps, np, &fmts[m], main_w, m == 0, reps);

    printf("wrap bench: %ld publications = %zu paragraphs, %zu code points, %.1f pt column,\n"
           "  %s (%s breaking, hyphenation %s), median of %d%s\n",
           nent, np, ncp, main_w, layout, st.greedy ? "greedy" : "optimal",
           st.hyphenate ? "on" : "off", reps,
           err.nwarnings ? cv_arena_printf(keep, ", %d warnings", err.nwarnings) : "");
    printf("%-24s %9s %10s %10s %10s %9s\n", "pass", "median ms", "paras/s", "kcp/s",
           "lines/s", "lines");
    for (int m = 0; m < NPASS; m++) {
        double s = r[m].ms / 1000;
        if (m == 0)
            printf("%-24s %9.1f %10.0f %10.0f %10s %9s\n", name[m], r[m].ms, np / s,
                   ncp / s / 1000, "-", "-");
        else
            printf("%-24s %9.1f %10.0f %10.0f %10.0f %9zu\n", name[m], r[m].ms, np / s,
                   ncp / s / 1000, r[m].lines / s, r[m].lines);
    }
    for (int m = 1; m < NPASS; m++) {
        double d = r[m].ms - r[0].ms;
        printf("breaking share, %-9s %8.1f ms = %2.0f%% of shape+break, %.2f µs a line\n",
               m == 1 ? "ragged" : m == 2 ? "justified" : "greedy", d,
               r[m].ms > 0 ? 100 * d / r[m].ms : 0, r[m].lines ? d * 1000 / r[m].lines : 0);
    }
    cv_engine_free(eng);
    cv_arena_free(keep);
    return 0;
}
