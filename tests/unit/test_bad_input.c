/* tests/unit/test_bad_input.c - hostile input, table-driven.
 *
 * Valid fixtures come from our writers (tests/fuzz/fixtures.h, the PMD test
 * writer, stb_image_write); each case corrupts one thing - in the struct
 * before writing (indices, cycles, NaN) or in the bytes after (magic, version,
 * counts, text lengths) - and expects the loader's bad-input status plus a
 * message naming the file, the section/element and the byte offset (scene
 * files: the line). Sections whose code has not landed are skipped.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/accessory.h"
#include "core/xfile.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/status.h"
#include "tests/util/test.h"

#include <stb_image_write.h>

#include "renderer/scene/scene.h"
#include "renderer/image/decode.h"
#include "renderer/image/decode_child.h"
#include "tests/fuzz/fixtures.h"
#include "tests/util/pmd_writer.h"
#include "core/anim.h"
#include "core/physics.h"
#include "tests/util/bombs.h"
#include "tests/util/worst_shapes.h"
#include "tests/util/x_fixture.h"

TEST_STATE_DEFINE

#define MAXW 4 /* accepted statuses per case */

static inline void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}
static inline void put_u16be(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v; }
static inline void put_u32be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}
static inline uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline bool status_in(mmd_status s, const mmd_status want[MAXW])
{
    for (int i = 0; i < MAXW; i++)
        if (want[i] != MMD_OK && want[i] == s)
            return true;
    return false;
}

/* The common assertion: rejected with an accepted status, and the formatted
 * message names the file, the section (+ element) and the offset when asked. */
static inline void expect_rejected(const char *file, const char *what, mmd_status got, const mmd_error *err,
                            const mmd_status want[MAXW], const char *section, int64_t item,
                            bool need_offset)
{
    char line[512];
    mmd_error_format(err, file, line, sizeof line);
    printf("#   %-34s -> %s (%s)\n", what, line, mmd_status_str(got));
    if (!status_in(got, want)) {
        printf("#   %s: status %s not accepted\n", what, mmd_status_str(got));
        test_g.cur_failed++;
        return;
    }
    CHECK(strstr(line, file) == line);
    CHECK(err->msg[0] != 0);
    if (section) {
        CHECK(err->section && strncmp(err->section, section, strlen(section)) == 0);
        if (!(err->section && strncmp(err->section, section, strlen(section)) == 0))
            printf("#   %s: section %s, wanted %s\n", what, err->section ? err->section : "(none)", section);
    }
    if (item >= 0) {
        CHECK_EQ_INT(err->item, item);
        char tag[32];
        snprintf(tag, sizeof tag, " #%lld", (long long)item);
        CHECK(strstr(line, tag) != NULL);
    }
    if (need_offset) {
        CHECK(err->offset >= 0);
        CHECK(strstr(line, "offset 0x") != NULL);
    }
}

/* ======================================================================== PMX */

typedef struct model_case {
    const char *name;
    int variant;                       /* fx_model variant */
    void (*edit)(mmd_model *m);        /* before writing */
    void (*patch)(uint8_t *d, size_t n); /* after writing (minimal-layout model only) */
    mmd_status want[MAXW];
    const char *section;
    int64_t item;                      /* -1: not checked */
    bool need_offset;                  /* every refusal of a loaded file carries the byte offset */
    bool (*repaired)(const mmd_model *m); /* non-NULL: docs/compat.md accepts + repairs it */
} model_case;

/* --- struct edits (the writer stores them; the loader must refuse) --- */
static void e_parent_range(mmd_model *m) { m->bones[1].parent = 10; }
static void e_parent_cycle(mmd_model *m) { m->bones[0].parent = 2; }
static void e_parent_self(mmd_model *m) { m->bones[4].parent = 4; }
static void e_vertex_bone(mmd_model *m) { m->vertices[0].bones[0] = 50; }
static void e_vertex_bone_neg(mmd_model *m) { m->vertices[0].bones[0] = -1; }
static void e_face_vertex(mmd_model *m) { m->indices[4] = 200; }
static void e_texture(mmd_model *m) { m->materials[0].texture = 9; }
static void e_sphere(mmd_model *m) { m->materials[0].sphere_texture = 3; }
static void e_toon_own(mmd_model *m) { m->materials[0].toon = 9; }
static void e_morph_target(mmd_model *m) { m->morphs[2].u.group[1].morph = 40; }
static void e_morph_self(mmd_model *m) { m->morphs[2].u.group[0].morph = 2; }
static void e_morph_vertex(mmd_model *m) { m->morphs[0].u.vertex[1].vertex = 100; }
static void e_morph_bone(mmd_model *m) { m->morphs[3].u.bone[0].bone = 60; }
static void e_morph_material(mmd_model *m) { m->morphs[4].u.material[1].material = 7; }
static void e_impulse_body(mmd_model *m) { m->morphs[6].u.impulse[0].rigid_body = 9; }
static void e_frame_bone(mmd_model *m) { m->display_frames[1].elements[1].index = 99; }
static void e_rigid_bone(mmd_model *m) { m->rigid_bodies[0].bone = 77; }
static void e_joint_body(mmd_model *m) { m->joints[0].body_b = 5; }
static void e_soft_anchor(mmd_model *m) { m->soft_bodies[0].anchors[0].vertex = 120; }
static void e_append_loop(mmd_model *m)
{
    m->bones[2].flags |= MMD_BONE_APPEND_ROTATE;
    m->bones[2].append_parent = 3; /* 3 appends 2 already */
}
static void e_append_range(mmd_model *m) { m->bones[3].append_parent = 90; }
static void e_ik_link_self(mmd_model *m) { m->bones[7].ik_links[1].bone = 7; }
static void e_ik_target_self(mmd_model *m) { m->bones[7].ik_target = 7; }
static void e_ik_target_range(mmd_model *m) { m->bones[7].ik_target = 70; }
static void e_ik_link_range(mmd_model *m) { m->bones[7].ik_links[0].bone = 33; }
static void e_ik_loop(mmd_model *m) { m->bones[7].ik_loop = -5; }
static void e_mat_sum(mmd_model *m) { m->materials[1].index_count = 9; }
static void e_mat_third(mmd_model *m) { m->materials[0].index_count = 4, m->materials[1].index_count = 8; }
static void e_nan_pos(mmd_model *m) { m->vertices[2].position[1] = NAN; }
static void e_inf_pos(mmd_model *m) { m->vertices[3].position[0] = INFINITY; }
static void e_nan_normal(mmd_model *m) { m->vertices[4].normal[2] = NAN; }
static void e_nan_weight(mmd_model *m) { m->vertices[1].weights[0] = NAN; }
static void e_inf_weight(mmd_model *m) { m->vertices[2].weights[3] = -INFINITY; }
static void e_nan_bone(mmd_model *m) { m->bones[5].position[2] = NAN; }
static void e_nan_morph(mmd_model *m) { m->morphs[0].u.vertex[0].offset[0] = NAN; }
static void e_nan_body(mmd_model *m) { m->rigid_bodies[1].size[1] = INFINITY; }

/* --- repairs docs/compat.md promises (checked on the loaded model) --- */
static bool r_bdef1_bone0(const mmd_model *m) { return m->vertices[0].bones[0] == 0; }
static bool r_frame_dropped(const mmd_model *m)
{
    for (uint32_t k = 0; k < m->display_frames[1].element_count; k++)
        if (!m->display_frames[1].elements[k].is_morph && m->display_frames[1].elements[k].index >= (int32_t)m->bone_count)
            return false;
    return true;
}
static bool r_rigid_none(const mmd_model *m) { return m->rigid_bodies[0].bone == -1; }
static bool r_joint_none(const mmd_model *m) { return m->joints[0].body_b == -1; }
static bool r_any(const mmd_model *m) { return m != NULL; }
static bool r_normal(const mmd_model *m)
{
    const float *n = m->vertices[4].normal;
    return isfinite(n[0]) && isfinite(n[1]) && isfinite(n[2]) && (n[0] != 0 || n[1] != 0 || n[2] != 0);
}
static bool r_morph_zero(const mmd_model *m) { return m->morphs[0].u.vertex[0].offset[0] == 0; }
static bool r_body_zero(const mmd_model *m) { return m->rigid_bodies[1].size[1] == 0; }

/* --- byte patches on the minimal model (empty texts, 1-byte indices):
 *  0 "PMX " | 4 version | 8 globals count | 9 encoding | 10 add-UV | 11..16 index sizes
 * 17 name len | 21 name_en | 25 comment | 29 comment_en | 33 vertex count | 37 vertex 0:
 * pos(12) normal(12) uv(8) | 69 weight type | 70 bone | 71 edge | 75 vertex 1 ...
 * after 3 vertices (38 bytes each): 151 index count | 155 indices(3) | 158 texture count */
enum { OFF_VCOUNT = 33, OFF_WTYPE = 69, OFF_ICOUNT = 151, OFF_TCOUNT = 158 };
static void p_magic(uint8_t *d, size_t n) { (void)n, memcpy(d, "PMY ", 4); }
static void p_magic_pmd(uint8_t *d, size_t n) { (void)n, memcpy(d, "Pmx ", 4); }
static void p_version(uint8_t *d, size_t n)
{
    (void)n;
    float v = 3.0f;
    memcpy(d + 4, &v, 4);
}
static void p_version_nan(uint8_t *d, size_t n) { (void)n, put_u32(d + 4, 0x7fc00000u); }
static void p_globals(uint8_t *d, size_t n) { (void)n, d[8] = 2; }
static void p_encoding(uint8_t *d, size_t n) { (void)n, d[9] = 7; }
static void p_adduv(uint8_t *d, size_t n) { (void)n, d[10] = 5; }
static void p_width(uint8_t *d, size_t n) { (void)n, d[14] = 3; }
static void p_width0(uint8_t *d, size_t n) { (void)n, d[11] = 0; }
static void p_vcount_neg(uint8_t *d, size_t n) { (void)n, put_u32(d + OFF_VCOUNT, 0xffffffffu); }
static void p_vcount_file(uint8_t *d, size_t n) { (void)n, put_u32(d + OFF_VCOUNT, 1000); }
static void p_vcount_huge(uint8_t *d, size_t n) { (void)n, put_u32(d + OFF_VCOUNT, 0x7fffffffu); }
static void p_icount_file(uint8_t *d, size_t n) { (void)n, put_u32(d + OFF_ICOUNT, 99999); }
static void p_icount_neg(uint8_t *d, size_t n) { (void)n, put_u32(d + OFF_ICOUNT, 0x80000000u); }
static void p_tcount_huge(uint8_t *d, size_t n) { (void)n, put_u32(d + OFF_TCOUNT, 0x10000000u); }
static void p_text_len(uint8_t *d, size_t n) { (void)n, put_u32(d + 17, 0x7ffffff0u); }
static void p_text_len_file(uint8_t *d, size_t n) { put_u32(d + 25, (uint32_t)n); }
static void p_text_len_neg(uint8_t *d, size_t n) { (void)n, put_u32(d + 21, 0xfffffffeu); }
static void p_weight_type(uint8_t *d, size_t n) { (void)n, d[OFF_WTYPE] = 9; }
static void p_bone_index(uint8_t *d, size_t n) { (void)n, d[OFF_WTYPE + 1] = 0x80; /* -128 */ }

