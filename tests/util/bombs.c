/* tests/util/bombs.c - generated hostile files (see bombs.h). */
#include "tests/util/bombs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/pmx_write.h"
#include "core/vmd_write.h"
#include "core/xfile_write.h"

static uint8_t *finish(mmd_model *m, size_t *size)
{
    uint8_t *out = NULL;
    mmd_error err;
    if (mmd_pmx_write(m, &out, size, &err) != MMD_OK)
        out = NULL;
    mmd_model_free(m);
    return out;
}

static void bone(mmd_model *m, mmd_bone *b, const char *name, float x, float y, float z, int32_t parent)
{
    b->name = mmd_model_str(m, name);
    b->name_en = b->name;
    b->position[0] = x, b->position[1] = y, b->position[2] = z;
    b->parent = parent;
    b->flags |= MMD_BONE_MOVABLE;
    b->tail_offset[1] = 1;
}

uint8_t *mmd_bomb_ik(uint32_t chains, uint32_t links, int32_t loops, size_t *size)
{
    mmd_model *m = mmd_model_new();
    if (!m || !links)
        return mmd_model_free(m), NULL;
    m->name = m->name_en = mmd_model_str(m, "ik bomb");
    /* per chain: links + 1 bones (root .. effector), then the IK bone */
    uint32_t per = links + 2;
    mmd_bone *b = mmd_model_add_bones(m, chains * per);
    if (!b)
        return mmd_model_free(m), NULL;
    char name[32];
    for (uint32_t c = 0; c < chains; c++) {
        uint32_t base = c * per;
        for (uint32_t i = 0; i <= links; i++) {
            snprintf(name, sizeof name, "c%u_%u", c, i);
            bone(m, &b[base + i], name, (float)c, 0.01f * (float)i, 0, i ? (int32_t)(base + i - 1) : -1);
        }
        mmd_bone *ik = &b[base + links + 1];
        snprintf(name, sizeof name, "c%u_ik", c);
        bone(m, ik, name, (float)c, 10000.0f, 0, -1); /* out of reach */
        ik->flags |= MMD_BONE_IK;
        ik->ik_target = (int32_t)(base + links);
        ik->ik_loop = loops;
        ik->ik_limit_angle = 0.01f;
        ik->ik_link_count = links;
        ik->ik_links = mmd_model_alloc(m, links, sizeof *ik->ik_links);
        if (!ik->ik_links)
            return mmd_model_free(m), NULL;
        for (uint32_t j = 0; j < links; j++) /* the effector's parent first */
            ik->ik_links[j] = (mmd_ik_link){.bone = (int32_t)(base + links - 1 - j)};
    }
    return finish(m, size);
}

uint8_t *mmd_bomb_ik_deep(uint32_t bones, uint32_t chains, size_t *size)
{
    mmd_model *m = mmd_model_new();
    if (!m || bones < 2)
        return mmd_model_free(m), NULL;
    m->name = m->name_en = mmd_model_str(m, "deep ik bomb");
    mmd_bone *b = mmd_model_add_bones(m, bones + chains);
    if (!b)
        return mmd_model_free(m), NULL;
    char name[32];
    for (uint32_t i = 0; i < bones; i++) {
        snprintf(name, sizeof name, "b%u", i);
        bone(m, &b[i], name, 0, 0.01f * (float)i, 0, i ? (int32_t)i - 1 : -1);
    }
    for (uint32_t c = 0; c < chains; c++) {
        mmd_bone *ik = &b[bones + c];
        snprintf(name, sizeof name, "ik%u", c);
        bone(m, ik, name, 1, (float)c, 0, -1);
        ik->flags |= MMD_BONE_IK;
        ik->ik_target = 1;
        ik->ik_loop = 1;
        ik->ik_limit_angle = 0.01f;
        ik->ik_link_count = 1;
        ik->ik_links = mmd_model_alloc(m, 1, sizeof *ik->ik_links);
        if (!ik->ik_links)
            return mmd_model_free(m), NULL;
        ik->ik_links[0] = (mmd_ik_link){.bone = 0};
    }
    return finish(m, size);
}

uint8_t *mmd_bomb_physics(uint32_t bodies, size_t *size)
{
    mmd_model *m = mmd_model_new();
    if (!m)
        return NULL;
    m->name = m->name_en = mmd_model_str(m, "physics bomb");
    mmd_bone *b = mmd_model_add_bones(m, 1);
    mmd_rigid_body *rb = mmd_model_add_rigid_bodies(m, bodies);
    if (!b || (bodies && !rb))
        return mmd_model_free(m), NULL;
    bone(m, b, "root", 0, 10, 0, -1);
    for (uint32_t i = 0; i < bodies; i++) {
        rb[i].name = rb[i].name_en = mmd_model_str(m, "ball");
        rb[i].bone = 0;
        rb[i].shape = MMD_SHAPE_SPHERE;
        rb[i].size[0] = 1;
        rb[i].position[1] = 10;
        rb[i].mass = 1;
        rb[i].mode = MMD_BODY_PHYSICS;
        rb[i].no_collide_mask = 0xffff;
        rb[i].friction = 0.5f;
    }
    return finish(m, size);
}

