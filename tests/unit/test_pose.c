/* tests/unit/test_pose.c - bone evaluation on hand-built models: rest pose,
 * keys, append chains, fixed axis, physics hook. */
#include <stdio.h>

#include "tests/unit/anim_fixture.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

TEST(rest_pose_world_is_rest)
{
    mmd_model *m = fx_model(3, 4, 0, 2);
    mmd_anim *a = NULL;
    mmd_error e;
    REQUIRE(mmd_anim_create(m, NULL, 0, &a, &e) == MMD_OK);
    mmd_anim_evaluate(a, 0);
    const float *w = mmd_anim_world(a), *s = mmd_anim_skinning(a);
    for (int b = 0; b < 3; b++) {
        for (int i = 0; i < 16; i++) {
            float id = (i % 5 == 0) ? 1.0f : 0.0f;
            if (i == 13)
                id = (float)b;
            CHECK_NEAR(w[16 * b + i], id, 1e-6);
            CHECK_NEAR(s[16 * b + i], (i % 5 == 0) ? 1.0f : 0.0f, 1e-6);
        }
    }
    const mmd_material_state *ms = mmd_anim_materials(a);
    CHECK_NEAR(ms[1].diffuse[0], 0.5, 1e-7);
    CHECK_NEAR(ms[1].specular_power, 5, 1e-7);
    CHECK_NEAR(ms[1].edge_color[3], 0.25, 1e-7);
    CHECK_NEAR(ms[0].texture_mul[3], 1, 0);
    CHECK_NEAR(ms[0].toon_add[0], 0, 0);
    CHECK(mmd_anim_visible(a));
    CHECK_EQ_INT(mmd_anim_last_frame(a), 0);
    mmd_anim_free(a);
    mmd_anim_free(NULL);
    fx_free_model(m);
}

