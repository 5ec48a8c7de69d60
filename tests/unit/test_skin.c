/* tests/unit/test_skin.c - CPU skinning: BDEF1/2/4, SDEF equals BDEF2 when
 * both bones share a rotation, QDEF keeps volume on a twist where BDEF4
 * collapses, normals follow, ranges index from `first`. */
#include "tests/unit/anim_fixture.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static mmd_anim *keyed(mmd_model *m, mmd_motion **mo, const float p1[3], const float q1[4], const float q0[4])
{
    *mo = fx_motion(2, 0);
    float z[3] = {0};
    fx_bone_key(*mo, 0, "b0", 0, z, q0);
    fx_bone_key(*mo, 1, "b1", 0, p1, q1);
    const mmd_motion *list[1] = {*mo};
    mmd_anim *a = NULL;
    if (mmd_anim_create(m, list, 1, &a, NULL) != MMD_OK)
        return NULL;
    mmd_anim_evaluate(a, 0);
    return a;
}

TEST(sdef_equals_bdef2_with_shared_rotation)
{
    /* b1 is b0's child with its own translation only: same rotation, other translation */
    mmd_model *m = fx_model(2, 2, 0, 0);
    for (int v = 0; v < 2; v++) {
        mmd_vertex *x = &m->vertices[v];
        x->position[0] = 0.3f, x->position[1] = 1.2f, x->position[2] = -0.4f;
        x->weight_type = v == 0 ? MMD_WEIGHT_SDEF : MMD_WEIGHT_BDEF2;
        x->bones[0] = 0, x->bones[1] = 1;
        x->weights[0] = 0.3f, x->weights[1] = 0.7f;
        x->sdef_c[1] = 0.9f, x->sdef_r0[1] = 0.5f, x->sdef_r0[0] = 0.2f, x->sdef_r1[1] = 1.4f, x->sdef_r1[2] = 0.1f;
    }
    mmd_motion *mo;
    float p1[3] = {0.5f, 0.25f, -1}, q1[4] = {0, 0, 0, 1}, q0[4];
    fx_quat(0.6f, 0.8f, 0, 0.9f, q0);
    mmd_anim *a = keyed(m, &mo, p1, q1, q0);
    REQUIRE(a);
    float pos[6], nrm[6];
    mmd_anim_skin(a, 0, 2, pos, nrm);
    for (int c = 0; c < 3; c++) {
        CHECK_NEAR(pos[c], pos[3 + c], 1e-5);
        CHECK_NEAR(nrm[c], nrm[3 + c], 1e-5);
    }
    /* and BDEF2 is the weighted blend: b1 moved by R0 p1, so offset = 0.7 R0 p1 */
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

TEST(qdef_keeps_volume_on_twist)
{
    mmd_model *m = fx_model(2, 2, 0, 0);
    for (int b = 0; b < 2; b++)
        m->bones[b].parent = -1, m->bones[b].position[1] = 0;
    for (int v = 0; v < 2; v++) {
        mmd_vertex *x = &m->vertices[v];
        x->position[0] = 1;
        x->weight_type = v == 0 ? MMD_WEIGHT_QDEF : MMD_WEIGHT_BDEF4;
        x->bones[0] = 0, x->bones[1] = 1, x->bones[2] = x->bones[3] = -1;
        x->weights[0] = 0.5f, x->weights[1] = 0.5f;
    }
    mmd_motion *mo;
    float p1[3] = {0}, q1[4], q0[4] = {0, 0, 0, 1};
    double ang = 170.0 * M_PI / 180.0;
    fx_quat(0, 1, 0, (float)ang, q1);
    mmd_anim *a = keyed(m, &mo, p1, q1, q0);
    REQUIRE(a);
    float pos[6], nrm[6];
    mmd_anim_skin(a, 0, 2, pos, nrm);
    double lq = sqrt(pos[0] * pos[0] + pos[1] * pos[1] + pos[2] * pos[2]);
    double lb = sqrt(pos[3] * pos[3] + pos[4] * pos[4] + pos[5] * pos[5]);
    CHECK_NEAR(lq, 1, 1e-5);                  /* rotated half-way (85 deg), unit length */
    CHECK_NEAR(pos[0], cos(ang / 2), 1e-5);
    CHECK_NEAR(pos[2], -sin(ang / 2), 1e-5);  /* Ry: x -> (cos, 0, -sin) */
    CHECK_NEAR(lb, cos(ang / 2), 1e-5);       /* linear blend collapses */
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

TEST(bdef1_bdef4_and_ranges)
{
    mmd_model *m = fx_model(2, 3, 0, 0);
    m->bones[1].parent = -1;
    mmd_vertex *v = m->vertices;
    v[0].weight_type = MMD_WEIGHT_BDEF1, v[0].bones[0] = 1;
    v[1].weight_type = MMD_WEIGHT_BDEF4;
    v[1].bones[0] = 0, v[1].bones[1] = 1, v[1].bones[2] = 1, v[1].bones[3] = -1;
    v[1].weights[0] = 1, v[1].weights[1] = 1, v[1].weights[2] = 2, v[1].weights[3] = 5; /* sum 4 -> normalised */
    v[2].weight_type = MMD_WEIGHT_BDEF2, v[2].bones[0] = 0, v[2].bones[1] = 1, v[2].weights[0] = 0.25f;
    mmd_motion *mo;
    float p1[3] = {4, 0, 0}, q[4] = {0, 0, 0, 1};
    mmd_anim *a = keyed(m, &mo, p1, q, q);
    REQUIRE(a);
    float pos[9], nrm[9];
    mmd_anim_skin(a, 0, 3, pos, nrm);
    CHECK_NEAR(pos[0], 4, 1e-6);         /* BDEF1 on the moved bone */
    CHECK_NEAR(pos[3], 4 * 0.75, 1e-6);  /* 1/4 bone 0 + 3/4 bone 1 */
    CHECK_NEAR(pos[6], 4 * 0.75, 1e-6);  /* BDEF2 w0 = 0.25 */
    float p2[3], n2[3];
    mmd_anim_skin(a, 2, 5, p2, n2);      /* count clamped, indexed from first */
    CHECK_NEAR(p2[0], pos[6], 0);
    mmd_anim_free(a);
    fx_free_motion(mo);
    fx_free_model(m);
}

int main(void)
{
    RUN(sdef_equals_bdef2_with_shared_rotation);
    RUN(qdef_keeps_volume_on_twist);
    RUN(bdef1_bdef4_and_ranges);
    return test_finish();
}
