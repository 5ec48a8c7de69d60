/* core/ik.c - CCD IK, the babylon-mmd/nanoem variant (DESIGN B.4):
 * unit angle x (j+1), single-axis snapping during the first half of the
 * iterations, Euler limits (YXZ / ZYX / XZY chosen from the limits) with a
 * +-88 degree asin clamp and reflection, double-precision maths. */
#include "core/anim_internal.h"

enum { AX_NONE, AX_FIXED, AX_X, AX_Y, AX_Z };
enum { ORD_YXZ, ORD_ZYX, ORD_XZY };

typedef struct anim_ik_link {
    int32_t bone;
    bool limited;
    uint8_t axis, order;
    double lo[3], hi[3];
} anim_ik_link;

typedef struct anim_ik {
    int32_t bone, target;
    int32_t iterations;
    double unit_angle;
    anim_ik_link *links;
    uint32_t link_count;
    int32_t *path;           /* root-most link .. target, parent order */
    uint32_t path_count;
    int32_t *offchain;       /* links not on path (malformed chains), updated after it */
    uint32_t offchain_count;
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
        if (!ALLOC(k->links, bn->ik_link_count) || !ALLOC(k->path, a->nb))
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
                l->lo[c] = fmin(src->lower[c], src->upper[c]);
                l->hi[c] = fmax(src->lower[c], src->upper[c]);
            }
            const double hp = M_PI * 0.5;
            if (-hp < l->lo[0] && l->hi[0] < hp)
                l->order = ORD_YXZ;
            else if (-hp < l->lo[1] && l->hi[1] < hp)
                l->order = ORD_ZYX;
            bool zx = l->lo[0] == 0 && l->hi[0] == 0, zy = l->lo[1] == 0 && l->hi[1] == 0;
            bool zz = l->lo[2] == 0 && l->hi[2] == 0;
            l->axis = (zx && zy && zz) ? AX_FIXED : (zy && zz) ? AX_X : (zx && zz) ? AX_Y : (zx && zy) ? AX_Z : AX_NONE;
        }
        /* path: ancestors of the target up to the root-most link */
        int32_t top = k->link_count ? k->links[k->link_count - 1].bone : -1;
        uint32_t n = 0;
        for (int32_t x = k->target; x >= 0 && n < a->nb; x = m->bones[x].parent) {
            k->path[n++] = x;
            if (x == top)
                break;
        }
        for (uint32_t i = 0; i < n / 2; i++) {
            int32_t t = k->path[i];
            k->path[i] = k->path[n - 1 - i];
            k->path[n - 1 - i] = t;
        }
        k->path_count = n;
        /* links off the target's parent chain, found once (not per link step) */
        memset(a->refresh_mark, 0, a->nb * sizeof *a->refresh_mark);
        for (uint32_t i = 0; i < n; i++)
            a->refresh_mark[k->path[i]] = true;
        if (!ALLOC(k->offchain, k->link_count))
            return mmd_error_set(err, MMD_E_NOMEM, "anim.ik", -1, -1, "no memory");
        for (uint32_t j = 0; j < k->link_count; j++)
            if (!a->refresh_mark[k->links[j].bone]) {
                a->refresh_mark[k->links[j].bone] = true;
                k->offchain[k->offchain_count++] = k->links[j].bone;
            }
    }
    memset(a->refresh_mark, 0, a->nb * sizeof *a->refresh_mark);
    cap_ik_work(a);
    return MMD_OK;
}

/* ---- double quaternion helpers ---- */
static void dq_mul(const double a[4], const double b[4], double o[4])
{
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    o[0] = x, o[1] = y, o[2] = z, o[3] = w;
}

static void dq_axis(double x, double y, double z, double ang, double q[4])
{
    double s = sin(ang * 0.5);
    q[0] = x * s, q[1] = y * s, q[2] = z * s, q[3] = cos(ang * 0.5);
}

