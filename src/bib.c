/* bib.c - publications from a BibTeX file.  See bib.h.
 *
 * Three steps.  Reading: libbtparse parses the file one entry at a time
 * (bt_parse_entry() on the bytes in memory), so that a syntax error costs
 * that entry alone; it expands @string macros (and the month macros,
 * defined here as BibTeX defines them), pastes `#` concatenations and
 * collapses white space.  libbtparse 0.89 prints its messages on stderr
 * and has no public handler to change that, so while it parses, stderr is
 * a temporary file; each message is then said again through the sink, at
 * the .bib's line (and, where the message names the token at fault, its
 * column).  Every entry is copied out of libbtparse's tree into the arena
 * and the tree freed; `crossref` is resolved here, on the copies.
 *
 * libbtparse 0.89 has three faults that a .bib must not reach, each worked
 * around before it parses: it writes the text it found into its messages'
 * printf format ('%' never reaches it: without_percent()), it loses a byte
 * for each use of an undefined macro (they are defined empty beforehand:
 * predefine()), and it reads past its arrays on names with empty comma
 * parts (tidy_name()).  tests/unit/test_bib.c keeps the inputs that showed
 * them.
 *
 * Converting: each field's TeX becomes text and markup (cv_bib_tex), names
 * are split by libbtparse's BibTeX rules (bt_split_name) and joined again
 * in the order asked, the venue is put together from the field the entry's
 * type uses with volume, number and pages.
 *
 * Choosing: the section's options filter, sort (stable: ties keep the
 * file's order), put the selected entries first, limit and group.
 */
#include "bib.h"

#include <btparse.h>
#include <ctype.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "markup.h"
#include "module.h"
#include "stop.h"
#include "unicode.h"

/* libbtparse is opened with dlopen when a .bib file is first read, not
 * linked: linked, it costs every run 0.2 M instructions of dynamic
 * loading, and most résumés have no .bib file. */
#ifndef CV_BTPARSE_SONAME
#define CV_BTPARSE_SONAME "libbtparse.so.2"
#endif
#define BT_FUNCTIONS(X) \
    X(bt_initialize) X(bt_cleanup) X(bt_add_macro_text) X(bt_parse_entry) X(bt_free_ast) \
    X(bt_entry_metatype) X(bt_entry_key) X(bt_entry_type) X(bt_next_field) X(bt_get_text) \
    X(bt_split_list) X(bt_free_list) X(bt_split_name) X(bt_free_name)
CV_LIB_DEFINE(bt_lib, B, BT_FUNCTIONS, CV_BTPARSE_SONAME, "libbtparse2");

typedef cv_strbuf buf;

static void put(cv_arena *a, buf *b, const char *s)
{
    cv_strbuf_put(a, b, s, strlen(s));
}

static const char *done(cv_arena *a, buf *b)
{
    return b->s ? b->s : cv_arena_strdup(a, "");
}

/* ---- TeX to text ------------------------------------------------------- */

/* Accents: for each accent command, pairs of an ASCII letter and the
 * letter with the accent (UTF-8).  Others get the combining mark. */
static const struct {
    char cmd;
    const char *combining;
    const char *pairs;
} accents[] = {
    {'`', "\u0300", "AÀaàEÈeèIÌiìNǸnǹOÒoòUÙuùWẀwẁYỲyỳ"},
    {'\'', "\u0301", "AÁaáCĆcćEÉeéGǴgǵIÍiíKḰkḱLĹlĺNŃnńOÓoóRŔrŕSŚsśUÚuúWẂwẃYÝyýZŹzźMḾmḿPṔpṕ"},
    {'^', "\u0302", "AÂaâCĈcĉEÊeêGĜgĝHĤhĥIÎiîJĴjĵOÔoôSŜsŝUÛuûWŴwŵYŶyŷZẐzẑ"},
    {'~', "\u0303", "AÃaãEẼeẽIĨiĩNÑnñOÕoõUŨuũYỸyỹVṼvṽ"},
    {'"', "\u0308", "AÄaäEËeëHḦhḧIÏiïOÖoötẗUÜuüWẄwẅYŸyÿXẌxẍ"},
    {'=', "\u0304", "AĀaāEĒeēGḠgḡIĪiīOŌoōUŪuūYȲyȳ"},
    {'.', "\u0307", "AȦaȧCĊcċDḊdḋEĖeėGĠgġHḢhḣIİNṄnṅOȮoȯRṘrṙSṠsṡTṪtṫWẆwẇYẎyẏZŻzżBḂbḃFḞfḟMṀmṁPṖpṗXẊxẋ"},
    {'u', "\u0306", "AĂaăEĔeĕGĞgğIĬiĭOŎoŏUŬuŭ"},
    {'v', "\u030C", "AǍaǎCČcčDĎdďEĚeěGǦgǧHȞhȟIǏiǐjǰKǨkǩLĽlľNŇnňOǑoǒRŘrřSŠsšTŤtťUǓuǔZŽzž"},
    {'H', "\u030B", "OŐoőUŰuű"},
    {'c', "\u0327", "CÇcçDḐdḑEȨeȩGĢgģHḨhḩKĶkķLĻlļNŅnņRŖrŗSŞsşTŢtţ"},
    {'k', "\u0328", "AĄaąEĘeęIĮiįOǪoǫUŲuų"},
    {'r', "\u030A", "AÅaåUŮuůwẘyẙ"},
    {'d', "\u0323", "AẠaạDḌdḍEẸeẹHḤhḥIỊiịKḲkḳLḶlḷNṆnṇOỌoọRṚrṛSṢsṣTṬtṭUỤuụWẈwẉYỴyỵZẒzẓBḄbḅMṂmṃVṾvṿ"},
    {'b', "\u0331", "DḎdḏhẖKḴkḵLḺlḻNṈnṉRṞrṟTṮtṯZẔzẕBḆbḇ"},
};

/* Control words that stand for a character or a word. */
static const struct {
    const char *name, *text;
} symbols[] = {
    {"ss", "ß"}, {"SS", "SS"}, {"o", "ø"}, {"O", "Ø"}, {"ae", "æ"}, {"AE", "Æ"},
    {"oe", "œ"}, {"OE", "Œ"}, {"aa", "å"}, {"AA", "Å"}, {"l", "ł"}, {"L", "Ł"},
    {"i", "ı"}, {"j", "ȷ"}, {"dh", "ð"}, {"DH", "Ð"}, {"th", "þ"}, {"TH", "Þ"},
    {"ng", "ŋ"}, {"NG", "Ŋ"}, {"dj", "đ"}, {"DJ", "Đ"},
    {"dag", "†"}, {"ddag", "‡"}, {"textdagger", "†"}, {"textdaggerdbl", "‡"},
    {"S", "§"}, {"P", "¶"}, {"copyright", "©"}, {"textcopyright", "©"},
    {"textregistered", "®"}, {"texttrademark", "™"}, {"pounds", "£"},
    {"textsterling", "£"}, {"euro", "€"}, {"texteuro", "€"}, {"ldots", "…"},
    {"dots", "…"}, {"textellipsis", "…"}, {"textendash", "–"}, {"textemdash", "—"},
    {"textquoteleft", "‘"}, {"textquoteright", "’"}, {"textquotedblleft", "“"},
    {"textquotedblright", "”"}, {"guillemotleft", "«"}, {"guillemotright", "»"},
    {"textbackslash", "\\"}, {"textasciitilde", "~"}, {"textasciicircum", "^"},
    {"textunderscore", "_"}, {"textbar", "|"}, {"textless", "<"}, {"textgreater", ">"},
    {"textdegree", "°"}, {"textbullet", "•"}, {"textperiodcentered", "·"},
    {"LaTeX", "LaTeX"}, {"TeX", "TeX"}, {"BibTeX", "BibTeX"}, {"LaTeXe", "LaTeX2ε"},
    {"textemdash", "—"}, {"slash", "/"}, {"textsection", "§"}, {"quad", " "},
    {"qquad", " "}, {"space", " "}, {"newline", " "}, {"linebreak", " "}, {"par", " "},
    /* math */
    {"alpha", "α"}, {"beta", "β"}, {"gamma", "γ"}, {"delta", "δ"}, {"epsilon", "ϵ"},
    {"varepsilon", "ε"}, {"zeta", "ζ"}, {"eta", "η"}, {"theta", "θ"}, {"vartheta", "ϑ"},
    {"iota", "ι"}, {"kappa", "κ"}, {"lambda", "λ"}, {"mu", "μ"}, {"nu", "ν"}, {"xi", "ξ"},
    {"pi", "π"}, {"varpi", "ϖ"}, {"rho", "ρ"}, {"sigma", "σ"}, {"tau", "τ"},
    {"upsilon", "υ"}, {"phi", "ϕ"}, {"varphi", "φ"}, {"chi", "χ"}, {"psi", "ψ"},
    {"omega", "ω"}, {"Gamma", "Γ"}, {"Delta", "Δ"}, {"Theta", "Θ"}, {"Lambda", "Λ"},
    {"Xi", "Ξ"}, {"Pi", "Π"}, {"Sigma", "Σ"}, {"Upsilon", "Υ"}, {"Phi", "Φ"},
    {"Psi", "Ψ"}, {"Omega", "Ω"}, {"times", "×"}, {"cdot", "·"}, {"pm", "±"},
    {"mp", "∓"}, {"leq", "≤"}, {"le", "≤"}, {"geq", "≥"}, {"ge", "≥"}, {"neq", "≠"},
    {"ne", "≠"}, {"approx", "≈"}, {"sim", "∼"}, {"simeq", "≃"}, {"equiv", "≡"},
    {"infty", "∞"}, {"to", "→"}, {"rightarrow", "→"}, {"leftarrow", "←"},
    {"Rightarrow", "⇒"}, {"leftrightarrow", "↔"}, {"mapsto", "↦"}, {"in", "∈"},
    {"notin", "∉"}, {"subset", "⊂"}, {"subseteq", "⊆"}, {"cup", "∪"}, {"cap", "∩"},
    {"forall", "∀"}, {"exists", "∃"}, {"partial", "∂"}, {"nabla", "∇"}, {"sum", "∑"},
    {"prod", "∏"}, {"int", "∫"}, {"log", "log"}, {"ln", "ln"}, {"exp", "exp"},
    {"sin", "sin"}, {"cos", "cos"}, {"max", "max"}, {"min", "min"}, {"ell", "ℓ"},
    {"star", "⋆"}, {"ast", "∗"}, {"circ", "∘"}, {"bullet", "•"}, {"emptyset", "∅"},
    {"varnothing", "∅"}, {"sqrt", "√"}, {"prime", "′"}, {"lvert", "|"}, {"rvert", "|"},
    {"vert", "|"}, {"mid", "|"}, {"langle", "⟨"}, {"rangle", "⟩"}, {"lbrace", "{"},
    {"rbrace", "}"}, {"{", "{"}, {"}", "}"}, {"%", "%"}, {"&", "&"}, {"$", "$"},
    {"#", "#"}, {"_", "_"}, {"ldotp", "."}, {"cdots", "⋯"}, {"propto", "∝"},
    {"ll", "≪"}, {"gg", "≫"}, {"oplus", "⊕"}, {"otimes", "⊗"}, {"neg", "¬"},
    {"land", "∧"}, {"lor", "∨"}, {"wedge", "∧"}, {"vee", "∨"}, {"top", "⊤"},
    {"bot", "⊥"}, {"hbar", "ℏ"}, {"Re", "ℜ"}, {"Im", "ℑ"}, {"aleph", "ℵ"},
};

/* Commands whose argument is shown as it is, in a style of its own. */
enum { KEEP, BOLD, ITALIC, DROP, URL, HREF };
static const struct {
    const char *name;
    int what;
} wrappers[] = {
    {"textbf", BOLD}, {"mathbf", BOLD}, {"bm", BOLD}, {"boldsymbol", BOLD},
    {"emph", ITALIC}, {"textit", ITALIC}, {"textsl", ITALIC}, {"mathit", ITALIC},
    {"texttt", KEEP}, {"textsc", KEEP}, {"textrm", KEEP}, {"textsf", KEEP},
    {"textup", KEEP}, {"textmd", KEEP}, {"textnormal", KEEP}, {"mbox", KEEP},
    {"hbox", KEEP}, {"text", KEEP}, {"mathrm", KEEP}, {"mathsf", KEEP},
    {"mathtt", KEEP}, {"mathcal", KEEP}, {"mathbb", KEEP}, {"mathnormal", KEEP},
    {"operatorname", KEEP}, {"ensuremath", KEEP}, {"MakeUppercase", KEEP},
    {"MakeLowercase", KEEP}, {"uppercase", KEEP}, {"lowercase", KEEP},
    {"NoCaseChange", KEEP}, {"nocase", KEEP}, {"textsuperscript", KEEP},
    {"textsubscript", KEEP}, {"enquote", KEEP}, {"foreignlanguage", KEEP},
    {"noop", DROP}, {"cite", DROP}, {"citep", DROP}, {"citet", DROP}, {"ref", DROP},
    {"label", DROP}, {"footnote", DROP}, {"thanks", DROP}, {"index", DROP},
    {"url", URL}, {"href", HREF},
};

/* Declarations that switch the rest of their group. */
static const struct {
    const char *name;
    int what;
} switches[] = {
    {"bf", BOLD}, {"bfseries", BOLD}, {"it", ITALIC}, {"em", ITALIC}, {"sl", ITALIC},
    {"itshape", ITALIC}, {"slshape", ITALIC}, {"rm", KEEP}, {"tt", KEEP}, {"sc", KEEP},
    {"sf", KEEP}, {"scshape", KEEP}, {"upshape", KEEP}, {"normalfont", KEEP},
    {"mdseries", KEEP}, {"small", KEEP}, {"footnotesize", KEEP}, {"large", KEEP},
    {"Large", KEEP}, {"tiny", KEEP}, {"normalsize", KEEP}, {"relax", KEEP},
    {"protect", KEEP}, {"displaystyle", KEEP}, {"left", KEEP}, {"right", KEEP},
    {"big", KEEP}, {"Big", KEEP}, {"limits", KEEP}, {"nolinkurl", KEEP},
};

