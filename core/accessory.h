/* core/accessory.h - MMD accessories as the renderer takes them: the neutral
 * mesh (whatever file it came from), .vac files, placement.
 *
 *   mmd_accessory_mesh *m;
 *   if (mmd_accessory_load(bytes, size, &m, &err) != MMD_OK) -> "file: offset 0x1a2b, x.mesh #0: ..."
 *   ... m->vertices, m->indices (triangles grouped by material), m->materials
 *   mmd_accessory_mesh_free(m);
 *
 * The format is told by its signature (core/sniff.h: one row per format, each
 * accessory row naming its reader); bytes that match no accessory signature
 * are read as DirectX .x, the first accessory row, whose error then says why.
 * What a format's file said beyond the mesh (.x: encoding, version, frame and
 * face counts) stays with its reader (core/xfile.h: mmd_xmesh).
 *
 * Invariants after a successful load (mmd_accessory_mesh_validate ran): every
 * index is < vertex_count; sum of materials' index_count == index_count, each
 * a multiple of 3; every float finite; normals unit length.
 */
#ifndef MMD_CORE_ACCESSORY_H
#define MMD_CORE_ACCESSORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/status.h"

typedef struct mmd_accessory_vertex {
    float position[3]; /* model units before MMD's x10 (.x: file units) */
    float normal[3];   /* unit length */
    float uv[2];       /* as stored (0 0 without uvs); drawn with wrap */
    float color[4];    /* vertex colour rgba, else 1 1 1 1 */
} mmd_accessory_vertex;

typedef struct mmd_accessory_material {
    float diffuse[4];     /* rgba */
    float power;          /* specular exponent */
    float specular[3];
    float emissive[3];
    char *texture;        /* UTF-8, '\' kept; "" none */
    char *sphere;         /* sphere map ("tex.png*sphere.sph" / ".spa": the sphere part); "" none */
    uint8_t sphere_mode;  /* mmd_sphere_mode (core/model.h): MUL for .sph, ADD for .spa, NONE */
    uint32_t index_count; /* indices drawn with this material (multiple of 3) */
} mmd_accessory_material;

typedef struct mmd_accessory_mesh {
    mmd_accessory_vertex *vertices;     uint32_t vertex_count;
    uint32_t *indices;                  uint32_t index_count;
    mmd_accessory_material *materials;  uint32_t material_count; /* drawn in this order */
    unsigned warnings;    /* repaired oddities (degenerate faces, bad text) */
    mmd_arena *arena;     /* owns the mesh (and what its reader kept beside it) */
} mmd_accessory_mesh;

/* Sniff, read and validate from memory. On failure *out is untouched and err says why. */
mmd_status mmd_accessory_load(const void *data, size_t size, mmd_accessory_mesh **out, mmd_error *err);
mmd_status mmd_accessory_load_file(const char *path, mmd_accessory_mesh **out, mmd_error *err);
void mmd_accessory_mesh_free(mmd_accessory_mesh *m); /* NULL is a no-op */
/* The invariants above (every accessory reader calls it). */
mmd_status mmd_accessory_mesh_validate(const mmd_accessory_mesh *m, mmd_error *err);

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
