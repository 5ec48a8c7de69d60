/* renderer/fx/select.h - MikuMikuEffect's technique choice: which technique
 * of an effect draws a drawable's pass of a kind, for a material. Pure (no
 * GL, no file): the effect runtime and the renderer's per-object pass hook
 * (gl/render.h) call it; tests/unit/test_fx_select.c checks it on nanoem's
 * fixtures and our own.
 *
 *     mmd_fx_select_query q = {.kind = MMD_FX_PASS_OBJECT_SS, .use = {.texture = true},
 *                              .material = 2, .material_count = 5};
 *     int t = mmd_fx_select_technique(fx, &q);
 *     t == MMD_FX_SELECT_BUILTIN: no technique is for it, the built-in pass draws;
 *     t == MMD_FX_SELECT_NOTHING: nothing is drawn there (a hidden material,
 *     or a material after the first of an effect with ScriptExternal);
 *     fx->techniques[t].pass_count == 0: the effect draws nothing there
 *     (MME's idiom `technique EdgeTec < string MMDPass = "edge"; > {}`).
 *
 * The rule is nanoem's (hkrn/nanoem emapp/src/Effect.cc Effect::findTechnique,
 * internalFindTechnique, validateTechnique; docs/effects.md "Passes of a
 * drawable"): candidates in order, the pass kind, for object_ss then object,
 * then (object and object_ss only) a technique without MMDPass, which MME's
 * reference makes an object technique (nanoem offers it to every kind); within a candidate the first technique in
 * file order whose Subset holds the material and whose UseTexture,
 * UseSphereMap, UseToon and UseSelfShadow annotations (bool) each equal the
 * material's (absent: either); zplot never for a ScriptClass "scene" effect.
 */
#ifndef MMD_RENDERER_FX_SELECT_H
#define MMD_RENDERER_FX_SELECT_H

#include <stdbool.h>

#include "core/fx.h"

/* The pass kinds of a drawable, in the order MMD draws them within a frame
 * (zplot: the self-shadow map, before the others), with MME's MMDPass names. */
#define MMD_FX_PASS_LIST(X) \
    X(ZPLOT, "zplot")        /* depth into the self-shadow map */ \
    X(OBJECT, "object")      /* the colour pass, self-shadow off */ \
    X(OBJECT_SS, "object_ss") /* the colour pass with the self-shadow */ \
    X(EDGE, "edge")          /* the outline (models) */ \
    X(SHADOW, "shadow")      /* MMD's planar ground shadow */

typedef enum mmd_fx_pass_kind {
#define X(id, name) MMD_FX_PASS_##id,
    MMD_FX_PASS_LIST(X)
#undef X
    MMD_FX_PASS_COUNT
} mmd_fx_pass_kind;

/* The kind's MMDPass name ("object_ss"); "" for a kind out of range. */
const char *mmd_fx_pass_kind_name(mmd_fx_pass_kind kind);
/* The kind an MMDPass value names (ASCII case-insensitive): true and *kind;
 * false for a name MME does not know. */
bool mmd_fx_pass_kind_parse(const char *name, mmd_fx_pass_kind *kind);

/* What a material has, as MME's Use* annotations ask. */
typedef struct mmd_fx_material_use {
    bool texture;     /* UseTexture: it has a texture */
    bool sphere;      /* UseSphereMap: it has a sphere map */
    bool toon;        /* UseToon: a PMD/PMX model's material (MME: true for models, false for accessories) */
    bool self_shadow; /* UseSelfShadow: the self-shadow is on for it */
} mmd_fx_material_use;

/* Whether fx is drawn over the frame, never as an object's passes: its
 * ScriptOrder (core/fx.h mmd_fx_script_order) is "postprocess" or
 * "preprocess", or its STANDARDSGLOBAL parameter says ScriptClass = "scene". */
bool mmd_fx_is_post_effect(const mmd_fx *fx);

/* The kind a technique's MMDPass names (absent or "": object, the kind its
 * passes are linked for; the choice also tries it for every other kind, last):
 * true and *kind; false for a name MME does not know (never chosen). */
bool mmd_fx_technique_kind(const mmd_fx_technique *t, mmd_fx_pass_kind *kind);

/* What the choice is asked: a drawable's material in a pass of a kind. */
typedef struct mmd_fx_select_query {
    mmd_fx_pass_kind kind;
    mmd_fx_material_use use;
    uint32_t material;       /* its index in the model or accessory */
    uint32_t material_count; /* the model's or accessory's materials (Subset's "a-" ends at the last) */
    bool hidden;             /* not drawn at all (MMD's material with alpha 0) */
} mmd_fx_select_query;

/* mmd_fx_select_technique's answers besides a technique index. */
enum { MMD_FX_SELECT_BUILTIN = -1, MMD_FX_SELECT_NOTHING = -2 };

/* Index of the technique MME would draw the query with, or
 * MMD_FX_SELECT_BUILTIN / MMD_FX_SELECT_NOTHING (fx or q NULL: built-in). */
int mmd_fx_select_technique(const mmd_fx *fx, const mmd_fx_select_query *q);

/* Whether Subset (a technique's annotation: "0,3-5,10-") holds material of
 * count, as nanoem parses it (PrivateEffectUtils::parseSubsetString): a
 * comma-separated list of an index, "a-b" (both ends clamped to the
 * materials, swapped when reversed), "a-" (to the last material); a list
 * that names no material at all (NULL, "", every index past the end) holds
 * every material. */
bool mmd_fx_subset_has(const char *subset, uint32_t material, uint32_t count);

#endif