/* Superscript and subscript digits and signs (a UTF-8 char each). */
static const char *const sup[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
static const char *const sub[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};

typedef struct tex {
    cv_arena *a;
    bool markup;             /* emit cvpdf markup, escaped; else plain text */
    buf unknown;             /* "\foo, \bar" */
    int depth;
    int nest;                /* conv() calls open now: the C stack's depth */
} tex;

#define MAX_TEX_DEPTH 32
/* Deeper than this (50,000 nested \textbf{ in a title), the rest of the
 * text is taken as it is, its commands and braces dropped, in a loop:
 * the stack never grows with the input. */
#define MAX_TEX_NEST 64

static void conv(tex *t, buf *o, const char *p, const char *end, bool math);

/* Literal text: in markup, the characters markup gives a meaning escaped. */
static void lit(tex *t, buf *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (t->markup && (s[i] == '\\' || s[i] == '*' || s[i] == '[' || s[i] == ']'))
            cv_strbuf_put(t->a, o, "\\", 1);
        cv_strbuf_put(t->a, o, s + i, 1);
    }
}

static void unknown(tex *t, const char *name, size_t n)
{
    char pat[72];
    snprintf(pat, sizeof pat, "\\%.*s", (int)(n < 60 ? n : 60), name);
    if (t->unknown.s && strstr(t->unknown.s, pat))
        return;
    if (t->unknown.n)
        put(t->a, &t->unknown, ", ");
    put(t->a, &t->unknown, pat);
}

/* The end of the group that starts at p ('{'), or `end` when unclosed. */
static const char *group_end(const char *p, const char *end)
{
    int level = 0;
    for (; p < end; p++) {
        if (*p == '\\' && p + 1 < end) {
            p++;
            continue;
        }
        if (*p == '{')
            level++;
        else if (*p == '}' && --level == 0)
            return p;
    }
    return end;
}

/* The argument at *pp: a group's inside, a control word, or one (UTF-8)
 * character.  Leading spaces are skipped. */
static void argument(const char **pp, const char *end, const char **as, const char **ae)
{
    const char *p = *pp;
    while (p < end && *p == ' ')
        p++;
    if (p >= end) {
        *as = *ae = *pp = p;
        return;
    }
    if (*p == '{') {
        const char *q = group_end(p, end);
        *as = p + 1, *ae = q;
        *pp = q < end ? q + 1 : q;
        return;
    }
    const char *q = p + 1;
    if (*p == '\\') {
        while (q < end && isalpha((unsigned char)*q))
            q++;
        if (q == p + 1 && q < end)
            q += cv_utf8_next(q, (size_t)(end - q), 0);
    } else {
        q = p + cv_utf8_next(p, (size_t)(end - p), 0);
    }
    *as = p, *ae = q;
    *pp = q;
}

/* The argument converted on its own, as plain text. */
static const char *plain_arg(tex *t, const char *as, const char *ae, bool math)
{
    tex inner = *t;
    inner.markup = false;
    inner.depth++;
    buf b = {0};
    conv(&inner, &b, as, ae, math);
    t->unknown = inner.unknown;
    return done(t->a, &b);
}

/* An accent on its argument: the composed letter, or the letter and the
 * combining mark. */
static void accent(tex *t, buf *o, char cmd, const char *as, const char *ae, bool math)
{
    const char *base = plain_arg(t, as, ae, math);
    while (*base == ' ')
        base++;
    if (!strncmp(base, "ı", 2))       /* \'{\i}: the accent replaces the dot */
        base = cv_arena_printf(t->a, "i%s", base + 2);
    else if (!strncmp(base, "ȷ", 2))
        base = cv_arena_printf(t->a, "j%s", base + 2);
    for (size_t k = 0; k < sizeof accents / sizeof *accents; k++) {
        if (accents[k].cmd != cmd)
            continue;
        if (!*base)
            return;
        for (const char *q = accents[k].pairs; *q;) {
            const char *r = q + 1;
            size_t n = cv_utf8_next(r, strnlen(r, CV_UTF8_MAX), 0);
            if (*q == *base) {
                cv_strbuf_put(t->a, o, r, n);
                lit(t, o, base + 1, strlen(base + 1));
                return;
            }
            q = r + n;
        }
        /* No composed form: the letter, then the combining mark. */
        size_t n = cv_utf8_next(base, strnlen(base, CV_UTF8_MAX), 0);
        lit(t, o, base, n);
        put(t->a, o, accents[k].combining);
        lit(t, o, base + n, strlen(base + n));
        return;
    }
}

static void styled(tex *t, buf *o, int what, const char *as, const char *ae, bool math)
{
    if (what == DROP)
        return;
    if (!t->markup || what == KEEP || t->depth >= MAX_TEX_DEPTH) {
        t->depth++;
        conv(t, o, as, ae, math);
        t->depth--;
        return;
    }
    buf in = {0};
    t->depth++;
    conv(t, &in, as, ae, math);
    t->depth--;
    const char *s = done(t->a, &in);
    size_t n = strlen(s), lead = 0;
    while (s[lead] == ' ')
        lead++;
    while (n > lead && s[n - 1] == ' ')
        n--;
    if (n == lead)
        return;
    const char *mark = what == BOLD ? "**" : "*";
    cv_strbuf_put(t->a, o, s, lead);
    put(t->a, o, mark);
    cv_strbuf_put(t->a, o, s + lead, n - lead);
    put(t->a, o, mark);
    put(t->a, o, s + n);
}

/* A link: [text](url) in markup when the URL is http(s), else the text. */
static void put_link(tex *t, buf *o, const char *url, const char *text)
{
    bool web = !strncasecmp(url, "http://", 7) || !strncasecmp(url, "https://", 8);
    if (t->markup && web && !strpbrk(url, " ()") && strlen(url) <= CV_MAX_PDF_STRING) {
        put(t->a, o, "[");
        put(t->a, o, cv_markup_escape(t->a, text));
        put(t->a, o, "](");
        put(t->a, o, url);
        put(t->a, o, ")");
    } else {
        lit(t, o, text, strlen(text));
    }
}

/* A URL as written in a \url{} or a url field: as it is, braces and a
 * backslash before %, #, _, & or ~ removed. */
static const char *raw_url(cv_arena *a, const char *s, const char *e)
{
    buf b = {0};
    for (; s < e; s++) {
        if (*s == '{' || *s == '}')
            continue;
        if (*s == '\\' && s + 1 < e && strchr("%#_&~$", s[1]))
            s++;
        cv_strbuf_put(a, &b, s, 1);
    }
    return done(a, &b);
}

/* Script in math: ^2, ^{10}, _i: digits as super/subscripts, the rest
 * with its ^ or _. */
static void script(tex *t, buf *o, char c, const char **pp, const char *end)
{
    const char *as, *ae;
    argument(pp, end, &as, &ae);
    const char *s = plain_arg(t, as, ae, true);
    bool digits = *s != 0;
    for (const char *q = s; *q; q++)
        digits = digits && isdigit((unsigned char)*q);
    if (digits) {
        for (const char *q = s; *q; q++)
            put(t->a, o, c == '^' ? sup[*q - '0'] : sub[*q - '0']);
        return;
    }
    if (c == '^' && (!strcmp(s, "+") || !strcmp(s, "-") || !strcmp(s, "*") || !strcmp(s, "†"))) {
        put(t->a, o, !strcmp(s, "+") ? "⁺" : !strcmp(s, "-") ? "⁻" : s);
        return;
    }
    if (c == '^' && !strcmp(s, "′")) {
        put(t->a, o, s);
        return;
    }
    lit(t, o, &c, 1);
    lit(t, o, s, strlen(s));
}

/* A control sequence at p ('\\'); returns where the text goes on. */
static const char *command(tex *t, buf *o, const char *p, const char *end, bool math)
{
    p++;
    if (p >= end)
        return p;
    /* A backslash before a character beyond ASCII (a typo for the
     * character, \é): the character, whole. */
    if ((unsigned char)*p >= 0x80) {
        size_t n = cv_utf8_next(p, (size_t)(end - p), 0);
        lit(t, o, p, n);
        return p + n;
    }
    /* Control symbols. */
    if (!isalpha((unsigned char)*p)) {
        char c = *p++;
        if (strchr("`'^~\"=.", c) && !(math && c == '.')) {
            const char *as, *ae;
            argument(&p, end, &as, &ae);
            accent(t, o, c, as, ae, math);
        } else if (strchr("&%$#_{}", c)) {
            lit(t, o, &c, 1);
        } else if (c == '\\' || c == ' ' || c == ',' || c == ';' || c == ':' || c == '>') {
            put(t->a, o, " ");
        } else if (c == '(' || c == ')' || c == '[' || c == ']') {
            ;                     /* \( \) \[ \]: math delimiters */
        } else if (c != '-' && c != '/' && c != '@' && c != '!') {
            unknown(t, &c, 1);
        }
        return p;
    }
    /* Control words, and the spaces after them. */
    const char *name = p;
    while (p < end && isalpha((unsigned char)*p))
        p++;
    size_t n = (size_t)(p - name);
    bool at_space = p < end && *p == ' ';
    while (p < end && *p == ' ')
        p++;
#define IS(s) (n == strlen(s) && !strncmp(name, s, n))
    if (n == 1 && strchr("uvHckrdbt", *name)) {
        const char *as, *ae;
        argument(&p, end, &as, &ae);
        if (*name == 't')         /* tie accent: the letters as they are */
            conv(t, o, as, ae, math);
        else
            accent(t, o, *name, as, ae, math);
        return p;
    }
    for (size_t k = 0; k < sizeof wrappers / sizeof *wrappers; k++)
        if (IS(wrappers[k].name)) {
            const char *as, *ae;
            int what = wrappers[k].what;
            if (what == URL || what == HREF) {
                argument(&p, end, &as, &ae);
                const char *url = raw_url(t->a, as, ae);
                const char *text = url;
                if (what == HREF) {
                    argument(&p, end, &as, &ae);
                    text = plain_arg(t, as, ae, math);
                }
                put_link(t, o, url, text);
                return p;
            }
            if (IS("foreignlanguage"))        /* \foreignlanguage{lang}{text} */
                argument(&p, end, &as, &ae);
            argument(&p, end, &as, &ae);
            styled(t, o, what, as, ae, math || IS("ensuremath"));
            return p;
        }
    for (size_t k = 0; k < sizeof switches / sizeof *switches; k++)
        if (IS(switches[k].name)) {
            styled(t, o, switches[k].what, p, end, math);
            return end;
        }
    if (IS("frac") || IS("tfrac") || IS("dfrac")) {
        const char *as, *ae, *bs, *be;
        argument(&p, end, &as, &ae);
        argument(&p, end, &bs, &be);
        conv(t, o, as, ae, true);
        put(t->a, o, "/");
        conv(t, o, bs, be, true);
        return p;
    }
    for (size_t k = 0; k < sizeof symbols / sizeof *symbols; k++)
        if (IS(symbols[k].name)) {
            lit(t, o, symbols[k].text, strlen(symbols[k].text));
            /* A control word eats the spaces after it ("Stra\ss e"), but
             * a word ("\LaTeX is") or math ("\leq b") keeps one. */
            if (at_space && p < end && n > 1 && isalpha((unsigned char)*name) &&
                (math || isalpha((unsigned char)symbols[k].text[0])) &&
                strcmp(symbols[k].name, "dots") && strcmp(symbols[k].name, "ldots"))
                put(t->a, o, " ");
            return p;
        }
#undef IS
    unknown(t, name, n);
    return p;
}

static void conv_body(tex *t, buf *o, const char *p, const char *end, bool math);

static void conv(tex *t, buf *o, const char *p, const char *end, bool math)
{
    if (t->nest >= MAX_TEX_NEST) {
        for (; p < end; p++) {
            if (*p == '\\') {             /* a command's name dropped, a symbol kept */
                const char *q = p + 1;
                while (q < end && isalpha((unsigned char)*q))
                    q++;
                if (q == p + 1 && q < end)
                    lit(t, o, q++, 1);
                p = q - 1;
            } else if (*p != '{' && *p != '}') {
                lit(t, o, p, 1);
            }
        }
        return;
    }
    t->nest++;
    conv_body(t, o, p, end, math);
    t->nest--;
}

static void conv_body(tex *t, buf *o, const char *p, const char *end, bool math)
{
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c == '\\') {
            p = command(t, o, p, end, math);
        } else if (c == '{') {
            const char *q = group_end(p, end);
            if (t->depth < MAX_TEX_DEPTH) {
                t->depth++;
                conv(t, o, p + 1, q, math);
                t->depth--;
            } else {
                for (const char *r = p + 1; r < q; r++)     /* too deep: braces dropped */
                    if (*r != '{' && *r != '}')
                        lit(t, o, r, 1);
            }
            p = q < end ? q + 1 : q;
        } else if (c == '}') {
            p++;
        } else if (c == '$' && !math) {
            bool display = p + 1 < end && p[1] == '$';
            const char *s = p + (display ? 2 : 1), *q = s;
            while (q < end && *q != '$')
                q += *q == '\\' && q + 1 < end ? 2 : 1;
            if (q > end)
                q = end;
            conv(t, o, s, q, true);
            p = q + (display ? 2 : 1);
            if (p > end)
                p = end;
        } else if (c == '$') {
            p++;
        } else if (math && (c == '^' || c == '_')) {
            p++;
            script(t, o, (char)c, &p, end);
        } else if (c == '-' && !math && p + 1 < end && p[1] == '-') {
            bool em = p + 2 < end && p[2] == '-';
            put(t->a, o, em ? "—" : "–");
            p += em ? 3 : 2;
        } else if (c == '-' && math) {
            put(t->a, o, "−");
            p++;
        } else if (c == '~') {
            put(t->a, o, " ");
            p++;
        } else if (c == '`' && p + 1 < end && p[1] == '`') {
            put(t->a, o, "“");
            p += 2;
        } else if (c == '\'' && p + 1 < end && p[1] == '\'') {
            put(t->a, o, "”");
            p += 2;
        } else if (c == '!' && p + 1 < end && p[1] == '`') {
            put(t->a, o, "¡");
            p += 2;
        } else if (c == '?' && p + 1 < end && p[1] == '`') {
            put(t->a, o, "¿");
            p += 2;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (o->n && o->s[o->n - 1] != ' ')
                put(t->a, o, " ");
            p++;
        } else {
            lit(t, o, p, 1);
            p++;
        }
    }
}

