/* tests/fuzz/fuzz_vpd.c - libFuzzer target: VPD text -> mmd_vpd_load -> bind to
 * the fixture model (fuzz_common.h) -> evaluate and skin -> free.
 * Seeds: corpus/vpd/ (tools/mkcorpus), dict: vpd.dict. */
#include <stddef.h>
#include <stdint.h>

#include "core/motion.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmd_motion *mo = NULL;
    mmd_error err;
    if (mmd_vpd_load(data, size, &mo, &err) != MMD_OK)
        return 0;
    const mmd_motion *list[1] = {mo};
    fuzz_drive_anim(fuzz_fixture_model(), list, 1);
    mmd_motion_free(mo);
    return 0;
}
