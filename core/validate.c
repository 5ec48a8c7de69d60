/* core/validate.c - model load entry points and semantic validation (see model.h).
 *
 * Parsing (pmx.c, pmd.c) checks structure; mmd_model_validate checks the
 * invariants listed in model.h that span sections: references into sections
 * read later, face counts, cycles in parent/append/group chains, IK sanity.
 * Harmless oddities (weights that do not sum to 1) are repaired and counted in
 * m->warnings; structural damage is an error naming the element.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/model_internal.h"
#include "core/sniff.h"

static const char *sec(const mmd_model *m, const char *pmx, const char *pmd)
{
    return m->format == MMD_FORMAT_PMD ? pmd : pmx;
}

#define FAIL_AT(st, section, item, offset, ...) \
    mmd_error_set(err, (st), (section), (int64_t)(item), (offset), __VA_ARGS__)
/* A repair (docs/compat.md): one kind per `what` (a static sentence). */
#define WARN_AT(section, item, offset, what) \
    mmd_warn(&m->warning_list, &m->warnings, (section), (int64_t)(item), (offset), (what))

/* Byte offset of element i of a section in the file the model came from, or -1
 * (in-memory model, or a table that no longer matches the section: model.h). */
static int64_t elem_at(const uint32_t *tab, uint32_t tab_n, uint32_t sec_n, int64_t i)
{
    if (!tab || tab_n != sec_n || i < 0 || i >= (int64_t)tab_n || tab[i] == UINT32_MAX)
        return -1;
    return tab[i];
}

#define OFS(sec, n, i) elem_at(m->file_offsets.sec, m->file_offsets.sec##_count, (n), (int64_t)(i))
#define V_AT(i) OFS(vertex, m->vertex_count, i)
#define MAT_AT(i) OFS(material, m->material_count, i)
#define BONE_AT(i) OFS(bone, m->bone_count, i)
#define MORPH_AT(i) OFS(morph, m->morph_count, i)
#define FRAME_AT(i) OFS(display_frame, m->display_frame_count, i)
#define BODY_AT(i) OFS(rigid_body, m->rigid_body_count, i)
#define JOINT_AT(i) OFS(joint, m->joint_count, i)
#define SOFT_AT(i) OFS(soft_body, m->soft_body_count, i)

/* PMX vertex: the k-th bone index field (position, normal, uv, additional UVs,
 * weight type byte, then the bone indices); the vertex start otherwise. */
static int64_t vertex_bone_at(const mmd_model *m, uint32_t i, int k)
{
    int64_t at = V_AT(i);
    int bsz = m->index_size[3];
    if (at < 0 || m->format != MMD_FORMAT_PMX || !(bsz == 1 || bsz == 2 || bsz == 4))
        return at;
    return at + 32 + 16 * (int64_t)m->additional_uv_count + 1 + (int64_t)k * bsz;
}

/* Face index i (not triangle) in the file, -1 when unknown. */
static int64_t face_at(const mmd_model *m, uint32_t i)
{
    const mmd_model_offsets *fo = &m->file_offsets;
    if (!fo->face_index_size)
        return -1;
    return (int64_t)fo->face + (int64_t)i * fo->face_index_size;
}

static bool in_range(int32_t v, uint32_t n, bool allow_none)
{
    if (v == -1)
        return allow_none;
    return v >= 0 && (uint32_t)v < n;
}

/* Walk chains next[i] (-1 ends) and report the first element on a cycle, or -1.
 * state: 0 unvisited, 1 on the current path, 2 known acyclic. O(n). */
static int32_t find_cycle(uint32_t n, const int32_t *next, uint8_t *state)
{
    memset(state, 0, n);
    for (uint32_t i = 0; i < n; i++) {
        if (state[i])
            continue;
        int32_t j = (int32_t)i;
        while (j >= 0 && state[j] == 0) {
            state[j] = 1;
            j = next[j];
        }
        if (j >= 0 && state[j] == 1)
            return j;
        /* mark the path done */
        j = (int32_t)i;
        while (j >= 0 && state[j] == 1) {
            state[j] = 2;
            j = next[j];
        }
    }
    return -1;
}

/* ---- non-finite values (docs/compat.md) ----
 * Vertex positions, bone weights and bone positions must be finite (the
 * parsers reject them at their byte offset; an in-memory model fails here).
 * Everything else is replaced by a neutral value, one warning per element. */

static bool fix_f(float *v, int n, float def)
{
    bool bad = false;
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) {
            v[i] = def;
            bad = true;
        }
    return bad;
}

