/* tests/unit/test_image.c - texture decoding: BMP (24/32-bit, alpha rule), TGA,
 * GIF (first frame), JPEG, DDS (DXT1/3/5 blocks + mips, A8R8G8B8, X8R8G8B8,
 * L8, A8L8, float formats, volume textures),
 * limits and corrupt input (truncation sweeps must fail cleanly). */
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/status.h"
#include "renderer/image/decode.h"
#include "tests/util/dds_writer.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* ffmpeg-made fixtures: a 4x4 GIF whose first frame is red and second blue,
 * an 8x8 JPEG of colour 0x4080C0. */
static const unsigned char anim_gif[] = {
  0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x04, 0x00, 0x04, 0x00, 0xf7, 0x1f,
  0x31, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x48, 0x00, 0x00, 0x6c, 0x00,
  0x00, 0x90, 0x00, 0x00, 0xb4, 0x00, 0x00, 0xd8, 0x00, 0x00, 0xfc, 0x00,
  0x00, 0x00, 0x24, 0x00, 0x24, 0x24, 0x00, 0x48, 0x24, 0x00, 0x6c, 0x24,
  0x00, 0x90, 0x24, 0x00, 0xb4, 0x24, 0x00, 0xd8, 0x24, 0x00, 0xfc, 0x24,
  0x00, 0x00, 0x48, 0x00, 0x24, 0x48, 0x00, 0x48, 0x48, 0x00, 0x6c, 0x48,
  0x00, 0x90, 0x48, 0x00, 0xb4, 0x48, 0x00, 0xd8, 0x48, 0x00, 0xfc, 0x48,
  0x00, 0x00, 0x6c, 0x00, 0x24, 0x6c, 0x00, 0x48, 0x6c, 0x00, 0x6c, 0x6c,
  0x00, 0x90, 0x6c, 0x00, 0xb4, 0x6c, 0x00, 0xd8, 0x6c, 0x00, 0xfc, 0x6c,
  0x00, 0x00, 0x90, 0x00, 0x24, 0x90, 0x00, 0x48, 0x90, 0x00, 0x6c, 0x90,
  0x00, 0x90, 0x90, 0x00, 0xb4, 0x90, 0x00, 0xd8, 0x90, 0x00, 0xfc, 0x90,
  0x00, 0x00, 0xb4, 0x00, 0x24, 0xb4, 0x00, 0x48, 0xb4, 0x00, 0x6c, 0xb4,
  0x00, 0x90, 0xb4, 0x00, 0xb4, 0xb4, 0x00, 0xd8, 0xb4, 0x00, 0xfc, 0xb4,
  0x00, 0x00, 0xd8, 0x00, 0x24, 0xd8, 0x00, 0x48, 0xd8, 0x00, 0x6c, 0xd8,
  0x00, 0x90, 0xd8, 0x00, 0xb4, 0xd8, 0x00, 0xd8, 0xd8, 0x00, 0xfc, 0xd8,
  0x00, 0x00, 0xfc, 0x00, 0x24, 0xfc, 0x00, 0x48, 0xfc, 0x00, 0x6c, 0xfc,
  0x00, 0x90, 0xfc, 0x00, 0xb4, 0xfc, 0x00, 0xd8, 0xfc, 0x00, 0xfc, 0xfc,
  0x00, 0x00, 0x00, 0x55, 0x24, 0x00, 0x55, 0x48, 0x00, 0x55, 0x6c, 0x00,
  0x55, 0x90, 0x00, 0x55, 0xb4, 0x00, 0x55, 0xd8, 0x00, 0x55, 0xfc, 0x00,
  0x55, 0x00, 0x24, 0x55, 0x24, 0x24, 0x55, 0x48, 0x24, 0x55, 0x6c, 0x24,
  0x55, 0x90, 0x24, 0x55, 0xb4, 0x24, 0x55, 0xd8, 0x24, 0x55, 0xfc, 0x24,
  0x55, 0x00, 0x48, 0x55, 0x24, 0x48, 0x55, 0x48, 0x48, 0x55, 0x6c, 0x48,
  0x55, 0x90, 0x48, 0x55, 0xb4, 0x48, 0x55, 0xd8, 0x48, 0x55, 0xfc, 0x48,
  0x55, 0x00, 0x6c, 0x55, 0x24, 0x6c, 0x55, 0x48, 0x6c, 0x55, 0x6c, 0x6c,
  0x55, 0x90, 0x6c, 0x55, 0xb4, 0x6c, 0x55, 0xd8, 0x6c, 0x55, 0xfc, 0x6c,
  0x55, 0x00, 0x90, 0x55, 0x24, 0x90, 0x55, 0x48, 0x90, 0x55, 0x6c, 0x90,
  0x55, 0x90, 0x90, 0x55, 0xb4, 0x90, 0x55, 0xd8, 0x90, 0x55, 0xfc, 0x90,
  0x55, 0x00, 0xb4, 0x55, 0x24, 0xb4, 0x55, 0x48, 0xb4, 0x55, 0x6c, 0xb4,
  0x55, 0x90, 0xb4, 0x55, 0xb4, 0xb4, 0x55, 0xd8, 0xb4, 0x55, 0xfc, 0xb4,
  0x55, 0x00, 0xd8, 0x55, 0x24, 0xd8, 0x55, 0x48, 0xd8, 0x55, 0x6c, 0xd8,
  0x55, 0x90, 0xd8, 0x55, 0xb4, 0xd8, 0x55, 0xd8, 0xd8, 0x55, 0xfc, 0xd8,
  0x55, 0x00, 0xfc, 0x55, 0x24, 0xfc, 0x55, 0x48, 0xfc, 0x55, 0x6c, 0xfc,
  0x55, 0x90, 0xfc, 0x55, 0xb4, 0xfc, 0x55, 0xd8, 0xfc, 0x55, 0xfc, 0xfc,
  0x55, 0x00, 0x00, 0xaa, 0x24, 0x00, 0xaa, 0x48, 0x00, 0xaa, 0x6c, 0x00,
  0xaa, 0x90, 0x00, 0xaa, 0xb4, 0x00, 0xaa, 0xd8, 0x00, 0xaa, 0xfc, 0x00,
  0xaa, 0x00, 0x24, 0xaa, 0x24, 0x24, 0xaa, 0x48, 0x24, 0xaa, 0x6c, 0x24,
  0xaa, 0x90, 0x24, 0xaa, 0xb4, 0x24, 0xaa, 0xd8, 0x24, 0xaa, 0xfc, 0x24,
  0xaa, 0x00, 0x48, 0xaa, 0x24, 0x48, 0xaa, 0x48, 0x48, 0xaa, 0x6c, 0x48,
  0xaa, 0x90, 0x48, 0xaa, 0xb4, 0x48, 0xaa, 0xd8, 0x48, 0xaa, 0xfc, 0x48,
  0xaa, 0x00, 0x6c, 0xaa, 0x24, 0x6c, 0xaa, 0x48, 0x6c, 0xaa, 0x6c, 0x6c,
  0xaa, 0x90, 0x6c, 0xaa, 0xb4, 0x6c, 0xaa, 0xd8, 0x6c, 0xaa, 0xfc, 0x6c,
  0xaa, 0x00, 0x90, 0xaa, 0x24, 0x90, 0xaa, 0x48, 0x90, 0xaa, 0x6c, 0x90,
  0xaa, 0x90, 0x90, 0xaa, 0xb4, 0x90, 0xaa, 0xd8, 0x90, 0xaa, 0xfc, 0x90,
  0xaa, 0x00, 0xb4, 0xaa, 0x24, 0xb4, 0xaa, 0x48, 0xb4, 0xaa, 0x6c, 0xb4,
  0xaa, 0x90, 0xb4, 0xaa, 0xb4, 0xb4, 0xaa, 0xd8, 0xb4, 0xaa, 0xfc, 0xb4,
  0xaa, 0x00, 0xd8, 0xaa, 0x24, 0xd8, 0xaa, 0x48, 0xd8, 0xaa, 0x6c, 0xd8,
  0xaa, 0x90, 0xd8, 0xaa, 0xb4, 0xd8, 0xaa, 0xd8, 0xd8, 0xaa, 0xfc, 0xd8,
  0xaa, 0x00, 0xfc, 0xaa, 0x24, 0xfc, 0xaa, 0x48, 0xfc, 0xaa, 0x6c, 0xfc,
  0xaa, 0x90, 0xfc, 0xaa, 0xb4, 0xfc, 0xaa, 0xd8, 0xfc, 0xaa, 0xfc, 0xfc,
  0xaa, 0x00, 0x00, 0xff, 0x24, 0x00, 0xff, 0x48, 0x00, 0xff, 0x6c, 0x00,
  0xff, 0x90, 0x00, 0xff, 0xb4, 0x00, 0xff, 0xd8, 0x00, 0xff, 0xfc, 0x00,
  0xff, 0x00, 0x24, 0xff, 0x24, 0x24, 0xff, 0x48, 0x24, 0xff, 0x6c, 0x24,
  0xff, 0x90, 0x24, 0xff, 0xb4, 0x24, 0xff, 0xd8, 0x24, 0xff, 0xfc, 0x24,
  0xff, 0x00, 0x48, 0xff, 0x24, 0x48, 0xff, 0x48, 0x48, 0xff, 0x6c, 0x48,
  0xff, 0x90, 0x48, 0xff, 0xb4, 0x48, 0xff, 0xd8, 0x48, 0xff, 0xfc, 0x48,
  0xff, 0x00, 0x6c, 0xff, 0x24, 0x6c, 0xff, 0x48, 0x6c, 0xff, 0x6c, 0x6c,
  0xff, 0x90, 0x6c, 0xff, 0xb4, 0x6c, 0xff, 0xd8, 0x6c, 0xff, 0xfc, 0x6c,
  0xff, 0x00, 0x90, 0xff, 0x24, 0x90, 0xff, 0x48, 0x90, 0xff, 0x6c, 0x90,
  0xff, 0x90, 0x90, 0xff, 0xb4, 0x90, 0xff, 0xd8, 0x90, 0xff, 0xfc, 0x90,
  0xff, 0x00, 0xb4, 0xff, 0x24, 0xb4, 0xff, 0x48, 0xb4, 0xff, 0x6c, 0xb4,
  0xff, 0x90, 0xb4, 0xff, 0xb4, 0xb4, 0xff, 0xd8, 0xb4, 0xff, 0xfc, 0xb4,
  0xff, 0x00, 0xd8, 0xff, 0x24, 0xd8, 0xff, 0x48, 0xd8, 0xff, 0x6c, 0xd8,
  0xff, 0x90, 0xd8, 0xff, 0xb4, 0xd8, 0xff, 0xd8, 0xd8, 0xff, 0xfc, 0xd8,
  0xff, 0x00, 0xfc, 0xff, 0x24, 0xfc, 0xff, 0x48, 0xfc, 0xff, 0x6c, 0xfc,
  0xff, 0x90, 0xfc, 0xff, 0xb4, 0xfc, 0xff, 0xd8, 0xfc, 0xff, 0xfc, 0xfc,
  0xff, 0x21, 0xff, 0x0b, 0x4e, 0x45, 0x54, 0x53, 0x43, 0x41, 0x50, 0x45,
  0x32, 0x2e, 0x30, 0x03, 0x01, 0x00, 0x00, 0x00, 0x21, 0xf9, 0x04, 0x04,
  0x01, 0x00, 0x1f, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x04,
  0x00, 0x00, 0x08, 0x0b, 0x00, 0x0f, 0x08, 0x1c, 0x48, 0x50, 0xa0, 0x81,
  0x81, 0x01, 0x01, 0x00, 0x21, 0xf9, 0x04, 0x05, 0x01, 0x00, 0x00, 0x00,
  0x2c, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x04, 0x00, 0x00, 0x08, 0x0a,
  0x00, 0x01, 0x01, 0x1b, 0x48, 0xb0, 0xa0, 0xc1, 0x80, 0x00, 0x00, 0x3b
};
static const unsigned char solid_jpg[] = {
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01,
  0x02, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x10,
  0x4c, 0x61, 0x76, 0x63, 0x35, 0x39, 0x2e, 0x33, 0x37, 0x2e, 0x31, 0x30,
  0x30, 0x00, 0xff, 0xdb, 0x00, 0x43, 0x00, 0x08, 0x04, 0x04, 0x04, 0x04,
  0x04, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x06, 0x06, 0x06, 0x06, 0x06,
  0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x06, 0x07, 0x07, 0x07, 0x08,
  0x08, 0x08, 0x07, 0x07, 0x07, 0x06, 0x06, 0x07, 0x07, 0x08, 0x08, 0x08,
  0x08, 0x09, 0x09, 0x09, 0x08, 0x08, 0x08, 0x08, 0x09, 0x09, 0x0a, 0x0a,
  0x0a, 0x0c, 0x0c, 0x0b, 0x0b, 0x0e, 0x0e, 0x0e, 0x11, 0x11, 0x14, 0xff,
  0xc4, 0x00, 0x4b, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x01, 0x01,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x06, 0x10, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x11, 0x01,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x08, 0x00,
  0x08, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00, 0xff,
  0xda, 0x00, 0x0c, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3f,
  0x00, 0x8c, 0x02, 0xb1, 0x97, 0xff, 0xd9
};

