/* tools/bench_effects.c - what each effect of issue 18 costs per frame at
 * 1920x1080 MSAA 4 on Gene_light (rest pose, all MMD passes, self-shadow
 * mode 1), next to the same frame without effects.
 *
 * The figure is CPU time per frame of the whole process (getrusage: every
 * thread, llvmpipe's rasteriser threads included), not wall time: the build
 * machine is shared by several engineers, so wall time mostly measures the
 * neighbours. Each run: the mean over FRAMES frames after WARM warm-up frames
 * (shader variants compile on first use); each figure is the median of ROUNDS
 * runs, and each effect's cost the median of its difference to the frame
 * without effects measured in the same round (the neighbours' load drifts
 * by more than the cheaper effects cost).
 *
 *   bench_effects [THREADS (default 2)] [MODEL_DIR (default ../shared/assets/gene)] [FRAMES (default 8)] [ONLY]
 *                 [profile]
 *
 * ONLY: digits of the rows to run after the baseline (1 glow .. 6 ssaa), e.g. 24.
 * profile: also print each row's per-pass CPU ms (options.profile: every pass
 * finished before the next, so the parts add up to more than the frame).
 *
 * Goals on 2 cores: glow and diffusion <= 25% of the frame each, soft shadow <= 10%.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/anim.h"
#include "core/camera.h"
#include "core/model.h"
#include "renderer/gl/render.h"

#define WARM 3
#define ROUNDS 3 /* each figure: the median of this many runs (profile: 1) */

static double cpu_ms(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

/* CPU ms per frame with effects e, or a negative value on failure. */
static const char *const k_pass[MMD_PASS_COUNT] = {"skin", "upload", "shadow map", "clear", "colour", "edges",
                                                   "ground", "resolve", "readback", "glow", "post"};

static double frame_cpu(const mmd_model *m, const char *dir, const mmd_effects *e, int threads, int frames,
                        bool profile)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = 1920;
    o.height = 1080;
    o.samples = 4;
    o.threads = threads;
    o.effects = *e;
    o.profile = profile;
    mmd_renderer *r = NULL;
    mmd_error err;
    if (mmd_renderer_create(&o, &r, &err) != MMD_OK) {
        fprintf(stderr, "bench_effects: %s\n", err.msg);
        return -1;
    }
    mmd_anim *a = NULL;
    if (mmd_renderer_add_model(r, m, dir, &err) != MMD_OK || mmd_anim_create(m, NULL, 0, &a, &err)) {
        fprintf(stderr, "bench_effects: cannot set up the model\n");
        mmd_renderer_free(r);
        return -1;
    }
    uint8_t *rgba = malloc((size_t)o.width * (size_t)o.height * 4);
    mmd_camera_state cam;
    memset(&cam, 0, sizeof cam);
    cam.target[1] = 10;
    cam.distance = -30;
    cam.fov = 30;
    mmd_light_state light = {{154 / 255.0f, 154 / 255.0f, 154 / 255.0f}, {-0.5f, -1.0f, 0.5f}};
    mmd_shadow_state sh = {1, 0.01125f};
    double c0 = 0, pass[MMD_PASS_COUNT] = {0};
    int rc = 0;
    for (int i = 0; i < WARM + frames && rc == 0; i++) {
        if (i == WARM)
            c0 = cpu_ms();
        mmd_anim_evaluate(a, (double)i);
        mmd_renderer_set_time(r, i / 30.0);
        rc = mmd_renderer_render(r, &a, 1, &cam, &light, &sh, rgba, &err) != MMD_OK;
        for (int q = 0; q < MMD_PASS_COUNT && i >= WARM; q++)
            pass[q] += mmd_renderer_profile(r)->cpu_ms[q];
    }
    double per = (cpu_ms() - c0) / frames;
    for (int q = 0; q < MMD_PASS_COUNT && profile && !rc; q++)
        printf("%s %s %.1f", q ? "," : "    profiled, CPU ms:", k_pass[q], pass[q] / frames);
    if (profile && !rc)
        printf("\n");
    if (rc)
        fprintf(stderr, "bench_effects: %s\n", err.msg);
    free(rgba);
    mmd_anim_free(a);
    mmd_renderer_free(r);
    return rc ? -1 : per;
}

