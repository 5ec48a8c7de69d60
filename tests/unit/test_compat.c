/* tests/unit/test_compat.c - real-world oddities (docs/compat.md): each case is
 * built with the writers, then either accepted with its repair counted in
 * `warnings` (and the repaired value checked), or rejected with a clear error;
 * plus degenerate-but-valid data that must never make the animation core
 * produce NaN. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/anim.h"
#include "core/camera.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/physics.h"
#include "core/pmx_write.h"
#include "core/vmd_write.h"
#include "tests/util/pmd_writer.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* 3 bones in a chain along +Y (0 root, 1 at y=1, 2 at y=2); 5 vertices
 * (v0..v3 a quad in the y=0 plane, v4 on no face), faces (0,1,2) (1,3,2), one
 * material with texture 0, one vertex morph, one rigid body on bone 0, one
 * display frame listing bones 0..2. */
static mmd_model *base(void)
{
    mmd_model *m = mmd_model_new();
    REQUIRE(m);
    mmd_vertex *v = mmd_model_add_vertices(m, 5);
    static const float p[5][3] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}, {5, 5, 5}};
    for (int i = 0; i < 5; i++)
        memcpy(v[i].position, p[i], sizeof p[i]);
    uint32_t *ix = mmd_model_add_indices(m, 6);
    static const uint32_t tri[6] = {0, 1, 2, 1, 3, 2};
    memcpy(ix, tri, sizeof tri);
    char **tx = mmd_model_add_textures(m, 1);
    tx[0] = mmd_model_str(m, "tex.png");
    mmd_material *mt = mmd_model_add_materials(m, 1);
    mt[0].index_count = 6;
    mt[0].texture = 0;
    mmd_bone *b = mmd_model_add_bones(m, 3);
    for (int i = 0; i < 3; i++) {
        b[i].position[1] = (float)i;
        b[i].parent = i - 1;
        b[i].flags |= MMD_BONE_MOVABLE;
    }
    b[0].name = mmd_model_str(m, "センター");
    b[1].name = mmd_model_str(m, "上半身");
    b[2].name = mmd_model_str(m, "首");
    mmd_morph *mo = mmd_model_add_morphs(m, 1);
    mo[0].name = mmd_model_str(m, "あ");
    mo[0].offset_count = 1;
    mo[0].u.vertex = mmd_model_alloc(m, 1, sizeof(mmd_morph_vertex));
    mo[0].u.vertex[0].vertex = 0;
    mo[0].u.vertex[0].offset[1] = 1;
    mmd_display_frame *f = mmd_model_add_frames(m, 1);
    f[0].element_count = 3;
    f[0].elements = mmd_model_alloc(m, 3, sizeof(mmd_frame_element));
    for (int i = 0; i < 3; i++)
        f[0].elements[i].index = i;
    mmd_rigid_body *rb = mmd_model_add_rigid_bodies(m, 1);
    rb[0].bone = 0;
    rb[0].size[0] = 1;
    return m;
}

/* Write m as PMX (m is freed), load it back. Returns the load status. */
static mmd_status roundtrip(mmd_model *m, mmd_model **out, mmd_error *e)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    mmd_status st = mmd_pmx_write(m, &buf, &n, e);
    mmd_model_free(m);
    REQUIRE(st == MMD_OK);
    *out = NULL;
    st = mmd_model_load(buf, n, out, e);
    free(buf);
    return st;
}

static bool all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

/* Evaluate the model (motion may be NULL) at a few frames; every world matrix
 * and every skinned position/normal must be finite. */
static void check_eval_finite(const mmd_model *m, const mmd_motion *mo)
{
    mmd_anim *a = NULL;
    mmd_error e;
    const mmd_motion *list[1] = {mo};
    REQUIRE(mmd_anim_create(m, mo ? list : NULL, mo ? 1 : 0, &a, &e) == MMD_OK);
    float *pos = malloc((m->vertex_count + 1) * 3 * sizeof *pos);
    float *nrm = malloc((m->vertex_count + 1) * 3 * sizeof *nrm);
    REQUIRE(pos && nrm);
    for (double t = 0; t <= 30; t += 7.5) {
        mmd_anim_evaluate(a, t);
        CHECK(all_finite(mmd_anim_world(a), (size_t)m->bone_count * 16));
        CHECK(all_finite(mmd_anim_skinning(a), (size_t)m->bone_count * 16));
        mmd_anim_skin(a, 0, m->vertex_count, pos, nrm);
        CHECK(all_finite(pos, (size_t)m->vertex_count * 3));
        CHECK(all_finite(nrm, (size_t)m->vertex_count * 3));
    }
    free(pos);
    free(nrm);
    mmd_anim_free(a);
}

/* ---------------------------------------------------------------- rejected */

