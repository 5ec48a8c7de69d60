/* core/skin.c - CPU skinning: BDEF1/2/4, SDEF (corrected form), QDEF
 * (dual quaternions), DESIGN D. Weights and SDEF terms are precomputed at
 * create; per-frame work only reads the skinning matrices. */
#include "core/anim_internal.h"

mmd_status mmd_anim_skin_prepare(mmd_anim *a, mmd_error *err)
{
    const mmd_model *m = a->model;
    uint32_t nv = a->nv, nsdef = 0;
    if (!ALLOC_OK(a->wtype = mmd_arena_array(a->arena, nv ? nv : 1, 1)) ||
        !ALLOC_OK(a->wbone = mmd_arena_array(a->arena, (size_t)nv * 4 + 4, sizeof *a->wbone)) ||
        !ALLOC_OK(a->wweight = mmd_arena_array(a->arena, (size_t)nv * 4 + 4, sizeof *a->wweight)) ||
        !ALLOC_OK(a->sdef_index = mmd_arena_array(a->arena, nv ? nv : 1, sizeof *a->sdef_index)) ||
        !ALLOC_OK(a->vnrm = mmd_arena_array(a->arena, (size_t)nv * 3 + 3, sizeof *a->vnrm)))
        return mmd_error_set(err, MMD_E_NOMEM, "anim.skin", -1, -1, "no memory for %u vertices", nv);
    for (uint32_t v = 0; v < nv; v++)
        if (m->vertices[v].weight_type == MMD_WEIGHT_SDEF)
            nsdef++;
    a->sdef = mmd_arena_array(a->arena, nsdef ? nsdef : 1, sizeof *a->sdef);
    if (!a->sdef)
        return mmd_error_set(err, MMD_E_NOMEM, "anim.skin", -1, -1, "no memory for SDEF");
    nsdef = 0;
    for (uint32_t v = 0; v < nv; v++) {
        const mmd_vertex *x = &m->vertices[v];
        int32_t *bo = a->wbone + 4 * v;
        float *w = a->wweight + 4 * v;
        uint8_t t = x->weight_type;
        int nslot = t == MMD_WEIGHT_BDEF1 ? 1 : (t == MMD_WEIGHT_BDEF2 || t == MMD_WEIGHT_SDEF) ? 2 : 4;
        if (t > MMD_WEIGHT_QDEF)
            t = MMD_WEIGHT_BDEF4, nslot = 4;
        float sum = 0;
        for (int k = 0; k < 4; k++) {
            int32_t b = k < nslot ? x->bones[k] : -1;
            float wk = k < nslot ? x->weights[k] : 0.0f;
            if (nslot == 1)
                wk = 1.0f;
            else if (nslot == 2 && k == 1)
                wk = 1.0f - x->weights[0];
            if (b < 0 || (uint32_t)b >= a->nb || !(wk > 0) || !isfinite(wk))
                b = -1, wk = 0;
            bo[k] = b, w[k] = wk;
            sum += wk;
        }
        if (sum > 0 && fabsf(sum - 1.0f) > 1e-6f)
            for (int k = 0; k < 4; k++)
                w[k] /= sum;
        if (sum <= 0) { /* no usable bone: stays at rest */
            bo[0] = -1;
        }
        a->sdef_index[v] = -1;
        if (t == MMD_WEIGHT_SDEF && x->bones[0] >= 0 && x->bones[1] >= 0 && (uint32_t)x->bones[0] < a->nb &&
            (uint32_t)x->bones[1] < a->nb) {
            /* keep slot order for SDEF: w0 belongs to bone 0 */
            bo[0] = x->bones[0], bo[1] = x->bones[1];
            float w0 = x->weights[0];
            w0 = w0 < 0 ? 0 : w0 > 1 ? 1 : w0;
            w[0] = w0, w[1] = 1 - w0;
            float w1 = 1 - w0;
            anim_sdef *s = &a->sdef[nsdef];
            for (int c = 0; c < 3; c++) {
                float rw = w0 * x->sdef_r0[c] + w1 * x->sdef_r1[c];
                float r0 = x->sdef_c[c] + x->sdef_r0[c] - rw;
                float r1 = x->sdef_c[c] + x->sdef_r1[c] - rw;
                s->c[c] = x->sdef_c[c];
                s->cr0[c] = (x->sdef_c[c] + r0) * 0.5f;
                s->cr1[c] = (x->sdef_c[c] + r1) * 0.5f;
            }
            a->sdef_index[v] = (int32_t)nsdef++;
        } else if (t == MMD_WEIGHT_SDEF) {
            t = MMD_WEIGHT_BDEF2;
        }
        a->wtype[v] = t;
        memcpy(a->vnrm + 3 * v, x->normal, sizeof x->normal);
    }
    return MMD_OK;
}

