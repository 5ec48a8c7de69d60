/* core/xfile_parse.h - the .x reader's parts (tokens, objects, build); private to
 * core/xfile*.c. */
#ifndef MMD_CORE_XFILE_PARSE_H
#define MMD_CORE_XFILE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/xfile.h"
#include "core/reader.h"
#include "core/text.h"
#include "core/xfile_internal.h"

#define MMD_MAX_X_TEXT (64u * 1024u)

typedef enum xkind {
    XT_EOF, XT_NAME, XT_STRING, XT_INT, XT_FLOAT, XT_GUID, XT_OBRACE, XT_CBRACE, XT_TEMPLATE,
    XT_OTHER, XT_INT_LIST, XT_FLOAT_LIST,
} xkind;

typedef struct xtok {
    xkind kind;
    const uint8_t *s; /* name/string bytes (into the input) */
    size_t n;         /* their length; list length for lists */
    double num;
    size_t at;        /* offset of the token */
} xtok;

typedef struct xframe {
    struct xframe *parent;
    float local[16];  /* column-major (the file's row-vector matrix read in order) */
} xframe;

typedef struct xnamed_mat { /* a top-level Material, for references */
    struct xnamed_mat *next, *next_all; /* hash chain, every one */
    const uint8_t *name;
    size_t name_n;
    mmd_accessory_material *m;
} xnamed_mat;

typedef struct xu32v { uint32_t *v; size_t n, cap; } xu32v; /* malloc'd, grows */

typedef struct xraw_mesh {
    struct xraw_mesh *next;
    uint32_t index;           /* mesh number in the file */
    size_t at;                /* offset of the Mesh object */
    const xframe *frame;      /* NULL at top level */
    float *pos; uint32_t nv;
    xu32v face_n, face_i;     /* corner count per face, corners */
    uint32_t *face_at;        /* offset of each face */
    bool has_nrm; size_t nrm_at;
    float *nrm; uint32_t nn;
    xu32v nface_n, nface_i;
    bool has_uv; float *uv;
    bool has_col; float *col; /* nv x rgba */
    bool has_mat; size_t mat_at;
    uint32_t nmat, nmat_idx, *mat_idx;
    mmd_accessory_material **mats; uint32_t mats_have;
} xraw_mesh;

typedef struct xp {
    mmd_reader r;
    bool binary;
    int fbytes;               /* binary float size: 4 or 8 */
    uint32_t list_left;       /* binary: values left in the open list */
    bool list_float;
    int depth;
    mmd_xmesh *x;
    mmd_arena *tmp;           /* raw data, freed after the build */
    mmd_text *t;
    char *empty;
    xraw_mesh *meshes, **mesh_tail;
    xnamed_mat *named;        /* every top-level Material, newest first */
    xnamed_mat **buckets;     /* by name hash (references are O(1), not O(materials)) */
    uint32_t nbuckets, nnamed;
} xp;

/* xfile.c: tokens and object skeletons */
void xp_nomem(xp *p);
void xp_next(xp *p, xtok *t);
/* Offset of the next token (text: after separators and comments). */
size_t xp_here(xp *p);
uint32_t xp_dword(xp *p);
void xp_floats(xp *p, float *out, int n);
/* A count whose records hold numbers_per_record numbers, checked against the
 * bytes left and max. */
uint32_t xp_count(xp *p, uint32_t numbers_per_record, uint32_t max, const char *what);
bool xp_open(xp *p, xtok *name);
void xp_skip_object(xp *p);
bool xp_name_is(const xtok *t, const char *s);
void xp_children(xp *p, void *ctx, void (*child)(xp *, void *, const xtok *),
                 void (*ref)(xp *, void *, const xtok *));
void xp_skip_child(xp *p, void *ctx, const xtok *type);
bool xp_push(xp *p, xu32v *v, uint32_t x);

/* xfile_objects.c: the top level (templates, Frame, Mesh, Material, others) */
void xp_parse_top(xp *p);

/* xfile_build.c: check the raw meshes and flatten them into p->x */
void xp_build(xp *p);

#endif
