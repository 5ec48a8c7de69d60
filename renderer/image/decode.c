/* renderer/image/decode.c - texture decoding (see image.h).
 *
 * stb_image does BMP/PNG/TGA/JPEG/GIF (the implementation lives in Debian's
 * libstb.so, so no STB_IMAGE_IMPLEMENTATION here). We ask stbi_info for the
 * size first so that our limits apply before stb allocates. stb already turns
 * a 32-bit BMP whose alpha bytes are all zero into an opaque image (its
 * all_a rule), which is what MMD does; test_image checks it.
 *
 * DDS layout (little-endian): "DDS " then a 124-byte DDS_HEADER:
 *   +4 size(124) +8 flags +12 height +16 width +20 pitch +24 depth +28 mipcount
 *   +76 pixel format {size(32), flags, fourCC, rgbBitCount, r,g,b,a masks}
 *   +108 caps, +112 caps2; pixel data starts at byte 128.
 */
#include "renderer/image/decode.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image.h>

#include "core/file.h"
#include "core/status.h"
#include "renderer/image/decode_child.h"

#define DDSD_MIPMAPCOUNT 0x20000u
#define DDSD_DEPTH 0x800000u
#define DDPF_ALPHA 0x2u
#define DDPF_LUMINANCE 0x20000u
#define DDPF_ALPHAPIXELS 0x1u
#define DDPF_FOURCC 0x4u
#define DDPF_RGB 0x40u
#define DDSCAPS2_CUBEMAP 0x200u
#define DDSCAPS2_CUBEMAP_ALLFACES 0xfc00u
#define DDSCAPS2_VOLUME 0x200000u

const char *mmd_image_format_name(int format)
{
    switch (format) {
    case MMD_IMAGE_RGBA8: return "RGBA8";
    case MMD_IMAGE_DXT1: return "DXT1";
    case MMD_IMAGE_DXT3: return "DXT3";
    case MMD_IMAGE_DXT5: return "DXT5";
    default: return "unknown";
    }
}

void mmd_image_free(mmd_image *img)
{
    if (!img)
        return;
    free(img->data);
    memset(img, 0, sizeof *img);
}

bool mmd_image_halve(mmd_image *img)
{
    if (!img || !img->data || img->depth)
        return false;
    if (img->format != MMD_IMAGE_RGBA8) {
        if (img->levels < 2)
            return false;
        size_t off = img->level_offset[1];
        memmove(img->data, img->data + off, img->size - off);
        for (int i = 1; i < img->levels; i++) {
            img->level_offset[i - 1] = img->level_offset[i] - off;
            img->level_size[i - 1] = img->level_size[i];
        }
        img->levels--;
        img->size -= off;
        img->width = img->width > 1 ? img->width >> 1 : 1;
        img->height = img->height > 1 ? img->height >> 1 : 1;
        return true;
    }
    int w = img->width, h = img->height;
    if (w <= 1 && h <= 1)
        return false;
    int nw = (w + 1) / 2, nh = (h + 1) / 2;
    uint8_t *out = malloc((size_t)nw * (size_t)nh * 4);
    if (!out)
        return false;
    for (int y = 0; y < nh; y++)
        for (int x = 0; x < nw; x++) {
            int x0 = 2 * x, y0 = 2 * y, x1 = x0 + 1 < w ? x0 + 1 : x0, y1 = y0 + 1 < h ? y0 + 1 : y0;
            const uint8_t *p[4] = {img->data + ((size_t)y0 * w + x0) * 4, img->data + ((size_t)y0 * w + x1) * 4,
                                   img->data + ((size_t)y1 * w + x0) * 4, img->data + ((size_t)y1 * w + x1) * 4};
            for (int c = 0; c < 4; c++)
                out[((size_t)y * nw + x) * 4 + c] = (uint8_t)((p[0][c] + p[1][c] + p[2][c] + p[3][c] + 2) / 4);
        }
    free(img->data);
    img->data = out;
    img->width = nw;
    img->height = nh;
    img->size = (size_t)nw * (size_t)nh * 4;
    img->level_size[0] = img->size;
    return true;
}

void mmd_image_mip_next(const uint8_t *src, int w, int h, uint8_t *dst)
{
    int nw = w > 1 ? w / 2 : 1, nh = h > 1 ? h / 2 : 1;
    for (int y = 0; y < nh; y++) {
        const uint8_t *r0 = src + (size_t)(h > 1 ? 2 * y : 0) * w * 4, *r1 = src + (size_t)(h > 1 ? 2 * y + 1 : 0) * w * 4;
        uint8_t *o = dst + (size_t)y * nw * 4;
        for (int x = 0; x < nw; x++) {
            int x0 = (w > 1 ? 2 * x : 0) * 4, x1 = (w > 1 ? 2 * x + 1 : 0) * 4;
            for (int c = 0; c < 4; c++) {
                int top = (r0[x0 + c] + r0[x1 + c] + 1) >> 1, bottom = (r1[x0 + c] + r1[x1 + c] + 1) >> 1;
                o[x * 4 + c] = (uint8_t)((top + bottom + 1) >> 1);
            }
        }
    }
}

