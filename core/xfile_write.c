/* core/xfile_write.c - .x writer (see xfile_write.h). One code path writes
 * both encodings: values go out with their text separators, and in binary
 * they gather into integer/float list tokens flushed at each change of kind
 * or structure token. */
#include "core/xfile_write.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "core/xfile_internal.h"

typedef struct wr {
    uint8_t *b;
    size_t n, cap;
    bool binary, failed;
    int fbytes;
    int pending;            /* 0 none, 1 ints, 2 floats (binary) */
    size_t list_at, list_n; /* where the pending list's count is */
} wr;

static void put(wr *w, const void *p, size_t n)
{
    if (w->failed)
        return;
    if (n > w->cap - w->n) {
        size_t cap = w->cap ? w->cap : 4096;
        while (n > cap - w->n)
            cap *= 2;
        uint8_t *nb = realloc(w->b, cap);
        if (!nb) {
            w->failed = true;
            return;
        }
        w->b = nb;
        w->cap = cap;
    }
    memcpy(w->b + w->n, p, n);
    w->n += n;
}

static void put_u16(wr *w, unsigned v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(w, b, 2);
}

static void put_u32(wr *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(w, b, 4);
}

static void text(wr *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text(wr *w, const char *fmt, ...)
{
    if (w->binary)
        return;
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (k > 0)
        put(w, buf, (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1);
}

static void flush(wr *w)
{
    if (w->pending && !w->failed) {
        uint32_t c = (uint32_t)w->list_n;
        for (int i = 0; i < 4; i++)
            w->b[w->list_at + (size_t)i] = (uint8_t)(c >> (8 * i));
    }
    w->pending = 0;
}

static void list_value(wr *w, int kind)
{
    if (w->pending != kind) {
        flush(w);
        put_u16(w, kind == 1 ? XB_INTEGER_LIST : XB_FLOAT_LIST);
        w->list_at = w->n;
        put_u32(w, 0);
        w->list_n = 0;
        w->pending = kind;
    }
    w->list_n++;
}

static void w_dword(wr *w, uint32_t v, const char *sep)
{
    if (w->binary) {
        list_value(w, 1);
        put_u32(w, v);
    } else {
        text(w, "%u%s", v, sep);
    }
}

static void w_float(wr *w, float f, const char *sep)
{
    if (!w->binary) {
        char buf[40];
        for (int prec = 6; prec <= 9; prec++) { /* shortest text that reads back to f */
            snprintf(buf, sizeof buf, "%.*g", prec, (double)f);
            if ((float)strtod(buf, NULL) == f)
                break;
        }
        text(w, "%s%s", buf, sep);
        return;
    }
    list_value(w, 2);
    if (w->fbytes == 8) {
        double d = f;
        uint64_t u;
        memcpy(&u, &d, 8);
        put_u32(w, (uint32_t)u);
        put_u32(w, (uint32_t)(u >> 32));
    } else {
        uint32_t u;
        memcpy(&u, &f, 4);
        put_u32(w, u);
    }
}

static void w_begin(wr *w, const char *type, const char *name)
{
    flush(w);
    if (!w->binary) {
        text(w, "%s%s%s {\n", type, name ? " " : "", name ? name : "");
        return;
    }
    put_u16(w, XB_NAME);
    put_u32(w, (uint32_t)strlen(type));
    put(w, type, strlen(type));
    if (name) {
        put_u16(w, XB_NAME);
        put_u32(w, (uint32_t)strlen(name));
        put(w, name, strlen(name));
    }
    put_u16(w, XB_OBRACE);
}

static void w_end(wr *w)
{
    flush(w);
    if (w->binary)
        put_u16(w, XB_CBRACE);
    else
        text(w, "}\n");
}

static void w_string(wr *w, const uint8_t *s, size_t n)
{
    flush(w);
    if (w->binary) {
        put_u16(w, XB_STRING);
        put_u32(w, (uint32_t)n);
        put(w, s, n);
        put_u16(w, XB_SEMICOLON);
    } else {
        put(w, "\"", 1);
        put(w, s, n);
        put(w, "\";\n", 3);
    }
}

static const char *sep_of(size_t i, size_t n) { return i + 1 < n ? ",\n" : ";\n"; }

static void w_vectors(wr *w, const mmd_xmesh *x, size_t offset, int dims)
{
    w_dword(w, x->mesh.vertex_count, ";\n");
    for (uint32_t i = 0; i < x->mesh.vertex_count; i++) {
        const float *v = (const float *)((const uint8_t *)&x->mesh.vertices[i] + offset);
        for (int k = 0; k < dims; k++)
            w_float(w, v[k], k + 1 < dims ? ";" : ";");
        text(w, "%s", sep_of(i, x->mesh.vertex_count));
    }
}

static void w_faces(wr *w, const mmd_xmesh *x, bool normals)
{
    uint32_t nf = x->mesh.index_count / 3;
    w_dword(w, nf, ";\n");
    for (uint32_t f = 0; f < nf; f++) {
        w_dword(w, 3, ";");
        for (int k = 0; k < 3; k++)
            w_dword(w, x->mesh.indices[3 * (size_t)f + (size_t)k], k < 2 ? "," : ";");
        text(w, "%s", sep_of(f, nf));
    }
    (void)normals;
}

static void w_material(wr *w, mmd_text *t, const mmd_accessory_material *m)
{
    w_begin(w, "Material", NULL);
    for (int k = 0; k < 4; k++)
        w_float(w, m->diffuse[k], k < 3 ? ";" : ";;\n");
    w_float(w, m->power, ";\n");
    for (int k = 0; k < 3; k++)
        w_float(w, m->specular[k], k < 2 ? ";" : ";;\n");
    for (int k = 0; k < 3; k++)
        w_float(w, m->emissive[k], k < 2 ? ";" : ";;\n");
    if (m->texture[0] || m->sphere[0]) {
        uint8_t name[1024];
        size_t n = mmd_text_to_sjis(t, m->texture, name, 500);
        if (m->texture[0] && m->sphere[0])
            name[n++] = '*';
        n += mmd_text_to_sjis(t, m->sphere, name + n, 500);
        w_begin(w, "TextureFilename", NULL);
        w_string(w, name, n);
        w_end(w);
    }
    w_end(w);
}

static void w_matlist(wr *w, mmd_text *t, const mmd_xmesh *x)
{
    uint32_t nf = x->mesh.index_count / 3;
    w_begin(w, "MeshMaterialList", NULL);
    w_dword(w, x->mesh.material_count, ";\n");
    w_dword(w, nf, ";\n");
    uint32_t f = 0;
    for (uint32_t k = 0; k < x->mesh.material_count; k++)
        for (uint32_t j = 0; j < x->mesh.materials[k].index_count / 3; j++, f++)
            w_dword(w, k, f + 1 < nf ? ",\n" : ";\n");
    for (uint32_t k = 0; k < x->mesh.material_count; k++)
        w_material(w, t, &x->mesh.materials[k]);
    w_end(w);
}

static void w_colors(wr *w, const mmd_xmesh *x)
{
    w_begin(w, "MeshVertexColors", NULL);
    w_dword(w, x->mesh.vertex_count, ";\n");
    for (uint32_t i = 0; i < x->mesh.vertex_count; i++) {
        w_dword(w, i, ";");
        for (int k = 0; k < 4; k++)
            w_float(w, x->mesh.vertices[i].color[k], k < 3 ? ";" : ";;");
        text(w, "%s", sep_of(i, x->mesh.vertex_count));
    }
    w_end(w);
}

static void w_mesh(wr *w, mmd_text *t, const mmd_xmesh *x, const mmd_x_write_options *o)
{
    w_begin(w, "Mesh", "mesh0");
    w_vectors(w, x, offsetof(mmd_accessory_vertex, position), 3);
    w_faces(w, x, false);
    if (o->normals) {
        w_begin(w, "MeshNormals", NULL);
        w_vectors(w, x, offsetof(mmd_accessory_vertex, normal), 3);
        w_faces(w, x, true);
        w_end(w);
    }
    if (x->has_uvs) {
        w_begin(w, "MeshTextureCoords", NULL);
        w_dword(w, x->mesh.vertex_count, ";\n");
        for (uint32_t i = 0; i < x->mesh.vertex_count; i++) {
            w_float(w, x->mesh.vertices[i].uv[0], ";");
            w_float(w, x->mesh.vertices[i].uv[1], ";");
            text(w, "%s", sep_of(i, x->mesh.vertex_count));
        }
        w_end(w);
    }
    w_matlist(w, t, x);
    if (x->has_colors)
        w_colors(w, x);
    w_end(w);
}

mmd_status mmd_x_write(const mmd_xmesh *x, const mmd_x_write_options *o, uint8_t **out, size_t *out_size,
                       mmd_error *err)
{
    if (!x || !o || !out || !out_size || o->encoding > MMD_X_BZIP)
        return mmd_error_set(err, MMD_E_BAD_STRUCTURE, "x.write", -1, -1, "bad arguments");
    bool bin = o->encoding == MMD_X_BINARY || o->encoding == MMD_X_BZIP;
    bool zip = o->encoding >= MMD_X_TZIP;
    int bits = o->float_bits == 64 ? 64 : 32;
    static const char *const kinds[] = {"txt ", "bin ", "tzip", "bzip"};
    char header[17];
    snprintf(header, sizeof header, "xof 0302%s%04d", kinds[o->encoding], bits);
    wr w = {.binary = bin, .fbytes = bits / 8};
    mmd_text *t = mmd_text_create();
    if (!t)
        return mmd_error_set(err, MMD_E_NOMEM, "x.write", -1, -1, "out of memory");
    if (!zip)
        put(&w, header, 16);
    text(&w, "\n");
    if (o->frame) {
        w_begin(&w, "Frame", "root");
        w_begin(&w, "FrameTransformMatrix", NULL);
        for (int i = 0; i < 16; i++)
            w_float(&w, o->frame[i], i < 15 ? "," : ";;\n");
        w_end(&w);
    }
    w_mesh(&w, t, x, o);
    if (o->frame)
        w_end(&w);
    flush(&w);
    mmd_text_destroy(t);
    if (w.failed) {
        free(w.b);
        return mmd_error_set(err, MMD_E_NOMEM, "x.write", -1, -1, "out of memory");
    }
    if (!zip) {
        *out = w.b;
        *out_size = w.n;
        return MMD_OK;
    }
    mmd_status st = mmd_x_deflate((const uint8_t *)header, w.b, w.n, out, out_size, err);
    free(w.b);
    return st;
}

mmd_xmesh *mmd_x_new(uint32_t nv, uint32_t ni, uint32_t nm)
{
    mmd_arena *a = mmd_arena_create();
    mmd_xmesh *x = a ? mmd_arena_alloc(a, sizeof *x) : NULL;
    if (!x) {
        mmd_arena_destroy(a);
        return NULL;
    }
    x->mesh.arena = a;
    x->float_bits = 32;
    x->version = 302;
    x->mesh.vertices = mmd_arena_array(a, nv, sizeof *x->mesh.vertices);
    x->mesh.indices = mmd_arena_array(a, ni, sizeof *x->mesh.indices);
    x->mesh.materials = mmd_arena_array(a, nm, sizeof *x->mesh.materials);
    char *empty = mmd_arena_strdup(a, "");
    if (!x->mesh.vertices || !x->mesh.indices || !x->mesh.materials || !empty) {
        mmd_arena_destroy(a);
        return NULL;
    }
    x->mesh.vertex_count = nv;
    x->mesh.index_count = ni;
    x->mesh.material_count = nm;
    x->has_uvs = true;
    for (uint32_t i = 0; i < nv; i++) {
        x->mesh.vertices[i].normal[1] = 1;
        for (int k = 0; k < 4; k++)
            x->mesh.vertices[i].color[k] = 1;
    }
    for (uint32_t k = 0; k < nm; k++) {
        for (int c = 0; c < 4; c++)
            x->mesh.materials[k].diffuse[c] = 1;
        x->mesh.materials[k].texture = x->mesh.materials[k].sphere = empty;
    }
    return x;
}

char *mmd_x_str(mmd_xmesh *x, const char *s) { return mmd_arena_strdup(x->mesh.arena, s ? s : ""); }
