/* starter.c - `cvpdf new "Full Name"`: a profile to start from.  See
 * starter.h. */
#include "starter.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"
#include "error.h"
#include "schema.h"
#include "unicode.h"

/* The profile after its header: every entry type, each explained. */
static const char profile_body[] =
    "  # Your contact details: all but name are optional.  Delete what you\n"
    "  # do not want shown.\n"
    "  headline: Software Engineer\n"
    "  location: Berlin\n"
    "  email: you@example.com\n"
    "  phone: \"+49 30 1234567\"\n"
    "  website: https://example.com\n"
    "  # photo: photo.jpg               # a JPEG or PNG beside this file\n"
    "  social_networks:                 # the username only, not the URL\n"
    "    - network: GitHub\n"
    "      username: your-username\n"
    "    - network: LinkedIn\n"
    "      username: your-username\n"
    "\n"
    "  # Sections appear in the order written.  A key becomes the section's\n"
    "  # title (experience -> Experience, selected_talks -> Selected Talks).\n"
    "  # The entries of a section all have one type, told by their keys.\n"
    "  sections:\n"
    "    # Text entries: plain strings.  Inline markup works everywhere:\n"
    "    # **bold**, *italic*, [a link](https://example.com).\n"
    "    summary:\n"
    "      - Engineer who builds **reliable systems** and likes to measure\n"
    "        before optimising. Replace this paragraph with your own.\n"
    "\n"
    "    # Experience entries: company and position (required), location,\n"
    "    # start_date / end_date (YYYY, YYYY-MM or YYYY-MM-DD; end_date may\n"
    "    # be present) or a single date, summary, highlights.\n"
    "    experience:\n"
    "      - company: Example GmbH\n"
    "        position: Senior Software Engineer\n"
    "        location: Berlin\n"
    "        start_date: 2021-03\n"
    "        end_date: present\n"
    "        highlights:\n"
    "          - Cut the build time from 40 to 6 minutes\n"
    "          - Led a team of four through a database migration\n"
    "      - company: Another Company\n"
    "        position: Software Engineer\n"
    "        location: Munich\n"
    "        start_date: 2018-09\n"
    "        end_date: 2021-02\n"
    "\n"
    "    # Education entries: institution and area (required), degree,\n"
    "    # location, dates, summary, highlights.\n"
    "    education:\n"
    "      - institution: Example University\n"
    "        area: Computer Science\n"
    "        degree: MSc\n"
    "        location: Munich\n"
    "        start_date: 2016-10\n"
    "        end_date: 2018-08\n"
    "        highlights:\n"
    "          - \"Thesis: Fast incremental builds\"   # quote text that holds ': '\n"
    "\n"
    "    # Normal entries: name (required), location, dates, summary,\n"
    "    # highlights.  For projects, volunteering, anything else.\n"
    "    projects:\n"
    "      - name: \"[An open-source tool](https://example.com/tool)\"\n"
    "        date: 2022\n"
    "        summary: A command-line tool with a thousand users\n"
    "\n"
    "    # Publication entries: title and authors (required), journal, doi,\n"
    "    # url, date, summary.  Your own name is set in bold among the\n"
    "    # authors.  With a doi, the DOI is the link and a url is not shown.\n"
    "    publications:\n"
    "      - title: A Study of Something Important\n"
    "        authors: [%s, Jane Doe]\n"
    "        journal: Journal of Examples\n"
    "        doi: 10.1234/example.2023.1\n"
    "        date: 2023-05\n"
    "\n"
    "    # One-line entries: label and details, both required.\n"
    "    skills:\n"
    "      - label: Languages\n"
    "        details: C, Python, Go\n"
    "      - label: Tools\n"
    "        details: Linux, Git, PostgreSQL\n"
    "\n"
    "    # Bullet entries: bullet.\n"
    "    awards:\n"
    "      - bullet: Best Paper Award, Example Conference 2023\n"
    "\n"
    "    # Numbered entries: number (numbered 1, 2, 3 ...).\n"
    "    talks:\n"
    "      - number: Keynote at an example workshop, 2024\n"
    "      - number: Invited talk at a meetup, 2023\n"
    "\n"
    "    # Reversed numbered entries: reversed_number (the first is numbered\n"
    "    # highest: newest first).\n"
    "    patents:\n"
    "      - reversed_number: A newer patent\n"
    "      - reversed_number: An older patent\n"
    "\n"
    "# Optional: dates in another language.\n"
    "# locale:\n"
    "#   language: de\n"
    "#   present: heute\n"
    "\n"
    "# Optional: words set in bold wherever they appear.\n"
    "# settings:\n"
    "#   bold_keywords: [Python]\n";

