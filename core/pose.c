/* core/pose.c - bone evaluation (DESIGN B): local transform, append
 * (付与), fixed axis, IK hook, world and skinning matrices, physics refresh. */
#include "core/anim_internal.h"


/* q turned onto the fixed axis: its angle about the axis (negated when its
 * own axis opposes the fixed one). */
static void fixed_axis(const float axis_in[3], float q[4])
{
    vec3 ax;
    glm_vec3_copy((float *)axis_in, ax);
    if (!(glm_vec3_norm(ax) > 0)) {
        aq_ident(q);
        return;
    }
    float vl = glm_vec3_norm(q), ang = 0; /* q's imaginary part */
    if (vl >= 1e-8f) {
        ang = 2.0f * atan2f(vl, q[3]);
        if (glm_vec3_dot(q, ax) < 0)
            ang = -ang;
    }
    glm_quatv(q, ang, ax);
}

/* The translation of world · T(-rest): where the skinning matrix takes the origin. */
static void skin_translation(const float *world, const float rest[3], float out[3])
{
    vec4 r; /* the rest position's image under the rotation, then t - r */
    glm_vec4_scale((float *)world, rest[0], r);
    glm_vec4_muladds((float *)world + 4, rest[1], r);
    glm_vec4_muladds((float *)world + 8, rest[2], r);
    glm_vec4_sub((float *)world + 12, r, r);
    glm_vec3_copy(r, out);
}

/* Rotation the VMD/morph stage gives the bone: morph · fixedAxis(anim). */
static void anim_rotation(const mmd_anim *a, int32_t b, float q[4])
{
    float r[4];
    memcpy(r, a->anim_rot + 4 * b, sizeof r);
    const mmd_bone *bn = &a->model->bones[b];
    if (bn->flags & MMD_BONE_FIXED_AXIS)
        fixed_axis(bn->fixed_axis, r);
    aq_mul(a->morph_rot + 4 * b, r, q);
}

/* Append (DESIGN B.3, babylon-mmd): append_rot/append_pos of b become the
 * bone's whole animated rotation/offset (own animation included), so chained
 * appends read them directly. */
static void solve_append(mmd_anim *a, int32_t b)
{
    const mmd_bone *bn = &a->model->bones[b];
    int32_t t = a->append_link[b];
    const mmd_bone *tb = &a->model->bones[t];
    float r = bn->append_ratio;
    bool local = (bn->flags & MMD_BONE_APPEND_LOCAL) != 0;
    if (bn->flags & MMD_BONE_APPEND_ROTATE) {
        float src[4], own[4], s[4];
        if (local)
            am_to_quat_scaled(a->world + 16 * t, a->place_scale, src);
        else if (a->append_link[t] >= 0 && (tb->flags & MMD_BONE_APPEND_ROTATE))
            memcpy(src, a->append_rot + 4 * t, sizeof src);
        else
            anim_rotation(a, t, src);
        if (!local && a->is_ik_link[t])
            aq_mul(a->ik_rot + 4 * t, src, src);
        if (r != 1.0f) {
            float id[4] = {0, 0, 0, 1};
            mmd_quat_slerp(id, src, r, s);
        } else {
            memcpy(s, src, sizeof s);
        }
        anim_rotation(a, b, own);
        aq_mul(own, s, a->append_rot + 4 * b);
    }
    if (bn->flags & MMD_BONE_APPEND_TRANSLATE) {
        float src[3];
        if (local) {
            /* translation part of world(t) · T(-rest(t)) */
            skin_translation(a->world + 16 * t, tb->position, src);
        } else if (a->append_link[t] >= 0 && (tb->flags & MMD_BONE_APPEND_TRANSLATE)) {
            memcpy(src, a->append_pos + 3 * t, sizeof src);
        } else {
            for (int c = 0; c < 3; c++)
                src[c] = a->anim_pos[3 * t + c] + a->morph_pos[3 * t + c];
        }
        for (int c = 0; c < 3; c++)
            a->append_pos[3 * b + c] = src[c] * r + a->anim_pos[3 * b + c] + a->morph_pos[3 * b + c];
    }
}