#define W1(a) {a, MMD_OK, MMD_OK, MMD_OK}
#define W2(a, b) {a, b, MMD_OK, MMD_OK}
#define W3(a, b, c) {a, b, c, MMD_OK}
#define W4(a, b, c, d) {a, b, c, d}

static const model_case g_model_cases[] = {
    /* indices out of range, per element */
    {"bone parent out of range", 0, e_parent_range, NULL, W1(MMD_E_BAD_INDEX), "pmx.bone", 1, true, NULL},
    {"vertex bone out of range", 0, e_vertex_bone, NULL, W1(MMD_E_BAD_INDEX), "pmx.vertex", 0, true, NULL},
    {"vertex BDEF1 bone -1 (-> bone 0)", 0, e_vertex_bone_neg, NULL, W1(MMD_OK), NULL, -1, false, r_bdef1_bone0},
    {"face vertex out of range", 0, e_face_vertex, NULL, W1(MMD_E_BAD_INDEX), "pmx.face", 1, true, NULL},
    {"material texture out of range", 0, e_texture, NULL, W1(MMD_E_BAD_INDEX), "pmx.material", 0, true, NULL},
    {"material sphere out of range", 0, e_sphere, NULL, W1(MMD_E_BAD_INDEX), "pmx.material", 0, true, NULL},
    {"material toon texture out of range", 0, e_toon_own, NULL, W1(MMD_E_BAD_INDEX), "pmx.material", 0, true, NULL},
    {"group morph target out of range", 0, e_morph_target, NULL, W1(MMD_E_BAD_INDEX), "pmx.morph", 2, true, NULL},
    {"vertex morph vertex out of range", 0, e_morph_vertex, NULL, W1(MMD_E_BAD_INDEX), "pmx.morph", 0, true, NULL},
    {"bone morph bone out of range", 0, e_morph_bone, NULL, W1(MMD_E_BAD_INDEX), "pmx.morph", 3, true, NULL},
    {"material morph target out of range", 0, e_morph_material, NULL, W1(MMD_E_BAD_INDEX), "pmx.morph", 4, true, NULL},
    {"impulse morph body out of range", FX_V21, e_impulse_body, NULL, W1(MMD_E_BAD_INDEX), "pmx.morph", 6, true, NULL},
    {"display frame bone out of range (dropped)", 0, e_frame_bone, NULL, W1(MMD_OK), NULL, -1, false, r_frame_dropped},
    {"rigid body bone out of range (-> -1)", 0, e_rigid_bone, NULL, W1(MMD_OK), NULL, -1, false, r_rigid_none},
    {"joint body out of range (-> -1)", 0, e_joint_body, NULL, W1(MMD_OK), NULL, -1, false, r_joint_none},
    {"soft body anchor vertex", FX_V21, e_soft_anchor, NULL, W1(MMD_E_BAD_INDEX), "pmx.soft_body", 0, true, NULL},
    {"append parent out of range", 0, e_append_range, NULL, W1(MMD_E_BAD_INDEX), "pmx.bone", 3, true, NULL},
    {"IK target out of range", 0, e_ik_target_range, NULL, W1(MMD_E_BAD_INDEX), "pmx.bone", 7, true, NULL},
    {"IK link out of range", 0, e_ik_link_range, NULL, W1(MMD_E_BAD_INDEX), "pmx.bone", 7, true, NULL},
    /* structure */
    {"bone parent cycle", 0, e_parent_cycle, NULL, W1(MMD_E_BAD_STRUCTURE), "pmx.bone", -1, true, NULL},
    {"bone is its own parent", 0, e_parent_self, NULL, W2(MMD_E_BAD_STRUCTURE, MMD_E_BAD_INDEX), "pmx.bone", 4, true, NULL},
    {"append loop", 0, e_append_loop, NULL, W1(MMD_E_BAD_STRUCTURE), "pmx.bone", -1, true, NULL},
    {"group morph includes itself", 0, e_morph_self, NULL, W1(MMD_OK), NULL, -1, false, r_any},
    {"IK chain includes the IK bone", 0, e_ik_link_self, NULL, W1(MMD_E_BAD_STRUCTURE), "pmx.bone", 7, true, NULL},
    {"IK bone is its own target", 0, e_ik_target_self, NULL, W1(MMD_E_BAD_STRUCTURE), "pmx.bone", 7, true, NULL},
    {"IK loop count negative", 0, e_ik_loop, NULL, W1(MMD_E_BAD_VALUE), "pmx.bone", 7, true, NULL},
    {"material face counts do not sum", 0, e_mat_sum, NULL, W1(MMD_E_BAD_COUNT), "pmx.material", -1, true, NULL},
    {"material face count not /3", 0, e_mat_third, NULL, W1(MMD_E_BAD_COUNT), "pmx.material", 0, true, NULL},
    /* NaN / Inf: rejected where read, with the offset */
    {"NaN vertex position", 0, e_nan_pos, NULL, W1(MMD_E_BAD_VALUE), "pmx.vertex", 2, true, NULL},
    {"Inf vertex position", 0, e_inf_pos, NULL, W1(MMD_E_BAD_VALUE), "pmx.vertex", 3, true, NULL},
    {"NaN vertex normal (recomputed)", 0, e_nan_normal, NULL, W1(MMD_OK), NULL, -1, false, r_normal},
    {"NaN BDEF2 weight", 0, e_nan_weight, NULL, W1(MMD_E_BAD_VALUE), "pmx.vertex", 1, true, NULL},
    {"-Inf BDEF4 weight", 0, e_inf_weight, NULL, W1(MMD_E_BAD_VALUE), "pmx.vertex", 2, true, NULL},
    {"NaN bone position", 0, e_nan_bone, NULL, W1(MMD_E_BAD_VALUE), "pmx.bone", 5, true, NULL},
    {"NaN vertex morph offset (-> 0)", 0, e_nan_morph, NULL, W1(MMD_OK), NULL, -1, false, r_morph_zero},
    {"Inf rigid body size (-> 0)", 0, e_nan_body, NULL, W1(MMD_OK), NULL, -1, false, r_body_zero},
    /* header and counts (byte patches on the minimal model) */
    {"wrong magic", -1, NULL, p_magic, W1(MMD_E_BAD_MAGIC), NULL, -1, true, NULL},
    {"wrong magic case", -1, NULL, p_magic_pmd, W1(MMD_E_BAD_MAGIC), NULL, -1, true, NULL},
    {"unsupported version 3.0", -1, NULL, p_version, W1(MMD_E_BAD_VERSION), "pmx.header", -1, true, NULL},
    {"version NaN", -1, NULL, p_version_nan, W1(MMD_E_BAD_VERSION), "pmx.header", -1, true, NULL},
    {"globals count 2", -1, NULL, p_globals, W1(MMD_E_BAD_HEADER), "pmx.header", -1, true, NULL},
    {"encoding 7", -1, NULL, p_encoding, W1(MMD_E_BAD_HEADER), "pmx.header", -1, true, NULL},
    {"additional UV 5", -1, NULL, p_adduv, W1(MMD_E_BAD_HEADER), "pmx.header", -1, true, NULL},
    {"index width 3", -1, NULL, p_width, W1(MMD_E_BAD_HEADER), "pmx.header", -1, true, NULL},
    {"index width 0", -1, NULL, p_width0, W1(MMD_E_BAD_HEADER), "pmx.header", -1, true, NULL},
    {"negative vertex count", -1, NULL, p_vcount_neg, W1(MMD_E_BAD_COUNT), "pmx.vertex", -1, true, NULL},
    {"vertex count beyond file", -1, NULL, p_vcount_file, W2(MMD_E_BAD_COUNT, MMD_E_TRUNCATED), "pmx.vertex", -1, true, NULL},
    {"vertex count 2^31-1", -1, NULL, p_vcount_huge, W2(MMD_E_LIMIT, MMD_E_BAD_COUNT), "pmx.vertex", -1, true, NULL},
    {"index count beyond file", -1, NULL, p_icount_file, W2(MMD_E_BAD_COUNT, MMD_E_TRUNCATED), "pmx.face", -1, true, NULL},
    {"negative index count", -1, NULL, p_icount_neg, W1(MMD_E_BAD_COUNT), "pmx.face", -1, true, NULL},
    {"texture count 2^28", -1, NULL, p_tcount_huge, W2(MMD_E_LIMIT, MMD_E_BAD_COUNT), "pmx.texture", -1, true, NULL},
    {"name length 2^31-16", -1, NULL, p_text_len, W4(MMD_E_TRUNCATED, MMD_E_BAD_STRING, MMD_E_LIMIT, MMD_E_BAD_COUNT), "pmx.info", -1, true, NULL},
    {"comment length = file size", -1, NULL, p_text_len_file, W4(MMD_E_TRUNCATED, MMD_E_BAD_STRING, MMD_E_LIMIT, MMD_E_BAD_COUNT), "pmx.info", -1, true, NULL},
    {"negative text length", -1, NULL, p_text_len_neg, W3(MMD_E_BAD_STRING, MMD_E_BAD_COUNT, MMD_E_TRUNCATED), "pmx.info", -1, true, NULL},
    {"weight type 9", -1, NULL, p_weight_type, W1(MMD_E_BAD_VALUE), "pmx.vertex", 0, true, NULL},
    {"vertex bone index -128", -1, NULL, p_bone_index, W1(MMD_E_BAD_INDEX), "pmx.vertex", 0, true, NULL},
};

/* 3 vertices, one triangle, one material, one bone, empty texts: fixed layout. */
static mmd_model *minimal_model(void)
{
    mmd_model *m = mmd_model_new();
    if (!m)
        return NULL;
    mmd_vertex *v = mmd_model_add_vertices(m, 3);
    v[1].position[0] = 1, v[2].position[1] = 1;
    uint32_t *ix = mmd_model_add_indices(m, 3);
    ix[0] = 0, ix[1] = 1, ix[2] = 2;
    mmd_model_add_materials(m, 1)->index_count = 3;
    mmd_model_add_bones(m, 1);
    return m;
}

static uint8_t *write_model(mmd_model *m, size_t *n)
{
    uint8_t *d = NULL;
    mmd_error err;
    mmd_status st = mmd_pmx_write(m, &d, n, &err);
    if (st != MMD_OK)
        printf("#   writer refused the fixture: %s\n", err.msg);
    return st == MMD_OK ? d : NULL;
}

