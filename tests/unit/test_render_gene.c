/* tests/unit/test_render_gene.c - Gene_light through the whole path (load,
 * anim rest pose, skinning on the renderer's threads, all passes): a front
 * view golden, thread-count independence and timings sanity.
 *
 * CG-CA Gene (c) 2023 by Nagoya Institute of Technology, Moonshot R&D Goal 1
 * Avatar Symbiotic Society (CC-BY 4.0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/anim.h"
#include "core/camera.h"
#include "core/model.h"
#include "renderer/render.h"
#include "tests/util/test.h"
#include "tests/unit/render_golden.h"

TEST_STATE_DEFINE

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libOSMesa.so\n"; }

#define GW 256
#define GH 256
#define GENE_DIR MMD_SHARED_ASSETS "/gene"

static mmd_model *load_gene(void)
{
    mmd_model *m = NULL;
    mmd_error err;
    if (mmd_model_load_file(GENE_DIR "/Gene_light.pmx", &m, &err) != MMD_OK)
        return NULL;
    return m;
}

static void front_camera(mmd_camera_state *c)
{
    memset(c, 0, sizeof *c);
    c->target[1] = 9.5f;
    c->distance = -44.0f;
    c->fov = 30.0f;
}

static int render_gene(mmd_model *m, int threads, uint8_t *rgba, char *ver, size_t ver_size)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = GW;
    o.height = GH;
    o.threads = threads;
    mmd_renderer *r = NULL;
    char msg[512];
    if (mmd_renderer_create(&o, &r, msg, sizeof msg)) {
        printf("#   %s\n", msg);
        return -1;
    }
    int rc = -1;
    mmd_anim *a = NULL;
    mmd_error err;
    if (mmd_renderer_add_model(r, m, GENE_DIR, msg, sizeof msg) >= 0 &&
        mmd_anim_create(m, NULL, 0, &a, &err) == MMD_OK) {
        mmd_anim_evaluate(a, 0);
        mmd_camera_state cam;
        front_camera(&cam);
        mmd_light_state light = {{154 / 255.0f, 154 / 255.0f, 154 / 255.0f}, {-0.5f, -1.0f, 0.5f}};
        mmd_shadow_state sh = {1, 0.01125f};
        rc = mmd_renderer_render(r, &a, 1, &cam, &light, &sh, rgba, msg, sizeof msg);
        if (rc)
            printf("#   %s\n", msg);
        const mmd_render_timings *t = mmd_renderer_timings(r);
        printf("#   threads %d: skin %.2f upload %.2f draw %.2f readback %.2f ms\n", threads, t->skin_ms,
               t->upload_ms, t->draw_ms, t->readback_ms);
        snprintf(ver, ver_size, "%s", mmd_renderer_gl_version(r));
    } else {
        printf("#   %s\n", msg);
    }
    mmd_anim_free(a);
    mmd_renderer_free(r);
    return rc;
}

TEST(gene_front_golden_and_threads)
{
    mmd_model *m = load_gene();
    if (!m)
        SKIP("skipped: no ../shared (Gene_light.pmx)");
    uint8_t *a = malloc((size_t)GW * GH * 4), *b = malloc((size_t)GW * GH * 4);
    char ver[256] = "";
    REQUIRE(render_gene(m, 1, a, ver, sizeof ver) == 0);
    golden_check("gene_front", a, GW, GH, ver);
    REQUIRE(render_gene(m, 3, b, ver, sizeof ver) == 0);
    CHECK(memcmp(a, b, (size_t)GW * GH * 4) == 0); /* thread count never changes pixels */
    /* the corners stay background; the model covers a good part of the frame */
    CHECK(a[0] == 255 && a[1] == 255 && a[3] == 255);
    size_t covered = 0;
    for (size_t i = 0; i < (size_t)GW * GH; i++)
        covered += a[i * 4] != 255 || a[i * 4 + 1] != 255 || a[i * 4 + 2] != 255;
    printf("#   %zu of %d pixels drawn\n", covered, GW * GH);
    CHECK(covered > (size_t)GW * GH / 8);
    free(a);
    free(b);
    mmd_model_free(m);
}

int main(int argc, char **argv)
{
    (void)argc;
    golden_init(argv[0]);
    RUN(gene_front_golden_and_threads);
    return test_finish();
}
