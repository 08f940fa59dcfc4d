/* jsonresume.c - a JSON Resume as a RenderCV profile.  See jsonresume.h. */
#include "jsonresume.h"

#include <string.h>

bool cv_jsonresume_is(const cv_yml *root)
{
    (void)root;
    return false;
}

const cv_yml *cv_jsonresume_translate(cv_arena *a, const cv_yml *root, cv_error *err)
{
    (void)a;
    (void)err;
    return root;
}