TEST(nan_position_and_weight_rejected)
{
    mmd_model *m = base(), *out;
    mmd_error e;
    m->vertices[2].position[1] = NAN;
    CHECK_EQ_INT(roundtrip(m, &out, &e), MMD_E_BAD_VALUE);
    CHECK_STR(e.section, "pmx.vertex");
    CHECK_EQ_INT(e.item, 2);
    CHECK(e.offset > 0 && strstr(e.msg, "non-finite"));

    m = base();
    m->vertices[1].weight_type = MMD_WEIGHT_BDEF2;
    m->vertices[1].bones[1] = 1;
    m->vertices[1].weights[0] = INFINITY;
    CHECK_EQ_INT(roundtrip(m, &out, &e), MMD_E_BAD_VALUE);
    CHECK_STR(e.section, "pmx.vertex");
    CHECK_EQ_INT(e.item, 1);

    m = base();
    m->vertices[3].weight_type = MMD_WEIGHT_BDEF4;
    m->vertices[3].bones[1] = 1;
    m->vertices[3].weights[1] = NAN;
    CHECK_EQ_INT(roundtrip(m, &out, &e), MMD_E_BAD_VALUE);
    CHECK_EQ_INT(e.item, 3);

    m = base(); /* bone rest position */
    m->bones[1].position[0] = NAN;
    CHECK_EQ_INT(roundtrip(m, &out, &e), MMD_E_BAD_VALUE);
    CHECK_STR(e.section, "pmx.bone");
    CHECK_EQ_INT(e.item, 1);

    /* in-memory models are held to the same rule by mmd_model_validate */
    m = base();
    m->vertices[0].position[0] = INFINITY;
    CHECK_EQ_INT(mmd_model_validate(m, &e), MMD_E_BAD_VALUE);
    CHECK_STR(e.section, "pmx.vertex");
    mmd_model_free(m);
}

TEST(texture_index_out_of_range_rejected)
{
    mmd_model *m = base(), *out;
    mmd_error e;
    m->materials[0].texture = 5; /* 1 texture */
    CHECK_EQ_INT(roundtrip(m, &out, &e), MMD_E_BAD_INDEX);
    CHECK_STR(e.section, "pmx.material");
    CHECK_EQ_INT(e.item, 0);
    CHECK(strstr(e.msg, "texture") != NULL);
    /* -1 (0xFF with 1-byte indices) is "no texture" */
    m = base();
    m->materials[0].texture = -1;
    m->materials[0].sphere_texture = -1;
    REQUIRE(roundtrip(m, &out, &e) == MMD_OK);
    CHECK_EQ_INT(out->index_size[1], 1);
    CHECK_EQ_INT(out->materials[0].texture, -1);
    CHECK_EQ_INT(out->warnings, 0);
    mmd_model_free(out);
}

/* ---------------------------------------------------------------- repaired */

TEST(nan_normal_recomputed_from_faces)
{
    mmd_model *m = base(), *out;
    mmd_error e;
    m->vertices[0].normal[0] = NAN; /* on face (0,1,2): (v1-v0)x(v2-v0) = (1,0,0)x(0,0,1) = (0,-1,0) */
    m->vertices[3].normal[0] = m->vertices[3].normal[1] = m->vertices[3].normal[2] = 0; /* zero length */
    m->vertices[4].normal[1] = INFINITY; /* on no face */
    REQUIRE(roundtrip(m, &out, &e) == MMD_OK);
    CHECK_EQ_INT(out->warnings, 3);
    CHECK_NEAR(out->vertices[0].normal[0], 0, 1e-6);
    CHECK_NEAR(out->vertices[0].normal[1], -1, 1e-6);
    CHECK_NEAR(out->vertices[0].normal[2], 0, 1e-6);
    /* v3 only on (1,3,2): (v3-v1)x(v2-v1) = (0,0,1)x(-1,0,1) = (0,-1,0) */
    CHECK_NEAR(out->vertices[3].normal[1], -1, 1e-6);
    CHECK_NEAR(out->vertices[4].normal[1], 1, 0); /* fallback (0,1,0) */
    CHECK_NEAR(out->vertices[1].normal[1], 1, 0); /* untouched */
    check_eval_finite(out, NULL);
    mmd_model_free(out);
}

TEST(recomputed_normals_match_a_real_model)
{
    mmd_model *m = NULL;
    mmd_error e;
    if (mmd_model_load_file("../shared/assets/babylon-mmd-tests/matcap_sample.pmx", &m, &e) != MMD_OK)
        SKIP("skipped: no ../shared");
    /* drop every normal, let validate recompute them, compare with the stored ones */
    float *keep = malloc(m->vertex_count * 3 * sizeof *keep);
    REQUIRE(keep);
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        memcpy(keep + 3 * i, m->vertices[i].normal, 3 * sizeof *keep);
        memset(m->vertices[i].normal, 0, sizeof m->vertices[i].normal);
    }
    m->warnings = 0;
    REQUIRE(mmd_model_validate(m, &e) == MMD_OK);
    CHECK_EQ_INT(m->warnings, m->vertex_count);
    uint32_t agree = 0;
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const float *a = keep + 3 * i, *b = m->vertices[i].normal;
        agree += a[0] * b[0] + a[1] * b[1] + a[2] * b[2] > 0.9f;
    }
    printf("# %u of %u recomputed normals within 26 degrees of the stored ones\n", agree, m->vertex_count);
    CHECK(agree > m->vertex_count * 9 / 10);
    free(keep);
    mmd_model_free(m);
}

