/* pdf_pack.h - the final file: a classic PDF, as libharu writes it,
 * rewritten as PDF 1.7 with object streams and a cross-reference stream
 * (ISO 32000-1 §7.5.7, §7.5.8).  For every output but PDF/A-1, which
 * forbids both.
 */
#ifndef CV_PDF_PACK_H
#define CV_PDF_PACK_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* Pack a finished PDF (`n` bytes at `in`: a classic cross-reference
 * table and trailer, no incremental update).  Every object keeps its
 * number and generation; each object that may go in an object stream
 * (not a stream, generation 0, not the encryption dictionary) goes in
 * one, Flate compressed, its whitespace reduced to what separates
 * tokens; streams are copied byte for byte; the trailer's entries (/Root,
 * /Info, /ID...) move to the cross-reference stream.  An encrypted file
 * is copied unchanged (its strings are encrypted per object).  The same
 * input gives the same bytes.  Sets *out (malloc'd) and *outn; returns
 * false with err set when the input is not a PDF of that shape (`path`
 * names the file). */
bool cv_pdf_pack(const char *in, size_t n, char **out, size_t *outn, const char *path,
                 cv_error *err);

#endif
