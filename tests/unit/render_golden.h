/* tests/unit/render_golden.h - golden-image comparison shared by test_render*.c.
 *
 * golden_check(name, rgba, w, h, gl_version) compares with tests/golden/<name>.png
 * through renderer/image/diff.h, the maths of `mmdrender diff`: exact when
 * gl_version contains tests/golden/MESA_VERSION, else the tolerant setting
 * (`--threshold 4 --max-fraction 0.01`: at most 1% of pixels off by more than
 * 4/255). MMD_GOLDEN_UPDATE=1 rewrites the goldens whose pixels differ instead. On failure it prints
 * the figures and writes <build>/test-out/<name>.actual.png and <name>.diff.png
 * (the heatmap of `mmdrender diff --heatmap`).
 */
#ifndef MMD_TESTS_RENDER_GOLDEN_H
#define MMD_TESTS_RENDER_GOLDEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cglm/cglm.h>

#include "renderer/gl/render.h"
#include "renderer/image/diff.h"
#include "renderer/image/png.h"
#include "tests/util/test.h"

static char g_out[1024] = "build/test-out"; /* <build>/test-out, from argv[0] */

/* The accessory and look scenes' camera: LH eye (-25, 25, -35) looking at
 * (0, 5, 0), fov 30, GL matrices as DESIGN A.6 (mirror z, RH look-at). */
static inline void golden_view(mmd_render_view *v, int w, int h)
{
    const float eye[3] = {-25, 25, -35}, target[3] = {0, 5, 0};
    vec3 e = {eye[0], eye[1], -eye[2]}, t = {target[0], target[1], -target[2]}, up = {0, 1, 0};
    mat4 view, proj;
    glm_lookat(e, t, up, view);
    glm_perspective(glm_rad(30.0f), (float)w / (float)h, 1.0f, 10000.0f, proj);
    memcpy(v->view, view, sizeof v->view);
    memcpy(v->proj, proj, sizeof v->proj);
    memcpy(v->eye, eye, sizeof v->eye);
    memcpy(v->target, target, sizeof v->target);
    v->fov = 30;
}

static void golden_init(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    if (slash) { /* <build>/tests/test_x -> <build>/test-out */
        char dir[900];
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - argv0), argv0);
        char *up = strrchr(dir, '/');
        if (up) {
            *up = 0;
            snprintf(g_out, sizeof g_out, "%s/test-out", dir);
        }
    }
    mkdir(g_out, 0777);
}

static int golden_write(const char *path, const uint8_t *rgba, int w, int h)
{
    mmd_error err;
    if (mmd_png_write_file(path, rgba, w, h, (size_t)w * 4, true, -1, &err) != MMD_OK) {
        printf("#   %s\n", err.msg);
        return -1;
    }
    return 0;
}

static bool golden_same_mesa(const char *gl_version)
{
    FILE *f = fopen("tests/golden/MESA_VERSION", "r");
    if (!f)
        return false;
    char line[128] = "";
    if (!fgets(line, sizeof line, f))
        line[0] = 0;
    fclose(f);
    line[strcspn(line, "\r\n")] = 0;
    return line[0] && strstr(gl_version, line) != NULL;
}

static void golden_check(const char *name, const uint8_t *rgba, int w, int h, const char *gl_version)
{
    char path[1200], out[1200];
    mmd_error err;
    snprintf(path, sizeof path, "tests/golden/%s.png", name);
    const char *upd = getenv("MMD_GOLDEN_UPDATE");
    uint8_t *g = NULL;
    int gw = 0, gh = 0;
    if (upd && *upd == '1') { /* only goldens whose pixels changed: the others keep their bytes */
        bool same = mmd_png_read_file(path, &g, &gw, &gh, &err) == MMD_OK && gw == w && gh == h &&
                    !memcmp(g, rgba, (size_t)w * h * 4);
        free(g);
        if (!same) {
            CHECK(golden_write(path, rgba, w, h) == 0);
            printf("#   updated %s\n", path);
        }
        return;
    }
    snprintf(out, sizeof out, "%s/%s.actual.png", g_out, name);
    if (mmd_png_read_file(path, &g, &gw, &gh, &err) != MMD_OK || gw != w || gh != h) {
        printf("#   golden %s missing or wrong size; actual in %s\n", path, out);
        golden_write(out, rgba, w, h);
        free(g);
        CHECK(!"golden present");
        return;
    }
    bool exact = golden_same_mesa(gl_version);
    int threshold = exact ? 0 : MMD_IMGDIFF_TOLERANT_THRESHOLD;
    double max_fraction = exact ? 0.0 : MMD_IMGDIFF_TOLERANT_MAX_FRACTION;
    mmd_imgdiff_result d;
    mmd_imgdiff_compare(g, rgba, w, h, threshold, &d);
    bool ok = d.fraction_over <= max_fraction;
    if (!ok) {
        char dpath[1200];
        snprintf(dpath, sizeof dpath, "%s/%s.diff.png", g_out, name);
        uint8_t *heat = malloc((size_t)w * h * 4);
        REQUIRE(heat);
        mmd_imgdiff_heatmap(g, rgba, w, h, heat);
        golden_write(out, rgba, w, h);
        golden_write(dpath, heat, w, h);
        free(heat);
        printf("#   %s [%s]: max %d, mean %.4f, PSNR %.2f dB, SSIM %.5f, %lld px over %d (%.4f%%, "
               "allowed %.2f%%)\n",
               name, exact ? "exact, same Mesa" : "tolerant, other Mesa", d.max_error, d.mean_error,
               d.psnr, d.ssim, d.pixels_over, threshold, 100.0 * d.fraction_over,
               100.0 * max_fraction);
        printf("#   actual %s, heatmap %s; `mmdrender diff %s %s%s` gives the same figures\n", out,
               dpath, path, out, exact ? "" : " --threshold 4 --max-fraction 0.01");
    }
    CHECK(ok);
    free(g);
}

#endif