static bool finite_v(const float *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

static mmd_status repair_vertices(mmd_model *m, mmd_error *err)
{
    const char *s = sec(m, "pmx.vertex", "pmd.vertex");
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        mmd_vertex *v = &m->vertices[i];
        if (!finite_v(v->position, 3))
            return FAIL_AT(MMD_E_BAD_VALUE, s, i, V_AT(i), "non-finite position");
        int used = v->weight_type == MMD_WEIGHT_BDEF1 ? 1 : (v->weight_type == MMD_WEIGHT_BDEF4 ||
                                                             v->weight_type == MMD_WEIGHT_QDEF) ? 4 : 2;
        if (!finite_v(v->weights, used))
            return FAIL_AT(MMD_E_BAD_VALUE, s, i, V_AT(i), "non-finite bone weight");
        bool bad = false;
        if (!finite_v(v->normal, 3)) /* recomputed (and counted) in repair_normals */
            v->normal[0] = v->normal[1] = v->normal[2] = 0;
        bad |= fix_f(v->uv, 2, 0);
        for (int k = 0; k < 4; k++)
            bad |= fix_f(v->add_uv[k], 4, 0);
        bad |= fix_f(&v->edge_scale, 1, 1);
        if (v->weight_type == MMD_WEIGHT_SDEF &&
            !(finite_v(v->sdef_c, 3) && finite_v(v->sdef_r0, 3) && finite_v(v->sdef_r1, 3))) {
            v->weight_type = MMD_WEIGHT_BDEF2; /* SDEF without usable C/R0/R1 is its BDEF2 */
            memset(v->sdef_c, 0, sizeof v->sdef_c);
            memset(v->sdef_r0, 0, sizeof v->sdef_r0);
            memset(v->sdef_r1, 0, sizeof v->sdef_r1);
            bad = true;
        }
        if (bad)
            WARN_AT(s, i, V_AT(i), "non-finite UV, edge scale or SDEF values: neutral values (SDEF as BDEF2)");
    }
    return MMD_OK;
}

static void repair_materials(mmd_model *m)
{
    for (uint32_t i = 0; i < m->material_count; i++) {
        mmd_material *mt = &m->materials[i];
        bool bad = fix_f(mt->diffuse, 4, 1);
        bad |= fix_f(mt->specular, 3, 0);
        bad |= fix_f(&mt->specular_power, 1, 0);
        bad |= fix_f(mt->ambient, 3, 0);
        bad |= fix_f(mt->edge_color, 4, 0);
        bad |= fix_f(&mt->edge_size, 1, 0);
        if (bad)
            WARN_AT(sec(m, "pmx.material", "pmd.material"), i, MAT_AT(i),
                    "non-finite material values: diffuse 1, others 0");
    }
}

static mmd_status repair_bones(mmd_model *m, mmd_error *err)
{
    const char *s = sec(m, "pmx.bone", "pmd.bone");
    for (uint32_t i = 0; i < m->bone_count; i++) {
        mmd_bone *b = &m->bones[i];
        if (!finite_v(b->position, 3))
            return FAIL_AT(MMD_E_BAD_VALUE, s, i, BONE_AT(i), "non-finite position");
        bool bad = fix_f(b->tail_offset, 3, 0);
        bad |= fix_f(&b->append_ratio, 1, 0);
        bad |= fix_f(b->fixed_axis, 3, 0); /* zero axis: the bone cannot rotate (pose.c) */
        bad |= fix_f(b->local_x, 3, 0);
        bad |= fix_f(b->local_z, 3, 0);
        /* unit angle: NaN reads as pi (no per-iteration cap), a negative one by its size */
        bad |= fix_f(&b->ik_limit_angle, 1, (float)M_PI);
        if (b->ik_limit_angle < 0) {
            b->ik_limit_angle = -b->ik_limit_angle;
            bad = true;
        }
        for (uint32_t k = 0; k < b->ik_link_count; k++) {
            mmd_ik_link *l = &b->ik_links[k];
            if (l->has_limit && !(finite_v(l->lower, 3) && finite_v(l->upper, 3))) {
                l->has_limit = false; /* a limit we cannot read is no limit */
                memset(l->lower, 0, sizeof l->lower);
                memset(l->upper, 0, sizeof l->upper);
                bad = true;
            }
        }
        if (bad)
            WARN_AT(s, i, BONE_AT(i), "non-finite or negative bone/IK values: neutral values");
    }
    return MMD_OK;
}