static mmd_status check_dims(long long w, long long h, mmd_error *err)
{
    if (w <= 0 || h <= 0)
        return mmd_fail(err, MMD_E_BAD_HEADER, "image has no pixels (%lldx%lld)", w, h);
    if (w > MMD_IMAGE_MAX_SIDE || h > MMD_IMAGE_MAX_SIDE ||
        (unsigned long long)w * (unsigned long long)h > MMD_IMAGE_MAX_PIXELS)
        return mmd_fail(err, MMD_E_LIMIT,
                        "image is %lldx%lld; the limit is %d per side and %u Mpixel in total", w,
                        h, MMD_IMAGE_MAX_SIDE, MMD_IMAGE_MAX_PIXELS >> 20);
    return MMD_OK;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool rgba_has_alpha(const uint8_t *px, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (px[i * 4 + 3] != 255)
            return true;
    return false;
}

/* A DXT1 block in 3-colour mode (c0 <= c1) whose index 3 is used is transparent. */
static bool dxt1_has_alpha(const uint8_t *b, size_t blocks)
{
    for (size_t i = 0; i < blocks; i++, b += 8) {
        unsigned c0 = b[0] | b[1] << 8, c1 = b[2] | b[3] << 8;
        if (c0 > c1)
            continue;
        for (int k = 4; k < 8; k++)
            for (int s = 0; s < 8; s += 2)
                if (((b[k] >> s) & 3) == 3)
                    return true;
    }
    return false;
}

/* One channel of an uncompressed DDS pixel, scaled to 0..255. */
static uint8_t mask_channel(uint32_t px, uint32_t mask)
{
    if (!mask)
        return 0;
    int shift = __builtin_ctz(mask);
    uint32_t v = (px & mask) >> shift;
    uint32_t m = mask >> shift;
    int bits = 32 - __builtin_clz(m);
    if (bits == 8)
        return (uint8_t)v;
    if (bits > 8)
        return (uint8_t)(v >> (bits - 8));
    return (uint8_t)((v * 255u + m / 2) / m);
}

/* How an uncompressed DDS pixel becomes RGBA8: bit masks (DDPF_RGB,
 * DDPF_LUMINANCE, DDPF_ALPHA), or a D3DFMT code in the FourCC field (the
 * float formats, and the 8-bit ones some writers name that way). A missing
 * colour channel reads 0 and a missing alpha 255 (masks), as D3D9 samples
 * them; a float format's missing channels read 1 (D3D9's rule for R16F and
 * its kin). Floats are clamped to 0..1 and rounded to 8 bits. */
typedef struct dds_pixel {
    unsigned bytes;   /* per pixel, 1..16 */
    uint32_t mask[4]; /* r, g, b, a (masks) */
    bool grey;        /* luminance: r copied to g and b */
    unsigned floats;  /* float components (r, g, b, a in the file's order), 0: masks */
    unsigned fbytes;  /* 2 (half) or 4 */
} dds_pixel;

/* D3DFMT codes in the FourCC field, one row each. */
static const struct dds_code_row {
    uint32_t code;
    const char *name;
    dds_pixel px;
} k_dds_codes[] = {
    {21, "A8R8G8B8", {4, {0xff0000u, 0xff00u, 0xffu, 0xff000000u}, false, 0, 0}},
    {22, "X8R8G8B8", {4, {0xff0000u, 0xff00u, 0xffu, 0}, false, 0, 0}},
    {28, "A8", {1, {0, 0, 0, 0xffu}, false, 0, 0}},
    {32, "A8B8G8R8", {4, {0xffu, 0xff00u, 0xff0000u, 0xff000000u}, false, 0, 0}},
    {50, "L8", {1, {0xffu, 0, 0, 0}, true, 0, 0}},
    {51, "A8L8", {2, {0xffu, 0, 0, 0xff00u}, true, 0, 0}},
    {111, "R16F", {2, {0}, false, 1, 2}},
    {112, "G16R16F", {4, {0}, false, 2, 2}},
    {113, "A16B16G16R16F", {8, {0}, false, 4, 2}},
    {114, "R32F", {4, {0}, false, 1, 4}},
    {115, "G32R32F", {8, {0}, false, 2, 4}},
    {116, "A32B32G32R32F", {16, {0}, false, 4, 4}},
};

static float half_to_float(unsigned h)
{
    unsigned e = (h >> 10) & 31u, m = h & 1023u;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024u), (int)e - 25);
    return h & 0x8000u ? -v : v;
}

static uint8_t unit_byte(float f)
{
    return !(f > 0.0f) ? 0 : f >= 1.0f ? 255 : (uint8_t)(f * 255.0f + 0.5f);
}