static void put16(uint8_t *p, unsigned v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Bottom-up BI_RGB BMP of w x h, bpp 24 or 32; pixel (x, y) (y = 0 top) has
 * colour px(x, y). Returns malloc'd bytes. */
static uint8_t *make_bmp(int w, int h, int bpp, void (*px)(int, int, uint8_t[4]), size_t *size)
{
    size_t row = ((size_t)w * (bpp / 8) + 3) & ~(size_t)3;
    size_t n = 54 + row * h;
    uint8_t *b = calloc(1, n);
    b[0] = 'B';
    b[1] = 'M';
    put32(b + 2, (uint32_t)n);
    put32(b + 10, 54);
    put32(b + 14, 40);
    put32(b + 18, (uint32_t)w);
    put32(b + 22, (uint32_t)h);
    put16(b + 26, 1);
    put16(b + 28, (unsigned)bpp);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t c[4];
            px(x, y, c);
            uint8_t *o = b + 54 + row * (size_t)(h - 1 - y) + (size_t)x * (bpp / 8);
            o[0] = c[2];
            o[1] = c[1];
            o[2] = c[0];
            if (bpp == 32)
                o[3] = c[3];
        }
    *size = n;
    return b;
}

static void px_grad_zero_alpha(int x, int y, uint8_t c[4])
{
    c[0] = (uint8_t)(10 * x);
    c[1] = (uint8_t)(10 * y);
    c[2] = 7;
    c[3] = 0;
}
static void px_grad_alpha(int x, int y, uint8_t c[4])
{
    px_grad_zero_alpha(x, y, c);
    c[3] = (uint8_t)(x * 40 + y);
}

