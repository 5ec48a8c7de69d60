/* core/accessory.c - the neutral accessory mesh (loaded through the format's
 * row of core/sniff.h, validated, freed), .vac files and the accessory
 * placement (nanoem's Accessory::fullWorldTransform order: bone x T x Rz x Ry
 * x Rx x S x 10). */
#include "core/accessory.h"

#include <cglm/cglm.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/sniff.h"
#include "core/text.h"

#define VAC_MAX_BYTES (64u * 1024u)

mmd_status mmd_accessory_load(const void *data, size_t size, mmd_accessory_mesh **out, mmd_error *err)
{
    const mmd_sniff_row *f = mmd_sniff(data, size);
    for (int id = 0; (!f || !f->load_accessory) && id < MMD_FILE_FORMAT_COUNT; id++)
        f = mmd_sniff_row_of((mmd_file_format)id); /* no accessory signature: the first accessory row */
    return f->load_accessory(data, size, out, err);
}

mmd_status mmd_accessory_load_file(const char *path, mmd_accessory_mesh **out, mmd_error *err)
{
    void *data = NULL;
    size_t size = 0;
    mmd_status st = mmd_file_read(path, &data, &size, err);
    if (st != MMD_OK)
        return st;
    st = mmd_accessory_load(data, size, out, err);
    free(data);
    return st;
}

void mmd_accessory_mesh_free(mmd_accessory_mesh *m)
{
    if (m)
        mmd_arena_destroy(m->arena); /* the mesh (and its reader's struct) lives in its arena */
}

static bool finite_n(const float *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

mmd_status mmd_accessory_mesh_validate(const mmd_accessory_mesh *x, mmd_error *err)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < x->material_count; i++) {
        const mmd_accessory_material *m = &x->materials[i];
        if (m->index_count % 3)
            return mmd_error_set(err, MMD_E_BAD_COUNT, "x.material", i, -1, "%u indices (not triangles)",
                                 m->index_count);
        if (!finite_n(m->diffuse, 4) || !finite_n(&m->power, 1) || !finite_n(m->specular, 3) ||
            !finite_n(m->emissive, 3))
            return mmd_error_set(err, MMD_E_BAD_VALUE, "x.material", i, -1, "non-finite colour");
        sum += m->index_count;
    }
    if (sum != x->index_count)
        return mmd_error_set(err, MMD_E_BAD_COUNT, "x", -1, -1, "materials draw %llu indices of %u",
                             (unsigned long long)sum, x->index_count);
    for (uint32_t i = 0; i < x->index_count; i++)
        if (x->indices[i] >= x->vertex_count)
            return mmd_error_set(err, MMD_E_BAD_INDEX, "x.index", i, -1, "vertex %u of %u", x->indices[i],
                                 x->vertex_count);
    for (uint32_t i = 0; i < x->vertex_count; i++) {
        const mmd_accessory_vertex *v = &x->vertices[i];
        float l = v->normal[0] * v->normal[0] + v->normal[1] * v->normal[1] + v->normal[2] * v->normal[2];
        if (!finite_n(v->position, 3) || !finite_n(v->uv, 2) || !finite_n(v->color, 4) || fabsf(l - 1.0f) > 1e-3f)
            return mmd_error_set(err, MMD_E_BAD_VALUE, "x.vertex", i, -1,
                                 "non-finite value or normal of length %g (a transform overflowed)", (double)sqrtf(l));
    }
    return MMD_OK;
}

void mmd_accessory_place_default(mmd_accessory_place *p)
{
    memset(p, 0, sizeof *p);
    p->scale = 1.0f;
    p->opacity = 1.0f;
    p->visible = true;
    p->shadow = true;
}

/* out = m x T(position) x Rz x Ry x Rx x S(scale) (m is consumed). */
static void place(mat4 m, const float position[3], const float rotation[3], float scale, float out[16])
{
    mat4 r;
    glm_translate(m, (float *)position);
    glm_rotate_z(m, glm_rad(rotation[2]), r);
    glm_rotate_y(r, glm_rad(rotation[1]), m);
    glm_rotate_x(m, glm_rad(rotation[0]), r);
    glm_scale_uni(r, scale);
    glm_mat4_ucopy(r, (vec4 *)out);
}

void mmd_place_matrix(const float position[3], const float rotation[3], float scale, float out[16])
{
    mat4 m;
    glm_mat4_identity(m);
    place(m, position, rotation, scale, out);
}