/* The starter layout after its header: the common knobs. */
static const char layout_body[] =
    "# Uncomment and change what you want.  Anything left out comes from the\n"
    "# layout above.\n"
    "#\n"
    "# page:\n"
    "#   size: a4                  # a4, letter, a5, legal or [width, height]\n"
    "#   margins: 18mm\n"
    "# font:\n"
    "#   family: Lato\n"
    "#   size: 10pt\n"
    "#   line_spacing: 1.28\n"
    "# colors:\n"
    "#   text: \"#1a1a1a\"           # quote colours: # starts a YAML comment\n"
    "#   link: \"#1f3a5f\"\n"
    "# section_title:\n"
    "#   color: \"#1f3a5f\"\n"
    "#   uppercase: true\n"
    "# fit_pages: 1                # shrink to fit one page\n";

/* Why `name` cannot be a person's name in a profile that renders: invalid
 * UTF-8, a C0 or C1 control character (NEL, U+0085, among them), or a line
 * or paragraph separator (U+2028, U+2029); NULL when it can. */
static const char *bad_text(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = cv_utf8_decode(name + i, n - i, &cp);
        if (cp == 0xFFFD && !(k == 3 && !memcmp(name + i, "\xEF\xBF\xBD", 3)))
            return "it is not valid UTF-8";
        if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
            return "it holds a control character";
        if (cp == 0x2028 || cp == 0x2029)
            return "it holds a line or paragraph separator (U+2028, U+2029)";
        i += k;
    }
    return NULL;
}

const char *cv_starter_file_name(cv_arena *a, const char *name)
{
    size_t n = strlen(name);
    /* Only spaces is no name (it made "____CV.yaml", whose résumé has
     * none). */
    if (!n || n > 200 || !strcmp(name, ".") || !strcmp(name, "..") || bad_text(name) ||
        !name[strspn(name, " ")])
        return NULL;
    char *s = cv_arena_strdup(a, name);
    for (char *p = s; *p; p++) {
        if ((unsigned char)*p < 0x20 || *p == 0x7F || *p == '/')
            return NULL;
        if (*p == ' ')
            *p = '_';
    }
    return cv_arena_printf(a, "%s_CV.yaml", s);
}

/* `word` as one word for a POSIX shell: as it is when it holds only
 * letters, digits, bytes of UTF-8 beyond ASCII and _ . / - + , : @ %,
 * else in single quotes (each ' as '\''); "./" before a word that starts
 * with '-', so that it is no option. */
static const char *sh_word(cv_arena *a, const char *word)
{
    const char *dot = word[0] == '-' ? "./" : "";
    bool plain = *word != 0;
    for (const unsigned char *p = (const unsigned char *)word; *p && plain; p++)
        plain = *p >= 0x80 || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                (*p >= '0' && *p <= '9') || strchr("_./-+,:@%", *p);
    if (plain)
        return cv_arena_printf(a, "%s%s", dot, word);
    cv_strbuf b = {0};
    cv_strbuf_put(a, &b, "'", 1);
    cv_strbuf_put(a, &b, dot, strlen(dot));
    for (const char *p = word; *p; p++)
        if (*p == '\'')
            cv_strbuf_put(a, &b, "'\\''", 4);
        else
            cv_strbuf_put(a, &b, p, 1);
    cv_strbuf_put(a, &b, "'", 1);
    return b.s;
}

