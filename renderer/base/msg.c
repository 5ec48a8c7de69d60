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
