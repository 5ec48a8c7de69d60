/* tests/util/skirt_fixture.c - leg + skirt physics fixture (see skirt_fixture.h). */
#include "tests/util/skirt_fixture.h"

#include <math.h>
#include <string.h>

#include "core/pmx_write.h"
#include "core/vmd_write.h"

static void set3(float v[3], float x, float y, float z)
{
    v[0] = x, v[1] = y, v[2] = z;
}

static void body(mmd_model *m, mmd_rigid_body *b, const char *name, int32_t bone, uint8_t shape, uint8_t mode,
                 uint8_t group, uint16_t mask)
{
    b->name = mmd_model_str(m, name);
    b->bone = bone;
    b->shape = shape;
    b->mode = mode;
    b->group = group;
    b->no_collide_mask = mask;
    b->mass = mode ? 1.0f : 0.0f;
    b->linear_damping = 0.5f;
    b->angular_damping = 0.5f;
    b->friction = 0.5f;
}

mmd_model *mmd_test_skirt_model(void)
{
    mmd_model *m = mmd_model_new();
    if (!m)
        return NULL;
    m->name = mmd_model_str(m, "skirt fixture");
    mmd_bone *b = mmd_model_add_bones(m, 4);
    mmd_vertex *v = mmd_model_add_vertices(m, 3);
    uint32_t *ix = mmd_model_add_indices(m, 3);
    mmd_material *mt = mmd_model_add_materials(m, 1);
    mmd_rigid_body *rb = mmd_model_add_rigid_bodies(m, 3);
    mmd_joint *j = mmd_model_add_joints(m, 1);
    if (!b || !v || !ix || !mt || !rb || !j) {
        mmd_model_free(m);
        return NULL;
    }
    static const char *const names[4] = {"センター", "leg", "skirt", "skirt_tip"};
    static const float pos[4][3] = {{0, 0, 0}, {0, 10, 0}, {0, 10, -2.5f}, {0, 5, -2.5f}};
    static const int32_t parent[4] = {-1, 0, 0, 2};
    for (int i = 0; i < 4; i++) {
        b[i].name = mmd_model_str(m, names[i]);
        memcpy(b[i].position, pos[i], sizeof pos[i]);
        b[i].parent = parent[i];
    }
    set3(v[1].position, 1, 0, 0);
    set3(v[2].position, 0, 1, 0);
    ix[0] = 0, ix[1] = 1, ix[2] = 2;
    mt[0].index_count = 3;

    body(m, &rb[0], "hip", 0, MMD_SHAPE_SPHERE, MMD_BODY_FOLLOW_BONE, 2, 0);
    rb[0].size[0] = 0.3f;
    set3(rb[0].position, 0, 10, -2.5f);
    body(m, &rb[1], "leg", 1, MMD_SHAPE_CAPSULE, MMD_BODY_FOLLOW_BONE, 0, 0x0002);
    set3(rb[1].size, 1.0f, 8.0f, 0);
    set3(rb[1].position, 0, 5, 0);
    body(m, &rb[2], "skirt", 2, MMD_SHAPE_CAPSULE, MMD_BODY_PHYSICS, 1, 0x0001);
    set3(rb[2].size, 0.8f, 3.0f, 0);
    set3(rb[2].position, 0, 6.5f, -2.5f);

    j[0].name = mmd_model_str(m, "pivot");
    j[0].type = MMD_JOINT_SPRING_6DOF;
    j[0].body_a = 0, j[0].body_b = 2;
    set3(j[0].position, 0, 10, -2.5f);
    set3(j[0].angular_lower, -2.5f, 0, 0);
    set3(j[0].angular_upper, 2.5f, 0, 0);
    return m;
}

mmd_motion *mmd_test_leg_motion(float degrees, uint32_t frame)
{
    mmd_motion *mo = mmd_motion_new("skirt fixture");
    if (!mo)
        return NULL;
    const float zero[3] = {0, 0, 0}, id[4] = {0, 0, 0, 1};
    double h = degrees * 3.14159265358979323846 / 360.0;
    const float q[4] = {(float)sin(h), 0, 0, (float)cos(h)};
    if (!mmd_motion_add_bone_key(mo, "leg", 0, zero, id) || !mmd_motion_add_bone_key(mo, "leg", frame, zero, q)) {
        mmd_motion_free(mo);
        return NULL;
    }
    return mo;
}

double mmd_test_hang_angle(const float *w)
{
    /* down = -(column 1); angle = atan2(-down.z, -down.y) */
    return atan2((double)w[6], (double)w[5]);
}