/* Where the docs are, for the starters' pointers: docs/ of the source tree
 * (the data directory is its root), or share/doc/cvpdf beside the
 * installed share/cvpdf (make install); NULL when neither has them. */
static const char *docs_dir(cv_arena *a)
{
    const char *data = cv_datadir(a);
    const char *dirs[] = {cv_arena_printf(a, "%s/docs", data),
                          cv_arena_printf(a, "%s/../doc/cvpdf", data)};
    for (size_t i = 0; i < 2; i++) {
        char *real = realpath(dirs[i], NULL);
        const char *dir = real ? cv_arena_strdup(a, real) : NULL;
        free(real);
        if (dir && access(cv_arena_printf(a, "%s/profiles.md", dir), R_OK) == 0)
            return dir;
    }
    return NULL;
}

/* "# The format is in man 5 cvpdf-profile and DOCS/profiles.md." for
 * `what` ("profile" or "layout"), the docs named only where found. */
static const char *pointer(cv_arena *a, const char *what, const char *docs)
{
    return docs ? cv_arena_printf(a, "# Every key is in man 5 cvpdf-%s, and in\n#   %s/%ss.md\n",
                                  what, docs, what)
                : cv_arena_printf(a, "# Every key is in man 5 cvpdf-%s.\n", what);
}

/* `s` as a YAML double-quoted scalar. */
static const char *quoted(cv_arena *a, const char *s)
{
    cv_strbuf b = {0};
    cv_strbuf_put(a, &b, "\"", 1);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            cv_strbuf_put(a, &b, "\\", 1);
        cv_strbuf_put(a, &b, s, 1);
    }
    cv_strbuf_put(a, &b, "\"", 1);
    return b.s;
}

static const char *schema_line(cv_arena *a, const char *schema)
{
    return schema ? cv_arena_printf(a, "# yaml-language-server: $schema=%s\n", schema) : "";
}

const char *cv_starter_profile(cv_arena *a, const char *name, const char *schema)
{
    const char *q = quoted(a, name);
    const char *head = cv_arena_printf(a,
        "%s"
        "# %s's résumé, in RenderCV's format: render it with\n"
        "#   cvpdf %s\n"
        "%s"
        "cv:\n"
        "  name: %s\n",
        schema_line(a, schema), name, sh_word(a, cv_starter_file_name(a, name)),
        pointer(a, "profile", docs_dir(a)), q);
    return cv_arena_printf(a, "%s%s", head, cv_arena_printf(a, profile_body, q));
}

const char *cv_starter_layout(cv_arena *a, const char *name, const char *base,
                              const char *schema)
{
    return cv_arena_printf(a,
                           "%s"
                           "# %s's layout: %s, with changes of your own.\n"
                           "%s"
                           "extends: %s\n"
                           "\n"
                           "%s",
                           schema_line(a, schema), name, base,
                           pointer(a, "layout", docs_dir(a)), base, layout_body);
}

/* Create `path` (never over a file) holding `text`.  Returns false after
 * saying why on `diag`, with nothing left at `path`. */
static bool create(const char *path, const char *text, FILE *diag)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        fprintf(diag, "cvpdf: error: cannot create '%s': %s\n", path,
                errno == EEXIST ? "it exists, and cvpdf new never writes over a file"
                                : strerror(errno));
        return false;
    }
    size_t n = strlen(text);
    for (size_t done = 0; done < n;) {
        ssize_t w = write(fd, text + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            fprintf(diag, "cvpdf: error: cannot write '%s': %s\n", path,
                    strerror(w < 0 ? errno : ENOSPC));
            close(fd);
            unlink(path);
            return false;
        }
        done += (size_t)w;
    }
    if (close(fd) != 0) {
        fprintf(diag, "cvpdf: error: cannot write '%s': %s\n", path, strerror(errno));
        unlink(path);
        return false;
    }
    return true;
}

