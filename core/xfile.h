/* core/xfile.h - DirectX .x accessories: the reader and what the file said.
 *
 *   mmd_xmesh *x;
 *   if (mmd_x_load(bytes, size, &x, &err) != MMD_OK) -> "file: offset 0x1a2b, x.mesh #0: ..."
 *   ... x->mesh (the neutral mesh of core/accessory.h), x->version, x->face_count ...
 *   mmd_x_free(x);
 *
 * The renderer takes only x->mesh (or mmd_accessory_load, which reads a .x
 * through its row of core/sniff.h); the rest is for `info` and tests.
 *
 * .x: text (`xof 0302txt`/`0303txt`), binary (`bin `, 32- or 64-bit floats) and
 * MSZIP-compressed (`tzip`/`bzip`). Offsets in errors of compressed files count
 * bytes of the inflated data (after the 16-byte header). Frames are flattened:
 * every Mesh is transformed by its frames' FrameTransformMatrix product and
 * appended; polygons become triangle fans; faces are grouped by material
 * (materials in file order, per mesh). Positions stay in file units (DirectX's
 * left-handed space = MMD's model space; MMD scales by 10 when placing). A mesh
 * without MeshNormals gets the normalised sum of its faces' unit normals.
 * Unknown templates and objects are skipped by their braces/tokens. The mesh
 * holds the invariants of core/accessory.h (mmd_accessory_mesh_validate).
 */
#ifndef MMD_CORE_XFILE_H
#define MMD_CORE_XFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/accessory.h"
#include "core/status.h"

#define MMD_X_MAX_DEPTH 64 /* object nesting */

typedef enum mmd_x_encoding {
    MMD_X_TEXT = 0,   /* "txt " */
    MMD_X_BINARY = 1, /* "bin " */
    MMD_X_TZIP = 2,   /* MSZIP-compressed text */
    MMD_X_BZIP = 3,   /* MSZIP-compressed binary */
} mmd_x_encoding;

typedef struct mmd_xmesh {
    mmd_accessory_mesh mesh; /* what is drawn (vertices split where a position carries
                                several normals or uvs); mesh.arena holds this struct too */
    uint8_t encoding;     /* mmd_x_encoding */
    uint8_t float_bits;   /* 32 or 64 (header; binary floats use it) */
    uint16_t version;     /* 302, 303 */
    uint32_t mesh_count, frame_count, face_count; /* as in the file (faces: polygons) */
    uint32_t file_vertex_count;                   /* as in the file */
    bool has_normals, has_uvs, has_colors;        /* some mesh had MeshNormals/...Coords/...Colors */
} mmd_xmesh;

/* Parse + validate from memory. On failure *out is untouched and err says why. */
mmd_status mmd_x_load(const void *data, size_t size, mmd_xmesh **out, mmd_error *err);
mmd_status mmd_x_load_file(const char *path, mmd_xmesh **out, mmd_error *err);
void mmd_x_free(mmd_xmesh *x); /* NULL is a no-op */

#endif
