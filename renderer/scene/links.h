/* renderer/scene/links.h - a scene's outside parents and camera follow keys
 * (scene.h mmd_scene_link) bound to the loaded models, for render and pose.
 *
 *     mmd_links *l;
 *     if (mmd_links_create(scene, anims, &l, &err) != MMD_OK) -> err.msg "scene.ini:12: ..."
 *     per frame: mmd_links_evaluate(l, t);          // every anim, parents first
 *                mmd_links_follow(l, t, &camera);   // target += bone position
 *     mmd_links_free(l);
 *
 * Bone names are matched exactly (UTF-8) against the models' bone names. A
 * cycle of outside parents fails naming the models and bones. Models are
 * evaluated parents first, or, when some [model] has calc_order, in that
 * order with MMD's one-frame lag (core/world.h mmd_world_set_order).
 */
#ifndef MMD_RENDERER_LINKS_H
#define MMD_RENDERER_LINKS_H

#include "core/anim.h"
#include "core/camera.h"
#include "renderer/scene/scene.h"

typedef struct mmd_links mmd_links;

/* anims[i] belongs to scene->models[i]; both are borrowed. MMD_OK, or with err
 * (file + sentence): MMD_E_BAD_VALUE for a model or bone the scene names that
 * is not there, the world's status for a cycle, MMD_E_NOMEM. */
mmd_status mmd_links_create(const mmd_scene *scene, mmd_anim *const *anims, mmd_links **out, mmd_error *err);
void mmd_links_free(mmd_links *l); /* NULL is a no-op */
void mmd_links_evaluate(mmd_links *l, double t);
/* The scene's calc_order puts a child before its outside parent: each frame
 * depends on the one evaluated before it (MMD's one-frame lag), so a render
 * evaluates every frame from its range's first, as with physics. */
bool mmd_links_lag(const mmd_links *l);
/* The physics warm-up at t0 (mmd_physics_preroll, `seconds` held) of every
 * model with physics[i] != NULL, the others evaluated at t0, in the order of
 * the outside parents holding at t0 (parents first, each child warmed up
 * under its parent's settled pose), as the frame loop evaluates them. */
struct mmd_physics;
void mmd_links_preroll(mmd_links *l, double t0, struct mmd_physics *const *physics, double seconds);
/* Moves cam->target by the followed bone's world position (and re-derives the eye). */
void mmd_links_follow(const mmd_links *l, double t, mmd_camera_state *cam);

#endif