TEST(pmx_fixtures_are_valid)
{
    static const int variants[] = {-1, 0, FX_V21, FX_UTF8 | FX_ADDUV, FX_V21 | FX_WIDE | FX_ADDUV};
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
        mmd_model *m = variants[i] < 0 ? minimal_model() : fx_model(variants[i]);
        REQUIRE(m);
        size_t n = 0;
        uint8_t *d = write_model(m, &n);
        REQUIRE(d);
        mmd_model *back = NULL;
        mmd_error err;
        CHECK_EQ_INT(mmd_model_load(d, n, &back, &err), MMD_OK);
        if (back)
            CHECK_EQ_INT(back->bone_count, m->bone_count);
        mmd_model_free(back);
        mmd_model_free(m);
        free(d);
    }
    /* The minimal layout the byte patches rely on. */
    mmd_model *m = minimal_model();
    size_t n = 0;
    uint8_t *d = write_model(m, &n);
    REQUIRE(d && n > OFF_TCOUNT + 4);
    CHECK_EQ_INT(get_u32(d + OFF_VCOUNT), 3);
    CHECK_EQ_INT(d[OFF_WTYPE], MMD_WEIGHT_BDEF1);
    CHECK_EQ_INT(get_u32(d + OFF_ICOUNT), 3);
    CHECK_EQ_INT(get_u32(d + OFF_TCOUNT), 0);
    free(d);
    mmd_model_free(m);
}

TEST(pmx_bad_input_table)
{
    for (size_t i = 0; i < sizeof g_model_cases / sizeof *g_model_cases; i++) {
        const model_case *c = &g_model_cases[i];
        int fails_before = test_g.cur_failed;
        mmd_model *m = c->variant < 0 ? minimal_model() : fx_model(c->variant);
        REQUIRE(m);
        if (c->edit)
            c->edit(m);
        size_t n = 0;
        uint8_t *d = write_model(m, &n);
        mmd_model_free(m);
        if (!d) {
            printf("#   %s: fixture not writable\n", c->name);
            test_g.cur_failed++;
            continue;
        }
        if (c->patch)
            c->patch(d, n);
        mmd_model *out = NULL;
        mmd_error err;
        memset(&err, 0, sizeof err);
        mmd_status st = mmd_model_load(d, n, &out, &err);
        if (c->repaired) {
            /* docs/compat.md: accepted, repaired, counted as a warning */
            printf("#   %-34s -> %s, %u warning(s)\n", c->name, mmd_status_str(st), out ? out->warnings : 0);
            CHECK_EQ_INT(st, MMD_OK);
            if (out) {
                CHECK(out->warnings > 0);
                CHECK(c->repaired(out));
                mmd_model_free(out);
            }
        } else if (st == MMD_OK) {
            printf("#   %s: ACCEPTED (should be refused)\n", c->name);
            test_g.cur_failed++;
            mmd_model_free(out);
        } else {
            CHECK(out == NULL);
            expect_rejected("fixture.pmx", c->name, st, &err, c->want, c->section, c->item,
                            c->need_offset);
        }
        if (test_g.cur_failed != fails_before)
            printf("#   ^ case %zu \"%s\" failed\n", i, c->name);
        free(d);
    }
}

/* Cut a file at every length: each prefix must be refused as truncated (or a
 * count that no longer fits; text formats: a syntax error), with an offset
 * inside the prefix, never a crash. ok_at lists lengths that are complete
 * files; accepted(out) may allow others (e.g. accepted with a warning). */
typedef struct sweep {
    const char *file;
    mmd_status (*load)(const void *, size_t, void **, mmd_error *);
    void (*free_fn)(void *);
    const size_t *ok_at;
    size_t ok_count;
    bool text;
    bool (*accepted)(const void *out);
} sweep;

static void truncation_sweep(const sweep *sw, const uint8_t *d, size_t n)
{
    int bad = 0;
    for (size_t len = 0; len < n; len++) {
        uint8_t *cut = malloc(len ? len : 1); /* exact size: ASan sees any over-read */
        REQUIRE(cut);
        memcpy(cut, d, len);
        void *out = NULL;
        mmd_error err;
        memset(&err, 0, sizeof err);
        mmd_status st = sw->load(cut, len, &out, &err);
        bool allowed = false;
        for (size_t k = 0; k < sw->ok_count; k++)
            allowed |= sw->ok_at[k] == len;
        if (st == MMD_OK) {
            if (!allowed && !(sw->accepted && sw->accepted(out)) && bad++ < 5)
                printf("#   %s cut at %zu: ACCEPTED\n", sw->file, len);
            sw->free_fn(out);
        } else if (allowed) {
            if (bad++ < 5)
                printf("#   %s cut at section boundary %zu refused: %s\n", sw->file, len, err.msg);
        } else if (!(st == MMD_E_TRUNCATED || st == MMD_E_BAD_COUNT ||
                     (sw->text && st == MMD_E_BAD_STRUCTURE) ||
                     (len < 30 && (st == MMD_E_BAD_MAGIC || st == MMD_E_BAD_HEADER))) ||
                   err.offset < 0 || err.offset > (int64_t)len || !err.msg[0]) {
            if (bad++ < 5) {
                char line[512];
                mmd_error_format(&err, sw->file, line, sizeof line);
                printf("#   %s cut at %zu: %s (%s)\n", sw->file, len, line, mmd_status_str(st));
            }
        }
        free(cut);
    }
    printf("#   %s: %zu prefixes, %d unexpected\n", sw->file, n, bad);
    CHECK_EQ_INT(bad, 0);
}

static mmd_status load_model_v(const void *d, size_t n, void **out, mmd_error *err)
{
    return mmd_model_load(d, n, (mmd_model **)out, err);
}
static void free_model_v(void *p) { mmd_model_free(p); }

TEST(pmx_truncated_at_every_offset)
{
    static const int variants[] = {-1, FX_V21 | FX_UTF8 | FX_ADDUV, FX_WIDE};
    static const char *const names[] = {"minimal.pmx", "v21_utf8.pmx", "wide.pmx"};
    for (size_t i = 0; i < 3; i++) {
        mmd_model *m = variants[i] < 0 ? minimal_model() : fx_model(variants[i]);
        REQUIRE(m);
        size_t n = 0, ok[1] = {0};
        size_t n_ok = 0;
        if (variants[i] >= 0 && (variants[i] & FX_V21)) {
            /* docs/compat.md: a 2.1 file ending right after the joints loads (0 soft bodies) */
            uint32_t keep = m->soft_body_count;
            m->soft_body_count = 0;
            uint8_t *d0 = write_model(m, &ok[0]);
            m->soft_body_count = keep;
            REQUIRE(d0);
            free(d0);
            ok[0] -= 4; /* the soft-body count itself */
            n_ok = 1;
        }
        uint8_t *d = write_model(m, &n);
        mmd_model_free(m);
        REQUIRE(d);
        const sweep sw = {names[i], load_model_v, free_model_v, ok, n_ok, false, NULL};
        truncation_sweep(&sw, d, n);
        free(d);
    }
}

/* ======================================================================== PMD */
static mmd_status load_model_v2(const void *d, size_t n, void **out, mmd_error *err)
{
    return mmd_model_load(d, n, (mmd_model **)out, err);
}
static void free_model_v2(void *p) { mmd_model_free(p); }

TEST(pmd_bad_input)
{
    size_t n = 0, cut[5];
    uint8_t *d = mmd_test_pmd_fixture(4, &n, cut);
    REQUIRE(d);
    mmd_model *m = NULL;
    mmd_error err;
    REQUIRE(mmd_model_load(d, n, &m, &err) == MMD_OK);
    mmd_model_free(m);
    /* The optional English / toon / physics tails may end at their boundaries. */
    const sweep sw = {"fixture.pmd", load_model_v2, free_model_v2, cut, 5, false, NULL};
    truncation_sweep(&sw, d, n);
    /* Wrong magic, version 2.0, vertex count (offset 283) negative / beyond the file. */
    static const struct { size_t off; uint32_t v; mmd_status want[MAXW]; const char *what; } p[] = {
        {0, 0x00646d50u /* "Pmd\0" */, W1(MMD_E_BAD_MAGIC), "wrong magic"},
        {3, 0x40000000u, W1(MMD_E_BAD_VERSION), "version 2.0"},
        {283, 0xffffffffu, W3(MMD_E_BAD_COUNT, MMD_E_LIMIT, MMD_E_TRUNCATED), "negative vertex count"},
        {283, 0x00100000u, W3(MMD_E_BAD_COUNT, MMD_E_LIMIT, MMD_E_TRUNCATED), "vertex count beyond file"},
    };
    for (size_t i = 0; i < sizeof p / sizeof *p; i++) {
        uint8_t *c = malloc(n);
        REQUIRE(c);
        memcpy(c, d, n);
        put_u32(c + p[i].off, p[i].v);
        if (i == 0)
            c[0] = 'X';
        mmd_model *out = NULL;
        memset(&err, 0, sizeof err);
        mmd_status st = mmd_model_load(c, n, &out, &err);
        if (st == MMD_OK) {
            printf("#   pmd %s: ACCEPTED\n", p[i].what);
            test_g.cur_failed++;
            mmd_model_free(out);
        } else {
            expect_rejected("fixture.pmd", p[i].what, st, &err, p[i].want, NULL, -1, true);
        }
        free(c);
    }
    free(d);
}

/* ======================================================================== VMD */
static mmd_status load_vmd_v(const void *d, size_t n, void **out, mmd_error *err)
{
    return mmd_vmd_load(d, n, (mmd_motion **)out, err);
}
static void free_motion_v(void *p) { mmd_motion_free(p); }

typedef struct vmd_case {
    const char *name;
    void (*edit)(mmd_motion *m);
    size_t off;       /* byte patch at off (when edit is NULL) */
    uint32_t value;
    mmd_status want[MAXW];
    const char *section;
} vmd_case;

static void v_nan_rot(mmd_motion *m) { m->bone_keys[1].rotation[2] = NAN; }
static void v_inf_pos(mmd_motion *m) { m->bone_keys[2].position[0] = INFINITY; }
static void v_nan_morph(mmd_motion *m) { m->morph_keys[1].weight = NAN; }
static void v_nan_camera(mmd_motion *m) { m->camera_keys[1].distance = NAN; }
static void v_inf_light(mmd_motion *m) { m->light_keys[0].direction[1] = -INFINITY; }

