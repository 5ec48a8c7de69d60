/* tests/unit/test_pmd.c - PMD reader: layout, PMX-style conversions, damage. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/anim.h"
#include "core/model_internal.h"
#include "core/vmd_write.h"
#include "tests/util/pmd_writer.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* Parse only (no validate): the model lives in its own arena. */
static mmd_status parse(const uint8_t *d, size_t n, mmd_model **out, mmd_error *err)
{
    mmd_arena *a = mmd_arena_create();
    mmd_model *m = mmd_arena_alloc(a, sizeof *m);
    m->arena = a;
    mmd_text *t = mmd_text_create();
    mmd_status st = mmd_pmd_parse(d, n, m, t, err);
    mmd_text_destroy(t);
    if (st != MMD_OK) {
        mmd_arena_destroy(a);
        return st;
    }
    *out = m;
    return MMD_OK;
}

static void drop(mmd_model *m)
{
    if (m)
        mmd_arena_destroy(m->arena);
}

TEST(header_vertices_faces)
{
    size_t n;
    uint8_t *d = mmd_test_pmd_fixture(4, &n, NULL);
    mmd_model *m = NULL;
    mmd_error e;
    REQUIRE(parse(d, n, &m, &e) == MMD_OK);
    CHECK_EQ_INT(m->format, MMD_FORMAT_PMD);
    CHECK_NEAR(m->version, 1.0, 0);
    CHECK_EQ_INT(m->encoding, MMD_ENC_SJIS);
    CHECK_STR(m->name, "テスト");
    CHECK_STR(m->comment, "コメント");
    CHECK_STR(m->name_en, "Test");
    CHECK_STR(m->comment_en, "English comment");
    CHECK_EQ_INT(m->vertex_count, 4);
    CHECK_EQ_INT(m->vertices[0].weight_type, MMD_WEIGHT_BDEF1);
    CHECK_EQ_INT(m->vertices[0].bones[0], 0);
    CHECK_NEAR(m->vertices[0].edge_scale, 1, 0);
    CHECK_EQ_INT(m->vertices[1].weight_type, MMD_WEIGHT_BDEF2);
    CHECK_EQ_INT(m->vertices[1].bones[0], 1);
    CHECK_EQ_INT(m->vertices[1].bones[1], 2);
    CHECK_NEAR(m->vertices[1].weights[0], 0.4, 1e-6);
    CHECK_NEAR(m->vertices[1].weights[1], 0.6, 1e-6);
    CHECK_NEAR(m->vertices[1].edge_scale, 0, 0); /* no-edge flag set */
    CHECK_EQ_INT(m->vertices[2].weight_type, MMD_WEIGHT_BDEF1);
    CHECK_EQ_INT(m->vertices[2].bones[0], 2);
    CHECK_EQ_INT(m->vertices[3].bones[0], 3); /* weight 0 -> second bone */
    CHECK_EQ_INT(m->vertices[3].bones[1], -1);
    CHECK_NEAR(m->vertices[2].uv[1], 0.1, 1e-6);
    CHECK_EQ_INT(m->index_count, 6);
    CHECK_EQ_INT(m->indices[4], 2);
    drop(m);
    free(d);
}

