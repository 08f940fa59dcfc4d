// woff2_shim.cc - a font as WOFF2 through Debian's libwoff2 (C++), for
// html.c's embedded faces (woff2_shim.h): built as the module
// cvpdf-woff2.so, opened by woff2.c when first needed.
#include "woff2_shim.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <fcntl.h>
#include <unistd.h>

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
        /* libwoff2 says "Compressed N to M." on the standard error: not
         * cvpdf's to say, so it goes to /dev/null. */
        std::fflush(stderr);
        std::cerr.flush();
        int saved = dup(2), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (saved >= 0 && null >= 0)
            dup2(null, 2);
        bool ok = woff2::ConvertTTFToWOFF2(ttf, n, buf, &len, params);
        std::fflush(stderr);
        std::cerr.flush();
        if (saved >= 0 && null >= 0)
            dup2(saved, 2);
        if (saved >= 0)
            close(saved);
        if (null >= 0)
            close(null);
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
