/* tests/unit/test_texlib.c - the file side of the renderer's textures
 * (image/texlib.h) without GL: which ids a model's materials get, one decode
 * per (file, wrap), the budget, and the warnings as sentences. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "renderer/image/png.h"
#include "renderer/image/texlib.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static char g_dir[PATH_MAX];

/* The sentences texlib sent, in order. */
typedef struct warnings {
    char line[8][1024];
    int n;
} warnings;

static void collect(void *ctx, const char *sentence)
{
    warnings *w = ctx;
    printf("#   warning: %s\n", sentence);
    if (w->n < 8)
        snprintf(w->line[w->n], sizeof w->line[0], "%s", sentence);
    w->n++;
}

/* What take() was handed, in order. */
typedef struct takes {
    long id[16];
    int w[16], h[16];
    bool repeat[16];
    int n;
} takes;

static void take(void *ctx, long id, const mmd_image *img, bool repeat)
{
    takes *t = ctx;
    if (t->n < 16) {
        t->id[t->n] = id;
        t->w[t->n] = img->width;
        t->h[t->n] = img->height;
        t->repeat[t->n] = repeat;
    }
    t->n++;
}

static bool setup(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/test_texlib_XXXXXX");
    if (!mkdtemp(g_dir))
        return false;
    uint8_t px[64 * 64 * 4];
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (uint8_t)(i * 7);
    char p[PATH_MAX + 16];
    snprintf(p, sizeof p, "%s/a.png", g_dir);
    return mmd_png_write_file(p, px, 64, 64, 64 * 4, true, MMD_PNG_LEVEL_DEFAULT, NULL) == MMD_OK;
}

static void teardown(void)
{
    char p[PATH_MAX + 16];
    snprintf(p, sizeof p, "%s/a.png", g_dir);
    unlink(p);
    rmdir(g_dir);
}

/* Textures 0 "a.png", 1 "A.PNG" (the same file by letter case), 2 "none.png"
 * (missing), 3 "../a.png" (outside the folder). Material 0 draws 0 with
 * sphere 1 and toon 2; material 1 draws 2 (the missing file again, repeat)
 * with sphere 3; material 2 draws 1 with a shared toon. */
typedef struct fixture {
    mmd_model m;
    mmd_material mat[3];
    char *tex[4];
} fixture;

static void fixture_build(fixture *f)
{
    memset(f, 0, sizeof *f);
    static char a[] = "a.png", b[] = "A.PNG", c[] = "none.png", d[] = "../a.png", name[] = "m";
    f->tex[0] = a;
    f->tex[1] = b;
    f->tex[2] = c;
    f->tex[3] = d;
    f->m.name = name;
    f->m.textures = f->tex;
    f->m.texture_count = 4;
    f->m.materials = f->mat;
    f->m.material_count = 3;
    const int32_t slots[3][3] = {{0, 1, 2}, {2, 3, -1}, {1, -1, 4}};
    for (int i = 0; i < 3; i++) {
        f->mat[i].texture = slots[i][0];
        f->mat[i].sphere_texture = slots[i][1];
        f->mat[i].sphere_mode = slots[i][1] >= 0 ? MMD_SPHERE_MUL : MMD_SPHERE_NONE;
        f->mat[i].toon = slots[i][2];
    }
    f->mat[2].toon_shared = true;
}

