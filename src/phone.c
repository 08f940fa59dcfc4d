/* phone.c - phone numbers in RenderCV's formats.  See phone.h. */
#include "phone.h"

#include <string.h>

#include "phone_shim.h"

const char *cv_phone_format(cv_arena *a, const char *number, const char *format)
{
    if (!number || !format)
        return number;
    int f = !strcmp(format, "national") ? CV_PHONE_NATIONAL
          : !strcmp(format, "international") ? CV_PHONE_INTERNATIONAL
          : !strcmp(format, "E164") ? CV_PHONE_E164 : -1;
    if (f < 0)
        return number;
    char out[128];
    if (!cv_phone_shim_format(number, f, out, sizeof out))
        return number;
    return cv_arena_strdup(a, out);
}

bool cv_phone_valid(const char *number, const char **why)
{
    int r = cv_phone_shim_check(number);
    *why = r == 1 ? "write it with its country code, like +1 609 555 0100"
                  : "no such number exists in that country's numbering plan";
    return r == 0;
}
