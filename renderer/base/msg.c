/* renderer/base/msg.c - shared renderer helpers (see msg.h). */
#include "renderer/base/msg.h"

#include <stdarg.h>
#include <stdio.h>

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