TEST(bmp_24bit_top_row_first)
{
    size_t n;
    uint8_t *b = make_bmp(5, 3, 24, px_grad_zero_alpha, &n);
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(b, n, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.width, 5);
    CHECK_EQ_INT(img.height, 3);
    CHECK_EQ_INT(img.format, MMD_IMAGE_RGBA8);
    CHECK_EQ_INT(img.levels, 1);
    CHECK_EQ_INT(img.size, 5 * 3 * 4);
    CHECK(!img.has_alpha);
    const uint8_t *p = img.data + (2 * 5 + 4) * 4; /* (4, 2) */
    CHECK_EQ_INT(p[0], 40);
    CHECK_EQ_INT(p[1], 20);
    CHECK_EQ_INT(p[2], 7);
    CHECK_EQ_INT(p[3], 255);
    CHECK_EQ_INT(img.data[1], 0); /* (0, 0): top row first */
    mmd_image_free(&img);
    CHECK(img.data == NULL);
    mmd_image_free(&img);
    mmd_image_free(NULL);
    free(b);
}

TEST(bmp_32bit_all_zero_alpha_is_opaque)
{
    size_t n;
    uint8_t *b = make_bmp(4, 4, 32, px_grad_zero_alpha, &n);
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(b, n, &img, &ie) == MMD_OK);
    for (int i = 0; i < 16; i++)
        CHECK_EQ_INT(img.data[i * 4 + 3], 255);
    CHECK(!img.has_alpha);
    CHECK_EQ_INT(img.data[(1 * 4 + 3) * 4 + 0], 30);
    CHECK_EQ_INT(img.data[(1 * 4 + 3) * 4 + 1], 10);
    mmd_image_free(&img);
    free(b);
}

TEST(bmp_32bit_alpha_is_kept)
{
    size_t n;
    uint8_t *b = make_bmp(4, 4, 32, px_grad_alpha, &n);
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(b, n, &img, &ie) == MMD_OK);
    CHECK(img.has_alpha);
    CHECK_EQ_INT(img.data[3], 0);                       /* (0,0) */
    CHECK_EQ_INT(img.data[(2 * 4 + 3) * 4 + 3], 122);   /* (3,2): 3*40+2 */
    CHECK_EQ_INT(img.data[(2 * 4 + 3) * 4 + 0], 30);
    mmd_image_free(&img);
    free(b);
}

TEST(tga_uncompressed_bottom_up)
{
    /* 2x2 type-2 TGA, 24 bpp, origin bottom-left: first stored row is the bottom. */
    uint8_t t[18 + 12] = {0};
    t[2] = 2;
    put16(t + 12, 2);
    put16(t + 14, 2);
    t[16] = 24;
    const uint8_t bgr[12] = {255, 0, 0, 0, 255, 0, /* bottom: blue, green */
                             0, 0, 255, 255, 255, 255 /* top: red, white */};
    memcpy(t + 18, bgr, 12);
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(t, sizeof t, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.width, 2);
    const uint8_t want[16] = {255, 0, 0, 255, 255, 255, 255, 255, 0, 0, 255, 255, 0, 255, 0, 255};
    CHECK(memcmp(img.data, want, 16) == 0);
    mmd_image_free(&img);
}

