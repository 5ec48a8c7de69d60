/* tests/util/dds_writer.h - DDS files of our own for tests and fuzz seeds
 * (renderer/image/decode.c reads them): 2D or volume, DXT blocks, bit masks
 * or a D3DFMT code in the FourCC field.
 *
 *     mmd_test_dds f = {.width = 4, .height = 2, .depth = 3, .pf_flags = MMD_DDPF_RGB | MMD_DDPF_ALPHAPIXELS,
 *                       .bpp = 32, .mask = {0xff0000, 0xff00, 0xff, 0xff000000}};
 *     size_t n; uint8_t *d = mmd_test_dds_file(&f, pixels, &n);   (free(d))
 */
#ifndef MMD_TESTS_UTIL_DDS_WRITER_H
#define MMD_TESTS_UTIL_DDS_WRITER_H

#include <stddef.h>
#include <stdint.h>

#define MMD_DDPF_ALPHAPIXELS 0x1u
#define MMD_DDPF_ALPHA 0x2u
#define MMD_DDPF_FOURCC 0x4u
#define MMD_DDPF_RGB 0x40u
#define MMD_DDPF_LUMINANCE 0x20000u

typedef struct mmd_test_dds {
    int width, height;
    int depth;          /* 0: a 2D texture; >= 1: a volume (DDSD_DEPTH, DDSCAPS2_VOLUME) */
    int mips;           /* levels of a DXT file or of each cube face (0 or 1: one); others hold level 0 */
    int cube;           /* 1: a cube map, six faces of width x height (DDSCAPS2_CUBEMAP, all faces) */
    const char *fourcc; /* "DXT1", "DXT3", "DXT5"; NULL: d3dfmt or masks */
    uint32_t d3dfmt;    /* a D3DFMT code in the FourCC field (111 R16F, 114 R32F ...), 0: masks */
    unsigned bytes;     /* bytes per pixel of a d3dfmt file */
    uint32_t pf_flags;  /* masks: MMD_DDPF_RGB, _LUMINANCE, _ALPHA, _ALPHAPIXELS */
    int bpp;            /* masks: bits per pixel */
    uint32_t mask[4];   /* r, g, b, a */
} mmd_test_dds;

/* Bytes of pixel data after the 128-byte header. */
size_t mmd_test_dds_data_size(const mmd_test_dds *f);
/* Header then data: px (mmd_test_dds_data_size bytes) or, when NULL, a
 * pattern; malloc'd (NULL: no memory), its size in *n. */
uint8_t *mmd_test_dds_file(const mmd_test_dds *f, const void *px, size_t *n);

#endif