/* Offset k of morph mo to neutral values where it is not finite; true if it was not. */
static bool repair_morph_offset(mmd_morph *mo, uint32_t k)
{
    bool bad = false;
    switch (mo->type) {
    case MMD_MORPH_GROUP:
    case MMD_MORPH_FLIP: return fix_f(&mo->u.group[k].weight, 1, 0);
    case MMD_MORPH_VERTEX: return fix_f(mo->u.vertex[k].offset, 3, 0);
    case MMD_MORPH_BONE: {
        mmd_morph_bone *o = &mo->u.bone[k];
        bad = fix_f(o->translation, 3, 0);
        if (!finite_v(o->rotation, 4)) {
            o->rotation[0] = o->rotation[1] = o->rotation[2] = 0;
            o->rotation[3] = 1;
            bad = true;
        }
        return bad;
    }
    case MMD_MORPH_MATERIAL: {
        mmd_morph_material *o = &mo->u.material[k];
        float def = o->op == 0 ? 1.0f : 0.0f; /* neutral for multiply / add */
        bad = fix_f(o->diffuse, 4, def);
        bad |= fix_f(o->specular, 3, def);
        bad |= fix_f(&o->specular_power, 1, def);
        bad |= fix_f(o->ambient, 3, def);
        bad |= fix_f(o->edge_color, 4, def);
        bad |= fix_f(&o->edge_size, 1, def);
        bad |= fix_f(o->texture_tint, 4, def);
        bad |= fix_f(o->sphere_tint, 4, def);
        bad |= fix_f(o->toon_tint, 4, def);
        return bad;
    }
    case MMD_MORPH_IMPULSE:
        bad = fix_f(mo->u.impulse[k].velocity, 3, 0);
        bad |= fix_f(mo->u.impulse[k].torque, 3, 0);
        return bad;
    default: return fix_f(mo->u.uv[k].offset, 4, 0); /* UV, add UV */
    }
}

static void repair_morphs(mmd_model *m)
{
    for (uint32_t i = 0; i < m->morph_count; i++) {
        mmd_morph *mo = &m->morphs[i];
        bool bad = false;
        for (uint32_t k = 0; k < mo->offset_count; k++)
            bad |= repair_morph_offset(mo, k);
        if (bad)
            WARN_AT(sec(m, "pmx.morph", "pmd.morph"), i, MORPH_AT(i), "non-finite morph offsets: no effect there");
    }
}

/* Rigid bodies, joints and soft bodies. */
static void repair_physics(mmd_model *m)
{
    for (uint32_t i = 0; i < m->rigid_body_count; i++) {
        mmd_rigid_body *b = &m->rigid_bodies[i];
        bool bad = fix_f(b->size, 3, 0);
        bad |= fix_f(b->position, 3, 0);
        bad |= fix_f(b->rotation, 3, 0);
        bad |= fix_f(&b->mass, 1, 1);
        bad |= fix_f(&b->linear_damping, 1, 0);
        bad |= fix_f(&b->angular_damping, 1, 0);
        bad |= fix_f(&b->restitution, 1, 0);
        bad |= fix_f(&b->friction, 1, 0);
        if (bad)
            WARN_AT(sec(m, "pmx.rigid_body", "pmd.rigid_body"), i, BODY_AT(i), "non-finite rigid body values: 0 (mass 1)");
    }
    for (uint32_t i = 0; i < m->joint_count; i++) {
        mmd_joint *j = &m->joints[i];
        bool bad = fix_f(j->position, 3, 0);
        bad |= fix_f(j->rotation, 3, 0);
        bad |= fix_f(j->linear_lower, 3, 0);
        bad |= fix_f(j->linear_upper, 3, 0);
        bad |= fix_f(j->angular_lower, 3, 0);
        bad |= fix_f(j->angular_upper, 3, 0);
        bad |= fix_f(j->spring_linear, 3, 0);
        bad |= fix_f(j->spring_angular, 3, 0);
        if (bad)
            WARN_AT(sec(m, "pmx.joint", "pmd.joint"), i, JOINT_AT(i), "non-finite joint values: 0");
    }
    for (uint32_t i = 0; i < m->soft_body_count; i++) {
        mmd_soft_body *b = &m->soft_bodies[i];
        bool bad = fix_f(&b->total_mass, 1, 0);
        bad |= fix_f(&b->margin, 1, 0);
        bad |= fix_f(b->config, 12, 0);
        bad |= fix_f(b->cluster, 6, 0);
        bad |= fix_f(b->material_coef, 3, 0);
        if (bad)
            WARN_AT("pmx.soft_body", i, SOFT_AT(i), "non-finite soft body values: 0");
    }
}

static mmd_status repair_values(mmd_model *m, mmd_error *err)
{
    mmd_status st = repair_vertices(m, err);
    if (st == MMD_OK) {
        repair_materials(m);
        st = repair_bones(m, err);
    }
    if (st == MMD_OK) {
        repair_morphs(m);
        repair_physics(m);
    }
    return st;
}

/* Zero-length normals (in the file, or non-finite ones zeroed above) are
 * recomputed as the area-weighted sum of the adjacent faces' normals
 * ((v1-v0)x(v2-v0), the front side of MMD's clockwise faces); a vertex on no
 * face, or on degenerate faces only, gets (0,1,0). Runs after the face check. */