/* column-major 3x3 part in a 16 layout (same indices as the float matrices) */
static void dq_to_m(const double q[4], double m[16])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    m[0] = 1 - 2 * (y * y + z * z), m[1] = 2 * (x * y + z * w), m[2] = 2 * (x * z - y * w);
    m[4] = 2 * (x * y - z * w), m[5] = 1 - 2 * (x * x + z * z), m[6] = 2 * (y * z + x * w);
    m[8] = 2 * (x * z + y * w), m[9] = 2 * (y * z - x * w), m[10] = 1 - 2 * (x * x + y * y);
}

static double limit_angle(double ang, double lo, double hi, bool use_axis)
{
    if (ang < lo) {
        double d = 2 * lo - ang;
        return (d <= hi && use_axis) ? d : lo;
    }
    if (ang > hi) {
        double d = 2 * hi - ang;
        return (d >= lo && use_axis) ? d : hi;
    }
    return ang;
}

static void get_pos(const mmd_anim *a, int32_t b, double p[3])
{
    const float *w = a->world + 16 * b;
    p[0] = w[12], p[1] = w[13], p[2] = w[14];
}

static double dist2(const double a[3], const double b[3])
{
    double x = a[0] - b[0], y = a[1] - b[1], z = a[2] - b[2];
    return x * x + y * y + z * z;
}

static void normalize(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0)
        v[0] /= l, v[1] /= l, v[2] /= l;
}

static void update_path(mmd_anim *a, const anim_ik *k)
{
    for (uint32_t i = 0; i < k->path_count; i++)
        mmd_anim_update_bone(a, k->path[i]);
    for (uint32_t j = 0; j < k->offchain_count; j++)
        mmd_anim_update_bone(a, k->offchain[j]);
}

