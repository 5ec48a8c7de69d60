/* core/reader.h - bounded little-endian reader with a sticky error.
 *
 * After the first failure every read returns 0 and does not move, so a record
 * is read straight through and checked once (r->err->status != MMD_OK).
 * Every bound is written as `n > len - pos` so it cannot overflow.
 */
#ifndef MMD_CORE_READER_H
#define MMD_CORE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

typedef struct mmd_reader {
    const uint8_t *base;
    size_t len, pos;
    mmd_error *err;      /* never NULL: mmd_reader_init points it at own storage when needed */
    mmd_error own;
    const char *section; /* current section name, used in errors */
    int64_t item;        /* current element index, -1 outside element loops */
} mmd_reader;

void mmd_reader_init(mmd_reader *r, const void *data, size_t len, mmd_error *err);
static inline bool mmd_rd_ok(const mmd_reader *r) { return r->err->status == MMD_OK; }
static inline size_t mmd_rd_left(const mmd_reader *r) { return r->len - r->pos; }
/* Set the sticky error at the current offset (only the first error is kept). */
void mmd_rd_fail(mmd_reader *r, mmd_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void mmd_rd_fail_at(mmd_reader *r, size_t offset, mmd_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Record a repair (core/status.h) in the reader's current section and item,
 * at byte offset `offset` (-1 when unknown); `what` is a static sentence. */
void mmd_rd_warn(const mmd_reader *r, mmd_warning_list *w, unsigned *total, int64_t offset, const char *what);

uint8_t mmd_rd_u8(mmd_reader *r);
uint16_t mmd_rd_u16(mmd_reader *r);
int16_t mmd_rd_i16(mmd_reader *r);
uint32_t mmd_rd_u32(mmd_reader *r);
int32_t mmd_rd_i32(mmd_reader *r);
float mmd_rd_f32(mmd_reader *r);
/* n floats; NaN/Inf rejected as MMD_E_BAD_VALUE when finite is true. */
void mmd_rd_f32v(mmd_reader *r, float *out, int n, bool finite);
/* Pointer into the input (no copy), NULL on failure. */
const uint8_t *mmd_rd_bytes(mmd_reader *r, size_t n);
void mmd_rd_skip(mmd_reader *r, size_t n);
/* u32/i32 count; rejects negative and count > remaining / min_record_bytes. */
uint32_t mmd_rd_count(mmd_reader *r, size_t min_record_bytes, uint32_t max);
/* PMX index of `width` bytes (1,2,4). Signed: 0xFF/0xFFFF/-1 mean none (-1).
 * Vertex indices are unsigned for widths 1 and 2 (PMX spec). Values outside
 * [-1 or 0, limit) fail with MMD_E_BAD_INDEX. */
int32_t mmd_rd_index(mmd_reader *r, int width, int32_t limit, bool allow_none, const char *what);
uint32_t mmd_rd_vertex_index(mmd_reader *r, int width, uint32_t limit);

#endif
