/* core/xfile_write.h - DirectX .x writer (tests, fuzz corpus, demo stage).
 *
 *   mmd_xmesh *x = mmd_x_new(nv, ni, nm);    vertices/indices/materials zeroed,
 *                                            materials white, strings ""
 *   ... fill x->mesh.vertices, x->mesh.indices, x->mesh.materials[k].index_count ...
 *   mmd_x_write_options o = {.encoding = MMD_X_BINARY, .float_bits = 32, .normals = true};
 *   mmd_x_write(x, &o, &buf, &n, &err);       malloc'd bytes; free(buf)
 *   mmd_x_free(x);
 *
 * One Mesh (triangles; faces take their material from the index_count runs),
 * with MeshNormals (when o->normals), MeshTextureCoords, MeshMaterialList with
 * inline Materials and TextureFilename ("texture*sphere", Shift-JIS),
 * MeshVertexColors (when x->has_colors); inside a Frame with a
 * FrameTransformMatrix when o->frame is set. Text floats are written in the
 * shortest form that reads back to the same float, so every encoding loads
 * to identical meshes.
 */
#ifndef MMD_CORE_XFILE_WRITE_H
#define MMD_CORE_XFILE_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/xfile.h"

typedef struct mmd_x_write_options {
    uint8_t encoding;   /* mmd_x_encoding */
    uint8_t float_bits; /* 32 or 64 (0 = 32) */
    bool normals;       /* write MeshNormals (else readers compute them) */
    const float *frame; /* NULL, or 16 floats: the FrameTransformMatrix as mmd_x_load reads it */
} mmd_x_write_options;

mmd_status mmd_x_write(const mmd_xmesh *x, const mmd_x_write_options *o, uint8_t **out, size_t *out_size,
                       mmd_error *err);

/* A mesh of nv vertices (normal 0 1 0, colour white), ni indices, nm white
 * materials (power 0, strings ""), has_uvs true. NULL when out of memory. */
mmd_xmesh *mmd_x_new(uint32_t nv, uint32_t ni, uint32_t nm);
/* Copy a UTF-8 string into the mesh's arena (NULL gives ""). */
char *mmd_x_str(mmd_xmesh *x, const char *s);

#endif
