/* core/pmm_motion.c - project keys as VMD-shaped motions (see pmm.h). */
#include <string.h>

#include "core/motion.h"
#include "core/pmm.h"
#include "core/vmd_write.h"

static bool neutral_bone(const mmd_pmm_bone *b)
{
    const mmd_pmm_bone_key *k = &b->keys[0];
    return b->key_count == 1 && !k->physics_off && k->position[0] == 0 && k->position[1] == 0 &&
           k->position[2] == 0 && k->rotation[0] == 0 && k->rotation[1] == 0 && k->rotation[2] == 0 &&
           k->rotation[3] == 1;
}

static bool neutral_model_keys(const mmd_pmm_model *m)
{
    if (m->key_count != 1 || !m->keys[0].visible)
        return false;
    for (uint32_t i = 0; i < m->ik_count; i++)
        if (m->keys[0].ik_enabled && !m->keys[0].ik_enabled[i])
            return false;
    return true;
}

static bool add_bones(mmd_motion *mo, const mmd_pmm_model *m)
{
    for (uint32_t b = 0; b < m->bone_count; b++) {
        const mmd_pmm_bone *bone = &m->bones[b];
        if (neutral_bone(bone))
            continue;
        for (uint32_t i = 0; i < bone->key_count; i++) {
            const mmd_pmm_bone_key *pk = &bone->keys[i];
            mmd_bone_key *k = mmd_motion_add_bone_key(mo, bone->name, pk->frame, pk->position, pk->rotation);
            if (!k)
                return false;
            for (int c = 0; c < 4; c++)
                mmd_vmd_set_bone_curve(k->interp, c, pk->interp[4 * c], pk->interp[4 * c + 1],
                                       pk->interp[4 * c + 2], pk->interp[4 * c + 3]);
            if (pk->physics_off) {
                k->interp[2] = 0x63; /* DESIGN A.2: MMD's per-key physics-off marker */
                k->interp[3] = 0x0F;
            }
        }
    }
    return true;
}

static bool add_morphs_and_properties(mmd_motion *mo, const mmd_pmm_model *m)
{
    for (uint32_t i = 0; i < m->morph_count; i++) {
        const mmd_pmm_morph *x = &m->morphs[i];
        if (x->key_count == 1 && x->keys[0].weight == 0)
            continue;
        for (uint32_t k = 0; k < x->key_count; k++)
            if (!mmd_motion_add_morph_key(mo, x->name, x->keys[k].frame, x->keys[k].weight))
                return false;
    }
    if (neutral_model_keys(m))
        return true;
    const char *names[256];
    uint32_t n = m->ik_count < 256 ? m->ik_count : 256;
    for (uint32_t i = 0; i < n; i++)
        names[i] = m->bones[m->ik_bones[i]].name;
    for (uint32_t k = 0; k < m->key_count; k++)
        if (!mmd_motion_add_property_key(mo, m->keys[k].frame, m->keys[k].visible, names,
                                         m->keys[k].ik_enabled, n))
            return false;
    return true;
}

mmd_status mmd_pmm_model_motion(const mmd_pmm *p, uint32_t model, mmd_motion **out, mmd_error *err)
{
    if (model >= p->model_count)
        return mmd_error_set(err, MMD_E_BAD_INDEX, "pmm.model", model, -1, "no model %u", model);
    const mmd_pmm_model *m = &p->models[model];
    mmd_motion *mo = mmd_motion_new(m->name);
    if (!mo || !add_bones(mo, m) || !add_morphs_and_properties(mo, m)) {
        mmd_motion_free(mo);
        return mmd_error_set(err, MMD_E_NOMEM, "pmm.model", model, -1, "motion of '%s'", m->name);
    }
    *out = mo;
    return MMD_OK;
}

static bool add_camera(mmd_motion *mo, const mmd_pmm *p)
{
    for (uint32_t i = 0; i < p->camera_key_count; i++) {
        const mmd_pmm_camera_key *pk = &p->camera_keys[i];
        mmd_camera_key *k = mmd_motion_add_camera_key(mo, pk->frame);
        if (!k)
            return false;
        k->distance = pk->distance;
        memcpy(k->target, pk->target, sizeof k->target);
        memcpy(k->rotation, pk->rotation, sizeof k->rotation);
        k->fov = pk->fov < 0 ? 0 : (uint32_t)pk->fov;
        k->perspective = pk->perspective ? 0 : 1;
        for (int c = 0; c < 6; c++)
            mmd_vmd_set_camera_curve(k->interp, c, pk->interp[4 * c], pk->interp[4 * c + 1],
                                     pk->interp[4 * c + 2], pk->interp[4 * c + 3]);
    }
    for (uint32_t i = 0; i < p->light_key_count; i++)
        if (!mmd_motion_add_light_key(mo, p->light_keys[i].frame, p->light_keys[i].color, p->light_keys[i].direction))
            return false;
    for (uint32_t i = 0; i < p->shadow_key_count; i++) {
        const mmd_pmm_shadow_key *s = &p->shadow_keys[i];
        uint8_t mode = p->self_shadow ? s->mode : 0;
        if (!mmd_motion_add_shadow_key(mo, s->frame, mode, s->distance))
            return false;
    }
    return true;
}

mmd_status mmd_pmm_camera_motion(const mmd_pmm *p, mmd_motion **out, mmd_error *err)
{
    /* MMD names a camera/light VMD's model "カメラ・照明". */
    mmd_motion *mo = mmd_motion_new("\xe3\x82\xab\xe3\x83\xa1\xe3\x83\xa9\xe3\x83\xbb\xe7\x85\xa7\xe6\x98\x8e");
    if (!mo || !add_camera(mo, p)) {
        mmd_motion_free(mo);
        return mmd_error_set(err, MMD_E_NOMEM, "pmm.camera", -1, -1, "camera motion");
    }
    *out = mo;
    return MMD_OK;
}
