// woff2_shim.cc - a font as WOFF2 through Debian's libwoff2 (C++), for
// html.c's embedded faces (woff2_shim.h): built as the module
// cvpdf-woff2.so, opened by woff2.c when first needed.
#include "woff2_shim.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

/* libwoff2 says "Compressed N to M." on the standard error: not cvpdf's
 * to say, so descriptor 2 points at /dev/null while any conversion runs.
 * html.c converts faces on several threads at once: the first to start
 * points it away, the last to finish points it back (one thread's
 * restoring must not undo another's silence, nor leave /dev/null for
 * good). */
static pthread_mutex_t quiet_lock = PTHREAD_MUTEX_INITIALIZER;
static int quiet_users, quiet_saved = -1;

static void quiet_begin()
{
    pthread_mutex_lock(&quiet_lock);
    if (quiet_users++ == 0) {
        std::fflush(stderr);
        std::cerr.flush();
        int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
        quiet_saved = null >= 0 ? fcntl(2, F_DUPFD_CLOEXEC, 0) : -1;
        if (quiet_saved >= 0)
            dup2(null, 2);
        if (null >= 0)
            close(null);
    }
    pthread_mutex_unlock(&quiet_lock);
}

static void quiet_end()
{
    pthread_mutex_lock(&quiet_lock);
    if (--quiet_users == 0) {
        std::fflush(stderr);
        std::cerr.flush();
        if (quiet_saved >= 0) {
            dup2(quiet_saved, 2);
            close(quiet_saved);
        }
        quiet_saved = -1;
    }
    pthread_mutex_unlock(&quiet_lock);
}

#include <woff2/encode.h>

extern "C" bool cv_woff2_shim_encode(const unsigned char *ttf, size_t n, int quality,
                                     unsigned char **out, size_t *outlen)
{
    *out = nullptr;
    *outlen = 0;
    try {
        size_t cap = woff2::MaxWOFF2CompressedSize(ttf, n);
        /* Zeroed: libwoff2 leaves its padding bytes unwritten, and a page
         * must be the same bytes at every run (valgrind saw them). */
        unsigned char *buf = static_cast<unsigned char *>(std::calloc(cap, 1));
        if (!buf)
            return false;
        woff2::WOFF2Params params;
        params.brotli_quality = quality;
        size_t len = cap;
        quiet_begin();
        bool ok;
        try {
            ok = woff2::ConvertTTFToWOFF2(ttf, n, buf, &len, params);
        } catch (...) {
            ok = false;
        }
        quiet_end();
        if (!ok) {
            std::free(buf);
            return false;
        }
        *out = buf;
        *outlen = len;
        return true;
    } catch (...) {
        return false;
    }
}
