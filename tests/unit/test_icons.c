/* Unit tests for icons.c: Font Awesome names, as RenderCV's users write
 * them, to the code points of Fork Awesome's icons (Debian's
 * fonts-fork-awesome, found through fontconfig). */
#include "harness.h"

#include <string.h>

#include "fontset.h"
#include "icons.h"

static cv_fontset *fs;
static cv_error E;
static int fa = -1;

static uint32_t icon(const char *name)
{
    return cv_icon_lookup(fs, fa, name);
}

TEST(normalize)
{
    char out[32];
    cv_icon_normalize("calendar-days", out, sizeof out);
    CHECK_STR(out, "calendar-days");
    cv_icon_normalize("fa-graduation-cap", out, sizeof out);
    CHECK_STR(out, "graduation-cap");
    cv_icon_normalize("fa-solid fa-House ", out, sizeof out);
    CHECK_STR(out, "house");
    cv_icon_normalize("fas  fa-x-twitter", out, sizeof out);
    CHECK_STR(out, "x-twitter");
    cv_icon_normalize("a-very-long-name-indeed", out, 7);
    CHECK_STR(out, "a-very");
    cv_icon_normalize("", out, sizeof out);
    CHECK_STR(out, "");
}

TEST(fork_awesome_names)
{
    CHECK(fa >= 0);             /* fonts-fork-awesome (tests/deps.sh) */
    if (fa < 0)
        return;
    CHECK_NUM(icon("graduation-cap"), 0xF19D, 0);
    CHECK_NUM(icon("fa-graduation-cap"), 0xF19D, 0);
    CHECK_NUM(icon("github"), 0xF09B, 0);
    CHECK_NUM(icon("envelope"), 0xF0E0, 0);
    CHECK_NUM(icon("link"), 0xF0C1, 0);
}

TEST(font_awesome_6_renames)
{
    if (fa < 0)
        return;
    CHECK_NUM(icon("calendar-days"), 0xF073, 0);      /* 4.7: calendar */
    CHECK_NUM(icon("fa-solid fa-location-dot"), 0xF041, 0);   /* map-marker */
    CHECK_NUM(icon("house"), 0xF015, 0);              /* home */
    CHECK_NUM(icon("x-twitter"), 0xF099, 0);          /* twitter */
    CHECK_NUM(icon("magnifying-glass"), 0xF002, 0);   /* search */
}

TEST(unknown)
{
    CHECK(icon("no-such-icon") == 0);
    CHECK(icon("") == 0);
    CHECK(icon(NULL) == 0);
    CHECK(cv_icon_lookup(fs, -1, "github") == 0);
    CHECK(cv_icon_lookup(fs, 9999, "github") == 0);
}

int main(void)
{
    cv_error_init(&E);
    const char *dirs[] = {"fonts", NULL};
    fs = cv_fontset_new(dirs, &E);
    bool synth;
    cv_error quiet;
    cv_error_init(&quiet);
    quiet.quiet = true;
    fa = cv_fontset_find(fs, "forkawesome", false, false, &synth, (cv_pos){0}, &quiet);
    RUN(normalize);
    RUN(fork_awesome_names);
    RUN(font_awesome_6_renames);
    RUN(unknown);
    cv_fontset_free(fs);
    return harness_report("icons");
}