static void repair_normals(mmd_model *m)
{
    uint32_t nbad = 0;
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const float *n = m->vertices[i].normal;
        if (!(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 1e-12f))
            nbad++;
    }
    if (!nbad)
        return;
    uint8_t *mark = calloc(m->vertex_count, 1);
    if (mark) {
        for (uint32_t i = 0; i < m->vertex_count; i++) {
            float *n = m->vertices[i].normal;
            if (!(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 1e-12f)) {
                mark[i] = 1;
                n[0] = n[1] = n[2] = 0;
            }
        }
        for (uint32_t f = 0; f + 2 < m->index_count; f += 3) {
            const uint32_t *ix = m->indices + f;
            if (!(mark[ix[0]] | mark[ix[1]] | mark[ix[2]]))
                continue;
            const float *a = m->vertices[ix[0]].position, *b = m->vertices[ix[1]].position,
                        *c = m->vertices[ix[2]].position;
            double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            double fn[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                            e1[0] * e2[1] - e1[1] * e2[0]};
            for (int k = 0; k < 3; k++)
                if (mark[ix[k]])
                    for (int c3 = 0; c3 < 3; c3++)
                        m->vertices[ix[k]].normal[c3] += (float)fn[c3];
        }
    }
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        float *n = m->vertices[i].normal;
        bool was_bad = mark ? mark[i] != 0 : !(n[0] * n[0] + n[1] * n[1] + n[2] * n[2] > 1e-12f);
        if (!was_bad)
            continue;
        double l = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
        if (mark && l > 1e-12 && isfinite(l)) {
            n[0] = (float)(n[0] / l), n[1] = (float)(n[1] / l), n[2] = (float)(n[2] / l);
        } else { /* no usable face (or out of memory) */
            n[0] = 0, n[1] = 1, n[2] = 0;
        }
        WARN_AT(sec(m, "pmx.vertex", "pmd.vertex"), i, V_AT(i),
                "zero-length or non-finite normal: recomputed from the faces");
    }
    free(mark);
}

static mmd_status check_vertices(mmd_model *m, mmd_error *err)
{
    const char *s = sec(m, "pmx.vertex", "pmd.vertex");
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        mmd_vertex *v = &m->vertices[i];
        int used;
        switch (v->weight_type) {
        case MMD_WEIGHT_BDEF1: used = 1; break;
        case MMD_WEIGHT_BDEF2:
        case MMD_WEIGHT_SDEF: used = 2; break;
        case MMD_WEIGHT_BDEF4:
        case MMD_WEIGHT_QDEF: used = 4; break;
        default: return FAIL_AT(MMD_E_BAD_VALUE, s, i, V_AT(i), "weight type %u", v->weight_type);
        }
        bool fixed = false; /* one warning per repaired vertex */
        int any = 0;
        for (int k = 0; k < 4; k++) {
            int32_t b = v->bones[k];
            if (k >= used) {
                if (b != -1)
                    return FAIL_AT(MMD_E_BAD_INDEX, s, i, V_AT(i), "unused bone slot %d is %d, not -1", k, b);
                continue;
            }
            if (!in_range(b, m->bone_count, true))
                return FAIL_AT(MMD_E_BAD_INDEX, s, i, vertex_bone_at(m, i, k), "bone %d out of range (%u bones)", b,
                               m->bone_count);
            if (b >= 0)
                any = 1;
        }
        if (!any && m->bone_count) {
            /* every slot -1 (converters' static meshes): bind to bone 0, which MMD
             * models reserve for the root ("全ての親" / "センター") */
            v->weight_type = MMD_WEIGHT_BDEF1;
            v->bones[0] = 0;
            v->bones[1] = v->bones[2] = v->bones[3] = -1;
            v->weights[0] = 1;
            v->weights[1] = v->weights[2] = v->weights[3] = 0;
            WARN_AT(s, i, V_AT(i), "vertex with no bone (every slot -1): BDEF1 on bone 0");
            continue;
        }
        if (!any)
            continue;
        if (used == 2 && !(v->weights[0] >= 0 && v->weights[0] <= 1)) {
            /* BDEF2/SDEF weight outside [0,1] extrapolates past both bones: clamp */
            v->weights[0] = v->weights[0] < 0 ? 0.0f : 1.0f;
            v->weights[1] = 1.0f - v->weights[0];
            fixed = true;
        }
        if (used == 4) {
            bool neg = false;
            for (int k = 0; k < 4; k++)
                if (v->weights[k] < 0) {
                    v->weights[k] = 0; /* negative weights: dropped, the rest renormalised below */
                    neg = true;
                }
            fixed |= neg;
        }
        /* repair: weights of -1 slots are zero, BDEF4/QDEF weights sum to 1 */
        if (used == 4 || v->bones[0] < 0 || v->bones[1] < 0) {
            float sum = 0;
            int changed = 0;
            for (int k = 0; k < used; k++) {
                if (v->bones[k] < 0 && v->weights[k] != 0) {
                    v->weights[k] = 0;
                    changed = 1;
                }
                sum += v->weights[k];
            }
            if (!(sum > 1e-6f)) {
                /* no usable weight: give everything to the first real bone */
                for (int k = 0; k < used; k++)
                    v->weights[k] = 0;
                for (int k = 0; k < used; k++)
                    if (v->bones[k] >= 0) {
                        v->weights[k] = 1;
                        break;
                    }
                fixed = true;
            } else if (fabsf(sum - 1.0f) > 1e-3f) {
                for (int k = 0; k < used; k++)
                    v->weights[k] /= sum;
                fixed = true;
            } else if (changed) {
                fixed = true;
            }
        }
        if (fixed)
            WARN_AT(s, i, V_AT(i), "bone weights out of range or not summing to 1: clamped/renormalised");
    }
    return MMD_OK;
}