static char *tex_to(cv_arena *a, const char *s, bool markup, const char **unknown_out)
{
    tex t = {a, markup, {0}, 0, 0};
    buf o = {0};
    conv(&t, &o, s, s + strlen(s), false);
    if (unknown_out)
        *unknown_out = t.unknown.s;
    /* Trim. */
    char *r = (char *)done(a, &o);
    while (*r == ' ')
        r++;
    size_t n = strlen(r);
    while (n && r[n - 1] == ' ')
        r[--n] = 0;
    return r;
}

char *cv_bib_tex(cv_arena *a, const char *s, const char **unknown_out)
{
    return tex_to(a, s, true, unknown_out);
}

char *cv_bib_tex_plain(cv_arena *a, const char *s, const char **unknown_out)
{
    return tex_to(a, s, false, unknown_out);
}

/* ---- Reading the file -------------------------------------------------- */

typedef struct field {
    const char *name;        /* lower case */
    const char *value;       /* macros expanded, pasted, white space collapsed */
    cv_pos pos;
} field;

typedef struct rec {
    const char *key, *type;  /* type in lower case */
    cv_pos pos;
    field *f;
    size_t nf;
    size_t order;            /* in the file */
    bool is_parent;          /* another entry's crossref */
} rec;

typedef struct bibfile {
    const char *path;        /* as in messages */
    const char *text;        /* the bytes, for columns */
    size_t len;
    size_t *lines;           /* offset of each line's start; lines[0] is line 1 */
    size_t nlines;
    rec *r;
    size_t nr;
} bibfile;

/* Characters (not bytes) in s[0..n). */
static size_t chars(const char *s, size_t n)
{
    return cv_utf8_count(s, n);
}

static const char *line_at(const bibfile *bf, int line, size_t *n)
{
    if (line < 1 || (size_t)line > bf->nlines) {
        *n = 0;
        return "";
    }
    size_t s = bf->lines[line - 1];
    size_t e = (size_t)line < bf->nlines ? bf->lines[line] : bf->len;
    *n = e - s;
    return bf->text + s;
}

/* The column of `word` (case-insensitive) on `line`, or of the line's first
 * character that is not a space. */
static int column_of(const bibfile *bf, int line, const char *word)
{
    size_t n;
    const char *s = line_at(bf, line, &n);
    size_t wl = word ? strlen(word) : 0;
    if (wl)
        for (size_t i = 0; i + wl <= n; i++)
            if (!strncasecmp(s + i, word, wl))
                return (int)chars(s, i) + 1;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return (int)chars(s, i) + 1;
}

/* The column of field `name` on `line`: the name as a whole word with '='
 * after it ("url =", not the "url" of "\url{"); else as column_of(). */
static int field_column(const bibfile *bf, int line, const char *name)
{
    size_t n, wl = strlen(name);
    const char *s = line_at(bf, line, &n);
    for (size_t i = 0; wl && i + wl <= n; i++) {
        if (strncasecmp(s + i, name, wl) || (i && (isalnum((unsigned char)s[i - 1]) ||
                                                   strchr("\\_-", s[i - 1]))))
            continue;
        size_t j = i + wl;
        while (j < n && (s[j] == ' ' || s[j] == '\t'))
            j++;
        if (j < n && s[j] == '=')
            return (int)chars(s, i) + 1;
    }
    return column_of(bf, line, name);
}

static char *lower(cv_arena *a, const char *s)
{
    char *r = cv_arena_strdup(a, s ? s : "");
    for (char *p = r; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return r;
}

static const char *get(const rec *r, const char *name)
{
    for (size_t i = 0; i < r->nf; i++)
        if (!strcmp(r->f[i].name, name))
            return r->f[i].value;
    return NULL;
}

static const field *get_field(const rec *r, const char *name)
{
    for (size_t i = 0; i < r->nf; i++)
        if (!strcmp(r->f[i].name, name))
            return &r->f[i];
    return NULL;
}

static char *with_percent(cv_arena *a, const char *s);

/* libbtparse's messages about one entry, from the captured stderr: each
 * line is "bib, line N, LEVEL: message".  Toplevel junk (text between
 * entries, which BibTeX ignores) is not worth a word.  Returns the first
 * error's message (for the entry), NULL when there was none. */
static const char *said(cv_arena *a, const bibfile *bf, const char *text, cv_error *err,
                        int *err_line, int *err_col)
{
    const char *first = NULL;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char *ln = cv_arena_strndup(a, p, n);
        p = nl ? nl + 1 : NULL;
        int line = 0;
        char *rest = strstr(ln, ", line ");
        if (!rest)
            continue;
        line = atoi(rest + 7);
        rest = strchr(rest + 7, ',');
        if (!rest)
            continue;
        rest++;
        while (*rest == ' ')
            rest++;
        if (strstr(rest, "junk seen at toplevel"))
            continue;
        rest = with_percent(a, rest);
        bool warning = !strncmp(rest, "warning: ", 9);
        const char *msg = warning ? rest + 9 : rest;
        /* The token the message names ("found "year"") gives the column. */
        const char *tok = NULL;
        const char *q = strstr(msg, "found \"");
        if (q) {
            const char *e = strchr(q + 7, '"');
            if (e && e > q + 7)
                tok = cv_arena_strndup(a, q + 7, (size_t)(e - q - 7));
        }
        if (!tok && (q = strstr(msg, "macro \""))) {
            const char *e = strchr(q + 7, '"');
            if (e && e > q + 7)
                tok = cv_arena_strndup(a, q + 7, (size_t)(e - q - 7));
        }
        cv_pos pos = {bf->path, line, column_of(bf, line, tok)};
        if (warning) {
            cv_warn(err, pos, "%s", msg);
        } else if (!first) {
            first = cv_arena_strdup(a, msg);
            *err_line = line;
            *err_col = pos.col;
        }
    }
    return first;
}

/* One entry out of libbtparse's tree into the arena. */
static void copy_entry(cv_arena *a, bibfile *bf, AST *e, rec *r)
{
    memset(r, 0, sizeof *r);
    r->key = with_percent(a, B.bt_entry_key(e) ? B.bt_entry_key(e) : "");
    r->type = lower(a, B.bt_entry_type(e));
    r->pos = (cv_pos){bf->path, e->line, column_of(bf, e->line, "@")};
    size_t cap = 0;
    char *name;
    for (AST *f = B.bt_next_field(e, NULL, &name); f; f = B.bt_next_field(e, f, &name)) {
        char *v = B.bt_get_text(f);           /* malloc'd by libbtparse */
        field fl = {lower(a, name), with_percent(a, v ? v : ""),
                    {bf->path, f->line, field_column(bf, f->line, name)}};
        free(v);
        CV_PUSH(a, r->f, r->nf, cap, fl);
    }
}

/* BibTeX's month macros. */
static const char *const month_macros[12][2] = {
    {"jan", "January"}, {"feb", "February"}, {"mar", "March"}, {"apr", "April"},
    {"may", "May"}, {"jun", "June"}, {"jul", "July"}, {"aug", "August"},
    {"sep", "September"}, {"oct", "October"}, {"nov", "November"}, {"dec", "December"}};

/* A character of a macro's name (BibTeX's rule, roughly). */
static bool name_char(char c)
{
    return c && !isspace((unsigned char)c) && !strchr("=,#{}()\"%'", c);
}

typedef struct use {
    const char *name;        /* as written */
    const char *lname;       /* lowercased */
    cv_pos pos;
} use;

/* What a .bib may expand to: its entries with every macro replaced, as
 * much text as an input file may hold (16 MB); no one macro more. */
#define BIB_MAX_EXPANSION ((size_t)16 * 1024 * 1024)
#define BIB_MAX_EXPANSION_NAME "16 MB"
/* libbtparse keeps every macro name it is given (each @string, each
 * redefinition) in one string table of about 400,000 bytes, and ends the
 * process (exit(-1)) when it is full: names beyond this are refused here,
 * before it is called. */
#define BIB_MAX_MACRO_NAMES 300000

/* The macros defined so far, by lowercased name: how long each expands. */
typedef struct macro {
    const char *name;        /* lowercased; NULL: an empty slot */
    size_t len;
} macro;

typedef struct macros {
    macro *v;
    size_t cap, n;
} macros;

static size_t hash_of(const char *s)
{
    size_t h = 5381;
    for (; *s; s++)
        h = h * 33 + (unsigned char)tolower((unsigned char)*s);
    return h;
}

static macro *macro_slot(macros *m, const char *lname)
{
    size_t i = hash_of(lname) & (m->cap - 1);
    while (m->v[i].name && strcmp(m->v[i].name, lname))
        i = (i + 1) & (m->cap - 1);
    return &m->v[i];
}

static macro *macro_find(macros *m, const char *lname)
{
    macro *x = macro_slot(m, lname);
    return x->name ? x : NULL;
}

static void macro_set(cv_arena *a, macros *m, const char *lname, size_t len)
{
    if (2 * (m->n + 1) > m->cap) {
        macros g = {cv_arena_alloc(a, 2 * m->cap * sizeof *g.v), 2 * m->cap, 0};
        memset(g.v, 0, g.cap * sizeof *g.v);
        for (size_t i = 0; i < m->cap; i++)
            if (m->v[i].name)
                *macro_slot(&g, m->v[i].name) = m->v[i], g.n++;
        *m = g;
    }
    macro *x = macro_slot(m, lname);
    if (!x->name)
        m->n++;
    *x = (macro){lname, len};
}

static size_t sat_add(size_t x, size_t y)
{
    return x > SIZE_MAX / 4 - y ? SIZE_MAX / 4 : x + y;
}

/* libbtparse 0.89 loses a byte for every use of a macro no @string
 * defines (a journal abbreviation from IEEEabrv.bib, say), so before it
 * parses, each name used as a macro in an entry and defined by no @string
 * (nor a month) is defined here as empty, and said to be undefined here.
 * The scan follows entries as libbtparse does: `@type{...}` or
 * `@type(...)`, values in braces or quotes, names after `=` and `#`.
 *
 * It also bounds what libbtparse would do with the file: each macro's
 * expansion, and the entries' text with macros expanded, at most
 * BIB_MAX_EXPANSION (an upper bound: an entry's own bytes plus those of
 * every macro it uses); the macro names it would keep at most
 * BIB_MAX_MACRO_NAMES bytes.  False with err set at the entry where a
 * limit is passed: then libbtparse is not called. */