static const char new_usage[] =
    "Usage: cvpdf new \"FULL NAME\" [--layout NAME]\n"
    "Write FULL_NAME_CV.yaml in the current directory: a profile in RenderCV's\n"
    "format with every entry type, each explained, that renders as it is.\n"
    "\n"
    "  -l, --layout NAME   also write FULL_NAME_layout.yaml, a layout of your\n"
    "                      own that extends the shipped layout NAME\n"
    "                      (cvpdf --list-layouts)\n"
    "  -h, --help          show this help\n"
    "\n"
    "An existing file is never written over.\n";

/* `dir` and the directories above it that are missing, 0777 less the
 * umask.  Returns false when one cannot be made. */
static bool make_dirs(cv_arena *a, const char *dir)
{
    char *d = cv_arena_strdup(a, dir);
    for (char *p = d + 1;; p++) {
        if (*p != '/' && *p)
            continue;
        char c = *p;
        *p = 0;
        struct stat st;
        bool ok = mkdir(d, 0777) == 0 || (errno == EEXIST && stat(d, &st) == 0 &&
                                          S_ISDIR(st.st_mode));
        *p = c;
        if (!ok)
            return false;
        if (!c)
            return true;
    }
}

/* The user's own copy of the schema `which`, which the modeline names so
 * that it keeps working when cvpdf is moved, reinstalled elsewhere or run
 * from another source tree: ${XDG_DATA_HOME:-$HOME/.local/share}/cvpdf/
 * schema/WHICH.json, written afresh from this binary's tables (schema.h)
 * at every cvpdf new, through a temporary file renamed into place.  NULL
 * when it cannot be written (no HOME, a read-only home). */
static const char *user_schema(cv_arena *a, const char *which)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    const char *base = xdg && xdg[0] == '/' ? xdg
                       : home && home[0] == '/' ? cv_arena_printf(a, "%s/.local/share", home)
                                                : NULL;
    if (!base)
        return NULL;
    const char *dir = cv_arena_printf(a, "%s/cvpdf/schema", base);
    const char *path = cv_arena_printf(a, "%s/%s.json", dir, which);
    const char *tmp = cv_arena_printf(a, "%s/.%s.json.%ld", dir, which, (long)getpid());
    if (!make_dirs(a, dir))
        return NULL;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
        return NULL;
    }
    bool ok = cv_schema_write(a, which, f);
    ok = !ferror(f) && fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return NULL;
    }
    return path;
}

/* The schema `which` as the modeline names it: the user's copy
 * (user_schema()), else the data directory's file; its absolute path, or a
 * file: URI when the path has a space or another byte a modeline cannot
 * hold as it is (the language server reads the value up to a space); NULL
 * when there is no such file. */
static const char *schema_path(cv_arena *a, const char *which)
{
    const char *p = user_schema(a, which);
    if (!p)
        p = cv_arena_printf(a, "%s/schema/%s.json", cv_datadir(a), which);
    char *real = realpath(p, NULL);
    if (!real)
        return NULL;
    const char *plain = "/-._~ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    cv_strbuf b = {0};
    if (real[strspn(real, plain)]) {
        cv_strbuf_put(a, &b, "file://", 7);
        for (const unsigned char *s = (const unsigned char *)real; *s; s++) {
            char hex[4];
            snprintf(hex, sizeof hex, "%%%02X", *s);
            if (strchr(plain, *s))
                cv_strbuf_put(a, &b, (const char *)s, 1);
            else
                cv_strbuf_put(a, &b, hex, 3);
        }
    } else {
        cv_strbuf_put(a, &b, real, strlen(real));
    }
    free(real);
    return b.s;
}

