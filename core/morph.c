/* core/morph.c - morph weights to vertex/UV offsets, bone morph deltas and
 * material states (DESIGN C). Vertices touched by the previous frame are
 * restored from the model before the current offsets are added, so a frame
 * costs O(active offsets), not O(vertices). */
#include "core/anim_internal.h"

enum { MAT_CH = 28, MAT_TINT = 16 };

static void mat_gather(const mmd_morph_material *o, float v[MAT_CH])
{
    memcpy(v + 0, o->diffuse, 16);
    memcpy(v + 4, o->specular, 12);
    v[7] = o->specular_power;
    memcpy(v + 8, o->ambient, 12);
    memcpy(v + 11, o->edge_color, 16);
    v[15] = o->edge_size;
    memcpy(v + 16, o->texture_tint, 16);
    memcpy(v + 20, o->sphere_tint, 16);
    memcpy(v + 24, o->toon_tint, 16);
}

static void mat_base(const mmd_material *m, float v[MAT_TINT])
{
    memcpy(v + 0, m->diffuse, 16);
    memcpy(v + 4, m->specular, 12);
    v[7] = m->specular_power;
    memcpy(v + 8, m->ambient, 12);
    memcpy(v + 11, m->edge_color, 16);
    v[15] = m->edge_size;
}

static void mat_scatter(const float base[MAT_TINT], const float *mul, const float *add, mmd_material_state *s)
{
    float v[MAT_TINT];
    for (int c = 0; c < MAT_TINT; c++)
        v[c] = base[c] * mul[c] + add[c];
    memcpy(s->diffuse, v + 0, 16);
    memcpy(s->specular, v + 4, 12);
    s->specular_power = v[7];
    memcpy(s->ambient, v + 8, 12);
    memcpy(s->edge_color, v + 11, 16);
    s->edge_size = v[15];
    memcpy(s->texture_mul, mul + 16, 16);
    memcpy(s->texture_add, add + 16, 16);
    memcpy(s->sphere_mul, mul + 20, 16);
    memcpy(s->sphere_add, add + 20, 16);
    memcpy(s->toon_mul, mul + 24, 16);
    memcpy(s->toon_add, add + 24, 16);
}

void mmd_material_state_base(const mmd_material *m, mmd_material_state *out)
{
    float base[MAT_TINT], one[MAT_CH], zero[MAT_CH] = {0};
    for (int c = 0; c < MAT_CH; c++)
        one[c] = 1.0f;
    mat_base(m, base);
    mat_scatter(base, one, zero, out);
}

mmd_status mmd_anim_morph_prepare(mmd_anim *a, mmd_error *err)
{
    const mmd_model *m = a->model;
    size_t cap = 0;
    for (uint32_t i = 0; i < a->nm; i++) {
        uint8_t t = m->morphs[i].type;
        if (t == MMD_MORPH_VERTEX)
            a->has_vertex_morph = true;
        if (t == MMD_MORPH_VERTEX || (t >= MMD_MORPH_UV && t <= MMD_MORPH_ADD_UV4))
            cap += m->morphs[i].offset_count;
        if (t >= MMD_MORPH_UV && t <= MMD_MORPH_ADD_UV4)
            a->has_uv_morph = true;
    }
    (void)cap;
    if (!ALLOC(a->materials, a->nmat) || !ALLOC(a->mat_mul, (size_t)a->nmat * MAT_CH) ||
        !ALLOC(a->mat_add, (size_t)a->nmat * MAT_CH) || !ALLOC(a->uv, (size_t)a->nv * 2) ||
        !ALLOC(a->vpos, (size_t)a->nv * 3) || !ALLOC(a->prev_weights, a->nm))
        return mmd_error_set(err, MMD_E_NOMEM, "anim.morph", -1, -1, "no memory");
    for (int k = 0; k < m->additional_uv_count && k < 4; k++)
        if (!ALLOC(a->add_uv[k], (size_t)a->nv * 4))
            return mmd_error_set(err, MMD_E_NOMEM, "anim.morph", -1, -1, "no memory");
    for (uint32_t v = 0; v < a->nv; v++) {
        const mmd_vertex *x = &m->vertices[v];
        memcpy(a->vpos + 3 * v, x->position, 12);
        memcpy(a->uv + 2 * v, x->uv, 8);
        for (int k = 0; k < 4; k++)
            if (a->add_uv[k])
                memcpy(a->add_uv[k] + 4 * v, x->add_uv[k], 16);
    }
    for (uint32_t i = 0; i < a->nmat; i++)
        mmd_material_state_base(&m->materials[i], &a->materials[i]);
    return MMD_OK;
}

