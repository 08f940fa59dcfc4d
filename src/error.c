/* error.c - positioned diagnostics.  See error.h. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cv_error_init(cv_error *err)
{
    memset(err, 0, sizeof *err);
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
    char where[600], msg[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s: %s\n", cv_pos_str(pos, where, sizeof where),
            err->strict ? "error" : "warning", msg);
    if (err->strict && !err->set) {
        err->set = true;
        err->printed = true;
        err->pos = pos;
        memcpy(err->msg, msg, sizeof err->msg);
    }
}

void cv_note(const cv_error *err, cv_pos pos, const char *msg)
{
    if (err && err->quiet)
        return;
    char where[600];
    fprintf(stderr, "%s: note: %s\n", cv_pos_str(pos, where, sizeof where), msg);
}

void cv_error_print(const cv_error *err)
{
    if (err->set && err->printed)
        return;
    char where[600];
    fprintf(stderr, "%s: error: %s\n", cv_pos_str(err->pos, where, sizeof where),
            err->set ? err->msg : "unknown error");
}