TEST(materials_textures_toons)
{
    size_t n;
    uint8_t *d = mmd_test_pmd_fixture(4, &n, NULL);
    mmd_model *m = NULL;
    mmd_error e;
    REQUIRE(parse(d, n, &m, &e) == MMD_OK);
    REQUIRE(m->material_count == 3);
    /* textures: tex.bmp, sphere.sph, env.spa, only.sph, then the custom toon */
    REQUIRE(m->texture_count == 5);
    CHECK_STR(m->textures[0], "tex.bmp");
    CHECK_STR(m->textures[1], "sphere.sph");
    CHECK_STR(m->textures[2], "env.spa");
    CHECK_STR(m->textures[3], "only.sph");
    CHECK_STR(m->textures[4], "mytoon.bmp");
    const mmd_material *a = &m->materials[0], *b = &m->materials[1], *c = &m->materials[2];
    CHECK_STR(a->name, "材質1");
    CHECK_NEAR(a->diffuse[1], 0.5, 0);
    CHECK_NEAR(a->specular_power, 5, 0);
    CHECK_NEAR(a->specular[2], 0.3, 1e-6);
    CHECK_NEAR(a->ambient[0], 0.4, 1e-6);
    CHECK_EQ_INT(a->texture, 0);
    CHECK_EQ_INT(a->sphere_texture, 1);
    CHECK_EQ_INT(a->sphere_mode, MMD_SPHERE_MUL);
    CHECK(a->toon_shared);
    CHECK_EQ_INT(a->toon, 2); /* slot 0 is "toon03.bmp" */
    CHECK_EQ_INT(a->flags, MMD_MAT_EDGE | MMD_MAT_GROUND_SHADOW | MMD_MAT_CAST_SHADOW | MMD_MAT_RECEIVE_SHADOW);
    CHECK_NEAR(a->edge_color[3], 1, 0);
    CHECK_NEAR(a->edge_size, 1, 0);
    CHECK_EQ_INT(a->index_count, 3);
    CHECK_EQ_INT(b->texture, 0); /* deduplicated */
    CHECK_EQ_INT(b->sphere_texture, 2);
    CHECK_EQ_INT(b->sphere_mode, MMD_SPHERE_ADD);
    CHECK(!b->toon_shared);
    CHECK_EQ_INT(b->toon, 4);
    CHECK_EQ_INT(b->flags, MMD_MAT_GROUND_SHADOW | MMD_MAT_DOUBLE_SIDED); /* alpha 0.98: no self shadow; < 1: both sides */
    CHECK_EQ_INT(c->texture, -1);
    CHECK_EQ_INT(c->sphere_texture, 3);
    CHECK_EQ_INT(c->toon, -1);
    CHECK_EQ_INT(c->flags, MMD_MAT_GROUND_SHADOW | MMD_MAT_CAST_SHADOW | MMD_MAT_RECEIVE_SHADOW | MMD_MAT_DOUBLE_SIDED);
    drop(m);
    free(d);

    /* without the toon list, toon indices are the shared toons */
    d = mmd_test_pmd_fixture(1, &n, NULL);
    REQUIRE(parse(d, n, &m, &e) == MMD_OK);
    CHECK(m->materials[1].toon_shared);
    CHECK_EQ_INT(m->materials[1].toon, 1);
    CHECK_EQ_INT(m->texture_count, 4);
    drop(m);
    free(d);
}

