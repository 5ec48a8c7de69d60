/* core/xzip.c - MSZIP blocks of compressed .x files (tzip/bzip), on zlib's raw
 * deflate. Layout and the dictionary rule are in xfile_internal.h; facts from
 * Wine's d3dxof (total size includes the 16-byte header) and MS-MCI (MSZIP:
 * 'CK' + RFC 1951 blocks, history kept across blocks). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/reader.h"
#include "core/xfile_internal.h"

static size_t window_len(size_t produced)
{
    return produced < MMD_X_MSZIP_BLOCK ? produced : MMD_X_MSZIP_BLOCK;
}

static void inflate_blocks(mmd_reader *r, z_stream *z, uint8_t *out, size_t total)
{
    size_t produced = 0;
    uint32_t block = 0;
    while (mmd_rd_ok(r) && produced < total) {
        r->item = block;
        size_t at = r->pos;
        uint16_t usize = mmd_rd_u16(r), csize = mmd_rd_u16(r);
        const uint8_t *ck = mmd_rd_bytes(r, 2);
        if (!ck)
            return;
        if (ck[0] != 'C' || ck[1] != 'K') {
            mmd_rd_fail_at(r, at + 4, MMD_E_BAD_MAGIC, "MSZIP block without 'CK'");
            return;
        }
        if (usize == 0 || usize > MMD_X_MSZIP_BLOCK || usize > total - produced) {
            mmd_rd_fail_at(r, at, MMD_E_BAD_COUNT, "block inflates to %u bytes (%zu of %zu left, at most %u)",
                           (unsigned)usize, total - produced, total, MMD_X_MSZIP_BLOCK);
            return;
        }
        if (csize < 3) {
            mmd_rd_fail_at(r, at + 2, MMD_E_BAD_COUNT, "compressed block size %u", (unsigned)csize);
            return;
        }
        const uint8_t *src = mmd_rd_bytes(r, (size_t)csize - 2);
        if (!src)
            return;
        size_t w = window_len(produced);
        if (inflateReset(z) != Z_OK || (w && inflateSetDictionary(z, out + produced - w, (uInt)w) != Z_OK)) {
            mmd_rd_fail_at(r, at, MMD_E_NOMEM, "zlib reset failed");
            return;
        }
        z->next_in = (Bytef *)src;
        z->avail_in = (uInt)csize - 2;
        z->next_out = out + produced;
        z->avail_out = usize;
        int zs = inflate(z, Z_FINISH);
        if (zs != Z_STREAM_END || z->avail_out != 0) {
            mmd_rd_fail_at(r, at + 6, MMD_E_BAD_STRUCTURE, "deflate data is damaged or does not inflate to %u bytes (%s)",
                           (unsigned)usize, z->msg ? z->msg : zs == Z_STREAM_END ? "short" : "long");
            return;
        }
        produced += usize;
        block++;
    }
}

mmd_status mmd_x_inflate(const uint8_t *data, size_t size, uint8_t **out, size_t *out_size,
                         mmd_error *err)
{
    mmd_reader r;
    mmd_reader_init(&r, data, size, err);
    r.section = "x.mszip";
    mmd_rd_skip(&r, MMD_X_HEADER_BYTES);
    size_t at = r.pos;
    uint32_t total = mmd_rd_u32(&r);
    if (!mmd_rd_ok(&r))
        return r.err->status;
    if (total < MMD_X_HEADER_BYTES)
        return mmd_error_set(r.err, MMD_E_BAD_HEADER, "x.mszip", -1, (int64_t)at,
                             "inflated size %u is smaller than the header", total);
    size_t payload = total - MMD_X_HEADER_BYTES;
    /* Each block (at most 32 KiB inflated) needs at least 7 bytes here. */
    size_t blocks_max = mmd_rd_left(&r) / 7;
    if (payload > MMD_X_MAX_INFLATED || payload > blocks_max * MMD_X_MSZIP_BLOCK)
        return mmd_error_set(r.err, payload > MMD_X_MAX_INFLATED ? MMD_E_LIMIT : MMD_E_BAD_COUNT,
                             "x.mszip", -1, (int64_t)at,
                             "inflated size %zu is impossible for %zu compressed bytes (limit %u)",
                             payload, mmd_rd_left(&r), MMD_X_MAX_INFLATED);
    if (payload > MMD_X_FREE_INFLATED && payload / MMD_X_MAX_RATIO > mmd_rd_left(&r))
        return mmd_error_set(r.err, MMD_E_LIMIT, "x.mszip", -1, (int64_t)at,
                             "inflated size %zu is more than %u times the %zu compressed bytes (a mesh "
                             "deflates far less; compression-ratio limit)",
                             payload, MMD_X_MAX_RATIO, mmd_rd_left(&r));
    uint8_t *buf = malloc(payload ? payload : 1);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (!buf || inflateInit2(&z, -MAX_WBITS) != Z_OK) {
        free(buf);
        return mmd_error_set(r.err, MMD_E_NOMEM, "x.mszip", -1, -1, "out of memory");
    }
    inflate_blocks(&r, &z, buf, payload);
    inflateEnd(&z);
    if (!mmd_rd_ok(&r)) {
        free(buf);
        return r.err->status;
    }
    *out = buf;
    *out_size = payload;
    return MMD_OK;
}

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

mmd_status mmd_x_deflate(const uint8_t header[16], const uint8_t *payload, size_t n, uint8_t **out,
                         size_t *out_size, mmd_error *err)
{
    if (n > MMD_X_MAX_INFLATED)
        return mmd_error_set(err, MMD_E_LIMIT, "x.mszip", -1, -1, "payload of %zu bytes", n);
    size_t blocks = (n + MMD_X_MSZIP_BLOCK - 1) / MMD_X_MSZIP_BLOCK;
    size_t cap = 20 + blocks * (6 + (size_t)compressBound(MMD_X_MSZIP_BLOCK));
    uint8_t *buf = malloc(cap);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (!buf || deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(buf);
        return mmd_error_set(err, MMD_E_NOMEM, "x.mszip", -1, -1, "out of memory");
    }
    memcpy(buf, header, 16);
    uint32_t total = (uint32_t)(n + 16);
    for (int i = 0; i < 4; i++)
        buf[16 + i] = (uint8_t)(total >> (8 * i));
    size_t pos = 20;
    for (size_t done = 0; done < n;) {
        size_t len = n - done < MMD_X_MSZIP_BLOCK ? n - done : MMD_X_MSZIP_BLOCK;
        size_t w = window_len(done);
        deflateReset(&z);
        if (w)
            deflateSetDictionary(&z, payload + done - w, (uInt)w);
        z.next_in = (Bytef *)(payload + done);
        z.avail_in = (uInt)len;
        z.next_out = buf + pos + 6;
        z.avail_out = (uInt)(cap - pos - 6);
        if (deflate(&z, Z_FINISH) != Z_STREAM_END || z.total_out + 2 > 0xffff) {
            deflateEnd(&z);
            free(buf);
            return mmd_error_set(err, MMD_E_NOMEM, "x.mszip", -1, -1, "deflate failed");
        }
        put16(buf + pos, (unsigned)len);
        put16(buf + pos + 2, (unsigned)z.total_out + 2);
        buf[pos + 4] = 'C';
        buf[pos + 5] = 'K';
        pos += 6 + z.total_out;
        done += len;
    }
    deflateEnd(&z);
    *out = buf;
    *out_size = pos;
    return MMD_OK;
}
