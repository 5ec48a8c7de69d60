/* tests/unit/test_validate.c - semantic checks of mmd_model_validate: each kind of
 * damage gives the right status and a message naming the element. */
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/pmx_write.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* 4 bones in a chain 0 <- 1 <- 2 <- 3, bone 3 is an IK with target 2 and link 1;
 * 4 vertices, 2 triangles in 2 materials, 2 textures, 3 morphs, 1 rigid body, 1 joint. */
static mmd_model *build(void)
{
    mmd_model *m = mmd_model_new();
    REQUIRE(m);
    mmd_vertex *v = mmd_model_add_vertices(m, 4);
    v[1].bones[0] = 1;
    v[2].weight_type = MMD_WEIGHT_BDEF2;
    v[2].bones[0] = 1;
    v[2].bones[1] = 2;
    v[2].weights[0] = 0.5f;
    v[2].weights[1] = 0.5f;
    v[3].weight_type = MMD_WEIGHT_BDEF4;
    for (int k = 0; k < 4; k++) {
        v[3].bones[k] = k;
        v[3].weights[k] = 0.25f;
    }
    uint32_t *ix = mmd_model_add_indices(m, 6);
    static const uint32_t tri[6] = {0, 1, 2, 1, 2, 3};
    memcpy(ix, tri, sizeof tri);
    mmd_model_add_textures(m, 2);
    mmd_material *mt = mmd_model_add_materials(m, 2);
    mt[0].index_count = 3;
    mt[0].texture = 1;
    mt[1].index_count = 3;
    mmd_bone *b = mmd_model_add_bones(m, 4);
    for (int i = 1; i < 4; i++)
        b[i].parent = i - 1;
    b[3].parent = 0;
    b[3].flags |= MMD_BONE_IK;
    b[3].ik_target = 2;
    b[3].ik_loop = 10;
    b[3].ik_link_count = 1;
    b[3].ik_links = mmd_model_alloc(m, 1, sizeof(mmd_ik_link));
    b[3].ik_links[0].bone = 1;
    mmd_morph *mo = mmd_model_add_morphs(m, 3);
    mo[0].type = MMD_MORPH_VERTEX;
    mo[0].offset_count = 1;
    mo[0].u.vertex = mmd_model_alloc(m, 1, sizeof(mmd_morph_vertex));
    mo[0].u.vertex[0].vertex = 3;
    mo[1].type = MMD_MORPH_GROUP;
    mo[1].offset_count = 1;
    mo[1].u.group = mmd_model_alloc(m, 1, sizeof(mmd_morph_group));
    mo[1].u.group[0].morph = 0;
    mo[2].type = MMD_MORPH_IMPULSE;
    mo[2].offset_count = 1;
    mo[2].u.impulse = mmd_model_alloc(m, 1, sizeof(mmd_morph_impulse));
    mo[2].u.impulse[0].rigid_body = 0;
    mmd_rigid_body *rb = mmd_model_add_rigid_bodies(m, 1);
    rb[0].bone = 2;
    mmd_joint *j = mmd_model_add_joints(m, 1);
    j[0].body_a = 0;
    j[0].body_b = 0;
    mmd_display_frame *f = mmd_model_add_frames(m, 1);
    f[0].element_count = 1;
    f[0].elements = mmd_model_alloc(m, 1, sizeof(mmd_frame_element));
    f[0].elements[0].is_morph = 1;
    f[0].elements[0].index = 2;
    return m;
}

static mmd_error g_err;

static mmd_status run(mmd_model *m)
{
    memset(&g_err, 0, sizeof g_err);
    return mmd_model_validate(m, &g_err);
}

#define EXPECT(m, st, sec, idx, needle)                                                \
    do {                                                                                \
        CHECK_EQ_INT(run(m), (st));                                                     \
        CHECK_STR(g_err.section, (sec));                                                \
        CHECK_EQ_INT(g_err.item, (idx));                                                \
        if (!strstr(g_err.msg, (needle))) {                                             \
            printf("#   message \"%s\" lacks \"%s\"\n", g_err.msg, (needle));           \
            test_g.cur_failed++;                                                        \
        }                                                                               \
    } while (0)

TEST(valid_model_passes)
{
    mmd_model *m = build();
    CHECK_EQ_INT(run(m), MMD_OK);
    CHECK_EQ_INT(m->warnings, 0);
    REQUIRE(m->eval_order);
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(m->eval_order[i], i);
    /* also through the writer and the loader */
    uint8_t *b;
    size_t n;
    REQUIRE(mmd_pmx_write(m, &b, &n, NULL) == MMD_OK);
    mmd_model *r = NULL;
    CHECK_EQ_INT(mmd_model_load(b, n, &r, NULL), MMD_OK);
    mmd_model_free(r);
    free(b);
    mmd_model_free(m);
}