static bool predefine(cv_arena *a, const bibfile *bf, cv_error *err)
{
    const char *s = bf->text, *end = s + bf->len;
    use *uses = NULL;
    size_t nuses = 0, cuses = 0;
    macros defs = {cv_arena_alloc(a, 64 * sizeof(macro)), 64, 0};
    memset(defs.v, 0, 64 * sizeof(macro));
    size_t names = 0, total = 0;
    for (int m = 0; m < 12; m++) {
        macro_set(a, &defs, month_macros[m][0], strlen(month_macros[m][1]));
        names += strlen(month_macros[m][0]) + 1;
    }
    int line = 1;
    const char *line_start = s;
    for (const char *p = s; p < end; p++) {
        if (*p == '\n') {
            line++;
            line_start = p + 1;
        }
        if (*p != '@')
            continue;
        const char *at = p;
        cv_pos at_pos = {bf->path, line, (int)chars(line_start, (size_t)(p - line_start)) + 1};
        /* @type, then its opening delimiter. */
        const char *t = ++p;
        while (p < end && isalpha((unsigned char)*p))
            p++;
        size_t tl = (size_t)(p - t);
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) {
            if (*p == '\n')
                line++, line_start = p + 1;
            p++;
        }
        if (p >= end || (*p != '{' && *p != '('))
            continue;
        if (tl == 7 && !strncasecmp(t, "comment", 7))
            continue;
        bool string = tl == 6 && !strncasecmp(t, "string", 6);
        char close = *p == '{' ? '}' : ')';
        int depth = 0;              /* braces inside the entry */
        bool quoted = false, first = true;
        const char *defined = NULL; /* the @string's name */
        size_t used = 0;            /* the bytes of the macros it uses */
        size_t text = 0;            /* the bytes of its own quoted and braced text */
        for (p++; p < end; p++) {
            char c = *p;
            text += depth > 0 || quoted;
            if (c == '\n')
                line++, line_start = p + 1;
            if (c == '@') {         /* "@type{" starts an entry, as after an error */
                const char *q = p + 1;
                while (q < end && isalpha((unsigned char)*q))
                    q++;
                while (q < end && (*q == ' ' || *q == '\t'))
                    q++;
                if (q > p + 1 && q < end && (*q == '{' || *q == '(')) {
                    p--;
                    break;
                }
            }
            if (c == '{') {
                depth++;
            } else if (c == '}' && depth > 0) {
                depth--;
            } else if (!depth && c == '"') {
                quoted = !quoted;
            } else if (!depth && !quoted && c == '%') {
                while (p + 1 < end && p[1] != '\n')
                    p++;
            } else if (!depth && !quoted && c == close) {
                break;
            } else if (!depth && !quoted && (c == '=' || c == '#' || (string && first))) {
                const char *q = c == '=' || c == '#' ? p + 1 : p;
                while (q < end && (isspace((unsigned char)*q) || *q == '%')) {
                    if (*q == '%')          /* a comment, to the end of its line */
                        while (q + 1 < end && q[1] != '\n')
                            q++;
                    else if (*q == '\n')
                        line++, line_start = q + 1;
                    q++;
                }
                const char *n0 = q;
                while (q < end && name_char(*q))
                    q++;
                bool number = true;     /* digits alone are a number, not a name */
                for (const char *r = n0; r < q; r++)
                    number = number && isdigit((unsigned char)*r);
                if (number)
                    text += (size_t)(q - n0);
                if (q > n0 && !number) {
                    const char *name = cv_arena_strndup(a, n0, (size_t)(q - n0));
                    const char *lname = lower(a, name);
                    if (string && first) {
                        defined = lname;
                    } else {
                        macro *known = macro_find(&defs, lname);
                        if (known)
                            used = sat_add(used, known->len);
                        else
                            CV_PUSH(a, uses, nuses, cuses,
                                    ((use){name, lname, {bf->path, line,
                                                  (int)chars(line_start, (size_t)(n0 - line_start)) + 1}}));
                    }
                }
                first = false;
                p = q - 1;
            } else if (!isspace((unsigned char)c)) {
                first = false;
            }
        }
        /* A macro: its text; an entry: all its bytes (names, fields). */
        size_t own = defined ? text : (size_t)((p < end ? p + 1 : end) - at);
        size_t len = sat_add(own, used);
        if (defined) {
            names += strlen(defined) + 1;
            if (names > BIB_MAX_MACRO_NAMES)
                return cv_error_at(err, at_pos, "too many @string macros: their names come "
                                   "to more than %d bytes, more than libbtparse can hold",
                                   BIB_MAX_MACRO_NAMES);
            if (len > BIB_MAX_EXPANSION)
                return cv_error_at(err, at_pos, "@string '%s' expands to more than %s, the "
                                   "limit for an input", defined, BIB_MAX_EXPANSION_NAME);
            macro_set(a, &defs, defined, len);
        } else {
            total = sat_add(total, len);
            if (total > BIB_MAX_EXPANSION)
                return cv_error_at(err, at_pos, "with its @string macros expanded, the file "
                                   "comes to more than %s here, the limit for an input",
                                   BIB_MAX_EXPANSION_NAME);
        }
    }
    /* Each name used and defined nowhere (an @string after its use counts,
     * as libbtparse reads it): empty, said once. */
    for (size_t i = 0; i < nuses; i++) {
        if (macro_find(&defs, uses[i].lname))
            continue;
        cv_warn(err, uses[i].pos, "undefined macro '%s' (no @string defines it): it is left "
                "empty", uses[i].name);
        names += strlen(uses[i].lname) + 1;
        if (names > BIB_MAX_MACRO_NAMES)
            return cv_error_at(err, uses[i].pos, "too many macro names: they come to more "
                               "than %d bytes, more than libbtparse can hold",
                               BIB_MAX_MACRO_NAMES);
        macro_set(a, &defs, uses[i].lname, 0);
        B.bt_add_macro_text((char *)uses[i].lname, (char *)"", NULL, 0);
    }
    return true;
}

/* What libbtparse said while it parsed one part of the file. */
typedef struct heard {
    const char *text;        /* its lines, or NULL */
    bool ok, regular;
    rec r;                   /* a regular entry */
    int line;
} heard;

/* The captured stderr from `*at` to its end; *at moves there. */
static const char *captured(cv_arena *a, FILE *cap, long *at)
{
    fflush(stderr);
    if (fseek(cap, 0, SEEK_END) != 0)
        return NULL;
    long now = ftell(cap);
    if (now <= *at || fseek(cap, *at, SEEK_SET) != 0)
        return NULL;
    buf b = {0};
    char chunk[4096];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, cap)) > 0)
        cv_strbuf_put(a, &b, chunk, k);
    fseek(cap, 0, SEEK_END);
    *at = ftell(cap);
    return b.s;
}

/* What libbtparse reads instead of '%' in a value (U+E025, private use):
 * libbtparse 0.89 puts the text it found into its messages' printf format,
 * so a "%n" or "%s" in a broken entry would crash it.  No '%' reaches it:
 * a '%' outside values starts a comment (to the end of its line, blanked
 * here), one in a value is this, turned back in copy_entry(). */
#define PERCENT "\xEE\x80\xA5"

/* Does the @comment whose delimiter is at s[j] ('{' or '(') end before
 * s + n?  Its body is braces, balanced, as libbtparse reads it.  *budget
 * bounds the bytes all such scans read (a file of many unclosed ones):
 * past it, every @comment is taken as closed. */
static bool comment_closes(const char *s, size_t n, size_t j, size_t *budget)
{
    int depth = 0;
    for (size_t i = j + 1; i < n; i++) {
        if (*budget == 0)
            return true;
        --*budget;
        if (s[i] == '{')
            depth++;
        else if (s[i] == '}' && depth-- == 0)
            return s[j] == '{';
        else if (s[i] == ')' && depth == 0 && s[j] == '(')
            return true;
    }
    return false;
}

/* The text libbtparse reads.  An @comment never closed would swallow the
 * rest of the file, every entry after it lost: as BibTeX does, only its
 * word is skipped (blanked here), and what follows is read; *unclosed is
 * the byte of the first such '@' in s, or -1.  *stray is the first '@'
 * with a name that starts no entry (blanked, below), or -1. */
static char *without_percent(cv_arena *a, const char *s, size_t n, size_t *len,
                             long *unclosed, long *stray)
{
    buf b = {0};
    bool entry = false, paren = false, quoted = false;
    int depth = 0;
    size_t budget = 4 * n + 65536;
    *unclosed = *stray = -1;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '@' && !quoted) {            /* "@type{" or "@type(" starts an entry */
            size_t j = i + 1;
            while (j < n && isalpha((unsigned char)s[j]))
                j++;
            size_t tl = j - i - 1;
            while (j < n && (s[j] == ' ' || s[j] == '\t'))
                j++;
            if (!entry && tl == 7 && !strncasecmp(s + i + 1, "comment", 7) && j < n &&
                (s[j] == '{' || s[j] == '(') && !comment_closes(s, n, j, &budget)) {
                if (*unclosed < 0)
                    *unclosed = (long)i;
                for (; i < j; i++)
                    put(a, &b, " ");
                i--;
                continue;
            }
            /* Outside an entry, an '@' that starts none ("@misc \"x\"",
             * "@@", an address in the text between entries): libbtparse
             * reads a broken entry out of some of them, into a tree it then
             * calls exit() on.  It is blanked: text between entries, as
             * BibTeX reads it; said when a name follows it. */
            size_t ns = i + 1, ne, k;
            while (ns < n && isspace((unsigned char)s[ns]))
                ns++;
            for (ne = ns; ne < n && name_char(s[ne]);)
                ne++;
            for (k = ne; k < n && isspace((unsigned char)s[k]);)
                k++;
            if (!entry && (ne == ns || k >= n || (s[k] != '{' && s[k] != '('))) {
                if (*stray < 0 && ne > ns)
                    *stray = (long)i;
                put(a, &b, " ");
                continue;
            }
            if (j > i + 1 && j < n && (s[j] == '{' || s[j] == '(')) {
                cv_strbuf_put(a, &b, s + i, j - i + 1);
                entry = true, paren = s[j] == '(', depth = paren ? 0 : 1, quoted = false;
                i = j;
                continue;
            }
        }
        bool value = entry && (quoted || depth >= (paren ? 1 : 2));
        if (c == '%' && value) {
            put(a, &b, PERCENT);
            continue;
        }
        if (c == '%') {                       /* a comment: blanked, line kept */
            while (i < n && s[i] != '\n' && s[i] != '\r') {
                put(a, &b, " ");
                i++;
            }
            i--;
            continue;
        }
        if (entry && c == '{')
            depth++;
        else if (entry && c == '}' && depth > 0 && --depth == 0 && !paren)
            entry = false;
        else if (entry && c == '"' && depth == (paren ? 0 : 1))
            quoted = !quoted;
        else if (entry && paren && c == ')' && !depth && !quoted)
            entry = false;
        cv_strbuf_put(a, &b, &c, 1);
    }
    *len = b.n;
    return (char *)done(a, &b);
}

static char *with_percent(cv_arena *a, const char *s)
{
    if (!strstr(s, PERCENT))
        return cv_arena_strdup(a, s);
    buf b = {0};
    for (const char *p = s; *p;) {
        if (!strncmp(p, PERCENT, 3)) {
            put(a, &b, "%");
            p += 3;
        } else {
            cv_strbuf_put(a, &b, p++, 1);
        }
    }
    return (char *)done(a, &b);
}

/* The last guard: should libbtparse end the process all the same (it calls
 * exit() on what predefine() does not foresee), say so at the file it was
 * reading, on the real stderr, and end with status 1 rather than 255. */
static char guard_msg[600];
static volatile int guard_fd = -1;
static volatile bool guard_armed;

static void guard(void)
{
    if (!guard_armed)
        return;
    size_t n = strlen(guard_msg);
    if (guard_fd != -2 && write(guard_fd >= 0 ? guard_fd : 2, guard_msg, n) < 0) {
        /* Nothing more to be done. */
    }
    _exit(1);
}

static void guard_arm(const char *path, int fd)
{
    static bool registered;
    if (!registered)
        registered = atexit(guard) == 0;
    char shown[400];
    snprintf(guard_msg, sizeof guard_msg, "%s: error: libbtparse gave up reading this file "
             "and ended the process\n", cv_escape(path, shown, sizeof shown));
    guard_fd = fd;
    guard_armed = true;
}

/* The key of the entry whose '@' is at line:col ("@article{key,"), or
 * NULL when none starts there. */
static const char *entry_at(cv_arena *a, const bibfile *bf, int line, int col)
{
    size_t n;
    const char *s = line_at(bf, line, &n);
    size_t i = 0;
    for (int c = 1; c < col && i < n; c++)
        i = cv_utf8_next(s, n, i);
    if (i >= n || s[i] != '@')
        return NULL;
    size_t t = ++i;
    while (i < n && isalpha((unsigned char)s[i]))
        i++;
    if (i == t || (i - t == 7 && (!strncasecmp(s + t, "comment", 7) ||
                                  !strncasecmp(s + t, "preamble", 7))) ||
        (i - t == 6 && !strncasecmp(s + t, "string", 6)))
        return NULL;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= n || (s[i] != '{' && s[i] != '('))
        return NULL;
    for (i++; i < n && (s[i] == ' ' || s[i] == '\t');)
        i++;
    size_t k = i;
    while (i < n && !strchr(", \t\r\n})", s[i]))
        i++;
    return i > k ? cv_arena_strndup(a, s + k, i - k) : NULL;
}

/* libbtparse says what it finds on stderr (and has no handler to change
 * that): hush() points descriptor 2 at `cap` and returns the real one
 * (-1: left as it was), which --timeout's message still goes to; unhush()
 * puts it back.  parse() says what was caught again through the sink;
 * names() drops what libbtparse's name splitting warns of (what
 * tidy_name() leaves: an empty name, "and and"). */
static int hush(FILE *cap)
{
    int saved = -1;
    fflush(stderr);
    if (cap && (saved = dup(2)) >= 0) {
        cv_stop_diag_fd(saved);           /* --timeout's message: not into cap */
        if (dup2(fileno(cap), 2) < 0) {
            cv_stop_diag_fd(-1);
            close(saved);
            saved = -1;
        }
    }
    return saved;
}

/* stderr back; `cap` (one file for every entry) emptied. */
static void unhush(int saved, FILE *cap)
{
    if (saved >= 0) {
        fflush(stderr);
        dup2(saved, 2);
        cv_stop_diag_fd(-1);
        close(saved);
    }
    if (cap && ftell(cap) > 0 && ftruncate(fileno(cap), 0) == 0)
        rewind(cap);
}

/* The next entry libbtparse reads from `in`, or NULL at the end.
 * libbtparse ends its work on a file (and forgets the file) only in a call
 * that begins at its end.  A call that reads text after the last entry to
 * the end returns NULL too, and leaves the file remembered: the next .bib
 * of the process, another FILE, would then be "an interleaved call", and
 * libbtparse calls exit().  So a NULL that did not begin at the end is
 * followed by another call (a few at most: a call that reads nothing and
 * stops short is not waited on forever). */
static AST *next_entry(FILE *in, boolean *ok)
{
    for (int idle = 0; idle < 4;) {
        bool at_end = feof(in) != 0;
        long before = ftell(in);
        AST *e = B.bt_parse_entry(in, (char *)"bib", 0, ok);
        if (e || at_end)
            return e;
        idle += ftell(in) == before;
    }
    return NULL;
}

/* Does libbtparse read the text (len bytes, its state as set up for the
 * file) to its end without ending the process?  It calls exit() on some
 * files it cannot recover from (a broken entry's tree it then refuses);
 * predefine() and without_percent() keep it from those known, not from
 * all.  So that no file ends the run (a batch's other profiles, --merge,
 * --watch), a child process reads it first, saying nothing; *last is the
 * line of the last entry it read (0: none), *sig the signal that ended it
 * (0: none).  True, too, when no child can be started: then the guard is
 * what is left. */