static void dds_convert(const uint8_t *src, size_t count, const dds_pixel *f, uint8_t *dst)
{
    for (size_t i = 0; i < count; i++, src += f->bytes, dst += 4) {
        if (f->floats) {
            for (unsigned c = 0; c < 4; c++) {
                const uint8_t *p = src + c * f->fbytes;
                float v = 1.0f;
                if (c < f->floats && f->fbytes == 2)
                    v = half_to_float((unsigned)p[0] | (unsigned)p[1] << 8);
                else if (c < f->floats)
                    memcpy(&v, p, 4); /* little-endian, as the file */
                dst[c] = unit_byte(v);
            }
            continue;
        }
        uint32_t v = 0;
        for (unsigned k = 0; k < f->bytes && k < 4; k++)
            v |= (uint32_t)src[k] << (8 * k);
        dst[0] = mask_channel(v, f->mask[0]);
        dst[1] = f->grey ? dst[0] : mask_channel(v, f->mask[1]);
        dst[2] = f->grey ? dst[0] : mask_channel(v, f->mask[2]);
        dst[3] = f->mask[3] ? mask_channel(v, f->mask[3]) : 255;
    }
}

static void fourcc_text(uint32_t fourcc, char cc[5])
{
    for (int i = 0; i < 4; i++) {
        uint8_t c = (uint8_t)(fourcc >> (8 * i));
        cc[i] = (c >= 32 && c < 127) ? (char)c : '?';
    }
    cc[4] = 0;
}

/* The pixel format of an uncompressed DDS from its header, or why not. */
static mmd_status dds_pixel_of(const uint8_t *d, dds_pixel *f, mmd_error *err)
{
    uint32_t pf_flags = rd32(d + 80), fourcc = rd32(d + 84), bpp = rd32(d + 88);
    memset(f, 0, sizeof *f);
    if (pf_flags & DDPF_FOURCC) {
        for (size_t i = 0; i < sizeof k_dds_codes / sizeof k_dds_codes[0]; i++)
            if (k_dds_codes[i].code == fourcc) {
                *f = k_dds_codes[i].px;
                return MMD_OK;
            }
        char cc[5];
        fourcc_text(fourcc, cc);
        return mmd_error_set(err, MMD_E_UNSUPPORTED, "dds", -1, 84,
                             "DDS: offset 0x54, compression '%s' (%u) is not supported (DXT1, DXT3, DXT5, "
                             "D3DFMT R16F, R32F, A16B16G16R16F ... are)", cc, fourcc);
    }
    if (!(pf_flags & (DDPF_RGB | DDPF_LUMINANCE | DDPF_ALPHA)))
        return mmd_error_set(err, MMD_E_UNSUPPORTED, "dds", -1, 80,
                             "DDS: offset 0x50, pixel format flags 0x%x are not supported (RGB, luminance, "
                             "alpha or a FourCC)", pf_flags);
    if (bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32)
        return mmd_error_set(err, MMD_E_UNSUPPORTED, "dds", -1, 88, "DDS: offset 0x58, %u bits per pixel is not supported", bpp);
    f->bytes = bpp / 8;
    f->grey = (pf_flags & DDPF_LUMINANCE) && !(pf_flags & DDPF_RGB);
    if (pf_flags & (DDPF_RGB | DDPF_LUMINANCE)) {
        f->mask[0] = rd32(d + 92);
        f->mask[1] = f->grey ? 0 : rd32(d + 96);
        f->mask[2] = f->grey ? 0 : rd32(d + 100);
    }
    f->mask[3] = pf_flags & (DDPF_ALPHAPIXELS | DDPF_ALPHA) ? rd32(d + 104) : 0;
    return MMD_OK;
}

/* DXT1/3/5 blocks with the mip levels the file has (a 2D texture). */
static mmd_status dds_blocks(const uint8_t *d, size_t size, mmd_image *img, mmd_error *err)
{
    uint32_t flags = rd32(d + 8), h = rd32(d + 12), w = rd32(d + 16), mips = rd32(d + 28);
    size_t block = 16, avail = size - 128;
    if (!memcmp(d + 84, "DXT1", 4))
        img->format = MMD_IMAGE_DXT1, block = 8;
    else if (!memcmp(d + 84, "DXT3", 4))
        img->format = MMD_IMAGE_DXT3;
    else
        img->format = MMD_IMAGE_DXT5;
    int want = (flags & DDSD_MIPMAPCOUNT) && mips > 1 ? (int)(mips > 16 ? 16 : mips) : 1;
    size_t total = 0;
    int levels = 0;
    for (int l = 0; l < want; l++) {
        uint32_t lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
        size_t bytes = (size_t)((lw + 3) / 4) * ((lh + 3) / 4) * block;
        if (bytes > avail - total)
            break; /* a cut mip chain: keep the complete levels */
        img->level_offset[l] = total;
        img->level_size[l] = bytes;
        total += bytes;
        levels = l + 1;
        if (lw == 1 && lh == 1)
            break;
    }
    if (levels == 0)
        return mmd_error_set(err, MMD_E_TRUNCATED, "dds", -1, (int64_t)size,
                             "DDS: %ux%u %s needs %zu bytes of blocks from offset 0x80, the file has %zu", w, h,
                             mmd_image_format_name(img->format), (size_t)((w + 3) / 4) * ((h + 3) / 4) * block,
                             avail);
    img->levels = levels;
    img->data = malloc(total);
    if (!img->data)
        return mmd_fail(err, MMD_E_NOMEM, "DDS: cannot allocate %zu bytes", total);
    memcpy(img->data, d + 128, total);
    img->size = total;
    img->has_alpha = img->format != MMD_IMAGE_DXT1 || dxt1_has_alpha(img->data, img->level_size[0] / 8);
    return MMD_OK;
}