TEST(nan_uv_edge_material_physics_repaired)
{
    mmd_model *m = base(), *out;
    mmd_error e;
    m->vertices[1].uv[0] = NAN;          /* -> 0 */
    m->vertices[2].edge_scale = INFINITY; /* -> 1 */
    m->materials[0].diffuse[3] = NAN;    /* -> 1 */
    m->materials[0].specular_power = -INFINITY; /* -> 0 */
    m->bones[2].tail_offset[1] = NAN;    /* -> 0 */
    m->morphs[0].u.vertex[0].offset[2] = NAN; /* -> 0 */
    m->rigid_bodies[0].mass = NAN;       /* -> 1 */
    mmd_joint *j = mmd_model_add_joints(m, 1);
    j[0].body_a = j[0].body_b = 0;
    j[0].spring_linear[0] = NAN;         /* -> 0 */
    REQUIRE(roundtrip(m, &out, &e) == MMD_OK);
    CHECK_EQ_INT(out->warnings, 7); /* 2 vertices, material, bone, morph, body, joint */
    CHECK_EQ_INT(out->vertices[1].uv[0], 0);
    CHECK_EQ_INT(out->vertices[2].edge_scale, 1);
    CHECK_EQ_INT(out->materials[0].diffuse[3], 1);
    CHECK_EQ_INT(out->materials[0].specular_power, 0);
    CHECK_EQ_INT(out->bones[2].tail_offset[1], 0);
    CHECK_EQ_INT(out->morphs[0].u.vertex[0].offset[2], 0);
    CHECK_EQ_INT(out->morphs[0].u.vertex[0].offset[1], 1);
    CHECK_EQ_INT(out->rigid_bodies[0].mass, 1);
    CHECK_EQ_INT(out->joints[0].spring_linear[0], 0);
    /* physics accepts the repaired model (it rejects any NaN) */
    mmd_physics *ph = NULL;
    CHECK_EQ_INT(mmd_physics_create(out, &ph, &e), MMD_OK);
    mmd_physics_free(ph);
    check_eval_finite(out, NULL);
    mmd_model_free(out);
}

TEST(nan_sdef_ik_limit_bone_morph_repaired)
{
    mmd_model *m = base(), *out;
    mmd_error e;
    mmd_vertex *v = &m->vertices[1];
    v->weight_type = MMD_WEIGHT_SDEF;
    v->bones[0] = 1, v->bones[1] = 2;
    v->weights[0] = 0.25f, v->weights[1] = 0.75f;
    v->sdef_r0[1] = NAN; /* SDEF without usable C/R0/R1 -> BDEF2 */
    mmd_bone *b = m->bones;
    b[2].flags |= MMD_BONE_IK;
    b[2].ik_target = 1;
    b[2].ik_loop = 5;
    b[2].ik_limit_angle = NAN; /* -> pi */
    b[2].ik_link_count = 1;
    b[2].ik_links = mmd_model_alloc(m, 1, sizeof(mmd_ik_link));
    b[2].ik_links[0].bone = 0;
    b[2].ik_links[0].has_limit = true;
    b[2].ik_links[0].upper[0] = NAN; /* unreadable limit -> no limit */
    mmd_morph *mo = mmd_model_add_morphs(m, 1);
    mo[0].type = MMD_MORPH_BONE;
    mo[0].offset_count = 1;
    mo[0].u.bone = mmd_model_alloc(m, 1, sizeof(mmd_morph_bone));
    mo[0].u.bone[0].bone = 1;
    mo[0].u.bone[0].rotation[0] = NAN; /* -> identity */
    REQUIRE(roundtrip(m, &out, &e) == MMD_OK);
    CHECK_EQ_INT(out->warnings, 3); /* vertex, bone (angle + link), morph */
    CHECK_EQ_INT(out->vertices[1].weight_type, MMD_WEIGHT_BDEF2);
    CHECK_NEAR(out->vertices[1].weights[0], 0.25, 1e-7);
    CHECK_NEAR(out->bones[2].ik_limit_angle, M_PI, 1e-6);
    CHECK(!out->bones[2].ik_links[0].has_limit);
    CHECK_EQ_INT(out->morphs[0].u.bone[0].rotation[3], 1);
    CHECK_EQ_INT(out->morphs[0].u.bone[0].rotation[0], 0);
    check_eval_finite(out, NULL);
    mmd_model_free(out);
}