static inline void xform(const float *m, const float p[3], float o[3])
{
    o[0] = m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12];
    o[1] = m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13];
    o[2] = m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14];
}

static inline void xdir(const float *m, const float p[3], float o[3])
{
    o[0] = m[0] * p[0] + m[4] * p[1] + m[8] * p[2];
    o[1] = m[1] * p[0] + m[5] * p[1] + m[9] * p[2];
    o[2] = m[2] * p[0] + m[6] * p[1] + m[10] * p[2];
}

static inline void normalize3(float n[3])
{
    float l = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if (l > 0) {
        l = 1.0f / sqrtf(l);
        n[0] *= l, n[1] *= l, n[2] *= l;
    }
}

/* q rotate v */
static inline void qrot(const float q[4], const float v[3], float o[3])
{
    float tx = 2 * (q[1] * v[2] - q[2] * v[1]);
    float ty = 2 * (q[2] * v[0] - q[0] * v[2]);
    float tz = 2 * (q[0] * v[1] - q[1] * v[0]);
    o[0] = v[0] + q[3] * tx + (q[1] * tz - q[2] * ty);
    o[1] = v[1] + q[3] * ty + (q[2] * tx - q[0] * tz);
    o[2] = v[2] + q[3] * tz + (q[0] * ty - q[1] * tx);
}

static void skin_sdef(const mmd_anim *a, uint32_t v, const float p[3], const float n[3], float *po, float *no)
{
    const anim_sdef *s = &a->sdef[a->sdef_index[v]];
    const int32_t *bo = a->wbone + 4 * v;
    float w0 = a->wweight[4 * v], w1 = 1 - w0;
    const float *m0 = a->skinning + 16 * bo[0], *m1 = a->skinning + 16 * bo[1];
    float q0[4], q1[4], q[4];
    am_to_quat(m0, q0);
    am_to_quat(m1, q1);
    mmd_quat_slerp(q0, q1, w1, q);
    float d[3] = {p[0] - s->c[0], p[1] - s->c[1], p[2] - s->c[2]}, r[3], a0[3], a1[3];
    qrot(q, d, r);
    xform(m0, s->cr0, a0);
    xform(m1, s->cr1, a1);
    for (int c = 0; c < 3; c++)
        po[c] = r[c] + w0 * a0[c] + w1 * a1[c];
    qrot(q, n, no);
    normalize3(no);
}

