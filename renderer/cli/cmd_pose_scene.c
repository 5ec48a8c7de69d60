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
 * the JSON gains "physics":true. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/anim.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/accessory.h"
#include "core/physics.h"
#include "renderer/base/msg.h"
#include "renderer/scene/accessories.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/json_out.h"
#include "renderer/scene/links.h"
#include "renderer/scene/scene.h"

typedef struct pose_job {
    mmd_scene *scene;
    mmd_model *models[MMD_SCENE_MAX_MODELS];
    mmd_motion *motions[MMD_SCENE_MAX_MODELS][MMD_SCENE_MAX_MOTIONS];
    mmd_anim *anims[MMD_SCENE_MAX_MODELS];
    mmd_links *links;
    mmd_scene_accessories acc;
    mmd_physics *physics[MMD_SCENE_MAX_MODELS];
    bool simulate; /* some model has physics */
} pose_job;

static void pose_free(pose_job *j)
{
    mmd_links_free(j->links);
    mmd_scene_accessories_free(&j->acc);
    for (int i = 0; j->scene && i < j->scene->model_count; i++) {
        mmd_physics_free(j->physics[i]); /* detaches from the anim first */
        mmd_anim_free(j->anims[i]);
        for (int k = 0; k < MMD_SCENE_MAX_MOTIONS; k++)
            mmd_motion_free(j->motions[i][k]);
        mmd_model_free(j->models[i]);
    }
    mmd_scene_free(j->scene);
}

static int pose_load(pose_job *j, const char *path)
{
    char msg[600];
    mmd_error e;
    if (mmd_scene_load_file(path, &j->scene, &e) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender pose: %s\n", e.msg);
        return mmd_exit_code(e.status);
    }
    mmd_scene_warn(j->scene, stderr, "mmdrender pose: ");
    for (int i = 0; i < j->scene->model_count; i++) {
        const mmd_scene_model *sm = &j->scene->models[i];
        const char *bad = sm->file;
        bool ok = mmd_model_load_file(sm->file, &j->models[i], &e) == MMD_OK;
        for (int k = 0; ok && k < sm->motion_count; k++)
            if (!(ok = mmd_motion_load_file(sm->motions[k], &j->motions[i][k], &e) == MMD_OK))
                bad = sm->motions[k];
        ok = ok && mmd_anim_create(j->models[i], (const mmd_motion *const *)j->motions[i], (size_t)sm->motion_count,
                                   &j->anims[i], &e) == MMD_OK;
        if (ok)
            mmd_scene_model_place(sm, j->anims[i]);
        if (!ok) {
            mmd_error_format(&e, bad, msg, sizeof msg);
            mmd_msg_print(stderr, "mmdrender pose: %s\n", msg);
            return MMD_EXIT_INPUT;
        }
    }
    if (mmd_links_create(j->scene, j->anims, &j->links, msg, sizeof msg) ||
        mmd_scene_accessories_load(j->scene, j->models, true, &j->acc, msg, sizeof msg)) {
        mmd_msg_print(stderr, "mmdrender pose: %s\n", msg);
        return MMD_EXIT_INPUT;
    }
    return MMD_EXIT_OK;
}

/* Rigid bodies for the models that simulate (as cmd_render.c load_inputs:
 * a pile past the budget is posed without physics, with a warning). */
static int pose_physics(pose_job *j)
{
    for (int i = 0; i < j->scene->model_count; i++) {
        const mmd_scene_model *sm = &j->scene->models[i];
        if (!sm->physics || j->models[i]->rigid_body_count == 0)
            continue;
        mmd_error e;
        mmd_status st = mmd_physics_create(j->models[i], &j->physics[i], &e);
        if (st == MMD_E_LIMIT) {
            mmd_msg_print(stderr, "mmdrender pose: warning: %s: %s: posed without physics\n", sm->file, e.msg);
            continue;
        }
        if (st == MMD_OK)
            st = mmd_physics_attach(j->physics[i], j->anims[i], &e);
        if (st != MMD_OK) {
            mmd_msg_print(stderr, "mmdrender pose: physics: %s: %s\n", sm->file, e.msg);
            return mmd_exit_code(st);
        }
        j->simulate = true;
    }
    return MMD_EXIT_OK;
}

/* The scene's gravity at t on every simulated model. */
static void set_gravity(pose_job *j, double t)
{
    float g[3];
    mmd_scene_gravity_at(j->scene, t, g);
    for (int i = 0; i < j->scene->model_count; i++)
        if (j->physics[i])
            mmd_physics_set_gravity(j->physics[i], g);
}

