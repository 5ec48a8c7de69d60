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

/* m p for a point p: the columns scaled and summed in x, y, z, t order,
 * each a cglm vec4 op. Not glm_mat4_mulv3: it stores p as a vec4 and loads
 * it back (a store-forwarding stall per call): Gene_light's CPU skinning
 * took 0.76 ms a frame with it against 0.23 ms this way (bench_anim), and
 * its t-first sum moves golden pixels. */
static inline void point(mat4 m, const float *p, float *out)
{
    vec4 r;
    glm_vec4_scale(m[0], p[0], r);
    glm_vec4_muladds(m[1], p[1], r);
    glm_vec4_muladds(m[2], p[2], r);
    glm_vec4_add(r, m[3], r);
    glm_vec3_copy(r, out);
}

/* SDEF: rotation slerped between the two bones about C, plus the blended
 * images of the precomputed (C+R0)/2, (C+R1)/2 (DESIGN D). */
static void skin_sdef(const mmd_anim *a, uint32_t v, const float p[3], const float n[3], float *po, float *no)
{
    const anim_sdef *s = &a->sdef[a->sdef_index[v]];
    const int32_t *bo = a->wbone + 4 * v;
    float w0 = a->wweight[4 * v], w1 = 1 - w0;
    vec4 *m0 = (vec4 *)(a->skinning + 16 * bo[0]), *m1 = (vec4 *)(a->skinning + 16 * bo[1]);
    versor q0, q1, q;
    am_to_quat_scaled(a->skinning + 16 * bo[0], a->place_scale, q0);
    am_to_quat_scaled(a->skinning + 16 * bo[1], a->place_scale, q1);
    mmd_quat_slerp(q0, q1, w1, q);
    mat3 rq; /* one matrix for the point and the normal (glm_quat_rotatev renormalises q per call) */
    glm_quat_mat3(q, rq);
    vec3 d, r, a0, a1;
    glm_vec3_sub((float *)p, (float *)s->c, d);
    glm_mat3_mulv(rq, d, r);
    if (a->place_scale != 1.0f) /* the matrices carry the placement's scale; rq does not */
        glm_vec3_scale(r, a->place_scale, r);
    point(m0, s->cr0, a0);
    point(m1, s->cr1, a1);
    glm_vec3_muladds(a0, w0, r);
    glm_vec3_muladds(a1, w1, r);
    glm_vec3_copy(r, po);
    glm_mat3_mulv(rq, (float *)n, no);
    glm_vec3_normalize(no);
}

/* Dual-quaternion blend (saba-style: sign-aligned to the first bone). */
static void skin_qdef(const mmd_anim *a, uint32_t v, const float p[3], const float n[3], float *po, float *no)
{
    const int32_t *bo = a->wbone + 4 * v;
    const float *w = a->wweight + 4 * v;
    versor r = {0, 0, 0, 0}, d = {0, 0, 0, 0}, q0 = GLM_QUAT_IDENTITY_INIT;
    bool first = true;
    for (int k = 0; k < 4; k++) {
        if (bo[k] < 0 || w[k] <= 0)
            continue;
        const float *m = a->skinning + 16 * bo[k];
        versor q, dq;
        am_to_quat_scaled(m, a->place_scale, q);
        if (first) {
            glm_quat_copy(q, q0);
            first = false;
        } else if (glm_vec4_dot(q, q0) < 0) {
            glm_vec4_negate(q);
        }
        versor t = {m[12], m[13], m[14], 0}; /* dual part = 0.5 * (t,0) * q */
        glm_quat_mul(t, q, dq);
        glm_vec4_muladds(q, w[k], r);
        glm_vec4_muladds(dq, w[k] * 0.5f, d);
    }
    if (first) {
        memcpy(po, p, 3 * sizeof *p);
        memcpy(no, n, 3 * sizeof *n);
        return;
    }
    float l = glm_vec4_norm(r);
    if (!(l > 0))
        l = 1;
    glm_vec4_divs(r, l, r);
    glm_vec4_divs(d, l, d);
    versor rc, tq; /* translation = 2 * d * conj(r) */
    glm_quat_conjugate(r, rc);
    glm_quat_mul(d, rc, tq);
    vec3 rp, ps; /* a scaled placement: the rigid blend moves the scaled point */
    glm_vec3_scale((float *)p, a->place_scale, ps);
    glm_quat_rotatev(r, a->place_scale != 1.0f ? ps : (float *)p, rp);
    glm_vec3_muladds(tq, 2.0f, rp);
    glm_vec3_copy(rp, po);
    glm_quat_rotatev(r, (float *)n, no);
    glm_vec3_normalize(no);
}

/* m = the sum of w[j] S[bo[j]] over k skinning matrices, column by column
 * (cglm's SSE vec4 ops; the same products and sums as a scalar loop). */
static inline void blend(const float *restrict S, const int32_t *bo, const float *w, int k, mat4 m)
{
    vec4 *s = (vec4 *)(S + 16 * bo[0]);
    for (int c = 0; c < 4; c++)
        glm_vec4_scale(s[c], w[0], m[c]);
    for (int j = 1; j < k; j++) {
        s = (vec4 *)(S + 16 * bo[j]);
        for (int c = 0; c < 4; c++)
            glm_vec4_muladds(s[c], w[j], m[c]);
    }
}

/* The position and the (renormalised) normal through m. */
static inline void apply(mat4 m, const float *p, const float *n, float *po, float *no)
{
    vec4 r;
    point(m, p, po);
    glm_vec4_scale(m[0], n[0], r);
    glm_vec4_muladds(m[1], n[1], r);
    glm_vec4_muladds(m[2], n[2], r);
    glm_vec3_normalize_to(r, no);
}

void mmd_anim_skin(const mmd_anim *a, uint32_t first, uint32_t count, float *pos, float *nrm)
{
    if (first >= a->nv)
        return;
    if (count > a->nv - first)
        count = a->nv - first;
    const float *restrict vp = a->vpos, *restrict vn = a->vnrm, *restrict S = a->skinning;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t v = first + i;
        const float *p = vp + 3 * v, *n = vn + 3 * v;
        float *po = pos + 3 * i, *no = nrm + 3 * i;
        const int32_t *bo = a->wbone + 4 * v;
        const float *w = a->wweight + 4 * v;
        mat4 m;
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
            apply((vec4 *)(S + 16 * bo[0]), p, n, po, no);
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
                apply(m, p, n, po, no);
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
            apply(m, p, n, po, no);
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
