/* core/xfile_load.c - mmd_x_load: the 16-byte header, MSZIP inflation, parse,
 * build, validate; one arena per mesh, one free; the .x row of core/sniff.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/sniff.h"
#include "core/xfile_parse.h"

/* "xof " + "03mm" + "txt "/"bin "/"tzip"/"bzip" + "0032"/"0064". */
static mmd_status parse_header(const uint8_t *b, size_t size, mmd_xmesh *x, mmd_error *err)
{
    if (size < MMD_X_HEADER_BYTES || memcmp(b, "xof ", 4) != 0)
        return mmd_error_set(err, size < 4 ? MMD_E_TRUNCATED : MMD_E_BAD_MAGIC, "x", -1, 0,
                             "not a DirectX .x file (no 'xof ' header)");
    if (b[4] != '0' || b[5] != '3' || b[6] < '0' || b[6] > '9' || b[7] < '0' || b[7] > '9')
        return mmd_error_set(err, MMD_E_BAD_VERSION, "x", -1, 4, "version '%.4s' (expected 03xx)",
                             (const char *)b + 4);
    x->version = (uint16_t)(300 + (b[6] - '0') * 10 + (b[7] - '0'));
    static const char *const kinds[] = {"txt ", "bin ", "tzip", "bzip"};
    int k = -1;
    for (int i = 0; i < 4; i++)
        if (memcmp(b + 8, kinds[i], 4) == 0)
            k = i;
    if (k < 0)
        return mmd_error_set(err, MMD_E_UNSUPPORTED, "x", -1, 8, "format '%.4s' (expected txt, bin, tzip, bzip)",
                             (const char *)b + 8);
    x->encoding = (uint8_t)k;
    if (memcmp(b + 12, "0032", 4) == 0)
        x->float_bits = 32;
    else if (memcmp(b + 12, "0064", 4) == 0)
        x->float_bits = 64;
    else
        return mmd_error_set(err, MMD_E_BAD_HEADER, "x", -1, 12, "float size '%.4s' (expected 0032 or 0064)",
                             (const char *)b + 12);
    return MMD_OK;
}

static void free_raw(xp *p)
{
    for (xraw_mesh *me = p->meshes; me; me = me->next) {
        free(me->face_n.v);
        free(me->face_i.v);
        free(me->nface_n.v);
        free(me->nface_i.v);
    }
    mmd_arena_destroy(p->tmp);
    mmd_text_destroy(p->t);
}

/* Parse the payload (data[start..size)) into x. */
static mmd_status parse_payload(const uint8_t *data, size_t size, size_t start, bool inflated, mmd_xmesh *x,
                                mmd_error *err)
{
    xp p;
    memset(&p, 0, sizeof p);
    mmd_reader_init(&p.r, data, size, err);
    p.r.pos = start;
    p.r.section = inflated ? "x (inflated)" : "x";
    p.x = x;
    p.binary = x->encoding == MMD_X_BINARY || x->encoding == MMD_X_BZIP;
    p.fbytes = x->float_bits / 8;
    p.mesh_tail = &p.meshes;
    p.tmp = mmd_arena_create();
    p.t = mmd_text_create();
    p.empty = mmd_arena_strdup(x->mesh.arena, "");
    if (!p.tmp || !p.t || !p.empty)
        xp_nomem(&p);
    if (mmd_rd_ok(&p.r))
        xp_parse_top(&p);
    if (mmd_rd_ok(&p.r) && p.list_left)
        mmd_rd_fail(&p.r, MMD_E_BAD_STRUCTURE, "%u values of a list left unread", p.list_left);
    if (mmd_rd_ok(&p.r))
        xp_build(&p);
    free_raw(&p);
    return p.r.err->status;
}

mmd_status mmd_x_load(const void *data, size_t size, mmd_xmesh **out, mmd_error *err)
{
    mmd_error local;
    if (!err)
        err = &local;
    if (!out || (!data && size))
        return mmd_error_set(err, MMD_E_BAD_STRUCTURE, "x", -1, -1, "no input or output");
    mmd_arena *a = mmd_arena_create();
    mmd_xmesh *x = a ? mmd_arena_alloc(a, sizeof *x) : NULL;
    if (!x) {
        mmd_arena_destroy(a);
        return mmd_error_set(err, MMD_E_NOMEM, "x", -1, -1, "out of memory");
    }
    x->mesh.arena = a;
    mmd_status st = parse_header(data, size, x, err);
    if (st == MMD_OK && (x->encoding == MMD_X_TZIP || x->encoding == MMD_X_BZIP)) {
        uint8_t *inflated = NULL;
        size_t n = 0;
        st = mmd_x_inflate(data, size, &inflated, &n, err);
        if (st == MMD_OK)
            st = parse_payload(inflated, n, 0, true, x, err);
        free(inflated);
    } else if (st == MMD_OK) {
        st = parse_payload(data, size, MMD_X_HEADER_BYTES, false, x, err);
    }
    if (st == MMD_OK)
        st = mmd_accessory_mesh_validate(&x->mesh, err);
    if (st != MMD_OK) {
        mmd_arena_destroy(a);
        return st;
    }
    *out = x;
    return MMD_OK;
}

mmd_status mmd_x_load_file(const char *path, mmd_xmesh **out, mmd_error *err)
{
    void *data = NULL;
    size_t size = 0;
    mmd_status st = mmd_file_read(path, &data, &size, err);
    if (st != MMD_OK)
        return st;
    st = mmd_x_load(data, size, out, err);
    free(data);
    return st;
}

void mmd_x_free(mmd_xmesh *x)
{
    if (x)
        mmd_accessory_mesh_free(&x->mesh); /* x lives in the mesh's arena */
}

/* The .x row of core/sniff.h: the mesh alone (its arena keeps the file's facts). */
mmd_status mmd_x_accessory_load(const void *data, size_t size, mmd_accessory_mesh **out, mmd_error *err)
{
    mmd_xmesh *x = NULL;
    mmd_status st = mmd_x_load(data, size, &x, err);
    if (st == MMD_OK)
        *out = &x->mesh;
    return st;
}

