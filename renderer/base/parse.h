/* renderer/base/parse.h - whole-string numbers for command-line options and scene keys.
 *
 *   mmd_parse_long(s, lo, hi, &v)     decimal integer in [lo, hi]
 *   mmd_parse_int(s, lo, hi, &v)      the same into an int
 *   mmd_parse_double(s, lo, hi, &v)   finite decimal (strtod syntax) in [lo, hi]
 *   mmd_gcd64(a, b)                   greatest common divisor (reducing a frame rate's fraction)
 *
 * The whole string must be the number: leading blanks (as strtol/strtod) and
 * trailing blanks or tabs are allowed, anything else, an empty string, an
 * overflow or a value out of range gives false and leaves *out untouched.
 */
#ifndef MMD_RENDERER_PARSE_H
#define MMD_RENDERER_PARSE_H

#include <stdbool.h>
#include <stdint.h>

bool mmd_parse_long(const char *s, long lo, long hi, long *out);
bool mmd_parse_int(const char *s, int lo, int hi, int *out);
bool mmd_parse_double(const char *s, double lo, double hi, double *out);
/* gcd of a and b (>= 0; gcd(a, 0) = a). */
int64_t mmd_gcd64(int64_t a, int64_t b);

#endif
