/* core/ik.c - CCD IK, the babylon-mmd/nanoem variant (DESIGN B.4):
 * unit angle x (j+1), single-axis snapping during the first half of the
 * iterations, Euler limits (YXZ / ZYX / XZY chosen from the limits) with a
 * +-88 degree asin clamp and reflection. Float maths from cglm, as MMD's
 * own (D3DX) is float. */
#include "core/anim_internal.h"

enum { AX_NONE, AX_FIXED, AX_X, AX_Y, AX_Z };
enum { ORD_YXZ, ORD_ZYX, ORD_XZY };

typedef struct anim_ik_link {
    int32_t bone;
    bool limited;
    uint8_t axis, order;
    float lo[3], hi[3];
} anim_ik_link;

typedef struct anim_ik {
    int32_t bone, target;
    int32_t iterations;
    float unit_angle;
    anim_ik_link *links;
    uint32_t link_count;
    int32_t *path;           /* root-most link .. target, parent order */
    uint32_t path_count;
    int32_t *offchain;       /* links not on path (malformed chains), updated after it */
    uint32_t offchain_count;
    bool refresh;            /* recompute the chain's descendants after solving (see cap_refresh) */
} anim_ik;

/* Bone updates one iteration of chain k costs: each link step re-evaluates
 * the path and the off-chain links. */
static uint64_t iteration_work(const anim_ik *k)
{
    return (uint64_t)k->link_count * ((uint64_t)k->path_count + k->offchain_count);
}

/* The work bound (links x loops x chains, counted in bone updates): when the
 * model's chains would exceed MMD_IK_MAX_WORK per frame, every chain's loop
 * count is scaled down by the same factor (at least one loop while budget is
 * left, none after it), in chain order so the result is deterministic. Real
 * models use a few thousand updates a frame; a 1,024-link chain with 256
 * loops asks for 2^28. */
static void cap_ik_work(mmd_anim *a)
{
    uint64_t total = 0;
    for (uint32_t s = 0; s < a->ik_count; s++)
        total += (uint64_t)a->ik[s].iterations * iteration_work(&a->ik[s]);
    a->ik_work_wanted = total;
    if (total <= MMD_IK_MAX_WORK) {
        a->ik_work = total;
        return;
    }
    uint64_t left = MMD_IK_MAX_WORK;
    for (uint32_t s = 0; s < a->ik_count; s++) {
        anim_ik *k = &a->ik[s];
        uint64_t w = iteration_work(k);
        if (!k->iterations || !w)
            continue;
        uint64_t want = (uint64_t)((double)k->iterations * MMD_IK_MAX_WORK / (double)total);
        if (want < 1)
            want = 1;
        if (want * w > left)
            want = left / w;
        if (want < (uint64_t)k->iterations)
            a->ik_capped++;
        k->iterations = (int32_t)want;
        left -= want * w;
    }
    a->ik_work = MMD_IK_MAX_WORK - left;
}

/* Bones the descendant refresh after chain k can recompute at most: the
 * subtree of its root-most path bone (the whole path lies in it) and those of
 * its off-path links. */
static uint64_t refresh_work(const mmd_anim *a, const anim_ik *k)
{
    uint64_t w = k->path_count ? a->subtree[k->path[0]] : 0;
    for (uint32_t j = 0; j < k->offchain_count; j++)
        w += a->subtree[k->offchain[j]];
    return w;
}

/* The descendant refreshes count against MMD_IK_MAX_WORK too (a budget of
 * their own): thousands of chains each over thousands of descendants would
 * ask for 10^9 bone updates a frame. Chains past it, in chain order, solve
 * without refreshing descendants evaluated before them (those after are
 * evaluated anyway); mmd_anim_ik_refresh_capped counts them. Real models ask
 * for a few hundred. */
