/* renderer/cli/cmd_pose_scene.c - `mmdrender pose --scene SCENE.ini --frames LIST`:
 * every model of a scene evaluated together (outside parents, parents first,
 * renderer/scene/links.h), bone world matrices printed as JSON:
 *   {"models":[{"name","file","bones":[...]}],
 *    "frames":[{"frame","models":[{"name","world":[[16],...]}]}]}
 * (LH model space, column-major, as `pose MODEL`). A scene with accessories
 * adds per frame "accessories":[{"name","visible","opacity","world":[16]}]
 * (world = parent bone x T x Rz x Ry x Rx x S(Si x 10), keys applied).
 * With a calc_order that lags (links.h mmd_links_lag) every whole frame from
 * one listed frame to the next is evaluated too, as a render from the first
 * listed frame does. With --physics the models whose scene entry simulates
 * (physics = on, the default) get their rigid bodies as a render of these
 * frames has them: gravity keys, the 2 s warm-up at the first listed frame
 * (outside parents applied), then every whole frame up to each listed one;
 * the JSON gains "physics":true. The scene is opened and evaluated by the
 * stage (renderer/scene/stage.h), the very functions a render uses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/accessory.h"
#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/json_out.h"
#include "renderer/scene/scene.h"
#include "renderer/scene/stage.h"

static void pose_warn(void *ctx, const char *sentence)
{
    (void)ctx;
    mmd_msg_print(stderr, "mmdrender pose: warning: %s\n", sentence);
}

/* The frame's accessories (none: nothing, so scenes without them print as before). */
static void print_accessories(FILE *f, const mmd_stage *st)
{
    const mmd_scene_accessories *acc = &st->acc;
    if (acc->count == 0)
        return;
    fputs(",\"accessories\":[", f);
    for (int i = 0; i < acc->count; i++) {
        const mmd_render_accessory *ra = &acc->place[i];
        const float *parent = ra->parent_slot >= 0 ? mmd_anim_world(st->anims[ra->parent_slot]) + 16 * ra->parent_bone
                                                   : NULL;
        float w[16];
        mmd_accessory_world(&ra->place, parent, w);
        fprintf(f, "%s{\"name\":", i ? "," : "");
        mmd_json_str(f, acc->names[i]);
        fprintf(f, ",\"visible\":%s,\"opacity\":%.9g,\"world\":[", ra->place.visible ? "true" : "false",
                (double)ra->place.opacity);
        for (int c = 0; c < 16; c++)
            fprintf(f, "%s%.9g", c ? "," : "", (double)w[c]);
        fputs("]}", f);
    }
    fputc(']', f);
}

static void print_frame(FILE *f, const mmd_stage *st, double t, bool first)
{
    fprintf(f, "%s{\"frame\":%.9g,\"models\":[", first ? "\n" : ",\n", t);
    for (int i = 0; i < st->scene->model_count; i++) {
        const float *w = mmd_anim_world(st->anims[i]);
        fprintf(f, "%s{\"name\":", i ? "," : "");
        mmd_json_str(f, st->scene->models[i].name);
        fputs(",\"world\":[", f);
        for (uint32_t b = 0; b < st->models[i]->bone_count; b++) {
            fputs(b ? ",[" : "[", f);
            for (int c = 0; c < 16; c++)
                fprintf(f, "%s%.9g", c ? "," : "", (double)w[16 * b + c]);
            fputc(']', f);
        }
        fputs("]}", f);
    }
    fputc(']', f);
    print_accessories(f, st);
    fputc('}', f);
}

static void print_models(FILE *f, const mmd_stage *st)
{
    const mmd_scene *s = st->scene;
    for (int i = 0; i < s->model_count; i++) {
        fprintf(f, "%s{\"name\":", i ? "," : "");
        mmd_json_str(f, s->models[i].name);
        fputs(",\"file\":", f);
        mmd_json_str(f, s->models[i].file);
        fputs(",\"bones\":[", f);
        for (uint32_t b = 0; b < st->models[i]->bone_count; b++) {
            if (b)
                fputc(',', f);
            mmd_json_str(f, st->models[i]->bones[b].name);
        }
        fputs("]}", f);
    }
}

/* The document on stdout: the frames evaluated as a render from frames[0]
 * evaluates them. MMD_E_OUTPUT when stdout cannot take it. */
static mmd_status print_poses(mmd_stage *st, const double *frames, size_t nframes, bool physics)
{
    FILE *f = stdout;
    fputs("{\"models\":[", f);
    print_models(f, st);
    fputs(physics ? "],\"physics\":true,\"frames\":[" : "],\"frames\":[", f);
    mmd_stage_preroll(st, frames[0]); /* the warm-up at the first listed frame, as a render's */
    /* frames depend on the one before (a lagging calc_order, physics): evaluate those between, as a render */
    bool between = mmd_stage_evaluates_in_order(st), simulate = mmd_stage_simulates(st);
    for (size_t k = 0; k < nframes; k++) {
        double g = k ? (simulate ? floor(frames[k - 1]) : frames[k - 1]) + 1 : 0; /* whole frames, as pose MODEL */
        for (; between && k > 0 && g < frames[k] && g - frames[k - 1] < 1e7; g += 1)
            mmd_stage_evaluate(st, g);
        mmd_stage_evaluate(st, frames[k]);
        print_frame(f, st, frames[k], k == 0);
    }
    fputs("\n]}\n", f);
    return fflush(f) == 0 && !ferror(f) ? MMD_OK : MMD_E_OUTPUT;
}

int mmd_pose_scene(const char *path, const double *frames, size_t nframes, bool physics, bool allow_outside)
{
    mmd_scene *scene = NULL;
    mmd_stage *st = NULL;
    mmd_error e;
    mmd_stage_options o = {.allow_outside = allow_outside, .no_physics = !physics, .warn = pose_warn};
    mmd_status s = mmd_scene_load_file(path, &scene, &e);
    if (s == MMD_OK) {
        mmd_scene_warn(scene, stderr, "mmdrender pose: ");
        s = mmd_stage_open(scene, &o, &st, &e);
    }
    if (s != MMD_OK)
        mmd_msg_print(stderr, "mmdrender pose: %s\n", e.msg);
    else
        s = print_poses(st, frames, nframes, physics);
    mmd_stage_free(st);
    mmd_scene_free(scene);
    return mmd_exit_code(s);
}
