/* core/luminous.h - which materials and vertices glow, by AutoLuminous 4's rule.
 *
 * Many "AL-ready" MMD models mark their light parts for the MME effect
 * AutoLuminous (AL) 4 by sobolo; the glow pass (--glow) reads the same marks
 * so those models glow without edits. Facts from AL 4.2's Readme.txt (quoted in
 * ch.nicovideo.jp/t-ebiing/blomaga/ar353852 and mmdguide.tistory.com/575, /787),
 * its morph list (go.ysboke.cn/archives/920) and DESIGN.md I.5:
 *   - a material glows when its specular colour is black (|specular| < 0.01)
 *     and its specular power is above 100; the strength follows power - 100
 *     (110 is the readme's "standard" value): strength = (power - 100) / 7;
 *     the glow colour comes from the material's diffuse and ambient colours;
 *   - per-vertex glow: additional UV1 = (0.2, 0.7, ., .) marks a vertex; its
 *     colour is additional UV2's rgb and its strength UV2's a when the model
 *     has a second additional UV (else the surface colour at strength 1);
 *   - morphs by name change a model's glow: "LightUp" brightens up to 3x,
 *     "LightOff" turns it off, "LightBlink" blinks it (AL's blink period is a
 *     parameter of its .x; we blink once a second, depth = the weight).
 * Pure functions of material values, morph weights and time: deterministic.
 *
 *     mmd_luminous_morphs lm; mmd_luminous_find_morphs(model, &lm);
 *     per frame: k = mmd_luminous_model_factor(&lm, weights, t_seconds);
 *                per material: s = mmd_luminous_strength(&state) * k; (0 = none)
 */
#ifndef MMD_CORE_LUMINOUS_H
#define MMD_CORE_LUMINOUS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/anim.h"
#include "core/model.h"

#define MMD_LUMINOUS_MIN_POWER 100.0f   /* specular power above this marks emission */
#define MMD_LUMINOUS_MAX_SPECULAR 0.01f /* and |specular rgb| below this */
#define MMD_LUMINOUS_POWER_SCALE 7.0f   /* strength = (power - 100) / 7 */

typedef struct mmd_luminous_morphs {
    int32_t light_up, light_off, light_blink; /* morph indices, -1 when absent */
} mmd_luminous_morphs;

/* Strength of an AL-marked material state (> 0), 0 when not emissive. */
float mmd_luminous_strength(const mmd_material_state *s);
/* Glow colour of a material (before strength): saturate(diffuse + ambient). */
void mmd_luminous_color(const mmd_material_state *s, float rgb[3]);
/* Whether a vertex's additional UV1 carries AL's per-vertex mark (0.2, 0.7). */
bool mmd_luminous_vertex_marked(const float add_uv1[4]);
/* Finds the LightUp / LightOff / LightBlink morphs (Japanese or English name). */
void mmd_luminous_find_morphs(const mmd_model *m, mmd_luminous_morphs *out);
/* Model-wide multiplier from those morphs' weights (NULL weights: 1) at scene
 * time t_seconds: (1 + 2 up) * (1 - off) * (1 - blink * (0.5 - 0.5 cos 2 pi t)). */
float mmd_luminous_model_factor(const mmd_luminous_morphs *lm, const float *weights, double t_seconds);

#endif