/* Layout: 30 magic + 20 name = 50 | bone count | 111-byte keys ... */
static const vmd_case g_vmd_cases[] = {
    {"wrong magic", NULL, 0, 0x61636f56u /* "Voca" -> patched below */, W1(MMD_E_BAD_MAGIC), NULL},
    /* VMD counts are u32: -1 is 4294967295 keys, over MMD_MAX_MOTION_KEYS */
    {"negative bone key count", NULL, 50, 0xffffffffu, W2(MMD_E_BAD_COUNT, MMD_E_LIMIT), "vmd.bone"},
    {"bone key count beyond file", NULL, 50, 100000u, W2(MMD_E_BAD_COUNT, MMD_E_TRUNCATED), "vmd.bone"},
    {"bone key count 2^31-1", NULL, 50, 0x7fffffffu, W2(MMD_E_LIMIT, MMD_E_BAD_COUNT), "vmd.bone"},
    /* docs/compat.md: NaN/Inf bone and morph keys load as neutral keys with a warning */
    {"NaN bone rotation (neutral key)", v_nan_rot, 0, 0, W1(MMD_OK), NULL},
    {"Inf bone position (neutral key)", v_inf_pos, 0, 0, W1(MMD_OK), NULL},
    {"NaN morph weight (neutral key)", v_nan_morph, 0, 0, W1(MMD_OK), NULL},
    {"NaN camera distance", v_nan_camera, 0, 0, W1(MMD_E_BAD_VALUE), "vmd.camera"},
    {"-Inf light direction", v_inf_light, 0, 0, W1(MMD_E_BAD_VALUE), "vmd.light"},
};

TEST(vmd_bad_input_table)
{
    for (size_t i = 0; i < sizeof g_vmd_cases / sizeof *g_vmd_cases; i++) {
        const vmd_case *c = &g_vmd_cases[i];
        mmd_motion *mo = fx_motion();
        REQUIRE(mo);
        if (c->edit)
            c->edit(mo);
        uint8_t *d = NULL;
        size_t n = 0;
        mmd_error err;
        REQUIRE(mmd_vmd_write(mo, &d, &n, &err) == MMD_OK);
        mmd_motion_free(mo);
        if (!c->edit) {
            if (i == 0)
                d[0] = 'X';
            else
                put_u32(d + c->off, c->value);
        }
        mmd_motion *out = NULL;
        memset(&err, 0, sizeof err);
        mmd_status st = mmd_vmd_load(d, n, &out, &err);
        if (c->want[0] == MMD_OK) {
            printf("#   %-34s -> %s, %u warning(s)\n", c->name, mmd_status_str(st), out ? out->warnings : 0);
            CHECK_EQ_INT(st, MMD_OK);
            if (out) {
                CHECK(out->warnings > 0);
                for (uint32_t k = 0; k < out->bone_key_count; k++)
                    for (int q = 0; q < 4; q++)
                        CHECK(isfinite(out->bone_keys[k].rotation[q]) && (q == 3 || isfinite(out->bone_keys[k].position[q])));
                for (uint32_t k = 0; k < out->morph_key_count; k++)
                    CHECK(isfinite(out->morph_keys[k].weight));
                mmd_motion_free(out);
            }
        } else if (st == MMD_OK) {
            printf("#   vmd %s: ACCEPTED (should be refused)\n", c->name);
            test_g.cur_failed++;
            mmd_motion_free(out);
        } else {
            expect_rejected("fixture.vmd", c->name, st, &err, c->want, c->section, -1, true);
        }
        free(d);
    }
}

static bool vmd_salvaged(const void *out)
{
    const mmd_motion *m = out;
    for (uint32_t i = 0; i < m->warning_list.kind_count; i++)
        if (strstr(m->warning_list.kinds[i].what, "garbage count") && m->warning_list.kinds[i].offset >= 50)
            return m->bone_key_count > 0;
    return false;
}

TEST(vmd_truncated_at_every_offset)
{
    mmd_motion *mo = fx_motion();
    REQUIRE(mo);
    uint8_t *d = NULL;
    size_t n = 0;
    mmd_error err;
    REQUIRE(mmd_vmd_write(mo, &d, &n, &err) == MMD_OK);
    /* Trailing sections may be absent (EOF = count 0): the cuts at the end of
     * the header and after each complete section are valid files. */
    size_t ok[8], k = 0, at = 50;
    ok[k++] = at;
    const uint32_t counts[6] = {mo->bone_key_count, mo->morph_key_count, mo->camera_key_count,
                                mo->light_key_count, mo->shadow_key_count, mo->property_key_count};
    static const size_t rec[5] = {111, 23, 61, 28, 9};
    for (int s = 0; s < 5; s++) {
        at += 4 + (size_t)counts[s] * rec[s];
        ok[k++] = at;
    }
    mmd_motion_free(mo);
    /* A cut inside a section after the (complete) bone keys keeps what precedes
     * it, with the salvage warning (docs/compat.md). */
    const sweep sw = {"fixture.vmd", load_vmd_v, free_motion_v, ok, k, false, vmd_salvaged};
    truncation_sweep(&sw, d, n);
    free(d);
}

static mmd_status load_vpd_v(const void *d, size_t n, void **out, mmd_error *err)
{
    return mmd_vpd_load(d, n, (mmd_motion **)out, err);
}

static bool vpd_warned(const void *out) { return ((const mmd_motion *)out)->warnings > 0; }

TEST(vpd_bad_input)
{
    static const char head[] = "Vocaloid Pose Data file\r\n\r\nm.osm;\r\n";
    static const struct { const char *body; const char *what; } c[] = {
        {"1;\r\nBone0{center\r\n  abc,0,0;\r\n  0,0,0,1;\r\n}\r\n", "bad number"},
        {"1;\r\nBone0{center\r\n  nan,0,0;\r\n  0,0,0,1;\r\n}\r\n", "NaN position"},
        {"1;\r\nBone0{center\r\n  0,0,0;\r\n  0,inf,0,1;\r\n}\r\n", "Inf rotation"},
        {"1;\r\nBone0{center\r\n  0,0,0;\r\n  0,0,0,1;\r\n", "missing }"},
        {"-1;\r\n", "negative bone count"},
        {"1;\r\nBone0{center\r\n  0,0;\r\n  0,0,0,1;\r\n}\r\n", "two components for a position"},
        {"1;\r\nBone0{center\r\n  1e39,0,0;\r\n  0,0,0,1;\r\n}\r\n", "float overflow"},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", head, c[i].body);
        mmd_motion *out = NULL;
        mmd_error err;
        memset(&err, 0, sizeof err);
        mmd_status st = mmd_vpd_load(text, strlen(text), &out, &err);
        if (st == MMD_OK) {
            printf("#   vpd %s: ACCEPTED (should be refused)\n", c[i].what);
            test_g.cur_failed++;
            mmd_motion_free(out);
            continue;
        }
        static const mmd_status want[MAXW] = {MMD_E_BAD_VALUE, MMD_E_BAD_STRUCTURE, MMD_E_TRUNCATED,
                                              MMD_E_BAD_COUNT};
        expect_rejected("pose.vpd", c[i].what, st, &err, want, NULL, -1, true);
    }
    /* Wrong magic. */
    mmd_motion *out = NULL;
    mmd_error err;
    const char *nm = "Vocaloid Pose Data fil\r\n";
    CHECK_EQ_INT(mmd_vpd_load(nm, strlen(nm), &out, &err), MMD_E_BAD_MAGIC);
    /* A declared bone count that does not match is repaired: accepted with a warning. */
    static const char *const warn[2] = {"1;\r\n", "99999999999;\r\n"};
    for (int i = 0; i < 2; i++) {
        char text[256];
        snprintf(text, sizeof text, "%s%s", head, warn[i]);
        CHECK_EQ_INT(mmd_vpd_load(text, strlen(text), &out, &err), MMD_OK);
        if (out) {
            CHECK(out->warnings > 0);
            mmd_motion_free(out);
            out = NULL;
        }
    }
    /* Truncation: a cut inside a record is refused; a cut between records
     * loses bones and is accepted only with the count-mismatch warning. */
    const char *full = "Vocaloid Pose Data file\r\n\r\nm.osm;\r\n1;\r\nBone0{center\r\n"
                       "  0.5,1,0;\r\n  0,0,0,1;\r\n}\r\n";
    size_t n = strlen(full);
    size_t ok[3] = {n - 2, n - 1, n}; /* after the brace the rest is whitespace */
    const sweep sw = {"pose.vpd", load_vpd_v, free_motion_v, ok, 3, true, vpd_warned};
    truncation_sweep(&sw, (const uint8_t *)full, n);
}

/* ====================================================================== scene */
static char g_dir[64];

TEST(scene_bad_input)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/mmd_bad_input_XXXXXX");
    REQUIRE(mkdtemp(g_dir));
    char path[128];
    snprintf(path, sizeof path, "%s/a.pmx", g_dir);
    FILE *f = fopen(path, "wb");
    REQUIRE(f);
    fputs("x", f);
    fclose(f);
    static const struct { const char *text; int line; const char *needle; } c[] = {
        {"[output]\nwidht = 640\n[model]\nfile = a.pmx\n", 2, "widht"},
        {"[model]\nfile = a.pmx\ncolour = red\n", 3, "colour"},
        {"[nosuchsection]\nx = 1\n", 1, "nosuchsection"},
        {"[output]\nwidth = abc\n[model]\nfile = a.pmx\n", 2, "abc"},
        {"[output]\nwidth = 12px\n[model]\nfile = a.pmx\n", 2, "12px"},
        {"[output]\nwidth = -5\n[model]\nfile = a.pmx\n", 2, "-5"},
        {"[output]\nwidth = 100000\n[model]\nfile = a.pmx\n", 2, "100000"},
        {"[output]\nfps = 0\n[model]\nfile = a.pmx\n", 2, "fps"},
        {"[output]\nfps = nan\n[model]\nfile = a.pmx\n", 2, "nan"},
        {"[output]\nframes = 20-10\n[model]\nfile = a.pmx\n", 2, "20-10"},
        {"[output]\nbackground = #12345g\n[model]\nfile = a.pmx\n", 2, "#12345g"},
        {"[camera]\nfov = inf\n[model]\nfile = a.pmx\n", 2, "inf"},
        {"[camera]\nposition = 1 2\n[model]\nfile = a.pmx\n", 2, "position"},
        {"[model]\nfile = missing.pmx\n", 2, "missing.pmx"},
        {"[model]\nfile = a.pmx\nmotion = gone.vmd\n", 3, "gone.vmd"},
        {"[camera]\nmotion = nocam.vmd\n[model]\nfile = a.pmx\n", 2, "nocam.vmd"},
        {"[model]\nphysics = maybe\nfile = a.pmx\n", 2, "maybe"},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        snprintf(path, sizeof path, "%s/scene.ini", g_dir);
        mmd_scene *s = NULL;
        mmd_error err = {0};
        const char *msg = err.msg;
        int rc = mmd_scene_parse(c[i].text, path, true, &s, &err);
        char want[96];
        snprintf(want, sizeof want, "scene.ini:%d: ", c[i].line);
        printf("#   scene case %zu -> %s\n", i, rc ? msg : "ACCEPTED");
        CHECK_EQ_INT(rc, MMD_E_BAD_VALUE);
        CHECK_EQ_INT(err.item, c[i].line);
        CHECK(s == NULL);
        CHECK(strstr(msg, want) != NULL);
        CHECK(strstr(msg, c[i].needle) != NULL);
        if (rc == 0)
            mmd_scene_free(s);
    }
    remove(path);
    snprintf(path, sizeof path, "%s/a.pmx", g_dir);
    remove(path);
    rmdir(g_dir);
    /* A scene file that does not exist. */
    mmd_scene *s = NULL;
    mmd_error err;
    CHECK_EQ_INT(mmd_scene_load_file("/nonexistent/dir/scene.ini", &s, &err), MMD_E_IO);
    CHECK(strstr(err.msg, "/nonexistent/dir/scene.ini") != NULL);
}