static void solve_link(mmd_anim *a, const anim_ik *k, uint32_t j, const double ip[3], double tp[3], bool use_axis)
{
    const anim_ik_link *l = &k->links[j];
    int32_t b = l->bone;
    double cp[3], vt[3], vi[3];
    get_pos(a, b, cp);
    for (int c = 0; c < 3; c++)
        vt[c] = cp[c] - tp[c], vi[c] = cp[c] - ip[c];
    normalize(vt);
    normalize(vi);
    double ax[3] = {vt[1] * vi[2] - vt[2] * vi[1], vt[2] * vi[0] - vt[0] * vi[2], vt[0] * vi[1] - vt[1] * vi[0]};
    if (ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2] < 1e-8)
        return;
    double P[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}; /* parent world rotation, columns */
    int32_t par = a->model->bones[b].parent;
    if (par >= 0) {
        const float *w = a->world + 16 * par;
        for (int c = 0; c < 3; c++)
            P[c] = w[c], P[3 + c] = w[4 + c], P[6 + c] = w[8 + c];
    }
    if (l->limited && use_axis && l->axis >= AX_X) {
        int col = l->axis - AX_X;
        double d = ax[0] * P[3 * col] + ax[1] * P[3 * col + 1] + ax[2] * P[3 * col + 2];
        ax[0] = ax[1] = ax[2] = 0;
        ax[col] = d >= 0 ? 1 : -1;
    } else {
        double t[3];
        for (int c = 0; c < 3; c++) /* P^T ax */
            t[c] = P[3 * c] * ax[0] + P[3 * c + 1] * ax[1] + P[3 * c + 2] * ax[2];
        memcpy(ax, t, sizeof t);
        normalize(ax);
    }
    double dot = vt[0] * vi[0] + vt[1] * vi[1] + vt[2] * vi[2];
    dot = dot < -1 ? -1 : dot > 1 ? 1 : dot;
    double ang = fmin(k->unit_angle * (double)(j + 1), acos(dot));
    double q[4], ik[4];
    for (int c = 0; c < 4; c++)
        ik[c] = a->ik_rot[4 * b + c];
    dq_axis(ax[0], ax[1], ax[2], ang, q);
    dq_mul(q, ik, ik);
    if (l->limited) {
        double lr[4], r[4], m[16];
        for (int c = 0; c < 4; c++)
            lr[c] = a->base_rot[4 * b + c];
        dq_mul(ik, lr, r);
        dq_to_m(r, m);
        const double th = 88.0 * M_PI / 180.0;
        double rx, ry, rz, inv, q1[4], q2[4], q3[4], t[4];
        switch (l->order) {
        case ORD_YXZ:
            rx = asin(fmax(-1, fmin(1, -m[9])));
            rx = fabs(rx) > th ? (rx < 0 ? -th : th) : rx;
            inv = cos(rx);
            inv = inv != 0 ? 1 / inv : inv;
            ry = atan2(m[8] * inv, m[10] * inv);
            rz = atan2(m[1] * inv, m[5] * inv);
            rx = limit_angle(rx, l->lo[0], l->hi[0], use_axis);
            ry = limit_angle(ry, l->lo[1], l->hi[1], use_axis);
            rz = limit_angle(rz, l->lo[2], l->hi[2], use_axis);
            dq_axis(0, 1, 0, ry, q1), dq_axis(1, 0, 0, rx, q2), dq_axis(0, 0, 1, rz, q3);
            break;
        case ORD_ZYX:
            ry = asin(fmax(-1, fmin(1, -m[2])));
            ry = fabs(ry) > th ? (ry < 0 ? -th : th) : ry;
            inv = cos(ry);
            inv = inv != 0 ? 1 / inv : inv;
            rx = atan2(m[6] * inv, m[10] * inv);
            rz = atan2(m[1] * inv, m[0] * inv);
            rx = limit_angle(rx, l->lo[0], l->hi[0], use_axis);
            ry = limit_angle(ry, l->lo[1], l->hi[1], use_axis);
            rz = limit_angle(rz, l->lo[2], l->hi[2], use_axis);
            dq_axis(0, 0, 1, rz, q1), dq_axis(0, 1, 0, ry, q2), dq_axis(1, 0, 0, rx, q3);
            break;
        default: /* XZY */
            rz = asin(fmax(-1, fmin(1, -m[4])));
            rz = fabs(rz) > th ? (rz < 0 ? -th : th) : rz;
            inv = cos(rz);
            inv = inv != 0 ? 1 / inv : inv;
            rx = atan2(m[6] * inv, m[5] * inv);
            ry = atan2(m[8] * inv, m[0] * inv);
            rx = limit_angle(rx, l->lo[0], l->hi[0], use_axis);
            ry = limit_angle(ry, l->lo[1], l->hi[1], use_axis);
            rz = limit_angle(rz, l->lo[2], l->hi[2], use_axis);
            dq_axis(1, 0, 0, rx, q1), dq_axis(0, 0, 1, rz, q2), dq_axis(0, 1, 0, ry, q3);
            break;
        }
        dq_mul(q1, q2, t);
        dq_mul(t, q3, t);
        double li[4] = {-lr[0], -lr[1], -lr[2], lr[3]};
        double n = lr[0] * lr[0] + lr[1] * lr[1] + lr[2] * lr[2] + lr[3] * lr[3];
        if (n > 0)
            for (int c = 0; c < 4; c++)
                li[c] /= n;
        dq_mul(t, li, ik);
    }
    for (int c = 0; c < 4; c++)
        a->ik_rot[4 * b + c] = (float)ik[c];
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
    double ip[3], tp[3];
    get_pos(a, ik_bone, ip);
    update_path(a, k);
    get_pos(a, k->target, tp);
    if (dist2(ip, tp) < 1e-8)
        return;
    int32_t half = k->iterations >> 1;
    for (int32_t i = 0; i < k->iterations && !mmd_anim_cancelled(a); i++) {
        for (uint32_t j = 0; j < k->link_count; j++)
            if (k->links[j].axis != AX_FIXED || !k->links[j].limited)
                solve_link(a, k, j, ip, tp, i < half);
        if (dist2(ip, tp) < 1e-8)
            break;
    }
    /* descendants of the chain (evaluated earlier or later) follow */
    memset(a->refresh_mark, 0, a->nb * sizeof *a->refresh_mark);
    for (uint32_t i = 0; i < k->path_count; i++)
        a->refresh_mark[k->path[i]] = true;
    for (uint32_t j = 0; j < k->link_count; j++)
        a->refresh_mark[k->links[j].bone] = true;
    mmd_anim_refresh_marked(a);
}