static void cap_refresh(mmd_anim *a)
{
    uint64_t used = 0;
    for (uint32_t s = 0; s < a->ik_count; s++) {
        anim_ik *k = &a->ik[s];
        uint64_t w = refresh_work(a, k);
        k->refresh = used + w <= MMD_IK_MAX_WORK;
        if (k->refresh)
            used += w;
        else
            a->ik_refresh_capped++;
    }
}

/* k's path: the ancestors of its target up to its root-most link, root-most first, sized to
 * them (counted first: one array of every bone per chain made 21,845 chains of a 65,535-bone
 * model ask for 5.7 GB). False when out of memory. */
static bool ik_path(mmd_anim *a, anim_ik *k)
{
    const mmd_model *m = a->model;
    int32_t top = k->link_count ? k->links[k->link_count - 1].bone : -1;
    uint32_t n = 0;
    for (int32_t x = k->target; x >= 0 && n < a->nb; x = m->bones[x].parent) {
        n++;
        if (x == top)
            break;
    }
    if (!ALLOC(k->path, n))
        return false;
    uint32_t i = n;
    for (int32_t x = k->target; i > 0; x = m->bones[x].parent)
        k->path[--i] = x;
    k->path_count = n;
    return true;
}

mmd_status mmd_anim_ik_prepare(mmd_anim *a, mmd_error *err)
{
    const mmd_model *m = a->model;
    if (!ALLOC(a->ik, a->ik_count))
        return mmd_error_set(err, MMD_E_NOMEM, "anim.ik", -1, -1, "no memory");
    for (uint32_t s = 0; s < a->ik_count; s++) {
        anim_ik *k = &a->ik[s];
        const mmd_bone *bn = &m->bones[a->ik_bones[s]];
        k->bone = a->ik_bones[s];
        k->target = bn->ik_target;
        k->iterations = bn->ik_loop < 0 ? 0 : bn->ik_loop > 256 ? 256 : bn->ik_loop;
        k->unit_angle = bn->ik_limit_angle;
        if (!ALLOC(k->links, bn->ik_link_count))
            return mmd_error_set(err, MMD_E_NOMEM, "anim.ik", -1, -1, "no memory");
        for (uint32_t j = 0; j < bn->ik_link_count; j++) {
            const mmd_ik_link *src = &bn->ik_links[j];
            if (src->bone < 0 || (uint32_t)src->bone >= a->nb || src->bone == k->bone)
                continue;
            anim_ik_link *l = &k->links[k->link_count++];
            l->bone = src->bone;
            l->limited = src->has_limit;
            l->axis = AX_NONE;
            l->order = ORD_XZY;
            if (!l->limited)
                continue;
            for (int c = 0; c < 3; c++) {
                l->lo[c] = fminf(src->lower[c], src->upper[c]);
                l->hi[c] = fmaxf(src->lower[c], src->upper[c]);
            }
            if (-GLM_PI_2 < l->lo[0] && l->hi[0] < GLM_PI_2)
                l->order = ORD_YXZ;
            else if (-GLM_PI_2 < l->lo[1] && l->hi[1] < GLM_PI_2)
                l->order = ORD_ZYX;
            bool zx = l->lo[0] == 0 && l->hi[0] == 0, zy = l->lo[1] == 0 && l->hi[1] == 0;
            bool zz = l->lo[2] == 0 && l->hi[2] == 0;
            l->axis = (zx && zy && zz) ? AX_FIXED : (zy && zz) ? AX_X : (zx && zz) ? AX_Y : (zx && zy) ? AX_Z : AX_NONE;
        }
        if (!ik_path(a, k))
            return mmd_error_set(err, MMD_E_NOMEM, "anim.ik", -1, -1, "no memory");
        uint32_t n = k->path_count;
        /* links off the target's parent chain, found once (not per link step) */
        mmd_anim_refresh_begin(a); /* as a set of bones: no clearing per chain */
        for (uint32_t i = 0; i < n; i++)
            mmd_anim_refresh_mark(a, k->path[i]);
        if (!ALLOC(k->offchain, k->link_count))
            return mmd_error_set(err, MMD_E_NOMEM, "anim.ik", -1, -1, "no memory");
        for (uint32_t j = 0; j < k->link_count; j++)
            if (a->refresh_moved[k->links[j].bone] != a->refresh_gen) {
                mmd_anim_refresh_mark(a, k->links[j].bone);
                k->offchain[k->offchain_count++] = k->links[j].bone;
            }
    }
    cap_ik_work(a);
    cap_refresh(a);
    return MMD_OK;
}