void mmd_anim_update_bone(mmd_anim *a, int32_t b)
{
    const mmd_bone *bn = &a->model->bones[b];
    float q[4], p[3], m[16];
    bool app = a->append_link[b] >= 0;
    if (app && (bn->flags & MMD_BONE_APPEND_ROTATE))
        memcpy(q, a->append_rot + 4 * b, sizeof q);
    else
        anim_rotation(a, b, q);
    memcpy(a->base_rot + 4 * b, q, sizeof q);
    if (a->is_ik_link[b])
        aq_mul(a->ik_rot + 4 * b, q, q);
    memcpy(a->local_rot + 4 * b, q, sizeof q);
    if (app && (bn->flags & MMD_BONE_APPEND_TRANSLATE))
        for (int c = 0; c < 3; c++)
            p[c] = a->rest_offset[3 * b + c] + a->append_pos[3 * b + c];
    else
        for (int c = 0; c < 3; c++)
            p[c] = a->rest_offset[3 * b + c] + a->anim_pos[3 * b + c] + a->morph_pos[3 * b + c];
    memcpy(a->local_pos + 3 * b, p, sizeof p);
    am_from_pq(p, q, m);
    if (bn->parent >= 0)
        am_mul(a->world + 16 * bn->parent, m, a->world + 16 * b);
    else if (a->placed) /* mmd_anim_set_placement: one more parent above the roots */
        am_mul(a->place, m, a->world + 16 * b);
    else
        memcpy(a->world + 16 * b, m, sizeof m);
    if (a->op_set[b]) { /* outside parent (world.c): parent bone world x world within the model */
        memcpy(m, a->world + 16 * b, sizeof m);
        am_mul(a->op_world + 16 * b, m, a->world + 16 * b);
    }
}

/* a->subtree from the child lists: roots first, parents before children (a
 * breadth-first list), then sizes summed from the end. Bones no root reaches
 * (a parent cycle) count themselves only. */
static mmd_status subtree_sizes(mmd_anim *a, mmd_error *err)
{
    uint32_t nb = a->nb, n = 0;
    int32_t *list = a->refresh_found; /* free until the first refresh */
    if (!ALLOC(a->subtree, nb))
        return mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory for %u bones", nb);
    for (uint32_t b = 0; b < nb; b++) {
        a->subtree[b] = 1;
        int32_t p = a->model->bones[b].parent;
        if (p < 0 || (uint32_t)p >= nb)
            list[n++] = (int32_t)b;
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t c = a->child_start[list[i]]; c < a->child_start[list[i] + 1]; c++)
            list[n++] = a->child_list[c];
    while (n-- > 0) {
        int32_t p = a->model->bones[list[n]].parent;
        if (p >= 0 && (uint32_t)p < nb)
            a->subtree[p] += a->subtree[list[n]];
    }
    return MMD_OK;
}

mmd_status mmd_anim_refresh_prepare(mmd_anim *a, mmd_error *err)
{
    uint32_t nb = a->nb;
    if (!ALLOC(a->refresh_moved, nb) || !ALLOC(a->refresh_seen, nb) || !ALLOC(a->refresh_seeds, nb) ||
        !ALLOC(a->refresh_todo, nb) || !ALLOC(a->refresh_found, nb) || !ALLOC(a->child_start, (size_t)nb + 1) ||
        !ALLOC(a->child_list, nb))
        return mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory for %u bones", nb);
    const mmd_bone *bones = a->model->bones;
    for (uint32_t b = 0; b < nb; b++) /* counts, then starts (CSR) */
        if (bones[b].parent >= 0 && (uint32_t)bones[b].parent < nb)
            a->child_start[bones[b].parent + 1]++;
    for (uint32_t b = 0; b < nb; b++)
        a->child_start[b + 1] += a->child_start[b];
    for (uint32_t b = 0; b < nb; b++) /* refresh_todo counts the children placed so far */
        if (bones[b].parent >= 0 && (uint32_t)bones[b].parent < nb) {
            int32_t p = bones[b].parent;
            a->child_list[a->child_start[p] + (uint32_t)a->refresh_todo[p]++] = (int32_t)b;
        }
    memset(a->refresh_todo, 0, nb * sizeof *a->refresh_todo);
    return subtree_sizes(a, err);
}

