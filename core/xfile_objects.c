/* core/xfile_objects.c - the .x objects an MMD accessory uses (template layouts
 * from Microsoft's .x reference; MMD's conventions checked against nanoem's
 * nanodxm and Accessory.cc): Frame, FrameTransformMatrix, Mesh, MeshNormals,
 * MeshTextureCoords, MeshMaterialList, Material, TextureFilename,
 * MeshVertexColors. Structure only: indices are checked by xfile_build.c. */
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/xfile_parse.h"

static bool ok(const xp *p) { return mmd_rd_ok(&p->r); }

bool xp_push(xp *p, xu32v *v, uint32_t x)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        uint32_t *nv = realloc(v->v, cap * sizeof *nv);
        if (!nv) {
            xp_nomem(p);
            return false;
        }
        v->v = nv;
        v->cap = cap;
    }
    v->v[v->n++] = x;
    return true;
}

static void *tmp_array(xp *p, size_t n, size_t size)
{
    void *a = mmd_arena_array(p->tmp, n, size);
    if (!a)
        xp_nomem(p);
    return a;
}

/* Faces: count, then per face a corner count and the corners. */
static void read_faces(xp *p, xu32v *fn, xu32v *fi, uint32_t **face_at, uint32_t *count)
{
    uint32_t n = xp_count(p, 4, MMD_MAX_INDICES / 3, "faces");
    if (face_at)
        *face_at = tmp_array(p, n, sizeof **face_at);
    for (uint32_t f = 0; f < n && ok(p); f++) {
        if (face_at)
            (*face_at)[f] = (uint32_t)xp_here(p);
        uint32_t k = xp_count(p, 1, MMD_MAX_INDICES, "face corners");
        if (fi->n + k > MMD_MAX_INDICES) {
            mmd_rd_fail(&p->r, MMD_E_LIMIT, "more than %u face corners", MMD_MAX_INDICES);
            return;
        }
        xp_push(p, fn, k);
        for (uint32_t j = 0; j < k && ok(p); j++)
            xp_push(p, fi, xp_dword(p));
    }
    *count = n;
}

static char *sjis_str(xp *p, const uint8_t *s, size_t n)
{
    if (!n)
        return p->empty;
    unsigned bad = 0;
    char *u = mmd_text_sjis(p->t, p->x->mesh.arena, s, n, &bad);
    if (!u) {
        xp_nomem(p);
        return p->empty;
    }
    if (bad)
        p->x->mesh.warnings++;
    return u;
}

static bool ends_with_ci(const uint8_t *s, size_t n, const char *ext)
{
    size_t e = strlen(ext);
    if (n < e)
        return false;
    for (size_t i = 0; i < e; i++) {
        uint8_t c = s[n - e + i];
        if (c >= 'A' && c <= 'Z')
            c = (uint8_t)(c + 32);
        if (c != (uint8_t)ext[i])
            return false;
    }
    return true;
}

/* MMD's "texture*sphere" convention: each part is a sphere map when it ends in
 * .sph (multiply) or .spa (add), else the texture. */
static void texture_name(xp *p, mmd_accessory_material *m, const uint8_t *s, size_t n)
{
    while (n && s[n - 1] == 0)
        n--;
    const uint8_t *star = memchr(s, '*', n);
    size_t parts = star ? 2 : 1;
    for (size_t i = 0; i < parts && ok(p); i++) {
        const uint8_t *b = i ? star + 1 : s;
        size_t len = i ? n - (size_t)(star + 1 - s) : (star ? (size_t)(star - s) : n);
        bool sph = ends_with_ci(b, len, ".sph"), spa = ends_with_ci(b, len, ".spa");
        if (sph || spa) {
            m->sphere = sjis_str(p, b, len);
            m->sphere_mode = sph ? MMD_SPHERE_MUL : MMD_SPHERE_ADD;
        } else {
            m->texture = sjis_str(p, b, len);
        }
    }
}

