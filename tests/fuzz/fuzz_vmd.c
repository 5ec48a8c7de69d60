/* tests/fuzz/fuzz_vmd.c - libFuzzer target: VMD bytes -> mmd_vmd_load -> bind to
 * the fixture model (fuzz_common.h: IK leg, append, fixed axis, morphs) ->
 * evaluate at 0, 17.5, last+5 and skin -> camera/light/shadow tracks sampled
 * -> free.
 * Seeds: corpus/vmd/ (tools/mkcorpus), dict: vmd.dict. */
#include <stddef.h>
#include <stdint.h>

#include "core/camera.h"
#include "core/motion.h"
#include "tests/fuzz/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmd_motion *mo = NULL;
    mmd_error err;
    if (mmd_vmd_load(data, size, &mo, &err) != MMD_OK)
        return 0;
    const mmd_motion *list[1] = {mo};
    fuzz_drive_anim(fuzz_fixture_model(), list, 1);
    mmd_camera_track *ct = NULL;
    if (mmd_camera_track_create(mo, &ct, &err) == MMD_OK) {
        const double times[4] = {0.0, 1.5, 29.25, (double)mmd_camera_track_last_frame(ct) + 3.0};
        volatile float sink = 0;
        for (int i = 0; i < 4; i++) {
            mmd_camera_state cs;
            mmd_light_state ls;
            mmd_shadow_state ss;
            float view[16], proj[16];
            mmd_camera_sample(ct, times[i], &cs);
            mmd_light_sample(ct, times[i], &ls);
            mmd_shadow_sample(ct, times[i], &ss);
            mmd_camera_derive(&cs);
            mmd_camera_matrices(&cs, 16.0f / 9.0f, view, proj);
            sink += view[12] + proj[0] + ls.color[0] + ss.distance;
        }
        (void)sink;
        mmd_camera_track_free(ct);
    }
    mmd_motion_free(mo);
    return 0;
}