TEST(bones_ik_and_knee)
{
    size_t n;
    uint8_t *d = mmd_test_pmd_fixture(4, &n, NULL);
    mmd_model *m = NULL;
    mmd_error e;
    REQUIRE(parse(d, n, &m, &e) == MMD_OK);
    REQUIRE(m->bone_count == 10); /* 9 + the second IK record's extra bone */
    const mmd_bone *b = m->bones;
    CHECK_STR(b[0].name, "センター");
    CHECK_STR(b[0].name_en, "center");
    CHECK_EQ_INT(b[0].parent, -1);
    CHECK(b[0].flags & MMD_BONE_MOVABLE);
    CHECK_EQ_INT(b[0].tail_bone, 1);
    CHECK(!(b[1].flags & MMD_BONE_MOVABLE));
    CHECK_EQ_INT(b[1].parent, 0);
    CHECK_EQ_INT(b[3].tail_bone, -1);
    CHECK_NEAR(b[2].position[1], 4, 0);
    /* IK bone */
    CHECK(b[4].flags & MMD_BONE_IK);
    CHECK(b[4].flags & MMD_BONE_MOVABLE);
    CHECK_EQ_INT(b[4].layer, 1);
    CHECK_EQ_INT(b[4].ik_target, 3);
    CHECK_EQ_INT(b[4].ik_loop, 40);
    CHECK_NEAR(b[4].ik_limit_angle, 2.0, 1e-6); /* control weight 0.5 x 4 */
    REQUIRE(b[4].ik_link_count == 2);
    CHECK_EQ_INT(b[4].ik_links[0].bone, 2);
    CHECK(b[4].ik_links[0].has_limit); /* 左ひざ */
    CHECK_NEAR(b[4].ik_links[0].lower[0], -M_PI, 1e-6);
    CHECK_NEAR(b[4].ik_links[0].upper[0], -0.5 * M_PI / 180.0, 1e-7);
    CHECK_NEAR(b[4].ik_links[0].lower[1], 0, 0);
    CHECK_NEAR(b[4].ik_links[0].upper[2], 0, 0);
    CHECK(!b[4].ik_links[1].has_limit);
    /* child of the IK bone follows its layer; hidden IK tip */
    CHECK_EQ_INT(b[5].layer, 1);
    CHECK(!(b[5].flags & MMD_BONE_VISIBLE));
    CHECK_EQ_INT(b[0].layer, 0);
    /* twist: fixed axis towards bone 1 */
    CHECK(b[6].flags & MMD_BONE_FIXED_AXIS);
    CHECK_NEAR(b[6].fixed_axis[0], 1 / sqrt(2), 1e-6);
    CHECK_NEAR(b[6].fixed_axis[1], -1 / sqrt(2), 1e-6);
    /* rotation link (9): the tail bone is the source, the IK field the ratio in
     * percent (MMDAgent PMDBone FOLLOW_ROTATE, nanoem), hidden */
    CHECK(b[7].flags & MMD_BONE_APPEND_ROTATE);
    CHECK_EQ_INT(b[7].append_parent, 1);
    CHECK_NEAR(b[7].append_ratio, 0.5, 1e-6);
    CHECK_EQ_INT(b[7].tail_bone, 1);
    CHECK(!(b[7].flags & MMD_BONE_VISIBLE));
    /* rotation influenced (5): full rotation of the source, hidden */
    CHECK(b[8].flags & MMD_BONE_APPEND_ROTATE);
    CHECK_EQ_INT(b[8].append_parent, 2);
    CHECK_NEAR(b[8].append_ratio, 1.0, 0);
    CHECK(!(b[8].flags & MMD_BONE_VISIBLE));
    /* extra IK bone */
    CHECK_STR(b[9].name, "左足ＩＫ+");
    CHECK_EQ_INT(b[9].parent, 4);
    CHECK(b[9].flags & MMD_BONE_IK);
    CHECK(!(b[9].flags & MMD_BONE_VISIBLE));
    CHECK_EQ_INT(b[9].ik_loop, 7);
    CHECK_NEAR(b[9].ik_limit_angle, 1.0, 1e-6);
    CHECK_EQ_INT(b[9].ik_link_count, 1);
    CHECK(!b[9].ik_links[0].has_limit); /* 左足 */
    CHECK_STR(b[9].name_en, "leg IK_L");
    drop(m);
    free(d);
}

TEST(skins_display_english)
{
    size_t n;
    uint8_t *d = mmd_test_pmd_fixture(4, &n, NULL);
    mmd_model *m = NULL;
    mmd_error e;
    REQUIRE(parse(d, n, &m, &e) == MMD_OK);
    REQUIRE(m->morph_count == 2); /* the base is not a morph */
    const mmd_morph *a = &m->morphs[0], *b = &m->morphs[1];
    CHECK_STR(a->name, "あ");
    CHECK_STR(a->name_en, "a");
    CHECK_EQ_INT(a->type, MMD_MORPH_VERTEX);
    CHECK_EQ_INT(a->panel, 3);
    REQUIRE(a->offset_count == 2);
    CHECK_EQ_INT(a->u.vertex[0].vertex, 2); /* base index 1 -> vertex 2 */
    CHECK_NEAR(a->u.vertex[0].offset[1], 1, 0);
    CHECK_EQ_INT(a->u.vertex[1].vertex, 1); /* base index 0 -> vertex 1 */
    CHECK_NEAR(a->u.vertex[1].offset[2], 1, 0);
    CHECK_STR(b->name, "まばたき");
    CHECK_STR(b->name_en, "blink");
    CHECK_EQ_INT(b->panel, 2);
    CHECK_EQ_INT(b->u.vertex[0].vertex, 1);
    REQUIRE(m->display_frame_count == 4);
    const mmd_display_frame *f = m->display_frames;
    CHECK_STR(f[0].name, "Root");
    CHECK(f[0].special);
    CHECK_EQ_INT(f[0].element_count, 1);
    CHECK_STR(f[1].name, "表情");
    CHECK(f[1].special);
    REQUIRE(f[1].element_count == 2);
    CHECK_EQ_INT(f[1].elements[0].is_morph, 1);
    CHECK_EQ_INT(f[1].elements[0].index, 1); /* skin 2 -> morph 1 */
    CHECK_EQ_INT(f[1].elements[1].index, 0);
    CHECK_STR(f[2].name, "足"); /* trailing newline trimmed */
    CHECK_STR(f[2].name_en, "Legs");
    REQUIRE(f[2].element_count == 2);
    CHECK_EQ_INT(f[2].elements[0].index, 1);
    CHECK_EQ_INT(f[2].elements[1].index, 2);
    CHECK_STR(f[3].name, "その他");
    CHECK_EQ_INT(f[3].element_count, 1);
    CHECK_EQ_INT(f[3].elements[0].index, 6);
    drop(m);
    free(d);
}