/* Pixel data shorter than the header promises: refused, not decoded as black. */
TEST(bmp_truncated_pixel_data_refused)
{
    size_t n;
    uint8_t *b = make_bmp(5, 3, 24, px_grad_zero_alpha, &n); /* rows of 16 bytes: 54 + 48 = 102 */
    REQUIRE(n == 102);
    mmd_image img;
    mmd_error ie = {0};
    /* the last row's padding (1 byte) may be missing: all 15 pixels are there */
    CHECK_EQ_INT(mmd_image_load_memory(b, n - 1, &img, &ie), MMD_OK);
    mmd_image_free(&img);
    /* one pixel byte short: 54 + 2 * 16 + 15 = 101 needed */
    CHECK_EQ_INT(mmd_image_load_memory(b, n - 2, &img, &ie), MMD_E_TRUNCATED);
    CHECK(strstr(ie.msg, "needs 101 bytes") != NULL);
    CHECK(strstr(ie.msg, "has 100") != NULL);
    /* only the header */
    CHECK_EQ_INT(mmd_image_load_memory(b, 54, &img, &ie), MMD_E_TRUNCATED);
    CHECK(strstr(ie.msg, "has 54") != NULL);
    /* top-down (negative height): loads, and is measured the same way */
    put32(b + 22, (uint32_t)-3);
    REQUIRE(mmd_image_load_memory(b, n, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.height, 3);
    CHECK_EQ_INT(img.data[(2 * 5 + 4) * 4 + 1], 0); /* stored first row is now the top: (4,2) has y 0 */
    mmd_image_free(&img);
    CHECK_EQ_INT(mmd_image_load_memory(b, n - 20, &img, &ie), MMD_E_TRUNCATED);
    /* a 32-bit BI_BITFIELDS one */
    free(b);
    b = make_bmp(4, 4, 32, px_grad_alpha, &n); /* 54 + 64 */
    put32(b + 30, 3);
    CHECK_EQ_INT(mmd_image_load_memory(b, n - 4, &img, &ie), MMD_E_TRUNCATED);
    CHECK(strstr(ie.msg, "needs 118 bytes") != NULL);
    free(b);
}

TEST(tga_truncated_pixel_data_refused)
{
    uint8_t t[18 + 3 + 12] = {0};
    t[0] = 3; /* 3-byte image id */
    t[2] = 2;
    put16(t + 12, 2);
    put16(t + 14, 2);
    t[16] = 24;
    memset(t + 21, 200, 12);
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(t, sizeof t, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.data[0], 200);
    mmd_image_free(&img);
    CHECK_EQ_INT(mmd_image_load_memory(t, sizeof t - 1, &img, &ie), MMD_E_TRUNCATED);
    CHECK(strstr(ie.msg, "needs 33 bytes") != NULL);
    CHECK(strstr(ie.msg, "has 32") != NULL);
    /* grey (type 3), 8 bpp, header only */
    uint8_t g[18 + 4] = {0};
    g[2] = 3;
    put16(g + 12, 2);
    put16(g + 14, 2);
    g[16] = 8;
    REQUIRE(mmd_image_load_memory(g, sizeof g, &img, &ie) == MMD_OK);
    mmd_image_free(&img);
    CHECK_EQ_INT(mmd_image_load_memory(g, 18 + 2, &img, &ie), MMD_E_TRUNCATED);
    CHECK(strstr(ie.msg, "needs 22 bytes") != NULL);
}

/* Run-length TGA (type 10): at most 128 pixels a packet, so 300 pixels need
 * three packets of 1 + 3 bytes at least; fewer bytes are refused before stb,
 * which would read the missing ones as zeros (the fuzzer's 18-byte header of
 * 5956x8275 pixels). */
TEST(tga_rle_too_short_refused)
{
    uint8_t t[18 + 3 * 4] = {0};
    t[2] = 10;
    put16(t + 12, 300);
    put16(t + 14, 1);
    t[16] = 24;
    const uint8_t packets[12] = {0x80 | 127, 10, 20, 30, 0x80 | 127, 10, 20, 30, 0x80 | 43, 10, 20, 30};
    memcpy(t + 18, packets, sizeof packets);
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(t, sizeof t, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.width, 300);
    CHECK_EQ_INT(img.data[299 * 4 + 0], 30); /* BGR stored: red is the third byte */
    mmd_image_free(&img);
    CHECK_EQ_INT(mmd_image_load_memory(t, sizeof t - 1, &img, &ie), MMD_E_TRUNCATED);
    CHECK(strstr(ie.msg, "run-length encoded needs 30 bytes") != NULL);
    const uint8_t bomb[18] = {1, 0, 10, 0, 40, 0, 10, 0, 40, 0, 0, 0, 0x44, 0x17, 0x53, 0x20, 15, 0x71};
    CHECK_EQ_INT(mmd_image_load_memory(bomb, sizeof bomb, &img, &ie), MMD_E_TRUNCATED);
}

TEST(gif_first_frame)
{
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(anim_gif, sizeof anim_gif, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.width, 4);
    CHECK_EQ_INT(img.height, 4);
    for (int i = 0; i < 16; i++) { /* red (ffmpeg's dithered palette: 216..252), not the blue 2nd frame */
        CHECK(img.data[i * 4 + 0] >= 200);
        CHECK(img.data[i * 4 + 2] <= 8);
    }
    mmd_image_free(&img);
}

TEST(jpeg_decodes)
{
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(solid_jpg, sizeof solid_jpg, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.width, 8);
    CHECK_NEAR(img.data[0], 0x40, 3);
    CHECK_NEAR(img.data[1], 0x80, 3);
    CHECK_NEAR(img.data[2], 0xC0, 3);
    CHECK_EQ_INT(img.data[3], 255);
    mmd_image_free(&img);
}

/* A DDS header; fourcc NULL means uncompressed RGB with the given masks. */
static size_t dds_header(uint8_t *d, int w, int h, int mips, const char *fourcc, int bpp,
                         uint32_t rm, uint32_t gm, uint32_t bm, uint32_t am)
{
    memset(d, 0, 128);
    memcpy(d, "DDS ", 4);
    put32(d + 4, 124);
    put32(d + 8, 0x1007 | (mips > 1 ? 0x20000u : 0));
    put32(d + 12, (uint32_t)h);
    put32(d + 16, (uint32_t)w);
    put32(d + 28, (uint32_t)mips);
    put32(d + 76, 32);
    if (fourcc) {
        put32(d + 80, 0x4);
        memcpy(d + 84, fourcc, 4);
    } else {
        put32(d + 80, 0x40 | (am ? 0x1u : 0));
        put32(d + 88, (uint32_t)bpp);
        put32(d + 92, rm);
        put32(d + 96, gm);
        put32(d + 100, bm);
        put32(d + 104, am);
    }
    put32(d + 108, 0x1000);
    return 128;
}

TEST(dds_dxt1_with_mips)
{
    /* 8x4: level 0 = 2 blocks, level 1 (4x2) = 1, level 2 (2x1) = 1, level 3 (1x1) = 1. */
    uint8_t d[128 + 5 * 8];
    dds_header(d, 8, 4, 4, "DXT1", 0, 0, 0, 0, 0);
    for (int i = 0; i < 40; i++)
        d[128 + i] = (uint8_t)(i + 1);
    d[128] = d[129] = 0xff; /* level-0 blocks: c0 > c1, opaque 4-colour mode */
    d[136] = d[137] = 0xff;
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(d, sizeof d, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.format, MMD_IMAGE_DXT1);
    CHECK_EQ_INT(img.width, 8);
    CHECK_EQ_INT(img.height, 4);
    CHECK_EQ_INT(img.levels, 4);
    CHECK_EQ_INT(img.level_size[0], 16);
    CHECK_EQ_INT(img.level_offset[1], 16);
    CHECK_EQ_INT(img.level_size[1], 8);
    CHECK_EQ_INT(img.level_offset[3], 32);
    CHECK_EQ_INT(img.size, 40);
    CHECK_EQ_INT(img.data[39], 40);
    CHECK(!img.has_alpha);
    mmd_image_free(&img);

    /* a cut mip chain keeps the complete levels */
    REQUIRE(mmd_image_load_memory(d, 128 + 29, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.levels, 2);
    CHECK_EQ_INT(img.size, 24);
    mmd_image_free(&img);
    /* level 0 cut: error */
    CHECK_EQ_INT(mmd_image_load_memory(d, 128 + 15, &img, &ie), MMD_E_TRUNCATED);
    CHECK(strstr(ie.msg, "DXT1") != NULL);
}

TEST(dds_dxt1_punch_through_alpha)
{
    uint8_t d[128 + 8];
    dds_header(d, 4, 4, 1, "DXT1", 0, 0, 0, 0, 0);
    memset(d + 128, 0, 8); /* c0 == c1: 3-colour mode */
    d[128 + 5] = 0x0c;     /* one index 3 */
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(d, sizeof d, &img, &ie) == MMD_OK);
    CHECK(img.has_alpha);
    CHECK_EQ_INT(img.levels, 1);
    mmd_image_free(&img);
}

TEST(dds_dxt5_and_dxt3)
{
    uint8_t d[128 + 32];
    dds_header(d, 5, 4, 1, "DXT5", 0, 0, 0, 0, 0); /* 5 wide -> 2 blocks */
    memset(d + 128, 0xab, 32);
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(d, sizeof d, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.format, MMD_IMAGE_DXT5);
    CHECK_EQ_INT(img.size, 32);
    CHECK(img.has_alpha);
    CHECK_STR(mmd_image_format_name(img.format), "DXT5");
    mmd_image_free(&img);
    memcpy(d + 84, "DXT3", 4);
    REQUIRE(mmd_image_load_memory(d, sizeof d, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.format, MMD_IMAGE_DXT3);
    mmd_image_free(&img);
    memcpy(d + 84, "ATI2", 4);
    CHECK_EQ_INT(mmd_image_load_memory(d, sizeof d, &img, &ie), MMD_E_UNSUPPORTED);
    CHECK(strstr(ie.msg, "ATI2") != NULL);
}

TEST(dds_a8r8g8b8_and_x8r8g8b8)
{
    uint8_t d[128 + 2 * 4];
    dds_header(d, 2, 1, 1, NULL, 32, 0xff0000, 0xff00, 0xff, 0xff000000u);
    const uint8_t px[8] = {0x10, 0x20, 0x30, 0x80, /* B G R A */ 1, 2, 3, 0xff};
    memcpy(d + 128, px, 8);
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(d, sizeof d, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.format, MMD_IMAGE_RGBA8);
    const uint8_t want[8] = {0x30, 0x20, 0x10, 0x80, 3, 2, 1, 0xff};
    CHECK(memcmp(img.data, want, 8) == 0);
    CHECK(img.has_alpha);
    mmd_image_free(&img);

    dds_header(d, 2, 1, 1, NULL, 32, 0xff0000, 0xff00, 0xff, 0); /* X8R8G8B8 */
    memcpy(d + 128, px, 8);
    REQUIRE(mmd_image_load_memory(d, sizeof d, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.data[3], 255);
    CHECK_EQ_INT(img.data[0], 0x30);
    CHECK(!img.has_alpha);
    mmd_image_free(&img);

    /* R5G6B5: white and pure green */
    uint8_t e[128 + 4];
    dds_header(e, 2, 1, 1, NULL, 16, 0xf800, 0x07e0, 0x001f, 0);
    put16(e + 128, 0xffff);
    put16(e + 130, 0x07e0);
    REQUIRE(mmd_image_load_memory(e, sizeof e, &img, &ie) == MMD_OK);
    const uint8_t want2[8] = {255, 255, 255, 255, 0, 255, 0, 255};
    CHECK(memcmp(img.data, want2, 8) == 0);
    mmd_image_free(&img);
    CHECK_EQ_INT(mmd_image_load_memory(e, sizeof e - 1, &img, &ie), MMD_E_TRUNCATED);
}

/* A volume texture (MME's texture3D, FilmGrain's noise.dds): depth slices of
 * RGBA8 one after the other, from our own writer (tests/util/dds_writer.h). */
TEST(dds_volume_a8r8g8b8)
{
    mmd_test_dds f = {.width = 2, .height = 2, .depth = 3, .pf_flags = MMD_DDPF_RGB | MMD_DDPF_ALPHAPIXELS,
                      .bpp = 32, .mask = {0xff0000, 0xff00, 0xff, 0xff000000u}};
    uint8_t px[2 * 2 * 3 * 4]; /* B G R A: blue = slice, green = texel, red = 7, alpha 255 */
    for (int i = 0; i < 12; i++) {
        px[i * 4 + 0] = (uint8_t)(i / 4 * 100);
        px[i * 4 + 1] = (uint8_t)(i % 4);
        px[i * 4 + 2] = 7;
        px[i * 4 + 3] = 255;
    }
    size_t n;
    uint8_t *d = mmd_test_dds_file(&f, px, &n);
    REQUIRE(d);
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(d, n, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.width, 2);
    CHECK_EQ_INT(img.height, 2);
    CHECK_EQ_INT(img.depth, 3);
    CHECK_EQ_INT(img.format, MMD_IMAGE_RGBA8);
    CHECK_EQ_INT(img.levels, 1);
    CHECK_EQ_INT((int)img.size, 48);
    CHECK_EQ_INT((int)img.level_size[0], 48);
    const uint8_t slice2_texel3[4] = {7, 3, 200, 255}; /* R G B A */
    CHECK(memcmp(img.data + (2 * 4 + 3) * 4, slice2_texel3, 4) == 0);
    CHECK(!img.has_alpha);
    CHECK(!mmd_image_halve(&img)); /* a volume is not halved: the budget draws it white */
    mmd_image_free(&img);
    /* a slice short: truncated, at the file's end */
    CHECK_EQ_INT(mmd_image_load_memory(d, n - 4, &img, &ie), MMD_E_TRUNCATED);
    CHECK(strstr(ie.msg, "2x2x3") != NULL);
    CHECK_EQ_INT((int)ie.offset, (int)(n - 4));
    /* every cut of the file fails cleanly */
    for (size_t cut = 0; cut < n; cut++)
        CHECK(mmd_image_load_memory(d, cut, &img, &ie) != MMD_OK);
    free(d);
}

TEST(dds_luminance_alpha_and_float_formats)
{
    mmd_image img;
    mmd_error ie = {0};
    size_t n;
    /* L8 volume 2x1x2 */
    mmd_test_dds l8 = {.width = 2, .height = 1, .depth = 2, .pf_flags = MMD_DDPF_LUMINANCE, .bpp = 8, .mask = {0xff}};
    const uint8_t lp[4] = {0, 64, 128, 255};
    uint8_t *d = mmd_test_dds_file(&l8, lp, &n);
    REQUIRE(d && mmd_image_load_memory(d, n, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.depth, 2);
    const uint8_t lwant[8] = {128, 128, 128, 255, 255, 255, 255, 255};
    CHECK(memcmp(img.data + 8, lwant, 8) == 0);
    mmd_image_free(&img);
    free(d);
    /* A8L8 2D */
    mmd_test_dds a8l8 = {.width = 1, .height = 1, .pf_flags = MMD_DDPF_LUMINANCE | MMD_DDPF_ALPHAPIXELS, .bpp = 16,
                         .mask = {0xff, 0, 0, 0xff00}};
    const uint8_t ap[2] = {90, 30};
    d = mmd_test_dds_file(&a8l8, ap, &n);
    REQUIRE(d && mmd_image_load_memory(d, n, &img, &ie) == MMD_OK);
    const uint8_t awant[4] = {90, 90, 90, 30};
    CHECK_EQ_INT(img.depth, 0);
    CHECK(memcmp(img.data, awant, 4) == 0);
    CHECK(img.has_alpha);
    mmd_image_free(&img);
    free(d);
    /* R16F (0.5, 2.0 clamped, -1 clamped) and A32B32G32R32F: D3D9 reads a missing channel as 1 */
    mmd_test_dds r16 = {.width = 3, .height = 1, .d3dfmt = 111, .bytes = 2};
    const uint8_t hp[6] = {0x00, 0x38, 0x00, 0x40, 0x00, 0xbc};
    d = mmd_test_dds_file(&r16, hp, &n);
    REQUIRE(d && mmd_image_load_memory(d, n, &img, &ie) == MMD_OK);
    const uint8_t hwant[12] = {128, 255, 255, 255, 255, 255, 255, 255, 0, 255, 255, 255};
    CHECK(memcmp(img.data, hwant, 12) == 0);
    mmd_image_free(&img);
    free(d);
    mmd_test_dds r32 = {.width = 1, .height = 1, .d3dfmt = 116, .bytes = 16};
    const float fp[4] = {0.25f, 0.0f, 1.0f, 0.5f};
    d = mmd_test_dds_file(&r32, fp, &n);
    REQUIRE(d && mmd_image_load_memory(d, n, &img, &ie) == MMD_OK);
    const uint8_t fwant[4] = {64, 0, 255, 128};
    CHECK(memcmp(img.data, fwant, 4) == 0);
    mmd_image_free(&img);
    free(d);
}

/* A cube map (MME's textureCUBE): six faces, each with its mip chain in the
 * file; level 0 of each face kept, in DDS's (and GL's) face order. */
TEST(dds_cube_map)
{
    mmd_test_dds f = {.width = 2, .height = 2, .cube = 1, .mips = 2, .pf_flags = MMD_DDPF_RGB, .bpp = 24,
                      .mask = {0xff0000, 0xff00, 0xff, 0}};
    size_t face = (2 * 2 + 1) * 3; /* level 0 and the 1x1 level */
    uint8_t px[6 * (2 * 2 + 1) * 3];
    for (int k = 0; k < 6; k++)
        for (size_t i = 0; i < face; i++)
            px[k * face + i] = (uint8_t)(i % 3 == 2 ? 10 * (k + 1) : i / 3 == 4 ? 99 : 0); /* red = 10 (k + 1) */
    size_t n;
    uint8_t *d = mmd_test_dds_file(&f, px, &n);
    REQUIRE(d);
    CHECK_EQ_INT((int)n, (int)(128 + sizeof px));
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_memory(d, n, &img, &ie) == MMD_OK);
    CHECK(img.cube);
    CHECK_EQ_INT(img.depth, 6);
    CHECK_EQ_INT((int)img.size, 6 * 2 * 2 * 4);
    for (int k = 0; k < 6; k++)
        for (int t = 0; t < 4; t++) {
            const uint8_t *p = img.data + ((size_t)k * 4 + (size_t)t) * 4;
            CHECK_EQ_INT(p[0], 10 * (k + 1));
            CHECK_EQ_INT(p[1], 0);
            CHECK_EQ_INT(p[3], 255);
        }
    mmd_image_free(&img);
    /* the last face's 1x1 level may be missing; its level 0 may not */
    CHECK_EQ_INT(mmd_image_load_memory(d, n - 3, &img, &ie), MMD_OK);
    mmd_image_free(&img);
    CHECK_EQ_INT(mmd_image_load_memory(d, n - 4, &img, &ie), MMD_E_TRUNCATED);
    CHECK(strstr(ie.msg, "cube map") != NULL);
    free(d);
}

TEST(dds_volume_refusals)
{
    mmd_image img;
    mmd_error ie = {0};
    size_t n;
    mmd_test_dds dxt = {.width = 4, .height = 4, .depth = 2, .fourcc = "DXT1"};
    uint8_t *d = mmd_test_dds_file(&dxt, NULL, &n);
    REQUIRE(d);
    CHECK_EQ_INT(mmd_image_load_memory(d, n, &img, &ie), MMD_E_UNSUPPORTED);
    CHECK(strstr(ie.msg, "DXT-compressed volume") != NULL);
    d[112 + 1] = 0x02; /* DDSCAPS2_CUBEMAP, one face only */
    d[114] = 0;
    CHECK_EQ_INT(mmd_image_load_memory(d, n, &img, &ie), MMD_E_UNSUPPORTED);
    CHECK(strstr(ie.msg, "all six square faces") != NULL);
    free(d);
    mmd_test_dds dxtcube = {.width = 4, .height = 4, .cube = 1, .fourcc = "DXT5"};
    d = mmd_test_dds_file(&dxtcube, NULL, &n);
    REQUIRE(d);
    CHECK_EQ_INT(mmd_image_load_memory(d, n, &img, &ie), MMD_E_UNSUPPORTED);
    CHECK(strstr(ie.msg, "DXT-compressed cube map") != NULL);
    free(d);
    mmd_test_dds big = {.width = 4, .height = 4, .depth = 4096, .pf_flags = MMD_DDPF_LUMINANCE, .bpp = 8,
                        .mask = {0xff}};
    uint8_t hdr[128];
    d = mmd_test_dds_file(&(mmd_test_dds){.width = 4, .height = 4, .depth = 1, .pf_flags = MMD_DDPF_LUMINANCE,
                                          .bpp = 8, .mask = {0xff}}, NULL, &n);
    REQUIRE(d);
    memcpy(hdr, d, 128);
    hdr[24] = (uint8_t)(big.depth & 0xff), hdr[25] = (uint8_t)(big.depth >> 8); /* 4096 slices claimed */
    CHECK_EQ_INT(mmd_image_load_memory(hdr, sizeof hdr, &img, &ie), MMD_E_LIMIT);
    CHECK(strstr(ie.msg, "4x4x4096") != NULL);
    CHECK_EQ_INT((int)ie.offset, 24);
    hdr[24] = hdr[25] = 0; /* 0 slices */
    CHECK_EQ_INT(mmd_image_load_memory(hdr, sizeof hdr, &img, &ie), MMD_E_BAD_HEADER);
    free(d);
}

/* MikuMikuShaders' FilmGrain noise: a 256x256x6 A8R8G8B8 volume. */
TEST(dds_shared_filmgrain_noise)
{
    const char *path = MMD_SHARED_ASSETS "/fx/mikumikushaders/FilmGrain/Textures/noise.dds";
    if (access(path, R_OK) != 0) {
        SKIP("skipped: no ../shared");
    }
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_file(path, &img, &ie) == MMD_OK);
    CHECK_EQ_INT(img.width, 256);
    CHECK_EQ_INT(img.height, 256);
    CHECK_EQ_INT(img.depth, 6);
    CHECK_EQ_INT((int)img.size, 256 * 256 * 6 * 4);
    CHECK_EQ_INT(img.data[0], 0x83); /* the file's first texel: grey 0x83 */
    CHECK_EQ_INT(img.data[3], 255);
    mmd_image_free(&img);
}

TEST(limits_refused_before_allocation)
{
    uint8_t d[128];
    dds_header(d, 20000, 4, 1, "DXT1", 0, 0, 0, 0, 0);
    mmd_image img;
    mmd_error ie = {0};
    CHECK_EQ_INT(mmd_image_load_memory(d, sizeof d, &img, &ie), MMD_E_LIMIT);
    CHECK(strstr(ie.msg, "20000x4") != NULL);
    dds_header(d, 16384, 8192, 1, "DXT1", 0, 0, 0, 0, 0); /* 128 Mpixel */
    CHECK_EQ_INT(mmd_image_load_memory(d, sizeof d, &img, &ie), MMD_E_LIMIT);
    /* BMP header claiming 30000 x 30000 with no pixels behind it */
    size_t n;
    uint8_t *b = make_bmp(2, 2, 24, px_grad_zero_alpha, &n);
    put32(b + 18, 30000);
    put32(b + 22, 30000);
    CHECK_EQ_INT(mmd_image_load_memory(b, n, &img, &ie), MMD_E_LIMIT);
    CHECK(strstr(ie.msg, "30000x30000") != NULL);
    /* plausible size but truncated pixels: decode error, not a crash */
    put32(b + 18, 1000);
    put32(b + 22, 1000);
    int r = mmd_image_load_memory(b, n, &img, &ie);
    if (r == MMD_OK) /* stb may zero-fill a short BMP; either way no crash */
        mmd_image_free(&img);
    free(b);
}

TEST(corrupt_inputs_fail_cleanly)
{
    mmd_image img;
    mmd_error ie = {0};
    CHECK(mmd_image_load_memory(NULL, 0, &img, &ie) != MMD_OK);
    const char junk[] = "this is not an image at all";
    CHECK_EQ_INT(mmd_image_load_memory(junk, sizeof junk, &img, &ie), MMD_E_BAD_MAGIC);
    CHECK(strstr(ie.msg, "not a supported image") != NULL);
    /* truncation sweeps over every fixture: any result, never a crash or leak */
    size_t n;
    uint8_t *b = make_bmp(7, 5, 32, px_grad_alpha, &n);
    const uint8_t *fx[3] = {b, anim_gif, solid_jpg};
    size_t fn[3] = {n, sizeof anim_gif, sizeof solid_jpg};
    for (int f = 0; f < 3; f++)
        for (size_t cut = 0; cut < fn[f]; cut++) {
            uint8_t *c = malloc(cut ? cut : 1);
            memcpy(c, fx[f], cut);
            if (mmd_image_load_memory(c, cut, &img, &ie) == MMD_OK)
                mmd_image_free(&img);
            free(c);
        }
    free(b);
    uint8_t d[128 + 16];
    dds_header(d, 4, 4, 1, NULL, 32, 0xff, 0xff00, 0xff0000, 0);
    for (size_t cut = 0; cut < sizeof d; cut++)
        CHECK(mmd_image_load_memory(d, cut, &img, &ie) != MMD_OK);
    put32(d + 4, 99);
    CHECK_EQ_INT(mmd_image_load_memory(d, sizeof d, &img, &ie), MMD_E_BAD_HEADER);
}

TEST(png_chunk_length_beyond_file)
{
    /* fuzzer find: a 4x4 PNG whose IDAT length field reads "IDAT" (1.2 GB);
     * stb would realloc that much before reading. */
    static const uint8_t bad[] = {
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
        0x44, 0x52, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x04, 0x08, 0x00, 0x00, 0x00,
        0x00, 0x8c, 0x9a, 0xc1, 0xa2, 0x49, 0x44, 0x41, 0x54, 0x49, 0x44, 0x41, 0x54, 0x78,
        0x5e, 0x63, 0x60, 0x08, 0x5d, 0xf5, 0x9f, 0x89, 0x01, 0x08, 0x10, 0x04, 0x00, 0x26,
        0x84, 0x02, 0x05, 0x3f, 0x05, 0x51, 0xb0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
        0x44, 0xae, 0x42, 0x60, 0x82};
    mmd_image img;
    mmd_error ie = {0};
    CHECK_EQ_INT(mmd_image_load_memory(bad, sizeof bad, &img, &ie), MMD_E_TRUNCATED);
    CHECK(strstr(ie.msg, "chunk 'IDAT' claims 1229209940 bytes") != NULL);
    CHECK_EQ_INT(ie.offset, 33); /* the IDAT chunk header (8 + 25), as the message says */
    CHECK(strstr(ie.msg, "offset 0x21") != NULL);
}

TEST(load_file_names_the_path)
{
    mmd_image img;
    mmd_error ie = {0};
    CHECK_EQ_INT(mmd_image_load_file("/nonexistent/x.bmp", &img, &ie), MMD_E_IO);
    CHECK(strstr(ie.msg, "/nonexistent/x.bmp") != NULL);
    char path[] = "/tmp/test_image_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    size_t n;
    uint8_t *b = make_bmp(3, 2, 24, px_grad_zero_alpha, &n);
    REQUIRE(write(fd, b, n) == (ssize_t)n);
    close(fd);
    CHECK_EQ_INT(mmd_image_load_file(path, &img, &ie), MMD_OK);
    CHECK_EQ_INT(img.width, 3);
    mmd_image_free(&img);
    unlink(path);
    free(b);
}

TEST(real_png_texture)
{
    const char *p = MMD_SHARED_ASSETS "/gene/light/face.png";
    if (access(p, R_OK) != 0)
        SKIP("skipped: no ../shared");
    mmd_image img;
    mmd_error ie = {0};
    REQUIRE(mmd_image_load_file(p, &img, &ie) == MMD_OK);
    CHECK(img.width > 0 && img.height > 0);
    CHECK_EQ_INT(img.format, MMD_IMAGE_RGBA8);
    CHECK_EQ_INT(img.size, (size_t)img.width * img.height * 4);
    mmd_image_free(&img);
}

/* A temporary file holding n bytes; its path into path (>= 32 bytes). */
static void temp_file(char *path, const void *d, size_t n)
{
    strcpy(path, "/tmp/test_image_XXXXXX");
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    REQUIRE(write(fd, d, n) == (ssize_t)n);
    close(fd);
}

/* The batch gives, file by file, what mmd_image_load_file gives: pixels,
 * alpha flag, status and sentence (a DDS, a corrupt file and a missing one
 * among BMPs decoded by two workers), and stops where max_bytes runs out. */
TEST(load_files_match_load_file)
{
    char paths[6][32];
    size_t n;
    uint8_t *b = make_bmp(33, 17, 24, px_grad_zero_alpha, &n);
    temp_file(paths[0], b, n);
    free(b);
    b = make_bmp(64, 64, 32, px_grad_alpha, &n);
    temp_file(paths[1], b, n);
    b[20] ^= 0x7f; /* a BMP whose header lies about its size */
    temp_file(paths[2], b, n);
    free(b);
    uint8_t dds[128 + 8] = {0};
    size_t dn = dds_header(dds, 4, 4, 1, "DXT1", 0, 0, 0, 0, 0);
    temp_file(paths[3], dds, dn + 8);
    strcpy(paths[4], "/nonexistent/t.png");
    b = make_bmp(5, 300, 32, px_grad_zero_alpha, &n);
    temp_file(paths[5], b, n);
    free(b);
    const char *pp[6] = {paths[0], paths[1], paths[2], paths[3], paths[4], paths[5]};
    mmd_image out[6];
    mmd_status st[6];
    mmd_error errs[6];
    CHECK_EQ_INT(mmd_image_load_files(pp, 6, 2, SIZE_MAX, out, st, errs), 6);
    CHECK(st[0] == MMD_OK && st[1] == MMD_OK && st[3] == MMD_OK && st[5] == MMD_OK);
    CHECK(st[0] == MMD_OK && st[1] == MMD_OK && out[1].has_alpha && !out[0].has_alpha);
    for (int i = 0; i < 6; i++) {
        mmd_image one;
        mmd_error e1 = {0};
        mmd_status s1 = mmd_image_load_file(pp[i], &one, &e1);
        CHECK_EQ_INT(st[i], s1);
        if (s1 != MMD_OK) {
            printf("#   %s\n", errs[i].msg);
            CHECK(strcmp(errs[i].msg, e1.msg) == 0);
            continue;
        }
        CHECK(out[i].width == one.width && out[i].height == one.height && out[i].format == one.format);
        CHECK(out[i].size == one.size && !memcmp(out[i].data, one.data, one.size));
        CHECK(out[i].has_alpha == one.has_alpha);
        mmd_image_free(&one);
        mmd_image_free(&out[i]);
    }
    /* 33x17 and 64x64 RGBA8 fill the bytes; the corrupt third takes none, the DDS waits */
    CHECK_EQ_INT(mmd_image_load_files(pp, 6, 2, 33 * 17 * 4 + 64 * 64 * 4, out, st, errs), 3);
    CHECK_EQ_INT(st[2], MMD_E_LIMIT);
    mmd_image_free(&out[0]);
    mmd_image_free(&out[1]);
    CHECK_EQ_INT(mmd_image_load_files(pp + 1, 5, 1, 1, out, st, errs), 1); /* the first always */
    mmd_image_free(&out[0]);
    for (int i = 0; i < 6; i++)
        if (i != 4)
            unlink(paths[i]);
}

/* glGenerateMipmap's rounding, by hand: (a + b + 1) >> 1 along the row, then
 * between the rows; a side of 1 stays 1 (test_render checks it against GL). */
TEST(mip_next_rounding)
{
    uint8_t src[4 * 2 * 4], dst[2 * 1 * 4];
    for (int i = 0; i < 32; i++)
        src[i] = (uint8_t)(i * 37 % 256);
    mmd_image_mip_next(src, 4, 2, dst);
    for (int x = 0; x < 2; x++)
        for (int c = 0; c < 4; c++) {
            int t = (src[(2 * x) * 4 + c] + src[(2 * x + 1) * 4 + c] + 1) >> 1;
            int u = (src[16 + (2 * x) * 4 + c] + src[16 + (2 * x + 1) * 4 + c] + 1) >> 1;
            CHECK_EQ_INT(dst[x * 4 + c], (t + u + 1) >> 1);
        }
    uint8_t col[1 * 4 * 4] = {0, 0, 0, 0, 255, 255, 255, 255, 1, 2, 3, 4, 2, 2, 2, 2}, half[1 * 2 * 4];
    mmd_image_mip_next(col, 1, 4, half);
    CHECK_EQ_INT(half[0], 128); /* (0 + 255 + 1) >> 1 twice over the same column */
    CHECK_EQ_INT(half[4], 2);   /* 1 and 2: 1.5 rounds up */
    CHECK_EQ_INT(half[5], 2);
}

int main(void)
{
    RUN(bmp_24bit_top_row_first);
    RUN(bmp_32bit_all_zero_alpha_is_opaque);
    RUN(bmp_32bit_alpha_is_kept);
    RUN(tga_uncompressed_bottom_up);
    RUN(bmp_truncated_pixel_data_refused);
    RUN(tga_truncated_pixel_data_refused);
    RUN(tga_rle_too_short_refused);
    RUN(gif_first_frame);
    RUN(jpeg_decodes);
    RUN(dds_dxt1_with_mips);
    RUN(dds_dxt1_punch_through_alpha);
    RUN(dds_dxt5_and_dxt3);
    RUN(dds_a8r8g8b8_and_x8r8g8b8);
    RUN(dds_volume_a8r8g8b8);
    RUN(dds_luminance_alpha_and_float_formats);
    RUN(dds_cube_map);
    RUN(dds_volume_refusals);
    RUN(dds_shared_filmgrain_noise);
    RUN(limits_refused_before_allocation);
    RUN(corrupt_inputs_fail_cleanly);
    RUN(png_chunk_length_beyond_file);
    RUN(load_file_names_the_path);
    RUN(real_png_texture);
    RUN(load_files_match_load_file);
    RUN(mip_next_rounding);
    return test_finish();
}
