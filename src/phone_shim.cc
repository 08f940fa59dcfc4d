// phone_shim.cc - libphonenumber behind a C function (phone_shim.h).
// No exception or C++ object crosses into C.
#include "phone_shim.h"

#include <cstring>
#include <string>

#include <phonenumbers/phonenumberutil.h>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

extern "C" bool cv_phone_shim_format(const char *number, int format, char *out, size_t cap)
{
    try {
        const PhoneNumberUtil *u = PhoneNumberUtil::GetInstance();
        PhoneNumber n;
        if (u->Parse(number, "US", &n) != PhoneNumberUtil::NO_PARSING_ERROR)
            return false;
        PhoneNumberUtil::PhoneNumberFormat f =
            format == CV_PHONE_NATIONAL        ? PhoneNumberUtil::NATIONAL
            : format == CV_PHONE_INTERNATIONAL ? PhoneNumberUtil::INTERNATIONAL
                                               : PhoneNumberUtil::E164;
        std::string s;
        u->Format(n, f, &s);
        if (s.size() + 1 > cap)
            return false;
        std::memcpy(out, s.c_str(), s.size() + 1);
        return true;
    } catch (...) {
        return false;
    }
}

extern "C" int cv_phone_shim_check(const char *number)
{
    try {
        const PhoneNumberUtil *u = PhoneNumberUtil::GetInstance();
        PhoneNumber n;
        if (u->Parse(number, "ZZ", &n) != PhoneNumberUtil::NO_PARSING_ERROR)
            return 1;
        return u->IsValidNumber(n) ? 0 : 2;
    } catch (...) {
        return 1;
    }
}
