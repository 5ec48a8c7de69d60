/* renderer/base/parse.c - whole-string numbers (see parse.h). */
#include "renderer/base/parse.h"

#include <errno.h>
#include <stdlib.h>

static bool only_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return !*p;
}

bool mmd_parse_long(const char *s, long lo, long hi, long *out)
{
    if (!s)
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || errno == ERANGE || !only_blanks(end) || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool mmd_parse_int(const char *s, int lo, int hi, int *out)
{
    long v;
    if (!mmd_parse_long(s, lo, hi, &v))
        return false;
    *out = (int)v;
    return true;
}

bool mmd_parse_double(const char *s, double lo, double hi, double *out)
{
    if (!s)
        return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    /* !(lo <= v <= hi) also refuses NaN; infinities fail the range */
    if (end == s || errno == ERANGE || !only_blanks(end) || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

int64_t mmd_gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}
