/* tools/mkfixture.c - write the smallest files that show one real-file case,
 * for the CLI tests (tests/cli/ scripts). Everything comes from our own writers.
 *
 *   mkfixture NAME OUT
 *
 * NAME:
 *   textures    PMX naming "TEX\Face.PNG", "missing.png" and "..\outside.png"
 *               (the test lays out tex/face.png and ../outside.png on disk)
 *   oddities    PMX 2.0 with appearance-only fields out of range (sphere mode
 *               255 and 7 with no sphere, a 2.1 draw flag, morph panel 9,
 *               material morph operation 3): loads with one warning line per kind
 *   vmd-tail    VMD: complete bone + morph sections, then a garbage camera count
 *   skirt       PMX: a leg and a skirt flap with physics (tests/util/skirt_fixture.h)
 *   leg         VMD: the leg swings 60 degrees forward through the flap by frame 60
 *   filmgrain   VMD for MikuMikuShaders' FilmGrainController.pmx: its morph
 *               "FilmGrain" at 0.3 from frame 0 (the README's quickstart)
 *   filmlines   VMD for the same controller: "FilmLineX" at 0.1 (scan lines 2
 *               pixels wide every 4), nothing else
 *   volume-dds  DDS volume texture 2x2x2 A8R8G8B8: slice 0 red, slice 1 blue
 *               (tests/util/dds_writer.h)
 *   cube-dds    DDS cube map, 1x1 X8R8G8B8 faces: +X red, -X green, +Y blue,
 *               -Y yellow, +Z cyan, -Z magenta
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/motion.h"
#include "core/pmx_write.h"
#include "core/vmd_write.h"
#include "tests/util/dds_writer.h"
#include "tests/util/skirt_fixture.h"

static int save(const char *out, const uint8_t *buf, size_t n)
{
    FILE *f = fopen(out, "wb");
    if (!f || fwrite(buf, 1, n, f) != n) {
        perror(out);
        if (f)
            fclose(f);
        return 1;
    }
    return fclose(f) ? 1 : 0;
}

/* One triangle on one bone with `mats` materials sharing it. */
static mmd_model *tiny_model(uint32_t mats)
{
    mmd_model *m = mmd_model_new();
    if (!m)
        return NULL;
    m->name = mmd_model_str(m, "fixture");
    mmd_bone *b = mmd_model_add_bones(m, 1);
    b[0].name = mmd_model_str(m, "センター");
    mmd_vertex *v = mmd_model_add_vertices(m, 3);
    v[1].position[0] = 1;
    v[2].position[1] = 1;
    uint32_t *ix = mmd_model_add_indices(m, 3 * mats);
    for (uint32_t i = 0; i < 3 * mats; i++)
        ix[i] = i % 3;
    mmd_material *mt = mmd_model_add_materials(m, mats);
    for (uint32_t i = 0; i < mats; i++)
        mt[i].index_count = 3;
    return m;
}

static int write_model(const mmd_model *m, const char *out)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    mmd_error err;
    if (mmd_pmx_write(m, &buf, &n, &err) != MMD_OK) {
        fprintf(stderr, "mkfixture: %s\n", err.msg);
        return 1;
    }
    int rc = save(out, buf, n);
    free(buf);
    return rc;
}

static int fx_textures(const char *out)
{
    mmd_model *m = tiny_model(3);
    if (!m)
        return 1;
    char **t = mmd_model_add_textures(m, 3);
    t[0] = mmd_model_str(m, "TEX\\Face.PNG");
    t[1] = mmd_model_str(m, "missing.png");
    t[2] = mmd_model_str(m, "..\\outside.png");
    for (uint32_t i = 0; i < 3; i++)
        m->materials[i].texture = (int32_t)i;
    int rc = write_model(m, out);
    mmd_model_free(m);
    return rc;
}

static int fx_oddities(const char *out)
{
    mmd_model *m = tiny_model(3);
    if (!m)
        return 1;
    m->materials[0].sphere_mode = 255; /* no sphere texture (seen in real files) */
    m->materials[1].sphere_mode = 7;
    m->materials[2].flags = MMD_MAT_DOUBLE_SIDED | MMD_MAT_POINTS; /* a 2.1 flag in a 2.0 file */
    mmd_morph *mo = mmd_model_add_morphs(m, 1);
    mo->name = mmd_model_str(m, "odd");
    mo->panel = 9; /* editor panel: UI only */
    mo->type = MMD_MORPH_MATERIAL;
    mo->offset_count = 1;
    mo->u.material = mmd_model_alloc(m, 1, sizeof *mo->u.material);
    mo->u.material[0].material = 0;
    mo->u.material[0].op = 3; /* no such operation */
    int rc = write_model(m, out);
    mmd_model_free(m);
    return rc;
}

