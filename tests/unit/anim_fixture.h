/* tests/unit/anim_fixture.h - hand-built models and motions for the anim
 * tests (header-only; included by test_pose/ik/morph/skin/interp). */
#ifndef MMD_TEST_ANIM_FIXTURE_H
#define MMD_TEST_ANIM_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/anim.h"
#include "core/arena.h"

/* A model with n bones, each a child of the previous, spaced along +Y. */
static inline mmd_model *fx_model(int nbones, int nverts, int nmorphs, int nmats)
{
    mmd_arena *ar = mmd_arena_create();
    mmd_model *m = mmd_arena_alloc(ar, sizeof *m);
    m->arena = ar;
    m->format = MMD_FORMAT_PMX;
    m->version = 2.0f;
    m->bone_count = (uint32_t)nbones;
    m->bones = mmd_arena_array(ar, (size_t)(nbones ? nbones : 1), sizeof *m->bones);
    for (int i = 0; i < nbones; i++) {
        mmd_bone *b = &m->bones[i];
        char nm[16];
        snprintf(nm, sizeof nm, "b%d", i);
        b->name = mmd_arena_strdup(ar, nm);
        b->name_en = mmd_arena_strdup(ar, "");
        b->parent = i - 1;
        b->position[1] = (float)i;
        b->flags = MMD_BONE_ROTATABLE | MMD_BONE_MOVABLE | MMD_BONE_VISIBLE | MMD_BONE_OPERABLE;
        b->append_parent = -1;
        b->ik_target = -1;
        b->tail_bone = -1;
    }
    m->vertex_count = (uint32_t)nverts;
    m->vertices = mmd_arena_array(ar, (size_t)(nverts ? nverts : 1), sizeof *m->vertices);
    for (int i = 0; i < nverts; i++) {
        mmd_vertex *v = &m->vertices[i];
        v->normal[2] = -1;
        v->bones[0] = 0, v->bones[1] = v->bones[2] = v->bones[3] = -1;
        v->weights[0] = 1;
        v->edge_scale = 1;
    }
    m->morph_count = (uint32_t)nmorphs;
    m->morphs = mmd_arena_array(ar, (size_t)(nmorphs ? nmorphs : 1), sizeof *m->morphs);
    for (int i = 0; i < nmorphs; i++) {
        char nm[16];
        snprintf(nm, sizeof nm, "m%d", i);
        m->morphs[i].name = mmd_arena_strdup(ar, nm);
        m->morphs[i].name_en = mmd_arena_strdup(ar, "");
    }
    m->material_count = (uint32_t)nmats;
    m->materials = mmd_arena_array(ar, (size_t)(nmats ? nmats : 1), sizeof *m->materials);
    for (int i = 0; i < nmats; i++) {
        mmd_material *mt = &m->materials[i];
        mt->name = mmd_arena_strdup(ar, "mat");
        for (int c = 0; c < 4; c++)
            mt->diffuse[c] = 0.5f, mt->edge_color[c] = 0.25f;
        for (int c = 0; c < 3; c++)
            mt->specular[c] = 0.1f, mt->ambient[c] = 0.2f;
        mt->specular_power = 5;
        mt->edge_size = 1;
        mt->texture = mt->sphere_texture = mt->toon = -1;
    }
    return m;
}

static inline mmd_motion *fx_motion(int nbone_keys, int nmorph_keys)
{
    mmd_arena *ar = mmd_arena_create();
    mmd_motion *mo = mmd_arena_alloc(ar, sizeof *mo);
    mo->arena = ar;
    mo->version = 2;
    mo->model_name = mmd_arena_strdup(ar, "");
    mo->bone_key_count = (uint32_t)nbone_keys;
    mo->bone_keys = mmd_arena_array(ar, (size_t)(nbone_keys ? nbone_keys : 1), sizeof *mo->bone_keys);
    mo->morph_key_count = (uint32_t)nmorph_keys;
    mo->morph_keys = mmd_arena_array(ar, (size_t)(nmorph_keys ? nmorph_keys : 1), sizeof *mo->morph_keys);
    return mo;
}

static inline void fx_linear_interp(uint8_t in[64])
{
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            in[16 * r + c] = 20, in[16 * r + 4 + c] = 20, in[16 * r + 8 + c] = 107, in[16 * r + 12 + c] = 107;
        }
}

/* Key for bone name (ASCII) at frame with position and rotation, linear curves. */
static inline void fx_bone_key(mmd_motion *mo, int i, const char *name, uint32_t frame, const float pos[3],
                               const float rot[4])
{
    mmd_bone_key *k = &mo->bone_keys[i];
    k->name = mmd_arena_strdup(mo->arena, name);
    memset(k->raw_name, 0, sizeof k->raw_name);
    memcpy(k->raw_name, name, strlen(name) < 15 ? strlen(name) : 15);
    k->frame = frame;
    memcpy(k->position, pos, sizeof k->position);
    memcpy(k->rotation, rot, sizeof k->rotation);
    fx_linear_interp(k->interp);
}

static inline void fx_morph_key(mmd_motion *mo, int i, const char *name, uint32_t frame, float w)
{
    mmd_morph_key *k = &mo->morph_keys[i];
    k->name = mmd_arena_strdup(mo->arena, name);
    memset(k->raw_name, 0, sizeof k->raw_name);
    memcpy(k->raw_name, name, strlen(name) < 15 ? strlen(name) : 15);
    k->frame = frame;
    k->weight = w;
}

static inline void fx_free_model(mmd_model *m) { mmd_arena_destroy(m->arena); }
static inline void fx_free_motion(mmd_motion *m) { mmd_arena_destroy(m->arena); }

/* quaternion about a unit axis */
static inline void fx_quat(float x, float y, float z, float ang, float q[4])
{
    float s = sinf(ang / 2);
    q[0] = x * s, q[1] = y * s, q[2] = z * s, q[3] = cosf(ang / 2);
}

#endif
