/* renderer/gl/toon.c - procedural shared toon textures (see toon.h). */
#include "renderer/gl/toon.h"

#include <string.h>

typedef struct toon_row {
    uint8_t first, last; /* rows first..last (inclusive) have this colour */
    uint8_t r, g, b;
} toon_row;

/* Rows not listed are white. Values: row means of the decoded three.js /
 * babylon-mmd images (DESIGN.md E.2); toon06's band peak is row 10. */
static const toon_row toon01[] = {{16, 31, 205, 205, 205}};
static const toon_row toon02[] = {{16, 31, 245, 225, 225}};
static const toon_row toon03[] = {{16, 31, 154, 154, 154}};
static const toon_row toon04[] = {{16, 31, 248, 239, 235}};
static const toon_row toon05[] = {
    {19, 19, 255, 253, 252}, {20, 20, 255, 250, 248}, {21, 21, 255, 245, 242},
    {22, 22, 255, 240, 235}, {23, 23, 255, 236, 229}, {24, 24, 255, 232, 223},
    {25, 31, 255, 231, 222},
};
static const toon_row toon06[] = {
    {0, 7, 255, 237, 97},    {8, 8, 255, 240, 118},   {9, 9, 255, 248, 194},
    {10, 10, 255, 254, 242}, {11, 11, 255, 240, 118}, {12, 21, 255, 237, 97},
    {22, 22, 252, 233, 91},  {23, 23, 231, 211, 58},  {24, 24, 204, 182, 17},
    {25, 25, 196, 173, 4},   {26, 31, 195, 172, 3},
};

static const struct {
    const toon_row *rows;
    int count;
} toons[11] = {
    {NULL, 0},
    {toon01, (int)(sizeof toon01 / sizeof toon01[0])},
    {toon02, (int)(sizeof toon02 / sizeof toon02[0])},
    {toon03, (int)(sizeof toon03 / sizeof toon03[0])},
    {toon04, (int)(sizeof toon04 / sizeof toon04[0])},
    {toon05, (int)(sizeof toon05 / sizeof toon05[0])},
    {toon06, (int)(sizeof toon06 / sizeof toon06[0])},
    {NULL, 0}, /* toon07..toon10: plain white */
    {NULL, 0},
    {NULL, 0},
    {NULL, 0},
};

void mmd_toon_row(int index, int row, uint8_t out[4])
{
    out[0] = out[1] = out[2] = out[3] = 255;
    if (index < 1 || index > 10 || row < 0 || row >= MMD_TOON_SIZE)
        return;
    for (int i = 0; i < toons[index].count; i++) {
        const toon_row *t = &toons[index].rows[i];
        if (row >= t->first && row <= t->last) {
            out[0] = t->r;
            out[1] = t->g;
            out[2] = t->b;
            return;
        }
    }
}

void mmd_toon_generate(int index, uint8_t rgba[MMD_TOON_SIZE * MMD_TOON_SIZE * 4])
{
    for (int y = 0; y < MMD_TOON_SIZE; y++) {
        uint8_t c[4];
        mmd_toon_row(index, y, c);
        for (int x = 0; x < MMD_TOON_SIZE; x++)
            memcpy(rgba + ((size_t)y * MMD_TOON_SIZE + x) * 4, c, 4);
    }
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

int mmd_toon_shared_index(const char *name)
{
    if (!name)
        return 0;
    const char *base = name;
    /* exactly "toonNN.bmp", NN in 01..10 */
    if (strlen(base) != 10)
        return 0;
    static const char pre[] = "toon", ext[] = ".bmp";
    for (int i = 0; i < 4; i++)
        if (lower((unsigned char)base[i]) != pre[i] || lower((unsigned char)base[6 + i]) != ext[i])
            return 0;
    if (base[4] < '0' || base[4] > '9' || base[5] < '0' || base[5] > '9')
        return 0;
    int n = (base[4] - '0') * 10 + (base[5] - '0');
    return n >= 1 && n <= 10 ? n : 0;
}
