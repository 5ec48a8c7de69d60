/* core/text.c - iconv-based conversions (see text.h). */
#include "core/text.h"

#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

struct mmd_text {
    iconv_t from_utf16, from_utf8, from_sjis, to_sjis;
};

static const iconv_t BAD_CD = (iconv_t)-1;

mmd_text *mmd_text_create(void)
{
    mmd_text *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->from_utf16 = t->from_utf8 = t->from_sjis = t->to_sjis = BAD_CD;
    return t;
}

void mmd_text_destroy(mmd_text *t)
{
    if (!t)
        return;
    iconv_t *cds[] = {&t->from_utf16, &t->from_utf8, &t->from_sjis, &t->to_sjis};
    for (size_t i = 0; i < sizeof cds / sizeof cds[0]; i++)
        if (*cds[i] != BAD_CD)
            iconv_close(*cds[i]);
    free(t);
}

static iconv_t get_cd(iconv_t *slot, const char *to, const char *from)
{
    if (*slot == BAD_CD)
        *slot = iconv_open(to, from);
    else
        iconv(*slot, NULL, NULL, NULL, NULL); /* reset shift state */
    return *slot;
}

/* Convert with iconv; on an invalid sequence emit U+FFFD and skip `unit`
 * bytes; on an incomplete trailing sequence stop (drop it). */
static char *convert(iconv_t cd, mmd_arena *a, const uint8_t *s, size_t n, size_t unit, unsigned *bad)
{
    if (cd == BAD_CD)
        return NULL;
    /* UTF-8 output is at most 3 bytes per input byte for these encodings
     * (UTF-16: 2 bytes -> <=3, or 4 -> 4; SJIS: 1 -> <=3; FFFD is 3). */
    size_t cap = n * 3 + 4;
    char *out = mmd_arena_alloc(a, cap + 1);
    if (!out)
        return NULL;
    char *in = (char *)s;
    size_t inleft = n, outleft = cap;
    char *op = out;
    while (inleft > 0) {
        size_t rc = iconv(cd, &in, &inleft, &op, &outleft);
        if (rc != (size_t)-1)
            break;
        if (errno == EILSEQ) {
            if (outleft < 3)
                break;
            memcpy(op, "\xEF\xBF\xBD", 3);
            op += 3;
            outleft -= 3;
            size_t k = unit < inleft ? unit : inleft;
            in += k;
            inleft -= k;
            if (bad)
                (*bad)++;
            continue;
        }
        if (errno == EINVAL) { /* incomplete at the end: cut name */
            break;
        }
        break; /* E2BIG cannot happen with cap above */
    }
    *op = 0;
    return out;
}

char *mmd_text_utf16le(mmd_text *t, mmd_arena *a, const uint8_t *s, size_t n, unsigned *bad)
{
    n &= ~(size_t)1;
    return convert(get_cd(&t->from_utf16, "UTF-8", "UTF-16LE"), a, s, n, 2, bad);
}

char *mmd_text_utf8(mmd_text *t, mmd_arena *a, const uint8_t *s, size_t n, unsigned *bad)
{
    /* fast path: plain ASCII needs no conversion */
    size_t i = 0;
    while (i < n && s[i] && s[i] < 0x80)
        i++;
    if (i == n)
        return mmd_arena_strndup(a, (const char *)s, n);
    return convert(get_cd(&t->from_utf8, "UTF-8", "UTF-8"), a, s, n, 1, bad);
}

size_t mmd_text_fixed_len(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i])
        i++;
    return i;
}

char *mmd_text_sjis(mmd_text *t, mmd_arena *a, const uint8_t *s, size_t n, unsigned *bad)
{
    n = mmd_text_fixed_len(s, n);
    size_t i = 0;
    while (i < n && s[i] < 0x80)
        i++;
    if (i == n)
        return mmd_arena_strndup(a, (const char *)s, n);
    return convert(get_cd(&t->from_sjis, "UTF-8", "CP932"), a, s, n, 1, bad);
}

/* UTF-8 to CP932 into tmp (512 bytes); *missing counts characters with no
 * CP932 form (written as '?'), *cut is set when tmp was too small. */
static size_t to_sjis(mmd_text *t, const char *utf8, uint8_t tmp[512], unsigned *missing, bool *cut)
{
    iconv_t cd = get_cd(&t->to_sjis, "CP932", "UTF-8");
    size_t n = strlen(utf8);
    *missing = 0;
    *cut = false;
    if (cd == BAD_CD) {
        size_t k = n < 512 ? n : 512;
        memcpy(tmp, utf8, k);
        *cut = n > 512;
        return k;
    }
    char *in = (char *)utf8;
    size_t inleft = n;
    char *op = (char *)tmp;
    size_t outleft = 512;
    while (inleft > 0 && outleft > 0) {
        size_t rc = iconv(cd, &in, &inleft, &op, &outleft);
        if (rc != (size_t)-1)
            break;
        if (errno == EILSEQ) { /* no CP932 form: one '?' per UTF-8 character */
            ++*missing;
            *op++ = '?';
            outleft--;
            in++;
            inleft--;
            while (inleft > 0 && ((unsigned char)*in & 0xC0) == 0x80) {
                in++;
                inleft--;
            }
            continue;
        }
        break;
    }
    *cut = inleft > 0;
    return (size_t)(op - (char *)tmp);
}

size_t mmd_text_to_sjis(mmd_text *t, const char *utf8, uint8_t *out, size_t cap)
{
    /* Convert fully into a scratch buffer, then cut at cap bytes (MMD cuts
     * the byte string, possibly inside a double-byte character). */
    uint8_t tmp[512];
    unsigned missing;
    bool cut;
    size_t got = to_sjis(t, utf8, tmp, &missing, &cut);
    size_t k = got < cap ? got : cap;
    memcpy(out, tmp, k);
    return k;
}

bool mmd_text_to_sjis_exact(mmd_text *t, const char *utf8, char *out, size_t cap)
{
    uint8_t tmp[512];
    unsigned missing;
    bool cut;
    size_t got = to_sjis(t, utf8, tmp, &missing, &cut);
    if (missing || cut || got >= cap || get_cd(&t->to_sjis, "CP932", "UTF-8") == BAD_CD)
        return false;
    memcpy(out, tmp, got);
    out[got] = 0;
    return true;
}
