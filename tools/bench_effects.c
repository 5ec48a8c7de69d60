/* tools/bench_effects.c - what each effect of issue 18 costs per frame at
 * 1920x1080 MSAA 4 on Gene_light (rest pose, all MMD passes, self-shadow
 * mode 1), next to the same frame without effects.
 *
 * The figure is CPU time per frame of the whole process (getrusage: every
 * thread, llvmpipe's rasteriser threads included), not wall time: the build
 * machine is shared by several engineers, so wall time mostly measures the
 * neighbours. Median-free mean over FRAMES frames after WARM warm-up frames
 * (shader variants compile on first use).
 *
 *   bench_effects [THREADS (default 2)] [MODEL_DIR (default ../shared/assets/gene)] [FRAMES (default 8)] [ONLY]
 *
 * ONLY: digits of the rows to run after the baseline (1 glow .. 6 ssaa), e.g. 24.
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

static double cpu_ms(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

/* CPU ms per frame with effects e, or a negative value on failure. */
static double frame_cpu(const mmd_model *m, const char *dir, const mmd_effects *e, int threads, int frames)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = 1920;
    o.height = 1080;
    o.samples = 4;
    o.threads = threads;
    o.effects = *e;
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
    double c0 = 0;
    int rc = 0;
    for (int i = 0; i < WARM + frames && rc == 0; i++) {
        if (i == WARM)
            c0 = cpu_ms();
        mmd_anim_evaluate(a, (double)i);
        mmd_renderer_set_time(r, i / 30.0);
        rc = mmd_renderer_render(r, &a, 1, &cam, &light, &sh, rgba, &err) != MMD_OK;
    }
    double per = (cpu_ms() - c0) / frames;
    if (rc)
        fprintf(stderr, "bench_effects: %s\n", err.msg);
    free(rgba);
    mmd_anim_free(a);
    mmd_renderer_free(r);
    return rc ? -1 : per;
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
    printf("1920x1080 MSAA 4, threads %d, Gene_light, CPU time per frame (all threads; not wall time: shared machine)\n",
           threads);
    double base = frame_cpu(m, dir, &e[0], threads, frames);
    int rc = base < 0;
    if (!rc)
        printf("  %-22s %7.1f ms CPU/frame\n", names[0], base);
    const char *only = argc > 4 ? argv[4] : "123456";
    for (int i = 1; i < N && !rc; i++) {
        if (!strchr(only, '0' + i))
            continue;
        /* glow: Gene has no AutoLuminous marks (and a frame where nothing
         * glows skips the glow); mark every 4th material like an AL-ready model */
        mmd_material saved[64];
        uint32_t nm = m->material_count < 64 ? m->material_count : 64;
        memcpy(saved, m->materials, nm * sizeof *saved);
        for (uint32_t k = 0; i == 1 && k < nm; k += 4) {
            m->materials[k].specular[0] = m->materials[k].specular[1] = m->materials[k].specular[2] = 0;
            m->materials[k].specular_power = 110;
        }
        double c = frame_cpu(m, dir, &e[i], threads, frames);
        memcpy(m->materials, saved, nm * sizeof *saved);
        rc = c < 0;
        if (!rc)
            printf("  %-22s %7.1f ms CPU/frame  (+%.1f ms, %+.0f%% of the frame without it)\n", names[i], c, c - base,
                   100.0 * (c - base) / base);
    }
    mmd_model_free(m);
    return rc;
}
