/* tests/fuzz/fuzz_common.h - shared pieces of the fuzz targets (test harness only).
 *
 * fuzz_fixture_model(): a small valid model built in memory (bones with an IK
 *   leg, an append bone, a fixed-axis bone, BDEF1/2/4/SDEF vertices, vertex,
 *   UV, group, bone and material morphs) that fuzzed motions bind to. ASCII
 *   names so the fuzzer (and tests/fuzz/vmd.dict) can hit them.
 * fuzz_motion_for(model): a motion with keys at frames 0 and 30 for every bone
 *   and morph of a (fuzzed) model, so IK, append and morph paths run.
 * fuzz_drive_anim(): create -> evaluate(0, 17.5, last+5) -> skin -> free.
 *
 * Everything here is static: each target includes it once.
 */
#ifndef MMD_TESTS_FUZZ_COMMON_H
#define MMD_TESTS_FUZZ_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/anim.h"
#include "core/arena.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/text.h"

#define FUZZ_MAX_KEYED 256u /* bones/morphs given keys by fuzz_motion_for */

static inline void fuzz_linear_interp(uint8_t block[64])
{
    static const uint8_t lin[4] = {20, 20, 107, 107};
    for (int row = 0; row < 4; row++)
        for (int k = 0; k < 4; k++)
            for (int c = 0; c < 4; c++)
                block[16 * row + 4 * k + c] = lin[k];
}

static inline void fuzz_bone(mmd_bone *b, mmd_arena *a, const char *name, float x, float y, float z,
                      int32_t parent)
{
    b->name = mmd_arena_strdup(a, name);
    b->name_en = mmd_arena_strdup(a, "");
    b->position[0] = x, b->position[1] = y, b->position[2] = z;
    b->parent = parent;
    b->flags = MMD_BONE_ROTATABLE | MMD_BONE_MOVABLE | MMD_BONE_VISIBLE | MMD_BONE_OPERABLE;
    b->tail_bone = -1;
    b->append_parent = -1;
    b->ik_target = -1;
}

static inline char *fuzz_empty(mmd_arena *a) { return mmd_arena_strdup(a, ""); }