TEST(pmx21_without_soft_bodies_and_trailing_bytes)
{
    mmd_model *m = base(), *out;
    m->version = 2.1f;
    uint8_t *buf;
    size_t n;
    mmd_error e;
    REQUIRE(mmd_pmx_write(m, &buf, &n, &e) == MMD_OK);
    mmd_model_free(m);
    /* the writer ends with the soft-body count (0): cut it off */
    uint32_t last;
    memcpy(&last, buf + n - 4, 4);
    CHECK_EQ_INT(last, 0);
    REQUIRE(mmd_model_load(buf, n - 4, &out, &e) == MMD_OK);
    CHECK_EQ_INT(out->soft_body_count, 0);
    CHECK_EQ_INT(out->warnings, 1);
    CHECK_NEAR(out->version, 2.1, 1e-6);
    mmd_model_free(out);
    /* a cut inside the joint section is still truncation */
    CHECK(mmd_model_load(buf, n - 6, &out, &e) != MMD_OK);
    /* complete file: no warning; with 3 bytes of padding: one */
    REQUIRE(mmd_model_load(buf, n, &out, &e) == MMD_OK);
    CHECK_EQ_INT(out->warnings, 0);
    mmd_model_free(out);
    uint8_t *pad = malloc(n + 3);
    REQUIRE(pad);
    memcpy(pad, buf, n);
    memset(pad + n, 0, 3);
    REQUIRE(mmd_model_load(pad, n + 3, &out, &e) == MMD_OK);
    CHECK_EQ_INT(out->warnings, 1);
    mmd_model_free(out);
    free(pad);
    free(buf);
}

TEST(vertex_weights)
{
    mmd_model *m = base(), *out;
    mmd_error e;
    mmd_vertex *v = m->vertices;
    v[0].bones[0] = -1; /* BDEF1 on no bone -> bone 0 */
    v[1].weight_type = MMD_WEIGHT_BDEF2; /* weight 1.5 -> clamped to 1 */
    v[1].bones[0] = 1, v[1].bones[1] = 2;
    v[1].weights[0] = 1.5f;
    v[2].weight_type = MMD_WEIGHT_BDEF4; /* sum 2 -> halved */
    for (int k = 0; k < 4; k++)
        v[2].bones[k] = k < 3 ? k : -1, v[2].weights[k] = k < 2 ? 1.0f : 0.0f;
    v[3].weight_type = MMD_WEIGHT_QDEF; /* negative weight dropped, rest renormalised */
    v[3].bones[0] = 0, v[3].bones[1] = 1, v[3].bones[2] = v[3].bones[3] = -1;
    v[3].weights[0] = -0.5f, v[3].weights[1] = 0.5f;
    v[4].weight_type = MMD_WEIGHT_SDEF; /* weight 0 and 1 are valid SDEF */
    v[4].bones[0] = 1, v[4].bones[1] = 2;
    v[4].weights[0] = 1, v[4].weights[1] = 0;
    REQUIRE(roundtrip(m, &out, &e) == MMD_OK);
    CHECK_EQ_INT(out->warnings, 4);
    v = out->vertices;
    CHECK_EQ_INT(v[0].bones[0], 0);
    CHECK_EQ_INT(v[0].weights[0], 1);
    CHECK_EQ_INT(v[1].weights[0], 1);
    CHECK_EQ_INT(v[1].weights[1], 0);
    CHECK_NEAR(v[2].weights[0], 0.5, 1e-7);
    CHECK_NEAR(v[2].weights[1], 0.5, 1e-7);
    CHECK_EQ_INT(v[3].weights[0], 0);
    CHECK_NEAR(v[3].weights[1], 1, 1e-7);
    CHECK_EQ_INT(v[4].weight_type, MMD_WEIGHT_SDEF);
    CHECK_EQ_INT(v[4].weights[0], 1);
    check_eval_finite(out, NULL);
    mmd_model_free(out);
    /* a bone index past the bone list is damage, not a repair */
    m = base();
    m->vertices[1].bones[0] = 7;
    CHECK_EQ_INT(roundtrip(m, &out, &e), MMD_E_BAD_INDEX);
    CHECK_STR(e.section, "pmx.vertex");
    CHECK_EQ_INT(e.item, 1);
}

TEST(toon_index_out_of_range)
{
    mmd_model *m = base(), *out;
    mmd_error e;
    m->materials[0].toon_shared = true;
    m->materials[0].toon = 9;
    uint8_t *buf;
    size_t n;
    REQUIRE(mmd_pmx_write(m, &buf, &n, &e) == MMD_OK);
    mmd_model_free(m);
    /* shared flag 1, toon 9, empty memo, index count 6: make the toon byte 12 */
    static const uint8_t pat[10] = {1, 9, 0, 0, 0, 0, 6, 0, 0, 0};
    size_t at = 0;
    for (size_t i = 0; i + sizeof pat <= n && !at; i++)
        if (!memcmp(buf + i, pat, sizeof pat))
            at = i + 1;
    REQUIRE(at);
    buf[at] = 12; /* no such shared toon (some exporters write 10..254) */
    REQUIRE(mmd_model_load(buf, n, &out, &e) == MMD_OK);
    CHECK_EQ_INT(out->materials[0].toon, -1);
    CHECK_EQ_INT(out->warnings, 1);
    mmd_model_free(out);
    free(buf);
    m = base();
    m->materials[0].toon_shared = true;
    m->materials[0].toon = 9;
    REQUIRE(roundtrip(m, &out, &e) == MMD_OK);
    CHECK_EQ_INT(out->materials[0].toon, 9);
    CHECK_EQ_INT(out->warnings, 0);
    mmd_model_free(out);
    /* a toon that is a texture index stays a texture reference: out of range is rejected */
    m = base();
    m->materials[0].toon_shared = false;
    m->materials[0].toon = 3;
    CHECK_EQ_INT(roundtrip(m, &out, &e), MMD_E_BAD_INDEX);
    CHECK_STR(e.section, "pmx.material");
}