/* Dual-quaternion blend (saba-style: sign-aligned to the first bone). */
static void skin_qdef(const mmd_anim *a, uint32_t v, const float p[3], const float n[3], float *po, float *no)
{
    const int32_t *bo = a->wbone + 4 * v;
    const float *w = a->wweight + 4 * v;
    float r[4] = {0, 0, 0, 0}, d[4] = {0, 0, 0, 0}, q0[4] = {0, 0, 0, 1};
    bool first = true;
    for (int k = 0; k < 4; k++) {
        if (bo[k] < 0 || w[k] <= 0)
            continue;
        const float *m = a->skinning + 16 * bo[k];
        float q[4];
        am_to_quat(m, q);
        if (first) {
            memcpy(q0, q, sizeof q);
            first = false;
        } else if (q[0] * q0[0] + q[1] * q0[1] + q[2] * q0[2] + q[3] * q0[3] < 0) {
            q[0] = -q[0], q[1] = -q[1], q[2] = -q[2], q[3] = -q[3];
        }
        /* dual part = 0.5 * (t,0) * q */
        float t4[4] = {m[12], m[13], m[14], 0}, dq[4];
        aq_mul(t4, q, dq);
        for (int c = 0; c < 4; c++) {
            r[c] += w[k] * q[c];
            d[c] += w[k] * 0.5f * dq[c];
        }
    }
    if (first) {
        memcpy(po, p, 3 * sizeof *p);
        memcpy(no, n, 3 * sizeof *n);
        return;
    }
    float l = sqrtf(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    if (!(l > 0))
        l = 1;
    for (int c = 0; c < 4; c++)
        r[c] /= l, d[c] /= l;
    /* translation = 2 * d * conj(r) */
    float rc[4] = {-r[0], -r[1], -r[2], r[3]}, tq[4];
    aq_mul(d, rc, tq);
    float rp[3];
    qrot(r, p, rp);
    po[0] = rp[0] + 2 * tq[0], po[1] = rp[1] + 2 * tq[1], po[2] = rp[2] + 2 * tq[2];
    qrot(r, n, no);
    normalize3(no);
}

/* Blend k compact 3x4 skinning matrices (columns x,y,z,t) with weights w. */
static inline void blend(const float *restrict S, const int32_t *bo, const float *w, int k, float m[12])
{
    const float *s0 = S + 12 * bo[0];
    float w0 = w[0];
    for (int c = 0; c < 12; c++)
        m[c] = w0 * s0[c];
    for (int j = 1; j < k; j++) {
        const float *sj = S + 12 * bo[j];
        float wj = w[j];
        for (int c = 0; c < 12; c++)
            m[c] += wj * sj[c];
    }
}

static inline void apply34(const float m[12], const float *restrict p, const float *restrict n, float *restrict po,
                           float *restrict no)
{
    po[0] = m[0] * p[0] + m[3] * p[1] + m[6] * p[2] + m[9];
    po[1] = m[1] * p[0] + m[4] * p[1] + m[7] * p[2] + m[10];
    po[2] = m[2] * p[0] + m[5] * p[1] + m[8] * p[2] + m[11];
    float x = m[0] * n[0] + m[3] * n[1] + m[6] * n[2];
    float y = m[1] * n[0] + m[4] * n[1] + m[7] * n[2];
    float z = m[2] * n[0] + m[5] * n[1] + m[8] * n[2];
    float l = x * x + y * y + z * z;
    l = l > 0 ? 1.0f / sqrtf(l) : 0.0f;
    no[0] = x * l, no[1] = y * l, no[2] = z * l;
}

void mmd_anim_skin(const mmd_anim *a, uint32_t first, uint32_t count, float *pos, float *nrm)
{
    if (first >= a->nv)
        return;
    if (count > a->nv - first)
        count = a->nv - first;
    const float *restrict vp = a->vpos, *restrict vn = a->vnrm, *restrict S = a->skin34;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t v = first + i;
        const float *p = vp + 3 * v, *n = vn + 3 * v;
        float *po = pos + 3 * i, *no = nrm + 3 * i;
        const int32_t *bo = a->wbone + 4 * v;
        const float *w = a->wweight + 4 * v;
        float m[12];
        if (bo[0] < 0 && a->wtype[v] != MMD_WEIGHT_QDEF) {
            int j = 1;
            while (j < 4 && bo[j] < 0)
                j++;
            if (j == 4) { /* no usable bone: rest */
                memcpy(po, p, 12), memcpy(no, n, 12);
                continue;
            }
        }
        switch (a->wtype[v]) {
        case MMD_WEIGHT_BDEF1:
            if (bo[0] < 0) {
                memcpy(po, p, 12), memcpy(no, n, 12);
                break;
            }
            apply34(S + 12 * bo[0], p, n, po, no);
            break;
        case MMD_WEIGHT_SDEF:
            if (a->sdef_index[v] >= 0) {
                skin_sdef(a, v, p, n, po, no);
                break;
            }
            /* fall through */
        case MMD_WEIGHT_BDEF2:
            if (bo[0] >= 0 && bo[1] >= 0) {
                blend(S, bo, w, 2, m);
                apply34(m, p, n, po, no);
                break;
            }
            /* fall through */
        case MMD_WEIGHT_BDEF4: {
            int32_t bb[4];
            float ww[4];
            int k = 0;
            for (int j = 0; j < 4; j++)
                if (bo[j] >= 0)
                    bb[k] = bo[j], ww[k++] = w[j];
            blend(S, bb, ww, k, m);
            apply34(m, p, n, po, no);
            break;
        }
        case MMD_WEIGHT_QDEF:
            skin_qdef(a, v, p, n, po, no);
            break;
        default:
            memcpy(po, p, 12), memcpy(no, n, 12);
            break;
        }
    }
}