TEST(rigid_bodies_joints)
{
    size_t n;
    uint8_t *d = mmd_test_pmd_fixture(4, &n, NULL);
    mmd_model *m = NULL;
    mmd_error e;
    REQUIRE(parse(d, n, &m, &e) == MMD_OK);
    REQUIRE(m->rigid_body_count == 2);
    const mmd_rigid_body *r = m->rigid_bodies;
    CHECK_STR(r[0].name, "頭");
    CHECK_EQ_INT(r[0].bone, 0);
    CHECK_EQ_INT(r[0].group, 1);
    CHECK_EQ_INT(r[0].no_collide_mask, 0xFFFE);
    CHECK_NEAR(r[0].position[1], 9, 1e-6); /* 1 + bone 0 at y 8 */
    CHECK_NEAR(r[0].position[2], 0.5, 1e-6);
    CHECK_NEAR(r[0].rotation[2], 0.3, 1e-6);
    CHECK_NEAR(r[0].mass, 1.5, 0);
    CHECK_NEAR(r[0].friction, 0.75, 0);
    CHECK_EQ_INT(r[1].bone, -1);
    CHECK_NEAR(r[1].position[1], 10, 1e-6); /* no bone: relative to bone 0 */
    CHECK_EQ_INT(r[1].shape, MMD_SHAPE_BOX);
    CHECK_EQ_INT(r[1].mode, MMD_BODY_PHYSICS);
    REQUIRE(m->joint_count == 1);
    const mmd_joint *j = m->joints;
    CHECK_STR(j->name, "髪J");
    CHECK_EQ_INT(j->type, MMD_JOINT_SPRING_6DOF);
    CHECK_EQ_INT(j->body_a, 0);
    CHECK_EQ_INT(j->body_b, 1);
    CHECK_NEAR(j->position[1], 0.5, 0);
    CHECK_NEAR(j->rotation[0], 1.5, 0);
    CHECK_NEAR(j->spring_angular[2], 11.5, 0);
    drop(m);
    free(d);
}

TEST(optional_sections_absent)
{
    for (int parts = 0; parts <= 4; parts++) {
        size_t n, bnd[5];
        uint8_t *d = mmd_test_pmd_fixture(parts, &n, bnd);
        mmd_model *m = NULL;
        mmd_error e;
        CHECK(parse(d, n, &m, &e) == MMD_OK);
        if (m) {
            CHECK_EQ_INT(m->rigid_body_count, parts >= 3 ? 2 : 0);
            CHECK_EQ_INT(m->joint_count, parts >= 4 ? 1 : 0);
            CHECK_STR(m->name_en, parts >= 1 ? "Test" : "");
            CHECK_STR(m->bones[1].name_en, parts >= 1 ? "leg_L" : "");
        }
        drop(m);
        m = NULL;
        free(d);
    }
}