static int run_new(cv_arena *a, const char *name, const char *layout, FILE *out, FILE *diag)
{
    char shown[512];
    const char *file = cv_starter_file_name(a, name);
    const char *why = bad_text(name);
    if (!file) {
        fprintf(diag, "cvpdf new: '%s' cannot make a %s: %s%sgive a name without '/' or "
                "control characters, in UTF-8, of at most 200 bytes\n",
                cv_escape(name, shown, sizeof shown), why ? "profile that renders" : "file name",
                why ? why : "", why ? "; " : "");
        return 2;
    }
    const char *lfile = NULL;
    if (layout) {
        if (!cv_layout_is_name(layout) || bad_text(layout) ||
            access(cv_layout_shipped(a, layout), F_OK) != 0) {
            char said[1024];
            const char *msg = cv_layout_is_name(layout) && !bad_text(layout)
                                  ? cv_layout_missing(a, layout)
                                  : "give the name of a shipped layout (cvpdf --list-layouts)";
            fprintf(diag, "cvpdf new: --layout %s: %s\n", cv_escape(layout, shown, sizeof shown),
                    cv_escape(msg, said, sizeof said));
            return 2;
        }
        lfile = cv_arena_printf(a, "%.*s_layout.yaml", (int)(strlen(file) - 8), file);
    }
    /* Nothing is written when either file is there. */
    struct stat sb;
    const char *there = lstat(file, &sb) == 0 ? file
                      : lfile && lstat(lfile, &sb) == 0 ? lfile : NULL;
    if (there) {
        fprintf(diag, "cvpdf: error: '%s' exists; cvpdf new never writes over a file "
                "(move it away, or render it: cvpdf %s)\n", there, sh_word(a, there));
        return 1;
    }
    if (!create(file, cv_starter_profile(a, name, schema_path(a, "profile")), diag))
        return 1;
    if (lfile && !create(lfile, cv_starter_layout(a, name, layout, schema_path(a, "layout")),
                         diag)) {
        unlink(file);
        return 1;
    }
    /* The command to paste into a shell: each name one word (sh_word()). */
    if (lfile)
        fprintf(out, "Wrote %s and %s. Edit them, then render with:\n  cvpdf %s -l %s\n",
                file, lfile, sh_word(a, file), sh_word(a, lfile));
    else
        fprintf(out, "Wrote %s. Edit it, then render it with:\n  cvpdf %s\n", file,
                sh_word(a, file));
    return 0;
}

int cv_starter_main(int argc, char **argv, FILE *out, FILE *diag)
{
    static const struct option opts[] = {{"layout", required_argument, NULL, 'l'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *layout = NULL;
    optind = 0;
    opterr = 0;
    for (int c; (c = getopt_long(argc, argv, ":l:h", opts, NULL)) != -1;) {
        if (c == 'l')
            layout = optarg;
        else if (c == 'h') {
            fputs(new_usage, out);
            return 0;
        } else {
            /* An unknown letter among short options (`-dash`) is optopt;
             * argv[optind - 1] may still be the word before it. */
            char shown[512], letter[3] = {'-', (char)optopt, 0};
            const char *opt = c == '?' && optopt ? letter : argv[optind - 1];
            fprintf(diag, "cvpdf new: %s '%s'%s\nTry 'cvpdf new --help'.\n",
                    c == ':' ? "option needs a value:" : "unknown option",
                    cv_escape(opt, shown, sizeof shown),
                    c == '?' ? " (a name that starts with '-' goes after --: "
                               "cvpdf new -- -NAME)" : "");
            return 2;
        }
    }
    if (argc - optind != 1) {
        fprintf(diag, "cvpdf new: %s\n%s", argc - optind ? "give one name (quote a name with "
                "spaces: cvpdf new \"Meiling Zhou\")" : "no name given", new_usage);
        return 2;
    }
    cv_arena *a = cv_arena_new();
    int status = run_new(a, argv[optind], layout, out, diag);
    cv_arena_free(a);
    return status;
}