static void material_child(xp *p, void *ctx, const xtok *type)
{
    mmd_accessory_material *m = ctx;
    xtok name;
    if (!xp_name_is(type, "TextureFilename")) {
        xp_skip_child(p, ctx, type);
        return;
    }
    if (!xp_open(p, &name))
        return;
    xtok s;
    xp_next(p, &s);
    if (s.kind != XT_STRING) {
        if (ok(p))
            mmd_rd_fail_at(&p->r, s.at, MMD_E_BAD_STRUCTURE, "expected the texture file name string");
        return;
    }
    texture_name(p, m, s.s, s.n);
    xp_children(p, NULL, xp_skip_child, NULL);
}

/* A Material after its type name; NULL on failure. */
static mmd_accessory_material *parse_material(xp *p, xtok *name)
{
    if (!xp_open(p, name))
        return NULL;
    mmd_accessory_material *m = mmd_arena_alloc(p->x->mesh.arena, sizeof *m);
    if (!m) {
        xp_nomem(p);
        return NULL;
    }
    m->texture = m->sphere = p->empty;
    xp_floats(p, m->diffuse, 4);
    xp_floats(p, &m->power, 1);
    xp_floats(p, m->specular, 3);
    xp_floats(p, m->emissive, 3);
    xp_children(p, m, material_child, NULL);
    return ok(p) ? m : NULL;
}

static void add_material(xp *p, xraw_mesh *me, mmd_accessory_material *m, size_t at)
{
    if (me->mats_have >= me->nmat) {
        mmd_rd_fail_at(&p->r, at, MMD_E_BAD_COUNT, "more materials than the %u declared", me->nmat);
        return;
    }
    me->mats[me->mats_have++] = m;
}

static void matlist_child(xp *p, void *ctx, const xtok *type)
{
    if (!xp_name_is(type, "Material")) {
        xp_skip_child(p, ctx, type);
        return;
    }
    xtok name;
    mmd_accessory_material *m = parse_material(p, &name);
    if (m)
        add_material(p, ctx, m, type->at);
}

static uint32_t name_hash(const uint8_t *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;
    return h;
}

static void matlist_ref(xp *p, void *ctx, const xtok *name)
{
    if (name->kind == XT_NAME && p->nbuckets) {
        xnamed_mat *n = p->buckets[name_hash(name->s, name->n) & (p->nbuckets - 1)];
        for (; n; n = n->next)
            if (n->name_n == name->n && memcmp(n->name, name->s, name->n) == 0) {
                add_material(p, ctx, n->m, name->at);
                return;
            }
    }
    mmd_rd_fail_at(&p->r, name->at, MMD_E_BAD_INDEX, "reference to a material not defined before ('%.*s')",
                   (int)(name->n < 64 ? name->n : 64), name->s ? (const char *)name->s : "");
}

/* Enter n into the name table, doubling it (a rehash of every entry) at half full. */
static void name_insert(xp *p, xnamed_mat *n)
{
    n->next_all = p->named;
    p->named = n;
    if (++p->nnamed > p->nbuckets / 2) {
        uint32_t cap = p->nbuckets ? p->nbuckets * 2 : 64;
        xnamed_mat **b = tmp_array(p, cap, sizeof *b);
        if (!b)
            return;
        p->buckets = b;
        p->nbuckets = cap;
        for (xnamed_mat *q = p->named; q; q = q->next_all)
            q->next = NULL;
        /* oldest first, so that a chain keeps the newest definition of a name in front */
        xnamed_mat *rev = NULL;
        for (xnamed_mat *q = p->named, *nx; q; q = nx) {
            nx = q->next_all;
            q->next = rev;
            rev = q;
        }
        for (xnamed_mat *q = rev, *nx; q; q = nx) {
            nx = q->next;
            uint32_t h = name_hash(q->name, q->name_n) & (cap - 1);
            q->next = p->buckets[h];
            p->buckets[h] = q;
        }
        return;
    }
    uint32_t h = name_hash(n->name, n->name_n) & (p->nbuckets - 1);
    n->next = p->buckets[h];
    p->buckets[h] = n;
}

