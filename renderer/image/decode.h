/* renderer/image/decode.h - decode texture files into CPU memory (no GL here).
 *
 *   mmd_image_load_file(path, &img, &err)          read and decode a file
 *   mmd_image_load_memory(data, size, &img, &err)  decode bytes (borrowed for the call)
 *   mmd_image_free(&img)                            release img->data (NULL/zeroed ok)
 *
 * The format is detected from the content, never the extension (.sph/.spa
 * sphere maps are ordinary BMP/PNG/...; MMD files often carry a wrong suffix).
 * BMP (incl. 32-bit; an all-zero alpha channel means opaque, as in MMD),
 * PNG, TGA, JPEG, GIF (first frame) go through stb_image and come out RGBA8.
 * DDS is parsed here: DXT1/DXT3/DXT5 keep their compressed blocks (every mip
 * level present in the file, for glCompressedTexImage2D); uncompressed DDS
 * becomes RGBA8 (level 0 only): 8/16/24/32-bit RGB(A) by masks (A8R8G8B8,
 * X8R8G8B8, R5G6B5, ...), luminance (L8, A8L8), A8, and the D3DFMT codes in
 * the FourCC field (R16F, G16R16F, A16B16G16R16F, R32F, G32R32F,
 * A32B32G32R32F: clamped to 0..1). A volume texture (DDSCAPS2_VOLUME, as
 * MME's texture3D reads) or a cube map (all six faces, as textureCUBE
 * reads) in those uncompressed formats becomes an RGBA8 image with depth
 * slices or six faces, one after the other (level 0); DXT volumes and cube
 * maps, and cube maps missing a face, are refused (MMD_E_UNSUPPORTED).
 * Rows are top row first in every format (DDS stores them that way too), so
 * a texture uploaded as is must be sampled with MMD's v (0 = top) unflipped.
 *
 * The format is decided by the first bytes before any decoder runs: the
 * signatures of PNG, BMP, JPEG, GIF and DDS, or a valid TGA header. Everything
 * else (stb's other formats too: Radiance HDR, PSD, PIC, PNM) is refused with
 * MMD_E_UNSUPPORTED, naming the format when it is one of those.
 *
 * mmd_image_load_file decodes under a time budget (MMD_IMAGE_DECODE_MS of wall
 * time, in a child process that is killed after it: MMD_E_LIMIT), so that a
 * decoder bug cannot hang a worker; mmd_image_load_memory_timed takes the
 * budget as an argument, mmd_image_load_memory decodes in-process (fuzzing).
 * mmd_image_load_files decodes many files as mmd_image_load_file does each,
 * side by side in a few children (one fork per child, not per file).
 *
 * All loaders return MMD_OK (0) or an mmd_status (core/status.h) with a
 * sentence in err (may be NULL), and the byte offset in err->offset where the
 * sentence names one (PNG chunks, in-process decoding); *out is written only
 * on success. Corrupt input never
 * crashes; sizes above MMD_IMAGE_MAX_SIDE per side or MMD_IMAGE_MAX_PIXELS in
 * total are refused (MMD_E_LIMIT) before anything is allocated.
 */
#ifndef MMD_RENDERER_IMAGE_H
#define MMD_RENDERER_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

#define MMD_IMAGE_MAX_SIDE 16384
#define MMD_IMAGE_MAX_PIXELS (64u * 1024u * 1024u)
#define MMD_IMAGE_MAX_LEVELS 16
#define MMD_IMAGE_MAX_DEPTH 2048 /* slices of a volume texture (D3D9 cards' MaxVolumeExtent) */
#define MMD_IMAGE_DECODE_MS 20000 /* wall-clock budget of one texture decode */

enum {
    MMD_IMAGE_RGBA8 = 0, /* 4 bytes per pixel, straight alpha */
    MMD_IMAGE_DXT1 = 1,  /* 8-byte blocks (GL_COMPRESSED_RGBA_S3TC_DXT1_EXT: 1-bit alpha) */
    MMD_IMAGE_DXT3 = 2,  /* 16-byte blocks */
    MMD_IMAGE_DXT5 = 3,  /* 16-byte blocks */
};

typedef struct mmd_image {
    int width, height;   /* level 0 */
    int depth;           /* 0: a 2D image; >= 1: a volume of depth width x height slices (RGBA8, 1 level) */
    bool cube;           /* a cube map: depth 6 faces, +X -X +Y -Y +Z -Z as DDS and GL order them */
    int format;          /* MMD_IMAGE_* */
    uint8_t *data;       /* malloc'd; all levels back to back */
    size_t size;         /* bytes in data */
    int levels;          /* >= 1; level i is max(1, w >> i) x max(1, h >> i) */
    size_t level_offset[MMD_IMAGE_MAX_LEVELS]; /* byte offset of each level in data */
    size_t level_size[MMD_IMAGE_MAX_LEVELS];   /* bytes of each level */
    bool has_alpha;      /* some texel is not fully opaque (DXT3/5: always true) */
} mmd_image;

mmd_status mmd_image_load_file(const char *path, mmd_image *out, mmd_error *err);
mmd_status mmd_image_load_memory(const void *data, size_t size, mmd_image *out, mmd_error *err);
mmd_status mmd_image_load_memory_timed(const void *data, size_t size, int limit_ms, mmd_image *out,
                                       mmd_error *err);
/* The first k of paths[0..n) decoded as mmd_image_load_file would, each
 * under its own budget, in up to `workers` child processes at once; k (>= 1
 * when n >= 1) is returned: the files, in order, whose decoded bytes fit
 * max_bytes together (the first always). For i < k, st[i] is MMD_OK with
 * out[i] set (the caller frees it), or an error with errs[i]. */
size_t mmd_image_load_files(const char *const *paths, size_t n, int workers, size_t max_bytes, mmd_image *out,
                            mmd_status *st, mmd_error *errs);
void mmd_image_free(mmd_image *img);
/* Halve img in place to fit a memory budget: RGBA8 is box-filtered to
 * ceil(w/2) x ceil(h/2); DXT drops its top mip level when it has another.
 * False (img unchanged) when it cannot get smaller (1x1, a DXT with one
 * level, a volume, or out of memory). */
bool mmd_image_halve(mmd_image *img);

/* The next mip level of a w x h RGBA8 image whose sides are powers of two
 * (each side halved, a side of 1 stays 1) into dst, rounded as llvmpipe's
 * glGenerateMipmap rounds it: each row pair (a + b + 1) >> 1, then the two
 * rows the same way (byte-identical for power-of-two sizes, checked by
 * test_render's mip test), so levels can be built on the CPU instead of by a
 * blit that costs a shader compile on first use. */
void mmd_image_mip_next(const uint8_t *src, int w, int h, uint8_t *dst);

/* Short name of a format ("RGBA8", "DXT1", ...). */
const char *mmd_image_format_name(int format);

#endif
