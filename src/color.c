/* color.c - colours as RenderCV takes them (color.h).
 *
 * Written from the CSS Color specification's grammar and named colours,
 * with pydantic's leniencies: surrounding spaces, any case, hex without
 * `#`, decimal channels, rounding half to even. */
#include "color.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The CSS named colours (CSS Color Level 4), sorted for bsearch. */
static const struct named {
    const char *name;
    unsigned rgb;
} names[] = {
    {"aliceblue", 0xf0f8ff}, {"antiquewhite", 0xfaebd7}, {"aqua", 0x00ffff},
    {"aquamarine", 0x7fffd4}, {"azure", 0xf0ffff}, {"beige", 0xf5f5dc},
    {"bisque", 0xffe4c4}, {"black", 0x000000}, {"blanchedalmond", 0xffebcd},
    {"blue", 0x0000ff}, {"blueviolet", 0x8a2be2}, {"brown", 0xa52a2a},
    {"burlywood", 0xdeb887}, {"cadetblue", 0x5f9ea0}, {"chartreuse", 0x7fff00},
    {"chocolate", 0xd2691e}, {"coral", 0xff7f50}, {"cornflowerblue", 0x6495ed},
    {"cornsilk", 0xfff8dc}, {"crimson", 0xdc143c}, {"cyan", 0x00ffff},
    {"darkblue", 0x00008b}, {"darkcyan", 0x008b8b}, {"darkgoldenrod", 0xb8860b},
    {"darkgray", 0xa9a9a9}, {"darkgreen", 0x006400}, {"darkgrey", 0xa9a9a9},
    {"darkkhaki", 0xbdb76b}, {"darkmagenta", 0x8b008b}, {"darkolivegreen", 0x556b2f},
    {"darkorange", 0xff8c00}, {"darkorchid", 0x9932cc}, {"darkred", 0x8b0000},
    {"darksalmon", 0xe9967a}, {"darkseagreen", 0x8fbc8f}, {"darkslateblue", 0x483d8b},
    {"darkslategray", 0x2f4f4f}, {"darkslategrey", 0x2f4f4f}, {"darkturquoise", 0x00ced1},
    {"darkviolet", 0x9400d3}, {"deeppink", 0xff1493}, {"deepskyblue", 0x00bfff},
    {"dimgray", 0x696969}, {"dimgrey", 0x696969}, {"dodgerblue", 0x1e90ff},
    {"firebrick", 0xb22222}, {"floralwhite", 0xfffaf0}, {"forestgreen", 0x228b22},
    {"fuchsia", 0xff00ff}, {"gainsboro", 0xdcdcdc}, {"ghostwhite", 0xf8f8ff},
    {"gold", 0xffd700}, {"goldenrod", 0xdaa520}, {"gray", 0x808080},
    {"green", 0x008000}, {"greenyellow", 0xadff2f}, {"grey", 0x808080},
    {"honeydew", 0xf0fff0}, {"hotpink", 0xff69b4}, {"indianred", 0xcd5c5c},
    {"indigo", 0x4b0082}, {"ivory", 0xfffff0}, {"khaki", 0xf0e68c},
    {"lavender", 0xe6e6fa}, {"lavenderblush", 0xfff0f5}, {"lawngreen", 0x7cfc00},
    {"lemonchiffon", 0xfffacd}, {"lightblue", 0xadd8e6}, {"lightcoral", 0xf08080},
    {"lightcyan", 0xe0ffff}, {"lightgoldenrodyellow", 0xfafad2}, {"lightgray", 0xd3d3d3},
    {"lightgreen", 0x90ee90}, {"lightgrey", 0xd3d3d3}, {"lightpink", 0xffb6c1},
    {"lightsalmon", 0xffa07a}, {"lightseagreen", 0x20b2aa}, {"lightskyblue", 0x87cefa},
    {"lightslategray", 0x778899}, {"lightslategrey", 0x778899}, {"lightsteelblue", 0xb0c4de},
    {"lightyellow", 0xffffe0}, {"lime", 0x00ff00}, {"limegreen", 0x32cd32},
    {"linen", 0xfaf0e6}, {"magenta", 0xff00ff}, {"maroon", 0x800000},
    {"mediumaquamarine", 0x66cdaa}, {"mediumblue", 0x0000cd}, {"mediumorchid", 0xba55d3},
    {"mediumpurple", 0x9370db}, {"mediumseagreen", 0x3cb371}, {"mediumslateblue", 0x7b68ee},
    {"mediumspringgreen", 0x00fa9a}, {"mediumturquoise", 0x48d1cc},
    {"mediumvioletred", 0xc71585}, {"midnightblue", 0x191970}, {"mintcream", 0xf5fffa},
    {"mistyrose", 0xffe4e1}, {"moccasin", 0xffe4b5}, {"navajowhite", 0xffdead},
    {"navy", 0x000080}, {"oldlace", 0xfdf5e6}, {"olive", 0x808000},
    {"olivedrab", 0x6b8e23}, {"orange", 0xffa500}, {"orangered", 0xff4500},
    {"orchid", 0xda70d6}, {"palegoldenrod", 0xeee8aa}, {"palegreen", 0x98fb98},
    {"paleturquoise", 0xafeeee}, {"palevioletred", 0xdb7093}, {"papayawhip", 0xffefd5},
    {"peachpuff", 0xffdab9}, {"peru", 0xcd853f}, {"pink", 0xffc0cb},
    {"plum", 0xdda0dd}, {"powderblue", 0xb0e0e6}, {"purple", 0x800080},
    {"rebeccapurple", 0x663399}, {"red", 0xff0000}, {"rosybrown", 0xbc8f8f},
    {"royalblue", 0x4169e1}, {"saddlebrown", 0x8b4513}, {"salmon", 0xfa8072},
    {"sandybrown", 0xf4a460}, {"seagreen", 0x2e8b57}, {"seashell", 0xfff5ee},
    {"sienna", 0xa0522d}, {"silver", 0xc0c0c0}, {"skyblue", 0x87ceeb},
    {"slateblue", 0x6a5acd}, {"slategray", 0x708090}, {"slategrey", 0x708090},
    {"snow", 0xfffafa}, {"springgreen", 0x00ff7f}, {"steelblue", 0x4682b4},
    {"tan", 0xd2b48c}, {"teal", 0x008080}, {"thistle", 0xd8bfd8},
    {"tomato", 0xff6347}, {"turquoise", 0x40e0d0}, {"violet", 0xee82ee},
    {"wheat", 0xf5deb3}, {"white", 0xffffff}, {"whitesmoke", 0xf5f5f5},
    {"yellow", 0xffff00}, {"yellowgreen", 0x9acd32},
};