void mmd_anim_refresh_begin(mmd_anim *a)
{
    if (++a->refresh_gen == 0) { /* after 2^32 sets: clear once */
        memset(a->refresh_moved, 0, a->nb * sizeof *a->refresh_moved);
        memset(a->refresh_seen, 0, a->nb * sizeof *a->refresh_seen);
        a->refresh_gen = 1;
    }
    a->refresh_seed_count = 0;
}

void mmd_anim_refresh_mark(mmd_anim *a, int32_t bone)
{
    if (a->refresh_moved[bone] != a->refresh_gen) {
        a->refresh_moved[bone] = a->refresh_gen;
        a->refresh_seeds[a->refresh_seed_count++] = bone;
    }
}

static int cmp_int32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* Recompute every bone whose parent chain holds a marked bone, in evaluation
 * order, as a walk over all bones in order would: a bone is recomputed when
 * its parent moved before it in that order (then it moved too), unless it
 * moved already or physics wrote it. Only the marked bones' descendants can
 * qualify, so they are found down the child lists (each once), sorted by their
 * place in the order and tested as the full walk tests them. */
void mmd_anim_refresh_marked(mmd_anim *a)
{
    uint32_t gen = a->refresh_gen, top = 0, found = 0;
    int32_t *stack = a->refresh_todo, *pos = a->refresh_found;
    for (uint32_t i = 0; i < a->refresh_seed_count; i++) {
        int32_t s = a->refresh_seeds[i];
        if (a->refresh_seen[s] != gen) {
            a->refresh_seen[s] = gen;
            stack[top++] = s;
        }
    }
    while (top > 0) { /* each bone enters the stack once: top <= nb */
        int32_t b = stack[--top];
        for (uint32_t c = a->child_start[b]; c < a->child_start[b + 1]; c++) {
            int32_t k = a->child_list[c];
            if (a->refresh_seen[k] != gen) {
                a->refresh_seen[k] = gen;
                stack[top++] = k;
                pos[found++] = a->pos_in_order[k];
            }
        }
    }
    qsort(pos, found, sizeof *pos, cmp_int32);
    for (uint32_t i = 0; i < found; i++) {
        int32_t b = a->order[pos[i]];
        int32_t p = a->model->bones[b].parent;
        if (a->refresh_moved[b] == gen || p < 0 || a->refresh_moved[p] != gen || a->phys_written[b])
            continue;
        a->refresh_moved[b] = gen;
        if (a->append_link[b] >= 0)
            solve_append(a, b);
        mmd_anim_update_bone(a, b);
    }
}

void mmd_anim_pose_bones(mmd_anim *a, bool after_physics)
{
    uint32_t lo = after_physics ? a->n_before : 0, hi = after_physics ? a->nb : a->n_before;
    if (!after_physics) {
        for (uint32_t i = 0; i < a->nb; i++)
            if (a->is_ik_link[i])
                aq_ident(a->ik_rot + 4 * i);
        /* A parent evaluated after its child is read at rest, never from the
         * previous evaluate: frames stay independent of evaluation history
         * (DESIGN 3), so chunked renders match whole ones. */
        for (uint32_t i = 0; i < a->late_parent_count; i++) {
            int32_t b = a->late_parents[i];
            float q[4] = {0, 0, 0, 1};
            am_from_pq(a->model->bones[b].position, q, a->world + 16 * b);
        }
    }
    for (uint32_t i = lo; i < hi; i++) {
        int32_t b = a->order[i];
        if (a->phys_written[b]) /* physics owns it this frame */
            continue;
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
        const float *w = a->world + 16 * b;
        float *s = a->skinning + 16 * b;
        memcpy(s, w, 12 * sizeof *s);
        skin_translation(w, bones[b].position, s + 12);
        s[3] = s[7] = s[11] = 0, s[15] = 1;
    }
}

void mmd_anim_refresh_from(mmd_anim *a, int32_t bone)
{
    if (bone < 0 || (uint32_t)bone >= a->nb)
        return;
    a->phys_written[bone] = true;
    mmd_anim_refresh_begin(a);
    mmd_anim_refresh_mark(a, bone);
    mmd_anim_refresh_marked(a);
}
