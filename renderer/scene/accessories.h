/* renderer/scene/accessories.h - a scene's [accessory] sections made drawable:
 * each .x (or the .x a .vac names) loaded, the .vac's placement applied to the
 * keys the section left unset, the parent MODEL:BONE resolved to a bone index.
 *
 *   mmd_scene_accessories acc = {0};
 *   if (mmd_scene_accessories_load(scene, models, allow_outside, &acc, &err) != MMD_OK) -> err.msg
 *   mmd_scene_accessories_attach(&acc, renderer, &err)     after the models were added
 *   mmd_scene_accessories_free(&acc);
 */
#ifndef MMD_RENDERER_CLI_ACCESSORIES_H
#define MMD_RENDERER_CLI_ACCESSORIES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/accessory.h"
#include "core/model.h"
#include "renderer/scene/scene.h"
#include "renderer/gl/render.h"

/* A parent key bound to the loaded models: from `frame` on, slot's bone (-1 none). */
typedef struct mmd_scene_acc_parent {
    double frame;
    int slot;
    int32_t bone;
} mmd_scene_acc_parent;

typedef struct mmd_scene_accessories {
    mmd_accessory_mesh *meshes[MMD_SCENE_MAX_ACCESSORIES];
    char *dirs[MMD_SCENE_MAX_ACCESSORIES];  /* folder of each .x (textures resolve there) */
    mmd_render_accessory place[MMD_SCENE_MAX_ACCESSORIES];
    const char *names[MMD_SCENE_MAX_ACCESSORIES];
    mmd_render_accessory base[MMD_SCENE_MAX_ACCESSORIES];   /* placement without keys */
    const mmd_scene_acc_key *keys[MMD_SCENE_MAX_ACCESSORIES]; /* borrowed from the scene */
    int key_count[MMD_SCENE_MAX_ACCESSORIES];
    mmd_scene_acc_parent *parents[MMD_SCENE_MAX_ACCESSORIES]; /* timed parents, NULL when one fixed */
    int parent_count[MMD_SCENE_MAX_ACCESSORIES];
    int count;
} mmd_scene_accessories;

/* MMD_OK, or an input status (the file's, or MMD_E_BAD_VALUE for a bone the
 * scene names that is not there) with "file: offset ..., x...: ..." or
 * "scene.ini:LINE: ..." in err->msg. Nothing to warn about today; a warning
 * would go through a mmd_warn_fn, as the stage's (stage.h). */
mmd_status mmd_scene_accessories_load(const mmd_scene *s, mmd_model *const *models, bool allow_outside,
                                      mmd_scene_accessories *out, mmd_error *err);
mmd_status mmd_scene_accessories_attach(const mmd_scene_accessories *a, mmd_renderer *r, mmd_error *err);
void mmd_scene_accessories_free(mmd_scene_accessories *a);
/* Some accessory has keys or timed parents: its placement changes over time. */
bool mmd_scene_accessories_animated(const mmd_scene_accessories *a);
/* a->place of every accessory at VMD time t: keys interpolated (linear
 * position/scale/opacity, slerped rotation, stepped visible/shadow; before
 * the first key the first, after the last the last), the parent key holding
 * at t (the last at or before it; none before the first). Pass a->place to
 * mmd_renderer_place_accessories afterwards. */
void mmd_scene_accessories_at(mmd_scene_accessories *a, double t);
/* Some material shows screen.bmp (the previous frame): a chunk must render the
 * frames before it, as a whole run does, to stay byte-identical. */
bool mmd_scene_accessories_use_screen(const mmd_scene_accessories *a);

#endif