static int by_name(const void *k, const void *e)
{
    return strcasecmp(k, ((const struct named *)e)->name);
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A channel 0..1 as a byte, rounded half to even (as Python's round). */
static unsigned byte(double x)
{
    double v = nearbyint(x * 255);
    return v < 0 ? 0 : v > 255 ? 255 : (unsigned)v;
}

/* rgb (0..1 each) with alpha over white. */
static unsigned pack(double r, double g, double b, double alpha)
{
    r = r * alpha + (1 - alpha);
    g = g * alpha + (1 - alpha);
    b = b * alpha + (1 - alpha);
    return byte(r) << 16 | byte(g) << 8 | byte(b);
}

static const char *skip(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* A number, with an optional unit among `units` (NULL-terminated); *unit
 * gets its index + 1, or 0 without one. */
static const char *number(const char *p, double *v, const char *const *units, int *unit)
{
    char *end;
    p = skip(p);
    if (!isdigit((unsigned char)*p) && *p != '.' && *p != '-' && *p != '+')
        return NULL;
    *v = strtod(p, &end);
    if (end == p)
        return NULL;
    *unit = 0;
    for (int i = 0; units && units[i]; i++)
        if (!strncasecmp(end, units[i], strlen(units[i]))) {
            *unit = i + 1;
            end += strlen(units[i]);
            break;
        }
    return end;
}

/* alpha: 0..1 or a percentage. */
static bool alpha_of(double v, int unit, double *a)
{
    *a = unit ? v / 100 : v;
    return *a >= 0 && *a <= 1;
}

static double hue_part(double m1, double m2, double h)
{
    h -= floor(h);
    if (h < 1.0 / 6)
        return m1 + (m2 - m1) * h * 6;
    if (h < 0.5)
        return m2;
    if (h < 2.0 / 3)
        return m1 + (m2 - m1) * (2.0 / 3 - h) * 6;
    return m1;
}

/* rgb(...) / hsl(...): the arguments after "(": three values and an
 * optional alpha, separated by commas or (CSS 4) by spaces with "/". */
static bool functional(const char *p, bool hsl, unsigned *out)
{
    static const char *const pct[] = {"%", NULL};
    static const char *const angles[] = {"deg", "rad", "grad", "turn", NULL};
    double v[4] = {0, 0, 0, 1};
    int unit[4] = {0};
    bool commas = false;
    int n = 0;
    for (; n < 4; n++) {
        if (n) {
            const char *q = skip(p);
            if (*q == ')')
                break;
            if (n == 1)
                commas = *q == ',';
            if (n < 3) {
                if (commas != (*q == ','))
                    return false;
                p = commas ? q + 1 : p;
                if (!commas && q == p)
                    return false;       /* no space between */
            } else {
                if (*q != (commas ? ',' : '/'))
                    return false;
                p = q + 1;
            }
        }
        p = number(p, &v[n], n == 0 && hsl ? angles : pct, &unit[n]);
        if (!p)
            return false;
    }
    p = skip(p);
    if (n < 3 || *p != ')' || *skip(p + 1))
        return false;
    double a = 1;
    if (n == 4 && !alpha_of(v[3], unit[3], &a))
        return false;
    if (!hsl) {
        double c[3];
        for (int i = 0; i < 3; i++) {
            c[i] = unit[i] ? v[i] / 100 : v[i] / 255;
            if (c[i] < 0 || c[i] > 1)
                return false;
        }
        *out = pack(c[0], c[1], c[2], a);
        return true;
    }
    /* hsl: the hue in degrees (or rad, grad, turn), s and l percentages. */
    if (!unit[1] || !unit[2])
        return false;
    double h = unit[0] == 2 ? v[0] * 180 / M_PI : unit[0] == 3 ? v[0] * 0.9
               : unit[0] == 4 ? v[0] * 360 : v[0];
    h = fmod(h, 360) / 360;
    if (h < 0)
        h += 1;
    double s = v[1] / 100, l = v[2] / 100;
    if (s < 0 || s > 1 || l < 0 || l > 1)
        return false;
    if (s == 0) {
        *out = pack(l, l, l, a);
        return true;
    }
    double m2 = l <= 0.5 ? l * (1 + s) : l + s - l * s, m1 = 2 * l - m2;
    *out = pack(hue_part(m1, m2, h + 1.0 / 3), hue_part(m1, m2, h), hue_part(m1, m2, h - 1.0 / 3),
                a);
    return true;
}

const char *cv_color_name_at(size_t i)
{
    return i < sizeof names / sizeof *names ? names[i].name : NULL;
}

bool cv_color_parse(const char *s, unsigned *out)
{
    char buf[64];
    s = skip(s);
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (!n || n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    const struct named *c = bsearch(buf, names, sizeof names / sizeof *names, sizeof *names,
                                    by_name);
    if (c) {
        *out = c->rgb;
        return true;
    }
    /* Hex: #rgb, #rgba, #rrggbb, #rrggbbaa, with or without # (or 0x). */
    const char *h = buf;
    if (*h == '#')
        h++;
    else if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X'))
        h += 2;
    size_t hn = strlen(h);
    bool hex = hn == 3 || hn == 4 || hn == 6 || hn == 8;
    for (size_t i = 0; hex && i < hn; i++)
        hex = hexval((unsigned char)h[i]) >= 0;
    if (hex) {
        unsigned ch[4] = {0, 0, 0, 255};
        size_t w = hn <= 4 ? 1 : 2;
        for (size_t i = 0; i < hn / w; i++)
            ch[i] = w == 1 ? (unsigned)hexval((unsigned char)h[i]) * 17
                           : (unsigned)(hexval((unsigned char)h[2 * i]) * 16 +
                                        hexval((unsigned char)h[2 * i + 1]));
        if (ch[3] == 255) {
            *out = ch[0] << 16 | ch[1] << 8 | ch[2];
            return true;
        }
        *out = pack(ch[0] / 255.0, ch[1] / 255.0, ch[2] / 255.0, ch[3] / 255.0);
        return true;
    }
    static const char *const fns[] = {"rgba(", "rgb(", "hsla(", "hsl("};
    for (int i = 0; i < 4; i++)
        if (!strncasecmp(buf, fns[i], strlen(fns[i])))
            return functional(buf + strlen(fns[i]), i >= 2, out);
    return false;
}