/* ====================================================================== image */
typedef struct membuf { uint8_t *p; size_t n, cap; } membuf;
static void mem_write(void *ctx, void *data, int size)
{
    membuf *b = ctx;
    if (b->n + (size_t)size > b->cap) {
        b->cap = (b->n + (size_t)size) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            abort();
    }
    memcpy(b->p + b->n, data, (size_t)size);
    b->n += (size_t)size;
}

static membuf encode(int kind) /* 0 PNG, 1 BMP, 2 TGA, 3 JPEG */
{
    uint8_t px[8 * 8 * 4];
    for (int i = 0; i < 8 * 8 * 4; i++)
        px[i] = (uint8_t)(i * 7);
    membuf b = {0};
    switch (kind) {
    case 0: stbi_write_png_to_func(mem_write, &b, 8, 8, 4, px, 32); break;
    case 1: stbi_write_bmp_to_func(mem_write, &b, 8, 8, 3, px); break;
    case 2: stbi_write_tga_to_func(mem_write, &b, 8, 8, 4, px); break;
    default: stbi_write_jpg_to_func(mem_write, &b, 8, 8, 3, px, 90); break;
    }
    return b;
}

static void dds_header(uint8_t *d, uint32_t w, uint32_t h, const char *fourcc)
{
    memset(d, 0, 128);
    memcpy(d, "DDS ", 4);
    put_u32(d + 4, 124);
    put_u32(d + 8, 0x1007u | 0x80000u);
    put_u32(d + 12, h);
    put_u32(d + 16, w);
    put_u32(d + 76, 32);
    put_u32(d + 80, 0x4);
    memcpy(d + 84, fourcc, 4);
    put_u32(d + 108, 0x1000);
}

static void expect_image_refused(const char *what, const uint8_t *d, size_t n, int want1, int want2,
                                 const char *needle)
{
    mmd_image img;
    mmd_error ie = {0};
    int rc = mmd_image_load_memory(d, n, &img, &ie);
    printf("#   %-34s -> %s (%d)\n", what, rc ? ie.msg : "ACCEPTED", rc);
    if (rc == 0) {
        mmd_image_free(&img);
        test_g.cur_failed++;
        return;
    }
    CHECK(rc == want1 || rc == want2);
    if (needle)
        CHECK(strstr(ie.msg, needle) != NULL);
}

TEST(image_absurd_dimensions)
{
    /* 100000 x 100000 claimed by each header; nothing may be allocated for it. */
    membuf png = encode(0), bmp = encode(1), tga = encode(2), jpg = encode(3);
    REQUIRE(png.n > 24 && bmp.n > 26 && tga.n > 16 && jpg.n > 200);
    put_u32be(png.p + 16, 100000), put_u32be(png.p + 20, 100000); /* IHDR (CRC now stale) */
    /* Refused before allocating either way; renderer/image/decode.c does not read IHDR
     * itself, so stb's own cap makes it "unknown image type" (reported). */
    expect_image_refused("PNG 100000x100000", png.p, png.n, MMD_E_LIMIT, MMD_E_BAD_MAGIC, NULL);
    put_u32(bmp.p + 18, 100000), put_u32(bmp.p + 22, 100000);
    expect_image_refused("BMP 100000x100000", bmp.p, bmp.n, MMD_E_LIMIT, MMD_E_LIMIT, "100000");
    put_u32(bmp.p + 18, 100000), put_u32(bmp.p + 22, (uint32_t)-100000); /* top-down */
    expect_image_refused("BMP 100000x-100000", bmp.p, bmp.n, MMD_E_LIMIT, MMD_E_BAD_HEADER, "100000");
    tga.p[12] = 0xff, tga.p[13] = 0xff, tga.p[14] = 0xff, tga.p[15] = 0xff; /* 65535 x 65535 */
    expect_image_refused("TGA 65535x65535", tga.p, tga.n, MMD_E_LIMIT, MMD_E_LIMIT, "65535");
    /* JPEG: the SOF0 marker's height/width. */
    for (size_t i = 2; i + 9 < jpg.n; i++)
        if (jpg.p[i] == 0xff && jpg.p[i + 1] == 0xc0) {
            put_u16be(jpg.p + i + 5, 65000), put_u16be(jpg.p + i + 7, 65000);
            break;
        }
    expect_image_refused("JPEG 65000x65000", jpg.p, jpg.n, MMD_E_LIMIT, MMD_E_LIMIT, "65000");
    uint8_t dds[128 + 64];
    dds_header(dds, 100000, 100000, "DXT1");
    expect_image_refused("DDS DXT1 100000x100000", dds, sizeof dds, MMD_E_LIMIT, MMD_E_LIMIT, "100000");
    dds_header(dds, 16384, 16384, "DXT5"); /* within the side limit, 256 MiB of blocks claimed */
    expect_image_refused("DDS DXT5 16384^2, 64 bytes", dds, sizeof dds, MMD_E_TRUNCATED, MMD_E_LIMIT, NULL);
    dds_header(dds, 8, 8, "DXT7");
    expect_image_refused("DDS unknown fourcc", dds, sizeof dds, MMD_E_UNSUPPORTED, MMD_E_BAD_HEADER, "DDS");
    free(png.p), free(bmp.p), free(tga.p), free(jpg.p);
}

TEST(image_wrong_magic_and_truncation)
{
    const uint8_t junk[16] = "not an image....";
    expect_image_refused("16 bytes of text", junk, sizeof junk, MMD_E_BAD_MAGIC, MMD_E_BAD_MAGIC, NULL);
    expect_image_refused("empty", junk, 0, MMD_E_TRUNCATED, MMD_E_TRUNCATED, NULL);
    /* PNG and DDS cut anywhere must be refused, except inside IEND's CRC, which
     * stb never reads (the image is complete). BMP/TGA pixel data cut short
     * decodes as black in stb: reported, not asserted. */
    membuf png = encode(0);
    int accepted = 0;
    for (size_t len = 0; len + 4 < png.n; len++) {
        uint8_t *c = malloc(len ? len : 1);
        REQUIRE(c);
        memcpy(c, png.p, len);
        mmd_image img;
        mmd_error ie = {0};
        if (mmd_image_load_memory(c, len, &img, &ie) == 0) {
            accepted++;
            mmd_image_free(&img);
        }
        free(c);
    }
    printf("#   PNG (%zu bytes) prefixes accepted: %d\n", png.n, accepted);
    CHECK_EQ_INT(accepted, 0);
    uint8_t dds[128 + 32];
    dds_header(dds, 8, 8, "DXT1");
    accepted = 0;
    for (size_t len = 0; len < sizeof dds; len++) {
        mmd_image img;
        mmd_error ie = {0};
        if (mmd_image_load_memory(dds, len, &img, &ie) == 0) {
            accepted++;
            mmd_image_free(&img);
        }
    }
    CHECK_EQ_INT(accepted, 0);
    free(png.p);
    /* A missing file names the path. */
    mmd_image img;
    mmd_error ie = {0};
    CHECK(mmd_image_load_file("/nonexistent/tex.png", &img, &ie) != 0);
    CHECK(strstr(ie.msg, "/nonexistent/tex.png") != NULL);
}

/* Offset of the first chunk of this type in an encoded PNG (png.n if none). */
static size_t png_chunk_at(membuf png, const char *type)
{
    size_t at = 8;
    while (at + 8 <= png.n && memcmp(png.p + at + 4, type, 4) != 0)
        at += 12 + ((size_t)png.p[at] << 24 | (size_t)png.p[at + 1] << 16 |
                    (size_t)png.p[at + 2] << 8 | png.p[at + 3]);
    return at + 8 <= png.n ? at : png.n;
}

TEST(image_png_chunk_length_beyond_file)
{
    /* tests/fuzz/regressions/texture/png-idat-length-*: an IDAT whose length
     * field exceeds the file must be refused before any allocation. */
    membuf png = encode(0);
    size_t at = png_chunk_at(png, "IDAT");
    REQUIRE(at + 8 <= png.n);
    put_u32be(png.p + at, 0x49444154u);
    expect_image_refused("PNG IDAT length 1.2 GB", png.p, png.n, MMD_E_TRUNCATED, MMD_E_TRUNCATED,
                         "IDAT");
    free(png.p);
}

TEST(image_png_cut_inside_chunk_header)
{
    /* tests/fuzz/regressions/texture/png-cut-header-idat-1229209940: the file
     * ends 8 bytes into a chunk header that reads length "IDAT" (1.2 GB), type
     * IDAT. stb reads a header even when its CRC cannot follow, so the walk
     * must refuse it rather than stop at "fewer than 12 bytes left". */
    membuf png = encode(0);
    size_t at = png_chunk_at(png, "IDAT");
    REQUIRE(at + 8 <= png.n);
    put_u32be(png.p + at, 0x49444154u);
    expect_image_refused("PNG cut after an IDAT header", png.p, at + 8, MMD_E_TRUNCATED,
                         MMD_E_TRUNCATED, "chunk header");
    /* Every cut between the signature and IEND is refused the same way (stb
     * only decodes at IEND), and no cut is accepted. */
    for (size_t cut = 9; cut < png.n; cut++) {
        mmd_image img;
        mmd_error ie = {0};
        int rc = mmd_image_load_memory(png.p, cut, &img, &ie);
        if (rc == 0)
            mmd_image_free(&img);
        CHECK(rc == MMD_E_TRUNCATED);
    }
    free(png.p);
}

/* ===================================================== forged counts, ulimit */
#if defined(__SANITIZE_ADDRESS__)
#define MMD_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MMD_UNDER_ASAN 1
#endif
#endif

/* In a child limited to its current address space + 64 MiB, files whose counts
 * are at (or just under) the MMD_MAX_* caps but whose bytes are a few hundred
 * must be refused by the count check, before any allocation (an allocation
 * first would show up as "out of memory" here), and fast. */
