/* tools/bench_anim.c - per-frame cost of the animation core on Gene_light
 * with a generated dance-like motion (keys on every bone every 4 frames with
 * non-linear curves, morph keys every 6 frames): sampling, morphs, bones
 * (append + IK), skinning matrices and CPU skinning, single thread.
 * Goal: <= 1.0 ms per frame in total. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/anim_internal.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/text.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the build machine is shared */
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint32_t rng = 12345;
static float frand(void) /* [-1, 1) */
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 8388608.0f - 1.0f;
}

#define FRAMES 3000

static mmd_motion *dance(const mmd_model *m)
{
    mmd_arena *ar = mmd_arena_create();
    mmd_motion *mo = mmd_arena_alloc(ar, sizeof *mo);
    mmd_text *tx = mmd_text_create();
    mo->arena = ar;
    uint32_t nbk = m->bone_count * (FRAMES / 4 + 1), nmk = m->morph_count * (FRAMES / 6 + 1);
    mo->bone_keys = mmd_arena_array(ar, nbk, sizeof *mo->bone_keys);
    mo->morph_keys = mmd_arena_array(ar, nmk, sizeof *mo->morph_keys);
    for (uint32_t b = 0; b < m->bone_count; b++) {
        uint8_t raw[16] = {0};
        mmd_text_to_sjis(tx, m->bones[b].name, raw, 15);
        for (uint32_t f = 0; f <= FRAMES; f += 4) {
            mmd_bone_key *k = &mo->bone_keys[mo->bone_key_count++];
            k->name = m->bones[b].name;
            memcpy(k->raw_name, raw, 16);
            k->frame = f;
            bool move = (m->bones[b].flags & MMD_BONE_MOVABLE) != 0;
            for (int c = 0; c < 3; c++)
                k->position[c] = move ? 0.5f * frand() : 0;
            float ax[3] = {frand(), frand(), frand()}, l = sqrtf(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
            float ang = 0.4f * frand();
            for (int c = 0; c < 3; c++)
                k->rotation[c] = l > 0 ? ax[c] / l * sinf(ang / 2) : 0;
            k->rotation[3] = cosf(ang / 2);
            for (int r = 0; r < 4; r++) { /* eased curves per channel */
                k->interp[16 * r + 0] = (uint8_t)(40 + 20 * r), k->interp[16 * r + 4] = 10;
                k->interp[16 * r + 8] = 90, k->interp[16 * r + 12] = (uint8_t)(117 - 10 * r);
            }
        }
    }
    for (uint32_t i = 0; i < m->morph_count; i++) {
        uint8_t raw[16] = {0};
        mmd_text_to_sjis(tx, m->morphs[i].name, raw, 15);
        for (uint32_t f = 0; f <= FRAMES; f += 6) {
            mmd_morph_key *k = &mo->morph_keys[mo->morph_key_count++];
            k->name = m->morphs[i].name;
            memcpy(k->raw_name, raw, 16);
            k->frame = f;
            k->weight = (i % 7 == 0) ? 0.5f + 0.5f * frand() : 0.0f; /* some morphs active */
        }
    }
    mo->last_frame = FRAMES;
    mmd_text_destroy(tx);
    return mo;
}

int main(int argc, char **argv)
{
    const char *assets = getenv("SHARED_ASSETS");
    char path[512];
    snprintf(path, sizeof path, "%s/gene/Gene_light.pmx", argc > 1 ? argv[1] : assets ? assets : "../shared/assets");
    mmd_model *m = NULL;
    mmd_error e;
    if (mmd_model_load_file(path, &m, &e) != MMD_OK) {
        printf("bench_anim: skipped (no %s)\n", path);
        return 0;
    }
    mmd_motion *mo = dance(m);
    const mmd_motion *list[1] = {mo};
    mmd_anim *a = NULL;
    double t0 = now_ms();
    if (mmd_anim_create(m, list, 1, &a, &e) != MMD_OK) {
        printf("bench_anim: create failed: %s\n", e.msg);
        return 1;
    }
    double t_create = now_ms() - t0;
    float *pos = malloc((size_t)m->vertex_count * 12), *nrm = malloc((size_t)m->vertex_count * 12);
    double ts = 0, tm = 0, tb = 0, tk = 0, tv = 0;
    int n = 0;
    for (int pass = 0; pass < 2; pass++) { /* pass 0 warms caches */
        ts = tm = tb = tk = tv = 0;
        n = 0;
        for (double t = 0; t < FRAMES; t += 1.0, n++) {
            double c0 = now_ms();
            mmd_anim_sample_tracks(a, t + 0.5);
            double c1 = now_ms();
            mmd_anim_apply_morphs(a);
            double c2 = now_ms();
            memset(a->phys_written, 0, a->nb);
            mmd_anim_pose_bones(a, false);
            mmd_anim_pose_bones(a, true);
            double c3 = now_ms();
            mmd_anim_build_skinning(a);
            double c4 = now_ms();
            mmd_anim_skin(a, 0, m->vertex_count, pos, nrm);
            double c5 = now_ms();
            ts += c1 - c0, tm += c2 - c1, tb += c3 - c2, tk += c4 - c3, tv += c5 - c4;
        }
    }
    double tot = (ts + tm + tb + tk + tv) / n;
    printf("bench_anim: Gene_light %u vertices, %u bones (%u IK), %u morphs; motion %u bone keys, %u morph keys\n",
           m->vertex_count, m->bone_count, a->ik_count, m->morph_count, mo->bone_key_count, mo->morph_key_count);
    printf("  create (bind + precompute): %.2f ms\n", t_create);
    printf("  per frame (mean of %d, single thread): sampling %.3f ms, morphs %.3f ms, bones+IK %.3f ms, "
           "skinning matrices %.3f ms, CPU skinning %.3f ms\n",
           n, ts / n, tm / n, tb / n, tk / n, tv / n);
    printf("  total %.3f ms per frame (goal <= 1.0 ms): %s\n", tot, tot <= 1.0 ? "ok" : "OVER");
    /* the same through the public entry points */
    t0 = now_ms();
    for (int i = 0; i < n; i++) {
        mmd_anim_evaluate(a, i);
        mmd_anim_skin(a, 0, m->vertex_count, pos, nrm);
    }
    printf("  mmd_anim_evaluate + mmd_anim_skin: %.3f ms per frame\n", (now_ms() - t0) / n);
    free(pos), free(nrm);
    mmd_anim_free(a);
    mmd_arena_destroy(mo->arena);
    mmd_model_free(m);
    return 0;
}