static void parse_matlist(xp *p, xraw_mesh *me)
{
    me->has_mat = true;
    me->mat_at = xp_here(p);
    me->nmat = xp_count(p, 1, MMD_MAX_MATERIALS, "materials");
    me->nmat_idx = xp_count(p, 1, MMD_MAX_INDICES / 3, "face material indices");
    me->mats = tmp_array(p, me->nmat, sizeof *me->mats);
    me->mat_idx = tmp_array(p, me->nmat_idx, sizeof *me->mat_idx);
    for (uint32_t i = 0; i < me->nmat_idx && ok(p); i++)
        me->mat_idx[i] = xp_dword(p);
    xp_children(p, me, matlist_child, matlist_ref);
}

static void parse_normals(xp *p, xraw_mesh *me)
{
    me->has_nrm = true;
    me->nrm_at = xp_here(p);
    me->nn = xp_count(p, 3, MMD_MAX_VERTICES, "normals");
    me->nrm = tmp_array(p, me->nn, 3 * sizeof(float));
    for (uint32_t i = 0; i < me->nn && ok(p); i++)
        xp_floats(p, me->nrm + 3 * (size_t)i, 3);
    uint32_t nf = 0;
    read_faces(p, &me->nface_n, &me->nface_i, NULL, &nf);
    xp_children(p, NULL, xp_skip_child, NULL);
}

static void parse_uvs(xp *p, xraw_mesh *me)
{
    size_t at = xp_here(p);
    uint32_t n = xp_count(p, 2, MMD_MAX_VERTICES, "texture coordinates");
    if (ok(p) && n != me->nv) {
        mmd_rd_fail_at(&p->r, at, MMD_E_BAD_COUNT, "%u texture coordinates for %u vertices", n, me->nv);
        return;
    }
    me->has_uv = true;
    me->uv = tmp_array(p, n, 2 * sizeof(float));
    for (uint32_t i = 0; i < n && ok(p); i++)
        xp_floats(p, me->uv + 2 * (size_t)i, 2);
    xp_children(p, NULL, xp_skip_child, NULL);
}

static void parse_colors(xp *p, xraw_mesh *me)
{
    uint32_t n = xp_count(p, 5, MMD_MAX_VERTICES, "vertex colours");
    me->has_col = true;
    for (uint32_t i = 0; i < n && ok(p); i++) {
        size_t at = xp_here(p);
        uint32_t v = xp_dword(p);
        float c[4];
        xp_floats(p, c, 4);
        if (ok(p) && v >= me->nv) {
            mmd_rd_fail_at(&p->r, at, MMD_E_BAD_INDEX, "vertex colour for vertex %u (%u vertices)", v, me->nv);
            return;
        }
        if (ok(p))
            memcpy(me->col + 4 * (size_t)v, c, sizeof c);
    }
    xp_children(p, NULL, xp_skip_child, NULL);
}

static void mesh_child(xp *p, void *ctx, const xtok *type)
{
    xraw_mesh *me = ctx;
    static const char *const names[] = {"MeshNormals", "MeshTextureCoords", "MeshMaterialList",
                                        "MeshVertexColors"};
    int which = -1;
    for (int i = 0; i < 4; i++)
        if (xp_name_is(type, names[i]))
            which = i;
    if (which < 0) {
        xp_skip_child(p, ctx, type);
        return;
    }
    bool dup = (which == 0 && me->has_nrm) || (which == 1 && me->has_uv) || (which == 2 && me->has_mat) ||
               (which == 3 && me->has_col);
    if (dup) {
        mmd_rd_fail_at(&p->r, type->at, MMD_E_BAD_STRUCTURE, "second %s in one mesh", names[which]);
        return;
    }
    xtok name;
    if (!xp_open(p, &name))
        return;
    switch (which) {
    case 0: parse_normals(p, me); break;
    case 1: parse_uvs(p, me); break;
    case 2: parse_matlist(p, me); break;
    default: parse_colors(p, me); break;
    }
}

