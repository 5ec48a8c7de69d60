/* tests/unit/test_ik.c - CCD IK on a hand-built 2-link leg: reaches a
 * reachable target, respects a knee limit on both sides, IK off keys. */
#include "tests/unit/anim_fixture.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* thigh b0 (0,2,0) root, knee b1 (0,1,0), ankle b2 (0,0,0), IK b3 at (0,0,0). */
static mmd_model *leg(bool knee_limit)
{
    mmd_model *m = fx_model(4, 0, 0, 0);
    for (int i = 0; i < 3; i++)
        m->bones[i].position[1] = (float)(2 - i);
    m->bones[3].parent = -1;
    m->bones[3].position[1] = 0;
    mmd_bone *ik = &m->bones[3];
    ik->flags |= MMD_BONE_IK;
    ik->name = mmd_arena_strdup(m->arena, "ik");
    ik->ik_target = 2;
    ik->ik_loop = 40;
    ik->ik_limit_angle = 1.0f;
    ik->ik_link_count = 2;
    ik->ik_links = mmd_arena_array(m->arena, 2, sizeof *ik->ik_links);
    ik->ik_links[0].bone = 1;
    ik->ik_links[1].bone = 0;
    if (knee_limit) {
        ik->ik_links[0].has_limit = true;
        ik->ik_links[0].lower[0] = (float)-M_PI;
        ik->ik_links[0].upper[0] = (float)(-0.5 * M_PI / 180);
    }
    return m;
}

static mmd_anim *pose_ik(mmd_model *m, mmd_motion **mo, float x, float y, float z)
{
    *mo = fx_motion(1, 0);
    float p[3] = {x, y, z}, q[4] = {0, 0, 0, 1};
    fx_bone_key(*mo, 0, "ik", 0, p, q);
    const mmd_motion *list[1] = {*mo};
    mmd_anim *a = NULL;
    if (mmd_anim_create(m, list, 1, &a, NULL) != MMD_OK)
        return NULL;
    mmd_anim_evaluate(a, 0);
    return a;
}

TEST(reaches_reachable_target)
{
    mmd_model *m = leg(false);
    mmd_motion *mo;
    mmd_anim *a = pose_ik(m, &mo, 0.5f, 0.5f, 0);
    REQUIRE(a);
    const float *w = mmd_anim_world(a);
    CHECK_NEAR(w[16 * 2 + 12], 0.5, 1e-3);
    CHECK_NEAR(w[16 * 2 + 13], 0.5, 1e-3);
    CHECK_NEAR(w[16 * 2 + 14], 0, 1e-3);
    /* bone lengths are kept */
    double dx = w[16 * 1 + 12] - w[12], dy = w[16 * 1 + 13] - w[13], dz = w[16 * 1 + 14] - w[14];
    CHECK_NEAR(sqrt(dx * dx + dy * dy + dz * dz), 1, 1e-5);
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

/* Knee local rotation from the world matrices: R0^T R1. */
static void knee_local(const float *w, double r[9])
{
    const float *a = w, *b = w + 16;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++)
                s += a[4 * i + k] * b[4 * j + k]; /* (col i of A) . (col j of B) */
            r[3 * j + i] = s;                     /* column-major */
        }
}

TEST(knee_limit_both_sides)
{
    float zs[2] = {0.6f, -0.6f};
    for (int k = 0; k < 2; k++) {
        mmd_model *m = leg(true);
        mmd_motion *mo;
        mmd_anim *a = pose_ik(m, &mo, 0, 0.8f, zs[k]);
        REQUIRE(a);
        const float *w = mmd_anim_world(a);
        CHECK_NEAR(w[16 * 2 + 12], 0, 1e-2);
        CHECK_NEAR(w[16 * 2 + 13], 0.8, 1e-2);
        CHECK_NEAR(w[16 * 2 + 14], zs[k], 1e-2);
        double r[9];
        knee_local(w, r);
        CHECK_NEAR(r[0], 1, 1e-5); /* pure X rotation */
        double ang = atan2(r[5], r[4]);
        CHECK(ang <= -0.5 * M_PI / 180 + 1e-6);
        CHECK(ang >= -M_PI - 1e-6);
        /* the ankle ends up behind the knee (+Z, LH: the model faces -Z) */
        CHECK(w[16 * 2 + 14] - w[16 * 1 + 14] > 0 || fabs(ang) < 1e-3);
        mmd_anim_free(a);
        fx_free_motion(mo);
        fx_free_model(m);
    }
}

TEST(ik_off_by_property_key)
{
    mmd_model *m = leg(false);
    mmd_motion *mo = fx_motion(1, 0);
    float p[3] = {0.5f, 0.5f, 0}, q[4] = {0, 0, 0, 1};
    fx_bone_key(mo, 0, "ik", 0, p, q);
    mo->property_key_count = 2;
    mo->property_keys = mmd_arena_array(mo->arena, 2, sizeof *mo->property_keys);
    for (int i = 0; i < 2; i++) {
        mmd_property_key *k = &mo->property_keys[i];
        k->frame = (uint32_t)(10 * i);
        k->visible = i == 0;
        k->ik_count = 1;
        k->ik = mmd_arena_array(mo->arena, 1, sizeof *k->ik);
        k->ik[0].name = mmd_arena_strdup(mo->arena, "ik");
        memcpy(k->ik[0].raw_name, "ik", 2);
        k->ik[0].enabled = i == 0;
    }
    const mmd_motion *list[1] = {mo};
    mmd_anim *a = NULL;
    REQUIRE(mmd_anim_create(m, list, 1, &a, NULL) == MMD_OK);
    mmd_anim_evaluate(a, 5);
    CHECK(mmd_anim_visible(a));
    CHECK_NEAR(mmd_anim_world(a)[16 * 2 + 12], 0.5, 1e-3);
    mmd_anim_evaluate(a, 10.5); /* step: IK off, hidden */
    CHECK(!mmd_anim_visible(a));
    CHECK_NEAR(mmd_anim_world(a)[16 * 2 + 12], 0, 1e-6);
    CHECK_NEAR(mmd_anim_world(a)[16 * 2 + 13], 0, 1e-6);
    mmd_anim_evaluate(a, 0); /* random access back */
    CHECK_NEAR(mmd_anim_world(a)[16 * 2 + 12], 0.5, 1e-3);
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

int main(void)
{
    RUN(reaches_reachable_target);
    RUN(knee_limit_both_sides);
    RUN(ik_off_by_property_key);
    return test_finish();
}
