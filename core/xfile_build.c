/* core/xfile_build.c - .x load entry: header, decompression, the check of the
 * parsed meshes (indices, counts) with their byte offsets, flattening into one
 * vertex/index list grouped by material, and mmd_x_validate. */
#include <cglm/cglm.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/model.h"
#include "core/xfile_parse.h"

static bool ok(const xp *p) { return mmd_rd_ok(&p->r); }

static void fail_mesh(xp *p, const xraw_mesh *me, size_t at, mmd_status st, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void fail_mesh(xp *p, const xraw_mesh *me, size_t at, mmd_status st, const char *fmt, ...)
{
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    p->r.section = "x.mesh";
    p->r.item = me->index;
    mmd_rd_fail_at(&p->r, at, st, "%s", buf);
}

/* Indices and counts of one raw mesh (offsets of the face or list that is wrong). */
static void check_mesh(xp *p, const xraw_mesh *me)
{
    size_t c = 0;
    for (size_t f = 0; f < me->face_n.n && ok(p); f++)
        for (uint32_t j = 0; j < me->face_n.v[f]; j++, c++)
            if (me->face_i.v[c] >= me->nv)
                fail_mesh(p, me, me->face_at[f], MMD_E_BAD_INDEX, "%s index %u out of range (%u vertices)",
                          "face vertex", me->face_i.v[c], me->nv);
    if (me->has_nrm && ok(p)) {
        if (me->nface_n.n != me->face_n.n)
            fail_mesh(p, me, me->nrm_at, MMD_E_BAD_COUNT, "%s: %u faces for %u mesh faces", "MeshNormals",
                      (uint32_t)me->nface_n.n, (uint32_t)me->face_n.n);
        for (size_t f = 0; f < me->nface_n.n && ok(p); f++)
            if (me->nface_n.v[f] != me->face_n.v[f])
                fail_mesh(p, me, me->nrm_at, MMD_E_BAD_COUNT, "%s: a face of %u corners for %u", "MeshNormals",
                          me->nface_n.v[f], me->face_n.v[f]);
        for (size_t i = 0; i < me->nface_i.n && ok(p); i++)
            if (me->nface_i.v[i] >= me->nn)
                fail_mesh(p, me, me->nrm_at, MMD_E_BAD_INDEX, "%s: normal index %u out of range (%u normals)",
                          "MeshNormals", me->nface_i.v[i], me->nn);
    }
    if (me->has_mat && ok(p)) {
        if (me->nmat_idx > me->face_n.n || (me->nmat_idx == 0 && me->face_n.n > 0))
            fail_mesh(p, me, me->mat_at, MMD_E_BAD_COUNT, "%s: %u face indices for %u faces",
                      "MeshMaterialList", me->nmat_idx, (uint32_t)me->face_n.n);
        if (me->mats_have != me->nmat && ok(p))
            fail_mesh(p, me, me->mat_at, MMD_E_BAD_COUNT, "%s: %u materials given, %u declared",
                      "MeshMaterialList", me->mats_have, me->nmat);
        for (uint32_t i = 0; i < me->nmat_idx && ok(p); i++)
            if (me->mat_idx[i] >= me->nmat)
                fail_mesh(p, me, me->mat_at, MMD_E_BAD_INDEX, "%s: material index %u out of range (%u)",
                          "MeshMaterialList", me->mat_idx[i], me->nmat);
    }
}

static uint32_t face_material(const xraw_mesh *me, size_t f)
{
    if (!me->has_mat)
        return 0;
    return me->mat_idx[f < me->nmat_idx ? f : me->nmat_idx - 1];
}

/* Whether every corner's normal index equals its vertex index (vertices can be shared). */
static bool shared_vertices(const xraw_mesh *me)
{
    if (!me->has_nrm)
        return true;
    for (size_t i = 0; i < me->face_i.n; i++)
        if (me->nface_i.v[i] != me->face_i.v[i])
            return false;
    return true;
}

static void world_of(const xframe *f, float out[16])
{
    mat4 m, t;
    glm_mat4_identity(m);
    for (; f; f = f->parent) {
        glm_mat4_mul((vec4 *)f->local, m, t);
        glm_mat4_copy(t, m);
    }
    glm_mat4_ucopy(m, (vec4 *)out);
}

/* Inverse transpose of the upper 3x3 (for normals); the 3x3 itself when singular. */
static void normal_matrix(const float m[16], float n[9])
{
    float a = m[0], b = m[4], c = m[8], d = m[1], e = m[5], f = m[9], g = m[2], h = m[6], i = m[10];
    float A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    float det = a * A + b * B + c * C;
    if (fabsf(det) < 1e-20f) {
        float s[9] = {a, d, g, b, e, h, c, f, i};
        memcpy(n, s, sizeof s);
        return;
    }
    /* cofactor matrix / det = inverse transpose; n is column-major */
    float co[9] = {A, B, C, -(b * i - c * h), a * i - c * g, -(a * h - b * g), b * f - c * e,
                   -(a * f - c * d), a * e - b * d};
    for (int k = 0; k < 9; k++)
        co[k] /= det;
    /* co is the cofactor matrix row by row; n is column-major */
    for (int col = 0; col < 3; col++)
        for (int row = 0; row < 3; row++)
            n[col * 3 + row] = co[row * 3 + col];
}

static void normalize3(float v[3])
{
    double l = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
    if (l < 1e-12 || !isfinite(l)) {
        v[0] = 0, v[1] = 1, v[2] = 0;
        return;
    }
    for (int k = 0; k < 3; k++)
        v[k] = (float)(v[k] / l);
}

static void computed_normals(const xraw_mesh *me, float *sum)
{
    size_t c = 0;
    for (size_t f = 0; f < me->face_n.n; f++) {
        uint32_t k = me->face_n.v[f];
        for (uint32_t j = 1; j + 1 < k; j++) {
            const float *a = me->pos + 3 * (size_t)me->face_i.v[c], *b = me->pos + 3 * (size_t)me->face_i.v[c + j],
                        *d = me->pos + 3 * (size_t)me->face_i.v[c + j + 1];
            float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
            float n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
            double l = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
            if (l < 1e-20)
                continue;
            for (int s = 0; s < 3; s++)
                for (int q = 0; q < 3; q++)
                    sum[3 * (size_t)me->face_i.v[c + (s == 0 ? 0 : j + (uint32_t)s - 1)] + q] += (float)(n[q] / l);
        }
        c += k;
    }
}

static void put_vertex(mmd_accessory_vertex *v, const xraw_mesh *me, uint32_t pi, const float *nrm, const float m[16],
                       const float nm[9])
{
    const float *p = me->pos + 3 * (size_t)pi;
    for (int r = 0; r < 3; r++) {
        v->position[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
        v->normal[r] = nm[r] * nrm[0] + nm[3 + r] * nrm[1] + nm[6 + r] * nrm[2];
    }
    normalize3(v->normal);
    if (me->has_uv)
        memcpy(v->uv, me->uv + 2 * (size_t)pi, sizeof v->uv);
    memcpy(v->color, me->col + 4 * (size_t)pi, sizeof v->color);
}

typedef struct build_at { uint32_t vbase, ibase, mbase; } build_at;

/* Vertices of one mesh into x->mesh.vertices from vbase; returns false when out of memory. */
static bool mesh_vertices(xp *p, const xraw_mesh *me, bool shared, uint32_t vbase)
{
    float m[16], nm[9];
    world_of(me->frame, m);
    normal_matrix(m, nm);
    mmd_accessory_vertex *out = p->x->mesh.vertices + vbase;
    if (!shared) {
        for (size_t i = 0; i < me->face_i.n; i++)
            put_vertex(out + i, me, me->face_i.v[i], me->nrm + 3 * (size_t)me->nface_i.v[i], m, nm);
        return true;
    }
    float *sum = NULL;
    if (!me->has_nrm) {
        sum = calloc(me->nv ? me->nv : 1, 3 * sizeof(float));
        if (!sum)
            return false;
        computed_normals(me, sum);
    }
    for (uint32_t i = 0; i < me->nv; i++)
        put_vertex(out + i, me, i, sum ? sum + 3 * (size_t)i : me->nrm + 3 * (size_t)i, m, nm);
    free(sum);
    return true;
}

/* Triangle fans grouped by material (a counting sort: linear in faces). */
static bool mesh_indices(xp *p, const xraw_mesh *me, bool shared, build_at at)
{
    uint32_t nmat = me->has_mat ? me->nmat : 1;
    size_t *start = calloc((size_t)nmat + 1, sizeof *start);
    size_t *corner = malloc((me->face_n.n ? me->face_n.n : 1) * sizeof *corner);
    if (!start || !corner) {
        free(start);
        free(corner);
        return false;
    }
    size_t c = 0;
    for (size_t f = 0; f < me->face_n.n; f++) {
        corner[f] = c;
        uint32_t k = me->face_n.v[f];
        if (k >= 3)
            start[face_material(me, f) + 1] += 3 * ((size_t)k - 2);
        c += k;
    }
    for (uint32_t k = 0; k < nmat; k++) {
        p->x->mesh.materials[at.mbase + k].index_count = (uint32_t)start[k + 1];
        start[k + 1] += start[k];
    }
    uint32_t *idx = p->x->mesh.indices + at.ibase;
    for (size_t f = 0; f < me->face_n.n; f++) {
        uint32_t k = me->face_n.v[f];
        size_t *s = &start[face_material(me, f)];
        for (uint32_t j = 1; j + 1 < k; j++) {
            size_t q[3] = {corner[f], corner[f] + j, corner[f] + j + 1};
            for (int t = 0; t < 3; t++)
                idx[(*s)++] = at.vbase + (uint32_t)(shared ? me->face_i.v[q[t]] : q[t]);
        }
    }
    free(start);
    free(corner);
    return true;
}

static void default_material(xp *p, mmd_accessory_material *m)
{
    memset(m, 0, sizeof *m);
    for (int k = 0; k < 4; k++)
        m->diffuse[k] = 1.0f;
    m->texture = m->sphere = p->empty;
}

void xp_build(xp *p)
{
    mmd_xmesh *x = p->x;
    size_t nv = 0, ni = 0, nm = 0;
    for (xraw_mesh *me = p->meshes; me && ok(p); me = me->next) {
        check_mesh(p, me);
        if (!ok(p))
            break; /* the counts below trust what check_mesh checked */
        nv += shared_vertices(me) ? me->nv : me->face_i.n;
        for (size_t f = 0; f < me->face_n.n; f++)
            if (me->face_n.v[f] >= 3)
                ni += 3 * ((size_t)me->face_n.v[f] - 2);
            else
                x->mesh.warnings++; /* a face of fewer than 3 corners draws nothing */
        nm += me->has_mat ? me->nmat : 1;
    }
    if (!ok(p))
        return;
    p->r.section = "x";
    p->r.item = -1;
    if (nv > MMD_MAX_VERTICES || ni > MMD_MAX_INDICES || nm > MMD_MAX_MATERIALS) {
        mmd_rd_fail_at(&p->r, 0, MMD_E_LIMIT, "%zu vertices, %zu indices, %zu materials exceed the limits", nv,
                       ni, nm);
        return;
    }
    x->mesh.vertices = mmd_arena_array(x->mesh.arena, nv, sizeof *x->mesh.vertices);
    x->mesh.indices = mmd_arena_array(x->mesh.arena, ni, sizeof *x->mesh.indices);
    x->mesh.materials = mmd_arena_array(x->mesh.arena, nm, sizeof *x->mesh.materials);
    if (!x->mesh.vertices || !x->mesh.indices || !x->mesh.materials) {
        xp_nomem(p);
        return;
    }
    x->mesh.vertex_count = (uint32_t)nv;
    x->mesh.index_count = (uint32_t)ni;
    x->mesh.material_count = (uint32_t)nm;
    build_at at = {0, 0, 0};
    for (xraw_mesh *me = p->meshes; me; me = me->next) {
        bool shared = shared_vertices(me);
        x->has_normals |= me->has_nrm;
        x->has_uvs |= me->has_uv;
        x->has_colors |= me->has_col;
        uint32_t nmat = me->has_mat ? me->nmat : 1;
        for (uint32_t k = 0; k < nmat; k++) {
            if (me->has_mat)
                x->mesh.materials[at.mbase + k] = *me->mats[k];
            else
                default_material(p, &x->mesh.materials[at.mbase + k]);
        }
        if (!mesh_vertices(p, me, shared, at.vbase) || !mesh_indices(p, me, shared, at)) {
            xp_nomem(p);
            return;
        }
        at.vbase += shared ? me->nv : (uint32_t)me->face_i.n;
        for (uint32_t k = 0; k < nmat; k++)
            at.ibase += x->mesh.materials[at.mbase + k].index_count;
        at.mbase += nmat;
    }
}
