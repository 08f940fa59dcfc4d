/* Unit tests for cff.c: the charset of CID-keyed and name-keyed CFF
 * programs, in each charset format, and damaged tables refused. */
#include "harness.h"

#include <stdint.h>
#include <string.h>

#include "cff.h"

/* A CFF program of three glyphs: header, Name INDEX ("A"), a Top DICT
 * (ROS when `cid`, charset at 42, CharStrings at 32), empty String and
 * Global Subr INDEXes, three endchar CharStrings, then the charset. */
static size_t make(unsigned char *out, bool cid, const unsigned char *charset, size_t clen)
{
    static const unsigned char head[] = {1, 0, 4, 1, 0, 1, 1, 1, 2, 'A'};
    static const unsigned char dict_cid[] = {0x8b, 0x8b, 0x8b, 12, 30, 28, 0, 42, 15, 28, 0, 32, 17};
    static const unsigned char dict_name[] = {0x8b, 0x8b, 0x8b, 0x8b, 0x8b, 28, 0, 42, 15, 28, 0, 32, 17};
    static const unsigned char tail[] = {0, 0, 0, 0, 0, 3, 1, 1, 2, 3, 4, 14, 14, 14};
    size_t n = 0;
    memcpy(out + n, head, sizeof head), n += sizeof head;
    static const unsigned char topi[] = {0, 1, 1, 1, 14};
    memcpy(out + n, topi, sizeof topi), n += sizeof topi;
    memcpy(out + n, cid ? dict_cid : dict_name, 13), n += 13;
    memcpy(out + n, tail, sizeof tail), n += sizeof tail;
    memcpy(out + n, charset, clen), n += clen;
    return n;
}

TEST(cid_keyed_charset_formats)
{
    unsigned char b[128];
    uint16_t cid[3];
    bool keyed = false;
    static const unsigned char f0[] = {0, 0x12, 0x34, 0x00, 0x07};
    size_t n = make(b, true, f0, sizeof f0);
    CHECK(n == 47);
    CHECK(cv_cff_cids(b, n, 3, cid, &keyed) && keyed);
    CHECK(cid[0] == 0 && cid[1] == 0x1234 && cid[2] == 7);
    static const unsigned char f1[] = {1, 0x01, 0x00, 1};          /* 256, 257 */
    n = make(b, true, f1, sizeof f1);
    CHECK(cv_cff_cids(b, n, 3, cid, NULL) && cid[1] == 256 && cid[2] == 257);
    static const unsigned char f2[] = {2, 0xE0, 0x00, 0, 5};       /* 57344, ... */
    n = make(b, true, f2, sizeof f2);
    CHECK(cv_cff_cids(b, n, 3, cid, NULL) && cid[1] == 57344 && cid[2] == 57345);
}

TEST(name_keyed_cids_are_glyph_ids)
{
    unsigned char b[128];
    uint16_t cid[3] = {9, 9, 9};
    bool keyed = true;
    static const unsigned char f0[] = {0, 0, 5, 0, 6};
    size_t n = make(b, false, f0, sizeof f0);
    CHECK(cv_cff_cids(b, n, 3, cid, &keyed) && !keyed);
    CHECK(cid[0] == 0 && cid[1] == 1 && cid[2] == 2);
}

TEST(damage_is_refused)
{
    unsigned char b[128];
    uint16_t cid[3];
    static const unsigned char f0[] = {0, 0x12, 0x34, 0x00, 0x07};
    size_t n = make(b, true, f0, sizeof f0);
    CHECK(!cv_cff_cids(b, n, 4, cid, NULL));        /* not the glyph count */
    for (size_t cut = 0; cut < n; cut++)            /* every truncation */
        CHECK(!cv_cff_cids(b, cut, 3, cid, NULL));
    static const unsigned char f7[] = {7, 0, 1, 0, 2};
    n = make(b, true, f7, sizeof f7);
    CHECK(!cv_cff_cids(b, n, 3, cid, NULL));        /* no charset format 7 */
    n = make(b, true, f0, sizeof f0);
    b[0] = 2;                                       /* CFF2 is not CFF */
    CHECK(!cv_cff_cids(b, n, 3, cid, NULL));
    CHECK(!cv_cff_cids(NULL, 0, 3, cid, NULL));
}

int main(void)
{
    RUN(cid_keyed_charset_formats);
    RUN(name_keyed_cids_are_glyph_ids);
    RUN(damage_is_refused);
    return harness_report("cff");
}