static bool is_dxt(const uint8_t *d)
{
    return (rd32(d + 80) & DDPF_FOURCC) &&
           (!memcmp(d + 84, "DXT1", 4) || !memcmp(d + 84, "DXT3", 4) || !memcmp(d + 84, "DXT5", 4));
}

/* Pixels of one cube face with its mip chain (DDS stores each face's levels
 * before the next face); w, h within the image limits. */
static size_t face_pixels(const uint8_t *d, uint32_t w, uint32_t h)
{
    uint32_t mips = rd32(d + 8) & DDSD_MIPMAPCOUNT ? rd32(d + 28) : 1;
    size_t total = 0;
    for (uint32_t l = 0; l < (mips < 1 ? 1 : mips > 16 ? 16 : mips); l++)
        total += (size_t)(w >> l ? w >> l : 1) * (h >> l ? h >> l : 1);
    return total;
}

/* The header's shape: volume depth (1 when not a volume), cube faces; refusals. */
static mmd_status dds_shape(const uint8_t *d, uint32_t *depth, bool *volume, bool *cube, mmd_error *err)
{
    uint32_t flags = rd32(d + 8), h = rd32(d + 12), w = rd32(d + 16), caps2 = rd32(d + 112);
    *volume = caps2 & DDSCAPS2_VOLUME;
    *cube = caps2 & DDSCAPS2_CUBEMAP;
    *depth = *cube ? 6 : *volume && (flags & DDSD_DEPTH) ? rd32(d + 24) : 1;
    mmd_status st = check_dims(w, h, err);
    if (st != MMD_OK)
        return st;
    if (*cube && ((caps2 & DDSCAPS2_CUBEMAP_ALLFACES) != DDSCAPS2_CUBEMAP_ALLFACES || w != h || *volume))
        return mmd_error_set(err, MMD_E_UNSUPPORTED, "dds", -1, 112,
                             "DDS: offset 0x70, a cube map needs all six square faces (%ux%u, caps2 0x%x)", w, h,
                             caps2);
    if (*depth < 1 || *depth > MMD_IMAGE_MAX_DEPTH || (uint64_t)w * h * *depth > MMD_IMAGE_MAX_PIXELS)
        return mmd_error_set(err, *depth < 1 ? MMD_E_BAD_HEADER : MMD_E_LIMIT, "dds", -1, 24,
                             "DDS: offset 0x18, a volume of %ux%ux%u; the limit is 1..%d slices and %u Mpixel in "
                             "total", w, h, *depth, MMD_IMAGE_MAX_DEPTH, MMD_IMAGE_MAX_PIXELS >> 20);
    if (is_dxt(d) && (*volume || *cube))
        return mmd_error_set(err, MMD_E_UNSUPPORTED, "dds", -1, 84,
                             "DDS: offset 0x54, a DXT-compressed %s is not supported (uncompressed ones are)",
                             *cube ? "cube map" : "volume texture");
    return MMD_OK;
}

/* DDS (decode.c's header comment): DXT1/3/5 2D textures keep their blocks;
 * uncompressed 2D, volume and cube textures become RGBA8 (level 0; a
 * volume's slices or a cube's six faces one after the other). */
