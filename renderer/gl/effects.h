/* renderer/gl/effects.h - the optional looks beyond MMD's default (issue 18).
 *
 * Every effect is off in mmd_effects_default, and off renders the very bytes
 * the renderer drew before effects existed. Scene keys ([effects]) and CLI
 * options (--glow, --soft-shadow, --diffusion, --ssaa, --fxaa) fill this
 * struct; docs/effects.md documents the keys and ranges below.
 */
#ifndef MMD_RENDERER_GL_EFFECTS_H
#define MMD_RENDERER_GL_EFFECTS_H

#include <stdbool.h>

typedef enum mmd_soft_shadow_mode {
    MMD_SOFT_SHADOW_PCF = 0,     /* fixed-width percentage-closer filter */
    MMD_SOFT_SHADOW_CONTACT = 1, /* width from the blocker distance (hard at contact) */
} mmd_soft_shadow_mode;

typedef struct mmd_effects {
    /* AutoLuminous-compatible glow (core/luminous.h marks): emission into a
     * float target, bloomed through a blur chain at reduced resolution */
    bool glow;
    float glow_strength;       /* 0..10, default 1 */
    float glow_radius;         /* 0.25..4, default 1 (halo ~ 8% of the frame height) */
    /* soft self-shadow: PCF of MMD's shadow map */
    bool soft_shadow;
    float soft_shadow_radius;  /* shadow-map texels, 0.5..8, default 2 */
    mmd_soft_shadow_mode soft_shadow_mode;
    /* Diffusion: bloom of the whole frame above a threshold, screen-blended */
    bool diffusion;
    float diffusion_strength;  /* 0..2, default 0.5 */
    float diffusion_threshold; /* 0..1 (luma), default 0.6 */
    int ssaa;                  /* supersampling factor 1 (off), 2, 3 or 4 */
    bool fxaa;                 /* post-process edge anti-aliasing */
} mmd_effects;

void mmd_effects_default(mmd_effects *e);
/* Whether any pass after the colour pass runs (the frame goes through a texture). */
bool mmd_effects_post(const mmd_effects *e);

#endif