static mmd_status check_faces_materials(mmd_model *m, mmd_error *err)
{
    const char *sf = sec(m, "pmx.face", "pmd.face");
    const char *sm = sec(m, "pmx.material", "pmd.material");
    for (uint32_t i = 0; i < m->index_count; i++)
        if (m->indices[i] >= m->vertex_count)
            return FAIL_AT(MMD_E_BAD_INDEX, sf, i / 3, face_at(m, i), "vertex %u out of range (%u vertices)",
                           m->indices[i], m->vertex_count);
    if (m->index_count % 3)
        return FAIL_AT(MMD_E_BAD_COUNT, sf, -1, m->file_offsets.face_index_size ? face_at(m, 0) - 4 : -1,
                       "index count %u is not a multiple of 3", m->index_count);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < m->material_count; i++) {
        const mmd_material *mt = &m->materials[i];
        if (mt->index_count % 3)
            return FAIL_AT(MMD_E_BAD_COUNT, sm, i, MAT_AT(i), "index count %u is not a multiple of 3", mt->index_count);
        if (!in_range(mt->texture, m->texture_count, true))
            return FAIL_AT(MMD_E_BAD_INDEX, sm, i, MAT_AT(i), "texture %d out of range (%u textures)", mt->texture,
                           m->texture_count);
        if (!in_range(mt->sphere_texture, m->texture_count, true))
            return FAIL_AT(MMD_E_BAD_INDEX, sm, i, MAT_AT(i), "sphere texture %d out of range (%u textures)",
                           mt->sphere_texture, m->texture_count);
        if (mt->toon_shared ? !(mt->toon >= -1 && mt->toon <= 9) : !in_range(mt->toon, m->texture_count, true))
            return FAIL_AT(MMD_E_BAD_INDEX, sm, i, MAT_AT(i), "toon %d out of range", mt->toon);
        sum += mt->index_count;
    }
    if (sum != m->index_count)
        return FAIL_AT(MMD_E_BAD_COUNT, sm, -1,
                       m->file_offsets.material ? (int64_t)m->file_offsets.material_section : -1,
                       "material index counts sum to %llu, not the index count %u", (unsigned long long)sum,
                       m->index_count);
    return MMD_OK;
}

static mmd_status check_bones(mmd_model *m, uint8_t *state, int32_t *next, mmd_error *err)
{
    const char *s = sec(m, "pmx.bone", "pmd.bone");
    uint32_t n = m->bone_count;
    for (uint32_t i = 0; i < n; i++) {
        const mmd_bone *b = &m->bones[i];
        if (!in_range(b->parent, n, true))
            return FAIL_AT(MMD_E_BAD_INDEX, s, i, BONE_AT(i), "parent %d out of range (%u bones)", b->parent, n);
        if (!in_range(b->tail_bone, n, true))
            return FAIL_AT(MMD_E_BAD_INDEX, s, i, BONE_AT(i), "tail bone %d out of range (%u bones)", b->tail_bone, n);
        if (!in_range(b->append_parent, n, true))
            return FAIL_AT(MMD_E_BAD_INDEX, s, i, BONE_AT(i),
                           "append parent %d out of range (%u bones)", b->append_parent, n);
        if (b->flags & MMD_BONE_IK) {
            if (!in_range(b->ik_target, n, false))
                return FAIL_AT(MMD_E_BAD_INDEX, s, i, BONE_AT(i),
                               "IK target %d out of range (%u bones)", b->ik_target, n);
            if (b->ik_target == (int32_t)i)
                return FAIL_AT(MMD_E_BAD_STRUCTURE, s, i, BONE_AT(i), "IK bone is its own target");
            if (b->ik_loop < 0 || b->ik_loop > MMD_MAX_IK_LOOPS)
                return FAIL_AT(MMD_E_BAD_VALUE, s, i, BONE_AT(i), "IK loop count %d out of range", b->ik_loop);
            for (uint32_t k = 0; k < b->ik_link_count; k++) {
                int32_t l = b->ik_links[k].bone;
                if (!in_range(l, n, false))
                    return FAIL_AT(MMD_E_BAD_INDEX, s, i, BONE_AT(i),
                                   "IK link %u: bone %d out of range (%u bones)", k, l, n);
                if (l == (int32_t)i)
                    return FAIL_AT(MMD_E_BAD_STRUCTURE, s, i, BONE_AT(i), "IK link %u is the IK bone itself", k);
            }
        } else if (b->ik_link_count) {
            return FAIL_AT(MMD_E_BAD_STRUCTURE, s, i, BONE_AT(i), "IK links on a bone without the IK flag");
        }
        next[i] = b->parent;
    }
    int32_t c = find_cycle(n, next, state);
    if (c >= 0)
        return FAIL_AT(MMD_E_BAD_STRUCTURE, s, c, BONE_AT(c), "parent chain loops back to bone %d", c);
    for (uint32_t i = 0; i < n; i++) {
        const mmd_bone *b = &m->bones[i];
        next[i] = (b->flags & (MMD_BONE_APPEND_ROTATE | MMD_BONE_APPEND_TRANSLATE)) ? b->append_parent : -1;
    }
    c = find_cycle(n, next, state);
    if (c >= 0)
        return FAIL_AT(MMD_E_BAD_STRUCTURE, s, c, BONE_AT(c), "append (inherit) chain loops back to bone %d", c);
    return MMD_OK;
}