TEST(cosmetic_references_repaired)
{
    mmd_model *m = base(), *out;
    mmd_error e;
    m->bones[1].flags |= MMD_BONE_TAIL_IS_BONE;
    m->bones[1].tail_bone = 100; /* -> -1 */
    m->display_frames[0].elements[1].index = 50; /* dropped */
    mmd_rigid_body *rb = mmd_model_add_rigid_bodies(m, 2);
    rb[0].bone = 0, rb[1].bone = 1;
    rb[0].size[0] = rb[1].size[0] = 1;
    rb[1].mode = MMD_BODY_PHYSICS;
    mmd_joint *j = mmd_model_add_joints(m, 2);
    j[0].body_a = 0, j[0].body_b = -1; /* disabled joint: kept, physics skips it */
    j[1].body_a = 0, j[1].body_b = 9;  /* -> -1 */
    REQUIRE(roundtrip(m, &out, &e) == MMD_OK);
    CHECK_EQ_INT(out->warnings, 3); /* tail, frame element, joint body */
    CHECK_EQ_INT(out->bones[1].tail_bone, -1);
    CHECK_EQ_INT(out->display_frames[0].element_count, 2);
    CHECK_EQ_INT(out->display_frames[0].elements[0].index, 0);
    CHECK_EQ_INT(out->display_frames[0].elements[1].index, 2);
    CHECK_EQ_INT(out->rigid_bodies[0].bone, 0);
    CHECK_EQ_INT(out->joint_count, 2);
    CHECK_EQ_INT(out->joints[0].body_b, -1);
    CHECK_EQ_INT(out->joints[1].body_b, -1);
    mmd_physics *ph = NULL;
    CHECK_EQ_INT(mmd_physics_create(out, &ph, &e), MMD_OK);
    mmd_physics_free(ph);
    mmd_model_free(out);
    /* the rigid body that lost its bone is placed in model space */
    m = base();
    m->rigid_bodies[0].bone = 60;
    REQUIRE(roundtrip(m, &out, &e) == MMD_OK);
    CHECK_EQ_INT(out->rigid_bodies[0].bone, -1);
    CHECK_EQ_INT(out->warnings, 1);
    mmd_model_free(out);
    /* a parent out of range is structural: rejected */
    m = base();
    m->bones[2].parent = 40;
    CHECK_EQ_INT(roundtrip(m, &out, &e), MMD_E_BAD_INDEX);
    CHECK_STR(e.section, "pmx.bone");
    CHECK_EQ_INT(e.item, 2);
}

TEST(morph_oddities)
{
    mmd_model *m = base(), *out;
    mmd_error e;
    mmd_morph *mo = mmd_model_add_morphs(m, 3);
    mo[0].name = mmd_model_str(m, "dup");
    mo[0].offset_count = 2; /* the same vertex twice: offsets add */
    mo[0].u.vertex = mmd_model_alloc(m, 2, sizeof(mmd_morph_vertex));
    mo[0].u.vertex[0].vertex = mo[0].u.vertex[1].vertex = 3;
    mo[0].u.vertex[0].offset[0] = 0.25f;
    mo[0].u.vertex[1].offset[0] = 0.5f;
    mo[1].name = mmd_model_str(m, "empty"); /* no offsets */
    mo[2].name = mmd_model_str(m, "self");
    mo[2].type = MMD_MORPH_GROUP; /* contains itself and "dup" */
    mo[2].offset_count = 2;
    mo[2].u.group = mmd_model_alloc(m, 2, sizeof(mmd_morph_group));
    mo[2].u.group[0].morph = 2, mo[2].u.group[0].weight = 1;
    mo[2].u.group[1].morph = 0, mo[2].u.group[1].weight = 1;
    REQUIRE(roundtrip(m, &out, &e) == MMD_OK);
    CHECK(out->warnings >= 1); /* the self-reference */
    mmd_motion *mot = mmd_motion_new("x");
    mmd_motion_add_morph_key(mot, "self", 0, 1.0f);
    mmd_motion_add_morph_key(mot, "empty", 0, 1.0f);
    mmd_anim *a = NULL;
    const mmd_motion *list[1] = {mot};
    REQUIRE(mmd_anim_create(out, list, 1, &a, &e) == MMD_OK);
    mmd_anim_evaluate(a, 0);
    CHECK_NEAR(mmd_anim_morph_weights(a)[0], 1, 1e-6);
    float pos[5 * 3], nrm[5 * 3];
    mmd_anim_skin(a, 0, 5, pos, nrm);
    CHECK_NEAR(pos[3 * 3 + 0], 1.75, 1e-6); /* 1 + 0.25 + 0.5 */
    CHECK_NEAR(pos[3 * 3 + 2], 1, 1e-6);
    CHECK(all_finite(pos, 15));
    mmd_anim_free(a);
    mmd_motion_free(mot);
    mmd_model_free(out);
}