/* Every model at t (outside parents first), physics stepped to t. */
static void evaluate(pose_job *j, double t)
{
    if (j->simulate)
        set_gravity(j, t);
    mmd_links_evaluate(j->links, t);
}

/* The frame's accessories (none: nothing, so scenes without them print as before). */
static void print_accessories(FILE *f, pose_job *j, double t)
{
    if (j->acc.count == 0)
        return;
    mmd_scene_accessories_at(&j->acc, t);
    fputs(",\"accessories\":[", f);
    for (int i = 0; i < j->acc.count; i++) {
        const mmd_render_accessory *ra = &j->acc.place[i];
        const float *parent = ra->parent_slot >= 0 ? mmd_anim_world(j->anims[ra->parent_slot]) + 16 * ra->parent_bone
                                                   : NULL;
        float w[16];
        mmd_accessory_world(&ra->place, parent, w);
        fprintf(f, "%s{\"name\":", i ? "," : "");
        mmd_json_str(f, j->acc.names[i]);
        fprintf(f, ",\"visible\":%s,\"opacity\":%.9g,\"world\":[", ra->place.visible ? "true" : "false",
                (double)ra->place.opacity);
        for (int c = 0; c < 16; c++)
            fprintf(f, "%s%.9g", c ? "," : "", (double)w[c]);
        fputs("]}", f);
    }
    fputc(']', f);
}

static void print_frame(FILE *f, pose_job *j, double t, bool first)
{
    fprintf(f, "%s{\"frame\":%.9g,\"models\":[", first ? "\n" : ",\n", t);
    for (int i = 0; i < j->scene->model_count; i++) {
        const float *w = mmd_anim_world(j->anims[i]);
        fprintf(f, "%s{\"name\":", i ? "," : "");
        mmd_json_str(f, j->scene->models[i].name);
        fputs(",\"world\":[", f);
        for (uint32_t b = 0; b < j->models[i]->bone_count; b++) {
            fputs(b ? ",[" : "[", f);
            for (int c = 0; c < 16; c++)
                fprintf(f, "%s%.9g", c ? "," : "", (double)w[16 * b + c]);
            fputc(']', f);
        }
        fputs("]}", f);
    }
    fputc(']', f);
    print_accessories(f, j, t);
    fputc('}', f);
}

int mmd_pose_scene(const char *path, const double *frames, size_t nframes, bool physics)
{
    pose_job j;
    memset(&j, 0, sizeof j);
    int rc = pose_load(&j, path);
    if (rc == MMD_EXIT_OK && physics)
        rc = pose_physics(&j);
    if (rc != MMD_EXIT_OK) {
        pose_free(&j);
        return rc;
    }
    FILE *f = stdout;
    fputs("{\"models\":[", f);
    for (int i = 0; i < j.scene->model_count; i++) {
        fprintf(f, "%s{\"name\":", i ? "," : "");
        mmd_json_str(f, j.scene->models[i].name);
        fputs(",\"file\":", f);
        mmd_json_str(f, j.scene->models[i].file);
        fputs(",\"bones\":[", f);
        for (uint32_t b = 0; b < j.models[i]->bone_count; b++) {
            if (b)
                fputc(',', f);
            mmd_json_str(f, j.models[i]->bones[b].name);
        }
        fputs("]}", f);
    }
    fputs(physics ? "],\"physics\":true,\"frames\":[" : "],\"frames\":[", f);
    if (j.simulate) { /* warm up at the first listed frame, as cmd_render.c */
        set_gravity(&j, frames[0]);
        mmd_links_preroll(j.links, frames[0], j.physics, 2.0);
    }
    /* frames depend on the one before (a lagging calc_order, physics): evaluate those between, as a render */
    bool between = mmd_links_lag(j.links) || j.simulate;
    for (size_t k = 0; k < nframes; k++) {
        double g = k ? (j.simulate ? floor(frames[k - 1]) : frames[k - 1]) + 1 : 0; /* whole frames, as pose MODEL */
        for (; between && k > 0 && g < frames[k] && g - frames[k - 1] < 1e7; g += 1)
            evaluate(&j, g);
        evaluate(&j, frames[k]);
        print_frame(f, &j, frames[k], k == 0);
    }
    fputs("\n]}\n", f);
    rc = fflush(f) == 0 && !ferror(f) ? MMD_EXIT_OK : MMD_EXIT_OUTPUT;
    pose_free(&j);
    return rc;
}
