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
    if (!err || err->set)
        return false;
    err->set = true;
    err->pos = pos;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return false;
}

void cv_warn(cv_error *err, cv_pos pos, const char *fmt, ...)
{
    if (err)
        err->nwarnings++;
    if (err && err->quiet)
        return;
    char where[600], msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: warning: %s\n", cv_pos_str(pos, where, sizeof where), msg);
}

void cv_error_print(const cv_error *err)
{
    char where[600];
    fprintf(stderr, "%s: error: %s\n", cv_pos_str(err->pos, where, sizeof where),
            err->set ? err->msg : "unknown error");
}
