/* tests/unit/render_golden.h - golden-image comparison shared by test_render*.c.
 *
 * golden_check(name, rgba, w, h, gl_version) compares with tests/golden/<name>.png:
 * byte-exact when gl_version contains tests/golden/MESA_VERSION, else at most
 * 1% of pixels may be off by more than 4/255. MMD_GOLDEN_UPDATE=1 rewrites the
 * golden instead. On failure <build>/test-out/<name>.actual.png and .diff.png.
 */
#ifndef MMD_TESTS_RENDER_GOLDEN_H
#define MMD_TESTS_RENDER_GOLDEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "renderer/png_io.h"
#include "tests/util/test.h"

static char g_out[1024] = "build/test-out"; /* <build>/test-out, from argv[0] */

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
    char msg[512];
    if (mmd_png_write_file(path, rgba, w, h, (size_t)w * 4, true, -1, msg, sizeof msg)) {
        printf("#   %s\n", msg);
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
    char path[1200], out[1200], msg[512];
    snprintf(path, sizeof path, "tests/golden/%s.png", name);
    const char *upd = getenv("MMD_GOLDEN_UPDATE");
    if (upd && *upd == '1') {
        CHECK(golden_write(path, rgba, w, h) == 0);
        printf("#   updated %s\n", path);
        return;
    }
    uint8_t *g = NULL;
    int gw = 0, gh = 0;
    snprintf(out, sizeof out, "%s/%s.actual.png", g_out, name);
    if (mmd_png_read_file(path, &g, &gw, &gh, msg, sizeof msg) || gw != w || gh != h) {
        printf("#   golden %s missing or wrong size; actual in %s\n", path, out);
        golden_write(out, rgba, w, h);
        free(g);
        CHECK(!"golden present");
        return;
    }
    bool exact = golden_same_mesa(gl_version);
    size_t off = 0, bad = 0, n = (size_t)w * (size_t)h;
    uint8_t *diff = malloc(n * 4);
    REQUIRE(diff);
    for (size_t i = 0; i < n; i++) {
        int worst = 0;
        for (int k = 0; k < 4; k++) {
            int d = abs((int)rgba[i * 4 + k] - (int)g[i * 4 + k]);
            worst = d > worst ? d : worst;
        }
        off += worst > 0;
        bad += worst > 4;
        diff[i * 4 + 0] = (uint8_t)(worst ? 255 : 0);
        diff[i * 4 + 1] = (uint8_t)(worst > 4 ? 0 : (worst ? 160 : 0));
        diff[i * 4 + 2] = 0;
        diff[i * 4 + 3] = 255;
    }
    bool ok = exact ? off == 0 : bad * 100 <= n;
    if (!ok) {
        char dpath[1200];
        snprintf(dpath, sizeof dpath, "%s/%s.diff.png", g_out, name);
        golden_write(out, rgba, w, h);
        golden_write(dpath, diff, w, h);
        printf("#   %s: %zu pixels differ (%zu by > 4) [%s]; see %s\n", name, off, bad,
               exact ? "exact" : "tolerance", dpath);
    }
    CHECK(ok);
    free(diff);
    free(g);
}

#endif