void mmd_accessory_world(const mmd_accessory_place *p, const float *parent, float out[16])
{
    mat4 m;
    if (parent)
        glm_mat4_ucopy((vec4 *)parent, m);
    else
        glm_mat4_identity(m);
    place(m, p->position, p->rotation, (p->scale > 0 ? p->scale : 0) * 10.0f, out);
}

/* ---- keys ------------------------------------------------------------- */

/* q = qz * qy * qx of the X, Y, Z degrees (the R = Rz Ry Rx of
 * mmd_accessory_world); x y z w. The key blend stays in double, unlike the
 * rest of core's maths (cglm, float): near Y = 90 degrees the way back to
 * Euler angles is ill-conditioned, and a float quaternion there rebuilt the
 * key's matrix 2.3e-3 off (test_xfile accessory_place_mix, gimbal case) where
 * double stays under 1e-3. */
static void euler_quat(const float deg[3], double q[4])
{
    double h[3], c[3], s[3];
    for (int i = 0; i < 3; i++) {
        h[i] = deg[i] * (3.14159265358979323846 / 360.0);
        c[i] = cos(h[i]);
        s[i] = sin(h[i]);
    }
    q[0] = s[0] * c[1] * c[2] - c[0] * s[1] * s[2];
    q[1] = c[0] * s[1] * c[2] + s[0] * c[1] * s[2];
    q[2] = c[0] * c[1] * s[2] - s[0] * s[1] * c[2];
    q[3] = c[0] * c[1] * c[2] + s[0] * s[1] * s[2];
}

/* Degrees X, Y, Z of R = Rz Ry Rx from the unit quaternion q. */
static void quat_euler(const double q[4], float deg[3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r20 = 2 * (x * z - w * y), r21 = 2 * (y * z + w * x), r22 = 1 - 2 * (x * x + y * y);
    double r10 = 2 * (x * y + w * z), r00 = 1 - 2 * (y * y + z * z);
    double k = 180.0 / 3.14159265358979323846;
    double sy = -r20 > 1 ? 1 : (-r20 < -1 ? -1 : -r20);
    deg[1] = (float)(asin(sy) * k);
    if (fabs(sy) > 0.9999999) { /* gimbal lock: the roll goes into X */
        double r12 = 2 * (y * z - w * x), r11 = 1 - 2 * (x * x + z * z);
        deg[0] = (float)(atan2(-r12, r11) * k);
        deg[2] = 0;
        return;
    }
    deg[0] = (float)(atan2(r21, r22) * k);
    deg[2] = (float)(atan2(r10, r00) * k);
}

void mmd_accessory_place_mix(const mmd_accessory_place *a, const mmd_accessory_place *b, float s,
                             mmd_accessory_place *out)
{
    mmd_accessory_place r = *a;
    for (int i = 0; i < 3; i++)
        r.position[i] = a->position[i] + (b->position[i] - a->position[i]) * s;
    r.scale = a->scale + (b->scale - a->scale) * s;
    r.opacity = a->opacity + (b->opacity - a->opacity) * s;
    double qa[4], qb[4], q[4];
    euler_quat(a->rotation, qa);
    euler_quat(b->rotation, qb);
    double d = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
    double sign = d < 0 ? -1 : 1, wa = 1 - s, wb = s;
    d = fabs(d);
    if (d < 0.9999) { /* slerp; nearly equal rotations lerp (then normalise) */
        double th = acos(d > 1 ? 1 : d), st = sin(th);
        wa = sin((1 - s) * th) / st;
        wb = sin(s * th) / st;
    }
    double n = 0;
    for (int i = 0; i < 4; i++) {
        q[i] = qa[i] * wa + qb[i] * wb * sign;
        n += q[i] * q[i];
    }
    n = sqrt(n);
    for (int i = 0; i < 4; i++)
        q[i] /= n;
    if (memcmp(a->rotation, b->rotation, sizeof a->rotation) != 0)
        quat_euler(q, r.rotation); /* equal keys keep their exact degrees */
    *out = r;
}

/* ---- .vac ------------------------------------------------------------- */

typedef struct vac_line { const uint8_t *s; size_t n; } vac_line;

static mmd_status vac_text(mmd_text *t, mmd_arena *a, vac_line l, char *out, size_t cap, int line,
                           mmd_error *err)
{
    char *u = l.n ? mmd_text_sjis(t, a, l.s, l.n, NULL) : "";
    if (!u)
        return mmd_error_set(err, MMD_E_NOMEM, "vac", line, -1, "out of memory");
    if (strlen(u) >= cap)
        return mmd_error_set(err, MMD_E_LIMIT, "vac", line, -1, "line longer than %zu bytes", cap - 1);
    strcpy(out, u);
    return MMD_OK;
}

static mmd_status vac_floats(vac_line l, float *out, int n, int line, mmd_error *err)
{
    char buf[256];
    if (l.n >= sizeof buf)
        return mmd_error_set(err, MMD_E_LIMIT, "vac", line, -1, "line longer than %zu bytes", sizeof buf - 1);
    memcpy(buf, l.s, l.n);
    buf[l.n] = 0;
    char *p = buf;
    for (int i = 0; i < n; i++) {
        char *end;
        errno = 0;
        double d = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(d) || fabs(d) > 1e30)
            return mmd_error_set(err, MMD_E_BAD_VALUE, "vac", line, -1, "expected %d number%s separated by ','", n,
                                 n > 1 ? "s" : "");
        out[i] = (float)d;
        p = end;
        while (*p == ' ' || *p == '\t')
            p++;
        if (i + 1 < n) {
            if (*p != ',')
                return mmd_error_set(err, MMD_E_BAD_VALUE, "vac", line, -1, "expected %d numbers separated by ','", n);
            p++;
        }
    }
    if (*p)
        return mmd_error_set(err, MMD_E_BAD_VALUE, "vac", line, -1, "unexpected text after the number%s",
                             n > 1 ? "s" : "");
    return MMD_OK;
}