static mmd_status load_dds(const uint8_t *d, size_t size, mmd_image *out, mmd_error *err)
{
    if (size < 128)
        return mmd_error_set(err, MMD_E_TRUNCATED, "dds", -1, (int64_t)size,
                             "DDS: file is %zu bytes, the header needs 128", size);
    if (rd32(d + 4) != 124 || rd32(d + 76) != 32)
        return mmd_error_set(err, MMD_E_BAD_HEADER, "dds", -1, 4,
                             "DDS: offset 0x4, header size %u / pixel-format size %u (expected 124 / 32)",
                             rd32(d + 4), rd32(d + 76));
    uint32_t h = rd32(d + 12), w = rd32(d + 16), depth;
    bool volume, cube;
    mmd_status st = dds_shape(d, &depth, &volume, &cube, err);
    if (st != MMD_OK)
        return st;
    mmd_image img;
    memset(&img, 0, sizeof img);
    img.width = (int)w;
    img.height = (int)h;
    if (is_dxt(d)) {
        if ((st = dds_blocks(d, size, &img, err)) == MMD_OK)
            *out = img;
        return st;
    }
    dds_pixel f;
    if ((st = dds_pixel_of(d, &f, err)) != MMD_OK)
        return st;
    size_t slice = (size_t)w * h, pixels = slice * depth, avail = size - 128;
    size_t stride = cube ? face_pixels(d, w, h) : slice; /* pixels from one slice or face to the next */
    if (stride * (depth - 1) + slice > avail / f.bytes)
        return mmd_error_set(err, MMD_E_TRUNCATED, "dds", -1, (int64_t)size,
                             "DDS: %ux%u%s%.0u%s at %u bytes per pixel needs %zu bytes from offset 0x80, the file "
                             "has %zu", w, h, volume ? "x" : "", volume ? depth : 0, cube ? " cube map" : "", f.bytes,
                             (stride * (depth - 1) + slice) * f.bytes, avail);
    img.format = MMD_IMAGE_RGBA8;
    img.depth = volume || cube ? (int)depth : 0;
    img.cube = cube;
    img.levels = 1;
    img.size = pixels * 4;
    img.level_size[0] = img.size;
    img.data = malloc(img.size);
    if (!img.data)
        return mmd_fail(err, MMD_E_NOMEM, "DDS: cannot allocate %zu bytes", img.size);
    for (uint32_t k = 0; k < depth; k++)
        dds_convert(d + 128 + stride * k * f.bytes, slice, &f, img.data + slice * k * 4);
    img.has_alpha = rgba_has_alpha(img.data, pixels);
    *out = img;
    return MMD_OK;
}

static uint32_t rd32be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* stb_image reallocs its IDAT buffer to a chunk's declared length before
 * reading it (a 75-byte file can ask for 1.2 GB): walk the chunks first and
 * refuse any length larger than the bytes left. stb reads a length and type
 * even from a chunk header cut by the end of the file (8 bytes suffice for
 * "IDAT" + a 1.2 GB length), and only decodes at IEND, so a file that ends
 * before IEND is refused as truncated here. */
static mmd_status check_png_chunks(const uint8_t *d, size_t size, mmd_error *err)
{
    size_t pos = 8;
    while (pos < size) {
        if (size - pos < 12)
            return mmd_error_set(err, MMD_E_TRUNCATED, "png", -1, (int64_t)pos,
                            "PNG: offset 0x%zx, the file ends inside a chunk header (%zu of 12 "
                            "bytes) before IEND",
                            pos, size - pos);
        uint32_t len = rd32be(d + pos);
        if (len > size - pos - 12) {
            char type[5];
            for (int i = 0; i < 4; i++) {
                uint8_t c = d[pos + 4 + i];
                type[i] = (c >= 32 && c < 127) ? (char)c : '?';
            }
            type[4] = 0;
            return mmd_error_set(err, MMD_E_TRUNCATED, "png", -1, (int64_t)pos,
                            "PNG: offset 0x%zx, chunk '%s' claims %u bytes, only %zu left", pos,
                            type, len, size - pos - 12);
        }
        if (!memcmp(d + pos + 4, "IHDR", 4) && len >= 8) {
            /* stb refuses sizes over its own cap as "unknown format": say why */
            mmd_status st = check_dims(rd32be(d + pos + 8), rd32be(d + pos + 12), err);
            if (st != MMD_OK)
                return st;
        }
        if (!memcmp(d + pos + 4, "IEND", 4))
            return MMD_OK;
        pos += 12 + (size_t)len;
    }
    return mmd_error_set(err, MMD_E_TRUNCATED, "png", -1, (int64_t)size,
                    "PNG: the file ends at offset 0x%zx without IEND", size);
}

static unsigned rd16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

/* stb decodes an uncompressed BMP or TGA whose pixel data stops early as if
 * the missing bytes were zero (a black texture, no error). Called after
 * stbi_info and check_dims accepted the image, so w and h are bounded and the
 * products below fit in 64 bits. RLE and other compressions are left to stb. */
