/* tests/util/x_fixture.c - see x_fixture.h. */
#include "tests/util/x_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"

mmd_xmesh *x_fixture_sample(void)
{
    mmd_xmesh *x = mmd_x_new(7, 9, 2);
    if (!x)
        return NULL;
    static const float pos[7][3] = {{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}, {2, 0, 0}, {2, 1, 0.5f}, {3, 0, 0.25f}};
    for (int i = 0; i < 7; i++) {
        memcpy(x->mesh.vertices[i].position, pos[i], sizeof pos[i]);
        x->mesh.vertices[i].normal[1] = 0;
        x->mesh.vertices[i].normal[2] = -1;
        x->mesh.vertices[i].uv[0] = 0.1f * (float)i;
        x->mesh.vertices[i].uv[1] = 1.0f / 3.0f * (float)(i % 3);
        x->mesh.vertices[i].color[0] = 0.5f;
    }
    static const uint32_t idx[9] = {0, 1, 2, 0, 2, 3, 4, 5, 6};
    memcpy(x->mesh.indices, idx, sizeof idx);
    x->mesh.materials[0].index_count = 6;
    x->mesh.materials[0].diffuse[0] = 0.8f;
    x->mesh.materials[0].power = 5;
    x->mesh.materials[0].specular[1] = 0.25f;
    x->mesh.materials[1].index_count = 3;
    x->mesh.materials[1].emissive[2] = 0.3f;
    x->mesh.materials[1].texture = mmd_x_str(x, "テクスチャ.png");
    x->mesh.materials[1].sphere = mmd_x_str(x, "env.spa");
    x->mesh.materials[1].sphere_mode = MMD_SPHERE_ADD;
    x->has_colors = true;
    return x;
}

static void put_box(mmd_xmesh *x, uint32_t vbase, uint32_t ibase, const float c[3], const float h[3])
{
    /* per face: normal axis/sign, then the two in-plane axes */
    static const int axis[6] = {0, 0, 1, 1, 2, 2};
    static const float sign[6] = {1, -1, 1, -1, 1, -1};
    for (int f = 0; f < 6; f++) {
        int a = axis[f], u = (a + 1) % 3, v = (a + 2) % 3;
        static const float cu[4] = {-1, -1, 1, 1}, cv[4] = {-1, 1, 1, -1};
        for (int k = 0; k < 4; k++) {
            mmd_accessory_vertex *p = &x->mesh.vertices[vbase + 4 * (uint32_t)f + (uint32_t)k];
            p->position[a] = c[a] + sign[f] * h[a];
            p->position[u] = c[u] + cu[k] * h[u];
            p->position[v] = c[v] + cv[k] * h[v];
            memset(p->normal, 0, sizeof p->normal);
            p->normal[a] = sign[f];
            p->uv[0] = cu[k] > 0 ? 1.0f : 0.0f;
            p->uv[1] = cv[k] > 0 ? 0.0f : 1.0f;
        }
        /* clockwise seen from outside (D3D front faces): flip for one sign */
        static const uint32_t pos_order[6] = {0, 2, 1, 0, 3, 2}, neg_order[6] = {0, 1, 2, 0, 2, 3};
        const uint32_t *o = sign[f] > 0 ? pos_order : neg_order;
        for (int k = 0; k < 6; k++)
            x->mesh.indices[ibase + 6 * (uint32_t)f + (uint32_t)k] = vbase + (uint32_t)(4 * f) + o[k];
    }
}

mmd_xmesh *x_fixture_boxes(const x_box *boxes, int n, int nmat)
{
    mmd_xmesh *x = mmd_x_new(24 * (uint32_t)n, 36 * (uint32_t)n, (uint32_t)nmat);
    if (!x)
        return NULL;
    for (int i = 0; i < n; i++) {
        put_box(x, 24 * (uint32_t)i, 36 * (uint32_t)i, boxes[i].c, boxes[i].h);
        x->mesh.materials[boxes[i].material].index_count += 36;
    }
    return x;
}

mmd_xmesh *x_fixture_box(float cx, float cy, float cz, float hx, float hy, float hz)
{
    x_box b = {{cx, cy, cz}, {hx, hy, hz}, 0};
    return x_fixture_boxes(&b, 1, 1);
}

uint8_t *x_fixture_bytes(const mmd_xmesh *x, int encoding, int float_bits, bool normals, const float *frame,
                         size_t *n)
{
    mmd_x_write_options o = {.encoding = (uint8_t)encoding, .float_bits = (uint8_t)float_bits,
                             .normals = normals, .frame = frame};
    uint8_t *b = NULL;
    mmd_error err;
    if (!x || mmd_x_write(x, &o, &b, n, &err) != MMD_OK) {
        fprintf(stderr, "x_fixture: cannot write a .x: %s\n", x ? err.msg : "out of memory");
        exit(1);
    }
    return b;
}