TEST(model_ids_decodes_and_warnings)
{
    fixture f;
    fixture_build(&f);
    warnings w = {0};
    takes t = {0};
    mmd_texlib_config c = {(size_t)1 << 30, false, 2, collect, &w};
    mmd_texlib *l = mmd_texlib_create(&c);
    REQUIRE(l);
    long ids[9];
    mmd_error err;
    REQUIRE(mmd_texlib_model(l, &f.m, g_dir, take, &t, ids, &err) == MMD_OK);
    /* a.png decoded twice (repeat, clamp), A.PNG is the same file */
    CHECK_EQ_INT(t.n, 2);
    CHECK(t.id[0] == 0 && t.repeat[0] && t.w[0] == 64 && t.h[0] == 64);
    CHECK(t.id[1] == 1 && !t.repeat[1]);
    const long want[9] = {0, 1, -1, -1, -1, -1, 0, -1, -1};
    for (int i = 0; i < 9; i++)
        CHECK_EQ_INT((int)ids[i], (int)want[i]);
    /* none.png named twice in both wraps: warned once; ../a.png refused */
    CHECK_EQ_INT(w.n, 2);
    CHECK(strstr(w.line[0], "texture \"none.png\" of model \"m\": texture 'none.png' not found") == w.line[0]);
    CHECK(strstr(w.line[0], "(drawn white)") != NULL);
    CHECK(strstr(w.line[1], "texture \"../a.png\" of model \"m\": texture '../a.png' climbs out of the model "
                            "folder with '..': refused (drawn white)") == w.line[1]);
    size_t n = 0;
    CHECK(mmd_texlib_bytes(l, &n) == 64 * 64 * 4 + 64 * 64 * 4 / 3 + 64 * 64 * 4);
    CHECK_EQ_INT((int)n, 2);

    /* a second model naming the same file: no decode, the same ids */
    t.n = 0;
    REQUIRE(mmd_texlib_model(l, &f.m, g_dir, take, &t, ids, &err) == MMD_OK);
    CHECK_EQ_INT(t.n, 0);
    CHECK(ids[0] == 0 && ids[1] == 1);
    CHECK_EQ_INT(w.n, 4); /* its own two failures, once each (the rule is per model) */
    /* a file by name: the same entry, no pixels; a failure without warn is silent */
    mmd_image img;
    CHECK_EQ_INT((int)mmd_texlib_file(l, g_dir, "a.png", true, true, "x", &img), 0);
    CHECK(img.data == NULL);
    CHECK_EQ_INT((int)mmd_texlib_file(l, g_dir, "gone.png", false, false, "x", &img), -1);
    CHECK_EQ_INT(w.n, 4);
    mmd_texlib_free(l);
    mmd_texlib_free(NULL);
}

/* 64x64 RGBA with mips is 21,844 bytes: a 4 KiB budget halves it twice and
 * says so. */
TEST(budget_halves_and_warns)
{
    warnings w = {0};
    mmd_texlib_config c = {4096, false, 1, collect, &w};
    mmd_texlib *l = mmd_texlib_create(&c);
    REQUIRE(l);
    mmd_image img;
    long id = mmd_texlib_file(l, g_dir, "a.png", true, true, "model \"m\"", &img);
    CHECK_EQ_INT((int)id, 0);
    CHECK(img.width == 16 && img.height == 16);
    mmd_image_free(&img);
    CHECK_EQ_INT(w.n, 1);
    CHECK(!strcmp(w.line[0], "texture \"a.png\" of model \"m\": scaled down 4x to 16x16 to stay within the texture "
                             "memory budget (0.0 MiB; --texture-memory, --max-memory)"));
    size_t n;
    CHECK(mmd_texlib_bytes(l, &n) == 16 * 16 * 4 + 16 * 16 * 4 / 3 && n == 1);
    /* no sink: the same work, nothing said */
    mmd_texlib_config quiet = {4096, false, 1, NULL, NULL};
    mmd_texlib *q = mmd_texlib_create(&quiet);
    REQUIRE(q);
    CHECK_EQ_INT((int)mmd_texlib_file(q, g_dir, "a.png", true, true, "m", &img), 0);
    mmd_image_free(&img);
    CHECK_EQ_INT((int)mmd_texlib_file(q, g_dir, "none.png", true, true, "m", &img), -1);
    CHECK_EQ_INT(w.n, 1);
    mmd_texlib_free(q);
    mmd_texlib_free(l);
}

int main(void)
{
    if (!setup()) {
        printf("not ok - cannot write the fixture image\n# counts: 0 passed, 1 failed, 0 skipped\n");
        return 1;
    }
    RUN(model_ids_decodes_and_warnings);
    RUN(budget_halves_and_warns);
    teardown();
    return test_finish();
}