static mmd_status check_bmp_size(const uint8_t *d, size_t size, mmd_error *err)
{
    if (size < 30)
        return MMD_OK; /* stbi_info accepted it: nothing we can measure */
    uint32_t data_at = rd32(d + 10), hsz = rd32(d + 14);
    uint64_t w, h, bpp;
    if (hsz == 12) { /* OS/2 BITMAPCOREHEADER: no compression field */
        w = rd16(d + 18);
        h = rd16(d + 20);
        bpp = rd16(d + 24);
    } else {
        if (size < 34)
            return MMD_OK;
        uint32_t compression = rd32(d + 30);
        if (compression != 0 && compression != 3) /* BI_RGB, BI_BITFIELDS */
            return MMD_OK;
        int32_t sw = (int32_t)rd32(d + 18), sh = (int32_t)rd32(d + 22);
        w = (uint64_t)(sw < 0 ? -(int64_t)sw : sw);
        h = (uint64_t)(sh < 0 ? -(int64_t)sh : sh); /* negative: top-down rows */
        bpp = rd16(d + 28);
    }
    if (!w || !h || !bpp || bpp > 32)
        return MMD_OK; /* stb says what is wrong with it */
    uint64_t stride = (w * bpp + 31) / 32 * 4;
    /* the last row's padding may be missing: every pixel byte is still there */
    uint64_t need = (uint64_t)data_at + stride * (h - 1) + (w * bpp + 7) / 8;
    if (need > size)
        return mmd_fail(err, MMD_E_TRUNCATED,
                        "BMP: %llux%llu at %llu bpp needs %llu bytes (pixel data at %u, %llu per row), "
                        "the file has %zu",
                        (unsigned long long)w, (unsigned long long)h, (unsigned long long)bpp,
                        (unsigned long long)need, data_at, (unsigned long long)stride,
                        size);
    return MMD_OK;
}

/* TGA types 1 (colour-mapped), 2 (true colour), 3 (grey), uncompressed:
 * 18-byte header, id, colour map, then w x h pixels. Types 9, 10, 11 are the
 * same run-length encoded: a packet is one header byte and at least one pixel
 * and covers at most 128 pixels, so the smallest complete file still holds
 * ceil(w*h / 128) packets. stb reads past the end as zeros, which made an
 * 18-byte RLE header a 49-Mpixel decode (a fuzz timeout). */
static mmd_status check_tga_size(const uint8_t *d, size_t size, int w, int h, mmd_error *err)
{
    if (size < 18 || d[1] > 1 || (d[2] & 7u) < 1 || (d[2] & 7u) > 3 || (d[2] & ~11u))
        return MMD_OK;
    if ((int)rd16(d + 12) != w || (int)rd16(d + 14) != h)
        return MMD_OK; /* not the header stb read: some other format */
    uint64_t cmap = d[1] ? (uint64_t)rd16(d + 5) * ((d[7] + 7u) / 8u) : 0;
    uint64_t pixel = (d[16] + 7u) / 8u, count = (uint64_t)w * (uint64_t)h;
    uint64_t data = d[2] & 8u ? (count + 127) / 128 * (1 + pixel) : count * pixel;
    uint64_t need = 18 + (uint64_t)d[0] + cmap + data;
    if (need > size)
        return mmd_fail(err, MMD_E_TRUNCATED,
                        "TGA: %dx%d at %u bpp%s needs %llu bytes (header, id %u, colour map %llu), "
                        "the file has %zu",
                        w, h, d[16], d[2] & 8u ? " run-length encoded" : "", (unsigned long long)need, d[0], (unsigned long long)cmap, size);
    return MMD_OK;
}

/* ---- which format, by signature ------------------------------------------
 * stb_image also decodes PSD, PIC, PNM and Radiance HDR, and guesses the format
 * by trying each loader in turn (JPEG, PNG, BMP, GIF, PSD, PIC, PNM, HDR, TGA).
 * Those extra loaders are not formats MMD uses, and at least one of them loops
 * forever on a 53-byte file (an HDR scanline with a zero-length run). So the
 * format is decided here, from the first bytes, before stb sees anything:
 * the five documented signatures, or a TGA header that passes the same checks
 * as stb's own TGA probe. A TGA header can never start like another stb format
 * (its second byte, the colour-map type, is 0 or 1), so once this says TGA or
 * one of the signatures, no other stb loader can claim the bytes. */
typedef enum { FMT_NONE, FMT_PNG, FMT_BMP, FMT_JPEG, FMT_GIF, FMT_DDS, FMT_TGA } img_fmt;

static bool tga_header_ok(const uint8_t *d, size_t size)
{
    if (size < 18 || d[1] > 1)
        return false;
    unsigned type = d[2], bpp = d[16];
    if (d[1] == 1) { /* colour-mapped: types 1 and 9, 8/16-bit indices */
        unsigned entry = d[7];
        if ((type != 1 && type != 9) || (bpp != 8 && bpp != 16))
            return false;
        if (entry != 8 && entry != 15 && entry != 16 && entry != 24 && entry != 32)
            return false;
    } else {
        if (type != 2 && type != 3 && type != 10 && type != 11)
            return false;
        if (bpp != 8 && bpp != 15 && bpp != 16 && bpp != 24 && bpp != 32)
            return false;
    }
    return rd16(d + 12) >= 1 && rd16(d + 14) >= 1;
}