TEST(forged_counts_fail_fast_without_allocating)
{
#ifdef MMD_UNDER_ASAN
    SKIP("skipped: ASan reserves terabytes of address space; RLIMIT_AS cannot apply");
#else
    mmd_model *m = minimal_model();
    REQUIRE(m);
    size_t pn = 0;
    uint8_t *pmx = write_model(m, &pn);
    mmd_model_free(m);
    mmd_motion *mo = fx_motion();
    REQUIRE(pmx && mo);
    uint8_t *vmd = NULL;
    size_t vn = 0;
    mmd_error err;
    REQUIRE(mmd_vmd_write(mo, &vmd, &vn, &err) == MMD_OK);
    mmd_motion_free(mo);
    fflush(stdout);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        long pages = 0, page = sysconf(_SC_PAGESIZE);
        FILE *f = fopen("/proc/self/statm", "r");
        if (!f || fscanf(f, "%ld", &pages) != 1)
            _exit(10);
        fclose(f);
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max = (rlim_t)pages * (rlim_t)page + (64u << 20);
        if (setrlimit(RLIMIT_AS, &rl) != 0)
            _exit(11);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        static const struct { size_t off; uint32_t v; } pp[] = {
            {OFF_VCOUNT, MMD_MAX_VERTICES}, {OFF_ICOUNT, MMD_MAX_INDICES}, {OFF_TCOUNT, MMD_MAX_TEXTURES}};
        uint8_t *forged = malloc(pn);
        if (!forged)
            _exit(12);
        for (size_t i = 0; i < 3; i++) {
            memcpy(forged, pmx, pn);
            put_u32(forged + pp[i].off, pp[i].v);
            mmd_model *out = NULL;
            mmd_status st = mmd_model_load(forged, pn, &out, &err);
            printf("#   child: PMX count %u at 0x%zx -> %s: %s\n", pp[i].v, pp[i].off, mmd_status_str(st), err.msg);
            if (st != MMD_E_BAD_COUNT && st != MMD_E_TRUNCATED)
                _exit(20 + (int)i);
        }
        put_u32(vmd + 50, MMD_MAX_MOTION_KEYS);
        mmd_motion *mout = NULL;
        mmd_status st = mmd_vmd_load(vmd, vn, &mout, &err);
        printf("#   child: VMD bone keys %u -> %s: %s\n", MMD_MAX_MOTION_KEYS, mmd_status_str(st), err.msg);
        if (st != MMD_E_BAD_COUNT && st != MMD_E_TRUNCATED)
            _exit(30);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
        printf("#   child: 4 forged files refused in %.3f ms\n", ms);
        fflush(stdout);
        _exit(ms < 100.0 ? 0 : 40);
    }
    int ws = 0;
    waitpid(pid, &ws, 0);
    CHECK(WIFEXITED(ws));
    CHECK_EQ_INT(WIFEXITED(ws) ? WEXITSTATUS(ws) : -1, 0);
    free(pmx);
    free(vmd);
#endif
}

/* stb also decodes HDR, PSD, PIC and PNM; they are refused by their first
 * bytes before stb runs. The HDR case is a 53-byte file whose RLE scanline has
 * a zero-length run: stb_image loops on it forever (alarm() turns a regression
 * into a failure). The PPM claims 16384x16384 in 30 bytes (1 GiB decoded). */
/* The 53-byte Radiance HDR on which stb_image loops forever: an RLE scanline
 * of width 16 whose runs have length 0. */
static void hdr_hang(uint8_t hdr[53])
{
    const char *head = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 16\n";
    size_t hl = strlen(head);
    memset(hdr, 0, 53);
    memcpy(hdr, head, hl);
    hdr[hl] = 2, hdr[hl + 1] = 2, hdr[hl + 2] = 0, hdr[hl + 3] = 16;
}

TEST(image_undocumented_formats_refused_by_signature)
{
    uint8_t hdr[53];
    hdr_hang(hdr);
    alarm(20);
    expect_image_refused("Radiance HDR, zero-length run", hdr, sizeof hdr, MMD_E_UNSUPPORTED, MMD_E_UNSUPPORTED,
                         "Radiance HDR");
    const char ppm[] = "P6\n16384 16384\n255\n\0\0\0\0\0\0\0\0\0\0";
    expect_image_refused("PPM 16384x16384 in 30 bytes", (const uint8_t *)ppm, 30, MMD_E_UNSUPPORTED,
                         MMD_E_UNSUPPORTED, "PNM");
    uint8_t psd[64] = "8BPS\0\1";
    expect_image_refused("PSD", psd, sizeof psd, MMD_E_UNSUPPORTED, MMD_E_UNSUPPORTED, "PSD");
    uint8_t pic[128] = "\x53\x80\xf6\x34";
    memcpy(pic + 88, "PICT", 4);
    expect_image_refused("Softimage PIC", pic, sizeof pic, MMD_E_UNSUPPORTED, MMD_E_UNSUPPORTED, "PIC");
    /* a TGA header that fails stb's own probe (image type 7) never reaches stb */
    membuf tga = encode(2);
    tga.p[2] = 7;
    expect_image_refused("TGA with image type 7", tga.p, tga.n, MMD_E_BAD_MAGIC, MMD_E_BAD_MAGIC, NULL);
    free(tga.p);
    alarm(0);
}

/* The file loader's time budget: a decode that runs past it is stopped in its
 * child process and reported as MMD_E_LIMIT; within the budget the pixels are
 * the in-process decode's. A 4096x2048 BMP (24 MiB) cannot decode in 1 ms. */
TEST(image_decode_time_budget)
{
    int w = 4096, h = 2048;
    uint8_t *px = malloc((size_t)w * h * 3);
    REQUIRE(px);
    for (size_t i = 0; i < (size_t)w * h * 3; i++)
        px[i] = (uint8_t)(i * 13 >> 3);
    membuf b = {0};
    stbi_write_bmp_to_func(mem_write, &b, w, h, 3, px);
    free(px);
    mmd_image a, c;
    mmd_error ie = {0};
    CHECK_EQ_INT(mmd_image_load_memory_timed(b.p, b.n, 1, &a, &ie), MMD_E_LIMIT);
    printf("#   1 ms budget: %s\n", ie.msg);
    CHECK(strstr(ie.msg, "budget") != NULL);
    REQUIRE(mmd_image_load_memory_timed(b.p, b.n, 60000, &a, &ie) == 0);
    REQUIRE(mmd_image_load_memory(b.p, b.n, &c, &ie) == 0);
    CHECK(a.size == c.size && !memcmp(a.data, c.data, a.size));
    mmd_image_free(&a);
    mmd_image_free(&c);
    free(b.p);
}

/* The decode workers (image/decode_child.h) with a job that hangs stb (the
 * zero-length-run HDR scanline, handed to them directly: the loaders refuse
 * it by its first bytes) between good ones: its worker is killed at the
 * budget, the hang is MMD_E_LIMIT, and every other job still decodes, the
 * ones after it in a second round (one worker) or on the other worker. */
TEST(image_decode_workers_survive_a_hang)
{
    uint8_t hdr[53];
    hdr_hang(hdr);
    uint8_t px[16 * 16 * 3];
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (uint8_t)(i * 7);
    membuf b = {0};
    stbi_write_bmp_to_func(mem_write, &b, 16, 16, 3, px);
    uint8_t want[16 * 16 * 4];
    mmd_decode_job here = {.data = b.p, .size = b.n, .w = 16, .h = 16, .px = want};
    mmd_decode_here(&here);
    REQUIRE(here.res.status == MMD_OK);
    for (int workers = 1; workers <= 2; workers++) {
        uint8_t out[4][16 * 16 * 4];
        mmd_decode_job jobs[4];
        for (int i = 0; i < 4; i++)
            jobs[i] = (mmd_decode_job){.data = b.p, .size = b.n, .w = 16, .h = 16, .px = out[i]};
        jobs[1] = (mmd_decode_job){.data = hdr, .size = sizeof hdr, .w = 16, .h = 1, .px = out[1]};
        alarm(20);
        mmd_decode_children(jobs, 4, workers, 200);
        alarm(0);
        printf("#   %d worker(s): the hang: %s\n", workers, jobs[1].res.why);
        CHECK_EQ_INT(jobs[1].res.status, MMD_E_LIMIT);
        for (int i = 0; i < 4; i += 1 + (i == 0)) {
            CHECK_EQ_INT(jobs[i].res.status, MMD_OK);
            CHECK(!memcmp(out[i], want, sizeof want));
        }
    }
    free(b.p);
}

/* A worker on a hang does not outlive a parent killed before its budget: the
 * test process becomes the subreaper of the orphaned worker and must reap it,
 * killed, well within the 60 s budget the dead parent can no longer enforce. */
