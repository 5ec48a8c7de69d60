/* tests/util/sway_motion.h - a deterministic motion built in memory for
 * physics tests and benchmarks: センター sways, bobs and turns, 上半身 bows and
 * twists, 頭 nods; a key every 10 frames with linear curves. Bones the model
 * lacks are skipped. Keys live in `ar`; free the arena, not the motion. */
#ifndef MMD_TEST_SWAY_MOTION_H
#define MMD_TEST_SWAY_MOTION_H

#include <math.h>
#include <string.h>

#include "core/arena.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/text.h"

static inline void sway_quat(float ax, float ay, float az, float angle, float q[4])
{
    float s = sinf(angle / 2);
    q[0] = ax * s, q[1] = ay * s, q[2] = az * s, q[3] = cosf(angle / 2);
}

static inline mmd_motion *sway_motion(const mmd_model *m, uint32_t frames, mmd_arena *ar)
{
    static const char *const names[3] = {"センター", "上半身", "頭"};
    mmd_motion *mo = mmd_arena_alloc(ar, sizeof *mo);
    uint32_t keys = frames / 10 + 1;
    mmd_bone_key *k = mmd_arena_array(ar, 3 * (size_t)keys, sizeof *k);
    mmd_text *tx = mmd_text_create();
    if (!mo || !k || !tx) {
        mmd_text_destroy(tx);
        return NULL;
    }
    uint32_t n = 0;
    for (int b = 0; b < 3; b++) {
        if (mmd_model_find_bone(m, names[b]) < 0)
            continue;
        uint8_t raw[16] = {0};
        mmd_text_to_sjis(tx, names[b], raw, 15);
        for (uint32_t i = 0; i < keys; i++) {
            mmd_bone_key *key = &k[n++];
            float t = (float)(i * 10);
            key->name = (char *)names[b];
            memcpy(key->raw_name, raw, sizeof raw);
            key->frame = i * 10;
            memset(key->interp, 64, sizeof key->interp); /* control points on the diagonal: linear */
            key->rotation[3] = 1;
            if (b == 0) {
                key->position[0] = 8 * sinf(0.05f * t);
                key->position[1] = 2 * fabsf(sinf(0.11f * t));
                key->position[2] = 5 * sinf(0.031f * t);
                sway_quat(0, 1, 0, 0.8f * sinf(0.04f * t), key->rotation);
            } else if (b == 1) {
                sway_quat(1, 0, 0, 0.5f * sinf(0.07f * t), key->rotation);
            } else {
                sway_quat(1, 0, 0, 0.4f * sinf(0.13f * t), key->rotation);
            }
        }
    }
    mmd_text_destroy(tx);
    mo->format = MMD_MOTION_VMD;
    mo->version = 2;
    mo->model_name = (char *)"";
    mo->bone_keys = k;
    mo->bone_key_count = n;
    mo->last_frame = frames;
    mo->arena = ar;
    return mo;
}

#endif