static img_fmt sniff(const uint8_t *d, size_t size)
{
    if (size >= 8 && !memcmp(d, "\x89PNG\r\n\x1a\n", 8))
        return FMT_PNG;
    if (size >= 4 && !memcmp(d, "DDS ", 4))
        return FMT_DDS;
    if (size >= 2 && d[0] == 'B' && d[1] == 'M')
        return FMT_BMP;
    if (size >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff)
        return FMT_JPEG;
    if (size >= 6 && (!memcmp(d, "GIF87a", 6) || !memcmp(d, "GIF89a", 6)))
        return FMT_GIF;
    if (tga_header_ok(d, size))
        return FMT_TGA;
    return FMT_NONE;
}

/* Name the formats stb would have tried, so the refusal says what the file is. */
static const char *other_format_name(const uint8_t *d, size_t size)
{
    if (size >= 2 && d[0] == '#' && d[1] == '?')
        return "Radiance HDR";
    if (size >= 4 && !memcmp(d, "8BPS", 4))
        return "Photoshop PSD";
    if (size >= 4 && !memcmp(d, "\x53\x80\xf6\x34", 4))
        return "Softimage PIC";
    if (size >= 2 && d[0] == 'P' && d[1] >= '1' && d[1] <= '7')
        return "PNM (PBM/PGM/PPM/PAM)";
    return NULL;
}

/* ---- the decode, in-process or in children under a wall-clock limit ------ */

/* Everything before the pixels: the format by its first bytes, the header
 * checks and the size. A DDS is decoded here (*out set, *job untouched);
 * otherwise *job is ready for stb but for its pixels (job->px NULL). */
static mmd_status prepare(const uint8_t *d, size_t size, mmd_image *out, mmd_decode_job *job, mmd_error *err)
{
    memset(job, 0, sizeof *job);
    if (!d || size == 0)
        return mmd_fail(err, MMD_E_TRUNCATED, "image is empty");
    img_fmt fmt = sniff(d, size);
    if (fmt == FMT_DDS)
        return load_dds(d, size, out, err);
    if (fmt == FMT_NONE) {
        const char *other = other_format_name(d, size);
        return mmd_fail(err, other ? MMD_E_UNSUPPORTED : MMD_E_BAD_MAGIC,
                        "%s%snot a supported image (BMP, PNG, TGA, JPEG, GIF, DDS): refused by its "
                        "first bytes", other ? other : "", other ? " is " : "");
    }
    if (size > INT_MAX)
        return mmd_fail(err, MMD_E_LIMIT, "image file is %zu bytes, too large", size);
    if (fmt == FMT_PNG) {
        mmd_status st = check_png_chunks(d, size, err);
        if (st != MMD_OK)
            return st;
    }
    int w = 0, h = 0, comp = 0;
    if (!stbi_info_from_memory(d, (int)size, &w, &h, &comp)) {
        const char *why = stbi_failure_reason();
        return mmd_fail(err, MMD_E_BAD_MAGIC,
                        "not a supported image (BMP, PNG, TGA, JPEG, GIF, DDS): %s",
                        why ? why : "unknown format");
    }
    if (fmt == FMT_BMP && h < 0 && h != INT_MIN)
        h = -h; /* stbi_info gives a top-down BMP's stored negative height; stbi_load its size */
    mmd_status st = check_dims(w, h, err);
    if (st != MMD_OK)
        return st;
    if (fmt == FMT_BMP)
        st = check_bmp_size(d, size, err);
    else if (fmt == FMT_TGA)
        st = check_tga_size(d, size, w, h, err);
    if (st != MMD_OK)
        return st;
    *job = (mmd_decode_job){.data = d, .size = size, .w = w, .h = h};
    return MMD_OK;
}

/* Pixels for a prepared job (ours, so callers free() them like DDS data). */
static mmd_status alloc_pixels(mmd_decode_job *job, mmd_error *err)
{
    size_t bytes = (size_t)job->w * (size_t)job->h * 4;
    job->px = malloc(bytes);
    return job->px ? MMD_OK : mmd_fail(err, MMD_E_NOMEM, "cannot allocate %zu bytes", bytes);
}

/* A decoded job into *out (taking its pixels), or its error. */
static mmd_status finish(mmd_decode_job *job, mmd_image *out, mmd_error *err)
{
    if (job->res.status != MMD_OK) {
        free(job->px);
        job->px = NULL;
        return mmd_fail(err, job->res.status, "%s", job->res.why);
    }
    mmd_image img;
    memset(&img, 0, sizeof img);
    img.data = job->px;
    img.width = job->w;
    img.height = job->h;
    img.format = MMD_IMAGE_RGBA8;
    img.size = (size_t)job->w * (size_t)job->h * 4;
    img.levels = 1;
    img.level_size[0] = img.size;
    img.has_alpha = rgba_has_alpha(img.data, (size_t)job->w * job->h);
    job->px = NULL;
    *out = img;
    return MMD_OK;
}