TEST(keys_rotate_chain)
{
    mmd_model *m = fx_model(3, 0, 0, 0);
    mmd_motion *mo = fx_motion(2, 0);
    float p0[3] = {0, 0, 0}, p1[3] = {1, 0, 0}, q0[4] = {0, 0, 0, 1}, q1[4];
    fx_quat(0, 0, 1, (float)M_PI / 2, q1);
    fx_bone_key(mo, 0, "b0", 0, p0, q0);
    fx_bone_key(mo, 1, "b0", 10, p1, q1);
    mmd_anim *a = NULL;
    const mmd_motion *list[1] = {mo};
    REQUIRE(mmd_anim_create(m, list, 1, &a, NULL) == MMD_OK);
    CHECK_EQ_INT(mmd_anim_last_frame(a), 10);
    mmd_anim_evaluate(a, 10);
    const float *w = mmd_anim_world(a);
    /* b0 at (1,0,0) rotated 90 deg about Z: b2 (rest y=2) goes to x = 1 - 2 */
    CHECK_NEAR(w[16 * 0 + 12], 1, 1e-6);
    CHECK_NEAR(w[16 * 2 + 12], -1, 1e-5);
    CHECK_NEAR(w[16 * 2 + 13], 0, 1e-5);
    mmd_anim_evaluate(a, 5); /* linear: 45 deg, x = 0.5 */
    float c = cosf((float)M_PI / 4), s = sinf((float)M_PI / 4);
    CHECK_NEAR(w[16 * 2 + 12], 0.5 - 2 * s, 1e-5);
    CHECK_NEAR(w[16 * 2 + 13], 2 * c, 1e-5);
    mmd_anim_evaluate(a, -3); /* clamp before first */
    CHECK_NEAR(w[16 * 2 + 13], 2, 1e-6);
    mmd_anim_evaluate(a, 1000);
    CHECK_NEAR(w[16 * 2 + 12], -1, 1e-5);
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

TEST(unbound_names_reported)
{
    mmd_model *m = fx_model(1, 0, 1, 0);
    mmd_motion *mo = fx_motion(2, 2);
    float p[3] = {0}, q[4] = {0, 0, 0, 1};
    fx_bone_key(mo, 0, "nothere", 0, p, q);
    fx_bone_key(mo, 1, "nothere", 5, p, q);
    fx_morph_key(mo, 0, "m0", 0, 0.5f);
    fx_morph_key(mo, 1, "zz", 0, 0.5f);
    mmd_anim *a = NULL;
    const mmd_motion *list[1] = {mo};
    REQUIRE(mmd_anim_create(m, list, 1, &a, NULL) == MMD_OK);
    REQUIRE(mmd_anim_unbound_count(a) == 2);
    CHECK_STR(mmd_anim_unbound_name(a, 0), "nothere");
    CHECK_STR(mmd_anim_unbound_name(a, 1), "zz");
    CHECK(mmd_anim_unbound_name(a, 2) == NULL);
    mmd_anim_evaluate(a, 0);
    CHECK_NEAR(mmd_anim_morph_weights(a)[0], 0.5, 1e-7);
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

/* b1 keyed 90 deg about Y and moved (1,0,0); b2 appends b1 rotation x0.5,
 * b3 appends b2 (chain) x0.5, b4 appends b1 translation x-1. All roots. */
TEST(append_chain_rotation_and_translation)
{
    mmd_model *m = fx_model(5, 0, 0, 0);
    for (int i = 0; i < 5; i++)
        m->bones[i].parent = -1;
    m->bones[2].flags |= MMD_BONE_APPEND_ROTATE, m->bones[2].append_parent = 1, m->bones[2].append_ratio = 0.5f;
    m->bones[3].flags |= MMD_BONE_APPEND_ROTATE, m->bones[3].append_parent = 2, m->bones[3].append_ratio = 0.5f;
    m->bones[4].flags |= MMD_BONE_APPEND_TRANSLATE, m->bones[4].append_parent = 1, m->bones[4].append_ratio = -1;
    mmd_motion *mo = fx_motion(1, 0);
    float p[3] = {1, 0, 0}, q[4];
    fx_quat(0, 1, 0, (float)M_PI / 2, q);
    fx_bone_key(mo, 0, "b1", 0, p, q);
    const mmd_motion *list[1] = {mo};
    mmd_anim *a = NULL;
    REQUIRE(mmd_anim_create(m, list, 1, &a, NULL) == MMD_OK);
    mmd_anim_evaluate(a, 0);
    const float *w = mmd_anim_world(a);
    /* Ry(t): column 0 = (cos t, 0, -sin t) */
    CHECK_NEAR(w[16 * 1 + 0], 0, 1e-6);
    CHECK_NEAR(w[16 * 2 + 0], cos(M_PI / 4), 1e-6);
    CHECK_NEAR(w[16 * 2 + 2], -sin(M_PI / 4), 1e-6);
    CHECK_NEAR(w[16 * 3 + 0], cos(M_PI / 8), 1e-6);
    CHECK_NEAR(w[16 * 3 + 2], -sin(M_PI / 8), 1e-6);
    CHECK_NEAR(w[16 * 4 + 12], -1, 1e-6);
    CHECK_NEAR(w[16 * 4 + 13], 4, 1e-6);
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

/* Fixed axis: a key rotating about (1,1,0)/sqrt2 on a bone fixed to X keeps
 * the angle and uses X. */
TEST(fixed_axis_bone)
{
    mmd_model *m = fx_model(1, 0, 0, 0);
    m->bones[0].flags |= MMD_BONE_FIXED_AXIS;
    m->bones[0].fixed_axis[0] = 2; /* not normalised on purpose */
    mmd_motion *mo = fx_motion(1, 0);
    float p[3] = {0}, q[4];
    fx_quat((float)M_SQRT1_2, (float)M_SQRT1_2, 0, 0.6f, q);
    fx_bone_key(mo, 0, "b0", 0, p, q);
    const mmd_motion *list[1] = {mo};
    mmd_anim *a = NULL;
    REQUIRE(mmd_anim_create(m, list, 1, &a, NULL) == MMD_OK);
    mmd_anim_evaluate(a, 0);
    const float *w = mmd_anim_world(a);
    CHECK_NEAR(w[0], 1, 1e-6);           /* X axis unchanged */
    CHECK_NEAR(w[5], cos(0.6), 1e-6);    /* Rx(0.6) */
    CHECK_NEAR(w[6], sin(0.6), 1e-6);
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

typedef struct hook_ctx { int calls; } hook_ctx;

static void phys_hook(void *user, mmd_anim *a, double t)
{
    (void)t;
    ((hook_ctx *)user)->calls++;
    float *w = mmd_anim_world_mut(a);
    w[16 * 1 + 12] += 5; /* a rigid body moved bone 1 */
    mmd_anim_refresh_from(a, 1);
}

TEST(physics_hook_refreshes_children)
{
    mmd_model *m = fx_model(3, 0, 0, 0);
    m->bones[2].flags |= MMD_BONE_AFTER_PHYSICS;
    mmd_anim *a = NULL;
    REQUIRE(mmd_anim_create(m, NULL, 0, &a, NULL) == MMD_OK);
    hook_ctx ctx = {0};
    mmd_anim_set_physics_hook(a, phys_hook, &ctx);
    mmd_anim_evaluate(a, 0);
    CHECK_EQ_INT(ctx.calls, 1);
    const float *w = mmd_anim_world(a), *s = mmd_anim_skinning(a);
    CHECK_NEAR(w[16 * 1 + 12], 5, 1e-6);
    CHECK_NEAR(w[16 * 2 + 12], 5, 1e-6); /* after-physics child follows */
    CHECK_NEAR(s[16 * 1 + 12], 5, 1e-6);
    CHECK(!mmd_anim_bone_physics_off(a, 1));
    CHECK(mmd_anim_model(a) == m);
    mmd_anim_free(a);
    fx_free_model(m);
}

int main(void)
{
    RUN(append_chain_rotation_and_translation);
    RUN(fixed_axis_bone);
    RUN(physics_hook_refreshes_children);
    RUN(rest_pose_world_is_rest);
    RUN(keys_rotate_chain);
    RUN(unbound_names_reported);
    return test_finish();
}