static float limit_angle(float ang, float lo, float hi, bool use_axis)
{
    if (ang < lo) {
        float d = 2 * lo - ang;
        return (d <= hi && use_axis) ? d : lo;
    }
    if (ang > hi) {
        float d = 2 * hi - ang;
        return (d >= lo && use_axis) ? d : hi;
    }
    return ang;
}

static void get_pos(const mmd_anim *a, int32_t b, vec3 p)
{
    glm_vec3_copy(a->world + 16 * b + 12, p);
}

static void update_path(mmd_anim *a, const anim_ik *k)
{
    for (uint32_t i = 0; i < k->path_count; i++)
        mmd_anim_update_bone(a, k->path[i]);
    for (uint32_t j = 0; j < k->offchain_count; j++)
        mmd_anim_update_bone(a, k->offchain[j]);
}

/* The Euler decomposition of each order (babylon-mmd/nanoem): the middle
 * angle from an asin clamped to +-88 degrees, the outer two from atan2, and
 * the axes composed back in that order. m is column-major (m[col][row]). */
static const struct euler_order {
    uint8_t axis[3];                  /* composition order: q = R(axis0) R(axis1) R(axis2) */
    uint8_t sin_col, sin_row;         /* middle angle = asin(-m[col][row]) */
    uint8_t y1[2], x1[2], y2[2], x2[2]; /* first / last angle = atan2(m[y], m[x]) */
} euler_orders[3] = {
    [ORD_YXZ] = {{1, 0, 2}, 2, 1, {2, 0}, {2, 2}, {0, 1}, {1, 1}},
    [ORD_ZYX] = {{2, 1, 0}, 0, 2, {0, 1}, {0, 0}, {1, 2}, {2, 2}},
    [ORD_XZY] = {{0, 2, 1}, 1, 0, {1, 2}, {1, 1}, {2, 0}, {0, 0}},
};

/* ik = R(limited Euler angles of ik·base) · base^-1 */
static void limit_rotation(const anim_ik_link *l, const float base[4], bool use_axis, versor ik)
{
    const struct euler_order *o = &euler_orders[l->order];
    versor lr, r, q, t;
    mat3 m;
    glm_quat_copy((float *)base, lr);
    glm_quat_mul(ik, lr, r);
    glm_quat_mat3(r, m);
    const float th = glm_rad(88.0f);
    float mid = asinf(glm_clamp(-m[o->sin_col][o->sin_row], -1.0f, 1.0f));
    mid = glm_clamp(mid, -th, th);
    float inv = 1.0f / cosf(mid), ang[3];
    ang[o->axis[0]] = atan2f(m[o->y1[0]][o->y1[1]] * inv, m[o->x1[0]][o->x1[1]] * inv);
    ang[o->axis[1]] = mid;
    ang[o->axis[2]] = atan2f(m[o->y2[0]][o->y2[1]] * inv, m[o->x2[0]][o->x2[1]] * inv);
    for (int c = 0; c < 3; c++)
        ang[c] = limit_angle(ang[c], l->lo[c], l->hi[c], use_axis);
    glm_quat_identity(t);
    for (int i = 0; i < 3; i++) {
        vec3 axis = {0, 0, 0};
        axis[o->axis[i]] = 1;
        glm_quatv(q, ang[o->axis[i]], axis);
        glm_quat_mul(t, q, r);
        glm_quat_copy(r, t);
    }
    if (glm_vec4_norm2(lr) > 0)
        glm_quat_inv(lr, lr);
    else
        glm_quat_conjugate(lr, lr);
    glm_quat_mul(t, lr, ik);
}