TEST(errors_name_section_item_offset)
{
    size_t n;
    uint8_t *d = mmd_test_pmd_fixture(4, &n, NULL);
    mmd_model *m = NULL;
    mmd_error e;
    /* bad magic */
    d[0] = 'X';
    CHECK_EQ_INT(parse(d, n, &m, &e), MMD_E_BAD_MAGIC);
    d[0] = 'P';
    /* vertex 2 bone index 0x7777 (after bones are known) */
    size_t v2 = 3 + 4 + 20 + 256 + 4 + 2 * 38 + 32;
    d[v2] = 0x77;
    d[v2 + 1] = 0x77;
    CHECK_EQ_INT(parse(d, n, &m, &e), MMD_E_BAD_INDEX);
    CHECK_STR(e.section, "pmd.vertex");
    CHECK_EQ_INT(e.item, 2);
    CHECK_EQ_INT(e.offset, (long long)v2);
    char buf[256];
    mmd_error_format(&e, "x.pmd", buf, sizeof buf);
    CHECK(strstr(buf, "x.pmd: offset 0x") && strstr(buf, "pmd.vertex #2"));
    d[v2] = 2;
    d[v2 + 1] = 0;
    /* face index out of range */
    size_t f1 = 3 + 4 + 20 + 256 + 4 + 4 * 38 + 4 + 2;
    d[f1] = 9;
    CHECK_EQ_INT(parse(d, n, &m, &e), MMD_E_BAD_INDEX);
    CHECK_STR(e.section, "pmd.face");
    CHECK_EQ_INT(e.item, 1);
    d[f1] = 1;
    /* weight > 100 */
    size_t w0 = 3 + 4 + 20 + 256 + 4 + 36;
    d[w0] = 101;
    CHECK_EQ_INT(parse(d, n, &m, &e), MMD_E_BAD_VALUE);
    d[w0] = 100;
    CHECK_EQ_INT(parse(d, n, &m, &e), MMD_OK);
    drop(m);
    free(d);
}

/* A semantic error (found by mmd_model_validate after the parse) names the
 * bone record's byte offset, from the loader's offset tables. */
TEST(semantic_error_names_offset)
{
    size_t n;
    uint8_t *d = mmd_test_pmd_fixture(4, &n, NULL);
    mmd_model *m = NULL;
    mmd_error e;
    REQUIRE(mmd_model_load(d, n, &m, &e) == MMD_OK);
    const mmd_model_offsets *fo = &m->file_offsets;
    REQUIRE(fo->bone && fo->bone_count == m->bone_count && fo->vertex_count == m->vertex_count);
    CHECK_EQ_INT(fo->vertex[0], 3 + 4 + 20 + 256 + 4);
    CHECK_EQ_INT(fo->vertex[2], 3 + 4 + 20 + 256 + 4 + 2 * 38);
    CHECK_EQ_INT(fo->face, 3 + 4 + 20 + 256 + 4 + 4 * 38 + 4);
    CHECK_EQ_INT(fo->face_index_size, 2);
    CHECK_EQ_INT(fo->material[0], fo->material_section + 4);
    CHECK_EQ_INT(fo->bone[1], fo->bone[0] + 39);
    size_t parent0 = fo->bone[0] + 20; /* name[20], then the u16 parent */
    int64_t bone0 = fo->bone[0];
    mmd_model_free(m);
    d[parent0] = 0; /* bone 0 is its own parent: parses, validate finds the cycle */
    d[parent0 + 1] = 0;
    m = NULL;
    CHECK_EQ_INT(mmd_model_load(d, n, &m, &e), MMD_E_BAD_STRUCTURE);
    CHECK(m == NULL);
    CHECK_STR(e.section, "pmd.bone");
    CHECK_EQ_INT(e.item, 0);
    CHECK_EQ_INT(e.offset, bone0);
    free(d);
}

TEST(full_load_validates)
{
    size_t n;
    uint8_t *d = mmd_test_pmd_fixture(4, &n, NULL);
    mmd_model *m = NULL;
    mmd_error e;
    mmd_status st = mmd_model_load(d, n, &m, &e);
    if (st != MMD_OK)
        printf("#   %s: %s\n", e.section ? e.section : "", e.msg);
    REQUIRE(st == MMD_OK);
    CHECK_EQ_INT(m->format, MMD_FORMAT_PMD);
    CHECK_EQ_INT(m->bone_count, 10);
    REQUIRE(m->eval_order);
    /* IK bones (layer 1) and their children come after every layer-0 bone */
    int pos_ik = -1, pos_center = -1;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        if (m->eval_order[i] == 4)
            pos_ik = (int)i;
        if (m->eval_order[i] == 0)
            pos_center = (int)i;
    }
    CHECK(pos_center >= 0 && pos_ik > pos_center);
    CHECK(pos_ik >= 7);
    mmd_model_free(m);
    free(d);
}