/* IK with limits written lower > upper (some converters mirror the axes and
 * forget to swap) poses exactly like the ordered limits. */
static mmd_model *ik_model(float lo, float hi, int32_t loop, float unit)
{
    mmd_model *m = base();
    mmd_bone *b = mmd_model_add_bones(m, 5);
    /* 0 root; 1 thigh (0,4,0); 2 knee (0,2,0); 3 ankle (0,0,0); 4 IK at the ankle */
    static const float p[5][3] = {{0, 0, 0}, {0, 4, 0}, {0, 2, 0.01f}, {0, 0, 0}, {0, 0, 0}};
    for (int i = 0; i < 5; i++) {
        memcpy(b[i].position, p[i], sizeof p[i]);
        b[i].parent = i == 0 ? -1 : i == 4 ? 0 : i - 1;
        b[i].flags |= MMD_BONE_MOVABLE;
    }
    b[4].name = mmd_model_str(m, "足ＩＫ");
    b[4].flags |= MMD_BONE_IK;
    b[4].ik_target = 3;
    b[4].ik_loop = loop;
    b[4].ik_limit_angle = unit;
    b[4].ik_link_count = 2;
    b[4].ik_links = mmd_model_alloc(m, 2, sizeof(mmd_ik_link));
    b[4].ik_links[0].bone = 2;
    b[4].ik_links[0].has_limit = true;
    b[4].ik_links[0].lower[0] = lo;
    b[4].ik_links[0].upper[0] = hi;
    b[4].ik_links[1].bone = 1;
    m->display_frames[0].element_count = 0;
    return m;
}

static void ik_pose(mmd_model *m, float out[5 * 16], unsigned *warnings)
{
    mmd_model *l;
    mmd_error e;
    REQUIRE(roundtrip(m, &l, &e) == MMD_OK);
    *warnings = l->warnings;
    mmd_motion *mot = mmd_motion_new("x");
    static const float up[3] = {0, 1, -1}; /* lift the IK goal: the knee bends */
    mmd_motion_add_bone_key(mot, "足ＩＫ", 0, up, NULL);
    mmd_anim *a = NULL;
    const mmd_motion *list[1] = {mot};
    REQUIRE(mmd_anim_create(l, list, 1, &a, &e) == MMD_OK);
    mmd_anim_evaluate(a, 0);
    memcpy(out, mmd_anim_world(a), 5 * 16 * sizeof *out);
    mmd_anim_free(a);
    mmd_motion_free(mot);
    mmd_model_free(l);
}

TEST(ik_limits_swapped_loop_zero_unit_angle)
{
    float w1[80], w2[80], w3[80];
    unsigned warn;
    const float lo = (float)(-M_PI), hi = -0.008f;
    ik_pose(ik_model(lo, hi, 40, 0.5f), w1, &warn);
    CHECK_EQ_INT(warn, 0);
    ik_pose(ik_model(hi, lo, 40, 0.5f), w2, &warn); /* swapped: accepted as is */
    CHECK_EQ_INT(warn, 0);
    CHECK(all_finite(w1, 80));
    for (int i = 0; i < 80; i++)
        CHECK_NEAR(w1[i], w2[i], 1e-6);
    /* the ankle (bone 3) reached the goal (0,1,-1) */
    CHECK_NEAR(w1[3 * 16 + 12], 0, 1e-3);
    CHECK_NEAR(w1[3 * 16 + 13], 1, 1e-2);
    CHECK_NEAR(w1[3 * 16 + 14], -1, 1e-2);
    /* negative unit angle: its size is used (warning) */
    ik_pose(ik_model(lo, hi, 40, -0.5f), w3, &warn);
    CHECK_EQ_INT(warn, 1);
    for (int i = 0; i < 80; i++)
        CHECK_NEAR(w1[i], w3[i], 1e-6);
    /* loop count 0 and unit angle 0: valid, the IK does nothing, nothing is NaN */
    ik_pose(ik_model(lo, hi, 0, 0.5f), w3, &warn);
    CHECK_EQ_INT(warn, 0);
    CHECK(all_finite(w3, 80));
    CHECK_NEAR(w3[3 * 16 + 13], 0, 1e-6);
    /* unit angle 0: no CCD step, only the knee limit pulls the rest pose into
     * [lo, hi] (hi = -0.008 rad): the ankle stays at the rest height */
    ik_pose(ik_model(lo, hi, 40, 0.0f), w3, &warn);
    CHECK(all_finite(w3, 80));
    CHECK_NEAR(w3[3 * 16 + 13], 0, 1e-3);
}

