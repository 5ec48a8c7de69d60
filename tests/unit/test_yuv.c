/* tests/unit/test_yuv.c - RGBA -> BT.709 YUV 4:2:0: exact values, SIMD == scalar, tails, strides. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/output/yuv.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

typedef struct {
    uint8_t *buf[3];
    uint8_t *planes[3];
    int pitch[3];
} yuv_img;

/* Planes with a pitch wider than the picture, filled with a sentinel. */
static void img_alloc(yuv_img *m, int w, int h)
{
    int pw[3] = {w + 7, w / 2 + 5, w / 2 + 5}, ph[3] = {h, h / 2, h / 2};
    for (int i = 0; i < 3; i++) {
        m->pitch[i] = pw[i];
        m->buf[i] = malloc((size_t)pw[i] * (size_t)ph[i]);
        memset(m->buf[i], 0xAB, (size_t)pw[i] * (size_t)ph[i]);
        m->planes[i] = m->buf[i];
    }
}

static void img_free(yuv_img *m)
{
    for (int i = 0; i < 3; i++)
        free(m->buf[i]);
}

/* The BT.709 limited-range matrix in double precision. */
static void reference(const uint8_t *rgba, size_t stride, int x, int y, double *yv, double *uv, double *vv)
{
    const double kr = 0.2126, kb = 0.0722, kg = 1 - kr - kb;
    const uint8_t *p = rgba + (size_t)y * stride + (size_t)x * 4;
    *yv = 16 + 219.0 / 255 * (kr * p[0] + kg * p[1] + kb * p[2]);
    double r = 0, g = 0, b = 0;
    int bx = x & ~1, by = y & ~1;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
            const uint8_t *q = rgba + (size_t)(by + j) * stride + (size_t)(bx + i) * 4;
            r += q[0] / 4.0;
            g += q[1] / 4.0;
            b += q[2] / 4.0;
        }
    double yy = kr * r + kg * g + kb * b;
    *uv = 128 + 224.0 / 255 * (b - yy) / (2 * (1 - kb));
    *vv = 128 + 224.0 / 255 * (r - yy) / (2 * (1 - kr));
}

TEST(known_colours)
{
    /* white, black, red, green, blue, grey: 2x2 blocks of one colour */
    const uint8_t cols[6][3] = {{255, 255, 255}, {0, 0, 0}, {255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {128, 128, 128}};
    const uint8_t want[6][3] = {{235, 128, 128}, {16, 128, 128}, {63, 102, 240},
                                {173, 42, 26},   {32, 240, 118}, {126, 128, 128}};
    int w = 12, h = 2;
    uint8_t px[12 * 2 * 4];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 4; c++)
                px[(y * w + x) * 4 + c] = c < 3 ? cols[x / 2][c] : 255;
    yuv_img m;
    img_alloc(&m, w, h);
    mmd_rgba_to_yuv420_bt709(px, (size_t)w * 4, w, h, m.planes, m.pitch);
    for (int i = 0; i < 6; i++) {
        CHECK_EQ_INT(m.planes[0][2 * i], want[i][0]);
        CHECK_EQ_INT(m.planes[0][m.pitch[0] + 2 * i + 1], want[i][0]);
        CHECK_EQ_INT(m.planes[1][i], want[i][1]);
        CHECK_EQ_INT(m.planes[2][i], want[i][2]);
    }
    img_free(&m);
}

/* Random pictures at widths that exercise the 16-pixel steps and the tails:
 * the SIMD path equals the scalar one byte for byte, both are within one step
 * of the exact matrix, and nothing outside the picture is written. */
TEST(simd_equals_scalar_and_reference)
{
    const int sizes[][2] = {{2, 2}, {14, 4}, {16, 2}, {18, 6}, {34, 4}, {62, 8}, {1920, 4}};
    uint32_t seed = 12345;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int w = sizes[s][0], h = sizes[s][1];
        size_t stride = (size_t)w * 4 + 12;
        uint8_t *px = malloc(stride * (size_t)h);
        for (size_t i = 0; i < stride * (size_t)h; i++) {
            seed = seed * 1664525u + 1013904223u;
            px[i] = (uint8_t)(seed >> 24);
        }
        yuv_img a, b;
        img_alloc(&a, w, h);
        img_alloc(&b, w, h);
        mmd_rgba_to_yuv420_bt709(px, stride, w, h, a.planes, a.pitch);
        mmd_rgba_to_yuv420_bt709_scalar(px, stride, w, h, b.planes, b.pitch);
        int same = 1, near = 1, untouched = 1;
        for (int i = 0; i < 3; i++) {
            int pw = i ? w / 2 : w, ph = i ? h / 2 : h;
            same &= !memcmp(a.buf[i], b.buf[i], (size_t)a.pitch[i] * (size_t)ph);
            for (int y = 0; y < ph; y++)
                for (int x = pw; x < a.pitch[i]; x++)
                    untouched &= a.buf[i][(size_t)y * (size_t)a.pitch[i] + (size_t)x] == 0xAB;
        }
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double yv, uv, vv;
                reference(px, stride, x, y, &yv, &uv, &vv);
                near &= fabs(a.planes[0][(size_t)y * (size_t)a.pitch[0] + (size_t)x] - yv) <= 0.51;
                near &= fabs(a.planes[1][(size_t)(y / 2) * (size_t)a.pitch[1] + (size_t)(x / 2)] - uv) <= 0.51;
                near &= fabs(a.planes[2][(size_t)(y / 2) * (size_t)a.pitch[2] + (size_t)(x / 2)] - vv) <= 0.51;
            }
        CHECK(same);
        CHECK(near);
        CHECK(untouched);
        img_free(&a);
        img_free(&b);
        free(px);
    }
}

int main(void)
{
    RUN(known_colours);
    RUN(simd_equals_scalar_and_reference);
    return test_finish();
}
