/* errcheck.h - helpers shared by the loader tests: the error of the last
 * call lives in E, and errstr() shows it as "line:col: msg". */
#ifndef CV_ERRCHECK_H
#define CV_ERRCHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

static cv_error E;

static const char *errstr(void)
{
    static char out[sizeof E.msg + 32];     /* "line:col: " and the message */
    if (!E.set)
        return "(no error)";
    snprintf(out, sizeof out, "%d:%d: %s", E.pos.line, E.pos.col, E.msg);
    return out;
}

static bool has(const char *hay, const char *needle)
{
    return hay && strstr(hay, needle) != NULL;
}

/* Start E afresh, its messages going to a temporary file: what the sink
 * says is read back with said(). */
static FILE *said_to;

static inline void capture(void)
{
    cv_error_init(&E);
    said_to = tmpfile();
    E.out = said_to;
}

static inline const char *said(void)
{
    static char out[4096];
    size_t n = 0;
    if (said_to) {
        rewind(said_to);
        n = fread(out, 1, sizeof out - 1, said_to);
        fclose(said_to);
        said_to = NULL;
    }
    out[n] = '\0';
    return out;
}

#endif