static bool survives(const char *text, size_t len, int *last, int *sig)
{
    *sig = 0;
    /* A text read whole once is read whole again (libbtparse starts afresh
     * at each file): the texts that were, by a 64-bit hash and length, so
     * that a batch reading one .bib for many profiles forks once.  Like
     * the guard's, this state is the process's own: a fork costs the
     * process a page fault on each page it writes after it (about 1.8 ms
     * in a batch), which the engine cannot spare it from. */
    typedef struct { uint64_t hash; size_t len; } text_id;
    static text_id known[64];
    static size_t nknown;                 /* the last 64 at most */
    uint64_t hash = 14695981039346656037u;             /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        hash = (hash ^ (unsigned char)text[i]) * 1099511628211u;
    size_t nk = nknown < 64 ? nknown : 64;
    for (size_t i = 0; i < nk; i++)
        if (known[i].hash == hash && known[i].len == len)
            return true;
    int fds[2];
    *last = 0;
    if (pipe(fds) != 0)
        return true;
    /* waitpid() must see how the child ended: with SIGCHLD ignored (as
     * whoever started cvpdf may leave it), the child would be reaped
     * unseen, waitpid() fail, and a file that ends libbtparse pass for
     * one read whole. */
    struct sigaction dfl = {.sa_handler = SIG_DFL}, old_chld;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGCHLD, &dfl, &old_chld);
    fflush(NULL);
    pid_t parent = getpid();
    /* Signals wait while the child is made: until its handlers are reset,
     * it has the parent's, which would remove the parent's temporary
     * files; and the parent's, once it is known, stop it and wait for it
     * (stop.h), so that it is gone before the parent ends. */
    sigset_t all, mask;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &mask);
    pid_t pid = fork();
    if (pid < 0) {
        sigprocmask(SIG_SETMASK, &mask, NULL);
        close(fds[0]), close(fds[1]);
        sigaction(SIGCHLD, &old_chld, NULL);
        return true;
    }
    if (pid == 0) {
        /* Whatever happens here ends this child alone: none of the
         * parent's handlers (stop.h's, which remove its outputs' temporary
         * files; a sanitizer's) runs in it. */
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGALRM, SIGSEGV,
                                   SIGBUS, SIGABRT, SIGFPE, SIGILL};
        for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
            signal(sigs[i], SIG_DFL);
        sigemptyset(&mask);
        sigprocmask(SIG_SETMASK, &mask, NULL);
        /* It never outlives the process that waits for it: if that is
         * gone already, the signal came too late. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
            _exit(2);
        close(fds[0]);
        /* What it says is said by the real read.  Not closed: a
         * sanitizer's report, in a sanitizer build, would then go to a
         * file of its own in the current directory. */
        int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, STDERR_FILENO) < 0)
            close(STDERR_FILENO);
        if (null > STDERR_FILENO)
            close(null);
        guard_fd = -2;                    /* an exit() here: status 1, silently, */
        guard_armed = true;               /* and no other atexit() handler runs */
        atexit(guard);
        FILE *in = fmemopen((char *)text, len ? len : 1, "r");
        boolean ok;
        for (AST *e; in && (e = next_entry(in, &ok));) {
            int line = e->line;
            if (write(fds[1], &line, sizeof line) != (ssize_t)sizeof line)
                _exit(2);
            B.bt_free_ast(e);
        }
        _exit(0);
    }
    cv_stop_worker(pid, 1);
    sigprocmask(SIG_SETMASK, &mask, NULL);
    close(fds[1]);
    for (int line; read(fds[0], &line, sizeof line) == (ssize_t)sizeof line;)
        *last = line;
    close(fds[0]);
    int status = 0;
    pid_t got;
    while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    cv_stop_worker(pid, 0);
    sigaction(SIGCHLD, &old_chld, NULL);
    bool whole = got == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (got == pid && WIFSIGNALED(status))
        *sig = WTERMSIG(status);
    if (whole)
        known[nknown++ % 64] = (text_id){hash, len};
    return whole;
}

/* Parse the bytes of bf->text. */
static bool parse(cv_arena *a, bibfile *bf, cv_error *err)
{
    if (!cv_lib_open(&bt_lib))
        return cv_error_at(err, (cv_pos){bf->path, 0, 0}, ".bib files need libbtparse, which "
                           "cannot be loaded (%s); install the Debian package %s",
                           bt_lib.soname, bt_lib.package);
    size_t lcap = 0;
    CV_PUSH(a, bf->lines, bf->nlines, lcap, (size_t)0);
    for (size_t i = 0; i < bf->len; i++)
        if (bf->text[i] == '\n' && i + 1 < bf->len)
            CV_PUSH(a, bf->lines, bf->nlines, lcap, i + 1);

    size_t plen;
    long unclosed, stray;
    char *ptext = without_percent(a, bf->text, bf->len, &plen, &unclosed, &stray);
    for (int w = 0; w < 2; w++) {
        long at = w ? stray : unclosed;
        if (at < 0)
            continue;
        const char *u = bf->text + at;
        int line = 1;
        const char *ls = bf->text;
        for (const char *q = bf->text; q < u; q++)
            if (*q == '\n')
                line++, ls = q + 1;
        cv_warn(err, (cv_pos){bf->path, line, (int)chars(ls, (size_t)(u - ls)) + 1}, "%s",
                w ? "this '@' starts no entry (no { or ( after its name): it is read as text "
                    "between entries"
                  : "this @comment is never closed; as BibTeX does, only the word @comment "
                    "is skipped, and the entries after it are read");
    }
    FILE *in = fmemopen(ptext, plen ? plen : 1, "r");
    if (!in)
        return cv_error_at(err, (cv_pos){bf->path, 0, 0}, "cannot read '%s': %s", bf->path,
                           strerror(errno));
    /* libbtparse says what it finds on stderr: for the while, a file.
     * Nothing else may be said meanwhile (the sink writes to stderr too):
     * what it heard is kept, and said once stderr is back. */
    B.bt_initialize();
    for (int m = 0; m < 12; m++)
        B.bt_add_macro_text((char *)month_macros[m][0], (char *)month_macros[m][1], NULL, 0);
    int last = 0, sig = 0;
    if (!predefine(a, bf, err) || !survives(ptext, plen, &last, &sig)) {
        if (!err->set && sig)
            /* Not a syntax error: a crash, or the kernel's out-of-memory
             * killer (SIGKILL). */
            cv_error_at(err, (cv_pos){bf->path, last ? last : 1, 1}, "libbtparse cannot "
                        "read this file: the process reading it ended by a signal (%s)%s%.0d; "
                        "nothing of the file is used", strsignal(sig),
                        last ? " after the entry at line " : "", last);
        else if (!err->set && last)
            cv_error_at(err, (cv_pos){bf->path, last, 1}, "libbtparse cannot read this "
                        "file: after the entry at line %d it gives up, on a syntax error it "
                        "cannot recover from; nothing of the file is used", last);
        else if (!err->set)
            cv_error_at(err, (cv_pos){bf->path, 1, 1}, "libbtparse cannot read this "
                        "file: before its first entry it gives up, on a syntax error it "
                        "cannot recover from; nothing of the file is used");
        B.bt_cleanup();
        fclose(in);
        return false;
    }
    FILE *cap = tmpfile();
    int saved = hush(cap);

    guard_arm(bf->path, saved);
    heard *h = NULL;
    size_t nh = 0, hcap = 0, order = 0;
    long at = 0;
    boolean ok;
    for (AST *e; (e = next_entry(in, &ok));) {
        heard x = {saved >= 0 ? captured(a, cap, &at) : NULL, ok,
                   B.bt_entry_metatype(e) == BTE_REGULAR, {0}, e->line};
        if (x.regular) {
            copy_entry(a, bf, e, &x.r);
            x.r.order = order++;
        }
        CV_PUSH(a, h, nh, hcap, x);
        B.bt_free_ast(e);
    }
    const char *rest = saved >= 0 ? captured(a, cap, &at) : NULL;
    B.bt_cleanup();
    guard_armed = false;
    unhush(saved, NULL);
    if (cap)
        fclose(cap);
    fclose(in);

    /* Now say it, and keep the entries read whole. */
    size_t rcap = 0;
    for (size_t i = 0; i <= nh; i++) {
        const char *text = i < nh ? h[i].text : rest;
        int eline = i < nh ? h[i].line : 0, ecol = 1;
        const char *problem = text ? said(a, bf, text, err, &eline, &ecol) : NULL;
        if (!problem)
            ecol = column_of(bf, eline, "@");
        if (i == nh) {
            if (problem)
                cv_warn(err, (cv_pos){bf->path, eline, ecol}, "%s",
                        problem);
            break;
        }
        /* libbtparse stopped at the '@' of the next entry (an entry
         * left open runs into it) and goes on after the '@' after that:
         * the next entry is lost too, and is named. */
        const char *lost = problem ? entry_at(a, bf, eline, ecol) : NULL;
        for (size_t j = i + 1; lost && j < nh; j++)
            if (h[j].regular && h[j].r.pos.line == eline)
                lost = NULL;
        if (h[i].regular && (!h[i].ok || problem))
            cv_warn(err, (cv_pos){bf->path, eline, ecol},
                    "entry '%s' (line %d) is skipped: %s%s%s%s", h[i].r.key, h[i].r.pos.line,
                    problem ? problem : "it cannot be read",
                    lost ? "; entry '" : "", lost ? lost : "",
                    lost ? "', whose '@' is where it stopped, is skipped with it" : "");
        else if (h[i].regular)
            CV_PUSH(a, bf->r, bf->nr, rcap, h[i].r);
        else if (!h[i].ok || problem)
            cv_warn(err, (cv_pos){bf->path, eline, ecol}, "%s",
                    problem ? problem : "this part cannot be read");
    }
    return !err->set;
}

/* Entries by key (case-insensitive, as BibTeX), through an index sorted
 * once. */
typedef struct keyed {
    const char *key;
    size_t i;
} keyed;