static void parse_mesh(xp *p, const xframe *frame, size_t at)
{
    xtok name;
    if (!xp_open(p, &name))
        return;
    xraw_mesh *me = tmp_array(p, 1, sizeof *me);
    if (!me)
        return;
    me->at = at;
    me->frame = frame;
    *p->mesh_tail = me; /* linked first so its vectors are freed on failure */
    p->mesh_tail = &me->next;
    me->index = p->x->mesh_count++;
    me->nv = xp_count(p, 3, MMD_MAX_VERTICES, "vertices");
    uint32_t room = UINT32_MAX - p->x->file_vertex_count;
    p->x->file_vertex_count += me->nv < room ? me->nv : room;
    me->pos = tmp_array(p, me->nv, 3 * sizeof(float));
    me->col = tmp_array(p, me->nv, 4 * sizeof(float));
    for (uint32_t i = 0; i < me->nv && ok(p); i++) {
        xp_floats(p, me->pos + 3 * (size_t)i, 3);
        for (int c = 0; c < 4; c++)
            me->col[4 * (size_t)i + c] = 1.0f;
    }
    uint32_t nf = 0;
    read_faces(p, &me->face_n, &me->face_i, &me->face_at, &nf);
    p->x->face_count += nf;
    xp_children(p, me, mesh_child, NULL);
}

static void frame_child(xp *p, void *ctx, const xtok *type);

static void parse_frame(xp *p, xframe *parent)
{
    xtok name;
    if (!xp_open(p, &name))
        return;
    xframe *f = tmp_array(p, 1, sizeof *f);
    if (!f)
        return;
    f->parent = parent;
    for (int i = 0; i < 16; i++)
        f->local[i] = i % 5 == 0 ? 1.0f : 0.0f;
    p->x->frame_count++;
    xp_children(p, f, frame_child, NULL);
}

static void frame_child(xp *p, void *ctx, const xtok *type)
{
    xframe *f = ctx;
    if (xp_name_is(type, "Frame")) {
        parse_frame(p, f);
    } else if (xp_name_is(type, "Mesh")) {
        parse_mesh(p, f, type->at);
    } else if (xp_name_is(type, "FrameTransformMatrix")) {
        xtok name;
        if (!xp_open(p, &name))
            return;
        xp_floats(p, f->local, 16);
        xp_children(p, NULL, xp_skip_child, NULL);
    } else {
        xp_skip_child(p, ctx, type);
    }
}

static void top_material(xp *p, const xtok *type)
{
    xtok name;
    mmd_accessory_material *m = parse_material(p, &name);
    if (!m)
        return;
    xnamed_mat *n = tmp_array(p, 1, sizeof *n);
    if (!n)
        return;
    n->name = name.s;
    n->name_n = name.n;
    n->m = m;
    name_insert(p, n);
    (void)type;
}

void xp_parse_top(xp *p)
{
    while (ok(p)) {
        xtok t;
        xp_next(p, &t);
        if (t.kind == XT_EOF)
            break;
        if (t.kind == XT_TEMPLATE) {
            xtok name;
            if (xp_open(p, &name))
                xp_skip_object(p);
        } else if (xp_name_is(&t, "Frame")) {
            parse_frame(p, NULL);
        } else if (xp_name_is(&t, "Mesh")) {
            parse_mesh(p, NULL, t.at);
        } else if (xp_name_is(&t, "Material")) {
            top_material(p, &t);
        } else if (t.kind == XT_NAME) {
            xp_skip_child(p, NULL, &t);
        } else {
            mmd_rd_fail_at(&p->r, t.at, MMD_E_BAD_STRUCTURE, "expected a template or a data object");
        }
    }
}