TEST(parent_cycle)
{
    mmd_model *m = build();
    m->bones[0].parent = 2; /* 0 -> 2 -> 1 -> 0 */
    CHECK_EQ_INT(run(m), MMD_E_BAD_STRUCTURE);
    CHECK_STR(g_err.section, "pmx.bone");
    CHECK(g_err.item >= 0 && g_err.item <= 2);
    CHECK(strstr(g_err.msg, "parent") != NULL);
    m->bones[0].parent = 0; /* self */
    EXPECT(m, MMD_E_BAD_STRUCTURE, "pmx.bone", 0, "parent chain");
    /* and through the loader: out untouched, error names the bone */
    uint8_t *b;
    size_t n;
    REQUIRE(mmd_pmx_write(m, &b, &n, NULL) == MMD_OK);
    mmd_model *r = NULL;
    mmd_error e;
    CHECK_EQ_INT(mmd_model_load(b, n, &r, &e), MMD_E_BAD_STRUCTURE);
    CHECK(r == NULL);
    CHECK_STR(e.section, "pmx.bone");
    CHECK_EQ_INT(e.item, 0);
    free(b);
    m->bones[0].parent = 7;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.bone", 0, "parent 7 out of range (4 bones)");
    mmd_model_free(m);
}

TEST(append_loop)
{
    mmd_model *m = build();
    m->bones[1].flags |= MMD_BONE_APPEND_ROTATE;
    m->bones[1].append_parent = 2;
    CHECK_EQ_INT(run(m), MMD_OK); /* 1 appends 2: fine */
    m->bones[2].flags |= MMD_BONE_APPEND_TRANSLATE;
    m->bones[2].append_parent = 1; /* 2 appends 1: loop */
    CHECK_EQ_INT(run(m), MMD_E_BAD_STRUCTURE);
    CHECK_STR(g_err.section, "pmx.bone");
    CHECK(g_err.item == 1 || g_err.item == 2);
    CHECK(strstr(g_err.msg, "append") != NULL);
    /* an append_parent without the flag is not a chain */
    m->bones[2].flags &= (uint16_t)~MMD_BONE_APPEND_TRANSLATE;
    CHECK_EQ_INT(run(m), MMD_OK);
    m->bones[1].append_parent = 1; /* self-append */
    EXPECT(m, MMD_E_BAD_STRUCTURE, "pmx.bone", 1, "append");
    mmd_model_free(m);
}

TEST(ik_chain_contains_ik_bone)
{
    mmd_model *m = build();
    m->bones[3].ik_links[0].bone = 3;
    EXPECT(m, MMD_E_BAD_STRUCTURE, "pmx.bone", 3, "IK link 0 is the IK bone itself");
    m->bones[3].ik_links[0].bone = 1;
    m->bones[3].ik_target = 3;
    EXPECT(m, MMD_E_BAD_STRUCTURE, "pmx.bone", 3, "own target");
    m->bones[3].ik_target = -1;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.bone", 3, "IK target -1");
    m->bones[3].ik_target = 2;
    m->bones[3].ik_links[0].bone = 40;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.bone", 3, "bone 40 out of range");
    mmd_model_free(m);
}

TEST(face_index_out_of_range)
{
    mmd_model *m = build();
    m->indices[4] = 4;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.face", 1, "vertex 4 out of range (4 vertices)");
    mmd_model_free(m);
}

TEST(material_face_counts)
{
    mmd_model *m = build();
    m->materials[1].index_count = 6;
    EXPECT(m, MMD_E_BAD_COUNT, "pmx.material", -1, "sum to 9");
    m->materials[0].index_count = 1;
    m->materials[1].index_count = 5;
    EXPECT(m, MMD_E_BAD_COUNT, "pmx.material", 0, "not a multiple of 3");
    mmd_model_free(m);
}

TEST(texture_out_of_range)
{
    mmd_model *m = build();
    m->materials[1].sphere_texture = 2;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.material", 1, "sphere texture 2 out of range (2 textures)");
    m->materials[1].sphere_texture = -1;
    m->materials[1].toon = 5;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.material", 1, "toon 5");
    m->materials[1].toon_shared = true; /* shared toon 5 = toon06.bmp: fine */
    CHECK_EQ_INT(run(m), MMD_OK);
    m->materials[1].toon = 10;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.material", 1, "toon 10");
    mmd_model_free(m);
}

