/* Unit tests for pdf_pack.c: a classic PDF made here, its offsets counted,
 * packed into object streams and a cross-reference stream, which are read
 * back (zlib, the PNG Up predictor undone): every object where the stream
 * says, strings holding "endobj" and "stream" whole, a stream and an
 * object of generation 1 byte for byte, the same bytes twice; bad files
 * (every prefix, every byte changed, offsets that lie, an update) refused
 * without a crash; an encrypted file copied as it is. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "pdf_pack.h"

typedef struct {
    char s[8192];
    size_t n;
} pdfbuf;

static void add(pdfbuf *b, const char *t)
{
    size_t k = strlen(t);
    memcpy(b->s + b->n, t, k);
    b->n += k;
}

/* Objects 1..7 with object 6 free and object 7 of generation 1; `trailer`
 * added to the trailer's entries; `lie` moves object 3's offset. */
static size_t classic(pdfbuf *b, const char *trailer, long lie)
{
    static const char *objs[] = {
        NULL,
        "1 0 obj\n<<\n/Type /Catalog\n/Pages 2 0 R\n>>\nendobj\n",
        "2 0 obj\n<<\n/Type /Pages\n/Kids [ 4 0 R ]\n/Count 1\n>>\nendobj\n",
        "3 0 obj\n<<\n/Title (a title that says endobj and stream \\) and \\(\\) \\\\)\n"
        "/Note <656E646F626A>\n/stream /endobj % a comment: endobj\n>>\nendobj\n",
        "4 0 obj\n<<\n/Type /Page\n/Parent 2 0 R\n/MediaBox [ 0 0 100 100 ]\n"
        "/Contents 5 0 R\n>>\nendobj\n",
        "5 0 obj\n<<\n/Length 23\n>>\nstream\r\nendobj endstream 0 0 m\nendstream\nendobj\n",
        NULL,
        "7 1 obj\n[ 1 2 3 ]\nendobj\n",
    };
    size_t off[8] = {0};
    b->n = 0;
    add(b, "%PDF-1.7\n%\xB7\xBE\xAD\xAA\n");
    for (int k = 1; k < 8; k++)
        if (objs[k]) {
            off[k] = b->n;
            add(b, objs[k]);
        }
    size_t x = b->n;
    char line[512];
    add(b, "xref\r\n0 8\r\n0000000006 65535 f\r\n");
    for (int k = 1; k < 8; k++) {
        snprintf(line, sizeof line, "%010lu %05d %c\r\n",
                 k == 3 ? (unsigned long)(off[k] + lie) : (unsigned long)off[k],
                 k == 7 ? 1 : k == 6 ? 1 : 0, objs[k] ? 'n' : 'f');
        add(b, line);
    }
    snprintf(line, sizeof line, "trailer\r\n<<\n/Root 1 0 R\n/Info 3 0 R\n/Size 8\n%s>>\n"
             "startxref\n%lu\n%%%%EOF\n", trailer, (unsigned long)x);
    add(b, line);
    return b->n;
}

/* A Flate stream's data: `dict` is the dictionary's text in `pdf`.
 * malloc'd, *n its length. */
static unsigned char *inflated(const char *pdf, size_t len, const char *dict, size_t *n)
{
    const char *d = memmem(pdf, len, dict, strlen(dict));
    if (!d)
        return NULL;
    const char *L = strstr(d, "/Length ");
    const char *st = memmem(d, len - (size_t)(d - pdf), ">>\nstream\n", 10);
    if (!L || !st)
        return NULL;
    uLongf cap = 1 << 16;
    unsigned char *o = malloc(cap);
    if (uncompress(o, &cap, (const unsigned char *)st + 10, strtoul(L + 8, NULL, 10)) != Z_OK) {
        free(o);
        return NULL;
    }
    *n = cap;
    return o;
}

static unsigned long be(const unsigned char *p, int w)
{
    unsigned long v = 0;
    for (int k = 0; k < w; k++)
        v = v << 8 | p[k];
    return v;
}

