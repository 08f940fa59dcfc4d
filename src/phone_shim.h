/* phone_shim.h - the C face of phone_shim.cc (libphonenumber is C++).
 * Private to phone.c. */
#ifndef CV_PHONE_SHIM_H
#define CV_PHONE_SHIM_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { CV_PHONE_NATIONAL, CV_PHONE_INTERNATIONAL, CV_PHONE_E164 };

/* Format `number` (any way a person writes it; "US" when it has no +
 * country code, as RenderCV assumes) into out[cap]; false when
 * libphonenumber cannot parse it or out is too small. */
bool cv_phone_shim_format(const char *number, int format, char *out, size_t cap);

/* 0 when `number` is a valid number written with its +country code (as
 * RenderCV's pydantic PhoneNumber wants it: no default region); 1 when it
 * cannot be parsed so; 2 when parsed but not a number that can exist. */
int cv_phone_shim_check(const char *number);

#ifdef __cplusplus
}
#endif

#endif