/* Restore the vertices/UVs a morph touched to the model's values. */
static void restore(mmd_anim *a, const mmd_morph *mo)
{
    const mmd_model *m = a->model;
    if (mo->type == MMD_MORPH_VERTEX) {
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            uint32_t v = mo->u.vertex[k].vertex;
            if (v < a->nv)
                memcpy(a->vpos + 3 * v, m->vertices[v].position, 12);
        }
    } else if (mo->type == MMD_MORPH_UV) {
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            uint32_t v = mo->u.uv[k].vertex;
            if (v < a->nv)
                memcpy(a->uv + 2 * v, m->vertices[v].uv, 8);
        }
    } else if (mo->type >= MMD_MORPH_ADD_UV1 && mo->type <= MMD_MORPH_ADD_UV4) {
        int ch = mo->type - MMD_MORPH_ADD_UV1;
        if (!a->add_uv[ch])
            return;
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            uint32_t v = mo->u.uv[k].vertex;
            if (v < a->nv)
                memcpy(a->add_uv[ch] + 4 * v, m->vertices[v].add_uv[ch], 16);
        }
    }
}

static void apply_one(mmd_anim *a, const mmd_morph *mo, float w)
{
    switch (mo->type) {
    case MMD_MORPH_VERTEX:
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            const mmd_morph_vertex *o = &mo->u.vertex[k];
            if (o->vertex >= a->nv)
                continue;
            float *p = a->vpos + 3 * o->vertex;
            p[0] += o->offset[0] * w, p[1] += o->offset[1] * w, p[2] += o->offset[2] * w;
        }
        break;
    case MMD_MORPH_UV:
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            const mmd_morph_uv *o = &mo->u.uv[k];
            if (o->vertex >= a->nv)
                continue;
            float *p = a->uv + 2 * o->vertex;
            p[0] += o->offset[0] * w, p[1] += o->offset[1] * w;
        }
        break;
    case MMD_MORPH_ADD_UV1:
    case MMD_MORPH_ADD_UV2:
    case MMD_MORPH_ADD_UV3:
    case MMD_MORPH_ADD_UV4: {
        float *dst = a->add_uv[mo->type - MMD_MORPH_ADD_UV1];
        if (!dst)
            break;
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            const mmd_morph_uv *o = &mo->u.uv[k];
            if (o->vertex >= a->nv)
                continue;
            for (int c = 0; c < 4; c++)
                dst[4 * o->vertex + c] += o->offset[c] * w;
        }
        break;
    }
    case MMD_MORPH_BONE:
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            const mmd_morph_bone *o = &mo->u.bone[k];
            if (o->bone < 0 || (uint32_t)o->bone >= a->nb)
                continue;
            float *p = a->morph_pos + 3 * o->bone, *r = a->morph_rot + 4 * o->bone;
            p[0] += o->translation[0] * w, p[1] += o->translation[1] * w, p[2] += o->translation[2] * w;
            float q[4], id[4] = {0, 0, 0, 1}, qn[4];
            memcpy(qn, o->rotation, 16);
            aq_norm(qn);
            mmd_quat_slerp(id, qn, w, q);
            aq_mul(r, q, r);
        }
        break;
    case MMD_MORPH_MATERIAL:
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            const mmd_morph_material *o = &mo->u.material[k];
            float v[MAT_CH];
            mat_gather(o, v);
            uint32_t lo = 0, hi = a->nmat;
            if (o->material >= 0) {
                if ((uint32_t)o->material >= a->nmat)
                    continue;
                lo = (uint32_t)o->material, hi = lo + 1;
            }
            for (uint32_t i = lo; i < hi; i++) {
                float *mul = a->mat_mul + (size_t)i * MAT_CH, *add = a->mat_add + (size_t)i * MAT_CH;
                if (o->op == 0)
                    for (int c = 0; c < MAT_CH; c++)
                        mul[c] *= 1.0f + (v[c] - 1.0f) * w;
                else
                    for (int c = 0; c < MAT_CH; c++)
                        add[c] += v[c] * w;
            }
        }
        break;
    default: /* group, flip: expanded before; impulse: weight recorded for physics */
        break;
    }
}

