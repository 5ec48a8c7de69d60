/* tests/fuzz/fuzz_model.c - libFuzzer target for both model formats (targets pmx
 * and pmd; mmd_model_load tells PMX from PMD by the magic): bytes -> load (parse +
 * validate) -> rest pose and a keyed motion through anim (evaluate at 0, 17.5,
 * last+5, skin every vertex) -> free. Seeds: corpus/pmx/ and corpus/pmd/
 * (tools/mkcorpus), dicts: pmx.dict, pmd.dict. Built with gcc against
 * tests/fuzz/replay.c for `make test`. */
#include <stddef.h>
#include <stdint.h>

#include "core/model.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmd_model *m = NULL;
    mmd_error err;
    if (mmd_model_load(data, size, &m, &err) != MMD_OK)
        return 0;
    fuzz_drive_anim(m, NULL, 0);
    mmd_motion *mo = fuzz_motion_for(m);
    if (mo) {
        const mmd_motion *list[1] = {mo};
        fuzz_drive_anim(m, list, 1);
        mmd_arena_destroy(mo->arena); /* built by fuzz_motion_for, not a loader */
    }
    mmd_model_free(m);
    return 0;
}