TEST(image_decode_worker_dies_with_its_parent)
{
    uint8_t hdr[53];
    hdr_hang(hdr);
    REQUIRE(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
    pid_t mid = fork();
    REQUIRE(mid >= 0);
    if (mid == 0) {
        uint8_t px[16 * 4];
        mmd_decode_job job = {.data = hdr, .size = sizeof hdr, .w = 16, .h = 1, .px = px};
        mmd_decode_children(&job, 1, 1, 60000);
        _exit(1); /* not reached: killed below */
    }
    /* kill it once its worker is forked (a fixed 200 ms was too short under ASan on a loaded
     * machine: no worker yet, no orphan to reap) */
    char kids[64];
    snprintf(kids, sizeof kids, "/proc/%d/task/%d/children", (int)mid, (int)mid);
    for (int ms = 0; ms < 20000; ms += 10) {
        FILE *f = fopen(kids, "r");
        int c = f ? fgetc(f) : EOF;
        if (f)
            fclose(f);
        if (c != EOF || (!f && ms >= 200)) /* a child, or no such file: 200 ms as before */
            break;
        usleep(10000);
    }
    kill(mid, SIGKILL);
    REQUIRE(waitpid(mid, NULL, 0) == mid);
    int reaped = 0, status = 0;
    for (int ms = 0; ms < 5000 && !reaped; ms += 10) { /* the orphaned worker, now ours */
        pid_t w = waitpid(-1, &status, WNOHANG);
        if (w > 0)
            reaped = 1;
        else
            usleep(10000);
    }
    if (!reaped) { /* the failure: do not leave the looping worker behind */
        FILE *ps = popen("ps -o pid= --ppid $PPID", "r");
        int pid;
        while (ps && fscanf(ps, "%d", &pid) == 1)
            if (pid != (int)getpid())
                kill(pid, SIGKILL);
        if (ps)
            pclose(ps);
    }
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    CHECK(reaped);
    CHECK(reaped && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* ================================================================ bombs */
/* IK bomb: 16 chains of 1,024 links with 65,536 loops and an unreachable
 * target (1.1 MB) asked for 4.3e9 bone updates a frame (108 s per chain on
 * main). The work is capped at create: asserted as the count, and one frame
 * must finish under an alarm. */
TEST(ik_bomb_work_is_capped)
{
    size_t n = 0;
    uint8_t *d = mmd_bomb_ik(16, 1024, 65536, &n);
    REQUIRE(d);
    mmd_model *m = NULL;
    mmd_error err;
    REQUIRE(mmd_model_load(d, n, &m, &err) == MMD_OK);
    free(d);
    mmd_anim *a = NULL;
    REQUIRE(mmd_anim_create(m, NULL, 0, &a, &err) == MMD_OK);
    uint64_t wanted = 0, kept = 0;
    uint32_t capped = mmd_anim_ik_capped(a, &wanted, &kept);
    printf("#   16 x 1024 links x 65536 loops: %llu bone updates wanted, %llu kept, %u chains capped\n",
           (unsigned long long)wanted, (unsigned long long)kept, capped);
    CHECK(capped == 16);
    CHECK(wanted > (uint64_t)1 << 32);
    CHECK(kept <= MMD_IK_MAX_WORK);
    alarm(30);
    mmd_anim_evaluate(a, 0);
    mmd_anim_evaluate(a, 1);
    alarm(0);
    /* a cancelled anim skips the IK loops (the render's signal flag) */
    volatile sig_atomic_t stop = 1;
    mmd_anim_set_cancel(a, &stop);
    CHECK(mmd_anim_cancelled(a));
    mmd_anim_evaluate(a, 2);
    mmd_anim_free(a);
    mmd_model_free(m);
    /* the fixture's leg IK (a real chain) is not touched */
    d = mmd_bomb_ik(1, 3, 40, &n);
    REQUIRE(d && mmd_model_load(d, n, &m, &err) == MMD_OK);
    free(d);
    REQUIRE(mmd_anim_create(m, NULL, 0, &a, &err) == MMD_OK);
    CHECK_EQ_INT((int)mmd_anim_ik_capped(a, &wanted, &kept), 0);
    CHECK(wanted == kept && kept == 40 * 3 * 4);
    mmd_anim_free(a);
    mmd_model_free(m);
}

/* CPU seconds of `frames` evaluations of an IK bomb of `chains` one-link chains. */
static double ik_chains_cpu(uint32_t chains, int frames)
{
    size_t n = 0;
    uint8_t *d = mmd_bomb_ik(chains, 1, 1, &n);
    mmd_model *m = NULL;
    mmd_anim *a = NULL;
    mmd_error err;
    if (!d || mmd_model_load(d, n, &m, &err) != MMD_OK || mmd_anim_create(m, NULL, 0, &a, &err) != MMD_OK) {
        free(d);
        mmd_model_free(m);
        return -1;
    }
    free(d);
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (int f = 0; f < frames; f++)
        mmd_anim_evaluate(a, f);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    mmd_anim_free(a);
    mmd_model_free(m);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

/* After each IK chain its descendants are recomputed. That walked every bone
 * of the model per chain: 21,845 one-link chains (65,535 bones) took 1.9 s a
 * frame, 100 times the cost per chain of 2,184 chains. The walk now follows
 * child lists, so the cost per chain must not grow with the model (a loose
 * factor of 4 for timer noise; it was 100). */
TEST(ik_many_chains_cost_linear)
{
    alarm(60);
    double small = ik_chains_cpu(2184, 20), big = ik_chains_cpu(21845, 20);
    alarm(0);
    REQUIRE(small > 0 && big > 0);
    double ratio = (big / 21845) / (small / 2184);
    printf("#   2,184 chains %.2f ms a frame, 21,845 chains %.2f ms: %.1fx the cost per chain\n", small * 50,
           big * 50, ratio);
    CHECK(ratio < 4.0);
}

/* The refreshes after IK chains share the IK work bound: 128 chains turning
 * the root of a 32,768-bone chain ask to recompute 4.2 M bones a frame; the
 * first 64 (2^21 / 32,768) still do, the other 64 skip it and are counted.
 * Gene's chains and a few deep ones are untouched. */
TEST(ik_refresh_work_is_capped)
{
    static const uint32_t shapes[][3] = {{32768, 128, 64}, {32768, 8, 0}, {4, 1, 0}}; /* bones, chains, capped */
    for (int i = 0; i < 3; i++) {
        size_t n = 0;
        uint8_t *d = mmd_bomb_ik_deep(shapes[i][0], shapes[i][1], &n);
        REQUIRE(d);
        mmd_model *m = NULL;
        mmd_anim *a = NULL;
        mmd_error err;
        REQUIRE(mmd_model_load(d, n, &m, &err) == MMD_OK);
        free(d);
        REQUIRE(mmd_anim_create(m, NULL, 0, &a, &err) == MMD_OK);
        printf("#   %u bones under %u chains: %u chains skip the refresh\n", shapes[i][0], shapes[i][1],
               mmd_anim_ik_refresh_capped(a));
        CHECK_EQ_INT((int)mmd_anim_ik_refresh_capped(a), (int)shapes[i][2]);
        alarm(30);
        mmd_anim_evaluate(a, 0);
        alarm(0);
        mmd_anim_free(a);
        mmd_model_free(m);
    }
}

/* Physics bomb: 1,024 and 4,096 dynamic spheres in one place (8 s and 137 s
 * a frame on main) are refused by the rest-pair cap, so the renderer draws
 * them without physics; a few separate bodies still simulate. */
TEST(physics_bomb_is_refused_by_pair_cap)
{
    static const uint32_t counts[] = {1024, 4096, 8};
    for (int i = 0; i < 3; i++) {
        size_t n = 0;
        uint8_t *d = mmd_bomb_physics(counts[i], &n);
        REQUIRE(d);
        mmd_model *m = NULL;
        mmd_error err;
        REQUIRE(mmd_model_load(d, n, &m, &err) == MMD_OK);
        free(d);
        if (i == 2) /* 8 bodies far apart: 0 pairs */
            for (uint32_t k = 0; k < m->rigid_body_count; k++)
                m->rigid_bodies[k].position[0] = 10.0f * (float)k;
        mmd_physics *p = NULL;
        mmd_status st = mmd_physics_create(m, &p, &err);
        printf("#   %u overlapping bodies -> %s %s\n", counts[i], mmd_status_str(st), st ? err.msg : "");
        CHECK_EQ_INT(st, i < 2 ? MMD_E_LIMIT : MMD_OK);
        if (st != MMD_OK)
            CHECK(strstr(err.msg, "colliding pairs") != NULL);
        mmd_physics_free(p);
        mmd_model_free(m);
    }
}

/* The model in a generated bomb's bytes (freed), NULL when any step fails. */
static mmd_model *load_bomb(uint8_t *d, size_t n)
{
    mmd_model *m = NULL;
    if (d && mmd_model_load(d, n, &m, NULL) != MMD_OK)
        m = NULL;
    free(d);
    return m;
}

/* Physics bomb, later pile-ups (issue 14): balls that start apart and are
 * pulled into one place by their joints (colliding, or masked out and passing
 * through each other) have no pair at rest, so create accepts them; the
 * broadphase budget stops the simulation once the pile forms, under an alarm
 * (4,096 colliding balls: minutes and 6 GB a frame on main before the budget).
 * The stopped model's bones are the animation's, as with physics off. */
TEST(physics_pile_up_stops_at_the_budget)
{
    static const uint32_t counts[] = {4096, 4096, 512};
    for (int i = 0; i < 3; i++) {
        size_t n = 0;
        uint8_t *d = mmd_bomb_physics_converge(counts[i], i != 1, true, &n);
        mmd_model *m = load_bomb(d, n);
        REQUIRE(m);
        mmd_error err;
        mmd_anim *a = NULL, *ref = NULL;
        mmd_physics *p = NULL;
        REQUIRE(mmd_anim_create(m, NULL, 0, &a, &err) == MMD_OK && mmd_anim_create(m, NULL, 0, &ref, &err) == MMD_OK);
        REQUIRE(mmd_physics_create(m, &p, &err) == MMD_OK && mmd_physics_attach(p, a, NULL) == MMD_OK);
        alarm(60);
        mmd_physics_preroll(p, a, 0, 2.0);
        for (int f = 1; f <= 30; f++)
            mmd_anim_evaluate(a, (double)f);
        alarm(0);
        mmd_physics_work w;
        mmd_physics_work_of(p, &w);
        printf("#   %u balls pulled together (%s): peak %llu pairs of %llu, %llu tests of %llu, %s\n", counts[i],
               i != 1 ? "colliding" : "passing through", (unsigned long long)w.peak_pairs,
               (unsigned long long)w.max_pairs, (unsigned long long)w.peak_tests, (unsigned long long)w.max_tests,
               w.stopped ? "stopped" : "running");
        CHECK(w.stopped);
        CHECK(w.peak_pairs <= w.max_pairs && w.peak_tests <= w.max_tests);
        CHECK_EQ_INT(w.max_pairs, MMD_PHYSICS_PAIRS_BASE + MMD_PHYSICS_PAIRS_PER_BODY * (counts[i] + 1));
        mmd_anim_evaluate(ref, 30);
        CHECK(memcmp(mmd_anim_world(a), mmd_anim_world(ref), 16 * sizeof(float)) == 0);
        /* a reset is a fresh world: simulated again until the pile forms again */
        mmd_anim_evaluate(a, 0);
        mmd_physics_work_of(p, &w);
        CHECK(!w.stopped);
        mmd_physics_free(p);
        mmd_anim_free(ref);
        mmd_anim_free(a);
        mmd_model_free(m);
    }
}

/* SIGTERM inside a frame: the physics steps one substep at a time and looks
 * at the anim's cancel flag before each (a frame of fps 1/10 owes 1,200). */
TEST(physics_step_stops_when_cancelled)
{
    size_t n = 0;
    uint8_t *d = mmd_bomb_physics_converge(64, true, true, &n);
    mmd_model *m = load_bomb(d, n);
    REQUIRE(m);
    mmd_error err;
    mmd_anim *a = NULL;
    mmd_physics *p = NULL;
    REQUIRE(mmd_anim_create(m, NULL, 0, &a, &err) == MMD_OK);
    REQUIRE(mmd_physics_create(m, &p, &err) == MMD_OK && mmd_physics_attach(p, a, NULL) == MMD_OK);
    mmd_anim_evaluate(a, 0);
    float *w = mmd_anim_world_mut(a);
    CHECK_EQ_INT(mmd_physics_step(p, 10.0, w, w), MMD_PHYSICS_MAX_SUBSTEPS);
    volatile sig_atomic_t stop = 1;
    mmd_anim_set_cancel(a, &stop);
    CHECK_EQ_INT(mmd_physics_step(p, 10.0, w, w), 0);
    stop = 0;
    CHECK_EQ_INT(mmd_physics_step(p, 1.0 / 30.0, w, w), 4);
    mmd_physics_free(p);
    mmd_anim_free(a);
    mmd_model_free(m);
}

/* ========================================================================= .x / .vac */
typedef struct x_case {
    const char *what, *text;          /* a whole file (text encoding) */
    mmd_status want[MAXW];
    const char *section;
    int64_t item;
} x_case;

#define XH "xof 0302txt 0032\n"
#define XTRI "Mesh { 3; 0;0;0;, 1;0;0;, 0;1;0;; 1; 3;0,1,2;; "
static const x_case g_x_cases[] = {
    {"x: magic", "xox 0302txt 0032\n", {MMD_E_BAD_MAGIC}, "x", -1},
    {"x: version", "xof 0402txt 0032\n", {MMD_E_BAD_VERSION}, "x", -1},
    {"x: encoding", "xof 0302lzw 0032\n", {MMD_E_UNSUPPORTED}, "x", -1},
    {"x: float size", "xof 0302bin 0048\n", {MMD_E_BAD_HEADER}, "x", -1},
    {"x: vertex count beyond the file", XH "Mesh { 4000000; 0;0;0;; }", {MMD_E_BAD_COUNT}, "x", -1},
    {"x: vertex count beyond the limit", XH "Mesh { 4000000000; 0;0;0;; }", {MMD_E_LIMIT}, "x", -1},
    {"x: face corners beyond the file", XH "Mesh { 1; 0;0;0;; 1; 900000;0,0,0;; }", {MMD_E_BAD_COUNT}, "x", -1},
    {"x: face vertex out of range", XH "Mesh { 3; 0;0;0;, 1;0;0;, 0;1;0;; 1; 3;0,1,9;; }", {MMD_E_BAD_INDEX},
     "x.mesh", 0},
    {"x: normal index out of range", XH XTRI "MeshNormals { 1; 0;0;1;; 1; 3;0,0,5;; } }", {MMD_E_BAD_INDEX}, "x.mesh", 0},
    {"x: normal faces differ", XH XTRI "MeshNormals { 1; 0;0;1;; 2; 3;0,0,0;, 3;0,0,0;; } }", {MMD_E_BAD_COUNT},
     "x.mesh", 0},
    {"x: material index out of range", XH XTRI "MeshMaterialList { 1; 1; 4;; Material { 1;1;1;1;; 0; 0;0;0;; 0;0;0;; } } }",
     {MMD_E_BAD_INDEX}, "x.mesh", 0},
    {"x: fewer materials than declared", XH XTRI "MeshMaterialList { 3; 1; 0;; Material { 1;1;1;1;; 0; 0;0;0;; 0;0;0;; } } }",
     {MMD_E_BAD_COUNT}, "x.mesh", 0},
    {"x: material index list longer than faces", XH XTRI "MeshMaterialList { 1; 2; 0,0;; Material { 1;1;1;1;; 0; 0;0;0;; 0;0;0;; } } }",
     {MMD_E_BAD_COUNT}, "x.mesh", 0},
    {"x: undefined material reference", XH XTRI "MeshMaterialList { 1; 1; 0;; { nope } } }", {MMD_E_BAD_INDEX}, "x", -1},
    {"x: uv count differs", XH XTRI "MeshTextureCoords { 2; 0;0;, 1;1;; } }", {MMD_E_BAD_COUNT}, "x", -1},
    {"x: vertex colour index out of range", XH XTRI "MeshVertexColors { 1; 3;1;1;1;1;;; } }", {MMD_E_BAD_INDEX}, "x", -1},
    {"x: second MeshNormals", XH XTRI "MeshNormals { 1; 0;0;1;; 1; 3;0,0,0;; } MeshNormals { 1; 0;0;1;; 1; 3;0,0,0;; } }",
     {MMD_E_BAD_STRUCTURE}, "x", -1},
    {"x: number where a name goes", XH "Mesh 12 { }", {MMD_E_BAD_STRUCTURE}, "x", -1},
    {"x: unclosed object", XH "Frame a { Frame b { ", {MMD_E_TRUNCATED}, "x", -1},
    {"x: unterminated string", XH XTRI "MeshMaterialList { 1; 1; 0;; Material { 1;1;1;1;; 0; 0;0;0;; 0;0;0;; "
                                       "TextureFilename { \"a.png; } } } }", {MMD_E_TRUNCATED}, "x", -1},
    {"x: huge number", XH "Mesh { 1; 1e300;0;0;; 0; }", {MMD_E_BAD_STRUCTURE}, "x", -1},
    {"x: NaN text", XH "Mesh { 1; nan;0;0;; 0; }", {MMD_E_BAD_STRUCTURE}, "x", -1},
    {"x: a transform that overflows", XH "Frame { FrameTransformMatrix { 3e38,0,0,0, 0,1,0,0, 0,0,1,0, 3e38,0,0,1;; }"
                                         XTRI "} }", {MMD_E_BAD_VALUE}, "x.vertex", -1},
};

static void x_load_case(const char *what, const void *d, size_t n, const mmd_status want[MAXW], const char *section,
                        int64_t item)
{
    mmd_xmesh *x = NULL;
    mmd_error err;
    mmd_status st = mmd_x_load(d, n, &x, &err);
    if (st == MMD_OK) {
        printf("#   %s: loaded\n", what);
        test_g.cur_failed++;
        mmd_x_free(x);
        return;
    }
    bool header = strstr(what, "magic") || strstr(what, "version") || strstr(what, "encoding") ||
                  strstr(what, "float size");
    expect_rejected("acc.x", what, st, &err, want, section, item, !strstr(what, "overflows") || header);
}

TEST(x_bad_input_table)
{
    for (size_t i = 0; i < sizeof g_x_cases / sizeof g_x_cases[0]; i++) {
        const x_case *c = &g_x_cases[i];
        x_load_case(c->what, c->text, strlen(c->text), c->want, c->section, c->item);
    }
    /* binary and MSZIP damage on a generated file */
    size_t n = 0;
    mmd_xmesh *src = x_fixture_sample();
    uint8_t *bin = x_fixture_bytes(src, MMD_X_BINARY, 32, true, NULL, &n);
    uint8_t *d = malloc(n);
    memcpy(d, bin, n);
    d[16] = 0x77; /* first token */
    x_load_case("x bin: unknown token", d, n, (mmd_status[MAXW]){MMD_E_BAD_STRUCTURE}, "x", -1);
    memcpy(d, bin, n);
    put_u32(d + 18, 0x7ffffff0u); /* the "Mesh" name length */
    x_load_case("x bin: name length", d, n, (mmd_status[MAXW]){MMD_E_LIMIT}, "x", -1);
    memcpy(d, bin, n);
    size_t list = 16 + 2 + 4 + 4 + 2 + 4 + 5 + 2; /* NAME Mesh, NAME mesh0, '{', then the int list */
    put_u32(d + list + 2, 0x3fffffffu);
    x_load_case("x bin: list longer than the file", d, n, (mmd_status[MAXW]){MMD_E_BAD_COUNT}, "x", -1);
    free(d);
    free(bin);
    uint8_t *zip = x_fixture_bytes(src, MMD_X_BZIP, 32, true, NULL, &n);
    d = malloc(n);
    memcpy(d, zip, n);
    put_u32(d + 16, 0xfffffff0u);
    x_load_case("x zip: inflated size", d, n, (mmd_status[MAXW]){MMD_E_LIMIT, MMD_E_BAD_COUNT}, "x.mszip", -1);
    memcpy(d, zip, n);
    d[20] = 0x00, d[21] = 0x90; /* block inflates to 36 KiB */
    x_load_case("x zip: block size", d, n, (mmd_status[MAXW]){MMD_E_BAD_COUNT}, "x.mszip", 0);
    memcpy(d, zip, n);
    d[24] = 'Q';
    x_load_case("x zip: no CK", d, n, (mmd_status[MAXW]){MMD_E_BAD_MAGIC}, "x.mszip", 0);
    memcpy(d, zip, n);
    d[22] = 0xff, d[23] = 0x7f; /* compressed size beyond the file */
    x_load_case("x zip: compressed size", d, n, (mmd_status[MAXW]){MMD_E_TRUNCATED}, "x.mszip", 0);
    free(d);
    free(zip);
    mmd_x_free(src);
}

TEST(vac_bad_input)
{
    static const struct { const char *what, *text; mmd_status st; int line; } cases[] = {
        {"vac: two lines", "name\nfan.x\n", MMD_E_TRUNCATED, 3},
        {"vac: no .x file", "name\n\n1\n0,0,0\n0,0,0\n\n", MMD_E_BAD_VALUE, 2},
        {"vac: scale text", "name\nfan.x\nbig\n0,0,0\n0,0,0\n\n", MMD_E_BAD_VALUE, 3},
        {"vac: two coordinates", "name\nfan.x\n1\n0,0\n0,0,0\n\n", MMD_E_BAD_VALUE, 4},
        {"vac: rotation junk", "name\nfan.x\n1\n0,0,0\n0,0,0x\n\n", MMD_E_BAD_VALUE, 5},
        {"vac: huge value", "name\nfan.x\n1e99\n0,0,0\n0,0,0\n\n", MMD_E_BAD_VALUE, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mmd_vac v;
        mmd_error err;
        mmd_status st = mmd_vac_load(cases[i].text, strlen(cases[i].text), &v, &err);
        mmd_status want[MAXW] = {cases[i].st};
        expect_rejected("acc.vac", cases[i].what, st, &err, want, "vac", cases[i].line, false);
    }
    char big[70000];
    memset(big, 'a', sizeof big);
    mmd_vac v;
    mmd_error err;
    CHECK_EQ_INT(mmd_vac_load(big, sizeof big, &v, &err), MMD_E_LIMIT);
}

/* Worst-case legal shapes (issue 13): deep chains, long IK lists, many morph
 * offsets on one vertex, a group morph over 65,535 groups. Each loads; the
 * loader is O(n log n) in every count, so each takes milliseconds (the times
 * are printed here and measured in make bench, not asserted). */
TEST(worst_case_shapes_load)
{
    for (int s = 0; s < MMD_WORST_COUNT; s++) {
        size_t n = 0;
        uint8_t *d = mmd_test_worst(s, &n);
        REQUIRE(d);
        struct timespec t0, t1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        mmd_model *m = NULL;
        mmd_error err;
        mmd_status st = mmd_model_load(d, n, &m, &err);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
        printf("#   %-32s %9zu bytes: %s in %.1f ms CPU\n", mmd_test_worst_name(s), n, mmd_status_str(st),
               (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
        CHECK_EQ_INT(st, MMD_OK);
        mmd_model_free(m);
        free(d);
    }
}

int main(void)
{
    RUN(pmx_fixtures_are_valid);
    RUN(pmx_bad_input_table);
    RUN(pmx_truncated_at_every_offset);
    RUN(pmd_bad_input);
    RUN(vmd_bad_input_table);
    RUN(vmd_truncated_at_every_offset);
    RUN(vpd_bad_input);
    RUN(forged_counts_fail_fast_without_allocating);
    RUN(scene_bad_input);
    RUN(image_absurd_dimensions);
    RUN(image_wrong_magic_and_truncation);
    RUN(image_png_chunk_length_beyond_file);
    RUN(image_png_cut_inside_chunk_header);
    RUN(image_undocumented_formats_refused_by_signature);
    RUN(image_decode_time_budget);
    RUN(image_decode_workers_survive_a_hang);
    RUN(image_decode_worker_dies_with_its_parent);
    RUN(ik_bomb_work_is_capped);
    RUN(ik_many_chains_cost_linear);
    RUN(ik_refresh_work_is_capped);
    RUN(physics_bomb_is_refused_by_pair_cap);
    RUN(physics_pile_up_stops_at_the_budget);
    RUN(physics_step_stops_when_cancelled);
    RUN(x_bad_input_table);
    RUN(vac_bad_input);
    RUN(worst_case_shapes_load);
    return test_finish();
}
