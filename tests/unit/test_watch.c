/* Unit tests for watch.c: a followed file written in place, saved by
 * rename, touched, reached through a symlink; other files of the same
 * directory ignored; a burst of events is one change; the timeout.  Files
 * go to a fresh temporary directory.  Events queue in the kernel, so each
 * change is made before cv_watch_wait() is called. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "watch.h"

static char dir[64];

static const char *at(const char *name)
{
    static char buf[8][256];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

TEST(watch_changes_by_name)
{
    cv_error err;
    cv_error_init(&err);
    spit(at("p.yaml"), "cv:\n");
    spit(at("other.yaml"), "x\n");
    mkdir(at("sub"), 0777);
    spit(at("sub/l.yaml"), "font: {}\n");
    cv_watch *w = cv_watch_new(&err);
    CHECK(w != NULL);
    if (!w)
        return;
    char p[256], l[256];
    snprintf(p, sizeof p, "%s", at("p.yaml"));
    snprintf(l, sizeof l, "%s", at("sub/l.yaml"));
    CHECK(cv_watch_add(w, p) && cv_watch_add(w, l) && cv_watch_add(w, p));
    CHECK(cv_watch_count(w) == 2);
    CHECK(!cv_watch_add(w, at("nowhere/x.yaml")));

    /* Nothing yet: the timeout. */
    double t0 = now();
    CHECK(cv_watch_wait(w, 50, 5) == NULL);
    CHECK(now() - t0 >= 0.04);
    /* Written in place. */
    spit(p, "cv:\n  name: A\n");
    CHECK_STR(cv_watch_wait(w, 2000, 5), p);
    /* Saved by rename, as most editors do. */
    spit(at(".p.yaml.swp"), "cv:\n  name: B\n");
    CHECK(rename(at(".p.yaml.swp"), p) == 0);
    CHECK_STR(cv_watch_wait(w, 2000, 5), p);
    /* Touched. */
    CHECK(utimensat(0, l, NULL, 0) == 0);
    CHECK_STR(cv_watch_wait(w, 2000, 5), l);
    /* Another file of the same directory is no change. */
    spit(at("other.yaml"), "y\n");
    CHECK(cv_watch_wait(w, 100, 5) == NULL);
    /* Deleted alone is no change either; written again, it is. */
    CHECK(unlink(p) == 0);
    CHECK(cv_watch_wait(w, 100, 5) == NULL);
    spit(p, "cv:\n");
    CHECK_STR(cv_watch_wait(w, 2000, 5), p);
    /* A burst of writes is one change. */
    for (int i = 0; i < 5; i++)
        spit(p, "cv:\n  name: C\n");
    CHECK_STR(cv_watch_wait(w, 2000, 20), p);
    CHECK(cv_watch_wait(w, 100, 5) == NULL);
    cv_watch_free(w);
}

TEST(watch_through_a_symlink)
{
    cv_error err;
    cv_error_init(&err);
    mkdir(at("real"), 0777);
    spit(at("real/photo.png"), "old");
    char link[256];
    snprintf(link, sizeof link, "%s", at("photo.png"));
    CHECK(symlink("real/photo.png", link) == 0);
    cv_watch *w = cv_watch_new(&err);
    if (!w)
        return;
    CHECK(cv_watch_add(w, link));
    CHECK(cv_watch_count(w) == 1);
    /* The target changes in its own directory: the link's path is said. */
    spit(at("real/photo.png"), "new");
    CHECK_STR(cv_watch_wait(w, 2000, 5), link);
    cv_watch_free(w);
}

int main(void)
{
    snprintf(dir, sizeof dir, "%s", "/tmp/cvpdf-watch-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    RUN(watch_changes_by_name);
    RUN(watch_through_a_symlink);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return harness_report("watch");
}