static mmd_status check_morphs(mmd_model *m, uint8_t *state, int32_t *next, mmd_error *err)
{
    const char *s = sec(m, "pmx.morph", "pmd.morph");
    uint32_t n = m->morph_count;
    for (uint32_t i = 0; i < n; i++) {
        const mmd_morph *mo = &m->morphs[i];
        for (uint32_t k = 0; k < mo->offset_count; k++) {
            switch (mo->type) {
            case MMD_MORPH_GROUP:
            case MMD_MORPH_FLIP:
                if (!in_range(mo->u.group[k].morph, n, false))
                    return FAIL_AT(MMD_E_BAD_INDEX, s, i, MORPH_AT(i),
                                   "offset %u: morph %d out of range (%u morphs)", k,
                                   mo->u.group[k].morph, n);
                break;
            case MMD_MORPH_VERTEX:
                if (mo->u.vertex[k].vertex >= m->vertex_count)
                    return FAIL_AT(MMD_E_BAD_INDEX, s, i, MORPH_AT(i),
                                   "offset %u: vertex %u out of range (%u vertices)", k,
                                   mo->u.vertex[k].vertex, m->vertex_count);
                break;
            case MMD_MORPH_BONE:
                if (!in_range(mo->u.bone[k].bone, m->bone_count, false))
                    return FAIL_AT(MMD_E_BAD_INDEX, s, i, MORPH_AT(i), "offset %u: bone %d out of range (%u bones)", k,
                                   mo->u.bone[k].bone, m->bone_count);
                break;
            case MMD_MORPH_MATERIAL:
                if (!in_range(mo->u.material[k].material, m->material_count, true))
                    return FAIL_AT(MMD_E_BAD_INDEX, s, i, MORPH_AT(i),
                                   "offset %u: material %d out of range (%u materials)", k,
                                   mo->u.material[k].material, m->material_count);
                break;
            case MMD_MORPH_IMPULSE:
                if (!in_range(mo->u.impulse[k].rigid_body, m->rigid_body_count, false))
                    return FAIL_AT(MMD_E_BAD_INDEX, s, i, MORPH_AT(i),
                                   "offset %u: rigid body %d out of range (%u rigid bodies)",
                                   k, mo->u.impulse[k].rigid_body, m->rigid_body_count);
                break;
            case MMD_MORPH_UV:
            case MMD_MORPH_ADD_UV1:
            case MMD_MORPH_ADD_UV2:
            case MMD_MORPH_ADD_UV3:
            case MMD_MORPH_ADD_UV4:
                if (mo->u.uv[k].vertex >= m->vertex_count)
                    return FAIL_AT(MMD_E_BAD_INDEX, s, i, MORPH_AT(i),
                                   "offset %u: vertex %u out of range (%u vertices)", k,
                                   mo->u.uv[k].vertex, m->vertex_count);
                break;
            default: return FAIL_AT(MMD_E_BAD_VALUE, s, i, MORPH_AT(i), "morph type %u", mo->type);
            }
        }
    }
    /* Group morphs containing group morphs are outside the spec; a group that
     * reaches itself would recurse forever in a naive evaluator. Ours (morph.c)
     * expands one level, so a cycle is only counted as a warning.
     * Iterative DFS over group->group edges (state 1 = on the stack, 2 = done);
     * next[] is the stack and cursor[] each entry's position in its offsets, so
     * every offset is looked at once: O(morphs + offsets). */
    uint32_t *cursor = calloc(n ? n : 1, sizeof *cursor);
    if (!cursor)
        return FAIL_AT(MMD_E_NOMEM, s, -1, -1, "out of memory");
    memset(state, 0, n);
    for (uint32_t root = 0; root < n; root++) {
        if (state[root] || m->morphs[root].type != MMD_MORPH_GROUP)
            continue;
        int32_t sp = 0;
        next[sp++] = (int32_t)root;
        state[root] = 1;
        while (sp > 0) {
            int32_t cur = next[sp - 1];
            const mmd_morph *mo = &m->morphs[cur];
            int32_t child = -1;
            while (cursor[cur] < mo->offset_count && child < 0) {
                int32_t t = mo->u.group[cursor[cur]++].morph;
                if (m->morphs[t].type != MMD_MORPH_GROUP)
                    continue;
                if (state[t] == 1) /* a group reaching itself: harmless (one level expanded) */
                    WARN_AT(s, cur, MORPH_AT(cur), "group morph reaching itself: nested groups ignored");
                else if (state[t] == 0)
                    child = t;
            }
            if (child >= 0) {
                state[child] = 1;
                next[sp++] = child;
            } else {
                state[cur] = 2;
                sp--;
            }
        }
    }
    free(cursor);
    return MMD_OK;
}

