/* phone.h - phone numbers shown as RenderCV's phone_number_format says.
 *
 * RenderCV shows `cv.phone` in one of three formats (design: header:
 * connections: phone_number_format): national ("(555) 123-4567"),
 * international ("+1 555-123-4567") or E164 ("+15551234567").  The number
 * is parsed and formatted by libphonenumber (through a C++ shim,
 * phone_shim.cc, built as the module cvpdf-phone.so and opened when first
 * needed); a number it cannot parse is shown as written, and so is every
 * number when the module cannot be found.  Checking a number needs the
 * module: without it every number is refused, with cv_phone_missing()'s
 * reason (what to install), so that whether a profile is valid does not
 * depend on the install.
 */
#ifndef CV_PHONE_H
#define CV_PHONE_H

#include <stdbool.h>

#include "arena.h"

/* `number` in `format` ("national", "international", "E164"; NULL: as
 * written), in the arena; `number` itself when it cannot be parsed. */
const char *cv_phone_format(cv_arena *a, const char *number, const char *format);

/* Is `number` a phone number as RenderCV accepts it: with its +country
 * code and valid for that country (libphonenumber's IsValidNumber)?  When
 * not, *why is a reason for the message.  False when the module is not
 * there (nothing to check with): *why is then cv_phone_missing()'s. */
bool cv_phone_valid(const char *number, const char **why);

/* Whether the module is there (found and opened on the first call). */
bool cv_phone_available(void);

/* NULL when the module is there; else why not, naming what to install:
 * the module's path that cannot be opened and the reason (libphonenumber
 * missing: the Debian package libphonenumber8), or where it was looked
 * for. */
const char *cv_phone_missing(void);

#endif