TEST(packs_and_reads_back)
{
    pdfbuf b;
    size_t n = classic(&b, "/ID [ <0123456789ABCDEF0123456789ABCDEF> "
                       "<0123456789ABCDEF0123456789ABCDEF> ]\n", 0);
    cv_error err;
    cv_error_init(&err);
    char *out = NULL, *again = NULL;
    size_t m = 0, m2 = 0;
    CHECK(cv_pdf_pack(b.s, n, &out, &m, "t.pdf", &err));
    CHECK(cv_pdf_pack(b.s, n, &again, &m2, "t.pdf", &err));
    CHECK(out && again && m == m2 && !memcmp(out, again, m));
    free(again);
    if (!out)
        return;
    CHECK(m > 9 && !memcmp(out, "%PDF-1.7\n%\xB7\xBE\xAD\xAA\n", 15));
    CHECK(!memmem(out, m, "trailer", 7) && !memmem(out, m, "\nxref", 5));
    /* The stream and the object of generation 1, as they were. */
    const char *s5 = strstr(b.s, "5 0 obj"), *s7 = strstr(b.s, "7 1 obj");
    CHECK(memmem(out, m, s5, (size_t)(strstr(s5, "endobj\n") + 6 - s5)));
    CHECK(memmem(out, m, s7, (size_t)(strstr(s7, "endobj\n") + 6 - s7)));
    /* The trailer's entries in the cross-reference stream. */
    CHECK(memmem(out, m, "/Root 1 0 R/Info 3 0 R/ID[<0123456789ABCDEF0123456789ABCDEF>"
                 "<0123456789ABCDEF0123456789ABCDEF>]", 85));
    CHECK(memmem(out, m, "/Size 10/W[1 2 1]/Index[0 10]", 29));
    CHECK(memmem(out, m, "/DecodeParms<</Columns 4/Predictor 12>>", 39));

    /* The object stream: 1 to 4, their whitespace reduced. */
    size_t on = 0;
    unsigned char *os = inflated(out, m, "8 0 obj\n<</Type/ObjStm/N 4/First ", &on);
    CHECK(os != NULL);
    if (os) {
        char *t = malloc(on + 1);
        memcpy(t, os, on);
        t[on] = 0;
        unsigned num[4];
        unsigned long at[4];
        CHECK(sscanf(t, "%u %lu %u %lu %u %lu %u %lu", &num[0], &at[0], &num[1], &at[1],
                     &num[2], &at[2], &num[3], &at[3]) == 8);
        CHECK(num[0] == 1 && num[1] == 2 && num[2] == 3 && num[3] == 4);
        const char *first = strstr(out, "/First ");
        unsigned long f0 = first ? strtoul(first + 7, NULL, 10) : 0;
        CHECK(f0 && f0 + at[3] < on);
        if (f0 && f0 + at[3] < on) {
            CHECK(!strncmp(t + f0 + at[0], "<</Type/Catalog/Pages 2 0 R>>\n", 30));
            CHECK(!strncmp(t + f0 + at[2], "<</Title(a title that says endobj and stream "
                           "\\) and \\(\\) \\\\)/Note<656E646F626A>/stream/endobj>>\n", 90));
            CHECK(!strncmp(t + f0 + at[3], "<</Type/Page/Parent 2 0 R/MediaBox[0 0 100 100]"
                           "/Contents 5 0 R>>\n", 66));
        }
        free(t);
        free(os);
    }

    /* The cross-reference stream, predictor undone: every entry. */
    size_t xn = 0;
    unsigned char *xs = inflated(out, m, "9 0 obj\n<</Type/XRef", &xn);
    CHECK(xs && xn == 10 * 5);
    if (xs && xn == 50) {
        unsigned char row[4] = {0};
        for (int k = 0; k < 10; k++) {
            CHECK(xs[k * 5] == 2);
            for (int c = 0; c < 4; c++)
                row[c] = (unsigned char)(row[c] + xs[k * 5 + 1 + c]);
            unsigned long a = be(row + 1, 2), c3 = row[3];
            char head[32];
            snprintf(head, sizeof head, "%d %lu obj", k, k == 7 ? 1UL : 0UL);
            if (k == 0 || k == 6)
                CHECK(row[0] == 0);
            else if (k <= 4)
                CHECK(row[0] == 2 && a == 8 && c3 == (unsigned long)k - 1);
            else
                CHECK(row[0] == 1 && a < m && !strncmp(out + a, head, strlen(head)) &&
                      c3 == (k == 7 ? 1UL : 0UL));
        }
        /* The cross-reference stream's offset is startxref's. */
        const char *sx = memmem(out, m, "startxref\n", 10);
        CHECK(sx && strtoul(sx + 10, NULL, 10) == (unsigned long)((const char *)
              memmem(out, m, "9 0 obj", 7) - out));
    }
    free(xs);
    free(out);
}

TEST(refuses_bad_files)
{
    pdfbuf b;
    size_t n = classic(&b, "", 0);
    cv_error err;
    char *out;
    size_t m;
    /* Every prefix that cuts more than the end of file marker. */
    int packed = 0;
    size_t eof = (size_t)(strstr(b.s, "%%EOF") - b.s) - 1;
    for (size_t k = 0; k < eof; k++) {
        cv_error_init_silent(&err);
        bool ok = cv_pdf_pack(b.s, k, &out, &m, "t.pdf", &err);
        packed += ok;
        CHECK(ok || (err.set && strstr(err.msg, "cannot pack the PDF: ")));
        free(out);
    }
    CHECK(packed == 0);
    /* Every byte changed: refused or packed, never a crash (ASan). */
    static const char subst[] = {'X', '9', '(', '<', '>', ')', '/', '%', ' ', 0};
    for (size_t k = 0; k < n; k++)
        for (size_t c = 0; c < sizeof subst; c++) {
            char keep = b.s[k];
            b.s[k] = subst[c];
            cv_error_init_silent(&err);
            if (cv_pdf_pack(b.s, n, &out, &m, "t.pdf", &err))
                CHECK(m > 0 && !memcmp(out, "%PDF-1.7", 8));
            free(out);
            b.s[k] = keep;
        }
    /* An offset that does not hold its object. */
    n = classic(&b, "", 3);
    cv_error_init_silent(&err);
    CHECK(!cv_pdf_pack(b.s, n, &out, &m, "t.pdf", &err) && !out);
    CHECK(err.set && strstr(err.msg, "does not hold its object") && !strcmp(err.pos.file, "t.pdf"));
    /* An updated file. */
    n = classic(&b, "/Prev 9\n", 0);
    cv_error_init_silent(&err);
    CHECK(!cv_pdf_pack(b.s, n, &out, &m, "t.pdf", &err));
    CHECK(err.set && strstr(err.msg, "an updated file"));
}

TEST(copies_an_encrypted_file)
{
    pdfbuf b;
    size_t n = classic(&b, "/Encrypt 7 1 R\n", 0);
    cv_error err;
    cv_error_init(&err);
    char *out = NULL;
    size_t m = 0;
    CHECK(cv_pdf_pack(b.s, n, &out, &m, "t.pdf", &err));
    CHECK(out && m == n && !memcmp(out, b.s, n));
    free(out);
}

int main(void)
{
    RUN(packs_and_reads_back);
    RUN(refuses_bad_files);
    RUN(copies_an_encrypted_file);
    return harness_report("pdf_pack");
}