static mmd_status load_memory(const uint8_t *d, size_t size, int limit_ms, mmd_image *out, mmd_error *err)
{
    mmd_decode_job job;
    mmd_status st = prepare(d, size, out, &job, err);
    if (st != MMD_OK || !job.data) /* an error, or a DDS decoded */
        return st;
    if ((st = alloc_pixels(&job, err)) != MMD_OK)
        return st;
    if (limit_ms > 0)
        mmd_decode_children(&job, 1, 1, limit_ms);
    else
        mmd_decode_here(&job);
    return finish(&job, out, err);
}

mmd_status mmd_image_load_memory(const void *data, size_t size, mmd_image *out, mmd_error *err)
{
    return load_memory(data, size, 0, out, err);
}

mmd_status mmd_image_load_memory_timed(const void *data, size_t size, int limit_ms, mmd_image *out, mmd_error *err)
{
    return load_memory(data, size, limit_ms, out, err);
}

/* The path before the sentence; the offset stays. */
static mmd_status with_path(mmd_error *err, const char *path, mmd_status st, const mmd_error *inner)
{
    return mmd_error_set(err, st, inner->section, inner->item, inner->offset, "%s: %s", path, inner->msg);
}


/* Bytes a prepared file will take decoded. */
static size_t decoded_bytes(const mmd_decode_job *job, const mmd_image *dds)
{
    return job->data ? (size_t)job->w * (size_t)job->h * 4 : dds->size;
}

/* Files read and prepared in order while their decoded bytes fit max_bytes
 * (the first always); those stb decodes go to the children together. The
 * count handled; every file's bytes are freed before returning. */
static size_t load_batch(const char *const *paths, size_t n, int workers, size_t max_bytes, mmd_image *out,
                         mmd_status *st, mmd_error *errs, void **data, mmd_decode_job *jobs, size_t *at)
{
    size_t i, nj = 0, total = 0; /* jobs[k] is file at[k] */
    for (i = 0; i < n; i++) {
        mmd_error inner;
        size_t size = 0;
        data[i] = NULL;
        if ((st[i] = mmd_file_read(paths[i], &data[i], &size, &inner)) != MMD_OK) {
            mmd_fail(&errs[i], st[i], "%s: %s", paths[i], inner.msg);
            continue;
        }
        st[i] = prepare(data[i], size, &out[i], &jobs[nj], &inner);
        size_t bytes = st[i] == MMD_OK ? decoded_bytes(&jobs[nj], &out[i]) : 0;
        if (i > 0 && total + bytes > max_bytes) { /* the next call's */
            if (st[i] == MMD_OK && !jobs[nj].data)
                mmd_image_free(&out[i]);
            free(data[i]);
            break;
        }
        total += bytes;
        if (st[i] == MMD_OK && jobs[nj].data && (st[i] = alloc_pixels(&jobs[nj], &inner)) == MMD_OK) {
            at[nj++] = i; /* its bytes stay for the children */
            continue;
        }
        if (st[i] != MMD_OK)
            with_path(&errs[i], paths[i], st[i], &inner);
        free(data[i]); /* a DDS decoded, or an error: done with the bytes */
        data[i] = NULL;
    }
    mmd_decode_children(jobs, nj, workers, MMD_IMAGE_DECODE_MS);
    for (size_t k = 0; k < nj; k++) {
        mmd_error inner;
        size_t f = at[k];
        if ((st[f] = finish(&jobs[k], &out[f], &inner)) != MMD_OK)
            with_path(&errs[f], paths[f], st[f], &inner);
    }
    for (size_t f = 0; f < i; f++)
        free(data[f]);
    return i;
}

/* One file: the batch of one, in one child. */
mmd_status mmd_image_load_file(const char *path, mmd_image *out, mmd_error *err)
{
    void *data;
    mmd_decode_job job;
    size_t at;
    mmd_status st;
    mmd_error e;
    load_batch(&path, 1, 1, SIZE_MAX, out, &st, &e, &data, &job, &at);
    if (st != MMD_OK && err)
        *err = e;
    return st;
}

size_t mmd_image_load_files(const char *const *paths, size_t n, int workers, size_t max_bytes, mmd_image *out,
                            mmd_status *st, mmd_error *errs)
{
    void **data = malloc(n * sizeof *data);
    mmd_decode_job *jobs = malloc(n * sizeof *jobs);
    size_t *at = malloc(n * sizeof *at), done = 0;
    if (n > 0 && (!data || !jobs || !at))
        st[done] = mmd_image_load_file(paths[done], &out[done], &errs[done]), done++;
    else
        done = load_batch(paths, n, workers, max_bytes, out, st, errs, data, jobs, at);
    free(data);
    free(jobs);
    free(at);
    return done;
}