void mmd_anim_apply_morphs(mmd_anim *a)
{
    const mmd_model *m = a->model;
    uint32_t nm = a->nm;
    /* 1. expand group and flip morphs (nested groups ignored) */
    for (uint32_t i = 0; i < nm; i++)
        a->weights[i] = a->raw_weights[i];
    for (uint32_t i = 0; i < nm; i++) {
        const mmd_morph *mo = &m->morphs[i];
        float w = a->raw_weights[i];
        if (w == 0 || mo->offset_count == 0)
            continue;
        if (mo->type == MMD_MORPH_GROUP) {
            for (uint32_t k = 0; k < mo->offset_count; k++) {
                int32_t c = mo->u.group[k].morph;
                if (c < 0 || (uint32_t)c >= nm || c == (int32_t)i || m->morphs[c].type == MMD_MORPH_GROUP)
                    continue;
                a->weights[c] += w * mo->u.group[k].weight;
            }
        } else if (mo->type == MMD_MORPH_FLIP && w > 0) {
            int32_t n = (int32_t)mo->offset_count;
            int32_t k = (int32_t)floorf((float)(n + 1) * w) - 1;
            k = k < 0 ? 0 : k > n - 1 ? n - 1 : k;
            int32_t c = mo->u.group[k].morph;
            if (c >= 0 && (uint32_t)c < nm && c != (int32_t)i && m->morphs[c].type != MMD_MORPH_GROUP &&
                m->morphs[c].type != MMD_MORPH_FLIP)
                a->weights[c] += mo->u.group[k].weight;
        }
    }
    /* 2. reset what the previous frame changed */
    for (uint32_t i = 0; i < nm; i++)
        if (a->prev_weights[i] != 0)
            restore(a, &m->morphs[i]);
    for (uint32_t b = 0; b < a->nb; b++) {
        memset(a->morph_pos + 3 * b, 0, 12);
        aq_ident(a->morph_rot + 4 * b);
    }
    for (size_t i = 0; i < (size_t)a->nmat * MAT_CH; i++)
        a->mat_mul[i] = 1.0f, a->mat_add[i] = 0.0f;
    /* 3. apply */
    bool any_mat = false;
    for (uint32_t i = 0; i < nm; i++) {
        float w = a->weights[i];
        const mmd_morph *mo = &m->morphs[i];
        a->prev_weights[i] = (mo->type == MMD_MORPH_GROUP || mo->type == MMD_MORPH_FLIP) ? 0 : w;
        if (w == 0 || !isfinite(w))
            continue;
        if (mo->type == MMD_MORPH_MATERIAL)
            any_mat = true;
        apply_one(a, mo, w);
    }
    if (any_mat || a->mat_dirty) {
        for (uint32_t i = 0; i < a->nmat; i++) {
            float base[MAT_TINT];
            mat_base(&m->materials[i], base);
            mat_scatter(base, a->mat_mul + (size_t)i * MAT_CH, a->mat_add + (size_t)i * MAT_CH, &a->materials[i]);
        }
    }
    a->mat_dirty = any_mat;
}
