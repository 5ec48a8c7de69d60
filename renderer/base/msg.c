/* renderer/base/msg.c - shared renderer helpers (see msg.h). */
#include "renderer/base/msg.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* The bytes of a control character at p (n bytes left): 1 for C0 and DEL, 2
 * for a UTF-8 encoded C1 (U+0080..U+009F, which terminals also obey), 0 for
 * anything else. *v is the byte \xNN shows. */
static size_t control_at(const unsigned char *p, size_t n, unsigned *v)
{
    if (p[0] < 0x20 || p[0] == 0x7f) {
        *v = p[0];
        return 1;
    }
    if (n >= 2 && p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
        *v = p[1];
        return 2;
    }
    return 0;
}

const char *mmd_printable(const char *s, char *buf, size_t n)
{
    if (!buf || !n)
        return "";
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t left = strlen((const char *)p);
    while (*p && o + 1 < n) {
        unsigned v;
        size_t c = control_at(p, left, &v);
        if (c) {
            if (o + 5 > n)
                break;
            snprintf(buf + o, n - o, "\\x%02x", v);
            o += 4;
        } else {
            buf[o++] = (char)*p;
            c = 1;
        }
        p += c;
        left -= c;
    }
    buf[o] = 0;
    return buf;
}

/* One conversion spec of mmd_msg_vprint: "%" flags width .precision length conv. */
typedef struct spec {
    char text[32]; /* the spec with '*' kept (passed to fprintf with the star values) */
    int stars, star[2];
    char len[3], conv;
} spec;

/* Parse the spec at *fmt (just past '%'); false on an unknown or too long one. */
static bool parse_spec(const char **fmt, spec *sp, va_list *ap)
{
    const char *p = *fmt;
    size_t n = 0;
    sp->text[n++] = '%';
    sp->stars = 0;
    memset(sp->len, 0, sizeof sp->len);
    while (*p && strchr("-+ #0123456789.*", *p) && n < sizeof sp->text - 4) {
        if (*p == '*') {
            if (sp->stars == 2)
                return false;
            sp->star[sp->stars++] = va_arg(*ap, int);
        }
        sp->text[n++] = *p++;
    }
    for (size_t k = 0; *p && strchr("hljztL", *p) && k < 2; k++) {
        sp->len[k] = *p;
        sp->text[n++] = *p++;
    }
    if (!*p || !strchr("diouxXcsfFeEgGaAp%", *p))
        return false;
    sp->conv = *p;
    sp->text[n++] = *p++;
    sp->text[n] = 0;
    *fmt = p;
    return true;
}

/* fprintf of one non-%s spec, pulling its argument by type. */
static int print_one(FILE *f, const spec *sp, va_list *ap)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#define PRINT(v) (sp->stars == 2   ? fprintf(f, sp->text, sp->star[0], sp->star[1], v) \
                  : sp->stars == 1 ? fprintf(f, sp->text, sp->star[0], v)              \
                                   : fprintf(f, sp->text, v))
    bool l = sp->len[0] == 'l' && !sp->len[1], ll = sp->len[0] == 'l' && sp->len[1] == 'l';
    char z = sp->len[0];
    int rc;
    switch (sp->conv) {
    case '%': rc = fputc('%', f) == EOF ? -1 : 1; break;
    case 'c': rc = PRINT(va_arg(*ap, int)); break;
    case 'p': rc = PRINT(va_arg(*ap, void *)); break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
        rc = z == 'L' ? PRINT(va_arg(*ap, long double)) : PRINT(va_arg(*ap, double));
        break;
    case 'd': case 'i':
        rc = ll ? PRINT(va_arg(*ap, long long)) : l ? PRINT(va_arg(*ap, long)) : z == 'z' ? PRINT(va_arg(*ap, ssize_t))
             : z == 'j' ? PRINT(va_arg(*ap, intmax_t)) : z == 't' ? PRINT(va_arg(*ap, ptrdiff_t))
                        : PRINT(va_arg(*ap, int));
        break;
    default: /* o u x X */
        rc = ll ? PRINT(va_arg(*ap, unsigned long long)) : l ? PRINT(va_arg(*ap, unsigned long))
             : z == 'z' ? PRINT(va_arg(*ap, size_t)) : z == 'j' ? PRINT(va_arg(*ap, uintmax_t))
             : z == 't' ? PRINT(va_arg(*ap, ptrdiff_t)) : PRINT(va_arg(*ap, unsigned));
        break;
    }
#undef PRINT
#pragma GCC diagnostic pop
    return rc;
}

