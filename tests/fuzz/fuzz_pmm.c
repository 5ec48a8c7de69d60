/* tests/fuzz/fuzz_pmm.c - libFuzzer target: project bytes -> mmd_pmm_load (v1
 * projects get a fixed three-bone model from the callback) -> every model's
 * motion and the camera motion built (core/pmm_motion.c) and bound to the
 * fixture model (fuzz_common.h), evaluated and skinned -> free.
 * Seeds: corpus/pmm/ (tools/mkcorpus), dict: pmm.dict. */
#include <stddef.h>
#include <stdint.h>

#include "core/motion.h"
#include "core/pmm.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool v1_model(void *user, const char *path, mmd_pmm_v1_model *out)
{
    static const char *const bones[3] = {"center", "leg_ik", "head"};
    static const char *const morphs[1] = {"mouth_a"};
    static const int32_t ik[1] = {1};
    (void)user;
    if (path[0] == 'x')
        return false; /* a model that cannot be loaded */
    *out = (mmd_pmm_v1_model){bones, 3, morphs, 1, ik, 1};
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmd_pmm *p = NULL;
    mmd_error err;
    mmd_pmm_options opts = {v1_model, NULL};
    if (mmd_pmm_load(data, size, &opts, &p, &err) != MMD_OK)
        return 0;
    for (uint32_t i = 0; i < p->model_count && i < 4; i++) {
        mmd_motion *mo = NULL;
        if (mmd_pmm_model_motion(p, i, &mo, &err) == MMD_OK) {
            const mmd_motion *list[1] = {mo};
            fuzz_drive_anim(fuzz_fixture_model(), list, 1);
            mmd_motion_free(mo);
        }
    }
    mmd_motion *cam = NULL;
    if (mmd_pmm_camera_motion(p, &cam, &err) == MMD_OK)
        mmd_motion_free(cam);
    mmd_pmm_free(p);
    return 0;
}
