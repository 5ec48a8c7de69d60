/* renderer/base/msg.c - shared renderer helpers (see msg.h). */
#include "renderer/base/msg.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

const char *mmd_printable(const char *s, char *buf, size_t n)
{
    if (!buf || !n)
        return "";
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p && o + 1 < n; p++) {
        unsigned c = *p;
        bool c1 = c == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
        if (c < 0x20 || c == 0x7f || c1) {
            unsigned v = c1 ? p[1] : c;
            if (o + 5 > n)
                break;
            snprintf(buf + o, n - o, "\\x%02x", v);
            o += 4;
            p += c1;
        } else {
            buf[o++] = (char)c;
        }
    }
    buf[o] = 0;
    return buf;
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

int mmd_msgf(char *msg, size_t n, int ret, const char *fmt, ...)
{
    if (msg && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, n, fmt, ap);
        va_end(ap);
    }
    return ret;
}

void mmd_msg_warnings(FILE *f, const char *prefix, const char *file, const mmd_warning_list *list)
{
    char line[512];
    for (uint32_t i = 0; i < list->kind_count; i++) {
        mmd_warning_format(&list->kinds[i], line, sizeof line);
        fprintf(f, "%swarning: %s: %s\n", prefix ? prefix : "", file, line);
    }
    if (list->more)
        fprintf(f, "%swarning: %s: %u more repairs of other kinds\n", prefix ? prefix : "", file, list->more);
}