TEST(degenerate_but_valid_evaluates_finite)
{
    mmd_model *m = ik_model(0, 0, 40, 0.5f), *out;
    mmd_error e;
    mmd_bone *b = m->bones;
    /* IK link at the same position as the target */
    b[2].position[2] = 0;
    b[3].position[1] = 2;
    /* zero-length fixed axis; append with ratio 0 */
    b[1].flags |= MMD_BONE_FIXED_AXIS;
    b[0].flags |= MMD_BONE_APPEND_ROTATE | MMD_BONE_APPEND_TRANSLATE;
    b[0].append_parent = 1;
    b[0].append_ratio = 0;
    for (int i = 0; i < 5; i++)
        m->vertices[i].bones[0] = i % 4;
    REQUIRE(roundtrip(m, &out, &e) == MMD_OK);
    mmd_motion *mot = mmd_motion_new("x");
    static const float zero_q[4] = {0, 0, 0, 0}, pos[3] = {0, 1, -1};
    mmd_motion_add_bone_key(mot, "足ＩＫ", 0, pos, zero_q);  /* zero quaternion */
    mmd_motion_add_bone_key(mot, "足ＩＫ", 30, pos, zero_q);
    check_eval_finite(out, mot);
    mmd_motion_free(mot);
    mmd_model_free(out);
}

/* ---------------------------------------------------------------- VMD */

static mmd_motion *reload(const mmd_motion *m, size_t cut, const uint8_t *extra, size_t extra_n)
{
    uint8_t *buf;
    size_t n;
    mmd_error e;
    REQUIRE(mmd_vmd_write(m, &buf, &n, &e) == MMD_OK);
    n -= cut;
    uint8_t *b2 = malloc(n + extra_n + 1);
    REQUIRE(b2);
    memcpy(b2, buf, n);
    if (extra_n)
        memcpy(b2 + n, extra, extra_n);
    mmd_motion *out = NULL;
    mmd_status st = mmd_vmd_load(b2, n + extra_n, &out, &e);
    CHECK_EQ_INT(st, MMD_OK);
    free(buf);
    free(b2);
    return out;
}

TEST(vmd_camera_file)
{
    mmd_motion *m = mmd_motion_new("カメラ・照明");
    mmd_camera_key *k = mmd_motion_add_camera_key(m, 0);
    k->distance = -30;
    k = mmd_motion_add_camera_key(m, 60);
    k->distance = -60;
    mmd_motion *l = reload(m, 0, NULL, 0);
    REQUIRE(l);
    CHECK_STR(l->model_name, "カメラ・照明");
    CHECK_EQ_INT(l->bone_key_count, 0);
    CHECK_EQ_INT(l->camera_key_count, 2);
    mmd_camera_track *c = NULL;
    mmd_error e;
    REQUIRE(mmd_camera_track_create(l, &c, &e) == MMD_OK);
    mmd_camera_state s;
    mmd_camera_sample(c, 30, &s);
    CHECK_NEAR(s.distance, -45, 1e-4);
    mmd_camera_track_free(c);
    /* the camera motion on a model binds nothing and poses nothing */
    mmd_model *mod;
    REQUIRE(roundtrip(base(), &mod, &e) == MMD_OK);
    check_eval_finite(mod, l);
    mmd_model_free(mod);
    mmd_motion_free(l);
    mmd_motion_free(m);
}

TEST(vmd_sections_order_padding_trailing)
{
    mmd_motion *m = mmd_motion_new("model");
    static const float p0[3] = {0, 0, 0}, p1[3] = {0, 3, 0};
    /* keys out of frame order */
    mmd_motion_add_bone_key(m, "センター", 30, p1, NULL);
    mmd_bone_key *k = mmd_motion_add_bone_key(m, "センター", 0, p0, NULL);
    /* name padded with 0xFD after the NUL (MMD writes garbage there) */
    memset(k->raw_name + strlen((char *)k->raw_name) + 1, 0xFD, 15 - strlen((char *)k->raw_name) - 1);
    /* the writer writes all six sections; cut the property section count, and
     * later add 5 bytes of garbage (a trailing count can't fit them) */
    mmd_motion *l = reload(m, 4, NULL, 0);
    REQUIRE(l);
    CHECK_EQ_INT(l->warnings, 0);
    CHECK_EQ_INT(l->property_key_count, 0);
    static const uint8_t junk[5] = {1, 2, 3, 4, 5};
    mmd_motion *l2 = reload(m, 0, junk, 5);
    REQUIRE(l2);
    CHECK_EQ_INT(l2->warnings, 1);
    mmd_motion_free(l2);
    mmd_model *mod;
    mmd_error e;
    REQUIRE(roundtrip(base(), &mod, &e) == MMD_OK);
    mmd_anim *a = NULL;
    const mmd_motion *list[1] = {l};
    REQUIRE(mmd_anim_create(mod, list, 1, &a, &e) == MMD_OK);
    CHECK_EQ_INT(mmd_anim_unbound_count(a), 0);
    mmd_anim_evaluate(a, 15);
    CHECK_NEAR(mmd_anim_world(a)[13], 1.5, 1e-5); /* halfway 0 -> 3 */
    mmd_anim_free(a);
    mmd_model_free(mod);
    mmd_motion_free(l);
    mmd_motion_free(m);
}

