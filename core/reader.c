/* core/reader.c - bounded reader (see reader.h). */
#include "core/reader.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void mmd_reader_init(mmd_reader *r, const void *data, size_t len, mmd_error *err)
{
    memset(r, 0, sizeof *r);
    r->base = data;
    r->len = data ? len : 0;
    r->err = err ? err : &r->own;
    memset(r->err, 0, sizeof *r->err);
    r->err->status = MMD_OK;
    r->err->offset = -1;
    r->err->item = -1;
    r->item = -1;
}

static void vfail(mmd_reader *r, size_t off, mmd_status st, const char *fmt, va_list ap)
{
    if (r->err->status != MMD_OK)
        return;
    r->err->status = st;
    r->err->offset = (int64_t)off;
    r->err->section = r->section;
    r->err->item = r->item;
    vsnprintf(r->err->msg, sizeof r->err->msg, fmt, ap);
}

void mmd_rd_fail(mmd_reader *r, mmd_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, r->pos, st, fmt, ap);
    va_end(ap);
}

void mmd_rd_fail_at(mmd_reader *r, size_t offset, mmd_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, offset, st, fmt, ap);
    va_end(ap);
}

const uint8_t *mmd_rd_bytes(mmd_reader *r, size_t n)
{
    if (!mmd_rd_ok(r))
        return NULL;
    if (n > r->len - r->pos) {
        mmd_rd_fail(r, MMD_E_TRUNCATED, "need %zu bytes, %zu left", n, r->len - r->pos);
        return NULL;
    }
    const uint8_t *p = r->base + r->pos;
    r->pos += n;
    return p;
}

void mmd_rd_skip(mmd_reader *r, size_t n) { (void)mmd_rd_bytes(r, n); }

uint8_t mmd_rd_u8(mmd_reader *r)
{
    const uint8_t *p = mmd_rd_bytes(r, 1);
    return p ? p[0] : 0;
}

uint16_t mmd_rd_u16(mmd_reader *r)
{
    const uint8_t *p = mmd_rd_bytes(r, 2);
    return p ? (uint16_t)(p[0] | (p[1] << 8)) : 0;
}

int16_t mmd_rd_i16(mmd_reader *r) { return (int16_t)mmd_rd_u16(r); }

uint32_t mmd_rd_u32(mmd_reader *r)
{
    const uint8_t *p = mmd_rd_bytes(r, 4);
    return p ? (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24) : 0;
}

int32_t mmd_rd_i32(mmd_reader *r) { return (int32_t)mmd_rd_u32(r); }

float mmd_rd_f32(mmd_reader *r)
{
    uint32_t u = mmd_rd_u32(r);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

void mmd_rd_f32v(mmd_reader *r, float *out, int n, bool finite)
{
    for (int i = 0; i < n; i++) {
        size_t at = r->pos;
        out[i] = mmd_rd_f32(r);
        if (finite && mmd_rd_ok(r) && !isfinite(out[i])) {
            mmd_rd_fail_at(r, at, MMD_E_BAD_VALUE, "non-finite float");
            out[i] = 0;
        }
    }
}

uint32_t mmd_rd_count(mmd_reader *r, size_t min_record_bytes, uint32_t max)
{
    size_t at = r->pos;
    int32_t c = mmd_rd_i32(r);
    if (!mmd_rd_ok(r))
        return 0;
    if (c < 0) {
        mmd_rd_fail_at(r, at, MMD_E_BAD_COUNT, "negative count %d", c);
        return 0;
    }
    if ((uint32_t)c > max) {
        mmd_rd_fail_at(r, at, MMD_E_LIMIT, "count %d exceeds limit %u", c, max);
        return 0;
    }
    if (min_record_bytes && (size_t)c > (r->len - r->pos) / min_record_bytes) {
        mmd_rd_fail_at(r, at, MMD_E_BAD_COUNT, "count %d needs at least %zu bytes, %zu left", c,
                       (size_t)c * min_record_bytes, r->len - r->pos);
        return 0;
    }
    return (uint32_t)c;
}

int32_t mmd_rd_index(mmd_reader *r, int width, int32_t limit, bool allow_none, const char *what)
{
    size_t at = r->pos;
    int32_t v;
    switch (width) {
    case 1: v = (int8_t)mmd_rd_u8(r); break;
    case 2: v = (int16_t)mmd_rd_u16(r); break;
    case 4: v = mmd_rd_i32(r); break;
    default:
        mmd_rd_fail(r, MMD_E_BAD_HEADER, "index width %d", width);
        return -1;
    }
    if (!mmd_rd_ok(r))
        return -1;
    if (v < 0) {
        if (v == -1 && allow_none)
            return -1;
        mmd_rd_fail_at(r, at, MMD_E_BAD_INDEX, "%s index %d is negative", what, v);
        return -1;
    }
    if (v >= limit) {
        mmd_rd_fail_at(r, at, MMD_E_BAD_INDEX, "%s index %d out of range (%d %ss)", what, v, limit, what);
        return -1;
    }
    return v;
}

uint32_t mmd_rd_vertex_index(mmd_reader *r, int width, uint32_t limit)
{
    size_t at = r->pos;
    uint32_t v;
    switch (width) {
    case 1: v = mmd_rd_u8(r); break;
    case 2: v = mmd_rd_u16(r); break;
    case 4: {
        int32_t s = mmd_rd_i32(r);
        if (mmd_rd_ok(r) && s < 0) {
            mmd_rd_fail_at(r, at, MMD_E_BAD_INDEX, "vertex index %d is negative", s);
            return 0;
        }
        v = (uint32_t)s;
        break;
    }
    default:
        mmd_rd_fail(r, MMD_E_BAD_HEADER, "vertex index width %d", width);
        return 0;
    }
    if (mmd_rd_ok(r) && v >= limit) {
        mmd_rd_fail_at(r, at, MMD_E_BAD_INDEX, "vertex index %u out of range (%u vertices)", v, limit);
        return 0;
    }
    return v;
}

void mmd_rd_warn(const mmd_reader *r, mmd_warning_list *w, unsigned *total, int64_t offset, const char *what)
{
    mmd_warn(w, total, r->section, r->item, offset, what);
}