static mmd_status vac_fill(mmd_text *t, mmd_arena *a, const vac_line *l, mmd_vac *v, mmd_error *err)
{
    mmd_status st = vac_text(t, a, l[0], v->name, sizeof v->name, 1, err);
    if (st == MMD_OK)
        st = vac_text(t, a, l[1], v->x_file, sizeof v->x_file, 2, err);
    if (st == MMD_OK && !v->x_file[0])
        st = mmd_error_set(err, MMD_E_BAD_VALUE, "vac", 2, -1, "no .x file name");
    if (st == MMD_OK)
        st = vac_floats(l[2], &v->scale, 1, 3, err);
    if (st == MMD_OK)
        st = vac_floats(l[3], v->position, 3, 4, err);
    if (st == MMD_OK)
        st = vac_floats(l[4], v->rotation, 3, 5, err);
    if (st == MMD_OK)
        st = vac_text(t, a, l[5], v->bone, sizeof v->bone, 6, err);
    return st;
}

mmd_status mmd_vac_load(const void *data, size_t size, mmd_vac *out, mmd_error *err)
{
    mmd_error local;
    if (!err)
        err = &local;
    if (!out || (!data && size))
        return mmd_error_set(err, MMD_E_BAD_STRUCTURE, "vac", -1, -1, "no input or output");
    if (size > VAC_MAX_BYTES)
        return mmd_error_set(err, MMD_E_LIMIT, "vac", -1, -1, "%zu bytes (limit %u)", size, VAC_MAX_BYTES);
    const uint8_t *b = data;
    vac_line l[6];
    size_t pos = 0;
    int n = 0;
    for (; n < 6 && pos < size; n++) {
        size_t e = pos;
        while (e < size && b[e] != '\n')
            e++;
        size_t len = e - pos;
        if (len && b[pos + len - 1] == '\r')
            len--;
        l[n].s = b + pos;
        l[n].n = len;
        pos = e + 1;
    }
    if (n < 5)
        return mmd_error_set(err, MMD_E_TRUNCATED, "vac", n + 1, -1, "%d lines (expected 6: name, .x file, scale, "
                             "position, rotation, parent bone)", n);
    if (n == 5) { /* a missing last line is an empty parent bone */
        l[5].s = b + size;
        l[5].n = 0;
    }
    mmd_arena *a = mmd_arena_create();
    mmd_text *t = mmd_text_create();
    mmd_vac v;
    memset(&v, 0, sizeof v);
    mmd_status st = a && t ? vac_fill(t, a, l, &v, err) : mmd_error_set(err, MMD_E_NOMEM, "vac", -1, -1, "out of memory");
    mmd_text_destroy(t);
    mmd_arena_destroy(a);
    if (st == MMD_OK)
        *out = v;
    return st;
}
