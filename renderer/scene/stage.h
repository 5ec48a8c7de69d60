/* renderer/scene/stage.h - a scene at work: its models, motions, physics,
 * accessories, camera and outside parents, opened from an mmd_scene and
 * evaluated at a time. `mmdrender SCENE` (render, encode) and
 * `mmdrender pose --scene` both go through these functions, so what a render
 * draws and what pose prints cannot drift apart.
 *
 *     mmd_stage_options o = {.allow_outside = ..., .warn = fn, .warn_ctx = ctx};
 *     mmd_stage *st;
 *     if (mmd_stage_open(scene, &o, &st, &err) != MMD_OK) -> err.msg "model.pmx: offset ..."
 *     mmd_stage_preroll(st, t0);               // physics warm-up before the first simulated frame
 *     per frame: mmd_stage_evaluate(st, t);    // gravity, anims + outside parents + physics, accessories
 *                mmd_stage_view(st, t, &cam, &light, &shadow);
 *     mmd_stage_free(st);                       // before the scene, which it borrows
 *
 * Opening loads each model and motion file once (a file named twice, by
 * inode, is shared), or takes a motion the scene already holds
 * (mmd_scene_model.motion_data, mmd_scene.camera_motion_data); merges a
 * model's motions into its anim and places it ([model] position ...); creates
 * and attaches the rigid bodies of the models that simulate (a pile of bodies
 * past the budget is drawn without physics, with a warning); loads the
 * accessories and their keys; builds the camera/light/shadow track and the
 * outside parents and camera follow (links.h); finds each drawable's effect
 * (model_effects, acc_effects, with where it came from; an accessory's
 * effect is parsed and classified here, one warning when it is not applied:
 * the render applies post effects, render_fx.c, and object effects,
 * cli/render_fx_object.c). It needs no GL: the renderer
 * takes the models, anims and accessory placements from the struct below.
 *
 * Warnings (a file's repairs, motion tracks that match nothing, IK past its
 * work cap, a model drawn without physics, physics stopped) are sentences
 * handed to options.warn in the order they arise, without the
 * "mmdrender: warning: " prefix; NULL drops them.
 */
#ifndef MMD_RENDERER_STAGE_H
#define MMD_RENDERER_STAGE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/anim.h"
#include "core/camera.h"
#include "core/fx.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/physics.h"
#include "renderer/base/msg.h"
#include "renderer/scene/accessories.h"
#include "renderer/scene/links.h"
#include "renderer/scene/scene.h"

/* Zeroed: defaults (physics on, assets inside their folders, no cancel, warnings dropped). */
typedef struct mmd_stage_options {
    bool allow_outside;                  /* a .vac's .x outside the .vac's folder (--allow-outside-assets) */
    bool no_physics;                     /* no rigid bodies at all (--no-physics) */
    const volatile sig_atomic_t *cancel; /* set: IK and physics stop early (mmd_anim_set_cancel); NULL none */
    mmd_warn_fn warn;                    /* each warning's sentence; NULL drops them */
    void *warn_ctx;
} mmd_stage_options;

/* A drawable's effect (docs/effects.md "Where effects come from"): the scene's
 * `effect =` (a project's .emm mapped there), else MME's same-named .fx beside
 * the model or accessory file; file NULL: none (the built-in look). */
typedef struct mmd_stage_effect {
    const char *file;          /* the scene's string, or the stage's own for BESIDE */
    mmd_effect_origin origin;
    /* Accessories: the file parsed once per run (the stage's; a render's post
     * effects use it), and MME's order, which makes it a post effect
     * (POSTPROCESS: no warning, the render applies it with this accessory as
     * its controller) or not (one warning: not applied); fx NULL with error
     * set: it did not parse ("FILE:LINE: what", the stage's). */
    mmd_fx *fx;
    mmd_fx_order order;
    const char *error;
    /* Per material (docs/effects.md "Per material"): the scene's
     * material_effect entries (a project's .emm PmdN[k]), else, when the
     * scene gives the drawable neither, its .emd's Obj[k] lines (the stage's
     * copy); an entry overrides file (effect NULL: the built-in look). */
    mmd_scene_material_effects materials;
    mmd_effect_origin materials_origin; /* SCENE, EMM or EMD; NONE when empty */
} mmd_stage_effect;

/* Read-only for callers; slot i is scene->models[i]. */
typedef struct mmd_stage {
    const mmd_scene *scene;                     /* borrowed */
    mmd_model *models[MMD_SCENE_MAX_MODELS];
    mmd_anim *anims[MMD_SCENE_MAX_MODELS];      /* world matrices after mmd_stage_evaluate */
    mmd_physics *physics[MMD_SCENE_MAX_MODELS]; /* NULL: the model does not simulate */
    mmd_scene_accessories acc;                  /* acc.place: the placements at the last evaluated time */
    mmd_camera_track *camera;                   /* camera, light and self-shadow keys (empty without a motion) */
    mmd_links *links;                           /* outside parents, camera follow */
    int files_loaded;                           /* model and motion files read (a shared one once) */
    mmd_stage_effect model_effects[MMD_SCENE_MAX_MODELS];     /* slot i's effect */
    mmd_stage_effect acc_effects[MMD_SCENE_MAX_ACCESSORIES];  /* accessory i's effect */
    struct mmd_stage_private *priv;             /* what the stage owns besides (stage.c) */
} mmd_stage;

/* scene is borrowed until mmd_stage_free. MMD_OK, or an input status with
 * err->msg a whole sentence naming the file ("FILE: offset 0x.., pmx.bone #3:
 * ...", "physics: FILE: ...", "scene.ini:12: model 'a' has no bone 'b'"). */
mmd_status mmd_stage_open(const mmd_scene *scene, const mmd_stage_options *options, mmd_stage **out,
                          mmd_error *err);
void mmd_stage_free(mmd_stage *st); /* NULL is a no-op; the scene stays the caller's */

/* Some model simulates. */
bool mmd_stage_simulates(const mmd_stage *st);
/* Each time's pose depends on the time evaluated before it (physics, or a
 * calc_order with MMD's one-frame lag): evaluate every whole frame in between. */
bool mmd_stage_evaluates_in_order(const mmd_stage *st);
/* The last key of any model or camera motion (VMD frame). */
uint32_t mmd_stage_last_key(const mmd_stage *st);

/* The physics warm-up at VMD time t0 (2 s held, gravity at t0, outside
 * parents applied, parents first); nothing when no model simulates. Touches
 * the anims and physics only, so it may run on its own thread while the
 * caller hands the models to a renderer. */
void mmd_stage_preroll(mmd_stage *st, double t0);
/* Every model at VMD time t: gravity keys, anims with outside parents
 * (parents first), physics stepped to t; the accessories' placements (keys,
 * timed parents) at t into st->acc.place. */
void mmd_stage_evaluate(mmd_stage *st, double t);
/* Camera (the camera motion or the scene's fixed camera, moved by a follow
 * key), light (the motion's keys, else the scene's [light]) and self-shadow at
 * t; after mmd_stage_evaluate(st, t) (a follow reads a bone). */
void mmd_stage_view(const mmd_stage *st, double t, mmd_camera_state *cam, mmd_light_state *light,
                    mmd_shadow_state *shadow);
/* Warns once per model whose bodies piled up past the physics budget since
 * (core/physics.h: it no longer simulates), naming `frame` (an output frame;
 * < 0: while settling before the first frame). */
void mmd_stage_check_physics(mmd_stage *st, int64_t frame);

#endif