TEST(morph_target_out_of_range)
{
    mmd_model *m = build();
    m->morphs[0].u.vertex[0].vertex = 9;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.morph", 0, "vertex 9 out of range");
    m->morphs[0].u.vertex[0].vertex = 0;
    m->morphs[1].u.group[0].morph = 3;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.morph", 1, "morph 3 out of range (3 morphs)");
    m->morphs[1].u.group[0].morph = 1; /* group containing itself: accepted, warned (compat) */
    m->warnings = 0;
    CHECK_EQ_INT(run(m), MMD_OK);
    CHECK(m->warnings >= 1);
    m->morphs[1].u.group[0].morph = 0;
    m->morphs[2].u.impulse[0].rigid_body = 1;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.morph", 2, "rigid body 1 out of range (1 rigid bodies)");
    mmd_model_free(m);
}

TEST(group_cycle_through_two_groups)
{
    mmd_model *m = build();
    m->morphs[0].type = MMD_MORPH_GROUP; /* 0 -> 3?; make 0 -> 1 and 1 -> 0 */
    m->morphs[0].u.group = mmd_model_alloc(m, 1, sizeof(mmd_morph_group));
    m->morphs[0].u.group[0].morph = 1;
    /* harmless for our one-level group expansion: accepted with a warning */
    m->warnings = 0;
    CHECK_EQ_INT(run(m), MMD_OK);
    CHECK(m->warnings >= 1);
    mmd_model_free(m);
}

TEST(other_references)
{
    mmd_model *m = build();
    m->vertices[1].bones[0] = 4;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.vertex", 1, "bone 4 out of range (4 bones)");
    m->vertices[1].bones[0] = 1;
    m->vertices[0].bones[2] = 1; /* BDEF1 with a stray second bone */
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.vertex", 0, "unused bone slot 2");
    m->vertices[0].bones[2] = -1;
    m->rigid_bodies[0].bone = 4;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.rigid_body", 0, "bone 4 out of range");
    m->rigid_bodies[0].bone = -1;
    CHECK_EQ_INT(run(m), MMD_OK);
    m->joints[0].body_b = 1;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.joint", 0, "rigid body B 1 out of range");
    m->joints[0].body_b = 0;
    m->display_frames[0].elements[0].index = 3;
    EXPECT(m, MMD_E_BAD_INDEX, "pmx.display_frame", 0, "morph 3 out of range");
    mmd_model_free(m);
}

TEST(weights_are_repaired_and_counted)
{
    mmd_model *m = build();
    for (int k = 0; k < 4; k++)
        m->vertices[3].weights[k] = 0.5f; /* sums to 2 */
    m->vertices[2].bones[1] = -1;         /* BDEF2 second bone missing, w1 = 0.5 */
    CHECK_EQ_INT(run(m), MMD_OK);
    CHECK_EQ_INT(m->warnings, 2);
    for (int k = 0; k < 4; k++)
        CHECK_NEAR(m->vertices[3].weights[k], 0.25, 1e-6);
    CHECK_NEAR(m->vertices[2].weights[0], 1.0, 1e-6);
    CHECK_NEAR(m->vertices[2].weights[1], 0.0, 0);
    mmd_model_free(m);
}

TEST(eval_order_sorted)
{
    mmd_model *m = build();
    m->bones[0].flags |= MMD_BONE_AFTER_PHYSICS;
    m->bones[1].layer = 2;
    m->bones[2].layer = -1;
    CHECK_EQ_INT(run(m), MMD_OK);
    static const int32_t want[4] = {2, 3, 1, 0};
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(m->eval_order[i], want[i]);
    mmd_model_free(m);
}

/* Damage written to bytes and loaded back: the semantic error carries the byte
 * offset of the element it names (same layout as the clean file, whose
 * offset tables give the expected values). */
static uint8_t *to_bytes(mmd_model *m, size_t *n)
{
    uint8_t *d = NULL;
    mmd_error e;
    if (mmd_pmx_write(m, &d, n, &e) != MMD_OK)
        return NULL;
    return d;
}

static void e_cycle(mmd_model *m) { m->bones[0].parent = 2; }
static void e_ik_self(mmd_model *m) { m->bones[3].ik_links[0].bone = 3; }
static void e_ik_target(mmd_model *m) { m->bones[3].ik_target = 3; }
static void e_append(mmd_model *m)
{
    m->bones[1].flags |= MMD_BONE_APPEND_ROTATE;
    m->bones[1].append_parent = 2;
    m->bones[2].flags |= MMD_BONE_APPEND_ROTATE;
    m->bones[2].append_parent = 1;
}
static void e_vbone(mmd_model *m) { m->vertices[2].bones[1] = 9; }
static void e_msum(mmd_model *m) { m->materials[1].index_count = 6; }
static void e_impulse(mmd_model *m) { m->morphs[2].u.impulse[0].rigid_body = 1; }