/* Built once, kept for the life of the process (reachable: no leak report). */
static inline mmd_model *fuzz_fixture_model(void)
{
    static mmd_model *cached;
    if (cached)
        return cached;
    mmd_arena *a = mmd_arena_create();
    if (!a)
        abort();
    mmd_model *m = mmd_arena_alloc(a, sizeof *m);
    m->arena = a;
    m->format = MMD_FORMAT_PMX;
    m->version = 2.0f;
    m->encoding = MMD_ENC_UTF8;
    for (int i = 0; i < 6; i++)
        m->index_size[i] = 4;
    m->name = mmd_arena_strdup(a, "fuzz");
    m->name_en = fuzz_empty(a);
    m->comment = fuzz_empty(a);
    m->comment_en = fuzz_empty(a);

    /* Bones: 0 center, 1 upper, 2 head, 3 eye (append head x0.5), 4 leg,
     * 5 knee (IK link, X limit), 6 ankle, 7 leg_ik, 8 arm_twist (fixed axis). */
    m->bone_count = 9;
    m->bones = mmd_arena_array(a, m->bone_count, sizeof *m->bones);
    mmd_bone *b = m->bones;
    fuzz_bone(&b[0], a, "center", 0, 8, 0, -1);
    fuzz_bone(&b[1], a, "upper", 0, 10, 0, 0);
    fuzz_bone(&b[2], a, "head", 0, 15, 0, 1);
    fuzz_bone(&b[3], a, "eye", 0, 16, -1, 2);
    b[3].flags |= MMD_BONE_APPEND_ROTATE;
    b[3].append_parent = 2;
    b[3].append_ratio = 0.5f;
    fuzz_bone(&b[4], a, "leg", 1, 8, 0, 0);
    fuzz_bone(&b[5], a, "knee", 1, 4, 0, 4);
    fuzz_bone(&b[6], a, "ankle", 1, 1, 0, 5);
    fuzz_bone(&b[7], a, "leg_ik", 1, 1, 0, -1);
    b[7].flags |= MMD_BONE_IK;
    b[7].ik_target = 6;
    b[7].ik_loop = 40;
    b[7].ik_limit_angle = 2.0f;
    b[7].ik_link_count = 2;
    b[7].ik_links = mmd_arena_array(a, 2, sizeof *b[7].ik_links);
    b[7].ik_links[0] = (mmd_ik_link){.bone = 5, .has_limit = true,
                                     .lower = {-3.14159f, 0, 0}, .upper = {-0.008727f, 0, 0}};
    b[7].ik_links[1] = (mmd_ik_link){.bone = 4};
    fuzz_bone(&b[8], a, "arm_twist", 2, 12, 0, 1);
    b[8].flags |= MMD_BONE_FIXED_AXIS;
    b[8].fixed_axis[0] = 1;

    /* Vertices: two per deforming bone, weight types cycling. */
    m->vertex_count = 12;
    m->vertices = mmd_arena_array(a, m->vertex_count, sizeof *m->vertices);
    static const int vb[12] = {0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 8, 8};
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        mmd_vertex *v = &m->vertices[i];
        const mmd_bone *bb = &b[vb[i]];
        v->position[0] = bb->position[0] + (i & 1 ? 0.5f : -0.5f);
        v->position[1] = bb->position[1];
        v->position[2] = bb->position[2];
        v->normal[2] = -1;
        v->uv[0] = (float)(i & 1), v->uv[1] = (float)i / 12.0f;
        v->edge_scale = 1;
        for (int k = 0; k < 4; k++)
            v->bones[k] = -1;
        int next = vb[(i + 2) % 12];
        switch (i % 4) {
        case 0:
            v->weight_type = MMD_WEIGHT_BDEF1;
            v->bones[0] = vb[i], v->weights[0] = 1;
            break;
        case 1:
            v->weight_type = MMD_WEIGHT_BDEF2;
            v->bones[0] = vb[i], v->bones[1] = next;
            v->weights[0] = 0.75f, v->weights[1] = 0.25f;
            break;
        case 2:
            v->weight_type = MMD_WEIGHT_BDEF4;
            for (int k = 0; k < 4; k++)
                v->bones[k] = vb[(i + (unsigned)k) % 12], v->weights[k] = 0.25f;
            break;
        default:
            v->weight_type = MMD_WEIGHT_SDEF;
            v->bones[0] = vb[i], v->bones[1] = next;
            v->weights[0] = 0.5f, v->weights[1] = 0.5f;
            memcpy(v->sdef_c, v->position, sizeof v->sdef_c);
            memcpy(v->sdef_r0, v->position, sizeof v->sdef_r0);
            memcpy(v->sdef_r1, v->position, sizeof v->sdef_r1);
            v->sdef_r1[1] += 1;
            break;
        }
    }
    m->index_count = 12;
    m->indices = mmd_arena_array(a, m->index_count, sizeof *m->indices);
    for (uint32_t i = 0; i < m->index_count; i++)
        m->indices[i] = (i * 5u) % m->vertex_count;

    m->material_count = 2;
    m->materials = mmd_arena_array(a, 2, sizeof *m->materials);
    for (int i = 0; i < 2; i++) {
        mmd_material *mt = &m->materials[i];
        mt->name = mmd_arena_strdup(a, i ? "skin" : "hair");
        mt->name_en = fuzz_empty(a);
        mt->memo = fuzz_empty(a);
        for (int k = 0; k < 4; k++)
            mt->diffuse[k] = 0.8f, mt->edge_color[k] = k == 3 ? 1.0f : 0.0f;
        mt->specular_power = 5;
        mt->ambient[0] = mt->ambient[1] = mt->ambient[2] = 0.5f;
        mt->flags = MMD_MAT_EDGE | MMD_MAT_CAST_SHADOW;
        mt->edge_size = 1;
        mt->texture = mt->sphere_texture = mt->toon = -1;
        mt->index_count = 6;
    }

    /* Morphs: 0 mouth_a (vertex), 1 blink (UV), 2 smile (group of 0,1),
     * 3 nod (bone), 4 pale (material, all). */
    m->morph_count = 5;
    m->morphs = mmd_arena_array(a, 5, sizeof *m->morphs);
    mmd_morph *mo = m->morphs;
    static const char *const mnames[5] = {"mouth_a", "blink", "smile", "nod", "pale"};
    static const uint8_t mtypes[5] = {MMD_MORPH_VERTEX, MMD_MORPH_UV, MMD_MORPH_GROUP,
                                      MMD_MORPH_BONE, MMD_MORPH_MATERIAL};
    for (int i = 0; i < 5; i++) {
        mo[i].name = mmd_arena_strdup(a, mnames[i]);
        mo[i].name_en = fuzz_empty(a);
        mo[i].panel = 4;
        mo[i].type = mtypes[i];
        mo[i].offset_count = 2;
    }
    mo[0].u.vertex = mmd_arena_array(a, 2, sizeof *mo[0].u.vertex);
    mo[0].u.vertex[0] = (mmd_morph_vertex){.vertex = 0, .offset = {0, 1, 0}};
    mo[0].u.vertex[1] = (mmd_morph_vertex){.vertex = 7, .offset = {0, 0, 1}};
    mo[1].u.uv = mmd_arena_array(a, 2, sizeof *mo[1].u.uv);
    mo[1].u.uv[0] = (mmd_morph_uv){.vertex = 3, .offset = {0.5f, 0, 0, 0}};
    mo[1].u.uv[1] = (mmd_morph_uv){.vertex = 11, .offset = {0, 0.5f, 0, 0}};
    mo[2].u.group = mmd_arena_array(a, 2, sizeof *mo[2].u.group);
    mo[2].u.group[0] = (mmd_morph_group){.morph = 0, .weight = 0.5f};
    mo[2].u.group[1] = (mmd_morph_group){.morph = 1, .weight = 1.0f};
    mo[3].offset_count = 1;
    mo[3].u.bone = mmd_arena_array(a, 1, sizeof *mo[3].u.bone);
    mo[3].u.bone[0] = (mmd_morph_bone){.bone = 2, .translation = {0, 0.5f, 0},
                                       .rotation = {0.258819f, 0, 0, 0.965926f}};
    mo[4].offset_count = 1;
    mo[4].u.material = mmd_arena_array(a, 1, sizeof *mo[4].u.material);
    mmd_morph_material *mm = &mo[4].u.material[0];
    mm->material = -1;
    mm->op = 0;
    for (int k = 0; k < 4; k++)
        mm->diffuse[k] = 0.5f, mm->edge_color[k] = 1, mm->texture_tint[k] = 1,
        mm->sphere_tint[k] = 1, mm->toon_tint[k] = 1;
    for (int k = 0; k < 3; k++)
        mm->specular[k] = 1, mm->ambient[k] = 1;
    mm->specular_power = 1;
    mm->edge_size = 1;

    mmd_error err;
    if (mmd_model_validate(m, &err) != MMD_OK)
        abort(); /* the fixture itself is wrong: fix this file */
    cached = m;
    return m;
}

