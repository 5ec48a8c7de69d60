/* renderer/gl/fx_object.h - MikuMikuEffect object effects drawn through the
 * renderer's per-object pass hook (render.h): each model slot may carry an
 * effect instance (fx_runtime.h, its object/object_ss/edge techniques linked
 * once); for each drawable and pass kind the hook picks MME's technique
 * (select.h), fills the material's values (semantics.h) and runs it, with
 * Draw=Geometry drawing the drawable (docs/effects.md "Object effects").
 *
 *     mmd_fx_objects *o; mmd_fx_objects_create(&opt, &o, &err);
 *     render options: .pass_hook = mmd_fx_objects_hook, .pass_hook_user = o
 *     after the models are added: mmd_fx_objects_add(o, r, slot, model, fx, &config, &err)
 *     per frame: mmd_fx_objects_frame(o, &frame); mmd_renderer_render(...);
 *                mmd_fx_objects_status(o, &err)   (a GL error in an effect)
 *     mmd_fx_objects_free(o);
 *
 * Without an effect on a slot the hook returns false at once: the built-in
 * passes draw it as before.
 */
#ifndef MMD_RENDERER_GL_FX_OBJECT_H
#define MMD_RENDERER_GL_FX_OBJECT_H

#include "core/fx.h"
#include "core/model.h"
#include "renderer/gl/fx_runtime.h"
#include "renderer/gl/render.h"

/* What the material globals need from the render (zeroed: defaults). */
typedef struct mmd_fx_objects_options {
    float ground_shadow_brightness; /* the renderer's (GROUNDSHADOWCOLOR = light x this, clamped) */
    bool ground_shadow_translucent; /* GROUNDSHADOWCOLOR's alpha 0.5 and MME's transp */
} mmd_fx_objects_options;

typedef struct mmd_fx_objects mmd_fx_objects;

mmd_status mmd_fx_objects_create(const mmd_fx_objects_options *opt, mmd_fx_objects **out, mmd_error *err);
void mmd_fx_objects_free(mmd_fx_objects *o); /* NULL is a no-op; frees the instances, not the parsed effects */

/* Model slot's effect: an instance of fx on r's context (config: the gl,
 * size, folder, texture and cache fields; the object fields are set here),
 * shared with an earlier slot given the same fx. add_blend: the model's
 * (MME's opadd); name: its file name, CONTROLOBJECT "(self)" (the frame's
 * item function finds it by that name; borrowed). MMD_E_UNSUPPORTED and the others of mmd_fx_effect_create
 * ("FILE:LINE: pass P: why"): the slot keeps the built-in passes. */
mmd_status mmd_fx_objects_add(mmd_fx_objects *o, mmd_renderer *r, size_t slot, const mmd_model *m, bool add_blend,
                              const char *name, const mmd_fx *fx, const mmd_fx_effect_config *config,
                              mmd_error *err);
/* The same for accessory slot's effect (mmd_renderer_add_accessory's order):
 * its subsets in the colour pass (no edge). */
mmd_status mmd_fx_objects_add_accessory(mmd_fx_objects *o, mmd_renderer *r, size_t slot,
                                        const mmd_accessory_mesh *mesh, bool add_blend, const mmd_fx *fx,
                                        const mmd_fx_effect_config *config, mmd_error *err);
/* Material's own effect on a slot added before (accessory: an accessory's
 * slot), MME's per-subset assignment: fx NULL ("none") gives the material the
 * built-in passes, else an instance of fx (shared with any slot or material
 * given the same fx) draws it instead of the slot's effect; a later call for
 * the same material wins. Errors as mmd_fx_objects_add's (the material then
 * keeps the built-in passes); MMD_E_USAGE for a slot not added. A slot
 * added with fx NULL draws with the built-in passes but its materials'. */
mmd_status mmd_fx_objects_add_material(mmd_fx_objects *o, mmd_renderer *r, bool accessory, size_t slot,
                                       uint32_t material, const mmd_fx *fx, const mmd_fx_effect_config *config,
                                       mmd_error *err);
/* Whether any slot or material has an effect. */
bool mmd_fx_objects_any(const mmd_fx_objects *o);

/* The frame's state (time, camera, light, CONTROLOBJECT) the next render's
 * draws start from; copied. */
void mmd_fx_objects_frame(mmd_fx_objects *o, const mmd_fx_frame *f);

/* The pass hook (mmd_pass_hook_fn; user: the mmd_fx_objects). */
bool mmd_fx_objects_hook(void *user, struct mmd_renderer *r, const mmd_drawable *d, mmd_fx_pass_kind kind,
                         const mmd_material_state *material, const mmd_pass_frame *f);

/* The first failure of a draw since the last call (then cleared): MMD_OK
 * or MMD_E_GL with err saying which effect. */
mmd_status mmd_fx_objects_status(mmd_fx_objects *o, mmd_error *err);

#endif
