/* gen_ucd.c - write build/ucd_table.h: the Unicode facts src/unicode.c
 * answers with (tools/ucd_icu.h), asked of ICU for every code point when
 * cvpdf is built, so that cvpdf itself need not load ICU to answer them.
 *
 *   build/gen_ucd > build/ucd_table.h
 *
 * The table has two stages: for each block of 256 code points, the index
 * of its row; a row holds each code point's index into the words.  Equal
 * rows are kept once (most blocks are one word throughout).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uversion.h>

#include "ucd_icu.h"

#define NCP 0x110000
#define NBLOCK (NCP / 256)

int main(void)
{
    static uint32_t words[4096];
    static uint16_t index[NCP];
    size_t nwords = 0;
    for (uint32_t cp = 0; cp < NCP; cp++) {
        uint32_t w = cv_ucd_icu(cp);
        size_t k = 0;
        while (k < nwords && words[k] != w)
            k++;
        if (k == nwords) {
            if (nwords == sizeof words / sizeof *words) {
                fprintf(stderr, "gen_ucd: more than %zu different words\n", nwords);
                return 1;
            }
            words[nwords++] = w;
        }
        index[cp] = (uint16_t)k;
    }
    static uint16_t block_row[NBLOCK];
    static uint32_t row_start[NBLOCK];     /* the first block with each row */
    size_t nrows = 0;
    for (uint32_t b = 0; b < NBLOCK; b++) {
        size_t r = 0;
        while (r < nrows && memcmp(index + row_start[r], index + b * 256, 256 * sizeof *index))
            r++;
        if (r == nrows)
            row_start[nrows++] = b * 256;
        block_row[b] = (uint16_t)r;
    }
    bool narrow = nwords <= 256;
    UVersionInfo v;
    char icu[U_MAX_VERSION_STRING_LENGTH], uni[U_MAX_VERSION_STRING_LENGTH];
    u_getVersion(v);
    u_versionToString(v, icu);
    u_getUnicodeVersion(v);
    u_versionToString(v, uni);
    printf("/* ucd_table.h - made by tools/gen_ucd.c from ICU %s (Unicode %s) when\n"
           " * cvpdf was built: do not edit.  %zu words, %zu rows of 256. */\n", icu, uni,
           nwords, nrows);
    printf("#define CV_UCD_ICU_VERSION \"%s\"\n", icu);
    /* The word's layout (ucd_icu.h), for src/unicode.c. */
    static const struct { const char *name; unsigned v; } bits[] = {
        {"OF_SHIFT", CV_UCD_OF_SHIFT}, {"RESOLVE_SHIFT", CV_UCD_RESOLVE_SHIFT},
        {"RTL", CV_UCD_RTL}, {"WIDE", CV_UCD_WIDE}, {"IDEO", CV_UCD_IDEO}, {"CJK", CV_UCD_CJK},
        {"IN_SHIFT", CV_UCD_IN_SHIFT}, {"LATIN", CV_UCD_LATIN}, {"LETTER", CV_UCD_LETTER},
        {"UPPER", CV_UCD_UPPER}, {"LOWER", CV_UCD_LOWER}, {"WORD", CV_UCD_WORD},
        {"PUNCT", CV_UCD_PUNCT}, {"SPACE", CV_UCD_SPACE}};
    for (size_t i = 0; i < sizeof bits / sizeof *bits; i++)
        printf("#define CV_UCD_%s 0x%Xu\n", bits[i].name, bits[i].v);
    printf("static const uint32_t cv_ucd_words[%zu] = {", nwords);
    for (size_t k = 0; k < nwords; k++)
        printf("%s0x%08Xu,", k % 6 ? " " : "\n    ", (unsigned)words[k]);
    printf("\n};\n");
    printf("static const uint16_t cv_ucd_block[%d] = {", NBLOCK);
    for (uint32_t b = 0; b < NBLOCK; b++)
        printf("%s%u,", b % 16 ? " " : "\n    ", (unsigned)block_row[b]);
    printf("\n};\n");
    printf("static const %s cv_ucd_row[%zu][256] = {\n", narrow ? "uint8_t" : "uint16_t", nrows);
    for (size_t r = 0; r < nrows; r++) {
        printf("    {");
        for (int i = 0; i < 256; i++)
            printf("%s%u,", i % 32 ? "" : "\n     ", (unsigned)index[row_start[r] + i]);
        printf("},\n");
    }
    printf("};\n");
    return ferror(stdout) ? 1 : 0;
}
