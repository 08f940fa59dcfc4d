/* error.c - positioned diagnostics.  See error.h. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *stream(void *out)
{
    return out ? (FILE *)out : stderr;
}

/* s with every control character escaped, so that no file name, key or
 * value can forge a second diagnostic line or reach the terminal as an
 * escape sequence: C0 controls as \n, \t, \r, \e or \xNN, DEL as \x7F,
 * C1 controls (U+0080-U+009F) as \u0080.  Truncated to fit. */
const char *cv_escape(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && n + 8 < size; p++) {
        unsigned c = *p;
        if (c == '\n')
            n += (size_t)snprintf(out + n, size - n, "\\n");
        else if (c == '\t')
            n += (size_t)snprintf(out + n, size - n, "\\t");
        else if (c == '\r')
            n += (size_t)snprintf(out + n, size - n, "\\r");
        else if (c == 0x1B)
            n += (size_t)snprintf(out + n, size - n, "\\e");
        else if (c < 0x20 || c == 0x7F)
            n += (size_t)snprintf(out + n, size - n, "\\x%02X", c);
        /* U+0080-U+009F are C2 80-C2 9F in UTF-8.  error sits below
         * unicode.h (the arena reports through it), so it reads these
         * two bytes itself. */
        else if (c == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0)
            n += (size_t)snprintf(out + n, size - n, "\\u%04X", (unsigned)*++p);
        else
            out[n++] = (char)c;
    }
    out[n < size ? n : size - 1] = 0;
    return out;
}


/* One diagnostic line: `where: level: msg`, written whole in one call, so
 * that lines of processes sharing the stream never mix. */
static void say(void *out, cv_pos pos, const char *level, const char *msg)
{
    char where[600], a[1300], b[2100], line[3500];
    cv_pos_str(pos, where, sizeof where);
    snprintf(line, sizeof line, "%s: %s: %s\n", cv_escape(where, a, sizeof a), level,
             cv_escape(msg, b, sizeof b));
    fputs(line, stream(out));
}

void cv_diag_say(const cv_diag *d, cv_pos pos, const char *level, const char *fmt, ...)
{
    if (d && d->quiet && strcmp(level, "error") != 0)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    say(d ? d->out : NULL, pos, level, msg);
}

void cv_error_init(cv_error *err)
{
    memset(err, 0, sizeof *err);
}

void cv_error_init_silent(cv_error *err)
{
    cv_error_init(err);
    err->quiet = true;
}

void cv_error_init_for(cv_error *err, const cv_diag *d)
{
    cv_error_init(err);
    if (d) {
        err->quiet = d->quiet;
        err->strict = d->strict;
        err->out = d->out;
    }
}

static void vnote(void *out, cv_pos pos, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    say(out, pos, "note", msg);
}

void cv_note(const cv_error *err, cv_pos pos, const char *fmt, ...)
{
    if (!err || err->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vnote(err->out, pos, fmt, ap);
    va_end(ap);
}

void cv_diag_note(const cv_diag *d, cv_pos pos, const char *fmt, ...)
{
    if (!d || d->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vnote(d->out, pos, fmt, ap);
    va_end(ap);
}

void cv_oom(size_t bytes)
{
    fprintf(stderr, "cvpdf: out of memory (%zu bytes)\n", bytes);
    abort();
}

const char *cv_pos_str(cv_pos pos, char *buf, int size)
{
    const char *file = pos.file ? pos.file : "cvpdf";
    if (pos.line > 0)
        snprintf(buf, (size_t)size, "%s:%d:%d", file, pos.line, pos.col > 0 ? pos.col : 1);
    else
        snprintf(buf, (size_t)size, "%s", file);
    return buf;
}

bool cv_error_at(cv_error *err, cv_pos pos, const char *fmt, ...)
{
    /* First error wins, except over a strict warning already printed. */
    if (!err || (err->set && !err->printed))
        return false;
    err->set = true;
    err->printed = false;
    err->pos = pos;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return false;
}

void cv_warn(cv_error *err, cv_pos pos, const char *fmt, ...)
{
    /* No diagnostics object: a measuring pass, whose text is set again
     * with one (and warned about there, with its position). */
    if (!err)
        return;
    err->nwarnings++;
    if (err->quiet && !err->strict)
        return;
    char msg[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    say(err->out, pos, err->strict ? "error" : "warning", msg);
    if (err->strict && !err->set) {
        err->set = true;
        err->printed = true;
        err->pos = pos;
        memcpy(err->msg, msg, sizeof err->msg);
    }
}


void cv_error_print(const cv_error *err)
{
    if (err->set && err->printed)
        return;
    say(err->out, err->pos, "error", err->set ? err->msg : "unknown error");
}
