/* tools/bench_physics.c - physics cost per output frame for Gene_light
 * (87 bodies, 92 joints) at 30 fps: one mmd_physics_step of 1/30 s = 4
 * substeps of 1/120 s, single thread, the generated sway motion of
 * tests/util/sway_motion.h. The animation
 * is evaluated outside the timed region; the figure is the step alone
 * (kinematic placement, 4 Bullet substeps, bone write-back).
 * Model from $SHARED_ASSETS/gene (default ../shared/assets). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/anim.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/physics.h"
#include "tests/util/sway_motion.h"

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* wall clock, and this thread's CPU time (steadier on a shared machine) */
static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }
static double cpu_ms(void) { return clock_ms(CLOCK_THREAD_CPUTIME_ID); }

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *assets = getenv("SHARED_ASSETS");
    if (!assets || !*assets)
        assets = "../shared/assets";
    char mp[1024];
    snprintf(mp, sizeof mp, "%s/gene/Gene_light.pmx", assets);
    int frames = argc > 1 ? atoi(argv[1]) : 600;
    if (frames < 1 || frames > 100000)
        frames = 600;
    mmd_error err;
    mmd_model *m = NULL;
    if (mmd_model_load_file(mp, &m, &err) != MMD_OK) {
        printf("bench_physics: %s unreadable (%s), skipped\n", mp, err.msg);
        return 0;
    }
    mmd_arena *ar = mmd_arena_create();
    const mmd_motion *mo = ar ? sway_motion(m, (uint32_t)frames, ar) : NULL;
    if (!mo)
        return 1;
    const mmd_motion *mos[1] = {mo};
    mmd_anim *a = NULL;
    mmd_physics *p = NULL;
    if (mmd_anim_create(m, mos, 1, &a, &err) != MMD_OK || mmd_physics_create(m, &p, &err) != MMD_OK) {
        printf("bench_physics: setup failed: %s\n", err.msg);
        return 1;
    }
    size_t nf = (size_t)m->bone_count * 16;
    float *out = malloc(nf * sizeof *out);
    double *ms = malloc((size_t)frames * sizeof *ms), *cpu = malloc((size_t)frames * sizeof *cpu);
    if (!out || !ms || !cpu)
        return 1;

    mmd_anim_evaluate(a, 0);
    mmd_physics_reset(p, mmd_anim_world(a));
    double t0 = now_ms();
    for (int i = 0; i < 60; i++) /* 2 s pre-roll */
        mmd_physics_step(p, 1.0 / 30.0, mmd_anim_world(a), out);
    double preroll = now_ms() - t0;

    double total = 0, total_cpu = 0;
    uint32_t substeps = 0;
    for (int f = 0; f < frames; f++) {
        mmd_anim_evaluate(a, (double)f);
        double s = now_ms(), c = cpu_ms();
        substeps += mmd_physics_step(p, 1.0 / 30.0, mmd_anim_world(a), out);
        cpu[f] = cpu_ms() - c;
        ms[f] = now_ms() - s;
        total += ms[f];
        total_cpu += cpu[f];
    }
    qsort(ms, (size_t)frames, sizeof *ms, cmp);
    qsort(cpu, (size_t)frames, sizeof *cpu, cmp);
    printf("Gene_light physics (%u bodies, %u joints), %d frames at 30 fps, %u substeps of 1/120 s:\n",
           m->rigid_body_count, m->joint_count, frames, substeps);
    printf("  per frame mean      %8.3f ms wall, %8.3f ms cpu  (goal <= 2 ms)\n", total / frames,
           total_cpu / frames);
    printf("  per frame median    %8.3f ms wall, %8.3f ms cpu\n", ms[frames / 2], cpu[frames / 2]);
    printf("  per frame p95       %8.3f ms wall, %8.3f ms cpu\n", ms[(frames * 95) / 100],
           cpu[(frames * 95) / 100]);
    printf("  pre-roll 2 s        %8.3f ms  (60 frames)\n", preroll);

    free(out);
    free(ms);
    free(cpu);
    mmd_physics_free(p);
    mmd_anim_free(a);
    mmd_arena_destroy(ar);
    mmd_model_free(m);
    return 0;
}