/* Keys for the first FUZZ_MAX_KEYED bones and morphs of m: rest at frame 0,
 * a turn + shift at frame 30, morph weight 0 -> 1; one property key. The
 * motion lives in its own arena: release with mmd_arena_destroy(mo->arena). NULL on OOM. */
static inline mmd_motion *fuzz_motion_for(const mmd_model *m)
{
    mmd_arena *a = mmd_arena_create();
    mmd_text *t = mmd_text_create();
    if (!a || !t) {
        mmd_arena_destroy(a);
        mmd_text_destroy(t);
        return NULL;
    }
    mmd_motion *mo = mmd_arena_alloc(a, sizeof *mo);
    mo->arena = a;
    mo->format = MMD_MOTION_VMD;
    mo->version = 2;
    mo->model_name = mmd_arena_strdup(a, m->name ? m->name : "");
    uint32_t nb = m->bone_count < FUZZ_MAX_KEYED ? m->bone_count : FUZZ_MAX_KEYED;
    uint32_t nm = m->morph_count < FUZZ_MAX_KEYED ? m->morph_count : FUZZ_MAX_KEYED;
    mo->bone_keys = mmd_arena_array(a, (size_t)nb * 2, sizeof *mo->bone_keys);
    mo->morph_keys = mmd_arena_array(a, (size_t)nm * 2, sizeof *mo->morph_keys);
    mo->property_keys = mmd_arena_array(a, 1, sizeof *mo->property_keys);
    if (!mo->bone_keys || !mo->morph_keys || !mo->property_keys) {
        mmd_text_destroy(t);
        mmd_arena_destroy(a);
        return NULL;
    }
    for (uint32_t i = 0; i < nb; i++) {
        for (int k = 0; k < 2; k++) {
            mmd_bone_key *bk = &mo->bone_keys[mo->bone_key_count++];
            bk->name = m->bones[i].name;
            mmd_text_to_sjis(t, m->bones[i].name ? m->bones[i].name : "", bk->raw_name, 15);
            bk->frame = k ? 30u : 0u;
            bk->rotation[3] = 1;
            if (k) {
                float ang = 0.3f + 0.1f * (float)(i % 7);
                bk->rotation[0] = sinf(ang / 2);
                bk->rotation[3] = cosf(ang / 2);
                bk->position[1] = (i % 3) ? 0.0f : 1.5f;
                bk->position[2] = (i % 5) ? 0.0f : -2.0f;
            }
            fuzz_linear_interp(bk->interp);
        }
    }
    for (uint32_t i = 0; i < nm; i++) {
        for (int k = 0; k < 2; k++) {
            mmd_morph_key *mk = &mo->morph_keys[mo->morph_key_count++];
            mk->name = m->morphs[i].name;
            mmd_text_to_sjis(t, m->morphs[i].name ? m->morphs[i].name : "", mk->raw_name, 15);
            mk->frame = k ? 30u : 0u;
            mk->weight = k ? 1.0f : 0.0f;
        }
    }
    mo->property_key_count = 1;
    mo->property_keys[0].visible = true;
    mo->last_frame = 30;
    mmd_text_destroy(t);
    return mo;
}

