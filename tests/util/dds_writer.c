/* tests/util/dds_writer.c - DDS files of our own (dds_writer.h). Layout: "DDS "
 * then DDS_HEADER: +4 size 124, +8 flags, +12 height, +16 width, +20 pitch,
 * +24 depth, +28 mip count, +76 DDS_PIXELFORMAT {32, flags, FourCC, bit
 * count, r, g, b, a masks}, +108 caps, +112 caps2; data from byte 128. */
#include "tests/util/dds_writer.h"

#include <stdlib.h>
#include <string.h>

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static size_t level_bytes(const mmd_test_dds *f, int l)
{
    size_t w = (size_t)(f->width >> l > 0 ? f->width >> l : 1), h = (size_t)(f->height >> l > 0 ? f->height >> l : 1);
    if (f->fourcc)
        return (w + 3) / 4 * ((h + 3) / 4) * (strcmp(f->fourcc, "DXT1") ? 16u : 8u);
    size_t pixel = f->d3dfmt ? f->bytes : (size_t)f->bpp / 8;
    return w * h * (size_t)(f->depth > 0 ? f->depth : 1) * pixel;
}

static int mip_count(const mmd_test_dds *f)
{
    return (f->fourcc || f->cube) && f->mips > 1 ? f->mips : 1;
}

size_t mmd_test_dds_data_size(const mmd_test_dds *f)
{
    size_t total = 0;
    for (int l = 0; l < mip_count(f); l++)
        total += level_bytes(f, l);
    return total * (f->cube ? 6 : 1);
}

uint8_t *mmd_test_dds_file(const mmd_test_dds *f, const void *px, size_t *n)
{
    size_t data = mmd_test_dds_data_size(f);
    uint8_t *d = calloc(1, 128 + data);
    if (!d)
        return NULL;
    int mips = mip_count(f);
    memcpy(d, "DDS ", 4);
    put32(d + 4, 124);
    put32(d + 8, 0x1007u | (mips > 1 ? 0x20000u : 0) | (f->depth > 0 ? 0x800000u : 0) |
                     (f->fourcc ? 0x80000u : 0x8u));
    put32(d + 12, (uint32_t)f->height);
    put32(d + 16, (uint32_t)f->width);
    /* pitch: a row's bytes, or a DXT file's linear size */
    put32(d + 20, (uint32_t)(f->fourcc ? level_bytes(f, 0) : level_bytes(f, 0) / (size_t)(f->depth > 0 ? f->depth : 1) /
                                                              (size_t)f->height));
    put32(d + 24, (uint32_t)(f->depth > 0 ? f->depth : 0));
    put32(d + 28, (uint32_t)mips);
    put32(d + 76, 32);
    if (f->fourcc || f->d3dfmt) {
        put32(d + 80, 0x4u);
        if (f->fourcc)
            memcpy(d + 84, f->fourcc, 4);
        else
            put32(d + 84, f->d3dfmt);
    } else {
        put32(d + 80, f->pf_flags);
        put32(d + 88, (uint32_t)f->bpp);
        for (int c = 0; c < 4; c++)
            put32(d + 92 + 4 * c, f->mask[c]);
    }
    put32(d + 108, 0x1000u | (mips > 1 ? 0x400008u : 0) | (f->depth > 0 || f->cube ? 0x8u : 0));
    put32(d + 112, f->depth > 0 ? 0x200000u : f->cube ? 0xfe00u : 0);
    for (size_t i = 0; i < data; i++)
        d[128 + i] = px ? ((const uint8_t *)px)[i] : (uint8_t)(i * 37u + 11u);
    *n = 128 + data;
    return d;
}
