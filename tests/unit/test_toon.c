/* tests/unit/test_toon.c - procedural shared toon textures (DESIGN.md E.2). */
#include <stdint.h>
#include <string.h>

#include "renderer/gl/toon.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static uint8_t img[MMD_TOON_SIZE * MMD_TOON_SIZE * 4];

/* every row uniform across x, alpha 255 */
static int uniform_rows(void)
{
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++) {
            const uint8_t *p = img + (y * 32 + x) * 4, *q = img + y * 32 * 4;
            if (memcmp(p, q, 4) != 0 || p[3] != 255)
                return 0;
        }
    return 1;
}

static int row_is(int y, int r, int g, int b)
{
    const uint8_t *p = img + y * 32 * 4;
    if (p[0] == r && p[1] == g && p[2] == b)
        return 1;
    printf("#   row %d is (%d,%d,%d), wanted (%d,%d,%d)\n", y, p[0], p[1], p[2], r, g, b);
    return 0;
}

TEST(two_tone_toons)
{
    const int shadow[5][3] = {{0}, {205, 205, 205}, {245, 225, 225}, {154, 154, 154}, {248, 239, 235}};
    for (int t = 1; t <= 4; t++) {
        mmd_toon_generate(t, img);
        CHECK(uniform_rows());
        for (int y = 0; y < 16; y++)
            CHECK(row_is(y, 255, 255, 255));
        for (int y = 16; y < 32; y++)
            CHECK(row_is(y, shadow[t][0], shadow[t][1], shadow[t][2]));
    }
}

TEST(toon05_smooth_ramp)
{
    mmd_toon_generate(5, img);
    CHECK(uniform_rows());
    for (int y = 0; y <= 18; y++)
        CHECK(row_is(y, 255, 255, 255));
    CHECK(row_is(19, 255, 253, 252));
    CHECK(row_is(22, 255, 240, 235));
    CHECK(row_is(24, 255, 232, 223));
    for (int y = 25; y < 32; y++)
        CHECK(row_is(y, 255, 231, 222));
    for (int y = 19; y < 32; y++) /* monotone towards the shadow */
        CHECK(img[y * 128 + 1] <= img[(y - 1) * 128 + 1] && img[y * 128 + 2] <= img[(y - 1) * 128 + 2]);
}

TEST(toon06_yellow_with_highlight)
{
    mmd_toon_generate(6, img);
    CHECK(uniform_rows());
    for (int y = 0; y <= 7; y++)
        CHECK(row_is(y, 255, 237, 97));
    CHECK(row_is(8, 255, 240, 118));
    CHECK(row_is(9, 255, 248, 194));
    CHECK(row_is(10, 255, 254, 242));
    CHECK(row_is(11, 255, 240, 118));
    for (int y = 12; y <= 21; y++)
        CHECK(row_is(y, 255, 237, 97));
    CHECK(row_is(22, 252, 233, 91));
    CHECK(row_is(23, 231, 211, 58));
    CHECK(row_is(24, 204, 182, 17));
    CHECK(row_is(25, 196, 173, 4));
    for (int y = 26; y < 32; y++)
        CHECK(row_is(y, 195, 172, 3));
}

TEST(white_toons)
{
    const int idx[] = {0, 7, 8, 9, 10, -1, 11, 255};
    for (size_t i = 0; i < sizeof idx / sizeof idx[0]; i++) {
        memset(img, 0, sizeof img);
        mmd_toon_generate(idx[i], img);
        for (size_t k = 0; k < sizeof img; k++)
            if (img[k] != 255) {
                CHECK(!"toon not white");
                break;
            }
    }
    uint8_t c[4];
    mmd_toon_row(3, 31, c);
    CHECK(c[0] == 154 && c[3] == 255);
    mmd_toon_row(3, 32, c);
    CHECK(c[0] == 255);
}

TEST(shared_index)
{
    CHECK_EQ_INT(mmd_toon_shared_index("toon03.bmp"), 3);
    CHECK_EQ_INT(mmd_toon_shared_index("TOON03.BMP"), 3);
    CHECK_EQ_INT(mmd_toon_shared_index("Toon10.Bmp"), 10);
    CHECK_EQ_INT(mmd_toon_shared_index("toon01.bmp"), 1);
    CHECK_EQ_INT(mmd_toon_shared_index("toon00.bmp"), 0);
    CHECK_EQ_INT(mmd_toon_shared_index("toon11.bmp"), 0);
    CHECK_EQ_INT(mmd_toon_shared_index("toon3.bmp"), 0);
    CHECK_EQ_INT(mmd_toon_shared_index("toon03.png"), 0);
    CHECK_EQ_INT(mmd_toon_shared_index("tex\\toon03.bmp"), 0);
    CHECK_EQ_INT(mmd_toon_shared_index("mytoon03.bmp"), 0);
    CHECK_EQ_INT(mmd_toon_shared_index(""), 0);
    CHECK_EQ_INT(mmd_toon_shared_index(NULL), 0);
}

int main(void)
{
    RUN(two_tone_toons);
    RUN(toon05_smooth_ramp);
    RUN(toon06_yellow_with_highlight);
    RUN(white_toons);
    RUN(shared_index);
    return test_finish();
}
