/* core/pose.c - bone evaluation (DESIGN B): local transform, append
 * (付与), fixed axis, IK hook, world and skinning matrices, physics refresh. */
#include "core/anim_internal.h"

/* IK solver (ik.c). */
void mmd_anim_solve_ik(mmd_anim *a, int32_t ik_bone);

static void fixed_axis(const float axis_in[3], float q[4])
{
    float ax[3] = {axis_in[0], axis_in[1], axis_in[2]};
    float l = sqrtf(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
    if (!(l > 0))
        return;
    ax[0] /= l, ax[1] /= l, ax[2] /= l;
    /* axis-angle of q, angle flipped when the axis opposes the fixed one */
    float w = q[3] < -1 ? -1 : q[3] > 1 ? 1 : q[3];
    float ang = 2.0f * acosf(w);
    float s = sqrtf(1 - w * w);
    float dot = s > 1e-6f ? (q[0] * ax[0] + q[1] * ax[1] + q[2] * ax[2]) / s : 1.0f;
    if (dot < 0)
        ang = -ang;
    float h = 0.5f * ang, sh = sinf(h);
    q[0] = ax[0] * sh, q[1] = ax[1] * sh, q[2] = ax[2] * sh, q[3] = cosf(h);
}

/* Rotation the VMD/morph stage gives the bone: morph · anim (fixed axis applied). */
static void anim_rotation(const mmd_anim *a, int32_t b, float q[4])
{
    aq_mul(a->morph_rot + 4 * b, a->anim_rot + 4 * b, q);
    const mmd_bone *bn = &a->model->bones[b];
    if (bn->flags & MMD_BONE_FIXED_AXIS)
        fixed_axis(bn->fixed_axis, q);
}

/* Append (DESIGN B.3): fills append_rot/append_pos of b. */
static void solve_append(mmd_anim *a, int32_t b)
{
    const mmd_bone *bn = &a->model->bones[b];
    int32_t t = a->append_link[b];
    float r = bn->append_ratio;
    if (bn->flags & MMD_BONE_APPEND_ROTATE) {
        float src[4];
        if (bn->flags & MMD_BONE_APPEND_LOCAL)
            am_to_quat(a->world + 16 * t, src);
        else if (a->append_link[t] >= 0 && (a->model->bones[t].flags & MMD_BONE_APPEND_ROTATE))
            memcpy(src, a->append_rot + 4 * t, sizeof src);
        else
            anim_rotation(a, t, src);
        if (a->is_ik_link[t])
            aq_mul(a->ik_rot + 4 * t, src, src);
        float id[4] = {0, 0, 0, 1};
        mmd_quat_slerp(id, src, r, a->append_rot + 4 * b);
    }
    if (bn->flags & MMD_BONE_APPEND_TRANSLATE) {
        float src[3];
        if (bn->flags & MMD_BONE_APPEND_LOCAL) {
            /* translation part of world(t) · T(-rest(t)) */
            const float *w = a->world + 16 * t, *p = a->model->bones[t].position;
            for (int c = 0; c < 3; c++)
                src[c] = w[12 + c] - (w[c] * p[0] + w[4 + c] * p[1] + w[8 + c] * p[2]);
        } else if (a->append_link[t] >= 0 && (a->model->bones[t].flags & MMD_BONE_APPEND_TRANSLATE)) {
            memcpy(src, a->append_pos + 3 * t, sizeof src);
        } else {
            for (int c = 0; c < 3; c++)
                src[c] = a->anim_pos[3 * t + c] + a->morph_pos[3 * t + c];
        }
        for (int c = 0; c < 3; c++)
            a->append_pos[3 * b + c] = src[c] * r;
    }
}

void mmd_anim_update_bone(mmd_anim *a, int32_t b)
{
    const mmd_bone *bn = &a->model->bones[b];
    float q[4], p[3], m[16];
    anim_rotation(a, b, q);
    if (a->append_link[b] >= 0 && (bn->flags & MMD_BONE_APPEND_ROTATE))
        aq_mul(q, a->append_rot + 4 * b, q);
    if (a->is_ik_link[b])
        aq_mul(a->ik_rot + 4 * b, q, q);
    memcpy(a->local_rot + 4 * b, q, sizeof q);
    for (int c = 0; c < 3; c++)
        p[c] = a->rest_offset[3 * b + c] + a->anim_pos[3 * b + c] + a->morph_pos[3 * b + c];
    if (a->append_link[b] >= 0 && (bn->flags & MMD_BONE_APPEND_TRANSLATE))
        for (int c = 0; c < 3; c++)
            p[c] += a->append_pos[3 * b + c];
    am_from_pq(p, q, m);
    if (bn->parent >= 0)
        am_mul(a->world + 16 * bn->parent, m, a->world + 16 * b);
    else
        memcpy(a->world + 16 * b, m, sizeof m);
}

void mmd_anim_pose_bones(mmd_anim *a, bool after_physics)
{
    uint32_t lo = after_physics ? a->n_before : 0, hi = after_physics ? a->nb : a->n_before;
    if (!after_physics)
        for (uint32_t i = 0; i < a->nb; i++)
            if (a->is_ik_link[i])
                aq_ident(a->ik_rot + 4 * i);
    for (uint32_t i = lo; i < hi; i++) {
        int32_t b = a->order[i];
        if (a->append_link[b] >= 0)
            solve_append(a, b);
        mmd_anim_update_bone(a, b);
        if (a->ik_slot[b] >= 0 && a->ik_enabled[b])
            mmd_anim_solve_ik(a, b);
    }
}

void mmd_anim_build_skinning(mmd_anim *a)
{
    const mmd_bone *bones = a->model->bones;
    for (uint32_t b = 0; b < a->nb; b++) {
        const float *w = a->world + 16 * b, *p = bones[b].position;
        float *s = a->skinning + 16 * b;
        memcpy(s, w, 12 * sizeof *s);
        for (int c = 0; c < 3; c++)
            s[12 + c] = w[12 + c] - (w[c] * p[0] + w[4 + c] * p[1] + w[8 + c] * p[2]);
        s[3] = s[7] = s[11] = 0, s[15] = 1;
    }
}

void mmd_anim_refresh_from(mmd_anim *a, int32_t bone)
{
    if (bone < 0 || (uint32_t)bone >= a->nb)
        return;
    a->phys_written[bone] = true;
    /* descendants in evaluation order: a bone follows when its parent moved */
    bool *moved = a->refresh_mark;
    memset(moved, 0, a->nb * sizeof *moved);
    moved[bone] = true;
    for (uint32_t i = 0; i < a->nb; i++) {
        int32_t b = a->order[i];
        int32_t p = a->model->bones[b].parent;
        if (b == bone || p < 0 || !moved[p] || a->phys_written[b])
            continue;
        moved[b] = true;
        float p3[3], m[16];
        const float *q = a->local_rot + 4 * b;
        for (int c = 0; c < 3; c++)
            p3[c] = a->rest_offset[3 * b + c] + a->anim_pos[3 * b + c] + a->morph_pos[3 * b + c] +
                    ((a->append_link[b] >= 0 && (a->model->bones[b].flags & MMD_BONE_APPEND_TRANSLATE))
                         ? a->append_pos[3 * b + c] : 0.0f);
        am_from_pq(p3, q, m);
        am_mul(a->world + 16 * p, m, a->world + 16 * b);
    }
}