static mmd_status check_rest(mmd_model *m, mmd_error *err)
{
    const char *s = sec(m, "pmx.display_frame", "pmd.display_frame");
    for (uint32_t i = 0; i < m->display_frame_count; i++) {
        const mmd_display_frame *f = &m->display_frames[i];
        for (uint32_t k = 0; k < f->element_count; k++) {
            const mmd_frame_element *e = &f->elements[k];
            uint32_t lim = e->is_morph ? m->morph_count : m->bone_count;
            if (!in_range(e->index, lim, false))
                return FAIL_AT(MMD_E_BAD_INDEX, s, i, FRAME_AT(i), "element %u: %s %d out of range", k,
                               e->is_morph ? "morph" : "bone", e->index);
        }
    }
    s = sec(m, "pmx.rigid_body", "pmd.rigid_body");
    for (uint32_t i = 0; i < m->rigid_body_count; i++) {
        const mmd_rigid_body *b = &m->rigid_bodies[i];
        if (!in_range(b->bone, m->bone_count, true))
            return FAIL_AT(MMD_E_BAD_INDEX, s, i, BODY_AT(i),
                           "bone %d out of range (%u bones)", b->bone, m->bone_count);
        if (b->shape > MMD_SHAPE_CAPSULE || b->mode > MMD_BODY_PHYSICS_BONE_POS || b->group > 15)
            return FAIL_AT(MMD_E_BAD_VALUE, s, i, BODY_AT(i),
                           "shape %u / mode %u / group %u out of range", b->shape, b->mode,
                           b->group);
    }
    s = sec(m, "pmx.joint", "pmd.joint");
    for (uint32_t i = 0; i < m->joint_count; i++) {
        const mmd_joint *j = &m->joints[i];
        if (!in_range(j->body_a, m->rigid_body_count, true))
            return FAIL_AT(MMD_E_BAD_INDEX, s, i, JOINT_AT(i),
                           "rigid body A %d out of range (%u rigid bodies)", j->body_a,
                           m->rigid_body_count);
        if (!in_range(j->body_b, m->rigid_body_count, true))
            return FAIL_AT(MMD_E_BAD_INDEX, s, i, JOINT_AT(i),
                           "rigid body B %d out of range (%u rigid bodies)", j->body_b,
                           m->rigid_body_count);
        if (j->type > MMD_JOINT_HINGE)
            return FAIL_AT(MMD_E_BAD_VALUE, s, i, JOINT_AT(i), "joint type %u", j->type);
    }
    s = "pmx.soft_body";
    for (uint32_t i = 0; i < m->soft_body_count; i++) {
        const mmd_soft_body *b = &m->soft_bodies[i];
        if (!in_range(b->material, m->material_count, true))
            return FAIL_AT(MMD_E_BAD_INDEX, s, i, SOFT_AT(i), "material %d out of range (%u materials)", b->material,
                           m->material_count);
        for (uint32_t k = 0; k < b->anchor_count; k++) {
            if (!in_range(b->anchors[k].rigid_body, m->rigid_body_count, false))
                return FAIL_AT(MMD_E_BAD_INDEX, s, i, SOFT_AT(i), "anchor %u: rigid body %d out of range", k,
                               b->anchors[k].rigid_body);
            if (b->anchors[k].vertex >= m->vertex_count)
                return FAIL_AT(MMD_E_BAD_INDEX, s, i, SOFT_AT(i),
                               "anchor %u: vertex %u out of range", k, b->anchors[k].vertex);
        }
        for (uint32_t k = 0; k < b->pin_count; k++)
            if (b->pins[k] >= m->vertex_count)
                return FAIL_AT(MMD_E_BAD_INDEX, s, i, SOFT_AT(i), "pin %u: vertex %u out of range", k, b->pins[k]);
    }
    return MMD_OK;
}

/* Stable order by (after-physics, layer, index): a counting-free merge sort. */
static bool order_less(const mmd_model *m, int32_t a, int32_t b)
{
    const mmd_bone *x = &m->bones[a], *y = &m->bones[b];
    int pa = (x->flags & MMD_BONE_AFTER_PHYSICS) != 0, pb = (y->flags & MMD_BONE_AFTER_PHYSICS) != 0;
    if (pa != pb)
        return pa < pb;
    if (x->layer != y->layer)
        return x->layer < y->layer;
    return a < b;
}

