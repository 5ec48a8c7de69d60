/* tests/unit/test_skin.c - CPU skinning: BDEF1/2/4, SDEF equals BDEF2 when
 * both bones share a rotation, QDEF keeps volume on a twist where BDEF4
 * collapses, normals follow, ranges index from `first`. */
#include <cglm/cglm.h>

#include "core/accessory.h"
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

/* A chain b0 (root) - b1 - b2 with a BDEF2, an SDEF and a QDEF vertex on b1/b2;
 * motion keys on b1 and b2, plus (root_key) a key on b0 at pos/rot. */
static mmd_model *place_model(void)
{
    mmd_model *m = fx_model(3, 3, 0, 0);
    const uint8_t types[3] = {MMD_WEIGHT_BDEF2, MMD_WEIGHT_SDEF, MMD_WEIGHT_QDEF};
    for (int v = 0; v < 3; v++) {
        mmd_vertex *x = &m->vertices[v];
        x->position[0] = 0.4f, x->position[1] = 1.6f, x->position[2] = -0.3f;
        x->normal[0] = 0.6f, x->normal[1] = 0, x->normal[2] = -0.8f;
        x->weight_type = types[v];
        x->bones[0] = 1, x->bones[1] = 2;
        x->weights[0] = 0.35f, x->weights[1] = 0.65f;
        x->sdef_c[1] = 1.5f, x->sdef_r0[1] = 1.2f, x->sdef_r1[1] = 1.9f, x->sdef_r1[0] = 0.1f;
    }
    return m;
}

static mmd_anim *place_anim(mmd_model *m, mmd_motion **mo, const float *root_pos, const float *root_rot)
{
    *mo = fx_motion(root_pos ? 3 : 2, 0);
    float p1[3] = {0.2f, 0.1f, 0}, z[3] = {0}, q1[4], q2[4];
    fx_quat(0, 0.6f, 0.8f, 0.7f, q1);
    fx_quat(1, 0, 0, -0.5f, q2);
    fx_bone_key(*mo, 0, "b1", 0, p1, q1);
    fx_bone_key(*mo, 1, "b2", 0, z, q2);
    if (root_pos)
        fx_bone_key(*mo, 2, "b0", 0, root_pos, root_rot);
    const mmd_motion *list[1] = {*mo};
    mmd_anim *a = NULL;
    if (mmd_anim_create(m, list, 1, &a, NULL) != MMD_OK)
        return NULL;
    return a;
}

/* mmd_anim_set_placement: a rigid placement gives the pose and skin of the
 * same model moved by a root-bone key; a scaled one is that pose scaled about
 * the placement (SDEF and QDEF included); removing it gives the same bytes as
 * never placing. */
TEST(placement_equals_root_key_and_scales)
{
    mmd_model *m = place_model();
    const float pos[3] = {3, -1, 5}, rot[3] = {20, -35, 50};
    float place[16], q[4];
    mmd_place_matrix(pos, rot, 1, place);
    mat4 pm;
    glm_mat4_ucopy((vec4 *)place, pm);
    glm_mat4_quat(pm, q);
    mmd_motion *mo1, *mo2, *mo3, *mo4;
    mmd_anim *placed = place_anim(m, &mo1, NULL, NULL), *keyed_root = place_anim(m, &mo2, pos, q);
    mmd_anim *plain = place_anim(m, &mo3, NULL, NULL), *removed = place_anim(m, &mo4, NULL, NULL);
    REQUIRE(placed && keyed_root && plain && removed);
    mmd_anim_set_placement(placed, place, 1);
    mmd_anim_set_placement(removed, place, 2);
    mmd_anim_set_placement(removed, NULL, 1);
    mmd_anim_evaluate(placed, 0);
    mmd_anim_evaluate(keyed_root, 0);
    mmd_anim_evaluate(plain, 0);
    mmd_anim_evaluate(removed, 0);
    float pa[9], na[9], pb[9], nb[9], pp[9], np[9], pr[9], nr[9];
    mmd_anim_skin(placed, 0, 3, pa, na);
    mmd_anim_skin(keyed_root, 0, 3, pb, nb);
    mmd_anim_skin(plain, 0, 3, pp, np);
    mmd_anim_skin(removed, 0, 3, pr, nr);
    for (int i = 0; i < 3 * 16; i++)
        CHECK_NEAR(mmd_anim_world(placed)[i], mmd_anim_world(keyed_root)[i], 1e-5);
    for (int i = 0; i < 9; i++) {
        CHECK_NEAR(pa[i], pb[i], 1e-5);
        CHECK_NEAR(na[i], nb[i], 1e-5);
    }
    CHECK(!memcmp(mmd_anim_world(removed), mmd_anim_world(plain), 3 * 16 * sizeof(float)));
    CHECK(!memcmp(pr, pp, sizeof pr) && !memcmp(nr, np, sizeof nr));
    /* scale 2: every bone world is place2 x the unplaced world; every vertex place2 x its unplaced position */
    float place2[16];
    mmd_place_matrix(pos, rot, 2, place2);
    mmd_anim_set_placement(placed, place2, 2);
    mmd_anim_evaluate(placed, 0);
    mmd_anim_skin(placed, 0, 3, pa, na);
    mat4 p2, w, e;
    glm_mat4_ucopy((vec4 *)place2, p2);
    for (int b = 0; b < 3; b++) {
        glm_mat4_ucopy((vec4 *)(mmd_anim_world(plain) + 16 * b), w);
        glm_mat4_mul(p2, w, e);
        for (int i = 0; i < 16; i++)
            CHECK_NEAR(mmd_anim_world(placed)[16 * b + i], ((float *)e)[i], 1e-4);
    }
    for (int v = 0; v < 3; v++) {
        vec3 want, n, got;
        glm_mat4_mulv3(p2, pp + 3 * v, 1, want);
        glm_mat4_mulv3(p2, np + 3 * v, 0, n);
        glm_vec3_normalize(n);
        glm_vec3_normalize_to(na + 3 * v, got);
        for (int c = 0; c < 3; c++) {
            CHECK_NEAR(pa[3 * v + c], want[c], 1e-4);
            CHECK_NEAR(got[c], n[c], 1e-4);
        }
    }
    float s = 0;
    CHECK(mmd_anim_placement(placed, &s) != NULL && s == 2);
    CHECK(mmd_anim_placement(plain, &s) == NULL && s == 1);
    mmd_anim_free(placed);
    mmd_anim_free(keyed_root);
    mmd_anim_free(plain);
    mmd_anim_free(removed);
    fx_free_motion(mo1);
    fx_free_motion(mo2);
    fx_free_motion(mo3);
    fx_free_motion(mo4);
    fx_free_model(m);
}

int main(void)
{
    RUN(sdef_equals_bdef2_with_shared_rotation);
    RUN(qdef_keeps_volume_on_twist);
    RUN(bdef1_bdef4_and_ranges);
    RUN(placement_equals_root_key_and_scales);
    return test_finish();
}