/* The animation path every model/motion target runs after a successful load. */
static inline void fuzz_drive_anim(const mmd_model *m, const mmd_motion *const *motions, size_t n)
{
    mmd_anim *anim = NULL;
    mmd_error err;
    if (mmd_anim_create(m, motions, n, &anim, &err) != MMD_OK)
        return;
    float *pos = malloc((size_t)(m->vertex_count ? m->vertex_count : 1) * 3 * sizeof(float));
    float *nrm = malloc((size_t)(m->vertex_count ? m->vertex_count : 1) * 3 * sizeof(float));
    const double times[3] = {0.0, 17.5, (double)mmd_anim_last_frame(anim) + 5.0};
    volatile float sink = 0;
    for (int i = 0; i < 3; i++) {
        mmd_anim_evaluate(anim, times[i]);
        if (pos && nrm && m->vertex_count) {
            mmd_anim_skin(anim, 0, m->vertex_count, pos, nrm);
            sink += pos[0] + nrm[3 * (m->vertex_count - 1)];
        }
        const float *w = mmd_anim_world(anim);
        if (w && m->bone_count)
            sink += w[16 * (m->bone_count - 1) + 12];
        const mmd_material_state *ms = mmd_anim_materials(anim);
        if (ms && m->material_count)
            sink += ms[m->material_count - 1].diffuse[3];
        const float *uv = mmd_anim_uvs(anim);
        if (uv && m->vertex_count)
            sink += uv[2 * m->vertex_count - 1];
        sink += mmd_anim_visible(anim) ? 1.0f : 0.0f;
    }
    for (size_t i = 0; i < mmd_anim_unbound_count(anim); i++)
        sink += (float)strlen(mmd_anim_unbound_name(anim, i));
    (void)sink;
    free(pos);
    free(nrm);
    mmd_anim_free(anim);
}

#endif