uint8_t *mmd_bomb_physics_converge(uint32_t bodies, bool collide, bool pull, size_t *size)
{
    mmd_model *m = mmd_model_new();
    if (!m || !bodies)
        return mmd_model_free(m), NULL;
    m->name = m->name_en = mmd_model_str(m, "converging physics bomb");
    mmd_bone *b = mmd_model_add_bones(m, 1);
    mmd_rigid_body *rb = mmd_model_add_rigid_bodies(m, bodies + 1);
    mmd_joint *j = mmd_model_add_joints(m, bodies);
    if (!b || !rb || !j)
        return mmd_model_free(m), NULL;
    bone(m, b, "root", 0, 10, 0, -1);
    /* body 0: the anchor, following the root bone, colliding with nothing */
    rb[0].name = rb[0].name_en = mmd_model_str(m, "anchor");
    rb[0].bone = 0;
    rb[0].shape = MMD_SHAPE_SPHERE;
    rb[0].size[0] = 0.5f;
    rb[0].position[1] = 10;
    rb[0].mode = MMD_BODY_FOLLOW_BONE;
    rb[0].group = 15;
    rb[0].no_collide_mask = 0;
    /* the balls on a square grid in the plane y = 10, 3 units apart (radius 1:
     * no two touch), each locked by its joint to the anchor's place */
    uint32_t side = 1;
    while (side * side < bodies)
        side++;
    for (uint32_t i = 0; i < bodies; i++) {
        mmd_rigid_body *r = &rb[i + 1];
        r->name = r->name_en = mmd_model_str(m, "ball");
        r->bone = 0;
        r->shape = MMD_SHAPE_SPHERE;
        r->size[0] = 1;
        r->position[0] = 3.0f * ((float)(i % side) - 0.5f * (float)side);
        r->position[1] = 10;
        r->position[2] = 3.0f * ((float)(i / side) - 0.5f * (float)side);
        r->mass = 1;
        r->mode = MMD_BODY_PHYSICS;
        r->group = 0;
        r->no_collide_mask = collide ? 0xffff : 0xfffe; /* 0xfffe: the balls pass through each other */
        r->friction = 0.5f;
        j[i].name = j[i].name_en = mmd_model_str(m, "pull");
        j[i].type = MMD_JOINT_SPRING_6DOF;
        j[i].body_a = 0;
        j[i].body_b = (int32_t)i + 1;
        memcpy(j[i].position, r->position, sizeof j[i].position);
        /* the ball's centre is held at (anchor - ball) from where the joint
         * starts, i.e. on the anchor: every ball is pulled into one place */
        for (int c = 0; c < 3 && pull; c++)
            j[i].linear_lower[c] = j[i].linear_upper[c] = rb[0].position[c] - r->position[c];
    }
    return finish(m, size);
}

uint8_t *mmd_bomb_far_vmd(uint32_t frame, bool camera, size_t *size)
{
    mmd_motion *m = mmd_motion_new(camera ? "カメラ・照明" : "bomb");
    if (!m)
        return NULL;
    const float pos[3] = {0, 0, 0}, rot[4] = {0, 0, 0, 1};
    bool ok = camera ? mmd_motion_add_camera_key(m, frame) != NULL
                     : mmd_motion_add_bone_key(m, "center", frame, pos, rot) != NULL;
    uint8_t *out = NULL;
    mmd_error err;
    if (!ok || mmd_vmd_write(m, &out, size, &err) != MMD_OK)
        out = NULL;
    mmd_motion_free(m);
    return out;
}

uint8_t *mmd_bomb_xzip(uint32_t vertices, bool binary, size_t *size)
{
    uint32_t faces = vertices / 3;
    mmd_xmesh *x = mmd_x_new(vertices, faces * 3, 1);
    if (!x)
        return NULL;
    x->mesh.materials[0].index_count = faces * 3; /* every index 0, every position 0 */
    mmd_x_write_options o = {.encoding = binary ? MMD_X_BZIP : MMD_X_TZIP, .float_bits = 32};
    uint8_t *out = NULL;
    mmd_error err;
    if (mmd_x_write(x, &o, &out, size, &err) != MMD_OK)
        out = NULL;
    mmd_x_free(x);
    return out;
}
