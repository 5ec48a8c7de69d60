/* core/status.c - status strings and error formatting. */
#include "core/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

MMD_STATUS_LIST(MMD_X_STATUS_GUARD)

const char *mmd_status_str(mmd_status s)
{
    static const char *const names[] = {
#define MMD_X_STR(id, str, cls) str,
        MMD_STATUS_LIST(MMD_X_STR)
#undef MMD_X_STR
    };
    if ((unsigned)s >= MMD_STATUS_COUNT)
        return "unknown status";
    return names[s];
}

mmd_status_class mmd_status_class_of(mmd_status s)
{
    static const unsigned char classes[] = {
#define MMD_X_CLASS(id, str, cls) cls,
        MMD_STATUS_LIST(MMD_X_CLASS)
#undef MMD_X_CLASS
    };
    return (unsigned)s < MMD_STATUS_COUNT ? (mmd_status_class)classes[s] : MMD_CLASS_INPUT;
}

mmd_status mmd_error_set(mmd_error *err, mmd_status status, const char *section,
                         int64_t item, int64_t offset, const char *fmt, ...)
{
    if (!err)
        return status;
    err->status = status;
    err->section = section;
    err->item = item;
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return status;
}

mmd_status mmd_fail(mmd_error *err, mmd_status status, const char *fmt, ...)
{
    if (!err)
        return status;
    err->status = status;
    err->section = NULL;
    err->item = -1;
    err->offset = -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return status;
}

void mmd_error_format(const mmd_error *err, const char *file, char *buf, size_t size)
{
    if (!size)
        return;
    buf[0] = 0;
    if (!err)
        return;
    size_t n = 0;
#define APPEND(...)                                                       \
    do {                                                                  \
        if (n < size) {                                                   \
            int k_ = snprintf(buf + n, size - n, __VA_ARGS__);            \
            if (k_ > 0)                                                   \
                n += (size_t)k_;                                          \
        }                                                                 \
    } while (0)
    if (file)
        APPEND("%s: ", file);
    if (err->offset >= 0)
        APPEND("offset 0x%llx, ", (unsigned long long)err->offset);
    if (err->section) {
        APPEND("%s", err->section);
        if (err->item >= 0)
            APPEND(" #%lld", (long long)err->item);
        APPEND(": ");
    }
    APPEND("%s", err->msg[0] ? err->msg : mmd_status_str(err->status));
#undef APPEND
}

void mmd_warn(mmd_warning_list *w, unsigned *total, const char *section, int64_t item, int64_t offset,
              const char *what)
{
    if (total)
        (*total)++;
    if (!w)
        return;
    section = section ? section : "";
    what = what ? what : "";
    for (uint32_t i = 0; i < w->kind_count; i++) {
        mmd_warning *k = &w->kinds[i];
        if (!strcmp(k->section, section) && !strcmp(k->what, what)) {
            k->count++;
            return;
        }
    }
    if (w->kind_count >= MMD_MAX_WARNING_KINDS) {
        w->more++;
        return;
    }
    mmd_warning *k = &w->kinds[w->kind_count++];
    k->section = section;
    k->what = what;
    k->item = item;
    k->offset = offset;
    k->count = 1;
}

void mmd_warning_format(const mmd_warning *w, char *buf, size_t size)
{
    mmd_error e;
    memset(&e, 0, sizeof e);
    e.offset = w->offset;
    e.section = w->section && w->section[0] ? w->section : NULL;
    e.item = w->item;
    if (w->count > 1)
        snprintf(e.msg, sizeof e.msg, "%s (and %u more)", w->what, w->count - 1);
    else
        snprintf(e.msg, sizeof e.msg, "%s", w->what);
    mmd_error_format(&e, NULL, buf, size);
}
