/* tests/fuzz/fuzz_x.c - libFuzzer target: DirectX .x (text, binary, MSZIP) and
 * .vac bytes. "xof " inputs: mmd_x_load (parse, inflate, build, validate), then
 * the loaded mesh is written back in binary and must load again (a writer and
 * reader that disagree abort). Other inputs: mmd_vac_load and the placement
 * matrix. Seeds: corpus/x/ (tools/mkcorpus), dict: x.dict. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/accessory.h"
#include "core/xfile.h"
#include "core/xfile_write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void round_trip(const mmd_xmesh *x)
{
    mmd_x_write_options o = {.encoding = MMD_X_BINARY, .float_bits = 32, .normals = true};
    uint8_t *b = NULL;
    size_t n = 0;
    mmd_error err;
    if (mmd_x_write(x, &o, &b, &n, &err) != MMD_OK)
        return; /* out of memory only */
    mmd_xmesh *y = NULL;
    if (mmd_x_load(b, n, &y, &err) != MMD_OK || y->mesh.index_count != x->mesh.index_count ||
        y->mesh.material_count != x->mesh.material_count)
        abort();
    mmd_x_free(y);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmd_error err;
    if (size >= 4 && memcmp(data, "xof ", 4) == 0) {
        mmd_xmesh *x = NULL;
        if (mmd_x_load(data, size, &x, &err) != MMD_OK)
            return 0;
        if (x->mesh.vertex_count < 65536)
            round_trip(x);
        mmd_x_free(x);
        return 0;
    }
    mmd_vac v;
    if (mmd_vac_load(data, size, &v, &err) == MMD_OK) {
        mmd_accessory_place p;
        mmd_accessory_place_default(&p);
        memcpy(p.position, v.position, sizeof p.position);
        memcpy(p.rotation, v.rotation, sizeof p.rotation);
        p.scale = v.scale;
        float m[16];
        mmd_accessory_world(&p, NULL, m);
    }
    return 0;
}