TEST(truncation_sweep)
{
    size_t n, bnd[5];
    uint8_t *d = mmd_test_pmd_fixture(4, &n, bnd);
    int fails = 0;
    for (size_t len = 0; len < n; len++) {
        uint8_t *cut = malloc(len ? len : 1);
        memcpy(cut, d, len);
        mmd_model *m = NULL;
        mmd_error e;
        mmd_status st = parse(cut, len, &m, &e);
        bool boundary = len == bnd[0] || len == bnd[1] || len == bnd[2] || len == bnd[3];
        if (boundary) {
            if (st != MMD_OK)
                fails++;
        } else if (st != MMD_E_TRUNCATED) {
            printf("#   prefix %zu: status %s (%s)\n", len, mmd_status_str(st), e.msg);
            fails++;
        }
        drop(st == MMD_OK ? m : NULL);
        free(cut);
    }
    CHECK_EQ_INT(fails, 0);
    free(d);
}

TEST(random_byte_flips)
{
    size_t n;
    uint8_t *d = mmd_test_pmd_fixture(4, &n, NULL);
    uint8_t *x = malloc(n);
    uint32_t s = 12345;
    int okc = 0;
    for (int it = 0; it < 2000; it++) {
        memcpy(x, d, n);
        for (int k = 0; k < 1 + it % 4; k++) {
            s = s * 1664525u + 1013904223u;
            size_t at = (s >> 8) % n;
            s = s * 1664525u + 1013904223u;
            x[at] ^= (uint8_t)(1u << ((s >> 16) % 8));
        }
        mmd_model *m = NULL;
        mmd_error e;
        if (parse(x, n, &m, &e) == MMD_OK) {
            okc++;
            drop(m);
        } else {
            CHECK(e.msg[0] != 0);
        }
    }
    CHECK(okc > 0);
    free(x);
    free(d);
}

/* A skeleton-only PMD (tests/util/pmd_writer.h) loaded, NULL when refused. */
static mmd_model *load_skeleton(const mmd_test_pmd_bone *bones, uint32_t count)
{
    size_t n = 0;
    uint8_t *d = mmd_test_pmd_skeleton(bones, count, NULL, 0, &n);
    mmd_model *m = NULL;
    if (d && mmd_model_load(d, n, &m, NULL) != MMD_OK)
        m = NULL;
    free(d);
    return m;
}

/* PMD bone types 9 and 5 pose as MMD does (MMDAgent PMDBone::update, nanoem):
 * type 9's source is its tail bone and its IK field the ratio in percent
 * (negative: the inverse rotation); type 5 takes its IK field's rotation. */