/* Bytes s[0..n) take once escaped; with f, also written. */
static size_t put_escaped(FILE *f, const unsigned char *s, size_t n)
{
    size_t shown = 0;
    for (size_t i = 0; i < n;) {
        unsigned v;
        size_t c = control_at(s + i, n - i, &v);
        if (c && f)
            fprintf(f, "\\x%02x", v);
        else if (f)
            fputc(s[i], f);
        shown += c ? 4 : 1;
        i += c ? c : 1;
    }
    return shown;
}

/* %s: the argument (up to the precision) made printable, padded to the width as printf would. */
static int print_str(FILE *f, const spec *sp, va_list *ap)
{
    const char *s = va_arg(*ap, const char *);
    s = s ? s : "(null)";
    int width = 0, prec = -1, si = 0;
    bool left = false;
    const char *p = sp->text + 1;
    for (; *p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '0'; p++)
        left |= *p == '-';
    if (*p == '*')
        width = sp->star[si++], p++;
    else
        for (; *p >= '0' && *p <= '9'; p++)
            width = width * 10 + (*p - '0');
    if (width < 0)
        left = true, width = -width;
    if (*p == '.') {
        p++;
        if (*p == '*')
            prec = sp->star[si++];
        else
            for (prec = 0; *p >= '0' && *p <= '9'; p++)
                prec = prec * 10 + (*p - '0');
    }
    size_t n = prec >= 0 ? strnlen(s, (size_t)prec) : strlen(s);
    size_t shown = put_escaped(NULL, (const unsigned char *)s, n);
    size_t pad = (size_t)width > shown ? (size_t)width - shown : 0;
    for (size_t i = 0; !left && i < pad; i++)
        fputc(' ', f);
    put_escaped(f, (const unsigned char *)s, n);
    for (size_t i = 0; left && i < pad; i++)
        fputc(' ', f);
    return ferror(f) ? -1 : (int)(shown + pad);
}

/* The conversions of mmd_msg_vprint, written to f piece by piece. */
static int print_to(FILE *f, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int total = 0;
    while (*fmt && total >= 0) {
        const char *pct = strchr(fmt, '%');
        size_t lit = pct ? (size_t)(pct - fmt) : strlen(fmt);
        if (lit && fwrite(fmt, 1, lit, f) != lit)
            total = -1;
        else
            total += (int)lit;
        if (!pct || total < 0)
            break;
        fmt = pct + 1;
        spec sp;
        if (!parse_spec(&fmt, &sp, &aq)) {
            total = -1;
            break;
        }
        int rc = sp.conv == 's' ? print_str(f, &sp, &aq) : print_one(f, &sp, &aq);
        total = rc < 0 ? -1 : total + rc;
    }
    va_end(aq);
    return total;
}

/* Built in memory and written with one fwrite, so a line is not split
 * among other threads' or processes' output on an unbuffered stderr. */
int mmd_msg_vprint(FILE *f, const char *fmt, va_list ap)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return print_to(f, fmt, ap);
    int rc = print_to(m, fmt, ap);
    if (fclose(m) != 0)
        rc = -1;
    if (rc >= 0 && fwrite(buf, 1, len, f) != len)
        rc = -1;
    free(buf);
    return rc < 0 ? -1 : (int)len;
}

int mmd_msg_print(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = mmd_msg_vprint(f, fmt, ap);
    va_end(ap);
    return rc;
}

void mmd_warnf(mmd_warn_fn fn, void *ctx, const char *fmt, ...)
{
    if (!fn)
        return;
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fn(ctx, line);
}

void mmd_warn_repairs(mmd_warn_fn fn, void *ctx, const char *file, const mmd_warning_list *list)
{
    char line[512];
    for (uint32_t i = 0; fn && i < list->kind_count; i++) {
        mmd_warning_format(&list->kinds[i], line, sizeof line);
        mmd_warnf(fn, ctx, "%s: %s", file, line);
    }
    if (list->more)
        mmd_warnf(fn, ctx, "%s: %u more repairs of other kinds", file, list->more);
}

typedef struct prefixed {
    FILE *f;
    const char *prefix;
} prefixed;

static void print_prefixed(void *ctx, const char *sentence)
{
    const prefixed *p = ctx;
    mmd_msg_print(p->f, "%swarning: %s\n", p->prefix ? p->prefix : "", sentence);
}

void mmd_msg_warnings(FILE *f, const char *prefix, const char *file, const mmd_warning_list *list)
{
    prefixed p = {f, prefix};
    mmd_warn_repairs(print_prefixed, &p, file, list);
}