static int fx_vmd_tail(const char *out)
{
    mmd_motion *mo = mmd_motion_new("fixture");
    if (!mo)
        return 1;
    const float pos[3] = {0, 2, 0}, rot[4] = {0, 0, 0, 1};
    if (!mmd_motion_add_bone_key(mo, "センター", 10, pos, rot) || !mmd_motion_add_morph_key(mo, "a", 5, 1)) {
        mmd_motion_free(mo);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t n = 0;
    mmd_error err;
    int rc = 1;
    if (mmd_vmd_write(mo, &buf, &n, &err) == MMD_OK) {
        /* The writer ends with 4 empty counts (camera, light, shadow, property):
         * replace the camera count by garbage and drop the rest, as some tools do. */
        n -= 16;
        uint8_t garbage[4] = {0x78, 0x56, 0x34, 0x12};
        uint8_t *grown = realloc(buf, n + 4);
        if (grown) {
            buf = grown;
            memcpy(buf + n, garbage, 4);
            rc = save(out, buf, n + 4);
        }
    } else {
        fprintf(stderr, "mkfixture: %s\n", err.msg);
    }
    free(buf);
    mmd_motion_free(mo);
    return rc;
}

static int fx_skirt(const char *out)
{
    mmd_model *m = mmd_test_skirt_model();
    if (!m)
        return 1;
    int rc = write_model(m, out);
    mmd_model_free(m);
    return rc;
}

static int fx_leg(const char *out)
{
    mmd_motion *mo = mmd_test_leg_motion(60.0f, 60);
    uint8_t *buf = NULL;
    size_t n = 0;
    mmd_error err;
    int rc = 1;
    if (mo && mmd_vmd_write(mo, &buf, &n, &err) == MMD_OK)
        rc = save(out, buf, n);
    free(buf);
    mmd_motion_free(mo);
    return rc;
}

/* A VMD keying one morph of FilmGrainController.pmx from frame 0. */
static int controller_motion(const char *out, const char *morph, float weight)
{
    mmd_motion *mo = mmd_motion_new("FilmGrainController");
    uint8_t *buf = NULL;
    size_t n = 0;
    mmd_error err;
    int rc = 1;
    if (mo && mmd_motion_add_morph_key(mo, morph, 0, weight) && mmd_vmd_write(mo, &buf, &n, &err) == MMD_OK)
        rc = save(out, buf, n);
    free(buf);
    mmd_motion_free(mo);
    return rc;
}

static int fx_filmgrain(const char *out) { return controller_motion(out, "FilmGrain", 0.3f); }
static int fx_filmlines(const char *out) { return controller_motion(out, "FilmLineX", 0.1f); }

static int fx_volume_dds(const char *out)
{
    mmd_test_dds f = {.width = 2, .height = 2, .depth = 2, .pf_flags = MMD_DDPF_RGB | MMD_DDPF_ALPHAPIXELS,
                      .bpp = 32, .mask = {0xff0000u, 0xff00u, 0xffu, 0xff000000u}};
    uint8_t px[2 * 2 * 2 * 4]; /* B G R A */
    for (int i = 0; i < 8; i++) {
        px[i * 4 + 0] = i < 4 ? 0 : 255;
        px[i * 4 + 1] = 0;
        px[i * 4 + 2] = i < 4 ? 255 : 0;
        px[i * 4 + 3] = 255;
    }
    size_t n;
    uint8_t *d = mmd_test_dds_file(&f, px, &n);
    int rc = d ? save(out, d, n) : 1;
    free(d);
    return rc;
}

static int fx_cube_dds(const char *out)
{
    mmd_test_dds f = {.width = 1, .height = 1, .cube = 1, .pf_flags = MMD_DDPF_RGB, .bpp = 32,
                      .mask = {0xff0000u, 0xff00u, 0xffu, 0}};
    static const uint8_t px[6 * 4] = {0, 0, 255, 0,   0, 255, 0, 0,   255, 0, 0, 0, /* B G R X */
                                      0, 255, 255, 0, 255, 255, 0, 0, 255, 0, 255, 0};
    size_t n;
    uint8_t *d = mmd_test_dds_file(&f, px, &n);
    int rc = d ? save(out, d, n) : 1;
    free(d);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(const char *out);
    } fixtures[] = {
        {"textures", fx_textures},
        {"oddities", fx_oddities},
        {"vmd-tail", fx_vmd_tail},
        {"skirt", fx_skirt},
        {"leg", fx_leg},
        {"filmgrain", fx_filmgrain},
        {"filmlines", fx_filmlines},
        {"volume-dds", fx_volume_dds},
        {"cube-dds", fx_cube_dds},
    };
    if (argc != 3) {
        fprintf(stderr, "usage: mkfixture NAME OUT\n");
        return 1;
    }
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++)
        if (!strcmp(argv[1], fixtures[i].name))
            return fixtures[i].fn(argv[2]);
    fprintf(stderr, "mkfixture: unknown fixture '%s'\n", argv[1]);
    return 1;
}