TEST(rotation_link_and_influence_pose)
{
    const mmd_test_pmd_bone bones[] = {
        {"root", 0xFFFF, 1, 1, 0, {0, 0, 0}},
        {"link", 0, 2, 9, 50, {0, 1, 0}},             /* 1: 50% of its tail (2) */
        {"src", 1, 0, 0, 0, {0, 2, 0}},               /* 2: the animated child */
        {"inv", 0, 2, 9, (uint16_t)-100, {1, 1, 0}},  /* 3: -100%: the inverse */
        {"self", 0, 5, 9, 4, {2, 0, 0}},              /* 4: ratio 4 = own index (not a loop) */
        {"t5", 4, 0, 0, 0, {2, 1, 0}},
        {"follow", 0, 0, 5, 2, {3, 0, 0}},            /* 6: rotation of bone 2 */
    };
    mmd_model *m = load_skeleton(bones, 7);
    REQUIRE(m);
    mmd_error e;
    CHECK_EQ_INT(m->bones[1].append_parent, 2);
    CHECK_NEAR(m->bones[1].append_ratio, 0.5, 1e-6);
    CHECK_EQ_INT(m->bones[3].append_parent, 2);
    CHECK_NEAR(m->bones[3].append_ratio, -1.0, 1e-6);
    CHECK_EQ_INT(m->bones[4].append_parent, 5);
    CHECK_NEAR(m->bones[4].append_ratio, 0.04, 1e-6);
    CHECK_EQ_INT(m->bones[6].append_parent, 2);
    mmd_motion *mo = mmd_motion_new("skeleton");
    REQUIRE(mo);
    const float pos[3] = {0, 0, 0}, q90[4] = {0, 0, (float)sin(M_PI / 4), (float)cos(M_PI / 4)};
    REQUIRE(mmd_motion_add_bone_key(mo, "src", 0, pos, q90));
    const mmd_motion *list[1] = {mo};
    mmd_anim *a = NULL;
    REQUIRE(mmd_anim_create(m, list, 1, &a, &e) == MMD_OK);
    mmd_anim_evaluate(a, 0);
    const float *w = mmd_anim_world(a);
    /* column 0 of a Z rotation by t is (cos t, sin t): bone 6 shows +90 deg */
    float s90 = w[16 * 6 + 1];
    CHECK_NEAR(fabsf(s90), 1, 1e-5);
    CHECK_NEAR(w[16 * 6 + 0], 0, 1e-5);
    CHECK_NEAR(w[16 * 1 + 0], cos(M_PI / 4), 1e-5); /* link: 45 deg */
    CHECK_NEAR(w[16 * 1 + 1], s90 * sin(M_PI / 4), 1e-5);
    CHECK_NEAR(w[16 * 2 + 0], cos(3 * M_PI / 4), 1e-5); /* src under link: 45 + 90 */
    CHECK_NEAR(w[16 * 3 + 0], 0, 1e-5);                 /* inv: -90 deg */
    CHECK_NEAR(w[16 * 3 + 1], -s90, 1e-5);
    CHECK_NEAR(w[16 * 4 + 0], 1, 1e-6); /* self: its tail is not animated */
    mmd_anim_free(a);
    mmd_motion_free(mo);
    mmd_model_free(m);
}

/* A type 9 bone with no tail (0xFFFF) loads as a plain bone with a warning
 * that names the bone and the tail field's offset. */
TEST(rotation_link_without_tail)
{
    const mmd_test_pmd_bone bones[] = {
        {"root", 0xFFFF, 0, 1, 0, {0, 0, 0}},
        {"link", 0, 0xFFFF, 9, 50, {0, 1, 0}},
    };
    mmd_model *m = load_skeleton(bones, 2);
    REQUIRE(m);
    CHECK_EQ_INT(m->bones[1].append_parent, -1);
    CHECK(!(m->bones[1].flags & MMD_BONE_APPEND_ROTATE));
    REQUIRE(m->warning_list.kind_count == 1);
    const mmd_warning *wk = &m->warning_list.kinds[0];
    CHECK_STR(wk->section, "pmd.bone");
    CHECK_EQ_INT(wk->item, 1);
    /* header 283, counts 4+4+4, bone count 2, bone 0 39 bytes, name 20, parent 2 */
    CHECK_EQ_INT(wk->offset, 283 + 12 + 2 + 39 + 22);
    mmd_model_free(m);
}

/* Loading cost is linear (issue 13): a 65,535-bone chain under an IK bone
 * loads (timings are in make bench; this checks the shape loads at all and
 * the IK layer reached the chain's end). */
TEST(deep_chain_loads)
{
    size_t n = 0;
    uint8_t *d = mmd_test_pmd_chain(65535, &n);
    REQUIRE(d);
    mmd_model *m = NULL;
    mmd_error e;
    REQUIRE(mmd_model_load(d, n, &m, &e) == MMD_OK);
    CHECK_EQ_INT(m->bone_count, 65535);
    CHECK_EQ_INT(m->bones[65534].layer, 1);
    CHECK_EQ_INT(m->eval_order[0], 0);
    mmd_model_free(m);
    free(d);
}

int main(void)
{
    RUN(header_vertices_faces);
    RUN(materials_textures_toons);
    RUN(bones_ik_and_knee);
    RUN(skins_display_english);
    RUN(rigid_bodies_joints);
    RUN(optional_sections_absent);
    RUN(errors_name_section_item_offset);
    RUN(semantic_error_names_offset);
    RUN(full_load_validates);
    RUN(truncation_sweep);
    RUN(random_byte_flips);
    RUN(rotation_link_and_influence_pose);
    RUN(rotation_link_without_tail);
    RUN(deep_chain_loads);
    return test_finish();
}
