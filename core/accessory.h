/* core/accessory.h - MMD accessories: DirectX .x meshes, .vac files, placement.
 *
 *   mmd_xmesh *x;
 *   if (mmd_x_load(bytes, size, &x, &err) != MMD_OK) -> "file: offset 0x1a2b, x.mesh #0: ..."
 *   ... x->vertices, x->indices (triangles grouped by material), x->materials
 *   mmd_x_free(x);
 *
 * .x: text (`xof 0302txt`/`0303txt`), binary (`bin `, 32- or 64-bit floats) and
 * MSZIP-compressed (`tzip`/`bzip`). Offsets in errors of compressed files count
 * bytes of the inflated data (after the 16-byte header). Frames are flattened:
 * every Mesh is transformed by its frames' FrameTransformMatrix product and
 * appended; polygons become triangle fans; faces are grouped by material
 * (materials in file order, per mesh). Positions stay in file units (DirectX's
 * left-handed space = MMD's model space; MMD scales by 10 when placing). A mesh
 * without MeshNormals gets the normalised sum of its faces' unit normals.
 * Unknown templates and objects are skipped by their braces/tokens.
 *
 * Invariants after a successful load (mmd_x_validate ran): every index is
 * < vertex_count; sum of materials' index_count == index_count, each a
 * multiple of 3; every float finite; normals unit length.
 */
#ifndef MMD_CORE_ACCESSORY_H
#define MMD_CORE_ACCESSORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/status.h"

#define MMD_X_MAX_DEPTH 64 /* object nesting */

typedef enum mmd_x_encoding {
    MMD_X_TEXT = 0,   /* "txt " */
    MMD_X_BINARY = 1, /* "bin " */
    MMD_X_TZIP = 2,   /* MSZIP-compressed text */
    MMD_X_BZIP = 3,   /* MSZIP-compressed binary */
} mmd_x_encoding;

typedef struct mmd_x_vertex {
    float position[3]; /* file units */
    float normal[3];   /* unit length */
    float uv[2];       /* as stored (0 0 without MeshTextureCoords); drawn with wrap */
    float color[4];    /* MeshVertexColors rgba, else 1 1 1 1 */
} mmd_x_vertex;

typedef struct mmd_x_material {
    float diffuse[4];     /* faceColor rgba */
    float power;          /* specular exponent */
    float specular[3];
    float emissive[3];
    char *texture;        /* UTF-8 (from Shift-JIS), '\' kept; "" none */
    char *sphere;         /* "tex.png*sphere.sph" / ".spa": the sphere part; "" none */
    uint8_t sphere_mode;  /* mmd_sphere_mode (core/model.h): MUL for .sph, ADD for .spa, NONE */
    uint32_t index_count; /* indices drawn with this material (multiple of 3) */
} mmd_x_material;

typedef struct mmd_xmesh {
    uint8_t encoding;     /* mmd_x_encoding */
    uint8_t float_bits;   /* 32 or 64 (header; binary floats use it) */
    uint16_t version;     /* 302, 303 */
    mmd_x_vertex *vertices; uint32_t vertex_count;
    uint32_t *indices;      uint32_t index_count;
    mmd_x_material *materials; uint32_t material_count;
    uint32_t mesh_count, frame_count, face_count; /* as in the file (faces: polygons) */
    uint32_t file_vertex_count; /* as in the file (vertex_count: as drawn, split where a
                                   position carries several normals or uvs) */
    bool has_normals, has_uvs, has_colors;        /* some mesh had MeshNormals/...Coords/...Colors */
    unsigned warnings;    /* repaired oddities (degenerate faces, bad text) */
    mmd_arena *arena;
} mmd_xmesh;

/* Parse + validate from memory. On failure *out is untouched and err says why. */
mmd_status mmd_x_load(const void *data, size_t size, mmd_xmesh **out, mmd_error *err);
mmd_status mmd_x_load_file(const char *path, mmd_xmesh **out, mmd_error *err);
void mmd_x_free(mmd_xmesh *x); /* NULL is a no-op */
/* The invariants above (called by mmd_x_load). */
mmd_status mmd_x_validate(const mmd_xmesh *x, mmd_error *err);

/* .vac: MMD's six Shift-JIS text lines (name, .x file, scale, "x,y,z" position,
 * "x,y,z" rotation in degrees, parent bone name; may be empty), then comments. */
typedef struct mmd_vac {
    char name[256];       /* UTF-8 */
    char x_file[512];     /* UTF-8, relative to the .vac's folder, '\' kept */
    float scale;
    float position[3];
    float rotation[3];    /* degrees */
    char bone[256];       /* UTF-8; "" = no parent */
} mmd_vac;

/* Errors carry the line number in err->item (section "vac"). */
mmd_status mmd_vac_load(const void *data, size_t size, mmd_vac *out, mmd_error *err);

/* Where and how an accessory is drawn (a scene's [accessory] or a project's state). */
typedef struct mmd_accessory_place {
    float position[3];    /* MMD units (parent bone space when parented) */
    float rotation[3];    /* degrees; applied X, then Y, then Z */
    float scale;          /* Si (default 1) */
    float opacity;        /* Tr 0..1 (default 1) */
    bool visible;         /* default true */
    bool shadow;          /* ground shadow + self-shadow casting (default true) */
    bool add_blend;       /* additive blending (default false) */
    bool after_models;    /* drawn after the models (default false: before) */
} mmd_accessory_place;

/* The defaults above. */
void mmd_accessory_place_default(mmd_accessory_place *p);
/* MMD's placement of an object, column-major: T(position) x Rz x Ry x Rx x
 * S(scale), rotation in degrees applied X, then Y, then Z (nanoem's order).
 * Accessories and a scene's [model] placement (core/anim.h) both use it. */
void mmd_place_matrix(const float position[3], const float rotation[3], float scale, float out[16]);
/* Column-major world matrix: parent x T(position) x Rz x Ry x Rx x S(scale) x S(10).
 * parent is a bone's world matrix (column-major) or NULL. */
void mmd_accessory_world(const mmd_accessory_place *p, const float *parent, float out[16]);

/* Between two accessory keys at s (0..1), as nanoem's Accessory::synchronizeMotion
 * does: position, scale and opacity linear; the rotation slerped (shortest arc)
 * between the quaternions of the two X-then-Y-then-Z rotations and given back
 * in degrees (equal rotations come back unchanged); visible, shadow and the
 * blend flags are a's (stepped). */
void mmd_accessory_place_mix(const mmd_accessory_place *a, const mmd_accessory_place *b, float s,
                             mmd_accessory_place *out);

#endif