TEST(vmd_v1_file)
{
    mmd_motion *m = mmd_motion_new("m");
    static const float p[3] = {0, 2, 0};
    mmd_motion_add_bone_key(m, "センター", 0, p, NULL);
    uint8_t *buf;
    size_t n;
    mmd_error e;
    REQUIRE(mmd_vmd_write(m, &buf, &n, &e) == MMD_OK);
    /* v1: "Vocaloid Motion Data file" + 10-byte name */
    uint8_t *v1 = calloc(n, 1);
    REQUIRE(v1);
    memcpy(v1, "Vocaloid Motion Data file", 25);
    memcpy(v1 + 30, buf + 30, 10);
    memcpy(v1 + 40, buf + 50, n - 50);
    mmd_motion *l = NULL;
    REQUIRE(mmd_vmd_load(v1, n - 10, &l, &e) == MMD_OK);
    CHECK_EQ_INT(l->version, 1);
    CHECK_EQ_INT(l->bone_key_count, 1);
    CHECK_NEAR(l->bone_keys[0].position[1], 2, 0);
    mmd_motion_free(l);
    free(v1);
    free(buf);
    mmd_motion_free(m);
}

/* ---------------------------------------------------------------- PMD */

TEST(pmd_without_extensions_and_odd_toon)
{
    mmd_model *m = NULL;
    mmd_error e;
    for (int parts = 0; parts <= 4; parts++) {
        size_t n;
        uint8_t *d = mmd_test_pmd_fixture(parts, &n, NULL);
        REQUIRE(d);
        CHECK_EQ_INT(mmd_model_load(d, n, &m, &e), MMD_OK);
        if (m) {
            CHECK_EQ_INT(m->warnings, 0);
            if (parts == 0)
                CHECK_STR(m->bones[0].name_en, "");
            mmd_model_free(m);
            m = NULL;
        }
        free(d);
    }
    /* toon byte of the first material: header 283 + vertices 4 + 4*38 +
     * faces 4 + 6*2 + material count 4 + diffuse/power/specular/ambient 44 */
    size_t n;
    uint8_t *d = mmd_test_pmd_fixture(4, &n, NULL);
    REQUIRE(d);
    size_t at = 283 + 4 + 4 * 38 + 4 + 12 + 4 + 44;
    CHECK(d[at] <= 9 || d[at] == 0xFF);
    d[at] = 200;
    REQUIRE(mmd_model_load(d, n, &m, &e) == MMD_OK);
    CHECK_EQ_INT(m->materials[0].toon, -1);
    CHECK_EQ_INT(m->warnings, 1);
    mmd_model_free(m);
    free(d);
}

TEST(pmd_physics_references)
{
    size_t n, cut[5];
    uint8_t *d = mmd_test_pmd_fixture(4, &n, cut);
    REQUIRE(d);
    /* first rigid body: count, name[20], u16 bone; first joint: count, name[20], u32 a, u32 b */
    size_t rb_bone = cut[2] + 4 + 20, j_b = cut[3] + 4 + 20 + 4;
    d[rb_bone] = 0xF0, d[rb_bone + 1] = 0x00; /* bone 240 of 9 */
    memset(d + j_b, 0xFF, 4);                 /* body 0xFFFFFFFF */
    mmd_model *m = NULL;
    mmd_error e;
    REQUIRE(mmd_model_load(d, n, &m, &e) == MMD_OK);
    CHECK_EQ_INT(m->warnings, 2);
    CHECK_EQ_INT(m->rigid_bodies[0].bone, -1);
    CHECK_EQ_INT(m->joints[0].body_b, -1);
    CHECK(m->joints[0].body_a >= 0);
    mmd_physics *ph = NULL;
    CHECK_EQ_INT(mmd_physics_create(m, &ph, &e), MMD_OK);
    mmd_physics_free(ph);
    mmd_model_free(m);
    free(d);
}

int main(void)
{
    RUN(nan_position_and_weight_rejected);
    RUN(texture_index_out_of_range_rejected);
    RUN(nan_normal_recomputed_from_faces);
    RUN(recomputed_normals_match_a_real_model);
    RUN(nan_uv_edge_material_physics_repaired);
    RUN(nan_sdef_ik_limit_bone_morph_repaired);
    RUN(pmx21_without_soft_bodies_and_trailing_bytes);
    RUN(vertex_weights);
    RUN(toon_index_out_of_range);
    RUN(cosmetic_references_repaired);
    RUN(morph_oddities);
    RUN(ik_limits_swapped_loop_zero_unit_angle);
    RUN(degenerate_but_valid_evaluates_finite);
    RUN(vmd_camera_file);
    RUN(vmd_sections_order_padding_trailing);
    RUN(vmd_v1_file);
    RUN(pmd_without_extensions_and_odd_toon);
    RUN(pmd_physics_references);
    return test_finish();
}