static int by_key(const void *x, const void *y)
{
    const keyed *a = x, *b = y;
    int c = strcasecmp(a->key, b->key);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

static const keyed *find(const keyed *idx, size_t n, const char *key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcasecmp(idx[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && !strcasecmp(idx[lo].key, key) ? &idx[lo] : NULL;
}

/* Drop duplicate keys (warned, at both places) and entries without a
 * title; copy crossref'd fields in. */
static void check(cv_arena *a, bibfile *bf, cv_error *err)
{
    keyed *idx = cv_arena_alloc(a, sizeof *idx * (bf->nr ? bf->nr : 1));
    for (size_t i = 0; i < bf->nr; i++)
        idx[i] = (keyed){bf->r[i].key, i};
    qsort(idx, bf->nr, sizeof *idx, by_key);
    bool *gone = cv_arena_alloc(a, sizeof *gone * (bf->nr ? bf->nr : 1));
    memset(gone, 0, sizeof *gone * (bf->nr ? bf->nr : 1));
    for (size_t k = 1; k < bf->nr; k++)
        if (!strcasecmp(idx[k].key, idx[k - 1].key)) {
            size_t j = k - 1;       /* the first of the key, in the file */
            while (j > 0 && !strcasecmp(idx[j - 1].key, idx[k].key))
                j--;
            const rec *first = &bf->r[idx[j].i];
            cv_warn(err, bf->r[idx[k].i].pos,
                    "duplicate key '%s' (first at line %d, column %d); this entry is ignored",
                    bf->r[idx[k].i].key, first->pos.line, first->pos.col);
            gone[idx[k].i] = true;
        }
    /* Crossref: the parent's fields the entry lacks (BibTeX's rule); with
     * no booktitle still, the parent's title is the child's booktitle.  A
     * parent is resolved before its children, wherever it is in the file,
     * so a chain (paper -> proceedings -> series) gives the same fields in
     * any order; a crossref that leads back to its own entry is ignored,
     * with a warning (else every entry of the loop is a parent, and none
     * is listed). */
    size_t *parent = cv_arena_alloc(a, sizeof *parent * (bf->nr ? bf->nr : 1));
    unsigned char *state = cv_arena_alloc(a, bf->nr ? bf->nr : 1); /* 0, 1 on the path, 2 done */
    size_t *path = cv_arena_alloc(a, sizeof *path * (bf->nr ? bf->nr : 1));
    memset(state, 0, bf->nr ? bf->nr : 1);
    for (size_t i = 0; i < bf->nr; i++) {
        parent[i] = SIZE_MAX;
        const field *cf = get_field(&bf->r[i], "crossref");
        if (!cf || gone[i])
            continue;
        const keyed *k = find(idx, bf->nr, cf->value);
        if (!k)
            cv_warn(err, cf->pos, "crossref '%s' of entry '%s' is not in the file", cf->value,
                    bf->r[i].key);
        else if (k->i == i)
            cv_warn(err, cf->pos, "entry '%s' is its own crossref; the crossref is ignored",
                    bf->r[i].key);
        else
            parent[i] = k->i;
    }
    for (size_t i = 0; i < bf->nr; i++) {
        /* The chain up from entry i to an entry done or without a parent. */
        size_t np = 0;
        for (size_t j = i; state[j] == 0;) {
            state[j] = 1;
            path[np++] = j;
            size_t up = parent[j];
            if (up == SIZE_MAX)
                break;
            if (state[up] == 1) {
                /* The loop, from `up` round to it again. */
                size_t from = np;
                while (from > 0 && path[from - 1] != up)
                    from--;
                const char *loop = "";
                for (size_t k = from - 1; k < np; k++)
                    loop = cv_arena_printf(a, "%s'%s' -> ", loop, bf->r[path[k]].key);
                const field *cf = get_field(&bf->r[j], "crossref");
                cv_warn(err, cf->pos, "crossref loop %s'%s': the crossref of entry '%s' is "
                        "ignored", loop, bf->r[up].key, bf->r[j].key);
                parent[j] = SIZE_MAX;
                break;
            }
            j = up;
        }
        /* Top down: each parent complete before its child copies it. */
        while (np) {
            size_t c = path[--np];
            state[c] = 2;
            if (parent[c] == SIZE_MAX)
                continue;
            rec *r = &bf->r[c], *p = &bf->r[parent[c]];
            p->is_parent = true;
            size_t cap = r->nf;
            for (size_t j = 0; j < p->nf; j++) {
                const char *name = p->f[j].name;
                if (strcmp(name, "crossref") && strcmp(name, "title") && !get(r, name))
                    CV_PUSH(a, r->f, r->nf, cap, p->f[j]);
            }
            const field *pt = get_field(p, "title");
            if (pt && !get(r, "booktitle")) {    /* biblatex's rule, where BibTeX's gave none */
                field fl = *pt;
                fl.name = "booktitle";
                CV_PUSH(a, r->f, r->nf, cap, fl);
            }
        }
    }
    size_t n = 0;
    for (size_t i = 0; i < bf->nr; i++) {
        if (gone[i])
            continue;
        if (!get(&bf->r[i], "title") || !*get(&bf->r[i], "title")) {
            if (!bf->r[i].is_parent)
                cv_warn(err, bf->r[i].pos, "entry '%s' has no title; it is left out",
                        bf->r[i].key);
            continue;
        }
        bf->r[n++] = bf->r[i];
    }
    bf->nr = n;
}

/* The file as UTF-8 text: a byte-order mark dropped, control characters
 * (but tab and line ends) made spaces, and a file that is not UTF-8 (an
 * old export in Latin-1) read as Latin-1, with a warning where its first
 * such byte is. */
static void text_of(cv_arena *a, bibfile *bf, cv_error *err)
{
    const char *s = bf->text;
    size_t n = bf->len;
    if (n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3))
        s += 3, n -= 3;
    size_t bad = n;
    cv_utf8_valid(s, n, &bad);
    buf b = {0};
    if (bad < n) {
        int line = 1, col = 1;
        for (size_t i = 0; i < bad; i++)
            if (s[i] == '\n')
                line++, col = 1;
            else
                col += !cv_utf8_is_cont((unsigned char)s[i]);
        cv_warn(err, (cv_pos){bf->path, line, col},
                "the file is not UTF-8: it is read as Latin-1 (save it as UTF-8 to be sure)");
        for (size_t i = 0; i < n; i++) {
            char u[CV_UTF8_MAX];
            cv_strbuf_put(a, &b, u, cv_utf8_encode((unsigned char)s[i], u));
        }
    } else {
        cv_strbuf_put(a, &b, s, n);
    }
    char *t = b.s ? b.s : cv_arena_strdup(a, "");
    for (size_t i = 0; i < b.n; i++)
        if (((unsigned char)t[i] < 0x20 && t[i] != '\t' && t[i] != '\n' && t[i] != '\r') ||
            t[i] == 0x7F)
            t[i] = ' ';
    bf->text = t;
    bf->len = b.n;
}

static bool read_bib(cv_arena *a, const char *path, cv_pos at, bool regular, bibfile *bf,
                     cv_error *err)
{
    memset(bf, 0, sizeof *bf);
    bf->path = path;
    cv_error quiet = *err;
    size_t len;
    char *data = regular ? cv_yml_read_regular(a, path, &len, &quiet)
                         : cv_yml_read_file(a, path, &len, &quiet);
    if (!data) {
        cv_error_at(err, at, "%s", quiet.msg);
        return false;
    }
    if (memchr(data, 0, len))
        return cv_error_at(err, (cv_pos){path, 0, 0}, "'%s' is not a text file (it holds a "
                           "NUL byte)", path);
    bf->text = data;
    bf->len = len;
    text_of(a, bf, err);
    if (!parse(a, bf, err))
        return false;
    check(a, bf, err);
    return !err->set;
}

/* ---- An entry ---------------------------------------------------------- */

typedef enum { FIRST_LAST, LAST_FIRST, INITIALS, LAST_INITIALS } name_order;

/* A token of a name as text (its TeX converted). */
static const char *tok(cv_arena *a, const char *s)
{
    return cv_bib_tex_plain(a, s, NULL);
}

/* "J." or "J.-R." for a given name token. */
static void initials(cv_arena *a, buf *b, const char *given)
{
    bool start = true;
    for (const char *p = given; *p;) {
        if (*p == '-' || *p == ' ') {
            if (*p == '-')
                put(a, b, "-");
            start = true;
            p++;
            continue;
        }
        size_t n = cv_utf8_next(p, strnlen(p, CV_UTF8_MAX), 0);
        if (start) {
            cv_strbuf_put(a, b, p, n);
            put(a, b, ".");
            start = false;
        }
        p += n;
    }
}

/* One name as the order asks, plain text. */
static const char *name_text(cv_arena *a, bt_name *nm, name_order order)
{
    buf first = {0}, von = {0}, last = {0}, jr = {0};
    buf *parts[4] = {&first, &von, &last, &jr};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < nm->part_len[k]; i++) {
            const char *t = tok(a, nm->parts[k][i]);
            if (k == BTN_FIRST && (order == INITIALS || order == LAST_INITIALS)) {
                if (first.n)
                    put(a, &first, " ");
                initials(a, &first, t);
                continue;
            }
            if (parts[k]->n)
                put(a, parts[k], " ");
            put(a, parts[k], t);
        }
    const char *f = done(a, &first), *v = done(a, &von), *l = done(a, &last),
               *j = done(a, &jr);
    const char *fam = *v ? cv_arena_printf(a, "%s %s", v, l) : l;
    if (order == LAST_FIRST || order == LAST_INITIALS) {
        if (!*f)
            return *j ? cv_arena_printf(a, "%s, %s", fam, j) : fam;
        return *j ? cv_arena_printf(a, "%s, %s, %s", fam, j, f)
                  : cv_arena_printf(a, "%s, %s", fam, f);
    }
    const char *s = *f ? cv_arena_printf(a, "%s %s", f, fam) : fam;
    return *j ? cv_arena_printf(a, "%s, %s", s, j) : s;
}

/* A name as libbtparse can split it: its comma-separated parts (outside
 * braces) without empty ones, at most three ("von Last, Jr, First").
 * libbtparse 0.89 reads past its arrays on ", First" or "Last, , First". */
static char *tidy_name(cv_arena *a, const char *s)
{
    buf b = {0};
    int depth = 0, parts = 0;
    const char *start = s;
    for (const char *p = s;; p++) {
        if (*p == '{')
            depth++;
        else if (*p == '}' && depth > 0)
            depth--;
        if (*p && (*p != ',' || depth > 0 || parts == 2))
            continue;
        const char *e = p;
        while (start < e && (*start == ' ' || *start == '\t'))
            start++;
        while (e > start && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (e > start) {
            if (parts++)
                put(a, &b, ", ");
            int d = 0;                 /* the third part takes the rest */
            for (const char *q = start; q < e; q++) {
                d += *q == '{' ? 1 : *q == '}' && d > 0 ? -1 : 0;
                cv_strbuf_put(a, &b, *q == ',' && !d ? " " : q, 1);
            }
        }
        if (!*p)
            break;
        start = p + 1;
    }
    return (char *)done(a, &b);
}

/* The names of an author (or editor) field, as cv_text. */
static void names(cv_arena *a, const field *fl, name_order order, cv_text **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    char *copy = cv_arena_strdup(a, fl->value);
    bt_stringlist *list = B.bt_split_list(copy, (char *)"and", NULL, 0, (char *)"name");
    if (!list)
        return;
    for (int i = 0; i < list->num_items; i++) {
        const char *item = list->items[i];
        if (!item || !*item)
            continue;
        const char *s;
        if (!strcmp(item, "others")) {
            s = "et al.";
        } else {
            char *tidy = tidy_name(a, item);
            if (!*tidy)
                continue;
            bt_name *nm = B.bt_split_name(tidy, NULL, 0, i);
            if (!nm)
                continue;
            s = name_text(a, nm, order);
            B.bt_free_name(nm);
        }
        if (*s)
            CV_PUSH(a, *out, *n, cap, ((cv_text){cv_markup_escape(a, s), fl->pos}));
    }
    B.bt_free_list(list);
}

/* A field's value as markup, a warning for TeX commands it does not know. */
static const char *markup(cv_arena *a, const field *fl, cv_error *err)
{
    if (!fl || !*fl->value)
        return NULL;
    const char *unk = NULL;
    const char *s = cv_bib_tex(a, fl->value, &unk);
    if (unk)
        cv_warn(err, fl->pos, "'%s' uses TeX that cvpdf does not know (%s): shown without it",
                fl->name, unk);
    return *s ? s : NULL;
}

static int month_of(const char *s)
{
    while (*s == ' ' || *s == '{')
        s++;
    if (isdigit((unsigned char)*s)) {
        int m = atoi(s);
        return m >= 1 && m <= 12 ? m : 0;
    }
    for (int m = 0; m < 12; m++)
        if (!strncasecmp(s, month_macros[m][1], 3))
            return m + 1;
    return 0;
}

/* year + month, or biblatex's date = YYYY[-MM[-DD]]. */
static void date_of(cv_arena *a, const rec *r, cv_date *d, cv_error *err)
{
    memset(d, 0, sizeof *d);
    const field *y = get_field(r, "year"), *m = get_field(r, "month"),
                *dt = get_field(r, "date");
    if (!y && dt) {
        int yy, mm, dd;
        const char *v = cv_bib_tex_plain(a, dt->value, NULL);
        cv_date_kind k = cv_date_shape(v, &yy, &mm, &dd);
        if (k == CV_DATE_NONE && strlen(v) > 4 && isdigit((unsigned char)v[0])) {
            char four[5] = {v[0], v[1], v[2], v[3], 0};
            k = cv_date_shape(four, &yy, &mm, &dd);
        }
        if (k != CV_DATE_NONE && (k == CV_DATE_YEAR || (mm >= 1 && mm <= 12))) {
            *d = (cv_date){k == CV_DATE_YEAR ? CV_DATE_YEAR : CV_DATE_MONTH, yy,
                           k == CV_DATE_YEAR ? 0 : mm, 0, NULL, dt->pos};
            return;
        }
        y = dt;
    }
    if (!y)
        return;
    const char *v = cv_bib_tex_plain(a, y->value, NULL);
    int yy = 0, digits = 0;
    const char *p = v;
    while (*p && !isdigit((unsigned char)*p))
        p++;
    for (; isdigit((unsigned char)p[digits]) && digits < 5; digits++)
        yy = yy * 10 + (p[digits] - '0');
    if (digits != 4) {
        if (*v)
            *d = (cv_date){CV_DATE_TEXT, 0, 0, 0, v, y->pos};
        return;
    }
    *d = (cv_date){CV_DATE_YEAR, yy, 0, 0, NULL, y->pos};
    if (m && *m->value) {
        int mm = month_of(cv_bib_tex_plain(a, m->value, NULL));
        if (mm) {
            d->kind = CV_DATE_MONTH;
            d->month = mm;
        } else {
            cv_warn(err, m->pos, "month '%s' is not a month; the year is shown alone",
                    m->value);
        }
    }
}

/* The type's group: journal, conference, ... (for group_by: type). */
static const char *type_group(const rec *r)
{
    const char *t = r->type;
    const char *arch = get(r, "archiveprefix") ? get(r, "archiveprefix") : get(r, "eprinttype");
    const char *j = get(r, "journal");
    bool arxiv = (arch && !strcasecmp(arch, "arxiv")) ||
                 (j && strcasestr(j, "arxiv")) || (j && strcasestr(j, "corr"));
    if (!strcmp(t, "article"))
        return arxiv ? "Preprints" : "Journal Articles";
    if (!strcmp(t, "inproceedings") || !strcmp(t, "conference") || !strcmp(t, "proceedings"))
        return "Conference Papers";
    if (!strcmp(t, "book") || !strcmp(t, "inbook") || !strcmp(t, "incollection") ||
        !strcmp(t, "booklet") || !strcmp(t, "collection"))
        return "Books and Chapters";
    if (!strcmp(t, "phdthesis") || !strcmp(t, "mastersthesis") || !strcmp(t, "thesis"))
        return "Theses";
    if (!strcmp(t, "patent"))
        return "Patents";
    if (!strcmp(t, "techreport") || !strcmp(t, "report"))
        return "Technical Reports";
    if (!strcmp(t, "unpublished") || arxiv || !strcmp(t, "online"))
        return "Preprints";
    return "Other Publications";
}

static const char *arxiv_id(const rec *r)
{
    const char *arch = get(r, "archiveprefix") ? get(r, "archiveprefix") : get(r, "eprinttype");
    const char *ep = get(r, "eprint");
    if (ep && *ep && arch && !strcasecmp(arch, "arxiv"))
        return ep;
    return NULL;
}

/* The venue: where it appeared, then volume, number and pages. */
static const char *venue(cv_arena *a, const rec *r, cv_error *err)
{
    static const char *const order[] = {"journal", "journaltitle", "booktitle", "howpublished",
                                        "school", "institution", "publisher", "organization",
                                        NULL};
    const char *t = r->type;
    buf b = {0};
    const char *where = NULL;
    for (size_t i = 0; order[i] && !where; i++) {
        const field *fl = get_field(r, order[i]);
        /* howpublished = {\url{...}}: the link is the url's to show. */
        if (fl && !strcmp(order[i], "howpublished") &&
            (!strncmp(fl->value, "\\url", 4) || !strncasecmp(fl->value, "http", 4)))
            continue;
        where = markup(a, fl, err);
    }
    if (!strcmp(t, "phdthesis"))
        put(a, &b, where ? "PhD thesis, " : "PhD thesis");
    else if (!strcmp(t, "mastersthesis"))
        put(a, &b, where ? "Master's thesis, " : "Master's thesis");
    else if (!strcmp(t, "techreport")) {
        const char *num = markup(a, get_field(r, "number"), err);
        put(a, &b, num ? cv_arena_printf(a, "Technical Report %s", num) : "Technical Report");
        if (where)
            put(a, &b, ", ");
    } else if (!strcmp(t, "patent")) {
        const char *num = markup(a, get_field(r, "number"), err);
        if (num)
            put(a, &b, cv_arena_printf(a, "Patent %s%s", num, where ? ", " : ""));
    }
    bool corr = where && arxiv_id(r) && !strcasecmp(where, "CoRR");     /* DBLP's arXiv */
    if (where && !corr)
        put(a, &b, where);
    else if (arxiv_id(r) && !b.n)
        put(a, &b, cv_arena_printf(a, "arXiv preprint arXiv:%s",
                                   cv_markup_escape(a, arxiv_id(r))));
    const char *vol = markup(a, get_field(r, "volume"), err);
    const char *num = strcmp(t, "techreport") && strcmp(t, "patent")
                          ? markup(a, get_field(r, "number"), err)
                          : NULL;
    const char *pages = markup(a, get_field(r, "pages"), err);
    if (vol && !corr)
        put(a, &b, cv_arena_printf(a, "%svol. %s", b.n ? ", " : "", vol));
    if (num)
        put(a, &b, cv_arena_printf(a, "%sno. %s", b.n ? ", " : "", num));
    if (pages) {
        /* "30-39" (one hyphen) is a range too. */
        const char *dash = strstr(pages, "–") ? pages : strchr(pages, '-');
        if (dash && dash != pages && !strstr(pages, "–")) {
            const char *h = strchr(pages, '-');
            pages = cv_arena_printf(a, "%.*s–%s", (int)(h - pages), pages, h + 1);
        }
        bool range = strstr(pages, "–") || strchr(pages, ',');
        put(a, &b, cv_arena_printf(a, "%s%s %s", b.n ? ", " : "", range ? "pp." : "p.", pages));
    }
    return b.n ? b.s : NULL;
}

/* DOI as doc.c keeps it: bare. */
static const char *doi_of(cv_arena *a, const rec *r, cv_error *err)
{
    const field *fl = get_field(r, "doi");
    if (!fl || !*fl->value)
        return NULL;
    const char *s = raw_url(a, fl->value, fl->value + strlen(fl->value));
    static const char *const prefixes[] = {"https://doi.org/", "http://doi.org/",
                                           "https://dx.doi.org/", "http://dx.doi.org/",
                                           "doi:", NULL};
    while (*s == ' ')
        s++;
    for (size_t i = 0; prefixes[i]; i++)
        if (!strncasecmp(s, prefixes[i], strlen(prefixes[i]))) {
            s += strlen(prefixes[i]);
            break;
        }
    if (strncmp(s, "10.", 3) || strpbrk(s, " \t") || strlen(s) > CV_MAX_PDF_STRING / 2) {
        cv_warn(err, fl->pos, "doi '%s' is not a DOI (10.1234/abcd); it is left out", s);
        return NULL;
    }
    return s;
}

static const char *url_of(cv_arena *a, const rec *r, cv_error *err)
{
    const field *fl = get_field(r, "url");
    const field *hp = get_field(r, "howpublished");
    if ((!fl || !*fl->value) && hp &&
        (!strncmp(hp->value, "\\url", 4) || !strncasecmp(hp->value, "http", 4)))
        fl = hp;
    if (fl && *fl->value) {
        const char *v = fl->value;
        if (!strncmp(v, "\\url{", 5))
            v += 4;
        const char *s = raw_url(a, v, v + strlen(v));
        while (*s == ' ')
            s++;
        bool web = !strncasecmp(s, "http://", 7) || !strncasecmp(s, "https://", 8);
        if (web && !strpbrk(s, " \t") && strlen(s) <= CV_MAX_PDF_STRING)
            return s;
        cv_warn(err, fl->pos, "url '%s' is not a full http(s) URL; it is left out", s);
    }
    if (arxiv_id(r)) {
        const char *id = raw_url(a, arxiv_id(r), arxiv_id(r) + strlen(arxiv_id(r)));
        if (!strpbrk(id, " \t()[]") && strlen(id) < 200)
            return cv_arena_printf(a, "https://arxiv.org/abs/%s", id);
    }
    return NULL;
}

static void to_entry(cv_arena *a, const rec *r, name_order order, FILE *quiet, cv_entry *e,
                     cv_error *err)
{
    memset(e, 0, sizeof *e);
    e->kind = CV_ENTRY_PUBLICATION;
    e->pos = r->pos;
    const field *t = get_field(r, "title");
    e->title = (cv_text){markup(a, t, err), t->pos};
    if (!e->title.s)
        e->title.s = "";
    const field *au = get_field(r, "author");
    if (!au || !*au->value)
        au = get_field(r, "editor");
    if (au) {
        int saved = hush(quiet);
        names(a, au, order, &e->authors, &e->nauthors);
        unhush(saved, quiet);
    }
    const char *v = venue(a, r, err);
    e->journal = (cv_text){v, r->pos};
    const field *vf = get_field(r, "journal");
    if (!vf)
        vf = get_field(r, "booktitle");
    if (vf)
        e->journal.pos = vf->pos;
    const field *df = get_field(r, "doi"), *uf = get_field(r, "url");
    e->doi = (cv_text){doi_of(a, r, err), df ? df->pos : r->pos};
    e->url = (cv_text){url_of(a, r, err), uf ? uf->pos : r->pos};
    date_of(a, r, &e->date, err);
}

/* ---- Options ----------------------------------------------------------- */

typedef enum { SEL_FIRST, SEL_MARK, SEL_ONLY } sel_as;
typedef enum { SORT_NEWEST, SORT_OLDEST, SORT_NONE } sort_by;
typedef enum { GROUP_NONE, GROUP_YEAR, GROUP_TYPE } group_by;

typedef struct opts {
    const char *path;
    cv_pos at;               /* the node naming the file */
    cv_text *keys, *types, *keywords, *selected;
    size_t nkeys, ntypes, nkeywords, nselected;
    int from, to;            /* years, 0: open */
    sel_as sel;
    const char *mark;
    sort_by sort;
    group_by group;
    long limit;              /* -1: none */
    name_order names;
    const cv_yml *notes;
} opts;

bool cv_bib_is_source(const cv_yml *n)
{
    if (!n)
        return false;
    if (n->kind == CV_YML_SCALAR) {
        size_t l = strlen(n->str);
        return l > 4 && !strcasecmp(n->str + l - 4, ".bib");
    }
    return n->kind == CV_YML_MAP && cv_yml_get(n, "bib");
}

static bool one_of(const cv_yml *v, const char *what, const char *const *words, int *out,
                   cv_error *err)
{
    if (!v)
        return true;
    if (v->kind != CV_YML_SCALAR)
        return cv_error_at(err, v->pos, "'%s' must be a word, not %s", what,
                           cv_yml_kind_name(v->kind));
    buf b = {0};
    cv_arena *tmp = cv_arena_new();
    for (int i = 0; words[i]; i++) {
        if (!strcasecmp(v->str, words[i])) {
            *out = i;
            cv_arena_free(tmp);
            return true;
        }
        put(tmp, &b, i ? ", " : "");
        put(tmp, &b, words[i]);
    }
    cv_error_at(err, v->pos, "'%s' is '%s'; it can be %s", what, v->str, b.s);
    cv_arena_free(tmp);
    return false;
}

static bool year_of(const cv_yml *v, const char *s, int *y, cv_error *err)
{
    char *end;
    long n = strtol(s, &end, 10);
    while (*end == ' ')
        end++;
    if (*end || end == s || n < 1000 || n > 9999)
        return cv_error_at(err, v->pos, "'years' takes years such as 2018, 2018-2024 or "
                           "{from: 2018, to: 2024}, not '%s'", v->str ? v->str : s);
    *y = (int)n;
    return true;
}

static bool read_years(const cv_yml *v, opts *o, cv_error *err)
{
    if (!v)
        return true;
    if (v->kind == CV_YML_MAP) {
        static const char *const keys[] = {"from", "to", NULL};
        if (!cv_yml_check_keys(v, keys, "years", err))
            return false;
        const cv_yml *f = cv_yml_get(v, "from"), *t = cv_yml_get(v, "to");
        if ((f && (f->kind != CV_YML_SCALAR || !year_of(f, f->str, &o->from, err))) ||
            (t && (t->kind != CV_YML_SCALAR || !year_of(t, t->str, &o->to, err))))
            return err->set ? false : cv_error_at(err, v->pos, "'from' and 'to' are years");
    } else if (v->kind == CV_YML_SCALAR) {
        const char *dash = strchr(v->str, '-');
        if (!dash)
            dash = strstr(v->str, "–");
        if (!dash) {
            if (!year_of(v, v->str, &o->from, err))
                return false;
            o->to = o->from;
        } else {
            char *first = strndup(v->str, (size_t)(dash - v->str));
            const char *second = dash + (*dash == '-' ? 1 : 3);
            while (*second == ' ')
                second++;
            bool ok = (!*first || year_of(v, first, &o->from, err)) &&
                      (!*second || year_of(v, second, &o->to, err));
            free(first);
            if (!ok)
                return false;
        }
    } else {
        return cv_error_at(err, v->pos, "'years' must be a year or a range, not a list");
    }
    if (o->from && o->to && o->from > o->to)
        return cv_error_at(err, v->pos, "'years' runs backwards: %d is after %d", o->from,
                           o->to);
    return true;
}

/* The keys of a .bib section's mapping (the JSON Schema reads them too). */
static const char *const option_keys[] = {"bib", "keys", "types", "years", "keywords",
                                          "selected", "selected_as", "mark", "sort",
                                          "group_by", "limit", "names", "notes", NULL};

/* The words of the options that take one of a set, the default first. */
static const char *const sels[] = {"first", "mark", "only", NULL};
static const char *const sorts[] = {"newest", "oldest", "none", NULL};
static const char *const groups[] = {"none", "year", "type", NULL};
static const char *const orders[] = {"first-last", "last-first", "initials", "last-initials",
                                     NULL};

const char *const *cv_bib_option_keys(void)
{
    return option_keys;
}

const char *const *cv_bib_option_words(const char *key)
{
    return !strcmp(key, "selected_as") ? sels : !strcmp(key, "sort") ? sorts
           : !strcmp(key, "group_by") ? groups : !strcmp(key, "names") ? orders : NULL;
}

static bool read_opts(cv_arena *a, const cv_yml *n, const char *profile, opts *o, cv_error *err)
{
    memset(o, 0, sizeof *o);
    o->limit = -1;
    o->mark = "★";
    const cv_yml *file = n;
    if (n->kind == CV_YML_MAP) {
        if (!cv_yml_check_keys(n, option_keys, "a .bib section", err))
            return false;
        file = cv_yml_get(n, "bib");
        int sel = 0, sort = 0, group = 0, order = 0;
        cv_text mark = {0};
        if (!cv_text_list(a, cv_yml_get(n, "keys"), "keys", &o->keys, &o->nkeys, err) ||
            !cv_text_list(a, cv_yml_get(n, "types"), "types", &o->types, &o->ntypes, err) ||
            !cv_text_list(a, cv_yml_get(n, "keywords"), "keywords", &o->keywords,
                          &o->nkeywords, err) ||
            !cv_text_list(a, cv_yml_get(n, "selected"), "selected", &o->selected,
                          &o->nselected, err) ||
            !one_of(cv_yml_get(n, "selected_as"), "selected_as", sels, &sel, err) ||
            !one_of(cv_yml_get(n, "sort"), "sort", sorts, &sort, err) ||
            !one_of(cv_yml_get(n, "group_by"), "group_by", groups, &group, err) ||
            !one_of(cv_yml_get(n, "names"), "names", orders, &order, err) ||
            !cv_text_read(a, cv_yml_get(n, "mark"), "mark", &mark, err) ||
            !read_years(cv_yml_get(n, "years"), o, err))
            return false;
        o->sel = (sel_as)sel;
        o->sort = (sort_by)sort;
        o->group = (group_by)group;
        o->names = (name_order)order;
        if (mark.s)
            o->mark = mark.s;
        const cv_yml *lim = cv_yml_get(n, "limit");
        if (lim) {
            char *end;
            long v = lim->kind == CV_YML_SCALAR ? strtol(lim->str, &end, 10) : -1;
            if (lim->kind != CV_YML_SCALAR || *end || end == lim->str || v < 1 || v > 100000)
                return cv_error_at(err, lim->pos, "'limit' must be a number of entries "
                                   "from 1 to 100000");
            o->limit = v;
        }
        o->notes = cv_yml_get(n, "notes");
        if (o->notes && o->notes->kind != CV_YML_MAP && !cv_yml_is_null(o->notes))
            return cv_error_at(err, o->notes->pos, "'notes' must be a mapping from keys to "
                               "notes, not %s", cv_yml_kind_name(o->notes->kind));
        for (size_t i = 0; o->notes && o->notes->kind == CV_YML_MAP && i < o->notes->n; i++) {
            cv_text t;
            if (!cv_text_read(a, o->notes->items[i], "notes", &t, err))
                return false;
        }
    }
    if (!file || file->kind != CV_YML_SCALAR || !*file->str)
        return cv_error_at(err, file ? file->pos : n->pos, "'bib' must be the path of a "
                           ".bib file");
    o->at = file->pos;
    o->path = file->str;
    if (o->path[0] != '/' && profile && strchr(profile, '/'))
        o->path = cv_arena_printf(a, "%s/%s", dirname(cv_arena_strdup(a, profile)), o->path);
    else
        o->path = cv_arena_strdup(a, o->path);
    return true;
}

static bool listed(const cv_text *list, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (!strcasecmp(list[i].s, s))
            return true;
    return false;
}

/* Does `keywords` (separated by commas or semicolons) hold one of ours? */
static bool has_keyword(const rec *r, const opts *o)
{
    const char *kw = get(r, "keywords");
    if (!kw)
        return false;
    for (const char *p = kw; *p;) {
        while (*p == ' ' || *p == ',' || *p == ';')
            p++;
        const char *q = p;
        while (*q && *q != ',' && *q != ';')
            q++;
        const char *e = q;
        while (e > p && e[-1] == ' ')
            e--;
        for (size_t i = 0; i < o->nkeywords; i++)
            if (strlen(o->keywords[i].s) == (size_t)(e - p) &&
                !strncasecmp(o->keywords[i].s, p, (size_t)(e - p)))
                return true;
        p = q;
    }
    return false;
}

typedef struct item {
    cv_entry e;
    const rec *r;
    bool selected;
} item;

static int newest(const void *x, const void *y)
{
    const item *a = x, *b = y;
    int ya = a->e.date.year, yb = b->e.date.year;
    int ma = a->e.date.month, mb = b->e.date.month;
    if (ya != yb)
        return ya < yb ? 1 : -1;
    if (ma != mb)
        return ma < mb ? 1 : -1;
    return (a->r->order > b->r->order) - (a->r->order < b->r->order);
}

static int oldest(const void *x, const void *y)
{
    const item *a = x, *b = y;
    int ya = a->e.date.year ? a->e.date.year : 99999, yb = b->e.date.year ? b->e.date.year : 99999;
    int ma = a->e.date.month, mb = b->e.date.month;
    if (ya != yb)
        return ya < yb ? -1 : 1;
    if (ma != mb)
        return ma < mb ? -1 : 1;
    return (a->r->order > b->r->order) - (a->r->order < b->r->order);
}

/* The entries the options choose, in their order. */
static item *choose(cv_arena *a, const bibfile *bf, const opts *o, size_t *n, cv_error *err)
{
    item *it = cv_arena_alloc(a, sizeof *it * (bf->nr ? bf->nr : 1));
    size_t k = 0;
    /* Keys, selected and notes that name no entry are likely typos. */
    keyed *idx = cv_arena_alloc(a, sizeof *idx * (bf->nr ? bf->nr : 1));
    for (size_t i = 0; i < bf->nr; i++)
        idx[i] = (keyed){bf->r[i].key, i};
    qsort(idx, bf->nr, sizeof *idx, by_key);
    const cv_text *lists[2] = {o->keys, o->selected};
    size_t counts[2] = {o->nkeys, o->nselected};
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < counts[l]; i++)
            if (!find(idx, bf->nr, lists[l][i].s))
                cv_warn(err, lists[l][i].pos, "no entry '%s' in %s", lists[l][i].s, o->path);
    if (o->notes && o->notes->kind == CV_YML_MAP)
        for (size_t i = 0; i < o->notes->n; i++)
            if (!find(idx, bf->nr, o->notes->keys[i]->str))
                cv_warn(err, o->notes->keys[i]->pos, "no entry '%s' in %s",
                        o->notes->keys[i]->str, o->path);

    FILE *quiet = tmpfile();        /* where libbtparse's chatter on names goes */
    for (size_t i = 0; i < bf->nr; i++) {
        const rec *r = &bf->r[i];
        bool sel = listed(o->selected, o->nselected, r->key);
        if (o->nkeys && !listed(o->keys, o->nkeys, r->key))
            continue;
        if (!o->nkeys && r->is_parent)
            continue;             /* a crossref's proceedings, shown through its papers */
        if (o->ntypes && !listed(o->types, o->ntypes, r->type))
            continue;
        if (o->nkeywords && !has_keyword(r, o))
            continue;
        if (o->sel == SEL_ONLY && !sel)
            continue;
        item *t = &it[k];
        to_entry(a, r, o->names, quiet, &t->e, err);
        if ((o->from || o->to) &&
            (!t->e.date.year || (o->from && t->e.date.year < o->from) ||
             (o->to && t->e.date.year > o->to)))
            continue;
        t->r = r;
        t->selected = sel;
        k++;
    }
    if (quiet)
        fclose(quiet);
    if (o->sort != SORT_NONE)
        qsort(it, k, sizeof *it, o->sort == SORT_NEWEST ? newest : oldest);
    if (o->nselected && o->sel == SEL_FIRST) {
        /* Selected first, each part in its order. */
        item *tmp = cv_arena_alloc(a, sizeof *tmp * (k ? k : 1));
        size_t m = 0;
        for (int pass = 0; pass < 2; pass++)
            for (size_t i = 0; i < k; i++)
                if (it[i].selected == (pass == 0))
                    tmp[m++] = it[i];
        it = tmp;
    }
    if (o->limit >= 0 && (size_t)o->limit < k)
        k = (size_t)o->limit;
    /* Marks and notes. */
    for (size_t i = 0; i < k; i++) {
        cv_entry *e = &it[i].e;
        if (o->sel == SEL_MARK && it[i].selected && *o->mark)
            e->title.s = cv_arena_printf(a, "%s %s", o->mark, e->title.s);
        if (o->notes && o->notes->kind == CV_YML_MAP)
            for (size_t j = 0; j < o->notes->n; j++)
                if (!strcasecmp(o->notes->keys[j]->str, it[i].r->key) &&
                    !cv_yml_is_null(o->notes->items[j]))
                    e->summary = (cv_text){o->notes->items[j]->str, o->notes->items[j]->pos};
    }
    *n = k;
    return it;
}

/* ---- Sections ---------------------------------------------------------- */

static const char *group_name(cv_arena *a, const item *t, group_by g)
{
    if (g == GROUP_TYPE)
        return type_group(t->r);
    if (t->e.date.year)
        return cv_arena_printf(a, "%d", t->e.date.year);
    return "Undated";
}

bool cv_bib_sections(cv_arena *a, const cv_yml *key, const cv_yml *n, const char *profile,
                     const char *lang, cv_section **secs, size_t *nsecs, size_t *cap, cv_error *err)
{
    opts o;
    bibfile bf;
    if (!read_opts(a, n, profile, &o, err) || !read_bib(a, o.path, o.at, true, &bf, err))
        return false;
    size_t k;
    item *it = choose(a, &bf, &o, &k, err);
    if (err->set)
        return false;
    if (!k) {
        cv_warn(err, key->pos, "section '%s' has no entries: none in %s is chosen", key->str,
                o.path);
        return !err->set;
    }
    const char *title = cv_section_title(a, key->str, lang);
    if (o.group == GROUP_NONE) {
        cv_section s = {key->str, title, key->pos, CV_ENTRY_PUBLICATION, NULL, k, o.path};
        s.entries = cv_arena_alloc(a, sizeof *s.entries * k);
        for (size_t i = 0; i < k; i++)
            s.entries[i] = it[i].e;
        CV_PUSH(a, *secs, *nsecs, *cap, s);
        return true;
    }
    /* Groups in the order their first entry comes (by type: in the order
     * of the list of groups). */
    static const char *const type_order[] = {
        "Journal Articles", "Conference Papers", "Books and Chapters", "Preprints",
        "Theses", "Technical Reports", "Patents", "Other Publications", NULL};
    const char **names = cv_arena_alloc(a, sizeof *names * k);
    size_t ng = 0;
    for (size_t i = 0; i < k; i++) {
        const char *g = group_name(a, &it[i], o.group);
        bool seen = false;
        for (size_t j = 0; j < ng && !seen; j++)
            seen = !strcmp(names[j], g);
        if (!seen)
            names[ng++] = g;
    }
    if (o.group == GROUP_TYPE) {
        size_t m = 0;
        for (size_t t = 0; type_order[t]; t++)
            for (size_t j = 0; j < ng; j++)
                if (!strcmp(names[j], type_order[t]))
                    names[m++] = type_order[t];
        ng = m;
    }
    for (size_t g = 0; g < ng; g++) {
        cv_section s = {cv_arena_printf(a, "%s: %s", key->str, names[g]),
                        cv_arena_printf(a, "%s: %s", title, names[g]), key->pos,
                        CV_ENTRY_PUBLICATION, NULL, 0, o.path};
        s.entries = cv_arena_alloc(a, sizeof *s.entries * k);
        for (size_t i = 0; i < k; i++)
            if (!strcmp(group_name(a, &it[i], o.group), names[g]))
                s.entries[s.nentries++] = it[i].e;
        CV_PUSH(a, *secs, *nsecs, *cap, s);
    }
    return true;
}

bool cv_bib_read(cv_arena *a, const char *path, cv_entry **out, size_t *n, cv_error *err)
{
    bibfile bf;
    opts o;
    memset(&o, 0, sizeof o);
    o.limit = -1;
    o.path = path;
    if (!read_bib(a, path, (cv_pos){path, 0, 0}, false, &bf, err))
        return false;
    item *it = choose(a, &bf, &o, n, err);
    *out = cv_arena_alloc(a, sizeof **out * (*n ? *n : 1));
    for (size_t i = 0; i < *n; i++) {
        (*out)[i] = it[i].e;
        /* A note ("Best Paper Award") is the entry's summary, RenderCV's
         * line under a publication. */
        const field *nf = get_field(it[i].r, "note");
        const char *note = nf && *nf->value ? markup(a, nf, err) : NULL;
        if (note && *note)
            (*out)[i].summary = (cv_text){note, nf->pos};
    }
    return !err->set;
}

/* ---- YAML -------------------------------------------------------------- */

/* The fields an imported publication shows, in its title, authors,
 * journal (the venue: venue()), date, doi and url; any other is named in
 * a note above the entry. */
static bool imported_field(const char *name)
{
    static const char *const used[] = {
        "title", "author", "editor", "journal", "journaltitle", "booktitle", "howpublished",
        "school", "institution", "publisher", "organization", "volume", "number", "pages",
        "year", "month", "date", "doi", "url", "eprint", "archiveprefix", "eprinttype",
        "crossref", "note", NULL};
    for (size_t i = 0; used[i]; i++)
        if (!strcmp(name, used[i]))
            return true;
    return false;
}

/* "# not imported: abstract, isbn" above an entry whose .bib entry has
 * fields a publication has no place for, at `ind`. */
static void dropped_note(FILE *out, const rec *r, const char *ind)
{
    bool any = false;
    for (size_t i = 0; i < r->nf; i++) {
        if (imported_field(r->f[i].name))
            continue;
        if (!any)
            fprintf(out, "%s# not imported from @%s{%s}: ", ind, r->type, r->key);
        fprintf(out, "%s%s", any ? ", " : "", r->f[i].name);
        any = true;
    }
    if (any)
        fputs(" (a publication has no field for them)\n", out);
}

bool cv_bib_import(const char *path, const char *section, FILE *out, cv_error *err)
{
    cv_arena *a = cv_arena_new();
    bibfile bf;
    opts o;
    memset(&o, 0, sizeof o);
    o.limit = -1;
    o.path = path;
    size_t n = 0;
    item *it = NULL;
    bool ok = read_bib(a, path, (cv_pos){path, 0, 0}, false, &bf, err) &&
              (it = choose(a, &bf, &o, &n, err)) && !err->set;
    if (ok) {
        /* A top-level list, or (--section) the section indented as under
         * cv: sections: in a profile. */
        const char *ind = section ? "    " : "";
        fputs("# Publications from ", out);
        fputs(path, out);
        fputs(section ? " (cvpdf import --section): paste this under cv: sections:\n"
                      : " (cvpdf import): put this list under cv: sections:\n", out);
        fputs(ind, out);
        if (section) {
            cv_yml_put_quoted(out, section);
            fputs(n ? ":\n" : ": []\n", out);
        } else {
            fputs(n ? "publications:\n" : "publications: []\n", out);
        }
        for (size_t i = 0; i < n; i++) {
            const cv_entry *e = &it[i].e;
            dropped_note(out, it[i].r, cv_arena_printf(a, "%s  ", ind));
            fprintf(out, "%s  - title: ", ind);
            cv_yml_put_quoted(out, e->title.s);
            fputs("\n", out);
            if (e->nauthors) {
                fprintf(out, "%s    authors:\n", ind);
                for (size_t j = 0; j < e->nauthors; j++) {
                    fprintf(out, "%s      - ", ind);
                    cv_yml_put_quoted(out, e->authors[j].s);
                    fputs("\n", out);
                }
            }
            /* A note ("Best Paper Award") is the entry's summary, as
             * cv_bib_read() makes it. */
            const field *nf = get_field(it[i].r, "note");
            const char *note = nf && *nf->value ? markup(a, nf, err) : NULL;
            if (note && *note) {
                fprintf(out, "%s    summary: ", ind);
                cv_yml_put_quoted(out, note);
                fputs("\n", out);
            }
            if (e->journal.s) {
                fprintf(out, "%s    journal: ", ind);
                cv_yml_put_quoted(out, e->journal.s);
                fputs("\n", out);
            }
            const cv_date *d = &e->date;
            if (d->kind == CV_DATE_YEAR)
                fprintf(out, "%s    date: %04d\n", ind, d->year);
            else if (d->kind == CV_DATE_MONTH)
                fprintf(out, "%s    date: \"%04d-%02d\"\n", ind, d->year, d->month);
            else if (d->kind == CV_DATE_TEXT) {
                fprintf(out, "%s    date: ", ind);
                cv_yml_put_quoted(out, d->text);
                fputs("\n", out);
            }
            if (e->doi.s) {
                fprintf(out, "%s    doi: ", ind);
                cv_yml_put_quoted(out, e->doi.s);
                fputs("\n", out);
            }
            if (e->url.s) {
                fprintf(out, "%s    url: ", ind);
                cv_yml_put_quoted(out, e->url.s);
                fputs("\n", out);
            }
        }
        fflush(out);
        if (ferror(out))
            ok = cv_error_at(err, (cv_pos){path, 0, 0}, "cannot write the YAML: %s",
                             strerror(errno));
    }
    cv_arena_free(a);
    return ok;
}