static void solve_link(mmd_anim *a, const anim_ik *k, uint32_t j, const vec3 ip, vec3 tp, bool use_axis)
{
    const anim_ik_link *l = &k->links[j];
    int32_t b = l->bone;
    vec3 cp, vt, vi, ax;
    get_pos(a, b, cp);
    glm_vec3_sub(cp, tp, vt);
    glm_vec3_sub(cp, (float *)ip, vi);
    glm_vec3_normalize(vt);
    glm_vec3_normalize(vi);
    glm_vec3_cross(vt, vi, ax);
    float sin_ang = glm_vec3_norm(ax);
    if (sin_ang * sin_ang < 1e-8f)
        return;
    /* The angle from atan2(|vt x vi|, vt.vi), not acos of the dot: near 1
     * acosf resolves only ~3e-4 rad. Gene_light against the reference poses
     * (test_reference_pose), IK-driven bones: acosf 0.023 off (fails 1e-2),
     * atan2f 4.5e-6, the former double acos 3.8e-6. */
    float ang = fminf(k->unit_angle * (float)(j + 1), atan2f(sin_ang, glm_vec3_dot(vt, vi)));
    mat3 p; /* the parent's world rotation */
    int32_t par = a->model->bones[b].parent;
    if (par >= 0)
        glm_mat4_pick3((vec4 *)(a->world + 16 * par), p);
    else if (a->placed)
        glm_mat4_pick3((vec4 *)a->place, p);
    else
        glm_mat3_identity(p);
    if (l->limited && use_axis && l->axis >= AX_X) { /* snap to the one free axis */
        int col = l->axis - AX_X;
        float d = glm_vec3_dot(ax, p[col]);
        glm_vec3_zero(ax);
        ax[col] = d >= 0 ? 1 : -1;
    } else {
        vec3 t;
        glm_mat3_transpose(p);
        glm_mat3_mulv(p, ax, t); /* into the parent's frame */
        glm_vec3_normalize_to(t, ax);
    }
    versor q, ik;
    glm_quatv(q, ang, ax);
    glm_quat_mul(q, a->ik_rot + 4 * b, ik);
    if (l->limited)
        limit_rotation(l, a->base_rot + 4 * b, use_axis, ik);
    glm_quat_copy(ik, a->ik_rot + 4 * b);
    update_path(a, k);
    get_pos(a, k->target, tp);
}

void mmd_anim_solve_ik(mmd_anim *a, int32_t ik_bone)
{
    int32_t s = a->ik_slot[ik_bone];
    if (s < 0)
        return;
    const anim_ik *k = &a->ik[s];
    if (k->link_count == 0 || k->target < 0)
        return;
    for (uint32_t j = 0; j < k->link_count; j++)
        aq_ident(a->ik_rot + 4 * k->links[j].bone);
    vec3 ip, tp;
    get_pos(a, ik_bone, ip);
    update_path(a, k);
    get_pos(a, k->target, tp);
    if (glm_vec3_distance2(ip, tp) < 1e-8f)
        return;
    int32_t half = k->iterations >> 1;
    for (int32_t i = 0; i < k->iterations && !mmd_anim_cancelled(a); i++) {
        for (uint32_t j = 0; j < k->link_count; j++)
            if (k->links[j].axis != AX_FIXED || !k->links[j].limited)
                solve_link(a, k, j, ip, tp, i < half);
        if (glm_vec3_distance2(ip, tp) < 1e-8f)
            break;
    }
    /* descendants of the chain (evaluated earlier or later) follow */
    if (!k->refresh)
        return;
    mmd_anim_refresh_begin(a);
    for (uint32_t i = 0; i < k->path_count; i++)
        mmd_anim_refresh_mark(a, k->path[i]);
    for (uint32_t j = 0; j < k->link_count; j++)
        mmd_anim_refresh_mark(a, k->links[j].bone);
    mmd_anim_refresh_marked(a);
}