static void merge_sort(const mmd_model *m, int32_t *v, int32_t *tmp, uint32_t n)
{
    if (n < 2)
        return;
    uint32_t h = n / 2;
    merge_sort(m, v, tmp, h);
    merge_sort(m, v + h, tmp, n - h);
    uint32_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = order_less(m, v[j], v[i]) ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, (size_t)n * sizeof *v);
}

void mmd_model_bone_order(const mmd_model *m, int32_t *order, int32_t *scratch)
{
    for (uint32_t i = 0; i < m->bone_count; i++)
        order[i] = (int32_t)i;
    merge_sort(m, order, scratch, m->bone_count);
}

mmd_status mmd_model_validate(mmd_model *m, mmd_error *err)
{
    if (!m)
        return mmd_error_set(err, MMD_E_BAD_STRUCTURE, "model", -1, -1, "no model");
    if (err)
        mmd_error_set(err, MMD_OK, NULL, -1, -1, "ok");
    uint32_t n = m->bone_count > m->morph_count ? m->bone_count : m->morph_count;
    uint8_t *state = malloc(n ? n : 1);
    int32_t *next = malloc((n ? n : 1) * sizeof *next);
    mmd_status st = MMD_OK;
    if (!state || !next) {
        st = mmd_error_set(err, MMD_E_NOMEM, "model", -1, -1, "out of memory");
        goto done;
    }
    if ((st = repair_values(m, err)) != MMD_OK)
        goto done;
    if ((st = check_vertices(m, err)) != MMD_OK)
        goto done;
    if ((st = check_faces_materials(m, err)) != MMD_OK)
        goto done;
    repair_normals(m);
    if ((st = check_bones(m, state, next, err)) != MMD_OK)
        goto done;
    if ((st = check_morphs(m, state, next, err)) != MMD_OK)
        goto done;
    if ((st = check_rest(m, err)) != MMD_OK)
        goto done;
    int32_t *order = mmd_arena_array(m->arena, m->bone_count ? m->bone_count : 1, sizeof *order);
    if (!order) {
        st = mmd_error_set(err, MMD_E_NOMEM, "model", -1, -1, "out of memory");
        goto done;
    }
    mmd_model_bone_order(m, order, next);
    m->eval_order = order;
done:
    free(state);
    free(next);
    return st;
}

mmd_status mmd_model_load(const void *data, size_t size, mmd_model **out, mmd_error *err)
{
    mmd_error local;
    if (!err)
        err = &local;
    if (!out)
        return mmd_error_set(err, MMD_E_BAD_STRUCTURE, "model", -1, -1, "no output pointer");
    const uint8_t *b = data;
    const mmd_sniff_row *f = mmd_sniff(b, size);
    int pmx = f && f->id == MMD_FILE_PMX;
    int pmd = f && f->id == MMD_FILE_PMD;
    if (!pmx && !pmd)
        return mmd_error_set(err, MMD_E_BAD_MAGIC, "model", -1, 0, "not a PMX or PMD file");
    mmd_arena *a = mmd_arena_create();
    mmd_text *t = mmd_text_create();
    mmd_model *m = a ? mmd_arena_alloc(a, sizeof *m) : NULL;
    if (!a || !t || !m) {
        mmd_arena_destroy(a);
        mmd_text_destroy(t);
        return mmd_error_set(err, MMD_E_NOMEM, "model", -1, -1, "out of memory");
    }
    m->arena = a;
    mmd_status st = pmx ? mmd_pmx_parse(b, size, m, t, err) : mmd_pmd_parse(b, size, m, t, err);
    mmd_text_destroy(t);
    if (st == MMD_OK)
        st = mmd_model_validate(m, err);
    if (st != MMD_OK) {
        mmd_arena_destroy(a);
        return st;
    }
    *out = m;
    return MMD_OK;
}

mmd_status mmd_model_load_file(const char *path, mmd_model **out, mmd_error *err)
{
    void *data = NULL;
    size_t size = 0;
    mmd_status st = mmd_file_read(path, &data, &size, err);
    if (st != MMD_OK)
        return st;
    st = mmd_model_load(data, size, out, err);
    free(data);
    return st;
}

void mmd_model_free(mmd_model *m)
{
    if (m)
        mmd_arena_destroy(m->arena); /* the model itself lives in its arena */
}

int32_t mmd_model_find_bone(const mmd_model *m, const char *name)
{
    if (!m || !name)
        return -1;
    for (uint32_t i = 0; i < m->bone_count; i++)
        if (m->bones[i].name && strcmp(m->bones[i].name, name) == 0)
            return (int32_t)i;
    return -1;
}

int32_t mmd_model_find_morph(const mmd_model *m, const char *name)
{
    if (!m || !name)
        return -1;
    for (uint32_t i = 0; i < m->morph_count; i++)
        if (m->morphs[i].name && strcmp(m->morphs[i].name, name) == 0)
            return (int32_t)i;
    return -1;
}