/* CPU ms per frame of one configuration; glow marks every 4th material like
 * an AL-ready model for the run (Gene has no AutoLuminous marks, and a frame
 * where nothing glows skips the glow). */
static double measure(mmd_model *m, const char *dir, const mmd_effects *e, bool mark, int threads, int frames,
                      bool profile)
{
    mmd_material saved[64];
    uint32_t nm = m->material_count < 64 ? m->material_count : 64;
    memcpy(saved, m->materials, nm * sizeof *saved);
    for (uint32_t k = 0; mark && k < nm; k += 4) {
        m->materials[k].specular[0] = m->materials[k].specular[1] = m->materials[k].specular[2] = 0;
        m->materials[k].specular_power = 110;
    }
    double c = frame_cpu(m, dir, e, threads, frames, profile);
    memcpy(m->materials, saved, nm * sizeof *saved);
    return c;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[ROUNDS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 2;
    const char *dir = argc > 2 ? argv[2] : "../shared/assets/gene";
    int frames = argc > 3 ? atoi(argv[3]) : 8;
    frames = frames < 1 ? 1 : frames > 100 ? 100 : frames;
    char path[1024];
    snprintf(path, sizeof path, "%s/Gene_light.pmx", dir);
    mmd_model *m = NULL;
    mmd_error err;
    if (mmd_model_load_file(path, &m, &err) != MMD_OK) {
        printf("bench_effects: skipped (no %s)\n", path);
        return 0;
    }
    enum { N = 7 };
    const char *names[N] = {"no effects", "glow (1/4 AL-marked)", "soft shadow", "soft shadow contact", "diffusion", "fxaa",
                            "ssaa 2"};
    mmd_effects e[N];
    for (int i = 0; i < N; i++)
        mmd_effects_default(&e[i]);
    e[1].glow = true;
    e[2].soft_shadow = true;
    e[3].soft_shadow = true;
    e[3].soft_shadow_mode = MMD_SOFT_SHADOW_CONTACT;
    e[4].diffusion = true;
    e[5].fxaa = true;
    e[6].ssaa = 2;
    const char *only = argc > 4 ? argv[4] : "123456";
    bool profile = argc > 5 && strcmp(argv[5], "profile") == 0;
    int rounds = profile ? 1 : ROUNDS;
    printf("1920x1080 MSAA 4, threads %d, Gene_light, CPU time per frame (all threads; not wall time: shared machine);\n"
           "median of %d rounds, each the frame without effects then every effect (deltas paired within a round)\n",
           threads, rounds);
    double c[N][ROUNDS] = {{0}};
    int rc = 0;
    for (int k = 0; k < rounds && !rc; k++)
        for (int i = 0; i < N && !rc; i++)
            if (i == 0 || strchr(only, '0' + i)) {
                c[i][k] = measure(m, dir, &e[i], i == 1, threads, frames, profile);
                rc = c[i][k] < 0;
            }
    double base[ROUNDS], d[ROUNDS];
    memcpy(base, c[0], sizeof base);
    double b = median(base, rounds);
    if (!rc)
        printf("  %-22s %7.1f ms CPU/frame\n", names[0], b);
    for (int i = 1; i < N && !rc; i++) {
        if (!strchr(only, '0' + i))
            continue;
        for (int k = 0; k < rounds; k++)
            d[k] = c[i][k] - c[0][k];
        double dm = median(d, rounds);
        printf("  %-22s %7.1f ms CPU/frame  (+%.1f ms, %+.0f%% of the frame without it)\n", names[i],
               median(c[i], rounds), dm, 100.0 * dm / b);
    }
    mmd_model_free(m);
    return rc;
}
