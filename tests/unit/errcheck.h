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
    static char out[700];
    if (!E.set)
        return "(no error)";
    snprintf(out, sizeof out, "%d:%d: %s", E.pos.line, E.pos.col, E.msg);
    return out;
}

static bool has(const char *hay, const char *needle)
{
    return hay && strstr(hay, needle) != NULL;
}

#endif
