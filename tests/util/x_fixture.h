/* tests/util/x_fixture.h - generated .x meshes for tests, the fuzz corpus and goldens.
 *
 * x_fixture_sample(): 7 vertices, a unit quad (material 0: red-ish, power 5)
 *   and a triangle (material 1: texture "テクスチャ.png", sphere "env.spa"),
 *   UVs, vertex colours (r = 0.5), normals (0 0 -1).
 * x_fixture_box(): an axis-aligned box centred on (cx,cy,cz) with half sizes
 *   (hx,hy,hz), 24 vertices (own normals and UVs per face), 12 triangles, one
 *   white material (power 0).
 * x_fixture_boxes(): several such boxes, grouped by material (the demo stage).
 * x_fixture_bytes(): write x in an encoding (mmd_x_write_options fields) to
 *   malloc'd bytes, exit(1) when that fails. */
#ifndef MMD_TESTS_X_FIXTURE_H
#define MMD_TESTS_X_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/xfile_write.h"

mmd_xmesh *x_fixture_sample(void);
mmd_xmesh *x_fixture_box(float cx, float cy, float cz, float hx, float hy, float hz);
/* Several boxes in one mesh: box i uses material[i] (non-decreasing), nmat
 * white materials. */
typedef struct x_box { float c[3], h[3]; int material; } x_box;
mmd_xmesh *x_fixture_boxes(const x_box *boxes, int n, int nmat);
uint8_t *x_fixture_bytes(const mmd_xmesh *x, int encoding, int float_bits, bool normals, const float *frame,
                         size_t *n);

#endif