TEST(loaded_model_errors_name_the_offset)
{
    mmd_model *clean_src = build();
    size_t n = 0;
    uint8_t *d = to_bytes(clean_src, &n);
    mmd_model_free(clean_src);
    REQUIRE(d);
    mmd_model *clean = NULL;
    mmd_error e;
    REQUIRE(mmd_model_load(d, n, &clean, &e) == MMD_OK);
    free(d);
    const mmd_model_offsets *fo = &clean->file_offsets;
    REQUIRE(fo->bone && fo->bone_count == 4 && fo->vertex_count == 4 && fo->material_count == 2 &&
            fo->morph_count == 3 && fo->rigid_body_count == 1 && fo->joint_count == 1);
    /* tables are increasing and inside the file */
    CHECK(fo->vertex[0] < fo->vertex[1] && fo->vertex[3] < fo->material[0] && fo->material[1] < fo->bone[0]);
    CHECK(fo->bone[3] < fo->morph[0] && fo->morph[2] < fo->rigid_body[0] && fo->joint[0] < n);
    CHECK_EQ_INT(fo->face_index_size, 1);
    /* build(): bone indices 1 byte, no additional UV: vertex 2's second bone at +34 */
    const struct {
        const char *name;
        void (*edit)(mmd_model *m);
        const char *section;
        int64_t item, offset;
    } cases[] = {
        {"parent cycle", e_cycle, "pmx.bone", 0, fo->bone[0]},
        {"IK link is the IK bone", e_ik_self, "pmx.bone", 3, fo->bone[3]},
        {"IK bone its own target", e_ik_target, "pmx.bone", 3, fo->bone[3]},
        {"append loop", e_append, "pmx.bone", 1, fo->bone[1]},
        {"vertex bone out of range", e_vbone, "pmx.vertex", 2, (int64_t)fo->vertex[2] + 34},
        {"material counts do not sum", e_msum, "pmx.material", -1, fo->material_section},
        {"impulse body out of range", e_impulse, "pmx.morph", 2, fo->morph[2]},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        mmd_model *m = build();
        cases[i].edit(m);
        d = to_bytes(m, &n);
        mmd_model_free(m);
        REQUIRE(d);
        mmd_model *out = NULL;
        memset(&e, 0, sizeof e);
        mmd_status st = mmd_model_load(d, n, &out, &e);
        char line[300];
        mmd_error_format(&e, "model.pmx", line, sizeof line);
        printf("#   %-28s %s\n", cases[i].name, line);
        CHECK(st != MMD_OK);
        CHECK(out == NULL);
        CHECK(e.section && strcmp(e.section, cases[i].section) == 0);
        CHECK_EQ_INT(e.item, cases[i].item);
        CHECK(e.offset >= 0 && e.offset < (int64_t)n);
        CHECK_EQ_INT(e.offset, cases[i].offset);
        CHECK(strstr(line, "offset 0x") != NULL);
        if (cases[i].edit == e_vbone && e.offset >= 0 && e.offset < (int64_t)n)
            CHECK_EQ_INT(d[e.offset], 9); /* the offending byte itself */
        free(d);
    }
    /* the same damage in memory (no file): offset stays -1 */
    mmd_model *m = build();
    e_cycle(m);
    CHECK(run(m) == MMD_E_BAD_STRUCTURE);
    CHECK_EQ_INT(g_err.offset, -1);
    mmd_model_free(m);
    /* a table that no longer matches its section is ignored */
    clean->bones[0].parent = 2;
    clean->file_offsets.bone_count = 3;
    CHECK(mmd_model_validate(clean, &e) == MMD_E_BAD_STRUCTURE);
    CHECK_EQ_INT(e.offset, -1);
    mmd_model_free(clean);
}

int main(void)
{
    RUN(valid_model_passes);
    RUN(parent_cycle);
    RUN(append_loop);
    RUN(ik_chain_contains_ik_bone);
    RUN(face_index_out_of_range);
    RUN(material_face_counts);
    RUN(texture_out_of_range);
    RUN(morph_target_out_of_range);
    RUN(group_cycle_through_two_groups);
    RUN(other_references);
    RUN(weights_are_repaired_and_counted);
    RUN(eval_order_sorted);
    RUN(loaded_model_errors_name_the_offset);
    return test_finish();
}
